// SPDX-License-Identifier: GPL-2.0
/*
 * test_tfib.c - host unit tests of the forwarding table (core/tfib.c), the
 * same tests in every synchronisation mode.
 */
#include "tfib_test.h"
#include "kselftest_harness.h"

#define CAPACITY	64

FIXTURE(fib) {
	struct tw_tfib *fib;
};

FIXTURE_VARIANT(fib) {
	u8 sync;
	u8 flags;
};

TFIB_TEST_VARIANTS(fib);

static int tfib_make(struct tw_tfib **fib, const FIXTURE_VARIANT(fib) *variant,
		     u32 capacity, u32 seed)
{
	struct tw_tfib_config cfg = {
		.capacity = capacity,
		.seed = seed,
		.sync = variant->sync,
		.flags = variant->flags,
	};

	return tw_tfib_create(fib, &cfg);
}

FIXTURE_SETUP(fib)
{
	rcu_register_thread();
	ASSERT_EQ(0, tfib_make(&self->fib, variant, CAPACITY, 0x5eed));
}

FIXTURE_TEARDOWN(fib)
{
	tw_tfib_destroy(self->fib);
	rcu_unregister_thread();
	EXPECT_EQ(0, tw_host_warnings);
}

static struct tw_tfib_stats stats(struct tw_tfib *fib)
{
	struct tw_tfib_stats st;

	tw_tfib_get_stats(fib, &st);
	return st;
}

TEST_F(fib, insert_lookup)
{
	struct tw_tfib_tuple t, want;
	u32 id;

	for (id = 1; id <= 20; id++) {
		t = tfib_test_tuple(id, 1);
		ASSERT_EQ(0, tw_tfib_insert(self->fib, id * 7919, &t));
	}
	for (id = 1; id <= 20; id++) {
		want = tfib_test_tuple(id, 1);
		tw_tfib_prefetch(self->fib, id * 7919);
		ASSERT_EQ(0, tw_tfib_lookup(self->fib, id * 7919, &t));
		ASSERT_TRUE(tfib_test_tuple_eq(&want, &t));
	}
	ASSERT_EQ(-ENOENT, tw_tfib_lookup(self->fib, 3, &t));
	ASSERT_EQ(21, stats(self->fib).lookups);
	ASSERT_EQ(1, stats(self->fib).misses);
	ASSERT_EQ(20, stats(self->fib).inserts);
	ASSERT_EQ(20, stats(self->fib).entries);
}

TEST_F(fib, insert_existing)
{
	struct tw_tfib_tuple t = tfib_test_tuple(5, 1);
	struct tw_tfib_tuple u = tfib_test_tuple(5, 2);

	ASSERT_EQ(0, tw_tfib_insert(self->fib, 5, &t));
	ASSERT_EQ(-EEXIST, tw_tfib_insert(self->fib, 5, &u));
	ASSERT_EQ(0, tw_tfib_lookup(self->fib, 5, &u));
	ASSERT_TRUE(tfib_test_tuple_eq(&t, &u));
	ASSERT_EQ(1, stats(self->fib).entries);
}

TEST_F(fib, update)
{
	struct tw_tfib_tuple t = tfib_test_tuple(5, 1);
	struct tw_tfib_tuple u = tfib_test_tuple(5, 2);

	ASSERT_EQ(-ENOENT, tw_tfib_update(self->fib, 5, &u));
	ASSERT_EQ(0, tw_tfib_insert(self->fib, 5, &t));
	ASSERT_EQ(0, tw_tfib_update(self->fib, 5, &u));
	ASSERT_EQ(0, tw_tfib_lookup(self->fib, 5, &t));
	ASSERT_TRUE(tfib_test_tuple_eq(&u, &t));
	ASSERT_EQ(-ENOENT, tw_tfib_update(self->fib, 6, &u));
	ASSERT_EQ(1, stats(self->fib).updates);
	ASSERT_EQ(1, stats(self->fib).entries);
}

