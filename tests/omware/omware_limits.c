// SPDX-License-Identifier: GPL-2.0
/*
 * omware_limits.c - the caps on pending packets and bytes, per session and
 * module-wide: a batch that would pass one is refused whole, with an
 * extack message, and changes nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/socket.h>

#include "omware_lib.h"
#include "kselftest_harness.h"

OMW_FIXTURE(limit)

TEST_F(limit, session_max_pkts)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct info in, g0, g1;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	int err;

	so.max_pkts = 4;
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	b = park(c, 9, NULL);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, 0, 3, NULL, NULL))
		TH_LOG("3 packets under a cap of 4 refused");
	EXPECT_EQ(0, stats_get(c->o, &g0));
	err = submit_range(c->o, sid, &b, 3, 5, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the cap: %s", twt_errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("no extack message");
	if (a.has_msg)
		diag("extack: \"%s\"", a.msg);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(3, in.v[OMWARE_A_PENDING_PKTS])
		TH_LOG("pending after a refused batch");
	/* module counters do not move for a refused batch */
	EXPECT_EQ(0, stats_get(c->o, &g1));
	EXPECT_EQ(g0.v[OMWARE_A_PENDING_PKTS], g1.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(g0.st[OMWARE_STATS_A_SUBMITTED],
		  g1.st[OMWARE_STATS_A_SUBMITTED]);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, 5, 6, NULL, NULL))
		TH_LOG("filling the cap exactly was refused");
	err = submit_range(c->o, sid, &b, 6, 7, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("one over a full cap: %s", twt_errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("no extack message");
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
}

/*
 * What one parked frame of @len bytes pins, as the byte caps count it: its
 * sk_buff's truesize and its share of the report memory, learnt from a
 * session without a byte cap.  0 on failure.
 */
static uint64_t frame_charge(struct omw_ctx *c, int len)
{
	struct sopts so = base_opts(c);
	struct info in;
	struct batch b;
	uint64_t charge = 0;
	uint32_t sid;

	if (session_new(c->o, &so, &sid, NULL))
		return 0;
	batch_init(&b, 1);
	add_frame(&b, len, c->t->peer_mac, c->t->mac, mono() + FAR_AHEAD_NS);
	if (!submit_all(c->o, sid, &b, NULL) &&
	    !session_get(c->o, sid, &in, NULL))
		charge = in.v[OMWARE_A_PENDING_BYTES];
	session_del(c->o, sid);
	drop_reports(c->o, sid);
	batch_free(&b);
	return charge;
}

/* The byte cap counts memory pinned, never less than the frame itself. */
TEST_F(limit, session_max_bytes)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t0 = mono() + FAR_AHEAD_NS, one;
	struct info in, in2;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	int err, i;

	one = frame_charge(c, 1000);
	ASSERT_LT(1000, one) TH_LOG("a 1000-byte frame counted as %llu bytes",
				    (unsigned long long)one);
	EXPECT_GT(16384, one) TH_LOG("a 1000-byte frame counted as %llu bytes",
				     (unsigned long long)one);
	so.max_bytes = 2 * one + one / 2;
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	batch_init(&b, 4);
	for (i = 0; i < 4; i++)
		add_frame(&b, 1000, c->t->peer_mac, c->t->mac, t0 + i);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, 0, 2, NULL, NULL))
		TH_LOG("two frames under a cap of two and a half refused");
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(2, in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(2 * one, in.v[OMWARE_A_PENDING_BYTES]);
	err = submit_range(c->o, sid, &b, 2, 4, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the byte cap: %s", twt_errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("no extack message");
	/* the refused batch changed nothing */
	EXPECT_EQ(0, session_get(c->o, sid, &in2, NULL));
	EXPECT_EQ(2, in2.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(in.v[OMWARE_A_PENDING_BYTES], in2.v[OMWARE_A_PENDING_BYTES]);
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
}

/*
 * Reports the owner does not read still hold the caps: with its receive
 * buffer full, a session whose packets all left refuses a submit that
 * would go over them.  Once delivery gives up, the loss is counted and the
 * caps are free again.  The owner here is a socket of its own with a small
 * receive buffer that is not read while the reports come (reports fill at
 * most half of it, so the acks of its requests still fit).
 */
FIXTURE(unread) {
	struct omw_ctx c;
	char old[64];		/* report_retries before the test */
};

FIXTURE_SETUP(unread)
{
	ASSERT_EQ(0, omw_ctx_open(&self->c));
	if (param_read("omware", "report_retries", self->old, sizeof(self->old)))
		SKIP(return, "no parameter report_retries");
}

FIXTURE_TEARDOWN(unread)
{
	if (self->old[0])
		EXPECT_EQ(0, param_write("omware", "report_retries", self->old));
	EXPECT_EQ(0, omw_ctx_close(&self->c));
}

/* Poll (through another socket) until @sid's counter @attr reaches @want. */
static bool wait_stat(struct ow *o, uint32_t sid, int attr, uint64_t want,
		      int timeout_ms)
{
	struct info in;

	for (timeout_ms *= slow_mult(); timeout_ms > 0; timeout_ms -= 50) {
		if (!session_get(o, sid, &in, NULL) && in.st[attr] >= want)
			return true;
		usleep(50000);
	}
	return false;
}

/* Poll until @sid holds no packet for an undelivered report. */
static bool wait_unheld(struct ow *o, uint32_t sid, int timeout_ms)
{
	struct info in;

	for (timeout_ms *= slow_mult(); timeout_ms > 0; timeout_ms -= 50) {
		if (!session_get(o, sid, &in, NULL) &&
		    !in.v[OMWARE_A_PENDING_PKTS])
			return true;
		usleep(50000);
	}
	return false;
}

/*
 * Wait until the report work has delivered what @owner's buffer holds
 * (something to read there) and @sid's undelivered count has stopped
 * moving (nobody reads, so its retries deliver nothing more); fills @in.
 */
static bool wait_reports_settled(struct ow *o, struct ow *owner,
				 uint32_t sid, struct info *in)
{
	struct pollfd pfd = { .fd = owner->s.fd, .events = POLLIN };
	uint64_t last = UINT64_MAX;
	int i;

	for (i = 0; i < 100; i++) {
		/* longer than the work's longest retry backoff */
		if (i)
			usleep(300000 * slow_mult());
		if (poll(&pfd, 1, 0) <= 0 || session_get(o, sid, in, NULL))
			continue;
		if (in->v[OMWARE_A_PENDING_PKTS] == last)
			return true;
		last = in->v[OMWARE_A_PENDING_PKTS];
	}
	return false;
}

TEST_F(unread, reports_hold_the_caps)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	int small = 16384, n = 1000, err;
	struct info in;
	struct batch b;
	struct ow *owner;
	struct twt_ack a;
	uint32_t sid;

	/*
	 * Hours of retries: the loss must not come before we look, however
	 * slow the guest; lowering the parameter later ends them at once.
	 */
	ASSERT_EQ(0, param_write("omware", "report_retries", "100000"));
	owner = ow_open();
	setsockopt(owner->s.fd, SOL_SOCKET, SO_RCVBUFFORCE, &small, sizeof(small));
	so.max_pkts = n;
	ASSERT_EQ(0, session_new(owner, &so, &sid, NULL));
	/*
	 * Due once the submit is over: reading the acks of the submit
	 * would read the reports that came meanwhile.
	 */
	b = park_at(c->t, n, mono() + 3ULL * slow_mult() * NSEC_PER_SEC, NULL);
	ASSERT_EQ(0, submit_all(owner, sid, &b, NULL));
	ASSERT_TRUE(wait_stat(c->o2, sid, OMWARE_STATS_A_SENT, n, 20000))
		TH_LOG("the packets were not all sent");
	ASSERT_TRUE(wait_reports_settled(c->o2, owner, sid, &in))
		TH_LOG("the reports did not settle");
	diag("%llu of %d reports undelivered",
	     (unsigned long long)in.v[OMWARE_A_PENDING_PKTS], n);
	EXPECT_LT(0, in.v[OMWARE_A_PENDING_PKTS])
		TH_LOG("every report fitted a tiny buffer");
	EXPECT_LT(0, in.v[OMWARE_A_PENDING_BYTES]);
	batch_free(&b);
	b = park(c, n - in.v[OMWARE_A_PENDING_PKTS] + 1, NULL);
	err = submit_range(owner, sid, &b, 0, b.n, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the cap held by unread reports: %s",
				       twt_errname(err));

	/* give up delivery soon: the loss is counted and the caps freed */
	ASSERT_EQ(0, param_write("omware", "report_retries", "1"));
	EXPECT_TRUE(wait_stat(c->o2, sid, OMWARE_STATS_A_REPORTS_LOST, 1,
			      10000)) TH_LOG("no report counted lost");
	/* The work gives up a batch at a time: wait for the last one. */
	EXPECT_TRUE(wait_unheld(c->o2, sid, 10000));
	EXPECT_EQ(0, session_get(c->o2, sid, &in, NULL));
	EXPECT_EQ(0, in.v[OMWARE_A_PENDING_PKTS]) TH_LOG("lost reports still held");
	EXPECT_EQ(0, in.v[OMWARE_A_PENDING_BYTES]);
	EXPECT_EQ(n, in.st[OMWARE_STATS_A_SENT]);
	ow_close(owner);
	batch_free(&b);
}

/*
 * A module-wide cap, lowered through its parameter under a session created
 * before, whose own cap is far larger: the refusal can only come from the
 * module-wide one.
 */
FIXTURE(global_cap) {
	struct omw_ctx c;
	char old[64];		/* the parameter's value before the test */
};

FIXTURE_VARIANT(global_cap) {
	const char *param;
	int pending_attr, cap_attr;
	bool bytes;		/* room counts frame charges, not packets */
};

FIXTURE_VARIANT_ADD(global_cap, pkts) {
	.param = "max_pkts", .pending_attr = OMWARE_A_PENDING_PKTS,
	.cap_attr = OMWARE_A_MAX_PKTS,
};

FIXTURE_VARIANT_ADD(global_cap, bytes) {
	.param = "max_bytes", .pending_attr = OMWARE_A_PENDING_BYTES,
	.cap_attr = OMWARE_A_MAX_BYTES, .bytes = true,
};

FIXTURE_SETUP(global_cap)
{
	ASSERT_EQ(0, omw_ctx_open(&self->c));
	if (param_read("omware", variant->param, self->old, sizeof(self->old)))
		SKIP(return, "no parameter %s of the omware module",
		     variant->param);
}

FIXTURE_TEARDOWN(global_cap)
{
	if (self->old[0])
		EXPECT_EQ(0, param_write("omware", variant->param, self->old))
			TH_LOG("cannot restore %s", variant->param);
	EXPECT_EQ(0, omw_ctx_close(&self->c));
}

TEST_F(global_cap, refuses_over)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct info g, in;
	char val[64];
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	uint64_t cap, one = 1;
	int err, k;

	if (variant->bytes) {
		one = frame_charge(c, 1000);
		ASSERT_LT(1000, one);
	}
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	/* four 1000-byte frames fit, the fifth and sixth do not */
	batch_init(&b, 6);
	for (k = 0; k < 6; k++)
		add_frame(&b, 1000, c->t->peer_mac, c->t->mac,
			  mono() + FAR_AHEAD_NS + k);
	ASSERT_EQ(0, stats_get(c->o, &g));
	/* room for four and a half frames */
	cap = g.v[variant->pending_attr] + 4 * one + one / 2;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)cap);
	if (param_write("omware", variant->param, val)) {
		self->old[0] = '\0';
		SKIP(return, "parameter %s is not writable", variant->param);
	}
	EXPECT_EQ(0, stats_get(c->o, &g));
	EXPECT_EQ(cap, g.v[variant->cap_attr]);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_LT(cap, in.v[variant->cap_attr])
		TH_LOG("the session's own cap is not above the module's");
	err = submit_range(c->o, sid, &b, 0, 4, NULL, &a);
	EXPECT_EQ(0, err) TH_LOG("4 packets under the module cap: %s %s",
				 twt_errname(err), a.msg);
	err = submit_range(c->o, sid, &b, 4, 6, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the module cap: %s", twt_errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("no extack message");
	if (a.has_msg)
		diag("extack: \"%s\"", a.msg);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(4, in.v[OMWARE_A_PENDING_PKTS])
		TH_LOG("pending after a refused batch");
	EXPECT_EQ(0, stats_get(c->o, &g));
	EXPECT_GE(cap, g.v[variant->pending_attr])
		TH_LOG("module pending above the cap");
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
}

OMW_HARNESS_MAIN
