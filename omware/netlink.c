// SPDX-License-Identifier: GPL-2.0
/*
 * The "omware" generic netlink family: its handlers and the building of
 * send reports.  The policies and the op table are generated from
 * Documentation/netlink/specs/omware.yaml into netlink-gen.c.
 *
 * Handlers run in parallel as far as genetlink is concerned; they serialise
 * on omw_lock, which also keeps sessions alive while a handler uses them.
 * SUBMIT and TRAIN hold a session reference instead while they build
 * packets, so omw_lock is never held for long.
 */
#include <linux/cpumask.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/pkt_sched.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <tw/genl.h>
#include <net/sock.h>

#include "omw.h"
#include "netlink-gen.h"

static struct genl_family omw_family;

/*
 * Not a policy validation function: the policy dump reads integer policies
 * as ranges and warns on a function, so the policy only bounds the value
 * (NLA_POLICY_MAX) and the handler picks the clocks in that range.
 */
static int omw_check_clockid(const struct nlattr *attr,
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

/* The session named by OMWARE_A_SESSION_ID; @owner: caller must own it. */
static struct omw_session *omw_nl_session(struct sk_buff *skb,
					  struct genl_info *info, bool owner)
{
	struct nlattr *attr = info->attrs[OMWARE_A_SESSION_ID];
	struct omw_session *s;

	if (GENL_REQ_ATTR_CHECK(info, OMWARE_A_SESSION_ID)) {
		NL_SET_ERR_MSG_MOD(info->extack, "session id missing");
		return ERR_PTR(-EINVAL);
	}
	s = omw_session_find(genl_info_net(info), nla_get_u32(attr));
	if (!s) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no such session in this network namespace");
		return ERR_PTR(-ENOENT);
	}
	/*
	 * The socket, not its port id: a closing socket frees its port id
	 * before its sessions go, and a new socket may take it meanwhile.
	 */
	if (owner && s->owner != NETLINK_CB(skb).sk) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "session belongs to another socket");
		return ERR_PTR(-EPERM);
	}
	return s;
}

/*
 * The caller's own session with a reference, for building packets without
 * omw_lock, and its device held through @dt: the session lets the device
 * go when it ends, a builder only when it is done.  Release both with
 * omw_nl_session_release().
 */
static struct omw_session *omw_nl_session_get(struct sk_buff *skb,
					      struct genl_info *info,
					      netdevice_tracker *dt)
{
	struct omw_session *s;

	mutex_lock(&omw_lock);
	s = omw_nl_session(skb, info, true);
	if (!IS_ERR(s)) {
		refcount_inc(&s->ref);
		netdev_hold(s->dev, dt, GFP_KERNEL);
	}
	mutex_unlock(&omw_lock);
	return s;
}

static void omw_nl_session_release(struct omw_session *s,
				   netdevice_tracker *dt)
{
	netdev_put(s->dev, dt);
	omw_session_put(s);
}

/*
 * A builder stops at the next packet once its session ended (an
 * unregistering device waits for its reference) or its caller was killed.
 */
static int omw_nl_build_stop(const struct omw_session *s, u32 idx,
			     struct netlink_ext_ack *extack)
{
	if (READ_ONCE(s->dead)) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "packet %u: session ended: device gone or deleted",
				       idx);
		return -ENODEV;
	}
	if (fatal_signal_pending(current))
		return -EINTR;
	return 0;
}

/* Reject send times further than the horizon from now, either way. */
static int omw_nl_check_time(const struct omw_session *s,
			     const struct nlattr *attr, u64 now,
			     struct netlink_ext_ack *extack)
{
	u32 horizon_s = READ_ONCE(omw_horizon_s);
	u64 t = nla_get_u64(attr);
	u64 dist = t > now ? t - now : now - t;

	if (dist <= (u64)horizon_s * NSEC_PER_SEC)
		return 0;
	NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
				"time %llu over %u s from now %llu",
				t, horizon_s, now);
	return -ERANGE;
}

/* A FRAME: a whole Ethernet frame, its EtherType read from it. */
static int omw_nl_frame(struct net_device *dev, const struct nlattr *frame,
			struct nlattr **tb, u32 idx, struct omw_pkt *p,
			struct netlink_ext_ack *extack)
{
	u32 mtu = READ_ONCE(dev->mtu);

