// SPDX-License-Identifier: GPL-2.0
/*
 * fwd_lifecycle.c - a binding goes away while update packets flow, ring
 * and inline: unbound and bound again, its device deleted, its namespace
 * dismantled, the module removed (and loaded again).  Each must leave no
 * WARN, leak or stuck thread behind (the suite's kernel log check), and
 * the table must stay usable where it survives.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/if_packet.h>

#include "fwd_lib.h"
#include "kselftest_harness.h"

#define TOPO_ID		42
#define USER		5
/*
 * Tearing a namespace or module down under traffic outlasts the
 * harness's 30 s default on a loaded emulated guest; a hang still fails.
 */
#define LIFE_TIMEOUT_S	120

struct flood {
	pthread_t th;
	int fd;
	uint8_t frame[2][FWD_FRAME_MAX];
	int len[2];
	volatile int stop;
	unsigned long sent;
};

/* Data and control packets for USER, until told to stop; errors ignored. */
static void *flood_run(void *arg)
{
	struct flood *fl = arg;
	int i = 0;

	while (!fl->stop) {
		if (send(fl->fd, fl->frame[i], fl->len[i], 0) == fl->len[i])
			fl->sent++;
		else
			usleep(500);
		i ^= 1;
	}
	return NULL;
}

/* Start flooding on @fd with frames built for @e's direction. */
static int flood_start(struct flood *fl, const struct fwd_env *e, int fd)
{
	uint8_t mac[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	struct fwd_hdr data = fwd_data(USER, 0);
	struct fwd_hdr control = fwd_control(USER, mac, 1, 1);

	memset(fl, 0, sizeof(*fl));
	fl->fd = fd;
	fl->len[0] = fwd_frame(fl->frame[0], e, &data, 64, 0, 0);
	fl->len[1] = fwd_frame(fl->frame[1], e, &control, 8, 0, 1);
	return pthread_create(&fl->th, NULL, flood_run, fl);
}

static unsigned long flood_stop(struct flood *fl)
{
	fl->stop = 1;
	pthread_join(fl->th, NULL);
	return fl->sent;
}

/* The binding's settings, the table and a sender, on @id's topology. */
struct life {
	struct fwd_env e;
	struct tfc_bind_cfg b;
	struct flood fl;
};

static int life_up(struct life *l, int id, int mode)
{
	struct tfc_entry ent = { .user_id = USER, .mac = { 2, 0, 0, 0, 0, 5 } };
	struct twt_ack a;
	int rc;

	l->b = tfc_bind_defaults(0);
	l->b.mode = mode;
	if (mode == TFIB_FWD_MODE_RING) {
		l->b.workers = 3;
		l->b.data_ring = 64;
		l->b.control_ring = 64;
	}
	rc = fwd_env_up(&l->e, id, TFIB_SYNC_RCU, NULL);
	if (rc)
		return rc;
	return tfc_entry_set(&l->e.nl, l->e.table, &ent, &a) ? -1 : 0;
}

/* A fixture of struct life on topology @id, ring and inline. */
#define LIFE_FIXTURE(f, id)						\
	FIXTURE(f) {							\
		struct life l;						\
	};								\
	FIXTURE_VARIANT(f) {						\
		int mode;						\
	};								\
	FIXTURE_VARIANT_ADD(f, ring) {					\
		.mode = TFIB_FWD_MODE_RING,				\
	};								\
	FIXTURE_VARIANT_ADD(f, inline) {				\
		.mode = TFIB_FWD_MODE_INLINE,				\
	};								\
	FIXTURE_SETUP(f)						\
	{								\
		int rc = life_up(&self->l, id, variant->mode);		\
									\
		if (rc == KSFT_SKIP)					\
			SKIP(return, "needs root and the tfib module");	\
		ASSERT_EQ(0, rc);					\
	}								\
	FIXTURE_TEARDOWN(f)						\
	{								\
		fwd_env_down(&self->l.e);				\
	}

/* Bindings that end while their device stays: on the shared topology. */
LIFE_FIXTURE(life, -1);
/* Bindings whose device goes: on a topology of the test's own. */
LIFE_FIXTURE(gone, TOPO_ID + 1);

static int bind_here(struct fwd_env *e, struct tfc_bind_cfg b, int ifindex)
{
	struct twt_ack a;

	b.ifindex = ifindex;
	if (tfc_bind(&e->nl, e->table, &b, &a))
		ksft_print_msg("BIND: %s %s\n", twt_errname(a.err), a.msg);
	return a.err;
}

/* Kernel threads of bindings now: their names start "tfib/". */
static int binding_threads(void)
{
	return fwd_threads("tfib/", NULL, 0);
}

/* Is the table bound?  -1 when TABLE_GET fails. */
static int bound(struct fwd_env *e)
{
	struct tfc_table t;
	struct twt_ack a;

	if (tfc_table_get(&e->nl, e->table, &t, &a))
		return -1;
	return t.has[TFIB_A_IFINDEX];
}

TEST_F_TIMEOUT(life, unbind_and_bind_under_traffic, LIFE_TIMEOUT_S)
{
	struct twt_ack a;
	int i;

	ASSERT_EQ(0, bind_here(&self->l.e, self->l.b, self->l.e.topo.ifindex));
	/* the writer and 3 workers, or none inline */
	EXPECT_EQ(variant->mode == TFIB_FWD_MODE_RING ? 4 : 0,
		  binding_threads());
	ASSERT_EQ(0, flood_start(&self->l.fl, &self->l.e, self->l.e.tx));
	for (i = 0; i < 5; i++) {
		sleep_ms(60);
		EXPECT_EQ(0, tfc_unbind(&self->l.e.nl, self->l.e.table, &a));
		sleep_ms(10);
		EXPECT_EQ(0, bind_here(&self->l.e, self->l.b,
				       self->l.e.topo.ifindex));
	}
	sleep_ms(60);
	EXPECT_EQ(0, tfc_unbind(&self->l.e.nl, self->l.e.table, &a));
	EXPECT_LT(0, flood_stop(&self->l.fl));
	EXPECT_EQ(0, bound(&self->l.e));
	/* every thread stopped */
	EXPECT_EQ(0, binding_threads());
	ASSERT_EQ(0, fwd_stats(&self->l.e));
	EXPECT_LT(0, fwd_ctr(&self->l.e, TFIB_STATS_A_FORWARDED));
	EXPECT_LT(0, fwd_ctr(&self->l.e, TFIB_STATS_A_UPDATES));
}

TEST_F_TIMEOUT(gone, device_deleted_under_traffic, LIFE_TIMEOUT_S)
{
	ASSERT_EQ(0, bind_here(&self->l.e, self->l.b, self->l.e.topo.ifindex));
	ASSERT_EQ(0, flood_start(&self->l.fl, &self->l.e, self->l.e.tx));
	sleep_ms(150);
	EXPECT_EQ(0, run("ip link del %s", self->l.e.topo.dev));
	flood_stop(&self->l.fl);
	EXPECT_EQ(0, binding_threads());
	/* unbound by the device's going, the table still there */
	EXPECT_EQ(0, bound(&self->l.e));
	ASSERT_EQ(0, fwd_stats(&self->l.e));
	EXPECT_LT(0, fwd_ctr(&self->l.e, TFIB_STATS_A_RX));
}

/* An AF_PACKET socket on the bound device's side, here. */
static int tx_here(int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_ifindex = ifindex };
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * A table of the peer's namespace, bound to the peer, flooded from here;
 * then the namespace is deleted: its devices and tables go, under traffic.
 */
TEST_F_TIMEOUT(gone, netns_dismantled_under_traffic, LIFE_TIMEOUT_S)
{
	struct tfc_table_cfg cfg = tfc_table_defaults("fwdns", 64);
	struct fwd_env there = self->l.e;
	struct twt nl;
	struct twt_ack a;
	int fd, i;

	/* frames from here to the peer */
	memcpy(there.topo.mac, self->l.e.topo.peer_mac, ETH_ALEN);
	memcpy(there.topo.peer_mac, self->l.e.topo.mac, ETH_ALEN);
	ASSERT_EQ(0, enter_ns(self->l.e.topo.ns));
	ASSERT_EQ(0, tfc_open(&nl));
	ASSERT_EQ(0, leave_ns());
	ASSERT_EQ(0, tfc_table_new(&nl, &cfg, &a));
	ASSERT_EQ(0, tfc_entry_set(&nl, "fwdns",
				   &(struct tfc_entry){ .user_id = USER,
							.mac = { 2, 0, 0, 0, 0, 5 } },
				   &a));
	self->l.b.ifindex = self->l.e.topo.peer_ifindex;
	ASSERT_EQ(0, tfc_bind(&nl, "fwdns", &self->l.b, &a));
	fd = tx_here(self->l.e.topo.ifindex);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, flood_start(&self->l.fl, &there, fd));
	sleep_ms(150);
	/* nothing of ours may pin the namespace */
	twt_close(&nl);
	close(self->l.e.tx);
	self->l.e.tx = -1;
	close(self->l.e.topo.rx);
	self->l.e.topo.rx = -1;
	EXPECT_EQ(0, run("ip netns del %s", self->l.e.topo.ns));
	/* the namespace is dismantled by a worker: its veth goes with it */
	for (i = 0; i < 500 && if_nametoindex(self->l.e.topo.dev); i++)
		sleep_ms(20);
	EXPECT_EQ(0, if_nametoindex(self->l.e.topo.dev));
	EXPECT_LT(0, flood_stop(&self->l.fl));
	close(fd);
}

TEST_F_TIMEOUT(life, module_removed_under_traffic, LIFE_TIMEOUT_S)
{
	const char *dir = getenv("TW_KO_DIR");
	char ko[512];

	snprintf(ko, sizeof(ko), "%s/kmod/tfib.ko", dir ? dir : "");
	if (!dir || access(ko, R_OK))
		SKIP(return, "no tfib.ko to load again (TW_KO_DIR)");
	ASSERT_EQ(0, bind_here(&self->l.e, self->l.b, self->l.e.topo.ifindex));
	ASSERT_EQ(0, flood_start(&self->l.fl, &self->l.e, self->l.e.tx));
	sleep_ms(150);
	EXPECT_EQ(0, run("rmmod tfib"));
	sleep_ms(50);
	EXPECT_LT(0, flood_stop(&self->l.fl));
	EXPECT_EQ(0, binding_threads());
	ASSERT_EQ(0, run("insmod %s", ko));
	/* the old family is gone: a new client for the teardown */
	twt_close(&self->l.e.nl);
	ASSERT_EQ(0, tfc_open(&self->l.e.nl));
}

FWD_HARNESS_MAIN(TOPO_ID)
