// SPDX-License-Identifier: GPL-2.0
/* A TPACKET_V3 receive ring: see rxring.h. */
#include <errno.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/clock.h"
#include "rxring.h"

/* Blocks of 256 KiB: a page multiple, about 1800 small frames each. */
#define BLOCK_SIZE	(256u << 10)
#define MIN_BLOCKS	4u
/* The kernel's frame size rule only; V3 packs frames as they come. */
#define FRAME_SIZE	2048u

int tw_rxring_open(struct tw_rxring *rr, int fd, size_t bytes,
		   unsigned int timeout_ms)
{
	struct tpacket_req3 req = {
		.tp_block_size = BLOCK_SIZE,
		.tp_frame_size = FRAME_SIZE,
		.tp_retire_blk_tov = timeout_ms,
	};
	int version = TPACKET_V3;
	size_t len;
	void *map;

	req.tp_block_nr = (unsigned int)(bytes / BLOCK_SIZE);
	if (req.tp_block_nr < MIN_BLOCKS)
		req.tp_block_nr = MIN_BLOCKS;
	req.tp_frame_nr = req.tp_block_nr * (BLOCK_SIZE / FRAME_SIZE);
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &version,
		       sizeof(version)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		return -errno;
	len = (size_t)req.tp_block_nr * BLOCK_SIZE;
	/* The kernel maps every page of the ring now: no fault later. */
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	*rr = (struct tw_rxring){
		.fd = fd, .map = map, .block_size = BLOCK_SIZE,
		.block_nr = req.tp_block_nr,
	};
	return 0;
}

static int sock_error(int fd)
{
	socklen_t len = sizeof(int);
	int err = 0;

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return errno;
	return err ? err : EIO;
}

static struct tpacket_block_desc *block(const struct tw_rxring *rr,
					unsigned int i)
{
	return (struct tpacket_block_desc *)(rr->map + i * rr->block_size);
}

static int block_walk(struct tpacket_block_desc *b,
		      void (*fn)(void *arg, const struct tw_rxring_frame *f),
		      void *arg)
{
	const uint8_t *p = (const uint8_t *)b + b->hdr.bh1.offset_to_first_pkt;
	uint32_t i, n = b->hdr.bh1.num_pkts;

	for (i = 0; i < n; i++) {
		const struct tpacket3_hdr *h = (const void *)p;
		const struct sockaddr_ll *sll = (const void *)
			(p + TPACKET_ALIGN(sizeof(*h)));
		struct tw_rxring_frame f = {
			.data = p + h->tp_mac,
			.len = h->tp_snaplen,
			.pkttype = sll->sll_pkttype,
			.rt_ns = (int64_t)h->tp_sec * TW_NSEC_PER_SEC +
				 h->tp_nsec,
		};

		fn(arg, &f);
		p += h->tp_next_offset;
	}
	return (int)n;
}

int tw_rxring_read(struct tw_rxring *rr, int wait_ms,
		   void (*fn)(void *arg, const struct tw_rxring_frame *f),
		   void *arg)
{
	struct pollfd pfd = { .fd = rr->fd, .events = POLLIN };
	struct tpacket_block_desc *b = block(rr, rr->next);
	unsigned int blocks = 0;
	int seen = 0;

	if (!(__atomic_load_n(&b->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
	      TP_STATUS_USER)) {
		if (poll(&pfd, 1, wait_ms) < 0 && errno != EINTR)
			return -errno;
		/* The device went down, say: read once, or poll says it again. */
		if (pfd.revents & POLLERR)
			return -sock_error(rr->fd);
	}
	/*
	 * Blocks fill in ring order: stop at the first the kernel holds, or
	 * after one round, so that a caller looks at its stop flag.
	 */
	while (blocks++ < rr->block_nr &&
	       __atomic_load_n(&b->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
	       TP_STATUS_USER) {
		seen += block_walk(b, fn, arg);
		__atomic_store_n(&b->hdr.bh1.block_status, TP_STATUS_KERNEL,
				 __ATOMIC_RELEASE);
		rr->next = (rr->next + 1) % rr->block_nr;
		b = block(rr, rr->next);
	}
	return seen;
}

void tw_rxring_close(struct tw_rxring *rr)
{
	if (rr->map)
		munmap(rr->map, (size_t)rr->block_nr * rr->block_size);
	rr->map = NULL;
}
