// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-bench: the Age-of-Information experiment on this host, one
 * point or a sweep.  The forwarder's device and the source's are two
 * devices of this network namespace joined by a wire or a veth pair; each
 * run sets up the forwarder on one, sends the trace from the other
 * (tw-tfib-source) and leaves a run directory for tw-tfib-analyze
 * (tfib_bench_run.c).
 *
 * The sweep is every rate, by rate; at each rate, the baseline (when asked
 * for) and every CDR with every method and, for ring methods, every ring
 * setting, in the order given or shuffled from a seed.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aoi_trace.h"
#include "tfib_bench.h"
#include "tfib_tool.h"
#include "lib/print.h"
#include "lib/stop.h"

#define PROG	"tw-tfib-bench"

struct method_list {
	struct bench_method v[BENCH_LIST_MAX];
	unsigned int n;
};

struct rate_list {
	uint32_t v[BENCH_LIST_MAX];
	unsigned int n;
};

struct word_list {
	const char *v[BENCH_LIST_MAX];
	unsigned int n;
};

struct rings_list {
	struct bench_rings v[BENCH_LIST_MAX];
	unsigned int n;
};

struct bench_opts {
	struct tfib_opts fib;
	uint32_t dev;
	uint32_t source;
	const char *out;
	struct method_list methods;
	struct rate_list rates;
	struct word_list cdrs;
	struct rings_list rings;
	struct bench_setup s;
	uint32_t order;
	bool shuffled;			/* order given */
};

/* ---------------------------------------------------------------------- */
/* Lists: comma-separated values */

/*
 * Split arg at commas and give each value to add(); on a bad one, the one
 * error of a bad value naming keyword and what was expected.
 */
static int parse_list(void *list, const char *arg, const char *keyword,
		      const char *expected,
		      const char *(*add)(void *list, const char *word))
{
	char msg[320], *copy = strdup(arg), *word, *save;
	const char *problem = NULL, *bad = arg;
	unsigned int n = 0;

	if (!copy) {
		tw_err("out of memory");
		return -1;
	}
	/* The words stay: the lists point into them. */
	for (word = strtok_r(copy, ",", &save); word;
	     word = strtok_r(NULL, ",", &save), n++) {
		if (n == BENCH_LIST_MAX) {
			problem = "too many values";
			break;
		}
		problem = add(list, word);
		if (problem) {
			bad = word;
			break;
		}
	}
	if (!n && !problem)
		problem = "empty";
	if (!problem)
		return 1;
	tw_err("%s", tw_value_msg(msg, sizeof(msg), keyword, bad,
				  *problem ? problem : NULL, expected));
	return -1;
}

/* The method word's suffix that has omware.ko pace the source. */
#define PACE_SUFFIX	"+omware"

/* SYNC-ring, SYNC-inline, xdp, xdp-user or baseline, each maybe +omware. */
static const char *add_method(void *list, const char *word)
{
	struct method_list *l = list;
	struct bench_method *m = &l->v[l->n];
	size_t len = strlen(word), sfx = strlen(PACE_SUFFIX);
	const struct tw_keyword *kw;
	const char *dash;
	char base[32];

	m->word = word;
	m->sync = TFIB_SYNC_RCU;
	m->pace_omware = len > sfx && !strcmp(word + len - sfx, PACE_SUFFIX);
	if (m->pace_omware)
		len -= sfx;
	if (len >= sizeof(base))
		return "";
	snprintf(base, sizeof(base), "%.*s", (int)len, word);
	if (!strcmp(base, "xdp") || !strcmp(base, "xdp-user") ||
	    !strcmp(base, "baseline")) {
		m->fwd = base[0] == 'b' ? BENCH_FWD_BASELINE :
			 base[3] ? BENCH_FWD_XDP_USER : BENCH_FWD_XDP;
		l->n++;
		return NULL;
	}
	dash = strchr(base, '-');
	if (!dash || (strcmp(dash, "-ring") && strcmp(dash, "-inline")))
		return "";
	m->fwd = dash[1] == 'r' ? BENCH_FWD_RING : BENCH_FWD_INLINE;
	for (kw = tfib_sync_words; kw->name; kw++)
		if (strlen(kw->name) == (size_t)(dash - base) &&
		    !strncmp(kw->name, base, dash - base))
			break;
	if (!kw->name)
		return "no such sync mode";
	m->sync = kw->value;
	l->n++;
	return NULL;
}

