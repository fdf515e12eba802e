// SPDX-License-Identifier: GPL-2.0
/*
 * The "qaware" generic netlink family: what the module's schedulers
 * decided (include/uapi/linux/qaware.h).  The schedulers are the module's,
 * so every namespace may list them, but their counters are each
 * namespace's own (counters.c); the connections are their namespace's too
 * (stats.c lists them, with their own locking).  Nothing here changes
 * state.  The policies and the op table are generated from
 * Documentation/netlink/specs/qaware.yaml into netlink-gen.c.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <tw/genl.h>
#include <uapi/linux/qaware.h>
#include "internal.h"
#include "netlink-gen.h"

static struct genl_family qa_family;

/* @s with the counters of @net, the caller's namespace. */
static int qa_nl_fill_sched(struct sk_buff *msg, const struct qa_sched *s,
			    const struct net *net)
{
	if (nla_put_string(msg, QAWARE_A_SCHED, s->ops.name) ||
	    nla_put_u64_64bit(msg, QAWARE_A_DECISIONS,
			      qa_count_read(net, s, QA_DECISIONS),
			      QAWARE_A_PAD) ||
	    nla_put_u64_64bit(msg, QAWARE_A_REFUSALS,
			      qa_count_read(net, s, QA_REFUSALS),
			      QAWARE_A_PAD) ||
	    nla_put_u64_64bit(msg, QAWARE_A_WAITS,
			      qa_count_read(net, s, QA_WAITS), QAWARE_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static const struct qa_sched *qa_nl_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < qa_nr_scheds; i++)
		if (!strcmp(qa_scheds[i].ops.name, name))
			return &qa_scheds[i];
	return NULL;
}

int qaware_nl_sched_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[QAWARE_A_SCHED];
	const struct qa_sched *s;
	struct sk_buff *msg;
	void *hdr;

	if (GENL_REQ_ATTR_CHECK(info, QAWARE_A_SCHED)) {
		NL_SET_ERR_MSG_MOD(info->extack, "request lacks QAWARE_A_SCHED");
		return -EINVAL;
	}
	s = qa_nl_find(nla_data(attr));
	if (!s) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the module has no scheduler of this name");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &qa_family, 0, QAWARE_CMD_SCHED_GET);
	if (!hdr || qa_nl_fill_sched(msg, s, genl_info_net(info))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: the index of the next scheduler to send. */
int qaware_nl_sched_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	unsigned int i;
	void *hdr;

	for (i = cb->args[0]; i < qa_nr_scheds; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &qa_family, NLM_F_MULTI,
				  QAWARE_CMD_SCHED_GET);
		if (!hdr)
			break;
		if (qa_nl_fill_sched(skb, &qa_scheds[i],
				     sock_net(cb->skb->sk))) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
	return skb->len;
}

/* The spec's limits are the kernel's. */
static_assert(QAWARE_NAME_MAX_LEN + 1 == MPTCP_SCHED_NAME_MAX);
static_assert(sizeof(struct in6_addr) == QAWARE_IN6_ADDR_LEN);

static int qa_nl_put_addr(struct sk_buff *msg, int type4, int type6,
			  const struct in6_addr *addr)
{
	if (ipv6_addr_v4mapped(addr))
		return nla_put_in_addr(msg, type4, addr->s6_addr32[3]);
	return nla_put_in6_addr(msg, type6, addr);
}

static int qa_nl_put_flag(struct sk_buff *msg, int type, bool on)
{
	return on ? nla_put_flag(msg, type) : 0;
}

static int qa_nl_fill_queue(struct sk_buff *msg, const struct qa_sf_stats *sf)
{
	if (nla_put_u32(msg, QAWARE_SUBFLOW_A_IFINDEX, sf->queue.ifindex) ||
	    qa_nl_put_flag(msg, QAWARE_SUBFLOW_A_BQL, sf->queue.bql) ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_QUEUED_PKTS, sf->queued_pkts) ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_BQL_BYTES, sf->queue.bql_bytes) ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_QDISC_BYTES,
			sf->queue.qdisc_bytes) ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_UNSENT_BYTES, sf->unsent_bytes) ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_QUEUE_IFINDEX,
			sf->queue.queue_ifindex) ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_QUEUE_DEVS,
			sf->queue.queue_devs) ||
	    nla_put_u64_64bit(msg, QAWARE_SUBFLOW_A_SRTT_NS, sf->srtt_ns,
			      QAWARE_SUBFLOW_A_PAD) ||
	    nla_put_u64_64bit(msg, QAWARE_SUBFLOW_A_WAIT_NS, sf->wait_ns,
			      QAWARE_SUBFLOW_A_PAD) ||
	    nla_put_u64_64bit(msg, QAWARE_SUBFLOW_A_SERVICE_NS, sf->service_ns,
			      QAWARE_SUBFLOW_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int qa_nl_fill_subflow(struct sk_buff *msg, const struct qa_sf_stats *sf,
			      u32 index)
{
	struct nlattr *nest = nla_nest_start(msg, QAWARE_A_SUBFLOW);

	if (!nest ||
	    nla_put_u32(msg, QAWARE_SUBFLOW_A_INDEX, index) ||
	    qa_nl_put_addr(msg, QAWARE_SUBFLOW_A_SADDR4,
			   QAWARE_SUBFLOW_A_SADDR6, &sf->saddr) ||
	    qa_nl_put_addr(msg, QAWARE_SUBFLOW_A_DADDR4,
			   QAWARE_SUBFLOW_A_DADDR6, &sf->daddr) ||
	    nla_put_be16(msg, QAWARE_SUBFLOW_A_SPORT, sf->sport) ||
	    nla_put_be16(msg, QAWARE_SUBFLOW_A_DPORT, sf->dport) ||
	    qa_nl_put_flag(msg, QAWARE_SUBFLOW_A_BACKUP, sf->backup) ||
	    qa_nl_put_flag(msg, QAWARE_SUBFLOW_A_ACTIVE, sf->active) ||
	    nla_put_u64_64bit(msg, QAWARE_SUBFLOW_A_PICKS, sf->picks,
			      QAWARE_SUBFLOW_A_PAD) ||
	    qa_nl_fill_queue(msg, sf))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int qa_nl_fill_conn(struct sk_buff *msg, const struct qa_stats_snap *s)
{
	u32 i;

	if (nla_put_string(msg, QAWARE_A_SCHED, s->sched->ops.name) ||
	    nla_put_u32(msg, QAWARE_A_TOKEN, s->token) ||
	    nla_put_u64_64bit(msg, QAWARE_A_CALLS, s->calls, QAWARE_A_PAD) ||
	    nla_put_u64_64bit(msg, QAWARE_A_REFUSALS, s->refusals,
			      QAWARE_A_PAD))
		return -EMSGSIZE;
	for (i = 0; i < s->n; i++)
		if (qa_nl_fill_subflow(msg, &s->sf[i], i))
			return -EMSGSIZE;
	return 0;
}

/* The dump of connections may name a scheduler: cb->args[1] = its index + 1. */
int qaware_nl_conn_get_start(struct netlink_callback *cb)
{
	struct nlattr *attr = genl_info_dump(cb)->attrs[QAWARE_A_SCHED];
	const struct qa_sched *s;

	if (!attr)
		return 0;
	s = qa_nl_find(nla_data(attr));
	if (!s) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "the module has no scheduler of this name");
		return -ENOENT;
	}
	cb->args[1] = s - qa_scheds + 1;
	return 0;
}

