// SPDX-License-Identifier: GPL-2.0
/*
 * guard.c - streaming high-quantile estimate of timer lateness.
 *
 * The estimate q moves up by UP steps when a sample exceeds it and down by
 * one step otherwise.  It settles where exceedances are 1 in (UP + 1), i.e.
 * about the 99.9th percentile for UP = 999: a wake-up later than the guard
 * spoils two inter-departure times, so a p99 guard would leave the p99 of
 * those to the timer's tail.  The step is a fraction of the mean distance
 * between samples and q, so it scales with the spread of the lateness:
 * fine when the timer is steady, fast when q is far off.
 */
#include "guard.h"

#define TW_GUARD_SHIFT		8	/* fixed point: 1/256 ns */
#define TW_GUARD_UP		999	/* up/down step ratio: p99.9 */
#define TW_GUARD_DEV_SHIFT	4	/* dev averages ~16 samples */
#define TW_GUARD_STEP_SHIFT	10	/* step = dev / 1024 */
#define TW_GUARD_MARGIN_NS	500U	/* fixed slack above the estimate */
#define TW_GUARD_LATE_CAP_NS	1000000000LL	/* clip absurd samples to 1 s */
#define TW_GUARD_HOLD_SHIFT	6	/* a miss's cover fades over ~64 samples */

static u32 tw_guard_from(const struct tw_guard *g)
{
	u64 ns = (max(g->quant + (g->dev >> 2), g->hold) >> TW_GUARD_SHIFT) +
		 TW_GUARD_MARGIN_NS;

	return (u32)clamp_t(u64, ns, g->min_ns, g->max_ns);
}

void tw_guard_init(struct tw_guard *g, u32 min_ns, u32 max_ns)
{
	if (WARN_ON_ONCE(min_ns > max_ns))
		max_ns = min_ns;
	g->min_ns = min_ns;
	g->max_ns = max_ns;
	g->guard_ns = clamp_t(u32, min_t(u32, max_ns, TW_GUARD_INIT_NS),
			      min_ns, max_ns);
	/* Start from the initial guard and let the samples pull it down. */
	g->quant = (u64)g->guard_ns << TW_GUARD_SHIFT;
	g->dev = 0;
	g->hold = 0;
	g->samples = 0;
	g->misses = 0;
}

void tw_guard_observe(struct tw_guard *g, s64 wake_late_ns)
{
	s64 late = clamp_t(s64, wake_late_ns, 0, TW_GUARD_LATE_CAP_NS);
	u64 x = (u64)late << TW_GUARD_SHIFT;
	u64 cap = (u64)g->max_ns << TW_GUARD_SHIFT;
	u64 diff, step;

	/*
	 * The step comes from the spread seen before this sample, so one
	 * outlier moves the estimate by about the usual spread, not by
	 * itself; its share of the spread is bounded by the cap.
	 */
	step = max_t(u64, g->dev >> TW_GUARD_STEP_SHIFT, 1 << TW_GUARD_SHIFT);
	if (x > g->quant)
		g->quant += step * TW_GUARD_UP;
	else
		g->quant -= min(step, g->quant);
	/* Beyond the cap the guard cannot follow: do not wait to decay. */
	g->quant = min(g->quant, cap);

	diff = x > g->quant ? x - g->quant : g->quant - x;
	g->dev = g->dev - (g->dev >> TW_GUARD_DEV_SHIFT) +
		 (min(diff, cap) >> TW_GUARD_DEV_SHIFT);

	/*
	 * Woke after the target: cover this much at once, in case the
	 * lateness has changed for good, and let that fade quickly if it
	 * was a one-off; the quantile estimate follows a lasting change.
	 */
	g->hold -= g->hold >> TW_GUARD_HOLD_SHIFT;
	if (late > g->guard_ns) {
		g->misses++;
		g->hold = max(g->hold, min(x, cap));
	}
	g->samples++;
	WRITE_ONCE(g->guard_ns, tw_guard_from(g));
}

u32 tw_guard_quantile_ns(const struct tw_guard *g)
{
	return (u32)(g->quant >> TW_GUARD_SHIFT);
}
