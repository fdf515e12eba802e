// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of connecting to a module's family (lib/family.c) and of how
 * kernel and local errors are worded (lib/nl.c), with no module loaded:
 * the genetlink controller's own family stands in for a loaded module.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"

#include "capture.h"
#include "lib/family.h"
#include "lib/util.h"
#include "omware/session.h"

/* A family no kernel registers. */
static const struct tw_family_desc absent = {
	.module = "twtest",
	.family = "twtest_absent",
	.version = 1,
};

/* The controller's family "nlctrl", version 2 on every kernel since 2.6. */
static const struct tw_family_desc ctrl = {
	.module = "nlctrl",
	.family = "nlctrl",
	.version = 2,
};

static const struct tw_family_desc ctrl_v9 = {
	.module = "nlctrl",
	.family = "nlctrl",
	.version = 9,
};

/* The same, as a family whose sockets hold nothing of their own. */
static const struct tw_family_desc ctrl_reusable = {
	.module = "nlctrl",
	.family = "nlctrl",
	.version = 2,
	.reusable = true,
};

struct conn {
	const struct tw_family_desc *desc;
	struct tw_nl nl;
};

static int connect_to(void *arg)
{
	struct conn *c = arg;

	return tw_family_connect(&c->nl, c->desc);
}

FIXTURE(family)
{
	struct conn c;
	char err[512];
};

FIXTURE_SETUP(family)
{
	struct tw_nl nl;

	/* Without netlink there is nothing to test here. */
	if (tw_nl_open(&nl))
		SKIP(return, "no generic netlink socket");
	tw_nl_close(&nl);
	memset(&self->c, 0, sizeof(self->c));
}

FIXTURE_TEARDOWN(family)
{
	if (self->c.nl.sk)
		tw_nl_close(&self->c.nl);
}

TEST_F(family, absent_module)
{
	self->c.desc = &absent;
	/* Exit 2, one line saying what is missing and what to do. */
	ASSERT_EQ(TW_EXIT_NOMOD,
		  capture(2, connect_to, &self->c, self->err,
			  sizeof(self->err)));
	ASSERT_STREQ("Error: the twtest module is not loaded (its generic netlink family \"twtest_absent\" is absent); load it with \"modprobe twtest\"\n",
		     self->err);
	/* The socket is closed again. */
	ASSERT_EQ(NULL, self->c.nl.sk);
}

TEST_F(family, present)
{
	self->c.desc = &ctrl;
	ASSERT_EQ(TW_EXIT_OK,
		  capture(2, connect_to, &self->c, self->err,
			  sizeof(self->err)));
	ASSERT_STREQ("", self->err);
	/* Requests go to that family from now on. */
	ASSERT_EQ(GENL_ID_CTRL, self->c.nl.family);
	ASSERT_EQ(2, self->c.nl.version);
}

TEST_F(family, version_mismatch)
{
	self->c.desc = &ctrl_v9;
	/* Still connected, with a warning in the one wording. */
	ASSERT_EQ(TW_EXIT_OK,
		  capture(2, connect_to, &self->c, self->err,
			  sizeof(self->err)));
	ASSERT_STREQ("Warning: the nlctrl module speaks version 2, this tool version 9\n",
		     self->err);
}

TEST_F(family, lookup_is_quiet)
{
	struct tw_family fam;

	/* status asks about modules that may be absent: no message. */
	ASSERT_EQ(0, tw_nl_open(&self->c.nl));
	ASSERT_EQ(TW_EXIT_NOMOD, tw_family_lookup(&self->c.nl, &absent, &fam));
	ASSERT_EQ(TW_EXIT_OK, tw_family_lookup(&self->c.nl, &ctrl, &fam));
	ASSERT_EQ(GENL_ID_CTRL, fam.id);
}

/* A request on nl answered, through the handlers as they point now. */
static bool answers(struct tw_nl *nl)
{
	struct tw_family fam;

	return !tw_nl_resolve(nl, "nlctrl", &fam) && fam.id == GENL_ID_CTRL;
}

