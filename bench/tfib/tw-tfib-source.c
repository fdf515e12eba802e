// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-source - the Source machine of the Age-of-Information experiment:
 * send a trace of location and app updates to a tfib forwarder through a
 * token bucket, receive the app updates it forwards back, and record both.
 *
 * The trace (a tw-tfib-trace file, binary or CSV, or generated in memory by
 * bench/lib/aoi_trace.c) is loaded before the run.  One sender thread sends
 * its rows in order over AF_PACKET, as many per opportunity as the token
 * bucket of bench/lib/tbucket.c admits (rate R, burst B): a control row is a
 * location update (TFIB_PKT_TYPE_CONTROL) for its user, with the next
 * sequence of that user's locations, the send time as location timestamp
 * and the sink interface's MAC as next hop, so the forwarder sends the
 * user's app updates back to us; a data row is an app update
 * (TFIB_PKT_TYPE_DATA) with a sequence unique to its user and the send
 * time.  One receiver thread takes the forwarded app updates on the sink
 * interface (possibly the same one).  Both read CLOCK_MONOTONIC, also the
 * forwarder table's default clock, so every time of the run is on one
 * clock.
 *
 * sendmmsg() rather than a PACKET_MMAP transmit ring: on a veth pair the
 * two carried the same rate within the noise of the measurement
 * (Documentation/tfib.rst), and sendmmsg says how many frames the device
 * took, which is the L_i the token bucket needs.  The receiver reads a
 * TPACKET_V3 ring rather than calling recvmmsg(): the kernel copies each
 * frame in its receive path, and the receiver, which shares the sender's
 * CPU, makes no system call per frame (on veth the source then reached
 * 1.6-1.8 times the rate; Documentation/tfib.rst).  --pace omware hands the
 * frames to omware.ko instead, each with the time the same bucket plans
 * for it (tfib_pace.c); the module sends it then and reports when it left.
 *
 * Records live in memory allocated (and touched) before the first packet;
 * events.csv and run.json are written when the run ends: after the whole
 * trace was sent and a drain time passed, or on SIGINT / SIGTERM.
 *
 * --simulate runs without a network: a stand-in for the forwarder answers
 * every app update from the last location update of its user, so the
 * records and frames can be tested on any host.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tfib_source.h"
#include "tfib_tool.h"
#include "lib/print.h"
#include "lib/stop.h"
#include "lib/util.h"

/* --- options ---------------------------------------------------------- */

enum {
	OPT_DRAIN = 256, OPT_CPU, OPT_RX_CPU, OPT_FIFO, OPT_LABEL,
	OPT_COUNTERS, OPT_COUNTERS_CMD, OPT_SIMULATE, OPT_FRAMES, OPT_PACE,
	OPT_REFUSED,
};

