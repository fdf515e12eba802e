// SPDX-License-Identifier: GPL-2.0
/*
 * Error messages and value parsers shared by the tool and by
 * programs linking libtimewire.a.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

static void say(const char *prefix, const char *fmt, va_list ap)
{
	/* Whatever the program printed so far comes first. */
	fflush(stdout);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tw_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("Error: ", fmt, ap);
	va_end(ap);
}

void tw_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("Warning: ", fmt, ap);
	va_end(ap);
}

int tw_parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;
	int base = 10;

	/* strtoull() would accept a sign and leading blanks. */
	if (!*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int tw_parse_mac(const char *s, uint8_t mac[6])
{
	int i, hi, lo;

	for (i = 0; i < 6; i++) {
		hi = hexval(s[0]);
		lo = hi < 0 ? -1 : hexval(s[1]);
		if (lo < 0)
			return -EINVAL;
		mac[i] = hi << 4 | lo;
		s += 2;
		if (i < 5 && *s++ != ':')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}
