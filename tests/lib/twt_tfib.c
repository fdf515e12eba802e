// SPDX-License-Identifier: GPL-2.0
/*
 * twt_tfib.c - the tfib family for the guest tests' programs (see
 * twt_tfib.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "twt_tfib.h"

/* Requests name a table and a few numbers: a page is plenty. */
#define TFC_MSG_SIZE	16384

/* A request naming table @name, or none when @name is NULL. */
struct nl_msg *tfc_msg(struct twt *c, uint8_t cmd, int flags,
		       const char *name)
{
	struct nl_msg *m = twt_msg(c, cmd, flags, TFC_MSG_SIZE);

	if (name)
		nla_put_string(m, TFIB_A_TABLE, name);
	return m;
}

int tfc_open(struct twt *c)
{
	return twt_open(c, TFIB_FAMILY_NAME, 0);
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

static int tfc_walk_reply(struct nlmsghdr *nlh,
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

static int tfc_vec_cb(struct nlmsghdr *nlh, void *arg)
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
	return tfc_walk_reply(nlh, vec->fn, item) ? -EBADMSG : 0;
}

static int tfc_one_cb(struct nlmsghdr *nlh, void *arg)
{
	struct tfc_vec *vec = arg;

	vec->n++;
	return tfc_walk_reply(nlh, vec->fn, vec->v) ? -EBADMSG : 0;
}

/* Send @m; its one reply parsed by @fn into @out (zeroed first). */
static int tfc_get(struct twt *c, struct nl_msg *m,
		   int (*fn)(const struct nlattr *nla, void *arg), void *out,
		   size_t size, struct twt_ack *a)
{
	struct tfc_vec one = { .v = out, .fn = fn };
	int err;

	memset(out, 0, size);
	err = twt_xfer(c, m, tfc_one_cb, &one, a);
	if (!err && one.n != 1) {
		ksft_print_msg("%zu replies, not 1\n", one.n);
		err = -EBADMSG;
	}
	return err;
}

static int tfc_dump(struct twt *c, struct nl_msg *m,
		    int (*fn)(const struct nlattr *nla, void *arg),
		    size_t size, void **out, size_t *n, struct twt_ack *a)
{
	struct tfc_vec vec = { .size = size, .fn = fn };
	int err;

	err = twt_xfer(c, m, tfc_vec_cb, &vec, a);
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

int tfc_table_new(struct twt *c, const struct tfc_table_cfg *cfg,
		  struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_TABLE_NEW, 0, cfg->name);

	if (cfg->capacity)
		nla_put_u32(m, TFIB_A_CAPACITY, cfg->capacity);
	if (cfg->buckets)
		nla_put_u32(m, TFIB_A_BUCKETS, cfg->buckets);
	if (cfg->sync >= 0)
		nla_put_u8(m, TFIB_A_SYNC, cfg->sync);
	if (cfg->prefetch)
		nla_put_flag(m, TFIB_A_PREFETCH);
	if (cfg->spares)
		nla_put_u32(m, TFIB_A_SPARES, cfg->spares);
	if (cfg->clockid >= 0)
		nla_put_u32(m, TFIB_A_CLOCKID, cfg->clockid);
	return twt_xfer(c, m, NULL, NULL, a);
}

/* A command that names a table and wants only the ack. */
static int tfc_table_cmd(struct twt *c, uint8_t cmd, const char *name,
			 struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, cmd, 0, name);

	return twt_xfer(c, m, NULL, NULL, a);
}

int tfc_table_del(struct twt *c, const char *name, struct twt_ack *a)
{
	return tfc_table_cmd(c, TFIB_CMD_TABLE_DEL, name, a);
}

int tfc_unbind(struct twt *c, const char *table, struct twt_ack *a)
{
	return tfc_table_cmd(c, TFIB_CMD_UNBIND, table, a);
}

int tfc_table_get(struct twt *c, const char *name, struct tfc_table *t,
		  struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_TABLE_GET, 0, name);

	return tfc_get(c, m, tfc_table_attr, t, sizeof(*t), a);
}

