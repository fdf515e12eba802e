// SPDX-License-Identifier: GPL-2.0
/*
 * omware_submit.c - what SUBMIT and TRAIN put on the wire: every frame
 * once, byte for byte, never early, in schedule order; payloads with the
 * Ethernet header the module adds; trains and pairs back-to-back.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "omware_lib.h"
#include "kselftest_harness.h"

/* One session, n frames due from start_off on, every spacing ns. */
struct flow_spec {
	struct sopts so;	/* ifindex is the topology's */
	int n;
	uint64_t start_off, spacing;
	bool shuffle;		/* submitted out of schedule order */
};

static int *shuffled(int n, bool shuffle)
{
	int *perm = xcalloc(n, sizeof(int));
	int i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; shuffle && i > 0; i--) {
		int j = rnd() % (i + 1), tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	return perm;
}

/* Run @fs; the session as it was after the last report goes to @after. */
static void run_flow(struct __test_metadata *_metadata, struct omw_ctx *c,
		     const struct flow_spec *fs, struct info *after)
{
	struct rxframe *f = xcalloc(fs->n + 8, sizeof(*f));
	int *perm = shuffled(fs->n, fs->shuffle);
	struct sopts so = fs->so;
	struct report *r;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	uint64_t t0;
	int i, got, err;
	size_t nr;

	so.ifindex = c->t->ifindex;
	err = session_new(c->o, &so, &sid, &a);
	ASSERT_EQ(0, err) TH_LOG("SESSION_NEW: %s %s", twt_errname(err), a.msg);
	rx_flush(c->t);
	batch_init(&b, fs->n);
	t0 = mono() + fs->start_off;
	for (i = 0; i < fs->n; i++) {
		int len = FRAME_MIN_TAGGED + 34 + rnd() % (FRAME_MAX - 60);

		add_frame(&b, i ? len : FRAME_MAX, c->t->peer_mac, c->t->mac,
			  t0 + i * fs->spacing);
	}
	err = submit_all(c->o, sid, &b, perm);
	EXPECT_EQ(0, err) TH_LOG("SUBMIT: %s", twt_errname(err));
	got = rx_collect(c->t, b.tag, f, fs->n, fs->n + 8,
			 (int)((fs->start_off + fs->n * fs->spacing) /
			       NSEC_PER_MSEC) + 10000, 300);
	nr = wait_reports(c->o, sid, fs->n, 10000, 200);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_SENT, true));
	EXPECT_EQ(0, check_sent_order(&b, r, nr));
	EXPECT_EQ(0, check_delivery(&b, f, got));
	EXPECT_EQ(0, session_get(c->o, sid, after, NULL));
	EXPECT_EQ(0, after->v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(fs->n, after->st[OMWARE_STATS_A_SUBMITTED]);
	EXPECT_EQ(fs->n, after->st[OMWARE_STATS_A_SENT]);
	/* The timer's callbacks and the reports' delivery took CPU time. */
	EXPECT_TRUE(after->st_has[OMWARE_STATS_A_WORK_NS] &&
		    after->st[OMWARE_STATS_A_WORK_NS] > 0)
		TH_LOG("session WORK_NS missing or 0 after %d sends", fs->n);
	EXPECT_EQ(0, session_del(c->o, sid));
	free(r);
	free(f);
	free(perm);
	batch_free(&b);
}

OMW_FIXTURE(flow)

FIXTURE_VARIANT(flow) {
	struct flow_spec fs;
};

FIXTURE_VARIANT_ADD(flow, frames_in_order) {
	.fs = { .n = 48, .start_off = 30 * NSEC_PER_MSEC, .spacing = 500000,
		.shuffle = true },
};

FIXTURE_VARIANT_ADD(flow, xmit_direct) {
	.fs = { .so = { .has_xmit = true, .xmit = OMWARE_XMIT_DIRECT },
		.n = 24, .start_off = 30 * NSEC_PER_MSEC, .spacing = 500000,
		.shuffle = true },
};

