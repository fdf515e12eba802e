// SPDX-License-Identifier: GPL-2.0
/*
 * The "qaware" generic netlink family: what the module's schedulers
 * decided (include/uapi/linux/qaware.h).  The schedulers are the module's,
 * not a namespace's, so every namespace may read them; nothing here
 * changes state, so no handler needs a lock.
 */
#include <linux/string.h>
#include <net/genetlink.h>
#include <uapi/linux/qaware.h>
#include "qaware.h"

static struct genl_family qa_family;

static const struct nla_policy qa_sched_policy[QAWARE_A_SCHED + 1] = {
	[QAWARE_A_SCHED] = { .type = NLA_NUL_STRING, .len = QAWARE_NAME_LEN - 1 },
};

/* The dump takes no attribute: every one is rejected. */
static const struct nla_policy qa_none_policy[QAWARE_A_MAX + 1];

static int qa_nl_fill_sched(struct sk_buff *msg, const struct qa_sched *s)
{
	if (nla_put_string(msg, QAWARE_A_SCHED, s->ops.name) ||
	    nla_put_u64_64bit(msg, QAWARE_A_DECISIONS, qa_sched_decisions(s),
			      QAWARE_A_PAD))
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

static int qa_nl_sched_get(struct sk_buff *skb, struct genl_info *info)
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
	if (!hdr || qa_nl_fill_sched(msg, s)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: the index of the next scheduler to send. */
static int qa_nl_sched_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i;
	void *hdr;

	for (i = cb->args[0]; i < qa_nr_scheds; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &qa_family, NLM_F_MULTI,
				  QAWARE_CMD_SCHED_GET);
		if (!hdr)
			break;
		if (qa_nl_fill_sched(skb, &qa_scheds[i])) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
	return skb->len;
}

/* Split ops: the dump takes other attributes than the do. */
static const struct genl_split_ops qa_nl_ops[] = {
	{
		.cmd = QAWARE_CMD_SCHED_GET,
		.doit = qa_nl_sched_get,
		.policy = qa_sched_policy,
		.maxattr = ARRAY_SIZE(qa_sched_policy) - 1,
		.flags = GENL_CMD_CAP_DO,
	},
	{
		.cmd = QAWARE_CMD_SCHED_GET,
		.dumpit = qa_nl_sched_dump,
		.policy = qa_none_policy,
		.maxattr = ARRAY_SIZE(qa_none_policy) - 1,
		.flags = GENL_CMD_CAP_DUMP,
	},
};

static struct genl_family qa_family = {
	.name = QAWARE_FAMILY_NAME,
	.version = QAWARE_FAMILY_VERSION,
	.netnsok = true,
	/* The handlers only read counters: no need for genl_mutex. */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.split_ops = qa_nl_ops,
	.n_split_ops = ARRAY_SIZE(qa_nl_ops),
	/* resv_start_op left 0: header and flags are checked for every command. */
};

int qa_nl_init(void)
{
	return genl_register_family(&qa_family);
}

void qa_nl_exit(void)
{
	genl_unregister_family(&qa_family);
}
