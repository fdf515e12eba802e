// SPDX-License-Identifier: GPL-2.0
/*
 * omware_session.c - sessions of the omware family: create, look at and
 * delete them, their lifetime with the socket, their namespace, and who
 * may drive them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "omware_client.h"
#include "kselftest_harness.h"

OMW_FIXTURE(session)

TEST_F(session, family_registered)
{
	struct info in;

	EXPECT_LT(0, omw_family());
	ASSERT_EQ(0, stats_get(self->c.o, &in));
	EXPECT_TRUE(in.has[OMWARE_A_STATS])
		TH_LOG("STATS_GET without OMWARE_A_STATS");
	EXPECT_TRUE(in.has[OMWARE_A_PENDING_PKTS] && in.has[OMWARE_A_MAX_PKTS] &&
		    in.has[OMWARE_A_MAX_BYTES] && in.has[OMWARE_A_PENDING_BYTES])
		TH_LOG("STATS_GET lacks pending or cap attributes");
	EXPECT_EQ(0, in.bad_width);
}

/* A new session as SESSION_GET shows it: what was asked, and defaults. */
static void check_new_session(struct __test_metadata *_metadata,
			      struct omw_ctx *c, const struct info *in,
			      uint32_t sid)
{
	EXPECT_EQ(sid, in->v[OMWARE_A_SESSION_ID]);
	EXPECT_EQ(c->t->ifindex, in->v[OMWARE_A_IFINDEX]);
	EXPECT_STREQ(c->t->dev, in->ifname);
	EXPECT_TRUE(in->has[OMWARE_A_CLOCKID]);
	EXPECT_EQ(CLOCK_MONOTONIC, in->v[OMWARE_A_CLOCKID]);
	EXPECT_TRUE(in->has[OMWARE_A_MODE]);
	EXPECT_EQ(OMWARE_MODE_TIMER, in->v[OMWARE_A_MODE]);
	EXPECT_TRUE(in->has[OMWARE_A_XMIT]);
	/* the default late threshold */
	EXPECT_TRUE(in->has[OMWARE_A_LATE_NS]);
	EXPECT_EQ(20000, in->v[OMWARE_A_LATE_NS]);
	EXPECT_TRUE(in->has[OMWARE_A_OWNER_PORTID]);
	EXPECT_EQ(c->o->portid, in->v[OMWARE_A_OWNER_PORTID]);
	EXPECT_TRUE(in->has[OMWARE_A_PENDING_PKTS]);
	EXPECT_EQ(0, in->v[OMWARE_A_PENDING_PKTS]);
	/* a default packet cap */
	EXPECT_TRUE(in->has[OMWARE_A_MAX_PKTS] && in->v[OMWARE_A_MAX_PKTS]);
	EXPECT_TRUE(in->has[OMWARE_A_STATS]);
	EXPECT_EQ(0, in->bad_width);
}

TEST_F(session, session_new_get_del)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct info in;
	struct dump d;
	struct ack a;
	uint32_t sid;
	int err;

	err = session_new(c->o, &so, &sid, &a);
	ASSERT_EQ(0, err) TH_LOG("SESSION_NEW: %s %s", errname(err), a.msg);
	err = session_get(c->o, sid, &in, &a);
	EXPECT_EQ(0, err) TH_LOG("SESSION_GET: %s %s", errname(err), a.msg);
	check_new_session(_metadata, c, &in, sid);

	EXPECT_EQ(0, session_dump(c->o, &d));
	EXPECT_TRUE(dump_has(&d, sid)) TH_LOG("dump does not list the session");
	free(d.v);

	err = simple_cmd(c->o, OMWARE_CMD_SESSION_DEL, sid, &a);
	EXPECT_EQ(0, err) TH_LOG("SESSION_DEL: %s %s", errname(err), a.msg);
	err = session_get(c->o, sid, &in, &a);
	EXPECT_EQ(-ENOENT, err) TH_LOG("GET after DEL: %s", errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("GET after DEL: no extack message");
	err = simple_cmd(c->o, OMWARE_CMD_SESSION_DEL, sid, &a);
	EXPECT_EQ(-ENOENT, err) TH_LOG("second DEL: %s", errname(err));
	EXPECT_TRUE(a.has_msg) TH_LOG("second DEL: no extack message");
	EXPECT_EQ(0, session_dump(c->o, &d));
	EXPECT_FALSE(dump_has(&d, sid)) TH_LOG("dump still lists the session");
	free(d.v);
}

TEST_F(session, session_attributes_kept)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct info in;
	struct ack a;
	uint32_t sid;
	int err;

	so.has_clockid = true;
	so.clockid = CLOCK_TAI;
	so.has_xmit = true;
	so.xmit = OMWARE_XMIT_QDISC;
	so.has_late = true;
	so.late_ns = 12345;
	so.max_pkts = 77;
	so.max_bytes = 88888;
	err = session_new(c->o, &so, &sid, &a);
	ASSERT_EQ(0, err) TH_LOG("SESSION_NEW: %s %s", errname(err), a.msg);
	EXPECT_EQ(0, session_get(c->o, sid, &in, NULL));
	EXPECT_EQ(CLOCK_TAI, in.v[OMWARE_A_CLOCKID]);
	EXPECT_EQ(OMWARE_XMIT_QDISC, in.v[OMWARE_A_XMIT]);
	EXPECT_EQ(12345, in.v[OMWARE_A_LATE_NS]);
	EXPECT_EQ(77, in.v[OMWARE_A_MAX_PKTS]);
	EXPECT_EQ(88888, in.v[OMWARE_A_MAX_BYTES]);
	EXPECT_EQ(0, session_del(c->o, sid));
}

