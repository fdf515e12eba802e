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
 *   TOM  omware trains of two (packet pairs), pre-dispatched
 *   TRW  AF_PACKET socket, sleep, then two sendto back to back
 *   ETF  SO_TXTIME through the etf qdisc, one trial per delta
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/errqueue.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <linux/omware.h>

#include "lib/args.h"
#include "lib/clock.h"
#include "cpustat.h"
#include "lib/netdev.h"
#include "lib/print.h"
#include "lib/stats.h"
#include "lib/stop.h"
#include "omware/packet.h"
#include "omware/probe.h"
#include "omware/schedule.h"
#include "omware/session.h"

/* The module's adaptive guard, from the portable core. */
#include "guard.h"

#ifndef SO_TXTIME
#define SO_TXTIME		61
#define SCM_TXTIME		SO_TXTIME
#endif
#ifndef SO_EE_ORIGIN_TXTIME
#define SO_EE_ORIGIN_TXTIME	6
#endif

#define PROG			"tw-omware-bench"
#define STR_(x)			#x
#define STR(x)			STR_(x)
#define NSEC_PER_SEC		TW_NSEC_PER_SEC
#define NSEC_PER_USEC		TW_NSEC_PER_USEC
#define ERRQ_RCVBUF		(64 << 20)
#define DEFAULT_DELTAS		"50,100,200,500,1000,2000,5000,10000"
#define MAX_DELTAS		16
/* Runs of one invocation, the warm-up included: they fit the tags. */
#define MAX_TRIALS		64
#define TAG_SPAN		MAX_TRIALS
/* The automatic start-in: this plus twice the packets' hand-over time. */
#define START_BASE_NS		50000000ULL
/*
 * CPU time is taken over the same window for every method: from the
 * moment its schedule is planned (before any hand-over) to this long
 * after its last send time.
 */
#define CPU_SETTLE_NS		20000000ULL
/* SCHED_FIFO priority of RSM-RT: the module's kthread gets FIFO 1 too. */
#define RT_PRIORITY		1
#define RT_STACK_BYTES		(256 << 10)
/* Hand-over cost per packet assumed before one was measured (emulated). */
#define HANDOVER_GUESS_NS	300000ULL
/* Reports of cancelled packets may trail the session's deletion. */
#define TRAIL_MS		100
/* What tc says when it fails, kept for the error message. */
#define TC_ERR_BYTES		512

struct bench_opts {
	const char *dev;
	uint8_t dst_mac[6];
	struct in_addr dst;
	struct in_addr src;
	uint32_t dport;
	uint32_t count;		/* packets of a train method, pairs of a pair one */
	uint32_t alpha_us;	/* spacing of packets, or of pairs */
	uint32_t size;		/* IPv4 total length */
	uint32_t phi_us;	/* OFR pre-dispatch period */
	uint32_t guard_max_ns;	/* hybrid and RSM-RT guard cap */
	uint32_t start_in_us;	/* first send time from now; 0: automatic */
	uint32_t grace_ms;	/* wait for reports after the last send time */
	const char *methods;	/* comma separated; see bench_notes */
	const char *deltas;	/* etf deltas in microseconds, comma separated */
	int sweep;		/* etf: stop at the first delta without drops */
	uint32_t fq_flow_limit;
	uint32_t seed;		/* of the shuffled method order */
	uint32_t slack_ns;	/* timer slack of this process */
	const char *out;	/* directory for methods.csv and send.csv */
	const char *grid;	/* label of the workload, for the analysis */
	uint32_t round;
	uint32_t sport;		/* UDP source port (tag) of the first run */
};

enum bm_base {
	BM_OIR, BM_OFR, BM_OSM, BM_RSM, BM_RSM_RT, BM_ETF, BM_FQ, BM_TOM,
	BM_TRW
};

struct bm_method {
	const char *word;	/* in the "methods" list, any case */
	const char *name;	/* in the outputs */
	const char *help;
	enum bm_base base;
	int mode;
	int xmit;
	bool pair;
	bool omware;
};

