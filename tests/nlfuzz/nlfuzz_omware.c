// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_omware.c - valid omware traffic for the netlink fuzzer: an owner
 * socket with two sessions on the test veth, frames due within
 * milliseconds and frames parked far ahead, and every command of the
 * family aimed at them.  The requests come from the omware tests' own
 * builders, so the fuzzer mutates what a real client sends.
 */
/* struct ucred, which libnl-tiny's headers use */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "nlfuzz.h"
#include "twt_omware.h"

#define SESSIONS	2
#define PARKED		4
#define SOON_MAX_MS	50

struct omw_conn {
	struct topo t;
	struct omw_ctx c;
	uint32_t sids[SESSIONS];
	int nsids;
};

/* The requests build_req() knows, aimed at c.victim. */
static const struct req common_reqs[] = {
	REQ_SUBMIT, REQ_TRAIN, REQ_CANCEL, REQ_FLUSH, REQ_SESSION_GET,
	REQ_STATS_GET,
};
static const struct req del_req = REQ_SESSION_DEL;
static const struct req new_req = REQ_SESSION_NEW;

/* Frames due within milliseconds, so sends race the other requests. */
static struct nl_msg *soon_submit(const struct omw_ctx *c)
{
	struct nl_msg *m = twt_msg(&c->o->s, OMWARE_CMD_SUBMIT, 0, TWT_RAW_MAX);
	uint8_t frame[FRAME_MAX];
	int i, len, n = 1 + rnd() % 4;

	nla_put_u32(m, OMWARE_A_SESSION_ID, c->victim);
	for (i = 0; i < n; i++) {
		struct nlattr *p = nla_nest_start(m, OMWARE_A_PKT |
						     NLA_F_NESTED);

		len = make_frame(frame, FRAME_MIN_TAGGED + rnd() % 200,
				 c->t->peer_mac, c->t->mac, 0, i);
		nla_put_u64(m, OMWARE_PKT_A_TIME,
			    mono() + (1 + rnd() % SOON_MAX_MS) * NSEC_PER_MSEC);
		nla_put_u64(m, OMWARE_PKT_A_COOKIE, rnd());
		nla_put(m, OMWARE_PKT_A_FRAME, len, frame);
		nla_nest_end(m, p);
	}
	return m;
}

static int park_traffic(struct omw_conn *k, uint32_t sid)
{
	struct batch soon = park_at(&k->t, PARKED, mono() + NSEC_PER_MSEC,
				    NULL);
	struct batch far = park(&k->c, PARKED, NULL);
	int err = submit_all(k->c.o, sid, &soon, NULL);

	if (!err)
		err = submit_all(k->c.o, sid, &far, NULL);
	batch_free(&soon);
	batch_free(&far);
	return err;
}

static void omw_stop(void *conn)
{
	struct omw_conn *k = conn;

	ow_close(k->c.o);
	free(k);
}

static void *omw_start(const struct topo *t)
{
	struct omw_conn *k = xcalloc(1, sizeof(*k));
	struct sopts so = { .ifindex = t->ifindex, .has_xmit = true };
	int i;

	k->t = *t;
	k->c.t = &k->t;
	k->c.o = ow_open();
	for (i = 0; i < SESSIONS; i++) {
		so.xmit = i % 2 ? OMWARE_XMIT_QDISC : OMWARE_XMIT_DIRECT;
		if (session_new(k->c.o, &so, &k->sids[i], NULL) ||
		    park_traffic(k, k->sids[i])) {
			omw_stop(k);
			return NULL;
		}
		k->nsids++;
	}
	return k;
}

static int omw_fd(void *conn)
{
	return ((struct omw_conn *)conn)->c.o->s.fd;
}

static int omw_valid(void *conn, struct twt_raw *m)
{
	struct omw_conn *k = conn;
	struct omw_ctx c = k->c;
	const struct req *r;
	struct nl_msg *nm;
	unsigned int pick = rnd() % 20;
	char why[128];

	c.victim = k->sids[rnd() % k->nsids];
	if (pick < 4)
		return twt_raw_from(m, soon_submit(&c));
	if (pick < 6)
		return twt_raw_from(m, twt_msg(&k->c.o->s,
					       OMWARE_CMD_SESSION_GET,
					       NLM_F_DUMP, TWT_RAW_MAX));
	if (pick == 6)
		r = &del_req;
	else if (pick == 7)
		r = &new_req;
	else
		r = &common_reqs[rnd() % ARRAY_SIZE(common_reqs)];
	if (build_req(&c, r, &nm, NULL, why, sizeof(why)))
		return -1;
	return twt_raw_from(m, nm);
}

static int omw_ids(void *conn, uint32_t *ids, int max)
{
	struct omw_conn *k = conn;
	int i;

	for (i = 0; i < k->nsids && i < max; i++)
		ids[i] = k->sids[i];
	return i;
}

static int omw_pending(uint32_t id, uint64_t *pkts)
{
	struct ow *o = ow_open();
	struct info in;
	int err = session_get(o, id, &in, NULL);

	ow_close(o);
	if (!err && !in.has[OMWARE_A_PENDING_PKTS])
		err = -EPROTO;
	*pkts = err ? 0 : in.v[OMWARE_A_PENDING_PKTS];
	return err;
}

static int omw_census(struct nlf_census *cs)
{
	struct ow *o = ow_open();
	struct dump d;
	struct info in;
	int err = session_dump(o, &d);

	memset(cs, 0, sizeof(*cs));
	cs->objects = d.n;
	free(d.v);
	if (!err)
		err = stats_get(o, &in);
	if (!err && (!in.has[OMWARE_A_PENDING_PKTS] ||
		     !in.has[OMWARE_A_PENDING_BYTES]))
		err = -EPROTO;
	if (!err) {
		cs->pending_pkts = in.v[OMWARE_A_PENDING_PKTS];
		cs->pending_bytes = in.v[OMWARE_A_PENDING_BYTES];
	}
	ow_close(o);
	return err;
}

const struct nlf_recipe nlf_omware = {
	.family = OMWARE_FAMILY_NAME,
	.module = "omware",
	.start = omw_start,
	.fd = omw_fd,
	.valid = omw_valid,
	.ids = omw_ids,
	.stop = omw_stop,
	.pending = omw_pending,
	.census = omw_census,
};
