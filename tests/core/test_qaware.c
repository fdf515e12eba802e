// SPDX-License-Identifier: GPL-2.0
/*
 * test_qaware.c - host unit tests of the MPTCP schedulers' decisions
 * (core/qaware.c): what each policy picks in scripted two- and
 * three-subflow cases, QAware's estimator against a hand-computed EWMA,
 * ECF's and BLEST's rules on both sides of their boundaries, the backup
 * class, ties, and extreme inputs.
 */
#include "qaware.h"
#include "kselftest_harness.h"

#define MS		1000U		/* in us */
#define NS_PER_MS	1000000ULL
#define MSS		1000U

/* An active, sendable subflow with an empty queue and room in its cwnd. */
static struct tw_sf_view sf(u32 srtt_us)
{
	struct tw_sf_view v = {
		.srtt_us = srtt_us,
		.cwnd = 10,
		.mss = MSS,
		.active = true,
		.can_send = true,
	};

	return v;
}

/* Each test runs in a process of its own: warnings counted are its own. */
FIXTURE(qa) {
	struct tw_qa_conn c;
	struct tw_qa_msk_view m;
	struct tw_sf_view sf[TW_QA_MAX_SUBFLOWS + 1];
	struct tw_qa_decision d;
	unsigned long expected_warns;
};

FIXTURE_SETUP(qa)
{
	memset(self, 0, sizeof(*self));
	tw_qa_conn_init(&self->c, 0);
}

FIXTURE_TEARDOWN(qa)
{
	EXPECT_EQ(self->expected_warns, tw_host_warnings);
}

static u32 decide(FIXTURE_DATA(qa) *self, enum tw_qa_policy policy, u32 n)
{
	return tw_qa_decide(&self->c, policy, &self->m, self->sf, n, &self->d);
}

/*
 * Subflow 0 is the faster path, and its egress queue fills while its SRTT
 * still shows the empty queue: QAware leaves it, minRTT stays.
 */
TEST_F(qa, qaware_leaves_filling_queue_minrtt_stays)
{
	struct tw_qa_est est;

	self->sf[0] = sf(10 * MS);
	self->sf[1] = sf(20 * MS);
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE, 2));
	ASSERT_EQ(0, decide(self, TW_QA_MINRTT, 2));

	/* 50 packets queued, 10 KB left in the 10 ms interval: W = 50 ms */
	tw_qa_est_init(&est, 10 * NS_PER_MS, 0);
	ASSERT_TRUE(tw_qa_est_update(&est, 50 * MSS, 10 * MSS,
				     10 * NS_PER_MS));
	ASSERT_EQ(50 * NS_PER_MS, est.sample_ns);
	ASSERT_EQ(10 * NS_PER_MS, est.wait_ns);
	self->sf[0].queued_bytes = 50 * MSS;
	self->sf[0].wait_ns = est.wait_ns;

	ASSERT_EQ(1, decide(self, TW_QA_QAWARE, 2));
	/* S_0 clamps to SRTT / 8: (50 + 1) * 1.25 ms against 20 ms */
	ASSERT_EQ(51 * 1250 * 1000ULL, self->d.score[0]);
	ASSERT_EQ(20 * NS_PER_MS, self->d.score[1]);
	ASSERT_EQ(0, decide(self, TW_QA_MINRTT, 2));
	ASSERT_EQ(10 * NS_PER_MS, self->d.score[0]);
}

/*
 * Path 0's egress is flooded (170 packets ahead, W past its SRTT), path 1's
 * window is full: qaware sends on path 0 anyway, qaware_wait waits for
 * path 1 while path 0 has a queue and its score is not below path 1's plus
 * path 1's SRTT.
 */
