/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aoi_trace.h - the packet trace of the Age-of-Information experiment.
 *
 * A trace is a sequence of rows <type, user ID>, as in the AoI forwarder
 * study (Ramani, Chen, Yates, section IV): each row is a control packet (a
 * location update) or a data packet (an app update) by a seeded coin flip,
 * so that control rows / data rows tends to the CDR asked for, and names a
 * user drawn Zipf(1) over users 1..N: user k with probability
 * (1/k) / (1/1 + ... + 1/N), so user 1 is the most popular.
 *
 * Integer arithmetic only: the Zipf CDF is a table of 64-bit fixed-point
 * partial sums, the generator splitmix64.  A seed gives the same rows on
 * every CPU and byte order.
 */
#ifndef _TW_AOI_TRACE_H
#define _TW_AOI_TRACE_H

#include "compat.h"

/* CDR in fixed point: control rows per 10^6 data rows. */
#define TW_AOI_CDR_ONE		1000000U

/* User IDs fit the 31 bits of a row word (below). */
#define TW_AOI_MAX_USERS	((1U << 31) - 1)

/*
 * A row as one 32-bit word: the type in the top bit (set: control), the
 * user ID below it.  The binary trace file stores these big-endian.
 */
#define TW_AOI_WORD_CONTROL	(1U << 31)

struct tw_aoi_row {
	bool control;
	u32 user;		/* 1..N */
};

struct tw_aoi_trace_config {
	u32 users;		/* N, 1..TW_AOI_MAX_USERS */
	u32 cdr;		/* control/data ratio x TW_AOI_CDR_ONE */
	u64 seed;
};

struct tw_aoi_trace {
	u32 users;
	/* a row is control when the top 32 bits of a draw are below this */
	u32 control_below;
	u64 state;		/* splitmix64 */
	u64 *cdf;		/* cdf[k - 1]: weights of users 1..k */
};

/* -EINVAL for a bad configuration, -ENOMEM. */
int tw_aoi_trace_init(struct tw_aoi_trace *t,
		      const struct tw_aoi_trace_config *cfg);
void tw_aoi_trace_destroy(struct tw_aoi_trace *t);

/* The next row of the trace. */
void tw_aoi_trace_next(struct tw_aoi_trace *t, struct tw_aoi_row *row);

/* P(user k) = zipf_weight(k) / zipf_total, for tests and reports. */
u64 tw_aoi_zipf_weight(const struct tw_aoi_trace *t, u32 k);

static inline u64 tw_aoi_zipf_total(const struct tw_aoi_trace *t)
{
	return t->cdf[t->users - 1];
}

static inline u32 tw_aoi_row_word(const struct tw_aoi_row *row)
{
	return (row->control ? TW_AOI_WORD_CONTROL : 0) | row->user;
}

static inline void tw_aoi_row_from_word(struct tw_aoi_row *row, u32 word)
{
	row->control = word & TW_AOI_WORD_CONTROL;
	row->user = word & ~TW_AOI_WORD_CONTROL;
}

#endif /* _TW_AOI_TRACE_H */
