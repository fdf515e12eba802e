// SPDX-License-Identifier: GPL-2.0
/*
 * fwd_ring.c - the ring binding's own parts: a full ring drops and counts;
 * the data workers are picked (memo or scan) and their runs, packets and
 * bursts add up with the pick counters and the burst histogram; the
 * binding's settings come back in TABLE_GET; the table's counters outlive
 * a binding.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "fwd_lib.h"
#include "tfib_util.h"
#include "kselftest_harness.h"

#define TOPO_ID		41
#define USER		5

FIXTURE(ring) {
	struct fwd_env e;
};

FIXTURE_VARIANT(ring) {
	int pick;
};

FIXTURE_VARIANT_ADD(ring, memo) {
	.pick = TFIB_PICK_MEMO,
};

FIXTURE_VARIANT_ADD(ring, scan) {
	.pick = TFIB_PICK_SCAN,
};

FIXTURE_SETUP(ring)
{
	struct tfc_entry ent = { .user_id = USER, .mac = { 2, 0, 0, 0, 0, 5 },
				 .seq = 1, .has_seq = true };
	struct twt_ack a;
	int rc;

	rc = fwd_env_up(&self->e, -1, TFIB_SYNC_SEQCOUNT, NULL);
	if (rc == KSFT_SKIP)
		SKIP(return, "needs root and the tfib module");
	ASSERT_EQ(0, rc);
	ASSERT_EQ(0, tfc_entry_set(&self->e.nl, self->e.table, &ent, &a));
}

FIXTURE_TEARDOWN(ring)
{
	fwd_env_down(&self->e);
}

static int bind_ring(struct fwd_env *e, const struct tfc_bind_cfg *cfg)
{
	struct tfc_bind_cfg b = *cfg;
	struct twt_ack a;

	b.ifindex = e->topo.ifindex;
	b.mode = TFIB_FWD_MODE_RING;
	if (tfc_bind(&e->nl, e->table, &b, &a)) {
		ksft_print_msg("BIND: %s %s\n", twt_errname(a.err), a.msg);
		return a.err;
	}
	return 0;
}

/*
 * Send @n packets of @type for USER as fast as one thread can; control
 * packets with rising sequences, after the fixture's entry (1), so that
 * the table takes each as newer.
 */
