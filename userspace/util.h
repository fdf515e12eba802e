/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error messages and value parsers.
 */
#ifndef TW_UTIL_H
#define TW_UTIL_H

#include <stdint.h>

#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(__printf__, a, b)))
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* One line on stderr starting with "Error: " or "Warning: ". */
void tw_err(const char *fmt, ...) __printf(1, 2);
void tw_warn(const char *fmt, ...) __printf(1, 2);

/* Decimal, or hexadecimal with 0x; no sign, no blanks.  0 or -errno. */
int tw_parse_u64(const char *s, uint64_t *val);
/* xx:xx:xx:xx:xx:xx.  0 or -EINVAL. */
int tw_parse_mac(const char *s, uint8_t mac[6]);

#endif /* TW_UTIL_H */
