// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire tfib save": the tables of the network namespace as the lines
 * of a batch that makes them again (timewire -batch): for each table its
 * create, a set per entry and its bind.  The lines come out of the one
 * print path, show's, with the keywords of those commands as keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tfib_cli.h"
#include "lib/print.h"

#define ATTR(type)	(1ULL << (type))
_Static_assert(TFIB_A_MAX < 64, "struct tfib_attrs' only has 64 bits");

/* The attributes of a reply that create, set and bind take. */
static const uint64_t create_attrs = ATTR(TFIB_A_TABLE) |
	ATTR(TFIB_A_CAPACITY) | ATTR(TFIB_A_BUCKETS) | ATTR(TFIB_A_SYNC) |
	ATTR(TFIB_A_PREFETCH) | ATTR(TFIB_A_SPARES) | ATTR(TFIB_A_CLOCKID);
static const uint64_t set_attrs = ATTR(TFIB_A_TABLE) |
	ATTR(TFIB_A_USER_ID) | ATTR(TFIB_A_MAC) | ATTR(TFIB_A_TS_NS) |
	ATTR(TFIB_A_SEQ);
static const uint64_t bind_attrs = ATTR(TFIB_A_TABLE) |
	ATTR(TFIB_A_IFNAME) | ATTR(TFIB_A_FWD_MODE) | ATTR(TFIB_A_PICK) |
	ATTR(TFIB_A_WORKERS) | ATTR(TFIB_A_CONTROL_RING) |
	ATTR(TFIB_A_DATA_RING) | ATTR(TFIB_A_BURST) |
	ATTR(TFIB_A_CONTROL_SRC);

/*
 * show's set under the keywords of a command, restricted to what the
 * command takes; no settings member, so that a flag absent is left out
 * rather than printed as "no-KEY", which no command reads.
 */
static struct tfib_attrs save_set(uint64_t only)
{
	struct tfib_attrs set = tfib_table_attrs;

	set.keys = tfib_keywords();
	set.only = only;
	set.settings = 0;
	return set;
}

/*
 * Replies kept: the tables, whose entries are asked for after, and the
 * entries of one, printed in the order of their user IDs.  The kernel
 * dumps entries in hash order, which a table made again with another
 * seed does not keep: the lines of a table would differ from save to
 * save.
 */
struct reply {
	struct nlmsghdr *nlh;
	uint32_t user_id;		/* entries */
};

struct replies {
	struct reply *r;
	size_t n;
};

static int keep_reply(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[TFIB_A_MAX + 1];
	struct replies *k = arg;
	struct reply *r;

	if (tfib_parse(nlh, tb))
		return -EPROTO;
	r = realloc(k->r, (k->n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	k->r = r;
	r = &k->r[k->n];
	r->nlh = malloc(nlh->nlmsg_len);
	if (!r->nlh)
		return -ENOMEM;
	memcpy(r->nlh, nlh, nlh->nlmsg_len);
	r->user_id = tb[TFIB_A_USER_ID] ? nla_get_u32(tb[TFIB_A_USER_ID]) : 0;
	k->n++;
	return 0;
}

static void free_replies(struct replies *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->r[i].nlh);
	free(k->r);
}

static int by_user_id(const void *a, const void *b)
{
	const struct reply *ra = a, *rb = b;

	return (ra->user_id > rb->user_id) - (ra->user_id < rb->user_id);
}

/* One line: the command, then what it takes of the reply. */
static void save_line(const char *cmd, uint64_t only, struct nlmsghdr *nlh)
{
	struct tfib_attrs set = save_set(only);
	struct nlattr *tb[TFIB_A_MAX + 1];

	/* Kept replies were parsed once already. */
	tfib_parse(nlh, tb);
	open_object(cmd);
	tfib_print_attrs(&set, tb);
	tfib_print_mac_list(nlh, &set, TFIB_A_CONTROL_SRC);
	close_object();
}

static int save_entries(struct tfib_client *c, const char *table)
{
	struct replies entries = { .n = 0 };
	size_t i;
	int ret;

	ret = tfib_request(c, tfib_msg(c, TFIB_CMD_ENTRY_GET, NLM_F_DUMP, table),
			   keep_reply, &entries, "cannot list the entries");
	if (!ret)
		qsort(entries.r, entries.n, sizeof(*entries.r), by_user_id);
	for (i = 0; !ret && i < entries.n; i++)
		save_line("tfib set", set_attrs, entries.r[i].nlh);
	free_replies(&entries);
	return ret;
}

static int save_table(struct tfib_client *c, struct nlmsghdr *nlh)
{
	struct nlattr *tb[TFIB_A_MAX + 1];
	int ret;

	if (tfib_parse(nlh, tb) || !tb[TFIB_A_TABLE])
		return TW_EXIT_SYS;
	save_line("tfib create", create_attrs, nlh);
	ret = save_entries(c, nla_get_string(tb[TFIB_A_TABLE]));
	/* Bound last: its forwarder would change entries still to come. */
	if (!ret && tb[TFIB_A_IFNAME])
		save_line("tfib bind", bind_attrs, nlh);
	return ret;
}

static int save_req(struct tfib_client *c, void *p)
{
	struct tfib_opts *o = p;
	struct replies tables = { .n = 0 };
	struct nl_msg *msg;
	size_t i;
	int ret;

	msg = tfib_msg(c, TFIB_CMD_TABLE_GET, o->table ? 0 : NLM_F_DUMP,
		       o->table);
	ret = tfib_request(c, msg, keep_reply, &tables,
			   "cannot list the tables");
	for (i = 0; !ret && i < tables.n; i++)
		ret = save_table(c, tables.r[i].nlh);
	free_replies(&tables);
	return ret;
}

static int save_run(void *p, uint64_t seen)
{
	(void)seen;
	if (print_is_json()) {
		tw_err("save prints commands for \"timewire -batch\", not JSON");
		return TW_EXIT_FAIL;
	}
	return tfib_call(save_req, p);
}

const struct tw_cmd tfib_save_cmd = {
	.name = "save",
	.help = "Print the commands that make one table or every table again",
	.notes = "For each table: its create, a set for each entry in the order of user\n"
		 "IDs (its ts and seq as they stand) and its bind, if bound, as lines of\n"
		 "\"timewire -batch\", which restores them where no table of those names\n"
		 "exists.  Nothing is printed when there is no table.\n",
	.args = tfib_table_opt_arg,
	.opts_size = sizeof(struct tfib_opts),
	.run = save_run,
};
