/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omware_lib.h - what the omware guest tests share beyond the family's
 * client (tests/lib/twt_omware.h): checks, the programs' environment, what
 * a refused request must leave unchanged.
 */
#ifndef OMWARE_LIB_H
#define OMWARE_LIB_H

#include "twt_omware.h"

/*
 * The harness's limit for tests whose work grows with the kernel's speed
 * (tens of thousands of packets, link changes); 30 s by default, which a
 * debug kernel under emulation cannot hold.
 */
#define SLOW_TEST_S	300

/*
 * Checks shared by tests.  Each prints one diagnostic line per problem and
 * returns the number of problems.
 */
int check_reports(const struct batch *b, const struct report *r, size_t nr,
		  uint8_t status, bool never_early);
int check_sent_order(const struct batch *b, const struct report *r,
		     size_t nr);
int check_delivery(const struct batch *b, const struct rxframe *f, int got);
int stats_add_up(const char *who, const struct info *in);

/* ------------------------------------------------------------------ */
/* the test programs' environment                                      */

/*
 * Made once per program before any test runs, since veth and netns
 * creation is the slow part in an emulated guest; each test runs in a
 * process of its own and inherits it.
 */
struct omw_env {
	struct topo t;
	int other_ns_ifindex;	/* exists in the peer netns only */
};

extern struct omw_env omw_env;

void omw_setup(int argc, char **argv);

int omw_ctx_open(struct omw_ctx *c);
int omw_ctx_close(struct omw_ctx *c);

/*
 * For the test programs, after kselftest_harness.h: a fixture whose tests
 * find their omw_ctx in self->c, and a main that skips (exit 4) when the
 * module is not there before running the harness.
 */
#define OMW_FIXTURE(name)						\
	FIXTURE(name) {							\
		struct omw_ctx c;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		ASSERT_EQ(0, omw_ctx_open(&self->c));			\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		EXPECT_EQ(0, omw_ctx_close(&self->c));			\
	}

#define OMW_HARNESS_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		omw_setup(argc, argv);					\
		return test_harness_run(argc, argv);			\
	}
struct sopts base_opts(const struct omw_ctx *c);

/* Module-wide pending packets and the number of sessions we can see. */
struct snap {
	uint64_t pending;
	uint64_t submitted;
	size_t sessions;
	uint64_t victim_pending;
	int err;
};

struct snap snapshot(struct omw_ctx *c);
int check_no_leak(struct omw_ctx *c, const struct snap *before);
int check_refused(struct omw_ctx *c, const struct snap *before,
		  const struct twt_ack *a, int want);

#endif
