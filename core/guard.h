/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard.h - adaptive guard for hybrid (sleep, then spin) waiting.
 *
 * A hybrid sender arms a timer for (target - guard), then spins until the
 * target.  The guard must cover the timer's wake-up lateness, or the packet
 * leaves late; any excess is CPU burnt spinning.  tw_guard tracks a high
 * quantile (about p99.9) of the observed lateness and keeps the guard just
 * above it, within [min_ns, max_ns].  A wake-up later than the guard itself
 * (a miss) raises the guard at once; unless the lateness stays that high,
 * that cover fades within a few tens of samples.
 *
 * Integer arithmetic only, no division, no locking: the caller serialises
 * tw_guard_observe(); tw_guard_ns() may be read from anywhere.
 */
#ifndef _TW_GUARD_H
#define _TW_GUARD_H

#include "compat.h"

#define TW_GUARD_INIT_NS	50000U	/* starting guard, before clamping */

struct tw_guard {
	u32 guard_ns;		/* current guard */
	u32 min_ns;
	u32 max_ns;
	/* private estimator state, fixed point (ns << TW_GUARD_SHIFT) */
	u64 quant;		/* running estimate of the lateness quantile */
	u64 dev;		/* mean distance of samples from quant */
	u64 hold;		/* cover after a miss, fading */
	u64 samples;		/* observations so far */
	u64 misses;		/* observations later than the guard in force */
};

void tw_guard_init(struct tw_guard *g, u32 min_ns, u32 max_ns);
void tw_guard_observe(struct tw_guard *g, s64 wake_late_ns);

static inline u32 tw_guard_ns(const struct tw_guard *g)
{
	return READ_ONCE(g->guard_ns);
}

/* Current quantile estimate in ns, for statistics. */
u32 tw_guard_quantile_ns(const struct tw_guard *g);

#endif /* _TW_GUARD_H */