int tfc_table_dump(struct twt *c, struct tfc_table **out, size_t *n,
		   struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_TABLE_GET, NLM_F_DUMP, NULL);

	return tfc_dump(c, m, tfc_table_attr, sizeof(**out), (void **)out, n,
			a);
}

int tfc_entry_set(struct twt *c, const char *table, const struct tfc_entry *e,
		  struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_ENTRY_SET, 0, table);

	nla_put_u32(m, TFIB_A_USER_ID, e->user_id);
	nla_put(m, TFIB_A_MAC, 6, e->mac);
	if (e->has_ts)
		nla_put_u64(m, TFIB_A_TS_NS, e->ts_ns);
	if (e->has_seq)
		nla_put_u32(m, TFIB_A_SEQ, e->seq);
	if (e->force)
		nla_put_flag(m, TFIB_A_FORCE);
	return twt_xfer(c, m, NULL, NULL, a);
}

static struct nl_msg *tfc_entry_msg(struct twt *c, uint8_t cmd,
				    const char *table, uint32_t user_id)
{
	struct nl_msg *m = tfc_msg(c, cmd, 0, table);

	nla_put_u32(m, TFIB_A_USER_ID, user_id);
	return m;
}

int tfc_entry_get(struct twt *c, const char *table, uint32_t user_id,
		  struct tfc_entry *e, struct twt_ack *a)
{
	struct nl_msg *m = tfc_entry_msg(c, TFIB_CMD_ENTRY_GET, table, user_id);

	return tfc_get(c, m, tfc_entry_attr, e, sizeof(*e), a);
}

int tfc_entry_del(struct twt *c, const char *table, uint32_t user_id,
		  struct twt_ack *a)
{
	struct nl_msg *m = tfc_entry_msg(c, TFIB_CMD_ENTRY_DEL, table, user_id);

	return twt_xfer(c, m, NULL, NULL, a);
}

int tfc_entry_dump(struct twt *c, const char *table, struct tfc_entry **out,
		   size_t *n, struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_ENTRY_GET, NLM_F_DUMP, table);

	return tfc_dump(c, m, tfc_entry_attr, sizeof(**out), (void **)out, n,
			a);
}

int tfc_bind(struct twt *c, const char *table, const struct tfc_bind_cfg *cfg,
	     struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_BIND, 0, table);

	if (cfg->ifindex)
		nla_put_u32(m, TFIB_A_IFINDEX, cfg->ifindex);
	if (cfg->mode >= 0)
		nla_put_u8(m, TFIB_A_FWD_MODE, cfg->mode);
	if (cfg->pick >= 0)
		nla_put_u8(m, TFIB_A_PICK, cfg->pick);
	if (cfg->workers)
		nla_put_u32(m, TFIB_A_WORKERS, cfg->workers);
	if (cfg->control_ring)
		nla_put_u32(m, TFIB_A_CONTROL_RING, cfg->control_ring);
	if (cfg->data_ring)
		nla_put_u32(m, TFIB_A_DATA_RING, cfg->data_ring);
	if (cfg->burst)
		nla_put_u32(m, TFIB_A_BURST, cfg->burst);
	return twt_xfer(c, m, NULL, NULL, a);
}

int tfc_stats_get(struct twt *c, const char *table, struct tfc_stats *st,
		  struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_STATS_GET, 0, table);
	int err;

	err = tfc_get(c, m, tfc_stats_attr, st, sizeof(*st), a);
	if (err == -EBADMSG)
		st->bad++;
	return err;
}

int tfc_stats_dump(struct twt *c, struct tfc_stats **out, size_t *n,
		   struct twt_ack *a)
{
	struct nl_msg *m = tfc_msg(c, TFIB_CMD_STATS_GET, NLM_F_DUMP, NULL);

	return tfc_dump(c, m, tfc_stats_attr, sizeof(**out), (void **)out, n,
			a);
}
