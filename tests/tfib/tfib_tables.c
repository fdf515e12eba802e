// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_tables.c - tables and entries through the tfib family, in every
 * sync mode: what a request creates is exactly what a get, a dump and the
 * counters report; full tables and the module caps refuse with ENOSPC.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>

#include "tfib_util.h"
#include "kselftest_harness.h"

#define T	"t0"

/*
 * The harness gives a case 30 s. Thousands of round trips, or a device
 * moved between namespaces, need more on a debug kernel (lockdep, KASAN,
 * kmemleak) in an emulated guest; this bounds them, it times nothing.
 */
#define SLOW_CASE_S	300

/* Retry an insert that a lockless table refuses until a grace period. */
static int set_retry(struct twt *c, const char *table,
		     const struct tfc_entry *e, struct twt_ack *a)
{
	int i, err = 0;

	for (i = 0; i < 200; i++) {
		err = tfc_entry_set(c, table, e, a);
		if (err != -ENOSPC && err != -EBUSY)
			break;
		usleep(10000);
	}
	return err;
}

FIXTURE(mode) {
	struct twt c;
};

FIXTURE_VARIANT(mode) {
	int sync;
};

FIXTURE_VARIANT_ADD(mode, rwlock) { .sync = TFIB_SYNC_RWLOCK };
FIXTURE_VARIANT_ADD(mode, rcu) { .sync = TFIB_SYNC_RCU };
FIXTURE_VARIANT_ADD(mode, bucket) { .sync = TFIB_SYNC_BUCKET };
FIXTURE_VARIANT_ADD(mode, seqcount) { .sync = TFIB_SYNC_SEQCOUNT };

FIXTURE_SETUP(mode)
{
	tfu_open(&self->c);
	tfc_table_del(&self->c, T, NULL);
}

FIXTURE_TEARDOWN(mode)
{
	tfc_table_del(&self->c, T, NULL);
	twt_close(&self->c);
}

/* Every setting given: get and dump report each exactly. */
TEST_F(mode, table_create_get_dump_delete)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(T, 1000);
	struct tfc_table t, *all = NULL;
	struct twt_ack a;
	size_t n, i, found = 0;

	cfg.buckets = 64;
	cfg.sync = variant->sync;
	cfg.clockid = CLOCK_TAI;
	cfg.prefetch = variant->sync != TFIB_SYNC_RWLOCK;
	if (variant->sync == TFIB_SYNC_RCU)
		cfg.spares = 10;
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a)) tfu_show("new", &a);
	ASSERT_EQ(0, tfc_table_get(&self->c, T, &t, &a)) tfu_show("get", &a);
	EXPECT_STREQ(T, t.name);
	EXPECT_EQ(1000, t.capacity);
	EXPECT_EQ(64, t.buckets);
	EXPECT_EQ(variant->sync, t.sync);
	EXPECT_EQ(CLOCK_TAI, t.clockid);
	EXPECT_EQ(cfg.prefetch, t.has[TFIB_A_PREFETCH]);
	EXPECT_EQ(variant->sync == TFIB_SYNC_RCU, t.has[TFIB_A_SPARES]);
	if (variant->sync == TFIB_SYNC_RCU)
		EXPECT_EQ(10, t.spares);
	EXPECT_TRUE(t.has[TFIB_A_ENTRIES]);
	EXPECT_EQ(0, t.entries);
	/* unbound: nothing of a binding */
	EXPECT_FALSE(t.has[TFIB_A_IFINDEX]);
	EXPECT_FALSE(t.has[TFIB_A_FWD_MODE]);

	ASSERT_EQ(0, tfc_table_dump(&self->c, &all, &n, &a));
	for (i = 0; i < n; i++) {
		if (strcmp(all[i].name, T))
			continue;
		found++;
		EXPECT_EQ(0, memcmp(&all[i], &t, sizeof(t)));
	}
	free(all);
	EXPECT_EQ(1, found);

	ASSERT_EQ(0, tfc_table_del(&self->c, T, &a));
	EXPECT_EQ(-ENOENT, tfc_table_get(&self->c, T, &t, &a));
	EXPECT_TRUE(a.has_msg && a.has_offs);
	EXPECT_EQ(-ENOENT, tfc_table_del(&self->c, T, &a));
}

