// SPDX-License-Identifier: GPL-2.0
/*
 * omware_nl.c - guest test client for the omware generic netlink family.
 *
 * It speaks the family directly (libnl-genl-3 builds the messages, replies
 * are parsed by hand) so that bad-input tests can send malformed requests
 * the timewire CLI would never produce.  Extended acks are enabled; every
 * refused request must come back with the right errno and a message.
 *
 * Topology of the suite (created and removed by the program itself):
 *
 *     init netns                      netns "owt-<pid>"
 *   +-------------+                 +-------------------+
 *   | owt0 -------+---- veth -------+- owp0  (AF_PACKET |
 *   | (sessions)  |                 |   receiver)       |
 *   +-------------+                 +-------------------+
 *
 * Usage:
 *   omware_nl [-l] [-t name[,name...]]   run the suite (TAP), or some tests
 *   omware_nl stream --dev D --peer-ns NS --peer-dev P [--count N]
 *                    [--mode timer|hybrid]
 *       one session on an existing veth: submit N frames, check delivery
 *       and reports; exit 0 on success, 1 on failure
 *   omware_nl hold --dev D [--count N] [--ahead-ms MS]
 *       create a session, queue N packets MS ahead, print "ready <id>",
 *       then sleep until killed
 *   omware_nl state
 *       print "sessions <n> pending <pkts>" for the caller's netns
 *
 * Exit codes follow kselftest: 0 pass, 1 fail, 4 skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>

#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <linux/omware.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#define TEST_ETHERTYPE	0x88b5	/* IEEE local experimental */
#define TEST_MAGIC	0x4f4d5754	/* "OMWT" */
#define FRAME_MAX	1514
#define MSG_SIZE	(192 * 1024)
#define RECV_BUF	(256 * 1024)
#define MAX_PKTS	4096

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING	23
#endif

enum { T_PASS, T_FAIL, T_SKIP };

/* ------------------------------------------------------------------ */
/* output                                                              */

static char skip_reason[256];

static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static int skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(skip_reason, sizeof(skip_reason), fmt, ap);
	va_end(ap);
	return T_SKIP;
}

/* Record a failed expectation and go on: a test reports every problem. */
#define EXPECT(cond, ...)				\
	do {						\
		if (!(cond)) {				\
			diag(__VA_ARGS__);		\
			fail = 1;			\
		}					\
	} while (0)

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static uint64_t mono(void)
{
	return now_ns(CLOCK_MONOTONIC);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int run(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc == -1 || !WIFEXITED(rc))
		return -1;
	return WEXITSTATUS(rc);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);

	if (!p) {
		perror("calloc");
		exit(KSFT_FAIL);
	}
	return p;
}

static const char *errname(int err)
{
	static char buf[64];

	if (err == 0)
		return "0 (success)";
	snprintf(buf, sizeof(buf), "-%d (%s)", -err, strerror(-err));
	return buf;
}

/* Deterministic xorshift so every run sends the same shapes. */
static uint32_t rnd_state = 0x2545f491;

static uint32_t rnd(void)
{
	uint32_t x = rnd_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rnd_state = x;
	return x;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static int parse_mac(const char *s, uint8_t *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static int read_dev_mac(const char *dev, uint8_t *mac)
{
	char path[128], line[64];
	FILE *f;
	int rc = -1;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		rc = parse_mac(line, mac);
	fclose(f);
	return rc;
}

static bool if_carrier(const char *dev)
{
	char path[128], c = '0';
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", dev);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fread(&c, 1, 1, f) != 1)
		c = '0';
	fclose(f);
	return c == '1';
}

/* ------------------------------------------------------------------ */
/* packets: every test frame carries a magic, a per-test tag and index */

/*
 * FRAME packets: dst, src, TEST_ETHERTYPE, magic, tag, index, filler.
 * PAYLOAD packets: an IPv4 header (protocol 253, for experiments) then
 * magic, tag, index, filler; the module prepends the Ethernet header.
 */
#define FRAME_HDR	14
#define IP_HDR		20
#define MARK_LEN	12
#define FRAME_MIN_TAGGED (FRAME_HDR + MARK_LEN)
#define PAYLOAD_MIN	(IP_HDR + MARK_LEN)

static void fill_mark(uint8_t *p, int len, uint32_t tag, uint32_t idx)
{
	int i;

	put_be32(p, TEST_MAGIC);
	put_be32(p + 4, tag);
	put_be32(p + 8, idx);
	for (i = MARK_LEN; i < len; i++)
		p[i] = (uint8_t)(idx * 7 + i * 13 + tag);
}

static int make_frame(uint8_t *f, int len, const uint8_t *dst,
		      const uint8_t *src, uint32_t tag, uint32_t idx)
{
	memcpy(f, dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, src, ETH_ALEN);
	put_be16(f + 12, TEST_ETHERTYPE);
	fill_mark(f + FRAME_HDR, len - FRAME_HDR, tag, idx);
	return len;
}

static uint16_t ip_csum(const uint8_t *p, int len)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static int make_payload(uint8_t *p, int len, uint32_t tag, uint32_t idx)
{
	memset(p, 0, IP_HDR);
	p[0] = 0x45;
	put_be16(p + 2, len);
	put_be16(p + 4, idx);
	put_be16(p + 6, 0x4000);		/* DF */
	p[8] = 64;
	p[9] = 253;
	put_be32(p + 12, 0xc0000201);		/* 192.0.2.1 */
	put_be32(p + 16, 0xc0000202);		/* 192.0.2.2 */
	put_be16(p + 10, ip_csum(p, IP_HDR));
	fill_mark(p + IP_HDR, len - IP_HDR, tag, idx);
	return len;
}

/* Find magic/tag/index in a received frame; false if it is not ours. */
static bool frame_mark(const uint8_t *f, int len, uint32_t *tag,
		       uint32_t *idx)
{
	static const int offs[] = { FRAME_HDR, FRAME_HDR + IP_HDR };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		if (len < offs[i] + MARK_LEN)
			continue;
		if (get_be32(f + offs[i]) != TEST_MAGIC)
			continue;
		*tag = get_be32(f + offs[i] + 4);
		*idx = get_be32(f + offs[i] + 8);
		return true;
	}
	return false;
}

static uint32_t tag_counter;

static uint32_t new_tag(void)
{
	return ((uint32_t)getpid() << 12) ^ ++tag_counter;
}

static uint64_t cookie_of(uint32_t tag, uint32_t idx)
{
	return (uint64_t)tag << 32 | idx;
}

/* ------------------------------------------------------------------ */
/* netlink                                                             */

static int fam;			/* family id, resolved once */

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

struct ack {
	int err;
	bool has_msg, has_offs, has_miss;
	char msg[256];
	uint32_t offs, miss_type;
};

typedef int (*reply_cb)(struct nlmsghdr *nlh, void *arg);

static uint8_t rxbuf[RECV_BUF];

static int ow_resolve(struct nl_sock *sk)
{
	int id = genl_ctrl_resolve(sk, OMWARE_FAMILY_NAME);

	return id < 0 ? -1 : id;
}

static struct ow *ow_open(void)
{
	struct ow *o = xcalloc(1, sizeof(*o));
	int one = 1, sz = 8 << 20;

	o->sk = nl_socket_alloc();
	if (!o->sk || genl_connect(o->sk)) {
		diag("cannot open a generic netlink socket");
		exit(KSFT_FAIL);
	}
	o->fd = nl_socket_get_fd(o->sk);
	o->portid = nl_socket_get_local_port(o->sk);
	setsockopt(o->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(o->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* Thousands of reports may queue while a test is busy sending. */
	if (setsockopt(o->fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
		setsockopt(o->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	/*
	 * libnl leaves a 64 KiB send buffer, and netlink refuses a message
	 * larger than it: make room for the biggest SUBMIT we build.
	 */
	sz = 2 * MSG_SIZE;
	if (setsockopt(o->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)))
		setsockopt(o->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (!fam)
		fam = ow_resolve(o->sk);
	return o;
}

static void ow_close(struct ow *o)
{
	if (!o)
		return;
	nl_socket_free(o->sk);
	free(o->reps);
	free(o);
}

static struct nl_msg *ow_msg(uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc_size(MSG_SIZE);

	if (!m || !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, fam, 0, flags,
			       cmd, OMWARE_FAMILY_VERSION)) {
		diag("cannot build a netlink message");
		exit(KSFT_FAIL);
	}
	return m;
}

static void parse_tlvs(struct ack *a, struct nlattr *head, int len)
{
	struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, head, len, rem) {
		switch (nla_type(nla)) {
		case NLMSGERR_ATTR_MSG:
			snprintf(a->msg, sizeof(a->msg), "%.*s",
				 nla_len(nla), (char *)nla_data(nla));
			a->has_msg = a->msg[0] != '\0';
			break;
		case NLMSGERR_ATTR_OFFS:
			if (nla_len(nla) == 4) {
				a->offs = nla_get_u32(nla);
				a->has_offs = true;
			}
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			if (nla_len(nla) == 4) {
				a->miss_type = nla_get_u32(nla);
				a->has_miss = true;
			}
			break;
		}
	}
}

static void parse_error(struct ack *a, struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	int off = sizeof(*e);

	a->err = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	if ((int)NLMSG_HDRLEN + off >= (int)nlh->nlmsg_len)
		return;
	parse_tlvs(a, (struct nlattr *)((uint8_t *)e + off),
		   nlh->nlmsg_len - NLMSG_HDRLEN - off);
}

static void parse_done(struct ack *a, struct nlmsghdr *nlh)
{
	int *err = NLMSG_DATA(nlh);
	int off = NLMSG_ALIGN(sizeof(int));

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(int))
		return;
	a->err = *err;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    (int)(NLMSG_HDRLEN + off) < (int)nlh->nlmsg_len)
		parse_tlvs(a, (struct nlattr *)((uint8_t *)err + off),
			   nlh->nlmsg_len - NLMSG_HDRLEN - off);
}

static struct report *rep_add(struct ow *o)
{
	if (o->nreps == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 1024;
		o->reps = realloc(o->reps, o->cap * sizeof(*o->reps));
		if (!o->reps) {
			perror("realloc");
			exit(KSFT_FAIL);
		}
	}
	memset(&o->reps[o->nreps], 0, sizeof(*o->reps));
	return &o->reps[o->nreps++];
}

static void parse_report_msg(struct ow *o, struct nlmsghdr *nlh)
{
	struct nlattr *head = genlmsg_attrdata(NLMSG_DATA(nlh), 0);
	int len = genlmsg_attrlen(NLMSG_DATA(nlh), 0);
	struct nlattr *nla, *tb[OMWARE_REPORT_A_MAX + 1];
	uint32_t sid = 0;
	bool has_sid = false;
	size_t first = o->nreps;
	int rem;

	nla_for_each_attr(nla, head, len, rem) {
		if (nla_type(nla) == OMWARE_A_SESSION_ID &&
		    nla_len(nla) == 4) {
			sid = nla_get_u32(nla);
			has_sid = true;
		}
	}
	nla_for_each_attr(nla, head, len, rem) {
		struct report *r;

		if (nla_type(nla) != OMWARE_A_REPORT)
			continue;
		if (nla_parse_nested(tb, OMWARE_REPORT_A_MAX, nla, NULL)) {
			o->bad_reports++;
			continue;
		}
		r = rep_add(o);
		r->seq = o->arrived++;
#define GET(attr, field, flag, bytes, getter)				\
		do {							\
			if (tb[attr]) {					\
				if (nla_len(tb[attr]) == (bytes)) {	\
					r->field = getter(tb[attr]);	\
					r->flag = true;			\
				} else {				\
					o->bad_reports++;		\
				}					\
			}						\
		} while (0)
		GET(OMWARE_REPORT_A_COOKIE, cookie, has_cookie, 8, nla_get_u64);
		GET(OMWARE_REPORT_A_SCHED_NS, sched, has_sched, 8, nla_get_u64);
		GET(OMWARE_REPORT_A_SENT_NS, sent, has_sent, 8, nla_get_u64);
		GET(OMWARE_REPORT_A_LATE_NS, late, has_late, 8,
		    (int64_t)nla_get_u64);
		GET(OMWARE_REPORT_A_STATUS, status, has_status, 1, nla_get_u8);
		GET(OMWARE_REPORT_A_RC, rc, has_rc, 4, (int32_t)nla_get_u32);
#undef GET
	}
	if (!has_sid)
		o->bad_reports++;
	for (; first < o->nreps; first++)
		o->reps[first].sid = sid;
}

/*
 * Read one batch of messages.  Reports are stored; the answer to request
 * @seq fills @a (NLMSG_ERROR or NLMSG_DONE), data messages go to @cb.
 * Returns 1 when the answer arrived, 0 on timeout, -1 on a socket error.
 */
static int ow_read(struct ow *o, uint32_t seq, struct ack *a, reply_cb cb,
		   void *arg, int timeout_ms)
{
	struct pollfd pfd = { .fd = o->fd, .events = POLLIN };
	struct nlmsghdr *nlh;
	int n, done = 0;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	n = recv(o->fd, rxbuf, sizeof(rxbuf), MSG_DONTWAIT);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		/* ENOBUFS: the kernel dropped messages for us. */
		diag("netlink recv: %s", strerror(errno));
		return -1;
	}
	for (nlh = (struct nlmsghdr *)rxbuf; NLMSG_OK(nlh, n);
	     nlh = NLMSG_NEXT(nlh, n)) {
		if (nlh->nlmsg_type == fam && nlh->nlmsg_seq == 0) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);

			if (g->cmd == OMWARE_CMD_REPORT)
				parse_report_msg(o, nlh);
			else
				o->stray++;
			continue;
		}
		if (!seq || nlh->nlmsg_seq != seq) {
			o->stray++;
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			parse_error(a, nlh);
			done = 1;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			parse_done(a, nlh);
			done = 1;
		} else if (cb) {
			cb(nlh, arg);
		}
	}
	return done;
}

/* Send @m (consumed) and wait for its answer; returns the errno (<= 0). */
static int ow_xfer(struct ow *o, struct nl_msg *m, struct ack *a,
		   reply_cb cb, void *arg)
{
	struct ack local;
	uint64_t deadline;
	uint32_t seq;
	int rc;

	if (!a)
		a = &local;
	memset(a, 0, sizeof(*a));
	rc = nl_send_auto(o->sk, m);
	seq = nlmsg_hdr(m)->nlmsg_seq;
	nlmsg_free(m);
	if (rc < 0) {
		diag("netlink send: %s", nl_geterror(rc));
		a->err = -EIO;
		return a->err;
	}
	deadline = mono() + 10 * NSEC_PER_SEC;
	while (mono() < deadline) {
		rc = ow_read(o, seq, a, cb, arg, 1000);
		if (rc == 1)
			return a->err;
		if (rc < 0)
			break;
	}
	diag("no answer to netlink request %u", seq);
	a->err = -ETIMEDOUT;
	return a->err;
}

/* Collect reports for up to @timeout_ms without sending anything. */
static void ow_pump(struct ow *o, int timeout_ms)
{
	uint64_t deadline = mono() + timeout_ms * NSEC_PER_MSEC;
	struct ack a;

	for (;;) {
		uint64_t t = mono();

		if (t >= deadline)
			break;
		if (ow_read(o, 0, &a, NULL, NULL,
			    (int)((deadline - t) / NSEC_PER_MSEC) + 1) < 0)
			break;
	}
}

static size_t count_reports(struct ow *o, uint32_t sid)
{
	size_t i, n = 0;

	for (i = 0; i < o->nreps; i++)
		n += o->reps[i].sid == sid;
	return n;
}

