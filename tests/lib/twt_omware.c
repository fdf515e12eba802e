// SPDX-License-Identifier: GPL-2.0
/*
 * twt_omware.c - the omware family for the guest tests' programs (see
 * twt_omware.h): sockets that keep the reports, session and statistics
 * requests, packet batches and requests as data.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <netlink/genl/genl.h>

#include "twt_omware.h"

/* The largest request built; twt_nl.c's send buffer holds two. */
#define MSG_SIZE	(192 * 1024)

/* ------------------------------------------------------------------ */
/* sockets                                                             */

static int report_cb(struct nlmsghdr *nlh, void *arg);

int omw_family(void)
{
	struct twt s;
	int id;

	if (twt_open(&s, OMWARE_FAMILY_NAME, 0))
		return -1;
	id = s.nl.family;
	twt_close(&s);
	return id;
}

struct ow *ow_open_port(uint32_t port)
{
	struct ow *o = xcalloc(1, sizeof(*o));
	int err = twt_open(&o->s, OMWARE_FAMILY_NAME, port);

	if (err) {
		free(o);
		if (port)
			return NULL;
		diag("cannot open a socket of the omware family: %s",
		     twt_errname(err));
		exit(KSFT_FAIL);
	}
	o->s.nl.notify_cmd = OMWARE_CMD_REPORT;
	o->s.nl.notify = report_cb;
	o->s.nl.notify_arg = o;
	return o;
}

struct ow *ow_open(void)
{
	return ow_open_port(0);
}

void ow_close(struct ow *o)
{
	if (!o)
		return;
	twt_close(&o->s);
	free(o->reps);
	free(o);
}

struct nl_msg *ow_msg(struct ow *o, uint8_t cmd, int flags)
{
	return twt_msg(&o->s, cmd, flags, MSG_SIZE);
}

/* ------------------------------------------------------------------ */
/* reports                                                             */

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

static int report_cb(struct nlmsghdr *nlh, void *arg)
{
	struct ow *o = arg;
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
	return 0;
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
		twt_pump(&o->s, 50);
	if (settle_ms)
		twt_pump(&o->s, settle_ms);
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
		struct twt_ack *a)
{
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_SESSION_NEW, 0);
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
	err = twt_xfer(&o->s, m, info_cb, &in, a);
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
	       struct twt_ack *a)
{
	struct nl_msg *m = ow_msg(o, cmd, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	return twt_xfer(&o->s, m, NULL, NULL, a);
}

int session_del(struct ow *o, uint32_t sid)
{
	return simple_cmd(o, OMWARE_CMD_SESSION_DEL, sid, NULL);
}

int session_get(struct ow *o, uint32_t sid, struct info *in,
		struct twt_ack *a)
{
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_SESSION_GET, 0);

	memset(in, 0, sizeof(*in));
	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	return twt_xfer(&o->s, m, info_cb, in, a);
}

int session_dump(struct ow *o, struct dump *d)
{
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_SESSION_GET, NLM_F_DUMP);

	memset(d, 0, sizeof(*d));
	return twt_xfer(&o->s, m, dump_cb, d, NULL);
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
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_STATS_GET, 0);

	memset(in, 0, sizeof(*in));
	return twt_xfer(&o->s, m, info_cb, in, NULL);
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
		 int from, int to, const int *perm, struct twt_ack *a)
{
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_SUBMIT, 0);
	int i;

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	for (i = from; i < to; i++)
		put_pkt(m, &b->p[perm ? perm[i] : i], true);
	return twt_xfer(&o->s, m, NULL, NULL, a);
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
	       const struct batch *b, int from, int to, struct twt_ack *a)
{
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_TRAIN, 0);
	int i;

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	nla_put_u64(m, OMWARE_A_TIME, time);
	for (i = from; i < to; i++)
		put_pkt(m, &b->p[i], false);
	return twt_xfer(&o->s, m, NULL, NULL, a);
}

int cancel_cookie(struct ow *o, uint32_t sid, uint64_t cookie,
		  struct twt_ack *a)
{
	struct nl_msg *m = ow_msg(o, OMWARE_CMD_CANCEL, 0);

	nla_put_u32(m, OMWARE_A_SESSION_ID, sid);
	nla_put_u64(m, OMWARE_A_COOKIE, cookie);
	return twt_xfer(&o->s, m, NULL, NULL, a);
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
		*v = c->other_ns_ifindex;
		if (!*v)
			snprintf(why, why_len,
				 "no device index unique to the peer netns");
		return *v ? 0 : KSFT_SKIP;
	case V_HORIZON:
		if (param_read("omware", "horizon_s", buf, sizeof(buf))) {
			snprintf(why, why_len,
				 "no horizon_s parameter of the omware module");
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
	struct nl_msg *m = ow_msg(c->o, r->cmd, 0);
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
