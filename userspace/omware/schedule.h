/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Send schedules: the offsets, relative to the start of a
 * run, at which packets are due.
 *
 * Every schedule puts its first packet at offset 0.  Random schedules are
 * driven by a small seedable generator of our own, so a seed gives the
 * same schedule on every machine and libc.
 */
#ifndef TW_SCHEDULE_H
#define TW_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

enum tw_sched_kind {
	TW_SCHED_NONE,
	TW_SCHED_PERIODIC,	/* constant gap */
	TW_SCHED_POISSON,	/* exponential gaps of a given mean */
	TW_SCHED_GAMMA,		/* gamma gaps of a given shape and mean */
	TW_SCHED_FILE,		/* offsets in ns, one per line */
};

struct tw_sched_spec {
	enum tw_sched_kind kind;
	uint64_t gap_ns;	/* periodic gap, or mean gap */
	double shape;		/* gamma shape k (> 0) */
	const char *path;	/* file */
};

/* xoshiro256** state. */
struct tw_rng {
	uint64_t s[4];
};

void tw_rng_seed(struct tw_rng *r, uint64_t seed);
uint64_t tw_rng_next(struct tw_rng *r);
/* Uniform in (0, 1): never 0, so its logarithm is finite. */
double tw_rng_uniform(struct tw_rng *r);
double tw_rng_normal(struct tw_rng *r);
double tw_rng_exp(struct tw_rng *r, double mean);
/* Gamma with shape k and scale theta (mean k * theta), Marsaglia-Tsang. */
double tw_rng_gamma(struct tw_rng *r, double k, double theta);

/*
 * Parse "periodic ALPHA_US", "poisson MEAN_US", "gamma SHAPE MEAN_US" or
 * "file PATH".  Returns the words used, or -1 with a message in err.
 */
int tw_sched_parse(struct tw_sched_spec *spec, int argc, char **argv,
		   char *err, size_t errlen);

/* Name of the kind: "periodic", "poisson", "gamma" or "file". */
const char *tw_sched_name(enum tw_sched_kind kind);

/*
 * Fill *offsets (allocated, caller frees) with count offsets in ns.  For a
 * file, count 0 means "every line".  Returns the number of offsets, or -1
 * with a message in err.
 */
long tw_sched_build(const struct tw_sched_spec *spec, size_t count,
		    uint64_t seed, uint64_t **offsets, char *err,
		    size_t errlen);

#endif /* TW_SCHEDULE_H */
