// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_badinput.c - malformed, incomplete and forbidden requests, one row
 * each.  Every one must be refused with its errno and an extack message
 * that names the bad attribute (its offset) or the missing one, and
 * change nothing: the victim table keeps its one entry, no table appears.
 * Then what crosses namespaces, and what an unprivileged caller may do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include "tfib_util.h"
#include "kselftest_harness.h"

#define VICTIM		"victim"
#define VICTIM_USER	7
/* An index no device of the test's namespace has. */
#define OTHER_IFINDEX	4242

enum op {
	END, U8, U16, U32, U64, STR, RAW, FLAG,
	LO,		/* u32: the loopback device's index */
	VETH,		/* u32: a veth of this namespace */
	NOT_UNICAST,	/* a 6-byte MAC: bad_macs[val] */
};

/* Next hops ENTRY_SET refuses: no unicast address. */
static const uint8_t bad_macs[][6] = {
	{ 0, 0, 0, 0, 0, 0 },
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
};

struct step {
	enum op op;
	uint16_t type;
	uint64_t val;		/* the value; RAW: the length */
	const char *str;
	bool blame;		/* the extack's offset must point here */
};

#define MAX_STEPS	8

FIXTURE(bad) {
	struct twt c;
	uint32_t veth;
};

/* What a dump row's whole answer needs of the kernel. */
enum needs {
	NEEDS_NOTHING,
	NEEDS_DUMP_POLICY,	/* 6.2: a dump's own policy (split ops) */
	NEEDS_START_EXTACK,	/* 6.5: the extended ack of a dump's start */
};

FIXTURE_VARIANT(bad) {
	uint8_t cmd;
	bool dump;
	struct step s[MAX_STEPS];
	int want;
	uint16_t miss;		/* the missing attribute the ack names */
	enum needs needs;
};

#define S_(o, t, v, b)	{ .op = o, .type = TFIB_A_##t, .val = v, .blame = b }
#define OK_U8(t, v)	S_(U8, t, v, false)
#define OK_U32(t, v)	S_(U32, t, v, false)
#define OK_U64(t, v)	S_(U64, t, v, false)
#define BAD_U8(t, v)	S_(U8, t, v, true)
#define BAD_U16(t, v)	S_(U16, t, v, true)
#define BAD_U32(t, v)	S_(U32, t, v, true)
#define BAD_U64(t, v)	S_(U64, t, v, true)
#define BAD_RAW(t, n)	S_(RAW, t, n, true)
#define OK_FLAG(t)	S_(FLAG, t, 0, false)
#define BAD_FLAG(t)	S_(FLAG, t, 0, true)
#define TABLE(n)	{ .op = STR, .type = TFIB_A_TABLE, .str = n }
#define BAD_TABLE(n)	{ .op = STR, .type = TFIB_A_TABLE, .str = n, .blame = true }
#define VICTIM_T	TABLE(VICTIM)
#define USER		OK_U32(USER_ID, VICTIM_USER)
#define MAC6		S_(RAW, MAC, 6, false)
#define CAP		OK_U32(CAPACITY, 8)
#define IFX_VETH	{ .op = VETH, .type = TFIB_A_IFINDEX }
#define INLINE		OK_U8(FWD_MODE, TFIB_FWD_MODE_INLINE)

#define ROW(name, c, e, ...)						\
	FIXTURE_VARIANT_ADD(bad, name) {				\
		.cmd = TFIB_CMD_##c, .want = e, .s = { __VA_ARGS__ },	\
	}
#define MISSING(name, c, m, ...)					\
	FIXTURE_VARIANT_ADD(bad, name) {				\
		.cmd = TFIB_CMD_##c, .want = EINVAL,			\
		.miss = TFIB_A_##m, .s = { __VA_ARGS__ },		\
	}
#define DUMP_ROW(name, c, e, n, ...)					\
	FIXTURE_VARIANT_ADD(bad, name) {				\
		.cmd = TFIB_CMD_##c, .dump = true, .want = e,		\
		.needs = NEEDS_##n, .s = { __VA_ARGS__ },		\
	}

