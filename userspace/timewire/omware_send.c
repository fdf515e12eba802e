// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire omware send", "train" and "pair": create a session, hand
 * every packet over ahead of its time, then collect the one report the
 * kernel owes for each packet (omware/session.c) and summarize them.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/print.h"
#include "lib/stats.h"
#include "lib/stop.h"
#include "omware_cli.h"
#include "lib/netdev.h"
#include "omware/attrs.h"
#include "omware/packet.h"
#include "omware/probe.h"
#include "omware/schedule.h"
#include "omware/session.h"

#define DEFAULT_START_US	100000
#define DEFAULT_GAP_US		1000
/* Reports still missing this long after the last send time are lost. */
#define REPORT_GRACE_NS		5000000000LL
#define CANCEL_GRACE_MS		1000
#define MAX_US			3600000000ULL	/* one hour */
#define MAX_COUNT		10000000
#define MAX_SPAN_US		86400000000ULL	/* one day */

enum { FORMAT_PAYLOAD, FORMAT_FRAME };

static const struct tw_keyword format_words[] = {
	{ "payload", FORMAT_PAYLOAD },
	{ "frame", FORMAT_FRAME },
	{ NULL, 0 },
};

/* ---------------------------------------------------------------------- */
/* Options shared by send, train and pair */

struct sess_opts {
	const char *dev;
	int clock;
	int mode;
	int xmit;
	uint32_t cpu;
	uint32_t late_ns;
	uint32_t guard_max_ns;
	uint32_t max_pkts;
	uint32_t max_bytes;
	uint32_t size;
	int format;
	uint8_t dst_mac[6];
	struct in_addr dst;
	struct in_addr src;
	uint32_t dport;
	uint32_t sport;
	const char *report_file;
	uint64_t start_in_us;
};

/*
 * The arguments every sending command shares, in groups so that each
 * command lists its own arguments where a user looks for them.  Their
 * offsets are into struct sess_opts, the first member of every command's
 * options.
 */
static const struct tw_arg session_head_args[] = {
	{ .name = "dev", .type = TW_ARG_STR,
	  .off = offsetof(struct sess_opts, dev), .meta = "IFNAME",
	  .help = "network device to send on",
	  .flags = TW_ARG_REQUIRED },
	{ .name = "clock", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, clock), .keywords = tw_clock_words,
	  .help = "clock of the send times (default mono)" },
	{ .name = "mode", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, mode), .keywords = omware_mode_words,
	  .help = "send from the timer, or wake early and spin (default timer)" },
	{ .name = "xmit", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, xmit), .keywords = omware_xmit_words,
	  .help = "straight to the driver, or through the qdisc (default direct)" },
	{ .name = "cpu", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, cpu), .meta = "N",
	  .help = "CPU of the hybrid mode's thread",
	  .max = 65535 },
	{ .name = NULL },
};

static const struct tw_arg size_args[] = {
	{ .name = "size", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, size), .meta = "BYTES",
	  .help = "IPv4 packet size (default 64, at least 40)",
	  .min = TW_IP_MIN_LEN, .max = TW_IP_MAX_LEN },
	{ .name = NULL },
};

/* When the first packet (send) or train (train, pair) is due. */
static const struct tw_arg start_args[] = {
	{ .name = "start-in", .type = TW_ARG_U64,
	  .off = offsetof(struct sess_opts, start_in_us), .meta = "US",
	  .help = "first send time, microseconds from now (default 100000)",
	  .max = MAX_US },
	{ .name = NULL },
};