/* Only the capacity: the UAPI header's defaults. */
TEST_F(mode, table_defaults)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(T, 100);
	struct tfc_table t;
	struct twt_ack a;

	cfg.sync = variant->sync;
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a)) tfu_show("new", &a);
	ASSERT_EQ(0, tfc_table_get(&self->c, T, &t, &a));
	EXPECT_EQ(100, t.capacity);
	EXPECT_EQ(128, t.buckets);
	EXPECT_EQ(CLOCK_MONOTONIC, t.clockid);
	EXPECT_FALSE(t.has[TFIB_A_PREFETCH]);
	if (variant->sync == TFIB_SYNC_RCU)
		EXPECT_EQ(100, t.spares);
	/* a second table of the name */
	EXPECT_EQ(-EEXIST, tfc_table_new(&self->c, &cfg, &a));
	EXPECT_TRUE(a.has_msg && a.has_offs);
}

static void expect_entry(struct __test_metadata *_metadata,
			 const struct tfc_entry *got,
			 const struct tfc_entry *want)
{
	EXPECT_STREQ(T, got->table);
	EXPECT_EQ(want->user_id, got->user_id);
	EXPECT_EQ(0, memcmp(want->mac, got->mac, 6));
	EXPECT_EQ(want->ts_ns, got->ts_ns);
	EXPECT_EQ(want->seq, got->seq);
}

static void expect_counters(struct __test_metadata *_metadata, struct twt *c,
			    uint64_t inserts, uint64_t updates,
			    uint64_t deletes)
{
	struct tfc_stats *st = calloc(1, sizeof(*st));
	struct twt_ack a;

	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, tfc_stats_get(c, T, st, &a)) tfu_show("stats", &a);
	EXPECT_STREQ(T, st->table);
	EXPECT_EQ(inserts, st->v[TFIB_STATS_A_INSERTS]);
	EXPECT_EQ(updates, st->v[TFIB_STATS_A_UPDATES]);
	EXPECT_EQ(deletes, st->v[TFIB_STATS_A_DELETES]);
	EXPECT_TRUE(st->has[TFIB_STATS_A_LOOKUPS]);
	EXPECT_TRUE(st->has[TFIB_STATS_A_BACKLOG_PEAK]);
	EXPECT_EQ(0, st->bad);
	free(st);
}

static void expect_stale(struct __test_metadata *_metadata, struct twt *c,
			 uint64_t stale)
{
	struct tfc_stats *st = calloc(1, sizeof(*st));
	struct twt_ack a;

	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, tfc_stats_get(c, T, st, &a)) tfu_show("stats", &a);
	EXPECT_TRUE(st->has[TFIB_STATS_A_STALE]);
	EXPECT_EQ(stale, st->v[TFIB_STATS_A_STALE]);
	free(st);
}

TEST_F(mode, entry_set_get_update_delete)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(T, 16);
	struct tfc_entry e = tfu_entry(42, 1), got;
	struct tfc_table t;
	struct twt_ack a;
	uint64_t before;

	cfg.sync = variant->sync;
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	EXPECT_EQ(-ENOENT, tfc_entry_get(&self->c, T, 42, &got, &a));
	EXPECT_TRUE(a.has_msg && a.has_offs);

	ASSERT_EQ(0, tfc_entry_set(&self->c, T, &e, &a)) tfu_show("set", &a);
	ASSERT_EQ(0, tfc_entry_get(&self->c, T, 42, &got, &a));
	expect_entry(_metadata, &got, &e);

	/* update: every field of the tuple changes, the count does not */
	e = tfu_entry(42, 2);
	ASSERT_EQ(0, set_retry(&self->c, T, &e, &a)) tfu_show("update", &a);
	ASSERT_EQ(0, tfc_entry_get(&self->c, T, 42, &got, &a));
	expect_entry(_metadata, &got, &e);
	ASSERT_EQ(0, tfc_table_get(&self->c, T, &t, &a));
	EXPECT_EQ(1, t.entries);

	/* a sequence not after the stored one: refused, the entry kept */
	e = tfu_entry(42, 1);
	EXPECT_EQ(-ESTALE, tfc_entry_set(&self->c, T, &e, &a));
	EXPECT_TRUE(a.has_msg && a.has_offs) tfu_show("stale", &a);
	e = tfu_entry(42, 2);
	EXPECT_EQ(-ESTALE, tfc_entry_set(&self->c, T, &e, &a));
	ASSERT_EQ(0, tfc_entry_get(&self->c, T, 42, &got, &a));
	expect_entry(_metadata, &got, &e);

	/*
	 * no timestamp: now on the table's clock; no sequence: 0, back in
	 * time, which only force writes
	 */
	e.has_ts = e.has_seq = false;
	e.force = true;
	before = tfu_now(CLOCK_MONOTONIC);
	ASSERT_EQ(0, set_retry(&self->c, T, &e, &a));
	ASSERT_EQ(0, tfc_entry_get(&self->c, T, 42, &got, &a));
	EXPECT_LE(before, got.ts_ns);
	EXPECT_GE(tfu_now(CLOCK_MONOTONIC), got.ts_ns);
	EXPECT_EQ(0, got.seq);

	ASSERT_EQ(0, tfc_entry_del(&self->c, T, 42, &a));
	EXPECT_EQ(-ENOENT, tfc_entry_get(&self->c, T, 42, &got, &a));
	EXPECT_EQ(-ENOENT, tfc_entry_del(&self->c, T, 42, &a));
	EXPECT_TRUE(a.has_msg && a.has_offs);
	ASSERT_EQ(0, tfc_table_get(&self->c, T, &t, &a));
	EXPECT_EQ(0, t.entries);
	expect_counters(_metadata, &self->c, 1, 2, 1);
	expect_stale(_metadata, &self->c, 2);
}

