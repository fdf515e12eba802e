// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/omware.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/omware.h>
#include <linux/time.h>
#include <linux/if_ether.h>

/* Integer value ranges */
static const struct netlink_range_validation omware_a_guard_max_ns_range = {
	.min	= OMWARE_GUARD_MIN_NS,
	.max	= OMWARE_GUARD_MAX_NS_LIMIT,
};

/* Common nested types */
const struct nla_policy omware_pkt_nl_policy[OMWARE_PKT_A_PROTO + 1] = {
	[OMWARE_PKT_A_TIME] = { .type = NLA_U64, },
	[OMWARE_PKT_A_COOKIE] = { .type = NLA_U64, },
	[OMWARE_PKT_A_FRAME] = NLA_POLICY_MIN_LEN(ETH_HLEN),
	[OMWARE_PKT_A_PAYLOAD] = NLA_POLICY_MIN_LEN(1),
	[OMWARE_PKT_A_DST_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[OMWARE_PKT_A_PROTO] = NLA_POLICY_MIN(NLA_BE16, ETH_P_802_3_MIN),
};

/* OMWARE_CMD_SESSION_NEW - do */
static const struct nla_policy omware_session_new_nl_policy[OMWARE_A_MAX_BYTES + 1] = {
	[OMWARE_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[OMWARE_A_CLOCKID] = NLA_POLICY_MAX(NLA_U32, CLOCK_TAI),
	[OMWARE_A_MODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[OMWARE_A_XMIT] = NLA_POLICY_MAX(NLA_U8, 1),
	[OMWARE_A_CPU] = { .type = NLA_U32, },
	[OMWARE_A_LATE_NS] = { .type = NLA_U32, },
	[OMWARE_A_GUARD_MAX_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &omware_a_guard_max_ns_range),
	[OMWARE_A_MAX_PKTS] = NLA_POLICY_MIN(NLA_U32, 1),
	[OMWARE_A_MAX_BYTES] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* OMWARE_CMD_SESSION_DEL - do */
static const struct nla_policy omware_session_del_nl_policy[OMWARE_A_SESSION_ID + 1] = {
	[OMWARE_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* OMWARE_CMD_SESSION_GET - do */
static const struct nla_policy omware_session_get_do_nl_policy[OMWARE_A_SESSION_ID + 1] = {
	[OMWARE_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* OMWARE_CMD_SESSION_GET - dump */
static const struct nla_policy omware_session_get_dump_nl_policy[OMWARE_A_PAD + 1] = {
};

/* OMWARE_CMD_SUBMIT - do */
static const struct nla_policy omware_submit_nl_policy[OMWARE_A_PKT + 1] = {
	[OMWARE_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[OMWARE_A_PKT] = NLA_POLICY_NESTED(omware_pkt_nl_policy),
};

/* OMWARE_CMD_TRAIN - do */
static const struct nla_policy omware_train_nl_policy[OMWARE_A_PKT + 1] = {
	[OMWARE_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[OMWARE_A_TIME] = { .type = NLA_U64, },
	[OMWARE_A_PKT] = NLA_POLICY_NESTED(omware_pkt_nl_policy),
};

/* OMWARE_CMD_CANCEL - do */
static const struct nla_policy omware_cancel_nl_policy[OMWARE_A_COOKIE + 1] = {
	[OMWARE_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[OMWARE_A_COOKIE] = { .type = NLA_U64, },
};

/* OMWARE_CMD_FLUSH - do */
static const struct nla_policy omware_flush_nl_policy[OMWARE_A_SESSION_ID + 1] = {
	[OMWARE_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* OMWARE_CMD_STATS_GET - do */
static const struct nla_policy omware_stats_get_nl_policy[OMWARE_A_PAD + 1] = {
};

/* Ops table for omware */
const struct genl_split_ops omware_nl_ops[9] = {
	{
		.cmd		= OMWARE_CMD_SESSION_NEW,
		.doit		= omware_nl_session_new_doit,
		.policy		= omware_session_new_nl_policy,
		.maxattr	= OMWARE_A_MAX_BYTES,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_SESSION_DEL,
		.doit		= omware_nl_session_del_doit,
		.policy		= omware_session_del_nl_policy,
		.maxattr	= OMWARE_A_SESSION_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_SESSION_GET,
		.doit		= omware_nl_session_get_doit,
		.policy		= omware_session_get_do_nl_policy,
		.maxattr	= OMWARE_A_SESSION_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_SESSION_GET,
		.dumpit		= omware_nl_session_get_dumpit,
		.policy		= omware_session_get_dump_nl_policy,
		.maxattr	= OMWARE_A_PAD,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= OMWARE_CMD_SUBMIT,
		.doit		= omware_nl_submit_doit,
		.policy		= omware_submit_nl_policy,
		.maxattr	= OMWARE_A_PKT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_TRAIN,
		.doit		= omware_nl_train_doit,
		.policy		= omware_train_nl_policy,
		.maxattr	= OMWARE_A_PKT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_CANCEL,
		.doit		= omware_nl_cancel_doit,
		.policy		= omware_cancel_nl_policy,
		.maxattr	= OMWARE_A_COOKIE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_FLUSH,
		.doit		= omware_nl_flush_doit,
		.policy		= omware_flush_nl_policy,
		.maxattr	= OMWARE_A_SESSION_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= OMWARE_CMD_STATS_GET,
		.doit		= omware_nl_stats_get_doit,
		.policy		= omware_stats_get_nl_policy,
		.maxattr	= OMWARE_A_PAD,
		.flags		= GENL_CMD_CAP_DO,
	},
};
