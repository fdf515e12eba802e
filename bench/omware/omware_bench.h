/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tw-omware-bench's own: its limits, options, methods, a trial's records
 * and the benchmark's state.  tw-omware-bench.c holds the command (its
 * arguments, the plan, the order of the runs), omware_bench_trial.c a
 * trial's life and records, omware_bench_tc.c the qdiscs set with tc(8),
 * omware_bench_omware.c the methods through omware.ko and
 * omware_bench_socket.c those through an AF_PACKET socket.
 */
#ifndef OMWARE_BENCH_H
#define OMWARE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <linux/omware.h>

#include "lib/clock.h"
#include "lib/util.h"
#include "omware/session.h"

#ifndef SO_TXTIME
#define SO_TXTIME		61
#define SCM_TXTIME		SO_TXTIME
#endif
#ifndef SO_EE_ORIGIN_TXTIME
#define SO_EE_ORIGIN_TXTIME	6
#endif

#define PROG			"tw-omware-bench"
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
/* SCHED_FIFO priority of the real-time senders: omware's kthread's too. */
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
	BM_OIR, BM_OFR, BM_OSM, BM_RSM, BM_ETF, BM_FQ, BM_TOM, BM_TRW
};

/*
 * The thread a socket method sends from.  RT_SLEEP: its own, pinned to
 * rt_cpu, SCHED_FIFO RT_PRIORITY, memory locked, sleeping until each
 * time it waits for (etf hands everything over at once, never waiting);
 * RT_SPIN: the same, sleeping until the guard before the time, then
 * spinning, as omware's hybrid kthread does.
 */
enum bm_rt { RT_NONE, RT_SLEEP, RT_SPIN };

struct bm_method {
	const char *word;	/* in the "methods" list, any case */
	const char *name;	/* in the outputs */
	const char *help;
	enum bm_base base;
	int mode;
	int xmit;
	bool pair;
	bool omware;
	enum bm_rt rt;		/* socket methods; RT_NONE: the caller's thread */
};

enum { ST_MISSING, ST_SENT, ST_DROPPED, ST_CANCELLED };
enum { SRC_NONE, SRC_OMWARE, SRC_TXSW, SRC_USER };

struct bm_sample {
	uint64_t sched_ns;
	uint64_t sent_ns;
	uint64_t user_ns;	/* socket methods: clock after sendto() */
	uint8_t status;
	uint8_t src;		/* SRC_NONE when sent: no send time */
	bool batched;		/* handed over with another frame in one call */
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
	/*
	 * CPU time no thread of ours is charged with: omware's WORK_NS (its
	 * timer callbacks and report delivery); 0 for a socket method, which
	 * sends from its own thread.  Unknown (irq_known false) for a qdisc
	 * that releases frames from its own softirq: etf, fq.
	 */
	uint64_t cpu_irq_ns;
	bool irq_known;
	uint64_t kthread0;
	pid_t kthread;			/* 0: none */
	bool window_closed;
	uint64_t spin_ns;
	uint64_t spin_stalls;
	uint64_t spin_stall_max_ns;
	bool guarded;		/* hybrid or RT_SPIN: guard_* are meaningful */
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
	int rt_cpu;		/* where the real-time senders run */
	int64_t tai_off;	/* CLOCK_TAI - CLOCK_MONOTONIC */
	int64_t rt_off;		/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	bool qdisc_changed;
	uint64_t handover_ns;	/* last up-front hand-over, per packet */

	FILE *methods_csv;
	FILE *send_csv;
};

static inline uint64_t mono_ns(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

/* omware_bench_trial.c */
void trial_fail(struct bm_trial *t, const char *fmt, ...)
	__printf(2, 3);
void build_packet(struct bench *b, struct bm_trial *t, size_t i,
		  uint8_t *buf);
pid_t kthread_pid(const char *comm);
void trial_schedule(struct bench *b, struct bm_trial *t);
void trial_window_end(struct bm_trial *t);
void trial_handed_over(struct bench *b, struct bm_trial *t);
struct bm_trial *trial_new(struct bench *b, const struct bm_method *m,
			   uint64_t delta_ns);
void trial_free(struct bm_trial *t);
void trial_run(struct bench *b, struct bm_trial *t);
void trial_print(struct bm_trial *t);
void trial_write(struct bench *b, struct bm_trial *t);

/* omware_bench_tc.c */
void restore_qdisc(struct bench *b);
int set_etf(struct bench *b, struct bm_trial *t);
int set_fq(struct bench *b, struct bm_trial *t);

/* omware_bench_omware.c */
void om_trial(struct bench *b, struct bm_trial *t);

/* omware_bench_socket.c */
void sock_trial(struct bench *b, struct bm_trial *t);

#endif /* OMWARE_BENCH_H */
