// SPDX-License-Identifier: GPL-2.0
/*
 * test_compat.c - the host side of core/compat.h does what the kernel
 * interfaces it stands in for do: RCU grace periods, spinlocks, atomics and
 * the small helpers.
 */
#include <string.h>

#include "compat.h"
#include "kselftest_harness.h"

#define POISON		0x6b6b6b6b6b6b6b6bULL
#define READERS		2
#define UPDATES		2000

struct cfg {
	u64 a;
	u64 b;		/* always 2 * a + 1 while published */
};

static struct cfg *gcfg;
static spinlock_t cfg_lock;
static atomic64_t reads, bad_reads;
static int stop;

/*
 * Look at a published object twice with a pause between: a freed and
 * poisoned object (grace period not waited for) breaks the invariant.
 */
static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!READ_ONCE(stop)) {
		struct cfg *c;
		u64 a, b;
		int i;

		rcu_read_lock();
		c = rcu_dereference(gcfg);
		a = READ_ONCE(c->a);
		for (i = 0; i < 200; i++)
			__asm__ __volatile__("" ::: "memory");
		b = READ_ONCE(c->b);
		rcu_read_unlock();
		if (b != 2 * a + 1)
			atomic64_inc(&bad_reads);
		atomic64_inc(&reads);
	}
	rcu_unregister_thread();
	return NULL;
}

static void publish(u64 a)
{
	struct cfg *n = kmalloc(sizeof(*n), GFP_KERNEL), *old;

	n->a = a;
	n->b = 2 * a + 1;
	spin_lock(&cfg_lock);
	old = gcfg;
	rcu_assign_pointer(gcfg, n);
	spin_unlock(&cfg_lock);
	if (old) {
		synchronize_rcu();
		/* Nobody may still see old: make any late reader fail. */
		WRITE_ONCE(old->a, POISON);
		WRITE_ONCE(old->b, POISON);
		kfree(old);
	}
}

/*
 * Readers look at the published object while it is replaced and freed
 * after each grace period: none may see a freed one, the last stays.
 */
TEST(rcu)
{
	pthread_t th[READERS];
	s64 before;
	int i;

	spin_lock_init(&cfg_lock);
	publish(0);
	for (i = 0; i < READERS; i++)
		pthread_create(&th[i], NULL, reader, NULL);
	for (i = 1; i <= UPDATES; i++) {
		publish((u64)i);
		/* Make sure readers overlap the updates. */
		before = atomic64_read(&reads);
		while (atomic64_read(&reads) == before)
			;
	}
	WRITE_ONCE(stop, 1);
	for (i = 0; i < READERS; i++)
		pthread_join(th[i], NULL);
	ASSERT_GE(atomic64_read(&reads), UPDATES);
	ASSERT_EQ(0, atomic64_read(&bad_reads));
	ASSERT_EQ(UPDATES, gcfg->a);
	ASSERT_EQ(2 * UPDATES + 1, gcfg->b);
	kfree(gcfg);
}

#define LOCK_ITERS	200000

static spinlock_t count_lock;
static pthread_barrier_t start;
static u64 plain_count;
static atomic64_t atomic_count;

static void *counter(void *arg)
{
	u64 v;
	int i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < LOCK_ITERS; i++) {
		spin_lock_bh(&count_lock);
		/* a slow read-modify-write, made safe only by the lock */
		v = READ_ONCE(plain_count);
		__asm__ __volatile__("" ::: "memory");
		WRITE_ONCE(plain_count, v + 1);
		spin_unlock_bh(&count_lock);
		atomic64_add(3, &atomic_count);
	}
	return NULL;
}

/* A spinlock serialises two threads; atomic64 adds from both add up. */
TEST(locks)
{
	pthread_t th[2];
	int i;

	spin_lock_init(&count_lock);
	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, counter, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	ASSERT_EQ(2 * LOCK_ITERS, plain_count);
	ASSERT_EQ(6 * LOCK_ITERS, atomic64_read(&atomic_count));
	ASSERT_EQ(6 * LOCK_ITERS - 1, atomic64_add_return(-1, &atomic_count));
}

struct outer {
	int x;
	u64 member;
};

TEST(minmax)
{
	int side = 0;

	ASSERT_EQ(3, min(3, 5));
	ASSERT_EQ(5, max(3, 5));
	ASSERT_EQ(7, min_t(u32, 7, -1));
	ASSERT_EQ(1, max_t(s64, -2, 1));
	ASSERT_EQ(5, clamp(9, 2, 5));
	ASSERT_EQ(2, clamp(-1, 2, 5));
	ASSERT_EQ(44, clamp_t(u8, 300, 0, 255));
	/* min evaluates its arguments once */
	ASSERT_EQ(0, min(side++, 10));
	ASSERT_EQ(1, side);
}

TEST(div_helpers)
{
	ASSERT_EQ(3333333333ULL, div_u64(10000000000ULL, 3));
	ASSERT_EQ(U32_MAX, div64_u64(U64_MAX, 1ULL << 32));
	ASSERT_EQ(-3, div_s64(-7, 2));
	ASSERT_EQ(3, div64_s64(-9, -3));
}

TEST(container_of_member)
{
	struct outer o;

	ASSERT_EQ(&o, container_of(&o.member, struct outer, member));
}

TEST(kzalloc_zeroes)
{
	u8 *p = kzalloc(4096, GFP_ATOMIC);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, p[0]);
	ASSERT_EQ(0, memcmp(p, p + 1, 4095));
	kfree(p);
}

TEST(ktime_monotonic)
{
	u64 t0 = ktime_get_ns(), t1 = ktime_get_ns();

	ASSERT_GT(t0, 0);
	ASSERT_GE(t1, t0);
}

/* WARN_ON returns its condition and counts the warnings that fire. */
TEST(warn_on)
{
	unsigned long warns = tw_host_warnings;

	TH_LOG("a WARNING about 1 + 1 == 2 is expected next");
	ASSERT_TRUE(WARN_ON(1 + 1 == 2));
	ASSERT_FALSE(WARN_ON(0));
	ASSERT_EQ(warns + 1, tw_host_warnings);
}

TEST_HARNESS_MAIN
