// SPDX-License-Identifier: GPL-2.0
/*
 * bench_pick.c - what picking an idle worker costs, by memo (Danian) and by
 * scan (Caladan), as the pool grows.  Not a test: it prints figures and
 * same-run ratios, and exits 1 when a target fails.
 *
 * A pool of N workers for N + 1 CPUs.  Every worker is idle, worker w last
 * ran on CPU w, and the list runs from N - 1 (most recently used) to 0.
 * One op is a tw_pick_get and the tw_pick_put that returns the worker:
 *
 *   hit   pick for a CPU c drawn at random (uniformly, from a fixed seed),
 *         put back on c: the memo is valid, and the worker that last ran
 *         on c lies where the order of use left it, which under uniform
 *         demand is on average halfway down the list (move to front), so
 *         the scan reads about N / 2 entries (steps/op shows how many);
 *   miss  pick for CPU N, on which no idle worker last ran, put back on
 *         c going round: the memo names a worker that has moved since
 *         (checked, then refused), and the scan reads all N entries before
 *         it takes the least recently used one, as it must on any miss.
 *
 * The hit path once sent c round 0..N - 1, which left the worker sought
 * at the end of the list on every op: the scan's worst case, built in,
 * and with it a lead for the memo that no measurement could deny.  A
 * random CPU is the scan's average case: the targets below can fail.
 * Per cell: the median of --rounds runs of --ms each, wall-clock ns and
 * TSC cycles per op, one thread pinned to one CPU.
 *
 * Targets: memo flat from 4 to 1024 workers (1024/4 cost ratio <= 1.5)
 * and at least 10x faster than the scan at 1024, on both paths.
 *
 *   bench_pick [--ms N] [--rounds N]
 */
#include <sched.h>

#include "bench.h"
#include "pick.h"

#define BATCH		256	/* ops between two reads of the clock */
#define MAX_ROUNDS	16
#define DRAWS		4096	/* the hit path's CPUs, a power of two */

enum path { HIT, MISS, NPATHS };

static const u32 sizes[] = { 4, 16, 64, 256, 1024 };
#define NSIZES		(sizeof(sizes) / sizeof(sizes[0]))
#define SMALL		0
#define LARGE		(NSIZES - 1)

static const char *const path_names[NPATHS] = { "hit", "miss" };
static int run_ms = 20, rounds = 5;
static double tsc_ghz;

struct result {
	double ns, cycles, steps, hits;	/* per op */
};

static struct result results[NSIZES][TW_PICK_POLICY_COUNT][NPATHS];
static u32 draws[DRAWS];

/* DRAWS CPUs of 0..@n - 1, uniform, the same sequence for both policies. */
static void draw_cpus(u32 n)
{
	u64 x = 0x9e3779b97f4a7c15ULL;
	u32 i;

	for (i = 0; i < DRAWS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		draws[i] = (u32)(((x >> 32) * n) >> 32);
	}
}

/* The state of the header comment; exits on what cannot happen. */
static struct tw_pick *prefill(u32 n)
{
	struct tw_pick *p;
	u32 w;

	if (tw_pick_create(&p, n, n + 1))
		exit(2);
	for (w = 0; w < n; w++)
		tw_pick_get(p, TW_PICK_MEMO, 0);
	/* last_run[n] = 0, which then moves to CPU 0 */
	tw_pick_put(p, 0, n);
	if (tw_pick_get(p, TW_PICK_MEMO, n) != 0)
		exit(2);
	for (w = 0; w < n; w++)
		tw_pick_put(p, w, w);
	return p;
}

/*
 * @count ops of @path from *@k on: a hit picks for CPU draws[k], a miss
 * for CPU n and puts the worker back on k, going round 0..n - 1 (no
 * division in the loop).  On both paths the worker
 * picked is worker c, the CPU it goes back to (the one that last ran on c,
 * or the least recently used): returns how many ops took another, which
 * would not be the op described.
 */
static u32 ops(struct tw_pick *p, enum tw_pick_policy policy,
	       enum path path, u32 n, u32 *k, u32 count)
{
	u32 strays = 0, c;
	int w;

	while (count--) {
		if (path == HIT) {
			c = draws[(*k)++ & (DRAWS - 1)];
		} else {
			c = *k;
			if (++*k == n)
				*k = 0;
		}
		w = tw_pick_get(p, policy, path == HIT ? c : n);
		tw_pick_put(p, w, c);
		strays += (u32)w != c;
	}
	return strays;
}

