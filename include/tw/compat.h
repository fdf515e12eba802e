/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the kernel interfaces newer than 6.1 that the modules use,
 * provided on the kernels that lack them, so that the sources use only the
 * current names.  Every shim is keyed to the release that brought its
 * interface; on that release and later the shim compiles to nothing.
 * This is the only place that tests the kernel version (core/compat.h
 * maps the core's interfaces onto the host, not onto older kernels).
 *
 * The generated netlink tables (netlink-gen.c) are compiled with this
 * header forced in (Kbuild), the other sources include it through their
 * module's private header or <tw/genl.h>.
 */
#ifndef _TW_KERNEL_COMPAT_H
#define _TW_KERNEL_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/inet_connection_sock.h>
#include <net/netlink.h>
#include <net/sock.h>

#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#error "timewire: Linux 6.1 or later needed"
#endif

/*
 * 6.2: split genetlink ops (struct genl_split_ops, genl_family.split_ops),
 * a separate entry for a command's do and dump with a policy each.  The
 * generated tables are split; 6.1 takes one struct genl_ops per command.
 * tw_genl_register() hands the table to the family as it registers it;
 * before 6.2 it builds the array of genl_ops from the table there: a
 * command's do and dump entries merge into one op, which keeps the larger
 * of their policies (the dump's are the do's or a part of them), and
 * only the permission flags (the GENL_CMD_CAP_* bits of a split op are
 * for the family's description, which 6.1 derives itself).
 */
#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
struct genl_split_ops {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	int (*start)(struct netlink_callback *cb);
	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
	int (*done)(struct netlink_callback *cb);
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 internal_flags;
	u8 flags;
	u8 validate;
};

/* The op of @cmd among the @n built, else the next free one. */
static inline struct genl_ops *tw_genl_op_slot(struct genl_ops *ops,
					       unsigned int n, u8 cmd)
{
	unsigned int i;

	for (i = 0; i < n && ops[i].cmd != cmd; i++)
		;
	return &ops[i];
}

static inline void tw_genl_op_merge(struct genl_ops *op,
				    const struct genl_split_ops *split)
{
	op->cmd = split->cmd;
	op->flags |= split->flags & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM);
	op->internal_flags |= split->internal_flags;
	op->validate |= split->validate;
	if (split->doit)
		op->doit = split->doit;
	if (split->dumpit) {
		op->start = split->start;
		op->dumpit = split->dumpit;
		op->done = split->done;
	}
	if (!op->policy || split->maxattr > op->maxattr) {
		op->policy = split->policy;
		op->maxattr = split->maxattr;
	}
}

static inline int tw_genl_register_split(struct genl_family *family,
					 const struct genl_split_ops *split,
					 unsigned int n_split)
{
	struct genl_ops *ops;
	unsigned int i, n = 0;
	int err;

	ops = kcalloc(n_split, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (i = 0; i < n_split; i++) {
		struct genl_ops *op = tw_genl_op_slot(ops, n, split[i].cmd);

		if (op == &ops[n])
			n++;
		tw_genl_op_merge(op, &split[i]);
	}
	family->ops = ops;
	family->n_ops = n;
	err = genl_register_family(family);
	if (err) {
		family->ops = NULL;
		kfree(ops);
	}
	return err;
}

static inline void tw_genl_unregister(struct genl_family *family)
{
	genl_unregister_family(family);
	kfree(family->ops);
	family->ops = NULL;
}

#else
static inline int tw_genl_register_split(struct genl_family *family,
					 const struct genl_split_ops *split,
					 unsigned int n_split)
{
	family->split_ops = split;
	family->n_split_ops = n_split;
	return genl_register_family(family);
}

#define tw_genl_unregister(family)	genl_unregister_family(family)
#endif

/* Registers @family with the split ops table @ops (an array). */
#define tw_genl_register(family, ops)					\
	tw_genl_register_split(family, ops, ARRAY_SIZE(ops))

/*
 * 6.2: formatted extack messages.  6.1's ack has no buffer to format
 * into: it carries the format itself; the arguments are still checked
 * against it.
 */
#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
#define NL_SET_ERR_MSG_FMT_MOD(extack, fmt, args...) do {		\
	no_printk(fmt, ##args);						\
	NL_SET_ERR_MSG_MOD(extack, fmt);				\
} while (0)
#endif
/* 6.4: NL_SET_ERR_MSG_ATTR_FMT, the formatted message naming an attribute. */
#if KERNEL_VERSION(6, 4, 0) > LINUX_VERSION_CODE
#define NL_SET_ERR_MSG_ATTR_FMT(extack, attr, fmt, args...) do {	\
	no_printk(fmt, ##args);						\
	NL_SET_ERR_MSG_ATTR(extack, attr, fmt);				\
} while (0)
#endif

/*
 * 6.3: a policy's range pointers are const, as the generated tables'
 * ranges are; the validation only ever read them.
 */
#if KERNEL_VERSION(6, 3, 0) > LINUX_VERSION_CODE
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}
#endif

