// SPDX-License-Identifier: GPL-2.0
/*
 * test_pick.c - host unit tests of the worker pick (core/pick.c): what each
 * policy picks and counts, the memo's validation, the least recently used
 * fallback, bad input, and long random sequences checked step by step
 * against a plain model (an array of the idle workers, most recently used
 * first).
 */
#include "pick.h"
#include "kselftest_harness.h"

#define WORKERS		8
#define CPUS		4
#define NONE		U32_MAX
#define MODEL_MAX	512

static struct tw_pick_stats stats(const struct tw_pick *p)
{
	struct tw_pick_stats st;

	tw_pick_get_stats(p, &st);
	return st;
}

/* Take every worker: returns how many there were. */
static u32 take_all(struct tw_pick *p, enum tw_pick_policy policy, u32 cpu)
{
	u32 n = 0;

	while (tw_pick_get(p, policy, cpu) >= 0)
		n++;
	return n;
}

/*
 * The harness runs each test in a process of its own: a warning counted at
 * teardown is the test's own, and only the ones it announced may fire.
 */
FIXTURE(pick) {
	struct tw_pick *p;
	enum tw_pick_policy policy;
	unsigned long expected_warns;
};

FIXTURE_VARIANT(pick) {
	enum tw_pick_policy policy;
};

FIXTURE_VARIANT_ADD(pick, memo) {
	.policy = TW_PICK_MEMO,
};

FIXTURE_VARIANT_ADD(pick, scan) {
	.policy = TW_PICK_SCAN,
};

FIXTURE_SETUP(pick)
{
	self->policy = variant->policy;
	self->expected_warns = 0;
	ASSERT_EQ(0, tw_pick_create(&self->p, WORKERS, CPUS));
}

FIXTURE_TEARDOWN(pick)
{
	tw_pick_destroy(self->p);
	EXPECT_EQ(self->expected_warns, tw_host_warnings);
}

static int get(FIXTURE_DATA(pick) *self, u32 cpu)
{
	return tw_pick_get(self->p, self->policy, cpu);
}

/* A fresh pool: all idle, taken in index order, then none. */
TEST_F(pick, fresh)
{
	u32 w;

	ASSERT_EQ(WORKERS, tw_pick_idle(self->p));
	for (w = 0; w < WORKERS; w++)
		ASSERT_TRUE(tw_pick_is_idle(self->p, w));
	for (w = 0; w < WORKERS; w++) {
		ASSERT_EQ(w, get(self, w % CPUS));
		ASSERT_FALSE(tw_pick_is_idle(self->p, w));
	}
	ASSERT_EQ(0, tw_pick_idle(self->p));
	ASSERT_EQ(-1, get(self, 0));
	ASSERT_EQ(WORKERS, stats(self->p).picks);
	ASSERT_EQ(1, stats(self->p).none_idle);
	ASSERT_EQ(0, stats(self->p).memo_hits);
	/* none has run yet: the scan reads the whole list every time */
	if (self->policy == TW_PICK_SCAN) {
		ASSERT_EQ(WORKERS * (WORKERS + 1) / 2,
			  stats(self->p).scan_steps);
	} else {
		ASSERT_EQ(0, stats(self->p).scan_steps);
	}
}

/* No idle worker last ran on the CPU: the least recently put one. */
TEST_F(pick, lru_fallback)
{
	ASSERT_EQ(WORKERS, take_all(self->p, self->policy, 0));
	tw_pick_put(self->p, 5, 0);
	tw_pick_put(self->p, 2, 1);
	tw_pick_put(self->p, 7, 2);
	ASSERT_EQ(3, tw_pick_idle(self->p));
	ASSERT_EQ(5, get(self, 3));
	ASSERT_EQ(2, get(self, 3));
	tw_pick_put(self->p, 5, 0);
	ASSERT_EQ(7, get(self, 3));
	ASSERT_EQ(5, get(self, 3));
	ASSERT_EQ(-1, get(self, 3));
	ASSERT_EQ(0, stats(self->p).memo_hits);
}

/* The worker that last ran on the CPU, however deep in the list. */
TEST_F(pick, same_cpu_first)
{
	u32 w, before;

	ASSERT_EQ(WORKERS, take_all(self->p, self->policy, 0));
	tw_pick_put(self->p, 3, 1);
	/* then the others, on other CPUs: 3 is the least recently used */
	for (w = 0; w < WORKERS; w++)
		if (w != 3)
			tw_pick_put(self->p, w, 2 + w % 2);
	before = stats(self->p).scan_steps;
	ASSERT_EQ(3, get(self, 1));
	if (self->policy == TW_PICK_MEMO) {
		ASSERT_EQ(1, stats(self->p).memo_hits);
	} else {
		ASSERT_EQ(WORKERS, stats(self->p).scan_steps - before);
	}
}

