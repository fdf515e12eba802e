/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tw-tfib-bench: the Age-of-Information experiment on this host.
 * tw-tfib-bench.c parses the arguments and walks the sweep;
 * tfib_bench_run.c runs one point of it through the experiment's tools.
 */
#ifndef TW_TFIB_BENCH_H
#define TW_TFIB_BENCH_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "tfib/args.h"
#include "tfib/client.h"

/* Values of one list keyword ("rate 1000,2000"), at most this many. */
#define BENCH_LIST_MAX	32

/* What forwards the source's packets in a run. */
enum bench_fwd {
	BENCH_FWD_RING,		/* a tfib table bound in ring mode */
	BENCH_FWD_INLINE,	/* a tfib table bound in inline mode */
	BENCH_FWD_XDP,		/* the XDP peer (tw-tfib-xdp) */
	BENCH_FWD_XDP_USER,	/* the same, control packets in user space */
	BENCH_FWD_BASELINE,	/* rcu inline, one user, no control packets */
};

struct bench_method {
	enum bench_fwd fwd;
	int sync;		/* enum tfib_sync, tfib runs */
	bool pace_omware;	/* the source paced by omware.ko */
	const char *word;	/* as given: "rcu-ring", "xdp+omware", ... */
};

static inline bool bench_is_xdp(const struct bench_method *m)
{
	return m->fwd == BENCH_FWD_XDP || m->fwd == BENCH_FWD_XDP_USER;
}

struct bench_rings {
	uint32_t control;
	uint32_t data;
};

/* The settings every run of a sweep shares. */
struct bench_setup {
	const char *table;
	char dev[IF_NAMESIZE];		/* the forwarder's device */
	char source[IF_NAMESIZE];	/* the source's (and sink's) */
	const char *out;
	uint32_t users;
	uint32_t seed;		/* the trace's */
	uint32_t seconds;
	uint32_t burst;
	uint32_t cap;		/* rows use min(R, cap); 0: R */
	int refused;		/* enum bench_refused */
	uint32_t fwd_cpu;	/* the forwarder's threads' CPU, or: */
#define BENCH_ANY_CPU	UINT32_MAX
	uint32_t rep;		/* the repetition, run.json's rep; 0: none */
	uint32_t boot;		/* the runner's boot, run.json's boot; 0: none */
	const char *ingress;	/* the ingress configuration's name, or NULL */
};

/* A frame the device refuses the source: sent again, or lost. */
enum bench_refused {
	BENCH_REFUSED_RETRY,
	BENCH_REFUSED_LOST,
};

/* One run: a point of the sweep. */
struct bench_point {
	uint32_t rate;
	const char *cdr;		/* as given, "0" for the baseline */
	const struct bench_method *method;
	const struct bench_rings *rings;	/* ring runs, else NULL */
	char dir[4096];			/* its run directory */
};

/* What the source said of a run. */
struct bench_result {
	int ret;			/* an exit code of tw-tfib-bench(1) */
	uint64_t sent;
	uint64_t received;
	uint64_t socket_drops;
	double sent_pps;
	/* paced: omware could not send some frames, the run is complete */
	bool dropped;
};

/*
 * Run p through c's module (tfib runs) or the XDP peer, the source sending
 * the trace through it, and tear it down; fifo is a path free for a FIFO.
 */
void bench_run(struct tfib_client *c, const struct bench_setup *s,
	       const struct bench_point *p, const char *fifo,
	       struct bench_result *res);

#endif /* TW_TFIB_BENCH_H */