/*
 * Wait until @n reports for @sid arrived (or @timeout_ms passed), then keep
 * listening @settle_ms more so that a duplicate would be seen too.
 */
static size_t wait_reports(struct ow *o, uint32_t sid, size_t n,
			   int timeout_ms, int settle_ms)
{
	uint64_t deadline = mono() + timeout_ms * NSEC_PER_MSEC;

	while (count_reports(o, sid) < n && mono() < deadline)
		ow_pump(o, 50);
	if (settle_ms)
		ow_pump(o, settle_ms);
	return count_reports(o, sid);
}

/* Move the reports of @sid out of the socket's store, in arrival order. */
static size_t take_reports(struct ow *o, uint32_t sid, struct report **out)
{
	size_t i, j = 0, n = count_reports(o, sid);
	struct report *r = xcalloc(n ? n : 1, sizeof(*r));

	for (i = 0; i < o->nreps; i++) {
		if (o->reps[i].sid == sid)
			r[j++] = o->reps[i];
		else
			o->reps[i - j] = o->reps[i];
	}
	o->nreps -= j;
	*out = r;
	return n;
}

static void drop_reports(struct ow *o, uint32_t sid)
{
	struct report *r;

	take_reports(o, sid, &r);
	free(r);
}

/* ------------------------------------------------------------------ */
/* session / stats replies                                             */

/* Width of each top-level attribute in replies (0: not a plain int). */
static const int a_width[OMWARE_A_MAX + 1] = {
	[OMWARE_A_SESSION_ID] = 4,
	[OMWARE_A_IFINDEX] = 4,
	[OMWARE_A_CLOCKID] = 4,
	[OMWARE_A_MODE] = 1,
	[OMWARE_A_XMIT] = 1,
	[OMWARE_A_CPU] = 4,
	[OMWARE_A_LATE_NS] = 4,
	[OMWARE_A_GUARD_MAX_NS] = 4,
	[OMWARE_A_GUARD_NS] = 8,
	[OMWARE_A_MAX_PKTS] = 4,
	[OMWARE_A_MAX_BYTES] = 4,
	[OMWARE_A_OWNER_PORTID] = 4,
	[OMWARE_A_PENDING_PKTS] = 4,
	[OMWARE_A_PENDING_BYTES] = 8,
};

struct info {
	bool has[OMWARE_A_MAX + 1];
	uint64_t v[OMWARE_A_MAX + 1];
	bool st_has[OMWARE_STATS_A_MAX + 1];
	uint64_t st[OMWARE_STATS_A_MAX + 1];
	char ifname[IFNAMSIZ + 1];
	int bad_width;		/* attributes of the wrong size */
};

static uint64_t nla_uint(struct nlattr *nla)
{
	switch (nla_len(nla)) {
	case 1:
		return nla_get_u8(nla);
	case 2:
		return nla_get_u16(nla);
	case 4:
		return nla_get_u32(nla);
	case 8:
		return nla_get_u64(nla);
	}
	return 0;
}

static void parse_info(struct info *in, struct nlmsghdr *nlh)
{
	struct nlattr *head = genlmsg_attrdata(NLMSG_DATA(nlh), 0);
	int len = genlmsg_attrlen(NLMSG_DATA(nlh), 0);
	struct nlattr *nla, *s;
	int rem, srem, t;

	memset(in, 0, sizeof(*in));
	nla_for_each_attr(nla, head, len, rem) {
		t = nla_type(nla);
		if (t <= 0 || t > OMWARE_A_MAX)
			continue;
		if (t == OMWARE_A_IFNAME) {
			snprintf(in->ifname, sizeof(in->ifname), "%.*s",
				 nla_len(nla), (char *)nla_data(nla));
			in->has[t] = true;
		} else if (t == OMWARE_A_STATS) {
			in->has[t] = true;
			nla_for_each_nested(s, nla, srem) {
				int st = nla_type(s);

				if (st <= 0 || st > OMWARE_STATS_A_MAX)
					continue;
				if (st == OMWARE_STATS_A_PAD)
					continue;
				if (nla_len(s) != 8)
					in->bad_width++;
				in->st[st] = nla_uint(s);
				in->st_has[st] = true;
			}
		} else if (a_width[t]) {
			if (nla_len(nla) != a_width[t])
				in->bad_width++;
			in->v[t] = nla_uint(nla);
			in->has[t] = true;
		}
	}
}

static int info_cb(struct nlmsghdr *nlh, void *arg)
{
	parse_info(arg, nlh);
	return 0;
}

struct dump {
	struct info *v;
	size_t n, cap;
};

static int dump_cb(struct nlmsghdr *nlh, void *arg)
{
	struct dump *d = arg;

	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->v = realloc(d->v, d->cap * sizeof(*d->v));
		if (!d->v) {
			perror("realloc");
			exit(KSFT_FAIL);
		}
	}
	parse_info(&d->v[d->n++], nlh);
	return 0;
}

/* Session options; zero fields are left out of the request. */
struct sopts {
	int ifindex;
	bool has_clockid, has_mode, has_xmit, has_cpu, has_late;
	uint32_t clockid, cpu, late_ns, guard_max_ns, max_pkts, max_bytes;
	uint8_t mode, xmit;
};

static int session_new(struct ow *o, const struct sopts *so, uint32_t *sid,
		       struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_NEW, 0);
	struct info in;
	int err;

	nla_put_u32(m, OMWARE_A_IFINDEX, so->ifindex);
	if (so->has_clockid)
		nla_put_u32(m, OMWARE_A_CLOCKID, so->clockid);
	if (so->has_mode)
		nla_put_u8(m, OMWARE_A_MODE, so->mode);
	if (so->has_xmit)
		nla_put_u8(m, OMWARE_A_XMIT, so->xmit);
	if (so->has_cpu)
		nla_put_u32(m, OMWARE_A_CPU, so->cpu);
	if (so->has_late)
		nla_put_u32(m, OMWARE_A_LATE_NS, so->late_ns);
	if (so->guard_max_ns)
		nla_put_u32(m, OMWARE_A_GUARD_MAX_NS, so->guard_max_ns);
	if (so->max_pkts)
		nla_put_u32(m, OMWARE_A_MAX_PKTS, so->max_pkts);
	if (so->max_bytes)
		nla_put_u32(m, OMWARE_A_MAX_BYTES, so->max_bytes);
	memset(&in, 0, sizeof(in));
	err = ow_xfer(o, m, a, info_cb, &in);
	if (!err) {
		if (!in.has[OMWARE_A_SESSION_ID]) {
			diag("SESSION_NEW reply without OMWARE_A_SESSION_ID");
			return -EPROTO;
		}
		*sid = in.v[OMWARE_A_SESSION_ID];
	}
	return err;
}

static int simple_cmd(struct ow *o, uint8_t cmd, uint32_t sid,
		      struct ack *a)
{
	struct nl_msg *m = ow_msg(cmd, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	return ow_xfer(o, m, a, NULL, NULL);
}

static int session_del(struct ow *o, uint32_t sid)
{
	return simple_cmd(o, OMWARE_CMD_SESSION_DEL, sid, NULL);
}

static int session_get(struct ow *o, uint32_t sid, struct info *in,
		       struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_GET, 0);

	memset(in, 0, sizeof(*in));
	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	return ow_xfer(o, m, a, info_cb, in);
}

static int session_dump(struct ow *o, struct dump *d)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_GET, NLM_F_DUMP);

	memset(d, 0, sizeof(*d));
	return ow_xfer(o, m, NULL, dump_cb, d);
}

static bool dump_has(const struct dump *d, uint32_t sid)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].v[OMWARE_A_SESSION_ID] == sid)
			return true;
	return false;
}

static int stats_get(struct ow *o, struct info *in)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_STATS_GET, 0);

	memset(in, 0, sizeof(*in));
	return ow_xfer(o, m, NULL, info_cb, in);
}

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

static void batch_init(struct batch *b, int n)
{
	b->p = xcalloc(n ? n : 1, sizeof(*b->p));
	b->n = 0;
	b->tag = new_tag();
}

static void batch_free(struct batch *b)
{
	free(b->p);
	b->p = NULL;
	b->n = 0;
}

static struct pkt *add_frame(struct batch *b, int len, const uint8_t *dst,
			     const uint8_t *src, uint64_t time)
{
	struct pkt *p = &b->p[b->n];

	p->kind = PK_FRAME;
	p->idx = b->n;
	p->time = time;
	p->cookie = cookie_of(b->tag, p->idx);
	p->proto = -1;
	p->len = make_frame(p->data, len, dst, src, b->tag, p->idx);
	memcpy(p->wire, p->data, p->len);
	p->wire_len = p->len;
	b->n++;
	return p;
}

static struct pkt *add_payload(struct batch *b, int len, const uint8_t *dst,
			       const uint8_t *src, int proto, uint64_t time)
{
	struct pkt *p = &b->p[b->n];

	p->kind = PK_PAYLOAD;
	p->idx = b->n;
	p->time = time;
	p->cookie = cookie_of(b->tag, p->idx);
	p->proto = proto;
	memcpy(p->dmac, dst, ETH_ALEN);
	p->len = make_payload(p->data, len, b->tag, p->idx);
	memcpy(p->wire, dst, ETH_ALEN);
	memcpy(p->wire + ETH_ALEN, src, ETH_ALEN);
	put_be16(p->wire + 12, proto < 0 ? ETH_P_IP : proto);
	memcpy(p->wire + FRAME_HDR, p->data, p->len);
	p->wire_len = p->len + FRAME_HDR;
	b->n++;
	return p;
}

static void put_pkt(struct nl_msg *m, const struct pkt *p, bool with_time)
{
	struct nlattr *nest = nla_nest_start(m, OMWARE_A_PKT | NLA_F_NESTED);

	if (with_time)
		nla_put_u64(m, OMWARE_PKT_A_TIME, p->time);
	nla_put_u64(m, OMWARE_PKT_A_COOKIE, p->cookie);
	if (p->kind == PK_FRAME) {
		nla_put(m, OMWARE_PKT_A_FRAME, p->len, p->data);
	} else {
		nla_put(m, OMWARE_PKT_A_PAYLOAD, p->len, p->data);
		nla_put(m, OMWARE_PKT_A_DST_MAC, ETH_ALEN, p->dmac);
		if (p->proto >= 0)
			nla_put_u16(m, OMWARE_PKT_A_PROTO, htons(p->proto));
	}
	nla_nest_end(m, nest);
}

/* Submit packets @from..@to-1 of @b in the order given by @perm (or not). */
static int submit_range(struct ow *o, uint32_t sid, const struct batch *b,
			int from, int to, const int *perm, struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SUBMIT, 0);
	int i;

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	for (i = from; i < to; i++)
		put_pkt(m, &b->p[perm ? perm[i] : i], true);
	return ow_xfer(o, m, a, NULL, NULL);
}

/* Submit all of @b in chunks small enough for one netlink message. */
static int submit_all(struct ow *o, uint32_t sid, const struct batch *b,
		      const int *perm)
{
	int i, j, err, bytes;

	for (i = 0; i < b->n; i = j) {
		bytes = 0;
		for (j = i; j < b->n && bytes < MSG_SIZE / 2; j++)
			bytes += b->p[perm ? perm[j] : j].len + 64;
		err = submit_range(o, sid, b, i, j, perm, NULL);
		if (err)
			return err;
	}
	return 0;
}

static int train_send(struct ow *o, uint32_t sid, uint64_t time,
		      const struct batch *b, int from, int to, struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_TRAIN, 0);
	int i;

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	nla_put_u64(m, OMWARE_A_TIME, time);
	for (i = from; i < to; i++)
		put_pkt(m, &b->p[i], false);
	return ow_xfer(o, m, a, NULL, NULL);
}

static int cancel_cookie(struct ow *o, uint32_t sid, uint64_t cookie,
			 struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_CANCEL, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	nla_put_u64(m, OMWARE_A_COOKIE, cookie);
	return ow_xfer(o, m, a, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* topology and receiver                                               */

struct topo {
	char ns[40];
	char dev[IFNAMSIZ];
	char peer[IFNAMSIZ];
	int ifindex;
	int peer_ifindex;
	uint8_t mac[ETH_ALEN];
	uint8_t peer_mac[ETH_ALEN];
	int rx;			/* AF_PACKET socket living in ns */
	bool made;		/* we created it, so we remove it */
};

static int self_ns = -1;

static int enter_ns(const char *ns)
{
	char path[96];
	int fd, rc;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = setns(fd, CLONE_NEWNET);
	close(fd);
	return rc;
}

static int leave_ns(void)
{
	return setns(self_ns, CLONE_NEWNET);
}

/* Open the receiver in the peer namespace; the socket stays bound there. */
static int topo_rx_open(struct topo *t)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int one = 1, sz = 32 << 20;
	int fd;

	if (self_ns < 0)
		self_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self_ns < 0 || enter_ns(t->ns)) {
		diag("cannot enter netns %s: %s", t->ns, strerror(errno));
		return -1;
	}
	t->peer_ifindex = if_nametoindex(t->peer);
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd >= 0) {
		setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
			   sizeof(one));
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		sll.sll_protocol = htons(ETH_P_ALL);
		sll.sll_ifindex = t->peer_ifindex;
		if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
			close(fd);
			fd = -1;
		}
	}
	if (leave_ns()) {
		diag("cannot return to the original netns");
		exit(KSFT_FAIL);
	}
	if (fd < 0 || !t->peer_ifindex) {
		diag("cannot open the receiver on %s: %s", t->peer,
		     strerror(errno));
		return -1;
	}
	t->rx = fd;
	return 0;
}

static void topo_del(struct topo *t)
{
	if (t->rx >= 0)
		close(t->rx);
	t->rx = -1;
	if (!t->made)
		return;
	run("ip link del %s >/dev/null 2>&1", t->dev);
	run("ip netns del %s >/dev/null 2>&1", t->ns);
	t->made = false;
}

static void set_ipv6_off(const char *dev)
{
	char path[128];
	FILE *f;

	/* Keep the link quiet: no router or neighbour solicitations. */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 dev);
	f = fopen(path, "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
}

static int topo_make(struct topo *t, int id)
{
	memset(t, 0, sizeof(*t));
	t->rx = -1;
	snprintf(t->ns, sizeof(t->ns), "owt-%d-%d", (int)getpid(), id);
	snprintf(t->dev, sizeof(t->dev), "owt%d", id);
	snprintf(t->peer, sizeof(t->peer), "owp%d", id);
	memcpy(t->mac, (uint8_t[]){ 0x02, 0x6f, 0x77, 0, id, 1 }, ETH_ALEN);
	memcpy(t->peer_mac, (uint8_t[]){ 0x02, 0x6f, 0x77, 0, id, 2 },
	       ETH_ALEN);
	run("ip link del %s >/dev/null 2>&1", t->dev);
	if (run("ip netns add %s", t->ns))
		return -1;
	t->made = true;
	if (run("ip link add %s address 02:6f:77:00:%02x:01 type veth peer name %s address 02:6f:77:00:%02x:02 netns %s",
		t->dev, id, t->peer, id, t->ns))
		goto err;
	set_ipv6_off(t->dev);
	if (run("ip link set %s up", t->dev) ||
	    run("ip -n %s link set %s up", t->ns, t->peer))
		goto err;
	t->ifindex = if_nametoindex(t->dev);
	if (!t->ifindex || topo_rx_open(t))
		goto err;
	return 0;
err:
	topo_del(t);
	return -1;
}

