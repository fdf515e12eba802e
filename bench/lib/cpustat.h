/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU time from /proc/stat, per CPU: what the benchmarks report beside
 * their rates (how busy the CPU that forwarded, or the whole machine).
 */
#ifndef TW_CPUSTAT_H
#define TW_CPUSTAT_H

#include <stdint.h>
#include <stdio.h>

#define TW_CPUS_MAX 64

/* Times since boot; CPUs numbered TW_CPUS_MAX or above are not kept. */
struct tw_cpu_times {
	uint64_t machine_busy_ns;	/* every CPU's, the "cpu" line */
	unsigned int n;			/* cpu0 .. cpu(n - 1) read */
	uint64_t busy_ns[TW_CPUS_MAX];	/* neither idle nor waiting for I/O */
	uint64_t all_ns[TW_CPUS_MAX];
};

/* Now, since boot; 0, or -errno (no /proc/stat, no CPU line). */
int tw_cpu_times_read(struct tw_cpu_times *t);

/* The same from f, in /proc/stat's format; CPUs not in it stay 0. */
int tw_cpu_times_parse(FILE *f, struct tw_cpu_times *t);

/* Busy time of every CPU together (offline ones' included). */
uint64_t tw_cpu_times_busy(const struct tw_cpu_times *t);

/*
 * CPU i's busy fraction between two readings, in per mille; -1 when it
 * was not read both times or no time passed on it.
 */
int tw_cpu_busy_permille(const struct tw_cpu_times *before,
			 const struct tw_cpu_times *after, unsigned int i);

#endif