	if (tb[OMWARE_PKT_A_DST_MAC] || tb[OMWARE_PKT_A_PROTO]) {
		NL_SET_ERR_MSG_ATTR_FMT(extack,
					tb[OMWARE_PKT_A_DST_MAC] ? :
					tb[OMWARE_PKT_A_PROTO],
					"packet %u: DST_MAC and PROTO only go with a PAYLOAD",
					idx);
		return -EINVAL;
	}
	p->data = nla_data(frame);
	p->len = nla_len(frame);
	if (p->len > mtu + dev->hard_header_len) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, frame,
					"packet %u: frame of %u bytes exceeds MTU %u + header",
					idx, p->len, mtu);
		return -EMSGSIZE;
	}
	p->proto = ((const struct ethhdr *)p->data)->h_proto;
	/* A length field (802.3), not an EtherType. */
	if (ntohs(p->proto) < ETH_P_802_3_MIN)
		p->proto = htons(ETH_P_802_3);
	return 0;
}

/* A PAYLOAD: a network-layer packet for DST_MAC, its EtherType given or guessed. */
static int omw_nl_payload(struct net_device *dev, const struct nlattr *pkt,
			  const struct nlattr *payload, struct nlattr **tb,
			  u32 idx, struct omw_pkt *p,
			  struct netlink_ext_ack *extack)
{
	u32 mtu = READ_ONCE(dev->mtu);

	if (!tb[OMWARE_PKT_A_DST_MAC]) {
		NL_SET_ERR_ATTR_MISS(extack, pkt, OMWARE_PKT_A_DST_MAC);
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "packet %u: a PAYLOAD needs a DST_MAC", idx);
		return -EINVAL;
	}
	p->data = nla_data(payload);
	p->len = nla_len(payload);
	p->dst_mac = nla_data(tb[OMWARE_PKT_A_DST_MAC]);
	if (p->len > mtu) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, payload,
					"packet %u: payload of %u bytes exceeds MTU %u",
					idx, p->len, mtu);
		return -EMSGSIZE;
	}
	if (tb[OMWARE_PKT_A_PROTO]) {
		p->proto = nla_get_be16(tb[OMWARE_PKT_A_PROTO]);
		return 0;
	}
	switch (*(const u8 *)p->data >> 4) {
	case 4:
		p->proto = htons(ETH_P_IP);
		return 0;
	case 6:
		p->proto = htons(ETH_P_IPV6);
		return 0;
	}
	NL_SET_ERR_MSG_ATTR_FMT(extack, payload,
				"packet %u: not IPv4 or IPv6, PROTO needed", idx);
	return -EINVAL;
}

/* What one OMWARE_A_PKT asks to send, checked against the device. */
static int omw_nl_pkt_desc(struct net_device *dev, const struct nlattr *pkt,
			   struct nlattr **tb, u32 idx, struct omw_pkt *p,
			   struct netlink_ext_ack *extack)
{
	const struct nlattr *frame = tb[OMWARE_PKT_A_FRAME];
	const struct nlattr *payload = tb[OMWARE_PKT_A_PAYLOAD];

	memset(p, 0, sizeof(*p));
	if (frame && payload) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, payload,
					"packet %u: FRAME and PAYLOAD are exclusive",
					idx);
		return -EINVAL;
	}
	if (frame)
		return omw_nl_frame(dev, frame, tb, idx, p, extack);
	if (payload)
		return omw_nl_payload(dev, pkt, payload, tb, idx, p, extack);
	NL_SET_ERR_MSG_ATTR_FMT(extack, pkt,
				"packet %u: needs a FRAME or a PAYLOAD", idx);
	return -EINVAL;
}

/* Parse one OMWARE_A_PKT and fill frame @f of @e. */
static int omw_nl_pkt(struct omw_session *s, struct omw_entry *e, u32 fi,
		      const struct nlattr *pkt, u32 idx, struct nlattr **tb,
		      struct netlink_ext_ack *extack)
{
	struct sk_buff *skb;
	struct omw_pkt p;
	int err;

	err = omw_nl_build_stop(s, idx, extack);
	if (err)
		return err;
	err = nla_parse_nested(tb, OMWARE_PKT_A_MAX, pkt, omware_pkt_nl_policy,
			       extack);
	if (err)
		return err;
	err = omw_nl_pkt_desc(s->dev, pkt, tb, idx, &p, extack);
	if (err)
		return err;
	skb = omw_build_skb(s->dev, &p);
	if (!skb) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "packet %u: out of memory", idx);
		return -ENOMEM;
	}
	e->f[fi].skb = skb;
	if (tb[OMWARE_PKT_A_COOKIE])
		e->f[fi].cookie = nla_get_u64(tb[OMWARE_PKT_A_COOKIE]);
	e->bytes += skb->truesize;
	e->live++;
	return 0;
}

