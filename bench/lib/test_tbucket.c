// SPDX-License-Identifier: GPL-2.0
/*
 * test_tbucket.c - host unit tests of the AoI source's token bucket on a
 * simulated clock.
 */
#include "tbucket.h"
#include "kselftest_harness.h"

#define NS_PER_SEC	1000000000ULL
#define NS_PER_US	1000ULL

/* Jitter without a generator: the top bits of a Weyl sequence. */
static u64 rng(void)
{
	static u64 step;

	return ++step * 0x9e3779b97f4a7c15ULL >> 24;
}

struct sim {
	u64 admitted;		/* sum of L_i */
	u64 opportunities;
	u32 max_offer;		/* largest K_i */
	u64 full_offers;	/* K_i == B */
};

/*
 * The study's sending loop for duration_ns: an opportunity every gap_ns
 * plus up to jitter_ns; the ring takes all of an offer, or with ring_full
 * set one in four times only half of it.
 */
static struct sim simulate(struct tw_tbucket *tb, u64 start_ns,
			   u64 duration_ns, u64 gap_ns, u64 jitter_ns,
			   bool ring_full)
{
	struct sim s = { 0 };
	u64 now;

	for (now = start_ns; now < start_ns + duration_ns;
	     now += gap_ns + (jitter_ns ? rng() % jitter_ns : 0)) {
		u32 k = tw_tbucket_offer(tb, now);
		u32 l = ring_full && rng() % 4 == 0 ? k / 2 : k;

		tw_tbucket_take(tb, l);
		s.admitted += l;
		s.opportunities++;
		s.max_offer = max(s.max_offer, k);
		s.full_offers += k == tb->burst;
	}
	return s;
}

TEST(starts_empty)
{
	struct tw_tbucket tb;

	ASSERT_EQ(-EINVAL, tw_tbucket_init(&tb, 1000, 0, 0, 0));
	ASSERT_EQ(0, tw_tbucket_init(&tb, 1000, 32, 0, 5000));
	/* N_0 = 0 at t_0 */
	ASSERT_EQ(0, tw_tbucket_offer(&tb, 5000));
	/* 1000 pps: one token per ms, the fraction kept between calls */
	ASSERT_EQ(0, tw_tbucket_offer(&tb, 5000 + 999999));
	ASSERT_EQ(1, tw_tbucket_offer(&tb, 5000 + 1000000));
	ASSERT_EQ(3, tw_tbucket_offer(&tb, 5000 + 3500000));
	tw_tbucket_take(&tb, 2);
	ASSERT_EQ(1, tw_tbucket_offer(&tb, 5000 + 3500000));
	/* the half token earned by 3.5 ms is still there */
	ASSERT_EQ(2, tw_tbucket_offer(&tb, 5000 + 4000000));
	/* a clock stepping back earns nothing and takes nothing away */
	ASSERT_EQ(2, tw_tbucket_offer(&tb, 0));
	ASSERT_EQ(2, tw_tbucket_offer(&tb, 5000 + 4000000));
}

/* K_i never exceeds B, however many tokens the bucket holds. */
TEST(offer_bounded_by_burst)
{
	struct tw_tbucket tb;
	struct sim s;

	ASSERT_EQ(0, tw_tbucket_init(&tb, 10000000, 32, 0, 0));
	s = simulate(&tb, 0, NS_PER_SEC / 10, 10 * NS_PER_US, 20 * NS_PER_US,
		     true);
	ASSERT_EQ(32, s.max_offer);
	/* 10 Mpps, an opportunity every 10-30 us: 100+ tokens each time
	 * but at t_0, when the bucket is empty
	 */
	ASSERT_EQ(s.opportunities - 1, s.full_offers);
}

/*
 * Long run at 1 Mpps with jittered opportunities and a ring that refuses
 * part of a quarter of the offers: within 0.1 % of R.
 */
TEST(long_run_rate)
{
	u64 duration = 10 * NS_PER_SEC, want = 10 * 1000000ULL;
	struct tw_tbucket tb;
	struct sim s;

	ASSERT_EQ(0, tw_tbucket_init(&tb, 1000000, 32, 0, 0));
	s = simulate(&tb, 0, duration, 5 * NS_PER_US, 10 * NS_PER_US, true);
	ASSERT_LE(s.admitted, want);
	ASSERT_GE(s.admitted * 1000, want * 999)
		TH_LOG("admitted %llu of %llu", (unsigned long long)s.admitted,
		       (unsigned long long)want);
	/* tokens refused by the ring were used later, not lost */
	ASSERT_LT(tb.tokens, 64);
}

