/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/omware.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_OMWARE_GEN_H
#define _LINUX_OMWARE_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/omware.h>
#include <linux/time.h>
#include <linux/if_ether.h>

/* Common nested types */
extern const struct nla_policy omware_pkt_nl_policy[OMWARE_PKT_A_PROTO + 1];

/* Ops table for omware */
extern const struct genl_split_ops omware_nl_ops[9];

int omware_nl_session_new_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_session_del_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_session_get_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_session_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int omware_nl_submit_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_train_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_cancel_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_flush_doit(struct sk_buff *skb, struct genl_info *info);
int omware_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _LINUX_OMWARE_GEN_H */