static const struct tw_arg session_tail_args[] = {
	{ .name = "dst-mac", .type = TW_ARG_MAC,
	  .off = offsetof(struct sess_opts, dst_mac), .meta = "MAC",
	  .help = "destination MAC (default ff:ff:ff:ff:ff:ff)" },
	{ .name = "dst", .type = TW_ARG_IPV4,
	  .off = offsetof(struct sess_opts, dst), .meta = "IP",
	  .help = "destination IPv4 address (default 198.18.0.2)" },
	{ .name = "src", .type = TW_ARG_IPV4,
	  .off = offsetof(struct sess_opts, src), .meta = "IP",
	  .help = "source address (default: the device's, or 198.18.0.1)" },
	{ .name = "dport", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, dport), .meta = "N",
	  .help = "UDP destination port (default 29000)",
	  .max = 65535 },
	{ .name = "sport", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, sport), .meta = "N",
	  .help = "UDP source port (default 29000)",
	  .max = 65535 },
	{ .name = "format", .type = TW_ARG_KEYWORD,
	  .off = offsetof(struct sess_opts, format), .keywords = format_words,
	  .help = "hand over IP packets, or whole Ethernet frames (default payload)" },
	{ .name = "report-file", .type = TW_ARG_STR,
	  .off = offsetof(struct sess_opts, report_file), .meta = "PATH",
	  .help = "write one CSV line per packet" },
	{ .name = "late-ns", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, late_ns), .meta = "NS",
	  .help = "lateness counted as late (kernel default "
		  TW_STR(OMWARE_LATE_NS_DEFAULT) ")",
	  .max = UINT32_MAX },
	{ .name = "guard-max-ns", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, guard_max_ns), .meta = "NS",
	  .help = "cap of the hybrid mode's spin guard (kernel default "
		  TW_STR(OMWARE_GUARD_MAX_NS_DEFAULT) ")",
	  .min = OMWARE_GUARD_MIN_NS, .max = OMWARE_GUARD_MAX_NS_LIMIT },
	{ .name = "max-pkts", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, max_pkts), .meta = "N",
	  .help = "cap of the session's pending packets",
	  .min = 1, .max = UINT32_MAX },
	{ .name = "max-bytes", .type = TW_ARG_U32,
	  .off = offsetof(struct sess_opts, max_bytes), .meta = "N",
	  .help = "cap of the session's pending bytes",
	  .min = 1, .max = UINT32_MAX },
	{ .name = NULL },
};

static void sess_init(struct sess_opts *s)
{
	s->clock = CLOCK_MONOTONIC;
	s->mode = OMWARE_MODE_TIMER;
	s->xmit = OMWARE_XMIT_DIRECT;
	s->size = 64;
	s->format = FORMAT_PAYLOAD;
	memset(s->dst_mac, 0xff, sizeof(s->dst_mac));
	s->dst.s_addr = htonl(0xc6120002);	/* 198.18.0.2 */
	s->src.s_addr = INADDR_ANY;
	s->dport = TW_PROBE_PORT;
	s->sport = TW_PROBE_PORT;
	s->start_in_us = DEFAULT_START_US;
}

/* ---------------------------------------------------------------------- */
/* A run: one session, its packets and their reports */

struct run {
	struct om_session s;
	const struct tw_arg *args;
	uint64_t seen;
	const struct sess_opts *o;
};

static bool given(struct run *run, const char *name)
{
	return tw_arg_given(run->args, run->seen, name);
}

/* The packets' shape from the options; returns an exit code. */
static int pkt_spec(struct run *run, struct tw_pkt_spec *spec)
{
	const struct sess_opts *o = run->o;
	int ret;

	spec->ip_len = o->size;
	spec->dst = o->dst;
	spec->sport = o->sport;
	spec->dport = o->dport;
	memcpy(spec->dst_mac, o->dst_mac, 6);
	spec->src = o->src;
	if (!given(run, "src") && tw_dev_ipv4(o->dev, &spec->src))
		spec->src.s_addr = htonl(0xc6120001);	/* 198.18.0.1 */
	if (o->format == FORMAT_FRAME) {
		spec->frame = true;
		ret = tw_dev_mac(o->dev, spec->src_mac);
		if (ret) {
			tw_err("cannot read the MAC address of %s: %s", o->dev,
			       strerror(-ret));
			return TW_EXIT_SYS;
		}
	}
	return TW_EXIT_OK;
}

/* The session's attributes from the options. */
static void session_cfg(struct run *run, unsigned int ifindex,
			struct om_session_cfg *cfg)
{
	static const struct {
		const char *arg;
		unsigned int bit;
	} optional[] = {
		{ "cpu", OM_SET_CPU },
		{ "late-ns", OM_SET_LATE },
		{ "guard-max-ns", OM_SET_GUARD_MAX },
		{ "max-pkts", OM_SET_MAX_PKTS },
		{ "max-bytes", OM_SET_MAX_BYTES },
	};
	const struct sess_opts *o = run->o;
	size_t i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->ifindex = ifindex;
	cfg->clock = o->clock;
	cfg->mode = o->mode;
	cfg->xmit = o->xmit;
	cfg->cpu = o->cpu;
	cfg->late_ns = o->late_ns;
	cfg->guard_max_ns = o->guard_max_ns;
	cfg->max_pkts = o->max_pkts;
	cfg->max_bytes = o->max_bytes;
	for (i = 0; i < ARRAY_SIZE(optional); i++)
		if (given(run, optional[i].arg))
			cfg->set |= optional[i].bit;
}

