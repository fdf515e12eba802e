// SPDX-License-Identifier: GPL-2.0
/*
 * Tables of the omware family (see attrs.h).
 */
#include "attrs.h"

static const char *const omware_pkt_names[OMWARE_PKT_A_MAX + 1] = {
	[OMWARE_PKT_A_PAD] = "OMWARE_PKT_A_PAD",
	[OMWARE_PKT_A_TIME] = "OMWARE_PKT_A_TIME",
	[OMWARE_PKT_A_COOKIE] = "OMWARE_PKT_A_COOKIE",
	[OMWARE_PKT_A_FRAME] = "OMWARE_PKT_A_FRAME",
	[OMWARE_PKT_A_PAYLOAD] = "OMWARE_PKT_A_PAYLOAD",
	[OMWARE_PKT_A_DST_MAC] = "OMWARE_PKT_A_DST_MAC",
	[OMWARE_PKT_A_PROTO] = "OMWARE_PKT_A_PROTO",
};

static const char *const omware_report_names[OMWARE_REPORT_A_MAX + 1] = {
	[OMWARE_REPORT_A_PAD] = "OMWARE_REPORT_A_PAD",
	[OMWARE_REPORT_A_COOKIE] = "OMWARE_REPORT_A_COOKIE",
	[OMWARE_REPORT_A_SCHED_NS] = "OMWARE_REPORT_A_SCHED_NS",
	[OMWARE_REPORT_A_SENT_NS] = "OMWARE_REPORT_A_SENT_NS",
	[OMWARE_REPORT_A_LATE_NS] = "OMWARE_REPORT_A_LATE_NS",
	[OMWARE_REPORT_A_STATUS] = "OMWARE_REPORT_A_STATUS",
	[OMWARE_REPORT_A_RC] = "OMWARE_REPORT_A_RC",
};

static const char *const omware_stats_names[OMWARE_STATS_A_MAX + 1] = {
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

static const char *const omware_attr_names[OMWARE_A_MAX + 1] = {
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

static const struct tw_attr_set omware_pkt_set = {
	.names = omware_pkt_names,
	.max = OMWARE_PKT_A_MAX,
};

static const struct tw_attr_set omware_report_set = {
	.names = omware_report_names,
	.max = OMWARE_REPORT_A_MAX,
};

static const struct tw_attr_set omware_stats_set = {
	.names = omware_stats_names,
	.max = OMWARE_STATS_A_MAX,
};

static const struct tw_attr_set *const omware_attr_nests[OMWARE_A_MAX + 1] = {
	[OMWARE_A_PKT] = &omware_pkt_set,
	[OMWARE_A_REPORT] = &omware_report_set,
	[OMWARE_A_STATS] = &omware_stats_set,
};

const struct tw_attr_set omware_attr_set = {
	.names = omware_attr_names,
	.max = OMWARE_A_MAX,
	.nests = omware_attr_nests,
};

struct nla_policy omware_attr_policy[OMWARE_A_MAX + 1] = {
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

struct nla_policy omware_pkt_policy[OMWARE_PKT_A_MAX + 1] = {
	[OMWARE_PKT_A_TIME]		= { .type = NLA_U64 },
	[OMWARE_PKT_A_COOKIE]		= { .type = NLA_U64 },
	[OMWARE_PKT_A_FRAME]		= { .type = NLA_UNSPEC },
	[OMWARE_PKT_A_PAYLOAD]		= { .type = NLA_UNSPEC },
	[OMWARE_PKT_A_DST_MAC]		= { .type = NLA_UNSPEC, .minlen = 6 },
	[OMWARE_PKT_A_PROTO]		= { .type = NLA_U16 },
};

struct nla_policy omware_report_policy[OMWARE_REPORT_A_MAX + 1] = {
	[OMWARE_REPORT_A_COOKIE]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_SCHED_NS]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_SENT_NS]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_LATE_NS]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_STATUS]	= { .type = NLA_U8 },
	[OMWARE_REPORT_A_RC]		= { .type = NLA_U32 },
};

struct nla_policy omware_stats_policy[OMWARE_STATS_A_MAX + 1] = {
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

const char *const omware_stats_keys[OMWARE_STATS_A_MAX + 1] = {
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

const struct tw_keyword omware_mode_words[] = {
	{ "timer", OMWARE_MODE_TIMER },
	{ "hybrid", OMWARE_MODE_HYBRID },
	{ NULL, 0 },
};

const struct tw_keyword omware_xmit_words[] = {
	{ "direct", OMWARE_XMIT_DIRECT },
	{ "qdisc", OMWARE_XMIT_QDISC },
	{ NULL, 0 },
};

const struct tw_keyword omware_status_words[] = {
	{ "sent", OMWARE_STATUS_SENT },
	{ "dropped", OMWARE_STATUS_DROPPED },
	{ "cancelled", OMWARE_STATUS_CANCELLED },
	{ NULL, 0 },
};