/* A dump of many messages, resumed by the kernel: each entry once, exact. */
TEST_F_TIMEOUT(mode, entry_dump_resumed, SLOW_CASE_S)
{
	const uint32_t n = 3000;
	struct tfc_table_cfg cfg = tfc_table_defaults(T, n);
	struct tfc_entry *all = NULL, e;
	uint8_t *seen = calloc(n, 1);
	struct twt_ack a;
	size_t got, i;
	uint32_t id;

	ASSERT_NE(NULL, seen);
	cfg.sync = variant->sync;
	cfg.buckets = 256;	/* chains of about 12: resumes inside them */
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	for (id = 0; id < n; id++) {
		e = tfu_entry(id * 2654435761U, id);
		ASSERT_EQ(0, tfc_entry_set(&self->c, T, &e, &a))
			tfu_show("set", &a);
	}
	ASSERT_EQ(0, tfc_entry_dump(&self->c, T, &all, &got, &a))
		tfu_show("dump", &a);
	EXPECT_LT(2, self->c.datagrams);
	ksft_print_msg("%zu entries in %u datagrams\n", got, self->c.datagrams);
	ASSERT_EQ(n, got);
	for (i = 0; i < got; i++) {
		/* user IDs were i * 2654435761, an odd multiplier: invert */
		id = all[i].user_id * 244002641U;
		ASSERT_LT(id, n);
		EXPECT_EQ(0, seen[id]);
		seen[id] = 1;
		e = tfu_entry(all[i].user_id, id);
		expect_entry(_metadata, &all[i], &e);
	}
	free(all);
	free(seen);
}

/* Full: a new user is refused, an existing one still updates. */
TEST_F(mode, full_table_enospc)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(T, 4);
	struct tfc_entry e;
	struct tfc_table t;
	struct twt_ack a;
	uint32_t id;

	cfg.sync = variant->sync;
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	for (id = 1; id <= 4; id++) {
		e = tfu_entry(id, id);
		ASSERT_EQ(0, tfc_entry_set(&self->c, T, &e, &a));
	}
	e = tfu_entry(5, 5);
	EXPECT_EQ(-ENOSPC, tfc_entry_set(&self->c, T, &e, &a));
	EXPECT_TRUE(a.has_msg) tfu_show("full", &a);
	e = tfu_entry(4, 9);
	EXPECT_EQ(0, set_retry(&self->c, T, &e, &a));
	ASSERT_EQ(0, tfc_table_get(&self->c, T, &t, &a));
	EXPECT_EQ(4, t.entries);
	/* a deleted entry's place is free again (after a grace period) */
	ASSERT_EQ(0, tfc_entry_del(&self->c, T, 1, &a));
	e = tfu_entry(5, 5);
	EXPECT_EQ(0, set_retry(&self->c, T, &e, &a)) tfu_show("reuse", &a);
}

