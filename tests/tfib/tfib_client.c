// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_client.c - a small raw generic netlink client of the tfib family,
 * for the tests (see tfib_client.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "tfib_client.h"

#define TFC_RCVBUF	(4 << 20)
#define TFC_TIMEOUT_MS	10000

const char *tfc_errname(int err)
{
	static char buf[64];

	if (!err)
		return "0 (success)";
	snprintf(buf, sizeof(buf), "-%d (%s)", -err, strerror(-err));
	return buf;
}

/* ------------------------------------------------------------------ */
/* messages                                                            */

static void *tfc_room(struct tfc_msg *m, size_t len)
{
	size_t need = NLMSG_ALIGN(m->len) + NLA_ALIGN(len);
	void *p;

	if (need > sizeof(m->buf)) {
		fprintf(stderr, "tfib_client: request over %zu bytes\n",
			sizeof(m->buf));
		abort();
	}
	p = m->buf + m->len;
	memset(p, 0, NLA_ALIGN(len));
	m->len = need;
	return p;
}

void tfc_msg_init(struct tfc_msg *m, struct tfc *c, uint8_t cmd,
		  uint16_t flags)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *g;

	memset(m->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_type = c->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++c->seq;
	g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = TFIB_FAMILY_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nests = 0;
}

void tfc_put(struct tfc_msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *nla = tfc_room(m, NLA_HDRLEN + len);

	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((uint8_t *)nla + NLA_HDRLEN, data, len);
}

void tfc_put_u8(struct tfc_msg *m, uint16_t type, uint8_t v)
{
	tfc_put(m, type, &v, sizeof(v));
}

void tfc_put_u32(struct tfc_msg *m, uint16_t type, uint32_t v)
{
	tfc_put(m, type, &v, sizeof(v));
}

/* Aligned to 4 only: the kernel does not ask more of a request. */
void tfc_put_u64(struct tfc_msg *m, uint16_t type, uint64_t v)
{
	tfc_put(m, type, &v, sizeof(v));
}

void tfc_put_str(struct tfc_msg *m, uint16_t type, const char *s)
{
	tfc_put(m, type, s, strlen(s) + 1);
}

void tfc_nest_start(struct tfc_msg *m, uint16_t type)
{
	m->nest[m->nests++] = m->len;
	tfc_put(m, type | NLA_F_NESTED, NULL, 0);
}

void tfc_nest_end(struct tfc_msg *m)
{
	struct nlattr *nla = (struct nlattr *)(m->buf + m->nest[--m->nests]);

	nla->nla_len = m->len - m->nest[m->nests];
}

uint32_t tfc_last_offs(const struct tfc_msg *m)
{
	const uint8_t *p = m->buf + NLMSG_HDRLEN + GENL_HDRLEN;
	const uint8_t *last = p;

	while (p < m->buf + m->len) {
		last = p;
		p += NLA_ALIGN(((const struct nlattr *)p)->nla_len);
	}
	return last - m->buf;
}

/* ------------------------------------------------------------------ */
/* the socket                                                          */

static void tfc_ack_tlvs(struct tfc_ack *a, const uint8_t *p, int len)
{
	const struct nlattr *nla;

	for (; len >= NLA_HDRLEN; p += NLA_ALIGN(nla->nla_len),
	     len -= NLA_ALIGN(nla->nla_len)) {
		nla = (const struct nlattr *)p;
		if (nla->nla_len < NLA_HDRLEN || nla->nla_len > len)
			return;
		switch (nla->nla_type) {
		case NLMSGERR_ATTR_MSG:
			snprintf(a->msg, sizeof(a->msg), "%.*s",
				 nla->nla_len - NLA_HDRLEN, p + NLA_HDRLEN);
			a->has_msg = a->msg[0] != '\0';
			break;
		case NLMSGERR_ATTR_OFFS:
			memcpy(&a->offs, p + NLA_HDRLEN, 4);
			a->has_offs = true;
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			memcpy(&a->miss_type, p + NLA_HDRLEN, 4);
			a->has_miss = true;
			break;
		}
	}
}

/* An NLMSG_ERROR (with the request capped) or NLMSG_DONE. */
static void tfc_parse_ack(struct tfc_ack *a, const struct nlmsghdr *nlh)
{
	const uint8_t *data = NLMSG_DATA(nlh);
	int off;

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		a->err = e->error;
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	} else {
		memcpy(&a->err, data, sizeof(int));
		off = NLMSG_ALIGN(sizeof(int));
	}
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		tfc_ack_tlvs(a, data + off,
			     (int)nlh->nlmsg_len - NLMSG_HDRLEN - off);
}

