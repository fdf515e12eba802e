/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "timewire tfib": the commands of the object, one file per group.
 */
#ifndef TW_CLI_TFIB_H
#define TW_CLI_TFIB_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/attr.h>

#include "lib/args.h"
#include "tfib/args.h"
#include "tfib/client.h"

extern const struct tw_object tfib_object;

/* Connect, run req on the command's options, close: an exit code. */
int tfib_call(int (*req)(struct tfib_client *c, void *opts), void *opts);

/* A get request, do or dump, whose replies are printed as an array. */
struct tfib_query {
	uint8_t cmd;
	bool dump;
	const char *table;		/* NULL: none */
	const uint32_t *user_id;	/* NULL: none */
	const char *array;		/* its key */
	const char *none;		/* text when there is no reply */
	/* Prints one reply; arg counts them (unsigned int).  NULL: every
	 * attribute in an object.
	 */
	tw_nl_handler_t cb;
	const char *what;		/* names the request in an error */
};

/* Run q; returns an exit code. */
int tfib_list(const struct tfib_query *q);

/* The request bit of each optional keyword, NULL-terminated. */
struct tfib_given {
	const char *keyword;
	unsigned int bit;
};

/* The bits of the keywords given. */
unsigned int tfib_given_bits(const struct tw_arg *args, uint64_t seen,
			     const struct tfib_given *given);

/* tfib_print.c: the attributes of one set of the family, for printing. */
struct tfib_attrs {
	int max;
	const struct nla_policy *policy;
	const char *const *keys;
	/* The words of the enum attributes, by type (NULL: a number). */
	const struct tw_keyword *const *words;
	/* A string printed as a name, its value alone in text (0: none). */
	int name;
	/* Present in replies that report every setting: flags absent are off. */
	int settings;
	/* The attributes printed, a bit each (0: every one with a key). */
	uint64_t only;
	/* A multi-attr MAC list, printed by tfib_print_macs() instead (0: none). */
	int macs;
	/* A flag of requests only, never in a reply: never printed (0: none). */
	int request_only;
};

/* Room for the attributes of any set. */
#define TFIB_MAX_ATTR	63

extern const struct tfib_attrs tfib_table_attrs;	/* tables and entries */
extern const struct tfib_attrs tfib_stats_attrs;
extern const struct tfib_attrs tfib_ring_attrs;
extern const struct tfib_attrs tfib_worker_attrs;
/* Room for xx:xx:xx:xx:xx:xx and its NUL. */
#define TFIB_MAC_LEN	18

/*
 * Print every attribute of tb that is no nest, in the order of the set,
 * through the one print path: enums as words, flags as booleans, MACs as
 * xx:xx:xx:xx:xx:xx; a table name (TFIB_A_TABLE) leads the line in text.
 */
void tfib_print_attrs(const struct tfib_attrs *set, struct nlattr **tb);
/* Every attribute @type of the reply, MACs, as the array of its key. */
void tfib_print_macs(struct nlmsghdr *nlh, const struct tfib_attrs *set,
		     int type);
/*
 * Every attribute @type of the reply, MACs, in one comma-separated string
 * under its key, as a keyword of bind reads it; nothing when none or
 * when set does not print the type.
 */
void tfib_print_mac_list(struct nlmsghdr *nlh, const struct tfib_attrs *set,
			 int type);
/* Parse a nest of set and print it as object key; false if malformed. */
bool tfib_print_nest(const char *key, const struct tfib_attrs *set,
		     struct nlattr *nest);

/* tfib.c */
extern const struct tw_cmd tfib_create_cmd;
extern const struct tw_cmd tfib_del_cmd;
extern const struct tw_cmd tfib_show_cmd;

/* tfib_entry.c */
extern const struct tw_cmd tfib_set_cmd;
extern const struct tw_cmd tfib_get_cmd;
extern const struct tw_cmd tfib_unset_cmd;
extern const struct tw_cmd tfib_dump_cmd;

/* tfib_bind.c */
extern const struct tw_cmd tfib_bind_cmd;
extern const struct tw_cmd tfib_unbind_cmd;
extern const struct tw_cmd tfib_stats_cmd;

/* tfib_save.c */
extern const struct tw_cmd tfib_save_cmd;

#endif /* TW_CLI_TFIB_H */
