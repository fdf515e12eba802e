// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeq.c - host unit tests of the time-ordered schedule queue,
 * checked against a sorted array and against the queue's invariants (the
 * run in order, the red-black rules of the tree).
 */
#include <stdlib.h>
#include <string.h>

#include "timeq.h"
#include "kselftest_harness.h"

struct item {
	struct tw_timeq_node node;
	int id;
	u64 order;	/* insertion order as counted by the test */
};

static u64 insert_count;

static void insert(struct tw_timeq *q, struct item *x, u64 key)
{
	x->order = insert_count++;
	tw_timeq_insert(q, &x->node, key);
}

/*
 * The order the queue must follow, computed independently of the queue:
 * by key, then by insertion order.
 */
static bool before(const struct tw_timeq_node *a, const struct tw_timeq_node *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return container_of(a, struct item, node)->order <
	       container_of(b, struct item, node)->order;
}

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng(void)
{
	/* xorshift64*: reproducible, good enough for test inputs */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/*
 * Check one subtree of the red-black tree: in-order keys, parent links, no
 * red node with a red child.  Returns its black height, or -1 if broken;
 * counts its nodes into *count.
 */
static int subtree_valid(const struct tw_timeq_node *n,
			 const struct tw_timeq_node *parent, size_t *count)
{
	const struct tw_timeq_node *l, *r;
	int hl, hr;

	if (!n)
		return 1;
	l = n->child[0];
	r = n->child[1];
	if (n->where != TW_TIMEQ_TREE || n->parent != parent ||
	    (l && !before(l, n)) || (r && before(r, n)))
		return -1;
	if (n->red && ((l && l->red) || (r && r->red)))
		return -1;
	(*count)++;
	hl = subtree_valid(l, n, count);
	hr = subtree_valid(r, n, count);
	if (hl < 0 || hl != hr)
		return -1;
	return hl + !n->red;
}

/* The run: in order, linked both ways, every node marked as in it. */
static bool run_valid(const struct tw_timeq *q, size_t *count)
{
	const struct tw_timeq_node *n, *prev = NULL;

	for (n = q->run_head; n; prev = n, n = n->child[1]) {
		if (n->where != TW_TIMEQ_RUN || n->child[0] != prev ||
		    (prev && !before(prev, n)))
			return false;
		(*count)++;
	}
	return q->run_tail == prev;
}

/*
 * The whole queue: the run in order; the tree under the red-black rules
 * with a black root, equal black height on every path and its first node
 * cached; len nodes in all.
 */
static bool timeq_valid(const struct tw_timeq *q)
{
	const struct tw_timeq_node *lo = q->root;
	size_t count = 0, run = 0;

	if (!run_valid(q, &run))
		return false;
	if (!q->root)
		return q->len == run && !q->first;
	if (q->root->red || subtree_valid(q->root, NULL, &count) < 0)
		return false;
	while (lo->child[0])
		lo = lo->child[0];
	return count + run == q->len && q->first == lo;
}

/* The reference: node pointers sorted by (key, seq). */
struct ref {
	struct tw_timeq_node **v;
	size_t len, cap;
};

static size_t ref_pos(const struct ref *r, const struct tw_timeq_node *n)
{
	size_t lo = 0, hi = r->len, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (before(r->v[mid], n))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void ref_insert(struct ref *r, struct tw_timeq_node *n)
{
	size_t i = ref_pos(r, n);

	if (r->len == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		if (!r->v)
			abort();
	}
	memmove(&r->v[i + 1], &r->v[i], (r->len - i) * sizeof(*r->v));
	r->v[i] = n;
	r->len++;
}

static bool ref_remove(struct ref *r, struct tw_timeq_node *n)
{
	size_t i = ref_pos(r, n);

	if (i >= r->len || r->v[i] != n)
		return false;
	memmove(&r->v[i], &r->v[i + 1], (r->len - i - 1) * sizeof(*r->v));
	r->len--;
	return true;
}

static int cmp_node(const void *a, const void *b)
{
	const struct tw_timeq_node *x = *(struct tw_timeq_node * const *)a;
	const struct tw_timeq_node *y = *(struct tw_timeq_node * const *)b;

	if (before(x, y))
		return -1;
	return before(y, x) ? 1 : 0;
}

static struct item *items_new(size_t n)
{
	struct item *it = calloc(n, sizeof(*it));
	size_t i;

	if (!it)
		abort();
	for (i = 0; i < n; i++) {
		it[i].id = (int)i;
		tw_timeq_node_init(&it[i].node);
	}
	return it;
}

/* Drain q and check it yields exactly the nodes of want[] in that order. */
static bool drain_matches(struct tw_timeq *q, struct tw_timeq_node **want,
			  size_t n)
{
	struct tw_timeq_node *got;
	size_t i;

	for (i = 0; i < n; i++) {
		if (tw_timeq_peek(q) != want[i])
			return false;
		got = tw_timeq_pop(q);
		if (got != want[i] || tw_timeq_len(q) != n - i - 1)
			return false;
		if (got->child[0] || got->child[1] ||
		    tw_timeq_node_queued(q, got))
			return false;
	}
	return tw_timeq_empty(q) && !tw_timeq_pop(q);
}

/*
 * Every test gets a fresh queue; the harness runs each in its own process,
 * so a warning counted after the test is that test's own.
 */
FIXTURE(timeq) {
	struct tw_timeq q;
};

FIXTURE_SETUP(timeq)
{
	tw_timeq_init(&self->q);
}

FIXTURE_TEARDOWN(timeq)
{
	EXPECT_EQ(0, tw_host_warnings);
}

/* empty queue: empty, len 0, peek and pop NULL */
TEST_F(timeq, empty)
{
	ASSERT_TRUE(tw_timeq_empty(&self->q));
	ASSERT_EQ(0, tw_timeq_len(&self->q));
	ASSERT_NULL(tw_timeq_peek(&self->q));
	ASSERT_NULL(tw_timeq_pop(&self->q));
}

/* single node: insert, peek, pop, queued flag */
TEST_F(timeq, single)
{
	struct tw_timeq *q = &self->q;
	struct item it;

	tw_timeq_node_init(&it.node);
	ASSERT_FALSE(tw_timeq_node_queued(q, &it.node));
	insert(q, &it, 42);
	ASSERT_TRUE(tw_timeq_node_queued(q, &it.node));
	ASSERT_FALSE(tw_timeq_empty(q));
	ASSERT_EQ(1, tw_timeq_len(q));
	ASSERT_EQ(&it.node, tw_timeq_peek(q));
	ASSERT_EQ(42, it.node.key);
	ASSERT_EQ(&it.node, tw_timeq_pop(q));
	ASSERT_TRUE(tw_timeq_empty(q));
	ASSERT_FALSE(tw_timeq_node_queued(q, &it.node));
}

/* Insert keys made by gen(i) and check the drain against a stable sort. */
static bool check_order(struct tw_timeq *q, size_t n, u64 (*gen)(size_t i))
{
	struct item *it = items_new(n);
	struct tw_timeq_node **want = malloc(n * sizeof(*want));
	size_t i;
	bool ok;

	for (i = 0; i < n; i++) {
		insert(q, &it[i], gen(i));
		want[i] = &it[i].node;
	}
	/* (key, order) is a total order: qsort gives the one right answer. */
	qsort(want, n, sizeof(*want), cmp_node);
	ok = tw_timeq_len(q) == n && timeq_valid(q);
	ok &= drain_matches(q, want, n);
	free(want);
	free(it);
	return ok;
}

static u64 gen_sorted(size_t i) { return 1000000 + i * 1000; }
static u64 gen_reverse(size_t i) { return 1000000000 - i * 7; }
static u64 gen_dup(size_t i) { (void)i; return rng() % 4; }
static u64 gen_same(size_t i) { (void)i; return 5; }
static u64 gen_random(size_t i) { (void)i; return rng(); }
static u64 gen_extreme(size_t i)
{
	static const u64 k[] = { 0, U64_MAX, 1, U64_MAX - 1, 1ULL << 63 };

	return k[i % 5];
}

/* Batches of sorted times, later batches partly overlapping earlier ones. */
static u64 gen_batches(size_t i)
{
	return (i / 1000) * 900000 + (i % 1000) * 1000;
}

/* A batch of keys drains in (key, insertion) order. */
FIXTURE(order) {
	struct tw_timeq q;
};

FIXTURE_VARIANT(order) {
	size_t n;
	u64 (*gen)(size_t i);
};

/* sorted batch */
FIXTURE_VARIANT_ADD(order, sorted) { .n = 1000, .gen = gen_sorted };
/* reverse order */
FIXTURE_VARIANT_ADD(order, reverse) { .n = 1000, .gen = gen_reverse };
/* all-equal keys pop in insertion order (FIFO) */
FIXTURE_VARIANT_ADD(order, all_equal) { .n = 1000, .gen = gen_same };
/* few distinct keys: sorted by key, FIFO within a key */
FIXTURE_VARIANT_ADD(order, few_distinct) { .n = 5000, .gen = gen_dup };
/* keys 0 and U64_MAX */
FIXTURE_VARIANT_ADD(order, extreme) { .n = 100, .gen = gen_extreme };
/* 1e5 random keys */
FIXTURE_VARIANT_ADD(order, random) { .n = 100000, .gen = gen_random };
/* 1e5 keys in overlapping sorted batches */
FIXTURE_VARIANT_ADD(order, batches) { .n = 100000, .gen = gen_batches };

FIXTURE_SETUP(order)
{
	tw_timeq_init(&self->q);
}

FIXTURE_TEARDOWN(order)
{
	EXPECT_EQ(0, tw_host_warnings);
}

TEST_F(order, drains_in_order)
{
	ASSERT_TRUE(check_order(&self->q, variant->n, variant->gen));
}

/*
 * Build a queue of n nodes, pop a few so it has depth, then remove each
 * node in turn (from a fresh copy of the same queue) and check the rest.
 */
TEST_F(timeq, remove_each)
{
	const size_t n = 64, npop = 5;
	size_t victim, i, j, cnt_root = 0, cnt_inner = 0, cnt_leaf = 0;
	size_t cnt_red = 0, cnt_black = 0, cnt_run = 0;
	struct tw_timeq_node **want = malloc(n * sizeof(*want));
	struct item *it = items_new(n);
	u64 keys[64];
	bool ok = true;

	for (i = 0; i < n; i++)
		keys[i] = rng() % 50;
	for (victim = npop; victim < n && ok; victim++) {
		struct tw_timeq q;	/* rebuilt for every victim */
		struct tw_timeq_node *v = NULL;
		size_t w = 0;

		tw_timeq_init(&q);
		for (i = 0; i < n; i++)
			insert(&q, &it[i], keys[i]);
		for (i = 0; i < npop; i++)
			tw_timeq_pop(&q);
		/* Pick the victim-th node still queued (by position in it[]). */
		for (i = 0, j = 0; i < n; i++) {
			if (!tw_timeq_node_queued(&q, &it[i].node))
				continue;
			if (j++ == victim - npop) {
				v = &it[i].node;
				break;
			}
		}
		if (!v) {
			ok = false;
			break;
		}
		if (v->where == TW_TIMEQ_RUN)
			cnt_run++;
		else if (v == q.root)
			cnt_root++;
		else if (v->child[0] && v->child[1])
			cnt_inner++;
		else if (!v->child[0] && !v->child[1])
			cnt_leaf++;
		if (v->where == TW_TIMEQ_RUN)
			;
		else if (v->red)
			cnt_red++;
		else if (v != q.root)
			cnt_black++;

		for (i = 0; i < n; i++)
			if (&it[i].node != v &&
			    tw_timeq_node_queued(&q, &it[i].node))
				want[w++] = &it[i].node;
		qsort(want, w, sizeof(*want), cmp_node);

		tw_timeq_remove(&q, v);
		ok &= !tw_timeq_node_queued(&q, v);
		ok &= tw_timeq_len(&q) == w && timeq_valid(&q);
		ok &= drain_matches(&q, want, w);
	}
	free(want);
	free(it);
	/* the removal left a valid queue with the rest */
	ASSERT_TRUE(ok) TH_LOG("victim %zu", victim);
	/* and the victims covered every place a node can have */
	ASSERT_TRUE(cnt_root > 0 && cnt_inner > 0 && cnt_leaf > 0 &&
		    cnt_red > 0 && cnt_black > 0 && cnt_run > 0)
		TH_LOG("tree root %zu, two children %zu, leaf %zu, red %zu, black %zu, run %zu",
		       cnt_root, cnt_inner, cnt_leaf, cnt_red, cnt_black, cnt_run);
}

/*
 * Random insert / pop / remove against the sorted-array reference.
 * key_range small gives many equal keys.
 */
static bool random_ops(struct tw_timeq *q, size_t nitems, size_t ops,
		       u64 key_range, bool monotonic)
{
	struct item *it = items_new(nitems);
	size_t *freelist = malloc(nitems * sizeof(*freelist));
	size_t nfree = nitems, i, op;
	struct ref ref = { 0 };
	u64 now = 0;
	bool ok = true;

	for (i = 0; i < nitems; i++)
		freelist[i] = nitems - 1 - i;
	for (op = 0; op < ops && ok; op++) {
		unsigned int r = rng() % 100;
		struct tw_timeq_node *n;

		if (r < 50 && nfree) {
			struct item *x = &it[freelist[--nfree]];
			u64 key = rng() % key_range;

			if (monotonic)
				key += now;
			insert(q, x, key);
			ref_insert(&ref, &x->node);
		} else if (r < 80) {
			n = tw_timeq_pop(q);
			if (!ref.len) {
				ok = !n;
				continue;
			}
			ok = n == ref.v[0];
			if (!ok)
				break;
			now = n->key;
			memmove(ref.v, ref.v + 1, --ref.len * sizeof(*ref.v));
			freelist[nfree++] = container_of(n, struct item,
							 node)->id;
		} else if (ref.len) {
			n = ref.v[rng() % ref.len];
			tw_timeq_remove(q, n);
			ok = ref_remove(&ref, n) &&
			     !tw_timeq_node_queued(q, n);
			freelist[nfree++] = container_of(n, struct item,
							 node)->id;
		}
		ok &= tw_timeq_len(q) == ref.len;
		ok &= tw_timeq_peek(q) == (ref.len ? ref.v[0] : NULL);
		if (op % 997 == 0)
			ok &= timeq_valid(q);
	}
	ok &= timeq_valid(q) && drain_matches(q, ref.v, ref.len);
	free(ref.v);
	free(freelist);
	free(it);
	return ok;
}

/* Random insert / pop / remove against the sorted-array reference. */
FIXTURE(random_ops) {
	struct tw_timeq q;
};

FIXTURE_VARIANT(random_ops) {
	size_t nitems;
	u64 key_range;
	bool monotonic;
};

/* small queue, many equal keys */
FIXTURE_VARIANT_ADD(random_ops, small_equal_keys) {
	.nitems = 64, .key_range = 16,
};

/* up to 2000 pending */
FIXTURE_VARIANT_ADD(random_ops, wide_keys) {
	.nitems = 2000, .key_range = 1ULL << 40,
};

/* times move forward like a schedule */
FIXTURE_VARIANT_ADD(random_ops, schedule) {
	.nitems = 5000, .key_range = 100000, .monotonic = true,
};

FIXTURE_SETUP(random_ops)
{
	tw_timeq_init(&self->q);
}

FIXTURE_TEARDOWN(random_ops)
{
	EXPECT_EQ(0, tw_host_warnings);
}

TEST_F(random_ops, match_reference)
{
	ASSERT_TRUE(random_ops(&self->q, variant->nitems, 200000,
			       variant->key_range, variant->monotonic));
}

/* A seq counter keeps FIFO across interleaved pops and inserts. */
TEST_F(timeq, fifo_interleaved)
{
	struct item *it = items_new(300);
	struct tw_timeq *q = &self->q;
	int i, last = -1;
	bool ok = true;

	for (i = 0; i < 100; i++)
		insert(q, &it[i], 7);
	for (i = 0; i < 50; i++) {
		struct item *x = container_of(tw_timeq_pop(q), struct item,
					      node);
		ok &= x->id == i;
	}
	for (i = 100; i < 300; i++)
		insert(q, &it[i], 7);
	while (!tw_timeq_empty(q)) {
		struct item *x = container_of(tw_timeq_pop(q), struct item,
					      node);
		ok &= x->id > last || last < 50;
		ok &= x->id >= 50;
		last = x->id;
	}
	free(it);
	ASSERT_TRUE(ok);
	ASSERT_EQ(299, last);
}

/* TW_SEED=N reruns the randomised tests with other inputs. */
int main(int argc, char **argv)
{
	const char *seed = getenv("TW_SEED");

	if (seed)
		rng_state = strtoull(seed, NULL, 0) | 1;
	ksft_print_msg("seed 0x%llx\n", (unsigned long long)rng_state);
	return test_harness_run(argc, argv);
}