TEST_F(qa, qaware_wait_holds_back_from_a_flooded_path)
{
	self->sf[0] = sf(20 * MS);
	self->sf[0].queued_bytes = 170 * MSS;
	self->sf[0].wait_ns = 150 * NS_PER_MS;
	self->sf[1] = sf(20 * MS);
	self->sf[1].can_send = false;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE, 2));
	ASSERT_FALSE(self->d.waited);

	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_TRUE(self->d.waited);
	ASSERT_EQ(0, self->d.set);
	/* 171 * 2.5 ms; path 1 is no candidate */
	ASSERT_EQ(171 * 2500 * 1000ULL, self->d.score[0]);
	ASSERT_EQ(TW_QA_NO_SCORE, self->d.score[1]);

	/* one packet queued, no wait: 2 * 20 ms is not below 20 + 20 ms */
	self->sf[0].queued_bytes = MSS;
	self->sf[0].wait_ns = 0;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_TRUE(self->d.waited);
	/* 2 * 19.99 ms is */
	self->sf[0].srtt_us = 20 * MS - 10;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_FALSE(self->d.waited);
	/* an empty queue is never left waiting, whatever its score */
	self->sf[0].srtt_us = 100 * MS;
	self->sf[0].queued_bytes = 0;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_FALSE(self->d.waited);
	/* nor one whose wait is only unsent socket data: its link is idle */
	self->sf[0].unsent_bytes = 10 * MSS;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_FALSE(self->d.waited);
	self->sf[0].unsent_bytes = 0;

	/* the best can send: as qaware */
	self->sf[0].queued_bytes = 170 * MSS;
	self->sf[1].can_send = true;
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_FALSE(self->d.waited);
	ASSERT_EQ(20 * NS_PER_MS, self->d.score[1]);

	/* path 1 without an RTT sample: nothing to wait by */
	self->sf[1].can_send = false;
	self->sf[1].srtt_us = 0;
	self->sf[1].mss = 0;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_FALSE(self->d.waited);
}

/*
 * The full path is waited for SRTT + RTT variation at most (20 + 5 ms
 * here) from the first wait: a path gone dark does not hold the others
 * until it is found stale.  Once it can send, a new wait may start.
 */
TEST_F(qa, qaware_wait_gives_up_after_srtt_and_rttvar)
{
	u64 t0 = 1000 * NS_PER_MS;

	self->sf[0] = sf(20 * MS);
	self->sf[0].queued_bytes = 50 * MSS;
	self->sf[1] = sf(20 * MS);
	self->sf[1].rttvar_us = 5 * MS;
	self->sf[1].can_send = false;
	self->m.now_ns = t0;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_QAWARE_WAIT, 2));
	self->m.now_ns = t0 + 25 * NS_PER_MS;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_TRUE(self->d.waited);
	self->m.now_ns = t0 + 25 * NS_PER_MS + 1;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_FALSE(self->d.waited);
	self->m.now_ns = t0 + 500 * NS_PER_MS;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE_WAIT, 2));

	/* path 1 sends again, then its window fills: a new wait */
	self->sf[1].can_send = true;
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE_WAIT, 2));
	self->sf[1].can_send = false;
	self->m.now_ns = t0 + 510 * NS_PER_MS;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_QAWARE_WAIT, 2));
	ASSERT_TRUE(self->d.waited);
}

/*
 * Three paths, the fastest full: a slow path with an empty queue is taken
 * before a fast one with a queue (its link would idle otherwise), and the
 * wait is for the class's best only.
 */
TEST_F(qa, qaware_wait_three_subflows)
{
	self->sf[0] = sf(10 * MS);
	self->sf[0].can_send = false;
	self->sf[1] = sf(10 * MS);
	self->sf[1].queued_bytes = 20 * MSS;	/* 21 * 10 ms */
	self->sf[2] = sf(100 * MS);		/* 100 ms, no queue */
	ASSERT_EQ(2, decide(self, TW_QA_QAWARE_WAIT, 3));
	ASSERT_FALSE(self->d.waited);
	ASSERT_EQ(210 * NS_PER_MS, self->d.score[1]);

	/* path 2 gone: path 1's queue waits for path 0 */
	self->sf[2].active = false;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_QAWARE_WAIT, 3));
	ASSERT_TRUE(self->d.waited);
	/* path 0 a backup: the class holds path 1 alone */
	self->sf[0].backup = true;
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE_WAIT, 3));
	ASSERT_FALSE(self->d.waited);
}

/* Three paths: (n + 1) * S ranks them, not SRTT alone. */
TEST_F(qa, qaware_three_subflows)
{
	self->sf[0] = sf(10 * MS);
	self->sf[1] = sf(15 * MS);
	self->sf[2] = sf(30 * MS);
	self->sf[0].queued_bytes = 3 * MSS;		/* 4 * 10 = 40 ms */
	self->sf[1].queued_bytes = MSS + 1;		/* 3 * 15 = 45 ms */
	ASSERT_EQ(2, decide(self, TW_QA_QAWARE, 3));	/* 30 ms */
	ASSERT_EQ(40 * NS_PER_MS, self->d.score[0]);
	ASSERT_EQ(45 * NS_PER_MS, self->d.score[1]);
	ASSERT_EQ(1U << 2, self->d.set);

	/* W = 3 ms on path 0 leaves S = 7 ms: 4 * 7 = 28 ms */
	self->sf[0].wait_ns = 3 * NS_PER_MS;
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE, 3));
	ASSERT_EQ(28 * NS_PER_MS, self->d.score[0]);
	ASSERT_EQ(2, tw_qa_queued_pkts(&self->sf[1]));
}

