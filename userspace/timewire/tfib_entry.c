// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire tfib set", "get", "unset" and "dump": the entries of a table,
 * user ID to address tuple (next-hop MAC, location timestamp, sequence).
 */
#include "tfib_cli.h"
#include "lib/print.h"

struct entry_opts {
	struct tfib_opts fib;
	struct tfib_entry e;
};

static const struct tw_arg user_arg[] = {
	{ .name = "user", .type = TW_ARG_U32,
	  .off = offsetof(struct entry_opts, e.user_id), .meta = "ID",
	  .help = "the user ID, the entry's key", .flags = TW_ARG_REQUIRED,
	  .max = UINT32_MAX },
	{ .name = NULL },
};

static const struct tw_arg entry_args[] = {
	{ .include = tfib_table_arg },
	{ .include = user_arg },
	{ .name = NULL },
};

static const struct tw_arg set_args[] = {
	{ .include = tfib_table_arg },
	{ .include = user_arg },
	{ .name = "mac", .type = TW_ARG_MAC,
	  .off = offsetof(struct entry_opts, e.mac), .meta = "MAC",
	  .help = "the user's next-hop MAC address", .flags = TW_ARG_REQUIRED },
	{ .name = "ts", .type = TW_ARG_U64,
	  .off = offsetof(struct entry_opts, e.ts_ns), .meta = "NS",
	  .help = "location timestamp, ns of the table's clock (default: now)",
	  .max = UINT64_MAX },
	{ .name = "seq", .type = TW_ARG_U32,
	  .off = offsetof(struct entry_opts, e.seq), .meta = "N",
	  .help = "sequence of the location update (default 0)",
	  .max = UINT32_MAX },
	{ .name = "force", .type = TW_ARG_FLAG,
	  .off = offsetof(struct entry_opts, e.force),
	  .help = "write even if the entry's seq is as new or newer" },
	{ .name = NULL },
};

static int set_req(struct tfib_client *c, void *p)
{
	struct entry_opts *o = p;

	return tfib_entry_set(c, o->fib.table, &o->e);
}

static int set_run(void *p, uint64_t seen)
{
	static const struct tfib_given given[] = {
		{ "ts", TFIB_SET_TS },
		{ "seq", TFIB_SET_SEQ },
		{ NULL, 0 },
	};
	struct entry_opts *o = p;

	o->e.set = tfib_given_bits(set_args, seen, given);
	return tfib_call(set_req, o);
}

/* One entry (get) or the table's (dump), as "entries". */
static int list_entries(const struct entry_opts *o, bool one)
{
	struct tfib_query q = {
		.cmd = TFIB_CMD_ENTRY_GET,
		.dump = !one,
		.table = o->fib.table,
		.user_id = one ? &o->e.user_id : NULL,
		.array = "entries",
		.none = "no entries",
		.what = one ? "cannot get the entry" : "cannot list the entries",
	};

	return tfib_list(&q);
}

static int get_run(void *p, uint64_t seen)
{
	(void)seen;
	return list_entries(p, true);
}

static int dump_run(void *p, uint64_t seen)
{
	(void)seen;
	return list_entries(p, false);
}

static int unset_req(struct tfib_client *c, void *p)
{
	struct entry_opts *o = p;

	return tfib_entry_del(c, o->fib.table, o->e.user_id);
}

static int unset_run(void *p, uint64_t seen)
{
	(void)seen;
	return tfib_call(unset_req, p);
}

const struct tw_cmd tfib_set_cmd = {
	.name = "set",
	.help = "Insert an entry, or rewrite the tuple of an existing one",
	.args = set_args,
	.opts_size = sizeof(struct entry_opts),
	.run = set_run,
};

const struct tw_cmd tfib_get_cmd = {
	.name = "get",
	.help = "Show one entry",
	.args = entry_args,
	.opts_size = sizeof(struct entry_opts),
	.run = get_run,
};

const struct tw_cmd tfib_unset_cmd = {
	.name = "unset",
	.help = "Delete an entry",
	.args = entry_args,
	.opts_size = sizeof(struct entry_opts),
	.run = unset_run,
};

const struct tw_cmd tfib_dump_cmd = {
	.name = "dump",
	.help = "Show every entry of a table",
	.args = tfib_table_arg,
	.opts_size = sizeof(struct entry_opts),
	.run = dump_run,
};
