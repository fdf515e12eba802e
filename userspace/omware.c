// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire omware": drive the omware pre-dispatch sender.
 *
 * send/train/pair create a session, hand every packet over ahead of its
 * time, then collect the one report the kernel owes for each packet.
 * Reports arrive as OMWARE_CMD_REPORT notifications on the socket that
 * created the session, interleaved with the acks of later submits, so the
 * report handler stays installed for the whole run.
 */
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/omware.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "omware_attrs.h"
#include "json_print.h"
#include "nl.h"
#include "omware_bench.h"
#include "packet.h"
#include "probe.h"
#include "schedule.h"
#include "stats.h"
#include "timewire.h"

/* Kernel default of OMWARE_A_LATE_NS, used if the session does not say. */
#define DEFAULT_LATE_NS		20000
#define DEFAULT_START_US	100000
#define DEFAULT_GAP_US		1000
/* Submit messages are cut to this size unless "batch" says otherwise. */
#define BATCH_BYTES		65536
/* Reports still missing this long after the last send time are lost. */
#define REPORT_GRACE_NS		5000000000LL
#define CANCEL_GRACE_MS		1000
#define MAX_US			3600000000ULL	/* one hour */
#define MAX_COUNT		10000000
#define MAX_SPAN_US		86400000000ULL	/* one day */

static const char *const pkt_names[OMWARE_PKT_A_MAX + 1] = {
	[OMWARE_PKT_A_PAD] = "OMWARE_PKT_A_PAD",
	[OMWARE_PKT_A_TIME] = "OMWARE_PKT_A_TIME",
	[OMWARE_PKT_A_COOKIE] = "OMWARE_PKT_A_COOKIE",
	[OMWARE_PKT_A_FRAME] = "OMWARE_PKT_A_FRAME",
	[OMWARE_PKT_A_PAYLOAD] = "OMWARE_PKT_A_PAYLOAD",
	[OMWARE_PKT_A_DST_MAC] = "OMWARE_PKT_A_DST_MAC",
	[OMWARE_PKT_A_PROTO] = "OMWARE_PKT_A_PROTO",
};

static const char *const report_names[OMWARE_REPORT_A_MAX + 1] = {
	[OMWARE_REPORT_A_PAD] = "OMWARE_REPORT_A_PAD",
	[OMWARE_REPORT_A_COOKIE] = "OMWARE_REPORT_A_COOKIE",
	[OMWARE_REPORT_A_SCHED_NS] = "OMWARE_REPORT_A_SCHED_NS",
	[OMWARE_REPORT_A_SENT_NS] = "OMWARE_REPORT_A_SENT_NS",
	[OMWARE_REPORT_A_LATE_NS] = "OMWARE_REPORT_A_LATE_NS",
	[OMWARE_REPORT_A_STATUS] = "OMWARE_REPORT_A_STATUS",
	[OMWARE_REPORT_A_RC] = "OMWARE_REPORT_A_RC",
};

static const char *const stats_names[OMWARE_STATS_A_MAX + 1] = {
	[OMWARE_STATS_A_PAD] = "OMWARE_STATS_A_PAD",
	[OMWARE_STATS_A_SUBMITTED] = "OMWARE_STATS_A_SUBMITTED",
	[OMWARE_STATS_A_SENT] = "OMWARE_STATS_A_SENT",
	[OMWARE_STATS_A_LATE] = "OMWARE_STATS_A_LATE",
	[OMWARE_STATS_A_DROPPED_XMIT] = "OMWARE_STATS_A_DROPPED_XMIT",
	[OMWARE_STATS_A_DROPPED_DOWN] = "OMWARE_STATS_A_DROPPED_DOWN",
	[OMWARE_STATS_A_CANCELLED] = "OMWARE_STATS_A_CANCELLED",
	[OMWARE_STATS_A_REPORTS_LOST] = "OMWARE_STATS_A_REPORTS_LOST",
	[OMWARE_STATS_A_SPIN_NS] = "OMWARE_STATS_A_SPIN_NS",
	[OMWARE_STATS_A_WAKE_LATE_MAX_NS] = "OMWARE_STATS_A_WAKE_LATE_MAX_NS",
	[OMWARE_STATS_A_SPIN_STALLS] = "OMWARE_STATS_A_SPIN_STALLS",
	[OMWARE_STATS_A_SPIN_STALL_MAX_NS] = "OMWARE_STATS_A_SPIN_STALL_MAX_NS",
};

static const char *const attr_names[OMWARE_A_MAX + 1] = {
	[OMWARE_A_PAD] = "OMWARE_A_PAD",
	[OMWARE_A_SESSION_ID] = "OMWARE_A_SESSION_ID",
	[OMWARE_A_IFINDEX] = "OMWARE_A_IFINDEX",
	[OMWARE_A_IFNAME] = "OMWARE_A_IFNAME",
	[OMWARE_A_CLOCKID] = "OMWARE_A_CLOCKID",
	[OMWARE_A_MODE] = "OMWARE_A_MODE",
	[OMWARE_A_XMIT] = "OMWARE_A_XMIT",
	[OMWARE_A_CPU] = "OMWARE_A_CPU",
	[OMWARE_A_LATE_NS] = "OMWARE_A_LATE_NS",
	[OMWARE_A_GUARD_MAX_NS] = "OMWARE_A_GUARD_MAX_NS",
	[OMWARE_A_GUARD_NS] = "OMWARE_A_GUARD_NS",
	[OMWARE_A_MAX_PKTS] = "OMWARE_A_MAX_PKTS",
	[OMWARE_A_MAX_BYTES] = "OMWARE_A_MAX_BYTES",
	[OMWARE_A_OWNER_PORTID] = "OMWARE_A_OWNER_PORTID",
	[OMWARE_A_PENDING_PKTS] = "OMWARE_A_PENDING_PKTS",
	[OMWARE_A_PENDING_BYTES] = "OMWARE_A_PENDING_BYTES",
	[OMWARE_A_TIME] = "OMWARE_A_TIME",
	[OMWARE_A_COOKIE] = "OMWARE_A_COOKIE",
	[OMWARE_A_PKT] = "OMWARE_A_PKT",
	[OMWARE_A_REPORT] = "OMWARE_A_REPORT",
	[OMWARE_A_STATS] = "OMWARE_A_STATS",
};

static const struct tw_attr_set pkt_set = {
	.names = pkt_names,
	.max = OMWARE_PKT_A_MAX,
};

static const struct tw_attr_set report_set = {
	.names = report_names,
	.max = OMWARE_REPORT_A_MAX,
};

