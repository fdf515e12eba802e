// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tfib.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/tfib.h>
#include <linux/time.h>
#include <linux/if_ether.h>

/* Integer value ranges */
static const struct netlink_range_validation tfib_a_capacity_range = {
	.min	= 1ULL,
	.max	= TFIB_MAX_CAPACITY,
};

static const struct netlink_range_validation tfib_a_buckets_range = {
	.min	= 1ULL,
	.max	= TFIB_MAX_CAPACITY,
};

static const struct netlink_range_validation tfib_a_spares_range = {
	.min	= 1ULL,
	.max	= TFIB_MAX_CAPACITY,
};

static const struct netlink_range_validation tfib_a_control_ring_range = {
	.min	= 1ULL,
	.max	= TFIB_MAX_RING,
};

static const struct netlink_range_validation tfib_a_data_ring_range = {
	.min	= 1ULL,
	.max	= TFIB_MAX_RING,
};

/* TFIB_CMD_TABLE_NEW - do */
static const struct nla_policy tfib_table_new_nl_policy[TFIB_A_CLOCKID + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
	[TFIB_A_CAPACITY] = NLA_POLICY_FULL_RANGE(NLA_U32, &tfib_a_capacity_range),
	[TFIB_A_BUCKETS] = NLA_POLICY_FULL_RANGE(NLA_U32, &tfib_a_buckets_range),
	[TFIB_A_SYNC] = NLA_POLICY_MAX(NLA_U8, 3),
	[TFIB_A_PREFETCH] = { .type = NLA_FLAG, },
	[TFIB_A_SPARES] = NLA_POLICY_FULL_RANGE(NLA_U32, &tfib_a_spares_range),
	[TFIB_A_CLOCKID] = NLA_POLICY_MAX(NLA_U32, CLOCK_TAI),
};

/* TFIB_CMD_TABLE_DEL - do */
static const struct nla_policy tfib_table_del_nl_policy[TFIB_A_TABLE + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
};

/* TFIB_CMD_TABLE_GET - do */
static const struct nla_policy tfib_table_get_do_nl_policy[TFIB_A_TABLE + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
};

/* TFIB_CMD_TABLE_GET - dump */
static const struct nla_policy tfib_table_get_dump_nl_policy[TFIB_A_PAD + 1] = {
};

/* TFIB_CMD_ENTRY_SET - do */
static const struct nla_policy tfib_entry_set_nl_policy[TFIB_A_FORCE + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
	[TFIB_A_USER_ID] = { .type = NLA_U32, },
	[TFIB_A_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[TFIB_A_TS_NS] = { .type = NLA_U64, },
	[TFIB_A_SEQ] = { .type = NLA_U32, },
	[TFIB_A_FORCE] = { .type = NLA_FLAG, },
};

/* TFIB_CMD_ENTRY_GET - do */
static const struct nla_policy tfib_entry_get_do_nl_policy[TFIB_A_USER_ID + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
	[TFIB_A_USER_ID] = { .type = NLA_U32, },
};

/* TFIB_CMD_ENTRY_GET - dump */
static const struct nla_policy tfib_entry_get_dump_nl_policy[TFIB_A_TABLE + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
};

/* TFIB_CMD_ENTRY_DEL - do */
static const struct nla_policy tfib_entry_del_nl_policy[TFIB_A_USER_ID + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
	[TFIB_A_USER_ID] = { .type = NLA_U32, },
};

/* TFIB_CMD_BIND - do */
static const struct nla_policy tfib_bind_nl_policy[TFIB_A_CONTROL_SRC + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
	[TFIB_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[TFIB_A_FWD_MODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[TFIB_A_PICK] = NLA_POLICY_MAX(NLA_U8, 1),
	[TFIB_A_WORKERS] = NLA_POLICY_RANGE(NLA_U32, 1, TFIB_MAX_WORKERS),
	[TFIB_A_CONTROL_RING] = NLA_POLICY_FULL_RANGE(NLA_U32, &tfib_a_control_ring_range),
	[TFIB_A_DATA_RING] = NLA_POLICY_FULL_RANGE(NLA_U32, &tfib_a_data_ring_range),
	[TFIB_A_BURST] = NLA_POLICY_RANGE(NLA_U32, 1, TFIB_MAX_BURST),
	[TFIB_A_CONTROL_SRC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
};

/* TFIB_CMD_UNBIND - do */
static const struct nla_policy tfib_unbind_nl_policy[TFIB_A_TABLE + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
};

/* TFIB_CMD_STATS_GET - do */
static const struct nla_policy tfib_stats_get_do_nl_policy[TFIB_A_TABLE + 1] = {
	[TFIB_A_TABLE] = { .type = NLA_NUL_STRING, .len = TFIB_NAME_MAX_LEN, },
};

/* TFIB_CMD_STATS_GET - dump */
static const struct nla_policy tfib_stats_get_dump_nl_policy[TFIB_A_PAD + 1] = {
};

/* Ops table for tfib */
const struct genl_split_ops tfib_nl_ops[12] = {
	{
		.cmd		= TFIB_CMD_TABLE_NEW,
		.doit		= tfib_nl_table_new_doit,
		.policy		= tfib_table_new_nl_policy,
		.maxattr	= TFIB_A_CLOCKID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_TABLE_DEL,
		.doit		= tfib_nl_table_del_doit,
		.policy		= tfib_table_del_nl_policy,
		.maxattr	= TFIB_A_TABLE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_TABLE_GET,
		.doit		= tfib_nl_table_get_doit,
		.policy		= tfib_table_get_do_nl_policy,
		.maxattr	= TFIB_A_TABLE,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_TABLE_GET,
		.dumpit		= tfib_nl_table_get_dumpit,
		.policy		= tfib_table_get_dump_nl_policy,
		.maxattr	= TFIB_A_PAD,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= TFIB_CMD_ENTRY_SET,
		.doit		= tfib_nl_entry_set_doit,
		.policy		= tfib_entry_set_nl_policy,
		.maxattr	= TFIB_A_FORCE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_ENTRY_GET,
		.doit		= tfib_nl_entry_get_doit,
		.policy		= tfib_entry_get_do_nl_policy,
		.maxattr	= TFIB_A_USER_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_ENTRY_GET,
		.start		= tfib_nl_entry_get_start,
		.dumpit		= tfib_nl_entry_get_dumpit,
		.policy		= tfib_entry_get_dump_nl_policy,
		.maxattr	= TFIB_A_TABLE,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= TFIB_CMD_ENTRY_DEL,
		.doit		= tfib_nl_entry_del_doit,
		.policy		= tfib_entry_del_nl_policy,
		.maxattr	= TFIB_A_USER_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_BIND,
		.doit		= tfib_nl_bind_doit,
		.policy		= tfib_bind_nl_policy,
		.maxattr	= TFIB_A_CONTROL_SRC,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_UNBIND,
		.doit		= tfib_nl_unbind_doit,
		.policy		= tfib_unbind_nl_policy,
		.maxattr	= TFIB_A_TABLE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_STATS_GET,
		.doit		= tfib_nl_stats_get_doit,
		.policy		= tfib_stats_get_do_nl_policy,
		.maxattr	= TFIB_A_TABLE,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TFIB_CMD_STATS_GET,
		.dumpit		= tfib_nl_stats_get_dumpit,
		.policy		= tfib_stats_get_dump_nl_policy,
		.maxattr	= TFIB_A_PAD,
		.flags		= GENL_CMD_CAP_DUMP,
	},
};