FIXTURE_VARIANT_ADD(flow, xmit_qdisc) {
	.fs = { .so = { .has_xmit = true, .xmit = OMWARE_XMIT_QDISC },
		.n = 24, .start_off = 30 * NSEC_PER_MSEC, .spacing = 500000,
		.shuffle = true },
};

/* Timer mode: 5 to 50 ms ahead at 1 ms spacing, never early, in order. */
FIXTURE_VARIANT_ADD(flow, timer_never_early) {
	.fs = { .so = { .has_mode = true, .mode = OMWARE_MODE_TIMER },
		.n = 46, .start_off = 5 * NSEC_PER_MSEC,
		.spacing = NSEC_PER_MSEC },
};

TEST_F(flow, delivered)
{
	struct info in;

	run_flow(_metadata, &self->c, &variant->fs, &in);
}

OMW_FIXTURE(submit)

TEST_F(submit, hybrid_never_early_spins)
{
	/*
	 * Emulated guests wake timers hundreds of microseconds late: let the
	 * guard grow past that, or the kthread never wakes early enough to
	 * spin at all.
	 */
	static const struct flow_spec fs = {
		.so = { .has_mode = true, .mode = OMWARE_MODE_HYBRID,
			.guard_max_ns = OMWARE_GUARD_MAX_NS_LIMIT },
		.n = 24, .start_off = 10 * NSEC_PER_MSEC,
		.spacing = 2 * NSEC_PER_MSEC, .shuffle = true,
	};
	const uint64_t *st0, *st1;
	struct info in, g0, g1;

	EXPECT_EQ(0, stats_get(self->c.o, &g0));
	run_flow(_metadata, &self->c, &fs, &in);
	EXPECT_EQ(0, stats_get(self->c.o, &g1));
	st0 = g0.st;
	st1 = g1.st;
	/*
	 * A wake-up later than its guard (a miss) has nothing left to spin
	 * for.  Under the debug kernel's checkers an emulated guest can wake
	 * later than the largest guard every time: then no spin is owed,
	 * but the guard must have grown to its cap trying.
	 */
	if (in.v[OMWARE_A_GUARD_WAKEUPS] &&
	    in.v[OMWARE_A_GUARD_MISSES] == in.v[OMWARE_A_GUARD_WAKEUPS] &&
	    in.has[OMWARE_A_GUARD_NS] &&
	    in.v[OMWARE_A_GUARD_NS] == fs.so.guard_max_ns) {
		TH_LOG("every one of %llu wake-ups came after its guard: no spin owed",
		       (unsigned long long)in.v[OMWARE_A_GUARD_WAKEUPS]);
	} else if (in.st_has[OMWARE_STATS_A_SPIN_NS]) {
		EXPECT_LT(0, in.st[OMWARE_STATS_A_SPIN_NS])
			TH_LOG("session SPIN_NS is 0 in hybrid mode (%llu of %llu wake-ups missed)",
			       (unsigned long long)in.v[OMWARE_A_GUARD_MISSES],
			       (unsigned long long)in.v[OMWARE_A_GUARD_WAKEUPS]);
	} else {
		EXPECT_LT(st0[OMWARE_STATS_A_SPIN_NS],
			  st1[OMWARE_STATS_A_SPIN_NS])
			TH_LOG("module SPIN_NS did not grow in hybrid mode");
	}
	/* The guard learnt from the wake-ups, and says so. */
	EXPECT_TRUE(in.has[OMWARE_A_GUARD_WAKEUPS] &&
		    in.has[OMWARE_A_GUARD_MISSES] &&
		    in.has[OMWARE_A_GUARD_QUANTILE_NS])
		TH_LOG("a hybrid session without its guard's figures");
	EXPECT_LT(0, in.v[OMWARE_A_GUARD_WAKEUPS]);
	EXPECT_LE(in.v[OMWARE_A_GUARD_MISSES], in.v[OMWARE_A_GUARD_WAKEUPS]);
	EXPECT_GE(fs.so.guard_max_ns, in.v[OMWARE_A_GUARD_QUANTILE_NS])
		TH_LOG("quantile above the guard cap");
	/* Stalls are the host's doing: only their consistency is certain. */
	EXPECT_TRUE(g1.st_has[OMWARE_STATS_A_SPIN_STALLS] &&
		    g1.st_has[OMWARE_STATS_A_SPIN_STALL_MAX_NS]);
	EXPECT_TRUE(in.st_has[OMWARE_STATS_A_SPIN_STALLS] &&
		    in.st_has[OMWARE_STATS_A_SPIN_STALL_MAX_NS]);
	EXPECT_LE(st0[OMWARE_STATS_A_SPIN_STALLS], st1[OMWARE_STATS_A_SPIN_STALLS]);
	EXPECT_EQ(st1[OMWARE_STATS_A_SPIN_STALLS] == 0,
		  st1[OMWARE_STATS_A_SPIN_STALL_MAX_NS] == 0);
	if (st1[OMWARE_STATS_A_SPIN_STALLS])
		EXPECT_LT(OMWARE_SPIN_STALL_NS,
			  st1[OMWARE_STATS_A_SPIN_STALL_MAX_NS]);
}

