/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twt_omware.h - the omware family for the guest tests' programs (the
 * omware suite's and the netlink fuzzer's): sockets that keep the reports
 * the kernel sends, session and statistics requests with replies parsed by
 * hand, packet batches, and requests as data, malformed on purpose where a
 * test wants them so.  Requests and acks go through twt_nl.h.
 */
#ifndef TWT_OMWARE_H
#define TWT_OMWARE_H

#include <linux/omware.h>

#include "twt_wire.h"
#include "twt_nl.h"

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

/* A socket of the family; the reports it receives are kept. */
struct ow {
	struct twt s;
	struct report *reps;
	size_t nreps, cap;
	unsigned int arrived;
	unsigned int bad_reports;	/* malformed report messages */
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

/* The family's id; -1 when it is not registered. */
int omw_family(void);
/* A socket, or the test process ends as failed. */
struct ow *ow_open(void);
/* A socket bound to port; NULL when the port is taken. */
struct ow *ow_open_port(uint32_t port);
void ow_close(struct ow *o);
/* A request of at most 192 KiB. */
struct nl_msg *ow_msg(struct ow *o, uint8_t cmd, int flags);
size_t wait_reports(struct ow *o, uint32_t sid, size_t n, int timeout_ms,
		    int settle_ms);
size_t take_reports(struct ow *o, uint32_t sid, struct report **out);
void drop_reports(struct ow *o, uint32_t sid);

int session_new(struct ow *o, const struct sopts *so, uint32_t *sid,
		struct twt_ack *a);
int simple_cmd(struct ow *o, uint8_t cmd, uint32_t sid, struct twt_ack *a);
int session_del(struct ow *o, uint32_t sid);
int session_get(struct ow *o, uint32_t sid, struct info *in, struct twt_ack *a);
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
int submit_range(struct ow *o, uint32_t sid, const struct batch *b,
		 int from, int to, const int *perm, struct twt_ack *a);
int submit_all(struct ow *o, uint32_t sid, const struct batch *b,
	       const int *perm);
int train_send(struct ow *o, uint32_t sid, uint64_t time,
	       const struct batch *b, int from, int to, struct twt_ack *a);
int cancel_cookie(struct ow *o, uint32_t sid, uint64_t cookie,
		  struct twt_ack *a);

/* ------------------------------------------------------------------ */
/* what the tests aim their requests at                                */

/* Per test: two sockets and a session with packets parked far ahead. */
struct omw_ctx {
	struct topo *t;
	struct ow *o;		/* main socket, owns the sessions */
	struct ow *o2;		/* a second, unrelated socket */
	uint32_t victim;
	int victim_pending;
	int other_ns_ifindex;	/* a device of the peer netns only, or 0 */
};

/* n packets due from t0 on, 1 ns apart; parked far ahead. */
struct batch park_at(const struct topo *t, int n, uint64_t t0,
		     const uint64_t *cookies);
struct batch park(const struct omw_ctx *c, int n, const uint64_t *cookies);

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