/* Wait up to a second for the session to leave the dump. */
static bool session_gone(struct ow *o, uint32_t sid)
{
	struct dump d;
	bool gone = false;
	int i;

	for (i = 0; i < 50 && !gone; i++) {
		if (session_dump(o, &d) == 0)
			gone = !dump_has(&d, sid);
		free(d.v);
		if (!gone)
			sleep_ms(20);
	}
	return gone;
}

TEST_F(session, socket_close_ends_session)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct snap before = snapshot(c), after;
	struct ow *o3 = ow_open();
	struct info g0, g1;
	struct batch b;
	uint32_t sid;

	ASSERT_EQ(0, session_new(o3, &so, &sid, NULL));
	b = park(c, 16, NULL);
	EXPECT_EQ(0, submit_all(o3, sid, &b, NULL));
	EXPECT_EQ(0, stats_get(c->o, &g0));
	ow_close(o3);
	EXPECT_TRUE(session_gone(c->o, sid))
		TH_LOG("session survives its socket");
	EXPECT_EQ(0, stats_get(c->o, &g1));
	after = snapshot(c);
	EXPECT_EQ(before.sessions, after.sessions);
	EXPECT_EQ(before.pending, after.pending);
	/* its packets were accepted, so they end as cancelled */
	EXPECT_EQ(16, g1.st[OMWARE_STATS_A_CANCELLED] -
		      g0.st[OMWARE_STATS_A_CANCELLED]);
	EXPECT_EQ(g0.st[OMWARE_STATS_A_SENT], g1.st[OMWARE_STATS_A_SENT])
		TH_LOG("a packet of the closed session was sent");
	batch_free(&b);
}

TEST_F(session, netns_isolation)
{
	struct omw_ctx *c = &self->c;
	struct sopts so = base_opts(c);
	struct ow *peer;
	struct info in;
	struct dump d;
	struct ack a;
	uint32_t sid;

	ASSERT_EQ(0, session_new(c->o, &so, &sid, NULL));
	if (enter_ns(c->t->ns))
		SKIP(return, "cannot enter %s", c->t->ns);
	peer = ow_open();
	ASSERT_EQ(0, leave_ns());
	EXPECT_EQ(0, session_dump(peer, &d));
	EXPECT_FALSE(dump_has(&d, sid)) TH_LOG("the peer netns sees our session");
	free(d.v);
	EXPECT_EQ(-ENOENT, session_get(peer, sid, &in, &a));
	EXPECT_EQ(-ENOENT, simple_cmd(peer, OMWARE_CMD_FLUSH, sid, &a));
	ow_close(peer);
	EXPECT_EQ(0, session_del(c->o, sid));
}

/*
 * Without CAP_NET_ADMIN every state-changing command fails with -EPERM,
 * while the read-only ones still work.  The socket is opened with the
 * capability and it is dropped before sending, since the check is made
 * against the sender at send time.  genetlink refuses before the family's
 * handler runs, so no extack message is required here.
 */
OMW_FIXTURE(no_net_admin)

FIXTURE_VARIANT(no_net_admin) {
	struct req req;
	int want;		/* errno, 0 for success */
};

#define NO_NET_ADMIN(name, r, e)					\
	FIXTURE_VARIANT_ADD(no_net_admin, name) {			\
		.req = r, .want = e,					\
	}

NO_NET_ADMIN(session_new, REQ_SESSION_NEW, EPERM);
NO_NET_ADMIN(session_del, REQ_SESSION_DEL, EPERM);
NO_NET_ADMIN(submit, REQ_SUBMIT, EPERM);
NO_NET_ADMIN(train, REQ_TRAIN, EPERM);
NO_NET_ADMIN(cancel, REQ_CANCEL, EPERM);
NO_NET_ADMIN(flush, REQ_FLUSH, EPERM);
NO_NET_ADMIN(stats_get, REQ_STATS_GET, 0);
NO_NET_ADMIN(session_get, REQ_SESSION_GET, 0);

static int drop_net_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1U << (CAP_NET_ADMIN % 32);
	int w = CAP_NET_ADMIN / 32;

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[w].effective &= ~bit;
	d[w].permitted &= ~bit;
	d[w].inheritable &= ~bit;
	return syscall(SYS_capset, &h, d);
}

/* This test's process only: the capability is gone for its teardown too. */
TEST_F(no_net_admin, answer)
{
	struct omw_ctx *c = &self->c;
	struct snap before = snapshot(c);
	struct nl_msg *m;
	char why[128];
	int err;

	ASSERT_EQ(0, build_req(c, &variant->req, &m, NULL, why, sizeof(why)))
		TH_LOG("%s", why);
	if (drop_net_admin())
		SKIP(return, "cannot drop CAP_NET_ADMIN: %s", strerror(errno));
	err = ow_xfer(c->o2, m, NULL, NULL, NULL);
	EXPECT_EQ(-variant->want, err) TH_LOG("%s", errname(err));
	EXPECT_EQ(0, check_no_leak(c, &before));
}

OMW_HARNESS_MAIN