static int tfc_recv(struct tfc *c, uint8_t *buf, size_t size)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, TFC_TIMEOUT_MS) != 1)
		return -ETIMEDOUT;
	n = recv(c->fd, buf, size, 0);
	return n < 0 ? -errno : (int)n;
}

/* One datagram: 1 when the answer to @seq ended, 0 for more. */
static int tfc_datagram(const uint8_t *buf, int len, uint32_t seq,
			tfc_reply_fn cb, void *arg, struct tfc_ack *a, int *bad)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;

	for (; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_type == NLMSG_ERROR ||
		    nlh->nlmsg_type == NLMSG_DONE) {
			tfc_parse_ack(a, nlh);
			return 1;
		}
		if (cb && cb(nlh, arg))
			*bad = -EBADMSG;
	}
	return 0;
}

int tfc_xfer(struct tfc *c, struct tfc_msg *m, tfc_reply_fn cb, void *arg,
	     struct tfc_ack *a)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	static uint8_t buf[1 << 20];
	struct tfc_ack local;
	int n, bad = 0;

	if (!a)
		a = &local;
	memset(a, 0, sizeof(*a));
	nlh->nlmsg_len = m->len;
	c->batches = 0;
	if (send(c->fd, m->buf, m->len, 0) < 0)
		return a->err = -errno;
	for (;;) {
		n = tfc_recv(c, buf, sizeof(buf));
		if (n < 0)
			return a->err = n;
		c->batches++;
		if (tfc_datagram(buf, n, nlh->nlmsg_seq, cb, arg, a, &bad))
			break;
	}
	/* A reply the callback could not parse fails a request that did not. */
	if (!a->err)
		a->err = bad;
	return a->err;
}

/* The family's id from the controller. */
static int tfc_resolve_cb(const struct nlmsghdr *nlh, void *arg)
{
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(nlh) + GENL_HDRLEN;
	int len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	const struct nlattr *nla;

	for (; len >= NLA_HDRLEN; p += NLA_ALIGN(nla->nla_len),
	     len -= NLA_ALIGN(nla->nla_len)) {
		nla = (const struct nlattr *)p;
		if (nla->nla_type == CTRL_ATTR_FAMILY_ID &&
		    nla->nla_len == NLA_HDRLEN + 2)
			memcpy(arg, p + NLA_HDRLEN, 2);
	}
	return 0;
}

int tfc_open(struct tfc *c)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	int one = 1, sz = TFC_RCVBUF;
	struct tfc_msg m;
	uint16_t id = 0;
	int err;

	memset(c, 0, sizeof(*c));
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->fd < 0)
		return -errno;
	if (bind(c->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(c->fd, (struct sockaddr *)&sa, &salen)) {
		err = -errno;
		close(c->fd);
		return err;
	}
	c->portid = sa.nl_pid;
	setsockopt(c->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(c->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
		setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));

	c->family = GENL_ID_CTRL;
	tfc_msg_init(&m, c, CTRL_CMD_GETFAMILY, 0);
	tfc_put_str(&m, CTRL_ATTR_FAMILY_NAME, TFIB_FAMILY_NAME);
	err = tfc_xfer(c, &m, tfc_resolve_cb, &id, NULL);
	if (!err && !id)
		err = -ENOENT;
	if (err) {
		close(c->fd);
		c->fd = -1;
		return err;
	}
	c->family = id;
	return 0;
}

