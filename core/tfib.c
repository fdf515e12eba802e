// SPDX-License-Identifier: GPL-2.0
/*
 * tfib.c - the timely forwarding table and its four ways of keeping readers
 * and writers apart (see tfib.h).
 *
 * Chains are singly linked, new entries at the tail, and walked with the
 * same code in every mode: under the table's read lock, the bucket's lock
 * or RCU.  Entries and rcu-mode tuple copies are taken from and returned
 * to free stacks under pool_lock, which is always the innermost lock; in
 * the two modes whose readers take no lock they return only after a grace
 * period (call_rcu, which allocates nothing).
 */
#include "tfib.h"

/*
 * The bucket lock is a bare CAS word: on PREEMPT_RT a holder preempted
 * under local_bh_disable() would leave its waiters spinning, and the plain
 * seqcount_t writer relies on preemption being off.
 */
#ifdef CONFIG_PREEMPT_RT
#error "tfib's table locks are not PREEMPT_RT safe; build without CONFIG_PREEMPT_RT"
#endif

/*
 * TW_TFIB_BROKEN (tests only) removes what keeps each mode's readers from
 * seeing a torn tuple, to prove that the stress test notices.
 */
#ifdef TW_TFIB_BROKEN
#define TW_TFIB_SAFE	0
#else
#define TW_TFIB_SAFE	1
#endif

struct tw_tfib_copy {			/* rcu mode: a published tuple */
	struct tw_tfib_tuple t;
	struct rcu_head rcu;
	struct tw_tfib *fib;
};

/*
 * 64 bytes on a 64-bit machine, in an array that kvcalloc aligns to the
 * cache line: a lookup of an entry a writer just changed misses once, not
 * twice.
 */
struct tw_tfib_entry {
	struct tw_tfib_entry __rcu *next;
	u32 id;
	seqcount_t seq;			/* seqcount mode: guards t */
	union {
		struct tw_tfib_tuple t;			/* in place */
		struct tw_tfib_copy __rcu *copy;		/* rcu mode */
	};
	struct rcu_head rcu;
	struct tw_tfib *fib;
};

struct tw_tfib_bucket {
	u32 lock;			/* bucket mode: 1 held */
	struct tw_tfib_entry __rcu *head;
};

struct tw_tfib_pool {			/* a stack of free objects */
	void **free;
	u32 nfree;
};

/* The per-CPU counters, in the order of struct tw_tfib_stats. */
enum tw_tfib_ctr {
	TW_TFIB_C_LOOKUPS,
	TW_TFIB_C_MISSES,
	TW_TFIB_C_INSERTS,
	TW_TFIB_C_UPDATES,
	TW_TFIB_C_DELETES,
	TW_TFIB_C_RETRIES,
	TW_TFIB_C_SPINS,
	TW_TFIB_C_BUSY,
	TW_TFIB_C_STALE,
	TW_TFIB_C_PREFETCHES,
	TW_TFIB_C_NUM,
};

/* u64_stats: a 32-bit CPU reads a count whole, never mid-update. */
struct tw_tfib_pcpu {
	struct u64_stats_sync syncp;
	u64_stats_t v[TW_TFIB_C_NUM];
};

struct tw_tfib {
	struct tw_tfib_bucket *buckets;
	u32 mask;
	u32 seed;
	u8 sync;
	u8 flags;
	rwlock_t rwlock;		/* rwlock mode */
	/*
	 * rcu and seqcount modes: the writers' bucket locks, apart from the
	 * heads so that a lockless reader never misses on a line a writer
	 * only locked.
	 */
	u32 *locks;
	struct tw_tfib_pcpu __percpu *pcpu;

	spinlock_t pool_lock;		/* the pools and the counts below */
	struct tw_tfib_pool entry_pool;
	struct tw_tfib_pool copy_pool;
	u32 entries;			/* in the table */
	u32 waiting;			/* entries waiting for a grace period */
	u32 waiting_copies;		/* copies replaced, waiting likewise */
	u32 backlog_peak;
	u32 spares;			/* bound of waiting_copies */

	struct tw_tfib_entry *entry_mem;
	struct tw_tfib_copy *copy_mem;
};

static const char *const tw_tfib_sync_names[TW_TFIB_SYNC_COUNT] = {
	[TW_TFIB_RWLOCK] = "rwlock",
	[TW_TFIB_RCU] = "rcu",
	[TW_TFIB_BUCKET] = "bucket",
	[TW_TFIB_SEQCOUNT] = "seqcount",
};

const char *tw_tfib_sync_name(enum tw_tfib_sync sync)
{
	return sync < TW_TFIB_SYNC_COUNT ? tw_tfib_sync_names[sync] : "?";
}

