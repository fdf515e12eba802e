/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/qaware.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_QAWARE_GEN_H
#define _LINUX_QAWARE_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/qaware.h>

#define QAWARE_IN6_ADDR_LEN	16

/* Ops table for qaware */
extern const struct genl_split_ops qaware_nl_ops[3];

int qaware_nl_conn_get_start(struct netlink_callback *cb);

int qaware_nl_sched_get_doit(struct sk_buff *skb, struct genl_info *info);
int qaware_nl_sched_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int qaware_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _LINUX_QAWARE_GEN_H */
