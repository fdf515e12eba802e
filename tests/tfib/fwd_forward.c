// SPDX-License-Identifier: GPL-2.0
/*
 * fwd_forward.c - what a bound table does with update packets, in every
 * sync mode, through the rings and inline: data packets leave addressed
 * with the tuple (header rewritten, payload untouched); control packets
 * write the tuple; unknown users and malformed packets are counted and
 * never forwarded; and with control and data packets racing, no packet
 * leaves with a tuple that one update did not write whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fwd_lib.h"
#include "kselftest_harness.h"

#define TOPO_ID		40
#define TORN_USER	42
#define TORN_UPDATES	600
#define TORN_DATA	600

FIXTURE(fwd) {
	struct fwd_env e;
};

FIXTURE_VARIANT(fwd) {
	int sync;
	int mode;
};

#define FWD_VARIANT(name, s, m)					\
	FIXTURE_VARIANT_ADD(fwd, name) {				\
		.sync = TFIB_SYNC_##s, .mode = TFIB_FWD_MODE_##m,	\
	}

FWD_VARIANT(rwlock_ring, RWLOCK, RING);
FWD_VARIANT(rcu_ring, RCU, RING);
FWD_VARIANT(bucket_ring, BUCKET, RING);
FWD_VARIANT(seqcount_ring, SEQCOUNT, RING);
FWD_VARIANT(rwlock_inline, RWLOCK, INLINE);
FWD_VARIANT(rcu_inline, RCU, INLINE);
FWD_VARIANT(bucket_inline, BUCKET, INLINE);
FWD_VARIANT(seqcount_inline, SEQCOUNT, INLINE);

FIXTURE_SETUP(fwd)
{
	struct tfc_bind_cfg b = tfc_bind_defaults(0);
	int rc;

	b.mode = variant->mode;
	if (variant->mode == TFIB_FWD_MODE_RING) {
		/* more workers than the guest's CPUs, small bursts */
		b.workers = 3;
		b.burst = 8;
		b.control_ring = 4096;
		b.data_ring = 4096;
	}
	rc = fwd_env_up(&self->e, -1, variant->sync, &b);
	if (rc == KSFT_SKIP)
		SKIP(return, "needs root and the tfib module");
	ASSERT_EQ(0, rc);
}

FIXTURE_TEARDOWN(fwd)
{
	fwd_env_down(&self->e);
}

static int set_entry(struct fwd_env *e, uint32_t user, uint32_t k)
{
	struct tfc_entry ent = { .user_id = user, .seq = k,
				 .has_ts = true, .has_seq = true };
	struct twt_ack a;

	fwd_tuple_of(k, ent.mac, &ent.ts_ns);
	return tfc_entry_set(&e->nl, e->table, &ent, &a);
}

static int send_hdr(struct fwd_env *e, int fd, const struct fwd_hdr *h,
		    int payload, uint32_t tag, uint32_t idx)
{
	uint8_t f[FWD_FRAME_MAX];

	return fwd_send(fd, f, fwd_frame(f, e, h, payload, tag, idx));
}

/* The counter @attr of a fresh STATS_GET. */
static int64_t ctr_now(struct fwd_env *e, int attr)
{
	return fwd_stats(e) ? -1 : fwd_ctr(e, attr);
}