/* 6.2: SKB_CONSUMED, the reason of an skb freed without a drop. */
#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
#define SKB_CONSUMED	SKB_NOT_DROPPED_YET
#endif

/* 6.5: netdev_get_by_index(), a reference with its tracker. */
#if KERNEL_VERSION(6, 5, 0) > LINUX_VERSION_CODE
static inline struct net_device *
netdev_get_by_index(struct net *net, int ifindex, netdevice_tracker *tracker,
		    gfp_t gfp)
{
	struct net_device *dev = dev_get_by_index(net, ifindex);

	if (dev)
		netdev_tracker_alloc(dev, tracker, gfp);
	return dev;
}
#endif

/*
 * 6.6: genl_info_dump(), a dump's request as a genl_info.  Before, the
 * info is built where the macro is used: use it at a function's top
 * level, whose block the built info lives as long as.
 */
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
static inline possible_net_t tw_genl_dump_net(struct netlink_callback *cb)
{
	possible_net_t pnet = {};

	write_pnet(&pnet, sock_net(cb->skb->sk));
	return pnet;
}

#define genl_info_dump(cb) (&(const struct genl_info) {			\
	.snd_seq = (cb)->nlh->nlmsg_seq,				\
	.snd_portid = NETLINK_CB((cb)->skb).portid,			\
	.nlhdr = (struct nlmsghdr *)(cb)->nlh,				\
	.genlhdr = nlmsg_data((cb)->nlh),				\
	.attrs = genl_dumpit_info(cb)->attrs,				\
	._net = tw_genl_dump_net(cb),					\
	.extack = (cb)->extack,						\
})
#endif

/*
 * A const genl_info: genl_info_net() takes one from 6.6,
 * GENL_REQ_ATTR_CHECK() from 6.9; before, both drop the const.
 */
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
#define genl_info_net(info)	read_pnet(&(info)->_net)
#endif
#if KERNEL_VERSION(6, 9, 0) > LINUX_VERSION_CODE
#undef GENL_REQ_ATTR_CHECK
#define GENL_REQ_ATTR_CHECK(info, attr) ({				\
	const struct genl_info *__info = (info);			\
									\
	NL_REQ_ATTR_CHECK(__info->extack, NULL, __info->attrs, (attr));	\
})
#endif

/* 6.6: __skb_queue_purge_reason(), freeing as consumed or dropped. */
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
static inline void __skb_queue_purge_reason(struct sk_buff_head *list,
					    enum skb_drop_reason reason)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list))) {
		if (reason == SKB_CONSUMED)
			consume_skb(skb);
		else
			kfree_skb_reason(skb, reason);
	}
}
#endif

/*
 * 6.9: strscpy() without a size copies into an array of its own size.
 * The inner strscpy is not expanded again: it calls the function.
 */
#if KERNEL_VERSION(6, 9, 0) > LINUX_VERSION_CODE
#define tw_strscpy_0(dst, src, ...)					\
	strscpy(dst, src, sizeof(dst) + __must_be_array(dst))
#define tw_strscpy_1(dst, src, size)	strscpy(dst, src, size)
#define strscpy(dst, src, ...)						\
	CONCATENATE(tw_strscpy_, COUNT_ARGS(__VA_ARGS__))(dst, src,	\
							   ##__VA_ARGS__)
#endif

/* 6.11: a delivery time names its clock (SKB_CLOCK_*), before a bool mono. */
#if KERNEL_VERSION(6, 11, 0) > LINUX_VERSION_CODE
#define SKB_CLOCK_REALTIME	false
#define SKB_CLOCK_MONOTONIC	true
#endif

/* 6.12: the unaligned accessors moved to linux/, from asm/. */
#if KERNEL_VERSION(6, 12, 0) > LINUX_VERSION_CODE
#include <asm/unaligned.h>
#else
#include <linux/unaligned.h>
#endif

/* 6.13 added hrtimer_setup(); 6.15 removed hrtimer_init(). */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*fn)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
}
#endif

