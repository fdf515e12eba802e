/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omware_client.h - the netlink side of the omware guest tests.
 *
 * The tests speak the family directly (libnl-genl-3 builds the messages,
 * replies are parsed by hand) so that bad-input tests can send malformed
 * requests the timewire CLI would never produce.  Extended acks are
 * enabled; every refused request must come back with the right errno and
 * a message.
 */
#ifndef OMWARE_CLIENT_H
#define OMWARE_CLIENT_H

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <linux/omware.h>

#include "omware_wire.h"

/*
 * The harness's limit for tests whose work grows with the kernel's speed
 * (tens of thousands of packets, link changes); 30 s by default, which a
 * debug kernel under emulation cannot hold.
 */
#define SLOW_TEST_S	300

/* Packets parked this far ahead are never due while a test runs. */
#define FAR_AHEAD_NS	(600 * NSEC_PER_SEC)

struct report {
	uint32_t sid;
	uint64_t cookie;
	uint64_t sched;
	uint64_t sent;
	int64_t late;
	int32_t rc;
	uint8_t status;
	bool has_cookie, has_sched, has_sent, has_late, has_status, has_rc;
	unsigned int seq;	/* arrival order on the socket */
};

struct ow {
	struct nl_sock *sk;
	int fd;
	uint32_t portid;
	struct report *reps;
	size_t nreps, cap;
	unsigned int arrived;
	unsigned int bad_reports;	/* malformed report messages */
	unsigned int stray;		/* messages nobody waited for */
};

/* The answer to a request: errno and extended ack. */
struct ack {
	int err;
	bool has_msg, has_offs, has_miss;
	char msg[256];
	uint32_t offs, miss_type;
};

/* A session or STATS_GET reply. */
struct info {
	bool has[OMWARE_A_MAX + 1];
	uint64_t v[OMWARE_A_MAX + 1];
	bool st_has[OMWARE_STATS_A_MAX + 1];
	uint64_t st[OMWARE_STATS_A_MAX + 1];
	char ifname[IFNAMSIZ + 1];
	int bad_width;		/* attributes of the wrong size */
};

struct dump {
	struct info *v;
	size_t n, cap;
};

/* Session options; zero fields are left out of the request. */
struct sopts {
	int ifindex;
	bool has_clockid, has_mode, has_xmit, has_cpu, has_late;
	uint32_t clockid, cpu, late_ns, guard_max_ns, max_pkts, max_bytes;
	uint8_t mode, xmit;
};

const char *errname(int err);
int omw_family(void);
struct ow *ow_open(void);
struct ow *ow_open_port(uint32_t port);
void ow_set_sndbuf(struct ow *o, int bytes);
void ow_close(struct ow *o);
struct nl_msg *ow_msg(uint8_t cmd, int flags);
struct nl_msg *ow_msg_size(uint8_t cmd, int flags, size_t size);
int ow_xfer(struct ow *o, struct nl_msg *m, struct ack *a,
	    int (*cb)(struct nlmsghdr *nlh, void *arg), void *arg);
void ow_pump(struct ow *o, int timeout_ms);
size_t wait_reports(struct ow *o, uint32_t sid, size_t n, int timeout_ms,
		    int settle_ms);
size_t take_reports(struct ow *o, uint32_t sid, struct report **out);
void drop_reports(struct ow *o, uint32_t sid);

int session_new(struct ow *o, const struct sopts *so, uint32_t *sid,
		struct ack *a);
int simple_cmd(struct ow *o, uint8_t cmd, uint32_t sid, struct ack *a);
int session_del(struct ow *o, uint32_t sid);
int session_get(struct ow *o, uint32_t sid, struct info *in, struct ack *a);
int session_dump(struct ow *o, struct dump *d);
bool dump_has(const struct dump *d, uint32_t sid);
int stats_get(struct ow *o, struct info *in);

/* ------------------------------------------------------------------ */
/* packet batches                                                      */

enum pkind { PK_FRAME, PK_PAYLOAD };

struct pkt {
	enum pkind kind;
	uint64_t time;
	uint64_t cookie;
	int proto;		/* PAYLOAD EtherType, -1 for the default */
	uint8_t dmac[ETH_ALEN];
	uint8_t data[FRAME_MAX];
	int len;
	/* what the receiver must see */
	uint8_t wire[FRAME_MAX + 4];
	int wire_len;
	uint32_t idx;
};

struct batch {
	struct pkt *p;
	int n;
	uint32_t tag;
};

void batch_init(struct batch *b, int n);
void batch_free(struct batch *b);
struct pkt *add_frame(struct batch *b, int len, const uint8_t *dst,
		      const uint8_t *src, uint64_t time);
struct pkt *add_payload(struct batch *b, int len, const uint8_t *dst,
			const uint8_t *src, int proto, uint64_t time);
struct batch park_at(const struct topo *t, int n, uint64_t t0,
		     const uint64_t *cookies);
int submit_range(struct ow *o, uint32_t sid, const struct batch *b,
		 int from, int to, const int *perm, struct ack *a);
int submit_all(struct ow *o, uint32_t sid, const struct batch *b,
	       const int *perm);
int train_send(struct ow *o, uint32_t sid, uint64_t time,
	       const struct batch *b, int from, int to, struct ack *a);
int cancel_cookie(struct ow *o, uint32_t sid, uint64_t cookie,
		  struct ack *a);

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
	const char *pdir;	/* module parameters directory */
};

extern struct omw_env omw_env;

void omw_setup(int argc, char **argv);

