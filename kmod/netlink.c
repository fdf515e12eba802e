// SPDX-License-Identifier: GPL-2.0
/*
 * The "tfib" generic netlink family: its handlers.  The policies and the
 * op table are generated from Documentation/netlink/specs/tfib.yaml into
 * netlink-gen.c.
 *
 * Handlers run in parallel as far as genetlink is concerned and serialise
 * on tfib_lock, which keeps the tables they find alive.  Dumps resume
 * after the name of the last table they sent, and entry dumps from the
 * core's cursor.
 */
#include <linux/cpumask.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/log2.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <tw/genl.h>
#include <net/sock.h>

#include "internal.h"
#include "netlink-gen.h"

static struct genl_family tfib_family;

/*
 * The counters of the core, in the order of enum tfib_stats_attr, and the
 * two appended after the forwarder's.
 */
#define TFIB_FIB_COUNTERS	10
static_assert(TFIB_STATS_A_LOOKUPS + TFIB_FIB_COUNTERS == TFIB_STATS_A_RX);
static_assert(TFIB_STATS_A_STALE + 1 == TFIB_STATS_A_PREFETCHES);
#define TFIB_FIB_LATE_COUNTERS	2

/* The UAPI's modes are the core's, by number. */
static_assert(TFIB_SYNC_RWLOCK == (int)TW_TFIB_RWLOCK &&
	      TFIB_SYNC_RCU == (int)TW_TFIB_RCU &&
	      TFIB_SYNC_BUCKET == (int)TW_TFIB_BUCKET &&
	      TFIB_SYNC_SEQCOUNT == (int)TW_TFIB_SEQCOUNT &&
	      __TFIB_SYNC_MAX == (int)TW_TFIB_SYNC_COUNT);

/* Where a dump resumes: after this table, and in it at this entry. */
struct tfib_dump_ctx {
	char name[TFIB_NAME_LEN];
	struct tw_tfib_cursor pos;
};