TEST_F(pick, ran_counters)
{
	int a = get(self, 2), b = get(self, 3);

	ASSERT_EQ(0, a);
	ASSERT_EQ(1, b);
	tw_pick_ran(self->p, a, 2);
	tw_pick_ran(self->p, b, 0);
	ASSERT_EQ(1, stats(self->p).ran_on_cpu);
	ASSERT_EQ(1, stats(self->p).ran_elsewhere);
	/* counted against the CPU of the latest pick */
	tw_pick_put(self->p, a, 2);
	ASSERT_EQ(a, get(self, 2));
	tw_pick_ran(self->p, a, 1);
	tw_pick_put(self->p, a, 1);
	ASSERT_EQ(a, get(self, 1));
	tw_pick_ran(self->p, a, 1);
	ASSERT_EQ(2, stats(self->p).ran_on_cpu);
	ASSERT_EQ(2, stats(self->p).ran_elsewhere);
	ASSERT_EQ(4, stats(self->p).picks);
}

/* Bad indices and CPUs warn and change nothing, or as little as can be. */
TEST_F(pick, bad_input)
{
	struct tw_pick_stats st;
	int w;

	ASSERT_EQ(-1, get(self, CPUS));
	ASSERT_EQ(-1, tw_pick_get(self->p, TW_PICK_POLICY_COUNT, 0));
	ASSERT_EQ(-1, tw_pick_get(self->p, (enum tw_pick_policy)-1, 0));
	self->expected_warns += 3;
	st = stats(self->p);
	ASSERT_EQ(0, st.picks);
	ASSERT_EQ(0, st.none_idle);
	ASSERT_EQ(WORKERS, tw_pick_idle(self->p));

	tw_pick_put(self->p, 2, 0);		/* idle already */
	tw_pick_put(self->p, WORKERS, 0);
	tw_pick_ran(self->p, 2, 0);		/* not picked */
	tw_pick_ran(self->p, WORKERS, 0);
	self->expected_warns += 4;
	ASSERT_EQ(WORKERS, tw_pick_idle(self->p));
	ASSERT_FALSE(tw_pick_is_idle(self->p, WORKERS));
	ASSERT_FALSE(tw_pick_is_idle(self->p, U32_MAX));

	w = get(self, 0);
	ASSERT_EQ(0, w);
	tw_pick_ran(self->p, w, CPUS);
	self->expected_warns++;
	ASSERT_EQ(0, stats(self->p).ran_on_cpu + stats(self->p).ran_elsewhere);
	/* a bad CPU still returns the worker, with no CPU of its own */
	tw_pick_put(self->p, w, CPUS);
	self->expected_warns++;
	ASSERT_TRUE(tw_pick_is_idle(self->p, w));
	ASSERT_EQ(WORKERS, tw_pick_idle(self->p));
	ASSERT_EQ(self->expected_warns, tw_host_warnings);
}

/* The memo is taken only while its worker is idle. */
TEST(memo_busy)
{
	struct tw_pick *p;

	ASSERT_EQ(0, tw_pick_create(&p, WORKERS, CPUS));
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_MEMO, 1));
	tw_pick_put(p, 0, 1);
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_MEMO, 1));
	ASSERT_EQ(1, stats(p).memo_hits);
	/* last_run[1] is still 0, which is busy */
	ASSERT_EQ(1, tw_pick_get(p, TW_PICK_MEMO, 1));
	ASSERT_EQ(1, stats(p).memo_hits);
	tw_pick_destroy(p);
}

/* ... and while its worker has not run on another CPU since. */
TEST(memo_moved)
{
	struct tw_pick *p;

	ASSERT_EQ(0, tw_pick_create(&p, WORKERS, CPUS));
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_MEMO, 1));
	tw_pick_put(p, 0, 1);
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_MEMO, 1));
	tw_pick_ran(p, 0, 2);
	tw_pick_put(p, 0, 2);
	/* last_run[1] is 0, idle, but last on CPU 2 */
	ASSERT_EQ(1, tw_pick_get(p, TW_PICK_MEMO, 1));
	ASSERT_EQ(1, stats(p).memo_hits);
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_MEMO, 2));
	ASSERT_EQ(2, stats(p).memo_hits);
	tw_pick_destroy(p);
}

/*
 * Where the two differ: the memo holds one worker per CPU, the scan finds
 * any that last ran there.
 */
