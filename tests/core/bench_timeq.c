// SPDX-License-Identifier: GPL-2.0
/*
 * bench_timeq.c - compare the red-black tree of core/timeq.c with a binary
 * heap in an array and with a sorted doubly linked list, on the workloads
 * of a packet schedule.  Not a test: it prints ns per operation (one insert
 * or one pop), the median of several rounds, and the ratio to the tree
 * (above 1 means slower than the tree).
 *
 *   sorted   N ascending send times inserted, then all popped (the usual
 *            case: a tool submits a batch in time order)
 *   random   N random send times inserted, then all popped
 *   steady   N pending; each step pops the earliest and inserts a later
 *            time at a random distance (a queue in steady state).  The
 *            heaps first run N untimed steps to leave their sorted fill;
 *            a sorted list has only one shape and needs none.
 *
 * The list inserts by scanning from its tail, its best case for sorted
 * input; where it would take too long (O(N^2)) it is marked as skipped.
 *
 * Then the latency of single pops, which is what a send at its deadline
 * pays: 64k send times inserted sorted, reversed or shuffled, then every
 * pop timed on its own (the first pop, p99.9 and the worst, each the least
 * a pop took over several identical rounds; a clock read included).  The target is a worst pop of at most 2 us; the program exits 1
 * when the tree misses it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "timeq.h"

#define ROUNDS		5
#define STEADY_OPS	100000
#define LIST_BUDGET	200000000ULL	/* list node visits per round */

static u64 rng_state = 0x243f6a8885a308d3ULL;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The red-black tree (core/timeq.c), nodes indexed like the others. */
static struct tw_timeq pq;
static struct tw_timeq_node *pn;

static void tq_reset(void)
{
	tw_timeq_init(&pq);
}

static inline void tq_insert(u32 i, u64 key)
{
	tw_timeq_insert(&pq, &pn[i], key);
}

static inline u32 tq_pop(u64 *key)
{
	struct tw_timeq_node *n = tw_timeq_pop(&pq);

	*key = n->key;
	return (u32)(n - pn);
}

/* Binary min-heap of (key, seq, index) entries in one array. */
struct bentry {
	u64 key;
	u64 seq;
	u32 idx;
};

static struct bentry *bh;
static u32 bh_len;
static u64 bh_seq;

