// SPDX-License-Identifier: GPL-2.0
/*
 * The schedulers' glue: what the kernel hands a scheduler (an mptcp_sock and
 * its subflows) becomes views of plain values (struct tw_sf_view), the
 * portable core decides (tw_qa_decide), and the picks are written back as
 * the subflows' "scheduled" flags.
 *
 * Locking: the callbacks (get_send(), get_retrans()) run under the MPTCP
 * socket lock, which serialises every use of one connection's state
 * (conn.c finds it).  The subflows' tcp_sock fields are read without
 * their own lock, as the kernel's default scheduler reads them: a
 * decision on a value one ACK old is still a decision.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/gen_stats.h>
#include <net/sch_generic.h>
#include <net/tcp.h>
#include "private.h"
#include "internal.h"

/*
 * n_k, the subflow's local egress queue: the device's BQL in flight, the
 * backlog of the qdisc above that tx queue, or (default) their sum.  With
 * BQL most of a standing queue moves up into the qdisc, and on devices
 * without BQL (veth) the qdisc holds all of it: only the sum sees the
 * whole queue on both kinds.
 */
enum qa_queue_source { QA_QUEUE_SUM, QA_QUEUE_BQL, QA_QUEUE_QDISC };

static unsigned int queue_source = QA_QUEUE_SUM;
module_param(queue_source, uint, 0644);
MODULE_PARM_DESC(queue_source, "n_k from: 0 BQL in flight + qdisc backlog (default), 1 BQL only, 2 qdisc only");

/* Per subflow: QAware's estimator and the dequeue counter it follows. */
struct qa_sf_state {
	const struct mptcp_subflow_context *subflow;	/* key, not read */
	u32 subflow_id;		/* key: a reused context is another subflow */
	u32 token;		/* key: the connection's, see qa_sf_slot() */
	int ifindex;		/* device of @dequeued; 0: no sample yet */
	int txq;		/* its tx queue */
	bool bql;		/* @dequeued is DQL's, else the qdisc's */
	u32 queue_devs;		/* devices summed in @dequeued */
	unsigned long ident;	/* and their qdiscs */
	u32 dequeued;		/* the counter at the last reading */
	u32 queued;		/* the queue's bytes then (queue_source) */
	u64 read_ns;		/* when; 0: never */
	struct tw_qa_est est;
	struct qa_queue_parts queue;	/* the last reading, for stats.c */
	u32 ack_stamp;		/* stale clock: rcv_tstamp last seen */
	u64 progress_ns;	/* stale clock: the last sign of progress */
	bool stale;
	bool sent_known;	/* redundant: @sent_seq is set */
	u64 sent_seq;		/* redundant: data up to here sent on it */
};

/*
 * Per-connection state: 6.12's mptcp_sock has no room for a scheduler's
 * own, so it lives here, made at the connection's first decision and
 * found through msk->sched (conn.c).
 */
struct qa_conn {
	struct qa_conn_hdr hdr;	/* first: conn.c allocates and frees it */
	struct tw_qa_conn core;
	u64 blest_next_ns;	/* BLEST: next lambda adaptation */
	u64 blest_retrans;	/* BLEST: msk->bytes_retrans then */
	u32 went_stale;		/* subflows turned stale at this decision */
	bool resend;		/* their data in flight awaits another subflow */
	bool any_stale;		/* a subflow is stale at this decision */
	/* redundant: the subflow scheduled last for new data, and its id */
	const struct mptcp_subflow_context *red_last;
	u32 red_last_id;
	struct qa_sf_state sf[TW_QA_MAX_SUBFLOWS];
	struct tw_sf_view view[TW_QA_MAX_SUBFLOWS];	/* scratch */
	struct tw_qa_decision d;			/* scratch */
};

/* The connection's state, made at its first decision; NULL: none. */
static struct qa_conn *qa_conn_find(struct mptcp_sock *msk)
{
	struct qa_conn_hdr *hdr;
	struct qa_conn *conn;
	bool fresh;

	hdr = qa_conn_get(msk, sizeof(*conn), &fresh);
	if (!hdr)
		return NULL;
	conn = container_of(hdr, struct qa_conn, hdr);
	if (fresh)
		tw_qa_conn_init(&conn->core, 0);
	return conn;
}

