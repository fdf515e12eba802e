/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qaware.h - the decisions of the MPTCP packet schedulers: QAware, a
 * variant of it that waits (qaware_wait), and the baselines (minrtt, rr,
 * redundant, ECF, BLEST), as pure functions of a snapshot of the
 * connection's subflows.
 *
 * The caller (the kernel glue, or a test) fills an array of struct
 * tw_sf_view, one per subflow, and asks tw_qa_decide() which to send on.
 * The decision changes only the per-connection state (struct tw_qa_conn);
 * QAware's queue-wait estimator is per subflow (struct tw_qa_est), updated
 * by the caller before it fills the view.  Nothing here locks or
 * allocates: the caller serialises the calls of one connection (the MPTCP
 * socket lock).
 *
 * Subflow classes: every policy chooses among the non-backup subflows
 * that are active and can send, and among the backup ones only when no
 * non-backup subflow is active (one that cannot send now is waited for).
 *
 * Integer arithmetic only; products saturate at U64_MAX instead of
 * wrapping, so absurd inputs give a defined (if useless) decision.
 */
#ifndef _TW_QAWARE_H
#define _TW_QAWARE_H

#include "compat.h"

/* Subflows a decision looks at; struct tw_qa_decision's set is a u32. */
#define TW_QA_MAX_SUBFLOWS	16
/* No subflow: send nothing now. */
#define TW_QA_NONE		U32_MAX
/* Score of a subflow that is not a candidate. */
#define TW_QA_NO_SCORE		U64_MAX

/* QAware's estimator: W's EWMA keeps 4/5 of the old value (alpha 0.8). */
#define TW_QA_ALPHA_NUM		4
#define TW_QA_ALPHA_DEN		5
/* Default sampling interval of the dequeue rate. */
#define TW_QA_SAMPLE_NS		10000000U
/* A window open longer than this many intervals restarts unsampled. */
#define TW_QA_GAP_INTERVALS	2
/* Cap on one W sample: a queue that dequeued nothing in an interval. */
#define TW_QA_WAIT_MAX_NS	10000000000ULL
/* S never falls below SRTT / 2^this (see qaware.c). */
#define TW_QA_S_FLOOR_SHIFT	3

/* ECF: beta = 1/4 (the paper's), as a shift. */
#define TW_QA_ECF_BETA_SHIFT	2
/* BLEST: lambda in thousandths, start, bounds and steps of its adaptation. */
#define TW_QA_BLEST_LAMBDA	1200
#define TW_QA_BLEST_LAMBDA_MIN	1000
#define TW_QA_BLEST_LAMBDA_MAX	1300
#define TW_QA_BLEST_STEP_UP	40
#define TW_QA_BLEST_STEP_DOWN	10

/* QAware's backlog beyond cwnd, in per cent of it: at most this. */
#define TW_QA_BACKLOG_MAX	1000

/* Round-robin: consecutive decisions given to one subflow by default. */
#define TW_QA_RR_BURST		8

enum tw_qa_policy {
	TW_QA_QAWARE,
	TW_QA_MINRTT,
	TW_QA_RR,
	TW_QA_REDUNDANT,
	TW_QA_ECF,
	TW_QA_BLEST,
	TW_QA_QAWARE_WAIT,
	TW_QA_POLICY_COUNT,
};

/* One subflow as the glue reads it at decision time. */
struct tw_sf_view {
	u32 srtt_us;		/* smoothed RTT, us (tcp_sock's srtt_us >> 3) */
	u32 rttvar_us;		/* RTT variation, us (ECF's delta): about
				 * 2 mdev (tcp_sock's rttvar_us >> 1)
				 */
	u32 cwnd;		/* congestion window, packets */
	u32 in_flight;		/* packets sent and not acknowledged */
	u32 mss;		/* bytes per packet; 0 is taken as 1 */
	u32 queued_bytes;	/* local egress queue (BQL in flight + qdisc
				 * backlog, per the glue's source), saturated
				 */
	u32 unsent_bytes;	/* in the subflow's socket, not sent yet:
				 * a new packet waits behind it too
				 */
	u64 wait_ns;		/* QAware's W: tw_qa_est's wait_ns */
	u64 wmem_queued;	/* bytes; the kernel default's input, for the
				 * glue's statistics only
				 */
	u64 pacing_rate;	/* bytes/s; as wmem_queued */
	bool tcp_queued;	/* TCP's write or retransmission queue
				 * holds data (unsent or unacked)
				 */
	bool active;		/* established, not stale, not closing */
	bool backup;		/* backup priority (MP_PRIO / address flag) */
	bool can_send;		/* send buffer room (new data: cwnd too, see
				 * tw_qa_window_room())
				 */
};

/* The connection (MPTCP level) as the glue reads it at decision time. */
struct tw_qa_msk_view {
	u64 unsent_bytes;	/* ECF's k: data written, not yet sent */
	u64 snd_wnd_bytes;	/* BLEST: the peer's MPTCP-level window */
	u64 now_ns;		/* qaware_wait: the clock of wait_since_ns */
};

/* Per-connection state of the policies. */
struct tw_qa_conn {
	u32 rr_burst;		/* rr: decisions per subflow turn */
	u32 rr_cur;		/* rr: subflow of the current turn */
	u32 rr_left;		/* rr: decisions left in the turn */
	u32 blest_lambda;	/* BLEST's lambda, in thousandths */
	bool ecf_waiting;	/* ECF: the last decision waited for f */
	bool qawait_on;		/* qaware_wait: waiting for a full subflow */
	u64 wait_since_ns;	/* qaware_wait: since then */
};

