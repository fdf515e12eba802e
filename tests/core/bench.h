/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the core's benchmarks share: the TSC, how they print a
 * target's verdict, and a word on a busy machine.
 */
#ifndef _TW_BENCH_H
#define _TW_BENCH_H

#include <x86intrin.h>

#include "compat.h"

static inline u64 tsc(void)
{
	unsigned int aux;

	return __rdtscp(&aux);
}

/* TSC ticks per ns, over 50 ms of sleep. */
static inline double tsc_ghz_measure(void)
{
	u64 t0 = ktime_get_ns(), c0 = tsc();
	struct timespec d = { 0, 50000000 };

	nanosleep(&d, NULL);
	return (double)(tsc() - c0) / (double)(ktime_get_ns() - t0);
}

/* One target's line; returns 1 when it failed. */
static inline int check(const char *what, bool ok)
{
	printf("  %s: %s\n", ok ? "PASS" : "FAIL", what);
	return ok ? 0 : 1;
}

/* A busy machine shifts every figure: say so next to them. */
static inline void note_load(int ncpus)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load;

	if (f && fscanf(f, "%lf", &load) == 1 && load > 0.5)
		printf("note: load average %.1f on %d CPUs before the run: other work shares them, figures are noisier\n",
		       load, ncpus);
	if (f)
		fclose(f);
}

#endif /* _TW_BENCH_H */