/*
 * The kernel's stale flag, set only from its own retransmission scheduler
 * (so never for a socket of this module's): a stale subflow stays out until
 * it hears from the peer again.  The kernel clears the flag then, through a
 * function that is not exported: only reading it here.
 */
static bool qa_subflow_stale(const struct mptcp_subflow_context *subflow,
			     const struct sock *ssk)
{
	return subflow->stale &&
	       subflow->stale_rcv_tstamp == READ_ONCE(tcp_sk(ssk)->rcv_tstamp);
}

/*
 * Own stale detection (the kernel's runs only from its own retransmission
 * scheduler): a subflow is stale once it has had data in flight and heard
 * no ACK for QA_STALE_RTOS retransmission timeouts (its RTO before
 * backoff, at least TCP_RTO_MIN), i.e. its retransmission went unanswered
 * too.  Any ACK makes it active again.  The clock is read at decisions:
 * an ACK or an empty flight seen at one restarts it.
 */
#define QA_STALE_RTOS	2

static u64 qa_stale_after_ns(const struct tcp_sock *tp)
{
	u32 rto_us = (READ_ONCE(tp->srtt_us) >> 3) + READ_ONCE(tp->rttvar_us);

	return (u64)QA_STALE_RTOS * NSEC_PER_USEC *
	       max(rto_us, jiffies_to_usecs(TCP_RTO_MIN));
}

/* Is @ssk stale now?  Sets conn->went_stale when it just turned. */
static bool qa_sf_stale(struct qa_conn *conn, struct qa_sf_state *st,
			const struct sock *ssk, u64 now)
{
	const struct tcp_sock *tp = tcp_sk(ssk);
	u32 stamp = READ_ONCE(tp->rcv_tstamp);

	if (!READ_ONCE(tp->packets_out) || stamp != st->ack_stamp ||
	    !st->progress_ns) {
		st->ack_stamp = stamp;
		st->progress_ns = now;
		st->stale = false;
	} else if (!st->stale &&
		   now - st->progress_ns > qa_stale_after_ns(tp)) {
		st->stale = true;
		conn->went_stale++;
	}
	return st->stale;
}

/*
 * The local egress queue of one subflow.  The route's device may have none
 * of its own (noqueue and no BQL: a VLAN, macvlan or bond): its packets
 * then queue on the devices below it, whose tx queues are summed instead
 * (a bond: each slave's).  A device with no lower one and no queue
 * (WireGuard, PPP, a plain veth) gives n_k its socket's part alone.
 */
struct qa_queue {
	int ifindex;		/* the route's device */
	int txq;		/* its tx queue */
	int queue_ifindex;	/* where the queue was read; 0: nowhere */
	u32 queue_devs;		/* devices read: 1, or a bond's slaves */
	unsigned long ident;	/* the qdiscs read (a new one restarts) */
	bool bql;		/* a queue read runs BQL (DQL has counted) */
	u32 queued;		/* bytes waiting, per queue_source */
	u32 bql_bytes;		/* its parts, whatever queue_source says */
	u32 qdisc_bytes;
	u32 dequeued;		/* bytes the queues let go, modulo 2^32 */
};

/* Lower devices, and tx queues of each, read at most. */
#define QA_LOWER_MAX	4
#define QA_LOWER_TXQ_MAX	8

static u32 qa_add_sat(u32 a, u32 b)
{
	return a > U32_MAX - b ? U32_MAX : a + b;
}

/* The qdisc's backlog and the bytes it has dequeued so far. */
static void qa_read_qdisc(struct Qdisc *q, u32 *backlog, u64 *bytes)
{
	struct gnet_stats_basic_sync b;
	u32 qlen;

	qdisc_qstats_qlen_backlog(q, &qlen, backlog);
	gnet_stats_basic_sync_init(&b);
	/* running: the counters move under the qdisc's lock, not ours */
	gnet_stats_add_basic(&b, q->cpu_bstats, &q->bstats, true);
	*bytes = u64_stats_read(&b.bytes);
}

