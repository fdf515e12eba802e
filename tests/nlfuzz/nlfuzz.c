// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz.c - a netlink fuzzer for the timewire generic netlink families.
 *
 * It reads each family's commands and policies from the kernel
 * (CTRL_CMD_GETFAMILY, CTRL_CMD_GETPOLICY) and sends, for a time budget:
 * requests generated from the policies, well-formed or not (wrong types and
 * lengths, values out of range, unknown attributes, bad nesting, truncated
 * attributes, odd genl headers and flags), and above all the family's valid
 * traffic (nlfuzz.h: a real owner socket with packets pending on a veth)
 * mutated at the attribute level, pipelined, cut short by the owner closing
 * its socket or by the device going away.  It does so as root, as an
 * unprivileged user holding the owner's socket, and from another netns.
 *
 * It fails on a request left unanswered, an admin-only command answered
 * with success for an unprivileged caller, a read or change across
 * namespaces, objects or pending packets left after the run, slab growth,
 * a kernel warning, or a module that will not unload.
 *
 * Usage: nlfuzz [--budget SECONDS] [--seed N] [--rmmod]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <netlink/attr.h>

#include "nlfuzz.h"

#define MAX_OPS		64
#define MAX_POLICIES	32
#define MAX_ATTRS	64
#define MAX_SPANS	128
#define MAX_IDS		8
#define PIPELINE_MAX	8
#define NEST_DEPTH	3
#define ANSWER_MS	10000
#define SETTLE_MS	5000
#define NOBODY		65534
#define FAIL_LINES	20
/* Loose: a netns and its veth come and go; a real leak is per request. */
#define SLAB_SLACK	(16 << 20)
#define GENL_ADMIN	(GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)

static const struct nlf_recipe *const recipes[] = {
#define NLF_FAMILY(family) &nlf_##family,
	NLF_FAMILIES
#undef NLF_FAMILY
};

/* One attribute of a policy, as CTRL_CMD_GETPOLICY describes it. */
struct pattr {
	bool present;
	uint32_t type;		/* enum netlink_attribute_type */
	bool has_min, has_max;
	uint64_t min, max;	/* signed types: the bits of an s64 */
	uint32_t min_len, max_len;
	int nested;		/* policy index, -1 for none */
};

struct policy {
	int maxattr;
	struct pattr a[MAX_ATTRS];
};

struct op {
	uint32_t cmd, flags;
	int do_pol, dump_pol;	/* -1: no policy */
};

struct fam {
	const struct nlf_recipe *r;
	uint16_t id;
	int nops, npol;
	struct op ops[MAX_OPS];
	struct policy pol[MAX_POLICIES];
};

struct fz {
	struct fam *f;
	struct topo t;
	bool unpriv;		/* admin-only success fails the run */
	bool may_unplug;	/* device deletion allowed */
	int fails;
	unsigned long sent, ok, refused;
	unsigned long admin_refused;	/* unprivileged: refused admin-only */
	struct twt_raw m;
};

static void fail(struct fz *z, const char *fmt, ...) __printf(2, 3);