static const struct bm_method bm_methods[] = {
	{ "oir", "OIR", "omware, every packet pre-dispatched up front",
	  BM_OIR, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, false, true },
	{ "oir-hybrid", "OIR-hybrid",
	  "the same in hybrid mode (timer, then spin)",
	  BM_OIR, OMWARE_MODE_HYBRID, OMWARE_XMIT_DIRECT, false, true },
	{ "oir-qdisc", "OIR-qdisc",
	  "the same through the qdisc instead of the driver",
	  BM_OIR, OMWARE_MODE_TIMER, OMWARE_XMIT_QDISC, false, true },
	{ "oir-hybrid-qdisc", "OIR-hybrid-qdisc", "both",
	  BM_OIR, OMWARE_MODE_HYBRID, OMWARE_XMIT_QDISC, false, true },
	{ "ofr", "OFR", "omware, submit each packet phi before its time",
	  BM_OFR, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, false, true },
	{ "osm", "OSM", "ofr with phi 0 (sleep, then submit)",
	  BM_OSM, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, false, true },
	{ "rsm", "RSM", "AF_PACKET socket: absolute sleep, then sendto()",
	  BM_RSM, 0, 0, false, false },
	{ "rsm-rt", "RSM-RT",
	  "AF_PACKET socket from a pinned SCHED_FIFO thread:\nsleep until a guard before the time, then spin",
	  BM_RSM_RT, 0, 0, false, false },
	{ "etf", "ETF", "SO_TXTIME through the etf qdisc, one run per delta",
	  BM_ETF, 0, 0, false, false },
	{ "fq", "FQ", "SO_TXTIME through the fq qdisc",
	  BM_FQ, 0, 0, false, false },
	{ "tom", "TOM", "omware packet pairs (trains of two)",
	  BM_TOM, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, true, true },
	{ "tom-hybrid", "TOM-hybrid", "the same in hybrid mode",
	  BM_TOM, OMWARE_MODE_HYBRID, OMWARE_XMIT_DIRECT, true, true },
	{ "trw", "TRW", "AF_PACKET socket: sleep, then two sendto()",
	  BM_TRW, 0, 0, true, false },
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

enum { ST_MISSING, ST_SENT, ST_DROPPED, ST_CANCELLED };
enum { SRC_NONE, SRC_OMWARE, SRC_TXSW, SRC_USER };

static const char *const st_names[] = { "missing", "sent", "dropped",
					"cancelled" };
static const char *const src_names[] = { "none", "omware", "txsw", "user" };

struct bm_sample {
	uint64_t sched_ns;
	uint64_t sent_ns;
	uint64_t user_ns;	/* socket methods: clock after sendto() */
	uint8_t status;
	uint8_t src;
};

struct bm_trial {
	const struct bm_method *m;
	char name[32];
	uint16_t tag;
	size_t n;		/* packets */
	struct bm_sample *s;
	bool warmup;		/* run before the measured ones, left out */
	uint64_t ready_ns;	/* setup done, schedule planned */
	uint64_t start_ns;	/* first send time */
	uint64_t delta_ns;
	/* CPU time over the window of CPU_SETTLE_NS; its start values */
	uint64_t cpu_proc_ns;
	uint64_t cpu_busy_ns;
	uint64_t wall_ns;	/* the window's length */
	uint64_t cpu_proc0, cpu_busy0;
	uint64_t cpu_kthread_ns;	/* omware's hybrid kthread, in the window */
	uint64_t kthread0;
	pid_t kthread;			/* 0: none */
	bool window_closed;
	uint64_t spin_ns;
	uint64_t spin_stalls;
	uint64_t spin_stall_max_ns;
	bool guarded;		/* hybrid or RSM-RT: guard_* are meaningful */
	uint64_t guard_ns;	/* the guard in force at the end */
	uint64_t guard_misses;	/* wake-ups later than the guard */
	size_t submitted;
	size_t got;		/* reports or timestamps */
	size_t sent, dropped, early, missing;
	char qdisc[64];
	char err[TC_ERR_BYTES];
};

struct bench {
	struct bench_opts *o;
	unsigned int ifindex;
	struct tw_pkt_spec spec;
	size_t len;		/* frame bytes */
	uint8_t *buf;
	uint8_t *buf2;

	struct om_session om;	/* connected when an omware method runs */

	uint16_t next_tag;
	int trials;		/* runs so far, the warm-up included */
	bool partial;		/* a measured run failed or lost packets */
	uint32_t seed;
	int rt_cpu;		/* where RSM-RT's thread runs */
	int64_t tai_off;	/* CLOCK_TAI - CLOCK_MONOTONIC */
	int64_t rt_off;		/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	bool qdisc_changed;
	uint64_t handover_ns;	/* last up-front hand-over, per packet */

	FILE *methods_csv;
	FILE *send_csv;
};

static uint64_t mono_ns(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

static uint64_t rusage_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
	       NSEC_PER_SEC + ((uint64_t)ru.ru_utime.tv_usec +
			       ru.ru_stime.tv_usec) * NSEC_PER_USEC;
}

/* CPU time of the whole machine spent outside idle; 0 if unknown. */
static uint64_t busy_ns(void)
{
	struct tw_cpu_times t;

	return tw_cpu_times_read(&t) ? 0 : tw_cpu_times_busy(&t);
}

static void trial_fail(struct bm_trial *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void trial_fail(struct bm_trial *t, const char *fmt, ...)
{
	va_list ap;

	if (t->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
}

/* Build the probe of sample i of trial t into buf. */
static void build(struct bench *b, struct bm_trial *t, size_t i,
		  uint8_t *buf)
{
	struct tw_probe p = {
		.seq = i,
		.sched_ns = t->s[i].sched_ns,
	};

	if (t->m->pair)
		p.flags = tw_probe_train_flags(i & 1);
	b->spec.sport = t->tag;
	tw_pkt_build(&b->spec, &p, buf);
}

/*
 * Plan the send times, once the method's setup (qdisc, socket, session)
 * is done.  Every method starts the same "start-in" after its setup; by
 * default that is long enough for the up-front methods to hand everything
 * over first, judged by the last hand-over measured.
 */
/* CPU time a task has run, in ns (/proc/PID/schedstat); 0 if unknown. */
static uint64_t task_runtime_ns(pid_t pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	if (!pid)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

/* The pid of the kernel thread named @comm, 0 if there is none. */
static pid_t kthread_pid(const char *comm)
{
	char path[300], name[32];
	struct dirent *d;
	pid_t pid = 0;
	DIR *dir = opendir("/proc");

	while (dir && !pid && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = '\0';
			if (!strcmp(name, comm))
				pid = atoi(d->d_name);
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return pid;
}

static void trial_schedule(struct bench *b, struct bm_trial *t)
{
	uint64_t alpha = (uint64_t)b->o->alpha_us * NSEC_PER_USEC;
	uint64_t lead = (uint64_t)b->o->start_in_us * NSEC_PER_USEC;
	uint64_t per_pkt = b->handover_ns ? b->handover_ns : HANDOVER_GUESS_NS;
	size_t i;

	if (!lead)
		lead = START_BASE_NS + 2 * t->n * per_pkt;
	/* The CPU window opens before anything is handed over. */
	t->cpu_proc0 = rusage_ns();
	t->cpu_busy0 = busy_ns();
	t->kthread0 = task_runtime_ns(t->kthread);
	t->ready_ns = mono_ns();
	t->start_ns = t->ready_ns + lead;
	for (i = 0; i < t->n; i++)
		t->s[i].sched_ns = t->start_ns +
				   (t->m->pair ? i / 2 : i) * alpha;
}

/*
 * Close the CPU window CPU_SETTLE_NS after the last send time (sleeping
 * until then), or now if the method is still busy after that: a sender
 * that falls behind pays for its lateness too.
 */
static void trial_window_end(struct bm_trial *t)
{
	if (!t->ready_ns || t->window_closed)
		return;
	tw_sleep_until(CLOCK_MONOTONIC,
		       t->s[t->n - 1].sched_ns + CPU_SETTLE_NS);
	t->cpu_proc_ns = rusage_ns() - t->cpu_proc0;
	t->cpu_busy_ns = busy_ns() - t->cpu_busy0;
	if (t->kthread)
		t->cpu_kthread_ns = task_runtime_ns(t->kthread) - t->kthread0;
	t->wall_ns = mono_ns() - t->ready_ns;
	t->window_closed = true;
}

/* Learn from an up-front hand-over how long the next ones may take. */
static void trial_handed_over(struct bench *b, struct bm_trial *t)
{
	uint64_t now = mono_ns();

	/* The latest cost, not the worst: one stall must not slow every
	 * later run; the factor of two in trial_schedule() is the margin.
	 */
	b->handover_ns = (now - t->ready_ns) / (t->n ? t->n : 1);
	if (now > t->start_ns)
		tw_warn("%s: handing over took past the first send time; raise \"start-in\"",
			t->name);
}

/* ---------------------------------------------------------------------- */
/* qdisc switching with tc(8) */

/* What a child writes to fd until it closes it; the start is kept. */
static void read_all(int fd, char *buf, size_t len)
{
	char sink[256];
	size_t used = 0;
	ssize_t n;

	for (;;) {
		if (used + 1 < len)
			n = read(fd, buf + used, len - 1 - used);
		else
			n = read(fd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (used + 1 < len)
			used += n;
	}
	buf[used] = '\0';
}

/* "tc ARGS failed: <what tc said>", its lines joined, into err. */
static void tc_failed(char *const argv[], char *msg, int status, char *err,
		      size_t errlen)
{
	size_t used = 0, end = strlen(msg);
	char *p;
	int i;

	while (end && (msg[end - 1] == '\n' || msg[end - 1] == ' '))
		msg[--end] = '\0';
	for (p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	for (i = 0; argv[i] && used < errlen; i++)
		used += snprintf(err + used, errlen - used, "%s%s",
				 i ? " " : "", argv[i]);
	if (used >= errlen)
		return;
	if (msg[0])
		snprintf(err + used, errlen - used, " failed: %s", msg);
	else if (WIFEXITED(status))
		snprintf(err + used, errlen - used, " failed (exit %d)",
			 WEXITSTATUS(status));
	else
		snprintf(err + used, errlen - used, " failed");
}

/*
 * Run tc; its error output is taken, not passed through, so that it is
 * reported with what was being done instead of passing as our own.
 */
static int run_tc(char *const argv[], char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	char msg[TC_ERR_BYTES];
	int pipefd[2], status = -1, ret;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot run tc: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
					 O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
	ret = posix_spawnp(&pid, "tc", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		snprintf(err, errlen, "cannot run tc: %s", strerror(ret));
		return -1;
	}
	read_all(pipefd[0], msg, sizeof(msg));
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	tc_failed(argv, msg, status, err, errlen);
	return -1;
}

/* Back to the device's default root qdisc (noqueue on veth). */
static void restore_qdisc(struct bench *b)
{
	char err[TC_ERR_BYTES];
	char *argv[] = { "tc", "qdisc", "del", "dev", (char *)b->o->dev,
			 "root", NULL };

	if (!b->qdisc_changed)
		return;
	b->qdisc_changed = false;
	if (run_tc(argv, err, sizeof(err)))
		tw_warn("cannot restore the root qdisc of %s: %s", b->o->dev,
			err);
}

static int set_etf(struct bench *b, struct bm_trial *t)
{
	char delta[32];
	char *argv[] = { "tc", "qdisc", "replace", "dev", (char *)b->o->dev,
			 "root", "etf", "clockid", "CLOCK_TAI", "delta",
			 delta, NULL };

	snprintf(delta, sizeof(delta), "%llu",
		 (unsigned long long)t->delta_ns);
	snprintf(t->qdisc, sizeof(t->qdisc), "etf delta %s", delta);
	/* etf cannot change its parameters in place: start afresh. */
	restore_qdisc(b);
	if (run_tc(argv, t->err, sizeof(t->err)))
		return -1;
	b->qdisc_changed = true;
	return 0;
}

static int set_fq(struct bench *b, struct bm_trial *t)
{
	char flow[32], limit[32];
	unsigned long fl = b->o->fq_flow_limit;
	char *argv[] = { "tc", "qdisc", "replace", "dev", (char *)b->o->dev,
			 "root", "fq", "flow_limit", flow, "limit", limit,
			 "timer_slack", "0", NULL };

	/* The default flow_limit (100) would drop most of a queued train. */
	if (!fl)
		fl = t->n + 100;
	snprintf(flow, sizeof(flow), "%lu", fl);
	snprintf(limit, sizeof(limit), "%lu", fl > 10000 ? fl : 10000);
	/* No slack, as this process has none: fq's default is 10 us. */
	snprintf(t->qdisc, sizeof(t->qdisc), "fq flow_limit %s", flow);
	if (run_tc(argv, t->err, sizeof(t->err)))
		return -1;
	b->qdisc_changed = true;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* omware methods, through the omware client's session engine */

/* Hand the packets over the way the method does; false after an error. */
static bool om_hand_over(struct bench *b, struct bm_trial *t)
{
	struct om_session *s = &b->om;
	uint64_t phi = (uint64_t)b->o->phi_us * NSEC_PER_USEC;
	size_t i;

	switch (t->m->base) {
	case BM_OIR:
		if (om_submit_all(s, om_batch_default(s)))
			return false;
		trial_handed_over(b, t);
		break;
	case BM_OFR:
	case BM_OSM:
		if (t->m->base == BM_OSM)
			phi = 0;
		for (i = 0; i < t->n && !tw_stop; i++) {
			tw_sleep_until(CLOCK_MONOTONIC, t->s[i].sched_ns - phi);
			if (om_submit(s, i, i + 1))
				return false;
		}
		break;
	case BM_TOM:
		for (i = 0; i + 1 < t->n && !tw_stop; i += 2)
			if (om_submit_train(s, i, 2, t->s[i].sched_ns))
				return false;
		trial_handed_over(b, t);
		break;
	default:
		break;
	}
	return true;
}

/* The reports into the trial's samples. */
static void om_take_reports(struct bench *b, struct bm_trial *t)
{
	const struct om_session *s = &b->om;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct om_report *r = &s->rep[i];
		struct bm_sample *smp = &t->s[i];

		if (!r->have)
			continue;
		switch (r->status) {
		case OMWARE_STATUS_SENT:
			smp->status = ST_SENT;
			break;
		case OMWARE_STATUS_DROPPED:
			smp->status = ST_DROPPED;
			break;
		default:
			smp->status = ST_CANCELLED;
		}
		if (smp->status == ST_SENT && r->sent_ns) {
			smp->sent_ns = r->sent_ns;
			smp->src = SRC_OMWARE;
		}
	}
	t->submitted = s->submitted;
	t->got = s->got;
	t->spin_ns = s->stats[OMWARE_STATS_A_SPIN_NS];
	t->spin_stalls = s->stats[OMWARE_STATS_A_SPIN_STALLS];
	t->spin_stall_max_ns = s->stats[OMWARE_STATS_A_SPIN_STALL_MAX_NS];
	if (t->m->mode == OMWARE_MODE_HYBRID) {
		t->guarded = true;
		t->guard_ns = s->guard_ns;
		t->guard_misses = s->guard_misses;
	}
}

static void om_trial(struct bench *b, struct bm_trial *t)
{
	struct om_session *s = &b->om;
	struct om_session_cfg cfg = {
		.ifindex = b->ifindex,
		.clock = CLOCK_MONOTONIC,
		.mode = t->m->mode,
		.xmit = t->m->xmit,
	};
	uint64_t last;
	size_t i;

	if (t->m->mode == OMWARE_MODE_HYBRID && b->o->guard_max_ns) {
		cfg.set |= OM_SET_GUARD_MAX;
		cfg.guard_max_ns = b->o->guard_max_ns;
	}
	/* The hybrid kthread on RSM-RT's CPU: the same footing. */
	if (t->m->mode == OMWARE_MODE_HYBRID) {
		cfg.set |= OM_SET_CPU;
		cfg.cpu = b->rt_cpu;
	}
	b->spec.sport = t->tag;
	if (om_run_init(s, &b->spec, t->n) || om_session_create(s, &cfg)) {
		trial_fail(t, "%s", s->err);
		return;
	}
	if (t->m->mode == OMWARE_MODE_HYBRID) {
		char comm[32];

		snprintf(comm, sizeof(comm), "omware/%u", s->id);
		t->kthread = kthread_pid(comm);
	}
	trial_schedule(b, t);
	for (i = 0; i < t->n; i++)
		s->rep[i].sched_ns = t->s[i].sched_ns;
	last = t->s[t->n - 1].sched_ns;
	if (!om_hand_over(b, t))
		trial_fail(t, "%s", s->err);

	/* Reports are taken as they come, in the CPU window too. */
	om_collect(s, last + CPU_SETTLE_NS);
	trial_window_end(t);
	/* A sender that fell behind hands the last packet over late. */
	if (mono_ns() > last)
		last = mono_ns();
	om_collect(s, last + (uint64_t)b->o->grace_ms * 1000000);
	/* The session's spinning and stalls in hybrid mode, before it goes. */
	om_session_get(s);
	om_finish(s, TRAIL_MS);
	om_take_reports(b, t);
	if (t->got < t->submitted)
		trial_fail(t, "%zu reports missing", t->submitted - t->got);
	if (s->nl.overruns)
		trial_fail(t, "netlink receive buffer overflowed, reports lost");
	s->nl.overruns = 0;
}

/* ---------------------------------------------------------------------- */
/* socket methods: RSM, TRW, ETF, FQ */

/* Offset of the probe in a frame or an IP packet; -1 if none. */
static int probe_offset(const uint8_t *f, size_t len, uint16_t *sport)
{
	size_t off = 0, ihl;

	if (len >= ETH_HLEN + 20 && f[12] == 0x08 && f[13] == 0x00)
		off = ETH_HLEN;
	if (len < off + 28 || (f[off] >> 4) != 4)
		return -1;
	ihl = (f[off] & 0xf) * 4;
	if (f[off + 9] != IPPROTO_UDP || len < off + ihl + 8 + TW_PROBE_COMPACT_LEN)
		return -1;
	*sport = f[off + ihl] << 8 | f[off + ihl + 1];
	return off + ihl + 8;
}

/* Read the error queue: transmit timestamps and etf drop reports. */
static void errq_drain(struct bench *b, struct bm_trial *t, int fd)
{
	uint8_t data[2048];
	char ctrl[512];

	for (;;) {
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		struct sock_extended_err *ee = NULL;
		struct timespec ts = { 0, 0 };
		struct tw_probe p;
		struct cmsghdr *c;
		struct bm_sample *s;
		uint16_t sport;
		ssize_t n;
		int off;

		n = recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
		if (n < 0)
			return;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SO_TIMESTAMPING) {
				struct scm_timestamping tss;

				memcpy(&tss, CMSG_DATA(c), sizeof(tss));
				ts = tss.ts[0];
			} else if (c->cmsg_level == SOL_PACKET &&
				   c->cmsg_type == PACKET_TX_TIMESTAMP) {
				ee = (struct sock_extended_err *)CMSG_DATA(c);
			}
		}
		off = probe_offset(data, n, &sport);
		if (!ee || off < 0 || sport != t->tag ||
		    tw_probe_parse(data + off, n - off, &p) || p.seq >= t->n)
			continue;
		s = &t->s[p.seq];
		if (ee->ee_origin == SO_EE_ORIGIN_TXTIME) {
			/* etf refused it: its time had passed. */
			if (s->status != ST_DROPPED) {
				if (s->status == ST_MISSING)
					t->got++;
				s->status = ST_DROPPED;
				s->src = SRC_NONE;
				s->sent_ns = 0;
			}
		} else if (ee->ee_origin == SO_EE_ORIGIN_TIMESTAMPING &&
			   ee->ee_info == SCM_TSTAMP_SND &&
			   (ts.tv_sec || ts.tv_nsec) &&
			   s->status == ST_MISSING) {
			t->got++;
			s->status = ST_SENT;
			s->src = SRC_TXSW;
			s->sent_ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC +
				     ts.tv_nsec - b->rt_off;
		}
	}
}

/* Read the error queue as it fills until @until or every report is in. */
static void errq_collect(struct bench *b, struct bm_trial *t, int fd,
			 uint64_t until)
{
	while (t->got < t->submitted && !tw_stop) {
		struct pollfd pfd = { .fd = fd, .events = 0 };
		uint64_t now = mono_ns();

		if (now >= until)
			break;
		poll(&pfd, 1, (until - now) / 1000000 + 1);
		errq_drain(b, t, fd);
	}
	errq_drain(b, t, fd);
}

static int sock_open(struct bench *b, struct bm_trial *t)
{
	int fd, flags, size;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		trial_fail(t, "AF_PACKET socket: %s", strerror(errno));
		return -1;
	}
	/* Transmit timestamps only: no receive timestamps, so no static
	 * key is flipped by opening or closing this socket.
	 */
	flags = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)))
		tw_warn("%s: no transmit timestamps (%s), using the clock after sendto()",
			t->name, strerror(errno));
	size = ERRQ_RCVBUF;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (t->m->base == BM_ETF || t->m->base == BM_FQ) {
		struct sock_txtime tx = { 0 };
		uint64_t need = (uint64_t)t->n * (b->len + 1024) + (1 << 20);

		/* The whole train waits in the qdisc, charged to us. */
		size = need > INT32_MAX / 2 ? INT32_MAX / 2 : need;
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
			       sizeof(size)))
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size,
				   sizeof(size));
		if (t->m->base == BM_ETF) {
			tx.clockid = CLOCK_TAI;
			tx.flags = SOF_TXTIME_REPORT_ERRORS;
		} else {
			tx.clockid = CLOCK_MONOTONIC;
		}
		if (setsockopt(fd, SOL_SOCKET, SO_TXTIME, &tx, sizeof(tx))) {
			trial_fail(t, "SO_TXTIME: %s", strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

static int sock_send(struct bench *b, struct bm_trial *t, int fd, size_t i,
		     const uint8_t *buf, int64_t txtime_off)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_IP),
		.sll_ifindex = b->ifindex,
		.sll_halen = ETH_ALEN,
	};
	char ctrl[CMSG_SPACE(sizeof(uint64_t))] = { 0 };
	struct iovec iov = { (void *)buf, b->len };
	struct msghdr msg = {
		.msg_name = &sll, .msg_namelen = sizeof(sll),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	memcpy(sll.sll_addr, b->spec.dst_mac, ETH_ALEN);
	if (t->m->base == BM_ETF || t->m->base == BM_FQ) {
		struct cmsghdr *c;
		uint64_t txtime = t->s[i].sched_ns + txtime_off;

		msg.msg_control = ctrl;
		msg.msg_controllen = sizeof(ctrl);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_TXTIME;
		c->cmsg_len = CMSG_LEN(sizeof(txtime));
		memcpy(CMSG_DATA(c), &txtime, sizeof(txtime));
	}
	n = sendmsg(fd, &msg, 0);
	t->s[i].user_ns = mono_ns();
	t->submitted = i + 1;
	if (n < 0) {
		t->s[i].status = ST_DROPPED;
		t->got++;
		/* etf refuses a packet whose time has passed: a drop, which
		 * the sweep is there to find, not a failure of the run.
		 */
		if (t->m->base != BM_ETF || errno != ENOBUFS)
			trial_fail(t, "sendmsg: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* RSM-RT's sending thread and what it works with. */
struct rt_sender {
	struct bench *b;
	struct bm_trial *t;
	int fd;
	struct tw_guard guard;
};

/* Pin the calling thread and make it SCHED_FIFO; false after an error. */
static bool rt_enter(struct bm_trial *t, int cpu)
{
	struct sched_param sp = { .sched_priority = RT_PRIORITY };
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret) {
		trial_fail(t, "cannot pin the sending thread to CPU %d: %s",
			   cpu, strerror(ret));
		return false;
	}
	ret = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (ret) {
		trial_fail(t, "cannot make the sending thread SCHED_FIFO %d: %s",
			   RT_PRIORITY, strerror(ret));
		return false;
	}
	return true;
}

/* Spin on the clock until target; the spin and its stalls are counted. */
static void rt_spin(struct bm_trial *t, uint64_t now, uint64_t target)
{
	uint64_t prev;

	while (now < target && !tw_stop) {
		prev = now;
		now = mono_ns();
		t->spin_ns += now - prev;
		/* Preemption included: user space cannot tell it apart. */
		if (now - prev > OMWARE_SPIN_STALL_NS) {
			t->spin_stalls++;
			t->spin_stall_max_ns = max(t->spin_stall_max_ns,
						   now - prev);
		}
	}
}

/*
 * Wait for target as hybrid mode does: sleep until the guard before it,
 * feed the wake-up's lateness to the guard, then spin.  Within the guard
 * already (the previous packet was close), spin without sleeping.
 */
static void rt_wait(struct rt_sender *r, uint64_t target)
{
	uint64_t guard = tw_guard_ns(&r->guard);
	uint64_t wake = target > guard ? target - guard : 0;
	uint64_t now = mono_ns();

	if (wake > now) {
		tw_sleep_until(CLOCK_MONOTONIC, wake);
		now = mono_ns();
		tw_guard_observe(&r->guard, (int64_t)(now - wake));
	}
	rt_spin(r->t, now, target);
}

static void *rt_send_thread(void *arg)
{
	struct rt_sender *r = arg;
	struct bm_trial *t = r->t;
	struct bench *b = r->b;
	size_t i;

	/* Never silently RSM: without its footing the run fails. */
	if (!rt_enter(t, b->rt_cpu))
		return NULL;
	for (i = 0; i < t->n && !tw_stop; i++) {
		build(b, t, i, b->buf);
		rt_wait(r, t->s[i].sched_ns);
		sock_send(b, t, r->fd, i, b->buf, 0);
	}
	return NULL;
}

/*
 * RSM-RT's memory is locked (rt_lock() before the schedule, so that its
 * cost is setup, not sending): page faults while spinning would be
 * stalls of its own making.  Failing that it goes on, warned.
 */
static void rt_lock(struct bm_trial *t, bool lock)
{
	if (t->m->base != BM_RSM_RT)
		return;
	if (!lock)
		munlockall();
	else if (mlockall(MCL_CURRENT | MCL_FUTURE))
		tw_warn("%s: cannot lock memory (%s), going on without",
			t->name, strerror(errno));
}

/*
 * RSM-RT: RSM from a thread on the footing of the module's hybrid
 * kthread: SCHED_FIFO 1, one CPU, the same guard policy and cap.
 */
static void rt_send(struct bench *b, struct bm_trial *t, int fd)
{
	uint32_t cap = b->o->guard_max_ns ? b->o->guard_max_ns :
		       OMWARE_GUARD_MAX_NS_DEFAULT;
	struct rt_sender r = { .b = b, .t = t, .fd = fd };
	pthread_attr_t attr;
	pthread_t thread;
	int ret;

	tw_guard_init(&r.guard, min_t(u32, OMWARE_GUARD_MIN_NS, cap), cap);
	pthread_attr_init(&attr);
	/* A small stack: locked memory is populated up front. */
	pthread_attr_setstacksize(&attr, RT_STACK_BYTES);
	ret = pthread_create(&thread, &attr, rt_send_thread, &r);
	pthread_attr_destroy(&attr);
	if (ret)
		trial_fail(t, "cannot start the sending thread: %s",
			   strerror(ret));
	else
		pthread_join(thread, NULL);
	t->guarded = true;
	t->guard_ns = tw_guard_ns(&r.guard);
	t->guard_misses = r.guard.misses;
}

/* Each socket method's sending loop, in its own manner. */
static void sock_send_all(struct bench *b, struct bm_trial *t, int fd,
			  int64_t off)
{
	size_t i;

	switch (t->m->base) {
	case BM_ETF:
	case BM_FQ:
		/* Everything handed over at once: the qdisc keeps time. */
		for (i = 0; i < t->n && !tw_stop; i++) {
			build(b, t, i, b->buf);
			sock_send(b, t, fd, i, b->buf, off);
		}
		trial_handed_over(b, t);
		break;
	case BM_RSM:
		for (i = 0; i < t->n && !tw_stop; i++) {
			build(b, t, i, b->buf);
			tw_sleep_until(CLOCK_MONOTONIC, t->s[i].sched_ns);
			sock_send(b, t, fd, i, b->buf, 0);
		}
		break;
	case BM_RSM_RT:
		rt_send(b, t, fd);
		break;
	case BM_TRW:
		for (i = 0; i + 1 < t->n && !tw_stop; i += 2) {
			build(b, t, i, b->buf);
			build(b, t, i + 1, b->buf2);
			tw_sleep_until(CLOCK_MONOTONIC, t->s[i].sched_ns);
			sock_send(b, t, fd, i, b->buf, 0);
			sock_send(b, t, fd, i + 1, b->buf2, 0);
		}
		break;
	default:
		break;
	}
}

/* No transmit timestamp: fall back to the clock after sendto(). */
static void sock_user_times(struct bm_trial *t)
{
	size_t i;

	if (t->m->base == BM_ETF || t->m->base == BM_FQ)
		return;
	for (i = 0; i < t->submitted; i++) {
		struct bm_sample *s = &t->s[i];

		if (s->status == ST_MISSING && s->user_ns) {
			s->status = ST_SENT;
			s->src = SRC_USER;
			s->sent_ns = s->user_ns;
		}
	}
}

static void sock_trial(struct bench *b, struct bm_trial *t)
{
	uint64_t until, last;
	int64_t off = 0;
	int fd;

	if (t->m->base == BM_ETF && set_etf(b, t))
		return;
	if (t->m->base == BM_FQ && set_fq(b, t))
		return;
	fd = sock_open(b, t);
	if (fd < 0)
		return;
	/*
	 * Without launch-time offload etf releases a packet delta before its
	 * txtime (and drops it once txtime has passed): a txtime delta after
	 * the scheduled time makes the release window [sched, sched + delta],
	 * never early, as a user who wants the packet out at sched would set.
	 */
	if (t->m->base == BM_ETF)
		off = b->tai_off + (int64_t)t->delta_ns;
	rt_lock(t, true);
	trial_schedule(b, t);
	last = t->s[t->n - 1].sched_ns;
	sock_send_all(b, t, fd, off);
	/* Timestamps read in the CPU window, as omware's reports are. */
	errq_collect(b, t, fd, last + CPU_SETTLE_NS);
	trial_window_end(t);
	rt_lock(t, false);

	/* The rest of them and drop reports; etf may still hold packets. */
	if (mono_ns() > last)
		last = mono_ns();
	until = last + t->delta_ns + (uint64_t)b->o->grace_ms * 1000000;
	errq_collect(b, t, fd, until);
	close(fd);
	/* The qdisc stays for the next etf delta; trial_run() restores it. */
	sock_user_times(t);
}

/* ---------------------------------------------------------------------- */
/* a trial */

static struct bm_trial *trial_new(struct bench *b, const struct bm_method *m,
				  uint64_t delta_ns)
{
	struct bench_opts *o = b->o;
	struct bm_trial *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->m = m;
	t->n = m->pair ? 2 * (size_t)o->count : o->count;
	t->s = calloc(t->n, sizeof(*t->s));
	if (!t->s) {
		free(t);
		return NULL;
	}
	t->tag = b->next_tag++;
	t->delta_ns = delta_ns;
	if (m->base == BM_ETF)
		snprintf(t->name, sizeof(t->name), "ETF-%llu",
			 (unsigned long long)(delta_ns / NSEC_PER_USEC));
	else
		snprintf(t->name, sizeof(t->name), "%s", m->name);
	snprintf(t->qdisc, sizeof(t->qdisc), "default");
	return t;
}

static void trial_free(struct bm_trial *t)
{
	if (t)
		free(t->s);
	free(t);
}

static void trial_run(struct bench *b, struct bm_trial *t)
{
	size_t i;

	/* Only etf and fq want a qdisc of their own; "replace" switches
	 * between them without going through the default.
	 */
	if (t->m->base != BM_ETF && t->m->base != BM_FQ)
		restore_qdisc(b);
	b->rt_off = tw_clock_offset(CLOCK_REALTIME);
	b->tai_off = tw_clock_offset(CLOCK_TAI);
	if (t->m->omware)
		om_trial(b, t);
	else
		sock_trial(b, t);
	/* A run that stopped early still gets its window. */
	trial_window_end(t);

	for (i = 0; i < t->n; i++) {
		struct bm_sample *s = &t->s[i];

		switch (s->status) {
		case ST_SENT:
			t->sent++;
			if (s->sent_ns < s->sched_ns)
				t->early++;
			break;
		case ST_DROPPED:
		case ST_CANCELLED:
			t->dropped++;
			break;
		default:
			t->missing++;
		}
	}
}

static void trial_print(struct bm_trial *t)
{
	int64_t *err = calloc(t->n, sizeof(*err));
	int64_t *idt = calloc(t->n, sizeof(*idt));
	size_t i, ne = 0, ni = 0, step = t->m->pair ? 2 : 1;
	uint64_t alpha = 0;
	struct tw_stats st;

	if (!err || !idt) {
		free(err);
		free(idt);
		return;
	}
	for (i = 0; i < t->n; i++) {
		struct bm_sample *s = &t->s[i];

		if (s->status != ST_SENT)
			continue;
		err[ne++] = (int64_t)(s->sent_ns - s->sched_ns);
		if (i % step == 0 && i + step < t->n &&
		    t->s[i + step].status == ST_SENT) {
			alpha = t->s[i + step].sched_ns - s->sched_ns;
			idt[ni] = (int64_t)(t->s[i + step].sent_ns - s->sent_ns) -
				  (int64_t)alpha;
			if (idt[ni] < 0)
				idt[ni] = -idt[ni];
			ni++;
		}
	}
	open_object(NULL);
	print_name("method", t->name);
	print_uint("tag", t->tag);
	if (t->warmup)
		print_uint("warmup", 1);
	print_u64("packets", t->n);
	print_u64("sent", t->sent);
	print_u64("dropped", t->dropped);
	print_u64("missing", t->missing);
	print_u64("early", t->early);
	print_string("qdisc", t->qdisc);
	print_nl();
	tw_stats_compute(err, ne, &st);
	print_s64("error_p50_ns", st.p50);
	print_s64("error_p99_ns", st.p99);
	tw_stats_compute(idt, ni, &st);
	print_s64("idt_error_p50_ns", st.p50);
	print_s64("idt_error_p99_ns", st.p99);
	print_u64("cpu_ns_per_pkt", t->n ? t->cpu_proc_ns / t->n : 0);
	print_u64("busy_ns_per_pkt", t->n ? t->cpu_busy_ns / t->n : 0);
	if (t->spin_ns) {
		print_u64("spin_ns", t->spin_ns);
		print_u64("spin_stalls", t->spin_stalls);
		print_u64("spin_stall_max_ns", t->spin_stall_max_ns);
	}
	if (t->guarded) {
		print_u64("guard_ns", t->guard_ns);
		print_u64("guard_misses", t->guard_misses);
	}
	if (t->err[0])
		print_string("error", t->err);
	print_nl();
	close_object();
	free(err);
	free(idt);
}

/* The mode column: omware's mode, "rt" for RSM-RT, "-" for the rest. */
static const char *method_mode(const struct bm_method *m)
{
	if (m->base == BM_RSM_RT)
		return "rt";
	if (!m->omware)
		return "-";
	return m->mode == OMWARE_MODE_HYBRID ? "hybrid" : "timer";
}

/* The row's last columns: error, seed, warm-up and the guard's. */
static void trial_write_tail(struct bench *b, struct bm_trial *t)
{
	char err[sizeof(t->err)];
	size_t i;

	/* The analysis splits on commas: keep them out of the text. */
	snprintf(err, sizeof(err), "%s", t->err);
	for (i = 0; err[i]; i++)
		if (err[i] == ',' || err[i] == '\n')
			err[i] = ';';
	fprintf(b->methods_csv, "%s,%u,%d,", err, b->seed, t->warmup);
	/* Empty where there is no guard. */
	if (t->guarded)
		fprintf(b->methods_csv, "%llu,%llu",
			(unsigned long long)t->guard_ns,
			(unsigned long long)t->guard_misses);
	else
		fputc(',', b->methods_csv);
	fprintf(b->methods_csv, ",%llu\n",
		(unsigned long long)t->cpu_kthread_ns);
}

static void trial_write_method(struct bench *b, struct bm_trial *t)
{
	struct bench_opts *o = b->o;

	fprintf(b->methods_csv,
		"%u,%s,%u,%s,%s,%zu,%llu,%u,%llu,%llu,%s,%s,%s,%llu,%llu,%llu,%llu,%zu,%zu,%zu,%zu,%llu,%llu,%llu,",
		t->tag, o->grid, o->round, t->name,
		t->m->pair ? "pair" : "train",
		t->m->pair ? t->n / 2 : t->n,
		(unsigned long long)o->alpha_us * NSEC_PER_USEC,
		o->size,
		(unsigned long long)(t->m->base == BM_OFR ?
				     o->phi_us * NSEC_PER_USEC : 0),
		(unsigned long long)t->delta_ns, method_mode(t->m),
		t->m->omware ? (t->m->xmit == OMWARE_XMIT_QDISC ?
				"qdisc" : "direct") : "-",
		t->qdisc, (unsigned long long)t->start_ns,
		(unsigned long long)t->cpu_proc_ns,
		(unsigned long long)t->cpu_busy_ns,
		(unsigned long long)t->wall_ns, t->submitted, t->sent,
		t->dropped, t->early, (unsigned long long)t->spin_ns,
		(unsigned long long)t->spin_stalls,
		(unsigned long long)t->spin_stall_max_ns);
	trial_write_tail(b, t);
	fflush(b->methods_csv);
}

static void trial_write(struct bench *b, struct bm_trial *t)
{
	size_t i;

	if (b->methods_csv)
		trial_write_method(b, t);
	if (!b->send_csv)
		return;
	for (i = 0; i < t->n; i++) {
		struct bm_sample *s = &t->s[i];

		fprintf(b->send_csv, "%u,%zu,%llu,%llu,%s,%llu,%s\n", t->tag, i,
			(unsigned long long)s->sched_ns,
			(unsigned long long)s->sent_ns, src_names[s->src],
			(unsigned long long)s->user_ns, st_names[s->status]);
	}
	fflush(b->send_csv);
}

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
		  STR(OMWARE_GUARD_MAX_NS_DEFAULT) ", the module's)",
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
	/* RSM-RT's CPU, chosen once: the one the bench starts on. */
	b->rt_cpu = sched_getcpu();
	if (b->rt_cpu < 0)
		b->rt_cpu = 0;
	if (o->out) {
		if (mkdir(o->out, 0755) && errno != EEXIST) {
			tw_err("cannot create %s: %s", o->out, strerror(errno));
			return TW_EXIT_SYS;
		}
		b->methods_csv = open_csv(o->out, "methods.csv",
			"tag,grid,round,method,kind,count,alpha_ns,size,phi_ns,delta_ns,mode,xmit,qdisc,start_ns,cpu_proc_ns,cpu_busy_ns,wall_ns,submitted,sent,dropped,early,spin_ns,spin_stalls,spin_stall_max_ns,err,seed,warmup,guard_ns,guard_misses,cpu_kthread_ns");
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

/* The workload, the seed and the order it gives, RSM-RT's CPU. */
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
