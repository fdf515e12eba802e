// SPDX-License-Identifier: GPL-2.0
/*
 * Entry point: global options and dispatch to the objects, of the
 * command line or of each line of a batch (-batch).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/batch.h"
#include "lib/print.h"
#include "modules.h"

/* The tool's own objects, then one per module of the registry. */
static struct tw_object objects[2 + TW_MAX_MODULES];
static size_t n_objects;

static void list_objects(void)
{
	size_t i;

	objects[n_objects++] = version_object;
	objects[n_objects++] = status_object;
	for (i = 0; i < tw_modules_count; i++) {
		objects[n_objects] = *tw_modules[i].object;
		objects[n_objects++].help = tw_modules[i].summary;
	}
}

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: timewire [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		"       timewire OBJECT help\n"
		"       timewire help [OBJECT [COMMAND]]\n"
		"       timewire [OPTIONS] [-force] -batch PATH\n"
		"\n"
		"Objects:\n");
	for (i = 0; i < n_objects; i++)
		fprintf(f, "  %-12s%s\n", objects[i].name, objects[i].help);
	fprintf(f, "  %-12s%s\n\nOptions:\n", "help", "print this text");
	tw_options_help(f);
	fprintf(f,
		"\n"
		"Options go before the object, or anywhere a keyword may stand\n"
		"after it.  Keywords must be spelt out in full.  Exit status:\n"
		"0 success, 1 usage error or request refused by the kernel, 2 module\n"
		"not loaded, 3 local failure, 5 some packets not sent or not\n"
		"reported; see timewire(8).\n");
}

static void object_help(const struct tw_object *obj)
{
	const struct tw_cmd *const *c;
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "timewire %s", obj->name);
	if (obj->self) {
		tw_cmd_help(prefix, obj->self);
		return;
	}
	/* The one-line help, as a sentence. */
	printf("Usage: %s COMMAND [ARGS]\n"
	       "       %s COMMAND help\n"
	       "       %s help\n"
	       "\n%c%s.\n"
	       "\nCommands:\n", prefix, prefix, prefix,
	       toupper((unsigned char)obj->help[0]), obj->help + 1);
	for (c = obj->cmds; *c; c++)
		printf("  %-10s%s%s\n", (*c)->name, (*c)->help,
		       obj->dflt && !strcmp(obj->dflt, (*c)->name) ?
		       " (default)" : "");
	printf("  %-10s%s\n", "help", "print this text");
}

/* Explain a refused prefix: "stat" is not "status". */
static void refuse_word(const char *what, const char *word,
			const char *names[], size_t n, const char *help_cmd)
{
	size_t i, len = strlen(word);

	for (i = 0; i < n; i++) {
		if (len && !strncmp(names[i], word, len)) {
			tw_err("unknown %s \"%s\" (did you mean \"%s\"? abbreviations are not accepted)",
			       what, word, names[i]);
			break;
		}
	}
	if (i == n)
		tw_err("unknown %s \"%s\"", what, word);
	fprintf(stderr, "Try \"%s\".\n", help_cmd);
}

static const struct tw_object *find_object(const char *name)
{
	size_t i;

	for (i = 0; i < n_objects; i++)
		if (!strcmp(objects[i].name, name))
			return &objects[i];
	return NULL;
}

static int run_object(const struct tw_object *obj, int argc, char **argv)
{
	char *dflt_argv[2] = { (char *)obj->dflt, NULL };
	const struct tw_cmd *const *c;
	const char *names[32];
	char prefix[96], help_cmd[128];
	size_t n = 0;

	snprintf(prefix, sizeof(prefix), "timewire %s", obj->name);
	if (obj->self)
		return tw_run_cmd(prefix, obj->self, argc, argv);

	while (argc > 0 && tw_option_word(argv[0]) == TW_OPT_OUTPUT) {
		argc--;
		argv++;
	}
	if (argc == 0) {
		if (!obj->dflt) {
			tw_err("missing command for \"%s\"", prefix);
			fprintf(stderr, "Try \"%s help\".\n", prefix);
			return TW_EXIT_FAIL;
		}
		argv = dflt_argv;
		argc = 1;
	}
	if (!strcmp(argv[0], "help") || tw_option_word(argv[0]) == TW_OPT_HELP) {
		object_help(obj);
		return TW_EXIT_OK;
	}
	for (c = obj->cmds; *c; c++) {
		if (!strcmp((*c)->name, argv[0]))
			break;
		if (n < ARRAY_SIZE(names))
			names[n++] = (*c)->name;
	}
	if (!*c) {
		snprintf(help_cmd, sizeof(help_cmd), "%s help", prefix);
		refuse_word("command", argv[0], names, n, help_cmd);
		return TW_EXIT_FAIL;
	}
	snprintf(prefix, sizeof(prefix), "timewire %s %s", obj->name,
		 (*c)->name);
	return tw_run_cmd(prefix, *c, argc - 1, argv + 1);
}