static void omw_nl_free_batch(struct list_head *batch)
{
	struct omw_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, batch, list) {
		list_del(&e->list);
		omw_entry_free(e);
	}
}

/*
 * The end of a builder: the device first, since an unregistering one waits
 * for it, then the frames never queued (empty once enqueued).  Those hold
 * no reference to the device, and freeing thousands of them can take
 * seconds on a slow machine.
 */
static void omw_nl_done(struct omw_session *s, netdevice_tracker *dt,
			struct list_head *batch)
{
	omw_nl_session_release(s, dt);
	omw_nl_free_batch(batch);
}

int omware_nl_submit_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[OMWARE_PKT_A_MAX + 1];
	struct omw_session *s;
	struct omw_entry *e;
	netdevice_tracker dt;
	struct nlattr *nla;
	LIST_HEAD(batch);
	u64 bytes = 0, now;
	u32 pkts = 0;
	int rem, err;

	s = omw_nl_session_get(skb, info, &dt);
	if (IS_ERR(s))
		return PTR_ERR(s);

	now = omw_now(s);
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != OMWARE_A_PKT)
			continue;
		/* Stop early rather than build what cannot be queued. */
		if (pkts >= s->cfg.max_pkts || bytes > s->cfg.max_bytes) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, nla,
						"packet %u: over the caps of %u packets, %u bytes",
						pkts, s->cfg.max_pkts,
						s->cfg.max_bytes);
			err = -ENOBUFS;
			goto out;
		}
		e = omw_entry_alloc(1);
		if (!e) {
			NL_SET_ERR_MSG_MOD(extack, "out of memory for the packets");
			err = -ENOMEM;
			goto out;
		}
		list_add_tail(&e->list, &batch);
		err = omw_nl_pkt(s, e, 0, nla, pkts, tb, extack);
		if (err)
			goto out;
		if (!tb[OMWARE_PKT_A_TIME]) {
			NL_SET_ERR_ATTR_MISS(extack, nla, OMWARE_PKT_A_TIME);
			NL_SET_ERR_MSG_FMT_MOD(extack,
					       "packet %u has no send time",
					       pkts);
			err = -EINVAL;
			goto out;
		}
		err = omw_nl_check_time(s, tb[OMWARE_PKT_A_TIME], now, extack);
		if (err)
			goto out;
		e->time_ns = nla_get_u64(tb[OMWARE_PKT_A_TIME]);
		/* The caps count the memory pinned until the report. */
		bytes += e->bytes + e->size;
		pkts++;
		cond_resched();
	}
	if (!pkts) {
		NL_SET_ERR_ATTR_MISS(extack, NULL, OMWARE_A_PKT);
		NL_SET_ERR_MSG_MOD(extack, "no packet given");
		err = -EINVAL;
		goto out;
	}
	err = omw_session_enqueue(s, &batch, pkts, bytes, extack);
out:
	omw_nl_done(s, &dt, &batch);
	return err;
}

int omware_nl_train_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[OMWARE_PKT_A_MAX + 1];
	struct omw_entry *e = NULL;
	struct omw_session *s;
	netdevice_tracker dt;
	struct nlattr *nla;
	LIST_HEAD(batch);
	u32 n = 0, i = 0;
	int rem, err;

	s = omw_nl_session_get(skb, info, &dt);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (GENL_REQ_ATTR_CHECK(info, OMWARE_A_TIME)) {
		NL_SET_ERR_MSG_MOD(extack, "a train needs a send time");
		err = -EINVAL;
		goto out;
	}
	err = omw_nl_check_time(s, info->attrs[OMWARE_A_TIME], omw_now(s),
				extack);
	if (err)
		goto out;

	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(nla) == OMWARE_A_PKT;
	if (n < 2 || n > OMW_TRAIN_MAX) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "a train has 2 to %u packets, not %u",
				       OMW_TRAIN_MAX, n);
		err = -EINVAL;
		goto out;
	}

	e = omw_entry_alloc(n);
	if (!e) {
		NL_SET_ERR_MSG_MOD(extack, "out of memory for the train");
		err = -ENOMEM;
		goto out;
	}
	list_add_tail(&e->list, &batch);
	e->time_ns = nla_get_u64(info->attrs[OMWARE_A_TIME]);
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != OMWARE_A_PKT)
			continue;
		err = omw_nl_pkt(s, e, i, nla, i, tb, extack);
		if (err)
			goto out;
		if (tb[OMWARE_PKT_A_TIME]) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, tb[OMWARE_PKT_A_TIME],
						"packet %u: a train's send time is OMWARE_A_TIME",
						i);
			err = -EINVAL;
			goto out;
		}
		i++;
	}
	err = omw_session_enqueue(s, &batch, n, e->bytes + e->size, extack);