static void fail(struct fz *z, const char *fmt, ...)
{
	va_list ap;

	if (z->fails++ >= FAIL_LINES)
		return;
	va_start(ap, fmt);
	printf("# FAIL ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static uint64_t rnd64(void)
{
	return (uint64_t)rnd() << 32 | rnd();
}

/* ------------------------------------------------------------------ */
/* raw netlink: tests/lib/twt_nl.h's raw path                          */

/* One request's answer: 0 with its errno in *err, or -ETIMEDOUT. */
static int wait_answer(int fd, uint32_t seq, int *err, twt_data_fn cb,
		       void *arg)
{
	struct twt_awaited w = { .seq = seq };

	if (twt_raw_wait(fd, &w, 1, ANSWER_MS, cb, arg))
		return -ETIMEDOUT;
	*err = w.err;
	return 0;
}

/* ------------------------------------------------------------------ */
/* the family as the kernel describes it                               */

static struct nlattr *genl_attrs(struct nlmsghdr *h, int *len)
{
	*len = h->nlmsg_len - TWT_ATTRS_OFF;
	return (struct nlattr *)((uint8_t *)h + TWT_ATTRS_OFF);
}

static void parse_ops(struct fam *f, struct nlattr *ops)
{
	struct nlattr *op, *tb[CTRL_ATTR_OP_MAX + 1];
	int rem;

	nla_for_each_nested(op, ops, rem) {
		if (f->nops == MAX_OPS ||
		    nla_parse_nested(tb, CTRL_ATTR_OP_MAX, op, NULL) ||
		    !tb[CTRL_ATTR_OP_ID])
			continue;
		f->ops[f->nops].cmd = nla_get_u32(tb[CTRL_ATTR_OP_ID]);
		f->ops[f->nops].flags = tb[CTRL_ATTR_OP_FLAGS] ?
					nla_get_u32(tb[CTRL_ATTR_OP_FLAGS]) : 0;
		f->ops[f->nops].do_pol = -1;
		f->ops[f->nops].dump_pol = -1;
		f->nops++;
	}
}

static struct op *find_op(struct fam *f, uint32_t cmd)
{
	int i;

	for (i = 0; i < f->nops; i++)
		if (f->ops[i].cmd == cmd)
			return &f->ops[i];
	return NULL;
}

static void parse_op_policy(struct fam *f, struct nlattr *nest)
{
	struct nlattr *cmd, *tb[CTRL_ATTR_POLICY_DUMP_MAX + 1];
	struct op *op;
	int rem;

	nla_for_each_nested(cmd, nest, rem) {
		op = find_op(f, nla_type(cmd));
		if (!op || nla_parse_nested(tb, CTRL_ATTR_POLICY_DUMP_MAX, cmd,
					    NULL))
			continue;
		if (tb[CTRL_ATTR_POLICY_DO])
			op->do_pol = nla_get_u32(tb[CTRL_ATTR_POLICY_DO]);
		if (tb[CTRL_ATTR_POLICY_DUMP])
			op->dump_pol = nla_get_u32(tb[CTRL_ATTR_POLICY_DUMP]);
	}
}

static void parse_attr_policy(struct pattr *p, struct nlattr *nest)
{
	struct nlattr *tb[NL_POLICY_TYPE_ATTR_MAX + 1];

	if (nla_parse_nested(tb, NL_POLICY_TYPE_ATTR_MAX, nest, NULL) ||
	    !tb[NL_POLICY_TYPE_ATTR_TYPE])
		return;
	p->present = true;
	p->type = nla_get_u32(tb[NL_POLICY_TYPE_ATTR_TYPE]);
	p->nested = -1;
	if (tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] ||
	    tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_S]) {
		p->has_min = true;
		p->min = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] ?:
				     tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_S]);
	}
	if (tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U] ||
	    tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]) {
		p->has_max = true;
		p->max = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U] ?:
				     tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]);
	}
	if (tb[NL_POLICY_TYPE_ATTR_MIN_LENGTH])
		p->min_len = nla_get_u32(tb[NL_POLICY_TYPE_ATTR_MIN_LENGTH]);
	if (tb[NL_POLICY_TYPE_ATTR_MAX_LENGTH])
		p->max_len = nla_get_u32(tb[NL_POLICY_TYPE_ATTR_MAX_LENGTH]);
	if (tb[NL_POLICY_TYPE_ATTR_POLICY_IDX])
		p->nested = nla_get_u32(tb[NL_POLICY_TYPE_ATTR_POLICY_IDX]);
}

static void parse_policies(struct fam *f, struct nlattr *nest)
{
	struct nlattr *pol, *attr;
	struct policy *p;
	int rem, rem2, idx, type;

	nla_for_each_nested(pol, nest, rem) {
		idx = nla_type(pol);
		if (idx >= MAX_POLICIES)
			continue;
		p = &f->pol[idx];
		if (idx >= f->npol)
			f->npol = idx + 1;
		nla_for_each_nested(attr, pol, rem2) {
			type = nla_type(attr);
			if (type >= MAX_ATTRS)
				continue;
			parse_attr_policy(&p->a[type], attr);
			if (type > p->maxattr)
				p->maxattr = type;
		}
	}
}

/* A reply of the controller: the family, its commands, its policies. */
static void ctrl_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1], *head;
	struct fam *f = arg;
	int len;

	head = genl_attrs(h, &len);
	if (nla_parse(tb, CTRL_ATTR_MAX, head, len, NULL))
		return;
	if (tb[CTRL_ATTR_FAMILY_ID])
		f->id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_OPS])
		parse_ops(f, tb[CTRL_ATTR_OPS]);
	if (tb[CTRL_ATTR_OP_POLICY])
		parse_op_policy(f, tb[CTRL_ATTR_OP_POLICY]);
	if (tb[CTRL_ATTR_POLICY])
		parse_policies(f, tb[CTRL_ATTR_POLICY]);
}

static int ctrl_ask(int fd, uint8_t cmd, uint16_t flags, uint16_t attr,
		    const void *v, int len, twt_data_fn cb, void *arg)
{
	struct twt_raw m;
	uint32_t seq;
	int err;

	twt_raw_init(&m, GENL_ID_CTRL, flags, cmd, 1);
	twt_raw_put(&m, attr, v, len);
	seq = twt_raw_send(fd, &m, &err);
	if (!err && wait_answer(fd, seq, &err, cb, arg))
		err = -ETIMEDOUT;
	return err;
}

/* 0 when the family is registered and its policies were read. */
static int family_load(struct fam *f, const struct nlf_recipe *r)
{
	int fd = twt_raw_socket(), err;

	memset(f, 0, sizeof(*f));
	f->r = r;
	if (fd < 0)
		return fd;
	err = ctrl_ask(fd, CTRL_CMD_GETFAMILY, 0, CTRL_ATTR_FAMILY_NAME,
		       r->family, strlen(r->family) + 1, ctrl_cb, f);
	if (!err && !f->id)
		err = -ENOENT;
	if (!err)
		err = ctrl_ask(fd, CTRL_CMD_GETPOLICY, NLM_F_DUMP,
			       CTRL_ATTR_FAMILY_ID, &f->id, sizeof(f->id),
			       ctrl_cb, f);
	close(fd);
	return err;
}