/* murmur3's finaliser: each bit of the ID moves about half the others. */
static u32 tw_tfib_hash(u32 id, u32 seed)
{
	u32 h = id ^ seed;

	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

u32 tw_tfib_bucket_of(const struct tw_tfib *fib, u32 id)
{
	return tw_tfib_hash(id, fib->seed) & fib->mask;
}

u32 tw_tfib_buckets(const struct tw_tfib *fib)
{
	return fib->mask + 1;
}

static struct tw_tfib_bucket *tw_tfib_bucket(struct tw_tfib *fib, u32 id)
{
	return &fib->buckets[tw_tfib_bucket_of(fib, id)];
}

/*
 * Add @n to this CPU's counter @i.  Any context may count (lookups run in
 * any): the irqsave variant keeps a 32-bit update whole, and costs nothing
 * on 64-bit.
 */
static void tw_tfib_count(struct tw_tfib *fib, enum tw_tfib_ctr i, u64 n)
{
	struct tw_tfib_pcpu *p = get_cpu_ptr(fib->pcpu);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&p->syncp);
	u64_stats_add(&p->v[i], n);
	u64_stats_update_end_irqrestore(&p->syncp, flags);
	put_cpu_ptr(fib->pcpu);
}

static bool tw_tfib_lockless(const struct tw_tfib *fib)
{
	return fib->sync == TW_TFIB_RCU || fib->sync == TW_TFIB_SEQCOUNT;
}

/* @b's lock word: in the bucket, where its readers look anyway, or not. */
static u32 *tw_tfib_lock_word(struct tw_tfib *fib, struct tw_tfib_bucket *b)
{
	return fib->locks ? &fib->locks[b - fib->buckets] : &b->lock;
}

/*
 * Is @b's write side held (by someone: the CAS word has no owner)?  What
 * rcu_dereference_protected() checks under the write lock; macros, as
 * lockdep_is_held() exists only inside such checks without lockdep.
 */
#define tw_tfib_write_held(fib, b)					\
	((fib)->sync == TW_TFIB_RWLOCK ? lockdep_is_held(&(fib)->rwlock) :	\
	 READ_ONCE(*tw_tfib_lock_word(fib, b)) != 0)

/* The read side of @b: RCU, the table's lock or the bucket's. */
#define tw_tfib_read_held(fib, b)					\
	(rcu_read_lock_held() || tw_tfib_write_held(fib, b))

/* One CAS when the lock is free; else wait reading, not writing, it. */
static void tw_tfib_bucket_lock(struct tw_tfib *fib, struct tw_tfib_bucket *b)
	__acquires(b)
{
	u32 *lock = tw_tfib_lock_word(fib, b);
	u64 spins = 0;

	local_bh_disable();
	while (cmpxchg(lock, 0U, 1U)) {
		spins++;
		while (READ_ONCE(*lock))
			cpu_relax();
	}
	if (unlikely(spins))
		tw_tfib_count(fib, TW_TFIB_C_SPINS, spins);
	__acquire(b);
}

static void tw_tfib_bucket_unlock(struct tw_tfib *fib, struct tw_tfib_bucket *b)
	__releases(b)
{
	__release(b);
	/* the critical section's accesses before the lock reads free */
	smp_store_release(tw_tfib_lock_word(fib, b), 0U);
	local_bh_enable();
}

/* What lets a reader walk @b's chain and read its tuples. */
static void tw_tfib_read_begin(struct tw_tfib *fib, struct tw_tfib_bucket *b)
	__acquires(b)
{
	if (fib->sync == TW_TFIB_RWLOCK) {
		if (TW_TFIB_SAFE)
			read_lock_bh(&fib->rwlock);
	} else if (fib->sync == TW_TFIB_BUCKET) {
		if (TW_TFIB_SAFE)
			tw_tfib_bucket_lock(fib, b);
	} else {
		rcu_read_lock();
	}
}

static void tw_tfib_read_end(struct tw_tfib *fib, struct tw_tfib_bucket *b)
	__releases(b)
{
	if (fib->sync == TW_TFIB_RWLOCK) {
		if (TW_TFIB_SAFE)
			read_unlock_bh(&fib->rwlock);
	} else if (fib->sync == TW_TFIB_BUCKET) {
		if (TW_TFIB_SAFE)
			tw_tfib_bucket_unlock(fib, b);
	} else {
		rcu_read_unlock();
	}
}

static void tw_tfib_write_begin(struct tw_tfib *fib, struct tw_tfib_bucket *b)
	__acquires(b)
{
	if (fib->sync == TW_TFIB_RWLOCK)
		write_lock_bh(&fib->rwlock);
	else
		tw_tfib_bucket_lock(fib, b);
}