out:
	omw_nl_done(s, &dt, &batch);
	return err;
}

int omware_nl_cancel_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct omw_session *s;
	u64 cookie;
	int err = 0;

	mutex_lock(&omw_lock);
	s = omw_nl_session(skb, info, true);
	if (IS_ERR(s)) {
		err = PTR_ERR(s);
		goto out;
	}
	if (GENL_REQ_ATTR_CHECK(info, OMWARE_A_COOKIE)) {
		NL_SET_ERR_MSG_MOD(info->extack, "cookie missing");
		err = -EINVAL;
		goto out;
	}
	cookie = nla_get_u64(info->attrs[OMWARE_A_COOKIE]);
	if (!omw_session_cancel(s, cookie)) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[OMWARE_A_COOKIE],
				    "no pending packet carries this cookie");
		err = -ENOENT;
	}
out:
	mutex_unlock(&omw_lock);
	return err;
}

int omware_nl_flush_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct omw_session *s;
	int err = 0;

	mutex_lock(&omw_lock);
	s = omw_nl_session(skb, info, true);
	if (IS_ERR(s))
		err = PTR_ERR(s);
	else
		omw_session_flush(s);
	mutex_unlock(&omw_lock);
	return err;
}

int omware_nl_session_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct omw_session *s;
	int err = 0;

	mutex_lock(&omw_lock);
	s = omw_nl_session(skb, info, true);
	if (IS_ERR(s))
		err = PTR_ERR(s);
	else
		omw_session_destroy(s, OMW_END_DEL);
	mutex_unlock(&omw_lock);
	return err;
}

/* A cap asked for, which may not exceed the module's. */
static int omw_nl_cap(const struct nlattr *attr, u32 *cap, u32 limit,
		      const char *param, struct netlink_ext_ack *extack)
{
	if (!attr)
		return 0;
	*cap = nla_get_u32(attr);
	if (*cap <= limit)
		return 0;
	NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "above the module limit %s=%u",
				param, limit);
	return -ERANGE;
}

static int omw_nl_cpu(const struct nlattr *attr, s32 *cpu,
		      struct netlink_ext_ack *extack)
{
	u32 v;

	if (!attr)
		return 0;
	v = nla_get_u32(attr);
	if (v >= nr_cpu_ids || !cpu_online(v)) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u is not online", v);
		return -EINVAL;
	}
	*cpu = v;
	return 0;
}

/* SESSION_NEW's settings over their defaults. */
static int omw_nl_session_cfg(struct nlattr **tb, struct omw_session_cfg *cfg,
			      struct netlink_ext_ack *extack)
{
	u32 gmax_pkts = READ_ONCE(omw_max_pkts);
	u32 gmax_bytes = READ_ONCE(omw_max_bytes);
	int err;