TEST(memo_one_per_cpu)
{
	enum tw_pick_policy policy;
	struct tw_pick *p;

	for (policy = 0; policy < TW_PICK_POLICY_COUNT; policy++) {
		ASSERT_EQ(0, tw_pick_create(&p, WORKERS, CPUS));
		ASSERT_EQ(0, tw_pick_get(p, policy, 1));
		ASSERT_EQ(1, tw_pick_get(p, policy, 1));
		tw_pick_put(p, 0, 1);
		tw_pick_put(p, 1, 1);
		ASSERT_EQ(1, tw_pick_get(p, policy, 1));
		ASSERT_EQ(policy == TW_PICK_SCAN ? 0 : 2,
			  tw_pick_get(p, policy, 1));
		tw_pick_destroy(p);
	}
}

TEST(create_bounds)
{
	struct tw_pick *p = NULL;

	ASSERT_EQ(-EINVAL, tw_pick_create(&p, 0, 1));
	ASSERT_EQ(-EINVAL, tw_pick_create(&p, TW_PICK_MAX_WORKERS + 1, 1));
	ASSERT_EQ(-EINVAL, tw_pick_create(&p, 1, 0));
	ASSERT_EQ(-EINVAL, tw_pick_create(&p, 1, TW_PICK_MAX_CPUS + 1));
	ASSERT_TRUE(p == NULL);
	tw_pick_destroy(NULL);

	ASSERT_EQ(0, tw_pick_create(&p, 1, 1));
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_SCAN, 0));
	ASSERT_EQ(-1, tw_pick_get(p, TW_PICK_MEMO, 0));
	tw_pick_put(p, 0, 0);
	ASSERT_EQ(0, tw_pick_get(p, TW_PICK_MEMO, 0));
	tw_pick_destroy(p);

	ASSERT_EQ(0, tw_pick_create(&p, TW_PICK_MAX_WORKERS,
				    TW_PICK_MAX_CPUS));
	ASSERT_EQ(TW_PICK_MAX_WORKERS, take_all(p, TW_PICK_MEMO,
						TW_PICK_MAX_CPUS - 1));
	tw_pick_put(p, TW_PICK_MAX_WORKERS - 1, TW_PICK_MAX_CPUS - 1);
	ASSERT_EQ(TW_PICK_MAX_WORKERS - 1,
		  tw_pick_get(p, TW_PICK_MEMO, TW_PICK_MAX_CPUS - 1));
	ASSERT_EQ(1, stats(p).memo_hits);
	tw_pick_destroy(p);
	ASSERT_EQ(0, tw_host_warnings);
}

TEST(policy_names)
{
	ASSERT_STREQ("memo", tw_pick_policy_name(TW_PICK_MEMO));
	ASSERT_STREQ("scan", tw_pick_policy_name(TW_PICK_SCAN));
	ASSERT_STREQ("?", tw_pick_policy_name(TW_PICK_POLICY_COUNT));
}

/* The model: the idle workers in an array, most recently used first. */
struct model {
	u32 workers, cpus, nidle;
	u32 idle[MODEL_MAX];
	u32 last_cpu[MODEL_MAX], picked[MODEL_MAX];
	bool busy[MODEL_MAX];
	u32 last_run[MODEL_MAX];
	struct tw_pick_stats st;
};

static void model_init(struct model *m, u32 workers, u32 cpus)
{
	u32 i;

	memset(m, 0, sizeof(*m));
	m->workers = workers;
	m->cpus = cpus;
	m->nidle = workers;
	for (i = 0; i < workers; i++) {
		m->idle[i] = workers - 1 - i;
		m->last_cpu[i] = NONE;
	}
	for (i = 0; i < cpus; i++)
		m->last_run[i] = NONE;
}

static u32 model_find(const struct model *m, u32 w)
{
	u32 i;

	for (i = 0; i < m->nidle && m->idle[i] != w; i++)
		;
	return i;
}

/* Where in the idle array the policy's pick is; nidle when none. */
static u32 model_choice(struct model *m, enum tw_pick_policy policy, u32 cpu)
{
	u32 i, w = m->last_run[cpu];

	if (policy == TW_PICK_MEMO) {
		if (w != NONE && !m->busy[w] && m->last_cpu[w] == cpu) {
			m->st.memo_hits++;
			return model_find(m, w);
		}
	} else {
		for (i = 0; i < m->nidle; i++) {
			m->st.scan_steps++;
			if (m->last_cpu[m->idle[i]] == cpu)
				return i;
		}
	}
	return m->nidle ? m->nidle - 1 : m->nidle;
}

