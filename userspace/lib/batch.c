// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and running a batch of commands (batch.h).  Words are split in
 * place: an unquoted or unescaped word is never longer than its text.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "batch.h"
#include "util.h"

/* CR too: a file written on another system still splits alike. */
static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* \uXXXX's value, 1 to 0x7f, from the 4 digits at s; 0 if not one. */
static int unicode_escape(const char *s)
{
	char digits[5];
	long v;
	int i;

	for (i = 0; i < 4; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	memcpy(digits, s, 4);
	digits[4] = '\0';
	v = strtol(digits, NULL, 16);
	/* NUL would cut the word; the text output escapes only ASCII. */
	return v > 0 && v < 0x80 ? v : 0;
}

/*
 * The escape after a backslash at s, written to *out: how many characters
 * of s it took, 0 when it is none of those the text output writes.
 */
static int unescape(const char *s, char **out)
{
	char c;

	switch (*s) {
	case '"':
	case '\\':
		c = *s;
		break;
	case 'n':
		c = '\n';
		break;
	case 't':
		c = '\t';
		break;
	case 'u':
		c = unicode_escape(s + 1);
		if (!c)
			return 0;
		*(*out)++ = c;
		return 5;
	default:
		return 0;
	}
	*(*out)++ = c;
	return 1;
}

/* The quoted part at *in (on its quote) to *out; false if malformed. */
static bool quoted(char **in, char **out, const char **why)
{
	char quote = *(*in)++;
	int n;

	while (**in != quote) {
		if (!**in) {
			*why = "unterminated quoted string";
			return false;
		}
		if (quote == '"' && **in == '\\') {
			n = unescape(*in + 1, out);
			if (!n) {
				*why = "unknown escape in a quoted string";
				return false;
			}
			*in += 1 + n;
			continue;
		}
		*(*out)++ = *(*in)++;
	}
	(*in)++;
	return true;
}

/* One word from *in to *out, up to a blank or the end of the line. */
static bool word(char **in, char **out, const char **why)
{
	while (**in && !blank(**in)) {
		if (**in == '\'' || **in == '"') {
			if (!quoted(in, out, why))
				return false;
		} else {
			*(*out)++ = *(*in)++;
		}
	}
	return true;
}

int tw_split_words(char *line, char *argv[TW_BATCH_MAX_WORDS],
		   const char **why)
{
	char *in = line, *out = line;
	int argc = 0;
	bool end;

	for (;;) {
		while (blank(*in))
			in++;
		if (!*in || *in == '#')
			break;
		if (argc == TW_BATCH_MAX_WORDS - 1) {
			*why = "too many words";
			return -1;
		}
		argv[argc++] = out;
		if (!word(&in, &out, why))
			return -1;
		/* Past the blank first: the NUL may be written on it. */
		end = !*in;
		if (!end)
			in++;
		*out++ = '\0';
		if (end)
			break;
	}
	argv[argc] = NULL;
	return argc;
}

struct reader {
	FILE *f;
	const char *name;	/* for messages */
	unsigned long line;	/* lines read so far */
	char *buf;		/* one line, getline()'s */
	size_t size;
	char *cmd;		/* one command, its lines joined */
	size_t len;
	size_t room;
};

static bool append(struct reader *r, const char *s, size_t n)
{
	char *p;

	if (r->len + n + 1 > r->room) {
		p = realloc(r->cmd, r->len + n + 1);
		if (!p)
			return false;
		r->cmd = p;
		r->room = r->len + n + 1;
	}
	memcpy(r->cmd + r->len, s, n);
	r->len += n;
	r->cmd[r->len] = '\0';
	return true;
}

/*
 * The next command into r->cmd, a line ending with a backslash joined to
 * the next without it.  Returns the number of its first line, 0 at the end
 * of the file, -errno when reading failed.
 */
static long read_command(struct reader *r)
{
	unsigned long first = r->line + 1;
	bool more;
	ssize_t n;

	r->len = 0;
	if (!append(r, "", 0))
		return -ENOMEM;
	do {
		errno = 0;
		n = getline(&r->buf, &r->size, r->f);
		if (n < 0 && errno)
			return -errno;
		if (n < 0)
			return r->line >= first ? (long)first : 0;
		r->line++;
		if (n && r->buf[n - 1] == '\n')
			n--;
		more = n && r->buf[n - 1] == '\\';
		if (!append(r, r->buf, n - more))
			return -ENOMEM;
	} while (more);
	return first;
}

/* One command; errors said meanwhile name FILE:LINE. */
static int run_command(struct reader *r, long line, tw_batch_fn run)
{
	char *argv[TW_BATCH_MAX_WORDS];
	char where[PATH_MAX + 32];
	const char *why;
	int argc, ret = TW_EXIT_OK;

	snprintf(where, sizeof(where), "%s:%ld", r->name, line);
	tw_err_where(where);
	argc = tw_split_words(r->cmd, argv, &why);
	if (argc < 0) {
		tw_err("%s", why);
		ret = TW_EXIT_FAIL;
	} else if (argc) {
		ret = run(argc, argv);
	}
	tw_err_where(NULL);
	return ret;
}

int tw_batch_run(const char *file, bool force, tw_batch_fn run)
{
	struct reader r = { .name = file };
	int ret, first_failed = TW_EXIT_OK;
	long line;

	if (!strcmp(file, "-")) {
		r.f = stdin;
		r.name = "stdin";
	} else {
		r.f = fopen(file, "r");
	}
	if (!r.f) {
		tw_err("cannot open %s: %s", file, strerror(errno));
		return TW_EXIT_SYS;
	}
	while ((line = read_command(&r)) > 0) {
		ret = run_command(&r, line, run);
		if (ret && !first_failed)
			first_failed = ret;
		if (ret && !force)
			break;
	}
	if (line < 0) {
		tw_err("cannot read %s: %s", r.name, strerror(-line));
		first_failed = first_failed ? first_failed : TW_EXIT_SYS;
	}
	if (r.f != stdin)
		fclose(r.f);
	free(r.buf);
	free(r.cmd);
	return first_failed;
}