/*
 * Add one tx queue to @out: its BQL in flight, the backlog of its qdisc,
 * and what left it (DQL's count, else the qdisc's: without BQL, what
 * leaves the qdisc leaves the device).  @seen: a qdisc already added (a
 * root that is not mq is every tx queue's), added once.  False if it
 * queues nothing (noqueue qdisc, no BQL).  Caller holds rcu_read_lock().
 */
static bool qa_add_txq(struct netdev_queue *txq, const struct Qdisc *seen,
		       struct qa_queue *out)
{
	struct Qdisc *q = rcu_dereference(txq->qdisc);
	u32 done = 0, queued = 0, backlog = 0;
	bool qdisc = q && q->enqueue && q != seen;
	u64 qbytes = 0;

#ifdef CONFIG_BQL
	/* completed first: a later num_queued is never below it */
	done = READ_ONCE(txq->dql.num_completed);
	queued = READ_ONCE(txq->dql.num_queued);
#endif
	if (!queued && !qdisc)
		return q && q == seen && q->enqueue;
	if (qdisc) {
		qa_read_qdisc(q, &backlog, &qbytes);
		out->ident ^= (unsigned long)q;
	}
	if ((s32)(queued - done) > 0)
		out->bql_bytes = qa_add_sat(out->bql_bytes, queued - done);
	out->qdisc_bytes = qa_add_sat(out->qdisc_bytes, backlog);
	out->bql |= queued != 0;
	out->dequeued += queued ? done : (u32)qbytes;
	return true;
}

/* Add the first tx queues of @dev; false if none of them queues. */
static bool qa_add_dev(struct net_device *dev, struct qa_queue *out)
{
	unsigned int i, n = min(dev->real_num_tx_queues, QA_LOWER_TXQ_MAX);
	const struct Qdisc *first = NULL;
	bool any = false;

	for (i = 0; i < n; i++) {
		struct netdev_queue *txq = netdev_get_tx_queue(dev, i);

		any |= qa_add_txq(txq, first, out);
		if (!i)
			first = rcu_dereference(txq->qdisc);
	}
	return any;
}

struct qa_lower_walk {
	struct qa_queue *out;
	const struct net_device *seen[QA_LOWER_MAX];
	unsigned int n;
};

/*
 * Each device below the route's, once (the walk may come back to one);
 * stops after QA_LOWER_MAX.
 */
static int qa_lower_one(struct net_device *dev,
			struct netdev_nested_priv *priv)
{
	struct qa_lower_walk *w = priv->data;
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (w->seen[i] == dev)
			return 0;
	w->seen[w->n++] = dev;
	if (qa_add_dev(dev, w->out)) {
		if (!w->out->queue_devs++)
			w->out->queue_ifindex = dev->ifindex;
	}
	return w->n == QA_LOWER_MAX;
}

/*
 * The tx queue the subflow's packets leave through: its dst's device, the
 * queue the socket was mapped to (the first if none yet); if that queues
 * nothing, the devices below it.  Caller holds rcu_read_lock(); false if
 * the subflow has no route now.
 */
static bool qa_read_queue(struct sock *ssk, struct qa_queue *out)
{
	struct dst_entry *dst = __sk_dst_get(ssk);
	struct qa_lower_walk walk = { .out = out };
	struct netdev_nested_priv priv = { .data = &walk };
	struct net_device *dev;
	int idx;

	if (!dst || !dst->dev)
		return false;
	dev = dst->dev;
	idx = sk_tx_queue_get(ssk);
	if (idx < 0 || idx >= dev->real_num_tx_queues)
		idx = 0;
	memset(out, 0, sizeof(*out));
	out->ifindex = dev->ifindex;
	out->txq = idx;
	if (qa_add_txq(netdev_get_tx_queue(dev, idx), NULL, out)) {
		out->queue_ifindex = dev->ifindex;
		out->queue_devs = 1;
	} else {
		netdev_walk_all_lower_dev_rcu(dev, qa_lower_one, &priv);
	}
	if (queue_source != QA_QUEUE_QDISC)
		out->queued = out->bql_bytes;
	if (queue_source != QA_QUEUE_BQL)
		out->queued = qa_add_sat(out->queued, out->qdisc_bytes);
	return true;
}

