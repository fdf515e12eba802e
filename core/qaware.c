// SPDX-License-Identifier: GPL-2.0
/*
 * qaware.c - the MPTCP schedulers' decisions (see qaware.h).
 *
 * Times are ns in u64 (the view's microseconds * 1000), counts packets,
 * sizes bytes.  Every product goes through tw_qa_mul(), which saturates.
 *
 * QAware's S floor: S = SRTT - W is the service time only while SRTT
 * already includes the current wait.  When a queue fills faster than SRTT
 * follows, W runs ahead of SRTT, and a floor of one unit would make the
 * fullest queue look the fastest ((n + 1) * 1).  S therefore keeps at
 * least SRTT / 8, which is still "clamped > 0" and keeps (n + 1) in
 * charge while the RTT catches up.
 */
#include "qaware.h"

#define TW_QA_NS_PER_US		1000U
#define TW_QA_LAMBDA_UNIT	1000U

static const char *const tw_qa_policy_names[TW_QA_POLICY_COUNT] = {
	[TW_QA_QAWARE] = "qaware",
	[TW_QA_MINRTT] = "minrtt",
	[TW_QA_RR] = "rr",
	[TW_QA_REDUNDANT] = "redundant",
	[TW_QA_ECF] = "ecf",
	[TW_QA_BLEST] = "blest",
	[TW_QA_QAWARE_WAIT] = "qaware_wait",
};

const char *tw_qa_policy_name(enum tw_qa_policy policy)
{
	return (unsigned int)policy < TW_QA_POLICY_COUNT ?
	       tw_qa_policy_names[policy] : "?";
}

static u64 tw_qa_mul(u64 a, u64 b)
{
	u64 r;

	return check_mul_overflow(a, b, &r) ? U64_MAX : r;
}

static u64 tw_qa_srtt_ns(const struct tw_sf_view *v)
{
	return (u64)v->srtt_us * TW_QA_NS_PER_US;
}

static u32 tw_qa_mss(const struct tw_sf_view *v)
{
	return v->mss ? v->mss : 1;
}

/* Packets of @mss bytes that @bytes fill, rounded up. */
static u64 tw_qa_pkts(u64 bytes, u32 mss)
{
	u64 pkts = div_u64(bytes, mss);

	return pkts * mss < bytes ? pkts + 1 : pkts;
}

u32 tw_qa_queued_pkts(const struct tw_sf_view *v)
{
	u64 pkts = tw_qa_pkts((u64)v->queued_bytes + v->unsent_bytes,
			      tw_qa_mss(v));

	return (u32)min_t(u64, pkts, U32_MAX);
}

bool tw_qa_window_room(const struct tw_sf_view *v, bool qaware,
		       u32 backlog_pct)
{
	u64 used;

	if (!qaware)
		return v->in_flight < v->cwnd;
	used = v->in_flight + tw_qa_pkts(v->unsent_bytes, tw_qa_mss(v));
	backlog_pct = min_t(u32, backlog_pct, TW_QA_BACKLOG_MAX);
	return used * 100 < (u64)v->cwnd * (100 + backlog_pct);
}

u64 tw_qa_service_ns(const struct tw_sf_view *v)
{
	u64 srtt = tw_qa_srtt_ns(v);
	u64 floor = max_t(u64, srtt >> TW_QA_S_FLOOR_SHIFT, 1);

	return v->wait_ns < srtt ? max(srtt - v->wait_ns, floor) : floor;
}

void tw_qa_conn_init(struct tw_qa_conn *c, u32 rr_burst)
{
	c->rr_burst = rr_burst ? rr_burst : TW_QA_RR_BURST;
	c->rr_cur = TW_QA_NONE;
	c->rr_left = 0;
	c->blest_lambda = TW_QA_BLEST_LAMBDA;
	c->ecf_waiting = false;
	c->qawait_on = false;
	c->wait_since_ns = 0;
}

void tw_qa_blest_adapt(struct tw_qa_conn *c, bool blocked)
{
	if (blocked)
		c->blest_lambda = min_t(u32, c->blest_lambda +
					TW_QA_BLEST_STEP_UP,
					TW_QA_BLEST_LAMBDA_MAX);
	else
		c->blest_lambda = max_t(u32, c->blest_lambda -
					TW_QA_BLEST_STEP_DOWN,
					TW_QA_BLEST_LAMBDA_MIN);
}

