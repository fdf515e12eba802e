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
 * hardirq or NMI: the locks only disable bottom halves); tw_fib_dump(),
 * tw_fib_reclaim() and tw_fib_destroy() sleep.  Writers may run
 * concurrently with each other (in the rwlock mode they serialise).
 *
 * tw_fib_set() keeps an ID's tuple from going back in time: it writes
 * only a tuple whose seq is after the stored one in serial-number
 * arithmetic (RFC 1982: (s32)(new - old) > 0), so that two updates applied
 * out of order leave the newer, whatever the order of the writers.
 */
#ifndef _TW_FIB_H
#define _TW_FIB_H

#include "compat.h"

#define TW_FIB_MAC_LEN		6
#define TW_FIB_MAX_CAPACITY	(1U << 24)
/*
 * Entries a bucket holds on average at most (capacity / buckets): a
 * lookup walks its chain in softirq context, which must stay short.
 */
#define TW_FIB_MAX_LOAD		16

/* The value stored for one user. */
struct tw_fib_tuple {
	u64 ts_ns;			/* location timestamp */
	u32 seq;			/* sequence of the location update */
	u8 mac[TW_FIB_MAC_LEN];		/* next hop */
};

enum tw_fib_sync {
	TW_FIB_RWLOCK,
	TW_FIB_RCU,
	TW_FIB_BUCKET,
	TW_FIB_SEQCOUNT,
	TW_FIB_SYNC_COUNT,
};

/* tw_fib_config.flags */
#define TW_FIB_PREFETCH		0x1	/* tw_fib_prefetch() does prefetch */

/* tw_fib_set() flags */
#define TW_FIB_SET_FORCE	0x1	/* write whatever the stored seq */

struct tw_fib_config {
	u32 capacity;		/* entries, 1 .. TW_FIB_MAX_CAPACITY */
	u32 buckets;		/* a power of two; 0: capacity rounded up */
	/*
	 * rcu mode: tuples that may wait for their grace period at once,
	 * the bound of the deferred-free backlog; 0: capacity.
	 */
	u32 spares;
	u32 seed;		/* of the hash; a random one per table */
	u8 sync;		/* enum tw_fib_sync */
	u8 flags;
};

struct tw_fib_stats {
	u64 lookups;
	u64 misses;
	u64 inserts;
	u64 updates;
	u64 deletes;
	u64 retries;		/* seqcount: reads done again */
	u64 spins;		/* bucket lock: waits for a held lock */
	u64 busy;		/* rcu: writes refused, every spare waiting */
	u64 stale;		/* tw_fib_set(): refused, seq not after stored */
	u64 prefetches;		/* tw_fib_prefetch() calls that prefetched */
	u32 entries;		/* in the table */
	u32 backlog;		/* entries and tuples waiting for a grace period */
	u32 backlog_peak;
};

/* Where a dump resumes: zero it before the first call. */
struct tw_fib_cursor {
	u32 bucket;
	u32 skip;		/* entries of that bucket already passed */
};

/* A dump callback: non-zero stops the dump (and is returned). */
typedef int (*tw_fib_dump_fn)(void *arg, u32 id,
			      const struct tw_fib_tuple *tuple);

struct tw_fib;

int tw_fib_create(struct tw_fib **fibp, const struct tw_fib_config *cfg);
void tw_fib_destroy(struct tw_fib *fib);
u64 tw_fib_mem_size(const struct tw_fib_config *cfg);

int tw_fib_insert(struct tw_fib *fib, u32 id, const struct tw_fib_tuple *t);
int tw_fib_update(struct tw_fib *fib, u32 id, const struct tw_fib_tuple *t);
int tw_fib_set(struct tw_fib *fib, u32 id, const struct tw_fib_tuple *t,
	       u32 flags);
bool tw_fib_seq_after(u32 a, u32 b);
int tw_fib_delete(struct tw_fib *fib, u32 id);
int tw_fib_lookup(struct tw_fib *fib, u32 id, struct tw_fib_tuple *t);
void tw_fib_prefetch(struct tw_fib *fib, u32 id);
int tw_fib_dump(struct tw_fib *fib, struct tw_fib_cursor *pos,
		tw_fib_dump_fn fn, void *arg);
void tw_fib_reclaim(struct tw_fib *fib);

void tw_fib_get_stats(struct tw_fib *fib, struct tw_fib_stats *st);
u32 tw_fib_bucket_of(const struct tw_fib *fib, u32 id);
u32 tw_fib_buckets(const struct tw_fib *fib);
const char *tw_fib_sync_name(enum tw_fib_sync sync);

#endif /* _TW_FIB_H */