static int model_get(struct model *m, enum tw_pick_policy policy, u32 cpu)
{
	u32 i = model_choice(m, policy, cpu), w;

	if (i == m->nidle) {
		m->st.none_idle++;
		return -1;
	}
	w = m->idle[i];
	memmove(&m->idle[i], &m->idle[i + 1],
		(m->nidle - i - 1) * sizeof(m->idle[0]));
	m->nidle--;
	m->busy[w] = true;
	m->picked[w] = cpu;
	m->st.picks++;
	return w;
}

static void model_put(struct model *m, u32 w, u32 cpu)
{
	memmove(&m->idle[1], &m->idle[0], m->nidle * sizeof(m->idle[0]));
	m->idle[0] = w;
	m->nidle++;
	m->busy[w] = false;
	m->last_cpu[w] = cpu;
	m->last_run[cpu] = w;
}

static void model_ran(struct model *m, u32 w, u32 cpu)
{
	if (cpu == m->picked[w])
		m->st.ran_on_cpu++;
	else
		m->st.ran_elsewhere++;
	m->last_cpu[w] = cpu;
}

static u32 rng(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(*state >> 33);
}

/* A busy worker drawn at random; NONE when all are idle. */
static u32 model_busy_one(const struct model *m, u64 *seed)
{
	u32 w;

	if (m->nidle == m->workers)
		return NONE;
	w = rng(seed) % m->workers;
	while (!m->busy[w])
		w = (w + 1) % m->workers;
	return w;
}

/* Mostly the CPU it was picked for, as the forwarder's workers mostly do. */
static u32 model_cpu_of(const struct model *m, u32 w, u64 *seed)
{
	return rng(seed) % 4 ? m->picked[w] : rng(seed) % m->cpus;
}

/*
 * One random step on both the pool and the model: they must agree.  While
 * @drain, gets outnumber puts five to one, else the other way round, so
 * that the pool goes from full to empty and back.
 */
static void random_step(struct __test_metadata *_metadata, struct model *m,
			struct tw_pick *p, enum tw_pick_policy policy,
			bool drain, u64 *seed)
{
	u32 op = rng(seed) % 8, w, cpu;

	if (drain ? op < 5 : op < 1) {
		cpu = rng(seed) % m->cpus;
		ASSERT_EQ(model_get(m, policy, cpu), tw_pick_get(p, policy, cpu));
		return;
	}
	w = model_busy_one(m, seed);
	if (w == NONE)
		return;
	cpu = model_cpu_of(m, w, seed);
	if (op >= 6) {
		model_ran(m, w, cpu);
		tw_pick_ran(p, w, cpu);
	} else {
		model_put(m, w, cpu);
		tw_pick_put(p, w, cpu);
		ASSERT_TRUE(tw_pick_is_idle(p, w));
	}
}

static void random_run(struct __test_metadata *_metadata, u32 workers,
		       u32 cpus, u32 steps, u64 seed)
{
	struct tw_pick_stats st;
	enum tw_pick_policy policy;
	static struct model m;
	struct tw_pick *p;
	u32 i, w;

	for (policy = 0; policy < TW_PICK_POLICY_COUNT; policy++) {
		model_init(&m, workers, cpus);
		ASSERT_EQ(0, tw_pick_create(&p, workers, cpus));
		for (i = 0; i < steps; i++) {
			random_step(_metadata, &m, p, policy,
				    i / (4 * workers) % 2 == 0, &seed);
			tw_pick_get_stats(p, &st);
			ASSERT_EQ(0, memcmp(&m.st, &st, sizeof(st)));
			ASSERT_EQ(m.nidle, tw_pick_idle(p));
		}
		for (w = 0; w < workers; w++)
			ASSERT_EQ(!m.busy[w], tw_pick_is_idle(p, w));
		/* the sequence reached the cases it is meant to check */
		ASSERT_GT(st.none_idle, 0);
		ASSERT_GT(st.ran_elsewhere, 0);
		if (policy == TW_PICK_MEMO)
			ASSERT_GT(st.memo_hits, 0);
		tw_pick_destroy(p);
		TH_LOG("%s: %u workers, %u CPUs: %llu picks, %llu memo hits, %llu scan steps",
		       tw_pick_policy_name(policy), workers, cpus,
		       (unsigned long long)st.picks,
		       (unsigned long long)st.memo_hits,
		       (unsigned long long)st.scan_steps);
	}
	ASSERT_EQ(0, tw_host_warnings);
}

TEST(random_small)
{
	random_run(_metadata, 5, 3, 20000, 0x5eed);
}

TEST(random_pool)
{
	random_run(_metadata, 37, 6, 50000, 0xda71a2);
}

TEST(random_large)
{
	random_run(_metadata, MODEL_MAX, 64, 50000, 0xca1ada2);
}

TEST_HARNESS_MAIN