static const struct tw_attr_set stats_set = {
	.names = stats_names,
	.max = OMWARE_STATS_A_MAX,
};

static const struct tw_attr_set *const attr_nests[OMWARE_A_MAX + 1] = {
	[OMWARE_A_PKT] = &pkt_set,
	[OMWARE_A_REPORT] = &report_set,
	[OMWARE_A_STATS] = &stats_set,
};

static const struct tw_attr_set omware_set = {
	.names = attr_names,
	.max = OMWARE_A_MAX,
	.nests = attr_nests,
};

static struct nla_policy attr_policy[OMWARE_A_MAX + 1] = {
	[OMWARE_A_SESSION_ID]		= { .type = NLA_U32 },
	[OMWARE_A_IFINDEX]		= { .type = NLA_U32 },
	[OMWARE_A_IFNAME]		= { .type = NLA_STRING },
	[OMWARE_A_CLOCKID]		= { .type = NLA_U32 },
	[OMWARE_A_MODE]			= { .type = NLA_U8 },
	[OMWARE_A_XMIT]			= { .type = NLA_U8 },
	[OMWARE_A_CPU]			= { .type = NLA_U32 },
	[OMWARE_A_LATE_NS]		= { .type = NLA_U32 },
	[OMWARE_A_GUARD_MAX_NS]		= { .type = NLA_U32 },
	[OMWARE_A_GUARD_NS]		= { .type = NLA_U64 },
	[OMWARE_A_MAX_PKTS]		= { .type = NLA_U32 },
	[OMWARE_A_MAX_BYTES]		= { .type = NLA_U32 },
	[OMWARE_A_OWNER_PORTID]		= { .type = NLA_U32 },
	[OMWARE_A_PENDING_PKTS]		= { .type = NLA_U32 },
	[OMWARE_A_PENDING_BYTES]	= { .type = NLA_U64 },
	[OMWARE_A_TIME]			= { .type = NLA_U64 },
	[OMWARE_A_COOKIE]		= { .type = NLA_U64 },
	[OMWARE_A_PKT]			= { .type = NLA_NESTED },
	[OMWARE_A_REPORT]		= { .type = NLA_NESTED },
	[OMWARE_A_STATS]		= { .type = NLA_NESTED },
};

static struct nla_policy stats_policy[OMWARE_STATS_A_MAX + 1] = {
	[OMWARE_STATS_A_SUBMITTED]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_SENT]		= { .type = NLA_U64 },
	[OMWARE_STATS_A_LATE]		= { .type = NLA_U64 },
	[OMWARE_STATS_A_DROPPED_XMIT]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_DROPPED_DOWN]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_CANCELLED]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_REPORTS_LOST]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_SPIN_NS]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_WAKE_LATE_MAX_NS] = { .type = NLA_U64 },
	[OMWARE_STATS_A_SPIN_STALLS]	= { .type = NLA_U64 },
	[OMWARE_STATS_A_SPIN_STALL_MAX_NS] = { .type = NLA_U64 },
};

/* Output keys of the statistics counters. */
static const char *const stats_keys[OMWARE_STATS_A_MAX + 1] = {
	[OMWARE_STATS_A_SUBMITTED]	= "submitted",
	[OMWARE_STATS_A_SENT]		= "sent",
	[OMWARE_STATS_A_LATE]		= "late",
	[OMWARE_STATS_A_DROPPED_XMIT]	= "dropped_xmit",
	[OMWARE_STATS_A_DROPPED_DOWN]	= "dropped_down",
	[OMWARE_STATS_A_CANCELLED]	= "cancelled",
	[OMWARE_STATS_A_REPORTS_LOST]	= "reports_lost",
	[OMWARE_STATS_A_SPIN_NS]	= "spin_ns",
	[OMWARE_STATS_A_WAKE_LATE_MAX_NS] = "wake_late_max_ns",
	[OMWARE_STATS_A_SPIN_STALLS]	= "spin_stalls",
	[OMWARE_STATS_A_SPIN_STALL_MAX_NS] = "spin_stall_max_ns",
};

static const struct tw_keyword clock_words[] = {
	{ "mono", CLOCK_MONOTONIC },
	{ "tai", CLOCK_TAI },
	{ "realtime", CLOCK_REALTIME },
	{ NULL, 0 },
};

static const struct tw_keyword mode_words[] = {
	{ "timer", OMWARE_MODE_TIMER },
	{ "hybrid", OMWARE_MODE_HYBRID },
	{ NULL, 0 },
};

static const struct tw_keyword xmit_words[] = {
	{ "direct", OMWARE_XMIT_DIRECT },
	{ "qdisc", OMWARE_XMIT_QDISC },
	{ NULL, 0 },
};

enum { FORMAT_PAYLOAD, FORMAT_FRAME };

static const struct tw_keyword format_words[] = {
	{ "payload", FORMAT_PAYLOAD },
	{ "frame", FORMAT_FRAME },
	{ NULL, 0 },
};

static const char *word_of(const struct tw_keyword *kw, int value)
{
	for (; kw->name; kw++)
		if (kw->value == value)
			return kw->name;
	return NULL;
}

static const char *status_name(int status)
{
	switch (status) {
	case OMWARE_STATUS_SENT:
		return "sent";
	case OMWARE_STATUS_DROPPED:
		return "dropped";
	case OMWARE_STATUS_CANCELLED:
		return "cancelled";
	default:
		return "unknown";
	}
}

/* ---------------------------------------------------------------------- */
/* Connection */

/* Open a socket and find the family; returns an exit code. */
static int omware_connect(struct tw_nl *nl)
{
	struct tw_family fam;
	int ret;

	ret = tw_nl_open(nl);
	if (ret) {
		tw_nl_perror(NULL, ret, "cannot open a generic netlink socket");
		return TW_EXIT_SYS;
	}
	ret = tw_nl_resolve(nl, OMWARE_FAMILY_NAME, &fam);
	if (ret == -ENOENT) {
		tw_err("the omware module is not loaded (its generic netlink family \"%s\" is absent); load it with \"modprobe omware\"",
		       OMWARE_FAMILY_NAME);
		tw_nl_close(nl);
		return TW_EXIT_NOMOD;
	}
	if (ret) {
		tw_nl_perror(nl, ret, "cannot query the genetlink controller");
		tw_nl_close(nl);
		return TW_EXIT_SYS;
	}
	if (fam.version != OMWARE_FAMILY_VERSION)
		tw_warn("the omware module speaks version %u, this tool version %u",
			fam.version, OMWARE_FAMILY_VERSION);
	tw_nl_use(nl, &fam, &omware_set);
	return TW_EXIT_OK;
}