TEST_F(fwd, data_addressed_payload_untouched)
{
	static const int payload[] = { 8, 9, 100, 1400 };
	const int n = ARRAY_SIZE(payload);
	struct fwd_hdr sent[ARRAY_SIZE(payload)];
	struct fwd_rx rx[8];
	uint8_t mac[ETH_ALEN];
	uint64_t ts;
	uint32_t tag = rnd();
	int i, got;

	ASSERT_EQ(0, set_entry(&self->e, 7, 4242));
	fwd_tuple_of(4242, mac, &ts);
	rx_flush(&self->e.topo);
	for (i = 0; i < n; i++) {
		sent[i] = fwd_data(7, 100 + i);
		ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &sent[i],
				      payload[i], tag, i));
	}
	got = fwd_collect(&self->e, tag, rx, n, ARRAY_SIZE(rx), 5000, 200);
	ASSERT_EQ(n, got);
	for (i = 0; i < got; i++) {
		const struct fwd_hdr *s = &sent[rx[i].idx % n], *h = &rx[i].h;

		ASSERT_LT(rx[i].idx, (uint32_t)n);
		EXPECT_EQ(0, memcmp(rx[i].dst, mac, ETH_ALEN));
		EXPECT_EQ(0, memcmp(rx[i].src, self->e.topo.mac, ETH_ALEN));
		EXPECT_EQ(4242, h->addr_seq);
		EXPECT_EQ(ts, h->addr_ns);
		/* the rest as sent */
		EXPECT_EQ(s->version, h->version);
		EXPECT_EQ(s->type, h->type);
		EXPECT_EQ(s->flags, h->flags);
		EXPECT_EQ(7, h->user_id);
		EXPECT_EQ(s->seq, h->seq);
		EXPECT_EQ(s->send_ns, h->send_ns);
		EXPECT_EQ(0, memcmp(s->mac, h->mac, ETH_ALEN));
		EXPECT_EQ(s->hop_limit - 1, h->hop_limit);
		EXPECT_EQ(s->reserved, h->reserved);
		EXPECT_EQ(ETH_HLEN + FWD_HDR_LEN + payload[rx[i].idx],
			  rx[i].len);
		EXPECT_TRUE(rx[i].payload_ok);
	}
	EXPECT_EQ(n, fwd_wait_ctr(&self->e, TFIB_STATS_A_FORWARDED, n));
	EXPECT_EQ(n, fwd_ctr(&self->e, TFIB_STATS_A_RX));
	EXPECT_EQ(n, fwd_ctr(&self->e, TFIB_STATS_A_RX_DATA));
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_RX_CONTROL));
	/* every lookup's age counted, in bins ending at 2^64 - 1 */
	ASSERT_GT(self->e.st->nage, 1);
	EXPECT_EQ(n, fwd_hist_sum(self->e.st->age, self->e.st->nage));
	EXPECT_EQ(UINT64_MAX, self->e.st->age[self->e.st->nage - 1].upper);
}

TEST_F(fwd, future_tuple_age_in_first_bin)
{
	struct tfc_entry ent = { .user_id = 8, .mac = { 2, 0, 0, 0, 0, 8 },
				 .ts_ns = UINT64_MAX / 2, .has_ts = true };
	struct fwd_hdr h = fwd_data(8, 1);
	struct twt_ack a;
	int i;

	ASSERT_EQ(0, tfc_entry_set(&self->e.nl, self->e.table, &ent, &a));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, 1, i));
	EXPECT_EQ(3, fwd_wait_ctr(&self->e, TFIB_STATS_A_FORWARDED, 3));
	ASSERT_GT(self->e.st->nage, 0);
	EXPECT_EQ(0, self->e.st->age[0].upper);
	EXPECT_EQ(3, self->e.st->age[0].count);
}

/* Poll ENTRY_GET until @user has sequence @seq; 0 when it does. */
static int wait_entry(struct fwd_env *e, uint32_t user, uint32_t seq,
		      struct tfc_entry *ent)
{
	struct twt_ack a;
	int i;

	for (i = 0; i < 250; i++) {
		if (!tfc_entry_get(&e->nl, e->table, user, ent, &a) &&
		    ent->seq == seq)
			return 0;
		sleep_ms(20);
	}
	return -1;
}

