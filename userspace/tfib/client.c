// SPDX-License-Identifier: GPL-2.0
/*
 * The tfib client's requests (see client.h).
 */
#include <errno.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "client.h"
#include "lib/util.h"

/* A u32 attribute of a request and the bit that asks for it (0: always). */
struct opt_u32 {
	unsigned int bit;
	int type;
	uint32_t val;
};

/* Explain a failure: nl for a request's, NULL for one of our own. */
static int say_failed(struct tfib_client *c, struct tw_nl *nl, int err,
		      const char *what)
{
	tw_nl_strerror(nl, err, what, c->err, sizeof(c->err));
	if (!c->quiet)
		tw_err("%s", c->err);
	return nl && nl->kernel_err ? TW_EXIT_FAIL : TW_EXIT_SYS;
}

int tfib_connect(struct tfib_client *c, const struct tw_attr_set *names)
{
	int ret = tw_family_connect(&c->nl, &tfib_family);

	if (!ret && names)
		c->nl.attrs = names;
	return ret;
}

void tfib_close(struct tfib_client *c)
{
	tw_nl_close(&c->nl);
}

int tfib_parse(struct nlmsghdr *nlh, struct nlattr **tb)
{
	if (genlmsg_parse(nlh, 0, tb, TFIB_A_MAX, tfib_attr_policy))
		return -EPROTO;
	return 0;
}

int tfib_entry_parse(struct nlattr **tb, struct tfib_entry *e)
{
	if (!tb[TFIB_A_USER_ID] || !tb[TFIB_A_MAC] ||
	    nla_len(tb[TFIB_A_MAC]) != sizeof(e->mac))
		return -EPROTO;
	memset(e, 0, sizeof(*e));
	e->user_id = nla_get_u32(tb[TFIB_A_USER_ID]);
	memcpy(e->mac, nla_data(tb[TFIB_A_MAC]), sizeof(e->mac));
	if (tb[TFIB_A_TS_NS]) {
		e->ts_ns = nla_get_u64(tb[TFIB_A_TS_NS]);
		e->set |= TFIB_SET_TS;
	}
	if (tb[TFIB_A_SEQ]) {
		e->seq = nla_get_u32(tb[TFIB_A_SEQ]);
		e->set |= TFIB_SET_SEQ;
	}
	return 0;
}