/* A family whose commands all read state has nothing admin-only to try. */
static bool has_admin_op(const struct fam *f)
{
	int i;

	for (i = 0; i < f->nops; i++)
		if (f->ops[i].flags & GENL_ADMIN)
			return true;
	return false;
}

static bool admin_only(struct fam *f, const struct twt_raw *m)
{
	const struct genlmsghdr *g = (const void *)(m->buf + NLMSG_HDRLEN);
	struct op *op;

	if (m->len < TWT_ATTRS_OFF)
		return false;
	op = find_op(f, g->cmd);
	return op && (op->flags & GENL_ADMIN);
}

/* ------------------------------------------------------------------ */
/* requests from the policies                                          */

static int int_width(uint32_t type)
{
	switch (type) {
	case NL_ATTR_TYPE_U8:
	case NL_ATTR_TYPE_S8:
		return 1;
	case NL_ATTR_TYPE_U16:
	case NL_ATTR_TYPE_S16:
		return 2;
	case NL_ATTR_TYPE_U32:
	case NL_ATTR_TYPE_S32:
		return 4;
	case NL_ATTR_TYPE_U64:
	case NL_ATTR_TYPE_S64:
	case NL_ATTR_TYPE_BITFIELD32:
		return 8;
	}
	return 0;
}

/*
 * @v as an attribute @w bytes wide, in host order as netlink wants it: the
 * first bytes of a u64 are its low ones only on a little-endian host.  A
 * wrong width takes whatever bytes @v begins with.
 */
static void put_uint(struct twt_raw *m, uint16_t type, uint64_t v, int w)
{
	uint32_t v32 = v;
	uint16_t v16 = v;
	uint8_t v8 = v;
	const void *p = &v;

	if (w == 4)
		p = &v32;
	else if (w == 2)
		p = &v16;
	else if (w == 1)
		p = &v8;
	twt_raw_put(m, type, p, w);
}

/* In range, on its edges, or just past them. */
static uint64_t int_value(const struct pattr *p, bool bad)
{
	uint64_t lo = p->has_min ? p->min : 0;
	uint64_t hi = p->has_max ? p->max : UINT64_MAX;

	if (bad)
		return rnd() % 2 ? hi + 1 : lo - 1;
	switch (rnd() % 4) {
	case 0:
		return lo;
	case 1:
		return hi;
	}
	if (hi - lo == UINT64_MAX)
		return rnd64();
	return lo + rnd64() % (hi - lo + 1);
}

static void put_bytes(struct twt_raw *m, uint16_t type, int len, int fill)
{
	uint8_t buf[512];
	int i;

	if (len > (int)sizeof(buf))
		len = sizeof(buf);
	for (i = 0; i < len; i++)
		buf[i] = fill < 0 ? (int)rnd() : fill;
	twt_raw_put(m, type, buf, len);
}

static void gen_attrs(struct fz *z, struct twt_raw *m, int pol, int depth);

static void gen_nest(struct fz *z, struct twt_raw *m, uint16_t type,
		     const struct pattr *p, int depth)
{
	int off, inner, i;

	off = twt_raw_put(m, type | (rnd() % 8 ? NLA_F_NESTED : 0), NULL, 0);
	if (p->type == NL_ATTR_TYPE_NESTED_ARRAY) {
		for (i = 0; i < (int)(rnd() % 3); i++) {
			inner = twt_raw_put(m, (i + 1) | NLA_F_NESTED, NULL, 0);
			gen_attrs(z, m, p->nested, depth + 1);
			twt_raw_nest_end(m, inner);
		}
	} else {
		gen_attrs(z, m, p->nested, depth + 1);
	}
	twt_raw_nest_end(m, off);
}

static void gen_string(struct twt_raw *m, uint16_t type,
		       const struct pattr *p, bool bad)
{
	char s[300];
	int i, max = p->max_len && p->max_len < 256 ? p->max_len : 32;
	int len = bad ? max + 1 + rnd() % 8 : rnd() % (max + 1);

	for (i = 0; i < len; i++)
		s[i] = 'a' + rnd() % 26;
	s[len] = '\0';
	/* NUL_STRING wants its terminator: leave it out when bad */
	twt_raw_put(m, type, s, len + (p->type == NL_ATTR_TYPE_NUL_STRING && !bad));
}