static void tw_tfib_write_end(struct tw_tfib *fib, struct tw_tfib_bucket *b)
	__releases(b)
{
	if (fib->sync == TW_TFIB_RWLOCK)
		write_unlock_bh(&fib->rwlock);
	else
		tw_tfib_bucket_unlock(fib, b);
}

/*
 * Field by field, each access single: a seqcount reader races the writer
 * by design, and on a 32-bit CPU the timestamp is two accesses anyway.
 */
static void tw_tfib_load(struct tw_tfib_tuple *to, const struct tw_tfib_tuple *from)
{
	int i;

	to->ts_ns = READ_ONCE(from->ts_ns);
	to->seq = READ_ONCE(from->seq);
	for (i = 0; i < TW_TFIB_MAC_LEN; i++)
		to->mac[i] = READ_ONCE(from->mac[i]);
}

static void tw_tfib_store(struct tw_tfib_tuple *to, const struct tw_tfib_tuple *from)
{
	int i;

	WRITE_ONCE(to->ts_ns, from->ts_ns);
	WRITE_ONCE(to->seq, from->seq);
	for (i = 0; i < TW_TFIB_MAC_LEN; i++)
		WRITE_ONCE(to->mac[i], from->mac[i]);
}

static void tw_tfib_read_seq(struct tw_tfib *fib, struct tw_tfib_entry *e,
			     struct tw_tfib_tuple *t)
{
	unsigned int start;
	u64 retries = 0;

	if (!TW_TFIB_SAFE) {
		tw_tfib_load(t, &e->t);
		return;
	}
	for (;;) {
		start = read_seqcount_begin(&e->seq);
		tw_tfib_load(t, &e->t);
		if (!read_seqcount_retry(&e->seq, start))
			break;
		retries++;
	}
	if (unlikely(retries))
		tw_tfib_count(fib, TW_TFIB_C_RETRIES, retries);
}

/* Copy @e's tuple out, under the read side of tw_tfib_read_begin(). */
static void tw_tfib_read_tuple(struct tw_tfib *fib, struct tw_tfib_entry *e,
			       struct tw_tfib_tuple *t)
{
	if (fib->sync == TW_TFIB_RCU)
		*t = rcu_dereference(e->copy)->t;
	else if (fib->sync == TW_TFIB_SEQCOUNT)
		tw_tfib_read_seq(fib, e, t);
	else
		*t = e->t;
}

/*
 * @id's entry in @b, or NULL: under the read side or the write lock.  Each
 * link is loaded once, so that a lockless reader returns the entry whose
 * ID it compared, whatever a writer does to the link meanwhile.
 */
static struct tw_tfib_entry *tw_tfib_find(struct tw_tfib *fib,
				       struct tw_tfib_bucket *b, u32 id)
{
	struct tw_tfib_entry *e;

	e = rcu_dereference_check(b->head, tw_tfib_read_held(fib, b));
	while (e && e->id != id)
		e = rcu_dereference_check(e->next, tw_tfib_read_held(fib, b));
	return e;
}

/*
 * The link that points at @id's entry, or the NULL one ending the chain;
 * under the write lock.
 */
static struct tw_tfib_entry __rcu **tw_tfib_link(struct tw_tfib *fib,
						 struct tw_tfib_bucket *b,
						 u32 id)
{
	struct tw_tfib_entry __rcu **link = &b->head;
	struct tw_tfib_entry *e;

	while ((e = rcu_dereference_protected(*link,
					      tw_tfib_write_held(fib, b))) &&
	       e->id != id)
		link = &e->next;
	return link;
}

/*
 * tw_tfib_lookup - copy @id's tuple into @t.
 * Returns 0, or -ENOENT when @id is not in the table.
 */
int tw_tfib_lookup(struct tw_tfib *fib, u32 id, struct tw_tfib_tuple *t)
{
	struct tw_tfib_bucket *b = tw_tfib_bucket(fib, id);
	struct tw_tfib_entry *e;

	tw_tfib_read_begin(fib, b);
	e = tw_tfib_find(fib, b, id);
	if (e)
		tw_tfib_read_tuple(fib, e, t);
	tw_tfib_read_end(fib, b);
	tw_tfib_count(fib, TW_TFIB_C_LOOKUPS, 1);
	if (e)
		return 0;
	tw_tfib_count(fib, TW_TFIB_C_MISSES, 1);
	return -ENOENT;
}

/*
 * tw_tfib_prefetch - start bringing in the line a lookup of @id will need
 * first (the lock it will take, if any), when the table was created with
 * TW_TFIB_PREFETCH.  For a caller with a burst: prefetch the next ID, then
 * look up this one, so the transfer overlaps useful work.
 */