void tfc_close(struct tfc *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* ------------------------------------------------------------------ */
/* replies                                                             */

/* Walk the attributes at @p, @len bytes, calling @fn on each. */
static int tfc_walk(const uint8_t *p, int len,
		    int (*fn)(const struct nlattr *nla, void *arg), void *arg)
{
	const struct nlattr *nla;
	int bad = 0;

	for (; len >= NLA_HDRLEN; p += NLA_ALIGN(nla->nla_len),
	     len -= NLA_ALIGN(nla->nla_len)) {
		nla = (const struct nlattr *)p;
		if (nla->nla_len < NLA_HDRLEN || nla->nla_len > len)
			return 1;
		bad += fn(nla, arg);
	}
	return bad;
}

static const void *tfc_data(const struct nlattr *nla)
{
	return (const uint8_t *)nla + NLA_HDRLEN;
}

static int tfc_len(const struct nlattr *nla)
{
	return nla->nla_len - NLA_HDRLEN;
}

/* Copy an integer attribute of exactly @size bytes into @v (a u64). */
static int tfc_int(const struct nlattr *nla, size_t size, uint64_t *v)
{
	uint8_t u8;
	uint32_t u32;

	if (tfc_len(nla) != (int)size)
		return 1;
	switch (size) {
	case 1:
		memcpy(&u8, tfc_data(nla), 1);
		*v = u8;
		break;
	case 4:
		memcpy(&u32, tfc_data(nla), 4);
		*v = u32;
		break;
	default:
		memcpy(v, tfc_data(nla), 8);
	}
	return 0;
}

static int tfc_u32(const struct nlattr *nla, uint32_t *v)
{
	uint64_t x;

	if (tfc_int(nla, 4, &x))
		return 1;
	*v = x;
	return 0;
}

static int tfc_u8(const struct nlattr *nla, uint8_t *v)
{
	uint64_t x;

	if (tfc_int(nla, 1, &x))
		return 1;
	*v = x;
	return 0;
}

static int tfc_str(const struct nlattr *nla, char *s)
{
	int len = tfc_len(nla);

	if (len < 1 || len > TFC_NAME_LEN ||
	    ((const char *)tfc_data(nla))[len - 1])
		return 1;
	memcpy(s, tfc_data(nla), len);
	return 0;
}

static int tfc_table_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_table *t = arg;
	int type = nla->nla_type & NLA_TYPE_MASK;

	if (type > TFIB_A_MAX)
		return 0;
	t->has[type] = true;
	switch (type) {
	case TFIB_A_TABLE: return tfc_str(nla, t->name);
	case TFIB_A_IFNAME: return tfc_str(nla, t->ifname);
	case TFIB_A_CAPACITY: return tfc_u32(nla, &t->capacity);
	case TFIB_A_BUCKETS: return tfc_u32(nla, &t->buckets);
	case TFIB_A_SPARES: return tfc_u32(nla, &t->spares);
	case TFIB_A_CLOCKID: return tfc_u32(nla, &t->clockid);
	case TFIB_A_ENTRIES: return tfc_u32(nla, &t->entries);
	case TFIB_A_IFINDEX: return tfc_u32(nla, &t->ifindex);
	case TFIB_A_WORKERS: return tfc_u32(nla, &t->workers);
	case TFIB_A_CONTROL_RING: return tfc_u32(nla, &t->control_ring);
	case TFIB_A_DATA_RING: return tfc_u32(nla, &t->data_ring);
	case TFIB_A_BURST: return tfc_u32(nla, &t->burst);
	case TFIB_A_SYNC: return tfc_u8(nla, &t->sync);
	case TFIB_A_FWD_MODE: return tfc_u8(nla, &t->fwd_mode);
	case TFIB_A_PICK: return tfc_u8(nla, &t->pick);
	case TFIB_A_PREFETCH: return tfc_len(nla) != 0;
	}
	return 0;
}

static int tfc_entry_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_entry *e = arg;

	switch (nla->nla_type & NLA_TYPE_MASK) {
	case TFIB_A_TABLE: return tfc_str(nla, e->table);
	case TFIB_A_USER_ID: return tfc_u32(nla, &e->user_id);
	case TFIB_A_SEQ:
		e->has_seq = true;
		return tfc_u32(nla, &e->seq);
	case TFIB_A_TS_NS:
		e->has_ts = true;
		return tfc_int(nla, 8, &e->ts_ns);
	case TFIB_A_MAC:
		if (tfc_len(nla) != 6)
			return 1;
		memcpy(e->mac, tfc_data(nla), 6);
		return 0;
	}
	return 0;
}