static const struct option long_opts[] = {
	{ "interface", required_argument, NULL, 'i' },
	{ "sink", required_argument, NULL, 'I' },
	{ "forwarder", required_argument, NULL, 'd' },
	{ "outdir", required_argument, NULL, 'o' },
	{ "rate", required_argument, NULL, 'r' },
	{ "burst", required_argument, NULL, 'b' },
	{ "trace", required_argument, NULL, 't' },
	{ "users", required_argument, NULL, 'u' },
	{ "cdr", required_argument, NULL, 'c' },
	{ "seed", required_argument, NULL, 's' },
	{ "rows", required_argument, NULL, 'n' },
	{ "drain", required_argument, NULL, OPT_DRAIN },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "rx-cpu", required_argument, NULL, OPT_RX_CPU },
	{ "fifo", required_argument, NULL, OPT_FIFO },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "counters-cmd", required_argument, NULL, OPT_COUNTERS_CMD },
	{ "simulate", no_argument, NULL, OPT_SIMULATE },
	{ "frames", required_argument, NULL, OPT_FRAMES },
	{ "pace", required_argument, NULL, OPT_PACE },
	{ "refused", required_argument, NULL, OPT_REFUSED },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tw-tfib-source -i IFNAME -d FWD_MAC -o OUTDIR [-I SINK_IFNAME]\n"
		"                     [-r RATE] [-b BURST] [-t TRACE | -u USERS -c CDR -s SEED -n ROWS]\n"
		"                     [--drain MS] [--cpu N] [--rx-cpu N] [--fifo PRIO]\n"
		"                     [--pace sendmmsg|omware] [--refused retry|lost]\n"
		"                     [--label KEY=VALUE]... [--counters FILE | --counters-cmd CMD]\n"
		"                     [-j] [-q]\n"
		"       tw-tfib-source --simulate -o OUTDIR [--frames FILE] [...]\n"
		"  -i, --interface IFNAME   send the trace on IFNAME\n"
		"  -I, --sink IFNAME        receive the forwarded app updates here (default: -i)\n"
		"  -d, --forwarder MAC      the forwarder's MAC: the updates' destination\n"
		"  -o, --outdir DIR         write DIR/events.csv and DIR/run.json at the end\n"
		"  -r, --rate PPS           token bucket rate R (default 10000)\n"
		"  -b, --burst B            at most B packets per opportunity (default 32)\n"
		"  -t, --trace FILE         a tw-tfib-trace file, binary or CSV\n"
		"  -u, --users N            generated trace: users, Zipf(1) (default 1000)\n"
		"  -c, --cdr CDR            generated trace: control/data rows (default 0.01)\n"
		"  -s, --seed SEED          generated trace: seed (default 1)\n"
		"  -n, --rows N             generated trace: rows (default 100000)\n"
		"      --drain MS           wait MS after the last send for stragglers (default 200)\n"
		"      --cpu N              pin the sender to CPU N (default: the CPU it starts on)\n"
		"      --rx-cpu N           pin the receiver to CPU N (default: not pinned)\n"
		"      --fifo PRIO          run both threads SCHED_FIFO at PRIO\n"
		"      --pace HOW           sendmmsg (default): the sender sends what the bucket\n"
		"                           admits when it looks; omware: omware.ko sends each\n"
		"                           frame at the time the bucket plans for it\n"
		"      --refused HOW        a frame the device refuses: retry (default), its\n"
		"                           token kept; lost: counted sent, as a wire loses it\n"
		"      --label KEY=VALUE    add a field to run.json (sync=rcu, fwd=inline, ...)\n"
		"      --counters FILE      the forwarder's counter deltas, \"name value\" lines,\n"
		"                           read when the run ends, into run.json\n"
		"      --counters-cmd CMD   run CMD before and after the run; it prints counters\n"
		"                           as \"name value\" lines; run.json gets after - before\n"
		"      --simulate           no network: a stand-in forwarder answers from memory\n"
		"      --frames FILE        with --simulate: write every frame sent, 60 bytes each\n"
		"  -j, --json               summary on stdout as JSON\n"
		"  -q, --quiet              no progress on stderr\n"
		"SIGINT or SIGTERM end the run early; what was sent and received is written.\n");
}

/* KEY=VALUE with KEY of [a-z0-9_], not a field the tool writes itself. */
static int check_label(const char *s)
{
	static const char *const own[] = {
		"rate_pps", "burst", "cdr", "users", "seed", "trace", "rows",
		"interface", "sink_interface", "forwarder_mac", "sink_mac",
		"source_mac", "tx", "clock", "start_ns", "send_end_ns", "end_ns", "drain_ms",
		"stop", "sent_pps", "packets_sent", "control_sent",
		"packets_received", "rx_other", "rx_no_record",
		"rx_socket_drops", "tx_short", "counters", "tx_dropped",
		"tx_dropped_data", "tx_dropped_control",
		"tx_unreported", "omware_late_ns", "omware_late_over",
		"omware_late_threshold_ns", "cpu_busy_permille",
		"tx_sndbuf_bytes", "tx_refused_policy", "tx_refused",
	};
	size_t klen = strcspn(s, "="), i;

	for (i = 0; i < klen; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '_')
			break;
	if (!klen || i < klen || !s[klen] || klen >= NAME_LEN) {
		tw_err("--label takes KEY=VALUE with KEY of a-z, 0-9 and _, not \"%s\"",
		       s);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(own); i++)
		if (strlen(own[i]) == klen && !strncmp(s, own[i], klen)) {
			tw_err("--label %.*s: run.json has that field already",
			       (int)klen, s);
			return -1;
		}
	return 0;
}

static int opt_u32(const char *opt, const char *s, uint32_t *val,
		   uint64_t min, uint64_t max)
{
	uint64_t v;

	if (tfib_opt_u64(opt, s, &v, min, max))
		return -1;
	*val = (uint32_t)v;
	return 0;
}