void tw_tfib_prefetch(struct tw_tfib *fib, u32 id)
{
	struct tw_tfib_bucket *b;

	if (!(fib->flags & TW_TFIB_PREFETCH))
		return;
	b = tw_tfib_bucket(fib, id);
	if (fib->sync == TW_TFIB_RWLOCK)
		prefetchw(&fib->rwlock);
	else if (fib->sync == TW_TFIB_BUCKET)
		prefetchw(tw_tfib_lock_word(fib, b));
	else
		prefetch(b);
	tw_tfib_count(fib, TW_TFIB_C_PREFETCHES, 1);
}

static void *tw_tfib_pool_get(struct tw_tfib_pool *p)
{
	return p->nfree ? p->free[--p->nfree] : NULL;
}

static void tw_tfib_pool_put(struct tw_tfib_pool *p, void *obj)
{
	p->free[p->nfree++] = obj;
}

static void tw_tfib_note_backlog(struct tw_tfib *fib)
{
	fib->backlog_peak = max(fib->backlog_peak,
				fib->waiting + fib->waiting_copies);
}

/* An entry (and in the rcu mode its copy) for @id, or NULL when full. */
static struct tw_tfib_entry *tw_tfib_new_entry(struct tw_tfib *fib, u32 id,
					       const struct tw_tfib_tuple *t)
{
	struct tw_tfib_copy *c = NULL;
	struct tw_tfib_entry *e;

	spin_lock_bh(&fib->pool_lock);
	e = tw_tfib_pool_get(&fib->entry_pool);
	/* spares beyond the capacity: a free entry always finds a copy */
	if (e && fib->sync == TW_TFIB_RCU) {
		c = tw_tfib_pool_get(&fib->copy_pool);
		if (WARN_ON_ONCE(!c)) {
			tw_tfib_pool_put(&fib->entry_pool, e);
			e = NULL;
		}
	}
	if (e)
		fib->entries++;
	spin_unlock_bh(&fib->pool_lock);
	if (!e)
		return NULL;
	e->id = id;
	RCU_INIT_POINTER(e->next, NULL);
	if (c) {
		c->t = *t;
		RCU_INIT_POINTER(e->copy, c);
	} else {
		tw_tfib_store(&e->t, t);
	}
	return e;
}

/*
 * tw_tfib_insert - add @id with tuple @t.
 * Returns 0, -EEXIST when @id is in the table already, or -ENOSPC when the
 * table holds its capacity (entries deleted but still waiting for a grace
 * period count: tw_tfib_reclaim() waits for them).
 */
int tw_tfib_insert(struct tw_tfib *fib, u32 id, const struct tw_tfib_tuple *t)
{
	struct tw_tfib_bucket *b = tw_tfib_bucket(fib, id);
	struct tw_tfib_entry __rcu **link;
	struct tw_tfib_entry *e = NULL;
	int err = -EEXIST;

	tw_tfib_write_begin(fib, b);
	link = tw_tfib_link(fib, b, id);
	if (!rcu_dereference_protected(*link, tw_tfib_write_held(fib, b))) {
		e = tw_tfib_new_entry(fib, id, t);
		err = e ? 0 : -ENOSPC;
	}
	if (e)
		rcu_assign_pointer(*link, e);
	tw_tfib_write_end(fib, b);
	if (!err)
		tw_tfib_count(fib, TW_TFIB_C_INSERTS, 1);
	return err;
}

/* rcu mode: a copy to fill, unless spares copies wait already. */
static struct tw_tfib_copy *tw_tfib_take_copy(struct tw_tfib *fib)
{
	struct tw_tfib_copy *c = NULL;

	spin_lock_bh(&fib->pool_lock);
	if (fib->waiting_copies < fib->spares)
		c = tw_tfib_pool_get(&fib->copy_pool);
	if (c) {
		/* the one it replaces will wait */
		fib->waiting_copies++;
		tw_tfib_note_backlog(fib);
	}
	spin_unlock_bh(&fib->pool_lock);
	return c;
}

static void tw_tfib_copy_free_rcu(struct rcu_head *head)
{
	struct tw_tfib_copy *c = container_of(head, struct tw_tfib_copy, rcu);
	struct tw_tfib *fib = c->fib;

	spin_lock_bh(&fib->pool_lock);
	tw_tfib_pool_put(&fib->copy_pool, c);
	fib->waiting_copies--;
	spin_unlock_bh(&fib->pool_lock);
}

/* rcu mode: publish a filled copy; *@old is the one to retire. */
static int tw_tfib_replace_copy(struct tw_tfib *fib, struct tw_tfib_entry *e,
				const struct tw_tfib_tuple *t,
				struct tw_tfib_copy **old)
{
	struct tw_tfib_copy *cur, *c;

