/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A packet socket's receive ring (PACKET_RX_RING, TPACKET_V3): the kernel
 * copies each frame into memory shared with the process in its receive
 * path and the reader walks whole blocks of frames without a system call
 * per frame.  Where the reader shares a CPU with a busy sender, that is
 * the per-frame receive work taken off that CPU.
 */
#ifndef TW_RXRING_H
#define TW_RXRING_H

#include <stddef.h>
#include <stdint.h>

struct tw_rxring {
	int fd;
	uint8_t *map;
	size_t block_size;
	unsigned int block_nr;
	unsigned int next;	/* the block to read next */
};

struct tw_rxring_frame {
	const uint8_t *data;	/* from the link-layer header */
	size_t len;		/* bytes at data (the frame, or what fitted) */
	uint8_t pkttype;	/* PACKET_HOST, PACKET_OUTGOING, ... */
	int64_t rt_ns;		/* the kernel's receive time, CLOCK_REALTIME */
};

/*
 * Sets up a ring of about bytes on the packet socket fd (before bind or
 * after; not yet read from).  A block not filled is handed over by the
 * kernel's timer of timeout_ms, rounded up to jiffies: within two ticks
 * of it.  0 or -errno.
 */
int tw_rxring_open(struct tw_rxring *rr, int fd, size_t bytes,
		   unsigned int timeout_ms);
/*
 * Calls fn for every frame of the blocks ready, in order, and gives them
 * back; waits up to wait_ms when none is.  Frames seen, or -errno (the
 * socket's error when it has one, as when the device goes down).
 */
int tw_rxring_read(struct tw_rxring *rr, int wait_ms,
		   void (*fn)(void *arg, const struct tw_rxring_frame *f),
		   void *arg);
void tw_rxring_close(struct tw_rxring *rr);

#endif /* TW_RXRING_H */