static void run(struct tw_pick *p, enum tw_pick_policy policy, enum path path,
		u32 n, struct result *res)
{
	struct tw_pick_stats st0, st1;
	u64 t0, c0, end, done = 0, strays;
	u32 k = 0;

	/*
	 * Caches warm and the list in the order the path keeps: one round of
	 * the CPUs for a miss, every draw once for a hit.
	 */
	strays = ops(p, policy, path, n, &k, path == HIT ? DRAWS : n);
	tw_pick_get_stats(p, &st0);
	t0 = ktime_get_ns();
	c0 = tsc();
	end = t0 + (u64)run_ms * 1000000;
	do {
		strays += ops(p, policy, path, n, &k, BATCH);
		done += BATCH;
	} while (ktime_get_ns() < end);
	res->cycles = (double)(tsc() - c0) / (double)done;
	res->ns = (double)(ktime_get_ns() - t0) / (double)done;
	tw_pick_get_stats(p, &st1);
	res->steps = (double)(st1.scan_steps - st0.scan_steps) / (double)done;
	res->hits = (double)(st1.memo_hits - st0.memo_hits) / (double)done;
	if (strays || st1.picks - st0.picks != done) {
		fprintf(stderr, "bench_pick: %s %s n=%u: not the op described\n",
			tw_pick_policy_name(policy), path_names[path], n);
		exit(2);
	}
}

static int by_ns(const void *a, const void *b)
{
	const struct result *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

static struct result measure(enum tw_pick_policy policy, enum path path,
			     u32 n)
{
	struct result res[MAX_ROUNDS];
	struct tw_pick *p;
	int k;

	draw_cpus(n);
	for (k = 0; k < rounds; k++) {
		p = prefill(n);
		run(p, policy, path, n, &res[k]);
		tw_pick_destroy(p);
	}
	qsort(res, rounds, sizeof(res[0]), by_ns);
	return res[rounds / 2];
}

static void table(void)
{
	enum tw_pick_policy pol;
	const struct result *r;
	size_t si;
	int path;

	printf("%6s %5s %5s %9s %9s %10s %10s %9s\n", "pool", "path",
	       "pick", "ns/op", "cycles", "steps/op", "memo hit", "x memo");
	for (si = 0; si < NSIZES; si++) {
		for (path = 0; path < NPATHS; path++) {
			for (pol = 0; pol < TW_PICK_POLICY_COUNT; pol++) {
				results[si][pol][path] = measure(pol, path,
								 sizes[si]);
				r = &results[si][pol][path];
				printf("%6u %5s %5s %9.1f %9.0f %10.1f %9.0f%% %9.1f\n",
				       sizes[si], path_names[path],
				       tw_pick_policy_name(pol), r->ns,
				       r->cycles, r->steps, 100 * r->hits,
				       r->ns / results[si][TW_PICK_MEMO][path].ns);
			}
		}
	}
}

static int targets(void)
{
	const struct result *memo4, *memo1k, *scan1k;
	char what[200];
	int fails = 0, path;

	printf("\nTargets (same run)\n");
	for (path = 0; path < NPATHS; path++) {
		memo4 = &results[SMALL][TW_PICK_MEMO][path];
		memo1k = &results[LARGE][TW_PICK_MEMO][path];
		scan1k = &results[LARGE][TW_PICK_SCAN][path];
		snprintf(what, sizeof(what),
			 "memo %s flat, %u to %u workers (<= 1.5x): %.2fx",
			 path_names[path], sizes[SMALL], sizes[LARGE],
			 memo1k->ns / memo4->ns);
		fails += check(what, memo1k->ns <= 1.5 * memo4->ns);
		snprintf(what, sizeof(what),
			 "memo %s >= 10x faster than scan at %u workers: %.1fx",
			 path_names[path], sizes[LARGE],
			 scan1k->ns / memo1k->ns);
		fails += check(what, scan1k->ns >= 10 * memo1k->ns);
	}
	return fails;
}

/* One CPU for the whole run: no migration inside a row. */
static void pin_here(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(sched_getcpu(), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--ms"))
			run_ms = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--rounds"))
			rounds = min(atoi(argv[i + 1]), MAX_ROUNDS);
	}
	if (run_ms <= 0 || rounds <= 0 || i < argc) {
		fprintf(stderr, "usage: bench_pick [--ms N] [--rounds N]\n");
		return 2;
	}
	sched_getaffinity(0, sizeof(set), &set);
	tsc_ghz = tsc_ghz_measure();
	pin_here();
	printf("worker pick: get + put of one worker per op, %d ms x %d rounds per row, TSC at %.2f GHz\n",
	       run_ms, rounds, tsc_ghz);
	note_load(CPU_COUNT(&set));
	table();
	return targets() ? 1 : 0;
}