static void gen_value(struct fz *z, struct twt_raw *m, uint16_t type,
		      const struct pattr *p, int depth)
{
	bool bad = rnd() % 4 == 0;
	int w = int_width(p->type);
	uint64_t v;

	if (w) {
		v = int_value(p, bad && rnd() % 2);
		if (bad && rnd() % 2)
			w = (w + 1 + rnd() % 8) % 12;	/* the wrong width */
		put_uint(m, type, v, w > 8 ? 8 : w);
		return;
	}
	switch (p->type) {
	case NL_ATTR_TYPE_FLAG:
		put_bytes(m, type, bad ? 1 + rnd() % 8 : 0, -1);
		return;
	case NL_ATTR_TYPE_NESTED:
	case NL_ATTR_TYPE_NESTED_ARRAY:
		if (!bad && depth < NEST_DEPTH && p->nested >= 0)
			gen_nest(z, m, type, p, depth);
		else
			put_bytes(m, type | NLA_F_NESTED, rnd() % 24, -1);
		return;
	case NL_ATTR_TYPE_STRING:
	case NL_ATTR_TYPE_NUL_STRING:
		gen_string(m, type, p, bad);
		return;
	}
	/* binary and the rest: a length around the bounds */
	if (bad)
		w = rnd() % 2 && p->min_len ? p->min_len - 1 :
		    (p->max_len ? p->max_len : 64) + 1 + rnd() % 8;
	else
		w = p->min_len + rnd() % ((p->max_len ? p->max_len :
					   p->min_len + 64) - p->min_len + 1);
	put_bytes(m, type, w, rnd() % 2 ? 0 : -1);
}

/* Up to five attributes of policy @pol, known or not. */
static void gen_attrs(struct fz *z, struct twt_raw *m, int pol, int depth)
{
	static const struct pattr unknown = { .type = NL_ATTR_TYPE_BINARY,
					      .max_len = 16, .nested = -1 };
	const struct policy *p = pol >= 0 && pol < z->f->npol ?
				 &z->f->pol[pol] : NULL;
	int i, n = rnd() % 6, type;

	for (i = 0; i < n; i++) {
		type = p ? rnd() % (p->maxattr + 1) : 0;
		if (!p || rnd() % 8 == 0)
			type = (p ? p->maxattr : 0) + 1 + rnd() % 4;
		else if (rnd() % 16 == 0)
			type = rnd() % (NLA_TYPE_MASK & 0xffff);
		if (p && type <= p->maxattr && p->a[type].present)
			gen_value(z, m, type, &p->a[type], depth);
		else
			gen_value(z, m, type, &unknown, depth);
	}
}

static void gen_request(struct fz *z, struct twt_raw *m)
{
	struct op *op = &z->f->ops[rnd() % z->f->nops];
	bool dump = (op->flags & GENL_CMD_CAP_DUMP) &&
		    (!(op->flags & GENL_CMD_CAP_DO) || rnd() % 2);
	uint8_t cmd = op->cmd;

	if (rnd() % 16 == 0) {
		cmd = rnd();
		op = find_op(z->f, cmd);
	}
	twt_raw_init(m, z->f->id, dump ? NLM_F_DUMP : 0, cmd, 1);
	if (op)
		gen_attrs(z, m, dump ? op->dump_pol : op->do_pol, 0);
	else
		gen_attrs(z, m, -1, 0);
}

/* ------------------------------------------------------------------ */
/* mutations of a request                                              */

struct span {
	int off, len;		/* len: up to the next attribute */
	int parent;
};

static int walk(const struct twt_raw *m, int off, int end, int parent,
		struct span *s, int n)
{
	const struct nlattr *a;
	int alen, me;

	while (n < MAX_SPANS && end - off >= NLA_HDRLEN) {
		a = (const struct nlattr *)(m->buf + off);
		if (a->nla_len < NLA_HDRLEN || a->nla_len > end - off)
			break;
		alen = NLA_ALIGN(a->nla_len);
		if (alen > end - off)
			alen = end - off;
		me = n;
		s[n++] = (struct span){ off, alen, parent };
		if (a->nla_type & NLA_F_NESTED)
			n = walk(m, off + NLA_HDRLEN, off + a->nla_len, me,
				 s, n);
		off += alen;
	}
	return n;
}

static void grow_parents(struct twt_raw *m, const struct span *s, int i,
			 int delta)
{
	for (i = s[i].parent; i >= 0; i = s[i].parent)
		((struct nlattr *)(m->buf + s[i].off))->nla_len += delta;
}

/* Replace span @i's bytes by @len bytes of @with (NULL: keep them). */
static void splice_span(struct twt_raw *m, const struct span *s, int i,
		   int len, const void *with)
{
	int tail = s[i].off + s[i].len, delta = len - s[i].len;

	if (m->len + delta > TWT_RAW_MAX)
		return;
	memmove(m->buf + tail + delta, m->buf + tail, m->len - tail);
	if (with)
		memmove(m->buf + s[i].off, with, len);
	m->len += delta;
	grow_parents(m, s, i, delta);
}

static void mutate_genl(struct twt_raw *m)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *g = NLMSG_DATA(h);

	switch (rnd() % 4) {
	case 0:
		g->cmd = rnd() % 2 ? g->cmd + 1U : rnd();
		break;
	case 1:
		g->version = rnd();
		g->reserved = rnd();
		break;
	case 2:	/* dump, root, match, atomic, create, excl, ... */
		h->nlmsg_flags |= 0x100 << (rnd() % 4);
		break;
	default:
		m->len = NLMSG_HDRLEN + rnd() % GENL_HDRLEN;
		break;
	}
}