struct nl_msg *tfib_msg(struct tfib_client *c, uint8_t cmd, int flags,
			const char *table)
{
	struct nl_msg *msg = tw_nl_new(&c->nl, cmd, flags, 0);

	if (msg && table && nla_put_string(msg, TFIB_A_TABLE, table) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

int tfib_request(struct tfib_client *c, struct nl_msg *msg,
		 tw_nl_handler_t reply, void *arg, const char *what)
{
	int ret;

	if (!msg)
		return say_failed(c, NULL, -EMSGSIZE, "cannot build a message");
	ret = tw_nl_request(&c->nl, msg, reply, arg);
	return ret ? say_failed(c, &c->nl, ret, what) : TW_EXIT_OK;
}

/* Put the u32s asked for by set; NULL (msg freed) when out of room. */
static struct nl_msg *put_opts(struct nl_msg *msg, unsigned int set,
			       const struct opt_u32 *o, size_t n)
{
	size_t i;

	for (i = 0; msg && i < n; i++) {
		if ((!o[i].bit || (set & o[i].bit)) &&
		    nla_put_u32(msg, o[i].type, o[i].val) < 0) {
			nlmsg_free(msg);
			msg = NULL;
		}
	}
	return msg;
}

/* Put an u8 when bit is in set; NULL (msg freed) when out of room. */
static struct nl_msg *put_opt_u8(struct nl_msg *msg, unsigned int set,
				 unsigned int bit, int type, uint8_t val)
{
	if (msg && (set & bit) && nla_put_u8(msg, type, val) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

int tfib_table_new(struct tfib_client *c, const char *table,
		   const struct tfib_table_cfg *cfg)
{
	const struct opt_u32 opts[] = {
		{ 0, TFIB_A_CAPACITY, cfg->capacity },
		{ TFIB_SET_BUCKETS, TFIB_A_BUCKETS, cfg->buckets },
		{ TFIB_SET_SPARES, TFIB_A_SPARES, cfg->spares },
		{ TFIB_SET_CLOCKID, TFIB_A_CLOCKID, cfg->clockid },
	};
	struct nl_msg *msg = tfib_msg(c, TFIB_CMD_TABLE_NEW, 0, table);

	msg = put_opts(msg, cfg->set, opts, ARRAY_SIZE(opts));
	msg = put_opt_u8(msg, cfg->set, TFIB_SET_SYNC, TFIB_A_SYNC, cfg->sync);
	if (msg && cfg->prefetch && nla_put_flag(msg, TFIB_A_PREFETCH) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return tfib_request(c, msg, NULL, NULL, "cannot create the table");
}

int tfib_table_del(struct tfib_client *c, const char *table)
{
	return tfib_request(c, tfib_msg(c, TFIB_CMD_TABLE_DEL, 0, table),
			    NULL, NULL, "cannot delete the table");
}

int tfib_entry_set(struct tfib_client *c, const char *table,
		   const struct tfib_entry *e)
{
	const struct opt_u32 opts[] = {
		{ 0, TFIB_A_USER_ID, e->user_id },
		{ TFIB_SET_SEQ, TFIB_A_SEQ, e->seq },
	};
	struct nl_msg *msg = tfib_msg(c, TFIB_CMD_ENTRY_SET, 0, table);

	msg = put_opts(msg, e->set, opts, ARRAY_SIZE(opts));
	if (msg && (nla_put(msg, TFIB_A_MAC, sizeof(e->mac), e->mac) < 0 ||
		    ((e->set & TFIB_SET_TS) &&
		     nla_put_u64(msg, TFIB_A_TS_NS, e->ts_ns) < 0) ||
		    (e->force && nla_put_flag(msg, TFIB_A_FORCE) < 0))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return tfib_request(c, msg, NULL, NULL, "cannot set the entry");
}

/* A request naming a table and an entry of it. */
static struct nl_msg *entry_msg(struct tfib_client *c, uint8_t cmd,
				const char *table, uint32_t user_id)
{
	struct nl_msg *msg = tfib_msg(c, cmd, 0, table);

	if (msg && nla_put_u32(msg, TFIB_A_USER_ID, user_id) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int entry_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[TFIB_A_MAX + 1];

	if (tfib_parse(nlh, tb))
		return -EPROTO;
	return tfib_entry_parse(tb, arg);
}

int tfib_entry_get(struct tfib_client *c, const char *table,
		   uint32_t user_id, struct tfib_entry *e)
{
	return tfib_request(c, entry_msg(c, TFIB_CMD_ENTRY_GET, table, user_id),
			    entry_cb, e, "cannot get the entry");
}

int tfib_entry_del(struct tfib_client *c, const char *table,
		   uint32_t user_id)
{
	return tfib_request(c, entry_msg(c, TFIB_CMD_ENTRY_DEL, table, user_id),
			    NULL, NULL, "cannot delete the entry");
}

int tfib_bind(struct tfib_client *c, const char *table,
	      const struct tfib_bind_cfg *cfg)
{
	const struct opt_u32 opts[] = {
		{ 0, TFIB_A_IFINDEX, cfg->ifindex },
		{ TFIB_SET_WORKERS, TFIB_A_WORKERS, cfg->workers },
		{ TFIB_SET_CONTROL_RING, TFIB_A_CONTROL_RING,
		  cfg->control_ring },
		{ TFIB_SET_DATA_RING, TFIB_A_DATA_RING, cfg->data_ring },
		{ TFIB_SET_BURST, TFIB_A_BURST, cfg->burst },
	};
	struct nl_msg *msg = tfib_msg(c, TFIB_CMD_BIND, 0, table);
	unsigned int i;

	msg = put_opts(msg, cfg->set, opts, ARRAY_SIZE(opts));
	msg = put_opt_u8(msg, cfg->set, TFIB_SET_FWD_MODE, TFIB_A_FWD_MODE,
			 cfg->fwd_mode);
	msg = put_opt_u8(msg, cfg->set, TFIB_SET_PICK, TFIB_A_PICK, cfg->pick);
	for (i = 0; msg && i < cfg->n_control_src; i++) {
		if (nla_put(msg, TFIB_A_CONTROL_SRC, 6, cfg->control_src[i]) < 0) {
			nlmsg_free(msg);
			msg = NULL;
		}
	}
	return tfib_request(c, msg, NULL, NULL, "cannot bind the table");
}

int tfib_unbind(struct tfib_client *c, const char *table)
{
	return tfib_request(c, tfib_msg(c, TFIB_CMD_UNBIND, 0, table),
			    NULL, NULL, "cannot unbind the table");
}

static int stats_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[TFIB_A_MAX + 1], *st[TFIB_STATS_A_MAX + 1];
	uint64_t *stats = arg;
	int i;

	if (tfib_parse(nlh, tb) || !tb[TFIB_A_STATS] ||
	    nla_parse_nested(st, TFIB_STATS_A_MAX, tb[TFIB_A_STATS],
			     tfib_stats_policy))
		return -EPROTO;
	for (i = 0; i <= TFIB_STATS_A_MAX; i++)
		stats[i] = st[i] ? nla_get_u64(st[i]) : 0;
	return 0;
}

int tfib_stats_get(struct tfib_client *c, const char *table,
		   uint64_t stats[TFIB_STATS_A_MAX + 1])
{
	return tfib_request(c, tfib_msg(c, TFIB_CMD_STATS_GET, 0, table),
			    stats_cb, stats, "cannot read the counters");
}