/* Attach to a topology made by a script. */
static int topo_attach(struct topo *t, const char *dev, const char *ns,
		       const char *peer)
{
	memset(t, 0, sizeof(*t));
	t->rx = -1;
	snprintf(t->dev, sizeof(t->dev), "%s", dev);
	t->ifindex = if_nametoindex(dev);
	if (!t->ifindex || read_dev_mac(dev, t->mac)) {
		diag("no device %s", dev);
		return -1;
	}
	if (!ns)
		return 0;
	snprintf(t->ns, sizeof(t->ns), "%s", ns);
	snprintf(t->peer, sizeof(t->peer), "%s", peer);
	if (topo_rx_open(t))
		return -1;
	/* The peer MAC is only needed as a destination; read it in place. */
	if (enter_ns(ns) == 0) {
		read_dev_mac(peer, t->peer_mac);
		leave_ns();
	}
	return 0;
}

struct rxframe {
	uint8_t d[FRAME_MAX + 64];
	int len;
	uint32_t idx;
};

/* Throw away whatever the receiver holds. */
static void rx_flush(struct topo *t)
{
	while (recv(t->rx, rxbuf, sizeof(rxbuf), MSG_DONTWAIT) > 0)
		;
}

/*
 * Collect frames tagged @tag until @n arrived or @timeout_ms passed, then
 * listen @settle_ms more for extra copies.  Returns the number stored in
 * @out (at most @max); *extra counts frames beyond @max.
 */
static int rx_collect(struct topo *t, uint32_t tag, struct rxframe *out,
		      int n, int max, int timeout_ms, int settle_ms)
{
	uint64_t deadline = mono() + timeout_ms * NSEC_PER_MSEC;
	uint64_t settle_end = 0;
	int got = 0;

	for (;;) {
		struct pollfd pfd = { .fd = t->rx, .events = POLLIN };
		uint64_t now = mono(), end;
		uint32_t ftag, idx;
		int len;

		if (got >= n && !settle_end)
			settle_end = now + settle_ms * NSEC_PER_MSEC;
		end = settle_end ? settle_end : deadline;
		if (now >= end)
			break;
		if (poll(&pfd, 1, (int)((end - now) / NSEC_PER_MSEC) + 1) <= 0)
			continue;
		len = recv(t->rx, rxbuf, sizeof(rxbuf), MSG_DONTWAIT | MSG_TRUNC);
		if (len <= 0)
			continue;
		if (!frame_mark(rxbuf, len, &ftag, &idx) || ftag != tag)
			continue;
		if (got < max) {
			out[got].len = len > (int)sizeof(out[got].d) ?
				       (int)sizeof(out[got].d) : len;
			memcpy(out[got].d, rxbuf, out[got].len);
			out[got].idx = idx;
		}
		got++;
	}
	return got;
}

/* ------------------------------------------------------------------ */
/* checks shared by tests                                              */

/*
 * Every packet of @b has exactly one report in @r, with its cookie, the
 * expected status and consistent times.  Returns the number of problems.
 */
static int check_reports(const struct batch *b, const struct report *r,
			 size_t nr, uint8_t status, bool never_early)
{
	int *seen = xcalloc(b->n ? b->n : 1, sizeof(int));
	int bad = 0;
	size_t i;
	int k;

	if ((int)nr != b->n) {
		diag("expected %d reports, got %zu", b->n, nr);
		bad++;
	}
	for (i = 0; i < nr; i++) {
		const struct report *x = &r[i];
		uint32_t idx = (uint32_t)x->cookie;

		if (!x->has_cookie || !x->has_status || !x->has_sched ||
		    !x->has_sent) {
			diag("report %zu lacks cookie/status/sched/sent", i);
			bad++;
			continue;
		}
		if (x->cookie >> 32 != b->tag || idx >= (uint32_t)b->n) {
			diag("report with unknown cookie %#llx",
			     (unsigned long long)x->cookie);
			bad++;
			continue;
		}
		if (seen[idx]++) {
			diag("second report for packet %u", idx);
			bad++;
		}
		if (x->status != status) {
			diag("packet %u: status %u, expected %u (rc %d)", idx,
			     x->status, status, x->rc);
			bad++;
		}
		if (x->sched != b->p[idx].time) {
			diag("packet %u: sched_ns %llu, submitted %llu", idx,
			     (unsigned long long)x->sched,
			     (unsigned long long)b->p[idx].time);
			bad++;
		}
		if (status == OMWARE_STATUS_SENT) {
			if (never_early && x->sent < x->sched) {
				diag("packet %u sent %llu ns early", idx,
				     (unsigned long long)(x->sched - x->sent));
				bad++;
			}
			if (x->has_late &&
			    x->late != (int64_t)(x->sent - x->sched)) {
				diag("packet %u: late_ns %lld != sent - sched",
				     idx, (long long)x->late);
				bad++;
			}
			/* NET_XMIT_CN: queued, but congestion ahead */
			if (x->has_rc && x->rc != 0 && x->rc != 2) {
				diag("packet %u: rc %d on a sent packet", idx,
				     x->rc);
				bad++;
			}
		} else if (status == OMWARE_STATUS_CANCELLED && x->sent) {
			diag("cancelled packet %u has sent_ns %llu", idx,
			     (unsigned long long)x->sent);
			bad++;
		}
	}
	for (k = 0; k < b->n && (int)nr == b->n; k++) {
		if (!seen[k]) {
			diag("no report for packet %d", k);
			bad++;
		}
	}
	free(seen);
	return bad;
}

/*
 * Sorted by (sched, submission index), send times never go backwards.
 * Ties in sched are allowed any order, so they are skipped.
 */
static int check_sent_order(const struct batch *b, const struct report *r,
			    size_t nr)
{
	uint64_t *sent = xcalloc(b->n ? b->n : 1, sizeof(uint64_t));
	int *ord = xcalloc(b->n ? b->n : 1, sizeof(int));
	int i, j, bad = 0;
	size_t k;

	for (k = 0; k < nr; k++)
		if ((uint32_t)r[k].cookie < (uint32_t)b->n)
			sent[(uint32_t)r[k].cookie] = r[k].sent;
	for (i = 0; i < b->n; i++)
		ord[i] = i;
	/* insertion sort by time; n is small */
	for (i = 1; i < b->n; i++) {
		int v = ord[i];

		for (j = i; j > 0 && b->p[ord[j - 1]].time > b->p[v].time; j--)
			ord[j] = ord[j - 1];
		ord[j] = v;
	}
	for (i = 1; i < b->n; i++) {
		int a = ord[i - 1], c = ord[i];

		if (b->p[a].time == b->p[c].time)
			continue;
		if (sent[c] < sent[a]) {
			diag("packet %d (sched later) sent before packet %d",
			     c, a);
			bad++;
		}
	}
	free(sent);
	free(ord);
	return bad;
}

/*
 * The receiver saw exactly the packets of @b, each byte for byte, in
 * sched-time order (ties: any order, checked by the caller if needed).
 */
static int check_delivery(const struct batch *b, const struct rxframe *f,
			  int got)
{
	int i, bad = 0;
	uint64_t last = 0;
	char *seen = xcalloc(b->n ? b->n : 1, 1);

	if (got != b->n) {
		diag("receiver saw %d frames, expected %d", got, b->n);
		bad++;
	}
	for (i = 0; i < got && i < b->n; i++) {
		const struct pkt *p;

		if (f[i].idx >= (uint32_t)b->n) {
			diag("frame %d carries unknown index %u", i, f[i].idx);
			bad++;
			continue;
		}
		p = &b->p[f[i].idx];
		if (seen[f[i].idx]++) {
			diag("frame %u received twice", f[i].idx);
			bad++;
		}
		if (f[i].len != p->wire_len ||
		    memcmp(f[i].d, p->wire, p->wire_len)) {
			int k = 0;

			while (k < f[i].len && k < p->wire_len &&
			       f[i].d[k] == p->wire[k])
				k++;
			diag("frame %u: %d bytes, expected %d, first difference at byte %d",
			     f[i].idx, f[i].len, p->wire_len, k);
			bad++;
		}
		if (p->time < last) {
			diag("frame %u (sched %llu) arrived after a later one",
			     f[i].idx, (unsigned long long)p->time);
			bad++;
		}
		last = p->time;
	}
	free(seen);
	return bad;
}

/* ------------------------------------------------------------------ */
/* suite environment                                                   */

struct env {
	struct topo t;
	struct ow *o;		/* main socket */
	struct ow *o2;		/* a second, unrelated socket */
	uint32_t victim;	/* session with packets parked far ahead */
	int victim_pending;
	int other_ns_ifindex;	/* exists in the peer netns only */
	char pdir[128];		/* module parameters directory */
};

static struct env *cleanup_env;

static struct sopts base_opts(const struct env *e)
{
	struct sopts so = { .ifindex = e->t.ifindex };

	return so;
}

/* Module-wide pending packets and the number of sessions we can see. */
struct snap {
	uint64_t pending;
	uint64_t submitted;
	size_t sessions;
	uint64_t victim_pending;
	int err;
};

static struct snap snapshot(struct env *e)
{
	struct snap s = { 0 };
	struct info in;
	struct dump d;

	s.err = stats_get(e->o, &in);
	s.pending = in.v[OMWARE_A_PENDING_PKTS];
	s.submitted = in.st[OMWARE_STATS_A_SUBMITTED];
	if (!s.err)
		s.err = session_dump(e->o, &d);
	if (!s.err) {
		s.sessions = d.n;
		free(d.v);
	}
	if (!s.err && e->victim) {
		s.err = session_get(e->o, e->victim, &in, NULL);
		s.victim_pending = in.v[OMWARE_A_PENDING_PKTS];
	}
	return s;
}

/* Nothing of a refused request may stay behind. */
static int check_no_leak(struct env *e, const struct snap *before)
{
	struct snap after = snapshot(e);
	int fail = 0;

	EXPECT(!after.err, "state query failed: %s", errname(after.err));
	EXPECT(after.pending == before->pending,
	       "module pending changed: %llu -> %llu",
	       (unsigned long long)before->pending,
	       (unsigned long long)after.pending);
	EXPECT(after.submitted == before->submitted,
	       "module submitted changed: %llu -> %llu",
	       (unsigned long long)before->submitted,
	       (unsigned long long)after.submitted);
	EXPECT(after.sessions == before->sessions,
	       "session count changed: %zu -> %zu", before->sessions,
	       after.sessions);
	EXPECT(after.victim_pending == before->victim_pending,
	       "victim session pending changed: %llu -> %llu",
	       (unsigned long long)before->victim_pending,
	       (unsigned long long)after.victim_pending);
	return fail;
}

/*
 * A refused request: the errno is one of @want (0-terminated), the extack
 * carries a message, and nothing leaked.
 */
