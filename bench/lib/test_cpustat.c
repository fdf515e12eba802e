// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the benchmarks' CPU time (cpustat.c): /proc/stat's lines
 * read per CPU, busy fractions between two readings, and this machine's
 * own file.  Also built for 32-bit big-endian by tests/cross.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "cpustat.h"
#include "lib/clock.h"

/* Two CPUs of three listed, the line of all CPUs skipped. */
TEST(cpu_times_parse)
{
	static const char text[] =
		"cpu  900 900 900 900 900 900 900 900 0 0\n"
		"cpu0 10 1 4 100 5 2 3 0 0 0\n"
		"cpu2 1 0 0 9 0 0 0 0 0 0\n"
		"cpu64 7 0 0 0 0 0 0 0 0 0\n"
		"cpuX 7 0 0 0\n"
		"intr 12345\n";
	uint64_t tick = TW_NSEC_PER_SEC / sysconf(_SC_CLK_TCK);
	struct tw_cpu_times t;
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tw_cpu_times_parse(f, &t));
	fclose(f);
	ASSERT_EQ(3U, t.n);
	/* user nice system irq softirq steal; idle and iowait are not busy */
	EXPECT_EQ(20 * tick, t.busy_ns[0]);
	EXPECT_EQ(125 * tick, t.all_ns[0]);
	EXPECT_EQ(0U, t.all_ns[1]);
	EXPECT_EQ(1 * tick, t.busy_ns[2]);
	/* the machine's: the line of all CPUs, not the sum of those read */
	EXPECT_EQ(5400 * tick, tw_cpu_times_busy(&t));

	f = fmemopen((void *)"intr 1\n", 7, "r");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(-ENOENT, tw_cpu_times_parse(f, &t));
	fclose(f);
}

TEST(cpu_busy_permille)
{
	struct tw_cpu_times a = { .n = 2 }, b = { .n = 2 };

	a.busy_ns[0] = 100, a.all_ns[0] = 1000;
	b.busy_ns[0] = 400, b.all_ns[0] = 2000;
	EXPECT_EQ(300, tw_cpu_busy_permille(&a, &b, 0));
	/* no time passed on CPU 1, CPU 2 not read */
	EXPECT_EQ(-1, tw_cpu_busy_permille(&a, &b, 1));
	EXPECT_EQ(-1, tw_cpu_busy_permille(&a, &b, 2));
	/* ticks counted apart can put busy ahead of all: clamped */
	b.busy_ns[0] = 5000;
	EXPECT_EQ(1000, tw_cpu_busy_permille(&a, &b, 0));
	/* a counter that went back */
	b.busy_ns[0] = 50;
	EXPECT_EQ(-1, tw_cpu_busy_permille(&a, &b, 0));
}

/*
 * This machine's own /proc/stat: 200 ms of this process's CPU time show
 * in the machine's busy time (half of it, for the kernel's sampled
 * accounting).
 */
TEST(cpu_times_read)
{
	struct tw_cpu_times before, after;
	uint64_t t0;

	if (tw_cpu_times_read(&before))
		SKIP(return, "no /proc/stat");
	ASSERT_GE(before.n, 1U);
	t0 = tw_now_ns(CLOCK_PROCESS_CPUTIME_ID);
	while (tw_now_ns(CLOCK_PROCESS_CPUTIME_ID) - t0 < 200 * TW_NSEC_PER_MSEC)
		;
	ASSERT_EQ(0, tw_cpu_times_read(&after));
	EXPECT_GE(tw_cpu_times_busy(&after) - tw_cpu_times_busy(&before),
		  100 * TW_NSEC_PER_MSEC);
}

TEST_HARNESS_MAIN
