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

void tw_tbucket_plan(struct tw_tbucket *tb, u64 *clock_ns, u64 gap_ns,
		     u64 floor_ns, u64 *times, u32 count)
{
	u32 done = 0, k;

	if (*clock_ns < floor_ns)
		*clock_ns = floor_ns;
	gap_ns = max_t(u64, gap_ns, 1);
	/* R = 0 never admits: no time, rather than no end. */
	while (!tb->rate_pps && done < count)
		times[done++] = U64_MAX;
	while (done < count) {
		k = min(tw_tbucket_offer(tb, *clock_ns), count - done);
		tw_tbucket_take(tb, k);
		while (k--)
			times[done++] = *clock_ns;
		*clock_ns += gap_ns;
	}
}