/*
 * Check the options, plan n packets, connect and create the session.
 * Returns an exit code.
 */
static int run_start(struct run *run, const struct sess_opts *o, size_t n)
{
	struct om_session_cfg cfg;
	struct tw_pkt_spec spec = { 0 };
	unsigned int ifindex;
	int ret;

	run->o = o;
	ifindex = if_nametoindex(o->dev);
	if (!ifindex) {
		tw_err("no network device \"%s\"", o->dev);
		return TW_EXIT_FAIL;
	}
	ret = pkt_spec(run, &spec);
	if (!ret)
		ret = om_run_init(&run->s, &spec, n);
	if (!ret)
		ret = om_connect(&run->s);
	if (ret)
		return ret;
	session_cfg(run, ifindex, &cfg);
	ret = om_session_create(&run->s, &cfg);
	if (ret)
		return ret;
	/* Learn the session's late threshold, to count late packets alike. */
	if (!given(run, "late-ns"))
		om_session_get(&run->s);
	tw_stop_on_signals();
	return TW_EXIT_OK;
}

/* Wait for the reports; on a stop, cancel what is pending and take those. */
static void run_collect(struct run *run, uint64_t deadline)
{
	om_collect(&run->s, deadline);
	if (tw_stop) {
		om_finish(&run->s, CANCEL_GRACE_MS);
		tw_warn("interrupted: pending packets were cancelled");
	}
}

static const char *status_word(int status)
{
	const char *w = tw_keyword_name(omware_status_words, status);

	return w ? w : "unknown";
}

static int write_csv(struct run *run)
{
	const char *path = run->o->report_file;
	struct om_report *r;
	FILE *f;
	size_t i;

	f = fopen(path, "w");
	if (!f) {
		tw_err("cannot write %s: %s", path, strerror(errno));
		return TW_EXIT_SYS;
	}
	fprintf(f, "cookie,sched_ns,sent_ns,late_ns,status,rc\n");
	for (i = 0; i < run->s.n; i++) {
		r = &run->s.rep[i];
		if (r->have)
			fprintf(f, "%zu,%llu,%llu,%lld,%s,%d\n", i,
				(unsigned long long)r->sched_ns,
				(unsigned long long)r->sent_ns,
				(long long)r->late_ns, status_word(r->status),
				r->rc);
		else
			fprintf(f, "%zu,%llu,0,0,missing,0\n", i,
				(unsigned long long)r->sched_ns);
	}
	if (fclose(f)) {
		tw_err("cannot write %s: %s", path, strerror(errno));
		return TW_EXIT_SYS;
	}
	return TW_EXIT_OK;
}

static void print_ns_stats(const char *key, int64_t *v, size_t n)
{
	struct tw_stats st;

	tw_stats_compute(v, n, &st);
	open_object(key);
	print_u64("count", st.n);
	if (n) {
		print_s64("mean", st.mean);
		print_s64("min", st.min);
		print_s64("p50", st.p50);
		print_s64("p99", st.p99);
		print_s64("max", st.max);
	}
	close_object();
}

/*
 * Print the outcome; train > 0 adds the gaps between the members of each
 * train of that many packets.  Returns an exit code.
 */
