/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfib_client.h - a small client of the tfib family for the tests.
 *
 * Raw generic netlink, no library: the bad-input tests build requests the
 * timewire CLI would never send (tfc_msg), and every call hands back the
 * kernel's errno with its extended ack (struct tfc_ack).  Functions return
 * 0 or a negative errno, which is also in the ack.
 */
#ifndef TFIB_CLIENT_H
#define TFIB_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>
#include <linux/tfib.h>

#define TFC_NAME_LEN	(TFIB_NAME_MAX_LEN + 1)	/* with the NUL */
#define TFC_MAX_BINS	128

struct tfc {
	int fd;
	uint16_t family;	/* the family's id */
	uint32_t portid;
	uint32_t seq;
	unsigned int batches;	/* datagrams the last dump came in */
};

/* The answer to a request: errno and extended ack. */
struct tfc_ack {
	int err;
	bool has_msg, has_offs, has_miss;
	char msg[256];
	uint32_t offs;		/* of the bad attribute, in the request */
	uint32_t miss_type;	/* the missing attribute */
};

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

/* A request under construction. */
struct tfc_msg {
	uint8_t buf[16384];
	size_t len;
	size_t nest[4];		/* offsets of the open nests */
	int nests;
};

const char *tfc_errname(int err);

/* 0, -ENOENT when the family is not registered, or another -errno. */
int tfc_open(struct tfc *c);
void tfc_close(struct tfc *c);

/* Raw requests. */
void tfc_msg_init(struct tfc_msg *m, struct tfc *c, uint8_t cmd,
		  uint16_t flags);
void tfc_put(struct tfc_msg *m, uint16_t type, const void *data, size_t len);
void tfc_put_u8(struct tfc_msg *m, uint16_t type, uint8_t v);
void tfc_put_u32(struct tfc_msg *m, uint16_t type, uint32_t v);
void tfc_put_u64(struct tfc_msg *m, uint16_t type, uint64_t v);
void tfc_put_str(struct tfc_msg *m, uint16_t type, const char *s);
void tfc_nest_start(struct tfc_msg *m, uint16_t type);
void tfc_nest_end(struct tfc_msg *m);
/* Offset the kernel reports for the attribute put last (extack offs). */
uint32_t tfc_last_offs(const struct tfc_msg *m);

/*
 * Send @m and read until its ack (or the end of the dump): each reply
 * message goes to @cb, if any.  Returns the errno, also in @a.
 */
typedef int (*tfc_reply_fn)(const struct nlmsghdr *nlh, void *arg);
int tfc_xfer(struct tfc *c, struct tfc_msg *m, tfc_reply_fn cb, void *arg,
	     struct tfc_ack *a);

/* The commands. */
int tfc_table_new(struct tfc *c, const struct tfc_table_cfg *cfg,
		  struct tfc_ack *a);
int tfc_table_del(struct tfc *c, const char *name, struct tfc_ack *a);
int tfc_table_get(struct tfc *c, const char *name, struct tfc_table *t,
		  struct tfc_ack *a);
/* *out is malloc'ed, *n tables. */
int tfc_table_dump(struct tfc *c, struct tfc_table **out, size_t *n,
		   struct tfc_ack *a);
int tfc_entry_set(struct tfc *c, const char *table, const struct tfc_entry *e,
		  struct tfc_ack *a);
int tfc_entry_get(struct tfc *c, const char *table, uint32_t user_id,
		  struct tfc_entry *e, struct tfc_ack *a);
int tfc_entry_del(struct tfc *c, const char *table, uint32_t user_id,
		  struct tfc_ack *a);
/* *out is malloc'ed, *n entries; c->batches: datagrams it took. */
int tfc_entry_dump(struct tfc *c, const char *table, struct tfc_entry **out,
		   size_t *n, struct tfc_ack *a);
int tfc_bind(struct tfc *c, const char *table, const struct tfc_bind_cfg *cfg,
	     struct tfc_ack *a);
int tfc_unbind(struct tfc *c, const char *table, struct tfc_ack *a);
int tfc_stats_get(struct tfc *c, const char *table, struct tfc_stats *st,
		  struct tfc_ack *a);
/* *out is malloc'ed, *n tables' counters. */
int tfc_stats_dump(struct tfc *c, struct tfc_stats **out, size_t *n,
		   struct tfc_ack *a);

/* Defaults: a table of @capacity named @name, every setting left out. */
struct tfc_table_cfg tfc_table_defaults(const char *name, uint32_t capacity);
struct tfc_bind_cfg tfc_bind_defaults(uint32_t ifindex);

#endif