static const char *add_rate(void *list, const char *word)
{
	struct rate_list *l = list;
	uint64_t v;

	if (tw_parse_u64(word, &v) || !v || v > UINT32_MAX)
		return "";
	l->v[l->n++] = v;
	return NULL;
}

/* Checked as tw-tfib-source checks its -c, passed on as given. */
static const char *add_cdr(void *list, const char *word)
{
	struct word_list *l = list;
	uint32_t cdr;

	if (tfib_cdr_parse(word, &cdr))
		return tw_number_problem(word, 6) ? tw_number_problem(word, 6) :
		       "";
	l->v[l->n++] = word;
	return NULL;
}

/* CONTROL:DATA, or N for both. */
static const char *add_rings(void *list, const char *word)
{
	struct rings_list *l = list;
	const char *colon = strchr(word, ':');
	char head[24];
	uint64_t c, d;

	snprintf(head, sizeof(head), "%.*s",
		 (int)(colon ? (size_t)(colon - word) : strlen(word)), word);
	if (tw_parse_u64(head, &c) || tw_parse_u64(colon ? colon + 1 : head,
						   &d) ||
	    !c || !d || c > TFIB_MAX_RING || d > TFIB_MAX_RING)
		return "";
	l->v[l->n].control = c;
	l->v[l->n++].data = d;
	return NULL;
}

static int parse_methods(void *dst, int argc, char **argv)
{
	(void)argc;
	return parse_list(dst, argv[0], "methods",
			  "a list of SYNC-ring, SYNC-inline (SYNC: rwlock, rcu, bucket, seqcount), xdp, xdp-user, baseline, each maybe +omware",
			  add_method);
}

static int parse_rates(void *dst, int argc, char **argv)
{
	(void)argc;
	return parse_list(dst, argv[0], "rate",
			  "a list of rates, packets/s, 1 or more", add_rate);
}

static int parse_cdrs(void *dst, int argc, char **argv)
{
	(void)argc;
	return parse_list(dst, argv[0], "cdr",
			  "a list of ratios from 0 to 4000", add_cdr);
}

static int parse_rings(void *dst, int argc, char **argv)
{
	char expected[96];

	(void)argc;
	snprintf(expected, sizeof(expected),
		 "a list of CONTROL:DATA or N, sizes from 1 to %d",
		 TFIB_MAX_RING);
	return parse_list(dst, argv[0], "rings", expected, add_rings);
}

/* ---------------------------------------------------------------------- */
/* Arguments */

static int parse_source(void *dst, int argc, char **argv)
{
	(void)argc;
	return tfib_dev_index("source", argv[0], dst);
}

static const struct tw_keyword refused_words[] = {
	{ "retry", BENCH_REFUSED_RETRY },
	{ "lost", BENCH_REFUSED_LOST },
	{ NULL, 0 },
};

#define BENCH_OFF(f)	offsetof(struct bench_opts, f)