/* --- QAware's queue-wait estimator --- */

void tw_qa_est_init(struct tw_qa_est *e, u32 interval_ns, u64 now_ns)
{
	e->wait_ns = 0;
	e->sample_ns = 0;
	e->win_start_ns = now_ns;
	e->win_dequeued = 0;
	e->samples = 0;
	e->interval_ns = interval_ns ? interval_ns : TW_QA_SAMPLE_NS;
}

/*
 * W_k = n_k / (dequeued packets / dt), in bytes on both sides: the same for
 * MSS-sized packets, without rounding either count.  A queue that moved
 * nothing in the interval waits "forever", capped.
 */
static u64 tw_qa_wait_sample(u32 queued, u64 dequeued, u64 dt_ns)
{
	u64 prod;

	if (!queued)
		return 0;
	prod = tw_qa_mul(queued, dt_ns);
	if (!dequeued || prod == U64_MAX)
		return TW_QA_WAIT_MAX_NS;
	return min(div64_u64(prod, dequeued), TW_QA_WAIT_MAX_NS);
}

/*
 * A window still open after TW_QA_GAP_INTERVALS intervals spans a pause of
 * the decisions (an idle connection): its rate is not the queue's now, and
 * a 32-bit counter (DQL's) may have wrapped in it.  It restarts instead.
 */
static bool tw_qa_est_gap(struct tw_qa_est *e, u64 dt, u64 now_ns)
{
	if (dt <= (u64)e->interval_ns * TW_QA_GAP_INTERVALS)
		return false;
	e->win_start_ns = now_ns;
	e->win_dequeued = 0;
	return true;
}

bool tw_qa_est_update(struct tw_qa_est *e, u32 queued_bytes,
		      u64 dequeued_bytes, u64 now_ns)
{
	u64 dt = now_ns > e->win_start_ns ? now_ns - e->win_start_ns : 0;
	u64 w;

	if (tw_qa_est_gap(e, dt, now_ns))
		return false;
	e->win_dequeued += min(dequeued_bytes, U64_MAX - e->win_dequeued);
	if (dt < e->interval_ns)
		return false;
	w = tw_qa_wait_sample(queued_bytes, e->win_dequeued, dt);
	/* both terms at most TW_QA_WAIT_MAX_NS: the sum cannot wrap */
	e->wait_ns = div_u64(e->wait_ns * TW_QA_ALPHA_NUM +
			     w * (TW_QA_ALPHA_DEN - TW_QA_ALPHA_NUM),
			     TW_QA_ALPHA_DEN);
	e->sample_ns = w;
	e->win_start_ns = now_ns;
	e->win_dequeued = 0;
	e->samples++;
	return true;
}

/* --- candidates --- */

/*
 * Backups only when no non-backup subflow is active, as the kernel's own
 * scheduler: one that cannot send now (its window is full) is waited for.
 */
static bool tw_qa_use_backup(const struct tw_sf_view *sf, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (sf[i].active && !sf[i].backup)
			return false;
	return true;
}

static bool tw_qa_in_class(const struct tw_sf_view *v, bool backup)
{
	return v->active && v->backup == backup;
}

/* Lowest score wins, the lowest index on a tie; TW_QA_NONE if none. */
static u32 tw_qa_argmin(const struct tw_qa_decision *d, u32 n)
{
	u32 i, best = TW_QA_NONE;

	for (i = 0; i < n; i++)
		if (d->score[i] != TW_QA_NO_SCORE &&
		    (best == TW_QA_NONE || d->score[i] < d->score[best]))
			best = i;
	return best;
}

/*
 * SRTT scores of the class's active subflows (@need_send: only those that
 * can send); returns the fastest.
 */
static u32 tw_qa_rank_srtt(const struct tw_sf_view *sf, u32 n, bool backup,
			   bool need_send, struct tw_qa_decision *d)
{
	u32 i;

	for (i = 0; i < n; i++)
		d->score[i] = tw_qa_in_class(&sf[i], backup) &&
			      (sf[i].can_send || !need_send) ?
			      tw_qa_srtt_ns(&sf[i]) : TW_QA_NO_SCORE;
	return tw_qa_argmin(d, n);
}