static int expect_refused(struct env *e, const struct snap *before,
			  const struct ack *a, const int *want)
{
	int fail = 0, i;
	bool match = false;

	for (i = 0; want[i]; i++)
		match |= a->err == -want[i];
	if (!match) {
		char buf[128] = "";

		for (i = 0; want[i]; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s-%d", i ? "/" : "", want[i]);
		diag("got %s, expected %s", errname(a->err), buf);
		fail = 1;
	}
	if (a->has_msg)
		diag("extack: \"%s\"%s", a->msg,
		     a->has_offs ? " (with offset)" : "");
	else
		EXPECT(0, "no extack message came back");
	fail |= check_no_leak(e, before);
	return fail ? T_FAIL : T_PASS;
}

#define WANT(...) ((const int[]){ __VA_ARGS__, 0 })

/* ------------------------------------------------------------------ */
/* functional tests                                                    */

static int t_family(struct env *e)
{
	int fail = 0;
	struct info in;

	EXPECT(fam > 0, "family %s not registered", OMWARE_FAMILY_NAME);
	EXPECT(!stats_get(e->o, &in), "STATS_GET failed");
	EXPECT(in.has[OMWARE_A_STATS], "STATS_GET without OMWARE_A_STATS");
	EXPECT(in.has[OMWARE_A_PENDING_PKTS] && in.has[OMWARE_A_MAX_PKTS] &&
	       in.has[OMWARE_A_MAX_BYTES] && in.has[OMWARE_A_PENDING_BYTES],
	       "STATS_GET lacks pending or cap attributes");
	EXPECT(!in.bad_width, "%d attributes of the wrong width",
	       in.bad_width);
	return fail;
}

static int t_session_new_get_del(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in;
	struct dump d;
	struct ack a;
	uint32_t sid;
	int fail = 0, err;

	err = session_new(e->o, &so, &sid, &a);
	if (err) {
		diag("SESSION_NEW: %s %s", errname(err), a.msg);
		return T_FAIL;
	}
	err = session_get(e->o, sid, &in, &a);
	EXPECT(!err, "SESSION_GET: %s %s", errname(err), a.msg);
	EXPECT(in.v[OMWARE_A_SESSION_ID] == sid, "GET: wrong session id");
	EXPECT(in.v[OMWARE_A_IFINDEX] == (uint64_t)e->t.ifindex,
	       "GET: ifindex %llu, expected %d",
	       (unsigned long long)in.v[OMWARE_A_IFINDEX], e->t.ifindex);
	EXPECT(!strcmp(in.ifname, e->t.dev), "GET: ifname '%s', expected '%s'",
	       in.ifname, e->t.dev);
	EXPECT(in.has[OMWARE_A_CLOCKID] &&
	       in.v[OMWARE_A_CLOCKID] == CLOCK_MONOTONIC,
	       "GET: default clock is not CLOCK_MONOTONIC");
	EXPECT(in.has[OMWARE_A_MODE] && in.v[OMWARE_A_MODE] == OMWARE_MODE_TIMER,
	       "GET: default mode is not TIMER");
	EXPECT(in.has[OMWARE_A_XMIT], "GET: no OMWARE_A_XMIT");
	EXPECT(in.has[OMWARE_A_LATE_NS] && in.v[OMWARE_A_LATE_NS] == 20000,
	       "GET: default late threshold %llu, expected 20000",
	       (unsigned long long)in.v[OMWARE_A_LATE_NS]);
	EXPECT(in.has[OMWARE_A_OWNER_PORTID] &&
	       in.v[OMWARE_A_OWNER_PORTID] == e->o->portid,
	       "GET: owner portid %llu, ours %u",
	       (unsigned long long)in.v[OMWARE_A_OWNER_PORTID], e->o->portid);
	EXPECT(in.has[OMWARE_A_PENDING_PKTS] && !in.v[OMWARE_A_PENDING_PKTS],
	       "GET: new session has pending packets");
	EXPECT(in.has[OMWARE_A_MAX_PKTS] && in.v[OMWARE_A_MAX_PKTS],
	       "GET: no default packet cap");
	EXPECT(in.has[OMWARE_A_STATS], "GET: no OMWARE_A_STATS");
	EXPECT(!in.bad_width, "GET: %d attributes of the wrong width",
	       in.bad_width);

	err = session_dump(e->o, &d);
	EXPECT(!err && dump_has(&d, sid), "dump does not list the session");
	free(d.v);

	err = simple_cmd(e->o, OMWARE_CMD_SESSION_DEL, sid, &a);
	EXPECT(!err, "SESSION_DEL: %s %s", errname(err), a.msg);
	err = session_get(e->o, sid, &in, &a);
	EXPECT(err == -ENOENT && a.has_msg,
	       "GET after DEL: %s, extack '%s'", errname(err), a.msg);
	err = simple_cmd(e->o, OMWARE_CMD_SESSION_DEL, sid, &a);
	EXPECT(err == -ENOENT && a.has_msg,
	       "second DEL: %s, extack '%s'", errname(err), a.msg);
	err = session_dump(e->o, &d);
	EXPECT(!err && !dump_has(&d, sid), "dump still lists the session");
	free(d.v);
	return fail;
}

static int t_session_attrs(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in;
	struct ack a;
	uint32_t sid;
	int fail = 0, err;

	so.has_clockid = true;
	so.clockid = CLOCK_TAI;
	so.has_xmit = true;
	so.xmit = OMWARE_XMIT_QDISC;
	so.has_late = true;
	so.late_ns = 12345;
	so.max_pkts = 77;
	so.max_bytes = 88888;
	err = session_new(e->o, &so, &sid, &a);
	if (err) {
		diag("SESSION_NEW: %s %s", errname(err), a.msg);
		return T_FAIL;
	}
	err = session_get(e->o, sid, &in, NULL);
	EXPECT(!err, "GET: %s", errname(err));
	EXPECT(in.v[OMWARE_A_CLOCKID] == CLOCK_TAI, "clockid not kept");
	EXPECT(in.v[OMWARE_A_XMIT] == OMWARE_XMIT_QDISC, "xmit not kept");
	EXPECT(in.v[OMWARE_A_LATE_NS] == 12345, "late_ns not kept");
	EXPECT(in.v[OMWARE_A_MAX_PKTS] == 77, "max_pkts not kept");
	EXPECT(in.v[OMWARE_A_MAX_BYTES] == 88888, "max_bytes not kept");
	EXPECT(!session_del(e->o, sid), "DEL failed");
	return fail;
}

static int t_close_socket_ends_session(struct env *e)
{
	struct sopts so = base_opts(e);
	struct ow *o3 = ow_open();
	struct info g0, g1;
	struct batch b;
	struct dump d;
	uint32_t sid;
	int fail = 0, i;
	bool gone = false;
	uint64_t t0 = mono() + 600 * NSEC_PER_SEC;
	struct snap before = snapshot(e), after;

	if (session_new(o3, &so, &sid, NULL)) {
		ow_close(o3);
		return T_FAIL;
	}
	batch_init(&b, 16);
	for (i = 0; i < 16; i++)
		add_frame(&b, 100, e->t.peer_mac, e->t.mac, t0 + i);
	EXPECT(!submit_all(o3, sid, &b, NULL), "submit failed");
	stats_get(e->o, &g0);
	ow_close(o3);
	for (i = 0; i < 50 && !gone; i++) {
		if (session_dump(e->o, &d) == 0)
			gone = !dump_has(&d, sid);
		free(d.v);
		if (!gone)
			sleep_ms(20);
	}
	EXPECT(gone, "session survives its socket");
	stats_get(e->o, &g1);
	after = snapshot(e);
	EXPECT(after.sessions == before.sessions && after.pending ==
	       before.pending, "sessions %zu -> %zu, pending %llu -> %llu",
	       before.sessions, after.sessions,
	       (unsigned long long)before.pending,
	       (unsigned long long)after.pending);
	/* its packets were accepted, so they end as cancelled */
	EXPECT(g1.st[OMWARE_STATS_A_CANCELLED] -
	       g0.st[OMWARE_STATS_A_CANCELLED] == 16,
	       "module cancelled grew by %llu, expected 16",
	       (unsigned long long)(g1.st[OMWARE_STATS_A_CANCELLED] -
				    g0.st[OMWARE_STATS_A_CANCELLED]));
	EXPECT(g1.st[OMWARE_STATS_A_SENT] == g0.st[OMWARE_STATS_A_SENT],
	       "a packet of the closed session was sent");
	batch_free(&b);
	return fail;
}

static int t_netns_isolation(struct env *e)
{
	struct sopts so = base_opts(e);
	struct ow *peer;
	struct info in;
	struct dump d;
	struct ack a;
	uint32_t sid;
	int fail = 0, err;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	if (enter_ns(e->t.ns))
		return skip("cannot enter %s", e->t.ns);
	peer = ow_open();
	leave_ns();
	err = session_dump(peer, &d);
	EXPECT(!err, "dump from the peer netns: %s", errname(err));
	EXPECT(!dump_has(&d, sid), "the peer netns sees our session");
	free(d.v);
	err = session_get(peer, sid, &in, &a);
	EXPECT(err == -ENOENT, "GET from the peer netns: %s", errname(err));
	err = simple_cmd(peer, OMWARE_CMD_FLUSH, sid, &a);
	EXPECT(err == -ENOENT, "FLUSH from the peer netns: %s", errname(err));
	ow_close(peer);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	return fail;
}

/* One session, @n frames, sched order shuffled at submit time. */
static int flow(struct env *e, const struct sopts *so, int n,
		uint64_t start_off, uint64_t spacing, bool shuffle,
		struct info *after)
{
	struct rxframe *f = xcalloc(n + 8, sizeof(*f));
	int *perm = xcalloc(n, sizeof(int));
	uint64_t t0;
	struct report *r;
	struct batch b;
	uint32_t sid;
	size_t nr;
	int fail = 0, i, got, err;
	struct ack a;

	err = session_new(e->o, so, &sid, &a);
	if (err) {
		diag("SESSION_NEW: %s %s", errname(err), a.msg);
		free(f);
		free(perm);
		return T_FAIL;
	}
	rx_flush(&e->t);
	batch_init(&b, n);
	t0 = mono() + start_off;
	for (i = 0; i < n; i++) {
		int len = FRAME_MIN_TAGGED + 34 + rnd() % (FRAME_MAX - 60);

		if (i == 0)
			len = FRAME_MAX;
		add_frame(&b, len, e->t.peer_mac, e->t.mac, t0 + i * spacing);
		perm[i] = i;
	}
	for (i = n - 1; shuffle && i > 0; i--) {
		int j = rnd() % (i + 1), tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	err = submit_all(e->o, sid, &b, perm);
	EXPECT(!err, "SUBMIT: %s", errname(err));
	got = rx_collect(&e->t, b.tag, f, n, n + 8,
			 (int)((start_off + n * spacing) / NSEC_PER_MSEC) +
			 10000, 300);
	nr = wait_reports(e->o, sid, n, 10000, 200);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	fail |= !!check_sent_order(&b, r, nr);
	fail |= !!check_delivery(&b, f, got);
	if (after) {
		err = session_get(e->o, sid, after, NULL);
		EXPECT(!err, "GET: %s", errname(err));
		EXPECT(after->v[OMWARE_A_PENDING_PKTS] == 0,
		       "%llu packets still pending",
		       (unsigned long long)after->v[OMWARE_A_PENDING_PKTS]);
		EXPECT(after->st[OMWARE_STATS_A_SUBMITTED] == (uint64_t)n &&
		       after->st[OMWARE_STATS_A_SENT] == (uint64_t)n,
		       "session stats: submitted %llu sent %llu, expected %d",
		       (unsigned long long)after->st[OMWARE_STATS_A_SUBMITTED],
		       (unsigned long long)after->st[OMWARE_STATS_A_SENT], n);
	}
	EXPECT(!session_del(e->o, sid), "DEL failed");
	free(r);
	free(f);
	free(perm);
	batch_free(&b);
	return fail;
}

static int t_frames_delivered(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in;

	return flow(e, &so, 48, 30 * NSEC_PER_MSEC, 500000, true, &in);
}

static int t_frames_xmit_qdisc(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in;

	so.has_xmit = true;
	so.xmit = OMWARE_XMIT_QDISC;
	return flow(e, &so, 24, 30 * NSEC_PER_MSEC, 500000, true, &in);
}

static int t_frames_xmit_direct(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in;

	so.has_xmit = true;
	so.xmit = OMWARE_XMIT_DIRECT;
	return flow(e, &so, 24, 30 * NSEC_PER_MSEC, 500000, true, &in);
}

/* Timer mode: 5 to 50 ms ahead at 1 ms spacing, never early, in order. */
static int t_timer_never_early(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in;

	so.has_mode = true;
	so.mode = OMWARE_MODE_TIMER;
	return flow(e, &so, 46, 5 * NSEC_PER_MSEC, NSEC_PER_MSEC, false, &in);
}

static int t_hybrid_mode(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in, g0, g1;
	int fail;

	so.has_mode = true;
	so.mode = OMWARE_MODE_HYBRID;
	/*
	 * Emulated guests wake timers hundreds of microseconds late: let the
	 * guard grow past that, or the kthread never wakes early enough to
	 * spin at all.
	 */
	so.guard_max_ns = 2000000;
	stats_get(e->o, &g0);
	fail = flow(e, &so, 24, 10 * NSEC_PER_MSEC, 2 * NSEC_PER_MSEC, true,
		    &in);
	stats_get(e->o, &g1);
	if (in.st_has[OMWARE_STATS_A_SPIN_NS]) {
		EXPECT(in.st[OMWARE_STATS_A_SPIN_NS] > 0,
		       "session SPIN_NS is 0 in hybrid mode");
	} else {
		EXPECT(g1.st[OMWARE_STATS_A_SPIN_NS] >
		       g0.st[OMWARE_STATS_A_SPIN_NS],
		       "module SPIN_NS did not grow in hybrid mode");
	}
	/* Stalls are the host's doing: only their consistency is certain. */
	EXPECT(g1.st_has[OMWARE_STATS_A_SPIN_STALLS] &&
	       g1.st_has[OMWARE_STATS_A_SPIN_STALL_MAX_NS],
	       "module stats lack SPIN_STALLS / SPIN_STALL_MAX_NS");
	EXPECT(in.st_has[OMWARE_STATS_A_SPIN_STALLS] &&
	       in.st_has[OMWARE_STATS_A_SPIN_STALL_MAX_NS],
	       "session stats lack SPIN_STALLS / SPIN_STALL_MAX_NS");
	EXPECT(g1.st[OMWARE_STATS_A_SPIN_STALLS] >=
	       g0.st[OMWARE_STATS_A_SPIN_STALLS] &&
	       (g1.st[OMWARE_STATS_A_SPIN_STALLS] == 0) ==
	       (g1.st[OMWARE_STATS_A_SPIN_STALL_MAX_NS] == 0) &&
	       (!g1.st[OMWARE_STATS_A_SPIN_STALLS] ||
		g1.st[OMWARE_STATS_A_SPIN_STALL_MAX_NS] > 20000),
	       "SPIN_STALLS %llu and SPIN_STALL_MAX_NS %llu disagree",
	       (unsigned long long)g1.st[OMWARE_STATS_A_SPIN_STALLS],
	       (unsigned long long)g1.st[OMWARE_STATS_A_SPIN_STALL_MAX_NS]);
	return fail;
}

static int t_frame_min_max(struct env *e)
{
	struct sopts so = base_opts(e);
	uint64_t t0 = mono() + 20 * NSEC_PER_MSEC, deadline;
	struct report *r;
	struct batch b;
	uint32_t sid;
	size_t nr;
	int fail = 0, n1514 = 0, n14 = 0;
	struct pkt *p;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	rx_flush(&e->t);
	batch_init(&b, 2);
	add_frame(&b, FRAME_MAX, e->t.peer_mac, e->t.mac, t0);
	/* a bare header: 14 bytes, its source MAC made unique to spot it */
	p = add_frame(&b, FRAME_MIN_TAGGED, e->t.peer_mac, e->t.mac,
		      t0 + NSEC_PER_MSEC);
	p->len = FRAME_HDR;
	put_be32(p->data + 8, b.tag);
	p->wire_len = FRAME_HDR;
	memcpy(p->wire, p->data, FRAME_HDR);
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	deadline = mono() + 5 * NSEC_PER_SEC;
	while (mono() < deadline && !(n1514 && n14)) {
		struct pollfd pfd = { .fd = e->t.rx, .events = POLLIN };
		uint32_t tag, idx;
		int len;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		len = recv(e->t.rx, rxbuf, sizeof(rxbuf), MSG_DONTWAIT);
		if (len == FRAME_HDR && !memcmp(rxbuf, p->wire, FRAME_HDR))
			n14++;
		else if (frame_mark(rxbuf, len, &tag, &idx) && tag == b.tag)
			n1514 += len == FRAME_MAX &&
				 !memcmp(rxbuf, b.p[0].wire, FRAME_MAX);
	}
	EXPECT(n1514 == 1, "1514-byte frame not delivered intact");
	EXPECT(n14 == 1, "14-byte frame not delivered");
	nr = wait_reports(e->o, sid, 2, 5000, 100);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	free(r);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	return fail;
}

static int t_payload_dst_mac(struct env *e)
{
	static const uint8_t other[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33,
						  0x44, 0x55 };
	struct sopts so = base_opts(e);
	struct rxframe f[16];
	struct report *r;
	struct batch b;
	uint64_t t0 = mono() + 20 * NSEC_PER_MSEC;
	uint32_t sid;
	size_t nr;
	int fail = 0, i, got;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	rx_flush(&e->t);
	batch_init(&b, 10);
	for (i = 0; i < 6; i++)
		add_payload(&b, PAYLOAD_MIN + rnd() % 1400,
			    i & 1 ? other : e->t.peer_mac, e->t.mac, -1,
			    t0 + i * NSEC_PER_MSEC);
	/* the largest payload the MTU allows */
	add_payload(&b, 1500, e->t.peer_mac, e->t.mac, -1, t0 + 6 * NSEC_PER_MSEC);
	/* an explicit EtherType overrides the IP version guess */
	add_payload(&b, 200, e->t.peer_mac, e->t.mac, TEST_ETHERTYPE,
		    t0 + 7 * NSEC_PER_MSEC);
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	got = rx_collect(&e->t, b.tag, f, b.n, 16, 5000, 200);
	fail |= !!check_delivery(&b, f, got);
	nr = wait_reports(e->o, sid, b.n, 5000, 100);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	free(r);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	return fail;
}

/* Position of each packet index in the received sequence. */
static void rx_positions(const struct rxframe *f, int got, int *pos, int n)
{
	int i;

	for (i = 0; i < n; i++)
		pos[i] = -1;
	for (i = 0; i < got; i++)
		if (f[i].idx < (uint32_t)n && pos[f[i].idx] < 0)
			pos[f[i].idx] = i;
}

static int t_train_contiguous(struct env *e)
{
	enum { SINGLES = 6, CARS = 8 };
	struct sopts so = base_opts(e);
	struct rxframe f[SINGLES + CARS + 8];
	int pos[SINGLES + CARS];
	struct report *r;
	struct batch b;
	uint64_t t = mono() + 40 * NSEC_PER_MSEC;
	uint32_t sid;
	size_t nr, k;
	int fail = 0, i, got, err;
	struct ack a;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	rx_flush(&e->t);
	batch_init(&b, SINGLES + CARS);
	/* singles due at the same instant must not split the train */
	for (i = 0; i < SINGLES; i++)
		add_frame(&b, 100 + i, e->t.peer_mac, e->t.mac, t);
	for (i = 0; i < CARS; i++)
		add_frame(&b, 200 + 100 * i, e->t.peer_mac, e->t.mac, t);
	err = submit_range(e->o, sid, &b, 0, SINGLES / 2, NULL, NULL);
	EXPECT(!err, "SUBMIT: %s", errname(err));
	err = train_send(e->o, sid, t, &b, SINGLES, SINGLES + CARS, &a);
	EXPECT(!err, "TRAIN: %s %s", errname(err), a.msg);
	err = submit_range(e->o, sid, &b, SINGLES / 2, SINGLES, NULL, NULL);
	EXPECT(!err, "SUBMIT: %s", errname(err));
	got = rx_collect(&e->t, b.tag, f, b.n, SINGLES + CARS + 8, 5000, 200);
	EXPECT(got == b.n, "received %d frames, expected %d", got, b.n);
	rx_positions(f, got, pos, b.n);
	for (i = SINGLES + 1; i < SINGLES + CARS; i++)
		EXPECT(pos[i] >= 0 && pos[i] == pos[i - 1] + 1,
		       "train car %d at position %d, car %d at %d",
		       i - SINGLES, pos[i], i - SINGLES - 1, pos[i - 1]);
	for (i = 0; i < got; i++)
		if (f[i].idx < (uint32_t)b.n)
			EXPECT(f[i].len == b.p[f[i].idx].wire_len &&
			       !memcmp(f[i].d, b.p[f[i].idx].wire, f[i].len),
			       "frame %u differs", f[i].idx);
	nr = wait_reports(e->o, sid, b.n, 5000, 200);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	/* the cars' send times follow their order */
	for (k = 0; k < nr; k++) {
		size_t j;

		for (j = 0; j < nr; j++) {
			uint32_t a1 = (uint32_t)r[k].cookie;
			uint32_t a2 = (uint32_t)r[j].cookie;

			if (a1 >= SINGLES && a2 == a1 + 1 && a2 < (uint32_t)b.n)
				EXPECT(r[j].sent >= r[k].sent,
				       "car %u sent before car %u",
				       a2 - SINGLES, a1 - SINGLES);
		}
	}
	free(r);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	return fail;
}

static int t_pairs_consecutive(struct env *e)
{
	enum { PAIRS = 10 };
	struct sopts so = base_opts(e);
	struct rxframe f[3 * PAIRS + 8];
	int pos[3 * PAIRS], rpos[3 * PAIRS];
	uint64_t t0 = mono() + 40 * NSEC_PER_MSEC;
	struct report *r;
	struct batch b;
	uint32_t sid;
	size_t nr, k;
	int fail = 0, i, got, err;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	rx_flush(&e->t);
	batch_init(&b, 3 * PAIRS);
	/* index 3i: a single due with pair i; 3i+1, 3i+2: the pair */
	for (i = 0; i < PAIRS; i++) {
		uint64_t t = t0 + i * NSEC_PER_MSEC;

		add_frame(&b, 80, e->t.peer_mac, e->t.mac, t);
		add_frame(&b, 1000, e->t.peer_mac, e->t.mac, t);
		add_frame(&b, 1000, e->t.peer_mac, e->t.mac, t);
	}
	for (i = 0; i < PAIRS; i++) {
		err = submit_range(e->o, sid, &b, 3 * i, 3 * i + 1, NULL,
				   NULL);
		EXPECT(!err, "SUBMIT: %s", errname(err));
		err = train_send(e->o, sid, b.p[3 * i].time, &b, 3 * i + 1,
				 3 * i + 3, NULL);
		EXPECT(!err, "pair %d: %s", i, errname(err));
	}
	got = rx_collect(&e->t, b.tag, f, b.n, 3 * PAIRS + 8, 5000, 200);
	EXPECT(got == b.n, "received %d frames, expected %d", got, b.n);
	rx_positions(f, got, pos, b.n);
	nr = wait_reports(e->o, sid, b.n, 5000, 200);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	for (i = 0; i < b.n; i++)
		rpos[i] = -1;
	for (k = 0; k < nr; k++)
		if ((uint32_t)r[k].cookie < (uint32_t)b.n)
			rpos[(uint32_t)r[k].cookie] = k;
	for (i = 0; i < PAIRS; i++) {
		int a1 = 3 * i + 1, a2 = 3 * i + 2;

		EXPECT(pos[a1] >= 0 && pos[a2] == pos[a1] + 1,
		       "pair %d split on the wire (%d, %d)", i, pos[a1],
		       pos[a2]);
		EXPECT(rpos[a1] >= 0 && rpos[a2] == rpos[a1] + 1,
		       "pair %d reports not consecutive (%d, %d)", i,
		       rpos[a1], rpos[a2]);
		if (rpos[a1] >= 0 && rpos[a2] >= 0)
			EXPECT(r[rpos[a2]].sent >= r[rpos[a1]].sent,
			       "pair %d: second packet sent first", i);
	}
	free(r);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	return fail;
}

static int t_past_time_late(struct env *e)
{
	struct sopts so = base_opts(e);
	struct rxframe f[4];
	struct report *r;
	struct batch b;
	struct info in;
	uint32_t sid;
	size_t nr;
	int fail = 0, got;

	so.has_late = true;
	so.late_ns = 20000;
	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	rx_flush(&e->t);
	batch_init(&b, 1);
	add_frame(&b, 300, e->t.peer_mac, e->t.mac, mono() - 5 * NSEC_PER_MSEC);
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	got = rx_collect(&e->t, b.tag, f, 1, 4, 3000, 100);
	fail |= !!check_delivery(&b, f, got);
	nr = wait_reports(e->o, sid, 1, 3000, 100);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	if (nr == 1)
		EXPECT(r[0].sent - r[0].sched >= 5 * NSEC_PER_MSEC,
		       "sent_ns - sched_ns = %llu, below the 5 ms in the past",
		       (unsigned long long)(r[0].sent - r[0].sched));
	free(r);
	EXPECT(!session_get(e->o, sid, &in, NULL), "GET failed");
	EXPECT(in.st[OMWARE_STATS_A_LATE] == 1 &&
	       in.st[OMWARE_STATS_A_SENT] == 1,
	       "session stats: late %llu sent %llu, expected 1 and 1",
	       (unsigned long long)in.st[OMWARE_STATS_A_LATE],
	       (unsigned long long)in.st[OMWARE_STATS_A_SENT]);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	return fail;
}

/* @n packets due from @t0 on, 1 ns apart. */
static struct batch park_at(const struct topo *t, int n, uint64_t t0,
			    const uint64_t *cookies)
{
	struct batch b;
	int i;

	batch_init(&b, n);
	for (i = 0; i < n; i++) {
		add_frame(&b, 64 + i % 1000, t->peer_mac, t->mac, t0 + i);
		if (cookies)
			b.p[i].cookie = cookies[i];
	}
	return b;
}

/* Packets parked ten minutes ahead: a test must never see them sent. */
static struct batch park(struct env *e, uint32_t sid, int n,
			 const uint64_t *cookies)
{
	(void)sid;
	return park_at(&e->t, n, mono() + 600 * NSEC_PER_SEC, cookies);
}

static int t_cancel_cookie(struct env *e)
{
	uint64_t cookies[6] = { 10, 11, 12, 12, 13, 14 };
	struct sopts so = base_opts(e);
	struct report *r;
	struct info in;
	struct batch b;
	struct ack a;
	uint32_t sid;
	size_t nr, k;
	int fail = 0, err;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	b = park(e, sid, 6, cookies);
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	err = cancel_cookie(e->o, sid, 12, &a);
	EXPECT(!err, "CANCEL: %s %s", errname(err), a.msg);
	nr = wait_reports(e->o, sid, 2, 3000, 200);
	take_reports(e->o, sid, &r);
	EXPECT(nr == 2, "%zu reports after cancelling 2 packets", nr);
	for (k = 0; k < nr; k++) {
		EXPECT(r[k].cookie == 12, "report for cookie %llu",
		       (unsigned long long)r[k].cookie);
		EXPECT(r[k].status == OMWARE_STATUS_CANCELLED,
		       "status %u, expected CANCELLED", r[k].status);
		EXPECT(r[k].sent == 0, "cancelled packet has sent_ns");
	}
	free(r);
	EXPECT(!session_get(e->o, sid, &in, NULL) &&
	       in.v[OMWARE_A_PENDING_PKTS] == 4,
	       "pending %llu after cancel, expected 4",
	       (unsigned long long)in.v[OMWARE_A_PENDING_PKTS]);
	EXPECT(in.st[OMWARE_STATS_A_CANCELLED] == 2, "CANCELLED stat %llu",
	       (unsigned long long)in.st[OMWARE_STATS_A_CANCELLED]);
	EXPECT(!simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, NULL), "FLUSH failed");
	EXPECT(!session_del(e->o, sid), "DEL failed");
	drop_reports(e->o, sid);
	batch_free(&b);
	return fail;
}

static int t_cancel_unknown_cookie(struct env *e)
{
	struct sopts so = base_opts(e);
	struct batch b;
	struct snap before;
	struct ack a;
	uint32_t sid;
	int rc;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	b = park(e, sid, 2, NULL);
	submit_all(e->o, sid, &b, NULL);
	before = snapshot(e);
	cancel_cookie(e->o, sid, 0xfeedULL, &a);
	rc = expect_refused(e, &before, &a, WANT(ENOENT));
	simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, NULL);
	session_del(e->o, sid);
	drop_reports(e->o, sid);
	batch_free(&b);
	return rc;
}