/*
 * Data written to a subflow's socket and not sent yet is queued ahead of
 * a new packet as much as the device's queue is: both count in n_k.
 */
TEST_F(qa, qaware_counts_socket_unsent)
{
	self->sf[0] = sf(10 * MS);
	self->sf[1] = sf(15 * MS);
	ASSERT_EQ(0, decide(self, TW_QA_QAWARE, 2));

	self->sf[0].unsent_bytes = 2 * MSS;		/* 3 * 10 = 30 ms */
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE, 2));
	ASSERT_EQ(30 * NS_PER_MS, self->d.score[0]);

	/* socket and device add up, rounded up as a whole */
	self->sf[0].unsent_bytes = MSS / 2;
	self->sf[0].queued_bytes = MSS / 2 + 1;
	ASSERT_EQ(2, tw_qa_queued_pkts(&self->sf[0]));
	ASSERT_EQ(0, decide(self, TW_QA_MINRTT, 2));	/* minRTT: SRTT only */
}

/*
 * The window rule: the baselines need in flight < cwnd and ignore unsent
 * data; QAware counts in flight and unsent together against cwnd plus its
 * backlog, capped at TW_QA_BACKLOG_MAX per cent.
 */
TEST_F(qa, window_room)
{
	static const struct {
		u32 cwnd, in_flight, unsent, mss, pct;
		bool qaware, room;
	} c[] = {
		{ 10, 9, 5 * MSS, MSS, 50, false, true },	/* unsent ignored */
		{ 10, 9, 5 * MSS, MSS, 0, true, false },	/* 14 of 10 */
		{ 10, 9, 5 * MSS, MSS, 50, true, true },	/* 14 of 15 */
		{ 10, 9, 5 * MSS + 1, MSS, 50, true, false },	/* 15: rounded up */
		{ 10, 10, 0, MSS, 50, false, false },
		{ 10, 10, 0, MSS, 50, true, true },
		{ 1, 1, 0, MSS, 50, true, true },	/* one more may wait */
		{ 1, 1, 1, MSS, 50, true, false },
		{ 0, 0, 0, MSS, 0, false, false },
		{ 0, 0, 0, MSS, 1000, true, false },
		/* 100000 % counts as 1000 %: ten windows beyond cwnd */
		{ 10, 10, 99 * MSS, MSS, 100000, true, true },
		{ 10, 10, 100 * MSS, MSS, 100000, true, false },
		/* extremes do not wrap */
		{ U32_MAX, U32_MAX, U32_MAX, 0, 0, false, false },
		{ U32_MAX, U32_MAX, U32_MAX, 0, 1000, true, true },
		{ U32_MAX, U32_MAX, U32_MAX, 0, 0, true, false },
	};
	struct tw_sf_view v = sf(10 * MS);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		v.cwnd = c[i].cwnd;
		v.in_flight = c[i].in_flight;
		v.unsent_bytes = c[i].unsent;
		v.mss = c[i].mss;
		EXPECT_EQ(c[i].room,
			  tw_qa_window_room(&v, c[i].qaware, c[i].pct)) {
			TH_LOG("case %u", i);
		}
	}
}

/* W follows alpha = 0.8 exactly, sampled once per interval. */
TEST_F(qa, estimator_ewma_sequence)
{
	static const struct {
		u32 queued;
		u64 dequeued, now_ms, sample_ns, wait_ns;
		bool sampled;
	} step[] = {
		/* W = 10000 B * 10 ms / 20000 B */
		{ 10000, 20000, 10, 5000000, 1000000, true },
		/* half an interval: only counted */
		{ 3000, 5000, 15, 5000000, 1000000, false },
		{ 3000, 5000, 20, 3000000, 1400000, true },
		/* an empty queue waits 0 */
		{ 0, 7000, 30, 0, 1120000, true },
		/* nothing dequeued: the cap */
		{ 1000, 0, 40, TW_QA_WAIT_MAX_NS, 2000896000, true },
		/* 10 ms / 3, truncated, and the EWMA truncated */
		{ 1, 3, 50, 3333333, 1601383466, true },
	};
	struct tw_qa_est est;
	u32 i;

	tw_qa_est_init(&est, 10 * NS_PER_MS, 0);
	for (i = 0; i < ARRAY_SIZE(step); i++) {
		ASSERT_EQ(step[i].sampled,
			  tw_qa_est_update(&est, step[i].queued,
					   step[i].dequeued,
					   step[i].now_ms * NS_PER_MS));
		ASSERT_EQ(step[i].sample_ns, est.sample_ns);
		ASSERT_EQ(step[i].wait_ns, est.wait_ns);
	}
	ASSERT_EQ(5, est.samples);
}

