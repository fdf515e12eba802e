// SPDX-License-Identifier: GPL-2.0
/*
 * omware_client.c - the netlink side of the omware guest tests: requests
 * with extended acks, replies, reports, packet batches, the checks the
 * tests share and the environment every test program runs in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "omware_client.h"

#define MSG_SIZE	(192 * 1024)

typedef int (*reply_cb)(struct nlmsghdr *nlh, void *arg);

static int fam;			/* family id, resolved once */

const char *errname(int err)
{
	static char buf[64];

	if (err == 0)
		return "0 (success)";
	snprintf(buf, sizeof(buf), "-%d (%s)", -err, strerror(-err));
	return buf;
}

/* ------------------------------------------------------------------ */
/* netlink                                                             */

static int ow_resolve(struct nl_sock *sk)
{
	int id = genl_ctrl_resolve(sk, OMWARE_FAMILY_NAME);

	return id < 0 ? -1 : id;
}

/* The family's id, resolved once; -1 when it is not registered. */
int omw_family(void)
{
	if (!fam)
		ow_close(ow_open());
	return fam;
}

/* A socket bound to @port (0: any); NULL when the port is taken. */
struct ow *ow_open_port(uint32_t port)
{
	struct ow *o = xcalloc(1, sizeof(*o));
	int one = 1, sz = 8 << 20;

	o->sk = nl_socket_alloc();
	if (!o->sk) {
		diag("cannot allocate a netlink socket");
		exit(KSFT_FAIL);
	}
	if (port)
		nl_socket_set_local_port(o->sk, port);
	if (genl_connect(o->sk)) {
		if (port) {
			ow_close(o);
			return NULL;
		}
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
	ow_set_sndbuf(o, 2 * MSG_SIZE);
	if (!fam)
		fam = ow_resolve(o->sk);
	return o;
}

struct ow *ow_open(void)
{
	return ow_open_port(0);
}

void ow_set_sndbuf(struct ow *o, int bytes)
{
	if (setsockopt(o->fd, SOL_SOCKET, SO_SNDBUFFORCE, &bytes,
		       sizeof(bytes)))
		setsockopt(o->fd, SOL_SOCKET, SO_SNDBUF, &bytes,
			   sizeof(bytes));
}

void ow_close(struct ow *o)
{
	if (!o)
		return;
	nl_socket_free(o->sk);
	free(o->reps);
	free(o);
}

struct nl_msg *ow_msg(uint8_t cmd, int flags)
{
	return ow_msg_size(cmd, flags, MSG_SIZE);
}

struct nl_msg *ow_msg_size(uint8_t cmd, int flags, size_t size)
{
	struct nl_msg *m = nlmsg_alloc_size(size);

	if (!m || !genlmsg_put(m, NL_AUTO_PID, NL_AUTO_SEQ, fam, 0, flags,
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
int ow_xfer(struct ow *o, struct nl_msg *m, struct ack *a,
	    reply_cb cb, void *arg)
{
	struct ack local;
	uint64_t deadline;
	uint32_t seq;
	int rc;

	if (!a)
		a = &local;
	memset(a, 0, sizeof(*a));
	rc = nl_send_auto_complete(o->sk, m);
	seq = nlmsg_hdr(m)->nlmsg_seq;
	nlmsg_free(m);
	if (rc < 0) {
		diag("netlink send: %s", nl_geterror(rc));
		a->err = -EIO;
		return a->err;
	}
	deadline = mono() + 10ULL * slow_mult() * NSEC_PER_SEC;
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
void ow_pump(struct ow *o, int timeout_ms)
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
size_t wait_reports(struct ow *o, uint32_t sid, size_t n,
		    int timeout_ms, int settle_ms)
{
	uint64_t deadline = mono() +
			    (uint64_t)timeout_ms * slow_mult() * NSEC_PER_MSEC;

	while (count_reports(o, sid) < n && mono() < deadline)
		ow_pump(o, 50);
	if (settle_ms)
		ow_pump(o, settle_ms);
	return count_reports(o, sid);
}

/* Move the reports of @sid out of the socket's store, in arrival order. */
size_t take_reports(struct ow *o, uint32_t sid, struct report **out)
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

void drop_reports(struct ow *o, uint32_t sid)
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
	[OMWARE_A_GUARD_WAKEUPS] = 8,
	[OMWARE_A_GUARD_MISSES] = 8,
	[OMWARE_A_GUARD_QUANTILE_NS] = 4,
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

int session_new(struct ow *o, const struct sopts *so, uint32_t *sid,
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

int simple_cmd(struct ow *o, uint8_t cmd, uint32_t sid,
	       struct ack *a)
{
	struct nl_msg *m = ow_msg(cmd, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	return ow_xfer(o, m, a, NULL, NULL);
}

int session_del(struct ow *o, uint32_t sid)
{
	return simple_cmd(o, OMWARE_CMD_SESSION_DEL, sid, NULL);
}

int session_get(struct ow *o, uint32_t sid, struct info *in,
		struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_GET, 0);

	memset(in, 0, sizeof(*in));
	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	return ow_xfer(o, m, a, info_cb, in);
}

int session_dump(struct ow *o, struct dump *d)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_SESSION_GET, NLM_F_DUMP);

	memset(d, 0, sizeof(*d));
	return ow_xfer(o, m, NULL, dump_cb, d);
}

bool dump_has(const struct dump *d, uint32_t sid)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].v[OMWARE_A_SESSION_ID] == sid)
			return true;
	return false;
}

int stats_get(struct ow *o, struct info *in)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_STATS_GET, 0);

	memset(in, 0, sizeof(*in));
	return ow_xfer(o, m, NULL, info_cb, in);
}
/* ------------------------------------------------------------------ */
/* packet batches: every packet carries its batch's tag and index      */