static_assert(sizeof(struct tfib_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

/* Puts a reply's attributes: -EMSGSIZE when @msg is full. */
typedef int (*tfib_fill_fn)(struct sk_buff *msg, struct tfib_table *t,
			    const void *arg);

/*
 * Is the required attribute @type there?  If not, the ack names it, and
 * the message too: @name is the UAPI name of @type.
 */
static bool __tfib_nl_has(const struct genl_info *info, int type,
			  const char *name)
{
	if (!GENL_REQ_ATTR_CHECK(info, type))
		return true;
	NL_SET_ERR_MSG_FMT_MOD(info->extack, "request lacks %s", name);
	return false;
}

#define tfib_nl_has(info, type) __tfib_nl_has(info, type, #type)

/* The table TFIB_A_TABLE names in the caller's namespace, or an error. */
static struct tfib_table *tfib_nl_table(const struct genl_info *info)
{
	struct nlattr *attr = info->attrs[TFIB_A_TABLE];
	struct tfib_table *t;

	if (!tfib_nl_has(info, TFIB_A_TABLE))
		return ERR_PTR(-EINVAL);
	t = tfib_table_find(genl_info_net(info), nla_data(attr));
	if (!t) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no such table in this network namespace");
		return ERR_PTR(-ENOENT);
	}
	return t;
}

/*
 * Reply to a do request with what @fill puts, in a message of @size
 * bytes of attributes.  Under tfib_lock.
 */
static int tfib_nl_reply(struct genl_info *info, u8 cmd, tfib_fill_fn fill,
			 struct tfib_table *t, const void *arg, size_t size)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG_MOD(info->extack, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &tfib_family, 0, cmd);
	err = hdr ? fill(msg, t, arg) : -EMSGSIZE;
	if (err) {
		nlmsg_free(msg);
		/* a size computed too small is a bug */
		WARN_ON_ONCE(err == -EMSGSIZE);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* A do request that replies about the table it names. */
static int tfib_nl_get_table(struct genl_info *info, u8 cmd,
			     tfib_fill_fn fill)
{
	struct tfib_table *t;
	int err;

	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	err = IS_ERR(t) ? PTR_ERR(t) :
	      tfib_nl_reply(info, cmd, fill, t, NULL, NLMSG_GOODSIZE);
	mutex_unlock(&tfib_lock);
	return err;
}

/* Dump what @fill puts for each table of the caller's namespace. */
static int tfib_nl_dump_tables(struct sk_buff *skb, struct netlink_callback *cb,
			       u8 cmd, tfib_fill_fn fill)
{
	struct tfib_dump_ctx *ctx = (struct tfib_dump_ctx *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	struct tfib_table *t;
	int err = 0;
	void *hdr;

	mutex_lock(&tfib_lock);
	while ((t = tfib_table_next(net, ctx->name))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &tfib_family, NLM_F_MULTI,
				  cmd);
		err = hdr ? fill(skb, t, NULL) : -EMSGSIZE;
		if (err) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		strscpy(ctx->name, t->name);
	}
	mutex_unlock(&tfib_lock);
	/* A table that does not fit in an empty message ends the dump. */
	if (err && !skb->len) {
		NL_SET_ERR_MSG_MOD(cb->extack, "a table does not fit in a message");
		return err;
	}
	return skb->len;
}

static int tfib_nl_check_clockid(const struct nlattr *attr,
				 struct netlink_ext_ack *extack)
{
	switch (nla_get_u32(attr)) {
	case CLOCK_MONOTONIC:
	case CLOCK_REALTIME:
	case CLOCK_TAI:
		return 0;
	}
	NL_SET_ERR_MSG_ATTR(extack, attr,
			    "clock must be CLOCK_MONOTONIC, CLOCK_REALTIME or CLOCK_TAI");
	return -EINVAL;
}

static u32 tfib_nl_u32(const struct nlattr *attr, u32 dflt)
{
	return attr ? nla_get_u32(attr) : dflt;
}

static u8 tfib_nl_u8(const struct nlattr *attr, u8 dflt)
{
	return attr ? nla_get_u8(attr) : dflt;
}

/* TABLE_NEW's settings, defaults filled in and checked. */
static int tfib_nl_table_cfg(struct genl_info *info, struct tw_tfib_config *cfg,
			     clockid_t *clockid)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;

	cfg->capacity = nla_get_u32(tb[TFIB_A_CAPACITY]);
	cfg->buckets = tfib_nl_u32(tb[TFIB_A_BUCKETS], 0);
	if (tb[TFIB_A_BUCKETS] && !is_power_of_2(cfg->buckets)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TFIB_A_BUCKETS],
				    "buckets must be a power of two");
		return -EINVAL;
	}
	/* a lookup walks its chain in softirq: chains stay short */
	if (cfg->buckets && cfg->capacity > (u64)cfg->buckets * TW_TFIB_MAX_LOAD) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, tb[TFIB_A_BUCKETS],
					"over %u entries a bucket: needs %u buckets or more",
					TW_TFIB_MAX_LOAD,
					DIV_ROUND_UP(cfg->capacity,
						     TW_TFIB_MAX_LOAD));
		return -EINVAL;
	}
	cfg->sync = tfib_nl_u8(tb[TFIB_A_SYNC], TFIB_SYNC_RCU);
	if (tb[TFIB_A_SPARES] && cfg->sync != TFIB_SYNC_RCU) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TFIB_A_SPARES],
				    "spares are for rcu tables only");
		return -EINVAL;
	}
	if (cfg->sync == TFIB_SYNC_RCU)
		cfg->spares = tfib_nl_u32(tb[TFIB_A_SPARES], cfg->capacity);
	if (tb[TFIB_A_PREFETCH]) {
		if (cfg->sync == TFIB_SYNC_RWLOCK) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TFIB_A_PREFETCH],
					    "an rwlock table has no bucket lock to prefetch");
			return -EINVAL;
		}
		cfg->flags |= TW_TFIB_PREFETCH;
	}
	*clockid = CLOCK_MONOTONIC;
	if (!tb[TFIB_A_CLOCKID])
		return 0;
	*clockid = nla_get_u32(tb[TFIB_A_CLOCKID]);
	return tfib_nl_check_clockid(tb[TFIB_A_CLOCKID], extack);
}

/* A table's name is 1 to 15 bytes: the policy cannot bound it below. */
static int tfib_nl_check_name(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[TFIB_A_TABLE];

	if (*(char *)nla_data(attr))
		return 0;
	NL_SET_ERR_MSG_ATTR(info->extack, attr, "table name is empty");
	return -EINVAL;
}

