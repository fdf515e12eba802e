// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_qaware.c - valid qaware traffic for the netlink fuzzer: gets of
 * the module's schedulers, by name (theirs, and one it does not have) and
 * dumped, and dumps of the namespace's connections, of every scheduler or
 * of one by name.  Nothing a request does creates anything: an object is
 * one of the module's schedulers, its "pending" count the subflows it
 * picked, which no request may change, and the census after the run has
 * nothing to count.  Every netns sees the same schedulers (shared).  The module
 * needs addresses at load: the suite that runs this loads it ("timewire
 * qaware load"); the fuzzer skips the family when it is absent.
 */
/* struct ucred, which libnl-tiny's headers use */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/qaware.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "nlfuzz.h"

#define QA_MAX_SCHEDS	16

struct qa_conn {
	struct nl_sock *sk;
	int family;
};

struct qa_dump {
	uint64_t decisions[QA_MAX_SCHEDS];
	int n;
};

static void qa_close(struct qa_conn *k)
{
	nl_socket_free(k->sk);
	free(k);
}

static struct qa_conn *qa_open(void)
{
	struct qa_conn *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->sk = nl_socket_alloc();
	if (!k->sk || genl_connect(k->sk)) {
		qa_close(k);
		return NULL;
	}
	k->family = genl_ctrl_resolve(k->sk, QAWARE_FAMILY_NAME);
	if (k->family < 0) {
		qa_close(k);
		return NULL;
	}
	return k;
}

static int qa_dump_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[QAWARE_A_MAX + 1];
	struct qa_dump *d = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, QAWARE_A_MAX, NULL) ||
	    !tb[QAWARE_A_DECISIONS] || d->n >= QA_MAX_SCHEDS)
		return NL_STOP;
	d->decisions[d->n++] = nla_get_u64(tb[QAWARE_A_DECISIONS]);
	return NL_OK;
}

/* Every scheduler's decisions, in the module's order, on a fresh socket. */
static int qa_dump(struct qa_dump *d)
{
	struct qa_conn *k = qa_open();
	struct nl_msg *msg;
	int err = -ENOMEM;

	d->n = 0;
	if (!k)
		return -ENOENT;
	msg = nlmsg_alloc();
	if (msg && genlmsg_put(msg, NL_AUTO_PID, NL_AUTO_SEQ, k->family, 0,
			       NLM_F_DUMP, QAWARE_CMD_SCHED_GET,
			       QAWARE_FAMILY_VERSION)) {
		nl_socket_modify_cb(k->sk, NL_CB_VALID, NL_CB_CUSTOM,
				    qa_dump_cb, d);
		err = nl_send_auto_complete(k->sk, msg) < 0 ? -EIO :
		      nl_recvmsgs_default(k->sk) ? -EIO : 0;
	}
	nlmsg_free(msg);
	qa_close(k);
	return err;
}

static void *qa_start(const struct topo *t)
{
	(void)t;
	return qa_open();
}

static int qa_fd(void *conn)
{
	return nl_socket_get_fd(((struct qa_conn *)conn)->sk);
}

static void qa_stop(void *conn)
{
	qa_close(conn);
}

/* A scheduler's name as the request's attribute at the end of m. */
static void qa_put_sched(struct nlf_msg *m, const char *name)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->len);

	a->nla_type = QAWARE_A_SCHED;
	a->nla_len = NLA_HDRLEN + strlen(name) + 1;
	memcpy((char *)a + NLA_HDRLEN, name, strlen(name));
	m->len += NLA_ALIGN(a->nla_len);
}

/*
 * A scheduler by name (one of them unknown) or all of them, or the
 * connections, of every scheduler or of one by name.
 */
static int qa_valid(void *conn, struct nlf_msg *m)
{
	static const char *const names[] = { "rr", "minrtt", "qaware", "nosuch" };
	struct qa_conn *k = conn;
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	const char *name = names[rnd() % ARRAY_SIZE(names)];
	bool conns = !(rnd() % 3);
	bool dump = conns || !(rnd() % 3);

	memset(m->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + 16);
	nlh->nlmsg_type = k->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	g->cmd = conns ? QAWARE_CMD_CONN_GET : QAWARE_CMD_SCHED_GET;
	g->version = QAWARE_FAMILY_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	if (!dump || (conns && rnd() % 2))
		qa_put_sched(m, name);
	nlh->nlmsg_len = m->len;
	return 0;
}

static int qa_ids(void *conn, uint32_t *ids, int max)
{
	struct qa_dump d;
	int i;

	(void)conn;
	if (qa_dump(&d))
		return 0;
	for (i = 0; i < d.n && i < max; i++)
		ids[i] = i;
	return i;
}

static int qa_pending(uint32_t id, uint64_t *pkts)
{
	struct qa_dump d;
	int err = qa_dump(&d);

	*pkts = 0;
	if (err)
		return err;
	if (id >= (uint32_t)d.n)
		return -ENOENT;
	*pkts = d.decisions[id];
	return 0;
}

/* The schedulers are the module's, not the requests': nothing to count. */
static int qa_census(struct nlf_census *c)
{
	struct qa_dump d;

	memset(c, 0, sizeof(*c));
	return qa_dump(&d);
}

const struct nlf_recipe nlf_qaware = {
	.family = QAWARE_FAMILY_NAME,
	.module = "mptcp_qaware",
	.shared = true,
	.start = qa_start,
	.fd = qa_fd,
	.valid = qa_valid,
	.ids = qa_ids,
	.stop = qa_stop,
	.pending = qa_pending,
	.census = qa_census,
};