/* tw_tfib_set() inserts, then writes only what is after the stored seq. */
TEST_F(fib, set_newer_only)
{
	struct tw_tfib_tuple t = tfib_test_tuple(5, 10), u;

	ASSERT_EQ(0, tw_tfib_set(self->fib, 5, &t, 0));
	u = tfib_test_tuple(5, 9);
	ASSERT_EQ(-ESTALE, tw_tfib_set(self->fib, 5, &u, 0));
	ASSERT_EQ(-ESTALE, tw_tfib_set(self->fib, 5, &t, 0));
	ASSERT_EQ(0, tw_tfib_lookup(self->fib, 5, &u));
	ASSERT_TRUE(tfib_test_tuple_eq(&t, &u));
	u = tfib_test_tuple(5, 11);
	ASSERT_EQ(0, tw_tfib_set(self->fib, 5, &u, 0));
	/* the admin's overwrite goes back in time on purpose */
	ASSERT_EQ(0, tw_tfib_set(self->fib, 5, &t, TW_TFIB_SET_FORCE));
	ASSERT_EQ(0, tw_tfib_lookup(self->fib, 5, &u));
	ASSERT_TRUE(tfib_test_tuple_eq(&t, &u));
	ASSERT_EQ(1, stats(self->fib).inserts);
	ASSERT_EQ(2, stats(self->fib).updates);
	ASSERT_EQ(2, stats(self->fib).stale);
	ASSERT_EQ(1, stats(self->fib).entries);
}

/* Serial-number order: 2^32 - 16 is before 5, and half the space after. */
TEST_F(fib, set_seq_wraps)
{
	struct tw_tfib_tuple t = tfib_test_tuple(7, 0xfffffff0U), u;

	ASSERT_EQ(0, tw_tfib_set(self->fib, 7, &t, 0));
	u = tfib_test_tuple(7, 5);
	ASSERT_EQ(0, tw_tfib_set(self->fib, 7, &u, 0));
	t = tfib_test_tuple(7, 0xfffffff8U);
	ASSERT_EQ(-ESTALE, tw_tfib_set(self->fib, 7, &t, 0));
	/* 2^31 ahead is as far behind: refused either way */
	t = tfib_test_tuple(7, 5 + 0x80000000U);
	ASSERT_EQ(-ESTALE, tw_tfib_set(self->fib, 7, &t, 0));
	t = tfib_test_tuple(7, 5 + 0x7fffffffU);
	ASSERT_EQ(0, tw_tfib_set(self->fib, 7, &t, 0));
	ASSERT_EQ(0, tw_tfib_lookup(self->fib, 7, &u));
	ASSERT_TRUE(tfib_test_tuple_eq(&t, &u));
	ASSERT_EQ(2, stats(self->fib).stale);
	ASSERT_TRUE(tw_tfib_seq_after(0, 0xffffffffU));
	ASSERT_FALSE(tw_tfib_seq_after(0xffffffffU, 0));
	ASSERT_FALSE(tw_tfib_seq_after(3, 3));
}

/* Prefetches are counted where the table was made to do them. */
TEST_F(fib, prefetch_counted)
{
	tw_tfib_prefetch(self->fib, 1);
	tw_tfib_prefetch(self->fib, 2);
	ASSERT_EQ(variant->flags & TW_TFIB_PREFETCH ? 2 : 0,
		  stats(self->fib).prefetches);
}

TEST_F(fib, delete)
{
	struct tw_tfib_tuple t = tfib_test_tuple(5, 1);

	ASSERT_EQ(-ENOENT, tw_tfib_delete(self->fib, 5));
	ASSERT_EQ(0, tw_tfib_insert(self->fib, 5, &t));
	ASSERT_EQ(0, tw_tfib_delete(self->fib, 5));
	ASSERT_EQ(-ENOENT, tw_tfib_lookup(self->fib, 5, &t));
	ASSERT_EQ(-ENOENT, tw_tfib_delete(self->fib, 5));
	ASSERT_EQ(-ENOENT, tw_tfib_update(self->fib, 5, &t));
	ASSERT_EQ(0, tw_tfib_insert(self->fib, 5, &t));
	ASSERT_EQ(0, tw_tfib_lookup(self->fib, 5, &t));
	ASSERT_EQ(1, stats(self->fib).deletes);
	ASSERT_EQ(1, stats(self->fib).entries);
}