/*
 * Bytes the queues let go since the last decision; 0 when other queues
 * were read (another device, queue, qdisc or kind of counter).  Modulo
 * 2^32: the sum of DQL's u32 counters wraps, and more than 4 GiB between
 * two readings only pass across an idle gap, whose window the estimator
 * drops (tw_qa_est_update()).
 */
static u64 qa_dequeued_since(struct qa_sf_state *st, const struct qa_queue *q)
{
	u64 delta = 0;

	if (st->ifindex == q->ifindex && st->txq == q->txq &&
	    st->bql == q->bql && st->ident == q->ident &&
	    st->queue_devs == q->queue_devs)
		delta = (u32)(q->dequeued - st->dequeued);
	st->ifindex = q->ifindex;
	st->txq = q->txq;
	st->bql = q->bql;
	st->ident = q->ident;
	st->queue_devs = q->queue_devs;
	st->dequeued = q->dequeued;
	return delta;
}

static bool qa_sf_is(const struct qa_sf_state *st,
		     const struct mptcp_subflow_context *sf, u32 token)
{
	return st->subflow == sf && st->subflow_id == sf->subflow_id &&
	       st->token == token;
}

static void qa_sf_new(struct qa_sf_state *st,
		      const struct mptcp_subflow_context *sf, u32 token, u64 now)
{
	memset(st, 0, sizeof(*st));
	st->subflow = sf;
	st->subflow_id = sf->subflow_id;
	st->token = token;
	tw_qa_est_init(&st->est, 0, now);
}

/*
 * Each subflow's state into its place, conn->sf[i] for @subflows[i].  A
 * subflow's state is looked for in every slot no subflow has claimed yet,
 * before or after its own (it moves up the list when one before it
 * closes, and may find a new one before it), and only then do the new
 * subflows clear their slots: none clears the state of a subflow still in
 * the list.  A disconnect (connect(AF_UNSPEC)) keeps the socket, its
 * scheduler and its first subflow for the next connection, whose sequence
 * space is another: the token tells the connections apart.
 */
static void qa_sf_claim(struct qa_conn *conn,
			struct mptcp_subflow_context **subflows,
			unsigned int n, u32 token, u64 now)
{
	u32 claimed = 0;
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < TW_QA_MAX_SUBFLOWS; j++) {
			if ((claimed & BIT(j)) ||
			    !qa_sf_is(&conn->sf[j], subflows[i], token))
				continue;
			if (j != i)
				swap(conn->sf[i], conn->sf[j]);
			claimed |= BIT(i);
			break;
		}
	for (i = 0; i < n; i++)
		if (!(claimed & BIT(i)))
			qa_sf_new(&conn->sf[i], subflows[i], token, now);
}

/*
 * QAware's backlog beyond the window, in per cent of cwnd: new data may
 * wait in a subflow's socket up to this much, so that an ACK finds the
 * next packet there and the subflow stays window-limited (its cwnd grows).
 * The baselines keep their papers' rule: room in the window, no backlog.
 */
static unsigned int backlog_pct = 50;
module_param(backlog_pct, uint, 0644);
MODULE_PARM_DESC(backlog_pct, "qaware, qaware_wait: new data may wait in a subflow's socket up to this % of its cwnd (default 50, at most 1000)");

/*
 * New data goes only where the congestion window has room (QAware's: plus
 * its backlog, tw_qa_window_room()), the "available" subflow of ECF's and
 * BLEST's papers and of the multipath-tcp.org kernel QAware was built on:
 * with send-buffer room alone, a lossy path with a small window took data
 * that then waited in its socket while a clean path idled.  A
 * retransmission goes anywhere that can queue it.
 */
