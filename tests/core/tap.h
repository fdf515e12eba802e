/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - minimal TAP producer for the host unit tests.
 *
 * tap_plan(n) once, then one tap_ok() per test; tap_done() checks that the
 * plan was kept and gives the exit status (0 all passed, 1 otherwise).
 */
#ifndef _TW_TAP_H
#define _TW_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

static int tap_planned, tap_run, tap_failed;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

__printf(2, 3)
static inline bool tap_ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return pass;
}

__printf(1, 2)
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline int tap_done(void)
{
	if (tap_run != tap_planned) {
		tap_diag("planned %d tests but ran %d", tap_planned, tap_run);
		return 1;
	}
	return tap_failed ? 1 : 0;
}

#endif /* _TW_TAP_H */