FIXTURE(caps) {
	struct twt c;
	long max_tables, max_entries, max_bytes;
};

FIXTURE_SETUP(caps)
{
	tfu_open(&self->c);
	self->max_tables = tfu_param("max_tables");
	self->max_entries = tfu_param("max_entries");
	self->max_bytes = tfu_param("max_bytes");
	ASSERT_LT(0, self->max_tables);
	ASSERT_LT(0, self->max_entries);
	ASSERT_LT(0, self->max_bytes);
}

FIXTURE_TEARDOWN(caps)
{
	tfc_table_del(&self->c, "cap0", NULL);
	tfc_table_del(&self->c, "cap1", NULL);
	tfc_table_del(&self->c, "cap2", NULL);
	tfu_set_param("max_tables", self->max_tables);
	tfu_set_param("max_entries", self->max_entries);
	tfu_set_param("max_bytes", self->max_bytes);
	twt_close(&self->c);
}

TEST_F(caps, max_tables)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("cap0", 1);
	struct twt_ack a;

	ASSERT_EQ(0, tfu_set_param("max_tables", 2));
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	cfg.name = "cap1";
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	cfg.name = "cap2";
	EXPECT_EQ(-ENOSPC, tfc_table_new(&self->c, &cfg, &a));
	EXPECT_NE(NULL, strstr(a.msg, "max_tables")) tfu_show("cap", &a);
	/* a deleted table gives its place back */
	ASSERT_EQ(0, tfc_table_del(&self->c, "cap0", &a));
	EXPECT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
}

TEST_F(caps, max_entries)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("cap0", 600);
	struct twt_ack a;

	ASSERT_EQ(0, tfu_set_param("max_entries", 1000));
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	cfg.name = "cap1";
	cfg.capacity = 401;
	EXPECT_EQ(-ENOSPC, tfc_table_new(&self->c, &cfg, &a));
	EXPECT_NE(NULL, strstr(a.msg, "max_entries")) tfu_show("cap", &a);
	/* the capacity is to blame */
	EXPECT_TRUE(a.has_offs);
	cfg.capacity = 400;
	EXPECT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	ASSERT_EQ(0, tfc_table_del(&self->c, "cap0", &a));
	cfg.name = "cap2";
	cfg.capacity = 600;
	EXPECT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
}

/* Buckets and spare tuples are memory too: one entry cannot hide them. */
TEST_F(caps, max_bytes)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("cap0", 1);
	struct twt_ack a;

	ASSERT_EQ(0, tfu_set_param("max_bytes", 1 << 20));
	cfg.buckets = 1 << 20;
	EXPECT_EQ(-ENOSPC, tfc_table_new(&self->c, &cfg, &a));
	EXPECT_NE(NULL, strstr(a.msg, "max_bytes")) tfu_show("buckets", &a);
	EXPECT_TRUE(a.has_offs);
	cfg.buckets = 0;
	cfg.spares = 1 << 20;
	EXPECT_EQ(-ENOSPC, tfc_table_new(&self->c, &cfg, &a));
	EXPECT_NE(NULL, strstr(a.msg, "max_bytes")) tfu_show("spares", &a);
	cfg.spares = 0;
	EXPECT_EQ(0, tfc_table_new(&self->c, &cfg, &a)) tfu_show("small", &a);
}

/* Dumps list tables in name order, each once, and resume by name. */
TEST(table_dump_many)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(NULL, 1);
	struct tfc_table *all = NULL;
	char name[16];
	struct twt_ack a;
	struct twt c;
	size_t n, i;
	int k;

	tfu_open(&c);
	for (k = 0; k < 40; k++) {
		snprintf(name, sizeof(name), "many%02d", 39 - k);
		cfg.name = name;
		cfg.sync = k % 4;
		ASSERT_EQ(0, tfc_table_new(&c, &cfg, &a)) tfu_show("new", &a);
	}
	ASSERT_EQ(0, tfc_table_dump(&c, &all, &n, &a));
	ASSERT_EQ(40, n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "many%02u", (unsigned int)i % 100);
		EXPECT_STREQ(name, all[i].name);
		EXPECT_EQ((39 - i) % 4, all[i].sync);
	}
	free(all);
	for (k = 0; k < 40; k++) {
		snprintf(name, sizeof(name), "many%02d", k);
		EXPECT_EQ(0, tfc_table_del(&c, name, &a));
	}
	ASSERT_EQ(0, tfc_table_dump(&c, &all, &n, &a));
	EXPECT_EQ(0, n);
	free(all);
	twt_close(&c);
}