static int opt_cpu(const char *opt, const char *s, int *cpu)
{
	uint32_t v;

	if (opt_u32(opt, s, &v, 0, CPU_SETSIZE - 1))
		return -1;
	*cpu = (int)v;
	return 0;
}

/* The options that take a name: interface, file, directory, command. */
static const struct {
	int opt;
	size_t off;
} name_opts[] = {
	{ 'i', offsetof(struct src_opts, ifname) },
	{ 'I', offsetof(struct src_opts, sink_ifname) },
	{ 'o', offsetof(struct src_opts, outdir) },
	{ 't', offsetof(struct src_opts, trace_path) },
	{ OPT_COUNTERS, offsetof(struct src_opts, counters_path) },
	{ OPT_COUNTERS_CMD, offsetof(struct src_opts, counters_cmd) },
	{ OPT_FRAMES, offsetof(struct src_opts, frames_path) },
};

static bool parse_name(struct src_opts *o, int opt, const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(name_opts); i++) {
		if (name_opts[i].opt == opt) {
			*(const char **)((char *)o + name_opts[i].off) = arg;
			return true;
		}
	}
	return false;
}

/* The generated trace's options. */
static int parse_gen(struct src_opts *o, int opt, const char *arg)
{
	uint64_t v;

	o->gen_given = true;
	switch (opt) {
	case 'u':
		return opt_u32("-u", arg, &o->gen.users, 1, TW_AOI_MAX_USERS);
	case 'c':
		return tfib_opt_cdr("-c", arg, &o->gen.cdr);
	case 'n':
		return tfib_opt_u64("-n", arg, &o->rows, 1, UINT32_MAX);
	}
	if (tfib_opt_u64("-s", arg, &v, 0, UINT64_MAX))
		return -1;
	o->gen.seed = v;
	return 0;
}

static int parse_label(struct src_opts *o, const char *arg)
{
	if (o->nlabels == MAX_LABELS) {
		tw_err("at most %d --label", MAX_LABELS);
		return -1;
	}
	o->labels[o->nlabels++] = arg;
	return check_label(arg);
}

static int parse_pace(struct src_opts *o, const char *arg)
{
	o->pace_omware = !strcmp(arg, "omware");
	if (o->pace_omware || !strcmp(arg, "sendmmsg"))
		return 0;
	tw_err("--pace takes sendmmsg or omware, not \"%s\"", arg);
	return -1;
}

static int parse_refused(struct src_opts *o, const char *arg)
{
	o->refused_lost = !strcmp(arg, "lost");
	if (o->refused_lost || !strcmp(arg, "retry"))
		return 0;
	tw_err("--refused takes retry or lost, not \"%s\"", arg);
	return -1;
}

static int parse_one(struct src_opts *o, int opt, const char *arg)
{
	if (parse_name(o, opt, arg))
		return 0;
	switch (opt) {
	case OPT_SIMULATE:
		o->simulate = true;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case 'd':
		o->have_mac = !tw_parse_mac(arg, o->fwd_mac);
		if (!o->have_mac)
			tw_err("-d takes the forwarder's MAC, aa:bb:cc:dd:ee:ff, not \"%s\"",
			       arg);
		return o->have_mac ? 0 : -1;
	case 'r':
		return opt_u32("-r", arg, &o->rate, 1, UINT32_MAX);
	case 'b':
		return opt_u32("-b", arg, &o->burst, 1, MAX_BURST);
	case OPT_DRAIN:
		return opt_u32("--drain", arg, &o->drain_ms, 0, 3600000);
	case OPT_CPU:
		return opt_cpu("--cpu", arg, &o->tx_cpu);
	case OPT_RX_CPU:
		return opt_cpu("--rx-cpu", arg, &o->rx_cpu);
	case OPT_FIFO:
		return opt_u32("--fifo", arg, &o->fifo, 1,
			       sched_get_priority_max(SCHED_FIFO));
	case OPT_LABEL:
		return parse_label(o, arg);
	case OPT_PACE:
		return parse_pace(o, arg);
	case OPT_REFUSED:
		return parse_refused(o, arg);
	}
	return parse_gen(o, opt, arg);
}

