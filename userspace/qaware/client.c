// SPDX-License-Identifier: GPL-2.0
/* The qaware client's requests (see client.h). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "client.h"

/* The caller's function for each reply, by the command asked. */
struct reply {
	union {
		qaware_sched_fn sched;
		qaware_conn_fn conn;
	} fn;
	void *arg;
};

/* A u64 the module may not send (an older one): 0 then. */
static uint64_t get_u64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static int sched_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[QAWARE_A_MAX + 1];
	struct reply *r = arg;
	struct qaware_sched s = { .decisions = 0 };

	if (genlmsg_parse(nlh, 0, tb, QAWARE_A_MAX, qaware_attr_policy) ||
	    !tb[QAWARE_A_SCHED] || !tb[QAWARE_A_DECISIONS])
		return -EPROTO;
	nla_strlcpy(s.name, tb[QAWARE_A_SCHED], sizeof(s.name));
	s.decisions = nla_get_u64(tb[QAWARE_A_DECISIONS]);
	s.refusals = get_u64(tb[QAWARE_A_REFUSALS]);
	s.waits = get_u64(tb[QAWARE_A_WAITS]);
	return r->fn.sched(&s, r->arg);
}

/* An address pair of either family; false if none or malformed. */
static bool parse_addrs(struct nlattr **tb, struct qaware_subflow *sf)
{
	if (tb[QAWARE_SUBFLOW_A_SADDR4] && tb[QAWARE_SUBFLOW_A_DADDR4]) {
		sf->family = AF_INET;
		nla_memcpy(&sf->saddr, tb[QAWARE_SUBFLOW_A_SADDR4], 4);
		nla_memcpy(&sf->daddr, tb[QAWARE_SUBFLOW_A_DADDR4], 4);
		return true;
	}
	if (!tb[QAWARE_SUBFLOW_A_SADDR6] || !tb[QAWARE_SUBFLOW_A_DADDR6] ||
	    nla_len(tb[QAWARE_SUBFLOW_A_SADDR6]) != sizeof(sf->saddr) ||
	    nla_len(tb[QAWARE_SUBFLOW_A_DADDR6]) != sizeof(sf->daddr))
		return false;
	sf->family = AF_INET6;
	nla_memcpy(&sf->saddr, tb[QAWARE_SUBFLOW_A_SADDR6], sizeof(sf->saddr));
	nla_memcpy(&sf->daddr, tb[QAWARE_SUBFLOW_A_DADDR6], sizeof(sf->daddr));
	return true;
}

static uint32_t get_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static int parse_subflow(struct nlattr *nest, struct qaware_subflow *sf)
{
	struct nlattr *tb[QAWARE_SUBFLOW_A_MAX + 1];

	memset(sf, 0, sizeof(*sf));
	if (nla_parse_nested(tb, QAWARE_SUBFLOW_A_MAX, nest,
			     qaware_subflow_policy) ||
	    !tb[QAWARE_SUBFLOW_A_INDEX] || !tb[QAWARE_SUBFLOW_A_PICKS] ||
	    !tb[QAWARE_SUBFLOW_A_SPORT] || !tb[QAWARE_SUBFLOW_A_DPORT] ||
	    !parse_addrs(tb, sf))
		return -EPROTO;
	sf->index = nla_get_u32(tb[QAWARE_SUBFLOW_A_INDEX]);
	sf->sport = ntohs(nla_get_u16(tb[QAWARE_SUBFLOW_A_SPORT]));
	sf->dport = ntohs(nla_get_u16(tb[QAWARE_SUBFLOW_A_DPORT]));
	sf->ifindex = get_u32(tb[QAWARE_SUBFLOW_A_IFINDEX]);
	sf->queue_ifindex = get_u32(tb[QAWARE_SUBFLOW_A_QUEUE_IFINDEX]);
	sf->queue_devs = get_u32(tb[QAWARE_SUBFLOW_A_QUEUE_DEVS]);
	sf->bql = tb[QAWARE_SUBFLOW_A_BQL];
	sf->backup = tb[QAWARE_SUBFLOW_A_BACKUP];
	sf->active = tb[QAWARE_SUBFLOW_A_ACTIVE];
	sf->picks = nla_get_u64(tb[QAWARE_SUBFLOW_A_PICKS]);
	sf->queued_pkts = get_u32(tb[QAWARE_SUBFLOW_A_QUEUED_PKTS]);
	sf->bql_bytes = get_u32(tb[QAWARE_SUBFLOW_A_BQL_BYTES]);
	sf->qdisc_bytes = get_u32(tb[QAWARE_SUBFLOW_A_QDISC_BYTES]);
	sf->unsent_bytes = get_u32(tb[QAWARE_SUBFLOW_A_UNSENT_BYTES]);
	sf->srtt_ns = get_u64(tb[QAWARE_SUBFLOW_A_SRTT_NS]);
	sf->wait_ns = get_u64(tb[QAWARE_SUBFLOW_A_WAIT_NS]);
	sf->service_ns = get_u64(tb[QAWARE_SUBFLOW_A_SERVICE_NS]);
	return 0;
}

/* Every QAWARE_A_SUBFLOW of the message, in order. */
static int parse_subflows(struct nlmsghdr *nlh, struct qaware_conn *c)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *a;
	int rem, err;

	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != QAWARE_A_SUBFLOW)
			continue;
		if (c->n == QAWARE_SUBFLOWS_MAX)
			return -EPROTO;
		err = parse_subflow(a, &c->sf[c->n++]);
		if (err)
			return err;
	}
	return 0;
}

static int conn_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[QAWARE_A_MAX + 1];
	struct reply *r = arg;
	struct qaware_conn c;
	int err;

	memset(&c, 0, sizeof(c));
	if (genlmsg_parse(nlh, 0, tb, QAWARE_A_MAX, qaware_attr_policy) ||
	    !tb[QAWARE_A_SCHED] || !tb[QAWARE_A_TOKEN])
		return -EPROTO;
	nla_strlcpy(c.sched, tb[QAWARE_A_SCHED], sizeof(c.sched));
	c.token = nla_get_u32(tb[QAWARE_A_TOKEN]);
	c.calls = get_u64(tb[QAWARE_A_CALLS]);
	c.refusals = get_u64(tb[QAWARE_A_REFUSALS]);
	err = parse_subflows(nlh, &c);
	if (err)
		return err;
	return r->fn.conn(&c, r->arg);
}

/* A get of cmd, naming the scheduler name (NULL: none), dumped if asked. */
static int qaware_get(struct tw_nl *nl, uint8_t cmd, bool dump,
		      const char *name, tw_nl_handler_t cb, struct reply *r)
{
	struct nl_msg *msg;

	msg = tw_nl_new(nl, cmd, dump ? NLM_F_DUMP : 0, 0);
	if (!msg)
		return -ENOMEM;
	if (name && nla_put_string(msg, QAWARE_A_SCHED, name) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return tw_nl_request(nl, msg, cb, r);
}

int qaware_sched_get(struct tw_nl *nl, const char *name, qaware_sched_fn fn,
		     void *arg)
{
	struct reply r = { .fn.sched = fn, .arg = arg };

	return qaware_get(nl, QAWARE_CMD_SCHED_GET, !name, name, sched_cb, &r);
}

int qaware_conn_get(struct tw_nl *nl, const char *sched, qaware_conn_fn fn,
		    void *arg)
{
	struct reply r = { .fn.conn = fn, .arg = arg };

	return qaware_get(nl, QAWARE_CMD_CONN_GET, true, sched, conn_cb, &r);
}