/*
 * MPTCP packet schedulers (mptcp_qaware).  6.15 split the one callback
 * get_subflow(msk, data), whose data->reinject told a retransmission from
 * new data, into get_send(msk, data) and get_retrans(msk, data), called
 * with data NULL; 6.16 dropped that argument and struct mptcp_sched_data.
 * A scheduler is written as 6.16 has it, an int (*)(struct mptcp_sock *)
 * for each: TW_MPTCP_SCHED_GLUE(send, retrans); at file scope defines
 * what this kernel's ops call instead, TW_MPTCP_SCHED_CALLS(send,
 * retrans) fills the ops with it.  Macros, so that struct
 * mptcp_sched_data is named only where a scheduler is built.
 * tw_mptcp_sched_send(ops) is the callback for new data of a registered
 * ops, TW_MPTCP_SCHED_DEFAULT_SEND the name the kernel's own has.
 */
#define tw_mptcp_sched_shape(send, retrans)				\
	static_assert(__same_type(&(send), &(retrans)) &&		\
		      __same_type(&(send), (int (*)(struct mptcp_sock *))NULL))
#if KERNEL_VERSION(6, 15, 0) > LINUX_VERSION_CODE
#define TW_MPTCP_SCHED_GLUE(send, retrans)				\
static int send##_or_##retrans(struct mptcp_sock *msk,			\
			       struct mptcp_sched_data *data)		\
{									\
	return data->reinject ? retrans(msk) : send(msk);		\
}									\
tw_mptcp_sched_shape(send, retrans)
#define TW_MPTCP_SCHED_CALLS(send, retrans)				\
	.get_subflow = send##_or_##retrans
#define tw_mptcp_sched_send(ops)	((ops)->get_subflow)
#define TW_MPTCP_SCHED_DEFAULT_SEND	"mptcp_sched_default_get_subflow"
#else
#if KERNEL_VERSION(6, 16, 0) > LINUX_VERSION_CODE
#define TW_MPTCP_SCHED_GLUE(send, retrans)				\
static int send##_data(struct mptcp_sock *msk,				\
		       struct mptcp_sched_data *unused)			\
{									\
	return send(msk);						\
}									\
static int retrans##_data(struct mptcp_sock *msk,			\
			  struct mptcp_sched_data *unused)		\
{									\
	return retrans(msk);						\
}									\
tw_mptcp_sched_shape(send, retrans)
#define TW_MPTCP_SCHED_CALLS(send, retrans)				\
	.get_send = send##_data, .get_retrans = retrans##_data
#else
#define TW_MPTCP_SCHED_GLUE(send, retrans)	tw_mptcp_sched_shape(send, retrans)
#define TW_MPTCP_SCHED_CALLS(send, retrans)				\
	.get_send = send, .get_retrans = retrans
#endif
#define tw_mptcp_sched_send(ops)	((ops)->get_send)
#define TW_MPTCP_SCHED_DEFAULT_SEND	"mptcp_sched_default_get_send"
#endif

/*
 * 6.19: tcp_timeout_expires(), when a TCP socket's pending retransmission
 * timer (icsk_pending) fires.  6.15 dropped icsk_timeout, the copy of it
 * kept before, for the timer's own expiry; 6.19 moved that timer into
 * struct sock.
 */
#if KERNEL_VERSION(6, 15, 0) > LINUX_VERSION_CODE
static inline unsigned long tcp_timeout_expires(const struct sock *sk)
{
	return READ_ONCE(inet_csk(sk)->icsk_timeout);
}
#elif KERNEL_VERSION(6, 19, 0) > LINUX_VERSION_CODE
static inline unsigned long tcp_timeout_expires(const struct sock *sk)
{
	return READ_ONCE(inet_csk(sk)->icsk_retransmit_timer.expires);
}
#endif

/*
 * 6.5 and 6.6: struct_size_t() (the size of a struct with its flexible
 * array, from the type) and __counted_by (the array's bound for the
 * checkers).  6.1's stable releases brought both in at 6.1.1xx: tested
 * by name, as Debian's mipsel 6.1.176 lacks them and its amd64 6.1.192
 * has them.
 */
#ifndef struct_size_t
#define struct_size_t(type, member, count)				\
	struct_size((type *)NULL, member, count)
#endif
#ifndef __counted_by
#define __counted_by(...)
#endif

/*
 * A device's registration state, read without RTNL.  It became a u8 that
 * writers publish with WRITE_ONCE(); 6.1's stable releases followed after
 * 6.1.176 (Debian's mipsel kernel keeps the bit-field, which READ_ONCE()
 * cannot take; its amd64 6.1.192 has the u8).  With no version to key it
 * to, the read is marked racy on every kernel.
 */
static inline u8 tw_dev_reg_state(const struct net_device *dev)
{
	/* callers act only on a state the device's notifier confirms */
	return data_race(dev->reg_state);
}

#endif /* _TW_KERNEL_COMPAT_H */