static int tfc_walk_reply(const struct nlmsghdr *nlh,
			  int (*fn)(const struct nlattr *nla, void *arg),
			  void *arg)
{
	return tfc_walk((const uint8_t *)NLMSG_DATA(nlh) + GENL_HDRLEN,
			nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, fn, arg);
}

/* A growing array of replies, for the dumps. */
struct tfc_vec {
	void *v;
	size_t n, cap, size;
	int (*fn)(const struct nlattr *nla, void *arg);
};

static int tfc_vec_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct tfc_vec *vec = arg;
	void *item;

	if (vec->n == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 64;
		vec->v = realloc(vec->v, vec->cap * vec->size);
		if (!vec->v)
			abort();
	}
	item = (uint8_t *)vec->v + vec->n++ * vec->size;
	memset(item, 0, vec->size);
	return tfc_walk_reply(nlh, vec->fn, item);
}

static int tfc_one_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct tfc_vec *vec = arg;

	vec->n++;
	return tfc_walk_reply(nlh, vec->fn, vec->v);
}

/* Send @m; its one reply parsed by @fn into @out (zeroed first). */
static int tfc_get(struct tfc *c, struct tfc_msg *m,
		   int (*fn)(const struct nlattr *nla, void *arg), void *out,
		   size_t size, struct tfc_ack *a)
{
	struct tfc_vec one = { .v = out, .fn = fn };
	int err;

	memset(out, 0, size);
	err = tfc_xfer(c, m, tfc_one_cb, &one, a);
	if (!err && one.n != 1) {
		fprintf(stderr, "tfib_client: %zu replies, not 1\n", one.n);
		err = -EBADMSG;
	}
	return err;
}

static int tfc_dump(struct tfc *c, struct tfc_msg *m,
		    int (*fn)(const struct nlattr *nla, void *arg),
		    size_t size, void **out, size_t *n, struct tfc_ack *a)
{
	struct tfc_vec vec = { .size = size, .fn = fn };
	int err;

	err = tfc_xfer(c, m, tfc_vec_cb, &vec, a);
	*out = vec.v;
	*n = vec.n;
	return err;
}

/* ------------------------------------------------------------------ */
/* stats                                                               */

static int tfc_counter_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_stats *st = arg;
	int type = nla->nla_type & NLA_TYPE_MASK;

	if (type > TFIB_STATS_A_MAX || type == TFIB_STATS_A_PAD)
		return 0;
	st->has[type] = true;
	return tfc_int(nla, 8, &st->v[type]);
}

static int tfc_ring_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_ring *r = arg;

	switch (nla->nla_type & NLA_TYPE_MASK) {
	case TFIB_RING_A_KIND: return tfc_u8(nla, &r->kind);
	case TFIB_RING_A_SIZE: return tfc_u32(nla, &r->size);
	case TFIB_RING_A_PEAK: return tfc_u32(nla, &r->peak);
	case TFIB_RING_A_ENQUEUED: return tfc_int(nla, 8, &r->enqueued);
	case TFIB_RING_A_DROPPED: return tfc_int(nla, 8, &r->dropped);
	}
	return 0;
}

static int tfc_worker_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_worker *w = arg;

	switch (nla->nla_type & NLA_TYPE_MASK) {
	case TFIB_WORKER_A_INDEX: return tfc_u32(nla, &w->index);
	case TFIB_WORKER_A_CPU: return tfc_u32(nla, &w->cpu);
	case TFIB_WORKER_A_KIND: return tfc_u8(nla, &w->kind);
	case TFIB_WORKER_A_RUNS: return tfc_int(nla, 8, &w->runs);
	case TFIB_WORKER_A_PKTS: return tfc_int(nla, 8, &w->pkts);
	case TFIB_WORKER_A_BURSTS: return tfc_int(nla, 8, &w->bursts);
	}
	return 0;
}

static int tfc_bin_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_bin *b = arg;

	switch (nla->nla_type & NLA_TYPE_MASK) {
	case TFIB_BIN_A_UPPER: return tfc_int(nla, 8, &b->upper);
	case TFIB_BIN_A_COUNT: return tfc_int(nla, 8, &b->count);
	}
	return 0;
}

