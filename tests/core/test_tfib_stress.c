// SPDX-License-Identifier: GPL-2.0
/*
 * test_tfib_stress.c - readers, a writer and an insert/delete thread on one
 * table, in every synchronisation mode.  Every tuple written follows from
 * (ID, version), so a reader sees a torn tuple as one that is no version
 * of its ID (in a lookup, or in the dump it makes every 256 lookups); it
 * also checks freshness: a lookup returns at least the version whose
 * update completed before the lookup began, and a reader never sees a
 * key's version go back.
 *
 * Built as is (and with ASan, and with TSan over the lock-based RCU of
 * compat.h) it passes when nothing torn or stale is seen.  Built with
 * TW_TFIB_BROKEN, which takes away each mode's reader protection, it passes
 * only when the readers do see torn tuples: proof that it would notice.
 */
#include <sched.h>

#include "tfib_test.h"
#include "kselftest_harness.h"

#define HOT		8	/* IDs the writer updates; always present */
#define CHURN		32	/* IDs inserted and deleted over and over */
#define CHURN_BASE	1000
#define READERS		2
/* fewer under the sanitizers, which are slower by 5 to 20 times */
#ifndef STRESS_UPDATES
#define STRESS_UPDATES	50000
#endif
/* broken builds: read until torn tuples show, for at most this long */
#define BROKEN_BUDGET_S	20

struct stress {
	struct tw_tfib *fib;
	u32 committed[HOT];	/* last version whose update returned */
	int stop;
	u64 churns;		/* inserts and deletes done */
	/* results; reads published every READS_BATCH */
	atomic64_t reads, torn, stale, missing, errors, refused;
};

#define READS_BATCH	256

/* Retry a write the table refused until a grace period had passed. */
static int write_retry(struct stress *s, int (*op)(struct tw_tfib *, u32,
		       const struct tw_tfib_tuple *), u32 id,
		       const struct tw_tfib_tuple *t)
{
	int err;

	while ((err = op(s->fib, id, t)) == -EBUSY || err == -ENOSPC) {
		atomic64_inc(&s->refused);
		tw_tfib_reclaim(s->fib);
	}
	return err;
}

static void *writer(void *arg)
{
	struct stress *s = arg;
	struct tw_tfib_tuple t;
	u32 n, id, v;

	rcu_register_thread();
	for (n = HOT; !READ_ONCE(s->stop); n++) {
		/* no faster than the reads: they must overlap the writes */
		while ((s64)(n - HOT) > atomic64_read(&s->reads) &&
		       !READ_ONCE(s->stop))
			sched_yield();
		id = n % HOT;
		v = n / HOT;
		t = tfib_test_tuple(id, v);
		if (write_retry(s, tw_tfib_update, id, &t))
			atomic64_inc(&s->errors);
		/* published after the update returned */
		smp_store_release(&s->committed[id], v);
	}
	rcu_unregister_thread();
	return NULL;
}

/* Insert and delete the churn IDs, each present half of the time. */
static void *churner(void *arg)
{
	struct stress *s = arg;
	struct tw_tfib_tuple t;
	bool present[CHURN] = {};
	u32 n, i;
	int err;

	rcu_register_thread();
	for (n = 0; !READ_ONCE(s->stop); n++) {
		i = (n * 7) % CHURN;
		t = tfib_test_tuple(CHURN_BASE + i, n);
		if (present[i])
			err = tw_tfib_delete(s->fib, CHURN_BASE + i);
		else
			err = write_retry(s, tw_tfib_insert, CHURN_BASE + i,
					  &t);
		if (err)
			atomic64_inc(&s->errors);
		present[i] = !present[i];
		WRITE_ONCE(s->churns, n + 1);
	}
	rcu_unregister_thread();
	return NULL;
}