static const struct tw_arg bench_args[] = {
	{ .include = tfib_table_opt_arg },
	{ .name = "dev", .type = TW_ARG_CUSTOM, .off = BENCH_OFF(dev),
	  .meta = "IFNAME", .parse = tfib_parse_dev, .flags = TW_ARG_REQUIRED,
	  .help = "the forwarder's device: the table is bound to it" },
	{ .name = "source", .type = TW_ARG_CUSTOM, .off = BENCH_OFF(source),
	  .meta = "IFNAME", .parse = parse_source, .flags = TW_ARG_REQUIRED,
	  .help = "the source's device, wired to dev: sends the trace, takes the forwarded packets" },
	{ .name = "out", .type = TW_ARG_STR, .off = BENCH_OFF(out),
	  .meta = "DIR", .flags = TW_ARG_REQUIRED,
	  .help = "the runs go to DIR/cdrCDR/rRATE/METHOD" },
	{ .name = "methods", .type = TW_ARG_CUSTOM, .off = BENCH_OFF(methods),
	  .meta = "LIST", .parse = parse_methods,
	  .help = "what forwards, comma-separated: SYNC-ring, SYNC-inline, xdp, xdp-user, baseline (default rcu-ring); +omware: omware.ko paces the source" },
	{ .name = "rate", .type = TW_ARG_CUSTOM, .off = BENCH_OFF(rates),
	  .meta = "LIST", .parse = parse_rates,
	  .help = "the token bucket's rates R, packets/s (default 10000)" },
	{ .name = "cdr", .type = TW_ARG_CUSTOM, .off = BENCH_OFF(cdrs),
	  .meta = "LIST", .parse = parse_cdrs,
	  .help = "control/data ratios of the trace (default 0.01)" },
	{ .name = "rings", .type = TW_ARG_CUSTOM, .off = BENCH_OFF(rings),
	  .meta = "LIST", .parse = parse_rings,
	  .help = "ring methods: CONTROL:DATA ring sizes, or N for both (default "
		  TW_STR(TFIB_DEFAULT_RING) ")" },
	{ .name = "users", .type = TW_ARG_U32, .off = BENCH_OFF(s.users),
	  .meta = "N", .min = 1, .max = TFIB_MAX_CAPACITY,
	  .help = "users of the trace, Zipf(1) (default 1000)" },
	{ .name = "seed", .type = TW_ARG_U32, .off = BENCH_OFF(s.seed),
	  .meta = "N", .max = UINT32_MAX,
	  .help = "the trace's seed (default 1)" },
	{ .name = "seconds", .type = TW_ARG_U32, .off = BENCH_OFF(s.seconds),
	  .meta = "S", .min = 1, .max = 3600,
	  .help = "a run sends S x R rows (default 3)" },
	{ .name = "cap", .type = TW_ARG_U32, .off = BENCH_OFF(s.cap),
	  .meta = "PPS", .min = 1, .max = UINT32_MAX,
	  .help = "a run sends S x the lower of R and PPS rows: above PPS, as fast as it can" },
	{ .name = "burst", .type = TW_ARG_U32, .off = BENCH_OFF(s.burst),
	  .meta = "N", .min = 1, .max = TFIB_MAX_BURST,
	  .help = "the token bucket's burst (default 32)" },
	{ .name = "refused", .type = TW_ARG_KEYWORD,
	  .off = BENCH_OFF(s.refused), .keywords = refused_words,
	  .help = "a frame the source's device refuses: sent again (retry, default) or lost, as behind a wire" },
	{ .name = "forwarder-cpu", .type = TW_ARG_U32,
	  .off = BENCH_OFF(s.fwd_cpu), .meta = "N", .max = CPU_SETSIZE - 1,
	  .help = "pin tfib's threads of dev and xdp-user's control plane to CPU N (default: any)" },
	{ .name = "rep", .type = TW_ARG_U32, .off = BENCH_OFF(s.rep),
	  .meta = "N", .min = 1, .max = UINT32_MAX,
	  .help = "the repetition the runs belong to, into run.json (rep)" },
	{ .name = "boot", .type = TW_ARG_U32, .off = BENCH_OFF(s.boot),
	  .meta = "N", .min = 1, .max = UINT32_MAX,
	  .help = "the runner's start the runs belong to, into run.json (boot)" },
	{ .name = "ingress", .type = TW_ARG_STR, .off = BENCH_OFF(s.ingress),
	  .meta = "NAME",
	  .help = "how the forwarder's device receives, named into run.json (ingress)" },
	{ .name = "order", .type = TW_ARG_U32, .off = BENCH_OFF(order),
	  .meta = "SEED", .max = UINT32_MAX,
	  .help = "shuffle the runs of each rate from SEED (default: as given)" },
	{ .name = NULL },
};

static void bench_init(void *p)
{
	struct bench_opts *o = p;

	o->fib.table = "bench";
	o->s.users = 1000;
	o->s.seed = 1;
	o->s.seconds = 3;
	o->s.burst = 32;
	o->s.fwd_cpu = BENCH_ANY_CPU;
}