/*
 * Decisions that pause (the connection idled) leave a window open across
 * the gap: one longer than two intervals restarts without a sample, so
 * a sample never averages a gap, and the next one counts only its own
 * window's bytes.  Exactly two intervals still close one.
 */
TEST_F(qa, estimator_restarts_after_idle_gap)
{
	struct tw_qa_est est;

	tw_qa_est_init(&est, 10 * NS_PER_MS, 0);
	ASSERT_TRUE(tw_qa_est_update(&est, 10000, 20000, 10 * NS_PER_MS));
	ASSERT_EQ(5000000, est.sample_ns);
	ASSERT_EQ(1000000, est.wait_ns);

	/* 2 s idle, then a full queue that moved little: no sample */
	ASSERT_FALSE(tw_qa_est_update(&est, 50000, 1000, 2010 * NS_PER_MS));
	ASSERT_EQ(5000000, est.sample_ns);
	ASSERT_EQ(1000000, est.wait_ns);
	ASSERT_EQ(1, est.samples);
	ASSERT_EQ(2010 * NS_PER_MS, est.win_start_ns);
	ASSERT_EQ(0, est.win_dequeued);

	/* the next interval: its 20000 bytes only, W = 5 ms again */
	ASSERT_TRUE(tw_qa_est_update(&est, 10000, 20000, 2020 * NS_PER_MS));
	ASSERT_EQ(5000000, est.sample_ns);
	ASSERT_EQ(1800000, est.wait_ns);

	/* a window of exactly two intervals is still sampled */
	ASSERT_TRUE(tw_qa_est_update(&est, 10000, 40000, 2040 * NS_PER_MS));
	ASSERT_EQ(5000000, est.sample_ns);
	ASSERT_EQ(3, est.samples);
	/* one nanosecond more is a gap */
	ASSERT_FALSE(tw_qa_est_update(&est, 10000, 40000,
				      2060 * NS_PER_MS + 1));
	ASSERT_EQ(3, est.samples);
}

/*
 * The glue's BQL counter is DQL's u32: across a long gap more than 4 GiB
 * may leave, and the delta it computes aliases to a small value (here
 * 6.25 GB in 5 s idle at 10 Gbit/s reads as 1.96 GB, or less).  The
 * window across the gap is dropped, so the alias never becomes W.
 */
TEST_F(qa, estimator_ignores_wrapped_counter_after_gap)
{
	u32 before = 4000000000U, after = before + 6250000000ULL;
	struct tw_qa_est est;

	tw_qa_est_init(&est, 10 * NS_PER_MS, 0);
	ASSERT_TRUE(tw_qa_est_update(&est, 0, 1000, 10 * NS_PER_MS));
	ASSERT_EQ(0, est.wait_ns);
	ASSERT_EQ(1955032704U, (u32)(after - before));
	ASSERT_FALSE(tw_qa_est_update(&est, U32_MAX, (u32)(after - before),
				      5010 * NS_PER_MS));
	ASSERT_EQ(0, est.wait_ns);
	ASSERT_EQ(0, est.sample_ns);
	ASSERT_EQ(1, est.samples);
}

/* S = SRTT - W, never below SRTT / 8, never 0. */
TEST_F(qa, service_time_clamps)
{
	struct tw_sf_view v = sf(20 * MS);

	ASSERT_EQ(20 * NS_PER_MS, tw_qa_service_ns(&v));
	v.wait_ns = 10 * NS_PER_MS;
	ASSERT_EQ(10 * NS_PER_MS, tw_qa_service_ns(&v));
	v.wait_ns = 17500 * 1000ULL;
	ASSERT_EQ(2500 * 1000ULL, tw_qa_service_ns(&v));
	v.wait_ns = 17500 * 1000ULL + 1;
	ASSERT_EQ(2500 * 1000ULL, tw_qa_service_ns(&v));
	v.wait_ns = 20 * NS_PER_MS;
	ASSERT_EQ(2500 * 1000ULL, tw_qa_service_ns(&v));
	v.wait_ns = U64_MAX;
	ASSERT_EQ(2500 * 1000ULL, tw_qa_service_ns(&v));
	v.srtt_us = 0;
	ASSERT_EQ(1, tw_qa_service_ns(&v));
	v.wait_ns = 0;
	ASSERT_EQ(1, tw_qa_service_ns(&v));
}