	/* under the bucket's write lock: no other writer replaces it */
	cur = rcu_dereference_protected(e->copy,
			tw_tfib_write_held(fib, tw_tfib_bucket(fib, e->id)));

	if (!TW_TFIB_SAFE) {
		tw_tfib_store(&cur->t, t);
		return 0;
	}
	c = tw_tfib_take_copy(fib);
	if (!c) {
		tw_tfib_count(fib, TW_TFIB_C_BUSY, 1);
		return -EBUSY;
	}
	c->t = *t;
	rcu_assign_pointer(e->copy, c);
	*old = cur;
	return 0;
}

static int tw_tfib_write_tuple(struct tw_tfib *fib, struct tw_tfib_entry *e,
			       const struct tw_tfib_tuple *t,
			       struct tw_tfib_copy **old)
{
	if (fib->sync == TW_TFIB_RCU)
		return tw_tfib_replace_copy(fib, e, t, old);
	if (fib->sync == TW_TFIB_SEQCOUNT) {
		write_seqcount_begin(&e->seq);
		tw_tfib_store(&e->t, t);
		write_seqcount_end(&e->seq);
	} else {
		e->t = *t;
	}
	return 0;
}

/*
 * tw_tfib_update - replace @id's tuple with @t.
 * Returns 0, -ENOENT when @id is not in the table, or in the rcu mode
 * -EBUSY when the copies replaced before still wait for their grace
 * period, as many as the table's spares (tw_tfib_reclaim() waits for them).
 */
int tw_tfib_update(struct tw_tfib *fib, u32 id, const struct tw_tfib_tuple *t)
{
	struct tw_tfib_bucket *b = tw_tfib_bucket(fib, id);
	struct tw_tfib_copy *old = NULL;
	struct tw_tfib_entry *e;
	int err = -ENOENT;

	tw_tfib_write_begin(fib, b);
	e = tw_tfib_find(fib, b, id);
	if (e)
		err = tw_tfib_write_tuple(fib, e, t, &old);
	tw_tfib_write_end(fib, b);
	if (old)
		call_rcu(&old->rcu, tw_tfib_copy_free_rcu);
	if (!err)
		tw_tfib_count(fib, TW_TFIB_C_UPDATES, 1);
	return err;
}

/* RFC 1982 serial-number order: is @a after @b?  Wraps at 2^32. */
bool tw_tfib_seq_after(u32 a, u32 b)
{
	return (s32)(a - b) > 0;
}

/* @e's seq, under @b's write lock (only writers change it). */
static u32 tw_tfib_stored_seq(struct tw_tfib *fib, struct tw_tfib_bucket *b,
			      struct tw_tfib_entry *e)
{
	if (fib->sync == TW_TFIB_RCU)
		return rcu_dereference_protected(e->copy,
						 tw_tfib_write_held(fib, b))->t.seq;
	return e->t.seq;
}

/*
 * Under @b's write lock: write @t into the entry @link points at, or
 * insert it there.  The counter to bump in *@ctr.
 */
static int tw_tfib_set_locked(struct tw_tfib *fib, struct tw_tfib_bucket *b,
			      struct tw_tfib_entry __rcu **link, u32 id,
			      const struct tw_tfib_tuple *t, u32 flags,
			      struct tw_tfib_copy **old, enum tw_tfib_ctr *ctr)
{
	struct tw_tfib_entry *e;

	e = rcu_dereference_protected(*link, tw_tfib_write_held(fib, b));
	if (!e) {
		*ctr = TW_TFIB_C_INSERTS;
		e = tw_tfib_new_entry(fib, id, t);
		if (!e)
			return -ENOSPC;
		rcu_assign_pointer(*link, e);
		return 0;
	}
	if (!(flags & TW_TFIB_SET_FORCE) &&
	    !tw_tfib_seq_after(t->seq, tw_tfib_stored_seq(fib, b, e))) {
		*ctr = TW_TFIB_C_STALE;
		return -ESTALE;
	}
	*ctr = TW_TFIB_C_UPDATES;
	return tw_tfib_write_tuple(fib, e, t, old);
}

/*
 * tw_tfib_set - insert @id with tuple @t, or replace its tuple when @t's
 * seq is after the stored one (or whatever it is, with TW_TFIB_SET_FORCE).
 * One write lock for both, so no other writer comes in between.
 * Returns 0, -ESTALE when the stored tuple is as new as @t or newer
 * (counted in stale), -ENOSPC when the table is full, or in the rcu mode
 * -EBUSY as tw_tfib_update().
 */