int tfib_nl_table_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name = info->attrs[TFIB_A_TABLE];
	struct tw_tfib_config cfg = {};
	struct tfib_table *t;
	clockid_t clockid;
	int err;

	if (!tfib_nl_has(info, TFIB_A_TABLE) ||
	    !tfib_nl_has(info, TFIB_A_CAPACITY))
		return -EINVAL;
	err = tfib_nl_check_name(info);
	if (!err)
		err = tfib_nl_table_cfg(info, &cfg, &clockid);
	if (err)
		return err;

	mutex_lock(&tfib_lock);
	if (tfib_table_find(genl_info_net(info), nla_data(name))) {
		NL_SET_ERR_MSG_ATTR(info->extack, name,
				    "a table of this name exists in this namespace");
		err = -EEXIST;
	} else {
		t = tfib_table_create(genl_info_net(info), nla_data(name), &cfg,
				      clockid, info->attrs[TFIB_A_CAPACITY],
				      info->extack);
		err = PTR_ERR_OR_ZERO(t);
	}
	mutex_unlock(&tfib_lock);
	return err;
}

int tfib_nl_table_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct tfib_table *t;
	int err = 0;

	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	if (IS_ERR(t))
		err = PTR_ERR(t);
	else
		tfib_table_destroy(t);
	mutex_unlock(&tfib_lock);
	return err;
}

static int tfib_nl_fill_table(struct sk_buff *msg, struct tfib_table *t,
			      const void *unused)
{
	const struct tw_tfib_config *c = &t->cfg;
	struct tw_tfib_stats st;

	tw_tfib_get_stats(t->fib, &st);
	if (nla_put_string(msg, TFIB_A_TABLE, t->name) ||
	    nla_put_u32(msg, TFIB_A_CAPACITY, c->capacity) ||
	    nla_put_u32(msg, TFIB_A_BUCKETS, tw_tfib_buckets(t->fib)) ||
	    nla_put_u8(msg, TFIB_A_SYNC, c->sync) ||
	    ((c->flags & TW_TFIB_PREFETCH) &&
	     nla_put_flag(msg, TFIB_A_PREFETCH)) ||
	    (c->sync == TFIB_SYNC_RCU &&
	     nla_put_u32(msg, TFIB_A_SPARES, c->spares)) ||
	    nla_put_u32(msg, TFIB_A_CLOCKID, t->clockid) ||
	    nla_put_u32(msg, TFIB_A_ENTRIES, st.entries))
		return -EMSGSIZE;
	return tfib_fwd_fill_binding(msg, t);
}

int tfib_nl_table_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return tfib_nl_get_table(info, TFIB_CMD_TABLE_GET, tfib_nl_fill_table);
}

int tfib_nl_table_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tfib_nl_dump_tables(skb, cb, TFIB_CMD_TABLE_GET,
				   tfib_nl_fill_table);
}

static int tfib_nl_put_fib_counters(struct sk_buff *msg, struct tfib_table *t)
{
	struct tw_tfib_stats st;
	u64 v[TFIB_FIB_COUNTERS];
	int i;

	tw_tfib_get_stats(t->fib, &st);
	v[0] = st.lookups;
	v[1] = st.misses;
	v[2] = st.inserts;
	v[3] = st.updates;
	v[4] = st.deletes;
	v[5] = st.retries;
	v[6] = st.spins;
	v[7] = st.busy;
	v[8] = st.backlog;
	v[9] = st.backlog_peak;
	for (i = 0; i < TFIB_FIB_COUNTERS; i++)
		if (nla_put_u64_64bit(msg, TFIB_STATS_A_LOOKUPS + i, v[i],
				      TFIB_STATS_A_PAD))
			return -EMSGSIZE;
	return 0;
}

