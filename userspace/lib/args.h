/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command framework of the timewire programs.
 *
 * A command line is "PROGRAM [OPTIONS] [OBJECT [COMMAND]] [ARGS]".  Every
 * object declares a table of commands; every command declares a table of
 * keyword arguments.  The parser, the usage text and the "help" output are
 * all generated from these tables, so they cannot disagree.
 */
#ifndef TW_ARGS_H
#define TW_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* Global options: -j, -p. */
struct tw_globals {
	bool json;
	bool pretty;
};

extern struct tw_globals tw;

enum tw_arg_type {
	TW_ARG_U32,
	TW_ARG_U64,
	TW_ARG_STR,
	TW_ARG_KEYWORD,		/* one word of a list, stored as int */
	TW_ARG_MAC,		/* uint8_t[6] */
	TW_ARG_IPV4,		/* struct in_addr */
	TW_ARG_CUSTOM,		/* parsed by ->parse */
	TW_ARG_FLAG,		/* the keyword alone, no value: sets a bool */
};

struct tw_keyword {
	const char *name;
	int value;
};

#define TW_ARG_REQUIRED		0x1
/*
 * The value may also stand alone as the first argument, its keyword left
 * out, as "ip link show [ dev ] NAME" does; one argument of a table at most.
 */
#define TW_ARG_BARE		0x2
/* Arguments of one command, included tables expanded ("seen" is a u64). */
#define TW_MAX_ARGS		64

struct tw_arg {
	const char *name;
	enum tw_arg_type type;
	size_t off;			/* offset in the command's options */
	const char *meta;		/* value placeholder in help */
	const char *help;
	unsigned int flags;
	uint64_t min;			/* numbers: accepted range */
	uint64_t max;
	const struct tw_keyword *keywords;	/* TW_ARG_KEYWORD */
	/*
	 * TW_ARG_CUSTOM: parse the words following the keyword into dst;
	 * return how many were used, or -1 after printing an error.
	 */
	int (*parse)(void *dst, int argc, char **argv);
	/*
	 * An entry with only this set stands for every entry of another
	 * table, so commands can share groups of arguments.
	 */
	const struct tw_arg *include;
};

struct tw_cmd {
	const char *name;
	const char *help;		/* one line */
	const char *notes;		/* more text for "help", may be NULL */
	const struct tw_arg *args;	/* ends with an empty entry; may be NULL */
	size_t opts_size;
	void (*init)(void *opts);	/* defaults, may be NULL */
	/* seen: bit i set when the i-th argument (includes expanded) was given. */
	int (*run)(void *opts, uint64_t seen);
};

struct tw_object {
	const char *name;
	const char *help;
	/* Either a table of commands, ending with NULL ... */
	const struct tw_cmd *const *cmds;
	const char *dflt;		/* command run when none is given */
	/* ... or the object is itself a command. */
	const struct tw_cmd *self;
};

/* The word of a keyword table standing for value, or NULL. */
const char *tw_keyword_name(const struct tw_keyword *kw, int value);

/*
 * Parse argv against cmd's table and run it; prefix is what the user typed
 * up to the arguments ("timewire omware send"), for help and hints.
 * Returns the exit code.
 */
int tw_run_cmd(const char *prefix, const struct tw_cmd *cmd,
	       int argc, char **argv);
void tw_cmd_help(const char *prefix, const struct tw_cmd *cmd);
bool tw_arg_given(const struct tw_arg *args, uint64_t seen, const char *name);
/* What a word is as a global option. */
enum tw_option {
	TW_OPT_NONE,		/* no option */
	TW_OPT_OUTPUT,		/* -j or -p: applied to tw already */
	TW_OPT_HELP,		/* -h */
	TW_OPT_VERSION,		/* -V */
	TW_OPT_BATCH,		/* -b FILE: the caller takes the file name */
	TW_OPT_FORCE,		/* -force: a batch goes on after an error */
};

/*
 * A global option in any of its forms (-j, -json, --json), as it may stand
 * before the object or where a keyword may.
 */
enum tw_option tw_option_word(const char *word);
/* The options' lines of a usage text, every form listed. */
void tw_options_help(FILE *f);

#endif /* TW_ARGS_H */