static int t_flush(struct env *e)
{
	struct sopts so = base_opts(e);
	struct rxframe f[2];
	struct report *r;
	struct info in;
	struct batch b;
	struct ack a;
	uint32_t sid;
	size_t nr;
	int fail = 0, err;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	rx_flush(&e->t);
	b = park(e, sid, 40, NULL);
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	err = simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, &a);
	EXPECT(!err, "FLUSH: %s %s", errname(err), a.msg);
	nr = wait_reports(e->o, sid, b.n, 3000, 200);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_CANCELLED, false);
	free(r);
	EXPECT(!session_get(e->o, sid, &in, NULL), "GET failed");
	EXPECT(in.v[OMWARE_A_PENDING_PKTS] == 0 &&
	       in.v[OMWARE_A_PENDING_BYTES] == 0,
	       "pending after flush: %llu pkts %llu bytes",
	       (unsigned long long)in.v[OMWARE_A_PENDING_PKTS],
	       (unsigned long long)in.v[OMWARE_A_PENDING_BYTES]);
	EXPECT(in.st[OMWARE_STATS_A_CANCELLED] == (uint64_t)b.n,
	       "CANCELLED stat %llu, expected %d",
	       (unsigned long long)in.st[OMWARE_STATS_A_CANCELLED], b.n);
	/* a flushed packet must never reach the wire */
	EXPECT(rx_collect(&e->t, b.tag, f, 1, 2, 300, 0) == 0,
	       "a flushed packet was sent");
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	return fail;
}

/*
 * Packets that fall due while their device is down, or while its carrier
 * is off because the veth peer is down, are dropped and reported as such;
 * the session lives on and sends again once the link is back.  A veth of
 * its own keeps the main one untouched.
 */
static int link_loss(struct env *e, bool peer_side)
{
	int want_rc = peer_side ? -ENOLINK : -ENETDOWN;
	struct sopts so = base_opts(e);
	struct report *r;
	struct rxframe f[4];
	struct batch b, b2;
	struct info in;
	struct topo t;
	uint32_t sid;
	size_t nr, k;
	int fail = 0, i;

	if (topo_make(&t, 1))
		return T_FAIL;
	so.ifindex = t.ifindex;
	if (session_new(e->o, &so, &sid, NULL)) {
		topo_del(&t);
		return T_FAIL;
	}
	batch_init(&b, 5);
	for (i = 0; i < 5; i++)
		add_frame(&b, 200, t.peer_mac, t.mac,
			  mono() + 1500 * NSEC_PER_MSEC + i * NSEC_PER_MSEC);
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	if (peer_side)
		EXPECT(!run("ip -n %s link set %s down", t.ns, t.peer),
		       "cannot set the peer down");
	else
		EXPECT(!run("ip link set %s down", t.dev),
		       "cannot set the device down");
	nr = wait_reports(e->o, sid, b.n, 10000, 200);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b, r, nr, OMWARE_STATUS_DROPPED, false);
	for (k = 0; k < nr; k++) {
		EXPECT(r[k].rc == want_rc, "rc %d, expected %d", r[k].rc,
		       want_rc);
		EXPECT(r[k].sent == 0, "dropped packet has sent_ns");
	}
	free(r);
	EXPECT(!session_get(e->o, sid, &in, NULL), "GET failed");
	EXPECT(in.st[OMWARE_STATS_A_DROPPED_DOWN] == 5 &&
	       in.st[OMWARE_STATS_A_SENT] == 0,
	       "session stats: dropped_down %llu sent %llu",
	       (unsigned long long)in.st[OMWARE_STATS_A_DROPPED_DOWN],
	       (unsigned long long)in.st[OMWARE_STATS_A_SENT]);

	/* link back: the same session sends again */
	if (peer_side)
		run("ip -n %s link set %s up", t.ns, t.peer);
	else
		run("ip link set %s up", t.dev);
	for (i = 0; i < 100 && !if_carrier(t.dev); i++)
		sleep_ms(20);
	rx_flush(&t);
	batch_init(&b2, 1);
	add_frame(&b2, 300, t.peer_mac, t.mac, mono() + 20 * NSEC_PER_MSEC);
	EXPECT(!submit_all(e->o, sid, &b2, NULL), "SUBMIT after link up");
	nr = wait_reports(e->o, sid, 1, 5000, 100);
	take_reports(e->o, sid, &r);
	fail |= !!check_reports(&b2, r, nr, OMWARE_STATUS_SENT, true);
	free(r);
	fail |= !!check_delivery(&b2, f, rx_collect(&t, b2.tag, f, 1, 4,
						   3000, 100));
	EXPECT(!session_del(e->o, sid), "DEL failed");
	batch_free(&b);
	batch_free(&b2);
	topo_del(&t);
	return fail;
}

static int t_device_down_drops(struct env *e)
{
	return link_loss(e, false);
}

static int t_peer_down_drops(struct env *e)
{
	return link_loss(e, true);
}

static int stats_add_up(const char *who, const struct info *in)
{
	const uint64_t *s = in->st;
	uint64_t out = s[OMWARE_STATS_A_SENT] + s[OMWARE_STATS_A_DROPPED_XMIT] +
		       s[OMWARE_STATS_A_DROPPED_DOWN] +
		       s[OMWARE_STATS_A_CANCELLED] +
		       in->v[OMWARE_A_PENDING_PKTS];

	if (s[OMWARE_STATS_A_SUBMITTED] == out)
		return 0;
	diag("%s: submitted %llu != sent %llu + dropped %llu + %llu + cancelled %llu + pending %llu",
	     who, (unsigned long long)s[OMWARE_STATS_A_SUBMITTED],
	     (unsigned long long)s[OMWARE_STATS_A_SENT],
	     (unsigned long long)s[OMWARE_STATS_A_DROPPED_XMIT],
	     (unsigned long long)s[OMWARE_STATS_A_DROPPED_DOWN],
	     (unsigned long long)s[OMWARE_STATS_A_CANCELLED],
	     (unsigned long long)in->v[OMWARE_A_PENDING_PKTS]);
	return 1;
}

