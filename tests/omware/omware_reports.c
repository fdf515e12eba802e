// SPDX-License-Identifier: GPL-2.0
/*
 * omware_reports.c - how packets end when they are not simply sent:
 * cancelled by cookie or by FLUSH, dropped while the link is down; one
 * report each, and counters that add up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "omware_lib.h"
#include "kselftest_harness.h"

OMW_FIXTURE(reports)

TEST_F(reports, cancel_by_cookie)
{
	const uint64_t cookies[6] = { 10, 11, 12, 12, 13, 14 };
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct report *r;
	struct info in;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	size_t nr, k;
	int err;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	b = park(c, 6, cookies);
	EXPECT_EQ(0, submit_all(c->o, sid, &b, NULL));
	err = cancel_cookie(c->o, sid, 12, &a);
	EXPECT_EQ(0, err) TH_LOG("CANCEL: %s %s", twt_errname(err), a.msg);
	nr = wait_reports(c->o, sid, 2, 3000, 200);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(2, nr) TH_LOG("reports after cancelling 2 packets");
	for (k = 0; k < nr; k++) {
		EXPECT_EQ(12, r[k].cookie);
		EXPECT_EQ(OMWARE_STATUS_CANCELLED, r[k].status);
		EXPECT_EQ(0, r[k].sent) TH_LOG("cancelled packet has sent_ns");
	}
	free(r);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(4, in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(2, in.st[OMWARE_STATS_A_CANCELLED]);
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
}

/*
 * A cancel walks the pending list in chunks with the lock dropped between
 * them: over many chunks, it must cancel exactly the packets carrying the
 * cookie, report each once, and leave the others queued in order.
 */
TEST_F(reports, cancel_across_chunks)
{
	const int n = 2000;
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t *cookies = calloc(n, sizeof(*cookies));
	struct report *r;
	struct info in;
	struct batch b;
	uint32_t sid;
	size_t nr, k;
	int i, want = 0;

	ASSERT_NE(NULL, cookies);
	for (i = 0; i < n; i++) {
		cookies[i] = i % 3 ? 5 : 7;
		want += i % 3 == 0;
	}
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	b = park(c, n, cookies);
	ASSERT_EQ(0, submit_all(c->o, sid, &b, NULL));
	EXPECT_EQ(0, cancel_cookie(c->o, sid, 7, NULL));
	nr = wait_reports(c->o, sid, want, 5000, 300);
	take_reports(c->o, sid, &r);
	EXPECT_EQ((size_t)want, nr) TH_LOG("reports after cancelling %d", want);
	for (k = 0; k < nr; k++) {
		EXPECT_EQ(7, r[k].cookie);
		EXPECT_EQ(OMWARE_STATUS_CANCELLED, r[k].status);
	}
	free(r);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(n - want, in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(want, in.st[OMWARE_STATS_A_CANCELLED]);
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
	free(cookies);
}

TEST_F(reports, cancel_unknown_cookie)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct snap before;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	b = park(c, 2, NULL);
	ASSERT_EQ(0, submit_all(c->o, sid, &b, NULL));
	before = snapshot(c);
	cancel_cookie(c->o, sid, 0xfeedULL, &a);
	EXPECT_EQ(0, check_refused(c, &before, &a, ENOENT));
	simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL);
	session_del(c->o, sid);
	drop_reports(c->o, sid);
	batch_free(&b);
}

TEST_F(reports, flush_cancels_all)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct rxframe f[2];
	struct report *r;
	struct info in;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	size_t nr;
	int err;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	rx_flush(c->t);
	b = park(c, 40, NULL);
	EXPECT_EQ(0, submit_all(c->o, sid, &b, NULL));
	err = simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, &a);
	EXPECT_EQ(0, err) TH_LOG("FLUSH: %s %s", twt_errname(err), a.msg);
	nr = wait_reports(c->o, sid, b.n, 3000, 200);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b, r, nr, OMWARE_STATUS_CANCELLED, false));
	free(r);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(0, in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(0, in.v[OMWARE_A_PENDING_BYTES]);
	EXPECT_EQ(b.n, in.st[OMWARE_STATS_A_CANCELLED]);
	/* a flushed packet must never reach the wire */
	EXPECT_EQ(0, rx_collect(c->t, b.tag, f, 1, 2, 300, 0))
		TH_LOG("a flushed packet was sent");
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
}

TEST_F(reports, counters_add_up)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t0 = mono() + 20 * NSEC_PER_MSEC;
	struct info in, g;
	struct batch b;
	uint32_t sid;
	int i;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	batch_init(&b, 30);
	for (i = 0; i < 10; i++)	/* sent soon */
		add_frame(&b, 90, c->t->peer_mac, c->t->mac, t0 + i * 100000);
	for (i = 0; i < 20; i++)	/* parked, half cancelled */
		add_frame(&b, 90, c->t->peer_mac, c->t->mac,
			  t0 + FAR_AHEAD_NS + i);
	for (i = 10; i < 30; i += 2)
		b.p[i].cookie = 0xc0c0;
	EXPECT_EQ(0, submit_all(c->o, sid, &b, NULL));
	EXPECT_EQ(0, cancel_cookie(c->o, sid, 0xc0c0, NULL));
	/* 10 sent + 10 cancelled */
	EXPECT_EQ(20, wait_reports(c->o, sid, 20, 5000, 100));
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(30, in.st[OMWARE_STATS_A_SUBMITTED]);
	EXPECT_EQ(10, in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(0, stats_add_up("session", &in));
	EXPECT_EQ(0, stats_get(c->o, &g));
	EXPECT_EQ(0, stats_add_up("module", &g));
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	wait_reports(c->o, sid, 30, 3000, 100);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(0, stats_add_up("session after flush", &in));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
}

