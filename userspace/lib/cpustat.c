// SPDX-License-Identifier: GPL-2.0
/* CPU time from /proc/stat. */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cpustat.h"

/* One "cpuN user nice system idle iowait irq softirq steal" line. */
static int parse_cpu_line(const char *line, struct tw_cpu_times *t)
{
	unsigned long long v[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	unsigned int cpu;
	uint64_t tick, busy;
	int n;

	if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
		return 0;	/* not a CPU's line, or all CPUs' */
	n = sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu",
		   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]);
	if (n < 5 || cpu >= TW_CPUS_MAX || hz <= 0)
		return 0;
	tick = TW_NSEC_PER_SEC / hz;
	busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	t->busy_ns[cpu] = busy * tick;
	t->all_ns[cpu] = (busy + v[3] + v[4]) * tick;
	if (cpu >= t->n)
		t->n = cpu + 1;
	return 1;
}

int tw_cpu_times_parse(FILE *f, struct tw_cpu_times *t)
{
	char line[512];
	int found = 0;

	memset(t, 0, sizeof(*t));
	while (fgets(line, sizeof(line), f))
		found += parse_cpu_line(line, t);
	return found ? 0 : -ENOENT;
}

int tw_cpu_times_read(struct tw_cpu_times *t)
{
	FILE *f = fopen("/proc/stat", "r");
	int err;

	if (!f) {
		memset(t, 0, sizeof(*t));
		return -errno;
	}
	err = tw_cpu_times_parse(f, t);
	fclose(f);
	return err;
}

uint64_t tw_cpu_times_busy(const struct tw_cpu_times *t)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		sum += t->busy_ns[i];
	return sum;
}

int tw_cpu_busy_permille(const struct tw_cpu_times *before,
			 const struct tw_cpu_times *after, unsigned int i)
{
	uint64_t all, busy;

	if (i >= before->n || i >= after->n ||
	    after->all_ns[i] <= before->all_ns[i] ||
	    after->busy_ns[i] < before->busy_ns[i])
		return -1;
	all = after->all_ns[i] - before->all_ns[i];
	busy = after->busy_ns[i] - before->busy_ns[i];
	return busy >= all ? 1000 : (int)(busy * 1000 / all);
}