/* CLOCK_REALTIME tables stamp entries on that clock. */
TEST(clock_realtime)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(T, 4);
	struct tfc_entry e = tfu_entry(7, 7), got;
	struct twt_ack a;
	uint64_t before;
	struct twt c;

	tfu_open(&c);
	tfc_table_del(&c, T, NULL);
	cfg.clockid = CLOCK_REALTIME;
	ASSERT_EQ(0, tfc_table_new(&c, &cfg, &a));
	e.has_ts = false;
	before = tfu_now(CLOCK_REALTIME);
	ASSERT_EQ(0, tfc_entry_set(&c, T, &e, &a));
	ASSERT_EQ(0, tfc_entry_get(&c, T, 7, &got, &a));
	EXPECT_LE(before, got.ts_ns);
	EXPECT_GE(tfu_now(CLOCK_REALTIME), got.ts_ns);
	EXPECT_EQ(0, tfc_table_del(&c, T, &a));
	twt_close(&c);
}

/* The core's counters of an unbound table, alone, and in the dump. */
TEST(stats_of_unbound_table)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(T, 4);
	struct tfc_stats *st = calloc(1, sizeof(*st)), *all = NULL;
	struct tfc_entry e = tfu_entry(1, 1), got;
	size_t n, i, found = 0;
	struct twt_ack a;
	struct twt c;

	ASSERT_NE(NULL, st);
	tfu_open(&c);
	tfc_table_del(&c, T, NULL);
	ASSERT_EQ(0, tfc_table_new(&c, &cfg, &a));
	ASSERT_EQ(0, tfc_entry_set(&c, T, &e, &a));
	EXPECT_EQ(0, tfc_entry_get(&c, T, 1, &got, &a));
	EXPECT_EQ(-ENOENT, tfc_entry_get(&c, T, 2, &got, &a));
	ASSERT_EQ(0, tfc_stats_get(&c, T, st, &a));
	EXPECT_EQ(2, st->v[TFIB_STATS_A_LOOKUPS]);
	EXPECT_EQ(1, st->v[TFIB_STATS_A_MISSES]);
	EXPECT_EQ(1, st->v[TFIB_STATS_A_INSERTS]);
	/* unbound: no rings, workers or histograms */
	EXPECT_EQ(0, st->nring);
	EXPECT_EQ(0, st->nworker);
	/* the dump says the same */
	ASSERT_EQ(0, tfc_stats_dump(&c, &all, &n, &a));
	for (i = 0; i < n; i++) {
		if (strcmp(all[i].table, T))
			continue;
		found++;
		EXPECT_EQ(0, memcmp(all[i].v, st->v, sizeof(st->v)));
	}
	EXPECT_EQ(1, found);
	free(all);
	EXPECT_EQ(0, tfc_table_del(&c, T, &a));
	free(st);
	twt_close(&c);
}

/*
 * Bindings, as far as the table side decides them: one per table and per
 * device, reported by TABLE_GET, gone with UNBIND, the device or the
 * table.  Skipped while the module's forwarder refuses every binding.
 */
FIXTURE(bind) {
	struct twt c;
	uint32_t dev0, dev1;
};

FIXTURE_SETUP(bind)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("b0", 16);
	struct twt_ack a;

	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ASSERT_EQ(0, tfu_sh("ip link add tfv0 type veth peer name tfv1 && ip link set tfv0 up && ip link set tfv1 up"));
	self->dev0 = if_nametoindex("tfv0");
	self->dev1 = if_nametoindex("tfv1");
	tfu_open(&self->c);
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	cfg.name = "b1";
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
}

FIXTURE_TEARDOWN(bind)
{
	twt_close(&self->c);
}

/* Bind b0 to dev0, or skip when there is no forwarder to bind. */
static int bind_b0(FIXTURE_DATA(bind) *self, int mode)
{
	struct tfc_bind_cfg cfg = tfc_bind_defaults(self->dev0);
	struct twt_ack a;
	int err;

	cfg.mode = mode;
	err = tfc_bind(&self->c, "b0", &cfg, &a);
	if (err)
		tfu_show("bind", &a);
	return err;
}