/* every required attribute missing, command by command */
MISSING(new_no_table, TABLE_NEW, TABLE, CAP);
MISSING(new_no_capacity, TABLE_NEW, CAPACITY, TABLE("t1"));
MISSING(del_no_table, TABLE_DEL, TABLE);
MISSING(get_no_table, TABLE_GET, TABLE);
MISSING(set_no_table, ENTRY_SET, TABLE, USER, MAC6);
MISSING(set_no_user, ENTRY_SET, USER_ID, VICTIM_T, MAC6);
MISSING(set_no_mac, ENTRY_SET, MAC, VICTIM_T, USER);
MISSING(entry_get_no_table, ENTRY_GET, TABLE, USER);
MISSING(entry_get_no_user, ENTRY_GET, USER_ID, VICTIM_T);
MISSING(entry_del_no_table, ENTRY_DEL, TABLE, USER);
MISSING(entry_del_no_user, ENTRY_DEL, USER_ID, VICTIM_T);
MISSING(bind_no_table, BIND, TABLE, IFX_VETH);
MISSING(bind_no_ifindex, BIND, IFINDEX, VICTIM_T);
MISSING(unbind_no_table, UNBIND, TABLE);
MISSING(stats_no_table, STATS_GET, TABLE);
FIXTURE_VARIANT_ADD(bad, entry_dump_no_table) {
	.cmd = TFIB_CMD_ENTRY_GET, .dump = true, .want = EINVAL,
	.miss = TFIB_A_TABLE, .needs = NEEDS_START_EXTACK,
};

/* malformed: the wrong size for the type */
ROW(capacity_as_u8, TABLE_NEW, EINVAL, TABLE("t1"), BAD_U8(CAPACITY, 8));
ROW(capacity_as_u64, TABLE_NEW, EINVAL, TABLE("t1"), BAD_U64(CAPACITY, 8));
ROW(sync_as_u32, TABLE_NEW, EINVAL, TABLE("t1"), CAP, BAD_U32(SYNC, 0));
ROW(prefetch_with_data, TABLE_NEW, ERANGE, TABLE("t1"), CAP,
    BAD_U32(PREFETCH, 1));
ROW(user_as_u16, ENTRY_SET, EINVAL, VICTIM_T, BAD_U16(USER_ID, 1), MAC6);
ROW(user_as_u64, ENTRY_GET, EINVAL, VICTIM_T, BAD_U64(USER_ID, 1));
ROW(mac_5_bytes, ENTRY_SET, ERANGE, VICTIM_T, USER, BAD_RAW(MAC, 5));
ROW(mac_7_bytes, ENTRY_SET, ERANGE, VICTIM_T, USER, BAD_RAW(MAC, 7));
ROW(ts_as_u32, ENTRY_SET, EINVAL, VICTIM_T, USER, MAC6, BAD_U32(TS_NS, 1));
ROW(seq_as_u64, ENTRY_SET, EINVAL, VICTIM_T, USER, MAC6, BAD_U64(SEQ, 1));
ROW(table_not_terminated, TABLE_GET, EINVAL, BAD_RAW(TABLE, 4));
ROW(table_16_bytes, TABLE_NEW, EINVAL, BAD_TABLE("sixteen-bytes-xx"), CAP);
_Static_assert(sizeof("sixteen-bytes-xx") == TFIB_NAME_MAX_LEN + 2,
	       "table_16_bytes: one byte over the longest name");
ROW(table_empty, TABLE_NEW, EINVAL, BAD_TABLE(""), CAP);
ROW(ifindex_as_u8, BIND, EINVAL, VICTIM_T, BAD_U8(IFINDEX, 1));
ROW(workers_as_u64, BIND, EINVAL, VICTIM_T, IFX_VETH, BAD_U64(WORKERS, 1));
ROW(buckets_as_u8, TABLE_NEW, EINVAL, TABLE("t1"), CAP, BAD_U8(BUCKETS, 8));
ROW(spares_as_u64, TABLE_NEW, EINVAL, TABLE("t1"), CAP, BAD_U64(SPARES, 8));
ROW(clockid_as_u8, TABLE_NEW, EINVAL, TABLE("t1"), CAP, BAD_U8(CLOCKID, 1));
ROW(mac_empty, ENTRY_SET, ERANGE, VICTIM_T, USER, BAD_RAW(MAC, 0));
ROW(mac_zero, ENTRY_SET, EINVAL, VICTIM_T, USER, S_(NOT_UNICAST, MAC, 0, true));
ROW(mac_broadcast, ENTRY_SET, EINVAL, VICTIM_T, USER,
    S_(NOT_UNICAST, MAC, 1, true));
ROW(mac_multicast, ENTRY_SET, EINVAL, VICTIM_T, USER,
    S_(NOT_UNICAST, MAC, 2, true));