/* Count the 1514-byte frame and the bare header as they arrive (5 s). */
static void count_min_max(struct topo *t, const struct batch *b,
			  const struct pkt *bare, int *n1514, int *n14)
{
	uint64_t deadline = mono() + 5 * NSEC_PER_SEC;

	while (mono() < deadline && !(*n1514 && *n14)) {
		struct pollfd pfd = { .fd = t->rx, .events = POLLIN };
		uint32_t tag, idx;
		int len;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		len = recv(t->rx, rxbuf, sizeof(rxbuf), MSG_DONTWAIT);
		if (len == FRAME_HDR && !memcmp(rxbuf, bare->wire, FRAME_HDR))
			(*n14)++;
		else if (frame_mark(rxbuf, len, &tag, &idx) && tag == b->tag)
			*n1514 += len == FRAME_MAX &&
				  !memcmp(rxbuf, b->p[0].wire, FRAME_MAX);
	}
}

TEST_F(submit, frame_14_and_1514_bytes)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t0 = mono() + 20 * NSEC_PER_MSEC;
	int n1514 = 0, n14 = 0;
	struct report *r;
	struct batch b;
	struct pkt *p;
	uint32_t sid;
	size_t nr;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	rx_flush(c->t);
	batch_init(&b, 2);
	add_frame(&b, FRAME_MAX, c->t->peer_mac, c->t->mac, t0);
	/* a bare header: 14 bytes, its source MAC made unique to spot it */
	p = add_frame(&b, FRAME_MIN_TAGGED, c->t->peer_mac, c->t->mac,
		      t0 + NSEC_PER_MSEC);
	p->len = FRAME_HDR;
	put_be32(p->data + 8, b.tag);
	p->wire_len = FRAME_HDR;
	memcpy(p->wire, p->data, FRAME_HDR);
	EXPECT_EQ(0, submit_all(c->o, sid, &b, NULL));
	count_min_max(c->t, &b, p, &n1514, &n14);
	EXPECT_EQ(1, n1514) TH_LOG("1514-byte frame not delivered intact");
	EXPECT_EQ(1, n14) TH_LOG("14-byte frame not delivered");
	nr = wait_reports(c->o, sid, 2, 5000, 100);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_SENT, true));
	free(r);
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
}