/*
 * QAware's per-subflow estimate of the local queue wait W (Algorithm 1):
 * at the end of each sampling interval, W_k = queued / (dequeued /
 * interval) when the queue is not empty, else 0, and wait_ns moves to
 * alpha * wait_ns + (1 - alpha) * W_k.
 */
struct tw_qa_est {
	u64 wait_ns;		/* the EWMA, ns */
	u64 sample_ns;		/* the last interval's W_k, ns */
	u64 win_start_ns;	/* start of the current interval */
	u64 win_dequeued;	/* bytes dequeued since then */
	u64 samples;		/* intervals closed */
	u32 interval_ns;	/* sampling interval */
};

struct tw_qa_decision {
	u32 pick;		/* the subflow to send on; TW_QA_NONE: none */
	u32 set;		/* bit i: send on subflow i (redundant: all) */
	bool waited;		/* ECF, BLEST, qaware_wait held back for a
				 * better subflow
				 */
	/*
	 * Each subflow's ranking value, TW_QA_NO_SCORE if not a candidate:
	 * qaware, qaware_wait (n + 1) * S in ns; minrtt, redundant, ECF,
	 * BLEST the SRTT in ns; rr the position in the rotation (0: the
	 * pick).
	 */
	u64 score[TW_QA_MAX_SUBFLOWS];
};

void tw_qa_conn_init(struct tw_qa_conn *c, u32 rr_burst);

/*
 * Decide for the connection @c under @policy over subflows @sf[0..@n - 1]
 * (at most TW_QA_MAX_SUBFLOWS; more warn and are ignored).  Fills @d and
 * returns d->pick.  Ties go to the lowest index.
 */
u32 tw_qa_decide(struct tw_qa_conn *c, enum tw_qa_policy policy,
		 const struct tw_qa_msk_view *m, const struct tw_sf_view *sf,
		 u32 n, struct tw_qa_decision *d);

/*
 * Redundant's next copy: of the subflows in @d->set whose data sent so far
 * (@sent[i], a 64-bit sequence number that may wrap) is before @end, the
 * one furthest behind, the lowest score (the fastest) on a tie;
 * TW_QA_NONE if none is behind.
 */
u32 tw_qa_redundant_next(const struct tw_qa_decision *d, const u64 *sent,
			 u32 n, u64 end);

/*
 * An MPTCP-level retransmission, whatever the policy (6.12's rule,
 * mptcp_subflow_get_retrans()): only to an active subflow whose TCP
 * queues are empty (!tcp_queued), so that it leaves at once instead of
 * behind that subflow's own backlog; the non-backup ones first, the
 * lowest SRTT of them, and a backup one only when no active subflow has
 * data in its TCP queues (no progress anywhere).  @all (redundant): every
 * such subflow of the class in d->set.  Fills @d (scores: SRTT in ns) and
 * returns d->pick, TW_QA_NONE when every TCP queue is busy.
 */
u32 tw_qa_decide_retrans(const struct tw_sf_view *sf, u32 n, bool all,
			 struct tw_qa_decision *d);

/*
 * BLEST's lambda adaptation (this module's rule, see qaware.rst for how
 * it differs from the multipath-tcp.org kernel's): once per RTT of the
 * slow subflow the glue reports whether the connection retransmitted at
 * the MPTCP level since; lambda rises by 0.04 if so, else falls by 0.01,
 * within 1.0..1.3.
 */
void tw_qa_blest_adapt(struct tw_qa_conn *c, bool blocked);

/* Interval 0 takes TW_QA_SAMPLE_NS. */
void tw_qa_est_init(struct tw_qa_est *e, u32 interval_ns, u64 now_ns);

/*
 * @dequeued_bytes left the queue since the previous call, @queued_bytes
 * wait in it now.  Returns true when an interval closed and wait_ns moved.
 * A window open for more than TW_QA_GAP_INTERVALS intervals (the calls
 * paused) restarts at @now_ns without a sample, @dequeued_bytes dropped.
 */
bool tw_qa_est_update(struct tw_qa_est *e, u32 queued_bytes,
		      u64 dequeued_bytes, u64 now_ns);

/*
 * n_k: the bytes ahead of a new packet (the socket's unsent data and the
 * egress queue) in packets of the subflow's MSS, rounded up.
 */
u32 tw_qa_queued_pkts(const struct tw_sf_view *v);
/*
 * Room for new data in @v's window.  The baselines (@qaware false): packets
 * in flight below cwnd, their papers' "available" subflow.  qaware and
 * qaware_wait: in flight and the socket's unsent data together below cwnd
 * plus @backlog_pct per cent of it (at most TW_QA_BACKLOG_MAX), so that an
 * ACK finds the next packet waiting and the subflow stays window-limited.
 */
bool tw_qa_window_room(const struct tw_sf_view *v, bool qaware,
		       u32 backlog_pct);
/* S_k in ns: SRTT - W, at least SRTT >> TW_QA_S_FLOOR_SHIFT and 1. */
u64 tw_qa_service_ns(const struct tw_sf_view *v);

/* "qaware", "minrtt", ...; "?" out of range. */
const char *tw_qa_policy_name(enum tw_qa_policy policy);

#endif /* _TW_QAWARE_H */