/* Equal scores go to the lowest index, whatever the order of the rest. */
TEST_F(qa, ties_lowest_index)
{
	self->sf[0] = sf(10 * MS);
	self->sf[0].can_send = false;
	self->sf[1] = sf(20 * MS);
	self->sf[2] = sf(20 * MS);
	self->sf[3] = sf(20 * MS);
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE, 4));
	ASSERT_EQ(TW_QA_NO_SCORE, self->d.score[0]);
	ASSERT_EQ(1, decide(self, TW_QA_MINRTT, 4));
	/* 2 * 10 ms = 1 * 20 ms */
	self->sf[1].queued_bytes = MSS;
	self->sf[1].srtt_us = 10 * MS;
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE, 4));
	self->sf[2].queued_bytes = 1;
	self->sf[2].srtt_us = 10 * MS;
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE, 4));
	ASSERT_EQ(self->d.score[1], self->d.score[2]);
	ASSERT_EQ(self->d.score[1], self->d.score[3]);
}

/* A faster backup is used only when no non-backup is active. */
TEST_F(qa, backups_only_when_no_active_non_backup)
{
	enum tw_qa_policy p;

	for (p = 0; p < TW_QA_POLICY_COUNT; p++) {
		tw_qa_conn_init(&self->c, 0);
		self->sf[0] = sf(5 * MS);
		self->sf[0].backup = true;
		self->sf[1] = sf(50 * MS);
		self->sf[2] = sf(60 * MS);
		self->sf[2].active = false;
		ASSERT_EQ(1, decide(self, p, 3));
		ASSERT_EQ(1U << 1, self->d.set);
		ASSERT_EQ(TW_QA_NO_SCORE, self->d.score[0]);

		/* an active non-backup that cannot send now is waited for */
		self->sf[1].can_send = false;
		ASSERT_EQ(TW_QA_NONE, decide(self, p, 3)) TH_LOG("%s",
						tw_qa_policy_name(p));
		ASSERT_EQ(0, self->d.set);

		/* an inactive non-backup does not keep the backup out */
		self->sf[1].active = false;
		self->sf[2].can_send = true;
		ASSERT_EQ(0, decide(self, p, 3)) TH_LOG("%s",
							tw_qa_policy_name(p));
		ASSERT_EQ(1U << 0, self->d.set);

		self->sf[0].can_send = false;
		ASSERT_EQ(TW_QA_NONE, decide(self, p, 3));
		ASSERT_EQ(0, self->d.set);
	}
}

/*
 * f (10 ms, cwnd 10) busy, s (30 ms, cwnd 10), delta 0: ECF waits exactly
 * for 7 <= k <= 19 unsent packets (4 * 10 * (k + 10) < 4 * 10 * 30 and
 * 30 k >= 10 * 20), up to k = 27 once waiting (beta: 5 instead of 4).
 */
TEST_F(qa, ecf_waits_exactly_by_its_inequalities)
{
	static const struct {
		u32 k;
		bool waiting_before, wait, waiting_after;
	} row[] = {
		{ 6, false, false, false },	/* s alone would not be slower */
		{ 7, false, true, true },
		{ 19, false, true, true },
		{ 20, false, false, false },	/* f too slow to wait for */
		{ 20, true, true, true },	/* ... unless already waiting */
		{ 27, true, true, true },
		{ 28, true, false, false },
		{ 6, true, false, true },	/* second test only: no reset */
	};
	u32 i;

	self->sf[0] = sf(10 * MS);
	self->sf[0].can_send = false;
	self->sf[1] = sf(30 * MS);
	for (i = 0; i < ARRAY_SIZE(row); i++) {
		self->c.ecf_waiting = row[i].waiting_before;
		self->m.unsent_bytes = (u64)row[i].k * MSS;
		ASSERT_EQ(row[i].wait ? TW_QA_NONE : 1,
			  decide(self, TW_QA_ECF, 2)) TH_LOG("k %u", row[i].k);
		ASSERT_EQ(row[i].wait, self->d.waited);
		ASSERT_EQ(row[i].waiting_after, self->c.ecf_waiting);
	}
	/* delta = max rttvar = 3 ms: waits for 8 <= k <= 22 */
	self->sf[1].rttvar_us = 3 * MS;
	for (i = 7; i <= 23; i++) {
		self->c.ecf_waiting = false;
		self->m.unsent_bytes = (u64)i * MSS - 1;	/* rounds up */
		ASSERT_EQ(i >= 8 && i <= 22, decide(self, TW_QA_ECF, 2) ==
			  TW_QA_NONE) TH_LOG("k %u", i);
	}
	/* s at 25 ms: 25 k >= 10 * 20 holds with equality at k = 8 */
	self->sf[1].rttvar_us = 0;
	self->sf[1].srtt_us = 25 * MS;
	self->c.ecf_waiting = false;
	self->m.unsent_bytes = 7 * MSS;
	ASSERT_EQ(1, decide(self, TW_QA_ECF, 2));
	self->m.unsent_bytes = 8 * MSS;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_ECF, 2));
	/* f free: f, whatever k */
	self->sf[0].can_send = true;
	self->m.unsent_bytes = 10 * MSS;
	ASSERT_EQ(0, decide(self, TW_QA_ECF, 2));
	ASSERT_FALSE(self->d.waited);
}