static void mutate(struct twt_raw *m)
{
	struct span s[MAX_SPANS];
	uint8_t copy[TWT_RAW_MAX];
	struct nlattr *a;
	int n, i, cut;

	if (m->len < TWT_ATTRS_OFF)
		return;
	n = walk(m, TWT_ATTRS_OFF, m->len, -1, s, 0);
	if (!n || rnd() % 10 == 0) {
		mutate_genl(m);
		return;
	}
	i = rnd() % n;
	a = (struct nlattr *)(m->buf + s[i].off);
	switch (rnd() % 6) {
	case 0:	/* drop */
		splice_span(m, s, i, 0, NULL);
		break;
	case 1:	/* duplicate */
		if (2 * s[i].len > (int)sizeof(copy))
			break;
		memcpy(copy, a, s[i].len);
		memcpy(copy + s[i].len, a, s[i].len);
		splice_span(m, s, i, 2 * s[i].len, copy);
		break;
	case 2:	/* shorten the payload, lengths kept consistent */
		cut = 1 + rnd() % (a->nla_len - NLA_HDRLEN + 1);
		if (cut > a->nla_len - NLA_HDRLEN)
			cut = a->nla_len - NLA_HDRLEN;
		memcpy(copy, a, s[i].len);
		((struct nlattr *)copy)->nla_len -= cut;
		splice_span(m, s, i,
		       NLA_ALIGN(((struct nlattr *)copy)->nla_len), copy);
		break;
	case 3:	/* the message ends inside an attribute */
		m->len = s[i].off + rnd() % s[i].len;
		break;
	case 4:	/* a bit of any attribute's header or payload */
		m->buf[TWT_ATTRS_OFF + rnd() % (m->len - TWT_ATTRS_OFF)] ^=
			1 << (rnd() % 8);
		break;
	default:	/* another type, the nested flag flipped or not */
		cut = rnd() % 2 ? (a->nla_type & NLA_TYPE_MASK) + 1 : (int)(rnd() % 32);
		a->nla_type = cut | ((a->nla_type ^
				      (rnd() % 2 ? NLA_F_NESTED : 0)) &
				     NLA_F_NESTED);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* sending                                                             */

static const char *cmd_of(const struct twt_raw *m, char *buf, size_t len)
{
	const struct genlmsghdr *g = (const void *)(m->buf + NLMSG_HDRLEN);

	if (m->len < TWT_ATTRS_OFF)
		snprintf(buf, len, "a %d-byte message", m->len);
	else
		snprintf(buf, len, "command %u%s", g->cmd,
			 ((const struct nlmsghdr *)m->buf)->nlmsg_flags &
			 NLM_F_DUMP ? " (dump)" : "");
	return buf;
}

static void check_answer(struct fz *z, const struct twt_raw *m, int rc,
			 int err, const char *what)
{
	char c[48];

	if (rc) {
		fail(z, "%s %s: no answer in %d ms", what,
		     cmd_of(m, c, sizeof(c)), ANSWER_MS);
		return;
	}
	if (err) {
		z->refused++;
		z->admin_refused += z->unpriv && admin_only(z->f, m);
		return;
	}
	z->ok++;
	if (z->unpriv && admin_only(z->f, m))
		fail(z, "%s %s: admin-only, answered with success for an unprivileged caller",
		     what, cmd_of(m, c, sizeof(c)));
}

static void xchg(struct fz *z, int fd, const char *what)
{
	int err, rc = 0;
	uint32_t seq = twt_raw_send(fd, &z->m, &err);

	z->sent++;
	if (!err)
		rc = wait_answer(fd, seq, &err, NULL, NULL);
	check_answer(z, &z->m, rc, err, what);
}

/* Several requests in flight before any answer is read. */
static void pipeline(struct fz *z, void *conn, int n, bool read)
{
	static struct twt_raw msgs[PIPELINE_MAX];
	const struct nlf_recipe *r = z->f->r;
	struct twt_awaited w[PIPELINE_MAX];
	int fd = r->fd(conn), i, sent = 0;

	for (i = 0; i < n && i < PIPELINE_MAX; i++) {
		if (r->valid(conn, &msgs[sent]))
			continue;
		if (rnd() % 2)
			mutate(&msgs[sent]);
		w[sent].done = false;
		w[sent].seq = twt_raw_send(fd, &msgs[sent], &w[sent].err);
		/* a request refused by send() has its answer already */
		w[sent].done = w[sent].err != 0;
		sent++;
	}
	z->sent += sent;
	if (!read)
		return;
	twt_raw_wait(fd, w, sent, ANSWER_MS, NULL, NULL);
	for (i = 0; i < sent; i++)
		check_answer(z, &msgs[i], w[i].done ? 0 : -ETIMEDOUT,
			     w[i].err, "pipelined");
}

/* One request on the owner socket, or a policy one on a fresh socket. */
static void step(struct fz *z, void *conn)
{
	const struct nlf_recipe *r = z->f->r;
	unsigned int k = rnd() % 16;
	int i, fd;

	if (k < 9) {
		if (r->valid(conn, &z->m))
			return;
		for (i = k < 3 ? 0 : 1 + rnd() % 3; i > 0; i--)
			mutate(&z->m);
		xchg(z, r->fd(conn), k < 3 ? "valid" : "mutated");
	} else if (k < 12) {
		gen_request(z, &z->m);
		if (rnd() % 4 == 0)
			mutate(&z->m);
		xchg(z, r->fd(conn), "policy");
	} else if (k < 14) {
		fd = twt_raw_socket();
		if (fd < 0) {
			fail(z, "cannot open a netlink socket: %s",
			     strerror(-fd));
			return;
		}
		gen_request(z, &z->m);
		xchg(z, fd, "policy (fresh socket)");
		close(fd);
	} else {
		pipeline(z, conn, 2 + rnd() % 6, true);
	}
}

static void steps(struct fz *z, void *conn, int n)
{
	while (n-- > 0)
		step(z, conn);
}

static int topo_remake(struct fz *z)
{
	topo_del(&z->t);
	return topo_make(&z->t, 0);
}

/* A connection with traffic, fuzzed, then ended one way or another. */
static void round_trip(struct fz *z)
{
	const struct nlf_recipe *r = z->f->r;
	void *conn = r->start(&z->t);
	unsigned int end = rnd() % 12;

	if (!conn) {
		fail(z, "cannot start %s traffic on %s", r->family, z->t.dev);
		return;
	}
	steps(z, conn, 4 + rnd() % 24);
	if (end == 0 && z->may_unplug) {
		/* the device goes away under requests in flight */
		pipeline(z, conn, 1 + rnd() % 4, false);
		if (topo_remake(z))
			fail(z, "cannot rebuild the veth topology");
		steps(z, conn, 2);
	} else if (end < 5) {
		/* the owner closes with requests in flight */
		pipeline(z, conn, 1 + rnd() % 6, false);
	}
	r->stop(conn);
}

/* ------------------------------------------------------------------ */
/* the phases                                                          */

static int child_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static void child_exit(struct fz *z)
{
	fflush(stdout);
	_exit(z->fails > 100 ? 100 : z->fails);
}

static void report(struct fz *z, const char *phase, int fails)
{
	ksft_test_result(!fails,
			 "%s %s: %lu requests, %lu succeeded, %lu refused\n",
			 z->f->r->family, phase, z->sent, z->ok, z->refused);
}

static void phase_root(struct fz *z, uint64_t until)
{
	z->fails = 0;
	z->sent = z->ok = z->refused = 0;
	z->may_unplug = true;
	do
		round_trip(z);
	while (mono() < until);
	z->may_unplug = false;
	report(z, "as root", z->fails);
}

/* The owner's objects and what each has pending. */
struct frozen {
	void *conn;
	int n;
	uint32_t ids[MAX_IDS];
	uint64_t pkts[MAX_IDS];
};

/* Once the frames due soon have left, the counts stand still. */
static int freeze(const struct nlf_recipe *r, struct frozen *fr)
{
	int i, fails = 0;

	sleep_ms(1000);
	fr->n = r->ids(fr->conn, fr->ids, MAX_IDS);
	for (i = 0; i < fr->n; i++)
		fails += r->pending(fr->ids[i], &fr->pkts[i]) != 0;
	return fails;
}

/* Objects gone or changed since freeze(), each named. */
static int changed(const struct nlf_recipe *r, const struct frozen *fr,
		   const char *who)
{
	uint64_t after;
	int i, n = 0;

	for (i = 0; i < fr->n; i++) {
		if (r->pending(fr->ids[i], &after) == 0 &&
		    after == fr->pkts[i])
			continue;
		diag("object %u: %llu packets pending before %s ran, %llu after",
		     fr->ids[i], (unsigned long long)fr->pkts[i], who,
		     (unsigned long long)after);
		n++;
	}
	return n;
}

static int drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	return geteuid() == 0 ? -1 : 0;
}

/*
 * An unprivileged process holding the owner's socket: the socket's
 * sessions are its own, so only the capability check stands between it
 * and them.
 */
static void unpriv_child(struct fz *z, const struct frozen *fr,
			 uint64_t until)
{
	const struct nlf_recipe *r = z->f->r;
	void *conn = fr->conn;

	z->unpriv = true;
	if (drop_privileges())
		fail(z, "cannot drop privileges: %s", strerror(errno));
	do
		steps(z, conn, 16);
	while (!z->fails && mono() < until);
	printf("# %s unprivileged: %lu requests, %lu succeeded, %lu refused (%lu admin-only)\n",
	       r->family, z->sent, z->ok, z->refused, z->admin_refused);
	if (!z->admin_refused && has_admin_op(z->f))
		fail(z, "no admin-only command was tried");
	child_exit(z);
}

/* The objects of the first netns must be out of sight and reach. */
static void netns_child(struct fz *z, const struct frozen *fr,
			uint64_t until)
{
	const struct nlf_recipe *r = z->f->r;
	struct nlf_census cs;
	struct topo view;
	uint64_t pkts;
	int i;

	if (enter_ns(z->t.ns)) {
		fail(z, "cannot enter netns %s", z->t.ns);
		child_exit(z);
	}
	/* Shared objects are seen from here too; they must not change. */
	if (!r->shared && (r->census(&cs) || cs.objects || cs.pending_pkts ||
			   cs.pending_bytes))
		fail(z, "netns %s sees %zu objects, %llu packets, %llu bytes pending of another netns",
		     z->t.ns, cs.objects, (unsigned long long)cs.pending_pkts,
		     (unsigned long long)cs.pending_bytes);
	for (i = 0; i < fr->n && !r->shared; i++)
		if (!r->pending(fr->ids[i], &pkts))
			fail(z, "netns %s reads object %u of another netns",
			     z->t.ns, fr->ids[i]);
	/* the far side of the veth, seen from here */
	view = z->t;
	snprintf(view.dev, sizeof(view.dev), "%s", z->t.peer);
	view.ifindex = if_nametoindex(z->t.peer);
	memcpy(view.mac, z->t.peer_mac, ETH_ALEN);
	memcpy(view.peer_mac, z->t.mac, ETH_ALEN);
	z->t = view;
	do
		round_trip(z);
	while (mono() < until);
	printf("# %s other netns: %lu requests, %lu succeeded, %lu refused\n",
	       r->family, z->sent, z->ok, z->refused);
	child_exit(z);
}

struct beside {
	const char *name;	/* of the phase */
	const char *who;	/* who must change nothing */
	const char *claim;	/* what passing means */
	void (*child)(struct fz *z, const struct frozen *fr, uint64_t until);
};

static const struct beside unprivileged = {
	"unprivileged", "the unprivileged caller",
	"no admin-only command succeeded, nothing changed", unpriv_child,
};

static const struct beside other_netns = {
	"other netns", "the other netns", "nothing read or changed across",
	netns_child,
};

/*
 * A connection of root's, frozen, while a child process fuzzes beside it:
 * whatever the kernel flags admin-only, its objects must not change.
 */
static void phase_beside(struct fz *z, uint64_t until, const struct beside *b)
{
	const struct nlf_recipe *r = z->f->r;
	struct frozen fr = { .conn = r->start(&z->t) };
	pid_t pid;
	int fails;

	if (!fr.conn) {
		ksft_test_result_fail("%s %s: cannot start traffic\n",
				      r->family, b->name);
		return;
	}
	fails = freeze(r, &fr);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		z->fails = 0;
		z->sent = z->ok = z->refused = 0;
		b->child(z, &fr, until);
	}
	fails += pid < 0 ? 1 : child_status(pid);
	fails += changed(r, &fr, b->who);
	r->stop(fr.conn);
	ksft_test_result(!fails, "%s %s: %s\n", r->family, b->name, b->claim);
}

