// SPDX-License-Identifier: GPL-2.0
/*
 * Keyword argument parsing and help text, driven by the tables of
 * struct tw_arg.  Keywords match exactly: a prefix is an error, so a
 * script written today keeps its meaning when keywords are added.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "print.h"

#define HELP_COLUMN	34
#define LINE_WIDTH	79

struct tw_globals tw;

const char *tw_keyword_name(const struct tw_keyword *kw, int value)
{
	for (; kw->name; kw++)
		if (kw->value == value)
			return kw->name;
	return NULL;
}

static void keyword_list(char *buf, size_t len, const struct tw_keyword *kw)
{
	size_t n;

	n = snprintf(buf, len, "{");
	for (; kw->name && n < len; kw++)
		n += snprintf(buf + n, len - n, " %s%s", kw->name,
			      kw[1].name ? " |" : " }");
}

/* The placeholder of an argument's value as shown in help. */
static const char *arg_meta(const struct tw_arg *a, char *buf, size_t len)
{
	if (a->type == TW_ARG_KEYWORD) {
		keyword_list(buf, len, a->keywords);
		return buf;
	}
	return a->meta ? a->meta : "";
}

/* An argument table with its included tables expanded, in order. */
struct arg_list {
	const struct tw_arg *a[TW_MAX_ARGS];
	int n;
};

static void flatten_into(struct arg_list *l, const struct tw_arg *a)
{
	for (; a && (a->name || a->include); a++) {
		if (a->include) {
			flatten_into(l, a->include);
			continue;
		}
		if (l->n == TW_MAX_ARGS) {
			/* Only a coding error gets here. */
			fprintf(stderr, "too many arguments in a table\n");
			abort();
		}
		l->a[l->n++] = a;
	}
}

static void flatten(struct arg_list *l, const struct tw_arg *args)
{
	l->n = 0;
	flatten_into(l, args);
}

static void usage_word(const char *word, size_t *col, size_t indent)
{
	size_t len = strlen(word);

	if (*col + 1 + len > LINE_WIDTH && *col > indent) {
		printf("\n%*s", (int)indent, "");
		*col = indent;
	}
	printf(" %s", word);
	*col += 1 + len;
}

/* An argument as the usage line shows it: "[ table ] NAME" if bare. */
static void usage_arg(const struct tw_arg *a, char *buf, size_t len)
{
	bool req = a->flags & TW_ARG_REQUIRED;
	char meta[256];
	const char *m;

	m = arg_meta(a, meta, sizeof(meta));
	if (a->flags & TW_ARG_BARE)
		snprintf(buf, len, "%s[ %s ] %s%s", req ? "" : "[ ", a->name,
			 m, req ? "" : " ]");
	else
		snprintf(buf, len, "%s%s%s%s%s", req ? "" : "[ ", a->name,
			 *m ? " " : "", m, req ? "" : " ]");
}

static void print_usage_line(const char *prefix, const struct arg_list *l)
{
	const struct tw_arg *a;
	char word[320];
	size_t col, indent;
	int pass, i;

	col = printf("Usage: %s", prefix);
	indent = col;
	/* Required arguments first, then the optional ones. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < l->n; i++) {
			bool req;

			a = l->a[i];
			req = a->flags & TW_ARG_REQUIRED;
			if (req != !pass)
				continue;
			usage_arg(a, word, sizeof(word));
			usage_word(word, &col, indent);
		}
	}
	putchar('\n');
}

/* Print text word-wrapped, continuation lines indented to column indent. */
static void print_wrapped(const char *text, size_t col, size_t indent)
{
	const char *p = text, *end;
	size_t len;
	bool first = true;

	while (*p) {
		end = strchr(p, ' ');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!first && col + 1 + len > LINE_WIDTH) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)len, p);
		col += len;
		first = false;
		p += len;
		while (*p == ' ')
			p++;
	}
}

void tw_cmd_help(const char *prefix, const struct tw_cmd *cmd)
{
	const struct tw_arg *a;
	char meta[256], line[512];
	struct arg_list l;
	int n, i;

	flatten(&l, cmd->args);
	print_usage_line(prefix, &l);
	printf("       %s help\n", prefix);
	if (cmd->help) {
		snprintf(line, sizeof(line), "%s.", cmd->help);
		putchar('\n');
		print_wrapped(line, 0, 0);
		putchar('\n');
	}
	if (l.n) {
		printf("\nArguments:\n");
		for (i = 0; i < l.n; i++) {
			const char *m;

			a = l.a[i];
			m = arg_meta(a, meta, sizeof(meta));
			n = printf("  %s%s%s", a->name, *m ? " " : "", m);
			/* Two blanks at least: completion splits on them. */
			if (n > HELP_COLUMN - 2)
				printf("\n%*s", HELP_COLUMN, "");
			else
				printf("%*s", HELP_COLUMN - n, "");
			snprintf(line, sizeof(line), "%s%s", a->help,
				 a->flags & TW_ARG_REQUIRED ? " (required)" : "");
			print_wrapped(line, HELP_COLUMN, HELP_COLUMN);
			putchar('\n');
		}
	}
	if (cmd->notes)
		printf("\n%s", cmd->notes);
}