ROW(user_in_del_as_u8, ENTRY_DEL, EINVAL, VICTIM_T, BAD_U8(USER_ID, 7));
ROW(fwd_mode_as_u32, BIND, EINVAL, VICTIM_T, IFX_VETH, BAD_U32(FWD_MODE, 0));
ROW(pick_as_u16, BIND, EINVAL, VICTIM_T, IFX_VETH, BAD_U16(PICK, 0));
ROW(control_ring_as_u8, BIND, EINVAL, VICTIM_T, IFX_VETH,
    BAD_U8(CONTROL_RING, 8));
ROW(data_ring_as_u64, BIND, EINVAL, VICTIM_T, IFX_VETH, BAD_U64(DATA_RING, 8));
ROW(burst_as_u16, BIND, EINVAL, VICTIM_T, IFX_VETH, BAD_U16(BURST, 8));

/* out of range */
ROW(capacity_0, TABLE_NEW, ERANGE, TABLE("t1"), BAD_U32(CAPACITY, 0));
ROW(capacity_over_max, TABLE_NEW, ERANGE, TABLE("t1"),
    BAD_U32(CAPACITY, TFIB_MAX_CAPACITY + 1));
ROW(buckets_0, TABLE_NEW, ERANGE, TABLE("t1"), CAP, BAD_U32(BUCKETS, 0));
ROW(buckets_not_pow2, TABLE_NEW, EINVAL, TABLE("t1"), CAP,
    BAD_U32(BUCKETS, 48));
/* more than 16 entries a bucket: chains too long for softirq lookups */
ROW(buckets_too_few, TABLE_NEW, EINVAL, TABLE("t1"), OK_U32(CAPACITY, 64),
    BAD_U32(BUCKETS, 2));
ROW(buckets_over_max, TABLE_NEW, ERANGE, TABLE("t1"), CAP,
    BAD_U32(BUCKETS, TFIB_MAX_CAPACITY * 2));
ROW(sync_4, TABLE_NEW, ERANGE, TABLE("t1"), CAP, BAD_U8(SYNC, 4));
ROW(spares_0, TABLE_NEW, ERANGE, TABLE("t1"), CAP, BAD_U32(SPARES, 0));
ROW(spares_not_rcu, TABLE_NEW, EINVAL, TABLE("t1"), CAP,
    OK_U8(SYNC, TFIB_SYNC_BUCKET), BAD_U32(SPARES, 4));
ROW(prefetch_rwlock, TABLE_NEW, EINVAL, TABLE("t1"), CAP,
    OK_U8(SYNC, TFIB_SYNC_RWLOCK), BAD_FLAG(PREFETCH));
ROW(clockid_12, TABLE_NEW, ERANGE, TABLE("t1"), CAP, BAD_U32(CLOCKID, 12));
ROW(clockid_process_cputime, TABLE_NEW, EINVAL, TABLE("t1"), CAP,
    BAD_U32(CLOCKID, 2));
ROW(ifindex_0, BIND, ERANGE, VICTIM_T, BAD_U32(IFINDEX, 0));
ROW(fwd_mode_2, BIND, ERANGE, VICTIM_T, IFX_VETH, BAD_U8(FWD_MODE, 2));
ROW(pick_2, BIND, ERANGE, VICTIM_T, IFX_VETH, BAD_U8(PICK, 2));
ROW(workers_0, BIND, ERANGE, VICTIM_T, IFX_VETH, BAD_U32(WORKERS, 0));
ROW(workers_over_max, BIND, ERANGE, VICTIM_T, IFX_VETH,
    BAD_U32(WORKERS, TFIB_MAX_WORKERS + 1));
ROW(control_ring_0, BIND, ERANGE, VICTIM_T, IFX_VETH,
    BAD_U32(CONTROL_RING, 0));
ROW(data_ring_over_max, BIND, ERANGE, VICTIM_T, IFX_VETH,
    BAD_U32(DATA_RING, TFIB_MAX_RING + 1));
ROW(burst_over_max, BIND, ERANGE, VICTIM_T, IFX_VETH,
    BAD_U32(BURST, TFIB_MAX_BURST + 1));