static int t_counters_add_up(struct env *e)
{
	struct sopts so = base_opts(e);
	uint64_t t0 = mono() + 20 * NSEC_PER_MSEC;
	struct info in, g;
	struct batch b;
	uint32_t sid;
	size_t nr;
	int fail = 0, i;

	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	batch_init(&b, 30);
	for (i = 0; i < 10; i++)	/* sent soon */
		add_frame(&b, 90, e->t.peer_mac, e->t.mac, t0 + i * 100000);
	for (i = 0; i < 20; i++)	/* parked, half cancelled */
		add_frame(&b, 90, e->t.peer_mac, e->t.mac,
			  t0 + 600 * NSEC_PER_SEC + i);
	for (i = 10; i < 30; i += 2)
		b.p[i].cookie = 0xc0c0;
	EXPECT(!submit_all(e->o, sid, &b, NULL), "SUBMIT failed");
	EXPECT(!cancel_cookie(e->o, sid, 0xc0c0, NULL), "CANCEL failed");
	nr = wait_reports(e->o, sid, 20, 5000, 100);
	EXPECT(nr == 20, "%zu reports, expected 10 sent + 10 cancelled", nr);
	EXPECT(!session_get(e->o, sid, &in, NULL), "GET failed");
	EXPECT(in.st[OMWARE_STATS_A_SUBMITTED] == 30, "submitted %llu",
	       (unsigned long long)in.st[OMWARE_STATS_A_SUBMITTED]);
	EXPECT(in.v[OMWARE_A_PENDING_PKTS] == 10, "pending %llu",
	       (unsigned long long)in.v[OMWARE_A_PENDING_PKTS]);
	fail |= stats_add_up("session", &in);
	EXPECT(!stats_get(e->o, &g), "STATS_GET failed");
	fail |= stats_add_up("module", &g);
	EXPECT(!simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, NULL), "FLUSH failed");
	wait_reports(e->o, sid, 30, 3000, 100);
	EXPECT(!session_get(e->o, sid, &in, NULL), "GET failed");
	fail |= stats_add_up("session after flush", &in);
	EXPECT(!session_del(e->o, sid), "DEL failed");
	drop_reports(e->o, sid);
	batch_free(&b);
	return fail;
}

/* ------------------------------------------------------------------ */
/* limits                                                              */

static int t_limit_max_pkts(struct env *e)
{
	struct sopts so = base_opts(e);
	struct info in, g0, g1;
	struct batch b;
	struct ack a;
	uint32_t sid;
	int fail = 0, err;

	so.max_pkts = 4;
	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	b = park(e, sid, 9, NULL);
	EXPECT(!submit_range(e->o, sid, &b, 0, 3, NULL, NULL),
	       "3 packets under a cap of 4 refused");
	stats_get(e->o, &g0);
	err = submit_range(e->o, sid, &b, 3, 5, NULL, &a);
	EXPECT(err == -ENOBUFS, "over the cap: %s, expected -ENOBUFS",
	       errname(err));
	EXPECT(a.has_msg, "no extack message");
	if (a.has_msg)
		diag("extack: \"%s\"", a.msg);
	EXPECT(!session_get(e->o, sid, &in, NULL) &&
	       in.v[OMWARE_A_PENDING_PKTS] == 3,
	       "pending %llu after a refused batch, expected 3",
	       (unsigned long long)in.v[OMWARE_A_PENDING_PKTS]);
	stats_get(e->o, &g1);
	EXPECT(g1.v[OMWARE_A_PENDING_PKTS] == g0.v[OMWARE_A_PENDING_PKTS] &&
	       g1.st[OMWARE_STATS_A_SUBMITTED] ==
	       g0.st[OMWARE_STATS_A_SUBMITTED],
	       "module counters moved for a refused batch");
	EXPECT(!submit_range(e->o, sid, &b, 5, 6, NULL, NULL),
	       "filling the cap exactly was refused");
	err = submit_range(e->o, sid, &b, 6, 7, NULL, &a);
	EXPECT(err == -ENOBUFS && a.has_msg,
	       "one over a full cap: %s '%s'", errname(err), a.msg);
	EXPECT(!simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, NULL), "FLUSH failed");
	EXPECT(!session_del(e->o, sid), "DEL failed");
	drop_reports(e->o, sid);
	batch_free(&b);
	return fail;
}

static int t_limit_max_bytes(struct env *e)
{
	struct sopts so = base_opts(e);
	uint64_t t0 = mono() + 600 * NSEC_PER_SEC;
	struct info in, in2;
	struct batch b;
	struct ack a;
	uint32_t sid;
	int fail = 0, err;

	so.max_bytes = 3000;
	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	batch_init(&b, 4);
	add_frame(&b, 1000, e->t.peer_mac, e->t.mac, t0);
	add_frame(&b, 1000, e->t.peer_mac, e->t.mac, t0 + 1);
	add_frame(&b, 1200, e->t.peer_mac, e->t.mac, t0 + 2);
	add_frame(&b, 1400, e->t.peer_mac, e->t.mac, t0 + 3);
	EXPECT(!submit_range(e->o, sid, &b, 0, 2, NULL, NULL),
	       "2000 bytes under a 3000-byte cap refused");
	EXPECT(!session_get(e->o, sid, &in, NULL), "GET failed");
	EXPECT(in.v[OMWARE_A_PENDING_PKTS] == 2 &&
	       in.v[OMWARE_A_PENDING_BYTES] == 2000,
	       "pending %llu pkts %llu bytes",
	       (unsigned long long)in.v[OMWARE_A_PENDING_PKTS],
	       (unsigned long long)in.v[OMWARE_A_PENDING_BYTES]);
	err = submit_range(e->o, sid, &b, 2, 4, NULL, &a);
	EXPECT(err == -ENOBUFS && a.has_msg,
	       "over the byte cap: %s, extack '%s'", errname(err), a.msg);
	EXPECT(!session_get(e->o, sid, &in2, NULL) &&
	       in2.v[OMWARE_A_PENDING_PKTS] == 2 &&
	       in2.v[OMWARE_A_PENDING_BYTES] == in.v[OMWARE_A_PENDING_BYTES],
	       "refused batch changed pending to %llu pkts %llu bytes",
	       (unsigned long long)in2.v[OMWARE_A_PENDING_PKTS],
	       (unsigned long long)in2.v[OMWARE_A_PENDING_BYTES]);
	EXPECT(!simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, NULL), "FLUSH failed");
	EXPECT(!session_del(e->o, sid), "DEL failed");
	drop_reports(e->o, sid);
	batch_free(&b);
	return fail;
}

static int read_param(const struct env *e, const char *name, char *buf,
		      size_t len)
{
	char path[256];
	FILE *f;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/%s", e->pdir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(f);
	return rc;
}

static int write_param(const struct env *e, const char *name, const char *v)
{
	char path[256];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", e->pdir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	rc = fputs(v, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -1 : 0;
}

/*
 * A module-wide cap, lowered through its parameter under a session created
 * before, whose own cap is far larger: the refusal can only come from the
 * module-wide one.  @bytes selects max_bytes instead of max_pkts.
 */
static int global_cap(struct env *e, bool bytes)
{
	const char *name = bytes ? "max_bytes" : "max_pkts";
	int pending_attr = bytes ? OMWARE_A_PENDING_BYTES :
				   OMWARE_A_PENDING_PKTS;
	int cap_attr = bytes ? OMWARE_A_MAX_BYTES : OMWARE_A_MAX_PKTS;
	struct sopts so = base_opts(e);
	char old[64], val[64];
	struct info g, in;
	struct batch b;
	struct ack a;
	uint32_t sid;
	int fail = 0, err, k;
	uint64_t cap;

	if (read_param(e, name, old, sizeof(old)))
		return skip("no parameter %s in %s", name, e->pdir);
	if (session_new(e->o, &so, &sid, NULL))
		return T_FAIL;
	/* four 1000-byte frames fit, the fifth and sixth do not */
	batch_init(&b, 6);
	for (k = 0; k < 6; k++)
		add_frame(&b, 1000, e->t.peer_mac, e->t.mac,
			  mono() + 600 * NSEC_PER_SEC + k);
	stats_get(e->o, &g);
	cap = g.v[pending_attr] + (bytes ? 4500 : 5);
	snprintf(val, sizeof(val), "%llu", (unsigned long long)cap);
	if (write_param(e, name, val)) {
		session_del(e->o, sid);
		batch_free(&b);
		return skip("parameter %s is not writable", name);
	}
	stats_get(e->o, &g);
	EXPECT(g.v[cap_attr] == cap, "STATS_GET cap %llu after %s=%s",
	       (unsigned long long)g.v[cap_attr], name, val);
	err = session_get(e->o, sid, &in, NULL);
	EXPECT(!err && in.v[cap_attr] > cap,
	       "the session's own cap (%llu) is not above the module's",
	       (unsigned long long)in.v[cap_attr]);
	err = submit_range(e->o, sid, &b, 0, 4, NULL, &a);
	EXPECT(!err, "4 packets under the module cap: %s %s", errname(err),
	       a.msg);
	err = submit_range(e->o, sid, &b, 4, 6, NULL, &a);
	EXPECT(err == -ENOBUFS && a.has_msg,
	       "over the module cap: %s, extack '%s'", errname(err), a.msg);
	if (a.has_msg)
		diag("extack: \"%s\"", a.msg);
	EXPECT(!session_get(e->o, sid, &in, NULL) &&
	       in.v[OMWARE_A_PENDING_PKTS] == 4,
	       "pending %llu after a refused batch, expected 4",
	       (unsigned long long)in.v[OMWARE_A_PENDING_PKTS]);
	stats_get(e->o, &g);
	EXPECT(g.v[pending_attr] <= cap, "module pending %llu above cap %llu",
	       (unsigned long long)g.v[pending_attr],
	       (unsigned long long)cap);
	EXPECT(!write_param(e, name, old), "cannot restore %s", name);
	EXPECT(!simple_cmd(e->o, OMWARE_CMD_FLUSH, sid, NULL), "FLUSH failed");
	EXPECT(!session_del(e->o, sid), "DEL failed");
	drop_reports(e->o, sid);
	batch_free(&b);
	return fail;
}

static int t_limit_global_pkts(struct env *e)
{
	return global_cap(e, false);
}

static int t_limit_global_bytes(struct env *e)
{
	return global_cap(e, true);
}

/* ------------------------------------------------------------------ */
/* bad input                                                           */

/* Send a hand-made request and check it is refused cleanly. */
static int refuse(struct env *e, struct nl_msg *m, const int *want)
{
	struct snap before = snapshot(e);
	struct ack a;

	ow_xfer(e->o, m, &a, NULL, NULL);
	return expect_refused(e, &before, &a, want);
}

static struct nl_msg *new_req(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_NEW, 0);

	(void)e;
	return m;
}

static struct nl_msg *submit_req(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SUBMIT, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	return m;
}

/* A good packet nest, then the caller adds or breaks attributes. */
static struct nlattr *pkt_open(struct nl_msg *m, bool time)
{
	struct nlattr *n = nla_nest_start(m, OMWARE_A_PKT | NLA_F_NESTED);

	if (time)
		nla_put_u64(m, OMWARE_PKT_A_TIME,
			    mono() + 600 * NSEC_PER_SEC);
	nla_put_u64(m, OMWARE_PKT_A_COOKIE, 0xbad);
	return n;
}

static void put_good_frame(struct env *e, struct nl_msg *m, int len)
{
	uint8_t f[FRAME_MAX + 16];

	make_frame(f, len, e->t.peer_mac, e->t.mac, 0, 0);
	nla_put(m, OMWARE_PKT_A_FRAME, len, f);
}

static void add_good_pkt(struct env *e, struct nl_msg *m)
{
	struct nlattr *n = pkt_open(m, true);

	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
}

static int t_bad_missing_ifindex(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u8(m, OMWARE_A_MODE, OMWARE_MODE_TIMER);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_missing_session_id(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SUBMIT, 0);

	add_good_pkt(e, m);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_missing_session_id_flush(struct env *e)
{
	return refuse(e, ow_msg(OMWARE_CMD_FLUSH, 0), WANT(EINVAL));
}

static int t_bad_unknown_ifindex(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, 0x7ffffff0);
	return refuse(e, m, WANT(ENODEV));
}

static int t_bad_ifindex_zero(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, 0);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_ifindex_other_netns(struct env *e)
{
	struct nl_msg *m;

	if (!e->other_ns_ifindex)
		return skip("no device index unique to the peer netns");
	m = new_req(e);
	nla_put_u32(m, OMWARE_A_IFINDEX, e->other_ns_ifindex);
	return refuse(e, m, WANT(ENODEV));
}

static int t_bad_ifindex_loopback(struct env *e)
{
	struct nl_msg *m = new_req(e);

	/* no Ethernet header to prepend, no sense in pacing it */
	nla_put_u32(m, OMWARE_A_IFINDEX, 1);
	return refuse(e, m, WANT(EOPNOTSUPP));
}