/* ------------------------------------------------------------------ */
/* what is left after the run                                          */

/* Wait until a fresh socket sees no object and nothing pending. */
static int census_empty(const struct nlf_recipe *r, const char *where)
{
	uint64_t deadline = mono() + SETTLE_MS * NSEC_PER_MSEC;
	struct nlf_census cs;
	int err;

	do {
		err = r->census(&cs);
		if (!err && !cs.objects && !cs.pending_pkts &&
		    !cs.pending_bytes)
			return 0;
		sleep_ms(100);
	} while (mono() < deadline);
	diag("%s, %s: %s; %zu objects, %llu packets and %llu bytes pending",
	     r->family, where, err ? strerror(-err) : "census read",
	     cs.objects, (unsigned long long)cs.pending_pkts,
	     (unsigned long long)cs.pending_bytes);
	return -1;
}

static void check_left(struct fz *z)
{
	const struct nlf_recipe *r = z->f->r;
	int fails = census_empty(r, "this netns") != 0;

	if (enter_ns(z->t.ns) == 0) {
		fails += census_empty(r, "the peer netns") != 0;
		leave_ns();
	}
	ksft_test_result(!fails, "%s: no object and nothing pending after the run\n",
			 r->family);
}

/* Bytes held by the caches a module's objects and packets come from. */
static long long slab_bytes(void)
{
	FILE *f = fopen("/proc/slabinfo", "r");
	char line[512], name[64];
	unsigned long active, total, size;
	long long sum = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %lu %lu %lu", name, &active, &total,
			   &size) != 4)
			continue;
		if (!strncmp(name, "kmalloc-", 8) ||
		    !strncmp(name, "skbuff_", 7))
			sum += (long long)active * size;
	}
	fclose(f);
	return sum;
}