	*cfg = (struct omw_session_cfg) {
		.clockid = CLOCK_MONOTONIC,
		.mode = OMWARE_MODE_TIMER,
		.xmit = OMWARE_XMIT_DIRECT,
		.cpu = -1,
		.late_ns = OMW_LATE_NS_DEFAULT,
		.guard_max_ns = OMW_GUARD_MAX_DEFAULT,
		.max_pkts = min(READ_ONCE(omw_sess_pkts), gmax_pkts),
		.max_bytes = min(READ_ONCE(omw_sess_bytes), gmax_bytes),
	};
	if (tb[OMWARE_A_CLOCKID]) {
		err = omw_check_clockid(tb[OMWARE_A_CLOCKID], extack);
		if (err)
			return err;
		cfg->clockid = nla_get_u32(tb[OMWARE_A_CLOCKID]);
	}
	if (tb[OMWARE_A_MODE])
		cfg->mode = nla_get_u8(tb[OMWARE_A_MODE]);
	if (tb[OMWARE_A_XMIT])
		cfg->xmit = nla_get_u8(tb[OMWARE_A_XMIT]);
	if (tb[OMWARE_A_LATE_NS])
		cfg->late_ns = nla_get_u32(tb[OMWARE_A_LATE_NS]);
	if (tb[OMWARE_A_GUARD_MAX_NS])
		cfg->guard_max_ns = nla_get_u32(tb[OMWARE_A_GUARD_MAX_NS]);
	return omw_nl_cpu(tb[OMWARE_A_CPU], &cfg->cpu, extack) ?:
	       omw_nl_cap(tb[OMWARE_A_MAX_PKTS], &cfg->max_pkts, gmax_pkts,
			  "max_pkts", extack) ?:
	       omw_nl_cap(tb[OMWARE_A_MAX_BYTES], &cfg->max_bytes, gmax_bytes,
			  "max_bytes", extack);
}

int omware_nl_session_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct omw_session_cfg cfg;
	struct omw_session *s;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, OMWARE_A_IFINDEX)) {
		NL_SET_ERR_MSG_MOD(extack, "device (ifindex) missing");
		return -EINVAL;
	}
	/* A session belongs to the socket that sent the request. */
	if (WARN_ON_ONCE(!NETLINK_CB(skb).sk))
		return -EOPNOTSUPP;
	err = omw_nl_session_cfg(tb, &cfg, extack);
	if (err)
		return err;

	msg = genlmsg_new(nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG_MOD(extack, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &omw_family, 0,
				OMWARE_CMD_SESSION_NEW);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_msg;
	}

	mutex_lock(&omw_lock);
	s = omw_session_create(genl_info_net(info), NETLINK_CB(skb).sk,
			       info->snd_portid, nla_get_u32(tb[OMWARE_A_IFINDEX]),
			       tb[OMWARE_A_IFINDEX], &cfg, extack);
	if (IS_ERR(s)) {
		mutex_unlock(&omw_lock);
		err = PTR_ERR(s);
		goto err_msg;
	}
	err = nla_put_u32(msg, OMWARE_A_SESSION_ID, s->id);
	if (err)
		omw_session_destroy(s, OMW_END_DEL);
	mutex_unlock(&omw_lock);
	if (err)
		goto err_msg;

	/*
	 * Should the reply not fit in the socket, the session still exists;
	 * a dump finds it, and closing the socket frees it.
	 */
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_msg:
	if (err == -EMSGSIZE)
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
	nlmsg_free(msg);
	return err;
}