static int summarize(struct run *run, size_t train)
{
	size_t sent = 0, late = 0, early = 0, dropped = 0, cancelled = 0;
	size_t missing, i, ngaps = 0;
	int64_t *err, *gaps = NULL;
	struct om_report *r;
	int ret = TW_EXIT_OK;

	err = calloc(run->s.n ? run->s.n : 1, sizeof(*err));
	if (train)
		gaps = calloc(run->s.n ? run->s.n : 1, sizeof(*gaps));
	if (!err || (train && !gaps)) {
		free(err);
		free(gaps);
		tw_err("out of memory");
		return TW_EXIT_SYS;
	}
	for (i = 0; i < run->s.n; i++) {
		r = &run->s.rep[i];
		if (!r->have)
			continue;
		switch (r->status) {
		case OMWARE_STATUS_SENT:
			err[sent++] = r->late_ns;
			if (r->late_ns > (int64_t)run->s.late_ns)
				late++;
			if (r->late_ns < 0)
				early++;
			break;
		case OMWARE_STATUS_DROPPED:
			dropped++;
			break;
		default:
			cancelled++;
		}
		if (train && i % train && r->status == OMWARE_STATUS_SENT &&
		    run->s.rep[i - 1].have &&
		    run->s.rep[i - 1].status == OMWARE_STATUS_SENT)
			gaps[ngaps++] = (int64_t)(r->sent_ns -
						  run->s.rep[i - 1].sent_ns);
	}
	missing = run->s.n - run->s.got;

	print_u64("packets", run->s.n);
	print_u64("submitted", run->s.submitted);
	print_u64("sent", sent);
	print_u64("late", late);
	print_u64("early", early);
	print_u64("dropped", dropped);
	print_u64("cancelled", cancelled);
	print_u64("missing", missing);
	print_u64("late_threshold_ns", run->s.late_ns);
	/* The error of a send: actual minus scheduled time. */
	print_ns_stats("error_ns", err, sent);
	if (train)
		print_ns_stats("gap_ns", gaps, ngaps);

	if (early)
		tw_warn("%zu packets left before their time", early);
	if (run->s.dups || run->s.strays)
		tw_warn("%zu duplicate and %zu unexpected reports", run->s.dups,
			run->s.strays);
	if (run->s.nl.overruns)
		tw_warn("the receive buffer overflowed %u times and reports were lost; raise net.core.rmem_max or run with CAP_NET_ADMIN",
			run->s.nl.overruns);
	if (missing)
		tw_warn("%zu packets were never reported", missing);
	if (missing || dropped || cancelled)
		ret = TW_EXIT_PARTIAL;
	if (run->o->report_file) {
		int r2 = write_csv(run);

		if (r2)
			ret = r2;
	}
	free(err);
	free(gaps);
	return ret;
}

static void print_session_head(struct run *run)
{
	const struct sess_opts *o = run->o;

	print_u64("session", run->s.id);
	print_string("dev", o->dev);
	print_string("clock", tw_keyword_name(tw_clock_words, o->clock));
	print_string("mode", tw_keyword_name(omware_mode_words, o->mode));
	print_string("xmit", tw_keyword_name(omware_xmit_words, o->xmit));
	print_u64("size", o->size);
}

/* ---------------------------------------------------------------------- */
/* send */

struct send_opts {
	struct sess_opts s;	/* first: the shared argument tables say so */
	uint32_t count;
	struct tw_sched_spec sched;
	uint32_t batch;
	uint64_t seed;
};

_Static_assert(offsetof(struct send_opts, s) == 0, "sess_opts must lead");

static int parse_schedule(void *dst, int argc, char **argv)
{
	char err[160];
	int n;

	n = tw_sched_parse(dst, argc, argv, err, sizeof(err));
	if (n < 0)
		tw_err("%s", err);
	return n;
}

static const struct tw_arg send_args[] = {
	{ .include = session_head_args },
	{ .name = "count", .type = TW_ARG_U32,
	  .off = offsetof(struct send_opts, count), .meta = "N",
	  .help = "packets to send (default 100, or every line of a file)",
	  .min = 1, .max = MAX_COUNT },
	{ .include = size_args },
	{ .name = "schedule", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct send_opts, sched),
	  .meta = "{ periodic ALPHA_US | poisson MEAN_US | gamma SHAPE MEAN_US | file PATH }",
	  .help = "when the packets are due, relative to the first",
	  .flags = TW_ARG_REQUIRED, .parse = parse_schedule },
	{ .name = "seed", .type = TW_ARG_U64,
	  .off = offsetof(struct send_opts, seed), .meta = "N",
	  .help = "seed of poisson and gamma schedules (default: from the clock)",
	  .max = UINT64_MAX },
	{ .include = start_args },
	{ .name = "batch", .type = TW_ARG_U32,
	  .off = offsetof(struct send_opts, batch), .meta = "N",
	  .help = "packets per submit message (default: as many as fit in 64 KiB)",
	  .min = 1, .max = 65536 },
	{ .include = session_tail_args },
	{ .name = NULL },
};