/* Deleting from the middle of a chain keeps the rest of it. */
TEST_F(fib, delete_in_chain)
{
	struct tw_tfib *fib;
	struct tw_tfib_tuple t;
	u32 id;

	/* one bucket: every entry in one chain */
	struct tw_tfib_config cfg = {
		.capacity = 8, .buckets = 1,
		.sync = variant->sync, .flags = variant->flags,
	};

	ASSERT_EQ(0, tw_tfib_create(&fib, &cfg));
	for (id = 0; id < 8; id++) {
		t = tfib_test_tuple(id, 0);
		ASSERT_EQ(0, tw_tfib_insert(fib, id, &t));
	}
	ASSERT_EQ(0, tw_tfib_delete(fib, 3));
	ASSERT_EQ(0, tw_tfib_delete(fib, 0));
	ASSERT_EQ(0, tw_tfib_delete(fib, 7));
	for (id = 0; id < 8; id++) {
		bool gone = id == 0 || id == 3 || id == 7;

		ASSERT_EQ(gone ? -ENOENT : 0, tw_tfib_lookup(fib, id, &t));
		if (!gone)
			ASSERT_TRUE(tfib_test_tuple_whole(id, &t));
	}
	tw_tfib_destroy(fib);
}

/* Capacity is a hard limit; a deleted entry's place comes back. */
TEST_F(fib, full)
{
	struct tw_tfib_tuple t = tfib_test_tuple(1, 1);
	u32 id;

	for (id = 0; id < CAPACITY; id++)
		ASSERT_EQ(0, tw_tfib_insert(self->fib, id, &t));
	ASSERT_EQ(-ENOSPC, tw_tfib_insert(self->fib, CAPACITY, &t));
	ASSERT_EQ(-EEXIST, tw_tfib_insert(self->fib, 0, &t));
	ASSERT_EQ(CAPACITY, stats(self->fib).entries);
	ASSERT_EQ(0, tw_tfib_delete(self->fib, 17));
	/* lockless modes: the place returns after a grace period */
	tw_tfib_reclaim(self->fib);
	ASSERT_EQ(0, stats(self->fib).backlog);
	ASSERT_EQ(0, tw_tfib_insert(self->fib, CAPACITY, &t));
	ASSERT_EQ(-ENOSPC, tw_tfib_insert(self->fib, 17, &t));
	for (id = 1; id <= CAPACITY; id++)
		ASSERT_EQ(id == 17 ? -ENOENT : 0,
			  tw_tfib_lookup(self->fib, id, &t));
}

struct dumped {
	u32 n;
	u32 stop_every;		/* stop the dump after this many; 0: never */
	u32 since_stop;
	u32 id[CAPACITY];
	struct tw_tfib_tuple t[CAPACITY];
};

static int collect(void *arg, u32 id, const struct tw_tfib_tuple *t)
{
	struct dumped *d = arg;

	if (d->stop_every && d->since_stop == d->stop_every) {
		d->since_stop = 0;
		return 1;
	}
	if (d->n == CAPACITY)
		return -1;
	d->since_stop++;
	d->id[d->n] = id;
	d->t[d->n++] = *t;
	return 0;
}

/* Dump @fib into @d, resuming as often as the callback stops. */
static int dump_all(struct tw_tfib *fib, struct dumped *d)
{
	struct tw_tfib_cursor pos = {};
	int ret, calls = 0;

	while ((ret = tw_tfib_dump(fib, &pos, collect, d)) == 1)
		calls++;
	return ret ? ret : calls;
}

/* Each ID inserted is dumped once, with its tuple; in @ids' order. */
static bool dumped_exactly(const struct dumped *d, const u32 *ids, u32 n)
{
	u32 i, j, seen;

	if (d->n != n)
		return false;
	for (i = 0; i < n; i++) {
		for (seen = 0, j = 0; j < d->n; j++) {
			struct tw_tfib_tuple want = tfib_test_tuple(ids[i], i);

			if (d->id[j] == ids[i] &&
			    tfib_test_tuple_eq(&want, &d->t[j]))
				seen++;
		}
		if (seen != 1)
			return false;
	}
	return true;
}