static int omw_nl_put_stats(struct sk_buff *msg, const struct omw_stats *st)
{
	u64 v[OMW_STAT_NUM];
	struct nlattr *nest;
	int i;

	omw_stats_read(st, v);
	nest = nla_nest_start(msg, OMWARE_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < OMW_STAT_NUM; i++) {
		if (nla_put_u64_64bit(msg, OMWARE_STATS_A_SUBMITTED + i, v[i],
				      OMWARE_STATS_A_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int omw_nl_put_guard(struct sk_buff *msg,
			    const struct omw_session_state *st)
{
	if (nla_put_u64_64bit(msg, OMWARE_A_GUARD_WAKEUPS, st->guard_wakeups,
			      OMWARE_A_PAD) ||
	    nla_put_u64_64bit(msg, OMWARE_A_GUARD_MISSES, st->guard_misses,
			      OMWARE_A_PAD) ||
	    nla_put_u32(msg, OMWARE_A_GUARD_QUANTILE_NS, st->guard_quantile_ns))
		return -EMSGSIZE;
	return 0;
}

/* Every device name fits the spec's OMWARE_A_IFNAME. */
static_assert(OMWARE_NAME_MAX_LEN + 1 == IFNAMSIZ);

static int omw_nl_fill_session(struct sk_buff *msg, struct omw_session *s)
{
	const struct omw_session_cfg *c = &s->cfg;
	struct omw_session_state st;
	char ifname[IFNAMSIZ];

	omw_session_state(s, &st);
	/* A rename may race with us; the copy is still terminated. */
	strscpy(ifname, s->dev->name);

	if (nla_put_u32(msg, OMWARE_A_SESSION_ID, s->id) ||
	    nla_put_u32(msg, OMWARE_A_IFINDEX, s->dev->ifindex) ||
	    nla_put_string(msg, OMWARE_A_IFNAME, ifname) ||
	    nla_put_u32(msg, OMWARE_A_CLOCKID, c->clockid) ||
	    nla_put_u8(msg, OMWARE_A_MODE, c->mode) ||
	    nla_put_u8(msg, OMWARE_A_XMIT, c->xmit) ||
	    (c->cpu >= 0 && nla_put_u32(msg, OMWARE_A_CPU, c->cpu)) ||
	    nla_put_u32(msg, OMWARE_A_LATE_NS, c->late_ns) ||
	    nla_put_u32(msg, OMWARE_A_GUARD_MAX_NS, c->guard_max_ns) ||
	    nla_put_u64_64bit(msg, OMWARE_A_GUARD_NS, st.guard_ns,
			      OMWARE_A_PAD) ||
	    nla_put_u32(msg, OMWARE_A_MAX_PKTS, c->max_pkts) ||
	    nla_put_u32(msg, OMWARE_A_MAX_BYTES, c->max_bytes) ||
	    nla_put_u32(msg, OMWARE_A_OWNER_PORTID, s->portid) ||
	    nla_put_u32(msg, OMWARE_A_PENDING_PKTS, st.pend_pkts) ||
	    nla_put_u64_64bit(msg, OMWARE_A_PENDING_BYTES, st.pend_bytes,
			      OMWARE_A_PAD) ||
	    (c->mode == OMWARE_MODE_HYBRID && omw_nl_put_guard(msg, &st)))
		return -EMSGSIZE;
	return omw_nl_put_stats(msg, &s->stats);
}

int omware_nl_session_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct omw_session *s;
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG_MOD(info->extack, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &omw_family, 0,
				OMWARE_CMD_SESSION_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_msg;
	}

	mutex_lock(&omw_lock);
	s = omw_nl_session(skb, info, false);
	err = IS_ERR(s) ? PTR_ERR(s) : omw_nl_fill_session(msg, s);
	mutex_unlock(&omw_lock);
	if (err)
		goto err_msg;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_msg:
	if (err == -EMSGSIZE)
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
	nlmsg_free(msg);
	return err;
}

int omware_nl_session_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	u32 id = cb->args[0] ? : 1;
	struct omw_session *s;
	void *hdr;

	mutex_lock(&omw_lock);
	while ((s = omw_session_next(net, &id))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &omw_family, NLM_F_MULTI,
				  OMWARE_CMD_SESSION_GET);
		if (!hdr)
			break;
		if (omw_nl_fill_session(skb, s)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		id++;
	}
	mutex_unlock(&omw_lock);
	cb->args[0] = id;
	return skb->len;
}

/*
 * The caller's namespace only: its sessions' counters and pending totals.
 * The caps are module-wide settings, readable by anyone.
 */
int omware_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct sk_buff *msg;
	u64 pend_bytes;
	u32 pend_pkts;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG_MOD(info->extack, "out of memory for the reply");
		return -ENOMEM;
	}
	mutex_lock(&omw_lock);
	omw_net_pending(net, &pend_pkts, &pend_bytes);
	mutex_unlock(&omw_lock);
	hdr = genlmsg_put_reply(msg, info, &omw_family, 0,
				OMWARE_CMD_STATS_GET);
	if (!hdr ||
	    omw_nl_put_stats(msg, &omw_net(net)->stats) ||
	    nla_put_u32(msg, OMWARE_A_PENDING_PKTS, pend_pkts) ||
	    nla_put_u64_64bit(msg, OMWARE_A_PENDING_BYTES, pend_bytes,
			      OMWARE_A_PAD) ||
	    nla_put_u32(msg, OMWARE_A_MAX_PKTS, READ_ONCE(omw_max_pkts)) ||
	    nla_put_u32(msg, OMWARE_A_MAX_BYTES, READ_ONCE(omw_max_bytes))) {
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int omw_nl_put_report(struct sk_buff *msg, const struct omw_entry *e,
			     const struct omw_frame *f)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, OMWARE_A_REPORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, OMWARE_REPORT_A_COOKIE, f->cookie,
			      OMWARE_REPORT_A_PAD) ||
	    nla_put_u64_64bit(msg, OMWARE_REPORT_A_SCHED_NS, e->time_ns,
			      OMWARE_REPORT_A_PAD) ||
	    nla_put_u64_64bit(msg, OMWARE_REPORT_A_SENT_NS, f->sent_ns,
			      OMWARE_REPORT_A_PAD) ||
	    (f->sent_ns &&
	     nla_put_s64(msg, OMWARE_REPORT_A_LATE_NS,
			 (s64)(f->sent_ns - e->time_ns),
			 OMWARE_REPORT_A_PAD)) ||
	    nla_put_u8(msg, OMWARE_REPORT_A_STATUS, f->status) ||
	    nla_put_s32(msg, OMWARE_REPORT_A_RC, f->rc)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * Reports share the owner's socket with the replies to its requests (acks
 * of SUBMIT, ...), which netlink drops when the receive buffer is full.  So
 * reports may only fill half of it; an empty queue always takes one message
 * so that tiny buffers still get reports.
 */
