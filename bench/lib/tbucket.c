// SPDX-License-Identifier: GPL-2.0
/*
 * tbucket.c - token bucket pacing with a caller-given clock.
 *
 * Tokens are kept exact: whole tokens plus the fraction earned so far in
 * units of 1e-9 token, so no rounding drifts the rate over a long run.
 */
#include "tbucket.h"

#define TW_TB_NS_PER_SEC	1000000000U

int tw_tbucket_init(struct tw_tbucket *tb, u32 rate_pps, u32 burst,
		    u64 depth, u64 now_ns)
{
	if (!burst)
		return -EINVAL;
	tb->rate_pps = rate_pps;
	tb->burst = burst;
	tb->depth = depth ? depth : U64_MAX;
	tb->last_ns = now_ns;
	tb->tokens = 0;
	tb->part = 0;
	return 0;
}

static u64 tw_tbucket_add_sat(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

/*
 * dt R / 1e9 tokens: whole seconds times R (seconds capped at 2^32, over
 * a century, so the product fits), plus the rest's ns times R (below
 * 2^62) with the fraction carried over.
 */
static void tw_tbucket_earn(struct tw_tbucket *tb, u64 dt_ns)
{
	u64 secs = div_u64(dt_ns, TW_TB_NS_PER_SEC);
	u64 rest_ns = dt_ns - secs * TW_TB_NS_PER_SEC;
	u64 scaled = rest_ns * tb->rate_pps + tb->part;
	u64 whole = div_u64(scaled, TW_TB_NS_PER_SEC);

	tb->part = (u32)(scaled - whole * TW_TB_NS_PER_SEC);
	secs = min_t(u64, secs, U32_MAX);
	whole = tw_tbucket_add_sat(whole, secs * tb->rate_pps);
	tb->tokens = min(tw_tbucket_add_sat(tb->tokens, whole), tb->depth);
}

u32 tw_tbucket_offer(struct tw_tbucket *tb, u64 now_ns)
{
	/* A clock that steps back earns nothing until it passes t_i again. */
	if (now_ns > tb->last_ns) {
		tw_tbucket_earn(tb, now_ns - tb->last_ns);
		tb->last_ns = now_ns;
	}
	return (u32)min_t(u64, tb->burst, tb->tokens);
}

void tw_tbucket_take(struct tw_tbucket *tb, u32 taken)
{
	if (WARN_ON_ONCE(taken > tb->tokens))
		taken = (u32)tb->tokens;
	tb->tokens -= taken;
}

int tw_tbucket_planner_init(struct tw_tbucket_planner *p, u32 rate_pps,
			    u32 burst, u64 start_ns)
{
	if (!rate_pps)
		return -EINVAL;
	p->clock_ns = start_ns;
	p->gap_ns = div_u64(TW_TB_NS_PER_SEC, rate_pps);
	p->gap_ns = max_t(u64, p->gap_ns, 1);
	p->used = 0;
	return tw_tbucket_init(&p->tb, rate_pps, burst, 0, start_ns);
}

/* The opportunity at clock_ns is spent: B taken, or no token left. */
static bool tw_tbucket_spent(struct tw_tbucket_planner *p)
{
	return p->used == p->tb.burst ||
	       !tw_tbucket_offer(&p->tb, p->clock_ns);
}

u32 tw_tbucket_plan(struct tw_tbucket_planner *p, u64 floor_ns,
		    u64 until_ns, u64 *times, u32 count)
{
	u32 done = 0, k;

	if (p->clock_ns < floor_ns) {
		p->clock_ns = floor_ns;
		p->used = 0;
	}
	while (done < count && p->clock_ns < until_ns) {
		k = min(tw_tbucket_offer(&p->tb, p->clock_ns),
			p->tb.burst - p->used);
		k = min(k, count - done);
		tw_tbucket_take(&p->tb, k);
		p->used += k;
		while (k--)
			times[done++] = p->clock_ns;
		/* Else count was reached: the next call goes on here. */
		if (tw_tbucket_spent(p)) {
			p->clock_ns += p->gap_ns;
			p->used = 0;
		}
	}
	return done;
}