/* The lists not given: their defaults. */
static void bench_defaults(struct bench_opts *o)
{
	if (!o->methods.n)
		add_method(&o->methods, "rcu-ring");
	if (!o->rates.n)
		o->rates.v[o->rates.n++] = 10000;
	if (!o->cdrs.n)
		o->cdrs.v[o->cdrs.n++] = "0.01";
	if (!o->rings.n)
		o->rings.v[o->rings.n++] = (struct bench_rings){
			TFIB_DEFAULT_RING, TFIB_DEFAULT_RING };
}

/* ---------------------------------------------------------------------- */
/* The sweep */

static bool needs_tfib(const struct bench_opts *o)
{
	unsigned int i;

	for (i = 0; i < o->methods.n; i++)
		if (!bench_is_xdp(&o->methods.v[i]))
			return true;
	return false;
}

static void point_dir(struct bench_point *p, const char *out)
{
	int n = snprintf(p->dir, sizeof(p->dir), "%s/cdr%s/r%" PRIu32 "/%s",
			 out, p->cdr, p->rate, p->method->word);

	if (p->rings && n > 0 && (size_t)n < sizeof(p->dir))
		snprintf(p->dir + n, sizeof(p->dir) - n, "-%" PRIu32 "-%" PRIu32,
			 p->rings->control, p->rings->data);
}

static void point_add(struct bench_point *v, unsigned int *n,
		      const struct bench_opts *o, uint32_t rate,
		      const char *cdr, const struct bench_method *m,
		      const struct bench_rings *rings)
{
	struct bench_point *p = &v[(*n)++];

	p->rate = rate;
	p->cdr = cdr;
	p->method = m;
	p->rings = rings;
	point_dir(p, o->out);
}

/* Every run at one rate, in the order of the arguments. */
static unsigned int points_at(struct bench_point *v,
			      const struct bench_opts *o, uint32_t rate)
{
	const struct bench_method *m;
	unsigned int n = 0, c, i, r;

	for (i = 0; i < o->methods.n; i++)
		if (o->methods.v[i].fwd == BENCH_FWD_BASELINE)
			point_add(v, &n, o, rate, "0", &o->methods.v[i], NULL);
	for (c = 0; c < o->cdrs.n; c++) {
		for (i = 0; i < o->methods.n; i++) {
			m = &o->methods.v[i];
			if (m->fwd == BENCH_FWD_BASELINE)
				continue;
			if (m->fwd != BENCH_FWD_RING) {
				point_add(v, &n, o, rate, o->cdrs.v[c], m,
					  NULL);
				continue;
			}
			for (r = 0; r < o->rings.n; r++)
				point_add(v, &n, o, rate, o->cdrs.v[c], m,
					  &o->rings.v[r]);
		}
	}
	return n;
}

