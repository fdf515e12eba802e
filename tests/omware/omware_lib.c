// SPDX-License-Identifier: GPL-2.0
/*
 * omware_lib.c - what the omware guest tests share beyond the family's
 * client (tests/lib/twt_omware.c): the checks of reports and deliveries,
 * the environment every test program runs in, and what a refused request
 * must leave unchanged.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omware_lib.h"

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

int omw_ctx_open(struct omw_ctx *c)
{
	struct sopts so;
	struct batch b;
	int err;

	memset(c, 0, sizeof(*c));
	c->t = &omw_env.t;
	c->other_ns_ifindex = omw_env.other_ns_ifindex;
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
		diag("state query failed: %s", twt_errname(after.err));
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
		  const struct twt_ack *a, int want)
{
	int bad = 0;

	if (a->err != -want) {
		diag("got %s, expected -%d", twt_errname(a->err), want);
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