/* One more item of a repeated nest: its slot, or NULL when full. */
static void *tfc_slot(void *base, unsigned int *n, unsigned int max,
		      size_t size)
{
	if (*n >= max)
		return NULL;
	return (uint8_t *)base + (*n)++ * size;
}

#define TFC_NEST(st, arr, fn, nla)					\
	tfc_nest(nla, tfc_slot((st)->arr, &(st)->n##arr,		\
			       sizeof((st)->arr) / sizeof((st)->arr[0]),	\
			       sizeof((st)->arr[0])), fn)

static int tfc_nest(const struct nlattr *nla, void *slot,
		    int (*fn)(const struct nlattr *nla, void *arg))
{
	if (!slot)
		return 1;
	return tfc_walk(tfc_data(nla), tfc_len(nla), fn, slot);
}

static int tfc_stats_attr(const struct nlattr *nla, void *arg)
{
	struct tfc_stats *st = arg;

	switch (nla->nla_type & NLA_TYPE_MASK) {
	case TFIB_A_TABLE: return tfc_str(nla, st->table);
	case TFIB_A_STATS:
		return tfc_walk(tfc_data(nla), tfc_len(nla), tfc_counter_attr,
				st);
	case TFIB_A_RING: return TFC_NEST(st, ring, tfc_ring_attr, nla);
	case TFIB_A_WORKER: return TFC_NEST(st, worker, tfc_worker_attr, nla);
	case TFIB_A_AGE_HIST: return TFC_NEST(st, age, tfc_bin_attr, nla);
	case TFIB_A_BURST_HIST: return TFC_NEST(st, burst, tfc_bin_attr, nla);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the commands                                                        */

struct tfc_table_cfg tfc_table_defaults(const char *name, uint32_t capacity)
{
	return (struct tfc_table_cfg){
		.name = name, .capacity = capacity, .sync = -1, .clockid = -1,
	};
}

struct tfc_bind_cfg tfc_bind_defaults(uint32_t ifindex)
{
	return (struct tfc_bind_cfg){ .ifindex = ifindex, .mode = -1,
				      .pick = -1 };
}

/* A request naming table @name, or none when @name is NULL. */
static void tfc_table_msg(struct tfc_msg *m, struct tfc *c, uint8_t cmd,
			  uint16_t flags, const char *name)
{
	tfc_msg_init(m, c, cmd, flags);
	if (name)
		tfc_put_str(m, TFIB_A_TABLE, name);
}

int tfc_table_new(struct tfc *c, const struct tfc_table_cfg *cfg,
		  struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_TABLE_NEW, 0, cfg->name);
	if (cfg->capacity)
		tfc_put_u32(&m, TFIB_A_CAPACITY, cfg->capacity);
	if (cfg->buckets)
		tfc_put_u32(&m, TFIB_A_BUCKETS, cfg->buckets);
	if (cfg->sync >= 0)
		tfc_put_u8(&m, TFIB_A_SYNC, cfg->sync);
	if (cfg->prefetch)
		tfc_put(&m, TFIB_A_PREFETCH, NULL, 0);
	if (cfg->spares)
		tfc_put_u32(&m, TFIB_A_SPARES, cfg->spares);
	if (cfg->clockid >= 0)
		tfc_put_u32(&m, TFIB_A_CLOCKID, cfg->clockid);
	return tfc_xfer(c, &m, NULL, NULL, a);
}

/* A command that names a table and wants only the ack. */
static int tfc_table_cmd(struct tfc *c, uint8_t cmd, const char *name,
			 struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, cmd, 0, name);
	return tfc_xfer(c, &m, NULL, NULL, a);
}

int tfc_table_del(struct tfc *c, const char *name, struct tfc_ack *a)
{
	return tfc_table_cmd(c, TFIB_CMD_TABLE_DEL, name, a);
}

int tfc_unbind(struct tfc *c, const char *table, struct tfc_ack *a)
{
	return tfc_table_cmd(c, TFIB_CMD_UNBIND, table, a);
}