/* Fisher-Yates from seed (xorshift64*): the same seed, the same order. */
static void shuffle(struct bench_point *v, unsigned int n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	struct bench_point t;
	unsigned int i, j;

	for (i = n; i > 1; i--) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		j = (x * 0x2545f4914f6cdd1dULL) >> 33;
		j %= i;
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void print_result(const struct bench_point *p,
			 const struct bench_result *r)
{
	char rings[32];

	open_object(NULL);
	print_string("run", p->dir);
	print_string("method", p->method->word);
	print_uint("rate_pps", p->rate);
	print_string("cdr", p->cdr);
	if (p->rings) {
		snprintf(rings, sizeof(rings), "%" PRIu32 ":%" PRIu32,
			 p->rings->control, p->rings->data);
		print_string("rings", rings);
	}
	print_string("status", r->ret ? "failed" :
		     r->dropped ? "dropped" : "ok");
	print_u64("sent", r->sent);
	print_u64("received", r->received);
	print_u64("socket_drops", r->socket_drops);
	print_double("sent_pps", r->sent_pps);
	close_object();
	/* A line per run as it ends: the sweep's progress. */
	if (!print_is_json())
		print_nl();
	fflush(stdout);
}

struct sweep {
	struct tfib_client c;
	char fifo[64];
	unsigned int runs;
	unsigned int failed;
	int ret;			/* the first failure's exit code */
};

/* The runs of one rate; false when the sweep must stop. */
static bool sweep_rate(struct sweep *w, const struct bench_opts *o,
		       uint32_t rate, struct bench_point *v)
{
	struct bench_result res;
	unsigned int i, n = points_at(v, o, rate);

	if (o->shuffled)
		shuffle(v, n, (uint64_t)o->order + rate);
	for (i = 0; i < n && !tw_stop; i++) {
		bench_run(&w->c, &o->s, &v[i], w->fifo, &res);
		print_result(&v[i], &res);
		w->runs++;
		if (res.ret) {
			w->failed++;
			w->ret = w->ret ? w->ret : res.ret;
		}
		if (res.ret == TW_EXIT_NOMOD)
			return false;
	}
	return !tw_stop;
}

static int sweep(struct bench_opts *o, struct sweep *w)
{
	/* Room for the runs of one rate, the most there can be. */
	struct bench_point *v = calloc(o->methods.n * (1 + o->cdrs.n *
						       o->rings.n), sizeof(*v));
	unsigned int i;

	if (!v) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	open_array("runs");
	for (i = 0; i < o->rates.n; i++)
		if (!sweep_rate(w, o, o->rates.v[i], v))
			break;
	close_array();
	free(v);
	print_uint("completed", w->runs - w->failed);
	print_uint("failed", w->failed);
	print_string("out", o->out);
	if (tw_stop && !w->ret) {
		tw_err("stopped by a signal after %u runs", w->runs);
		w->ret = TW_EXIT_PARTIAL;
	}
	return w->ret;
}

static int bench_run_cmd(void *p, uint64_t seen)
{
	char tmp[] = "/tmp/tw-tfib-bench.XXXXXX";
	struct bench_opts *o = p;
	struct sweep w = { .c = { .quiet = false } };
	int ret;

	o->shuffled = tw_arg_given(bench_args, seen, "order");
	bench_defaults(o);
	o->s.table = o->fib.table;
	if (!if_indextoname(o->dev, o->s.dev) ||
	    !if_indextoname(o->source, o->s.source)) {
		tw_err("a device went while starting: %s", strerror(errno));
		return TW_EXIT_SYS;
	}
	if (o->dev == o->source) {
		tw_err("dev and source are both %s: the source needs a device of its own",
		       o->s.dev);
		return TW_EXIT_FAIL;
	}
	if (needs_tfib(o)) {
		ret = tfib_keyword_connect(&w.c);
		if (ret)
			return ret;
	}
	if (!mkdtemp(tmp)) {
		tw_err("%s: %s", tmp, strerror(errno));
		ret = TW_EXIT_SYS;
		goto out;
	}
	snprintf(w.fifo, sizeof(w.fifo), "%s/counters", tmp);
	tw_stop_on_signals();
	ret = sweep(o, &w);
	rmdir(tmp);
out:
	if (needs_tfib(o))
		tfib_close(&w.c);
	return ret;
}

static const char bench_notes[] =
"Each run sets up the forwarder on dev (a table named NAME, default\n"
"\"bench\", with the method's sync mode and one entry per user pointing at\n"
"source's MAC, bound in the method's mode; or the XDP peer, tw-tfib-xdp,\n"
"setting its map from the program (xdp) or, from the control packets the\n"
"program passes, in a process (tw-tfib-xdp serve, xdp-user)),\n"
"runs tw-tfib-source on source through it and tears it down.  The run's\n"
"directory gets events.csv and run.json, the forwarder's counters over the\n"
"run included: tw-tfib-analyze reads them.  baseline is rcu inline with one\n"
"user and no control packets, once per rate (cdr0).  dev and source are two\n"
"devices of this network namespace joined by a cable or a veth pair.  One\n"
"line per run as it ends; with -j one JSON object at the end.  Needs root.\n";

static const struct tw_cmd bench_cmd = {
	.help = "Run the Age-of-Information experiment: one point or a sweep",
	.notes = bench_notes,
	.args = bench_args,
	.opts_size = sizeof(struct bench_opts),
	.init = bench_init,
	.run = bench_run_cmd,
};

int main(int argc, char **argv)
{
	int ret = tw_run_cmd(PROG, &bench_cmd, argc - 1, argv + 1);

	print_finish();
	return ret;
}