static void qa_view_fill(struct tw_sf_view *v,
			 struct mptcp_subflow_context *subflow,
			 bool need_cwnd, bool qaware)
{
	struct sock *ssk = qa_subflow_ssk(subflow);
	const struct tcp_sock *tp = tcp_sk(ssk);
	u32 unsent = READ_ONCE(tp->write_seq) - READ_ONCE(tp->snd_nxt);

	memset(v, 0, sizeof(*v));
	v->srtt_us = READ_ONCE(tp->srtt_us) >> 3;
	/* rttvar_us is about 4 x mdev; ECF's delta is half, as mptcp_ecf.c's */
	v->rttvar_us = READ_ONCE(tp->rttvar_us) >> 1;
	v->cwnd = tcp_snd_cwnd(tp);
	v->in_flight = tcp_packets_in_flight(tp);
	v->mss = READ_ONCE(tp->mss_cache);
	/* the two reads race with the sender: a wrap is an empty queue */
	v->unsent_bytes = (s32)unsent > 0 ? unsent : 0;
	v->wmem_queued = READ_ONCE(ssk->sk_wmem_queued);
	v->pacing_rate = READ_ONCE(ssk->sk_pacing_rate);
	v->tcp_queued = !tcp_rtx_and_write_queues_empty(ssk);
	v->backup = subflow->backup || subflow->request_bkup;
	v->active = qa_subflow_active(subflow) &&
		    !qa_subflow_stale(subflow, ssk);
	v->can_send = v->active && sk_stream_memory_free(ssk) &&
		      (!need_cwnd ||
		       tw_qa_window_room(v, qaware, READ_ONCE(backlog_pct)));
}

/*
 * The push loop asks for a decision per fragment, back to back, and each
 * reading sums a qdisc's per-CPU counters over every CPU, per subflow and
 * per device read: within QA_QUEUE_FRESH_NS of a reading the queue is
 * taken as it was then.  What this connection pushes meanwhile waits in
 * the subflow's socket (unsent_bytes, read at every decision), not yet in
 * the egress queue.
 */
#define QA_QUEUE_FRESH_NS	(50 * NSEC_PER_USEC)

/* The subflow's queue and QAware's estimate of its wait. */
static void qa_view_queue(struct tw_sf_view *v, struct sock *ssk,
			  struct qa_sf_state *st, u64 now)
{
	struct qa_queue q;

	if (st->read_ns && now - st->read_ns < QA_QUEUE_FRESH_NS) {
		v->queued_bytes = st->queued;
		v->wait_ns = st->est.wait_ns;
		return;
	}
	if (!qa_read_queue(ssk, &q))
		return;
	st->read_ns = now;
	st->queued = q.queued;
	st->queue = (struct qa_queue_parts){ .ifindex = q.ifindex, .bql = q.bql,
		.bql_bytes = q.bql_bytes, .qdisc_bytes = q.qdisc_bytes,
		.queue_ifindex = q.queue_ifindex, .queue_devs = q.queue_devs };
	v->queued_bytes = q.queued;
	tw_qa_est_update(&st->est, q.queued, qa_dequeued_since(st, &q), now);
	v->wait_ns = st->est.wait_ns;
}

static void qa_msk_view(struct mptcp_sock *msk, struct tw_qa_msk_view *m)
{
	u64 snd_una = qa_read_acked64(msk, &msk->snd_una);
	u64 snd_nxt = READ_ONCE(msk->snd_nxt);
	u64 write_seq = READ_ONCE(msk->write_seq);
	u64 wnd_end = qa_read_acked64(msk, &msk->wnd_end);

	m->unsent_bytes = qa_after64(write_seq, snd_nxt) ? write_seq - snd_nxt : 0;
	m->snd_wnd_bytes = qa_after64(wnd_end, snd_una) ? wnd_end - snd_una : 0;
	m->now_ns = ktime_get_ns();
}

/*
 * BLEST's lambda moves once per RTT of the slowest subflow: up if the
 * connection retransmitted at the MPTCP level since, else down.
 */
static void qa_blest_adapt(struct qa_conn *conn, const struct mptcp_sock *msk,
			   unsigned int n, u64 now)
{
	u64 retrans = READ_ONCE(msk->bytes_retrans);
	u32 i, slow_us = 0;

	if (now < conn->blest_next_ns)
		return;
	for (i = 0; i < n; i++)
		if (conn->view[i].active)
			slow_us = max(slow_us, conn->view[i].srtt_us);
	if (conn->blest_next_ns)
		tw_qa_blest_adapt(&conn->core, retrans != conn->blest_retrans);
	conn->blest_retrans = retrans;
	conn->blest_next_ns = now + (u64)max(slow_us, 1000U) * NSEC_PER_USEC;
}