TEST_F(family, kept_socket)
{
	struct tw_nl again, other;
	int fd;

	tw_family_keep(true);
	ASSERT_EQ(TW_EXIT_OK, tw_family_connect(&self->c.nl, &ctrl_reusable));
	fd = nl_socket_get_fd(self->c.nl.sk);
	ASSERT_TRUE(answers(&self->c.nl));
	/* Lent out: a second connection gets a socket of its own. */
	ASSERT_EQ(TW_EXIT_OK, tw_family_connect(&other, &ctrl_reusable));
	ASSERT_NE(fd, nl_socket_get_fd(other.sk));
	tw_nl_close(&other);
	/* Given back, then lent again: the same socket, still answering. */
	tw_nl_close(&self->c.nl);
	ASSERT_EQ(NULL, self->c.nl.sk);
	ASSERT_EQ(TW_EXIT_OK, tw_family_connect(&again, &ctrl_reusable));
	ASSERT_EQ(fd, nl_socket_get_fd(again.sk));
	ASSERT_EQ(GENL_ID_CTRL, again.family);
	ASSERT_TRUE(answers(&again));
	tw_nl_close(&again);
	/* A family that is not reusable is never kept. */
	ASSERT_EQ(TW_EXIT_OK, tw_family_connect(&self->c.nl, &ctrl));
	ASSERT_NE(fd, nl_socket_get_fd(self->c.nl.sk));
	tw_nl_close(&self->c.nl);
	tw_family_keep(false);
	/* Kept no more: a new socket. */
	ASSERT_EQ(TW_EXIT_OK, tw_family_connect(&self->c.nl, &ctrl_reusable));
	ASSERT_EQ(NULL, self->c.nl.release);
}

/*
 * A wait drains what is queued and returns, also when no request waits
 * for it: the replies of a dump nobody asks after here.  libnl-tiny reads
 * an empty socket as 0, not -NLE_AGAIN; a wait that took that for one
 * more datagram would never return.
 */
TEST_F_TIMEOUT(family, wait_drains_then_returns, 10)
{
	struct tw_nl *nl = &self->c.nl;
	struct tw_family fam;
	struct nl_msg *m;

	ASSERT_EQ(0, tw_nl_open(nl));
	ASSERT_EQ(0, tw_nl_resolve(nl, "nlctrl", &fam));
	tw_nl_use(nl, &fam, NULL);
	m = tw_nl_new(nl, CTRL_CMD_GETFAMILY, NLM_F_DUMP, 0);
	ASSERT_NE(NULL, m);
	ASSERT_LT(0, nl_send_auto_complete(nl->sk, m));
	nlmsg_free(m);
	ASSERT_EQ(1, tw_nl_wait(nl, 5000));
	/* All of it was read: nothing more comes. */
	ASSERT_EQ(0, tw_nl_wait(nl, 200));
}

TEST(nl_strerror)
{
	char buf[256];

	tw_nl_strerror(NULL, -ENOMEM, "cannot build", buf, sizeof(buf));
	ASSERT_STREQ("cannot build: Cannot allocate memory", buf);
	/* Refused for want of privilege: say which. */
	tw_nl_strerror(NULL, -EPERM, "cannot create a session", buf,
		       sizeof(buf));
	ASSERT_STREQ("cannot create a session: Operation not permitted (CAP_NET_ADMIN is required)",
		     buf);
}

TEST(nl_kernel_message)
{
	struct tw_nl nl = { 0 };
	char buf[256];

	/* The kernel's words and the attribute they blame come first. */
	snprintf(nl.ext_msg, sizeof(nl.ext_msg), "packet too long");
	snprintf(nl.ext_attr, sizeof(nl.ext_attr),
		 "attribute OMWARE_A_PKT[2].OMWARE_PKT_A_PAYLOAD");
	tw_nl_strerror(&nl, -EINVAL, "cannot submit", buf, sizeof(buf));
	ASSERT_STREQ("packet too long (attribute OMWARE_A_PKT[2].OMWARE_PKT_A_PAYLOAD)",
		     buf);
	nl.ext_msg[0] = '\0';
	tw_nl_strerror(&nl, -EINVAL, "cannot submit", buf, sizeof(buf));
	ASSERT_STREQ("cannot submit: Invalid argument (attribute OMWARE_A_PKT[2].OMWARE_PKT_A_PAYLOAD)",
		     buf);
}

static int om_connect_quiet(void *arg)
{
	struct om_session *s = arg;

	s->quiet = true;
	return om_connect(s);
}

TEST(omware_not_loaded)
{
	struct om_session s = { 0 };
	char err[512];
	int ret;

	if (!access("/sys/module/omware", F_OK))
		SKIP(return, "the omware module is loaded here");
	/* The engine's connect says it in the one wording, quiet or not. */
	ret = capture(2, om_connect_quiet, &s, err, sizeof(err));
	om_close(&s);
	ASSERT_EQ(TW_EXIT_NOMOD, ret);
	ASSERT_STREQ("Error: the omware module is not loaded (its generic netlink family \"omware\" is absent); load it with \"modprobe omware\"\n",
		     err);
}

TEST_HARNESS_MAIN
