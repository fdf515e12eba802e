// SPDX-License-Identifier: GPL-2.0
/* CPU time from /proc/stat. */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "cpustat.h"

/*
 * One "cpu[N] user nice system idle iowait irq softirq steal ..." line:
 * all CPUs' (no N) or CPU N's.  Returns whether it was one.
 */
static int parse_cpu_line(const char *line, struct tw_cpu_times *t)
{
	unsigned long long v[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	unsigned int cpu = 0;
	uint64_t tick, busy;
	bool all;
	int n;

	if (strncmp(line, "cpu", 3) || hz <= 0)
		return 0;
	all = line[3] == ' ';
	if (!all && sscanf(line + 3, "%u", &cpu) != 1)
		return 0;
	n = sscanf(line + 3 + strcspn(line + 3, " "),
		   "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return 0;
	tick = TW_NSEC_PER_SEC / hz;
	busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * tick;
	if (all) {
		t->machine_busy_ns = busy;
		return 1;
	}
	if (cpu >= TW_CPUS_MAX)
		return 1;
	t->busy_ns[cpu] = busy;
	t->all_ns[cpu] = busy + (v[3] + v[4]) * tick;
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
	return t->machine_busy_ns;
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
