// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire tfib bind", "unbind" and "stats": a table's forwarder on a
 * network device, and the counters of the table, its rings and threads.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "tfib_cli.h"
#include "lib/print.h"

struct bind_opts {
	struct tfib_opts fib;
	struct tfib_bind_cfg cfg;
};

/* "control-src MAC[,MAC]...": the sources whose control packets count. */
static int parse_control_src(void *dst, int argc, char **argv)
{
	struct tfib_bind_cfg *cfg = dst;
	char list[TFIB_MAX_CONTROL_SRC * 18 + 1], *mac, *save = NULL;
	char msg[320];

	(void)argc;
	if (strlen(argv[0]) >= sizeof(list))
		goto bad;
	strcpy(list, argv[0]);
	cfg->n_control_src = 0;
	for (mac = strtok_r(list, ",", &save); mac;
	     mac = strtok_r(NULL, ",", &save)) {
		if (cfg->n_control_src == TFIB_MAX_CONTROL_SRC ||
		    tw_parse_mac(mac, cfg->control_src[cfg->n_control_src]))
			goto bad;
		cfg->n_control_src++;
	}
	if (cfg->n_control_src)
		return 1;
bad:
	tw_err("%s", tw_value_msg(msg, sizeof(msg), "control-src", argv[0],
				  NULL, "up to " TW_STR(TFIB_MAX_CONTROL_SRC)
				  " MAC addresses, comma-separated"));
	return -1;
}

static const struct tw_arg bind_args[] = {
	{ .include = tfib_table_arg },
	{ .name = "dev", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct bind_opts, cfg.ifindex), .meta = "IFNAME",
	  .parse = tfib_parse_dev, .flags = TW_ARG_REQUIRED,
	  .help = "the Ethernet device whose update packets the table handles" },
	{ .name = "mode", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct bind_opts, cfg.fwd_mode),
	  .keywords = tfib_fwd_mode_words,
	  .help = "rings drained by threads, or all in the receive path (default ring)" },
	{ .name = "pick", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct bind_opts, cfg.pick),
	  .keywords = tfib_pick_words,
	  .help = "how an idle data worker is found: O(1) memo or O(n) scan (default memo)" },
	{ .name = "workers", .type = TW_ARG_U32,
	  .off = offsetof(struct bind_opts, cfg.workers), .meta = "N",
	  .help = "data worker threads (default: one per online CPU)",
	  .min = 1, .max = TFIB_MAX_WORKERS },
	{ .name = "control-ring", .type = TW_ARG_U32,
	  .off = offsetof(struct bind_opts, cfg.control_ring), .meta = "N",
	  .help = "control ring size, in packets (default "
		  TW_STR(TFIB_DEFAULT_RING) ")",
	  .min = 1, .max = TFIB_MAX_RING },
	{ .name = "data-ring", .type = TW_ARG_U32,
	  .off = offsetof(struct bind_opts, cfg.data_ring), .meta = "N",
	  .help = "data ring size, in packets (default "
		  TW_STR(TFIB_DEFAULT_RING) ")",
	  .min = 1, .max = TFIB_MAX_RING },
	{ .name = "burst", .type = TW_ARG_U32,
	  .off = offsetof(struct bind_opts, cfg.burst), .meta = "N",
	  .help = "packets a thread takes from its ring at once (default "
		  TW_STR(TFIB_DEFAULT_BURST) ")",
	  .min = 1, .max = TFIB_MAX_BURST },
	{ .name = "control-src", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct bind_opts, cfg), .meta = "MAC[,MAC]...",
	  .parse = parse_control_src,
	  .help = "accept control packets from these sources only (default: any)" },
	{ .name = NULL },
};

static int bind_req(struct tfib_client *c, void *p)
{
	struct bind_opts *o = p;

	return tfib_bind(c, o->fib.table, &o->cfg);
}

static int bind_run(void *p, uint64_t seen)
{
	static const struct tfib_given given[] = {
		{ "mode", TFIB_SET_FWD_MODE },
		{ "pick", TFIB_SET_PICK },
		{ "workers", TFIB_SET_WORKERS },
		{ "control-ring", TFIB_SET_CONTROL_RING },
		{ "data-ring", TFIB_SET_DATA_RING },
		{ "burst", TFIB_SET_BURST },
		{ NULL, 0 },
	};
	struct bind_opts *o = p;

	o->cfg.set = tfib_given_bits(bind_args, seen, given);
	return tfib_call(bind_req, o);
}

static int unbind_req(struct tfib_client *c, void *p)
{
	struct tfib_opts *o = p;

	return tfib_unbind(c, o->table);
}

static int unbind_run(void *p, uint64_t seen)
{
	(void)seen;
	return tfib_call(unbind_req, p);
}

/* ---------------------------------------------------------------------- */
/* stats */

/* A histogram bin: its upper bound and count; false if malformed. */
static bool parse_bin(struct nlattr *nest, uint64_t *upper, uint64_t *count)
{
	struct nlattr *tb[TFIB_BIN_A_MAX + 1];

	if (nla_parse_nested(tb, TFIB_BIN_A_MAX, nest, tfib_bin_policy) ||
	    !tb[TFIB_BIN_A_UPPER] || !tb[TFIB_BIN_A_COUNT])
		return false;
	*upper = nla_get_u64(tb[TFIB_BIN_A_UPPER]);
	*count = nla_get_u64(tb[TFIB_BIN_A_COUNT]);
	return true;
}