bool tw_arg_given(const struct tw_arg *args, uint64_t seen, const char *name)
{
	struct arg_list l;
	int i;

	flatten(&l, args);
	for (i = 0; i < l.n; i++)
		if (!strcmp(l.a[i]->name, name))
			return seen & (1ULL << i);
	return false;
}

static void hint(const char *prefix)
{
	fprintf(stderr, "Try \"%s help\".\n", prefix);
}

/* Each global option in every form it is accepted in, as iproute2 does. */
static const struct {
	const char *forms[3];	/* -x (NULL: none), iproute2's -long, --long */
	const char *meta;	/* the value's placeholder, if it takes one */
	enum tw_option opt;
	bool json;
	bool pretty;
	const char *help;
} global_opts[] = {
	{ { "-j", "-json", "--json" }, NULL, TW_OPT_OUTPUT, true, false,
	  "print JSON instead of text" },
	{ { "-p", "-pretty", "--pretty" }, NULL, TW_OPT_OUTPUT, true, true,
	  "print indented JSON (implies -json)" },
	{ { "-V", "-Version", "--version" }, NULL, TW_OPT_VERSION, false, false,
	  "same as \"timewire version\"" },
	{ { "-h", "-help", "--help" }, NULL, TW_OPT_HELP, false, false,
	  "same as \"timewire help\"" },
	{ { "-b", "-batch", "--batch" }, "PATH", TW_OPT_BATCH, false, false,
	  "run the commands of PATH (- for stdin), one a line" },
	/* No -f: iproute2 spells its family option so. */
	{ { NULL, "-force", "--force" }, NULL, TW_OPT_FORCE, false, false,
	  "go on with a batch after a command failed" },
};

enum tw_option tw_option_word(const char *w)
{
	size_t i, f;

	for (i = 0; i < ARRAY_SIZE(global_opts); i++) {
		for (f = 0; f < ARRAY_SIZE(global_opts[i].forms); f++)
			if (global_opts[i].forms[f] &&
			    !strcmp(w, global_opts[i].forms[f]))
				break;
		if (f == ARRAY_SIZE(global_opts[i].forms))
			continue;
		tw.json |= global_opts[i].json;
		tw.pretty |= global_opts[i].pretty;
		return global_opts[i].opt;
	}
	return TW_OPT_NONE;
}

void tw_options_help(FILE *out)
{
	char forms[64];
	size_t i, f, n;

	for (i = 0; i < ARRAY_SIZE(global_opts); i++) {
		n = 0;
		for (f = 0; f < ARRAY_SIZE(global_opts[i].forms); f++)
			if (global_opts[i].forms[f])
				n += snprintf(forms + n, sizeof(forms) - n,
					      "%s%s", n ? ", " : "",
					      global_opts[i].forms[f]);
		if (global_opts[i].meta)
			snprintf(forms + n, sizeof(forms) - n, " %s",
				 global_opts[i].meta);
		fprintf(out, "  %-26s%s\n", forms, global_opts[i].help);
	}
}

/* Index of the argument named word, or -1. */
static int find_arg(const struct arg_list *l, const char *word)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->a[i]->name, word))
			return i;
	return -1;
}

/* Index of the argument that may be given without its keyword, or -1. */
static int find_bare(const struct arg_list *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->a[i]->flags & TW_ARG_BARE)
			return i;
	return -1;
}

/* Name a keyword the word is a prefix of, to explain why it was refused. */
static const char *prefix_of(const struct arg_list *l, const char *word)
{
	size_t len = strlen(word);
	int i;

	for (i = 0; i < l->n; i++)
		if (len && !strncmp(l->a[i]->name, word, len))
			return l->a[i]->name;
	return NULL;
}

/* What a value of a is, after "expected" in an error message. */
static const char *arg_expected(const struct tw_arg *a, char *buf,
				size_t len)
{
	switch (a->type) {
	case TW_ARG_U32:
	case TW_ARG_U64:
		snprintf(buf, len, "an integer from %llu to %llu",
			 (unsigned long long)a->min,
			 (unsigned long long)a->max);
		return buf;
	case TW_ARG_MAC:
		return "a MAC address xx:xx:xx:xx:xx:xx";
	case TW_ARG_IPV4:
		return "an IPv4 address";
	default:
		return arg_meta(a, buf, len);
	}
}

/* Print the error about value (NULL: missing) of a; returns -1. */
static int bad_value(const struct tw_arg *a, const char *value,
		     const char *problem)
{
	char expected[320], msg[768];

	tw_err("%s", tw_value_msg(msg, sizeof(msg), a->name, value, problem,
				  arg_expected(a, expected,
					       sizeof(expected))));
	return -1;
}

