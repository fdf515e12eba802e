/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arguments of tfib that more than one program takes (the CLI's
 * commands and tw-tfib-bench): a table's name, a network device, and a
 * connection whose kernel errors blame the keyword the user typed.
 */
#ifndef TW_TFIB_ARGS_H
#define TW_TFIB_ARGS_H

#include <stdint.h>

#include "lib/args.h"
#include "client.h"

/*
 * The table a command acts on, the first member of every command's
 * options; its keyword "table" may be left out.
 */
struct tfib_opts {
	const char *table;
};

/* "[ table ] NAME", required or optional. */
extern const struct tw_arg tfib_table_arg[];
extern const struct tw_arg tfib_table_opt_arg[];

/*
 * An argument's IFNAME: the device's index in our network namespace; 1,
 * or -1 after the error naming keyword.  tfib_parse_dev() parses "dev".
 */
int tfib_dev_index(const char *keyword, const char *ifname, uint32_t *dst);
int tfib_parse_dev(void *dst, int argc, char **argv);

/*
 * The keyword that gives each attribute, by type: the spec's name with "-"
 * for "_", but clock, user, ts, dev (index or name) and mode; NULL for
 * none.
 */
const char *const *tfib_keywords(void);

/*
 * Connect; a kernel error names the attribute it blames by the keyword
 * that gives it.
 */
int tfib_keyword_connect(struct tfib_client *c);

#endif /* TW_TFIB_ARGS_H */