/*
 * One bin: in JSON an object of the array; in text, only when not empty,
 * one word "UPPER:COUNT" ("inf" for the last bin's bound).
 */
static bool print_bin(struct nlattr *nest, unsigned int *shown)
{
	uint64_t upper, count;
	char word[48];

	if (!parse_bin(nest, &upper, &count))
		return false;
	if (print_is_json()) {
		open_object(NULL);
		print_u64(tfib_bin_keys[TFIB_BIN_A_UPPER], upper);
		print_u64(tfib_bin_keys[TFIB_BIN_A_COUNT], count);
		close_object();
		return true;
	}
	if (!count)
		return true;
	if (upper == UINT64_MAX)
		snprintf(word, sizeof(word), "inf:%llu",
			 (unsigned long long)count);
	else
		snprintf(word, sizeof(word), "%llu:%llu",
			 (unsigned long long)upper, (unsigned long long)count);
	print_name("bin", word);
	(*shown)++;
	return true;
}

/*
 * Every attribute type of the reply, in order, in an array key: a ring or
 * worker as an object, a histogram bin as print_bin() prints it.
 */
static bool print_multi(struct nlmsghdr *nlh, int type, const char *key,
			const struct tfib_attrs *set)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	unsigned int shown = 0;
	struct nlattr *a;
	bool ok = true;
	int rem;

	if (set || print_is_json())
		open_array(key);
	else
		open_object(key);
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != type)
			continue;
		ok &= set ? tfib_print_nest(key, set, a) : print_bin(a, &shown);
	}
	if (!set && !print_is_json() && !shown)
		print_name("bin", "empty");
	if (set || print_is_json())
		close_array();
	else
		close_object();
	return ok;
}

static int stats_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[TFIB_A_MAX + 1];
	unsigned int *count = arg;
	bool ok = true;

	if (tfib_parse(nlh, tb) || !tb[TFIB_A_TABLE] || !tb[TFIB_A_STATS])
		return -EPROTO;
	(*count)++;
	open_object(NULL);
	tfib_print_attrs(&tfib_table_attrs, tb);
	ok &= tfib_print_nest(tfib_attr_keys[TFIB_A_STATS], &tfib_stats_attrs,
			     tb[TFIB_A_STATS]);
	if (tb[TFIB_A_RING])
		ok &= print_multi(nlh, TFIB_A_RING, tfib_attr_keys[TFIB_A_RING],
				  &tfib_ring_attrs);
	if (tb[TFIB_A_WORKER])
		ok &= print_multi(nlh, TFIB_A_WORKER,
				  tfib_attr_keys[TFIB_A_WORKER],
				  &tfib_worker_attrs);
	if (tb[TFIB_A_AGE_HIST])
		ok &= print_multi(nlh, TFIB_A_AGE_HIST,
				  tfib_attr_keys[TFIB_A_AGE_HIST], NULL);
	if (tb[TFIB_A_BURST_HIST])
		ok &= print_multi(nlh, TFIB_A_BURST_HIST,
				  tfib_attr_keys[TFIB_A_BURST_HIST], NULL);
	close_object();
	return ok ? 0 : -EPROTO;
}

static int stats_run(void *p, uint64_t seen)
{
	struct tfib_opts *o = p;
	struct tfib_query q = {
		.cmd = TFIB_CMD_STATS_GET,
		.dump = !o->table,
		.table = o->table,
		.array = "tables",
		.none = "no tables",
		.cb = stats_cb,
		.what = "cannot read the counters",
	};

	(void)seen;
	return tfib_list(&q);
}

static const char bind_notes[] =
"A table forwards the update packets (EtherType " TW_STR(TFIB_ETHERTYPE)
") its device receives:\n"
"control packets set their user's entry, data packets get their user's\n"
"timestamp and sequence written in and leave the device towards the entry's\n"
"MAC.  The ring keywords are refused in inline mode.  A device carries one\n"
"binding, a table one.\n";

static const char stats_notes[] =
"Counters count since the table was created, across bindings.  Histograms\n"
"(age_hist: entry age at lookup, ns; burst_hist: packets per burst) print in\n"
"text as UPPER:COUNT for each bin that is not empty, a bin counting values up\n"
"to its UPPER bound; in JSON as arrays of every bin.\n";

const struct tw_cmd tfib_bind_cmd = {
	.name = "bind",
	.help = "Bind a table to a network device and start forwarding",
	.notes = bind_notes,
	.args = bind_args,
	.opts_size = sizeof(struct bind_opts),
	.run = bind_run,
};

const struct tw_cmd tfib_unbind_cmd = {
	.name = "unbind",
	.help = "Stop forwarding and free the binding of a table",
	.args = tfib_table_arg,
	.opts_size = sizeof(struct tfib_opts),
	.run = unbind_run,
};

const struct tw_cmd tfib_stats_cmd = {
	.name = "stats",
	.help = "Show the counters of one table or of every table",
	.notes = stats_notes,
	.args = tfib_table_opt_arg,
	.opts_size = sizeof(struct tfib_opts),
	.run = stats_run,
};