/* Time left on @ssk's pending timer: 0 if none, negative if overdue. */
static long qa_subflow_timeout(const struct sock *ssk)
{
	if (!READ_ONCE(inet_csk(ssk)->icsk_pending))
		return 0;
	return (long)(tcp_timeout_expires(ssk) - jiffies);
}

/*
 * 6.12 arms the MPTCP-level retransmission timer with msk->timer_ival,
 * which its default scheduler sets at every decision for new data to the
 * latest subflow timer, and the push loop only inside a burst (no
 * scheduler here grants one).  Once all data is acked the kernel sets it
 * to 0: left so, the next write arms the timer with 0, and the data is
 * sent again every tick until acked.
 */
static void qa_set_rtx_interval(struct mptcp_sock *msk, long timeout)
{
	msk->timer_ival = timeout > 0 ? timeout : TCP_RTO_MIN;
}

/*
 * Read every subflow (at most TW_QA_MAX_SUBFLOWS) into conn->view, their
 * contexts into @subflows; returns how many.  A decision for new data
 * also sets the MPTCP retransmission interval, as the kernel's does.
 */
static unsigned int qa_snapshot(struct qa_conn *conn, struct mptcp_sock *msk,
				enum tw_qa_policy policy, bool reinject,
				struct mptcp_subflow_context **subflows)
{
	bool qaware = policy == TW_QA_QAWARE || policy == TW_QA_QAWARE_WAIT;
	struct mptcp_subflow_context *subflow;
	u64 now = ktime_get_ns();
	unsigned int i, n = 0;
	long timeout = 0;

	conn->any_stale = false;
	qa_for_each_subflow(msk, subflow) {
		if (n == TW_QA_MAX_SUBFLOWS)
			break;
		subflows[n++] = subflow;
	}
	qa_sf_claim(conn, subflows, n, READ_ONCE(msk->token), now);
	for (i = 0; i < n; i++) {
		struct sock *ssk = qa_subflow_ssk(subflows[i]);
		struct tw_sf_view *v = &conn->view[i];
		struct qa_sf_state *st = &conn->sf[i];

		qa_view_fill(v, subflows[i], !reinject, qaware);
		if (qa_sf_stale(conn, st, ssk, now)) {
			v->active = v->can_send = false;
			conn->any_stale = true;
		}
		qa_view_queue(v, ssk, st, now);
		if (v->active)
			timeout = max(timeout, qa_subflow_timeout(ssk));
	}
	if (!reinject)
		qa_set_rtx_interval(msk, timeout);
	if (policy == TW_QA_BLEST && !reinject)
		qa_blest_adapt(conn, msk, n, now);
	return n;
}

/*
 * A retransmission follows the kernel's own rule whatever the policy
 * (tw_qa_decide_retrans(): a subflow whose TCP queues are empty; redundant
 * every such one): ECF and BLEST would hold it back, rr would count it as
 * a turn, and behind a subflow's own backlog it would come no sooner.
 */
static void qa_decide(struct qa_conn *conn, const struct qa_sched *sched,
		      struct mptcp_sock *msk, unsigned int n, bool reinject)
{
	struct tw_qa_msk_view m;

	if (reinject) {
		tw_qa_decide_retrans(conn->view, n,
				     sched->policy == TW_QA_REDUNDANT,
				     &conn->d);
		return;
	}
	qa_msk_view(msk, &m);
	tw_qa_decide(&conn->core, sched->policy, &m, conn->view, n, &conn->d);
}

/*
 * No state (conn.c made none): the first subflow that can send, for a
 * retransmission the first whose TCP queues are empty.
 */