/* unknown table, for every command that names one */
ROW(unknown_table_del, TABLE_DEL, ENOENT, BAD_TABLE("nosuch"));
ROW(unknown_table_get, TABLE_GET, ENOENT, BAD_TABLE("nosuch"));
ROW(unknown_table_set, ENTRY_SET, ENOENT, BAD_TABLE("nosuch"), USER, MAC6);
ROW(unknown_table_entry_get, ENTRY_GET, ENOENT, BAD_TABLE("nosuch"), USER);
ROW(unknown_table_entry_del, ENTRY_DEL, ENOENT, BAD_TABLE("nosuch"), USER);
ROW(unknown_table_bind, BIND, ENOENT, BAD_TABLE("nosuch"), IFX_VETH);
ROW(unknown_table_unbind, UNBIND, ENOENT, BAD_TABLE("nosuch"));
ROW(unknown_table_stats, STATS_GET, ENOENT, BAD_TABLE("nosuch"));
DUMP_ROW(unknown_table_entry_dump, ENTRY_GET, ENOENT, START_EXTACK,
	 BAD_TABLE("nosuch"));
ROW(unknown_entry_get, ENTRY_GET, ENOENT, VICTIM_T, BAD_U32(USER_ID, 99));
ROW(unknown_entry_del, ENTRY_DEL, ENOENT, VICTIM_T, BAD_U32(USER_ID, 99));
ROW(victim_exists, TABLE_NEW, EEXIST, BAD_TABLE(VICTIM), CAP);
ROW(victim_not_bound, UNBIND, ENOENT, BAD_TABLE(VICTIM));

/* unknown attributes, and attributes the command does not take */
ROW(unknown_attribute, TABLE_NEW, EINVAL, TABLE("t1"), CAP,
    BAD_U32(MAX + 1, 1));
ROW(reply_only_entries, TABLE_NEW, EINVAL, TABLE("t1"), CAP,
    BAD_U32(ENTRIES, 1));
ROW(mac_in_table_get, TABLE_GET, EINVAL, VICTIM_T, S_(RAW, MAC, 6, true));
ROW(capacity_in_entry_set, ENTRY_SET, EINVAL, VICTIM_T, USER, MAC6,
    BAD_U32(CAPACITY, 8));
ROW(ifindex_in_unbind, UNBIND, EINVAL, VICTIM_T, BAD_U32(IFINDEX, 1));
DUMP_ROW(table_dump_with_table, TABLE_GET, EINVAL, DUMP_POLICY,
	 BAD_TABLE(VICTIM));
DUMP_ROW(stats_dump_with_table, STATS_GET, EINVAL, DUMP_POLICY,
	 BAD_TABLE(VICTIM));
DUMP_ROW(entry_dump_with_user, ENTRY_GET, EINVAL, DUMP_POLICY, VICTIM_T,
	 BAD_U32(USER_ID, 1));

/* devices */
ROW(bind_unknown_ifindex, BIND, ENODEV, VICTIM_T, BAD_U32(IFINDEX, 0x7ffffff0));
ROW(bind_loopback, BIND, EOPNOTSUPP, VICTIM_T,
    { .op = LO, .type = TFIB_A_IFINDEX, .blame = true });
/* ring settings mean nothing inline */
ROW(inline_with_pick, BIND, EINVAL, VICTIM_T, IFX_VETH, INLINE,
    BAD_U8(PICK, 0));
ROW(inline_with_workers, BIND, EINVAL, VICTIM_T, IFX_VETH, INLINE,
    BAD_U32(WORKERS, 2));
ROW(inline_with_control_ring, BIND, EINVAL, VICTIM_T, IFX_VETH, INLINE,
    BAD_U32(CONTROL_RING, 64));
ROW(inline_with_data_ring, BIND, EINVAL, VICTIM_T, IFX_VETH, INLINE,
    BAD_U32(DATA_RING, 64));
ROW(inline_with_burst, BIND, EINVAL, VICTIM_T, IFX_VETH, INLINE,
    BAD_U32(BURST, 8));

static uint32_t blame_offs;