/* What a complete command line needs; an error says what to add. */
static int check_opts(struct src_opts *o)
{
	if (!o->outdir) {
		tw_err("where should the records go? add -o OUTDIR");
		return -1;
	}
	if (o->trace_path && o->gen_given) {
		tw_err("-u, -c, -s and -n describe a generated trace: leave them out with -t FILE");
		return -1;
	}
	if (o->counters_path && o->counters_cmd) {
		tw_err("--counters and --counters-cmd both give the counters: keep one");
		return -1;
	}
	if (o->frames_path && !o->simulate) {
		tw_err("--frames writes the frames of a --simulate run only");
		return -1;
	}
	if (o->refused_lost && o->pace_omware) {
		tw_err("--refused is sendmmsg's: omware loses what the device refuses anyway");
		return -1;
	}
	if (o->simulate && o->pace_omware) {
		tw_err("--pace omware sends through the module: not with --simulate");
		return -1;
	}
	if (o->simulate) {
		if (o->ifname || o->sink_ifname) {
			tw_err("--simulate uses no interface: leave out -i and -I");
			return -1;
		}
		if (!o->have_mac)
			tw_parse_mac(SIM_FWD_MAC, o->fwd_mac);
		return 0;
	}
	if (!o->ifname || !o->have_mac) {
		tw_err("name the sending interface and the forwarder: -i IFNAME -d MAC");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct src_opts *o)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "i:I:d:o:r:b:t:u:c:s:n:jqh",
				  long_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			exit(TW_EXIT_OK);
		}
		if (opt == '?') {
			fprintf(stderr, "Run tw-tfib-source -h for the options.\n");
			return -1;
		}
		if (parse_one(o, opt, optarg))
			return -1;
	}
	if (optind != argc) {
		tw_err("unexpected argument \"%s\": every input is an option (-h lists them)",
		       argv[optind]);
		return -1;
	}
	return check_opts(o);
}

/* --- the run ---------------------------------------------------------- */

static int prepare(struct run *r)
{
	const struct src_opts *o = r->o;
	struct trace *t = &r->tr;
	uint64_t data;

	if (o->trace_path ? trace_load(t, o->trace_path) : trace_generate(t, o))
		return -1;
	if (trace_number(t, o->trace_path && !t->has_seed))
		return -1;
	data = t->n - t->control;
	r->rx_cap = data + RX_SLACK;
	r->tx_ns = malloc(t->n * sizeof(*r->tx_ns));
	r->rx = malloc(r->rx_cap * sizeof(*r->rx));
	if (!r->tx_ns || !r->rx) {
		tw_err("no memory for the records of %" PRIu64 " rows", t->n);
		return -1;
	}
	/* Touched now, so the run takes no page faults on them. */
	memset(r->tx_ns, 0, t->n * sizeof(*r->tx_ns));
	memset(r->rx, 0, r->rx_cap * sizeof(*r->rx));
	if (!o->simulate)
		return open_sockets(r);
	/* One interface sends and receives, as in the usual set-up. */
	tw_parse_mac(SIM_SINK_MAC, r->sink_mac);
	memcpy(r->tx_mac, r->sink_mac, ETH_ALEN);
	tx_mac_apart(r);
	r->sim = calloc((size_t)t->users + 1, sizeof(*r->sim));
	if (!r->sim) {
		tw_err("no memory for the stand-in forwarder");
		return -1;
	}
	r->frames = o->frames_path ? fopen(o->frames_path, "wb") : NULL;
	if (o->frames_path && !r->frames) {
		tw_err("%s: %s", o->frames_path, strerror(errno));
		return -1;
	}
	return 0;
}

static void progress(const struct run *r, uint64_t now)
{
	double s = (double)(now - r->start_ns) / NSEC_PER_SEC;
	uint64_t sent = atomic_load(&r->sent);

	fprintf(stderr, PROG ": %.0f s: sent %" PRIu64 " of %" PRIu64
		" (%.0f pps), received %zu\n", s, sent, r->tr.n,
		s > 0 ? sent / s : 0.0, atomic_load(&r->rx_n));
}