/*
 * f (10 ms, cwnd 10) busy, s (40 ms, 5 in flight): during s's RTT f sends
 * (10 + 3 / 2) * 4 = 44 packets, * 1.2 = 52800 B; s is skipped while the
 * window minus s's 5000 B is below that.
 */
TEST_F(qa, blest_skips_slow_exactly_by_the_window)
{
	self->sf[0] = sf(10 * MS);
	self->sf[0].can_send = false;
	self->sf[1] = sf(40 * MS);
	self->sf[1].in_flight = 5;
	self->m.snd_wnd_bytes = 57799;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_BLEST, 2));
	ASSERT_TRUE(self->d.waited);
	self->m.snd_wnd_bytes = 57800;
	ASSERT_EQ(1, decide(self, TW_QA_BLEST, 2));
	ASSERT_FALSE(self->d.waited);
	/* a window below s's own in-flight bytes: nothing left, skip */
	self->m.snd_wnd_bytes = 4000;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_BLEST, 2));

	/* lambda 1.3 after blocking: 57200 B, boundary at 62200 */
	tw_qa_blest_adapt(&self->c, true);
	ASSERT_EQ(1240, self->c.blest_lambda);
	tw_qa_blest_adapt(&self->c, true);
	tw_qa_blest_adapt(&self->c, true);
	ASSERT_EQ(TW_QA_BLEST_LAMBDA_MAX, self->c.blest_lambda);
	self->m.snd_wnd_bytes = 62199;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_BLEST, 2));
	self->m.snd_wnd_bytes = 62200;
	ASSERT_EQ(1, decide(self, TW_QA_BLEST, 2));

	tw_qa_blest_adapt(&self->c, false);
	ASSERT_EQ(1290, self->c.blest_lambda);
	while (self->c.blest_lambda > TW_QA_BLEST_LAMBDA_MIN)
		tw_qa_blest_adapt(&self->c, false);
	tw_qa_blest_adapt(&self->c, false);
	ASSERT_EQ(TW_QA_BLEST_LAMBDA_MIN, self->c.blest_lambda);

	self->sf[0].can_send = true;
	ASSERT_EQ(0, decide(self, TW_QA_BLEST, 2));
}

/*
 * A retransmission at the MPTCP level goes, as 6.12's own rule sends it,
 * only where TCP has nothing queued (nothing unsent, nothing unacked):
 * there it leaves at once instead of behind the subflow's own backlog.
 * The fastest such subflow of the class; a backup only when no active
 * subflow has data in its TCP queues (no progress anywhere).
 */
static u32 retrans(FIXTURE_DATA(qa) *self, bool all, u32 n)
{
	return tw_qa_decide_retrans(self->sf, n, all, &self->d);
}

TEST_F(qa, retrans_prefers_empty_tcp_queues)
{
	self->sf[0] = sf(5 * MS);
	self->sf[0].tcp_queued = true;
	self->sf[1] = sf(30 * MS);
	self->sf[2] = sf(20 * MS);
	ASSERT_EQ(2, retrans(self, false, 3));
	ASSERT_EQ(1U << 2, self->d.set);
	ASSERT_EQ(TW_QA_NO_SCORE, self->d.score[0]);
	ASSERT_EQ(30 * NS_PER_MS, self->d.score[1]);
	/* can_send is not asked: an empty TCP queue has room */
	self->sf[2].can_send = false;
	ASSERT_EQ(2, retrans(self, false, 3));
	/* every TCP queue busy: nothing now, the timer asks again */
	self->sf[1].tcp_queued = true;
	self->sf[2].tcp_queued = true;
	ASSERT_EQ(TW_QA_NONE, retrans(self, false, 3));
	ASSERT_EQ(0, self->d.set);
	/* redundant: every candidate */
	self->sf[1].tcp_queued = false;
	self->sf[2].tcp_queued = false;
	ASSERT_EQ(2, retrans(self, true, 3));
	ASSERT_EQ((1U << 1) | (1U << 2), self->d.set);
}