/* The core's counters that came after the forwarder's in the UAPI. */
static int tfib_nl_put_late_counters(struct sk_buff *msg, struct tfib_table *t)
{
	struct tw_tfib_stats st;

	tw_tfib_get_stats(t->fib, &st);
	if (nla_put_u64_64bit(msg, TFIB_STATS_A_STALE, st.stale,
			      TFIB_STATS_A_PAD) ||
	    nla_put_u64_64bit(msg, TFIB_STATS_A_PREFETCHES, st.prefetches,
			      TFIB_STATS_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * TABLE, then the STATS nest (the core's counters, then the forwarder's),
 * then the detail: with a nest per thread when @arg is non-NULL (a do
 * reply; a dump leaves them out, so that its messages keep their default
 * size whatever the number of workers).
 */
static int tfib_nl_fill_stats(struct sk_buff *msg, struct tfib_table *t,
			      const void *arg)
{
	struct nlattr *nest;

	if (nla_put_string(msg, TFIB_A_TABLE, t->name))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, TFIB_A_STATS);
	if (!nest || tfib_nl_put_fib_counters(msg, t) ||
	    tfib_fwd_fill_counters(msg, t) || tfib_nl_put_late_counters(msg, t))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return tfib_fwd_fill_detail(msg, t, arg != NULL);
}

/* What tfib_nl_fill_stats() puts, in bytes. */
static size_t tfib_nl_stats_size(const struct tfib_table *t, bool workers)
{
	return nla_total_size(TFIB_NAME_LEN) + nla_total_size(0) +
	       (TFIB_FIB_COUNTERS + TFIB_FIB_LATE_COUNTERS) *
	       nla_total_size_64bit(sizeof(u64)) +
	       tfib_fwd_counters_size() + tfib_fwd_detail_size(t, workers);
}

/* The size of the do reply about @info's table, or an error. */
static long tfib_nl_stats_get_size(struct genl_info *info)
{
	struct tfib_table *t;
	long size;

	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	size = IS_ERR(t) ? PTR_ERR(t) : tfib_nl_stats_size(t, true);
	mutex_unlock(&tfib_lock);
	return size;
}

/*
 * Fill @msg, of @size bytes of attributes, for @info's table: -EAGAIN when
 * its binding grew meanwhile.
 */
static int tfib_nl_stats_fill_reply(struct sk_buff *msg, struct genl_info *info,
				    size_t size)
{
	static const bool workers = true;
	struct tfib_table *t;
	void *hdr;
	int err;

	hdr = genlmsg_put_reply(msg, info, &tfib_family, 0, TFIB_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	if (IS_ERR(t))
		err = PTR_ERR(t);
	else if (tfib_nl_stats_size(t, workers) > size)
		err = -EAGAIN;
	else
		err = tfib_nl_fill_stats(msg, t, &workers);
	mutex_unlock(&tfib_lock);
	if (!err)
		genlmsg_end(msg, hdr);
	return err;
}

/*
 * With a thousand workers the reply is tens of KiB: it is allocated
 * without tfib_lock, then filled under it if the binding still fits.
 */
int tfib_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	int err = -EAGAIN, tries;
	long size;

	for (tries = 0; tries < 3 && err == -EAGAIN; tries++) {
		size = tfib_nl_stats_get_size(info);
		if (size < 0)
			return size;
		msg = genlmsg_new(size, GFP_KERNEL);
		if (!msg) {
			NL_SET_ERR_MSG_MOD(info->extack,
					   "out of memory for the reply");
			return -ENOMEM;
		}
		err = tfib_nl_stats_fill_reply(msg, info, size);
		if (!err)
			return genlmsg_reply(msg, info);
		nlmsg_free(msg);
	}
	/* a size computed too small is a bug */
	WARN_ON_ONCE(err == -EMSGSIZE);
	if (err == -EAGAIN)
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the binding changed during the request; retry");
	return err;
}

int tfib_nl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tfib_nl_dump_tables(skb, cb, TFIB_CMD_STATS_GET,
				   tfib_nl_fill_stats);
}

static int tfib_nl_put_entry(struct sk_buff *msg, const char *table, u32 id,
			     const struct tw_tfib_tuple *tuple)
{
	if (nla_put_string(msg, TFIB_A_TABLE, table) ||
	    nla_put_u32(msg, TFIB_A_USER_ID, id) ||
	    nla_put(msg, TFIB_A_MAC, ETH_ALEN, tuple->mac) ||
	    nla_put_u64_64bit(msg, TFIB_A_TS_NS, tuple->ts_ns, TFIB_A_PAD) ||
	    nla_put_u32(msg, TFIB_A_SEQ, tuple->seq))
		return -EMSGSIZE;
	return 0;
}

int tfib_nl_entry_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct tw_tfib_tuple tuple = {};
	struct tfib_table *t;
	u32 id;
	int err;

	if (!tfib_nl_has(info, TFIB_A_USER_ID) || !tfib_nl_has(info, TFIB_A_MAC))
		return -EINVAL;
	id = nla_get_u32(tb[TFIB_A_USER_ID]);
	nla_memcpy(tuple.mac, tb[TFIB_A_MAC], ETH_ALEN);
	/* as for control packets: a group next hop would flood the segment */
	if (!is_valid_ether_addr(tuple.mac)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TFIB_A_MAC],
				    "next hop must be a unicast MAC address");
		return -EINVAL;
	}
	tuple.seq = tfib_nl_u32(tb[TFIB_A_SEQ], 0);

	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
		goto out;
	}
	tuple.ts_ns = tb[TFIB_A_TS_NS] ? nla_get_u64(tb[TFIB_A_TS_NS]) :
					 tfib_table_now(t);
	err = tw_tfib_set(t->fib, id, &tuple, nla_get_flag(tb[TFIB_A_FORCE]) ?
			  TW_TFIB_SET_FORCE : 0);
	if (err == -ESTALE)
		NL_SET_ERR_MSG_ATTR(extack, tb[TFIB_A_SEQ],
				    "the entry's seq is as new or newer; force overwrites");
	else if (err == -ENOSPC)
		NL_SET_ERR_MSG_FMT_MOD(extack, "table is full (capacity %u)",
				       t->cfg.capacity);
	else if (err == -EBUSY)
		NL_SET_ERR_MSG_MOD(extack,
				   "no spare tuple until a grace period ends; retry");