static void check_slab(const char *family, long long before)
{
	long long after;

	/* netns and RCU teardown is asynchronous */
	sleep_ms(2000);
	after = slab_bytes();
	if (before < 0 || after < 0) {
		ksft_test_result_skip("%s: slab growth (no /proc/slabinfo)\n",
				      family);
		return;
	}
	diag("kmalloc and skbuff caches: %lld KiB before, %lld KiB after",
	     before >> 10, after >> 10);
	ksft_test_result(after - before < SLAB_SLACK,
			 "%s: slab growth under %d MiB\n", family,
			 SLAB_SLACK >> 20);
}

static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Kernel log records since kmsg_open() that tell of a kernel bug. */
static int kmsg_bad(int fd)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "Oops", "Call Trace", "general protection",
		"UBSAN:", "KASAN:", "refcount_t:", "list_add corruption",
		"list_del corruption", "kernel BUG", "Kernel panic",
	};
	char rec[2048];
	unsigned int i;
	int n, found = 0;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			if (strstr(rec, bad[i])) {
				if (found++ < FAIL_LINES)
					diag("kernel: %s", strchr(rec, ';') ?
					     strchr(rec, ';') + 1 : rec);
				break;
			}
		}
	}
	return found;
}

/*
 * With --rmmod: the module must unload cleanly after the run.  Without,
 * whoever loaded it unloads it (the guest harness does, and fails the
 * suite when it cannot).
 */