int tfc_table_get(struct tfc *c, const char *name, struct tfc_table *t,
		  struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_TABLE_GET, 0, name);
	return tfc_get(c, &m, tfc_table_attr, t, sizeof(*t), a);
}

int tfc_table_dump(struct tfc *c, struct tfc_table **out, size_t *n,
		   struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_TABLE_GET, NLM_F_DUMP, NULL);
	return tfc_dump(c, &m, tfc_table_attr, sizeof(**out), (void **)out, n,
			a);
}

int tfc_entry_set(struct tfc *c, const char *table, const struct tfc_entry *e,
		  struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_ENTRY_SET, 0, table);
	tfc_put_u32(&m, TFIB_A_USER_ID, e->user_id);
	tfc_put(&m, TFIB_A_MAC, e->mac, 6);
	if (e->has_ts)
		tfc_put_u64(&m, TFIB_A_TS_NS, e->ts_ns);
	if (e->has_seq)
		tfc_put_u32(&m, TFIB_A_SEQ, e->seq);
	if (e->force)
		tfc_put(&m, TFIB_A_FORCE, NULL, 0);
	return tfc_xfer(c, &m, NULL, NULL, a);
}

static void tfc_entry_msg(struct tfc_msg *m, struct tfc *c, uint8_t cmd,
			  const char *table, uint32_t user_id)
{
	tfc_table_msg(m, c, cmd, 0, table);
	tfc_put_u32(m, TFIB_A_USER_ID, user_id);
}

int tfc_entry_get(struct tfc *c, const char *table, uint32_t user_id,
		  struct tfc_entry *e, struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_entry_msg(&m, c, TFIB_CMD_ENTRY_GET, table, user_id);
	return tfc_get(c, &m, tfc_entry_attr, e, sizeof(*e), a);
}

int tfc_entry_del(struct tfc *c, const char *table, uint32_t user_id,
		  struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_entry_msg(&m, c, TFIB_CMD_ENTRY_DEL, table, user_id);
	return tfc_xfer(c, &m, NULL, NULL, a);
}

int tfc_entry_dump(struct tfc *c, const char *table, struct tfc_entry **out,
		   size_t *n, struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_ENTRY_GET, NLM_F_DUMP, table);
	return tfc_dump(c, &m, tfc_entry_attr, sizeof(**out), (void **)out, n,
			a);
}

int tfc_bind(struct tfc *c, const char *table, const struct tfc_bind_cfg *cfg,
	     struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_BIND, 0, table);
	if (cfg->ifindex)
		tfc_put_u32(&m, TFIB_A_IFINDEX, cfg->ifindex);
	if (cfg->mode >= 0)
		tfc_put_u8(&m, TFIB_A_FWD_MODE, cfg->mode);
	if (cfg->pick >= 0)
		tfc_put_u8(&m, TFIB_A_PICK, cfg->pick);
	if (cfg->workers)
		tfc_put_u32(&m, TFIB_A_WORKERS, cfg->workers);
	if (cfg->control_ring)
		tfc_put_u32(&m, TFIB_A_CONTROL_RING, cfg->control_ring);
	if (cfg->data_ring)
		tfc_put_u32(&m, TFIB_A_DATA_RING, cfg->data_ring);
	if (cfg->burst)
		tfc_put_u32(&m, TFIB_A_BURST, cfg->burst);
	return tfc_xfer(c, &m, NULL, NULL, a);
}

int tfc_stats_get(struct tfc *c, const char *table, struct tfc_stats *st,
		  struct tfc_ack *a)
{
	struct tfc_msg m;
	int err;

	tfc_table_msg(&m, c, TFIB_CMD_STATS_GET, 0, table);
	err = tfc_get(c, &m, tfc_stats_attr, st, sizeof(*st), a);
	if (err == -EBADMSG)
		st->bad++;
	return err;
}

int tfc_stats_dump(struct tfc *c, struct tfc_stats **out, size_t *n,
		   struct tfc_ack *a)
{
	struct tfc_msg m;

	tfc_table_msg(&m, c, TFIB_CMD_STATS_GET, NLM_F_DUMP, NULL);
	return tfc_dump(c, &m, tfc_stats_attr, sizeof(**out), (void **)out, n,
			a);
}