out:
	mutex_unlock(&tfib_lock);
	return err;
}

static int tfib_nl_fill_entry(struct sk_buff *msg, struct tfib_table *t,
			      const void *arg)
{
	const u32 *id = arg;
	struct tw_tfib_tuple tuple;

	if (tw_tfib_lookup(t->fib, *id, &tuple))
		return -ENOENT;
	return tfib_nl_put_entry(msg, t->name, *id, &tuple);
}

int tfib_nl_entry_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[TFIB_A_USER_ID];
	struct tfib_table *t;
	u32 id;
	int err;

	if (!tfib_nl_has(info, TFIB_A_USER_ID))
		return -EINVAL;
	id = nla_get_u32(attr);
	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	err = IS_ERR(t) ? PTR_ERR(t) :
	      tfib_nl_reply(info, TFIB_CMD_ENTRY_GET, tfib_nl_fill_entry, t,
			    &id, NLMSG_GOODSIZE);
	mutex_unlock(&tfib_lock);
	if (err == -ENOENT && !IS_ERR(t))
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such entry");
	return err;
}

int tfib_nl_entry_get_start(struct netlink_callback *cb)
{
	struct tfib_dump_ctx *ctx = (struct tfib_dump_ctx *)cb->ctx;
	const struct genl_info *info = genl_info_dump(cb);
	struct tfib_table *t;

	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	if (!IS_ERR(t))
		strscpy(ctx->name, t->name);
	mutex_unlock(&tfib_lock);
	return PTR_ERR_OR_ZERO(t);
}

struct tfib_entry_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	const char *table;
};