TEST_F(qa, retrans_backup_only_without_progress)
{
	self->sf[0] = sf(5 * MS);
	self->sf[0].tcp_queued = true;
	self->sf[1] = sf(10 * MS);
	self->sf[1].backup = true;
	/* the non-backup has data in flight: it may still progress */
	ASSERT_EQ(TW_QA_NONE, retrans(self, false, 2));
	/* stale (inactive): no progress anywhere, the backup takes it */
	self->sf[0].active = false;
	ASSERT_EQ(1, retrans(self, false, 2));
	/* a busy backup blocks as well; an idle non-backup wins */
	self->sf[2] = sf(10 * MS);
	self->sf[2].backup = true;
	self->sf[2].tcp_queued = true;
	ASSERT_EQ(TW_QA_NONE, retrans(self, false, 3));
	self->sf[3] = sf(40 * MS);
	ASSERT_EQ(3, retrans(self, false, 4));
	/* inactive subflows never take it */
	self->sf[3].active = false;
	self->sf[2].active = false;
	ASSERT_EQ(1, retrans(self, false, 4));
	self->sf[1].active = false;
	ASSERT_EQ(TW_QA_NONE, retrans(self, false, 4));
}

/*
 * Redundant sends each subflow's copy in turn: the candidate furthest
 * behind goes next, and on a tie (all caught up when new data arrives)
 * the fastest, so that new data leaves first where it arrives first.
 */
TEST_F(qa, redundant_next_furthest_behind_then_fastest)
{
	u64 sent[3] = { 1000, 1000, 1000 };

	self->sf[0] = sf(30 * MS);
	self->sf[1] = sf(5 * MS);
	self->sf[2] = sf(20 * MS);
	ASSERT_EQ(1, decide(self, TW_QA_REDUNDANT, 3));
	/* a tie: the fastest, not the first */
	ASSERT_EQ(1, tw_qa_redundant_next(&self->d, sent, 3, 2000));
	/* the fastest has sent more: the faster of the two behind */
	sent[1] = 1500;
	ASSERT_EQ(2, tw_qa_redundant_next(&self->d, sent, 3, 2000));
	/* behind wins over fast */
	sent[2] = 1600;
	ASSERT_EQ(0, tw_qa_redundant_next(&self->d, sent, 3, 2000));
	/* caught up with the end: not a candidate */
	sent[0] = sent[1] = sent[2] = 2000;
	ASSERT_EQ(TW_QA_NONE, tw_qa_redundant_next(&self->d, sent, 3, 2000));
	/* not in the decision's set: never, however far behind */
	sent[0] = 0;
	self->d.set &= ~1U;
	ASSERT_EQ(TW_QA_NONE, tw_qa_redundant_next(&self->d, sent, 3, 2000));
	/* sequence numbers wrap */
	self->d.set = 0x7;
	sent[0] = 0xfffffffffffffff0ULL;
	sent[1] = 0x10;
	sent[2] = 0x20;
	ASSERT_EQ(0, tw_qa_redundant_next(&self->d, sent, 3, 0x20));
}

/* Every active sendable subflow of the class, the fastest as the pick. */
TEST_F(qa, redundant_returns_every_sendable)
{
	self->sf[0] = sf(30 * MS);
	self->sf[1] = sf(5 * MS);
	self->sf[1].can_send = false;
	self->sf[2] = sf(20 * MS);
	self->sf[3] = sf(1 * MS);
	self->sf[3].active = false;
	self->sf[4] = sf(1 * MS);
	self->sf[4].backup = true;
	ASSERT_EQ(2, decide(self, TW_QA_REDUNDANT, 5));
	ASSERT_EQ((1U << 0) | (1U << 2), self->d.set);
	self->sf[1].can_send = true;
	ASSERT_EQ(1, decide(self, TW_QA_REDUNDANT, 5));
	ASSERT_EQ(0x7U, self->d.set);
}

/* Bursts of rr_burst decisions, skipping what cannot send. */
TEST_F(qa, rr_rotates_per_burst)
{
	static const u32 expect[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 0 };
	u32 i;

	tw_qa_conn_init(&self->c, 3);
	self->sf[0] = sf(10 * MS);
	self->sf[1] = sf(20 * MS);
	self->sf[2] = sf(30 * MS);
	for (i = 0; i < ARRAY_SIZE(expect); i++)
		ASSERT_EQ(expect[i], decide(self, TW_QA_RR, 3));
	ASSERT_EQ(0, self->d.score[0]);
	ASSERT_EQ(1, self->d.score[1]);
	ASSERT_EQ(2, self->d.score[2]);

	/* 0 stops mid-turn; 1 cannot send: 2's turn */
	self->sf[0].can_send = false;
	self->sf[1].can_send = false;
	ASSERT_EQ(2, decide(self, TW_QA_RR, 3));
	ASSERT_EQ(TW_QA_NO_SCORE, self->d.score[0]);
	self->sf[0].can_send = true;
	self->sf[1].can_send = true;
	ASSERT_EQ(2, decide(self, TW_QA_RR, 3));
	/* the subflow of the turn went away: the rotation goes on */
	ASSERT_EQ(1, decide(self, TW_QA_RR, 2));
	ASSERT_EQ(1, decide(self, TW_QA_RR, 2));
	ASSERT_EQ(1, decide(self, TW_QA_RR, 2));
	ASSERT_EQ(0, decide(self, TW_QA_RR, 2));
}