/*
 * Idle for a second at 1000 pps: the unbounded bucket (the study's) holds
 * 1000 tokens and offers B at every opportunity until they are spent; a
 * bucket of depth B offers one burst, then the rate.
 */
TEST(burst_after_idle)
{
	struct tw_tbucket tb;
	u64 sent = 0;
	u32 k;
	int i;

	ASSERT_EQ(0, tw_tbucket_init(&tb, 1000, 32, 0, 0));
	for (i = 0; i < 31; i++) {
		k = tw_tbucket_offer(&tb, NS_PER_SEC + i);
		ASSERT_EQ(32, k);
		tw_tbucket_take(&tb, k);
		sent += k;
	}
	k = tw_tbucket_offer(&tb, NS_PER_SEC + i);
	ASSERT_EQ(1000 - sent, k);

	ASSERT_EQ(0, tw_tbucket_init(&tb, 1000, 32, 32, 0));
	k = tw_tbucket_offer(&tb, NS_PER_SEC);
	ASSERT_EQ(32, k);
	tw_tbucket_take(&tb, k);
	ASSERT_EQ(0, tw_tbucket_offer(&tb, NS_PER_SEC + 999999));
	ASSERT_EQ(1, tw_tbucket_offer(&tb, NS_PER_SEC + 1000000));
}

/* 1 pps polled every microsecond for 10 s: exactly 10 tokens, one a second. */
TEST(very_low_rate)
{
	struct tw_tbucket tb;
	struct sim s;

	ASSERT_EQ(0, tw_tbucket_init(&tb, 1, 32, 0, 0));
	s = simulate(&tb, 0, 10 * NS_PER_SEC, NS_PER_US, 0, false);
	ASSERT_EQ(9, s.admitted);	/* t = 1 s .. 9 s; 10 s is not reached */
	ASSERT_EQ(1, s.max_offer);
	ASSERT_EQ(1, tw_tbucket_offer(&tb, 10 * NS_PER_SEC));

	/* R = 0 never admits */
	ASSERT_EQ(0, tw_tbucket_init(&tb, 0, 32, 0, 0));
	ASSERT_EQ(0, tw_tbucket_offer(&tb, 1000 * NS_PER_SEC));
}

/*
 * The largest R over the longest gap: no overflow, the bucket saturates;
 * at 4 Gpps polled every microsecond each opportunity offers B.
 */
TEST(very_high_rate)
{
	struct tw_tbucket tb;
	struct sim s;

	ASSERT_EQ(0, tw_tbucket_init(&tb, U32_MAX, 32, 0, 0));
	ASSERT_EQ(32, tw_tbucket_offer(&tb, U64_MAX));
	ASSERT_GE(tb.tokens, (u64)U32_MAX * U32_MAX);
	/* the same gap again would wrap: the count stops at U64_MAX */
	tb.last_ns = 0;
	ASSERT_EQ(32, tw_tbucket_offer(&tb, U64_MAX));
	ASSERT_EQ(U64_MAX, tb.tokens);
	tw_tbucket_take(&tb, 32);
	ASSERT_EQ(U64_MAX - 32, tb.tokens);

	ASSERT_EQ(0, tw_tbucket_init(&tb, U32_MAX, 32, 0, 0));
	s = simulate(&tb, 0, NS_PER_SEC / 100, NS_PER_US, 0, false);
	ASSERT_EQ(s.opportunities - 1, s.full_offers);
	ASSERT_EQ(32 * (s.opportunities - 1), s.admitted);
	/* 4294 tokens a microsecond earned, 32 spent */
	ASSERT_GE(tb.tokens, (u64)(4294 - 32) * (s.opportunities - 1));
}

#define NO_LIMIT	U64_MAX

/* A sender on time: one packet a token's time apart, from t_0 + 1/R. */
TEST(plan_steady)
{
	struct tw_tbucket_planner p;
	u64 times[100];
	int i;

	ASSERT_EQ(0, tw_tbucket_planner_init(&p, 1000, 32, 0));
	ASSERT_EQ(60, tw_tbucket_plan(&p, 0, NO_LIMIT, times, 60));
	ASSERT_EQ(40, tw_tbucket_plan(&p, 0, NO_LIMIT, times + 60, 40));
	for (i = 0; i < 100; i++)
		ASSERT_EQ((u64)(i + 1) * 1000000, times[i]);
	ASSERT_EQ(101ULL * 1000000, p.clock_ns);
}