static inline bool bh_before(const struct bentry *a, const struct bentry *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void bh_reset(void)
{
	bh_len = 0;
	bh_seq = 0;
}

static inline void bh_insert(u32 i, u64 key)
{
	struct bentry e = { key, bh_seq++, i };
	u32 pos = bh_len++, parent;

	while (pos) {
		parent = (pos - 1) / 2;
		if (!bh_before(&e, &bh[parent]))
			break;
		bh[pos] = bh[parent];
		pos = parent;
	}
	bh[pos] = e;
}

static inline u32 bh_pop(u64 *key)
{
	struct bentry top = bh[0], last = bh[--bh_len];
	u32 pos = 0, c;

	while ((c = 2 * pos + 1) < bh_len) {
		if (c + 1 < bh_len && bh_before(&bh[c + 1], &bh[c]))
			c++;
		if (!bh_before(&bh[c], &last))
			break;
		bh[pos] = bh[c];
		pos = c;
	}
	bh[pos] = last;
	*key = top.key;
	return top.idx;
}

/* Sorted doubly linked list; equal keys go after existing ones (FIFO). */
struct lnode {
	u64 key;
	struct lnode *next, *prev;
};

static struct lnode *ln, lhead;

static void sl_reset(void)
{
	lhead.next = &lhead;
	lhead.prev = &lhead;
}

static inline void sl_insert(u32 i, u64 key)
{
	struct lnode *n = &ln[i], *p = lhead.prev;

	while (p != &lhead && p->key > key)
		p = p->prev;
	n->key = key;
	n->prev = p;
	n->next = p->next;
	p->next->prev = n;
	p->next = n;
}

static inline u32 sl_pop(u64 *key)
{
	struct lnode *n = lhead.next;

	lhead.next = n->next;
	n->next->prev = &lhead;
	*key = n->key;
	return (u32)(n - ln);
}

static u64 *keys, *deltas;

/*
 * CPU time of this thread: the machine may be shared, and time spent
 * preempted is not the structure's cost.
 */
static u64 cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * One function per (structure, workload), so that the structure's
 * operations inline exactly as they would in real use.  Each returns the
 * elapsed ns and the number of operations; sink defeats dead-code removal.
 */
static u64 sink;

#define DEFINE_WORKLOADS(p)						\
static u64 p##_fill_drain(u32 n, u64 *ops)				\
{									\
	u64 t0, t1, k, acc = 0;						\
	u32 i;								\
									\
	p##_reset();							\
	t0 = cpu_ns();						\
	for (i = 0; i < n; i++)						\
		p##_insert(i, keys[i]);					\
	for (i = 0; i < n; i++)						\
		acc += p##_pop(&k) ^ k;					\
	t1 = cpu_ns();						\
	sink += acc;							\
	*ops = 2ULL * n;						\
	return t1 - t0;							\
}									\
									\
static u64 p##_steady(u32 n, u32 warm, u32 steps, u64 *ops)		\
{									\
	u64 t0, t1, k = 0;						\
	u32 i, idx;							\
									\
	p##_reset();							\
	for (i = 0; i < n; i++)						\
		p##_insert(i, keys[i]);					\
	for (i = 0; i < warm; i++) {					\
		idx = p##_pop(&k);					\
		p##_insert(idx, k + deltas[i % STEADY_OPS]);		\
	}								\
	t0 = cpu_ns();						\
	for (i = 0; i < steps; i++) {					\
		idx = p##_pop(&k);					\
		p##_insert(idx, k + deltas[i]);				\
	}								\
	t1 = cpu_ns();						\
	sink += k;							\
	*ops = 2ULL * steps;						\
	return t1 - t0;							\
}

DEFINE_WORKLOADS(tq)
DEFINE_WORKLOADS(bh)
DEFINE_WORKLOADS(sl)

enum { W_SORTED, W_RANDOM, W_STEADY };
enum { S_TQ, S_BH, S_SL, S_NR };

static const char * const wname[] = { "sorted", "random", "steady" };
static const char * const sname[] = { "timeq", "binheap", "sortlist" };

static void make_keys(int w, u32 n)
{
	u64 spread = (u64)n * 1000;	/* ~1 us between sends on average */
	u32 i;

	/* steady starts from a sorted fill (cheap for the list too) */
	for (i = 0; i < n; i++)
		keys[i] = w != W_RANDOM ? 1000000 + (u64)i * 1000 :
					  rng() % spread;
	for (i = 0; i < STEADY_OPS; i++)
		deltas[i] = 1 + rng() % (2 * spread);
}

/* ns per op of one round, or 0 if skipped. */
static double one_round(int w, int s, u32 n)
{
	u32 steps = STEADY_OPS;
	u64 ns = 0, ops = 1;

	/* Scanning the list costs up to n per insert: keep it bounded. */
	if (s == S_SL && w != W_SORTED) {
		if (w == W_RANDOM && (u64)n * n / 4 > LIST_BUDGET)
			return 0;
		steps = min_t(u64, STEADY_OPS, LIST_BUDGET / n / 10);
	}
	switch (s * 8 + w) {
	case S_TQ * 8 + W_SORTED:
	case S_TQ * 8 + W_RANDOM:
		ns = tq_fill_drain(n, &ops);
		break;
	case S_BH * 8 + W_SORTED:
	case S_BH * 8 + W_RANDOM:
		ns = bh_fill_drain(n, &ops);
		break;
	case S_SL * 8 + W_SORTED:
	case S_SL * 8 + W_RANDOM:
		ns = sl_fill_drain(n, &ops);
		break;
	case S_TQ * 8 + W_STEADY:
		ns = tq_steady(n, n, steps, &ops);
		break;
	case S_BH * 8 + W_STEADY:
		ns = bh_steady(n, n, steps, &ops);
		break;
	case S_SL * 8 + W_STEADY:
		ns = sl_steady(n, 0, steps, &ops);
		break;
	}
	return (double)ns / (double)ops;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define LAT_N		65536
#define LAT_TARGET_NS	2000
#define LAT_ROUNDS	9
enum { O_SORTED, O_REVERSE, O_SHUFFLED, O_NR };
static const char * const oname[] = { "sorted", "reversed", "shuffled" };

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * Time every pop of one round; keep in lat[i] the least time the i-th pop
 * took in any round.  Every round does the same work in the same order, so
 * the least time of a pop is its own cost: a pop that was interrupted or
 * preempted in one round is not in all of them.
 */
#define DEFINE_POP_LATENCY(p)						\
static void p##_pop_latency(u64 *lat)					\
{									\
	u64 t0, t, k;							\
	u32 i;								\
									\
	p##_reset();							\
	for (i = 0; i < LAT_N; i++)					\
		p##_insert(i, keys[i]);					\
	for (i = 0; i < LAT_N; i++) {					\
		t0 = wall_ns();						\
		sink += p##_pop(&k);					\
		t = wall_ns() - t0;					\
		lat[i] = min(lat[i], t);				\
	}								\
}

DEFINE_POP_LATENCY(tq)
DEFINE_POP_LATENCY(bh)

static void make_order(int o)
{
	u32 i, j;
	u64 t;

	for (i = 0; i < LAT_N; i++)
		keys[i] = 1000000 + (u64)(o == O_REVERSE ? LAT_N - i : i) * 1000;
	if (o != O_SHUFFLED)
		return;
	for (i = LAT_N - 1; i > 0; i--) {
		j = rng() % (i + 1);
		t = keys[i];
		keys[i] = keys[j];
		keys[j] = t;
	}
}

/* Returns whether the tree's worst pop met the target in every order. */
static bool pop_latency(void)
{
	u64 *lat = malloc(LAT_N * sizeof(*lat));
	u64 first, worst;
	bool met = true;
	int o, s, round;

	if (!lat)
		return false;
	printf("\nsingle pop after a batch of %u, ns: the least of %d rounds per pop\n",
	       LAT_N, LAT_ROUNDS);
	printf("%-9s %-8s %8s %8s %8s\n", "batch", "queue", "first", "p99.9",
	       "worst");
	for (o = 0; o < O_NR; o++) {
		make_order(o);
		for (s = 0; s < 2; s++) {
			memset(lat, 0xff, LAT_N * sizeof(*lat));
			for (round = 0; round < LAT_ROUNDS; round++) {
				if (s == 0)
					tq_pop_latency(lat);
				else
					bh_pop_latency(lat);
			}
			first = lat[0];
			qsort(lat, LAT_N, sizeof(*lat), cmp_u64);
			worst = lat[LAT_N - 1];
			printf("%-9s %-8s %8llu %8llu %8llu\n", oname[o], sname[s],
			       (unsigned long long)first,
			       (unsigned long long)lat[LAT_N - 1 - LAT_N / 1000],
			       (unsigned long long)worst);
			if (s == 0 && worst > LAT_TARGET_NS)
				met = false;
		}
	}
	printf("target: worst timeq pop <= %u ns: %s\n", LAT_TARGET_NS,
	       met ? "met" : "MISSED");
	free(lat);
	return met;
}

int main(void)
{
	static const u32 sizes[] = { 1000, 10000, 100000 };
	const u32 nmax = 100000;
	double res[S_NR], r[ROUNDS];
	int w, s, k, round;
	bool met;

	pn = calloc(nmax, sizeof(*pn));
	bh = calloc(nmax, sizeof(*bh));
	ln = calloc(nmax, sizeof(*ln));
	keys = calloc(nmax, sizeof(*keys));
	deltas = calloc(STEADY_OPS, sizeof(*deltas));
	if (!pn || !bh || !ln || !keys || !deltas)
		return 1;

	printf("ns per operation (insert or pop), median of %d rounds of thread CPU time;\n(x) = ratio to timeq\n\n",
	       ROUNDS);
	printf("%-8s %7s %10s %18s %18s\n", "workload", "N", sname[S_TQ],
	       sname[S_BH], sname[S_SL]);
	for (w = W_SORTED; w <= W_STEADY; w++) {
		for (k = 0; k < 3; k++) {
			u32 n = sizes[k];

			make_keys(w, n);
			for (s = 0; s < S_NR; s++) {
				/* One warm-up round, then the measured ones. */
				one_round(w, s, n);
				for (round = 0; round < ROUNDS; round++)
					r[round] = one_round(w, s, n);
				qsort(r, ROUNDS, sizeof(r[0]), cmp_double);
				res[s] = r[ROUNDS / 2];
			}
			printf("%-8s %7u %10.1f", wname[w], n, res[S_TQ]);
			for (s = S_BH; s < S_NR; s++) {
				char cell[32];

				if (res[s] > 0)
					snprintf(cell, sizeof(cell),
						 "%.1f (%.2fx)", res[s],
						 res[s] / res[S_TQ]);
				else
					snprintf(cell, sizeof(cell), "skipped");
				printf(" %18s", cell);
			}
			printf("\n");
			fflush(stdout);
		}
	}
	met = pop_latency();
	printf("\n(checksum %llu)\n", (unsigned long long)sink);
	free(pn);
	free(bh);
	free(ln);
	free(keys);
	free(deltas);
	return met ? 0 : 1;
}
