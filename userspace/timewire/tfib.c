// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire tfib": tables of tfib.ko, the timely forwarding table.  Tables
 * are created, listed and deleted here; their entries are handled in
 * tfib_entry.c, their binding to a device and their counters in
 * tfib_bind.c.  Everything goes through the client library (tfib/).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netlink/attr.h>

#include "tfib_cli.h"
#include "lib/clock.h"
#include "lib/print.h"

/* ---------------------------------------------------------------------- */
/* Requests (the table argument and connecting: tfib/args.c) */

int tfib_call(int (*req)(struct tfib_client *c, void *opts), void *opts)
{
	struct tfib_client c = { .quiet = false };
	int ret;

	ret = tfib_keyword_connect(&c);
	if (ret)
		return ret;
	ret = req(&c, opts);
	tfib_close(&c);
	return ret;
}

unsigned int tfib_given_bits(const struct tw_arg *args, uint64_t seen,
			     const struct tfib_given *given)
{
	unsigned int bits = 0;

	for (; given->keyword; given++)
		if (tw_arg_given(args, seen, given->keyword))
			bits |= given->bit;
	return bits;
}

/* ---------------------------------------------------------------------- */
/* create, del, show */

struct create_opts {
	struct tfib_opts fib;
	struct tfib_table_cfg cfg;
};

static void create_init(void *p)
{
	struct create_opts *o = p;

	o->cfg.clockid = CLOCK_MONOTONIC;
}

static const struct tw_arg create_args[] = {
	{ .include = tfib_table_arg },
	{ .name = "capacity", .type = TW_ARG_U32,
	  .off = offsetof(struct create_opts, cfg.capacity), .meta = "N",
	  .help = "entries the table holds at most",
	  .flags = TW_ARG_REQUIRED, .min = 1, .max = TFIB_MAX_CAPACITY },
	{ .name = "buckets", .type = TW_ARG_U32,
	  .off = offsetof(struct create_opts, cfg.buckets), .meta = "N",
	  .help = "hash buckets, a power of two (default: the capacity rounded up to one)",
	  .min = 1, .max = TFIB_MAX_CAPACITY },
	{ .name = "sync", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct create_opts, cfg.sync),
	  .keywords = tfib_sync_words,
	  .help = "how readers and writers are kept apart (default rcu)" },
	{ .name = "prefetch", .type = TW_ARG_FLAG,
	  .off = offsetof(struct create_opts, cfg.prefetch),
	  .help = "ring bindings: prefetch the next packet's bucket during a burst (not rwlock tables)" },
	{ .name = "spares", .type = TW_ARG_U32,
	  .off = offsetof(struct create_opts, cfg.spares), .meta = "N",
	  .help = "rcu tables: tuples that may wait for a grace period at once (default: the capacity)",
	  .min = 1, .max = TFIB_MAX_CAPACITY },
	{ .name = "clock", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct create_opts, cfg.clockid),
	  .keywords = tw_clock_words,
	  .help = "clock of the entries' timestamps (default mono)" },
	{ .name = NULL },
};

static int create_req(struct tfib_client *c, void *p)
{
	struct create_opts *o = p;

	return tfib_table_new(c, o->fib.table, &o->cfg);
}

static int create_run(void *p, uint64_t seen)
{
	static const struct tfib_given given[] = {
		{ "buckets", TFIB_SET_BUCKETS },
		{ "sync", TFIB_SET_SYNC },
		{ "spares", TFIB_SET_SPARES },
		{ "clock", TFIB_SET_CLOCKID },
		{ NULL, 0 },
	};
	struct create_opts *o = p;

	o->cfg.set = tfib_given_bits(create_args, seen, given);
	return tfib_call(create_req, o);
}

static int del_req(struct tfib_client *c, void *p)
{
	struct tfib_opts *o = p;

	return tfib_table_del(c, o->table);
}

static int del_run(void *p, uint64_t seen)
{
	(void)seen;
	return tfib_call(del_req, p);
}

/* Each reply in an object of its own. */
static int reply_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[TFIB_A_MAX + 1];
	unsigned int *count = arg;

	if (tfib_parse(nlh, tb))
		return -EPROTO;
	(*count)++;
	open_object(NULL);
	tfib_print_attrs(&tfib_table_attrs, tb);
	tfib_print_macs(nlh, &tfib_table_attrs, TFIB_A_CONTROL_SRC);
	close_object();
	return 0;
}

int tfib_list(const struct tfib_query *q)
{
	unsigned int count = 0;
	struct tfib_client c = { .quiet = false };
	struct nl_msg *msg;
	int ret;

	ret = tfib_keyword_connect(&c);
	if (ret)
		return ret;
	msg = tfib_msg(&c, q->cmd, q->dump ? NLM_F_DUMP : 0, q->table);
	if (msg && q->user_id &&
	    nla_put_u32(msg, TFIB_A_USER_ID, *q->user_id) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	open_array(q->array);
	ret = tfib_request(&c, msg, q->cb ? q->cb : reply_cb, &count, q->what);
	close_array();
	if (!ret && !count)
		print_text("%s", q->none);
	tfib_close(&c);
	return ret;
}

static int show_run(void *p, uint64_t seen)
{
	struct tfib_opts *o = p;
	struct tfib_query q = {
		.cmd = TFIB_CMD_TABLE_GET,
		.dump = !o->table,
		.table = o->table,
		.array = "tables",
		.none = "no tables",
		.what = "cannot list the tables",
	};

	(void)seen;
	return tfib_list(&q);
}

const struct tw_cmd tfib_create_cmd = {
	.name = "create",
	.help = "Create a table",
	.notes = "The table's memory is allocated now, for capacity entries; it stays until\n"
		 "\"del\", its network namespace goes or the module is unloaded.\n",
	.args = create_args,
	.opts_size = sizeof(struct create_opts),
	.init = create_init,
	.run = create_run,
};

const struct tw_cmd tfib_del_cmd = {
	.name = "del",
	.help = "Delete a table, unbinding it first",
	.args = tfib_table_arg,
	.opts_size = sizeof(struct tfib_opts),
	.run = del_run,
};

const struct tw_cmd tfib_show_cmd = {
	.name = "show",
	.help = "Show one table or every table of the network namespace",
	.args = tfib_table_opt_arg,
	.opts_size = sizeof(struct tfib_opts),
	.run = show_run,
};

static const struct tw_cmd *const tfib_cmds[] = {
	&tfib_create_cmd,
	&tfib_del_cmd,
	&tfib_show_cmd,
	&tfib_set_cmd,
	&tfib_get_cmd,
	&tfib_unset_cmd,
	&tfib_dump_cmd,
	&tfib_bind_cmd,
	&tfib_unbind_cmd,
	&tfib_stats_cmd,
	&tfib_save_cmd,
	NULL,
};

const struct tw_object tfib_object = {
	.name = "tfib",
	.cmds = tfib_cmds,
	.dflt = "show",
};