static int t_bad_ifindex_as_u8(struct env *e)
{
	struct nl_msg *m = new_req(e);
	uint8_t v = e->t.ifindex;

	nla_put(m, OMWARE_A_IFINDEX, 1, &v);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_ifindex_as_u64(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u64(m, OMWARE_A_IFINDEX, e->t.ifindex);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_session_id_as_u8(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SUBMIT, 0);
	uint8_t v = e->victim;

	nla_put(m, OMWARE_A_SESSION_ID, 1, &v);
	add_good_pkt(e, m);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_mode_as_u32(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u32(m, OMWARE_A_MODE, OMWARE_MODE_TIMER);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_time_as_u32(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, false);

	nla_put_u32(m, OMWARE_PKT_A_TIME, 1000);
	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_cookie_as_u16(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = nla_nest_start(m, OMWARE_A_PKT | NLA_F_NESTED);

	nla_put_u64(m, OMWARE_PKT_A_TIME, mono() + 600 * NSEC_PER_SEC);
	nla_put_u16(m, OMWARE_PKT_A_COOKIE, 7);
	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_pkt_not_nested(struct env *e)
{
	struct nl_msg *m = submit_req(e);

	nla_put_u32(m, OMWARE_A_PKT, 1);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_pkt_nested_flag_missing(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nl_msg *inner = nlmsg_alloc_size(4096);
	uint8_t f[100];

	/* build the nest contents apart, then put it without NLA_F_NESTED */
	make_frame(f, sizeof(f), e->t.peer_mac, e->t.mac, 0, 0);
	nla_put_u64(inner, OMWARE_PKT_A_TIME, mono() + 600 * NSEC_PER_SEC);
	nla_put(inner, OMWARE_PKT_A_FRAME, sizeof(f), f);
	nla_put(m, OMWARE_A_PKT, nlmsg_datalen(nlmsg_hdr(inner)),
		nlmsg_data(nlmsg_hdr(inner)));
	nlmsg_free(inner);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_unknown_attr(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u32(m, OMWARE_A_MAX + 1, 1);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_unknown_pkt_attr(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);

	put_good_frame(e, m, 100);
	nla_put_u32(m, OMWARE_PKT_A_MAX + 1, 1);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_reply_only_attr(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u32(m, OMWARE_A_PENDING_PKTS, 5);
	return refuse(e, m, WANT(EINVAL));
}

static int bad_frame_len(struct env *e, int len, int want)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t f[FRAME_MAX + 64];

	memset(f, 0, sizeof(f));
	if (len >= FRAME_MIN_TAGGED)
		make_frame(f, len, e->t.peer_mac, e->t.mac, 0, 0);
	nla_put(m, OMWARE_PKT_A_FRAME, len, f);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(want));
}

static int t_bad_frame_empty(struct env *e)
{
	return bad_frame_len(e, 0, ERANGE);
}

static int t_bad_frame_13(struct env *e)
{
	return bad_frame_len(e, 13, ERANGE);
}

static int t_bad_frame_over_mtu(struct env *e)
{
	return bad_frame_len(e, FRAME_MAX + 1, EMSGSIZE);
}

static int t_bad_payload_over_mtu(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t p[1501];

	make_payload(p, sizeof(p), 0, 0);
	nla_put(m, OMWARE_PKT_A_PAYLOAD, sizeof(p), p);
	nla_put(m, OMWARE_PKT_A_DST_MAC, ETH_ALEN, e->t.peer_mac);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EMSGSIZE));
}

static int t_bad_payload_no_dst_mac(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t p[100];

	make_payload(p, sizeof(p), 0, 0);
	nla_put(m, OMWARE_PKT_A_PAYLOAD, sizeof(p), p);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_dst_mac_5(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t p[100];

	make_payload(p, sizeof(p), 0, 0);
	nla_put(m, OMWARE_PKT_A_PAYLOAD, sizeof(p), p);
	nla_put(m, OMWARE_PKT_A_DST_MAC, 5, e->t.peer_mac);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_dst_mac_with_frame(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);

	/* DST_MAC only makes sense with PAYLOAD */
	put_good_frame(e, m, 100);
	nla_put(m, OMWARE_PKT_A_DST_MAC, ETH_ALEN, e->t.peer_mac);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_frame_and_payload(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t p[100];

	put_good_frame(e, m, 100);
	make_payload(p, sizeof(p), 0, 0);
	nla_put(m, OMWARE_PKT_A_PAYLOAD, sizeof(p), p);
	nla_put(m, OMWARE_PKT_A_DST_MAC, ETH_ALEN, e->t.peer_mac);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_neither_frame_nor_payload(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);

	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_pkt_without_time(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, false);

	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_submit_without_pkt(struct env *e)
{
	return refuse(e, submit_req(e), WANT(EINVAL));
}

static int bad_time(struct env *e, uint64_t t)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = nla_nest_start(m, OMWARE_A_PKT | NLA_F_NESTED);

	nla_put_u64(m, OMWARE_PKT_A_TIME, t);
	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_time_u64_max(struct env *e)
{
	return bad_time(e, UINT64_MAX);
}

static int t_bad_time_ktime_overflow(struct env *e)
{
	return bad_time(e, (uint64_t)INT64_MAX + 1);
}

static int t_bad_time_far_future(struct env *e)
{
	/* a century ahead is a client bug, not a schedule */
	return bad_time(e, mono() + 100ULL * 365 * 24 * 3600 * NSEC_PER_SEC);
}

/* The second of three packets is bad: none is queued, extack points at it. */
static int t_bad_batch_middle(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n;
	struct snap before;
	struct ack a;
	uint32_t start, end;
	int rc, fail = 0;

	add_good_pkt(e, m);
	n = pkt_open(m, true);
	start = (uint8_t *)n - (uint8_t *)nlmsg_hdr(m);
	put_good_frame(e, m, 13);
	nla_nest_end(m, n);
	end = start + NLA_ALIGN(n->nla_len);
	add_good_pkt(e, m);
	before = snapshot(e);
	ow_xfer(e->o, m, &a, NULL, NULL);
	rc = expect_refused(e, &before, &a, WANT(ERANGE));
	EXPECT(a.has_offs, "extack does not point at the bad attribute");
	EXPECT(!a.has_offs || (a.offs >= start && a.offs < end),
	       "extack offset %u outside the bad packet [%u, %u)", a.offs,
	       start, end);
	return rc == T_PASS ? fail : T_FAIL;
}

static int t_bad_unknown_session(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SUBMIT, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, 0x7eadbeef);
	add_good_pkt(e, m);
	return refuse(e, m, WANT(ENOENT));
}

static int t_bad_unknown_session_get(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_GET, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, 0x7eadbeef);
	return refuse(e, m, WANT(ENOENT));
}

/* Another socket may look at a session but never drive it. */
static int t_bad_other_socket(struct env *e)
{
	static const uint8_t cmds[] = { OMWARE_CMD_SUBMIT, OMWARE_CMD_TRAIN,
					OMWARE_CMD_CANCEL, OMWARE_CMD_FLUSH,
					OMWARE_CMD_SESSION_DEL };
	int fail = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		struct nl_msg *m = ow_msg(cmds[i], 0);
		struct snap before = snapshot(e);
		struct ack a;

		nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
		if (cmds[i] == OMWARE_CMD_SUBMIT) {
			add_good_pkt(e, m);
		} else if (cmds[i] == OMWARE_CMD_TRAIN) {
			struct nlattr *n;
			int k;

			nla_put_u64(m, OMWARE_A_TIME,
				    mono() + 600 * NSEC_PER_SEC);
			for (k = 0; k < 2; k++) {
				n = pkt_open(m, false);
				put_good_frame(e, m, 100);
				nla_nest_end(m, n);
			}
		} else if (cmds[i] == OMWARE_CMD_CANCEL) {
			nla_put_u64(m, OMWARE_A_COOKIE, 0xbad);
		}
		ow_xfer(e->o2, m, &a, NULL, NULL);
		diag("command %u from another socket:", cmds[i]);
		if (expect_refused(e, &before, &a, WANT(EPERM)))
			fail = 1;
	}
	return fail;
}

static int t_bad_train_one_pkt(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_TRAIN, 0);
	struct nlattr *n;

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	nla_put_u64(m, OMWARE_A_TIME, mono() + 600 * NSEC_PER_SEC);
	n = pkt_open(m, false);
	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_train_no_time(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_TRAIN, 0);
	struct nlattr *n;
	int k;

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	for (k = 0; k < 2; k++) {
		n = pkt_open(m, false);
		put_good_frame(e, m, 100);
		nla_nest_end(m, n);
	}
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_train_bad_car(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_TRAIN, 0);
	struct nlattr *n;

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	nla_put_u64(m, OMWARE_A_TIME, mono() + 600 * NSEC_PER_SEC);
	n = pkt_open(m, false);
	put_good_frame(e, m, 100);
	nla_nest_end(m, n);
	n = pkt_open(m, false);
	put_good_frame(e, m, 13);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_mode_value(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u8(m, OMWARE_A_MODE, OMWARE_MODE_MAX + 1);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_xmit_value(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u8(m, OMWARE_A_XMIT, OMWARE_XMIT_MAX + 1);
	return refuse(e, m, WANT(ERANGE));
}

static int bad_clock(struct env *e, uint32_t clk)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u32(m, OMWARE_A_CLOCKID, clk);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_clockid_cputime(struct env *e)
{
	return bad_clock(e, CLOCK_PROCESS_CPUTIME_ID);
}

/* Beyond the policy's range: refused by the policy itself. */
static int t_bad_clockid_999(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u32(m, OMWARE_A_CLOCKID, 999);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_cpu_value(struct env *e)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u8(m, OMWARE_A_MODE, OMWARE_MODE_HYBRID);
	nla_put_u32(m, OMWARE_A_CPU, 100000);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_session_id_zero(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_FLUSH, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, 0);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_train_pkt_with_time(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_TRAIN, 0);
	struct nlattr *n;
	int k;

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	nla_put_u64(m, OMWARE_A_TIME, mono() + 600 * NSEC_PER_SEC);
	for (k = 0; k < 2; k++) {
		/* the second car brings a time of its own */
		n = pkt_open(m, k == 1);
		put_good_frame(e, m, 100);
		nla_nest_end(m, n);
	}
	return refuse(e, m, WANT(EINVAL));
}

static int bad_new_u32(struct env *e, int attr, uint32_t v, int want)
{
	struct nl_msg *m = new_req(e);

	nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
	nla_put_u32(m, attr, v);
	return refuse(e, m, WANT(want));
}

static int t_bad_guard_max_too_big(struct env *e)
{
	return bad_new_u32(e, OMWARE_A_GUARD_MAX_NS, 1000000000, ERANGE);
}

static int t_bad_guard_max_too_small(struct env *e)
{
	return bad_new_u32(e, OMWARE_A_GUARD_MAX_NS, 1, ERANGE);
}

static int t_bad_max_pkts_zero(struct env *e)
{
	return bad_new_u32(e, OMWARE_A_MAX_PKTS, 0, ERANGE);
}

static int t_bad_max_bytes_zero(struct env *e)
{
	return bad_new_u32(e, OMWARE_A_MAX_BYTES, 0, ERANGE);
}

/* A session cap may not exceed the module-wide one. */
static int t_bad_max_pkts_above_module(struct env *e)
{
	struct info g;

	if (stats_get(e->o, &g) || !g.has[OMWARE_A_MAX_PKTS])
		return T_FAIL;
	if (g.v[OMWARE_A_MAX_PKTS] >= UINT32_MAX)
		return skip("module cap is already the largest u32");
	return bad_new_u32(e, OMWARE_A_MAX_PKTS,
			   (uint32_t)g.v[OMWARE_A_MAX_PKTS] + 1, ERANGE);
}

static int t_bad_proto_below_ethertypes(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t p[100];

	make_payload(p, sizeof(p), 0, 0);
	nla_put(m, OMWARE_PKT_A_PAYLOAD, sizeof(p), p);
	nla_put(m, OMWARE_PKT_A_DST_MAC, ETH_ALEN, e->t.peer_mac);
	/* below 0x600 it would be an 802.3 length, not an EtherType */
	nla_put_u16(m, OMWARE_PKT_A_PROTO, htons(0x05dc));
	nla_nest_end(m, n);
	return refuse(e, m, WANT(ERANGE));
}

static int t_bad_payload_not_ip_no_proto(struct env *e)
{
	struct nl_msg *m = submit_req(e);
	struct nlattr *n = pkt_open(m, true);
	uint8_t p[100];

	make_payload(p, sizeof(p), 0, 0);
	p[0] = 0x20;		/* IP version 2 */
	nla_put(m, OMWARE_PKT_A_PAYLOAD, sizeof(p), p);
	nla_put(m, OMWARE_PKT_A_DST_MAC, ETH_ALEN, e->t.peer_mac);
	nla_nest_end(m, n);
	return refuse(e, m, WANT(EINVAL));
}

static int t_bad_stats_get_with_attr(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_STATS_GET, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	return refuse(e, m, WANT(EINVAL));
}

static int read_param(const struct env *e, const char *name, char *buf,
		      size_t len);

/* Just past the module's horizon, read from its parameter. */
static int t_bad_time_beyond_horizon(struct env *e)
{
	char val[32];
	uint64_t h;

	if (read_param(e, "horizon_s", val, sizeof(val)))
		return skip("no horizon_s parameter in %s", e->pdir);
	h = strtoull(val, NULL, 10);
	return bad_time(e, mono() + (h + 60) * NSEC_PER_SEC);
}

static int t_bad_cancel_no_cookie(struct env *e)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_CANCEL, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
	return refuse(e, m, WANT(EINVAL));
}

/* ------------------------------------------------------------------ */
/* privileges                                                          */

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

/* Build a well-formed request of @cmd aimed at the victim session. */
static struct nl_msg *good_req(struct env *e, uint8_t cmd)
{
	struct nl_msg *m = ow_msg(cmd, 0);
	struct nlattr *n;
	int k;

	switch (cmd) {
	case OMWARE_CMD_SESSION_NEW:
		nla_put_u32(m, OMWARE_A_IFINDEX, e->t.ifindex);
		break;
	case OMWARE_CMD_SUBMIT:
		nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
		add_good_pkt(e, m);
		break;
	case OMWARE_CMD_TRAIN:
		nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
		nla_put_u64(m, OMWARE_A_TIME, mono() + 600 * NSEC_PER_SEC);
		for (k = 0; k < 2; k++) {
			n = pkt_open(m, false);
			put_good_frame(e, m, 100);
			nla_nest_end(m, n);
		}
		break;
	case OMWARE_CMD_CANCEL:
		nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
		nla_put_u64(m, OMWARE_A_COOKIE, 0xbad);
		break;
	default:
		nla_put_u32(m, OMWARE_A_SESSION_ID, e->victim);
		break;
	}
	return m;
}

/*
 * Without CAP_NET_ADMIN every state-changing command fails with -EPERM,
 * while the read-only ones still work.  The socket is opened with the
 * capability and it is dropped before sending, since the check is made
 * against the sender at send time.  genetlink refuses before the family's
 * handler runs, so no extack message is required here.
 */
static int t_no_cap_net_admin(struct env *e)
{
	static const uint8_t admin[] = {
		OMWARE_CMD_SESSION_NEW, OMWARE_CMD_SESSION_DEL,
		OMWARE_CMD_SUBMIT, OMWARE_CMD_TRAIN, OMWARE_CMD_CANCEL,
		OMWARE_CMD_FLUSH,
	};
	struct snap before = snapshot(e);
	int fail = 0, status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return T_FAIL;
	if (pid == 0) {
		struct ow *o = ow_open();
		struct info in;
		unsigned int i;
		int err;

		if (drop_net_admin()) {
			diag("capset: %s", strerror(errno));
			_exit(2);
		}
		for (i = 0; i < ARRAY_SIZE(admin); i++) {
			err = ow_xfer(o, good_req(e, admin[i]), NULL, NULL,
				      NULL);
			EXPECT(err == -EPERM,
			       "command %u without CAP_NET_ADMIN: %s",
			       admin[i], errname(err));
		}
		err = stats_get(o, &in);
		EXPECT(!err, "STATS_GET without CAP_NET_ADMIN: %s",
		       errname(err));
		err = session_get(o, e->victim, &in, NULL);
		EXPECT(!err, "SESSION_GET without CAP_NET_ADMIN: %s",
		       errname(err));
		_exit(fail);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return T_FAIL;
	if (WEXITSTATUS(status) == 2)
		return skip("cannot drop CAP_NET_ADMIN");
	fail = WEXITSTATUS(status) != 0;
	fail |= check_no_leak(e, &before);
	return fail;
}

/* ------------------------------------------------------------------ */
/* the suite                                                           */

struct subtest {
	const char *name;
	int (*fn)(struct env *e);
};

static const struct subtest subtests[] = {
	{ "family_registered", t_family },
	{ "session_new_get_del", t_session_new_get_del },
	{ "session_attributes_kept", t_session_attrs },
	{ "socket_close_ends_session", t_close_socket_ends_session },
	{ "netns_isolation", t_netns_isolation },
	{ "frames_delivered_in_order", t_frames_delivered },
	{ "frames_xmit_direct", t_frames_xmit_direct },
	{ "frames_xmit_qdisc", t_frames_xmit_qdisc },
	{ "frame_14_and_1514_bytes", t_frame_min_max },
	{ "payload_gets_ethernet_header", t_payload_dst_mac },
	{ "timer_never_early_in_order", t_timer_never_early },
	{ "hybrid_never_early_spins", t_hybrid_mode },
	{ "train_contiguous", t_train_contiguous },
	{ "pairs_reports_consecutive", t_pairs_consecutive },
	{ "past_time_sent_at_once_late", t_past_time_late },
	{ "cancel_by_cookie", t_cancel_cookie },
	{ "cancel_unknown_cookie", t_cancel_unknown_cookie },
	{ "flush_cancels_all", t_flush },
	{ "counters_add_up", t_counters_add_up },
	{ "device_down_drops", t_device_down_drops },
	{ "peer_down_drops_no_carrier", t_peer_down_drops },
	{ "limit_session_max_pkts", t_limit_max_pkts },
	{ "limit_session_max_bytes", t_limit_max_bytes },
	{ "limit_global_pkts", t_limit_global_pkts },
	{ "limit_global_bytes", t_limit_global_bytes },
	{ "bad_new_missing_ifindex", t_bad_missing_ifindex },
	{ "bad_submit_missing_session_id", t_bad_missing_session_id },
	{ "bad_flush_missing_session_id", t_bad_missing_session_id_flush },
	{ "bad_new_unknown_ifindex", t_bad_unknown_ifindex },
	{ "bad_new_ifindex_zero", t_bad_ifindex_zero },
	{ "bad_new_ifindex_other_netns", t_bad_ifindex_other_netns },
	{ "bad_new_ifindex_loopback", t_bad_ifindex_loopback },
	{ "bad_new_ifindex_as_u8", t_bad_ifindex_as_u8 },
	{ "bad_new_ifindex_as_u64", t_bad_ifindex_as_u64 },
	{ "bad_submit_session_id_as_u8", t_bad_session_id_as_u8 },
	{ "bad_new_mode_as_u32", t_bad_mode_as_u32 },
	{ "bad_pkt_time_as_u32", t_bad_time_as_u32 },
	{ "bad_pkt_cookie_as_u16", t_bad_cookie_as_u16 },
	{ "bad_pkt_not_a_nest", t_bad_pkt_not_nested },
	{ "bad_pkt_nested_flag_missing", t_bad_pkt_nested_flag_missing },
	{ "bad_unknown_attribute", t_bad_unknown_attr },
	{ "bad_unknown_pkt_attribute", t_bad_unknown_pkt_attr },
	{ "bad_reply_only_attribute", t_bad_reply_only_attr },
	{ "bad_frame_0_bytes", t_bad_frame_empty },
	{ "bad_frame_13_bytes", t_bad_frame_13 },
	{ "bad_frame_over_mtu", t_bad_frame_over_mtu },
	{ "bad_payload_over_mtu", t_bad_payload_over_mtu },
	{ "bad_payload_without_dst_mac", t_bad_payload_no_dst_mac },
	{ "bad_dst_mac_5_bytes", t_bad_dst_mac_5 },
	{ "bad_dst_mac_with_frame", t_bad_dst_mac_with_frame },
	{ "bad_frame_and_payload", t_bad_frame_and_payload },
	{ "bad_neither_frame_nor_payload", t_bad_neither_frame_nor_payload },
	{ "bad_submit_pkt_without_time", t_bad_pkt_without_time },
	{ "bad_submit_without_pkt", t_bad_submit_without_pkt },
	{ "bad_time_u64_max", t_bad_time_u64_max },
	{ "bad_time_beyond_ktime", t_bad_time_ktime_overflow },
	{ "bad_time_century_ahead", t_bad_time_far_future },
	{ "bad_batch_middle_pkt_nothing_queued", t_bad_batch_middle },
	{ "bad_unknown_session", t_bad_unknown_session },
	{ "bad_get_unknown_session", t_bad_unknown_session_get },
	{ "bad_other_sockets_session", t_bad_other_socket },
	{ "bad_train_one_pkt", t_bad_train_one_pkt },
	{ "bad_train_without_time", t_bad_train_no_time },
	{ "bad_train_bad_car_nothing_queued", t_bad_train_bad_car },
	{ "bad_mode_value", t_bad_mode_value },
	{ "bad_xmit_value", t_bad_xmit_value },
	{ "bad_clockid_cputime", t_bad_clockid_cputime },
	{ "bad_clockid_999", t_bad_clockid_999 },
	{ "bad_cpu_value", t_bad_cpu_value },
	{ "bad_cancel_without_cookie", t_bad_cancel_no_cookie },
	{ "bad_session_id_zero", t_bad_session_id_zero },
	{ "bad_train_pkt_with_time", t_bad_train_pkt_with_time },
	{ "bad_guard_max_too_big", t_bad_guard_max_too_big },
	{ "bad_guard_max_too_small", t_bad_guard_max_too_small },
	{ "bad_max_pkts_zero", t_bad_max_pkts_zero },
	{ "bad_max_bytes_zero", t_bad_max_bytes_zero },
	{ "bad_max_pkts_above_module", t_bad_max_pkts_above_module },
	{ "bad_proto_below_0x600", t_bad_proto_below_ethertypes },
	{ "bad_payload_not_ip_without_proto", t_bad_payload_not_ip_no_proto },
	{ "bad_stats_get_with_attribute", t_bad_stats_get_with_attr },
	{ "bad_time_beyond_horizon", t_bad_time_beyond_horizon },
	{ "no_cap_net_admin_eperm", t_no_cap_net_admin },
};

#define NTESTS ((int)ARRAY_SIZE(subtests))

static void env_cleanup(void)
{
	struct env *e = cleanup_env;

	if (!e)
		return;
	cleanup_env = NULL;
	topo_del(&e->t);
}

static void on_signal(int sig)
{
	(void)sig;
	/* atexit handlers remove the namespaces we made */
	exit(KSFT_FAIL);
}

static void find_other_ns_ifindex(struct env *e)
{
	char name[IF_NAMESIZE];

	if (!if_indextoname(e->t.peer_ifindex, name)) {
		e->other_ns_ifindex = e->t.peer_ifindex;
		return;
	}
	/* the peer's index is taken here too: make one that is not */
	if (run("ip -n %s link add owx0 index 31337 type veth peer name owx1 >/dev/null 2>&1",
		e->t.ns) == 0 && !if_indextoname(31337, name))
		e->other_ns_ifindex = 31337;
}

static int env_setup(struct env *e)
{
	struct sopts so;
	struct batch b;

	memset(e, 0, sizeof(*e));
	e->t.rx = -1;
	snprintf(e->pdir, sizeof(e->pdir), "/sys/module/omware/parameters");
	e->o = ow_open();
	if (fam <= 0)
		return KSFT_SKIP;
	e->o2 = ow_open();
	cleanup_env = e;
	atexit(env_cleanup);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (topo_make(&e->t, 0)) {
		diag("cannot build the veth/netns topology");
		return KSFT_FAIL;
	}
	find_other_ns_ifindex(e);
	so = base_opts(e);
	if (session_new(e->o, &so, &e->victim, NULL)) {
		diag("cannot create the long-lived session");
		return KSFT_FAIL;
	}
	b = park(e, e->victim, 3, NULL);
	if (submit_all(e->o, e->victim, &b, NULL)) {
		diag("cannot park packets in the long-lived session");
		return KSFT_FAIL;
	}
	e->victim_pending = 3;
	batch_free(&b);
	return KSFT_PASS;
}

static void env_teardown(struct env *e)
{
	if (e->victim) {
		simple_cmd(e->o, OMWARE_CMD_FLUSH, e->victim, NULL);
		session_del(e->o, e->victim);
	}
	ow_close(e->o2);
	ow_close(e->o);
	env_cleanup();
}

static bool selected(const char *list, const char *name)
{
	const char *p = list;
	size_t len = strlen(name);

	if (!list)
		return true;
	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static int run_suite(const char *only)
{
	struct env e;
	int i, n = 0, k = 0, failed = 0, rc;

	for (i = 0; i < NTESTS; i++)
		n += selected(only, subtests[i].name);
	if (!n) {
		fprintf(stderr, "no test matches '%s'\n", only);
		return KSFT_FAIL;
	}
	printf("TAP version 13\n");
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return KSFT_SKIP;
	}
	rc = env_setup(&e);
	if (rc == KSFT_SKIP) {
		printf("1..0 # SKIP generic netlink family '%s' not registered (module not loaded)\n",
		       OMWARE_FAMILY_NAME);
		return KSFT_SKIP;
	}
	if (rc != KSFT_PASS) {
		printf("Bail out! setup failed\n");
		return KSFT_FAIL;
	}
	printf("1..%d\n", n);
	fflush(stdout);
	for (i = 0; i < NTESTS; i++) {
		unsigned int bad = e.o->bad_reports;

		if (!selected(only, subtests[i].name))
			continue;
		k++;
		skip_reason[0] = '\0';
		rc = subtests[i].fn(&e);
		if (rc != T_SKIP && e.o->bad_reports != bad) {
			diag("%u malformed report attributes",
			     e.o->bad_reports - bad);
			rc = T_FAIL;
		}
		if (rc == T_SKIP)
			printf("ok %d - %s # SKIP %s\n", k, subtests[i].name,
			       skip_reason);
		else if (rc == T_PASS)
			printf("ok %d - %s\n", k, subtests[i].name);
		else
			printf("not ok %d - %s\n", k, subtests[i].name);
		failed += rc == T_FAIL;
		fflush(stdout);
	}
	env_teardown(&e);
	diag("%d of %d failed", failed, n);
	return failed ? KSFT_FAIL : KSFT_PASS;
}

/* ------------------------------------------------------------------ */
/* helper modes for the shell tests                                    */

/* One session on an existing veth; check delivery and reports. */
static int cmd_stream(const char *dev, const char *ns, const char *peer,
		      int count, int mode)
{
	struct sopts so = { 0 };
	struct rxframe *f;
	struct report *r;
	struct topo t;
	struct batch b;
	struct ack a;
	uint32_t sid;
	uint64_t t0, spacing = 200000;
	size_t nr;
	int i, got, err, bad = 0;
	struct ow *o;

	if (!ns || !peer || count <= 0 || count > 100000) {
		fprintf(stderr, "stream needs --dev, --peer-ns, --peer-dev\n");
		return KSFT_FAIL;
	}
	if (topo_attach(&t, dev, ns, peer))
		return KSFT_FAIL;
	o = ow_open();
	if (fam <= 0) {
		diag("family %s not registered", OMWARE_FAMILY_NAME);
		return KSFT_SKIP;
	}
	so.ifindex = t.ifindex;
	so.has_mode = true;
	so.mode = mode;
	so.max_pkts = count;
	err = session_new(o, &so, &sid, &a);
	if (err) {
		diag("%s: SESSION_NEW: %s %s", dev, errname(err), a.msg);
		return KSFT_FAIL;
	}
	rnd_state ^= t.ifindex * 2654435761u;
	f = xcalloc(count + 8, sizeof(*f));
	batch_init(&b, count);
	t0 = mono() + 200 * NSEC_PER_MSEC;
	for (i = 0; i < count; i++)
		add_frame(&b, FRAME_MIN_TAGGED + rnd() % (FRAME_MAX -
			  FRAME_MIN_TAGGED + 1), t.peer_mac, t.mac,
			  t0 + i * spacing);
	err = submit_all(o, sid, &b, NULL);
	if (err) {
		diag("%s: SUBMIT: %s", dev, errname(err));
		bad++;
	}
	got = rx_collect(&t, b.tag, f, count, count + 8,
			 (int)(count * spacing / NSEC_PER_MSEC) + 30000, 300);
	nr = wait_reports(o, sid, count, 30000, 300);
	take_reports(o, sid, &r);
	bad += check_reports(&b, r, nr, OMWARE_STATUS_SENT, true);
	bad += check_sent_order(&b, r, nr);
	bad += check_delivery(&b, f, got);
	if (o->bad_reports) {
		diag("%s: %u malformed report attributes", dev,
		     o->bad_reports);
		bad++;
	}
	err = session_del(o, sid);
	if (err) {
		diag("%s: SESSION_DEL: %s", dev, errname(err));
		bad++;
	}
	diag("%s on cpu %d: %d frames, %d received, %zu reports, %d problems",
	     dev, sched_getcpu(), count, got, nr, bad);
	free(r);
	free(f);
	batch_free(&b);
	ow_close(o);
	topo_del(&t);
	return bad ? KSFT_FAIL : KSFT_PASS;
}

/* Create a session, queue @count packets far ahead, then wait forever. */
static int cmd_hold(const char *dev, int count, unsigned int ahead_ms)
{
	struct sopts so = { 0 };
	struct topo t;
	struct batch b;
	struct ack a;
	uint32_t sid;
	struct ow *o;
	int err;

	if (topo_attach(&t, dev, NULL, NULL))
		return KSFT_FAIL;
	memset(t.peer_mac, 0xff, ETH_ALEN);
	o = ow_open();
	if (fam <= 0)
		return KSFT_SKIP;
	so.ifindex = t.ifindex;
	so.max_pkts = count;
	err = session_new(o, &so, &sid, &a);
	if (err) {
		diag("SESSION_NEW: %s %s", errname(err), a.msg);
		return KSFT_FAIL;
	}
	b = park_at(&t, count, mono() + ahead_ms * NSEC_PER_MSEC, NULL);
	err = submit_all(o, sid, &b, NULL);
	if (err) {
		diag("SUBMIT: %s", errname(err));
		return KSFT_FAIL;
	}
	printf("ready %u\n", sid);
	fflush(stdout);
	for (;;) {
		/* keep draining reports so the socket never overflows */
		ow_pump(o, 1000);
		o->nreps = 0;
	}
	return KSFT_PASS;
}

static int cmd_state(bool verbose)
{
	struct info g;
	struct dump d;
	struct ow *o = ow_open();
	size_t i;
	int err;

	if (fam <= 0) {
		fprintf(stderr, "family %s not registered\n",
			OMWARE_FAMILY_NAME);
		return KSFT_SKIP;
	}
	err = stats_get(o, &g);
	if (!err)
		err = session_dump(o, &d);
	if (err) {
		fprintf(stderr, "query failed: %s\n", errname(err));
		return KSFT_FAIL;
	}
	printf("sessions %zu pending %llu submitted %llu sent %llu cancelled %llu dropped_down %llu\n",
	       d.n, (unsigned long long)g.v[OMWARE_A_PENDING_PKTS],
	       (unsigned long long)g.st[OMWARE_STATS_A_SUBMITTED],
	       (unsigned long long)g.st[OMWARE_STATS_A_SENT],
	       (unsigned long long)g.st[OMWARE_STATS_A_CANCELLED],
	       (unsigned long long)g.st[OMWARE_STATS_A_DROPPED_DOWN]);
	for (i = 0; verbose && i < d.n; i++)
		printf("session %llu dev %s pending %llu\n",
		       (unsigned long long)d.v[i].v[OMWARE_A_SESSION_ID],
		       d.v[i].ifname,
		       (unsigned long long)d.v[i].v[OMWARE_A_PENDING_PKTS]);
	free(d.v);
	ow_close(o);
	return KSFT_PASS;
}

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: omware_nl [-l] [-t test[,test...]]\n"
		"       omware_nl stream --dev DEV --peer-ns NS --peer-dev DEV [--count N] [--mode timer|hybrid]\n"
		"       omware_nl hold --dev DEV [--count N] [--ahead-ms MS]\n"
		"       omware_nl state [-v]\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "peer-ns", required_argument, NULL, 'n' },
		{ "peer-dev", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "ahead-ms", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = NULL, *only = NULL, *dev = NULL, *ns = NULL;
	const char *peer = NULL;
	int c, i, count = 0, mode = OMWARE_MODE_TIMER;
	unsigned int ahead_ms = 600000;
	bool list = false, verbose = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && argv[1][0] != '-') {
		cmd = argv[1];
		argc--;
		argv++;
	}
	while ((c = getopt_long(argc, argv, "lt:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list = true;
			break;
		case 't':
			only = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'd':
			dev = optarg;
			break;
		case 'n':
			ns = optarg;
			break;
		case 'p':
			peer = optarg;
			break;
		case 'c':
			count = atoi(optarg);
			break;
		case 'a':
			ahead_ms = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			if (!strcmp(optarg, "timer")) {
				mode = OMWARE_MODE_TIMER;
			} else if (!strcmp(optarg, "hybrid")) {
				mode = OMWARE_MODE_HYBRID;
			} else {
				print_help(stderr);
				return KSFT_FAIL;
			}
			break;
		case 'h':
			print_help(stdout);
			return KSFT_PASS;
		default:
			print_help(stderr);
			return KSFT_FAIL;
		}
	}
	if (list) {
		for (i = 0; i < NTESTS; i++)
			printf("%s\n", subtests[i].name);
		return KSFT_PASS;
	}
	if (!cmd)
		return run_suite(only);
	if (!strcmp(cmd, "state"))
		return cmd_state(verbose);
	if (!dev) {
		print_help(stderr);
		return KSFT_FAIL;
	}
	if (!strcmp(cmd, "stream"))
		return cmd_stream(dev, ns, peer, count ? count : 1000, mode);
	if (!strcmp(cmd, "hold"))
		return cmd_hold(dev, count ? count : 5000, ahead_ms);
	print_help(stderr);
	return KSFT_FAIL;
}