/* Exit code for a failed request: the kernel refused, or we failed. */
static int request_failed(struct tw_nl *nl, int err, const char *what)
{
	tw_nl_perror(nl, err, what);
	return nl->kernel_err ? TW_EXIT_FAIL : TW_EXIT_SYS;
}

static int parse_reply(struct nlmsghdr *nlh, struct nlattr **tb)
{
	if (genlmsg_parse(nlh, 0, tb, OMWARE_A_MAX, attr_policy))
		return -EPROTO;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Options shared by send, train and pair */

struct sess_opts {
	const char *dev;
	int clock;
	int mode;
	int xmit;
	uint32_t cpu;
	uint32_t late_ns;
	uint32_t guard_max_ns;
	uint32_t max_pkts;
	uint32_t max_bytes;
	uint32_t size;
	int format;
	uint8_t dst_mac[6];
	struct in_addr dst;
	struct in_addr src;
	uint32_t dport;
	uint32_t sport;
	const char *report_file;
};

/*
 * The arguments every sending command shares, in groups so that each
 * command lists its own arguments where a user looks for them.  Their
 * offsets are into struct sess_opts, the first member of every command's
 * options.
 */
static const struct tw_arg session_head_args[] = {
	{ .name = "dev", .type = TW_ARG_STR,
	  .off = offsetof(struct sess_opts, dev), .meta = "IFNAME",
	  .help = "network device to send on",
	  .flags = TW_ARG_REQUIRED },
	{ .name = "clock", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, clock), .keywords = clock_words,
	  .help = "clock of the send times (default mono)" },
	{ .name = "mode", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, mode), .keywords = mode_words,
	  .help = "send from the timer, or wake early and spin (default timer)" },
	{ .name = "xmit", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, xmit), .keywords = xmit_words,
	  .help = "straight to the driver, or through the qdisc (default direct)" },
	{ .name = "cpu", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, cpu), .meta = "N",
	  .help = "CPU of the hybrid mode's thread",
	  .max = 65535 },
	{ .name = NULL },
};

static const struct tw_arg size_args[] = {
	{ .name = "size", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, size), .meta = "BYTES",
	  .help = "IPv4 packet size (default 64, at least 40)",
	  .min = TW_IP_MIN_LEN, .max = TW_IP_MAX_LEN },
	{ .name = NULL },
};

static const struct tw_arg session_tail_args[] = {
	{ .name = "dst-mac", .type = TW_ARG_MAC,
	  .off = offsetof(struct sess_opts, dst_mac), .meta = "MAC",
	  .help = "destination MAC (default ff:ff:ff:ff:ff:ff)" },
	{ .name = "dst", .type = TW_ARG_IPV4,
	  .off = offsetof(struct sess_opts, dst), .meta = "IP",
	  .help = "destination IPv4 address (default 198.18.0.2)" },
	{ .name = "src", .type = TW_ARG_IPV4,
	  .off = offsetof(struct sess_opts, src), .meta = "IP",
	  .help = "source address (default: the device's, or 198.18.0.1)" },
	{ .name = "dport", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, dport), .meta = "N",
	  .help = "UDP destination port (default 29000)",
	  .max = 65535 },
	{ .name = "sport", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, sport), .meta = "N",
	  .help = "UDP source port (default 29000)",
	  .max = 65535 },
	{ .name = "format", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, format), .keywords = format_words,
	  .help = "hand over IP packets, or whole Ethernet frames (default payload)" },
	{ .name = "report-file", .type = TW_ARG_STR,
	  .off = offsetof(struct sess_opts, report_file), .meta = "PATH",
	  .help = "write one CSV line per packet" },
	{ .name = "late-ns", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, late_ns), .meta = "N",
	  .help = "lateness counted as late (kernel default 20000)",
	  .max = UINT32_MAX },
	{ .name = "guard-max-ns", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, guard_max_ns), .meta = "N",
	  .help = "cap of the hybrid mode's spin guard",
	  .max = UINT32_MAX },
	{ .name = "max-pkts", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, max_pkts), .meta = "N",
	  .help = "cap of the session's pending packets",
	  .min = 1, .max = UINT32_MAX },
	{ .name = "max-bytes", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, max_bytes), .meta = "N",
	  .help = "cap of the session's pending bytes",
	  .min = 1, .max = UINT32_MAX },
	{ .name = NULL },
};

static void sess_init(struct sess_opts *s)
{
	s->clock = CLOCK_MONOTONIC;
	s->mode = OMWARE_MODE_TIMER;
	s->xmit = OMWARE_XMIT_DIRECT;
	s->size = 64;
	s->format = FORMAT_PAYLOAD;
	memset(s->dst_mac, 0xff, sizeof(s->dst_mac));
	s->dst.s_addr = htonl(0xc6120002);	/* 198.18.0.2 */
	s->src.s_addr = INADDR_ANY;
	s->dport = TW_PROBE_PORT;
	s->sport = TW_PROBE_PORT;
}

/* ---------------------------------------------------------------------- */
/* A run: one session, its packets and their reports */

struct report {
	uint64_t sched_ns;	/* from the report, or the planned time */
	uint64_t sent_ns;
	int64_t late_ns;
	int32_t rc;
	uint8_t status;
	bool have;
};

struct run {
	struct tw_nl nl;
	const struct tw_arg *args;
	uint64_t seen;
	const struct sess_opts *s;
	struct tw_pkt_spec spec;
	unsigned int ifindex;
	uint32_t session;
	bool session_live;
	uint32_t late_thresh;
	size_t n;		/* packets planned, cookies 0 .. n-1 */
	size_t submitted;	/* packets the kernel accepted */
	struct report *rep;
	size_t got;
	size_t dups;
	size_t strays;
	uint8_t *buf;		/* one packet */
};