static bool omw_nl_owner_has_room(const struct omw_session *s)
{
	const struct sock *sk = s->owner;
	int rmem = atomic_read(&sk->sk_rmem_alloc);

	return !rmem || rmem + SKB_TRUESIZE(NLMSG_GOODSIZE) <=
			READ_ONCE(sk->sk_rcvbuf) / 2;
}

/*
 * After a message: free the fully reported entries before @stop, release
 * their charge, and note how far @stop got.
 */
static void omw_nl_report_commit(struct omw_session *s,
				 struct list_head *list,
				 struct omw_entry *stop, u32 reported)
{
	struct omw_entry *e;
	u64 bytes = 0;
	u32 pkts = 0;

	while (!list_empty(list)) {
		e = list_first_entry(list, struct omw_entry, list);
		if (e == stop) {
			e->reported = reported;
			break;
		}
		list_del(&e->list);
		pkts += e->nframes;
		bytes += e->size;
		omw_entry_free(e);
	}
	omw_session_uncharge(s, pkts, bytes);
}

/*
 * Deliver the reports of the entries on @list to the session owner, as
 * many per message as fit.  Delivered entries are freed; on error the rest
 * stays on @list (a partly reported train remembers how far it got) and
 * the error is returned: -EAGAIN when the owner's socket is (half) full,
 * -ECONNREFUSED when the owner is gone.  Process context.
 */
int omw_nl_report(struct omw_session *s, struct list_head *list,
		  u32 *delivered)
{
	struct omw_entry *stop;
	struct sk_buff *msg;
	u32 i, n;
	void *hdr;
	int err;

	while (!list_empty(list)) {
		/*
		 * Checked for every message: once the owner is closed, its
		 * port id may belong to another socket.
		 */
		if (sock_flag(s->owner, SOCK_DEAD))
			return -ECONNREFUSED;
		if (!omw_nl_owner_has_room(s))
			return -EAGAIN;
		msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
		if (!msg)
			return -ENOMEM;
		hdr = genlmsg_put(msg, 0, 0, &omw_family, 0,
				  OMWARE_CMD_REPORT);
		if (!hdr || nla_put_u32(msg, OMWARE_A_SESSION_ID, s->id)) {
			nlmsg_free(msg);
			return -EMSGSIZE;
		}

		/* Fill; (stop, i) is the first report left out. */
		n = 0;
		stop = list_first_entry(list, struct omw_entry, list);
		i = stop->reported;
		while (!list_entry_is_head(stop, list, list)) {
			if (i == stop->nframes) {
				stop = list_next_entry(stop, list);
				if (!list_entry_is_head(stop, list, list))
					i = stop->reported;
				continue;
			}
			if (omw_nl_put_report(msg, stop, &stop->f[i]))
				break;
			i++;
			n++;
		}
		if (WARN_ON_ONCE(!n)) {
			nlmsg_free(msg);
			return -EMSGSIZE;
		}
		genlmsg_end(msg, hdr);

		err = genlmsg_unicast(s->net, msg, s->portid);
		if (err)
			return err;
		*delivered += n;

		omw_nl_report_commit(s, list, stop, i);
	}
	return 0;
}

/* omw_lock serialises the handlers; no need for genl_mutex. */
static struct genl_family omw_family =
	TW_GENL_FAMILY(OMWARE_FAMILY_NAME, OMWARE_FAMILY_VERSION);

int omw_nl_init(void)
{
	return tw_genl_register(&omw_family, omware_nl_ops);
}

void omw_nl_exit(void)
{
	tw_genl_unregister(&omw_family);
}