/* One connection in one message; false if it did not fit. */
static bool qa_nl_put_conn(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct qa_stats_snap *snap)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, &qa_family, NLM_F_MULTI,
				QAWARE_CMD_CONN_GET);

	if (!hdr)
		return false;
	if (qa_nl_fill_conn(skb, snap)) {
		genlmsg_cancel(skb, hdr);
		return false;
	}
	genlmsg_end(skb, hdr);
	return true;
}

/*
 * cb->args[0]: the registry index to look at next.  A connection that
 * does not fit waits for the next skb; one that cannot fit an empty one
 * (16 subflows do) would end the dump early, so it fails it instead.
 */
int qaware_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct qa_sched *only = cb->args[1] ?
				      &qa_scheds[cb->args[1] - 1] : NULL;
	unsigned long index = cb->args[0];
	struct qa_stats_snap *snap;
	int ret;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	while ((ret = qa_stats_read(sock_net(skb->sk), &index, snap))) {
		if (ret == -EAGAIN) {
			cond_resched();
			continue;
		}
		if ((!only || snap->sched == only) &&
		    !qa_nl_put_conn(skb, cb, snap))
			break;
		index++;
	}
	kfree(snap);
	cb->args[0] = index;
	if (ret > 0 && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/* The handlers only read: no need for genl_mutex. */
static struct genl_family qa_family =
	TW_GENL_FAMILY(QAWARE_FAMILY_NAME, QAWARE_FAMILY_VERSION);

int qa_nl_init(void)
{
	return tw_genl_register(&qa_family, qaware_nl_ops);
}

void qa_nl_exit(void)
{
	tw_genl_unregister(&qa_family);
}