static u64 rng(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void read_hot(struct stress *s, u32 id, u32 *last)
{
	struct tw_tfib_tuple t;
	u32 before;

	/* read before the lookup begins: the least it may return */
	before = smp_load_acquire(&s->committed[id]);
	if (tw_tfib_lookup(s->fib, id, &t)) {
		atomic64_inc(&s->missing);
		return;
	}
	if (!tfib_test_tuple_whole(id, &t))
		atomic64_inc(&s->torn);
	else if (t.seq < before || t.seq < last[id])
		atomic64_inc(&s->stale);
	else
		last[id] = t.seq;
}

/* A dump sees only whole tuples too. */
static int check_dumped(void *arg, u32 id, const struct tw_tfib_tuple *t)
{
	struct stress *s = arg;

	if (!tfib_test_tuple_whole(id, t))
		atomic64_inc(&s->torn);
	return 0;
}

static void dump_all(struct stress *s)
{
	struct tw_tfib_cursor pos = {};

	tw_tfib_dump(s->fib, &pos, check_dumped, s);
}

static void *reader(void *arg)
{
	struct stress *s = arg;
	u64 state = (u64)(unsigned long)&state | 1;
	u32 last[HOT] = {}, id;
	struct tw_tfib_tuple t;
	u64 r, reads;

	rcu_register_thread();
	for (reads = 0; !READ_ONCE(s->stop); reads++) {
		r = rng(&state);
		if (r & 1) {
			read_hot(s, (u32)(r >> 8) % HOT, last);
		} else {
			id = CHURN_BASE + (u32)(r >> 8) % CHURN;
			if (!tw_tfib_lookup(s->fib, id, &t) &&
			    !tfib_test_tuple_whole(id, &t))
				atomic64_inc(&s->torn);
		}
		if (reads % READS_BATCH == READS_BATCH - 1) {
			atomic64_add(READS_BATCH, &s->reads);
			dump_all(s);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

/* Each kind of operation done @n times (inserts and deletes n / 10). */
static bool done(struct stress *s, u64 n)
{
	struct tw_tfib_stats st;

	tw_tfib_get_stats(s->fib, &st);
	return st.updates >= n && (u64)atomic64_read(&s->reads) >= n &&
	       READ_ONCE(s->churns) >= n / 10;
}

/*
 * Run the threads until done(@updates), or, when @until_torn, until a torn
 * tuple is seen (within BROKEN_BUDGET_S).
 */
static void run(struct stress *s, u64 updates, bool until_torn)
{
	pthread_t th[READERS + 2];
	u64 end = ktime_get_ns() + BROKEN_BUDGET_S * 1000000000ULL;
	struct timespec nap = { 0, 1000000 };
	int i;

	pthread_create(&th[0], NULL, writer, s);
	pthread_create(&th[1], NULL, churner, s);
	for (i = 0; i < READERS; i++)
		pthread_create(&th[2 + i], NULL, reader, s);
	for (;;) {
		nanosleep(&nap, NULL);
		if (until_torn ? (atomic64_read(&s->torn) ||
				  ktime_get_ns() > end) :
				 done(s, updates))
			break;
	}
	WRITE_ONCE(s->stop, 1);
	for (i = 0; i < READERS + 2; i++)
		pthread_join(th[i], NULL);
}

FIXTURE(stress) {
	struct stress s;
};

FIXTURE_VARIANT(stress) {
	u8 sync;
	u8 flags;
};

TFIB_TEST_VARIANTS(stress);

FIXTURE_SETUP(stress)
{
	struct tw_tfib_config cfg = {
		.capacity = 64, .buckets = 16, .spares = 256, .seed = 42,
		.sync = variant->sync, .flags = variant->flags,
	};
	struct tw_tfib_tuple t;
	u32 id;

	memset(&self->s, 0, sizeof(self->s));
	rcu_register_thread();
	ASSERT_EQ(0, tw_tfib_create(&self->s.fib, &cfg));
	for (id = 0; id < HOT; id++) {
		t = tfib_test_tuple(id, 0);
		ASSERT_EQ(0, tw_tfib_insert(self->s.fib, id, &t));
	}
}

FIXTURE_TEARDOWN(stress)
{
	tw_tfib_destroy(self->s.fib);
	rcu_unregister_thread();
	EXPECT_EQ(0, tw_host_warnings);
}

static void report(struct __test_metadata *_metadata, struct stress *s)
{
	struct tw_tfib_stats st;

	tw_tfib_get_stats(s->fib, &st);
	TH_LOG("%lld reads (%llu misses), %llu updates, %llu inserts, %llu deletes, %lld refused writes; torn %lld, stale %lld; %llu seqcount retries, %llu lock spins, backlog peak %u",
	       (long long)atomic64_read(&s->reads), st.misses, st.updates,
	       st.inserts, st.deletes, (long long)atomic64_read(&s->refused),
	       (long long)atomic64_read(&s->torn),
	       (long long)atomic64_read(&s->stale), st.retries, st.spins,
	       st.backlog_peak);
}

#ifndef TW_TFIB_BROKEN	/* its readers see torn tuples, not order */
/*
 * Writers racing with versions of the same IDs, as control packets of one
 * user reaching several CPUs: writer k writes versions k + 1, k + 1 + W,
 * ... from just before the wrap of seq, so each applies some after a
 * newer one of another writer.  tw_tfib_set() must refuse those: a reader
 * never sees an ID's seq go back, and each ends at the newest written.
 */
#define ORDER_WRITERS	3
#define ORDER_ROUNDS	(STRESS_UPDATES / HOT)
#define ORDER_BASE	(0xffffffffU - 1000)

struct order {
	struct tw_tfib *fib;
	u32 flags;		/* of every tw_tfib_set() */
	int stop;
	atomic64_t sets, refused, back, torn, errors;
};

struct order_writer {
	struct order *o;
	u32 k;
};

static void *order_writer(void *arg)
{
	struct order_writer *w = arg;
	struct order *o = w->o;
	struct tw_tfib_tuple t;
	u32 n, id, v;
	int err;

	rcu_register_thread();
	for (n = 0; n < ORDER_ROUNDS; n++) {
		for (id = 0; id < HOT; id++) {
			v = ORDER_BASE + n * ORDER_WRITERS + w->k + 1;
			t = tfib_test_tuple(id, v);
			while ((err = tw_tfib_set(o->fib, id, &t, o->flags)) ==
			       -EBUSY)
				tw_tfib_reclaim(o->fib);
			atomic64_inc(&o->sets);
			if (err == -ESTALE)
				atomic64_inc(&o->refused);
			else if (err)
				atomic64_inc(&o->errors);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

static void *order_reader(void *arg)
{
	struct order *o = arg;
	bool seen[HOT] = {};
	u32 last[HOT], id = 0;
	struct tw_tfib_tuple t;

	rcu_register_thread();
	while (!READ_ONCE(o->stop)) {
		id = (id + 1) % HOT;
		if (tw_tfib_lookup(o->fib, id, &t))
			continue;
		if (!tfib_test_tuple_whole(id, &t))
			atomic64_inc(&o->torn);
		else if (seen[id] && tw_tfib_seq_after(last[id], t.seq))
			atomic64_inc(&o->back);
		last[id] = t.seq;
		seen[id] = true;
	}
	rcu_unregister_thread();
	return NULL;
}

static void order_run(struct order *o)
{
	struct order_writer w[ORDER_WRITERS];
	pthread_t th[ORDER_WRITERS], rd;
	u32 k;

	pthread_create(&rd, NULL, order_reader, o);
	for (k = 0; k < ORDER_WRITERS; k++) {
		w[k] = (struct order_writer){ .o = o, .k = k };
		pthread_create(&th[k], NULL, order_writer, &w[k]);
	}
	for (k = 0; k < ORDER_WRITERS; k++)
		pthread_join(th[k], NULL);
	WRITE_ONCE(o->stop, 1);
	pthread_join(rd, NULL);
}

FIXTURE(order) {
	struct order o;
};

FIXTURE_VARIANT(order) {
	u8 sync;
	u8 flags;
};

TFIB_TEST_VARIANTS(order);

FIXTURE_SETUP(order)
{
	struct tw_tfib_config cfg = {
		.capacity = 64, .buckets = 16, .spares = 256, .seed = 42,
		.sync = variant->sync, .flags = variant->flags,
	};

	memset(&self->o, 0, sizeof(self->o));
	rcu_register_thread();
	ASSERT_EQ(0, tw_tfib_create(&self->o.fib, &cfg));
}

FIXTURE_TEARDOWN(order)
{
	tw_tfib_destroy(self->o.fib);
	rcu_unregister_thread();
	EXPECT_EQ(0, tw_host_warnings);
}

TEST_F_TIMEOUT(order, racing_writers_never_go_back, 120)
{
	struct order *o = &self->o;
	struct tw_tfib_stats st;
	struct tw_tfib_tuple t;
	u32 id;

	order_run(o);
	tw_tfib_get_stats(o->fib, &st);
	TH_LOG("%lld sets, %lld refused as stale, %lld seen going back",
	       (long long)atomic64_read(&o->sets),
	       (long long)atomic64_read(&o->refused),
	       (long long)atomic64_read(&o->back));
	ASSERT_EQ(0, atomic64_read(&o->errors));
	ASSERT_EQ(0, atomic64_read(&o->torn));
	ASSERT_EQ(0, atomic64_read(&o->back));
	/* every set counted once: inserted, updated or refused */
	ASSERT_EQ((u64)atomic64_read(&o->sets),
		  st.inserts + st.updates + st.stale);
	ASSERT_EQ((u64)atomic64_read(&o->refused), st.stale);
	ASSERT_EQ(HOT, st.inserts);
	for (id = 0; id < HOT; id++) {
		ASSERT_EQ(0, tw_tfib_lookup(o->fib, id, &t));
		ASSERT_EQ(ORDER_BASE + ORDER_ROUNDS * ORDER_WRITERS, t.seq);
		ASSERT_TRUE(tfib_test_tuple_whole(id, &t));
	}
}

TEST_F_TIMEOUT(stress, no_torn_or_stale_reads, 120)
{
	struct stress *s = &self->s;
	struct tw_tfib_tuple t;
	u32 id;

	run(s, STRESS_UPDATES, false);
	report(_metadata, s);
	ASSERT_EQ(0, atomic64_read(&s->errors));
	ASSERT_EQ(0, atomic64_read(&s->missing));
	ASSERT_EQ(0, atomic64_read(&s->torn));
	ASSERT_EQ(0, atomic64_read(&s->stale));
	ASSERT_GT(atomic64_read(&s->reads), 0);
	/* every hot ID ends with the last version committed */
	for (id = 0; id < HOT; id++) {
		ASSERT_EQ(0, tw_tfib_lookup(s->fib, id, &t));
		ASSERT_EQ(s->committed[id], t.seq);
	}
}
#else
TEST_F_TIMEOUT(stress, broken_mode_is_caught, BROKEN_BUDGET_S + 30)
{
	struct stress *s = &self->s;

	run(s, 0, true);
	report(_metadata, s);
	ASSERT_GT(atomic64_read(&s->torn), 0);
}
#endif

TEST_HARNESS_MAIN
