/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfib.h - the timely forwarding table: user ID -> address tuple.
 *
 * A chained hash table of fixed capacity.  Entries (and, in the rcu mode,
 * the published copies of tuples) come from pools allocated at creation,
 * so that no lookup or write allocates.  How readers and writers are kept
 * apart is chosen per table, behind one interface with one semantics:
 *
 *   rwlock    one readers-writer lock for the table;
 *   rcu       lock-free readers under RCU; a writer fills a fresh copy of
 *             the tuple, publishes it, and the old one returns to the pool
 *             after a grace period;
 *   bucket    a per-bucket lock taken with one compare-and-swap, by
 *             readers and writers alike;
 *   seqcount  lock-free readers under RCU (for inserts and deletes), the
 *             per-bucket lock for writers, the tuple rewritten in place
 *             under a per-entry seqcount that readers retry on.
 *
 * Every mode gives the same guarantees: a lookup returns a tuple exactly as
 * one insert or update wrote it (never a mix of two), and at least as new
 * as the last write that completed before the lookup began.
 *
 * Lookups and writes may run in process or softirq context (never in
 * hardirq or NMI: the locks only disable bottom halves); tw_tfib_dump(),
 * tw_tfib_reclaim() and tw_tfib_destroy() sleep.  Writers may run
 * concurrently with each other (in the rwlock mode they serialise).
 *
 * tw_tfib_set() keeps an ID's tuple from going back in time: it writes
 * only a tuple whose seq is after the stored one in serial-number
 * arithmetic (RFC 1982: (s32)(new - old) > 0), so that two updates applied
 * out of order leave the newer, whatever the order of the writers.
 */
#ifndef _TW_TFIB_H
#define _TW_TFIB_H

#include "compat.h"

#define TW_TFIB_MAC_LEN		6
#define TW_TFIB_MAX_CAPACITY	(1U << 24)
/*
 * Entries a bucket holds on average at most (capacity / buckets): a
 * lookup walks its chain in softirq context, which must stay short.
 */
#define TW_TFIB_MAX_LOAD		16

/* The value stored for one user. */
struct tw_tfib_tuple {
	u64 ts_ns;			/* location timestamp */
	u32 seq;			/* sequence of the location update */
	u8 mac[TW_TFIB_MAC_LEN];		/* next hop */
};

enum tw_tfib_sync {
	TW_TFIB_RWLOCK,
	TW_TFIB_RCU,
	TW_TFIB_BUCKET,
	TW_TFIB_SEQCOUNT,
	TW_TFIB_SYNC_COUNT,
};

/* tw_tfib_config.flags */
#define TW_TFIB_PREFETCH	0x1	/* tw_tfib_prefetch() does prefetch */

/* tw_tfib_set() flags */
#define TW_TFIB_SET_FORCE	0x1	/* write whatever the stored seq */

struct tw_tfib_config {
	u32 capacity;		/* entries, 1 .. TW_TFIB_MAX_CAPACITY */
	u32 buckets;		/* a power of two; 0: capacity rounded up */
	/*
	 * rcu mode: tuples that may wait for their grace period at once,
	 * the bound of the deferred-free backlog; 0: capacity.
	 */
	u32 spares;
	u32 seed;		/* of the hash; a random one per table */
	u8 sync;		/* enum tw_tfib_sync */
	u8 flags;
};

struct tw_tfib_stats {
	u64 lookups;
	u64 misses;
	u64 inserts;
	u64 updates;
	u64 deletes;
	u64 retries;		/* seqcount: reads done again */
	u64 spins;		/* bucket lock: waits for a held lock */
	u64 busy;		/* rcu: writes refused, every spare waiting */
	u64 stale;		/* tw_tfib_set(): refused, seq not after stored */
	u64 prefetches;		/* tw_tfib_prefetch() calls that prefetched */
	u32 entries;		/* in the table */
	u32 backlog;		/* entries and tuples waiting for a grace period */
	u32 backlog_peak;
};

/* Where a dump resumes: zero it before the first call. */
struct tw_tfib_cursor {
	u32 bucket;
	u32 skip;		/* entries of that bucket already passed */
};

/* A dump callback: non-zero stops the dump (and is returned). */
typedef int (*tw_tfib_dump_fn)(void *arg, u32 id,
			      const struct tw_tfib_tuple *tuple);

struct tw_tfib;

int tw_tfib_create(struct tw_tfib **fibp, const struct tw_tfib_config *cfg);
void tw_tfib_destroy(struct tw_tfib *fib);
u64 tw_tfib_mem_size(const struct tw_tfib_config *cfg);

int tw_tfib_insert(struct tw_tfib *fib, u32 id, const struct tw_tfib_tuple *t);
int tw_tfib_update(struct tw_tfib *fib, u32 id, const struct tw_tfib_tuple *t);
int tw_tfib_set(struct tw_tfib *fib, u32 id, const struct tw_tfib_tuple *t,
		u32 flags);
bool tw_tfib_seq_after(u32 a, u32 b);
int tw_tfib_delete(struct tw_tfib *fib, u32 id);
int tw_tfib_lookup(struct tw_tfib *fib, u32 id, struct tw_tfib_tuple *t);
void tw_tfib_prefetch(struct tw_tfib *fib, u32 id);
int tw_tfib_dump(struct tw_tfib *fib, struct tw_tfib_cursor *pos,
		 tw_tfib_dump_fn fn, void *arg);
void tw_tfib_reclaim(struct tw_tfib *fib);

void tw_tfib_get_stats(struct tw_tfib *fib, struct tw_tfib_stats *st);
u32 tw_tfib_bucket_of(const struct tw_tfib *fib, u32 id);
u32 tw_tfib_buckets(const struct tw_tfib *fib);
const char *tw_tfib_sync_name(enum tw_tfib_sync sync);

#endif /* _TW_TFIB_H */