#define BIND_B0(mode)							\
	do {								\
		int _err = bind_b0(self, mode);		\
		if (_err == -EOPNOTSUPP)				\
			SKIP(return, "the forwarder binds nothing");	\
		ASSERT_EQ(0, _err);					\
	} while (0)

TEST_F(bind, ring_defaults_reported)
{
	struct tfc_table t;
	struct twt_ack a;

	BIND_B0(-1);
	ASSERT_EQ(0, tfc_table_get(&self->c, "b0", &t, &a));
	EXPECT_EQ(self->dev0, t.ifindex);
	EXPECT_STREQ("tfv0", t.ifname);
	EXPECT_EQ(TFIB_FWD_MODE_RING, t.fwd_mode);
	EXPECT_EQ(TFIB_PICK_MEMO, t.pick);
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), t.workers);
	EXPECT_EQ(4096, t.control_ring);
	EXPECT_EQ(4096, t.data_ring);
	EXPECT_EQ(64, t.burst);
	ASSERT_EQ(0, tfc_unbind(&self->c, "b0", &a));
	ASSERT_EQ(0, tfc_table_get(&self->c, "b0", &t, &a));
	EXPECT_FALSE(t.has[TFIB_A_IFINDEX]);
	EXPECT_EQ(-ENOENT, tfc_unbind(&self->c, "b0", &a));
}

TEST_F(bind, one_binding_per_table_and_device)
{
	struct tfc_bind_cfg cfg = tfc_bind_defaults(self->dev1);
	struct tfc_table t;
	struct twt_ack a;
	char busy[sizeof(a.msg)];

	/* Asserted: the skip at the end would hide a failed check. */
	BIND_B0(TFIB_FWD_MODE_INLINE);
	ASSERT_EQ(0, tfc_table_get(&self->c, "b0", &t, &a));
	ASSERT_EQ(TFIB_FWD_MODE_INLINE, t.fwd_mode);
	ASSERT_FALSE(t.has[TFIB_A_WORKERS]);
	/* the table is bound */
	ASSERT_EQ(-EBUSY, tfc_bind(&self->c, "b0", &cfg, &a));
	ASSERT_TRUE(a.has_msg && a.has_offs) tfu_show("table", &a);
	/* the device is bound, to b0 */
	cfg.ifindex = self->dev0;
	ASSERT_EQ(-EBUSY, tfc_bind(&self->c, "b1", &cfg, &a));
	tfu_show("device", &a);
	snprintf(busy, sizeof(busy), "%s", a.msg);
	/* the other device is free */
	cfg.ifindex = self->dev1;
	ASSERT_EQ(0, tfc_bind(&self->c, "b1", &cfg, &a)) tfu_show("b1", &a);
	if (twt_kernel_before(6, 2))
		SKIP(return, "Linux before 6.2 formats no extended ack: \"%s\"", busy);
	EXPECT_NE(NULL, strstr(busy, "b0"));
}

TEST_F(bind, device_deleted_unbinds)
{
	struct tfc_table t;
	struct twt_ack a;

	BIND_B0(-1);
	ASSERT_EQ(0, tfu_sh("ip link del tfv0"));
	ASSERT_EQ(0, tfc_table_get(&self->c, "b0", &t, &a));
	EXPECT_FALSE(t.has[TFIB_A_IFINDEX]);
	EXPECT_EQ(-ENOENT, tfc_unbind(&self->c, "b0", &a));
}

/*
 * A device moved to another namespace leaves its binding behind: the
 * table is unbound, and the device can then be deleted there (a binding
 * left holding it would make the deletion wait forever).
 */
TEST_F_TIMEOUT(bind, device_moved_unbinds, SLOW_CASE_S)
{
	struct tfc_table t;
	struct twt_ack a;
	char ns[32];
	int moved, deleted;

	BIND_B0(-1);
	snprintf(ns, sizeof(ns), "tfmv%d", getpid());
	moved = tfu_sh("ip netns add %s && ip link set tfv0 netns %s", ns, ns);
	deleted = moved ? -1 : tfu_sh("ip -n %s link del tfv0", ns);
	tfu_sh("ip netns del %s", ns);
	ASSERT_EQ(0, moved);
	EXPECT_EQ(0, deleted);
	ASSERT_EQ(0, tfc_table_get(&self->c, "b0", &t, &a));
	EXPECT_FALSE(t.has[TFIB_A_IFINDEX]);
}

