// SPDX-License-Identifier: GPL-2.0
/*
 * test_guard.c - host unit tests of the adaptive hybrid-wait guard, fed
 * with synthetic lateness distributions.
 */
#include "guard.h"
#include "tap.h"

static u64 rng_state = 0x2545f4914f6cdd1dULL;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Uniform in [lo, hi]. */
static s64 uni(s64 lo, s64 hi)
{
	return lo + (s64)(rng() % (u64)(hi - lo + 1));
}

struct run_stats {
	u64 misses;	/* samples later than the guard in force */
	u64 guard_sum;
	u32 guard_min, guard_max;
	int n;
};

/*
 * Feed n samples from draw(); count misses the way the sender would see
 * them (sample > guard in force when the timer was armed).
 */
static struct run_stats feed(struct tw_guard *g, int n, s64 (*draw)(void))
{
	struct run_stats st = { .guard_min = U32_MAX, .n = n };
	int i;

	for (i = 0; i < n; i++) {
		s64 late = draw();

		if (late > tw_guard_ns(g))
			st.misses++;
		tw_guard_observe(g, late);
		st.guard_sum += tw_guard_ns(g);
		st.guard_min = min(st.guard_min, tw_guard_ns(g));
		st.guard_max = max(st.guard_max, tw_guard_ns(g));
	}
	return st;
}

static u32 avg(const struct run_stats *st)
{
	return (u32)(st->guard_sum / (u64)st->n);
}

/* Per mille, to compare miss rates without floating point. */
static u64 permille(const struct run_stats *st)
{
	return st->misses * 1000 / (u64)st->n;
}

static s64 draw_heavy(void) { return uni(80000, 120000); }
static s64 draw_light(void) { return uni(5000, 10000); }
static s64 draw_tail(void)
{
	/* 98% fast, 2% slow: the 99th percentile lies in the slow part */
	return rng() % 100 < 2 ? uni(40000, 50000) : uni(5000, 10000);
}

static s64 draw_rare(void)
{
	/* 0.5% slow: above p99, below p99.9; a miss spoils two IDTs */
	return rng() % 1000 < 5 ? uni(40000, 50000) : uni(5000, 10000);
}

static s64 draw_spike(void)
{
	/* one 1 ms outlier in 2000: below p99.9, not worth covering */
	return rng() % 2000 == 0 ? 1000000 : uni(5000, 10000);
}

static s64 draw_spikes(void)
{
	/* one in 300: now p99.9 is 1 ms and the guard must cover it */
	return rng() % 300 == 0 ? 1000000 : uni(5000, 10000);
}

static s64 draw_wild(void)
{
	static const s64 odd[] = { S64_MIN, -1, 0, 1, S64_MAX, 1000000000,
				   (s64)U32_MAX, (s64)U32_MAX + 1 };

	if (rng() % 4 == 0)
		return odd[rng() % 8];
	return uni(-100000, 10000000);
}

static s64 draw_early(void)
{
	return uni(-50000, 0);
}

static void test_init(void)
{
	struct tw_guard g;
	unsigned long warns;

	tw_guard_init(&g, 1000, 500000);
	tap_ok(tw_guard_ns(&g) == 50000 && g.min_ns == 1000 &&
	       g.max_ns == 500000, "init starts at 50 us (got %u)",
	       tw_guard_ns(&g));
	tw_guard_init(&g, 1000, 20000);
	tap_ok(tw_guard_ns(&g) == 20000, "init start capped by max (got %u)",
	       tw_guard_ns(&g));
	tw_guard_init(&g, 80000, 200000);
	tap_ok(tw_guard_ns(&g) == 80000, "init start raised to min (got %u)",
	       tw_guard_ns(&g));
	warns = tw_host_warnings;
	tap_diag("a WARNING about min_ns > max_ns is expected next");
	tw_guard_init(&g, 9000, 3000);
	tap_ok(tw_host_warnings == warns + 1 && tw_guard_ns(&g) == 9000 &&
	       g.min_ns <= g.max_ns, "min > max warns and is repaired");
}

