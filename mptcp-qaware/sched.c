// SPDX-License-Identifier: GPL-2.0
/*
 * The schedulers' glue: what the kernel hands a scheduler (an mptcp_sock and
 * its subflows) becomes a qa_view of plain values, a policy picks from it,
 * and the pick is written back as the subflow's "scheduled" flag.
 *
 * The policies here (round-robin, minimum RTT) are small stand-ins: they
 * will call the portable core (core/qaware), which also brings qaware,
 * redundant, ecf and blest, through the same qa_pick_fn boundary.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/tcp.h>
#include "protocol.h"
#include "qaware_layout.h"
#include "qaware.h"

/*
 * Per-connection state: 6.12's mptcp_sock has no room for a scheduler's
 * own, so it lives here, keyed by the socket.  init() may run in softirq
 * (a passive socket is created there): GFP_ATOMIC, _bh locking.
 */
struct qa_conn {
	struct hlist_node node;
	const struct mptcp_sock *msk;
	const struct mptcp_subflow_context *last;	/* compared, never read */
	struct rcu_head rcu;
};

static DEFINE_HASHTABLE(qa_conns, 8);
static DEFINE_SPINLOCK(qa_conns_lock);

/* Caller holds rcu_read_lock() or qa_conns_lock. */
static struct qa_conn *qa_conn_find(const struct mptcp_sock *msk)
{
	struct qa_conn *conn;

	hash_for_each_possible_rcu(qa_conns, conn, node, (unsigned long)msk)
		if (conn->msk == msk)
			return conn;
	return NULL;
}

void qa_conn_init(struct mptcp_sock *msk)
{
	struct qa_conn *conn = kzalloc(sizeof(*conn), GFP_ATOMIC);

	/* Without state the policies still work: they lose only "last". */
	if (!conn)
		return;
	conn->msk = msk;
	spin_lock_bh(&qa_conns_lock);
	hash_add_rcu(qa_conns, &conn->node, (unsigned long)msk);
	spin_unlock_bh(&qa_conns_lock);
}

void qa_conn_release(struct mptcp_sock *msk)
{
	struct qa_conn *conn;

	spin_lock_bh(&qa_conns_lock);
	conn = qa_conn_find(msk);
	if (conn)
		hash_del_rcu(&conn->node);
	spin_unlock_bh(&qa_conns_lock);
	if (conn)
		kfree_rcu(conn, rcu);
}

/*
 * A stale subflow (no ACK for a while) stays out until it hears from the
 * peer again.  The kernel also clears the flag then, through a function
 * that is not exported: only reading it here.  Detecting staleness
 * ourselves (the kernel does it only on its own retransmission path) is a
 * later step.
 */
static bool qa_subflow_stale(const struct mptcp_subflow_context *subflow,
			     const struct sock *ssk)
{
	return subflow->stale &&
	       subflow->stale_rcv_tstamp == READ_ONCE(tcp_sk(ssk)->rcv_tstamp);
}

static void qa_describe(struct qa_candidate *c,
			struct mptcp_subflow_context *subflow,
			const struct qa_conn *conn)
{
	struct sock *ssk = mptcp_subflow_tcp_sock(subflow);

	c->srtt_us = tcp_sk(ssk)->srtt_us >> 3;
	c->backup = subflow->backup || subflow->request_bkup;
	c->usable = __mptcp_subflow_active(subflow) &&
		    !qa_subflow_stale(subflow, ssk);
	c->can_send = c->usable && sk_stream_memory_free(ssk);
	c->idle = tcp_rtx_and_write_queues_empty(ssk);
	c->last = conn && READ_ONCE(conn->last) == subflow;
}

/* Kernel glue ends here; below, policies on plain values only. */

static bool qa_eligible(const struct qa_candidate *c, bool backup)
{
	return c->can_send && c->backup == backup;
}

/* Lowest SRTT among the eligible subflows of one class; ties: first. */
static int qa_min_rtt(const struct qa_view *v, bool backup)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (qa_eligible(&v->c[i], backup) &&
		    (best < 0 || v->c[i].srtt_us < v->c[best].srtt_us))
			best = i;
	return best;
}

/*
 * A retransmission goes to a usable subflow with nothing outstanding,
 * else to the lowest-RTT usable one, as the kernel's default does.
 */
static int qa_pick_reinject(const struct qa_view *v)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		const struct qa_candidate *c = &v->c[i];

		if (!c->usable)
			continue;
		if (best < 0 || c->idle > v->c[best].idle ||
		    (c->idle == v->c[best].idle &&
		     c->srtt_us < v->c[best].srtt_us))
			best = i;
	}
	return best;
}

static int qa_pick_minrtt(const struct qa_view *v)
{
	int k;

	if (v->reinject)
		return qa_pick_reinject(v);
	k = qa_min_rtt(v, false);
	return k >= 0 ? k : qa_min_rtt(v, true);
}

/* The next eligible subflow after the last one used, in list order. */
static int qa_next_after_last(const struct qa_view *v, bool backup)
{
	unsigned int i, start = 0;

	for (i = 0; i < v->n; i++)
		if (v->c[i].last)
			start = i + 1;
	for (i = 0; i < v->n; i++) {
		unsigned int k = (start + i) % v->n;

		if (qa_eligible(&v->c[k], backup))
			return k;
	}
	return -1;
}

/* One burst (one call: the kernel pushes what the subflow takes) each. */
static int qa_pick_rr(const struct qa_view *v)
{
	int k;

	if (v->reinject)
		return qa_pick_reinject(v);
	k = qa_next_after_last(v, false);
	return k >= 0 ? k : qa_next_after_last(v, true);
}

/* Kernel glue again: the callback every scheduler of the module shares. */

int qa_get_subflow(struct mptcp_sock *msk, struct mptcp_sched_data *data)
{
	struct qa_sched *sched = container_of(msk->sched, struct qa_sched, ops);
	struct mptcp_subflow_context *subflows[QA_MAX_SUBFLOWS];
	struct mptcp_subflow_context *subflow;
	struct qa_view view = { .reinject = data->reinject };
	struct qa_conn *conn;
	int k = -1;

	rcu_read_lock();
	conn = qa_conn_find(msk);
	mptcp_for_each_subflow(msk, subflow) {
		if (view.n == QA_MAX_SUBFLOWS)
			break;
		qa_describe(&view.c[view.n], subflow, conn);
		subflows[view.n++] = subflow;
	}
	if (view.n)
		k = sched->pick(&view);
	if (k >= 0 && conn && !view.reinject)
		WRITE_ONCE(conn->last, subflows[k]);
	rcu_read_unlock();

	if (k < 0) {
		atomic64_inc(&sched->refusals);
		return -EINVAL;
	}
	/* mptcp_subflow_set_scheduled() is sealed under IBT: its body. */
	WRITE_ONCE(subflows[k]->scheduled, true);
	atomic64_inc(&sched->decisions);
	return 0;
}

#define QA_SCHED(_name, _pick) {				\
	.ops = {						\
		.name = _name,					\
		.owner = THIS_MODULE,				\
		.get_subflow = qa_get_subflow,			\
		.init = qa_conn_init,				\
		.release = qa_conn_release,			\
	},							\
	.pick = _pick,						\
}

struct qa_sched qa_scheds[] = {
	QA_SCHED("rr", qa_pick_rr),
	QA_SCHED("minrtt", qa_pick_minrtt),
};

const unsigned int qa_nr_scheds = ARRAY_SIZE(qa_scheds);