/* Per test: two sockets and a session with packets parked far ahead. */
struct omw_ctx {
	struct topo *t;
	struct ow *o;		/* main socket, owns the sessions */
	struct ow *o2;		/* a second, unrelated socket */
	uint32_t victim;
	int victim_pending;
};

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
struct batch park(const struct omw_ctx *c, int n, const uint64_t *cookies);
int read_param(const char *name, char *buf, size_t len);
int write_param(const char *name, const char *v);

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
		  const struct ack *a, int want);

/* ------------------------------------------------------------------ */
/* requests as data                                                    */

enum step_op {
	S_END,
	S_U8, S_U16, S_BE16, S_U32, S_U64,
	S_NEST,		/* open a nest flagged NLA_F_NESTED */
	S_NEST_PLAIN,	/* open a nest sent without the flag */
	S_NEST_END,
	S_FRAME,	/* a test frame of len bytes */
	S_PAYLOAD,	/* a test IPv4 packet of len bytes; first byte set */
	S_MAC,		/* len bytes of the peer's MAC address */
};

enum step_val {
	V_LIT,		/* the step's value */
	V_IFINDEX,	/* the topology's device */
	V_OTHER_NS,	/* a device of the peer netns only */
	V_VICTIM,	/* the test's long-lived session */
	V_FAR,		/* FAR_AHEAD_NS from now */
	V_CENTURY,	/* a century from now */
	V_HORIZON,	/* a minute past the module's horizon_s */
	V_MODULE_CAP,	/* one above the module's packet cap */
};

struct step {
	enum step_op op;
	uint16_t attr;
	enum step_val src;
	uint64_t val;	/* the value, or the length of FRAME/PAYLOAD/MAC */
	uint8_t first;	/* PAYLOAD: first byte instead of 0x45 (0: keep) */
};

#define MAX_STEPS	20
#define MAX_NESTS	4

struct req {
	uint8_t cmd;
	struct step steps[MAX_STEPS];	/* up to the first S_END */
};

/* Where each top-level nest landed in the message. */
struct spans {
	int n;
	uint32_t start[MAX_NESTS], end[MAX_NESTS];
};

int build_req(const struct omw_ctx *c, const struct req *r,
	      struct nl_msg **out, struct spans *sp, char *why, size_t why_len);

#define ST_INT(o, a, v)	{ .op = o, .attr = a, .val = v }
#define ST_VAL(o, a, s)	{ .op = o, .attr = a, .src = s }
#define ST_U8(a, v)	ST_INT(S_U8, a, v)
#define ST_U16(a, v)	ST_INT(S_U16, a, v)
#define ST_BE16(a, v)	ST_INT(S_BE16, a, v)
#define ST_U32(a, v)	ST_INT(S_U32, a, v)
#define ST_U64(a, v)	ST_INT(S_U64, a, v)
#define ST_IFINDEX	ST_VAL(S_U32, OMWARE_A_IFINDEX, V_IFINDEX)
#define ST_SID		ST_VAL(S_U32, OMWARE_A_SESSION_ID, V_VICTIM)
#define ST_PKT		{ .op = S_NEST, .attr = OMWARE_A_PKT }
#define ST_PKT_PLAIN	{ .op = S_NEST_PLAIN, .attr = OMWARE_A_PKT }
#define ST_END		{ .op = S_NEST_END }
#define ST_TIME_FAR	ST_VAL(S_U64, OMWARE_PKT_A_TIME, V_FAR)
#define ST_TIME(s)	ST_VAL(S_U64, OMWARE_PKT_A_TIME, s)
#define ST_COOKIE	ST_U64(OMWARE_PKT_A_COOKIE, 0xbad)
#define ST_FRAME(len)	ST_INT(S_FRAME, OMWARE_PKT_A_FRAME, len)
#define ST_PAYLOAD(len)	ST_INT(S_PAYLOAD, OMWARE_PKT_A_PAYLOAD, len)
#define ST_PAYLOAD_FIRST(len, b) \
	{ .op = S_PAYLOAD, .attr = OMWARE_PKT_A_PAYLOAD, .val = len, .first = b }
#define ST_DST_MAC(len)	ST_INT(S_MAC, OMWARE_PKT_A_DST_MAC, len)
/* A packet nest with a time and a cookie, open for more. */
#define ST_PKT_HEAD	ST_PKT, ST_TIME_FAR, ST_COOKIE
#define ST_GOOD_PKT	ST_PKT_HEAD, ST_FRAME(100), ST_END
/* A train car: no time of its own. */
#define ST_CAR		ST_PKT, ST_COOKIE, ST_FRAME(100), ST_END
#define ST_TRAIN_TIME	ST_VAL(S_U64, OMWARE_A_TIME, V_FAR)

#define REQ(c, ...)	{ .cmd = c, .steps = { __VA_ARGS__ } }

/* A well-formed request of each command, aimed at the victim session. */
#define REQ_SESSION_NEW	REQ(OMWARE_CMD_SESSION_NEW, ST_IFINDEX)
#define REQ_SESSION_DEL	REQ(OMWARE_CMD_SESSION_DEL, ST_SID)
#define REQ_SESSION_GET	REQ(OMWARE_CMD_SESSION_GET, ST_SID)
#define REQ_SUBMIT	REQ(OMWARE_CMD_SUBMIT, ST_SID, ST_GOOD_PKT)
#define REQ_TRAIN	REQ(OMWARE_CMD_TRAIN, ST_SID, ST_TRAIN_TIME, ST_CAR, \
			    ST_CAR)
#define REQ_CANCEL	REQ(OMWARE_CMD_CANCEL, ST_SID, \
			    ST_U64(OMWARE_A_COOKIE, 0xbad))
#define REQ_FLUSH	REQ(OMWARE_CMD_FLUSH, ST_SID)
#define REQ_STATS_GET	{ .cmd = OMWARE_CMD_STATS_GET }

#endif
