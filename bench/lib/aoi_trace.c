// SPDX-License-Identifier: GPL-2.0
/*
 * aoi_trace.c - seeded control/data coin flips and Zipf(1) user IDs by an
 * exact inverse-CDF table.
 *
 * User k's weight is floor(2^40 / k): the sum over 2^31 users stays below
 * 2^46, and the smallest weight (2^40 / 2^31 = 512) still resolves the
 * tail to 0.2 %.  A draw is a uniform integer below the total (a 64-bit
 * draw reduced modulo the total, biased by less than 2^-18) looked up by
 * binary search: the first user whose partial sum exceeds it.
 */
#include "aoi_trace.h"

#define TW_AOI_WEIGHT_ONE	(1ULL << 40)

/* splitmix64: one 64-bit word of state, every output bit well mixed. */
static u64 tw_aoi_draw(struct tw_aoi_trace *t)
{
	u64 z;

	t->state += 0x9e3779b97f4a7c15ULL;
	z = t->state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Pr(control) = CDR / (1 + CDR), in 32-bit fixed point. */
static u32 tw_aoi_control_below(u32 cdr)
{
	u64 one = TW_AOI_CDR_ONE;

	return (u32)div64_u64((u64)cdr << 32, one + cdr);
}

int tw_aoi_trace_init(struct tw_aoi_trace *t,
		      const struct tw_aoi_trace_config *cfg)
{
	u64 sum = 0;
	u32 k;

	if (!cfg->users || cfg->users > TW_AOI_MAX_USERS)
		return -EINVAL;
	t->cdf = kvcalloc(cfg->users, sizeof(*t->cdf), GFP_KERNEL);
	if (!t->cdf)
		return -ENOMEM;
	for (k = 1; k <= cfg->users; k++) {
		sum += div_u64(TW_AOI_WEIGHT_ONE, k);
		t->cdf[k - 1] = sum;
	}
	t->users = cfg->users;
	t->control_below = tw_aoi_control_below(cfg->cdr);
	t->state = cfg->seed;
	return 0;
}

void tw_aoi_trace_destroy(struct tw_aoi_trace *t)
{
	kvfree(t->cdf);
	t->cdf = NULL;
}

u64 tw_aoi_zipf_weight(const struct tw_aoi_trace *t, u32 k)
{
	return t->cdf[k - 1] - (k > 1 ? t->cdf[k - 2] : 0);
}

static u32 tw_aoi_zipf_user(struct tw_aoi_trace *t)
{
	u64 total = tw_aoi_zipf_total(t);
	u64 x = tw_aoi_draw(t);
	u32 lo = 0, hi = t->users - 1;

	x -= div64_u64(x, total) * total;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (t->cdf[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo + 1;
}

void tw_aoi_trace_next(struct tw_aoi_trace *t, struct tw_aoi_row *row)
{
	row->control = (u32)(tw_aoi_draw(t) >> 32) < t->control_below;
	row->user = tw_aoi_zipf_user(t);
}