static void test_adapt(void)
{
	struct run_stats st;
	struct tw_guard g;

	tw_guard_init(&g, 1000, 500000);
	st = feed(&g, 200, draw_heavy);
	tap_ok(tw_guard_ns(&g) >= 110000,
	       "lateness 80..120 us: guard rises above 110 us within 200 samples (got %u, %llu misses)",
	       tw_guard_ns(&g), (unsigned long long)st.misses);
	st = feed(&g, 20000, draw_heavy);
	tap_ok(permille(&st) < 2 && avg(&st) >= 110000 && avg(&st) < 150000,
	       "lateness 80..120 us: misses %llu/1000 < 2, mean guard %u in [110, 150) us",
	       (unsigned long long)permille(&st), avg(&st));

	st = feed(&g, 5000, draw_light);
	st = feed(&g, 20000, draw_light);
	tap_ok(avg(&st) >= 9000 && avg(&st) < 20000 && st.guard_max < 25000,
	       "lateness drops to 5..10 us: guard follows down (mean %u, max %u)",
	       avg(&st), st.guard_max);
	tap_ok(permille(&st) < 2, "lateness 5..10 us: misses %llu/1000 < 2",
	       (unsigned long long)permille(&st));

	st = feed(&g, 5000, draw_tail);
	st = feed(&g, 100000, draw_tail);
	tap_ok(permille(&st) < 3 && avg(&st) > 30000 && avg(&st) < 80000,
	       "2%% slow tail at 40..50 us: misses %llu/1000 < 3, mean guard %u in (30, 80) us",
	       (unsigned long long)permille(&st), avg(&st));

	/* The tail a p99 guard would leave uncovered. */
	tw_guard_init(&g, 1000, 500000);
	st = feed(&g, 5000, draw_rare);
	st = feed(&g, 200000, draw_rare);
	tap_ok(st.misses * 10000 / (u64)st.n < 15 && avg(&st) > 40000 &&
	       avg(&st) < 100000,
	       "0.5%% slow tail at 40..50 us: misses %llu/10000 < 15, mean guard %u in (40, 100) us",
	       (unsigned long long)(st.misses * 10000 / (u64)st.n), avg(&st));
}

static void test_outliers(void)
{
	struct run_stats st;
	struct tw_guard g;

	tw_guard_init(&g, 1000, 2000000);
	feed(&g, 5000, draw_light);
	st = feed(&g, 200000, draw_spike);
	tap_ok(avg(&st) < 50000,
	       "1 ms outliers at 0.05%%: mean guard %u stays below 50 us",
	       avg(&st));
	st = feed(&g, 5000, draw_spikes);
	st = feed(&g, 200000, draw_spikes);
	tap_ok(st.misses * 10000 / (u64)st.n < 15 &&
	       avg(&st) > 1000000 && avg(&st) < 2000000,
	       "1 ms outliers at 0.33%%: covered, misses %llu/10000 < 15, mean guard %u",
	       (unsigned long long)(st.misses * 10000 / (u64)st.n), avg(&st));
}

static void test_bounds(void)
{
	struct run_stats st;
	struct tw_guard g;

	u32 lo = U32_MAX, hi = 0;
	int i;

	/* Alternate wild phases with early wake-ups that pull it to min. */
	tw_guard_init(&g, 3000, 70000);
	for (i = 0; i < 10; i++) {
		st = feed(&g, 10000, i & 1 ? draw_early : draw_wild);
		lo = min(lo, st.guard_min);
		hi = max(hi, st.guard_max);
	}
	tap_ok(lo >= 3000 && hi <= 70000,
	       "wild and early samples: guard stays in [3, 70] us (saw %u..%u)",
	       lo, hi);
	tap_ok(lo == 3000 && hi == 70000, "and reaches both bounds");

	tw_guard_init(&g, 25000, 25000);
	st = feed(&g, 10000, draw_wild);
	tap_ok(st.guard_min == 25000 && st.guard_max == 25000,
	       "min == max pins the guard");
}

static void test_miss(void)
{
	struct tw_guard g;
	u64 misses;
	u32 g0, big;

	tw_guard_init(&g, 1000, 200000);
	feed(&g, 20000, draw_light);
	g0 = tw_guard_ns(&g);
	misses = g.misses;
	big = g0 + 30000;
	tw_guard_observe(&g, big);
	tap_ok(tw_guard_ns(&g) >= big && g.misses == misses + 1,
	       "one miss of %u ns raises the guard at once (%u -> %u)",
	       big, g0, tw_guard_ns(&g));
	feed(&g, 10000, draw_light);
	tap_ok(tw_guard_ns(&g) < g0 + 10000,
	       "after the miss it comes back down (%u)", tw_guard_ns(&g));
	tw_guard_observe(&g, 10000000);
	tap_ok(tw_guard_ns(&g) == 200000, "a miss beyond max pins at max");

	/* 30 ms << 8 needs more than 32 bits: the fixed point must be u64. */
	tw_guard_init(&g, 1000, 100000000);
	feed(&g, 1000, draw_light);
	tw_guard_observe(&g, 30000000);
	tap_ok(tw_guard_ns(&g) >= 30000000 && tw_guard_ns(&g) < 31000000,
	       "a 30 ms miss under a 100 ms cap raises the guard to 30 ms (%u)",
	       tw_guard_ns(&g));
	tw_guard_init(&g, 1000, 200000);
	feed(&g, 20000, draw_light);
	tw_guard_observe(&g, 10000000);
	tap_ok(tw_guard_quantile_ns(&g) <= 200000,
	       "the quantile estimate stays within the cap (%u)",
	       tw_guard_quantile_ns(&g));
	feed(&g, 500, draw_light);
	tap_ok(tw_guard_ns(&g) < 50000,
	       "a one-off miss fades within 500 samples (%u)", tw_guard_ns(&g));
}

int main(void)
{
	unsigned long expected_warns = 1;	/* from the min > max case */

	tap_plan(22);
	test_init();
	test_adapt();
	test_outliers();
	test_bounds();
	test_miss();
	tap_ok(tw_host_warnings == expected_warns,
	       "no unexpected warning fired");
	return tap_done();
}