static void fill(struct tw_tfib *fib, const u32 *ids, u32 n, bool reverse)
{
	struct tw_tfib_tuple t;
	u32 i, k;

	for (k = 0; k < n; k++) {
		i = reverse ? n - 1 - k : k;
		t = tfib_test_tuple(ids[i], i);
		tw_tfib_insert(fib, ids[i], &t);
	}
}

static void random_ids(u32 *ids, u32 n)
{
	u64 x = 0x853c49e6748fea9bULL;
	u32 i, j;

	for (i = 0; i < n; i++) {
		do {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			ids[i] = (u32)(x >> 33);
			for (j = 0; j < i && ids[j] != ids[i]; j++)
				;
		} while (j < i);
	}
}

TEST_F(fib, dump)
{
	static struct dumped d;
	u32 ids[40];

	random_ids(ids, 40);
	fill(self->fib, ids, 40, false);
	ASSERT_EQ(0, dump_all(self->fib, &d));
	ASSERT_TRUE(dumped_exactly(&d, ids, 40));
}

/* A dump stopped every 3 entries resumes where it stopped. */
TEST_F(fib, dump_resume)
{
	static struct dumped d = { .stop_every = 3 };
	u32 ids[40];

	random_ids(ids, 40);
	fill(self->fib, ids, 40, false);
	ASSERT_EQ(40 / 3, dump_all(self->fib, &d));
	ASSERT_TRUE(dumped_exactly(&d, ids, 40));
}

/* The set dumped does not depend on the order of the inserts. */
TEST_F(fib, dump_order)
{
	static struct dumped d1, d2;
	struct tw_tfib *other;
	u32 ids[CAPACITY], i;

	random_ids(ids, CAPACITY);
	ASSERT_EQ(0, tfib_make(&other, variant, CAPACITY, 0x5eed));
	fill(self->fib, ids, CAPACITY, false);
	fill(other, ids, CAPACITY, true);
	ASSERT_EQ(0, dump_all(self->fib, &d1));
	ASSERT_EQ(0, dump_all(other, &d2));
	tw_tfib_destroy(other);
	ASSERT_TRUE(dumped_exactly(&d1, ids, CAPACITY));
	ASSERT_TRUE(dumped_exactly(&d2, ids, CAPACITY));
	/* same buckets, chains in the other order */
	for (i = 0; i < CAPACITY; i++)
		ASSERT_EQ(tw_tfib_bucket_of(self->fib, d1.id[i]),
			  tw_tfib_bucket_of(self->fib, d2.id[i]));
}

static int stop_now(void *arg, u32 id, const struct tw_tfib_tuple *t)
{
	(void)arg;
	(void)id;
	(void)t;
	return -7;
}

TEST_F(fib, dump_empty_and_stop)
{
	struct tw_tfib_cursor pos = {};
	struct tw_tfib_tuple t = tfib_test_tuple(1, 0);

	ASSERT_EQ(0, tw_tfib_dump(self->fib, &pos, stop_now, NULL));
	memset(&pos, 0, sizeof(pos));
	ASSERT_EQ(0, tw_tfib_insert(self->fib, 1, &t));
	ASSERT_EQ(-7, tw_tfib_dump(self->fib, &pos, stop_now, NULL));
	ASSERT_EQ(tw_tfib_bucket_of(self->fib, 1), pos.bucket);
	ASSERT_EQ(0, pos.skip);
}

/* Largest number of @ids that share a bucket of @fib. */
static u32 max_load(struct tw_tfib *fib, const u32 *ids, u32 n)
{
	static u32 load[4096];
	u32 i, most = 0, b;

	memset(load, 0, sizeof(load));
	for (i = 0; i < n; i++) {
		b = tw_tfib_bucket_of(fib, ids[i]);
		most = max(most, ++load[b]);
	}
	return most;
}

/*
 * 4096 IDs in 4096 buckets: with a random-like hash the fullest bucket
 * holds about 6 (ln n / ln ln n), so at most 10 may; the identity would
 * put every ID of a stride of 4096 in one bucket.
 */