TEST_F(submit, payload_gets_ethernet_header)
{
	static const uint8_t other[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33,
						  0x44, 0x55 };
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t0 = mono() + 20 * NSEC_PER_MSEC;
	struct rxframe f[16];
	struct report *r;
	struct batch b;
	uint32_t sid;
	size_t nr;
	int i, got;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	rx_flush(c->t);
	batch_init(&b, 10);
	for (i = 0; i < 6; i++)
		add_payload(&b, PAYLOAD_MIN + rnd() % 1400,
			    i & 1 ? other : c->t->peer_mac, c->t->mac, -1,
			    t0 + i * NSEC_PER_MSEC);
	/* the largest payload the MTU allows */
	add_payload(&b, 1500, c->t->peer_mac, c->t->mac, -1,
		    t0 + 6 * NSEC_PER_MSEC);
	/* an explicit EtherType overrides the IP version guess */
	add_payload(&b, 200, c->t->peer_mac, c->t->mac, TEST_ETHERTYPE,
		    t0 + 7 * NSEC_PER_MSEC);
	EXPECT_EQ(0, submit_all(c->o, sid, &b, NULL));
	got = rx_collect(c->t, b.tag, f, b.n, 16, 5000, 200);
	EXPECT_EQ(0, check_delivery(&b, f, got));
	nr = wait_reports(c->o, sid, b.n, 5000, 100);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_SENT, true));
	free(r);
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
}

/* Every received frame of @b is the one submitted, byte for byte. */
static int frames_intact(const struct batch *b, const struct rxframe *f,
			 int got)
{
	int i, bad = 0;

	for (i = 0; i < got; i++) {
		const struct pkt *p;

		if (f[i].idx >= (uint32_t)b->n)
			continue;
		p = &b->p[f[i].idx];
		if (f[i].len != p->wire_len || memcmp(f[i].d, p->wire, f[i].len)) {
			diag("frame %u differs", f[i].idx);
			bad++;
		}
	}
	return bad;
}

/* Index (cookie) of each packet in the report sequence (-1: missing). */
static void report_positions(const struct report *r, size_t nr, int *pos,
			     int n)
{
	size_t k;
	int i;

	for (i = 0; i < n; i++)
		pos[i] = -1;
	for (k = 0; k < nr; k++)
		if ((uint32_t)r[k].cookie < (uint32_t)n)
			pos[(uint32_t)r[k].cookie] = k;
}

TEST_F(submit, train_contiguous)
{
	enum { SINGLES = 6, CARS = 8 };
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t = mono() + 40 * NSEC_PER_MSEC;
	struct rxframe f[SINGLES + CARS + 8];
	int pos[SINGLES + CARS], rpos[SINGLES + CARS];
	struct report *r;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	int i, got, err;
	size_t nr;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	rx_flush(c->t);
	batch_init(&b, SINGLES + CARS);
	/* singles due at the same instant must not split the train */
	for (i = 0; i < SINGLES; i++)
		add_frame(&b, 100 + i, c->t->peer_mac, c->t->mac, t);
	for (i = 0; i < CARS; i++)
		add_frame(&b, 200 + 100 * i, c->t->peer_mac, c->t->mac, t);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, 0, SINGLES / 2, NULL, NULL));
	err = train_send(c->o, sid, t, &b, SINGLES, SINGLES + CARS, &a);
	EXPECT_EQ(0, err) TH_LOG("TRAIN: %s %s", twt_errname(err), a.msg);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, SINGLES / 2, SINGLES, NULL,
				  NULL));
	got = rx_collect(c->t, b.tag, f, b.n, SINGLES + CARS + 8, 5000, 200);
	EXPECT_EQ(b.n, got);
	rx_positions(f, got, pos, b.n);
	for (i = SINGLES + 1; i < SINGLES + CARS; i++) {
		EXPECT_TRUE(pos[i] >= 0 && pos[i] == pos[i - 1] + 1)
			TH_LOG("train car %d at position %d, car %d at %d",
			       i - SINGLES, pos[i], i - SINGLES - 1, pos[i - 1]);
	}
	EXPECT_EQ(0, frames_intact(&b, f, got));
	nr = wait_reports(c->o, sid, b.n, 5000, 200);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_SENT, true));
	/* the cars' send times follow their order */
	report_positions(r, nr, rpos, b.n);
	for (i = SINGLES + 1; i < SINGLES + CARS; i++) {
		if (rpos[i] >= 0 && rpos[i - 1] >= 0)
			EXPECT_LE(r[rpos[i - 1]].sent, r[rpos[i]].sent)
				TH_LOG("car %d sent before car %d",
				       i - SINGLES, i - SINGLES - 1);
	}
	free(r);
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
}

