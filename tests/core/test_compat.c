// SPDX-License-Identifier: GPL-2.0
/*
 * test_compat.c - the host side of core/compat.h does what the kernel
 * interfaces it stands in for do: RCU grace periods, spinlocks, atomics and
 * the small helpers.
 */
#include <string.h>

#include "compat.h"
#include "tap.h"

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

static void test_rcu(void)
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
	tap_ok(atomic64_read(&reads) >= UPDATES &&
	       atomic64_read(&bad_reads) == 0,
	       "RCU: %lld reads across %d updates, %lld saw a freed object",
	       (long long)atomic64_read(&reads), UPDATES,
	       (long long)atomic64_read(&bad_reads));
	tap_ok(gcfg->a == UPDATES && gcfg->b == 2 * UPDATES + 1,
	       "RCU: last published object is visible");
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

static void test_locks(void)
{
	pthread_t th[2];
	int i;

	spin_lock_init(&count_lock);
	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, counter, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	tap_ok(plain_count == 2 * LOCK_ITERS,
	       "spinlock serialises two threads (%llu)",
	       (unsigned long long)plain_count);
	tap_ok(atomic64_read(&atomic_count) == 6 * LOCK_ITERS &&
	       atomic64_add_return(-1, &atomic_count) == 6 * LOCK_ITERS - 1,
	       "atomic64 add from two threads");
}

struct outer {
	int x;
	u64 member;
};

static void test_helpers(void)
{
	struct outer o;
	unsigned long warns = tw_host_warnings;
	u64 t0, t1;
	int side = 0;
	u8 *p;

	tap_ok(min(3, 5) == 3 && max(3, 5) == 5 && min_t(u32, 7, -1) == 7 &&
	       max_t(s64, -2, 1) == 1 && clamp(9, 2, 5) == 5 &&
	       clamp(-1, 2, 5) == 2 && clamp_t(u8, 300, 0, 255) == 44,
	       "min/max/clamp");
	tap_ok(min(side++, 10) == 0 && side == 1, "min evaluates once");
	tap_ok(div_u64(10000000000ULL, 3) == 3333333333ULL &&
	       div64_u64(U64_MAX, 1ULL << 32) == U32_MAX &&
	       div_s64(-7, 2) == -3 && div64_s64(-9, -3) == 3,
	       "div helpers");
	tap_ok(container_of(&o.member, struct outer, member) == &o,
	       "container_of");
	p = kzalloc(4096, GFP_ATOMIC);
	tap_ok(p && p[0] == 0 && p[4095] == 0 &&
	       !memcmp(p, p + 1, 4095), "kzalloc zeroes");
	kfree(p);
	t0 = ktime_get_ns();
	t1 = ktime_get_ns();
	tap_ok(t0 > 0 && t1 >= t0, "ktime_get_ns is monotonic");
	tap_diag("a WARNING about 1 + 1 == 2 is expected next");
	tap_ok(WARN_ON(1 + 1 == 2) && !WARN_ON(0) &&
	       tw_host_warnings == warns + 1,
	       "WARN_ON returns its condition and counts");
}

int main(void)
{
	tap_plan(11);
	test_rcu();
	test_locks();
	test_helpers();
	return tap_done();
}
