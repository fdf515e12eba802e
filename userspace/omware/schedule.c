// SPDX-License-Identifier: GPL-2.0
/*
 * Periodic, Poisson, gamma and file-driven send schedules.
 */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "schedule.h"

/* Longest gap or mean accepted: one hour. */
#define MAX_GAP_NS	3600000000000ULL

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64 spreads a small seed over the whole xoshiro state. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void tw_rng_seed(struct tw_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t tw_rng_next(struct tw_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double tw_rng_uniform(struct tw_rng *r)
{
	/* 53 random bits, shifted half a step away from 0. */
	return ((tw_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

double tw_rng_normal(struct tw_rng *r)
{
	double u1 = tw_rng_uniform(r), u2 = tw_rng_uniform(r);

	/* Box-Muller; the second value is thrown away for simplicity. */
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double tw_rng_exp(struct tw_rng *r, double mean)
{
	return -mean * log(tw_rng_uniform(r));
}

double tw_rng_gamma(struct tw_rng *r, double k, double theta)
{
	double d, c, x, v, u;

	/*
	 * Marsaglia and Tsang work for k >= 1; for k < 1 draw with k + 1
	 * and scale by U^(1/k).
	 */
	if (k < 1.0)
		return tw_rng_gamma(r, k + 1.0, theta) *
		       pow(tw_rng_uniform(r), 1.0 / k);

	d = k - 1.0 / 3.0;
	c = 1.0 / sqrt(9.0 * d);
	for (;;) {
		do {
			x = tw_rng_normal(r);
			v = 1.0 + c * x;
		} while (v <= 0.0);
		v = v * v * v;
		u = tw_rng_uniform(r);
		/* Cheap squeeze first, exact test only when it fails. */
		if (u < 1.0 - 0.0331 * x * x * x * x)
			return d * v * theta;
		if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
			return d * v * theta;
	}
}

const char *tw_sched_name(enum tw_sched_kind kind)
{
	switch (kind) {
	case TW_SCHED_PERIODIC:
		return "periodic";
	case TW_SCHED_POISSON:
		return "poisson";
	case TW_SCHED_GAMMA:
		return "gamma";
	case TW_SCHED_FILE:
		return "file";
	default:
		return "none";
	}
}


/* Microseconds with up to three decimals, e.g. "12.5", into ns. */
static int parse_us(const char *s, uint64_t *ns)
{
	uint64_t v = 0, frac = 0;
	int digits = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > MAX_GAP_NS / 1000)
			return -ERANGE;
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			if (++digits > 3)
				return -EINVAL;
			frac = frac * 10 + (*s - '0');
		}
		if (!digits)
			return -EINVAL;
	}
	if (*s)
		return -EINVAL;
	while (digits++ < 3)
		frac *= 10;
	*ns = v * 1000 + frac;
	return 0;
}

/*
 * Parse the microseconds of "schedule KIND"; what (e.g. "MEAN_US") names
 * the value in messages.  positive: 0 is refused.  0, or -1 with a
 * message in err.
 */
static int parse_gap(const char *kind, const char *what, bool positive,
		     const char *s, uint64_t *ns, char *err, size_t errlen)
{
	char keyword[32], expected[128];
	const char *problem;
	int ret;

	snprintf(keyword, sizeof(keyword), "schedule %s", kind);
	snprintf(expected, sizeof(expected),
		 "%s, microseconds%s with up to 3 decimals, at most %llu", what,
		 positive ? " above 0" : "", MAX_GAP_NS / 1000);
	ret = s ? parse_us(s, ns) : -EINVAL;
	if (!ret && (!positive || *ns))
		return 0;
	if (!s)
		problem = NULL;
	else if (!ret)
		problem = "zero";
	else if (ret == -ERANGE)
		problem = "too large";
	else
		problem = tw_number_problem(s, 3);
	tw_value_msg(err, errlen, keyword, s, problem, expected);
	return -1;
}

int tw_sched_parse(struct tw_sched_spec *spec, int argc, char **argv,
		   char *err, size_t errlen)
{
	const char *kind = argc > 0 ? argv[0] : NULL;
	const char *arg1 = argc > 1 ? argv[1] : NULL;
	char *end;

	memset(spec, 0, sizeof(*spec));
	if (!kind) {
		tw_value_msg(err, errlen, "schedule", NULL, NULL,
			     "periodic, poisson, gamma or file");
		return -1;
	}
	if (!strcmp(kind, "periodic") || !strcmp(kind, "poisson")) {
		bool periodic = !strcmp(kind, "periodic");

		spec->kind = periodic ? TW_SCHED_PERIODIC : TW_SCHED_POISSON;
		if (parse_gap(kind, periodic ? "ALPHA_US" : "MEAN_US",
			      !periodic, arg1, &spec->gap_ns, err, errlen))
			return -1;
		return 2;
	}
	if (!strcmp(kind, "gamma")) {
		spec->kind = TW_SCHED_GAMMA;
		if (!arg1) {
			tw_value_msg(err, errlen, "schedule gamma", NULL, NULL,
				     "SHAPE MEAN_US");
			return -1;
		}
		errno = 0;
		spec->shape = strtod(arg1, &end);
		if (errno || *end || end == arg1 || !isfinite(spec->shape) ||
		    spec->shape < 0.001 || spec->shape > 1e6) {
			tw_value_msg(err, errlen, "schedule gamma", arg1,
				     NULL, "SHAPE, a number from 0.001 to 1e6");
			return -1;
		}
		if (parse_gap(kind, "MEAN_US", true, argc > 2 ? argv[2] : NULL,
			      &spec->gap_ns, err, errlen))
			return -1;
		return 3;
	}
	if (!strcmp(kind, "file")) {
		spec->kind = TW_SCHED_FILE;
		if (!arg1 || !*arg1) {
			tw_value_msg(err, errlen, "schedule file", arg1,
				     arg1 ? "empty" : NULL, "PATH");
			return -1;
		}
		spec->path = arg1;
		return 2;
	}
	tw_value_msg(err, errlen, "schedule", kind, NULL,
		     "periodic, poisson, gamma or file");
	return -1;
}

static long read_file(const char *path, size_t count, uint64_t **out,
		      char *err, size_t errlen)
{
	uint64_t *v = NULL, *nv;
	size_t n = 0, cap = 0;
	unsigned long lineno = 0;
	char line[256], *p, *end;
	FILE *f;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while ((!count || n < count) && fgets(line, sizeof(line), f)) {
		unsigned long long x;

		lineno++;
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (!*p || *p == '#')
			continue;
		errno = 0;
		x = strtoull(p, &end, 10);
		while (isspace((unsigned char)*end))
			end++;
		if (!isdigit((unsigned char)*p) || errno || *end) {
			snprintf(err, errlen,
				 "%s:%lu: expected an offset in nanoseconds",
				 path, lineno);
			goto fail;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			v = nv;
		}
		v[n++] = x;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s", path);
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	if (!n || (count && n < count)) {
		snprintf(err, errlen, "%s holds %zu offsets, %zu needed", path,
			 n, count ? count : 1);
		free(v);
		return -1;
	}
	*out = v;
	return n;
fail:
	if (f != stdin)
		fclose(f);
	free(v);
	return -1;
}

long tw_sched_build(const struct tw_sched_spec *spec, size_t count,
		    uint64_t seed, uint64_t **offsets, char *err,
		    size_t errlen)
{
	struct tw_rng rng;
	uint64_t *v;
	double t = 0;
	size_t i;

	if (spec->kind == TW_SCHED_FILE)
		return read_file(spec->path, count, offsets, err, errlen);
	if (!count) {
		snprintf(err, errlen, "no packets to schedule");
		return -1;
	}
	v = calloc(count, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	tw_rng_seed(&rng, seed);
	for (i = 0; i < count; i++) {
		switch (spec->kind) {
		case TW_SCHED_PERIODIC:
			t = (double)i * spec->gap_ns;
			v[i] = i * spec->gap_ns;
			break;
		case TW_SCHED_POISSON:
			if (i)
				t += tw_rng_exp(&rng, spec->gap_ns);
			v[i] = llround(t);
			break;
		case TW_SCHED_GAMMA:
			if (i)
				t += tw_rng_gamma(&rng, spec->shape,
						  spec->gap_ns / spec->shape);
			v[i] = llround(t);
			break;
		default:
			snprintf(err, errlen, "no schedule given");
			free(v);
			return -1;
		}
		/* Keep offsets far from overflowing an absolute time. */
		if (t > 1e18) {
			snprintf(err, errlen, "schedule spans too long");
			free(v);
			return -1;
		}
	}
	*offsets = v;
	return count;
}