static void send_init(void *p)
{
	struct send_opts *o = p;

	sess_init(&o->s);
	o->count = 100;
}

static int send_run(void *p, uint64_t seen)
{
	struct send_opts *o = p;
	struct run run = { .args = send_args, .seen = seen };
	uint64_t *offsets = NULL, start, last = 0, seed;
	size_t i, batch;
	char err[256];
	long n;
	int ret;

	seed = tw_arg_given(send_args, seen, "seed") ? o->seed :
	       tw_now_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 32);
	n = tw_sched_build(&o->sched,
			   o->sched.kind == TW_SCHED_FILE &&
			   !tw_arg_given(send_args, seen, "count") ?
			   0 : o->count, seed, &offsets, err, sizeof(err));
	if (n < 0) {
		tw_err("%s", err);
		return TW_EXIT_FAIL;
	}
	if (n > MAX_COUNT) {
		tw_err("at most %d packets per run", MAX_COUNT);
		free(offsets);
		return TW_EXIT_FAIL;
	}
	for (i = 0; i < (size_t)n; i++)
		if (offsets[i] > last)
			last = offsets[i];

	ret = run_start(&run, &o->s, n);
	if (ret)
		goto out;
	batch = o->batch ? o->batch : om_batch_default(&run.s);
	start = tw_now_ns(o->s.clock) + o->s.start_in_us * 1000;
	for (i = 0; i < (size_t)n; i++)
		run.s.rep[i].sched_ns = start + offsets[i];
	ret = om_submit_all(&run.s, batch);
	if (!ret || run.s.submitted)
		run_collect(&run, start + last + REPORT_GRACE_NS);

	if (run.s.submitted) {
		int r2;

		print_session_head(&run);
		print_string("schedule", tw_sched_name(o->sched.kind));
		if (o->sched.kind == TW_SCHED_POISSON ||
		    o->sched.kind == TW_SCHED_GAMMA)
			print_u64("seed", seed);
		print_nl();
		r2 = summarize(&run, 0);
		if (!ret)
			ret = r2;
	}
out:
	om_close(&run.s);
	free(offsets);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* train and pair */

struct train_opts {
	struct sess_opts s;	/* first: the shared argument tables say so */
	uint32_t count;
	uint32_t repeat;
	uint64_t gap_us;
};

_Static_assert(offsetof(struct train_opts, s) == 0, "sess_opts must lead");
/* Even the compact probe (packets under 48 bytes) numbers every packet. */
_Static_assert(TW_PROBE_COMPACT_INDEX_MAX + 1 >= OMWARE_TRAIN_MAX_PKTS,
	       "a train outnumbers the compact probe's index");

static void train_init(void *p)
{
	struct train_opts *o = p;

	sess_init(&o->s);
	o->count = 2;
	o->repeat = 1;
	o->gap_us = DEFAULT_GAP_US;
}

static const struct tw_arg train_gap_args[] = {
	{ .name = "gap", .type = TW_ARG_U64,
	  .off = offsetof(struct train_opts, gap_us), .meta = "US",
	  .help = "from the start of one train or pair to the next (default 1000)",
	  .max = MAX_US },
	{ .name = NULL },
};

static const struct tw_arg train_args[] = {
	{ .include = session_head_args },
	{ .name = "count", .type = TW_ARG_U32,
	  .off = offsetof(struct train_opts, count), .meta = "N",
	  .help = "packets per train", .flags = TW_ARG_REQUIRED,
	  .min = 2, .max = OMWARE_TRAIN_MAX_PKTS },
	{ .include = size_args },
	{ .include = start_args },
	{ .name = "repeat", .type = TW_ARG_U32,
	  .off = offsetof(struct train_opts, repeat), .meta = "R",
	  .help = "number of trains (default 1)",
	  .min = 1, .max = MAX_COUNT },
	{ .include = train_gap_args },
	{ .include = session_tail_args },
	{ .name = NULL },
};