/* Sender and receiver from start to the end of the drain. */
static int run_threads(struct run *r)
{
	pthread_t tx, rx;
	uint64_t next, drain = r->o->drain_ms * (uint64_t)NSEC_PER_MSEC;
	int err;

	err = pthread_create(&rx, NULL, receiver, r);
	if (err) {
		tw_err("receiver thread: %s", strerror(err));
		return -1;
	}
	while (!__atomic_load_n(&r->rx_ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	r->cpu_ok = !tw_cpu_times_read(&r->cpu_start);
	r->start_ns = mono_ns();
	err = pthread_create(&tx, NULL, sender, r);
	if (err) {
		tw_err("sender thread: %s", strerror(err));
		tw_stop = true;
		atomic_store(&r->tx_done, true);
	}
	next = r->start_ns + NSEC_PER_SEC;
	while (!atomic_load(&r->tx_done)) {
		usleep(10000);
		if (!r->o->quiet && mono_ns() >= next) {
			progress(r, next);
			next += NSEC_PER_SEC;
		}
	}
	if (!err)
		pthread_join(tx, NULL);
	r->cpu_ok = r->cpu_ok && !tw_cpu_times_read(&r->cpu_end);
	/* Stragglers: until the drain ends, or at once on a signal. */
	next = mono_ns() + drain;
	while (!tw_stop && mono_ns() < next)
		usleep(1000);
	atomic_store(&r->rx_stop, true);
	pthread_join(rx, NULL);
	return 0;
}

static int run_network(struct run *r)
{
	socklen_t len = sizeof(r->rx_stats);

	r->rt_off = tw_clock_offset(CLOCK_REALTIME);
	if (run_threads(r))
		return -1;
	r->end_ns = mono_ns();
	/* Drops since the socket was opened; reading them resets them. */
	getsockopt(r->rx_fd, SOL_PACKET, PACKET_STATISTICS, &r->rx_stats,
		   &len);
	return 0;
}

/* Why the run ended: done, signal, error, or dropped (omware's). */
static const char *run_stop(const struct run *r)
{
	if (r->tx_err || r->pace_ret)
		return "error";
	if (atomic_load(&r->sent) < r->tr.n)
		return "signal";
	/* omware had every row; some did not leave, cancelled by a signal? */
	if (r->pace.dropped)
		return tw_stop ? "signal" : "dropped";
	return "done";
}

static int read_counters_file(const char *path, struct counters *c)
{
	FILE *f = fopen(path, "r");
	int err;

	if (!f) {
		tw_err("--counters %s: %s", path, strerror(errno));
		return -1;
	}
	err = counters_read(f, path, c);
	fclose(f);
	return err;
}

int main(int argc, char **argv)
{
	struct src_opts o = {
		.rate = 10000, .burst = 32, .rows = 100000, .drain_ms = 200,
		.gen = { .users = 1000, .cdr = TW_AOI_CDR_ONE / 100, .seed = 1 },
		.tx_cpu = -1, .rx_cpu = -1,
	};
	static struct run r;
	static struct counters before, after;
	bool have_counters = false;
	const char *stop;

	if (parse_args(argc, argv, &o))
		return TW_EXIT_FAIL;
	if (o.tx_cpu < 0)
		o.tx_cpu = sched_getcpu();
	r.o = &o;
	if (prepare(&r))
		return TW_EXIT_SYS;
	tw_stop_on_signals();
	if (o.counters_cmd && counters_run(o.counters_cmd, &before))
		return TW_EXIT_SYS;
	if (o.simulate ? run_simulated(&r) : run_network(&r))
		return TW_EXIT_SYS;
	/* omware's reason was printed where it failed. */
	if (r.pace_ret)
		tw_err("sending on %s through omware stopped: %" PRIu64
		       " of %" PRIu64 " rows sent", o.ifname, rows_sent(&r),
		       r.tr.n);
	else if (r.tx_err)
		tw_err("sending on %s: %s", o.ifname, strerror(r.tx_err));
	stop = run_stop(&r);
	if (o.counters_cmd) {
		have_counters = !counters_run(o.counters_cmd, &after);
		counters_delta(&after, &before);
	} else if (o.counters_path) {
		have_counters = !read_counters_file(o.counters_path, &after);
	}
	if (write_records(&r, have_counters ? &after : NULL, stop))
		return TW_EXIT_SYS;
	print_summary(&r, stop);
	if (r.rx_stats.tp_drops || r.rx_lost)
		tw_warn("%u frames dropped by the receive socket, %" PRIu64
			" without a record: counted in run.json",
			r.rx_stats.tp_drops, r.rx_lost);
	if (r.pace_ret)
		return r.pace_ret;
	if (r.tx_err || ((o.counters_cmd || o.counters_path) && !have_counters))
		return TW_EXIT_SYS;
	return strcmp(stop, "done") ? TW_EXIT_PARTIAL : TW_EXIT_OK;
}