static int qa_get_subflow_stateless(struct mptcp_sock *msk, bool reinject)
{
	struct mptcp_subflow_context *subflow, *pick = NULL;
	long timeout = 0;

	qa_for_each_subflow(msk, subflow) {
		struct sock *ssk = qa_subflow_ssk(subflow);

		if (!qa_subflow_active(subflow) ||
		    qa_subflow_stale(subflow, ssk))
			continue;
		timeout = max(timeout, qa_subflow_timeout(ssk));
		if (!pick && sk_stream_memory_free(ssk) &&
		    (!reinject || tcp_rtx_and_write_queues_empty(ssk)))
			pick = subflow;
	}
	if (!reinject)
		qa_set_rtx_interval(msk, timeout);
	if (!pick)
		return -EINVAL;
	WRITE_ONCE(pick->scheduled, true);
	return 0;
}

/* Mark the decision's subflows; false if it has none. */
static bool qa_schedule(struct qa_sched *sched, const struct net *net,
			const struct qa_conn *conn,
			struct mptcp_subflow_context **subflows, unsigned int n)
{
	unsigned int i;

	if (conn->d.waited)
		qa_count(net, sched, QA_WAITS, 1);
	if (!conn->d.set)
		return false;
	/* mptcp_subflow_set_scheduled() is sealed under IBT: its body. */
	for (i = 0; i < n; i++)
		if (conn->d.set & BIT(i)) {
			WRITE_ONCE(subflows[i]->scheduled, true);
			qa_count(net, sched, QA_DECISIONS, 1);
		}
	return true;
}

/* The decision into the connection's statistics, as one snapshot. */
static void qa_record(struct qa_conn *conn, const struct mptcp_sock *msk,
		      struct mptcp_subflow_context **subflows, unsigned int n)
{
	struct qa_stats *st = conn->hdr.stats;
	unsigned int i;

	if (!st)
		return;
	spin_lock_bh(&st->lock);
	qa_stats_conn(st, msk, n, conn->d.set);
	for (i = 0; i < n; i++)
		qa_stats_subflow(&st->s.sf[i], subflows[i], &conn->view[i],
				 &conn->sf[i].queue, conn->d.set & BIT(i));
	spin_unlock_bh(&st->lock);
}

static void qa_sent_raise(struct qa_sf_state *st, u64 seq)
{
	if (!st->sent_known || qa_after64(seq, st->sent_seq))
		st->sent_seq = seq;
	st->sent_known = true;
}

/*
 * Redundant: every segment on every active subflow.  6.12's push loop
 * keeps one send head per connection and gives each scheduled subflow the
 * data after it, so scheduling them all would spread the data (only the
 * retransmission path sends the same data on each, as the kernel's test
 * scheduler bpf_red relies on).  Each subflow's own position is kept here
 * instead: the candidate furthest behind (the fastest on a tie,
 * tw_qa_redundant_next()) is scheduled alone, and the send head is moved
 * to its position first (push.c); the next call credits it with what it
 * sent.  With no candidate, the head goes back to snd_nxt.
 */
static void qa_redundant_pick(struct qa_conn *conn, struct mptcp_sock *msk,
			      struct mptcp_subflow_context **subflows,
			      unsigned int n)
{
	u64 una = qa_read_acked64(msk, &msk->snd_una), end = qa_data_end(msk);
	u64 sent[TW_QA_MAX_SUBFLOWS];
	u32 i, pick;

	for (i = 0; i < n; i++) {
		struct qa_sf_state *st = &conn->sf[i];

		if (subflows[i] == conn->red_last &&
		    subflows[i]->subflow_id == conn->red_last_id)
			qa_sent_raise(st, qa_send_head(msk));
		qa_sent_raise(st, una);
		if (qa_after64(st->sent_seq, end))
			st->sent_seq = end;
		sent[i] = st->sent_seq;
	}
	pick = tw_qa_redundant_next(&conn->d, sent, n, end);
	conn->d.pick = pick;
	conn->d.set = pick == TW_QA_NONE ? 0 : BIT(pick);
	conn->red_last = pick == TW_QA_NONE ? NULL : subflows[pick];
	if (conn->red_last)
		conn->red_last_id = conn->red_last->subflow_id;
	qa_send_from(msk, pick == TW_QA_NONE ? msk->snd_nxt :
		     conn->sf[pick].sent_seq);
}

