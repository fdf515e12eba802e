// SPDX-License-Identifier: GPL-2.0
/*
 * omware_ctl.c - the omware client the shell tests drive (concurrency.sh,
 * lifecycle.sh through lib.sh).  Not a test itself.
 *
 *   omware_ctl stream --dev D --peer-ns NS --peer-dev P [--count N]
 *                     [--mode timer|hybrid]
 *       one session on an existing veth: submit N frames, check delivery
 *       and reports; exit 0 on success, 1 on failure
 *   omware_ctl hold --dev D [--count N] [--ahead-ms MS]
 *       create a session, queue N packets MS ahead, print "ready <id>",
 *       then sleep until killed
 *   omware_ctl state [-v]
 *       print "sessions <n> pending <pkts> ..." for the caller's netns
 *
 * Exit codes follow kselftest: 0 pass, 1 fail, 4 skip (no module).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omware_lib.h"

struct args {
	const char *cmd, *dev, *ns, *peer;
	int count, mode;
	unsigned int ahead_ms;
	bool verbose;
};

/* The socket, or NULL when the family is not registered. */
static struct ow *open_family(void)
{
	if (omw_family() <= 0) {
		diag("family %s not registered", OMWARE_FAMILY_NAME);
		return NULL;
	}
	return ow_open();
}

/* Check what came back of @b; returns the number of problems. */
static int stream_checks(struct ow *o, struct topo *t, uint32_t sid,
			 const struct batch *b, uint64_t spacing)
{
	struct rxframe *f = xcalloc(b->n + 8, sizeof(*f));
	struct report *r;
	int got, bad = 0;
	size_t nr;

	got = rx_collect(t, b->tag, f, b->n, b->n + 8,
			 (int)(b->n * spacing / NSEC_PER_MSEC) + 30000, 300);
	nr = wait_reports(o, sid, b->n, 30000, 300);
	take_reports(o, sid, &r);
	bad += check_reports(b, r, nr, OMWARE_STATUS_SENT, true);
	bad += check_sent_order(b, r, nr);
	bad += check_delivery(b, f, got);
	if (o->bad_reports) {
		diag("%s: %u malformed report attributes", t->dev,
		     o->bad_reports);
		bad++;
	}
	diag("%s on cpu %d: %d frames, %d received, %zu reports", t->dev,
	     sched_getcpu(), b->n, got, nr);
	free(r);
	free(f);
	return bad;
}

/* One session on an existing veth; check delivery and reports. */
static int cmd_stream(const struct args *ar)
{
	const uint64_t spacing = 200000;
	struct sopts so = { 0 };
	struct topo t;
	struct batch b;
	struct twt_ack a;
	struct ow *o;
	uint32_t sid;
	uint64_t t0;
	int i, err, bad = 0;

	if (!ar->ns || !ar->peer || ar->count <= 0 || ar->count > 100000) {
		fprintf(stderr, "stream needs --dev, --peer-ns, --peer-dev\n");
		return KSFT_FAIL;
	}
	if (topo_attach(&t, ar->dev, ar->ns, ar->peer))
		return KSFT_FAIL;
	o = open_family();
	if (!o)
		return KSFT_SKIP;
	so.ifindex = t.ifindex;
	so.has_mode = true;
	so.mode = ar->mode;
	so.max_pkts = ar->count;
	err = session_new(o, &so, &sid, &a);
	if (err) {
		diag("%s: SESSION_NEW: %s %s", ar->dev, twt_errname(err), a.msg);
		return KSFT_FAIL;
	}
	rnd_mix(t.ifindex);
	batch_init(&b, ar->count);
	t0 = mono() + 200 * NSEC_PER_MSEC;
	for (i = 0; i < ar->count; i++)
		add_frame(&b, FRAME_MIN_TAGGED + rnd() % (FRAME_MAX -
			  FRAME_MIN_TAGGED + 1), t.peer_mac, t.mac,
			  t0 + i * spacing);
	err = submit_all(o, sid, &b, NULL);
	if (err) {
		diag("%s: SUBMIT: %s", ar->dev, twt_errname(err));
		bad++;
	}
	bad += stream_checks(o, &t, sid, &b, spacing);
	err = session_del(o, sid);
	if (err) {
		diag("%s: SESSION_DEL: %s", ar->dev, twt_errname(err));
		bad++;
	}
	diag("%s: %d problems", ar->dev, bad);
	batch_free(&b);
	ow_close(o);
	topo_del(&t);
	return bad ? KSFT_FAIL : KSFT_PASS;
}

