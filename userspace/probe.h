/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload of the probe packets sent by "timewire omware send",
 * "train" and "pair", shared by every program that receives or analyses
 * them.
 *
 * The probe sits at the start of the UDP payload of an IPv4/UDP packet.
 * All fields are big endian; the layout has no holes and needs no
 * alignment (read it with tw_probe_parse(), never by casting a pointer
 * into a received buffer).
 *
 *   offset  size  field
 *        0     4  magic     TW_PROBE_MAGIC, 0x54574952 ("TWIR")
 *        4     4  seq       sequence number of the packet in its run,
 *                           0, 1, 2, ... in the order of the schedule;
 *                           it is also the packet's netlink cookie
 *        8     8  sched_ns  time the packet was scheduled for, in
 *                           nanoseconds of the session clock (CLOCK_MONOTONIC
 *                           unless the run chose tai or realtime); for a
 *                           train, the time of the train
 *       16     4  flags     bit 0  TW_PROBE_F_FOLLOWER: not the first packet
 *                                  of its train (the second of a pair)
 *                           bit 1  TW_PROBE_F_TRAIN: sent as part of a
 *                                  train (OMWARE_CMD_TRAIN)
 *                           bits 2-15   zero
 *                           bits 16-31  index of the packet within its
 *                                       train, 0 for the first (and for
 *                                       packets not in a train)
 *       20     -  padding   zero bytes up to the requested packet size
 *
 * A packet of a train is the first one of its train iff its index is 0;
 * the train a packet belongs to is seq - index.  The smallest probe packet
 * is 48 bytes of IP: 20 (IPv4) + 8 (UDP) + TW_PROBE_LEN.
 */
#ifndef TW_PROBE_H
#define TW_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <endian.h>
#include <linux/types.h>

#ifndef __packed
#define __packed	__attribute__((__packed__))
#endif

#define TW_PROBE_MAGIC		0x54574952u	/* "TWIR" */
#define TW_PROBE_LEN		20

#define TW_PROBE_OFF_MAGIC	0
#define TW_PROBE_OFF_SEQ	4
#define TW_PROBE_OFF_SCHED	8
#define TW_PROBE_OFF_FLAGS	16

/* UDP port used for both ends unless told otherwise. */
#define TW_PROBE_PORT		29000

#define TW_PROBE_F_FOLLOWER	0x1u
#define TW_PROBE_F_TRAIN	0x2u
#define TW_PROBE_INDEX_SHIFT	16
#define TW_PROBE_INDEX_MAX	0xffffu

/* The probe as it is on the wire. */
struct tw_probe_wire {
	__be32 magic;
	__be32 seq;
	__be64 sched_ns;
	__be32 flags;
} __packed;

_Static_assert(sizeof(struct tw_probe_wire) == TW_PROBE_LEN,
	       "probe layout changed");

/* The probe in host byte order. */
struct tw_probe {
	uint32_t seq;
	uint64_t sched_ns;
	uint32_t flags;
};

static inline uint32_t tw_probe_index(const struct tw_probe *p)
{
	return p->flags >> TW_PROBE_INDEX_SHIFT;
}

static inline uint32_t tw_probe_train_flags(uint32_t index)
{
	return TW_PROBE_F_TRAIN | (index ? TW_PROBE_F_FOLLOWER : 0) |
	       (index & TW_PROBE_INDEX_MAX) << TW_PROBE_INDEX_SHIFT;
}

/* Write the probe at buf, which has room for TW_PROBE_LEN bytes. */
static inline void tw_probe_put(void *buf, const struct tw_probe *p)
{
	uint8_t *b = buf;
	uint32_t v32;
	uint64_t v64;

	v32 = htobe32(TW_PROBE_MAGIC);
	memcpy(b + TW_PROBE_OFF_MAGIC, &v32, 4);
	v32 = htobe32(p->seq);
	memcpy(b + TW_PROBE_OFF_SEQ, &v32, 4);
	v64 = htobe64(p->sched_ns);
	memcpy(b + TW_PROBE_OFF_SCHED, &v64, 8);
	v32 = htobe32(p->flags);
	memcpy(b + TW_PROBE_OFF_FLAGS, &v32, 4);
}

/* Read a probe from a UDP payload: 0, or -1 if it is not one. */
static inline int tw_probe_parse(const void *buf, size_t len,
				 struct tw_probe *p)
{
	const uint8_t *b = buf;
	uint32_t v32;
	uint64_t v64;

	if (len < TW_PROBE_LEN)
		return -1;
	memcpy(&v32, b + TW_PROBE_OFF_MAGIC, 4);
	if (be32toh(v32) != TW_PROBE_MAGIC)
		return -1;
	memcpy(&v32, b + TW_PROBE_OFF_SEQ, 4);
	p->seq = be32toh(v32);
	memcpy(&v64, b + TW_PROBE_OFF_SCHED, 8);
	p->sched_ns = be64toh(v64);
	memcpy(&v32, b + TW_PROBE_OFF_FLAGS, 4);
	p->flags = be32toh(v32);
	return 0;
}

#endif /* TW_PROBE_H */