/* "timewire OBJECT ...": the object named by argv[0] runs the rest. */
static int run_words(int argc, char **argv)
{
	const char *names[ARRAY_SIZE(objects)];
	const struct tw_object *obj;
	size_t i;

	obj = find_object(argv[0]);
	if (!obj) {
		for (i = 0; i < n_objects; i++)
			names[i] = objects[i].name;
		refuse_word("object", argv[0], names, n_objects,
			    "timewire help");
		return TW_EXIT_FAIL;
	}
	return run_object(obj, argc - 1, argv + 1);
}

/*
 * "timewire help WORDS..." is "timewire WORDS... help", unknown words
 * answered alike.
 */
static int run_help(int argc, char **argv)
{
	char **words;
	int ret;

	if (argc == 0) {
		print_usage(stdout);
		return TW_EXIT_OK;
	}
	words = calloc(argc + 2, sizeof(*words));
	if (!words) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	memcpy(words, argv, argc * sizeof(*words));
	words[argc] = "help";
	ret = run_words(argc + 1, words);
	free(words);
	return ret;
}

/* What the options before the object ask for. */
struct main_opts {
	bool version;
	const char *batch;	/* file of commands, or NULL */
	bool force;
};

/* The options before the object; returns how many words they took, or -1. */
static int global_options(int argc, char **argv, struct main_opts *o)
{
	char msg[160];
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		switch (tw_option_word(argv[i])) {
		case TW_OPT_OUTPUT:
			break;
		case TW_OPT_VERSION:
			o->version = true;
			break;
		case TW_OPT_HELP:
			print_usage(stdout);
			exit(TW_EXIT_OK);
		case TW_OPT_FORCE:
			o->force = true;
			break;
		case TW_OPT_BATCH:
			if (++i == argc) {
				tw_err("%s", tw_value_msg(msg, sizeof(msg), argv[i - 1],
							  NULL, NULL,
							  "a file of commands, or - for stdin"));
				fprintf(stderr, "Try \"timewire help\".\n");
				return -1;
			}
			o->batch = argv[i];
			break;
		default:
			if (!strcmp(argv[i], "--"))
				return i;
			tw_err("unknown option \"%s\"", argv[i]);
			fprintf(stderr, "Try \"timewire help\".\n");
			return -1;
		}
	}
	return i - 1;
}

/* One command: "help [WORDS...]" or "OBJECT ...". */
static int run_command(int argc, char **argv)
{
	if (!strcmp(argv[0], "help"))
		return run_help(argc - 1, argv + 1);
	return run_words(argc, argv);
}

/* The options before -batch, where each command of the batch starts. */
static struct tw_globals batch_globals;

static int run_batch_command(int argc, char **argv)
{
	int ret;

	/* Options a line gives are its own, as its output is. */
	tw = batch_globals;
	ret = run_command(argc, argv);
	print_finish();
	return ret;
}

static int run_batch(const struct main_opts *o, int argc)
{
	int ret;

	if (argc) {
		tw_err("-batch takes no command: the commands are those of %s",
		       o->batch);
		fprintf(stderr, "Try \"timewire help\".\n");
		return TW_EXIT_FAIL;
	}
	batch_globals = tw;
	tw_family_keep(true);
	ret = tw_batch_run(o->batch, o->force, run_batch_command);
	tw_family_keep(false);
	return ret;
}

int main(int argc, char **argv)
{
	struct main_opts o = { .version = false };
	int n, ret;

	list_objects();
	n = global_options(argc, argv, &o);
	if (n < 0)
		return TW_EXIT_FAIL;
	argc -= n + 1;
	argv += n + 1;

	if (!o.version && !o.batch && argc == 0) {
		print_usage(stderr);
		return TW_EXIT_FAIL;
	}
	/* -V ignores the rest, like "timewire version". */
	if (o.version)
		ret = run_object(find_object("version"), 0, argv);
	else if (o.batch)
		ret = run_batch(&o, argc);
	else
		ret = run_command(argc, argv);
	print_finish();
	return ret;
}