/* Set from a signal handler: lock-free atomics are safe there. */
static atomic_bool interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* No SA_RESTART: poll() must return so the run can wind down. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static uint64_t clock_now(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int report_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1], *rtb[OMWARE_REPORT_A_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct run *run = arg;
	struct report *r;
	struct nlattr *a;
	uint64_t cookie;
	int rem;

	if (parse_reply(nlh, tb) || !tb[OMWARE_A_SESSION_ID] ||
	    nla_get_u32(tb[OMWARE_A_SESSION_ID]) != run->session)
		return 0;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != OMWARE_A_REPORT)
			continue;
		if (nla_parse_nested(rtb, OMWARE_REPORT_A_MAX, a,
				     omware_report_policy) ||
		    !rtb[OMWARE_REPORT_A_COOKIE] ||
		    !rtb[OMWARE_REPORT_A_STATUS]) {
			run->strays++;
			continue;
		}
		cookie = nla_get_u64(rtb[OMWARE_REPORT_A_COOKIE]);
		if (cookie >= run->n) {
			run->strays++;
			continue;
		}
		r = &run->rep[cookie];
		if (r->have) {
			run->dups++;
			continue;
		}
		r->have = true;
		run->got++;
		r->status = nla_get_u8(rtb[OMWARE_REPORT_A_STATUS]);
		if (rtb[OMWARE_REPORT_A_SCHED_NS])
			r->sched_ns = nla_get_u64(rtb[OMWARE_REPORT_A_SCHED_NS]);
		if (rtb[OMWARE_REPORT_A_SENT_NS])
			r->sent_ns = nla_get_u64(rtb[OMWARE_REPORT_A_SENT_NS]);
		if (rtb[OMWARE_REPORT_A_LATE_NS])
			r->late_ns = (int64_t)nla_get_u64(rtb[OMWARE_REPORT_A_LATE_NS]);
		else if (r->sent_ns)
			r->late_ns = (int64_t)(r->sent_ns - r->sched_ns);
		if (rtb[OMWARE_REPORT_A_RC])
			r->rc = (int32_t)nla_get_u32(rtb[OMWARE_REPORT_A_RC]);
	}
	return 0;
}

static int session_id_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];
	uint32_t *id = arg;

	if (parse_reply(nlh, tb) || !tb[OMWARE_A_SESSION_ID])
		return -EPROTO;
	*id = nla_get_u32(tb[OMWARE_A_SESSION_ID]);
	return 0;
}

static int late_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];
	uint32_t *late = arg;

	if (!parse_reply(nlh, tb) && tb[OMWARE_A_LATE_NS])
		*late = nla_get_u32(tb[OMWARE_A_LATE_NS]);
	return 0;
}