static const struct tw_arg pair_args[] = {
	{ .include = session_head_args },
	{ .name = "pairs", .type = TW_ARG_U32,
	  .off = offsetof(struct train_opts, repeat), .meta = "N",
	  .help = "number of pairs (default 1)",
	  .min = 1, .max = MAX_COUNT },
	{ .include = train_gap_args },
	{ .include = size_args },
	{ .include = start_args },
	{ .include = session_tail_args },
	{ .name = NULL },
};

static int train_submit(struct run *run, const struct train_opts *o,
			uint64_t start)
{
	uint64_t when;
	uint32_t t;
	int ret;

	for (t = 0; t < o->repeat && !tw_stop; t++) {
		when = start + t * o->gap_us * 1000;
		ret = om_submit_train(&run->s, (size_t)t * o->count, o->count,
				      when);
		if (ret)
			return ret;
	}
	return TW_EXIT_OK;
}

static int train_common(struct train_opts *o, const struct tw_arg *args,
			uint64_t seen)
{
	struct run run = { .args = args, .seen = seen };
	uint64_t start, span;
	size_t n = (size_t)o->count * o->repeat;
	int ret;

	if (n > MAX_COUNT) {
		tw_err("at most %d packets per run", MAX_COUNT);
		return TW_EXIT_FAIL;
	}
	if (o->gap_us && o->repeat - 1 > MAX_SPAN_US / o->gap_us) {
		tw_err("the trains would span more than a day");
		return TW_EXIT_FAIL;
	}
	span = (uint64_t)(o->repeat - 1) * o->gap_us * 1000;
	ret = run_start(&run, &o->s, n);
	if (ret)
		goto out;
	start = tw_now_ns(o->s.clock) + o->s.start_in_us * 1000;
	ret = train_submit(&run, o, start);
	if (!ret || run.s.submitted)
		run_collect(&run, start + span + REPORT_GRACE_NS);

	if (run.s.submitted) {
		int r2;

		print_session_head(&run);
		print_u64("trains", o->repeat);
		print_u64("train_len", o->count);
		print_u64("gap_us", o->gap_us);
		print_nl();
		r2 = summarize(&run, o->count);
		if (!ret)
			ret = r2;
	}
out:
	om_close(&run.s);
	return ret;
}

static int train_run(void *p, uint64_t seen)
{
	return train_common(p, train_args, seen);
}

static int pair_run(void *p, uint64_t seen)
{
	struct train_opts *o = p;

	o->count = 2;
	return train_common(o, pair_args, seen);
}

/* ---------------------------------------------------------------------- */

static const char send_notes[] =
"The packets are IPv4/UDP probes (PROBE PACKETS in timewire-omware(8): magic,\n"
"sequence number, scheduled time, flags) numbered from 0; the number is also\n"
"the packet's cookie.  All are handed to the kernel ahead of time; the first\n"
"is due start-in microseconds from now, the others at their schedule offsets\n"
"after it.  The tool then waits for one report per packet and prints a\n"
"summary.\n";

static const char train_notes[] =
"Each train of count packets leaves back-to-back at its time; train i is due\n"
"start-in + i * gap microseconds from now.  gap_ns in the summary is the\n"
"spacing of consecutive members of a train as reported by the kernel.\n";

static const char pair_notes[] =
"The two packets of a pair leave back-to-back at its time; pair i is due\n"
"start-in + i * gap microseconds from now.  gap_ns in the summary is the\n"
"spacing of the two packets of a pair as reported by the kernel.\n";

const struct tw_cmd omware_send_cmd = {
	.name = "send",
	.help = "Send probe packets along a schedule and report each send time",
	.notes = send_notes,
	.args = send_args,
	.opts_size = sizeof(struct send_opts),
	.init = send_init,
	.run = send_run,
};

const struct tw_cmd omware_train_cmd = {
	.name = "train",
	.help = "Send trains of back-to-back packets",
	.notes = train_notes,
	.args = train_args,
	.opts_size = sizeof(struct train_opts),
	.init = train_init,
	.run = train_run,
};

const struct tw_cmd omware_pair_cmd = {
	.name = "pair",
	.help = "Send packet pairs (trains of two)",
	.notes = pair_notes,
	.args = pair_args,
	.opts_size = sizeof(struct train_opts),
	.init = train_init,
	.run = pair_run,
};
