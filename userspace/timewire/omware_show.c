// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire omware show", "flush" and "cancel": the module's statistics
 * and sessions, and requests on one session.
 */
#include <errno.h>

#include <netlink/attr.h>

#include "lib/clock.h"
#include "lib/print.h"
#include "omware_cli.h"
#include "omware/attrs.h"
#include "omware/session.h"

struct id_opts {
	uint32_t session;
	uint64_t cookie;
};

static void print_stats(struct nlattr *nest)
{
	struct nlattr *tb[OMWARE_STATS_A_MAX + 1];
	int i;

	if (!nest || nla_parse_nested(tb, OMWARE_STATS_A_MAX, nest,
				      omware_stats_policy))
		return;
	open_object("stats");
	for (i = 0; i <= OMWARE_STATS_A_MAX; i++)
		if (tb[i] && omware_stats_keys[i])
			print_u64(omware_stats_keys[i], nla_get_u64(tb[i]));
	close_object();
}

static void print_u32_attr(struct nlattr **tb, int type, const char *key)
{
	if (tb[type])
		print_u64(key, nla_get_u32(tb[type]));
}

static void print_u64_attr(struct nlattr **tb, int type, const char *key)
{
	if (tb[type])
		print_u64(key, nla_get_u64(tb[type]));
}

static int global_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];

	(void)arg;
	if (om_parse(nlh, tb))
		return -EPROTO;
	open_object("global");
	print_u32_attr(tb, OMWARE_A_PENDING_PKTS, "pending_pkts");
	print_u64_attr(tb, OMWARE_A_PENDING_BYTES, "pending_bytes");
	print_u32_attr(tb, OMWARE_A_MAX_PKTS, "max_pkts");
	print_u32_attr(tb, OMWARE_A_MAX_BYTES, "max_bytes");
	print_stats(tb[OMWARE_A_STATS]);
	close_object();
	return 0;
}

static int session_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];
	unsigned int *count = arg;
	const char *w;

	if (om_parse(nlh, tb))
		return -EPROTO;
	(*count)++;
	open_object(NULL);
	print_u32_attr(tb, OMWARE_A_SESSION_ID, "session");
	if (tb[OMWARE_A_IFNAME])
		print_string("dev", nla_get_string(tb[OMWARE_A_IFNAME]));
	print_u32_attr(tb, OMWARE_A_IFINDEX, "ifindex");
	if (tb[OMWARE_A_CLOCKID]) {
		w = tw_keyword_name(tw_clock_words, nla_get_u32(tb[OMWARE_A_CLOCKID]));
		if (w)
			print_string("clock", w);
		else
			print_u32_attr(tb, OMWARE_A_CLOCKID, "clock");
	}
	if (tb[OMWARE_A_MODE]) {
		w = tw_keyword_name(omware_mode_words, nla_get_u8(tb[OMWARE_A_MODE]));
		print_string("mode", w ? w : "unknown");
	}
	if (tb[OMWARE_A_XMIT]) {
		w = tw_keyword_name(omware_xmit_words, nla_get_u8(tb[OMWARE_A_XMIT]));
		print_string("xmit", w ? w : "unknown");
	}
	print_u32_attr(tb, OMWARE_A_CPU, "cpu");
	print_u32_attr(tb, OMWARE_A_LATE_NS, "late_ns");
	print_u32_attr(tb, OMWARE_A_GUARD_MAX_NS, "guard_max_ns");
	print_u64_attr(tb, OMWARE_A_GUARD_NS, "guard_ns");
	print_u32_attr(tb, OMWARE_A_MAX_PKTS, "max_pkts");
	print_u32_attr(tb, OMWARE_A_MAX_BYTES, "max_bytes");
	print_u32_attr(tb, OMWARE_A_OWNER_PORTID, "owner_portid");
	print_u32_attr(tb, OMWARE_A_PENDING_PKTS, "pending_pkts");
	print_u64_attr(tb, OMWARE_A_PENDING_BYTES, "pending_bytes");
	/* hybrid sessions: what the guard has learnt */
	print_u64_attr(tb, OMWARE_A_GUARD_WAKEUPS, "guard_wakeups");
	print_u64_attr(tb, OMWARE_A_GUARD_MISSES, "guard_misses");
	print_u32_attr(tb, OMWARE_A_GUARD_QUANTILE_NS, "guard_quantile_ns");
	print_stats(tb[OMWARE_A_STATS]);
	close_object();
	return 0;
}