/* --- the policies: each sets d->score[] and returns its pick --- */

/* (n + 1) * S; saturated, it stays a candidate's score. */
static u64 tw_qa_qaware_score(const struct tw_sf_view *v)
{
	return min(tw_qa_mul((u64)tw_qa_queued_pkts(v) + 1,
			     tw_qa_service_ns(v)), TW_QA_NO_SCORE - 1);
}

/*
 * qaware_wait: when the subflow b of the lowest score cannot send (its
 * window is full), the best subflow p that can is taken unless p has a
 * queue of its own and score_p >= score_b + SRTT_b, SRTT_b being how long b
 * should take to open its window; then nothing is sent now.  The thesis's
 * rule sends on p whatever its queue: with one path's egress flooded, that
 * data waits behind the flood and holds the connection's window.  Only a
 * path with an egress queue (its unsent socket data aside) is left
 * waiting, so its link stays busy; and b is
 * waited for at most SRTT_b + its RTT variation from the first wait, so a
 * path that went dark does not stop the others before it is found stale.
 */
static bool tw_qa_qaware_wait(struct tw_qa_conn *c,
			      const struct tw_sf_view *p,
			      const struct tw_sf_view *b, u64 score_p,
			      u64 score_b, u64 now)
{
	u64 srtt = tw_qa_srtt_ns(b);
	u64 patience = srtt + (u64)b->rttvar_us * TW_QA_NS_PER_US;

	if (!srtt || !p->queued_bytes ||
	    score_p < score_b + min(srtt, U64_MAX - score_b))
		return false;
	if (!c->qawait_on || now < c->wait_since_ns) {
		c->qawait_on = true;
		c->wait_since_ns = now;
	}
	return now - c->wait_since_ns <= patience;
}

static u32 tw_qa_pick_qaware(struct tw_qa_conn *c, const struct tw_sf_view *sf,
			     u32 n, bool backup, bool wait, u64 now,
			     struct tw_qa_decision *d)
{
	u64 score, best_score = TW_QA_NO_SCORE;
	u32 i, pick, best = TW_QA_NONE;

	for (i = 0; i < n; i++) {
		d->score[i] = TW_QA_NO_SCORE;
		if (!tw_qa_in_class(&sf[i], backup))
			continue;
		score = tw_qa_qaware_score(&sf[i]);
		if (sf[i].can_send)
			d->score[i] = score;
		if (score < best_score) {
			best_score = score;
			best = i;
		}
	}
	pick = tw_qa_argmin(d, n);
	if (!wait || pick == TW_QA_NONE || pick == best) {
		/* b can send (or there is none): a new wait may start */
		c->qawait_on = false;
		return pick;
	}
	d->waited = tw_qa_qaware_wait(c, &sf[pick], &sf[best], d->score[pick],
				      best_score, now);
	return d->waited ? TW_QA_NONE : pick;
}

/* The current subflow for rr_burst decisions, then the next candidate. */
static u32 tw_qa_pick_rr(struct tw_qa_conn *c, const struct tw_sf_view *sf,
			 u32 n, bool backup, struct tw_qa_decision *d)
{
	u32 i, j, pick = TW_QA_NONE;

	/* candidates score 0 until the pick is known, then their position */
	for (i = 0; i < n; i++)
		d->score[i] = tw_qa_in_class(&sf[i], backup) &&
			      sf[i].can_send ? 0 : TW_QA_NO_SCORE;
	if (c->rr_left && c->rr_cur < n && !d->score[c->rr_cur]) {
		pick = c->rr_cur;
		c->rr_left--;
	}
	/* rr_cur + 1 wraps to 0 from TW_QA_NONE: a new rotation */
	for (j = 0; pick == TW_QA_NONE && j < n; j++) {
		i = (c->rr_cur + 1 + j) % n;
		if (!d->score[i]) {
			pick = i;
			c->rr_cur = i;
			c->rr_left = c->rr_burst - 1;
		}
	}
	for (i = 0; pick != TW_QA_NONE && i < n; i++)
		if (!d->score[i])
			d->score[i] = (i + n - pick) % n;
	return pick;
}

