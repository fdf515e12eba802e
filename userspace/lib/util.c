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

static const char *err_where;

void tw_err_where(const char *where)
{
	err_where = where;
}

static void say(const char *prefix, const char *fmt, va_list ap)
{
	/* Whatever the program printed so far comes first. */
	fflush(stdout);
	if (err_where)
		fprintf(stderr, "%s: ", err_where);
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

const char *tw_value_msg(char *buf, size_t len, const char *keyword,
			 const char *value, const char *problem,
			 const char *expected)
{
	if (!value)
		snprintf(buf, len, "missing value for %s: expected %s", keyword,
			 expected);
	else
		snprintf(buf, len, "invalid value \"%s\" for %s: %s%sexpected %s",
			 value, keyword, problem ? problem : "",
			 problem ? "; " : "", expected);
	return buf;
}

static size_t digits(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

const char *tw_number_problem(const char *s, unsigned int decimals)
{
	size_t n;

	if (!*s)
		return "empty";
	if (isspace((unsigned char)*s))
		return "blanks are not accepted";
	if (*s == '-' || *s == '+') {
		if (!isdigit((unsigned char)s[1]) && s[1] != '.')
			return NULL;
		return *s == '-' ? "negative" : "signs are not accepted";
	}
	/* [digits][.digits][e[sign]digits], the forms strtod() knows. */
	n = digits(s);
	s += n;
	if (*s == '.') {
		size_t frac = digits(s + 1);

		if (!n && !frac)
			return NULL;
		s += 1 + frac;
		if (frac > decimals && (*s == '\0' || *s == 'e' || *s == 'E'))
			return decimals ? "too many decimals" :
					  "not an integer";
	} else if (!n) {
		return NULL;
	}
	if ((*s == 'e' || *s == 'E') &&
	    digits(s + 1 + (s[1] == '-' || s[1] == '+')))
		return "exponents are not accepted";
	return NULL;
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
