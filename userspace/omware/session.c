// SPDX-License-Identifier: GPL-2.0
/*
 * The omware session engine (see session.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "attrs.h"
#include "lib/clock.h"
#include "lib/stop.h"
#include "lib/util.h"
#include "session.h"

/* Submit messages are cut to this size unless the caller says otherwise. */
#define BATCH_BYTES		65536
/* Every packet owes a report: room for a burst of them. */
#define RCVBUF_BYTES		(32 << 20)
#define SNDBUF_BYTES		(4 << 20)
#define WAIT_SLICE_MS		1000

const struct tw_family_desc omware_family = {
	.module = "omware",
	.family = OMWARE_FAMILY_NAME,
	.version = OMWARE_FAMILY_VERSION,
	.attrs = &omware_attr_set,
};

/* Explain a failure: nl for a request's, NULL for one of our own. */
static int say_failed(struct om_session *s, struct tw_nl *nl, int err,
		      const char *what)
{
	tw_nl_strerror(nl, err, what, s->err, sizeof(s->err));
	if (!s->quiet)
		tw_err("%s", s->err);
	return nl && nl->kernel_err ? TW_EXIT_FAIL : TW_EXIT_SYS;
}

static int no_room(struct om_session *s)
{
	return say_failed(s, NULL, -EMSGSIZE, "cannot build a message");
}

int om_parse(struct nlmsghdr *nlh, struct nlattr **tb)
{
	if (genlmsg_parse(nlh, 0, tb, OMWARE_A_MAX, omware_attr_policy))
		return -EPROTO;
	return 0;
}

/* Take one report nest into the run. */
static void take_report(struct om_session *s, struct nlattr *a)
{
	struct nlattr *tb[OMWARE_REPORT_A_MAX + 1];
	struct om_report *r;
	uint64_t cookie;

	if (nla_parse_nested(tb, OMWARE_REPORT_A_MAX, a,
			     omware_report_policy) ||
	    !tb[OMWARE_REPORT_A_COOKIE] || !tb[OMWARE_REPORT_A_STATUS]) {
		s->strays++;
		return;
	}
	cookie = nla_get_u64(tb[OMWARE_REPORT_A_COOKIE]);
	if (cookie >= s->n) {
		s->strays++;
		return;
	}
	r = &s->rep[cookie];
	if (r->have) {
		s->dups++;
		return;
	}
	r->have = true;
	s->got++;
	r->status = nla_get_u8(tb[OMWARE_REPORT_A_STATUS]);
	if (tb[OMWARE_REPORT_A_SCHED_NS])
		r->sched_ns = nla_get_u64(tb[OMWARE_REPORT_A_SCHED_NS]);
	if (tb[OMWARE_REPORT_A_SENT_NS])
		r->sent_ns = nla_get_u64(tb[OMWARE_REPORT_A_SENT_NS]);
	if (tb[OMWARE_REPORT_A_LATE_NS])
		r->late_ns = (int64_t)nla_get_u64(tb[OMWARE_REPORT_A_LATE_NS]);
	else if (r->sent_ns)
		r->late_ns = (int64_t)(r->sent_ns - r->sched_ns);
	if (tb[OMWARE_REPORT_A_RC])
		r->rc = (int32_t)nla_get_u32(tb[OMWARE_REPORT_A_RC]);
}

static int report_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct om_session *s = arg;
	struct nlattr *a;
	int rem;

	/* Reports may trail the session's deletion: match the id only. */
	if (!s->rep || om_parse(nlh, tb) ||
	    !tb[OMWARE_A_SESSION_ID] ||
	    nla_get_u32(tb[OMWARE_A_SESSION_ID]) != s->id)
		return 0;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem)
		if (nla_type(a) == OMWARE_A_REPORT)
			take_report(s, a);
	return 0;
}

int om_connect(struct om_session *s)
{
	int ret = tw_family_connect(&s->nl, &omware_family);

	if (ret)
		return ret;
	tw_nl_set_rcvbuf(&s->nl, RCVBUF_BYTES);
	tw_nl_set_sndbuf(&s->nl, SNDBUF_BYTES);
	s->nl.notify_cmd = OMWARE_CMD_REPORT;
	s->nl.notify = report_cb;
	s->nl.notify_arg = s;
	return TW_EXIT_OK;
}

int om_run_init(struct om_session *s, const struct tw_pkt_spec *spec,
		size_t n)
{
	free(s->rep);
	free(s->buf);
	s->spec = *spec;
	s->n = n;
	s->submitted = s->got = s->dups = s->strays = 0;
	s->rep = calloc(n ? n : 1, sizeof(*s->rep));
	s->buf = malloc(tw_pkt_len(spec));
	if (!s->rep || !s->buf)
		return say_failed(s, NULL, -ENOMEM, "cannot plan the run");
	return TW_EXIT_OK;
}

struct nl_msg *om_msg(struct om_session *s, uint8_t cmd, size_t size)
{
	struct nl_msg *msg = tw_nl_new(&s->nl, cmd, 0, size);