int tw_tfib_set(struct tw_tfib *fib, u32 id, const struct tw_tfib_tuple *t,
		u32 flags)
{
	struct tw_tfib_bucket *b = tw_tfib_bucket(fib, id);
	enum tw_tfib_ctr ctr = TW_TFIB_C_NUM;
	struct tw_tfib_copy *old = NULL;
	int err;

	tw_tfib_write_begin(fib, b);
	err = tw_tfib_set_locked(fib, b, tw_tfib_link(fib, b, id), id, t, flags,
				 &old, &ctr);
	tw_tfib_write_end(fib, b);
	if (old)
		call_rcu(&old->rcu, tw_tfib_copy_free_rcu);
	if (!err || err == -ESTALE)
		tw_tfib_count(fib, ctr, 1);
	return err;
}

/* Back to the pools; pool_lock held. */
static void tw_tfib_put_entry(struct tw_tfib *fib, struct tw_tfib_entry *e)
{
	if (fib->sync == TW_TFIB_RCU)
		tw_tfib_pool_put(&fib->copy_pool,
				 rcu_dereference_protected(e->copy,
					lockdep_is_held(&fib->pool_lock)));
	tw_tfib_pool_put(&fib->entry_pool, e);
}

static void tw_tfib_entry_free_rcu(struct rcu_head *head)
{
	struct tw_tfib_entry *e = container_of(head, struct tw_tfib_entry, rcu);
	struct tw_tfib *fib = e->fib;

	spin_lock_bh(&fib->pool_lock);
	tw_tfib_put_entry(fib, e);
	fib->waiting--;
	spin_unlock_bh(&fib->pool_lock);
}

static void tw_tfib_retire_entry(struct tw_tfib *fib, struct tw_tfib_entry *e)
{
	bool wait = tw_tfib_lockless(fib);

	spin_lock_bh(&fib->pool_lock);
	fib->entries--;
	if (wait) {
		fib->waiting++;
		tw_tfib_note_backlog(fib);
	} else {
		tw_tfib_put_entry(fib, e);
	}
	spin_unlock_bh(&fib->pool_lock);
	if (wait)
		call_rcu(&e->rcu, tw_tfib_entry_free_rcu);
}

/*
 * tw_tfib_delete - remove @id.
 * Returns 0, or -ENOENT when @id is not in the table.
 */
int tw_tfib_delete(struct tw_tfib *fib, u32 id)
{
	struct tw_tfib_bucket *b = tw_tfib_bucket(fib, id);
	struct tw_tfib_entry __rcu **link;
	struct tw_tfib_entry *e;

	tw_tfib_write_begin(fib, b);
	link = tw_tfib_link(fib, b, id);
	e = rcu_dereference_protected(*link, tw_tfib_write_held(fib, b));
	if (e)
		rcu_assign_pointer(*link, rcu_dereference_protected(e->next,
					tw_tfib_write_held(fib, b)));
	tw_tfib_write_end(fib, b);
	if (!e)
		return -ENOENT;
	tw_tfib_retire_entry(fib, e);
	tw_tfib_count(fib, TW_TFIB_C_DELETES, 1);
	return 0;
}

static int tw_tfib_dump_bucket(struct tw_tfib *fib, struct tw_tfib_cursor *pos,
			       tw_tfib_dump_fn fn, void *arg)
{
	struct tw_tfib_bucket *b = &fib->buckets[pos->bucket];
	struct tw_tfib_entry *e;
	struct tw_tfib_tuple t;
	u32 n = 0;
	int ret = 0;

	tw_tfib_read_begin(fib, b);
	for (e = rcu_dereference_check(b->head, tw_tfib_read_held(fib, b));
	     e && !ret;
	     e = rcu_dereference_check(e->next, tw_tfib_read_held(fib, b))) {
		if (n++ < pos->skip)
			continue;
		tw_tfib_read_tuple(fib, e, &t);
		ret = fn(arg, e->id, &t);
		if (!ret)
			pos->skip++;
	}
	tw_tfib_read_end(fib, b);
	return ret;
}

/* Buckets a dump walks between two chances to reschedule. */
#define TW_TFIB_DUMP_RESCHED	1024

/*
 * tw_tfib_dump - pass each entry to @fn, from @pos on, in bucket order.
 * Sleeps (between buckets: a table may have 2^24 of them).
 * @fn runs under the table's read side (a lock or RCU): it must neither
 * sleep nor call into the table.  When it returns non-zero the dump stops
 * there and returns that; the next call with the same @pos resumes with
 * the entry that stopped it.  Entries inserted or deleted between calls
 * may be missed or, when a chain changed, passed twice, as in any
 * resumable netlink dump.
 */