TEST(hash_spread)
{
	struct tw_tfib_config cfg = { .capacity = 4096, .seed = 1 };
	static u32 ids[4096];
	struct tw_tfib *fib;
	u32 i, same = 0;

	ASSERT_EQ(0, tw_tfib_create(&fib, &cfg));
	ASSERT_EQ(4096, tw_tfib_buckets(fib));
	for (i = 0; i < 4096; i++)
		ids[i] = i;
	EXPECT_LE(max_load(fib, ids, 4096), 10);
	for (i = 0; i < 4096; i++) {
		ids[i] = i << 12;
		same += tw_tfib_bucket_of(fib, i) == i;
	}
	EXPECT_LE(max_load(fib, ids, 4096), 10);
	EXPECT_LT(same, 16);
	for (i = 0; i < 4096; i++)
		ids[i] = 0xffffffffU - i * 65537;
	EXPECT_LE(max_load(fib, ids, 4096), 10);
	tw_tfib_destroy(fib);
}

TEST(config)
{
	struct tw_tfib_config cfg = { .capacity = 50 };
	struct tw_tfib *fib = NULL;

	ASSERT_EQ(0, tw_tfib_create(&fib, &cfg));
	ASSERT_EQ(64, tw_tfib_buckets(fib));
	tw_tfib_destroy(fib);
	cfg.buckets = 3;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	cfg.buckets = 0;
	cfg.capacity = 0;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	cfg.capacity = TW_TFIB_MAX_CAPACITY + 1;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	cfg.capacity = 8;
	cfg.sync = TW_TFIB_SYNC_COUNT;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	cfg.sync = TW_TFIB_RCU;
	cfg.flags = 0x80;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	cfg.flags = 0;
	cfg.spares = TW_TFIB_MAX_CAPACITY + 1;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	/* chains bounded: at most TW_TFIB_MAX_LOAD entries a bucket */
	cfg.spares = 0;
	cfg.buckets = 4;
	cfg.capacity = 4 * TW_TFIB_MAX_LOAD + 1;
	ASSERT_EQ(-EINVAL, tw_tfib_create(&fib, &cfg));
	cfg.capacity = 4 * TW_TFIB_MAX_LOAD;
	ASSERT_EQ(0, tw_tfib_create(&fib, &cfg));
	tw_tfib_destroy(fib);
	ASSERT_STREQ("seqcount", tw_tfib_sync_name(TW_TFIB_SEQCOUNT));
	ASSERT_STREQ("rwlock", tw_tfib_sync_name(TW_TFIB_RWLOCK));
}

/*
 * rcu mode: while a reader holds up the grace period, updates take spare
 * copies until spares wait; then they are refused, and the table keeps
 * the last accepted tuple.  Once the copies are back, updates go on.
 */
TEST(rcu_backlog_bound)
{
	struct tw_tfib_config cfg = {
		.capacity = 8, .spares = 4, .sync = TW_TFIB_RCU,
	};
	struct tw_tfib_tuple t = tfib_test_tuple(1, 0);
	struct tw_tfib_stats st;
	struct tw_tfib *fib;
	u32 v;

	rcu_register_thread();
	ASSERT_EQ(0, tw_tfib_create(&fib, &cfg));
	ASSERT_EQ(0, tw_tfib_insert(fib, 1, &t));
	rcu_read_lock();
	for (v = 1; v <= 4; v++) {
		t = tfib_test_tuple(1, v);
		ASSERT_EQ(0, tw_tfib_update(fib, 1, &t));
	}
	t = tfib_test_tuple(1, 5);
	ASSERT_EQ(-EBUSY, tw_tfib_update(fib, 1, &t));
	tw_tfib_get_stats(fib, &st);
	rcu_read_unlock();
	ASSERT_EQ(1, st.busy);
	ASSERT_EQ(4, st.backlog);
	ASSERT_EQ(4, st.updates);
	ASSERT_EQ(0, tw_tfib_lookup(fib, 1, &t));
	ASSERT_EQ(4, t.seq);
	tw_tfib_reclaim(fib);
	tw_tfib_get_stats(fib, &st);
	ASSERT_EQ(0, st.backlog);
	ASSERT_EQ(4, st.backlog_peak);
	t = tfib_test_tuple(1, 5);
	ASSERT_EQ(0, tw_tfib_update(fib, 1, &t));
	ASSERT_EQ(0, tw_tfib_delete(fib, 1));
	tw_tfib_destroy(fib);
	rcu_unregister_thread();
}

TEST_HARNESS_MAIN