static uint32_t tag_counter;

static uint32_t new_tag(void)
{
	return ((uint32_t)getpid() << 12) ^ ++tag_counter;
}

static uint64_t cookie_of(uint32_t tag, uint32_t idx)
{
	return (uint64_t)tag << 32 | idx;
}

void batch_init(struct batch *b, int n)
{
	b->p = xcalloc(n ? n : 1, sizeof(*b->p));
	b->n = 0;
	b->tag = new_tag();
}

void batch_free(struct batch *b)
{
	free(b->p);
	b->p = NULL;
	b->n = 0;
}

struct pkt *add_frame(struct batch *b, int len, const uint8_t *dst,
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

struct pkt *add_payload(struct batch *b, int len, const uint8_t *dst,
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
int submit_range(struct ow *o, uint32_t sid, const struct batch *b,
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
int submit_all(struct ow *o, uint32_t sid, const struct batch *b,
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

int train_send(struct ow *o, uint32_t sid, uint64_t time,
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

int cancel_cookie(struct ow *o, uint32_t sid, uint64_t cookie,
		  struct ack *a)
{
	struct nl_msg *m = ow_msg(OMWARE_CMD_CANCEL, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	nla_put_u64(m, OMWARE_A_COOKIE, cookie);
	return ow_xfer(o, m, a, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* checks shared by tests                                              */

/*
 * Every packet of @b has exactly one report in @r, with its cookie, the
 * expected status and consistent times.
 */
int check_reports(const struct batch *b, const struct report *r,
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
			/* a sent packet reports 0, never a driver code */
			if (!x->has_rc || x->rc != 0) {
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
int check_sent_order(const struct batch *b, const struct report *r,
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
int check_delivery(const struct batch *b, const struct rxframe *f,
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

int stats_add_up(const char *who, const struct info *in)
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

/* ------------------------------------------------------------------ */
/* the test programs' environment                                      */

struct omw_env omw_env = {
	.t = { .rx = -1 },
	.pdir = "/sys/module/omware/parameters",
};

static pid_t env_owner;

/* Only the process that made the topology removes it, not a test child. */
static void env_cleanup(void)
{
	if (getpid() == env_owner)
		topo_del(&omw_env.t);
}

static void on_signal(int sig)
{
	(void)sig;
	/* the atexit handler removes the namespace and the veth */
	exit(KSFT_FAIL);
}

static bool listing_only(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/*
 * Before the harness runs: skip the whole program (exit 4, one line) when
 * it cannot run here, else make the topology every test uses.
 */
void omw_setup(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (listing_only(argc, argv))
		return;
	if (geteuid() != 0)
		ksft_exit_skip("needs root\n");
	if (omw_family() <= 0)
		ksft_exit_skip("generic netlink family '%s' not registered (module not loaded)\n",
			       OMWARE_FAMILY_NAME);
	if (run("ip -V >/dev/null 2>&1"))
		ksft_exit_skip("needs ip(8) from iproute2\n");
	env_owner = getpid();
	atexit(env_cleanup);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (topo_make(&omw_env.t, 0))
		ksft_exit_fail_msg("cannot build the veth/netns topology\n");
	omw_env.other_ns_ifindex = topo_other_ns_ifindex(&omw_env.t);
}

struct sopts base_opts(const struct omw_ctx *c)
{
	struct sopts so = { .ifindex = c->t->ifindex };

	return so;
}

/* @n packets due from @t0 on, 1 ns apart. */
struct batch park_at(const struct topo *t, int n, uint64_t t0,
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

/* Packets parked far ahead: a test must never see them sent. */
struct batch park(const struct omw_ctx *c, int n, const uint64_t *cookies)
{
	return park_at(c->t, n, mono() + FAR_AHEAD_NS, cookies);
}

int omw_ctx_open(struct omw_ctx *c)
{
	struct sopts so;
	struct batch b;
	int err;

	memset(c, 0, sizeof(*c));
	c->t = &omw_env.t;
	rx_flush(c->t);
	c->o = ow_open();
	c->o2 = ow_open();
	so = base_opts(c);
	if (session_new(c->o, &so, &c->victim, NULL)) {
		diag("cannot create the long-lived session");
		return -1;
	}
	b = park(c, 3, NULL);
	err = submit_all(c->o, c->victim, &b, NULL);
	batch_free(&b);
	if (err) {
		diag("cannot park packets in the long-lived session");
		return -1;
	}
	c->victim_pending = 3;
	return 0;
}

/* Returns the number of malformed report messages the test received. */
int omw_ctx_close(struct omw_ctx *c)
{
	int bad = 0;

	if (c->victim) {
		simple_cmd(c->o, OMWARE_CMD_FLUSH, c->victim, NULL);
		session_del(c->o, c->victim);
	}
	if (c->o) {
		bad = c->o->bad_reports;
		if (bad)
			diag("%d malformed report attributes", bad);
	}
	ow_close(c->o2);
	ow_close(c->o);
	memset(c, 0, sizeof(*c));
	return bad;
}

static int param_path(const char *name, char *path, size_t len)
{
	return snprintf(path, len, "%s/%s", omw_env.pdir, name) >= (int)len;
}

int read_param(const char *name, char *buf, size_t len)
{
	char path[256];
	FILE *f;
	int rc = -1;

	if (param_path(name, path, sizeof(path)))
		return -1;
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

int write_param(const char *name, const char *v)
{
	char path[256];
	FILE *f;
	int rc;

	if (param_path(name, path, sizeof(path)))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	rc = fputs(v, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* nothing of a refused request may stay behind                        */

struct snap snapshot(struct omw_ctx *c)
{
	struct snap s = { 0 };
	struct info in;
	struct dump d;

	s.err = stats_get(c->o, &in);
	s.pending = in.v[OMWARE_A_PENDING_PKTS];
	s.submitted = in.st[OMWARE_STATS_A_SUBMITTED];
	if (!s.err)
		s.err = session_dump(c->o, &d);
	if (!s.err) {
		s.sessions = d.n;
		free(d.v);
	}
	if (!s.err && c->victim) {
		s.err = session_get(c->o, c->victim, &in, NULL);
		s.victim_pending = in.v[OMWARE_A_PENDING_PKTS];
	}
	return s;
}

static int moved(const char *what, uint64_t before, uint64_t after)
{
	if (before == after)
		return 0;
	diag("%s changed: %llu -> %llu", what, (unsigned long long)before,
	     (unsigned long long)after);
	return 1;
}

int check_no_leak(struct omw_ctx *c, const struct snap *before)
{
	struct snap after = snapshot(c);
	int bad = 0;

	if (after.err) {
		diag("state query failed: %s", errname(after.err));
		bad++;
	}
	bad += moved("module pending", before->pending, after.pending);
	bad += moved("module submitted", before->submitted, after.submitted);
	bad += moved("session count", before->sessions, after.sessions);
	bad += moved("victim session pending", before->victim_pending,
		     after.victim_pending);
	return bad;
}

/*
 * A refused request: the errno is @want, the extack carries a message,
 * and nothing leaked.
 */
int check_refused(struct omw_ctx *c, const struct snap *before,
		  const struct ack *a, int want)
{
	int bad = 0;

	if (a->err != -want) {
		diag("got %s, expected -%d", errname(a->err), want);
		bad++;
	}
	if (a->has_msg) {
		diag("extack: \"%s\"%s", a->msg,
		     a->has_offs ? " (with offset)" : "");
	} else {
		diag("no extack message came back");
		bad++;
	}
	return bad + check_no_leak(c, before);
}

/* ------------------------------------------------------------------ */
/* requests as data                                                    */

/* The value of a step here and now; KSFT_SKIP/FAIL with @why if none. */
static int step_value(const struct omw_ctx *c, const struct step *s,
		      uint64_t *v, char *why, size_t why_len)
{
	struct info g;
	char buf[32];

	switch (s->src) {
	case V_LIT:
		*v = s->val;
		return 0;
	case V_IFINDEX:
		*v = c->t->ifindex;
		return 0;
	case V_VICTIM:
		*v = c->victim;
		return 0;
	case V_FAR:
		*v = mono() + FAR_AHEAD_NS;
		return 0;
	case V_CENTURY:
		/* a century ahead is a client bug, not a schedule */
		*v = mono() + 100ULL * 365 * 24 * 3600 * NSEC_PER_SEC;
		return 0;
	case V_OTHER_NS:
		*v = omw_env.other_ns_ifindex;
		if (!*v)
			snprintf(why, why_len,
				 "no device index unique to the peer netns");
		return *v ? 0 : KSFT_SKIP;
	case V_HORIZON:
		if (read_param("horizon_s", buf, sizeof(buf))) {
			snprintf(why, why_len, "no horizon_s parameter in %s",
				 omw_env.pdir);
			return KSFT_SKIP;
		}
		*v = mono() + (strtoull(buf, NULL, 10) + 60) * NSEC_PER_SEC;
		return 0;
	case V_MODULE_CAP:
		if (stats_get(c->o, &g) || !g.has[OMWARE_A_MAX_PKTS]) {
			snprintf(why, why_len, "STATS_GET gave no packet cap");
			return KSFT_FAIL;
		}
		if (g.v[OMWARE_A_MAX_PKTS] >= UINT32_MAX) {
			snprintf(why, why_len,
				 "module cap is already the largest u32");
			return KSFT_SKIP;
		}
		*v = g.v[OMWARE_A_MAX_PKTS] + 1;
		return 0;
	}
	snprintf(why, why_len, "unknown value source %d", s->src);
	return KSFT_FAIL;
}

/* Test frames and payloads; DST_MAC bytes come from the peer's MAC. */
static void put_blob(const struct omw_ctx *c, struct nl_msg *m,
		     const struct step *s)
{
	uint8_t buf[FRAME_MAX + 64] = { 0 };
	int len = s->val;

	if (s->op == S_FRAME) {
		make_frame(buf, len < FRAME_MIN_TAGGED ? FRAME_MIN_TAGGED : len,
			   c->t->peer_mac, c->t->mac, 0, 0);
	} else if (s->op == S_PAYLOAD) {
		make_payload(buf, len, 0, 0);
		if (s->first)
			buf[0] = s->first;
	} else {
		memcpy(buf, c->t->peer_mac, ETH_ALEN);
	}
	nla_put(m, s->attr, len, buf);
}

static void put_int(struct nl_msg *m, const struct step *s, uint64_t v)
{
	switch (s->op) {
	case S_U8:
		nla_put_u8(m, s->attr, v);
		break;
	case S_U16:
		nla_put_u16(m, s->attr, v);
		break;
	case S_BE16:
		nla_put_u16(m, s->attr, htons(v));
		break;
	case S_U32:
		nla_put_u32(m, s->attr, v);
		break;
	default:
		nla_put_u64(m, s->attr, v);
		break;
	}
}

struct nest_stack {
	struct nlattr *open[MAX_NESTS];
	bool plain[MAX_NESTS];
	int depth;
};

static void nest_open(struct nl_msg *m, struct nest_stack *ns,
		      const struct step *s, struct spans *sp)
{
	struct nlattr *n = nla_nest_start(m, s->attr | NLA_F_NESTED);

	if (ns->depth == 0 && sp && sp->n < MAX_NESTS)
		sp->start[sp->n] = (uint8_t *)n - (uint8_t *)nlmsg_hdr(m);
	ns->plain[ns->depth] = s->op == S_NEST_PLAIN;
	ns->open[ns->depth++] = n;
}

static void nest_close(struct nl_msg *m, struct nest_stack *ns,
		       struct spans *sp)
{
	struct nlattr *n = ns->open[--ns->depth];

	nla_nest_end(m, n);
	if (ns->plain[ns->depth])
		n->nla_type &= ~NLA_F_NESTED;
	if (ns->depth == 0 && sp && sp->n < MAX_NESTS) {
		sp->end[sp->n] = sp->start[sp->n] + NLA_ALIGN(n->nla_len);
		sp->n++;
	}
}

/*
 * Build @r into *@out.  Returns 0, or KSFT_SKIP / KSFT_FAIL with @why set
 * when a value cannot be had here.
 */
int build_req(const struct omw_ctx *c, const struct req *r,
	      struct nl_msg **out, struct spans *sp, char *why, size_t why_len)
{
	struct nl_msg *m = ow_msg(r->cmd, 0);
	struct nest_stack ns = { .depth = 0 };
	const struct step *s;
	uint64_t v;
	int rc;

	if (sp)
		memset(sp, 0, sizeof(*sp));
	for (s = r->steps; s < r->steps + MAX_STEPS && s->op != S_END; s++) {
		switch (s->op) {
		case S_NEST:
		case S_NEST_PLAIN:
			nest_open(m, &ns, s, sp);
			break;
		case S_NEST_END:
			nest_close(m, &ns, sp);
			break;
		case S_FRAME:
		case S_PAYLOAD:
		case S_MAC:
			put_blob(c, m, s);
			break;
		default:
			rc = step_value(c, s, &v, why, why_len);
			if (rc) {
				nlmsg_free(m);
				return rc;
			}
			put_int(m, s, v);
			break;
		}
	}
	*out = m;
	return 0;
}