/* Extreme inputs: no wrap, no division by 0, decisions still defined. */
TEST_F(qa, extremes_saturate)
{
	struct tw_qa_est est;
	enum tw_qa_policy p;

	self->sf[0] = sf(U32_MAX);
	self->sf[0].mss = 0;
	self->sf[0].queued_bytes = U32_MAX;
	self->sf[0].unsent_bytes = U32_MAX;
	self->sf[0].cwnd = U32_MAX;
	self->sf[0].in_flight = U32_MAX;
	self->sf[0].rttvar_us = U32_MAX;
	self->sf[1] = sf(0);
	self->sf[1].mss = 0;
	self->sf[1].queued_bytes = U32_MAX;
	self->sf[1].wait_ns = U64_MAX;
	self->m.unsent_bytes = U64_MAX;
	self->m.snd_wnd_bytes = U64_MAX;

	ASSERT_EQ(U32_MAX, tw_qa_queued_pkts(&self->sf[0]));
	ASSERT_EQ(1, decide(self, TW_QA_QAWARE, 2));
	ASSERT_EQ(TW_QA_NO_SCORE - 1, self->d.score[0]);	/* saturated */
	ASSERT_EQ((u64)U32_MAX + 1, self->d.score[1]);	/* S = 1 ns */
	ASSERT_EQ(1, decide(self, TW_QA_MINRTT, 2));
	ASSERT_EQ(0, self->d.score[1]);
	for (p = 0; p < TW_QA_POLICY_COUNT; p++)
		ASSERT_NE(TW_QA_NONE, decide(self, p, 2));

	/* f with SRTT 0 busy: ECF and BLEST still decide */
	self->sf[1].can_send = false;
	self->sf[1].cwnd = 0;
	ASSERT_EQ(0, decide(self, TW_QA_ECF, 2));
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_BLEST, 2));
	self->sf[1].cwnd = U32_MAX;
	self->sf[1].mss = U32_MAX;
	ASSERT_EQ(TW_QA_NONE, decide(self, TW_QA_BLEST, 2));

	/* 4 GB queued over the longest window (two intervals): the cap */
	tw_qa_est_init(&est, U32_MAX, 0);
	ASSERT_TRUE(tw_qa_est_update(&est, U32_MAX, 1, 2ULL * U32_MAX));
	ASSERT_EQ(TW_QA_WAIT_MAX_NS, est.sample_ns);
	ASSERT_EQ(TW_QA_WAIT_MAX_NS / 5, est.wait_ns);
	/* dequeued bytes saturate; a clock going back is no interval */
	ASSERT_FALSE(tw_qa_est_update(&est, U32_MAX, U64_MAX,
				      2ULL * U32_MAX + 1));
	ASSERT_FALSE(tw_qa_est_update(&est, U32_MAX, U64_MAX, 0));
	ASSERT_EQ(U64_MAX, est.win_dequeued);
	ASSERT_EQ(1, est.samples);
	/* the end of time is a gap, not a sample */
	ASSERT_FALSE(tw_qa_est_update(&est, U32_MAX, 1, U64_MAX));
	ASSERT_EQ(1, est.samples);
}

/* Too many subflows warn and only the first TW_QA_MAX_SUBFLOWS count. */
TEST_F(qa, too_many_subflows_warn)
{
	u32 i;

	for (i = 0; i <= TW_QA_MAX_SUBFLOWS; i++)
		self->sf[i] = sf((TW_QA_MAX_SUBFLOWS + 1 - i) * MS);
	self->expected_warns = 1;
	ASSERT_EQ(TW_QA_MAX_SUBFLOWS - 1,
		  decide(self, TW_QA_MINRTT, TW_QA_MAX_SUBFLOWS + 1));
}

TEST(policy_names)
{
	ASSERT_STREQ("qaware", tw_qa_policy_name(TW_QA_QAWARE));
	ASSERT_STREQ("qaware_wait", tw_qa_policy_name(TW_QA_QAWARE_WAIT));
	ASSERT_STREQ("blest", tw_qa_policy_name(TW_QA_BLEST));
	ASSERT_STREQ("?", tw_qa_policy_name(TW_QA_POLICY_COUNT));
}

TEST_HARNESS_MAIN