static struct nl_msg *build(const FIXTURE_VARIANT(bad) *v, struct twt *c,
			    uint32_t veth)
{
	static const uint8_t zeros[64];
	struct nl_msg *m = tfc_msg(c, v->cmd, v->dump ? NLM_F_DUMP : 0, NULL);
	const struct step *s;

	blame_offs = 0;
	for (s = v->s; s < v->s + MAX_STEPS && s->op != END; s++) {
		switch (s->op) {
		case U8: nla_put_u8(m, s->type, s->val); break;
		case U16: nla_put_u16(m, s->type, s->val); break;
		case U32: nla_put_u32(m, s->type, s->val); break;
		case U64: nla_put_u64(m, s->type, s->val); break;
		case STR: nla_put_string(m, s->type, s->str); break;
		/* a unicast MAC when 6 bytes long */
		case RAW: nla_put(m, s->type, s->val, "\x02" "bcdefghijkl"); break;
		case NOT_UNICAST: nla_put(m, s->type, 6, bad_macs[s->val]); break;
		case FLAG: nla_put(m, s->type, 0, zeros); break;
		case LO: nla_put_u32(m, s->type, if_nametoindex("lo")); break;
		case VETH: nla_put_u32(m, s->type, veth); break;
		case END: break;
		}
		if (s->blame)
			blame_offs = twt_last_offs(m);
	}
	return m;
}

/* What a refused request must not change. */
static int victim_intact(struct __test_metadata *_metadata, struct twt *c)
{
	struct tfc_table *all = NULL;
	struct tfc_entry e, want = tfu_entry(VICTIM_USER, 3);
	struct tfc_table t;
	struct twt_ack a;
	size_t n;

	EXPECT_EQ(0, tfc_table_get(c, VICTIM, &t, &a));
	EXPECT_EQ(1, t.entries);
	EXPECT_FALSE(t.has[TFIB_A_IFINDEX]);
	EXPECT_EQ(0, tfc_entry_get(c, VICTIM, VICTIM_USER, &e, &a));
	EXPECT_EQ(0, memcmp(e.mac, want.mac, 6));
	EXPECT_EQ(want.ts_ns, e.ts_ns);
	EXPECT_EQ(0, tfc_table_dump(c, &all, &n, &a));
	free(all);
	EXPECT_EQ(1, n);
	return 0;
}

/* The namespace of the rows, made once: its veth's index. */
static uint32_t veth;

FIXTURE_SETUP(bad)
{
	struct tfc_table_cfg cfg = tfc_table_defaults(VICTIM, 8);
	struct tfc_entry e = tfu_entry(VICTIM_USER, 3);
	struct twt_ack a;

	self->veth = veth;
	tfu_open(&self->c);
	ASSERT_EQ(0, tfc_table_new(&self->c, &cfg, &a));
	ASSERT_EQ(0, tfc_entry_set(&self->c, VICTIM, &e, &a));
}

/* What a row that wrongly succeeded made goes too. */
FIXTURE_TEARDOWN(bad)
{
	tfc_table_del(&self->c, VICTIM, NULL);
	tfc_table_del(&self->c, "t1", NULL);
	twt_close(&self->c);
}

TEST_F(bad, refused)
{
	struct nl_msg *m = build(variant, &self->c, self->veth);
	struct twt_ack a;

	twt_xfer(&self->c, m, NULL, NULL, &a);
	tfu_show("refused", &a);
	if (variant->needs == NEEDS_DUMP_POLICY && twt_kernel_before(6, 2))
		SKIP(return, "Linux before 6.2 has one policy per command: a dump takes what its do takes");
	/* Asserted: a skip after a failed check would hide it. */
	ASSERT_EQ(-variant->want, a.err);
	if (variant->needs == NEEDS_START_EXTACK && twt_kernel_before(6, 5))
		SKIP(return, "Linux before 6.5 drops the extended ack of a dump's start");
	EXPECT_TRUE(a.has_msg);
	if (variant->miss) {
		EXPECT_TRUE(a.has_miss);
		EXPECT_EQ(variant->miss, a.miss_type);
	}
	if (blame_offs) {
		EXPECT_TRUE(a.has_offs);
		EXPECT_EQ(blame_offs, a.offs);
	}
	victim_intact(_metadata, &self->c);
}

