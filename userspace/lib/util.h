/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exit codes, error messages and value parsers of every timewire program.
 */
#ifndef TW_UTIL_H
#define TW_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(__printf__, a, b)))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* A macro's value as a string: "default " TW_STR(TFIB_DEFAULT_RING). */
#define TW_STR_(x)	#x
#define TW_STR(x)	TW_STR_(x)

/*
 * Exit codes, documented in timewire(8).  4 is left out on purpose: test
 * suites of the kselftest kind read it as "skipped".
 */
enum tw_exit {
	TW_EXIT_OK	= 0,	/* success */
	TW_EXIT_FAIL	= 1,	/* usage error, or the kernel refused */
	TW_EXIT_NOMOD	= 2,	/* the module's netlink family is absent */
	TW_EXIT_SYS	= 3,	/* local failure: socket, memory, file */
	TW_EXIT_PARTIAL	= 5,	/* some packets not sent or not reported */
};

/* One line on stderr starting with "Error: " or "Warning: ". */
void tw_err(const char *fmt, ...) __printf(1, 2);
void tw_warn(const char *fmt, ...) __printf(1, 2);
/*
 * Where the command being run was read ("FILE:LINE", NULL: the command
 * line): it then leads every error and warning line, "FILE:LINE: Error: ".
 */
void tw_err_where(const char *where);

/*
 * The one shape of a bad value, into buf (returned):
 *   invalid value "VALUE" for KEYWORD: [PROBLEM; ]expected EXPECTED
 * or, with value NULL,
 *   missing value for KEYWORD: expected EXPECTED
 */
const char *tw_value_msg(char *buf, size_t len, const char *keyword,
			 const char *value, const char *problem,
			 const char *expected);
/*
 * What makes s no plain number in words ("negative", "exponents are not
 * accepted", ...), or NULL when nothing specific can be said.  decimals:
 * how many digits may follow a decimal point (0: an integer is due).
 */
const char *tw_number_problem(const char *s, unsigned int decimals);

/* Decimal, or hexadecimal with 0x; no sign, no blanks.  0 or -errno. */
int tw_parse_u64(const char *s, uint64_t *val);
/* xx:xx:xx:xx:xx:xx.  0 or -EINVAL. */
int tw_parse_mac(const char *s, uint8_t mac[6]);

#endif /* TW_UTIL_H */
