// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/qaware.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/qaware.h>

/* QAWARE_CMD_SCHED_GET - do */
static const struct nla_policy qaware_sched_get_do_nl_policy[QAWARE_A_SCHED + 1] = {
	[QAWARE_A_SCHED] = { .type = NLA_NUL_STRING, .len = QAWARE_NAME_MAX_LEN, },
};

/* QAWARE_CMD_SCHED_GET - dump */
static const struct nla_policy qaware_sched_get_dump_nl_policy[QAWARE_A_PAD + 1] = {
};

/* QAWARE_CMD_CONN_GET - dump */
static const struct nla_policy qaware_conn_get_nl_policy[QAWARE_A_SCHED + 1] = {
	[QAWARE_A_SCHED] = { .type = NLA_NUL_STRING, .len = QAWARE_NAME_MAX_LEN, },
};

/* Ops table for qaware */
const struct genl_split_ops qaware_nl_ops[3] = {
	{
		.cmd		= QAWARE_CMD_SCHED_GET,
		.doit		= qaware_nl_sched_get_doit,
		.policy		= qaware_sched_get_do_nl_policy,
		.maxattr	= QAWARE_A_SCHED,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= QAWARE_CMD_SCHED_GET,
		.dumpit		= qaware_nl_sched_get_dumpit,
		.policy		= qaware_sched_get_dump_nl_policy,
		.maxattr	= QAWARE_A_PAD,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= QAWARE_CMD_CONN_GET,
		.start		= qaware_nl_conn_get_start,
		.dumpit		= qaware_nl_conn_get_dumpit,
		.policy		= qaware_conn_get_nl_policy,
		.maxattr	= QAWARE_A_SCHED,
		.flags		= GENL_CMD_CAP_DUMP,
	},
};
