// SPDX-License-Identifier: GPL-2.0
/*
 * The table argument, the device arguments and the keywords kernel errors
 * are reported by: what the CLI's tfib commands and tw-tfib-bench share.
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "args.h"

static int parse_table(void *dst, int argc, char **argv)
{
	char msg[256], expected[64];
	size_t len;

	(void)argc;
	len = strlen(argv[0]);
	if (len && len <= TFIB_NAME_MAX_LEN) {
		*(const char **)dst = argv[0];
		return 1;
	}
	snprintf(expected, sizeof(expected), "a name of 1 to %d bytes",
		 TFIB_NAME_MAX_LEN);
	tw_err("%s", tw_value_msg(msg, sizeof(msg), "table", argv[0],
				  len ? "too long" : "empty", expected));
	return -1;
}

#define TABLE_ARG(req)							\
	{ .name = "table", .type = TW_ARG_CUSTOM,			\
	  .off = offsetof(struct tfib_opts, table), .meta = "NAME",	\
	  .parse = parse_table, .flags = TW_ARG_BARE | (req),		\
	  .help = "the table; the keyword may be left out" }

const struct tw_arg tfib_table_arg[] = {
	TABLE_ARG(TW_ARG_REQUIRED),
	{ .name = NULL },
};

const struct tw_arg tfib_table_opt_arg[] = {
	TABLE_ARG(0),
	{ .name = NULL },
};

/*
 * The attributes of a request by the keywords that give them, so that a
 * kernel error blames what the user typed: the spec's names, but for
 * these.
 */
static const struct {
	int type;
	const char *keyword;
} renamed[] = {
	{ TFIB_A_CLOCKID, "clock" },
	{ TFIB_A_USER_ID, "user" },
	{ TFIB_A_TS_NS, "ts" },
	{ TFIB_A_IFINDEX, "dev" },
	/* Replies name the device so; "dev" takes the name. */
	{ TFIB_A_IFNAME, "dev" },
	{ TFIB_A_FWD_MODE, "mode" },
};

static char keyword_buf[TFIB_A_MAX + 1][32];
static const char *keyword_names[TFIB_A_MAX + 1];

static const struct tw_attr_set keyword_set = {
	.names = keyword_names,
	.max = TFIB_A_MAX,
	.nests = NULL,
};

static void name_keywords(void)
{
	char *p;
	size_t i;

	for (i = 0; i <= TFIB_A_MAX; i++) {
		if (!tfib_attr_keys[i])
			continue;
		snprintf(keyword_buf[i], sizeof(keyword_buf[i]), "%s",
			 tfib_attr_keys[i]);
		for (p = keyword_buf[i]; *p; p++)
			if (*p == '_')
				*p = '-';
		keyword_names[i] = keyword_buf[i];
	}
	for (i = 0; i < ARRAY_SIZE(renamed); i++)
		keyword_names[renamed[i].type] = renamed[i].keyword;
}

const char *const *tfib_keywords(void)
{
	if (!keyword_names[TFIB_A_TABLE])
		name_keywords();
	return keyword_names;
}

int tfib_keyword_connect(struct tfib_client *c)
{
	tfib_keywords();
	return tfib_connect(c, &keyword_set);
}

int tfib_dev_index(const char *keyword, const char *ifname, uint32_t *dst)
{
	unsigned int ifindex = if_nametoindex(ifname);
	char msg[320];

	if (!ifindex) {
		tw_err("%s", tw_value_msg(msg, sizeof(msg), keyword, ifname,
					  "no such network device",
					  "a network device of this network namespace"));
		return -1;
	}
	*dst = ifindex;
	return 1;
}

int tfib_parse_dev(void *dst, int argc, char **argv)
{
	(void)argc;
	return tfib_dev_index("dev", argv[0], dst);
}