/* Replies name the device by its name of now. */
TEST_F(bind, renamed_device_reported)
{
	struct tfc_table t;
	struct twt_ack a;

	BIND_B0(-1);
	ASSERT_EQ(0, tfu_sh("ip link set tfv0 down && ip link set tfv0 name tfr0"));
	ASSERT_EQ(0, tfc_table_get(&self->c, "b0", &t, &a));
	EXPECT_EQ(self->dev0, t.ifindex);
	EXPECT_STREQ("tfr0", t.ifname);
}

/*
 * The per-thread nests are in a do reply, sized for them, and never in a
 * dump, whose messages keep their default size however many workers.
 */
TEST_F(bind, stats_workers_in_do_reply_only)
{
	struct tfc_bind_cfg cfg = tfc_bind_defaults(self->dev0);
	struct tfc_stats *st = calloc(1, sizeof(*st)), *all = NULL;
	struct twt_ack a;
	size_t n, i;
	int found = 0;

	ASSERT_NE(NULL, st);
	cfg.mode = TFIB_FWD_MODE_RING;
	cfg.workers = 300;
	ASSERT_EQ(0, tfc_bind(&self->c, "b0", &cfg, &a)) tfu_show("bind", &a);
	ASSERT_EQ(0, tfc_stats_get(&self->c, "b0", st, &a)) tfu_show("get", &a);
	EXPECT_EQ(301, st->nworker);
	EXPECT_EQ(2, st->nring);
	ASSERT_EQ(0, tfc_stats_dump(&self->c, &all, &n, &a)) tfu_show("dump", &a);
	for (i = 0; i < n; i++) {
		if (strcmp(all[i].table, "b0"))
			continue;
		found++;
		EXPECT_EQ(0, all[i].nworker);
		EXPECT_EQ(2, all[i].nring);
	}
	EXPECT_EQ(1, found);
	free(all);
	free(st);
}

/*
 * A ring binding's threads (its workers and a writer) count against
 * max_threads over all bindings; an inline one has none; an unbind gives
 * them back.
 */
TEST_F(bind, max_threads)
{
	struct tfc_bind_cfg ring = tfc_bind_defaults(self->dev0);
	struct tfc_bind_cfg inl = tfc_bind_defaults(self->dev1);
	long saved = tfu_param("max_threads");
	int err[4];
	struct twt_ack a, over;

	ASSERT_LT(0, saved);
	ring.mode = TFIB_FWD_MODE_RING;
	ring.workers = 3;
	inl.mode = TFIB_FWD_MODE_INLINE;
	ASSERT_EQ(0, tfu_set_param("max_threads", 5));
	err[0] = tfc_bind(&self->c, "b0", &ring, &a);
	ring.ifindex = self->dev1;
	ring.workers = 1;
	err[1] = tfc_bind(&self->c, "b1", &ring, &over);
	err[2] = tfc_bind(&self->c, "b1", &inl, &a);
	err[3] = tfc_unbind(&self->c, "b1", &a) ||
		 tfc_unbind(&self->c, "b0", &a) ||
		 tfc_bind(&self->c, "b1", &ring, &a);
	tfu_set_param("max_threads", saved);
	EXPECT_EQ(0, err[0]);
	EXPECT_EQ(-ENOSPC, err[1]);
	EXPECT_NE(NULL, strstr(over.msg, "max_threads")) tfu_show("cap", &over);
	EXPECT_TRUE(over.has_offs);
	EXPECT_EQ(0, err[2]);
	EXPECT_EQ(0, err[3]);
}

TEST_F(bind, table_deleted_bound)
{
	struct tfc_bind_cfg cfg = tfc_bind_defaults(0);
	struct twt_ack a;

	BIND_B0(-1);
	ASSERT_EQ(0, tfc_table_del(&self->c, "b0", &a));
	/* the device is free again */
	cfg.ifindex = self->dev0;
	EXPECT_EQ(0, tfc_bind(&self->c, "b1", &cfg, &a)) tfu_show("b1", &a);
}

int main(int argc, char **argv)
{
	tfu_require(argc, argv);
	return test_harness_run(argc, argv);
}