static u32 tw_qa_pick_redundant(const struct tw_sf_view *sf, u32 n,
				bool backup, struct tw_qa_decision *d)
{
	u32 i, pick = tw_qa_rank_srtt(sf, n, backup, true, d);

	for (i = 0; i < n; i++)
		if (d->score[i] != TW_QA_NO_SCORE)
			d->set |= 1U << i;
	return pick;
}

/*
 * ECF (Lim et al. 2017) with f the fastest and s the fastest that can
 * send, k the unsent packets: wait for f when
 *   RTT_f (1 + k / cwnd_f) < (1 + beta waiting) (RTT_s + delta)  and
 *   RTT_s k / cwnd_s >= 2 RTT_f + delta,
 * delta = max(rttvar_f, rttvar_s).  Multiplied out by cwnd_f << 2 and
 * cwnd_s, so that integers compare exactly (beta = 1/4).
 */
static bool tw_qa_ecf_wait(struct tw_qa_conn *c, const struct tw_sf_view *f,
			   const struct tw_sf_view *s, u64 k)
{
	u64 delta = max(f->rttvar_us, s->rttvar_us);
	u64 lhs = tw_qa_mul((u64)f->srtt_us << TW_QA_ECF_BETA_SHIFT,
			    min(k, U64_MAX - f->cwnd) + f->cwnd);
	u64 rhs = tw_qa_mul(tw_qa_mul((1U << TW_QA_ECF_BETA_SHIFT) +
				      c->ecf_waiting, f->cwnd),
			    s->srtt_us + delta);

	if (lhs >= rhs) {
		c->ecf_waiting = false;
		return false;
	}
	if (tw_qa_mul(s->srtt_us, k) <
	    tw_qa_mul(s->cwnd, 2ULL * f->srtt_us + delta))
		return false;
	c->ecf_waiting = true;
	return true;
}

/*
 * BLEST (Ferlin et al. 2016; qaware.rst lists where this reading differs
 * from the multipath-tcp.org kernel's): during one RTT of s, f sends
 * lambda * MSS_f * (cwnd_f + (r - 1) / 2) * r bytes, r = RTT_s / RTT_f
 * (whole RTTs, at least one; cwnd growing by one a round).  Skip s when
 * that exceeds the MPTCP window left beside s's bytes in flight.
 */
static bool tw_qa_blest_wait(const struct tw_qa_conn *c,
			     const struct tw_sf_view *f,
			     const struct tw_sf_view *s, u64 wnd)
{
	u32 rtts = max_t(u32, s->srtt_us / max_t(u32, f->srtt_us, 1), 1);
	u64 pkts = tw_qa_mul((u64)f->cwnd + (rtts - 1) / 2, rtts);
	u64 fast = tw_qa_mul(tw_qa_mul(pkts, tw_qa_mss(f)), c->blest_lambda);
	u64 slow = tw_qa_mul(s->in_flight, tw_qa_mss(s));

	/* a saturated estimate stays "more than any window" */
	if (fast != U64_MAX)
		fast = div_u64(fast, TW_QA_LAMBDA_UNIT);
	return fast > (wnd > slow ? wnd - slow : 0);
}

/* ECF and BLEST: f if it can send, else s unless the rule waits for f. */
static u32 tw_qa_pick_wait_for_fast(struct tw_qa_conn *c,
				    enum tw_qa_policy policy,
				    const struct tw_qa_msk_view *m,
				    const struct tw_sf_view *sf, u32 n,
				    bool backup, struct tw_qa_decision *d)
{
	u32 f = tw_qa_rank_srtt(sf, n, backup, false, d);
	u32 s;

	if (f == TW_QA_NONE || sf[f].can_send)
		return f;
	s = tw_qa_rank_srtt(sf, n, backup, true, d);
	if (s == TW_QA_NONE)
		return s;
	if (policy == TW_QA_ECF)
		d->waited = tw_qa_ecf_wait(c, &sf[f], &sf[s],
					   tw_qa_pkts(m->unsent_bytes,
						      tw_qa_mss(&sf[f])));
	else
		d->waited = tw_qa_blest_wait(c, &sf[f], &sf[s],
					     m->snd_wnd_bytes);
	return d->waited ? TW_QA_NONE : s;
}

