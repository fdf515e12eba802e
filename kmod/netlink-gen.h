/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tfib.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_TFIB_GEN_H
#define _LINUX_TFIB_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/tfib.h>
#include <linux/time.h>
#include <linux/if_ether.h>

/* Ops table for tfib */
extern const struct genl_split_ops tfib_nl_ops[12];

int tfib_nl_entry_get_start(struct netlink_callback *cb);

int tfib_nl_table_new_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_table_del_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_table_get_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_table_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tfib_nl_entry_set_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_entry_get_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_entry_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tfib_nl_entry_del_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_bind_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_unbind_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int tfib_nl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _LINUX_TFIB_GEN_H */