	if (msg && nla_put_u32(msg, OMWARE_A_SESSION_ID, s->id) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

int om_request(struct om_session *s, struct nl_msg *msg,
	       tw_nl_handler_t reply, void *arg, const char *what)
{
	int ret;

	if (!msg)
		return no_room(s);
	ret = tw_nl_request(&s->nl, msg, reply, arg);
	return ret ? say_failed(s, &s->nl, ret, what) : TW_EXIT_OK;
}

static int session_id_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];
	uint32_t *id = arg;

	if (om_parse(nlh, tb) || !tb[OMWARE_A_SESSION_ID])
		return -EPROTO;
	*id = nla_get_u32(tb[OMWARE_A_SESSION_ID]);
	return 0;
}

/* Put the optional u32 attribute type when bit is set; false: no room. */
static bool put_opt(struct nl_msg *msg, const struct om_session_cfg *cfg,
		    unsigned int bit, int type, uint32_t val)
{
	return !(cfg->set & bit) || nla_put_u32(msg, type, val) >= 0;
}

int om_session_create(struct om_session *s, const struct om_session_cfg *cfg)
{
	struct nl_msg *msg = tw_nl_new(&s->nl, OMWARE_CMD_SESSION_NEW, 0, 0);
	int ret;

	if (msg &&
	    (nla_put_u32(msg, OMWARE_A_IFINDEX, cfg->ifindex) < 0 ||
	     nla_put_u32(msg, OMWARE_A_CLOCKID, cfg->clock) < 0 ||
	     nla_put_u8(msg, OMWARE_A_MODE, cfg->mode) < 0 ||
	     nla_put_u8(msg, OMWARE_A_XMIT, cfg->xmit) < 0 ||
	     !put_opt(msg, cfg, OM_SET_CPU, OMWARE_A_CPU, cfg->cpu) ||
	     !put_opt(msg, cfg, OM_SET_LATE, OMWARE_A_LATE_NS, cfg->late_ns) ||
	     !put_opt(msg, cfg, OM_SET_GUARD_MAX, OMWARE_A_GUARD_MAX_NS,
		      cfg->guard_max_ns) ||
	     !put_opt(msg, cfg, OM_SET_MAX_PKTS, OMWARE_A_MAX_PKTS,
		      cfg->max_pkts) ||
	     !put_opt(msg, cfg, OM_SET_MAX_BYTES, OMWARE_A_MAX_BYTES,
		      cfg->max_bytes))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	ret = om_request(s, msg, session_id_cb, &s->id,
			 "cannot create a session");
	if (ret)
		return ret;
	s->live = true;
	s->clock = cfg->clock;
	s->late_ns = cfg->set & OM_SET_LATE ? cfg->late_ns :
		     OMWARE_LATE_NS_DEFAULT;
	memset(s->stats, 0, sizeof(s->stats));
	s->guard_ns = 0;
	s->guard_misses = 0;
	return TW_EXIT_OK;
}

static int session_get_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[OMWARE_A_MAX + 1];
	struct nlattr *st[OMWARE_STATS_A_MAX + 1];
	struct om_session *s = arg;
	int i;

	if (om_parse(nlh, tb))
		return 0;
	if (tb[OMWARE_A_LATE_NS])
		s->late_ns = nla_get_u32(tb[OMWARE_A_LATE_NS]);
	if (tb[OMWARE_A_GUARD_NS])
		s->guard_ns = nla_get_u64(tb[OMWARE_A_GUARD_NS]);
	if (tb[OMWARE_A_GUARD_MISSES])
		s->guard_misses = nla_get_u64(tb[OMWARE_A_GUARD_MISSES]);
	if (!tb[OMWARE_A_STATS] ||
	    nla_parse_nested(st, OMWARE_STATS_A_MAX, tb[OMWARE_A_STATS],
			     omware_stats_policy))
		return 0;
	for (i = 0; i <= OMWARE_STATS_A_MAX; i++) {
		s->stats_has[i] = st[i] && omware_stats_keys[i];
		if (s->stats_has[i])
			s->stats[i] = nla_get_u64(st[i]);
	}
	return 0;
}

void om_session_get(struct om_session *s)
{
	struct nl_msg *msg = om_msg(s, OMWARE_CMD_SESSION_GET, 0);

	if (msg)
		tw_nl_request(&s->nl, msg, session_get_cb, s);
}

void om_session_delete(struct om_session *s)
{
	struct nl_msg *msg;
	int ret;

	if (!s->live)
		return;
	s->live = false;
	msg = om_msg(s, OMWARE_CMD_SESSION_DEL, 0);
	if (!msg)
		return;
	ret = tw_nl_request(&s->nl, msg, NULL, NULL);
	/* Closing the socket destroys the session anyway. */
	if (ret && ret != -ENOENT)
		say_failed(s, &s->nl, ret, "cannot delete the session");
}

/* Netlink bytes one packet takes in a submit or train message. */
static size_t pkt_attr_size(const struct om_session *s)
{
	size_t sz = nla_total_size(0) + 2 * nla_total_size(8) +
		    nla_total_size(tw_pkt_len(&s->spec));

	if (!s->spec.frame)
		sz += nla_total_size(6);
	return sz;
}