/* Under the table's read side: puts, never sleeps. */
static int tfib_nl_dump_one(void *arg, u32 id,
			    const struct tw_tfib_tuple *tuple)
{
	struct tfib_entry_dump *d = arg;
	void *hdr;

	hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, &tfib_family, NLM_F_MULTI,
			  TFIB_CMD_ENTRY_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (tfib_nl_put_entry(d->skb, d->table, id, tuple)) {
		genlmsg_cancel(d->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(d->skb, hdr);
	return 0;
}

int tfib_nl_entry_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tfib_dump_ctx *ctx = (struct tfib_dump_ctx *)cb->ctx;
	struct tfib_entry_dump d = { .skb = skb, .cb = cb, .table = ctx->name };
	struct tfib_table *t;
	int err;

	mutex_lock(&tfib_lock);
	t = tfib_table_find(sock_net(skb->sk), ctx->name);
	err = t ? tw_tfib_dump(t->fib, &ctx->pos, tfib_nl_dump_one, &d) :
		  -ENOENT;
	mutex_unlock(&tfib_lock);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_MOD(cb->extack, "the table was deleted");
	if (err && (err != -EMSGSIZE || !skb->len))
		return err;
	return skb->len;
}

int tfib_nl_entry_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[TFIB_A_USER_ID];
	struct tfib_table *t;
	int err;

	if (!tfib_nl_has(info, TFIB_A_USER_ID))
		return -EINVAL;
	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	err = IS_ERR(t) ? PTR_ERR(t) :
	      tw_tfib_delete(t->fib, nla_get_u32(attr));
	mutex_unlock(&tfib_lock);
	if (err == -ENOENT && !IS_ERR(t))
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such entry");
	return err;
}

/* Ring settings mean nothing to an inline binding: refuse them. */
static int tfib_nl_check_inline(struct genl_info *info)
{
	static const int ring_only[] = {
		TFIB_A_PICK, TFIB_A_WORKERS, TFIB_A_CONTROL_RING,
		TFIB_A_DATA_RING, TFIB_A_BURST,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(ring_only); i++) {
		if (info->attrs[ring_only[i]]) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[ring_only[i]],
					    "ring settings do not go with inline mode");
			return -EINVAL;
		}
	}
	return 0;
}

static bool tfib_nl_control_src_dup(const struct tfib_bind_cfg *cfg,
				    const u8 *mac)
{
	u32 i;

	for (i = 0; i < cfg->n_control_src; i++)
		if (!memcmp(cfg->control_src[i], mac, ETH_ALEN))
			return true;
	return false;
}

/*
 * The TFIB_A_CONTROL_SRC attributes of BIND, 6 bytes each by the policy:
 * here at most TFIB_MAX_CONTROL_SRC of them, unicast, none twice.  The
 * family has no header of its own: the attributes follow genlmsghdr.
 */
static int tfib_nl_control_src(struct genl_info *info,
			       struct tfib_bind_cfg *cfg)
{
	const struct nlattr *attr;
	int rem;

	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != TFIB_A_CONTROL_SRC)
			continue;
		if (cfg->n_control_src == TFIB_MAX_CONTROL_SRC) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, attr,
						"more than %u control sources",
						TFIB_MAX_CONTROL_SRC);
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(attr))) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "control source must be a unicast MAC address");
			return -EINVAL;
		}
		if (tfib_nl_control_src_dup(cfg, nla_data(attr))) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "control source given twice");
			return -EINVAL;
		}
		memcpy(cfg->control_src[cfg->n_control_src++], nla_data(attr),
		       ETH_ALEN);
	}
	return 0;
}

/* BIND's settings, with the UAPI header's defaults. */
static int tfib_nl_bind_cfg(struct genl_info *info, struct tfib_bind_cfg *cfg)
{
	struct nlattr **tb = info->attrs;
	int err;

	err = tfib_nl_control_src(info, cfg);
	if (err)
		return err;
	cfg->mode = tfib_nl_u8(tb[TFIB_A_FWD_MODE], TFIB_FWD_MODE_RING);
	if (cfg->mode == TFIB_FWD_MODE_INLINE)
		return tfib_nl_check_inline(info);
	cfg->pick = tfib_nl_u8(tb[TFIB_A_PICK], TFIB_PICK_MEMO);
	cfg->workers = tfib_nl_u32(tb[TFIB_A_WORKERS],
				   min(num_online_cpus(), TFIB_MAX_WORKERS));
	cfg->control_ring = tfib_nl_u32(tb[TFIB_A_CONTROL_RING],
					TFIB_DEFAULT_RING);
	cfg->data_ring = tfib_nl_u32(tb[TFIB_A_DATA_RING], TFIB_DEFAULT_RING);
	cfg->burst = tfib_nl_u32(tb[TFIB_A_BURST], TFIB_DEFAULT_BURST);
	return 0;
}

/*
 * Under RTNL and tfib_lock: the device TFIB_A_IFINDEX names in the
 * caller's namespace, if unbound @t may be bound to it.  RTNL keeps it
 * registered and in this namespace until the binding is in place.
 */