static struct nl_msg *session_msg(struct tw_nl *nl, uint8_t cmd,
				  uint32_t session, size_t size)
{
	struct nl_msg *msg = tw_nl_new(nl, cmd, 0, size);

	if (msg && nla_put_u32(msg, OMWARE_A_SESSION_ID, session) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static bool given(struct run *run, const char *name)
{
	return tw_arg_given(run->args, run->seen, name);
}

/* Validate the options, fill the packet spec; returns an exit code. */
static int run_prepare(struct run *run, const struct sess_opts *s)
{
	int ret;

	run->s = s;
	run->ifindex = if_nametoindex(s->dev);
	if (!run->ifindex) {
		tw_err("no network device \"%s\"", s->dev);
		return TW_EXIT_FAIL;
	}
	run->spec.ip_len = s->size;
	run->spec.dst = s->dst;
	run->spec.sport = s->sport;
	run->spec.dport = s->dport;
	memcpy(run->spec.dst_mac, s->dst_mac, 6);
	run->spec.src = s->src;
	if (!given(run, "src") && tw_dev_ipv4(s->dev, &run->spec.src))
		run->spec.src.s_addr = htonl(0xc6120001);	/* 198.18.0.1 */
	if (s->format == FORMAT_FRAME) {
		run->spec.frame = true;
		ret = tw_dev_mac(s->dev, run->spec.src_mac);
		if (ret) {
			tw_err("cannot read the MAC address of %s: %s", s->dev,
			       strerror(-ret));
			return TW_EXIT_SYS;
		}
	}
	run->buf = malloc(tw_pkt_len(&run->spec));
	if (!run->buf) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	run->late_thresh = DEFAULT_LATE_NS;
	return TW_EXIT_OK;
}

static int run_alloc(struct run *run, size_t n)
{
	run->n = n;
	run->rep = calloc(n, sizeof(*run->rep));
	if (!run->rep) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	return TW_EXIT_OK;
}

static int session_create(struct run *run)
{
	const struct sess_opts *s = run->s;
	struct tw_nl *nl = &run->nl;
	struct nl_msg *msg;
	int ret;

	ret = omware_connect(nl);
	if (ret)
		return ret;
	/*
	 * Every packet owes a report: make room for a burst of them so none
	 * is lost while we are busy submitting.
	 */
	tw_nl_set_rcvbuf(nl, 32 << 20);
	tw_nl_set_sndbuf(nl, 4 << 20);

	msg = tw_nl_new(nl, OMWARE_CMD_SESSION_NEW, 0, 0);
	if (!msg)
		goto nomem;
	if (nla_put_u32(msg, OMWARE_A_IFINDEX, run->ifindex) < 0 ||
	    nla_put_u32(msg, OMWARE_A_CLOCKID, s->clock) < 0 ||
	    nla_put_u8(msg, OMWARE_A_MODE, s->mode) < 0 ||
	    nla_put_u8(msg, OMWARE_A_XMIT, s->xmit) < 0 ||
	    (given(run, "cpu") &&
	     nla_put_u32(msg, OMWARE_A_CPU, s->cpu) < 0) ||
	    (given(run, "late-ns") &&
	     nla_put_u32(msg, OMWARE_A_LATE_NS, s->late_ns) < 0) ||
	    (given(run, "guard-max-ns") &&
	     nla_put_u32(msg, OMWARE_A_GUARD_MAX_NS, s->guard_max_ns) < 0) ||
	    (given(run, "max-pkts") &&
	     nla_put_u32(msg, OMWARE_A_MAX_PKTS, s->max_pkts) < 0) ||
	    (given(run, "max-bytes") &&
	     nla_put_u32(msg, OMWARE_A_MAX_BYTES, s->max_bytes) < 0)) {
		nlmsg_free(msg);
		goto nomem;
	}
	ret = tw_nl_request(nl, msg, session_id_cb, &run->session);
	if (ret)
		return request_failed(nl, ret, "cannot create a session");
	run->session_live = true;

	/* The report handler must be in place before the first submit. */
	nl->notify_cmd = OMWARE_CMD_REPORT;
	nl->notify = report_cb;
	nl->notify_arg = run;

	/* Learn the session's late threshold, to count late packets alike. */
	if (given(run, "late-ns")) {
		run->late_thresh = s->late_ns;
	} else {
		msg = session_msg(nl, OMWARE_CMD_SESSION_GET, run->session, 0);
		if (msg)
			tw_nl_request(nl, msg, late_cb, &run->late_thresh);
	}
	return TW_EXIT_OK;
nomem:
	tw_err("out of memory");
	return TW_EXIT_SYS;
}

static void session_delete(struct run *run)
{
	struct nl_msg *msg;
	int ret;

	if (!run->session_live)
		return;
	run->session_live = false;
	msg = session_msg(&run->nl, OMWARE_CMD_SESSION_DEL, run->session, 0);
	if (!msg)
		return;
	ret = tw_nl_request(&run->nl, msg, NULL, NULL);
	/* Closing the socket destroys the session anyway. */
	if (ret && ret != -ENOENT)
		tw_nl_perror(&run->nl, ret, "cannot delete the session");
}

/* Add one probe packet (without its time) to msg. */
static int put_pkt(struct run *run, struct nl_msg *msg, uint32_t seq,
		   uint64_t sched_ns, uint32_t flags, struct nlattr **nest)
{
	struct tw_probe probe = {
		.seq = seq,
		.sched_ns = sched_ns,
		.flags = flags,
	};
	size_t len = tw_pkt_len(&run->spec);

	tw_pkt_build(&run->spec, &probe, run->buf);
	*nest = nla_nest_start(msg, OMWARE_A_PKT);
	if (!*nest || nla_put_u64(msg, OMWARE_PKT_A_COOKIE, seq) < 0)
		return -EMSGSIZE;
	if (run->spec.frame)
		return nla_put(msg, OMWARE_PKT_A_FRAME, len, run->buf) < 0 ?
		       -EMSGSIZE : 0;
	if (nla_put(msg, OMWARE_PKT_A_PAYLOAD, len, run->buf) < 0 ||
	    nla_put(msg, OMWARE_PKT_A_DST_MAC, 6, run->spec.dst_mac) < 0)
		return -EMSGSIZE;
	return 0;
}

/* Netlink bytes one packet takes in a submit or train message. */
static size_t pkt_attr_size(const struct run *run)
{
	size_t sz = nla_total_size(0) + 2 * nla_total_size(8) +
		    nla_total_size(tw_pkt_len(&run->spec));

	if (!run->spec.frame)
		sz += nla_total_size(6);
	return sz;
}

static size_t msg_overhead(void)
{
	/* Headers, session id, train time, and libnl's own slack. */
	return NLMSG_HDRLEN + GENL_HDRLEN + nla_total_size(4) +
	       nla_total_size(8) + 64;
}

/* Wait for the reports until all are in or deadline (session clock). */
static void collect(struct run *run, uint64_t deadline)
{
	uint64_t now;
	int64_t left;
	int ret;

	while (run->got < run->submitted && !interrupted) {
		now = clock_now(run->s->clock);
		if (now >= deadline)
			break;
		left = (deadline - now) / 1000000 + 1;
		ret = tw_nl_wait(&run->nl, left > 1000 ? 1000 : (int)left);
		if (ret < 0 && ret != -EINTR) {
			tw_nl_perror(&run->nl, ret, "cannot receive reports");
			break;
		}
	}
	if (interrupted && run->session_live) {
		/* Deleting the session cancels what is pending; take those
		 * reports too, briefly.
		 */
		session_delete(run);
		deadline = clock_now(run->s->clock) +
			   CANCEL_GRACE_MS * 1000000ULL;
		while (run->got < run->submitted &&
		       clock_now(run->s->clock) < deadline)
			if (tw_nl_wait(&run->nl, 100) < 0)
				break;
	}
}

static int write_csv(struct run *run)
{
	const char *path = run->s->report_file;
	struct report *r;
	FILE *f;
	size_t i;

	f = fopen(path, "w");
	if (!f) {
		tw_err("cannot write %s: %s", path, strerror(errno));
		return TW_EXIT_SYS;
	}
	fprintf(f, "cookie,sched_ns,sent_ns,late_ns,status,rc\n");
	for (i = 0; i < run->n; i++) {
		r = &run->rep[i];
		if (r->have)
			fprintf(f, "%zu,%llu,%llu,%lld,%s,%d\n", i,
				(unsigned long long)r->sched_ns,
				(unsigned long long)r->sent_ns,
				(long long)r->late_ns, status_name(r->status),
				r->rc);
		else
			fprintf(f, "%zu,%llu,0,0,missing,0\n", i,
				(unsigned long long)r->sched_ns);
	}
	if (fclose(f)) {
		tw_err("cannot write %s: %s", path, strerror(errno));
		return TW_EXIT_SYS;
	}
	return TW_EXIT_OK;
}

static void print_ns_stats(const char *key, int64_t *v, size_t n)
{
	struct tw_stats st;

	tw_stats_compute(v, n, &st);
	open_object(key);
	print_u64("count", st.n);
	if (n) {
		print_s64("mean", st.mean);
		print_s64("min", st.min);
		print_s64("p50", st.p50);
		print_s64("p99", st.p99);
		print_s64("max", st.max);
	}
	close_object();
}

/*
 * Print the outcome; train > 0 adds the gaps between the members of each
 * train of that many packets.  Returns an exit code.
 */
static int summarize(struct run *run, size_t train)
{
	size_t sent = 0, late = 0, early = 0, dropped = 0, cancelled = 0;
	size_t missing, i, ngaps = 0;
	int64_t *err, *gaps = NULL;
	struct report *r;
	int ret = TW_EXIT_OK;

	err = calloc(run->n ? run->n : 1, sizeof(*err));
	if (train)
		gaps = calloc(run->n ? run->n : 1, sizeof(*gaps));
	if (!err || (train && !gaps)) {
		free(err);
		free(gaps);
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	for (i = 0; i < run->n; i++) {
		r = &run->rep[i];
		if (!r->have)
			continue;
		switch (r->status) {
		case OMWARE_STATUS_SENT:
			err[sent++] = r->late_ns;
			if (r->late_ns > (int64_t)run->late_thresh)
				late++;
			if (r->late_ns < 0)
				early++;
			break;
		case OMWARE_STATUS_DROPPED:
			dropped++;
			break;
		default:
			cancelled++;
		}
		if (train && i % train && r->status == OMWARE_STATUS_SENT &&
		    run->rep[i - 1].have &&
		    run->rep[i - 1].status == OMWARE_STATUS_SENT)
			gaps[ngaps++] = (int64_t)(r->sent_ns -
						  run->rep[i - 1].sent_ns);
	}
	missing = run->n - run->got;

	print_u64("packets", run->n);
	print_u64("submitted", run->submitted);
	print_u64("sent", sent);
	print_u64("late", late);
	print_u64("early", early);
	print_u64("dropped", dropped);
	print_u64("cancelled", cancelled);
	print_u64("missing", missing);
	print_u64("late_threshold_ns", run->late_thresh);
	/* The error of a send: actual minus scheduled time. */
	print_ns_stats("error_ns", err, sent);
	if (train)
		print_ns_stats("gap_ns", gaps, ngaps);

	if (early)
		tw_warn("%zu packets left before their time", early);
	if (run->dups || run->strays)
		tw_warn("%zu duplicate and %zu unexpected reports", run->dups,
			run->strays);
	if (run->nl.overruns)
		tw_warn("the receive buffer overflowed %u times and reports were lost; raise net.core.rmem_max or run with CAP_NET_ADMIN",
			run->nl.overruns);
	if (missing)
		tw_warn("%zu packets were never reported", missing);
	if (missing || dropped || cancelled)
		ret = TW_EXIT_PARTIAL;
	if (run->s->report_file) {
		int r2 = write_csv(run);

		if (r2)
			ret = r2;
	}
	free(err);
	free(gaps);
	return ret;
}

static void print_session_head(struct run *run)
{
	const struct sess_opts *s = run->s;

	print_u64("session", run->session);
	print_string("dev", s->dev);
	print_string("clock", word_of(clock_words, s->clock));
	print_string("mode", word_of(mode_words, s->mode));
	print_string("xmit", word_of(xmit_words, s->xmit));
	print_u64("size", s->size);
}

static void run_free(struct run *run)
{
	session_delete(run);
	if (run->nl.sk)
		tw_nl_close(&run->nl);
	free(run->rep);
	free(run->buf);
}

/* ---------------------------------------------------------------------- */
/* send */

struct send_opts {
	struct sess_opts s;	/* first: the shared argument tables say so */
	uint32_t count;
	struct tw_sched_spec sched;
	uint64_t start_in_us;
	uint32_t batch;
	uint64_t seed;
};

_Static_assert(offsetof(struct send_opts, s) == 0, "sess_opts must lead");

static int parse_schedule(void *dst, int argc, char **argv)
{
	char err[160];
	int n;

	n = tw_sched_parse(dst, argc, argv, err, sizeof(err));
	if (n < 0)
		tw_err("%s", err);
	return n;
}

static const struct tw_arg send_args[] = {
	{ .include = session_head_args },
	{ .name = "count", .type = TW_ARG_U32,
	  .off = offsetof(struct send_opts, count), .meta = "N",
	  .help = "packets to send (default 100, or every line of a file)",
	  .min = 1, .max = MAX_COUNT },
	{ .include = size_args },
	{ .name = "schedule", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct send_opts, sched),
	  .meta = "{ periodic ALPHA_US | poisson MEAN_US | gamma SHAPE MEAN_US | file PATH }",
	  .help = "when the packets are due, relative to the first",
	  .flags = TW_ARG_REQUIRED, .parse = parse_schedule },
	{ .name = "seed", .type = TW_ARG_U64,
	  .off = offsetof(struct send_opts, seed), .meta = "N",
	  .help = "seed of poisson and gamma schedules (default: from the clock)",
	  .max = UINT64_MAX },
	{ .name = "start-in", .type = TW_ARG_U64,
	  .off = offsetof(struct send_opts, start_in_us), .meta = "US",
	  .help = "first send time, microseconds from now (default 100000)",
	  .max = MAX_US },
	{ .name = "batch", .type = TW_ARG_U32,
	  .off = offsetof(struct send_opts, batch), .meta = "N",
	  .help = "packets per submit message (default: as many as fit in 64 KiB)",
	  .min = 1, .max = 65536 },
	{ .include = session_tail_args },
	{ .name = NULL },
};

static void send_init(void *p)
{
	struct send_opts *o = p;

	sess_init(&o->s);
	o->count = 100;
	o->start_in_us = DEFAULT_START_US;
}

static int submit_all(struct run *run, const uint64_t *offsets,
		      uint64_t start, size_t batch)
{
	struct tw_nl *nl = &run->nl;
	struct nlattr *nest;
	struct nl_msg *msg;
	size_t i, first, end;
	char what[96];
	int ret;

	for (first = 0; first < run->n && !interrupted; first = end) {
		end = first + batch < run->n ? first + batch : run->n;
		msg = session_msg(nl, OMWARE_CMD_SUBMIT, run->session,
				  msg_overhead() +
				  (end - first) * pkt_attr_size(run));
		if (!msg)
			goto nomem;
		for (i = first; i < end; i++) {
			uint64_t t = start + offsets[i];

			run->rep[i].sched_ns = t;
			if (put_pkt(run, msg, i, t, 0, &nest) ||
			    nla_put_u64(msg, OMWARE_PKT_A_TIME, t) < 0) {
				nlmsg_free(msg);
				goto nomem;
			}
			nla_nest_end(msg, nest);
		}
		ret = tw_nl_request(nl, msg, NULL, NULL);
		if (ret) {
			snprintf(what, sizeof(what),
				 "cannot submit packets %zu to %zu", first,
				 end - 1);
			return request_failed(nl, ret, what);
		}
		run->submitted = end;
	}
	return TW_EXIT_OK;
nomem:
	tw_err("out of memory building a message");
	return TW_EXIT_SYS;
}

static int send_run(void *p, uint64_t seen)
{
	struct send_opts *o = p;
	struct run run = { .args = send_args, .seen = seen };
	uint64_t *offsets = NULL, start, last = 0, seed;
	size_t i, batch;
	char err[256];
	long n;
	int ret;

	seed = tw_arg_given(send_args, seen, "seed") ? o->seed :
	       clock_now(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 32);
	n = tw_sched_build(&o->sched,
			   o->sched.kind == TW_SCHED_FILE &&
			   !tw_arg_given(send_args, seen, "count") ?
			   0 : o->count, seed, &offsets, err, sizeof(err));
	if (n < 0) {
		tw_err("%s", err);
		return TW_EXIT_FAIL;
	}
	if (n > MAX_COUNT) {
		tw_err("at most %d packets per run", MAX_COUNT);
		free(offsets);
		return TW_EXIT_FAIL;
	}
	for (i = 0; i < (size_t)n; i++)
		if (offsets[i] > last)
			last = offsets[i];

	ret = run_prepare(&run, &o->s);
	if (!ret)
		ret = run_alloc(&run, n);
	if (ret)
		goto out;
	batch = o->batch;
	if (!batch) {
		batch = (BATCH_BYTES - msg_overhead()) / pkt_attr_size(&run);
		if (!batch)
			batch = 1;
	}

	ret = session_create(&run);
	if (ret)
		goto out;
	catch_signals();
	start = clock_now(o->s.clock) + o->start_in_us * 1000;
	ret = submit_all(&run, offsets, start, batch);
	if (!ret || run.submitted)
		collect(&run, start + last + REPORT_GRACE_NS);
	if (interrupted)
		tw_warn("interrupted: pending packets were cancelled");

	if (run.submitted) {
		int r2;

		print_session_head(&run);
		print_string("schedule", tw_sched_name(o->sched.kind));
		if (o->sched.kind == TW_SCHED_POISSON ||
		    o->sched.kind == TW_SCHED_GAMMA)
			print_u64("seed", seed);
		print_nl();
		r2 = summarize(&run, 0);
		if (!ret)
			ret = r2;
	}
out:
	run_free(&run);
	free(offsets);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* train and pair */

struct train_opts {
	struct sess_opts s;	/* first: the shared argument tables say so */
	uint32_t count;
	uint32_t repeat;
	uint64_t gap_us;
	uint64_t at_us;
};

_Static_assert(offsetof(struct train_opts, s) == 0, "sess_opts must lead");

static void train_init(void *p)
{
	struct train_opts *o = p;

	sess_init(&o->s);
	o->count = 2;
	o->repeat = 1;
	o->gap_us = DEFAULT_GAP_US;
	o->at_us = DEFAULT_START_US;
}

static const struct tw_arg train_time_args[] = {
	{ .name = "at", .type = TW_ARG_U64,
	  .off = offsetof(struct train_opts, at_us), .meta = "US",
	  .help = "send time of the first train, microseconds from now (default 100000)",
	  .max = MAX_US },
	{ .name = NULL },
};

static const struct tw_arg train_gap_args[] = {
	{ .name = "gap", .type = TW_ARG_U64,
	  .off = offsetof(struct train_opts, gap_us), .meta = "US",
	  .help = "from the start of one train to the next (default 1000)",
	  .max = MAX_US },
	{ .name = NULL },
};

static const struct tw_arg train_args[] = {
	{ .include = session_head_args },
	{ .name = "count", .type = TW_ARG_U32,
	  .off = offsetof(struct train_opts, count), .meta = "N",
	  .help = "packets per train", .flags = TW_ARG_REQUIRED,
	  .min = 2, .max = TW_PROBE_INDEX_MAX + 1 },
	{ .include = size_args },
	{ .include = train_time_args },
	{ .name = "repeat", .type = TW_ARG_U32,
	  .off = offsetof(struct train_opts, repeat), .meta = "R",
	  .help = "number of trains (default 1)",
	  .min = 1, .max = MAX_COUNT },
	{ .include = train_gap_args },
	{ .include = session_tail_args },
	{ .name = NULL },
};

static const struct tw_arg pair_args[] = {
	{ .include = session_head_args },
	{ .name = "pairs", .type = TW_ARG_U32,
	  .off = offsetof(struct train_opts, repeat), .meta = "N",
	  .help = "number of pairs (default 1)",
	  .min = 1, .max = MAX_COUNT },
	{ .include = train_gap_args },
	{ .include = size_args },
	{ .include = train_time_args },
	{ .include = session_tail_args },
	{ .name = NULL },
};

static int train_submit(struct run *run, const struct train_opts *o,
			uint64_t start)
{
	struct tw_nl *nl = &run->nl;
	struct nl_msg *msg = NULL;
	struct nlattr *nest;
	uint32_t t, k, seq;
	uint64_t when;
	char what[64];
	int ret;

	for (t = 0; t < o->repeat && !interrupted; t++) {
		when = start + t * o->gap_us * 1000;
		msg = session_msg(nl, OMWARE_CMD_TRAIN, run->session,
				  msg_overhead() +
				  (size_t)o->count * pkt_attr_size(run));
		if (!msg || nla_put_u64(msg, OMWARE_A_TIME, when) < 0)
			goto nomem;
		for (k = 0; k < o->count; k++) {
			seq = t * o->count + k;
			run->rep[seq].sched_ns = when;
			if (put_pkt(run, msg, seq, when,
				    tw_probe_train_flags(k), &nest))
				goto nomem;
			nla_nest_end(msg, nest);
		}
		ret = tw_nl_request(nl, msg, NULL, NULL);
		msg = NULL;
		if (ret) {
			snprintf(what, sizeof(what), "cannot submit train %u",
				 t);
			return request_failed(nl, ret, what);
		}
		run->submitted += o->count;
	}
	return TW_EXIT_OK;
nomem:
	if (msg)
		nlmsg_free(msg);
	tw_err("out of memory building a message");
	return TW_EXIT_SYS;
}

static int train_common(struct train_opts *o, const struct tw_arg *args,
			uint64_t seen)
{
	struct run run = { .args = args, .seen = seen };
	uint64_t start, span;
	size_t n = (size_t)o->count * o->repeat;
	int ret;

	if (n > MAX_COUNT) {
		tw_err("at most %d packets per run", MAX_COUNT);
		return TW_EXIT_FAIL;
	}
	/* The compact probe numbers a train's packets in 14 bits. */
	if (o->s.size < 28 + TW_PROBE_LEN &&
	    o->count > TW_PROBE_COMPACT_INDEX_MAX + 1) {
		tw_err("a train of packets under %d bytes has at most %u packets",
		       28 + TW_PROBE_LEN, TW_PROBE_COMPACT_INDEX_MAX + 1);
		return TW_EXIT_FAIL;
	}
	if (o->gap_us && o->repeat - 1 > MAX_SPAN_US / o->gap_us) {
		tw_err("the trains would span more than a day");
		return TW_EXIT_FAIL;
	}
	span = (uint64_t)(o->repeat - 1) * o->gap_us * 1000;
	ret = run_prepare(&run, &o->s);
	if (!ret)
		ret = run_alloc(&run, n);
	if (!ret)
		ret = session_create(&run);
	if (ret)
		goto out;
	catch_signals();
	start = clock_now(o->s.clock) + o->at_us * 1000;
	ret = train_submit(&run, o, start);
	if (!ret || run.submitted)
		collect(&run, start + span + REPORT_GRACE_NS);
	if (interrupted)
		tw_warn("interrupted: pending packets were cancelled");

	if (run.submitted) {
		int r2;

		print_session_head(&run);
		print_u64("trains", o->repeat);
		print_u64("train_len", o->count);
		print_u64("gap_us", o->gap_us);
		print_nl();
		r2 = summarize(&run, o->count);
		if (!ret)
			ret = r2;
	}
out:
	run_free(&run);
	return ret;
}

static int train_run(void *p, uint64_t seen)
{
	return train_common(p, train_args, seen);
}

static int pair_run(void *p, uint64_t seen)
{
	struct train_opts *o = p;

	o->count = 2;
	return train_common(o, pair_args, seen);
}

/* ---------------------------------------------------------------------- */
/* show */

struct id_opts {
	uint32_t session;
	uint64_t cookie;
};

static void print_stats(struct nlattr *nest)
{
	struct nlattr *tb[OMWARE_STATS_A_MAX + 1];
	int i;

	if (!nest || nla_parse_nested(tb, OMWARE_STATS_A_MAX, nest,
				      stats_policy))
		return;
	open_object("stats");
	for (i = 0; i <= OMWARE_STATS_A_MAX; i++)
		if (tb[i] && stats_keys[i])
			print_u64(stats_keys[i], nla_get_u64(tb[i]));
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
	if (parse_reply(nlh, tb))
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

	if (parse_reply(nlh, tb))
		return -EPROTO;
	(*count)++;
	open_object(NULL);
	print_u32_attr(tb, OMWARE_A_SESSION_ID, "session");
	if (tb[OMWARE_A_IFNAME])
		print_string("dev", nla_get_string(tb[OMWARE_A_IFNAME]));
	print_u32_attr(tb, OMWARE_A_IFINDEX, "ifindex");
	if (tb[OMWARE_A_CLOCKID]) {
		w = word_of(clock_words, nla_get_u32(tb[OMWARE_A_CLOCKID]));
		if (w)
			print_string("clock", w);
		else
			print_u32_attr(tb, OMWARE_A_CLOCKID, "clock");
	}
	if (tb[OMWARE_A_MODE]) {
		w = word_of(mode_words, nla_get_u8(tb[OMWARE_A_MODE]));
		print_string("mode", w ? w : "unknown");
	}
	if (tb[OMWARE_A_XMIT]) {
		w = word_of(xmit_words, nla_get_u8(tb[OMWARE_A_XMIT]));
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
	bool one = tw_arg_given(show_args, seen, "session");
	unsigned int count = 0;
	struct nl_msg *msg;
	struct tw_nl nl;
	int ret;

	ret = omware_connect(&nl);
	if (ret)
		return ret;

	if (!one) {
		msg = tw_nl_new(&nl, OMWARE_CMD_STATS_GET, 0, 0);
		ret = msg ? tw_nl_request(&nl, msg, global_cb, NULL) : -ENOMEM;
		if (ret) {
			ret = request_failed(&nl, ret,
					     "cannot read the module statistics");
			goto out;
		}
		msg = tw_nl_new(&nl, OMWARE_CMD_SESSION_GET, NLM_F_DUMP, 0);
	} else {
		msg = session_msg(&nl, OMWARE_CMD_SESSION_GET, o->session, 0);
	}
	open_array("sessions");
	ret = msg ? tw_nl_request(&nl, msg, session_cb, &count) : -ENOMEM;
	close_array();
	if (ret) {
		ret = request_failed(&nl, ret, "cannot list the sessions");
		goto out;
	}
	if (!count)
		print_text("no sessions");
out:
	tw_nl_close(&nl);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* flush and cancel */

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

static int simple_request(uint8_t cmd, const struct id_opts *o,
			  bool cookie, const char *what)
{
	struct nl_msg *msg;
	struct tw_nl nl;
	int ret;

	ret = omware_connect(&nl);
	if (ret)
		return ret;
	msg = session_msg(&nl, cmd, o->session, 0);
	if (msg && cookie && nla_put_u64(msg, OMWARE_A_COOKIE, o->cookie) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	ret = msg ? tw_nl_request(&nl, msg, NULL, NULL) : -ENOMEM;
	if (ret)
		ret = request_failed(&nl, ret, what);
	tw_nl_close(&nl);
	return ret;
}

static int flush_run(void *p, uint64_t seen)
{
	(void)seen;
	return simple_request(OMWARE_CMD_FLUSH, p, false,
			      "cannot flush the session");
}

static int cancel_run(void *p, uint64_t seen)
{
	(void)seen;
	return simple_request(OMWARE_CMD_CANCEL, p, true,
			      "cannot cancel the packets");
}

/* ---------------------------------------------------------------------- */

static const char send_notes[] =
"The packets are IPv4/UDP probes (probe.h: magic, sequence number, scheduled\n"
"time, flags) numbered from 0; the number is also the packet's cookie.  All\n"
"are handed to the kernel ahead of time; the first is due start-in\n"
"microseconds from now, the others at their schedule offsets after it.  The\n"
"tool then waits for one report per packet and prints a summary.\n";

static const char train_notes[] =
"Each train of count packets leaves back-to-back at its time; train i is due\n"
"at + i * gap microseconds from now.  gap_ns in the summary is the spacing of\n"
"consecutive members of a train as reported by the kernel.\n";

static const char session_notes[] =
"Only the socket that created a session may change it, so for a session made\n"
"by another process the kernel refuses this; it is meant for owners and for\n"
"checking that refusal.\n";

static const struct tw_cmd omware_cmds[] = {
	{
		.name = "send",
		.help = "Send probe packets along a schedule and report each send time",
		.notes = send_notes,
		.args = send_args,
		.opts_size = sizeof(struct send_opts),
		.init = send_init,
		.run = send_run,
	},
	{
		.name = "train",
		.help = "Send trains of back-to-back packets",
		.notes = train_notes,
		.args = train_args,
		.opts_size = sizeof(struct train_opts),
		.init = train_init,
		.run = train_run,
	},
	{
		.name = "pair",
		.help = "Send packet pairs (trains of two)",
		.notes = train_notes,
		.args = pair_args,
		.opts_size = sizeof(struct train_opts),
		.init = train_init,
		.run = pair_run,
	},
	{
		.name = "show",
		.help = "Show module statistics and sessions",
		.args = show_args,
		.opts_size = sizeof(struct id_opts),
		.run = show_run,
	},
	{
		.name = "flush",
		.help = "Cancel every pending packet of a session",
		.notes = session_notes,
		.args = flush_args,
		.opts_size = sizeof(struct id_opts),
		.run = flush_run,
	},
	{
		.name = "cancel",
		.help = "Cancel the pending packets of a session carrying a cookie",
		.notes = session_notes,
		.args = cancel_args,
		.opts_size = sizeof(struct id_opts),
		.run = cancel_run,
	},
	OMWARE_BENCH_CMD,
	{ .name = NULL },
};

const struct tw_object omware_object = {
	.name = "omware",
	.help = "precise packet sending with the omware module",
	.cmds = omware_cmds,
	.dflt = "show",
};