/*
 * What moves the send head: redundant's positions, or a subflow that
 * went stale, whose data in flight is sent again on the others from
 * snd_una, as the kernel does for its own stale subflows.  That waits for
 * a decision that has another subflow to send on, and is dropped when
 * none is stale any more: a lone subflow that recovers has TCP's own
 * retransmissions, and sending its data again on it would be waste.
 */
static void qa_move_head(struct qa_sched *sched, struct qa_conn *conn,
			 struct mptcp_sock *msk,
			 struct mptcp_subflow_context **subflows,
			 unsigned int n, bool reinject)
{
	bool redundant = sched->policy == TW_QA_REDUNDANT;

	if (conn->went_stale)
		qa_count(sock_net((struct sock *)msk), sched, QA_STALE,
			 conn->went_stale);
	conn->resend = (conn->resend || conn->went_stale) && conn->any_stale;
	conn->went_stale = 0;
	if (redundant && !reinject) {
		qa_redundant_pick(conn, msk, subflows, n);
	} else if (conn->resend && !redundant && conn->d.set) {
		qa_send_from(msk, qa_read_acked64(msk, &msk->snd_una));
		conn->resend = false;
	}
}

/*
 * The decision every scheduler of the module shares: @reinject for data
 * sent already that the kernel retransmits (6.12's data->reinject).
 */
static int qa_get_subflow(struct mptcp_sock *msk, bool reinject)
{
	struct qa_sched *sched = qa_sched_of(msk);
	struct mptcp_subflow_context *subflows[TW_QA_MAX_SUBFLOWS];
	struct qa_conn *conn;
	unsigned int n;
	int err = 0;

	/*
	 * Only the kernel's own scheduler refills snd_burst; the push loop
	 * subtracts what it sends and asks again while it is <= 0.  Kept at
	 * 0, it never wraps (2 GiB on) into a burst no scheduler chose.
	 */
	msk->snd_burst = 0;
	rcu_read_lock();
	conn = qa_conn_find(msk);
	if (conn) {
		n = qa_snapshot(conn, msk, sched->policy, reinject, subflows);
		qa_decide(conn, sched, msk, n, reinject);
		qa_move_head(sched, conn, msk, subflows, n, reinject);
		if (!qa_schedule(sched, sock_net((struct sock *)msk), conn,
				 subflows, n))
			err = -EINVAL;
		qa_record(conn, msk, subflows, n);
	} else {
		err = qa_get_subflow_stateless(msk, reinject);
		if (!err)
			qa_count(sock_net((struct sock *)msk), sched,
				 QA_DECISIONS, 1);
	}
	rcu_read_unlock();
	if (err)
		qa_count(sock_net((struct sock *)msk), sched, QA_REFUSALS, 1);
	return err;
}

/* Kernel glue: the callbacks, new data and retransmissions. */
static int qa_get_send(struct mptcp_sock *msk)
{
	return qa_get_subflow(msk, false);
}

static int qa_get_retrans(struct mptcp_sock *msk)
{
	return qa_get_subflow(msk, true);
}

/* the callbacks in this kernel's shape (<tw/compat.h>) */
TW_MPTCP_SCHED_GLUE(qa_get_send, qa_get_retrans);

#define QA_SCHED(_name, _policy) {				\
	.ops = {						\
		.name = _name,					\
		.owner = THIS_MODULE,				\
		TW_MPTCP_SCHED_CALLS(qa_get_send, qa_get_retrans), \
		.init = qa_conn_init,				\
		.release = qa_conn_release,			\
	},							\
	.policy = _policy,					\
}

struct qa_sched qa_scheds[] = {
	QA_SCHED("qaware", TW_QA_QAWARE),
	QA_SCHED("minrtt", TW_QA_MINRTT),
	QA_SCHED("rr", TW_QA_RR),
	QA_SCHED("redundant", TW_QA_REDUNDANT),
	QA_SCHED("ecf", TW_QA_ECF),
	QA_SCHED("blest", TW_QA_BLEST),
	QA_SCHED("qaware_wait", TW_QA_QAWARE_WAIT),
};

const unsigned int qa_nr_scheds = ARRAY_SIZE(qa_scheds);
static_assert(ARRAY_SIZE(qa_scheds) == QA_NR_SCHEDS);