/*
 * Packets that fall due while their device is down, or while its carrier
 * is off because the veth peer is down, are dropped and reported as such;
 * the session lives on and sends again once the link is back.  A veth of
 * its own keeps the program's one untouched.
 */
FIXTURE(link_loss) {
	struct omw_ctx c;
	struct topo t;
};

FIXTURE_VARIANT(link_loss) {
	bool peer_side;
	int want_rc;
};

FIXTURE_VARIANT_ADD(link_loss, device_down) {
	.peer_side = false, .want_rc = -ENETDOWN,
};

FIXTURE_VARIANT_ADD(link_loss, peer_down_no_carrier) {
	.peer_side = true, .want_rc = -ENOLINK,
};

FIXTURE_SETUP(link_loss)
{
	self->t.rx = -1;
	ASSERT_EQ(0, omw_ctx_open(&self->c));
	ASSERT_EQ(0, topo_make(&self->t, 1));
}

FIXTURE_TEARDOWN(link_loss)
{
	topo_del(&self->t);
	EXPECT_EQ(0, omw_ctx_close(&self->c));
}

static void wait_carrier(const struct topo *t)
{
	int i;

	for (i = 0; i < 100 && !if_carrier(t->dev); i++)
		sleep_ms(20);
}

/*
 * A new session, five packets due @margin ahead, then the link down.
 * False when the link went down only after they fell due (a loaded,
 * emulated guest): then the session is gone and the link up again.
 */
static bool drop_window(struct __test_metadata *_metadata, struct omw_ctx *c,
			struct topo *t, bool peer_side, uint64_t margin,
			uint32_t *sid, struct batch *b)
{
	struct sopts so = { .ifindex = t->ifindex };
	uint64_t due = mono() + margin;
	int i;

	ASSERT_EQ(0, session_new(c->o, &so, sid, NULL));
	batch_init(b, 5);
	for (i = 0; i < 5; i++)
		add_frame(b, 200, t->peer_mac, t->mac, due + i * NSEC_PER_MSEC);
	EXPECT_EQ(0, submit_all(c->o, *sid, b, NULL));
	ASSERT_EQ(0, topo_set_link(t, peer_side, false));
	if (mono() < due)
		return true;
	diag("the link went down after the packets fell due: more room");
	EXPECT_EQ(0, session_del(c->o, *sid));
	drop_reports(c->o, *sid);
	batch_free(b);
	ASSERT_EQ(0, topo_set_link(t, peer_side, true));
	wait_carrier(t);
	return false;
}

/* The dropped packets: one report each, with the link's errno. */
static void check_dropped(struct __test_metadata *_metadata,
			  struct omw_ctx *c, uint32_t sid,
			  const struct batch *b, int want_rc)
{
	struct report *r;
	struct info in;
	size_t nr, k;

	nr = wait_reports(c->o, sid, b->n, 10000, 200);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(b, r, nr, OMWARE_STATUS_DROPPED, false));
	for (k = 0; k < nr; k++) {
		EXPECT_EQ(want_rc, r[k].rc);
		EXPECT_EQ(0, r[k].sent) TH_LOG("dropped packet has sent_ns");
	}
	free(r);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(b->n, in.st[OMWARE_STATS_A_DROPPED_DOWN]);
	EXPECT_EQ(0, in.st[OMWARE_STATS_A_SENT]);
}

TEST_F_TIMEOUT(link_loss, drops_then_sends, SLOW_TEST_S)
{
	struct omw_ctx *c = &self->c;
	struct topo *t = &self->t;
	uint64_t margin = 1500 * NSEC_PER_MSEC;
	struct rxframe f[4];
	struct report *r;
	struct batch b, b2;
	uint32_t sid;
	size_t nr;

	while (!drop_window(_metadata, c, t, variant->peer_side, margin, &sid,
			    &b)) {
		margin *= 2;
		ASSERT_GE(12ULL * slow_mult() * NSEC_PER_SEC, margin)
			TH_LOG("cannot take the link down in time");
	}
	check_dropped(_metadata, c, sid, &b, variant->want_rc);

	/* link back: the same session sends again */
	EXPECT_EQ(0, topo_set_link(t, variant->peer_side, true));
	wait_carrier(t);
	rx_flush(t);
	batch_init(&b2, 1);
	add_frame(&b2, 300, t->peer_mac, t->mac, mono() + 20 * NSEC_PER_MSEC);
	EXPECT_EQ(0, submit_all(c->o, sid, &b2, NULL));
	nr = wait_reports(c->o, sid, 1, 5000, 100);
	take_reports(c->o, sid, &r);
	EXPECT_EQ(0, check_reports(&b2, r, nr, OMWARE_STATUS_SENT, true));
	free(r);
	EXPECT_EQ(0, check_delivery(&b2, f, rx_collect(t, b2.tag, f, 1, 4,
							3000, 100)));
	EXPECT_EQ(0, session_del(c->o, sid));
	batch_free(&b);
	batch_free(&b2);
}

OMW_HARNESS_MAIN