TEST_F(fwd, control_inserts_then_updates)
{
	struct tfc_entry ent;
	struct fwd_hdr h;
	struct fwd_rx rx[4];
	uint8_t mac[ETH_ALEN];
	uint64_t ts;
	uint32_t k, tag = rnd();

	for (k = 5; k <= 6; k++) {
		fwd_tuple_of(k, mac, &ts);
		h = fwd_control(1001, mac, ts, k);
		ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, tag, k));
		ASSERT_EQ(0, wait_entry(&self->e, 1001, k, &ent));
		EXPECT_EQ(0, memcmp(ent.mac, mac, ETH_ALEN));
		EXPECT_EQ(ts, ent.ts_ns);
	}
	/* a control packet is consumed, never forwarded */
	rx_flush(&self->e.topo);
	h = fwd_data(1001, 1);
	ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, tag, 0));
	ASSERT_EQ(1, fwd_collect(&self->e, tag, rx, 1, 4, 5000, 200));
	EXPECT_EQ(0, memcmp(rx[0].dst, mac, ETH_ALEN));
	EXPECT_EQ(6, rx[0].h.addr_seq);
	EXPECT_EQ(ts, rx[0].h.addr_ns);
	EXPECT_EQ(2, ctr_now(&self->e, TFIB_STATS_A_RX_CONTROL));
	EXPECT_EQ(1, fwd_ctr(&self->e, TFIB_STATS_A_INSERTS));
	EXPECT_EQ(1, fwd_ctr(&self->e, TFIB_STATS_A_UPDATES));
}

/* Control packets the table took: inserted, updated or refused. */
static int64_t control_done(struct fwd_env *e)
{
	if (fwd_stats(e))
		return -1;
	return fwd_ctr(e, TFIB_STATS_A_INSERTS) +
	       fwd_ctr(e, TFIB_STATS_A_UPDATES) +
	       fwd_ctr(e, TFIB_STATS_A_STALE);
}

static int wait_control_done(struct fwd_env *e, int64_t want)
{
	int i;

	for (i = 0; i < 250; i++) {
		if (control_done(e) >= want)
			return 0;
		sleep_ms(20);
	}
	return -1;
}

/*
 * Control packets applied out of order (as from several CPUs, or a writer
 * behind netlink): one not after the stored seq is refused and counted,
 * and the entry keeps the newer tuple; the seq wraps at 2^32.
 */
TEST_F(fwd, older_control_refused_and_counted)
{
	const uint32_t seqs[] = { 0xfffffffeU, 0xfffffffdU, 0xfffffffeU, 1 };
	const uint32_t user = 1003, tag = rnd();
	struct tfc_entry ent;
	struct fwd_hdr h;
	uint8_t mac[ETH_ALEN];
	uint64_t ts;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		fwd_tuple_of(seqs[i], mac, &ts);
		h = fwd_control(user, mac, ts, seqs[i]);
		ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, tag, i));
		/* one at a time: the order the table sees is the order sent */
		ASSERT_EQ(0, wait_control_done(&self->e, i + 1));
	}
	ASSERT_EQ(0, wait_entry(&self->e, user, 1, &ent));
	fwd_tuple_of(1, mac, &ts);
	EXPECT_EQ(0, memcmp(ent.mac, mac, ETH_ALEN));
	EXPECT_EQ(ts, ent.ts_ns);
	ASSERT_EQ(0, fwd_stats(&self->e));
	EXPECT_EQ(4, fwd_ctr(&self->e, TFIB_STATS_A_RX_CONTROL));
	EXPECT_EQ(1, fwd_ctr(&self->e, TFIB_STATS_A_INSERTS));
	EXPECT_EQ(1, fwd_ctr(&self->e, TFIB_STATS_A_UPDATES));
	EXPECT_EQ(2, fwd_ctr(&self->e, TFIB_STATS_A_STALE));
	/* refused as stale, not as a full table */
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_DROP_TABLE_FULL));
}

TEST_F(fwd, unknown_user_dropped)
{
	struct fwd_hdr h = fwd_data(999, 1);
	struct fwd_rx rx[4];
	uint32_t tag = rnd();
	int i;

	rx_flush(&self->e.topo);
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, tag, i));
	EXPECT_EQ(5, fwd_wait_ctr(&self->e, TFIB_STATS_A_DROP_NO_ENTRY, 5));
	EXPECT_EQ(0, fwd_collect(&self->e, tag, rx, 1, 4, 300, 0));
	EXPECT_EQ(0, ctr_now(&self->e, TFIB_STATS_A_FORWARDED));
}

