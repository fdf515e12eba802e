// SPDX-License-Identifier: GPL-2.0
/*
 * One print path for text and JSON output.
 *
 * Text layout: the fields of an object share one line, which starts with
 * the object's key if it has one (array elements have none); objects
 * nested in an object are indented one step more than it.  Values are
 * single words, quoted when they are not (text_value()).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "print.h"

#define MAX_DEPTH	16

struct level {
	bool first;		/* JSON: nothing printed in it yet */
	int line;		/* text: indentation of its own line */
	int child;		/* text: indentation of objects in it */
	bool array;
};

static struct {
	bool json;
	bool pretty;
	bool started;		/* JSON: the root object has been opened */
	bool line_open;		/* text: a line has been started */
	int depth;
	struct level stack[MAX_DEPTH];
} pr;

static void push(bool array, int line, int child)
{
	if (pr.depth == MAX_DEPTH - 1) {
		/* Only reachable by a coding error; do not corrupt output. */
		fprintf(stderr, "print: nesting too deep\n");
		abort();
	}
	pr.depth++;
	pr.stack[pr.depth].first = true;
	pr.stack[pr.depth].array = array;
	pr.stack[pr.depth].line = line;
	pr.stack[pr.depth].child = child;
}

static void json_indent(int depth)
{
	int i;

	if (!pr.pretty)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("  ", stdout);
}

static void json_escape(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (*p < 0x20)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

/*
 * The root object is opened by the first field, so that a command printing
 * nothing (or only help text) does not leave a stray "{}".
 */
static void start(void)
{
	if (pr.json && !pr.started)
		putchar('{');
	pr.started = true;
}

/* JSON: separator, indentation and key of the next member. */
static void json_key(const char *key)
{
	struct level *l = &pr.stack[pr.depth];

	start();
	if (!l->first)
		putchar(',');
	l->first = false;
	json_indent(pr.depth + 1);
	if (key && !l->array) {
		json_escape(key);
		fputs(pr.pretty ? ": " : ":", stdout);
	}
}

static void text_end_line(void)
{
	if (pr.line_open)
		putchar('\n');
	pr.line_open = false;
}

/* Text: start a word on the current line or open a new indented line. */
static void text_word(void)
{
	int i;

	if (pr.line_open) {
		putchar(' ');
		return;
	}
	for (i = 0; i < pr.stack[pr.depth].line; i++)
		fputs("  ", stdout);
	pr.line_open = true;
}

void print_init(bool json, bool pretty)
{
	pr.json = json;
	pr.pretty = pretty;
	pr.started = false;
	pr.depth = 0;
	pr.line_open = false;
	pr.stack[0].first = true;
	pr.stack[0].array = false;
	pr.stack[0].line = 0;
	pr.stack[0].child = 0;
}

void print_finish(void)
{
	if (pr.json && pr.started) {
		/* Close whatever an early error left open. */
		while (pr.depth > 0) {
			if (pr.stack[pr.depth].array)
				close_array();
			else
				close_object();
		}
		if (!pr.stack[0].first)
			json_indent(0);
		putchar('}');
		putchar('\n');
	} else {
		text_end_line();
	}
	/* A command after this one (a batch) starts its own object. */
	pr.started = false;
	pr.depth = 0;
	fflush(stdout);
}

bool print_is_json(void)
{
	return pr.json;
}

void open_object(const char *key)
{
	int line = pr.stack[pr.depth].child;

	if (pr.json) {
		json_key(key);
		putchar('{');
		push(false, 0, 0);
		return;
	}
	text_end_line();
	push(false, line, line + 1);
	if (key) {
		text_word();
		fputs(key, stdout);
	}
}

static void close_level(char c)
{
	struct level *l = &pr.stack[pr.depth];

	if (pr.depth == 0)
		return;
	if (pr.json) {
		if (!l->first)
			json_indent(pr.depth);
		pr.depth--;
		putchar(c);
		return;
	}
	text_end_line();
	pr.depth--;
}

void close_object(void)
{
	close_level('}');
}

void open_array(const char *key)
{
	struct level *l = &pr.stack[pr.depth];

	if (pr.json) {
		json_key(key);
		putchar('[');
	}
	/* Text: elements line up where the array's key would be. */
	push(true, l->line, l->child);
}

void close_array(void)
{
	close_level(']');
}

/*
 * Start a field: JSON "key": or text "key " (with_key) or nothing.
 * Returns whether the output is JSON.
 */
static bool field(const char *key, bool with_key)
{
	if (pr.json) {
		json_key(key);
		return true;
	}
	text_word();
	if (with_key)
		printf("%s ", key);
	return false;
}

void print_u64(const char *key, uint64_t val)
{
	field(key, true);
	printf("%" PRIu64, val);
}

void print_s64(const char *key, int64_t val)
{
	field(key, true);
	printf("%" PRId64, val);
}

void print_uint(const char *key, unsigned int val)
{
	print_u64(key, val);
}

/*
 * Text: a value that is empty or holds blanks, quotes or control
 * characters is quoted and escaped as in JSON, so that "key value" pairs
 * still split on blanks; one starting with # too, so that lines of
 * commands read back as they were (batch.h).
 */
static void text_value(const char *val)
{
	const unsigned char *p = (const unsigned char *)val;

	for (; *p; p++)
		if (*p <= ' ' || *p == '"' || *p == '\'' || *p == '\\' ||
		    *p == 0x7f)
			break;
	if (*p || !*val || *val == '#')
		json_escape(val);
	else
		fputs(val, stdout);
}

void print_string(const char *key, const char *val)
{
	if (field(key, true))
		json_escape(val ? val : "");
	else
		text_value(val ? val : "");
}

void print_name(const char *key, const char *val)
{
	if (field(key, false))
		json_escape(val ? val : "");
	else
		text_value(val ? val : "");
}

void print_bool(const char *key, bool val, const char *yes, const char *no)
{
	if (field(key, false))
		fputs(val ? "true" : "false", stdout);
	else
		fputs(val ? yes : no, stdout);
}

void print_double(const char *key, double val)
{
	/* JSON has no NaN or infinity. */
	if (field(key, true) && !isfinite(val))
		fputs("null", stdout);
	else
		printf("%.9g", val);
}

void print_null(const char *key, const char *text)
{
	fputs(field(key, true) ? "null" : text, stdout);
}

void print_nl(void)
{
	if (!pr.json)
		text_end_line();
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (pr.json)
		return;
	text_end_line();
	text_word();
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	text_end_line();
}
