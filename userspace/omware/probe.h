/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload of the probe packets sent by "timewire omware send",
 * "train", "pair" and "bench", shared by every program that receives or
 * analyses them.
 *
 * The probe sits at the start of the UDP payload of an IPv4/UDP packet.
 * All fields are big endian; the layouts have no holes and need no
 * alignment (read them with tw_probe_parse(), never by casting a pointer
 * into a received buffer).  There are two layouts; the sender uses the
 * full one whenever the packet has room for it.
 *
 * Full probe, 20 bytes (IP packets of 48 bytes and more):
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
 * Compact probe, 12 bytes, so that the smallest probe packet is 40 bytes
 * of IP (20 IPv4 + 8 UDP + 12):
 *
 *   offset  size  field
 *        0     2  magic     TW_PROBE_MAGIC16, 0x7477 ("tw")
 *        2     2  flags     bits 0-1 as in the full probe, bits 2-15 the
 *                           index within the train (at most 16383)
 *        4     4  seq       as in the full probe
 *        8     4  sched_lo  the low 32 bits of sched_ns
 *       12     -  padding
 *
 * A receiver restores the high bits of a compact probe's sched_ns from a
 * time of its own in the same clock (tw_probe_unwrap()); that is exact
 * while the two are within 2.1 s of each other.  tw_probe_parse() reports
 * the low bits alone and sets compact.
 *
 * A packet of a train is the first one of its train iff its index is 0;
 * the train a packet belongs to is seq - index.
 */
#ifndef TW_PROBE_H
#define TW_PROBE_H

#include <stdbool.h>
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
#define TW_PROBE_MAGIC16	0x7477u		/* "tw" */
#define TW_PROBE_COMPACT_LEN	12

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
#define TW_PROBE_COMPACT_INDEX_MAX 0x3fffu

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
	uint64_t sched_ns;	/* only the low 32 bits if compact */
	uint32_t flags;
	bool compact;		/* read from a compact probe */
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

/* Bytes of probe that fit in a UDP payload of room bytes; 0 if none. */
static inline size_t tw_probe_len(size_t room)
{
	if (room >= TW_PROBE_LEN)
		return TW_PROBE_LEN;
	return room >= TW_PROBE_COMPACT_LEN ? TW_PROBE_COMPACT_LEN : 0;
}

static inline void tw_probe_put32(uint8_t *b, uint32_t v)
{
	v = htobe32(v);
	memcpy(b, &v, 4);
}

static inline uint32_t tw_probe_get32(const uint8_t *b)
{
	uint32_t v;

	memcpy(&v, b, 4);
	return be32toh(v);
}

/*
 * Write the probe at buf, which has room bytes: the full layout if it
 * fits, else the compact one, which keeps the flags' bits 0-1 and the
 * index's low 14 bits (callers keep trains within TW_PROBE_COMPACT_INDEX_MAX
 * + 1 packets); nothing if not even that fits.
 */
static inline void tw_probe_put(void *buf, size_t room,
				const struct tw_probe *p)
{
	uint8_t *b = buf;
	uint64_t v64;
	uint16_t v16;

	if (!tw_probe_len(room))
		return;
	if (tw_probe_len(room) == TW_PROBE_COMPACT_LEN) {
		v16 = htobe16(TW_PROBE_MAGIC16);
		memcpy(b, &v16, 2);
		v16 = htobe16((p->flags & 0x3) |
			      (tw_probe_index(p) & TW_PROBE_COMPACT_INDEX_MAX) << 2);
		memcpy(b + 2, &v16, 2);
		tw_probe_put32(b + 4, p->seq);
		tw_probe_put32(b + 8, (uint32_t)p->sched_ns);
		return;
	}
	tw_probe_put32(b + TW_PROBE_OFF_MAGIC, TW_PROBE_MAGIC);
	tw_probe_put32(b + TW_PROBE_OFF_SEQ, p->seq);
	v64 = htobe64(p->sched_ns);
	memcpy(b + TW_PROBE_OFF_SCHED, &v64, 8);
	tw_probe_put32(b + TW_PROBE_OFF_FLAGS, p->flags);
}

/* Read a probe (either layout) from a UDP payload: 0, or -1 if none. */
static inline int tw_probe_parse(const void *buf, size_t len,
				 struct tw_probe *p)
{
	const uint8_t *b = buf;
	uint64_t v64;
	uint16_t v16;

	if (len >= TW_PROBE_LEN &&
	    tw_probe_get32(b + TW_PROBE_OFF_MAGIC) == TW_PROBE_MAGIC) {
		p->seq = tw_probe_get32(b + TW_PROBE_OFF_SEQ);
		memcpy(&v64, b + TW_PROBE_OFF_SCHED, 8);
		p->sched_ns = be64toh(v64);
		p->flags = tw_probe_get32(b + TW_PROBE_OFF_FLAGS);
		p->compact = false;
		return 0;
	}
	if (len < TW_PROBE_COMPACT_LEN)
		return -1;
	memcpy(&v16, b, 2);
	if (be16toh(v16) != TW_PROBE_MAGIC16)
		return -1;
	memcpy(&v16, b + 2, 2);
	v16 = be16toh(v16);
	p->flags = (v16 & 0x3) | (uint32_t)(v16 >> 2) << TW_PROBE_INDEX_SHIFT;
	p->seq = tw_probe_get32(b + 4);
	p->sched_ns = tw_probe_get32(b + 8);
	p->compact = true;
	return 0;
}

/*
 * The full time whose low 32 bits are lo and which is nearest to ref (both
 * in nanoseconds of one clock): exact while they are less than 2^31 ns
 * (2.1 s) apart.
 */
static inline uint64_t tw_probe_unwrap(uint32_t lo, uint64_t ref)
{
	return ref + (int64_t)(int32_t)(lo - (uint32_t)ref);
}

#endif /* TW_PROBE_H */