/*
 * A planner 50 ms behind its floor: the 50 tokens earned leave as 32 at
 * the floor and 19 (18 left, one more earned) an opportunity later, then
 * one a token's time apart again.
 */
static void catch_up(struct __test_metadata *_metadata,
		     struct tw_tbucket_planner *p, u64 floor, u64 *times)
{
	int i;

	for (i = 0; i < 32; i++)
		ASSERT_EQ(floor, times[i]);
	for (; i < 51; i++)
		ASSERT_EQ(floor + 1000000, times[i]);
	for (; i < 64; i++)
		ASSERT_EQ(floor + (u64)(i - 49) * 1000000, times[i]);
	ASSERT_EQ(floor + 15 * 1000000ULL, p->clock_ns);
}

TEST(plan_catch_up)
{
	u64 times[64], floor = 60 * 1000000ULL;
	struct tw_tbucket_planner p;

	ASSERT_EQ(0, tw_tbucket_planner_init(&p, 1000, 32, 0));
	ASSERT_EQ(10, tw_tbucket_plan(&p, 0, NO_LIMIT, times, 10));
	ASSERT_EQ(10ULL * 1000000, times[9]);
	ASSERT_EQ(64, tw_tbucket_plan(&p, floor, NO_LIMIT, times, 64));
	catch_up(_metadata, &p, floor, times);
	/* a floor behind the clock changes nothing */
	ASSERT_EQ(0, tw_tbucket_plan(&p, 4, NO_LIMIT, times, 0));
	ASSERT_EQ(floor + 15 * 1000000ULL, p.clock_ns);
}

/* The same plan cut anywhere: 5, then 30 (a burst split twice), then 29. */
TEST(plan_cut)
{
	u64 times[64], floor = 60 * 1000000ULL;
	struct tw_tbucket_planner p;

	ASSERT_EQ(0, tw_tbucket_planner_init(&p, 1000, 32, 0));
	ASSERT_EQ(10, tw_tbucket_plan(&p, 0, NO_LIMIT, times, 10));
	ASSERT_EQ(5, tw_tbucket_plan(&p, floor, NO_LIMIT, times, 5));
	ASSERT_EQ(30, tw_tbucket_plan(&p, floor, NO_LIMIT, times + 5, 30));
	ASSERT_EQ(29, tw_tbucket_plan(&p, 0, NO_LIMIT, times + 35, 29));
	catch_up(_metadata, &p, floor, times);
}

/* until_ns stops at the last opportunity before it; the rest waits. */
TEST(plan_until)
{
	struct tw_tbucket_planner p;
	u64 times[16];

	ASSERT_EQ(0, tw_tbucket_planner_init(&p, 1000, 32, 0));
	ASSERT_EQ(4, tw_tbucket_plan(&p, 0, 5000000, times, 16));
	ASSERT_EQ(4000000ULL, times[3]);
	ASSERT_EQ(5000000ULL, p.clock_ns);
	ASSERT_EQ(0, tw_tbucket_plan(&p, 0, 5000000, times, 16));
	ASSERT_EQ(1, tw_tbucket_plan(&p, 0, 5000001, times, 16));
	ASSERT_EQ(5000000ULL, times[0]);
}

/*
 * 1e9 / R rounded down (R = 30 000: 33 333 ns) keeps the long-run rate at
 * R exactly: the last of 3 R packets leaves at the first opportunity
 * after its token, earned at 3 s; never two at one time.
 */
TEST(plan_rate)
{
	static u64 times[90000];
	struct tw_tbucket_planner p;
	u32 i;

	ASSERT_EQ(0, tw_tbucket_planner_init(&p, 30000, 32, 0));
	ASSERT_EQ(33333, p.gap_ns);
	ASSERT_EQ(90000, tw_tbucket_plan(&p, 0, NO_LIMIT, times, 90000));
	for (i = 1; i < 90000; i++)
		ASSERT_LT(times[i - 1], times[i]);
	ASSERT_GE(times[89999], 3 * NS_PER_SEC);
	ASSERT_LT(times[89999], 3 * NS_PER_SEC + 33333);

	ASSERT_EQ(-EINVAL, tw_tbucket_planner_init(&p, 0, 32, 0));
	ASSERT_EQ(-EINVAL, tw_tbucket_planner_init(&p, 1000, 0, 0));
	/* above 1e9 pps the gap stays 1 ns */
	ASSERT_EQ(0, tw_tbucket_planner_init(&p, U32_MAX, 32, 0));
	ASSERT_EQ(1, p.gap_ns);
}

TEST_HARNESS_MAIN