/* Create a session, queue packets far ahead, then wait forever. */
static int cmd_hold(const struct args *ar)
{
	struct sopts so = { 0 };
	struct topo t;
	struct batch b;
	struct twt_ack a;
	uint32_t sid;
	struct ow *o;
	int err;

	if (topo_attach(&t, ar->dev, NULL, NULL))
		return KSFT_FAIL;
	memset(t.peer_mac, 0xff, ETH_ALEN);
	o = open_family();
	if (!o)
		return KSFT_SKIP;
	so.ifindex = t.ifindex;
	so.max_pkts = ar->count;
	err = session_new(o, &so, &sid, &a);
	if (err) {
		diag("SESSION_NEW: %s %s", twt_errname(err), a.msg);
		return KSFT_FAIL;
	}
	b = park_at(&t, ar->count, mono() + ar->ahead_ms * NSEC_PER_MSEC,
		    NULL);
	err = submit_all(o, sid, &b, NULL);
	if (err) {
		diag("SUBMIT: %s", twt_errname(err));
		return KSFT_FAIL;
	}
	printf("ready %u\n", sid);
	fflush(stdout);
	for (;;) {
		/* keep draining reports so the socket never overflows */
		twt_pump(&o->s, 1000);
		o->nreps = 0;
	}
	return KSFT_PASS;
}

static int cmd_state(const struct args *ar)
{
	struct ow *o = open_family();
	struct info g;
	struct dump d;
	size_t i;
	int err;

	if (!o)
		return KSFT_SKIP;
	err = stats_get(o, &g);
	if (!err)
		err = session_dump(o, &d);
	if (err) {
		fprintf(stderr, "query failed: %s\n", twt_errname(err));
		return KSFT_FAIL;
	}
	printf("sessions %zu pending %llu submitted %llu sent %llu cancelled %llu dropped_down %llu\n",
	       d.n, (unsigned long long)g.v[OMWARE_A_PENDING_PKTS],
	       (unsigned long long)g.st[OMWARE_STATS_A_SUBMITTED],
	       (unsigned long long)g.st[OMWARE_STATS_A_SENT],
	       (unsigned long long)g.st[OMWARE_STATS_A_CANCELLED],
	       (unsigned long long)g.st[OMWARE_STATS_A_DROPPED_DOWN]);
	for (i = 0; ar->verbose && i < d.n; i++)
		printf("session %llu dev %s pending %llu\n",
		       (unsigned long long)d.v[i].v[OMWARE_A_SESSION_ID],
		       d.v[i].ifname,
		       (unsigned long long)d.v[i].v[OMWARE_A_PENDING_PKTS]);
	free(d.v);
	ow_close(o);
	return KSFT_PASS;
}

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: omware_ctl stream --dev DEV --peer-ns NS --peer-dev DEV [--count N] [--mode timer|hybrid]\n"
		"       omware_ctl hold --dev DEV [--count N] [--ahead-ms MS]\n"
		"       omware_ctl state [-v]\n");
}

static int parse_mode(const char *s, int *mode)
{
	if (!strcmp(s, "timer"))
		*mode = OMWARE_MODE_TIMER;
	else if (!strcmp(s, "hybrid"))
		*mode = OMWARE_MODE_HYBRID;
	else
		return -1;
	return 0;
}

/* Returns -1 on a usage error, 1 after --help. */
static int parse_args(int argc, char **argv, struct args *ar)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "peer-ns", required_argument, NULL, 'n' },
		{ "peer-dev", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "ahead-ms", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	if (argc < 2 || argv[1][0] == '-')
		return argc > 1 && !strcmp(argv[1], "--help") ? 1 : -1;
	ar->cmd = argv[1];
	while ((c = getopt_long(argc - 1, argv + 1, "vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'v':
			ar->verbose = true;
			break;
		case 'd':
			ar->dev = optarg;
			break;
		case 'n':
			ar->ns = optarg;
			break;
		case 'p':
			ar->peer = optarg;
			break;
		case 'c':
			ar->count = atoi(optarg);
			break;
		case 'a':
			ar->ahead_ms = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			if (parse_mode(optarg, &ar->mode))
				return -1;
			break;
		case 'h':
			return 1;
		default:
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args ar = { .mode = OMWARE_MODE_TIMER, .ahead_ms = 600000 };
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rc = parse_args(argc, argv, &ar);
	if (rc) {
		print_help(rc > 0 ? stdout : stderr);
		return rc > 0 ? KSFT_PASS : KSFT_FAIL;
	}
	if (!strcmp(ar.cmd, "state"))
		return cmd_state(&ar);
	if (!ar.dev) {
		print_help(stderr);
		return KSFT_FAIL;
	}
	if (!ar.count)
		ar.count = !strcmp(ar.cmd, "stream") ? 1000 : 5000;
	if (!strcmp(ar.cmd, "stream"))
		return cmd_stream(&ar);
	if (!strcmp(ar.cmd, "hold"))
		return cmd_hold(&ar);
	print_help(stderr);
	return KSFT_FAIL;
}
