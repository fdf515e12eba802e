// SPDX-License-Identifier: GPL-2.0
/* The qaware client's requests (see client.h). */
#include <errno.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "client.h"

struct sched_reply {
	qaware_sched_fn fn;
	void *arg;
};

static int sched_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[QAWARE_A_MAX + 1];
	struct sched_reply *r = arg;
	struct qaware_sched s = { .decisions = 0 };

	if (genlmsg_parse(nlh, 0, tb, QAWARE_A_MAX, qaware_attr_policy) ||
	    !tb[QAWARE_A_SCHED] || !tb[QAWARE_A_DECISIONS])
		return -EPROTO;
	nla_strlcpy(s.name, tb[QAWARE_A_SCHED], sizeof(s.name));
	s.decisions = nla_get_u64(tb[QAWARE_A_DECISIONS]);
	return r->fn(&s, r->arg);
}

int qaware_sched_get(struct tw_nl *nl, const char *name, qaware_sched_fn fn,
		     void *arg)
{
	struct sched_reply r = { .fn = fn, .arg = arg };
	struct nl_msg *msg;

	msg = tw_nl_new(nl, QAWARE_CMD_SCHED_GET, name ? 0 : NLM_F_DUMP, 0);
	if (!msg)
		return -ENOMEM;
	if (name && nla_put_string(msg, QAWARE_A_SCHED, name) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return tw_nl_request(nl, msg, sched_cb, &r);
}