static u32 tw_qa_pick(struct tw_qa_conn *c, enum tw_qa_policy policy,
		      const struct tw_qa_msk_view *m,
		      const struct tw_sf_view *sf, u32 n,
		      struct tw_qa_decision *d)
{
	bool backup = tw_qa_use_backup(sf, n);

	switch (policy) {
	case TW_QA_QAWARE:
	case TW_QA_QAWARE_WAIT:
		return tw_qa_pick_qaware(c, sf, n, backup,
					 policy == TW_QA_QAWARE_WAIT,
					 m->now_ns, d);
	case TW_QA_MINRTT:
		return tw_qa_rank_srtt(sf, n, backup, true, d);
	case TW_QA_RR:
		return tw_qa_pick_rr(c, sf, n, backup, d);
	case TW_QA_REDUNDANT:
		return tw_qa_pick_redundant(sf, n, backup, d);
	case TW_QA_ECF:
	case TW_QA_BLEST:
		return tw_qa_pick_wait_for_fast(c, policy, m, sf, n, backup,
						d);
	default:
		WARN_ON_ONCE(1);
		return TW_QA_NONE;
	}
}

static bool tw_qa_seq_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

u32 tw_qa_redundant_next(const struct tw_qa_decision *d, const u64 *sent,
			 u32 n, u64 end)
{
	u32 i, pick = TW_QA_NONE;

	for (i = 0; i < n && i < TW_QA_MAX_SUBFLOWS; i++) {
		if (!(d->set & (1U << i)) || !tw_qa_seq_before(sent[i], end))
			continue;
		if (pick == TW_QA_NONE ||
		    tw_qa_seq_before(sent[i], sent[pick]) ||
		    (sent[i] == sent[pick] && d->score[i] < d->score[pick]))
			pick = i;
	}
	return pick;
}

static void tw_qa_decision_reset(struct tw_qa_decision *d)
{
	u32 i;

	d->set = 0;
	d->waited = false;
	for (i = 0; i < TW_QA_MAX_SUBFLOWS; i++)
		d->score[i] = TW_QA_NO_SCORE;
}

/* The retransmission's candidates of a class: active, TCP queues empty. */
static u32 tw_qa_rank_idle(const struct tw_sf_view *sf, u32 n, bool backup,
			   struct tw_qa_decision *d)
{
	u32 i;

	for (i = 0; i < n; i++)
		d->score[i] = tw_qa_in_class(&sf[i], backup) &&
			      !sf[i].tcp_queued ?
			      tw_qa_srtt_ns(&sf[i]) : TW_QA_NO_SCORE;
	return tw_qa_argmin(d, n);
}

/* Does an active subflow still have data in TCP (it may progress)? */
static bool tw_qa_any_tcp_queued(const struct tw_sf_view *sf, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (sf[i].active && sf[i].tcp_queued)
			return true;
	return false;
}

u32 tw_qa_decide_retrans(const struct tw_sf_view *sf, u32 n, bool all,
			 struct tw_qa_decision *d)
{
	u32 i;

	if (WARN_ON_ONCE(n > TW_QA_MAX_SUBFLOWS))
		n = TW_QA_MAX_SUBFLOWS;
	tw_qa_decision_reset(d);
	d->pick = tw_qa_rank_idle(sf, n, false, d);
	if (d->pick == TW_QA_NONE && !tw_qa_any_tcp_queued(sf, n))
		d->pick = tw_qa_rank_idle(sf, n, true, d);
	if (d->pick == TW_QA_NONE)
		return d->pick;
	for (i = 0; i < n; i++)
		if (d->score[i] != TW_QA_NO_SCORE && (all || i == d->pick))
			d->set |= 1U << i;
	return d->pick;
}

u32 tw_qa_decide(struct tw_qa_conn *c, enum tw_qa_policy policy,
		 const struct tw_qa_msk_view *m, const struct tw_sf_view *sf,
		 u32 n, struct tw_qa_decision *d)
{
	if (WARN_ON_ONCE(n > TW_QA_MAX_SUBFLOWS))
		n = TW_QA_MAX_SUBFLOWS;
	tw_qa_decision_reset(d);
	d->pick = tw_qa_pick(c, policy, m, sf, n, d);
	if (d->pick != TW_QA_NONE)
		d->set |= 1U << d->pick;
	return d->pick;
}