static int flood(struct fwd_env *e, int type, int n, uint32_t tag)
{
	static uint32_t control_seq = 2;
	uint8_t mac[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	struct fwd_hdr h = type == TFIB_PKT_TYPE_DATA ?
			   fwd_data(USER, 0) : fwd_control(USER, mac, 1, 1);
	uint8_t f[FWD_FRAME_MAX];
	int i, len;

	for (i = 0; i < n; i++) {
		h.seq = type == TFIB_PKT_TYPE_DATA ? (uint32_t)i : control_seq++;
		len = fwd_frame(f, e, &h, 8, tag, i);
		if (fwd_send(e->tx, f, len))
			return -1;
	}
	return 0;
}

/* The ring of @kind in e->st, or NULL. */
static const struct tfc_ring *ring_of(const struct fwd_env *e, int kind)
{
	unsigned int i;

	for (i = 0; i < e->st->nring; i++)
		if (e->st->ring[i].kind == kind)
			return &e->st->ring[i];
	return NULL;
}

/*
 * Wait until the rings are drained, and the threads done counting the
 * bursts they took: e->st then holds the final counts.
 */
static void wait_drained(struct fwd_env *e, uint64_t data, uint64_t control)
{
	fwd_wait_ctr(e, TFIB_STATS_A_FORWARDED, data);
	fwd_wait_ctr(e, TFIB_STATS_A_UPDATES, control);
	sleep_ms(100);
	fwd_stats(e);
}

TEST_F(ring, full_ring_drops_and_counts)
{
	struct tfc_bind_cfg b = { .workers = 1, .burst = 1, .data_ring = 1,
				  .control_ring = 1, .pick = variant->pick };
	const struct tfc_ring *data, *control;
	const int n = 400;
	struct fwd_rx *rx = xcalloc(n, sizeof(*rx));
	uint32_t tag = rnd();
	struct fwd_hold hold;
	int got, sent;

	ASSERT_EQ(0, bind_ring(&self->e, &b));
	rx_flush(&self->e.topo);
	/*
	 * The receive path runs on the sender's CPU; held there, the
	 * threads cannot drain a ring of one before the flood ends, however
	 * fast or slow the machine.
	 */
	ASSERT_EQ(0, fwd_hold(&self->e, &hold));
	sent = !flood(&self->e, TFIB_PKT_TYPE_DATA, n, tag) &&
	       !flood(&self->e, TFIB_PKT_TYPE_CONTROL, n, tag);
	fwd_unhold(&hold);
	ASSERT_TRUE(sent);
	/* every packet classified: the rings' counts are final */
	EXPECT_EQ(2 * n, fwd_wait_ctr(&self->e, TFIB_STATS_A_RX, 2 * n));
	data = ring_of(&self->e, TFIB_RING_KIND_DATA);
	control = ring_of(&self->e, TFIB_RING_KIND_CONTROL);
	ASSERT_NE(NULL, data);
	ASSERT_NE(NULL, control);
	wait_drained(&self->e, data->enqueued, control->enqueued);
	data = ring_of(&self->e, TFIB_RING_KIND_DATA);
	control = ring_of(&self->e, TFIB_RING_KIND_CONTROL);
	ASSERT_NE(NULL, data);
	ASSERT_NE(NULL, control);
	/* every packet either went on its ring or was dropped there */
	EXPECT_EQ(n, data->enqueued + data->dropped);
	EXPECT_EQ(n, control->enqueued + control->dropped);
	/* held, the worker took at most a packet or two */
	EXPECT_LT(n / 2, data->dropped);
	EXPECT_EQ(1, data->size);
	EXPECT_EQ(1, data->peak);
	EXPECT_EQ(1, control->peak);
	/* what went on the ring was processed, and only that */
	EXPECT_EQ(data->enqueued, fwd_ctr(&self->e, TFIB_STATS_A_FORWARDED));
	EXPECT_EQ(control->enqueued, fwd_ctr(&self->e, TFIB_STATS_A_UPDATES));
	EXPECT_EQ(2 * n, fwd_ctr(&self->e, TFIB_STATS_A_RX));
	got = fwd_collect(&self->e, tag, rx, data->enqueued, n, 5000, 200);
	EXPECT_EQ(data->enqueued, got);
	TH_LOG("data ring: %llu enqueued, %llu dropped",
	       (unsigned long long)data->enqueued,
	       (unsigned long long)data->dropped);
	free(rx);
}

/*
 * Over ring_bytes a packet is dropped as by a full ring, however many
 * places the ring has: a budget below one packet's truesize drops all.
 */
TEST_F(ring, byte_budget_drops_and_counts)
{
	struct tfc_bind_cfg b = { .workers = 1, .pick = variant->pick };
	long saved = tfu_param("ring_bytes");
	const struct tfc_ring *data, *control;
	const int n = 50;
	int rc;

	ASSERT_LT(0, saved);
	ASSERT_EQ(0, tfu_set_param("ring_bytes", 1));
	rc = bind_ring(&self->e, &b);
	tfu_set_param("ring_bytes", saved);
	ASSERT_EQ(0, rc);
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_DATA, n, rnd()));
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_CONTROL, n, rnd()));
	EXPECT_EQ(2 * n, fwd_wait_ctr(&self->e, TFIB_STATS_A_RX, 2 * n));
	/* the last packet counted in RX is then put on its ring, or not */
	wait_drained(&self->e, 0, 0);
	data = ring_of(&self->e, TFIB_RING_KIND_DATA);
	control = ring_of(&self->e, TFIB_RING_KIND_CONTROL);
	ASSERT_NE(NULL, data);
	ASSERT_NE(NULL, control);
	EXPECT_EQ(n, data->dropped);
	EXPECT_EQ(n, control->dropped);
	EXPECT_EQ(0, data->enqueued + control->enqueued);
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_FORWARDED));
}

