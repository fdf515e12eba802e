/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twt_tfib.h - the tfib family for the guest tests' programs (the tfib
 * suite's and the netlink fuzzer's): one call per command, replies parsed
 * by hand, requests the bad-input tests complete attribute by attribute
 * (tfc_msg).  Every call hands back the kernel's errno with its extended
 * ack (struct twt_ack, twt_nl.h): 0 or a negative errno, also in the ack.
 */
#ifndef TWT_TFIB_H
#define TWT_TFIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/tfib.h>

#include "twt_nl.h"

#define TFC_NAME_LEN	(TFIB_NAME_MAX_LEN + 1)	/* with the NUL */
#define TFC_MAX_BINS	128

/* TABLE_NEW: zero (or -1 for sync and clockid) is "leave it out". */
struct tfc_table_cfg {
	const char *name;
	uint32_t capacity;
	uint32_t buckets;
	uint32_t spares;
	int sync;		/* enum tfib_sync, -1: default */
	int clockid;		/* -1: default */
	bool prefetch;
};

/* A TABLE_GET reply. */
struct tfc_table {
	char name[TFC_NAME_LEN];
	char ifname[TFC_NAME_LEN];
	bool has[TFIB_A_MAX + 1];	/* which attributes came */
	uint32_t capacity, buckets, spares, clockid, entries;
	uint32_t ifindex, workers, control_ring, data_ring, burst;
	uint8_t sync, fwd_mode, pick;
};

/* An entry; has_ts and has_seq: what ENTRY_SET sends. */
struct tfc_entry {
	char table[TFC_NAME_LEN];
	uint32_t user_id;
	uint8_t mac[6];
	uint64_t ts_ns;
	uint32_t seq;
	bool has_ts, has_seq;
	bool force;		/* set: TFIB_A_FORCE */
};

/* BIND: zero (or -1 for mode and pick) is "leave it out". */
struct tfc_bind_cfg {
	uint32_t ifindex;
	int mode;		/* enum tfib_fwd_mode, -1: default */
	int pick;		/* enum tfib_pick, -1: default */
	uint32_t workers, control_ring, data_ring, burst;
};

struct tfc_ring {
	uint8_t kind;
	uint32_t size, peak;
	uint64_t enqueued, dropped;
};

struct tfc_worker {
	uint32_t index, cpu;
	uint8_t kind;
	uint64_t runs, pkts, bursts;
};

struct tfc_bin {
	uint64_t upper, count;
};

/* A STATS_GET reply; big (the workers): allocate it, don't stack it. */
struct tfc_stats {
	char table[TFC_NAME_LEN];
	bool has[TFIB_STATS_A_MAX + 1];
	uint64_t v[TFIB_STATS_A_MAX + 1];
	struct tfc_ring ring[TFIB_RING_KIND_MAX + 1];
	unsigned int nring;
	struct tfc_worker worker[TFIB_MAX_WORKERS + 1];
	unsigned int nworker;
	struct tfc_bin age[TFC_MAX_BINS];
	unsigned int nage;
	struct tfc_bin burst[TFC_MAX_BINS];
	unsigned int nburst;
	int bad;		/* attributes of the wrong size or too many */
};

/* 0, -ENOENT when the family is not registered, or another -errno. */
int tfc_open(struct twt *c);
/* A request naming table (NULL: none), to complete with nla_put*(). */
struct nl_msg *tfc_msg(struct twt *c, uint8_t cmd, int flags,
		       const char *table);

/* The commands. */
int tfc_table_new(struct twt *c, const struct tfc_table_cfg *cfg,
		  struct twt_ack *a);
int tfc_table_del(struct twt *c, const char *name, struct twt_ack *a);
int tfc_table_get(struct twt *c, const char *name, struct tfc_table *t,
		  struct twt_ack *a);
/* *out is malloc'ed, *n tables. */
int tfc_table_dump(struct twt *c, struct tfc_table **out, size_t *n,
		   struct twt_ack *a);
int tfc_entry_set(struct twt *c, const char *table, const struct tfc_entry *e,
		  struct twt_ack *a);
int tfc_entry_get(struct twt *c, const char *table, uint32_t user_id,
		  struct tfc_entry *e, struct twt_ack *a);
int tfc_entry_del(struct twt *c, const char *table, uint32_t user_id,
		  struct twt_ack *a);
/* *out is malloc'ed, *n entries; c->datagrams: how many it came in. */
int tfc_entry_dump(struct twt *c, const char *table, struct tfc_entry **out,
		   size_t *n, struct twt_ack *a);
int tfc_bind(struct twt *c, const char *table, const struct tfc_bind_cfg *cfg,
	     struct twt_ack *a);
int tfc_unbind(struct twt *c, const char *table, struct twt_ack *a);
int tfc_stats_get(struct twt *c, const char *table, struct tfc_stats *st,
		  struct twt_ack *a);
/* *out is malloc'ed, *n tables' counters. */
int tfc_stats_dump(struct twt *c, struct tfc_stats **out, size_t *n,
		   struct twt_ack *a);

/* Defaults: a table of @capacity named @name, every setting left out. */
struct tfc_table_cfg tfc_table_defaults(const char *name, uint32_t capacity);
struct tfc_bind_cfg tfc_bind_defaults(uint32_t ifindex);

#endif
