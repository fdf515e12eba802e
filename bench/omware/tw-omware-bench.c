// SPDX-License-Identifier: GPL-2.0
/*
 * tw-omware-bench: send the same workload with
 * every method of the OMware paper's test suite and with today's kernel
 * peers, one method after the other on one interface, and record for each
 * packet when it was scheduled and when it actually left.
 *
 * Methods (the paper's Table 3, plus peers):
 *   OIR  omware, every packet pre-dispatched before the first is due
 *   OFR  omware, sleep until phi before each send time, then submit it
 *   OSM  OFR with phi = 0 (sequential)
 *   RSM  AF_PACKET socket, clock_nanosleep(TIMER_ABSTIME), then sendto
 *   RSM-RT  RSM from a pinned SCHED_FIFO thread that sleeps until a guard
 *        before the time, then spins: hybrid mode's way, in user space
 *   RSM-RT-sleep  RSM-RT without guard and spin: sleeps until the time,
 *        the CPU class of omware's timer mode
 *   TOM  omware trains of two (packet pairs), pre-dispatched
 *   TRW  AF_PACKET socket, sleep, then two sendto back to back
 *   TRW-RT  TRW from RSM-RT-sleep's thread, both frames in one sendmmsg
 *   ETF  SO_TXTIME through the etf qdisc from RSM-RT-sleep's thread, one
 *        trial per delta
 *   FQ   SO_TXTIME through the fq qdisc (earliest departure time)
 * OIR and TOM also run in the hybrid mode, and OIR through the qdisc, as
 * separate rows.
 *
 * The methods run in an order shuffled by a printed seed, after one
 * warm-up run of the first of them, which the analysis leaves out.
 *
 * Every packet is the same IPv4/UDP probe (probe.h); the UDP source port
 * is the run's tag, so a receiver can tell the methods apart.  The
 * actual send time comes from omware's report, or for the socket methods
 * from the software transmit timestamp (SO_TIMESTAMPING, taken by the
 * driver, veth included), or failing that from the clock read right after
 * sendto().  Times are CLOCK_MONOTONIC nanoseconds; etf needs CLOCK_TAI,
 * which is converted to and from at one measured offset.
 *
 * Outputs, appended to OUT/methods.csv and OUT/send.csv (see
 * Documentation/omware.rst), and a summary on stdout.
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/omware.h>

#include "lib/args.h"
#include "lib/clock.h"
#include "lib/netdev.h"
#include "lib/print.h"
#include "lib/stop.h"
#include "omware/packet.h"
#include "omware/probe.h"
#include "omware/schedule.h"
#include "omware/session.h"

#include "omware_bench.h"

static const struct bm_method bm_methods[] = {
	{ "oir", "OIR", "omware, every packet pre-dispatched up front",
	  BM_OIR, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, false, true, RT_NONE },
	{ "oir-hybrid", "OIR-hybrid",
	  "the same in hybrid mode (timer, then spin)",
	  BM_OIR, OMWARE_MODE_HYBRID, OMWARE_XMIT_DIRECT, false, true, RT_NONE },
	{ "oir-qdisc", "OIR-qdisc",
	  "the same through the qdisc instead of the driver",
	  BM_OIR, OMWARE_MODE_TIMER, OMWARE_XMIT_QDISC, false, true, RT_NONE },
	{ "oir-hybrid-qdisc", "OIR-hybrid-qdisc", "both",
	  BM_OIR, OMWARE_MODE_HYBRID, OMWARE_XMIT_QDISC, false, true, RT_NONE },
	{ "ofr", "OFR", "omware, submit each packet phi before its time",
	  BM_OFR, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, false, true, RT_NONE },
	{ "osm", "OSM", "ofr with phi 0 (sleep, then submit)",
	  BM_OSM, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, false, true, RT_NONE },
	{ "rsm", "RSM", "AF_PACKET socket: absolute sleep, then sendto()",
	  BM_RSM, 0, 0, false, false, RT_NONE },
	{ "rsm-rt", "RSM-RT",
	  "AF_PACKET socket from a pinned SCHED_FIFO thread:\nsleep until a guard before the time, then spin",
	  BM_RSM, 0, 0, false, false, RT_SPIN },
	{ "rsm-rt-sleep", "RSM-RT-sleep",
	  "rsm-rt's thread without guard and spin:\nsleep until the time, then sendto()",
	  BM_RSM, 0, 0, false, false, RT_SLEEP },
	{ "etf", "ETF",
	  "SO_TXTIME through the etf qdisc from rsm-rt-sleep's\nthread, one run per delta",
	  BM_ETF, 0, 0, false, false, RT_SLEEP },
	{ "fq", "FQ", "SO_TXTIME through the fq qdisc",
	  BM_FQ, 0, 0, false, false, RT_NONE },
	{ "tom", "TOM", "omware packet pairs (trains of two)",
	  BM_TOM, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, true, true, RT_NONE },
	{ "tom-hybrid", "TOM-hybrid", "the same in hybrid mode",
	  BM_TOM, OMWARE_MODE_HYBRID, OMWARE_XMIT_DIRECT, true, true, RT_NONE },
	{ "trw", "TRW", "AF_PACKET socket: sleep, then two sendto()",
	  BM_TRW, 0, 0, true, false, RT_NONE },
	{ "trw-rt", "TRW-RT",
	  "trw from rsm-rt-sleep's thread: sleep, then both\nframes in one sendmmsg()",
	  BM_TRW, 0, 0, true, false, RT_SLEEP },
};

/* Names standing for several methods in the "methods" list. */
enum bm_group { GROUP_ALL, GROUP_TRAINS, GROUP_PAIRS, GROUP_NONE };