/* Sums over the data workers (kind data) and all threads. */
struct thread_sums {
	uint64_t data_runs, data_pkts, pkts, bursts;
	unsigned int data, control;
};

static struct thread_sums thread_sums(const struct tfc_stats *st)
{
	struct thread_sums s = {};
	unsigned int i;

	for (i = 0; i < st->nworker; i++) {
		const struct tfc_worker *w = &st->worker[i];

		s.pkts += w->pkts;
		s.bursts += w->bursts;
		if (w->kind == TFIB_RING_KIND_DATA) {
			s.data++;
			s.data_runs += w->runs;
			s.data_pkts += w->pkts;
		} else {
			s.control++;
		}
	}
	return s;
}

TEST_F(ring, workers_picked_and_counted)
{
	struct tfc_bind_cfg b = { .workers = 4, .burst = 4, .data_ring = 256,
				  .control_ring = 256, .pick = variant->pick };
	const int rounds = 10, per_round = 10;
	struct thread_sums s;
	struct tfc_table t;
	struct twt_ack a;
	int64_t picks;
	int i;

	ASSERT_EQ(0, bind_ring(&self->e, &b));
	ASSERT_EQ(0, tfc_table_get(&self->e.nl, self->e.table, &t, &a));
	EXPECT_EQ(self->e.topo.ifindex, (int)t.ifindex);
	EXPECT_STREQ(self->e.topo.dev, t.ifname);
	EXPECT_EQ(TFIB_FWD_MODE_RING, t.fwd_mode);
	EXPECT_EQ(variant->pick, t.pick);
	EXPECT_EQ(4, t.workers);
	EXPECT_EQ(4, t.burst);
	EXPECT_EQ(256, t.data_ring);
	EXPECT_EQ(256, t.control_ring);
	/* pauses between rounds let the worker go idle: a pick each */
	for (i = 0; i < rounds; i++) {
		ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_DATA, per_round, 0));
		ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_CONTROL, 1, 0));
		sleep_ms(30);
	}
	wait_drained(&self->e, rounds * per_round, rounds);
	s = thread_sums(self->e.st);
	EXPECT_EQ(4, s.data);
	EXPECT_EQ(1, s.control);
	EXPECT_EQ(rounds * per_round, s.data_pkts);
	EXPECT_EQ(rounds * (per_round + 1), s.pkts);
	EXPECT_EQ(s.bursts, fwd_hist_sum(self->e.st->burst,
					 self->e.st->nburst));
	EXPECT_EQ(UINT64_MAX,
		  self->e.st->burst[self->e.st->nburst - 1].upper);
	/* a run of a data worker for each pick; each ran somewhere */
	picks = fwd_ctr(&self->e, TFIB_STATS_A_PICKS);
	EXPECT_LE(1, picks);
	EXPECT_EQ(picks, (int64_t)s.data_runs);
	EXPECT_EQ(picks, fwd_ctr(&self->e, TFIB_STATS_A_RAN_ON_CPU) +
			 fwd_ctr(&self->e, TFIB_STATS_A_RAN_ELSEWHERE));
	/* picked only when every worker was idle */
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_PICK_NONE));
	if (variant->pick == TFIB_PICK_SCAN) {
		EXPECT_LE(picks, fwd_ctr(&self->e, TFIB_STATS_A_SCAN_STEPS));
		EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_MEMO_HITS));
	} else {
		EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_SCAN_STEPS));
		EXPECT_GE(picks, fwd_ctr(&self->e, TFIB_STATS_A_MEMO_HITS));
	}
	TH_LOG("%lld picks, %lld memo hits, %lld on the CPU picked for",
	       (long long)picks,
	       (long long)fwd_ctr(&self->e, TFIB_STATS_A_MEMO_HITS),
	       (long long)fwd_ctr(&self->e, TFIB_STATS_A_RAN_ON_CPU));
}

