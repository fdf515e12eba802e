// SPDX-License-Identifier: GPL-2.0
/*
 * omware_limits.c - the caps on pending packets and bytes, per session and
 * module-wide: a batch that would pass one is refused whole, with an
 * extack message, and changes nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>

#include "omware_client.h"
#include "kselftest_harness.h"

OMW_FIXTURE(limit)

TEST_F(limit, session_max_pkts)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct info in, g0, g1;
	struct batch b;
	struct ack a;
	uint32_t sid;
	int err;

	so.max_pkts = 4;
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	b = park(c, 9, NULL);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, 0, 3, NULL, NULL))
		TH_LOG("3 packets under a cap of 4 refused");
	EXPECT_EQ(0, stats_get(c->o, &g0));
	err = submit_range(c->o, sid, &b, 3, 5, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the cap: %s", errname(err));
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
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("one over a full cap: %s", errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("no extack message");
	EXPECT_EQ(0, simple_cmd(c->o, OMWARE_CMD_FLUSH, sid, NULL));
	EXPECT_EQ(0, session_del(c->o, sid));
	drop_reports(c->o, sid);
	batch_free(&b);
}

TEST_F(limit, session_max_bytes)
{
	static const int lens[] = { 1000, 1000, 1200, 1400 };
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	uint64_t t0 = mono() + FAR_AHEAD_NS;
	struct info in, in2;
	struct batch b;
	struct ack a;
	uint32_t sid;
	int err, i;

	so.max_bytes = 3000;
	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	batch_init(&b, 4);
	for (i = 0; i < 4; i++)
		add_frame(&b, lens[i], c->t->peer_mac, c->t->mac, t0 + i);
	EXPECT_EQ(0, submit_range(c->o, sid, &b, 0, 2, NULL, NULL))
		TH_LOG("2000 bytes under a 3000-byte cap refused");
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(2, in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(2000, in.v[OMWARE_A_PENDING_BYTES]);
	err = submit_range(c->o, sid, &b, 2, 4, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the byte cap: %s", errname(err));
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
	uint64_t room;		/* above what is pending now */
};

FIXTURE_VARIANT_ADD(global_cap, pkts) {
	.param = "max_pkts", .pending_attr = OMWARE_A_PENDING_PKTS,
	.cap_attr = OMWARE_A_MAX_PKTS, .room = 5,
};

FIXTURE_VARIANT_ADD(global_cap, bytes) {
	.param = "max_bytes", .pending_attr = OMWARE_A_PENDING_BYTES,
	.cap_attr = OMWARE_A_MAX_BYTES, .room = 4500,
};

FIXTURE_SETUP(global_cap)
{
	ASSERT_EQ(0, omw_ctx_open(&self->c));
	if (read_param(variant->param, self->old, sizeof(self->old)))
		SKIP(return, "no parameter %s in %s", variant->param,
		     omw_env.pdir);
}

FIXTURE_TEARDOWN(global_cap)
{
	if (self->old[0])
		EXPECT_EQ(0, write_param(variant->param, self->old))
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
	struct ack a;
	uint32_t sid;
	uint64_t cap;
	int err, k;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	/* four 1000-byte frames fit, the fifth and sixth do not */
	batch_init(&b, 6);
	for (k = 0; k < 6; k++)
		add_frame(&b, 1000, c->t->peer_mac, c->t->mac,
			  mono() + FAR_AHEAD_NS + k);
	ASSERT_EQ(0, stats_get(c->o, &g));
	cap = g.v[variant->pending_attr] + variant->room;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)cap);
	if (write_param(variant->param, val)) {
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
				 errname(err), a.msg);
	err = submit_range(c->o, sid, &b, 4, 6, NULL, &a);
	EXPECT_EQ(-ENOBUFS, err) TH_LOG("over the module cap: %s", errname(err));
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