static const struct {
	const char *word;
	const char *help;
} bm_groups[] = {
	[GROUP_ALL] = { "all", "every method (default)" },
	[GROUP_TRAINS] = { "trains", "every method but the pair ones" },
	[GROUP_PAIRS] = { "pairs", "the pair methods" },
};

#define N_METHODS	ARRAY_SIZE(bm_methods)

/* ---------------------------------------------------------------------- */
/* command */

static FILE *open_csv(const char *dir, const char *name, const char *head)
{
	char path[4096];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "a");
	if (!f) {
		tw_err("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && st.st_size == 0)
		fprintf(f, "%s\n", head);
	return f;
}

/* Print the error about the list value of keyword; returns -1. */
static int list_error(const char *keyword, const char *list,
		      const char *problem, const char *expected)
{
	char msg[1024];

	tw_err("%s", tw_value_msg(msg, sizeof(msg), keyword, list, problem,
				  expected));
	return -1;
}

/* Split a comma-separated list; at most max words.  -1 after an error. */
static int parse_list(const char *s, const char *keyword, char words[][24],
		      int max, const char *expected)
{
	const char *list = s;
	int n = 0;

	while (*s) {
		size_t len = strcspn(s, ",");

		if (!len || len >= sizeof(words[0]) || n == max)
			return list_error(keyword, list,
					  n == max ? "too many entries" :
					  "an empty or overlong entry",
					  expected);
		memcpy(words[n], s, len);
		words[n++][len] = '\0';
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

/* The group a "methods" word names, in any case, or GROUP_NONE. */
static enum bm_group method_group(const char *word)
{
	int g;

	for (g = 0; g < GROUP_NONE; g++)
		if (!strcasecmp(word, bm_groups[g].word))
			break;
	return g;
}

static bool in_group(const struct bm_method *m, enum bm_group g)
{
	return g == GROUP_ALL || (g == GROUP_TRAINS && !m->pair) ||
	       (g == GROUP_PAIRS && m->pair);
}

/* "a comma-separated list of oir, ..., trains, pairs or all" into buf. */
static const char *methods_expected(char *buf, size_t len)
{
	size_t used, i;

	used = snprintf(buf, len, "a comma-separated list of");
	for (i = 0; i < N_METHODS && used < len; i++)
		used += snprintf(buf + used, len - used, " %s,",
				 bm_methods[i].word);
	if (used < len)
		snprintf(buf + used, len - used, " %s, %s or %s",
			 bm_groups[GROUP_TRAINS].word,
			 bm_groups[GROUP_PAIRS].word, bm_groups[GROUP_ALL].word);
	return buf;
}

/* Add method j to idx[0..count) unless there; returns the new count. */
static int add_method(int *idx, int count, int j)
{
	int k;

	for (k = 0; k < count; k++)
		if (idx[k] == j)
			return count;
	idx[count] = j;
	return count + 1;
}

/* Resolve the "methods" list into method indices, in order. */
static int pick_methods(const char *list, int *idx)
{
	char words[N_METHODS * 2][24], expected[512];
	int n, i, count = 0;
	enum bm_group g;
	size_t j;

	methods_expected(expected, sizeof(expected));
	n = parse_list(list, "methods", words, ARRAY_SIZE(words), expected);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		bool found;

		g = method_group(words[i]);
		found = g != GROUP_NONE;
		for (j = 0; j < N_METHODS; j++) {
			if (!in_group(&bm_methods[j], g) &&
			    strcasecmp(words[i], bm_methods[j].word))
				continue;
			found = true;
			count = add_method(idx, count, j);
		}
		if (!found) {
			return list_error("methods", words[i],
					  "unknown method", expected);
		}
	}
	return count;
}

static int parse_deltas(const char *list, uint64_t *d)
{
	static const char expected[] =
		"microseconds from 1 to 1000000, comma separated";
	char words[MAX_DELTAS][24];
	const char *problem;
	int n, i, j;

	n = parse_list(list, "etf-delta", words, MAX_DELTAS, expected);
	for (i = 0; i < n; i++) {
		uint64_t v;

		if (!tw_parse_u64(words[i], &v) && v && v <= 1000000) {
			d[i] = v * NSEC_PER_USEC;
			continue;
		}
		problem = tw_number_problem(words[i], 0);
		if (!problem && !tw_parse_u64(words[i], &v))
			problem = v ? "too large" : "zero";
		return list_error("etf-delta", words[i], problem, expected);
	}
	/* Ascending, so a sweep can stop at the first that works. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && d[j] < d[j - 1]; j--) {
			uint64_t x = d[j];

			d[j] = d[j - 1];
			d[j - 1] = x;
		}
	return n;
}

static const struct tw_keyword sweep_words[] = {
	{ "first", 1 },
	{ "all", 0 },
	{ NULL, 0 },
};

#define OPT(f)	offsetof(struct bench_opts, f)

static const struct tw_arg bench_args[] = {
	{ .name = "dev", .type = TW_ARG_STR, .off = OPT(dev),
	  .meta = "IFNAME", .help = "network device to send on",
	  .flags = TW_ARG_REQUIRED },
	{ .name = "dst-mac", .type = TW_ARG_MAC, .off = OPT(dst_mac),
	  .meta = "MAC", .help = "MAC address of the receiver",
	  .flags = TW_ARG_REQUIRED },
	{ .name = "dst", .type = TW_ARG_IPV4, .off = OPT(dst), .meta = "IP",
	  .help = "IPv4 address of the receiver", .flags = TW_ARG_REQUIRED },
	{ .name = "src", .type = TW_ARG_IPV4, .off = OPT(src), .meta = "IP",
	  .help = "source address (default: the device's)" },
	{ .name = "dport", .type = TW_ARG_U32, .off = OPT(dport), .meta = "N",
	  .help = "UDP destination port (default 29000)", .min = 1,
	  .max = 65535 },
	{ .name = "count", .type = TW_ARG_U32, .off = OPT(count), .meta = "N",
	  .help = "packets per train method, pairs per pair method (default 200)",
	  .min = 2, .max = 1000000 },
	{ .name = "alpha", .type = TW_ARG_U32, .off = OPT(alpha_us),
	  .meta = "US", .help = "spacing of packets or pairs (default 1000)",
	  .max = 10000000 },
	{ .name = "size", .type = TW_ARG_U32, .off = OPT(size),
	  .meta = "BYTES", .help = "IPv4 packet size (default 40, the smallest)",
	  .min = TW_IP_MIN_LEN, .max = TW_IP_MAX_LEN },
	{ .name = "phi", .type = TW_ARG_U32, .off = OPT(phi_us), .meta = "US",
	  .help = "OFR pre-dispatch period (default 500)", .max = 10000000 },
	{ .name = "guard-max-ns", .type = TW_ARG_U32, .off = OPT(guard_max_ns),
	  .meta = "NS",
	  .help = "guard cap of the hybrid mode and RSM-RT; 0 = the module's default (default "
		  TW_STR(OMWARE_GUARD_MAX_NS_DEFAULT) ", the module's)",
	  .max = OMWARE_GUARD_MAX_NS_LIMIT },
	{ .name = "methods", .type = TW_ARG_STR, .off = OPT(methods),
	  .meta = "LIST", .help = "methods to run, comma separated (default all)" },
	{ .name = "etf-delta", .type = TW_ARG_STR, .off = OPT(deltas),
	  .meta = "LIST", .help = "etf deltas to try, us (default " DEFAULT_DELTAS ")" },
	{ .name = "etf-sweep", .type = TW_ARG_KEYWORD, .off = OPT(sweep),
	  .keywords = sweep_words,
	  .help = "stop at the first delta without drops, or try all (default first)" },
	{ .name = "fq-flow-limit", .type = TW_ARG_U32,
	  .off = OPT(fq_flow_limit), .meta = "N",
	  .help = "fq flow_limit (default: the train length + 100)",
	  .min = 1, .max = UINT32_MAX },
	{ .name = "start-in", .type = TW_ARG_U32, .off = OPT(start_in_us),
	  .meta = "US",
	  .help = "first send time, microseconds after each method's setup (default: 50000 plus twice the hand-over time of the packets, as last measured)",
	  .min = 1, .max = 100000000 },
	{ .name = "grace", .type = TW_ARG_U32, .off = OPT(grace_ms),
	  .meta = "MS", .help = "wait for reports after the last send (default 2000)",
	  .max = 600000 },
	{ .name = "seed", .type = TW_ARG_U32, .off = OPT(seed),
	  .meta = "N", .help = "seed of the shuffled method order (default: from the clock)",
	  .max = UINT32_MAX },
	{ .name = "slack", .type = TW_ARG_U32, .off = OPT(slack_ns),
	  .meta = "NS", .help = "timer slack of the sleeping methods (default 1)",
	  .min = 1, .max = 100000000 },
	{ .name = "out", .type = TW_ARG_STR, .off = OPT(out), .meta = "DIR",
	  .help = "append to DIR/methods.csv and DIR/send.csv" },
	{ .name = "grid", .type = TW_ARG_STR, .off = OPT(grid),
	  .meta = "LABEL", .help = "workload label in the CSV (default bench)" },
	{ .name = "round", .type = TW_ARG_U32, .off = OPT(round), .meta = "N",
	  .help = "round number in the CSV (default 0)", .max = 1000000 },
	{ .name = "sport", .type = TW_ARG_U32, .off = OPT(sport), .meta = "N",
	  .help = "UDP source port of the first run, one more per run (default 30000)",
	  .min = 1024, .max = 65535 - TAG_SPAN },
	{ .name = NULL },
};

static const char bench_notes_tail[] =
"\"methods\" takes a comma-separated list of these names, in any case; the\n"
"outputs name the methods in upper case.  Each method sends \"count\" packets\n"
"(pairs) \"alpha\" microseconds apart from a start \"start-in\" after its\n"
"setup.  The methods run in an order shuffled by \"seed\", after a warm-up\n"
"run of the first of them.  Each run (the warm-up and each etf delta too)\n"
"gets its own UDP source port, its tag, counting up from \"sport\", so a\n"
"receiver (tw-omware-rx) can tell them apart.\n"
"etf and fq replace the device's root qdisc for their run and delete it\n"
"afterwards, which restores the default one.  Needs CAP_NET_ADMIN.\n";

static char bench_notes[4096];

/* "  word  help", a help of several lines indented under its first. */
static size_t note_method(char *buf, size_t len, const struct bm_method *m)
{
	const char *help = m->help;
	size_t used = snprintf(buf, len, "  %-18s", m->word);

	while (used < len) {
		int line = strcspn(help, "\n");

		used += snprintf(buf + used, len - used, "%.*s\n", line, help);
		if (!help[line] || used >= len)
			break;
		help += line + 1;
		used += snprintf(buf + used, len - used, "%20s", "");
	}
	return used;
}

/* The notes of "help": the methods from their table, then the rest. */
static void bench_notes_init(void)
{
	size_t used, i;

	used = snprintf(bench_notes, sizeof(bench_notes), "Methods:\n");
	for (i = 0; i < N_METHODS && used < sizeof(bench_notes); i++)
		used += note_method(bench_notes + used,
				    sizeof(bench_notes) - used, &bm_methods[i]);
	for (i = 0; i < GROUP_NONE && used < sizeof(bench_notes); i++)
		used += snprintf(bench_notes + used, sizeof(bench_notes) - used,
				 "  %-18s%s\n", bm_groups[i].word,
				 bm_groups[i].help);
	if (used < sizeof(bench_notes))
		snprintf(bench_notes + used, sizeof(bench_notes) - used,
			 "\n%s", bench_notes_tail);
}

static void bench_init(void *opts)
{
	struct bench_opts *o = opts;

	o->dport = TW_PROBE_PORT;
	o->count = 200;
	o->alpha_us = 1000;
	o->size = TW_IP_MIN_LEN;
	o->phi_us = 500;
	/* The module's own default: no cap the module would not give. */
	o->guard_max_ns = OMWARE_GUARD_MAX_NS_DEFAULT;
	o->grace_ms = 2000;
	o->methods = "all";
	o->deltas = DEFAULT_DELTAS;
	o->sweep = 1;
	o->slack_ns = 1;
	o->grid = "bench";
	o->sport = 30000;
}

static int bench_setup(struct bench *b, uint64_t seen)
{
	struct bench_opts *o = b->o;
	int ret;

	b->ifindex = if_nametoindex(o->dev);
	if (!b->ifindex) {
		tw_err("no network device \"%s\"", o->dev);
		return TW_EXIT_FAIL;
	}
	b->spec.frame = true;
	b->spec.dst = o->dst;
	b->spec.dport = o->dport;
	b->spec.ip_len = o->size;
	memcpy(b->spec.dst_mac, o->dst_mac, 6);
	b->spec.src = o->src;
	if (!tw_arg_given(bench_args, seen, "src") &&
	    tw_dev_ipv4(o->dev, &b->spec.src)) {
		tw_err("%s has no IPv4 address: give \"src\"", o->dev);
		return TW_EXIT_FAIL;
	}
	ret = tw_dev_mac(o->dev, b->spec.src_mac);
	if (ret) {
		tw_err("cannot read the MAC address of %s: %s", o->dev,
		       strerror(-ret));
		return TW_EXIT_SYS;
	}
	b->len = tw_pkt_len(&b->spec);
	b->buf = malloc(b->len);
	b->buf2 = malloc(b->len);
	if (!b->buf || !b->buf2) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	b->next_tag = o->sport;
	b->seed = tw_arg_given(bench_args, seen, "seed") ? o->seed :
		  (uint32_t)(tw_now_ns(CLOCK_REALTIME) ^ getpid());
	/* The real-time senders' CPU, chosen once: the one we start on. */
	b->rt_cpu = sched_getcpu();
	if (b->rt_cpu < 0)
		b->rt_cpu = 0;
	if (o->out) {
		if (mkdir(o->out, 0755) && errno != EEXIST) {
			tw_err("cannot create %s: %s", o->out, strerror(errno));
			return TW_EXIT_SYS;
		}
		b->methods_csv = open_csv(o->out, "methods.csv",
			"tag,grid,round,method,kind,count,alpha_ns,size,phi_ns,delta_ns,mode,xmit,qdisc,start_ns,cpu_proc_ns,cpu_busy_ns,wall_ns,submitted,sent,dropped,early,spin_ns,spin_stalls,spin_stall_max_ns,err,seed,warmup,guard_ns,guard_misses,cpu_kthread_ns,cpu_irq_ns");
		b->send_csv = open_csv(o->out, "send.csv",
			"tag,seq,sched_ns,sent_ns,sent_src,user_ns,status");
		if (!b->methods_csv || !b->send_csv)
			return TW_EXIT_SYS;
	}
	/* Sleeping methods get the same timer precision as a real-time
	 * thread; the default 50 us slack would only blur the comparison.
	 */
	prctl(PR_SET_TIMERSLACK, (unsigned long)o->slack_ns, 0, 0, 0);
	return TW_EXIT_OK;
}

/*
 * The module first, before any qdisc is touched: without it the run ends
 * here with the one "not loaded" message and exit code.
 */
static int bench_connect(struct bench *b, const int *idx, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (bm_methods[idx[k]].omware)
			break;
	if (k == n)
		return TW_EXIT_OK;
	/* Errors of a method's run go to its row of the results. */
	b->om.quiet = true;
	return om_connect(&b->om);
}

/* Fisher-Yates shuffle of idx[0..n) by the generator seeded with seed. */
static void shuffle_methods(int *idx, int n, uint32_t seed)
{
	struct tw_rng rng;
	int i, j, x;

	tw_rng_seed(&rng, seed);
	for (i = n - 1; i > 0; i--) {
		/* The modulo's bias is below 2^-59 for so few entries. */
		j = tw_rng_next(&rng) % (i + 1);
		x = idx[i];
		idx[i] = idx[j];
		idx[j] = x;
	}
}

/* The workload, the seed and the order it gives, the real-time CPU. */
static void print_plan(struct bench *b, const int *idx, int n)
{
	struct bench_opts *o = b->o;
	char order[N_METHODS * 24] = "";
	size_t used = 0;
	int k;

	for (k = 0; k < n && used < sizeof(order); k++)
		used += snprintf(order + used, sizeof(order) - used, "%s%s",
				 k ? "," : "", bm_methods[idx[k]].name);
	print_string("dev", o->dev);
	print_u64("count", o->count);
	print_u64("alpha_us", o->alpha_us);
	print_u64("size", o->size);
	print_string("grid", o->grid);
	print_u64("round", o->round);
	print_nl();
	print_u64("seed", b->seed);
	print_string("order", order);
	print_uint("rt_cpu", b->rt_cpu);
	print_nl();
}

/*
 * Run method m once (etf: at delta), print and record it.  *clean says
 * whether it sent everything; b->partial notes a measured run that did
 * not.  Returns an exit code.
 */
static int run_one(struct bench *b, const struct bm_method *m,
		   uint64_t delta, bool warmup, bool *clean)
{
	struct bm_trial *t;

	if (b->trials++ >= MAX_TRIALS) {
		tw_err("too many runs for the tag range");
		return TW_EXIT_FAIL;
	}
	t = trial_new(b, m, delta);
	if (!t) {
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	t->warmup = warmup;
	trial_run(b, t);
	trial_print(t);
	trial_write(b, t);
	*clean = !t->err[0] && !t->missing && !t->dropped;
	/* etf's drops are what its sweep looks for. */
	if (!warmup && (t->err[0] || t->missing ||
			(t->dropped && m->base != BM_ETF)))
		b->partial = true;
	trial_free(t);
	return TW_EXIT_OK;
}

/* Every run of method m: one, or etf's deltas in ascending order. */
static int run_method(struct bench *b, const struct bm_method *m,
		      const uint64_t *deltas, int ndelta)
{
	int d, nd = m->base == BM_ETF ? ndelta : 1, ret;
	bool clean;

	for (d = 0; d < nd && !tw_stop; d++) {
		ret = run_one(b, m, m->base == BM_ETF ? deltas[d] : 0, false,
			      &clean);
		if (ret)
			return ret;
		/* A sweep stops at the smallest delta that loses nothing. */
		if (m->base == BM_ETF && b->o->sweep && clean)
			break;
	}
	return TW_EXIT_OK;
}

/* The warm-up (the first method, etf at its first delta), then all. */
static int run_methods(struct bench *b, const int *idx, int n,
		       const uint64_t *deltas, int ndelta)
{
	const struct bm_method *first = &bm_methods[idx[0]];
	int k, ret;
	bool clean;

	ret = run_one(b, first, first->base == BM_ETF ? deltas[0] : 0, true,
		      &clean);
	for (k = 0; k < n && !ret && !tw_stop; k++)
		ret = run_method(b, &bm_methods[idx[k]], deltas, ndelta);
	return ret;
}

static int bench_run(void *opts, uint64_t seen)
{
	struct bench_opts *o = opts;
	struct bench b = { .o = o };
	int idx[N_METHODS], n, ret, ndelta;
	uint64_t deltas[MAX_DELTAS];

	n = pick_methods(o->methods, idx);
	if (n < 0)
		return TW_EXIT_FAIL;
	ndelta = parse_deltas(o->deltas, deltas);
	if (ndelta <= 0)
		return TW_EXIT_FAIL;
	ret = bench_connect(&b, idx, n);
	if (!ret)
		ret = bench_setup(&b, seen);
	if (ret)
		goto out;

	tw_stop_on_signals();
	shuffle_methods(idx, n, b.seed);
	print_plan(&b, idx, n);
	open_array("methods");
	ret = run_methods(&b, idx, n, deltas, ndelta);
	close_array();
	if (!ret && (tw_stop || b.partial))
		ret = TW_EXIT_PARTIAL;
out:
	restore_qdisc(&b);
	om_close(&b.om);
	if (b.methods_csv)
		fclose(b.methods_csv);
	if (b.send_csv)
		fclose(b.send_csv);
	free(b.buf);
	free(b.buf2);
	return ret;
}

static const struct tw_cmd bench_cmd = {
	.help = "Compare the send-time accuracy of OMware and its peers",
	.notes = bench_notes,
	.args = bench_args,
	.opts_size = sizeof(struct bench_opts),
	.init = bench_init,
	.run = bench_run,
};

int main(int argc, char **argv)
{
	int ret;

	bench_notes_init();
	ret = tw_run_cmd(PROG, &bench_cmd, argc - 1, argv + 1);

	print_finish();
	return ret;
}