TEST_F(fwd, malformed_counted_never_forwarded)
{
	struct fwd_hdr bad_version = fwd_data(77, 1);
	struct fwd_hdr type0 = fwd_data(77, 2), type3 = fwd_data(77, 3);
	uint8_t mac[ETH_ALEN] = { 2, 0, 0, 0, 0, 77 };
	struct fwd_hdr ctl = fwd_control(77, mac, 1, 1);
	uint8_t f[FWD_FRAME_MAX];
	struct tfc_entry ent;
	struct twt_ack a;
	uint32_t tag = rnd();

	ASSERT_EQ(0, set_entry(&self->e, 77, 1));
	bad_version.version = 1;	/* the old header, without a hop limit */
	type0.type = 0;
	type3.type = 3;
	rx_flush(&self->e.topo);
	/* short: the Ethernet header and 20 bytes of a header of 40 */
	fwd_frame(f, &self->e, &ctl, 8, tag, 0);
	ASSERT_EQ(0, fwd_send(self->e.tx, f, ETH_HLEN + 20));
	ASSERT_EQ(0, fwd_send(self->e.tx, f, ETH_HLEN + FWD_HDR_LEN - 1));
	ctl.version = 0;
	ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &ctl, 8, tag, 1));
	ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &bad_version, 8, tag, 2));
	ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &type0, 8, tag, 3));
	ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &type3, 8, tag, 4));
	EXPECT_EQ(6, fwd_wait_ctr(&self->e, TFIB_STATS_A_RX, 6));
	EXPECT_EQ(2, fwd_ctr(&self->e, TFIB_STATS_A_DROP_SHORT));
	EXPECT_EQ(2, fwd_ctr(&self->e, TFIB_STATS_A_DROP_VERSION));
	EXPECT_EQ(2, fwd_ctr(&self->e, TFIB_STATS_A_DROP_TYPE));
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_RX_CONTROL));
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_RX_DATA));
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_FORWARDED));
	EXPECT_EQ(0, fwd_collect(&self->e, tag, (struct fwd_rx[1]){}, 1, 1,
				 300, 0));
	/* the control packets did not write the tuple */
	ASSERT_EQ(0, tfc_entry_get(&self->e.nl, self->e.table, 77, &ent, &a));
	EXPECT_EQ(1, ent.seq);
	EXPECT_NE(0, memcmp(ent.mac, mac, ETH_ALEN));
}

/*
 * A next hop that is no unicast address would flood the user's data over
 * the segment: such control packets are dropped and counted.
 */
TEST_F(fwd, control_with_group_mac_dropped)
{
	static const uint8_t bad[][ETH_ALEN] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
		{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
	};
	const int n = sizeof(bad) / sizeof(bad[0]);
	uint8_t want[ETH_ALEN];
	struct tfc_entry ent;
	struct fwd_hdr h;
	uint64_t ts;
	struct twt_ack a;
	uint32_t tag = rnd();
	int i;

	ASSERT_EQ(0, set_entry(&self->e, 78, 1));
	for (i = 0; i < n; i++) {
		h = fwd_control(78, bad[i], 5, 10 + i);
		ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, tag, i));
	}
	EXPECT_EQ(n, fwd_wait_ctr(&self->e, TFIB_STATS_A_DROP_BAD_MAC, n));
	EXPECT_EQ(n, fwd_ctr(&self->e, TFIB_STATS_A_RX));
	EXPECT_EQ(0, fwd_ctr(&self->e, TFIB_STATS_A_RX_CONTROL));
	/* the tuple is the one set before */
	ASSERT_EQ(0, tfc_entry_get(&self->e.nl, self->e.table, 78, &ent, &a));
	fwd_tuple_of(1, want, &ts);
	EXPECT_EQ(1, ent.seq);
	EXPECT_EQ(0, memcmp(ent.mac, want, ETH_ALEN));
	EXPECT_EQ(ts, ent.ts_ns);
}

struct torn_writer {
	struct fwd_env *e;
	int fd;
	int err;
};