static struct net_device *tfib_nl_bind_dev(struct genl_info *info,
					   struct tfib_table *t)
{
	struct nlattr *ifattr = info->attrs[TFIB_A_IFINDEX];
	struct tfib_table *other;
	struct net_device *dev;

	dev = __dev_get_by_index(genl_info_net(info), nla_get_u32(ifattr));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, ifattr,
				    "no such device in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG_ATTR(info->extack, ifattr,
				    "not an Ethernet device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	other = tfib_table_of_dev(dev);
	if (other) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, ifattr,
					"device is bound to table %s already",
					other->name);
		return ERR_PTR(-EBUSY);
	}
	return dev;
}

/*
 * Under tfib_lock: refuse a missing or bound table before threads are
 * made for it.  A bind may still lose a race; tfib_nl_bind_dev() decides.
 */
static struct tfib_table *tfib_nl_unbound_table(struct genl_info *info)
{
	struct tfib_table *t = tfib_nl_table(info);

	if (!IS_ERR(t) && tfib_fwd_dev(t)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TFIB_A_TABLE],
				    "table is bound already; unbind it first");
		return ERR_PTR(-EBUSY);
	}
	return t;
}

/*
 * The rings and threads are made without a lock: RTNL is then held only
 * to find the device and put the binding in place.  RTNL before
 * tfib_lock, as for the netdev notifier.
 */
int tfib_nl_bind_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct tfib_bind_cfg cfg = {};
	struct net_device *dev;
	struct tfib_table *t;
	struct tfib_fwd *fwd;
	u32 threads;
	int err;

	if (!tfib_nl_has(info, TFIB_A_TABLE) ||
	    !tfib_nl_has(info, TFIB_A_IFINDEX))
		return -EINVAL;
	err = tfib_nl_bind_cfg(info, &cfg);
	if (err)
		return err;
	/* a ring binding's threads: its data workers and a writer */
	threads = cfg.mode == TFIB_FWD_MODE_RING ? cfg.workers + 1 : 0;
	mutex_lock(&tfib_lock);
	err = PTR_ERR_OR_ZERO(tfib_nl_unbound_table(info));
	if (!err)
		err = tfib_threads_reserve(threads, info->attrs[TFIB_A_WORKERS],
					   info->extack);
	mutex_unlock(&tfib_lock);
	if (err)
		return err;
	fwd = tfib_fwd_create(&cfg, nla_get_u32(info->attrs[TFIB_A_IFINDEX]),
			      info->extack);
	if (IS_ERR(fwd)) {
		dev = ERR_CAST(fwd);
		goto out;
	}

	rtnl_lock();
	mutex_lock(&tfib_lock);
	t = tfib_nl_unbound_table(info);
	dev = IS_ERR(t) ? ERR_CAST(t) : tfib_nl_bind_dev(info, t);
	if (!IS_ERR(dev))
		tfib_table_bind(t, fwd, dev, threads);
	mutex_unlock(&tfib_lock);
	rtnl_unlock();
	if (IS_ERR(dev))
		tfib_fwd_destroy(fwd);
out:
	if (IS_ERR(dev)) {
		mutex_lock(&tfib_lock);
		tfib_threads_release(threads);
		mutex_unlock(&tfib_lock);
		return PTR_ERR(dev);
	}
	return 0;
}

int tfib_nl_unbind_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct tfib_table *t;
	int err = 0;

	mutex_lock(&tfib_lock);
	t = tfib_nl_table(info);
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
	} else if (!tfib_fwd_dev(t)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TFIB_A_TABLE],
				    "table is not bound");
		err = -ENOENT;
	} else {
		tfib_table_unbind(t);
	}
	mutex_unlock(&tfib_lock);
	return err;
}

/* tfib_lock serialises the handlers; no need for genl_mutex. */
static struct genl_family tfib_family =
	TW_GENL_FAMILY(TFIB_FAMILY_NAME, TFIB_FAMILY_VERSION);

int tfib_nl_init(void)
{
	return tw_genl_register(&tfib_family, tfib_nl_ops);
}

void tfib_nl_exit(void)
{
	tw_genl_unregister(&tfib_family);
}