int tw_tfib_dump(struct tw_tfib *fib, struct tw_tfib_cursor *pos,
		 tw_tfib_dump_fn fn, void *arg)
{
	int ret;

	for (; pos->bucket <= fib->mask; pos->bucket++, pos->skip = 0) {
		ret = tw_tfib_dump_bucket(fib, pos, fn, arg);
		if (ret)
			return ret;
		if (pos->bucket % TW_TFIB_DUMP_RESCHED == 0)
			cond_resched();
	}
	return 0;
}

/*
 * tw_tfib_reclaim - wait until what deletes and rcu-mode updates retired
 * so far is back in the pools.  Sleeps.
 */
void tw_tfib_reclaim(struct tw_tfib *fib)
{
	if (tw_tfib_lockless(fib))
		rcu_barrier();
}

/* Sum the counters of every CPU into @v. */
static void tw_tfib_read_counters(struct tw_tfib *fib, u64 *v)
{
	const struct tw_tfib_pcpu *p;
	unsigned int start;
	u64 one[TW_TFIB_C_NUM];
	int cpu, i;

	memset(v, 0, TW_TFIB_C_NUM * sizeof(*v));
	for_each_possible_cpu(cpu) {
		p = per_cpu_ptr(fib->pcpu, cpu);
		do {
			start = u64_stats_fetch_begin(&p->syncp);
			for (i = 0; i < TW_TFIB_C_NUM; i++)
				one[i] = u64_stats_read(&p->v[i]);
		} while (u64_stats_fetch_retry(&p->syncp, start));
		for (i = 0; i < TW_TFIB_C_NUM; i++)
			v[i] += one[i];
	}
}

void tw_tfib_get_stats(struct tw_tfib *fib, struct tw_tfib_stats *st)
{
	u64 v[TW_TFIB_C_NUM];

	memset(st, 0, sizeof(*st));
	tw_tfib_read_counters(fib, v);
	st->lookups = v[TW_TFIB_C_LOOKUPS];
	st->misses = v[TW_TFIB_C_MISSES];
	st->inserts = v[TW_TFIB_C_INSERTS];
	st->updates = v[TW_TFIB_C_UPDATES];
	st->deletes = v[TW_TFIB_C_DELETES];
	st->retries = v[TW_TFIB_C_RETRIES];
	st->spins = v[TW_TFIB_C_SPINS];
	st->busy = v[TW_TFIB_C_BUSY];
	st->stale = v[TW_TFIB_C_STALE];
	st->prefetches = v[TW_TFIB_C_PREFETCHES];
	spin_lock_bh(&fib->pool_lock);
	st->entries = fib->entries;
	st->backlog = fib->waiting + fib->waiting_copies;
	st->backlog_peak = fib->backlog_peak;
	spin_unlock_bh(&fib->pool_lock);
}

/* Fill @p with pointers to the @n objects of @size at @mem. */
static int tw_tfib_pool_init(struct tw_tfib_pool *p, void *mem, size_t size,
			     u32 n)
{
	u32 i;

	p->free = kvcalloc(n ?: 1, sizeof(*p->free), GFP_KERNEL_ACCOUNT);
	if (!p->free)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		tw_tfib_pool_put(p, (char *)mem + (size_t)(n - 1 - i) * size);
	return 0;
}

static void tw_tfib_free(struct tw_tfib *fib)
{
	free_percpu(fib->pcpu);
	kvfree(fib->copy_pool.free);
	kvfree(fib->entry_pool.free);
	kvfree(fib->copy_mem);
	kvfree(fib->entry_mem);
	kvfree(fib->locks);
	kvfree(fib->buckets);
	kfree(fib);
}

static int tw_tfib_check(const struct tw_tfib_config *cfg, u32 buckets)
{
	if (!cfg->capacity || cfg->capacity > TW_TFIB_MAX_CAPACITY ||
	    cfg->spares > TW_TFIB_MAX_CAPACITY ||
	    cfg->sync >= TW_TFIB_SYNC_COUNT || (cfg->flags & ~TW_TFIB_PREFETCH))
		return -EINVAL;
	if (!buckets || buckets > TW_TFIB_MAX_CAPACITY ||
	    (buckets & (buckets - 1)))
		return -EINVAL;
	if (cfg->capacity > (u64)buckets * TW_TFIB_MAX_LOAD)
		return -EINVAL;
	return 0;
}

