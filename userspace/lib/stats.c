// SPDX-License-Identifier: GPL-2.0
/*
 * Mean and nearest-rank percentiles.
 */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_s64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t tw_stats_quantile(const int64_t *sorted, size_t n, double q)
{
	size_t rank;

	if (!n)
		return 0;
	/* Nearest rank: the smallest value with at least q * n at or below. */
	rank = (size_t)ceil(q * n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

void tw_stats_compute(int64_t *v, size_t n, struct tw_stats *st)
{
	long double sum = 0;
	size_t i;

	st->n = n;
	if (!n) {
		st->min = st->max = st->mean = st->p50 = st->p99 = 0;
		return;
	}
	qsort(v, n, sizeof(*v), cmp_s64);
	for (i = 0; i < n; i++)
		sum += v[i];
	st->min = v[0];
	st->max = v[n - 1];
	st->mean = llroundl(sum / n);
	st->p50 = tw_stats_quantile(v, n, 0.50);
	st->p99 = tw_stats_quantile(v, n, 0.99);
}
