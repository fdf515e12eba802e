/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics of a series of signed nanosecond values.
 */
#ifndef TW_STATS_H
#define TW_STATS_H

#include <stddef.h>
#include <stdint.h>

struct tw_stats {
	size_t n;
	int64_t min;
	int64_t max;
	int64_t mean;		/* rounded to the nearest ns */
	int64_t p50;
	int64_t p99;
};

/* Sorts v in place.  With n == 0 everything is 0. */
void tw_stats_compute(int64_t *v, size_t n, struct tw_stats *st);
/* The q-quantile (0 <= q <= 1) of sorted values, nearest rank. */
int64_t tw_stats_quantile(const int64_t *sorted, size_t n, double q);

#endif /* TW_STATS_H */