/* The memory of a table for @cfg, every object linked to @fib. */
static int tw_tfib_alloc(struct tw_tfib *fib, const struct tw_tfib_config *cfg)
{
	u32 ncopies = fib->sync == TW_TFIB_RCU ?
		      cfg->capacity + fib->spares : 0;
	u32 i;
	int cpu;

	fib->buckets = kvcalloc(fib->mask + 1, sizeof(*fib->buckets),
				GFP_KERNEL_ACCOUNT);
	if (tw_tfib_lockless(fib)) {
		fib->locks = kvcalloc(fib->mask + 1, sizeof(*fib->locks),
				      GFP_KERNEL_ACCOUNT);
		if (!fib->locks)
			return -ENOMEM;
	}
	fib->entry_mem = kvcalloc(cfg->capacity, sizeof(*fib->entry_mem),
				  GFP_KERNEL_ACCOUNT);
	if (ncopies)
		fib->copy_mem = kvcalloc(ncopies, sizeof(*fib->copy_mem),
					 GFP_KERNEL_ACCOUNT);
	fib->pcpu = alloc_percpu_gfp(struct tw_tfib_pcpu, GFP_KERNEL_ACCOUNT);
	if (!fib->buckets || !fib->entry_mem || (ncopies && !fib->copy_mem) ||
	    !fib->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(fib->pcpu, cpu)->syncp);
	if (tw_tfib_pool_init(&fib->entry_pool, fib->entry_mem,
			      sizeof(*fib->entry_mem), cfg->capacity) ||
	    tw_tfib_pool_init(&fib->copy_pool, fib->copy_mem,
			      sizeof(*fib->copy_mem), ncopies))
		return -ENOMEM;
	for (i = 0; i < cfg->capacity; i++) {
		fib->entry_mem[i].fib = fib;
		seqcount_init(&fib->entry_mem[i].seq);
	}
	for (i = 0; i < ncopies; i++)
		fib->copy_mem[i].fib = fib;
	return 0;
}

/* The buckets of a table of @capacity when the config gives none. */
static u32 tw_tfib_default_buckets(u32 capacity)
{
	u32 n;

	for (n = 1; n <= TW_TFIB_MAX_CAPACITY; n <<= 1)
		if (n >= capacity)
			return n;
	return 0;
}

/*
 * tw_tfib_mem_size - the bytes tw_tfib_create() allocates for @cfg (per-CPU
 * counters aside), buckets and spare tuples included.
 */
u64 tw_tfib_mem_size(const struct tw_tfib_config *cfg)
{
	u64 buckets = cfg->buckets ?: tw_tfib_default_buckets(cfg->capacity);
	u64 ncopies = 0, bucket = sizeof(struct tw_tfib_bucket);

	if (cfg->sync == TW_TFIB_RCU)
		ncopies = (u64)cfg->capacity + (cfg->spares ?: cfg->capacity);
	if (cfg->sync == TW_TFIB_RCU || cfg->sync == TW_TFIB_SEQCOUNT)
		bucket += sizeof(u32);
	/* each object of a pool has its slot in the pool's stack */
	return sizeof(struct tw_tfib) + buckets * bucket +
	       cfg->capacity * (sizeof(struct tw_tfib_entry) + sizeof(void *)) +
	       ncopies * (sizeof(struct tw_tfib_copy) + sizeof(void *));
}

/*
 * tw_tfib_create - a table as @cfg says, in *@fibp.  Sleeps.
 * Returns 0, -EINVAL for a bad @cfg, or -ENOMEM.
 */
int tw_tfib_create(struct tw_tfib **fibp, const struct tw_tfib_config *cfg)
{
	u32 buckets = cfg->buckets ?: tw_tfib_default_buckets(cfg->capacity);
	struct tw_tfib *fib;
	int err;

	err = tw_tfib_check(cfg, buckets);
	if (err)
		return err;
	fib = kzalloc(sizeof(*fib), GFP_KERNEL_ACCOUNT);
	if (!fib)
		return -ENOMEM;
	fib->mask = buckets - 1;
	fib->seed = cfg->seed;
	fib->sync = cfg->sync;
	fib->flags = cfg->flags;
	if (fib->sync == TW_TFIB_RCU)
		fib->spares = cfg->spares ?: cfg->capacity;
	rwlock_init(&fib->rwlock);
	spin_lock_init(&fib->pool_lock);
	err = tw_tfib_alloc(fib, cfg);
	if (err) {
		tw_tfib_free(fib);
		return err;
	}
	*fibp = fib;
	return 0;
}

/*
 * tw_tfib_destroy - free the table.  Nobody may use it any more, readers
 * included (unpublish it and wait a grace period first).  Sleeps: waits
 * for the callbacks that return retired objects to its pools.
 */
void tw_tfib_destroy(struct tw_tfib *fib)
{
	if (!fib)
		return;
	if (tw_tfib_lockless(fib))
		rcu_barrier();
	tw_tfib_free(fib);
}