static const struct tw_arg show_args[] = {
	{ .name = "session", .type = TW_ARG_U32,
	  .off = offsetof(struct id_opts, session), .meta = "ID",
	  .help = "show only this session", .max = UINT32_MAX },
	{ .name = NULL },
};

static int show_run(void *p, uint64_t seen)
{
	struct id_opts *o = p;
	struct om_session s = { 0 };
	unsigned int count = 0;
	struct nl_msg *msg;
	int ret;

	ret = om_connect(&s);
	if (ret)
		return ret;
	if (tw_arg_given(show_args, seen, "session")) {
		s.id = o->session;
		msg = om_msg(&s, OMWARE_CMD_SESSION_GET, 0);
	} else {
		msg = tw_nl_new(&s.nl, OMWARE_CMD_STATS_GET, 0, 0);
		ret = om_request(&s, msg, global_cb, NULL,
				 "cannot read the module statistics");
		if (ret)
			goto out;
		msg = tw_nl_new(&s.nl, OMWARE_CMD_SESSION_GET, NLM_F_DUMP, 0);
	}
	open_array("sessions");
	ret = om_request(&s, msg, session_cb, &count,
			 "cannot list the sessions");
	close_array();
	if (!ret && !count)
		print_text("no sessions");
out:
	om_close(&s);
	return ret;
}

static const struct tw_arg flush_args[] = {
	{ .name = "session", .type = TW_ARG_U32,
	  .off = offsetof(struct id_opts, session), .meta = "ID",
	  .help = "the session", .flags = TW_ARG_REQUIRED,
	  .max = UINT32_MAX },
	{ .name = NULL },
};

static const struct tw_arg cancel_args[] = {
	{ .name = "session", .type = TW_ARG_U32,
	  .off = offsetof(struct id_opts, session), .meta = "ID",
	  .help = "the session", .flags = TW_ARG_REQUIRED,
	  .max = UINT32_MAX },
	{ .name = "cookie", .type = TW_ARG_U64,
	  .off = offsetof(struct id_opts, cookie), .meta = "C",
	  .help = "cookie of the packets to cancel",
	  .flags = TW_ARG_REQUIRED, .max = UINT64_MAX },
	{ .name = NULL },
};

/* A request on one session, answered by an ack. */
static int session_request(uint8_t cmd, const struct id_opts *o,
			   bool cookie, const char *what)
{
	struct om_session s = { .id = o->session };
	struct nl_msg *msg;
	int ret;

	ret = om_connect(&s);
	if (ret)
		return ret;
	msg = om_msg(&s, cmd, 0);
	if (msg && cookie && nla_put_u64(msg, OMWARE_A_COOKIE, o->cookie) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	ret = om_request(&s, msg, NULL, NULL, what);
	om_close(&s);
	return ret;
}

static int flush_run(void *p, uint64_t seen)
{
	(void)seen;
	return session_request(OMWARE_CMD_FLUSH, p, false,
			       "cannot flush the session");
}

static int cancel_run(void *p, uint64_t seen)
{
	(void)seen;
	return session_request(OMWARE_CMD_CANCEL, p, true,
			       "cannot cancel the packets");
}

static const char session_notes[] =
"Only the socket that created a session may change it, so for a session made\n"
"by another process the kernel refuses this; it is meant for owners and for\n"
"checking that refusal.\n";

const struct tw_cmd omware_show_cmd = {
	.name = "show",
	.help = "Show module statistics and sessions",
	.args = show_args,
	.opts_size = sizeof(struct id_opts),
	.run = show_run,
};

const struct tw_cmd omware_flush_cmd = {
	.name = "flush",
	.help = "Cancel every pending packet of a session",
	.notes = session_notes,
	.args = flush_args,
	.opts_size = sizeof(struct id_opts),
	.run = flush_run,
};

const struct tw_cmd omware_cancel_cmd = {
	.name = "cancel",
	.help = "Cancel the pending packets of a session carrying a cookie",
	.notes = session_notes,
	.args = cancel_args,
	.opts_size = sizeof(struct id_opts),
	.run = cancel_run,
};