static int parse_number(const struct tw_arg *a, void *dst, const char *s)
{
	uint64_t v;
	int ret;

	ret = tw_parse_u64(s, &v);
	if (ret)
		return bad_value(a, s, ret == -ERANGE ? "too large" :
				 tw_number_problem(s, 0));
	if (v < a->min || v > a->max)
		return bad_value(a, s, v < a->min ? "too small" : "too large");
	if (a->type == TW_ARG_U32)
		*(uint32_t *)dst = v;
	else
		*(uint64_t *)dst = v;
	return 1;
}

static int parse_value(const struct tw_arg *a, void *opts, int argc,
		       char **argv)
{
	void *dst = (char *)opts + a->off;
	const struct tw_keyword *kw;

	if (a->type == TW_ARG_FLAG) {
		*(bool *)dst = true;
		return 0;
	}
	if (argc < 1)
		return bad_value(a, NULL, NULL);
	switch (a->type) {
	case TW_ARG_CUSTOM:
		return a->parse(dst, argc, argv);
	case TW_ARG_U32:
	case TW_ARG_U64:
		return parse_number(a, dst, argv[0]);
	case TW_ARG_STR:
		if (!*argv[0])
			return bad_value(a, argv[0], "empty");
		*(const char **)dst = argv[0];
		return 1;
	case TW_ARG_KEYWORD:
		for (kw = a->keywords; kw->name; kw++) {
			if (!strcmp(kw->name, argv[0])) {
				*(int *)dst = kw->value;
				return 1;
			}
		}
		return bad_value(a, argv[0], NULL);
	case TW_ARG_MAC:
		if (tw_parse_mac(argv[0], dst))
			return bad_value(a, argv[0], NULL);
		return 1;
	case TW_ARG_IPV4:
		if (inet_pton(AF_INET, argv[0], dst) != 1)
			return bad_value(a, argv[0], NULL);
		return 1;
	default:
		break;
	}
	return -1;
}

/* An unknown word, with the keyword it may abbreviate. */
static void unknown_arg(const struct arg_list *l, const char *word)
{
	const char *p = prefix_of(l, word);

	if (p)
		tw_err("unknown argument \"%s\" (keywords must be spelt out: \"%s\")",
		       word, p);
	else
		tw_err("unknown argument \"%s\"", word);
}

/*
 * Parse the keyword and value(s) at argv[i], or the bare argument's value
 * when the first word is no keyword.  Returns how many words were taken,
 * ARGS_HELP when help was asked for, -1 on an error (already said).
 */
#define ARGS_HELP	(-2)

static int parse_one(const struct arg_list *l, void *opts, uint64_t *seen,
		     int i, int argc, char **argv)
{
	int k, n, bare;

	/*
	 * "help" and options only where a keyword is expected, so that a
	 * value may be "help" and "count -1" is an invalid count.
	 */
	k = tw_option_word(argv[i]);
	if (k == TW_OPT_OUTPUT)
		return 1;
	if (k == TW_OPT_HELP || !strcmp(argv[i], "help"))
		return ARGS_HELP;
	k = find_arg(l, argv[i]);
	bare = k < 0 && i == 0 ? find_bare(l) : -1;
	if (bare >= 0) {
		*seen |= 1ULL << bare;
		n = parse_value(l->a[bare], opts, argc, argv);
		return n < 0 ? -1 : n;
	}
	if (k < 0) {
		unknown_arg(l, argv[i]);
		return -1;
	}
	if (*seen & (1ULL << k)) {
		tw_err("argument %s given twice", l->a[k]->name);
		return -1;
	}
	*seen |= 1ULL << k;
	n = parse_value(l->a[k], opts, argc - i - 1, argv + i + 1);
	return n < 0 ? -1 : 1 + n;
}

static bool check_required(const struct arg_list *l, uint64_t seen)
{
	const struct tw_arg *a;
	char meta[256];
	int k;

	for (k = 0; k < l->n; k++) {
		a = l->a[k];
		if ((a->flags & TW_ARG_REQUIRED) && !(seen & (1ULL << k))) {
			tw_err("missing required argument: %s %s", a->name,
			       arg_meta(a, meta, sizeof(meta)));
			return false;
		}
	}
	return true;
}

int tw_run_cmd(const char *prefix, const struct tw_cmd *cmd,
	       int argc, char **argv)
{
	struct arg_list l;
	uint64_t seen = 0;
	int i, n, ret;
	void *opts;

	flatten(&l, cmd->args);
	opts = calloc(1, cmd->opts_size ? cmd->opts_size : 1);
	if (!opts) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	if (cmd->init)
		cmd->init(opts);

	ret = TW_EXIT_FAIL;
	for (i = 0; i < argc; i += n) {
		n = parse_one(&l, opts, &seen, i, argc, argv);
		if (n == ARGS_HELP) {
			tw_cmd_help(prefix, cmd);
			ret = TW_EXIT_OK;
			goto out;
		}
		if (n < 0) {
			hint(prefix);
			goto out;
		}
	}
	if (!check_required(&l, seen)) {
		hint(prefix);
		goto out;
	}
	/* Options may have come with the arguments: set up output now. */
	print_init(tw.json, tw.pretty);
	ret = cmd->run(opts, seen);
out:
	free(opts);
	return ret;
}