static size_t msg_overhead(void)
{
	/* Headers, session id, train time, and libnl's own slack. */
	return NLMSG_HDRLEN + GENL_HDRLEN + nla_total_size(4) +
	       nla_total_size(8) + 64;
}

size_t om_batch_default(const struct om_session *s)
{
	size_t batch = (BATCH_BYTES - msg_overhead()) / pkt_attr_size(s);

	return batch ? batch : 1;
}

/* Add packet i as a probe with flags; timed: with its own send time. */
static int put_pkt(struct om_session *s, struct nl_msg *msg, size_t i,
		   uint32_t flags, bool timed)
{
	struct tw_probe probe = {
		.seq = i,
		.sched_ns = s->rep[i].sched_ns,
		.flags = flags,
	};
	size_t len = tw_pkt_len(&s->spec);
	struct nlattr *nest;

	if (s->build)
		s->build(s->build_arg, i, probe.sched_ns, s->buf);
	else
		tw_pkt_build(&s->spec, &probe, s->buf);
	nest = nla_nest_start(msg, OMWARE_A_PKT);
	if (!nest || nla_put_u64(msg, OMWARE_PKT_A_COOKIE, i) < 0 ||
	    (timed &&
	     nla_put_u64(msg, OMWARE_PKT_A_TIME, probe.sched_ns) < 0))
		return -EMSGSIZE;
	if (s->spec.frame) {
		if (nla_put(msg, OMWARE_PKT_A_FRAME, len, s->buf) < 0)
			return -EMSGSIZE;
	} else if (nla_put(msg, OMWARE_PKT_A_PAYLOAD, len, s->buf) < 0 ||
		   nla_put(msg, OMWARE_PKT_A_DST_MAC, 6, s->spec.dst_mac) < 0) {
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

int om_submit(struct om_session *s, size_t first, size_t end)
{
	struct nl_msg *msg;
	char what[96];
	size_t i;
	int ret;

	msg = om_msg(s, OMWARE_CMD_SUBMIT,
		     msg_overhead() + (end - first) * pkt_attr_size(s));
	for (i = first; msg && i < end; i++) {
		if (put_pkt(s, msg, i, 0, true)) {
			nlmsg_free(msg);
			msg = NULL;
		}
	}
	snprintf(what, sizeof(what), "cannot submit packets %zu to %zu", first,
		 end - 1);
	ret = om_request(s, msg, NULL, NULL, what);
	if (!ret)
		s->submitted = end;
	return ret;
}

int om_submit_all(struct om_session *s, size_t batch)
{
	size_t end;
	int ret;

	while (s->submitted < s->n && !tw_stop) {
		end = s->submitted + batch < s->n ? s->submitted + batch : s->n;
		ret = om_submit(s, s->submitted, end);
		if (ret)
			return ret;
	}
	return TW_EXIT_OK;
}

int om_submit_train(struct om_session *s, size_t first, size_t count,
		    uint64_t when)
{
	struct nl_msg *msg;
	char what[64];
	size_t k;
	int ret;

	msg = om_msg(s, OMWARE_CMD_TRAIN,
		     msg_overhead() + count * pkt_attr_size(s));
	if (msg && nla_put_u64(msg, OMWARE_A_TIME, when) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	for (k = 0; msg && k < count; k++) {
		s->rep[first + k].sched_ns = when;
		if (put_pkt(s, msg, first + k, tw_probe_train_flags(k),
			    false)) {
			nlmsg_free(msg);
			msg = NULL;
		}
	}
	snprintf(what, sizeof(what), "cannot submit train %zu", first / count);
	ret = om_request(s, msg, NULL, NULL, what);
	if (!ret)
		s->submitted = first + count;
	return ret;
}

void om_collect(struct om_session *s, uint64_t deadline)
{
	uint64_t now;
	int64_t left;
	int ret;

	while (s->got < s->submitted && !tw_stop) {
		now = tw_now_ns(s->clock);
		if (now >= deadline)
			break;
		left = (deadline - now) / TW_NSEC_PER_MSEC + 1;
		ret = tw_nl_wait(&s->nl, left > WAIT_SLICE_MS ?
				 WAIT_SLICE_MS : (int)left);
		if (ret < 0 && ret != -EINTR) {
			say_failed(s, NULL, ret, "cannot receive reports");
			break;
		}
	}
}

void om_finish(struct om_session *s, unsigned int grace_ms)
{
	uint64_t deadline;

	om_session_delete(s);
	deadline = tw_now_ns(s->clock) + grace_ms * TW_NSEC_PER_MSEC;
	while (s->got < s->submitted && tw_now_ns(s->clock) < deadline)
		if (tw_nl_wait(&s->nl, 100) < 0)
			break;
}

void om_close(struct om_session *s)
{
	if (s->nl.sk) {
		om_session_delete(s);
		tw_nl_close(&s->nl);
	}
	free(s->rep);
	free(s->buf);
	s->rep = NULL;
	s->buf = NULL;
}