/* Tables of one name in two namespaces are two tables, each invisible. */
TEST(two_netns_same_name)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("same", 10);
	struct tfc_entry e1 = tfu_entry(1, 1), e2 = tfu_entry(1, 2), got;
	struct tfc_table *all = NULL;
	struct tfc_bind_cfg bind;
	struct twt c1, c2;
	struct twt_ack a;
	size_t n;

	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	tfu_open(&c1);
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	tfu_open(&c2);
	ASSERT_EQ(0, tfu_sh("ip link add name tfo0 index %d type veth peer name tfo1",
			    OTHER_IFINDEX));

	ASSERT_EQ(0, tfc_table_new(&c1, &cfg, &a));
	cfg.capacity = 20;
	ASSERT_EQ(0, tfc_table_new(&c2, &cfg, &a)) tfu_show("second", &a);
	ASSERT_EQ(0, tfc_entry_set(&c1, "same", &e1, &a));
	ASSERT_EQ(0, tfc_entry_set(&c2, "same", &e2, &a));

	ASSERT_EQ(0, tfc_table_dump(&c1, &all, &n, &a));
	ASSERT_EQ(1, n);
	EXPECT_EQ(10, all[0].capacity);
	free(all);
	ASSERT_EQ(0, tfc_entry_get(&c2, "same", 1, &got, &a));
	EXPECT_EQ(0, memcmp(got.mac, e2.mac, 6));
	ASSERT_EQ(0, tfc_entry_get(&c1, "same", 1, &got, &a));
	EXPECT_EQ(0, memcmp(got.mac, e1.mac, 6));

	/* the device of the other namespace is unknown here */
	bind = tfc_bind_defaults(OTHER_IFINDEX);
	EXPECT_EQ(-ENODEV, tfc_bind(&c1, "same", &bind, &a));
	EXPECT_TRUE(a.has_msg && a.has_offs);

	/* deleting one leaves the other */
	ASSERT_EQ(0, tfc_table_del(&c2, "same", &a));
	EXPECT_EQ(-ENOENT, tfc_entry_get(&c2, "same", 1, &got, &a));
	EXPECT_EQ(0, tfc_entry_get(&c1, "same", 1, &got, &a));
	twt_close(&c1);
	twt_close(&c2);
	/* the namespaces, and c1's table, go when this process exits */
}

/* Without CAP_NET_ADMIN: reads work, every change is EPERM. */
TEST(no_net_admin)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("priv", 4);
	struct tfc_entry e = tfu_entry(1, 1), got;
	struct tfc_bind_cfg bind = tfc_bind_defaults(1);
	struct tfc_stats *st = calloc(1, sizeof(*st));
	struct tfc_table t;
	struct twt_ack a;
	struct twt c;

	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	tfu_open(&c);
	ASSERT_EQ(0, tfc_table_new(&c, &cfg, &a));
	ASSERT_EQ(0, tfc_entry_set(&c, "priv", &e, &a));
	twt_close(&c);

	ASSERT_EQ(0, tfu_drop_net_admin());
	tfu_open(&c);
	EXPECT_EQ(0, tfc_table_get(&c, "priv", &t, &a));
	EXPECT_EQ(0, tfc_entry_get(&c, "priv", 1, &got, &a));
	EXPECT_EQ(0, tfc_stats_get(&c, "priv", st, &a));
	cfg.name = "priv2";
	EXPECT_EQ(-EPERM, tfc_table_new(&c, &cfg, &a));
	EXPECT_EQ(-EPERM, tfc_table_del(&c, "priv", &a));
	EXPECT_EQ(-EPERM, tfc_entry_set(&c, "priv", &e, &a));
	EXPECT_EQ(-EPERM, tfc_entry_del(&c, "priv", 1, &a));
	EXPECT_EQ(-EPERM, tfc_bind(&c, "priv", &bind, &a));
	EXPECT_EQ(-EPERM, tfc_unbind(&c, "priv", &a));
	/* and nothing changed */
	EXPECT_EQ(0, tfc_entry_get(&c, "priv", 1, &got, &a));
	EXPECT_EQ(-ENOENT, tfc_table_get(&c, "priv2", &t, &a));
	free(st);
	twt_close(&c);
}

/*
 * A namespace of the program's own, with a veth and nothing else, made
 * once (each netns and veth costs about a second under emulation): the
 * tests, forked from here, share it.
 */
static void make_netns(void)
{
	if (unshare(CLONE_NEWNET) ||
	    tfu_sh("ip link set lo up && ip link add tfb0 type veth peer name tfb1 && ip link set tfb0 up"))
		ksft_exit_fail_msg("cannot make the test namespace and its veth\n");
	veth = if_nametoindex("tfb0");
	if (!veth || if_indextoname(OTHER_IFINDEX, (char[IF_NAMESIZE]){}))
		ksft_exit_fail_msg("tfb0 missing, or index %d taken\n",
				   OTHER_IFINDEX);
}

int main(int argc, char **argv)
{
	tfu_require(argc, argv);
	if (!listing_only(argc, argv))
		make_netns();
	return test_harness_run(argc, argv);
}