/* Control packets for TORN_USER, tuple k for k = 1, 2, ... */
static void *torn_write(void *arg)
{
	struct torn_writer *w = arg;
	uint8_t mac[ETH_ALEN];
	struct fwd_hdr h;
	uint64_t ts;
	uint32_t k;

	for (k = 1; k <= TORN_UPDATES && !w->err; k++) {
		fwd_tuple_of(k, mac, &ts);
		h = fwd_control(TORN_USER, mac, ts, k);
		w->err = send_hdr(w->e, w->fd, &h, 8, 0, k);
	}
	return NULL;
}

TEST_F(fwd, racing_updates_never_torn)
{
	struct torn_writer w = { .e = &self->e };
	struct fwd_rx *rx = xcalloc(TORN_DATA, sizeof(*rx));
	uint32_t tag = rnd(), last = 0;
	int i, got, torn = 0, changes = 0;
	struct fwd_hdr h;
	uint8_t mac[ETH_ALEN];
	uint64_t ts;
	pthread_t th;

	ASSERT_EQ(0, set_entry(&self->e, TORN_USER, 0));
	w.fd = fwd_tx_open(&self->e);
	ASSERT_LE(0, w.fd);
	rx_flush(&self->e.topo);
	/*
	 * The first data packet leaves before any update and the last after
	 * every one: whatever the scheduler does with the rest, the tuple
	 * changes on the wire at least once.
	 */
	h = fwd_data(TORN_USER, 0);
	ASSERT_EQ(0, send_hdr(&self->e, self->e.tx, &h, 8, tag, 0));
	ASSERT_EQ(1, fwd_wait_ctr(&self->e, TFIB_STATS_A_FORWARDED, 1));
	ASSERT_EQ(0, pthread_create(&th, NULL, torn_write, &w));
	for (i = 1; i < TORN_DATA - 1; i++) {
		h = fwd_data(TORN_USER, i);
		if (send_hdr(&self->e, self->e.tx, &h, 8, tag, i))
			break;
	}
	pthread_join(th, NULL);
	close(w.fd);
	/* every update written (an rcu table may refuse some: busy) */
	fwd_wait_ctr(&self->e, TFIB_STATS_A_RX_CONTROL, TORN_UPDATES);
	fwd_wait_ctr(&self->e, TFIB_STATS_A_UPDATES, TORN_UPDATES);
	h = fwd_data(TORN_USER, i);
	if (i == TORN_DATA - 1 && !send_hdr(&self->e, self->e.tx, &h, 8, tag, i))
		i++;
	EXPECT_EQ(TORN_DATA, i);
	EXPECT_EQ(0, w.err);
	got = fwd_collect(&self->e, tag, rx, TORN_DATA, TORN_DATA, 20000, 300);
	for (i = 0; i < got && i < TORN_DATA; i++) {
		fwd_tuple_of(rx[i].h.addr_seq, mac, &ts);
		if (memcmp(rx[i].dst, mac, ETH_ALEN) ||
		    rx[i].h.addr_ns != ts) {
			if (!torn++)
				TH_LOG("torn: seq %u, ts %llu", rx[i].h.addr_seq,
				       (unsigned long long)rx[i].h.addr_ns);
		}
		changes += rx[i].h.addr_seq != last;
		last = rx[i].h.addr_seq;
	}
	EXPECT_EQ(0, torn);
	/* the first and the last packets carry different tuples */
	EXPECT_LT(0, changes);
	/* the wire as the counters tell it: forwarded, or dropped and why */
	fwd_wait_ctr(&self->e, TFIB_STATS_A_FORWARDED, got);
	EXPECT_EQ(got, fwd_ctr(&self->e, TFIB_STATS_A_FORWARDED));
	EXPECT_EQ(TORN_UPDATES, fwd_ctr(&self->e, TFIB_STATS_A_RX_CONTROL));
	TH_LOG("%d of %d data packets forwarded, tuple changed %d times, %lld updates, %lld dropped for no room",
	       got, TORN_DATA, changes,
	       (long long)fwd_ctr(&self->e, TFIB_STATS_A_UPDATES),
	       (long long)fwd_ctr(&self->e, TFIB_STATS_A_DROP_TABLE_FULL));
	free(rx);
}

FWD_HARNESS_MAIN(TOPO_ID)