/*
 * With prefetch, each packet of a burst but the last prefetches the next
 * one's bucket: pkts - bursts in all.  Without, none.
 */
TEST_F(ring, bursts_prefetch_the_next_bucket)
{
	struct tfc_bind_cfg b = { .workers = 1, .burst = 8, .data_ring = 256,
				  .control_ring = 256, .pick = variant->pick };
	struct tfc_entry ent = { .user_id = USER, .mac = { 2, 0, 0, 0, 0, 5 },
				 .seq = 1, .has_seq = true };
	struct tfc_table_cfg cfg = tfc_table_defaults(self->e.table, 1024);
	const int n = 200;
	struct thread_sums s;
	struct twt_ack a;

	ASSERT_EQ(0, bind_ring(&self->e, &b));
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_DATA, n, 0));
	wait_drained(&self->e, n, 0);
	s = thread_sums(self->e.st);
	EXPECT_EQ(n, s.pkts);
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_PREFETCHES));

	ASSERT_EQ(0, tfc_table_del(&self->e.nl, self->e.table, &a));
	cfg.sync = TFIB_SYNC_SEQCOUNT;
	cfg.prefetch = true;
	ASSERT_EQ(0, tfc_table_new(&self->e.nl, &cfg, &a));
	ASSERT_EQ(0, tfc_entry_set(&self->e.nl, self->e.table, &ent, &a));
	ASSERT_EQ(0, bind_ring(&self->e, &b));
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_DATA, n, 0));
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_CONTROL, n, 0));
	wait_drained(&self->e, n, n);
	s = thread_sums(self->e.st);
	EXPECT_EQ(2 * n, s.pkts);
	EXPECT_EQ(s.pkts - s.bursts,
		  (uint64_t)fwd_ctr(&self->e, TFIB_STATS_A_PREFETCHES));
	/* the flood outruns a thread now and then: some bursts of several */
	TH_LOG("%llu packets in %llu bursts, %lld prefetches",
	       (unsigned long long)s.pkts, (unsigned long long)s.bursts,
	       (long long)fwd_ctr(&self->e, TFIB_STATS_A_PREFETCHES));
}

TEST_F(ring, counters_outlive_the_binding)
{
	struct tfc_bind_cfg b = { .workers = 2, .pick = variant->pick };
	struct twt_ack a;
	int64_t picks;

	ASSERT_EQ(0, bind_ring(&self->e, &b));
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_DATA, 5, 0));
	EXPECT_EQ(5, fwd_wait_ctr(&self->e, TFIB_STATS_A_FORWARDED, 5));
	picks = fwd_ctr(&self->e, TFIB_STATS_A_PICKS);
	ASSERT_EQ(0, tfc_unbind(&self->e.nl, self->e.table, &a));
	ASSERT_EQ(0, fwd_stats(&self->e));
	EXPECT_EQ(5, fwd_ctr(&self->e, TFIB_STATS_A_FORWARDED));
	EXPECT_EQ(5, fwd_ctr(&self->e, TFIB_STATS_A_RX_DATA));
	EXPECT_EQ(picks, fwd_ctr(&self->e, TFIB_STATS_A_PICKS));
	/* unbound: no rings, threads or histograms */
	EXPECT_EQ(0, self->e.st->nring);
	EXPECT_EQ(0, self->e.st->nworker);
	EXPECT_EQ(0, self->e.st->nage);
	ASSERT_EQ(0, bind_ring(&self->e, &b));
	ASSERT_EQ(0, flood(&self->e, TFIB_PKT_TYPE_DATA, 5, 0));
	EXPECT_EQ(10, fwd_wait_ctr(&self->e, TFIB_STATS_A_FORWARDED, 10));
	/* a new binding's rings count from zero */
	ASSERT_NE(NULL, ring_of(&self->e, TFIB_RING_KIND_DATA));
	EXPECT_EQ(5, ring_of(&self->e, TFIB_RING_KIND_DATA)->enqueued);
}

FWD_HARNESS_MAIN(TOPO_ID)