TEST_F(submit, pairs_reports_consecutive)
{
	enum { PAIRS = 10 };
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t0 = mono() + 40 * NSEC_PER_MSEC;
	struct rxframe f[3 * PAIRS + 8];
	int pos[3 * PAIRS], rpos[3 * PAIRS];
	struct report *r;
	struct batch b;
	uint32_t sid;
	int i, got, err;
	size_t nr;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	rx_flush(c->t);
	batch_init(&b, 3 * PAIRS);
	/* index 3i: a single due with pair i; 3i+1, 3i+2: the pair */
	for (i = 0; i < PAIRS; i++) {
		uint64_t t = t0 + i * NSEC_PER_MSEC;

		add_frame(&b, 80, c->t->peer_mac, c->t->mac, t);
		add_frame(&b, 1000, c->t->peer_mac, c->t->mac, t);
		add_frame(&b, 1000, c->t->peer_mac, c->t->mac, t);
	}
	for (i = 0; i < PAIRS; i++) {
		EXPECT_EQ(0, submit_range(c->o, sid, &b, 3 * i, 3 * i + 1,
					  NULL, NULL));
		err = train_send(c->o, sid, b.p[3 * i].time, &b, 3 * i + 1,
				 3 * i + 3, NULL);
		EXPECT_EQ(0, err) TH_LOG("pair %d: %s", i, twt_errname(err));
	}
	got = rx_collect(c->t, b.tag, f, b.n, 3 * PAIRS + 8, 5000, 200);
	EXPECT_EQ(b.n, got);
	rx_positions(f, got, pos, b.n);
	nr = wait_reports(c->o, sid, b.n, 5000, 200);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_SENT, true));
	report_positions(r, nr, rpos, b.n);
	for (i = 0; i < PAIRS; i++) {
		int a1 = 3 * i + 1, a2 = 3 * i + 2;

		EXPECT_TRUE(pos[a1] >= 0 && pos[a2] == pos[a1] + 1)
			TH_LOG("pair %d split on the wire (%d, %d)", i,
			       pos[a1], pos[a2]);
		EXPECT_TRUE(rpos[a1] >= 0 && rpos[a2] == rpos[a1] + 1)
			TH_LOG("pair %d reports not consecutive (%d, %d)", i,
			       rpos[a1], rpos[a2]);
		if (rpos[a1] >= 0 && rpos[a2] >= 0)
			EXPECT_LE(r[rpos[a1]].sent, r[rpos[a2]].sent)
				TH_LOG("pair %d: second packet sent first", i);
	}
	free(r);
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
}

TEST_F(submit, past_time_sent_at_once_late)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct rxframe f[4];
	struct report *r;
	struct batch b;
	struct info in;
	uint32_t sid;
	size_t nr;
	int got;

	so.has_late = true;
	so.late_ns = 20000;
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	rx_flush(c->t);
	batch_init(&b, 1);
	add_frame(&b, 300, c->t->peer_mac, c->t->mac,
		  mono() - 5 * NSEC_PER_MSEC);
	EXPECT_EQ(0, submit_all(c->o, sid, &b, NULL));
	got = rx_collect(c->t, b.tag, f, 1, 4, 3000, 100);
	EXPECT_EQ(0, check_delivery(&b, f, got));
	nr = wait_reports(c->o, sid, 1, 3000, 100);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_SENT, true));
	/* at least the 5 ms it was in the past */
	if (nr == 1)
		EXPECT_LE(5 * NSEC_PER_MSEC, r[0].sent - r[0].sched);
	free(r);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(1, in.st[OMWARE_STATS_A_LATE]);
	EXPECT_EQ(1, in.st[OMWARE_STATS_A_SENT]);
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
}

OMW_HARNESS_MAIN