static void check_unload(const char *module, bool keep)
{
	if (!keep)
		ksft_test_result(run("rmmod %s", module) == 0, "rmmod %s\n",
				 module);
}

/* ------------------------------------------------------------------ */
/* main                                                                */

struct opts {
	unsigned int budget;
	uint32_t seed;
	bool keep;
};

static struct topo *cleanup_topo;
static pid_t cleanup_owner;

static void cleanup(void)
{
	if (cleanup_topo && getpid() == cleanup_owner)
		topo_del(cleanup_topo);
}

static void on_signal(int sig)
{
	(void)sig;
	exit(KSFT_FAIL);	/* atexit removes the topology */
}

static void fuzz_family(struct fam *f, const struct opts *o,
			unsigned int budget)
{
	static struct fz z;
	int kmsg = kmsg_open();
	long long slab = slab_bytes();
	uint64_t t0 = mono(), span = budget * NSEC_PER_SEC;

	memset(&z, 0, sizeof(z));
	z.f = f;
	ksft_test_result(f->nops > 0,
			 "%s: %d commands, %d policies read from the kernel\n",
			 f->r->family, f->nops, f->npol);
	if (topo_make(&z.t, 0))
		ksft_exit_fail_msg("cannot build the veth/netns topology\n");
	cleanup_topo = &z.t;
	phase_root(&z, t0 + span / 2);
	phase_beside(&z, t0 + span * 3 / 4, &unprivileged);
	phase_beside(&z, t0 + span, &other_netns);
	check_left(&z);
	topo_del(&z.t);
	cleanup_topo = NULL;
	check_slab(f->r->family, slab);
	check_unload(f->r->module, o->keep);
	if (kmsg < 0) {
		ksft_test_result_skip("%s: kernel log (no /dev/kmsg)\n",
				      f->r->family);
	} else {
		ksft_test_result(!kmsg_bad(kmsg), "%s: no kernel warning\n",
				 f->r->family);
		close(kmsg);
	}
}

static void print_usage(const char *prog)
{
	printf("usage: %s [--budget SECONDS] [--seed N] [--rmmod]\n",
	       prog);
	exit(KSFT_FAIL);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "budget", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 's' },
		{ "rmmod", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->budget = 60;
	o->seed = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
	o->keep = true;
	while ((c = getopt_long(argc, argv, "b:s:rh", longs, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->budget = strtoul(optarg, NULL, 0);
			break;
		case 's':
			o->seed = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			o->keep = false;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (!o->budget)
		print_usage(argv[0]);
}

int main(int argc, char **argv)
{
	static struct fam fams[ARRAY_SIZE(recipes)];
	unsigned int i, n = 0;
	struct opts o;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_args(argc, argv, &o);
	if (geteuid() != 0)
		ksft_exit_skip("needs root\n");
	for (i = 0; i < ARRAY_SIZE(recipes); i++)
		if (family_load(&fams[n], recipes[i]) == 0)
			n++;
	if (!n)
		ksft_exit_skip("no timewire generic netlink family registered (module not loaded)\n");
	if (run("ip -V >/dev/null 2>&1"))
		ksft_exit_skip("needs ip(8) from iproute2\n");
	cleanup_owner = getpid();
	atexit(cleanup);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	ksft_print_header();
	ksft_set_plan((o.keep ? 7 : 8) * n);
	ksft_print_msg("seed %u, budget %u s (replay: %s --seed %u --budget %u)\n",
		       o.seed, o.budget, argv[0], o.seed, o.budget);
	rnd_mix(o.seed);
	for (i = 0; i < n; i++)
		fuzz_family(&fams[i], &o, o.budget / n);
	ksft_finished();
}
