/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forwarder's own state (fwd.c), shared with the replies that report
 * it (netlink-fill.c) and with nothing else: the rest of the module sees
 * a binding through internal.h only.
 */
#ifndef _TFIB_FWD_H
#define _TFIB_FWD_H

#include <linux/ptr_ring.h>
#include <linux/u64_stats_sync.h>

#include "internal.h"
#include "pick.h"

/*
 * Log2 bins (tfib_bin()): bin i holds the values of i significant bits,
 * up to 2^i - 1, and the last one the rest.
 */
#define TFIB_AGE_BINS	40	/* ns; the last from 2^38 ns, about 275 s */
#define TFIB_BURST_BINS	12

/*
 * The largest burst, TFIB_MAX_BURST, has TFIB_BURST_BINS - 1 significant
 * bits: fewer bins would lump bursts of several sizes into the last, more
 * would add bins no burst reaches.
 */
static_assert(1U << (TFIB_BURST_BINS - 2) <= TFIB_MAX_BURST &&
	      TFIB_MAX_BURST < 1U << (TFIB_BURST_BINS - 1));

/*
 * The table's counters: TFIB_STATS_A_RX..DROP_XMIT in order, DROP_BAD_MAC
 * to DROP_CONTROL_SRC in order, then the histograms.
 */
enum tfib_ctr {
	TFIB_C_RX,
	TFIB_C_RX_CONTROL,
	TFIB_C_RX_DATA,
	TFIB_C_FORWARDED,
	TFIB_C_DROP_SHORT,
	TFIB_C_DROP_VERSION,
	TFIB_C_DROP_TYPE,
	TFIB_C_DROP_NO_ENTRY,
	TFIB_C_DROP_TABLE_FULL,
	TFIB_C_DROP_XMIT,
	TFIB_C_DROP_BAD_MAC,	/* TFIB_STATS_A_DROP_BAD_MAC, after the picks */
	TFIB_C_DROP_HOP_LIMIT,
	TFIB_C_DROP_LOOP,
	TFIB_C_DROP_GROUP,
	TFIB_C_DROP_CONTROL_SRC,
	TFIB_C_STATS,
	TFIB_C_AGE = TFIB_C_STATS,
	TFIB_C_BURST = TFIB_C_AGE + TFIB_AGE_BINS,
	TFIB_C_NUM = TFIB_C_BURST + TFIB_BURST_BINS,
};

static_assert(TFIB_STATS_A_RX + TFIB_C_DROP_XMIT == TFIB_STATS_A_DROP_XMIT);
static_assert(TFIB_STATS_A_DROP_XMIT + 1 == TFIB_STATS_A_PICKS);
/* The counters after the picks, in the same order. */
#define TFIB_C_LATE	(TFIB_C_STATS - TFIB_C_DROP_BAD_MAC)
static_assert(TFIB_STATS_A_DROP_BAD_MAC + TFIB_C_LATE - 1 ==
	      TFIB_STATS_A_DROP_CONTROL_SRC);
/* the core's stale and prefetches follow; netlink.c puts them */
static_assert(TFIB_STATS_A_DROP_CONTROL_SRC + 1 == TFIB_STATS_A_STALE);
/* The binding's enum tfib_pick is the core's policy. */
static_assert(TFIB_PICK_MEMO == (int)TW_PICK_MEMO &&
	      TFIB_PICK_SCAN == (int)TW_PICK_SCAN);

#define TFIB_RINGS	(TFIB_RING_KIND_MAX + 1)

/* A binding's counters: enqueued and dropped (ring full) per ring. */
#define TFIB_B_ENQUEUED(kind)	(2 * (kind))
#define TFIB_B_DROPPED(kind)	(2 * (kind) + 1)
#define TFIB_B_NUM		(2 * TFIB_RINGS)

/* An array of counters per CPU. */
struct tfib_pcpu {
	struct u64_stats_sync syncp;
	u64_stats_t v[];
};

struct tfib_fwd_counters {
	struct tfib_pcpu __percpu *pcpu;	/* enum tfib_ctr */
	/* Pick counts of the bindings gone, under tfib_lock. */
	struct tw_pick_stats picks;
};

struct tfib_ring {
	struct ptr_ring r;
	/* Packets on the ring or being put there: bounds peak. */
	atomic_t len;
	u32 peak;
	/* Their truesize, kept under max_bytes (ring_bytes at bind time). */
	atomic_long_t bytes;
	long max_bytes;
};

/* The pick counts, in the order of TFIB_STATS_A_PICKS.. */
enum tfib_pick_ctr {
	TFIB_P_PICKS,
	TFIB_P_NONE_IDLE,
	TFIB_P_MEMO_HITS,
	TFIB_P_SCAN_STEPS,
	TFIB_P_RAN_ON_CPU,
	TFIB_P_RAN_ELSEWHERE,
	TFIB_PICK_NUM,
};

static_assert(TFIB_STATS_A_PICKS + TFIB_P_RAN_ELSEWHERE ==
	      TFIB_STATS_A_RAN_ELSEWHERE);

#define TFIB_KICK	0	/* bit of tfib_worker.flags: work to do */

struct tfib_worker {
	struct tfib_fwd *fwd;
	struct task_struct *task;
	void **batch;			/* a burst taken off the ring */
	unsigned long flags;
	u8 kind;			/* enum tfib_ring_kind it drains */
	u32 index;			/* in its kind */
	u32 cpu;			/* last ran on */
	/* Written by the thread alone, with BH disabled. */
	struct u64_stats_sync syncp;
	u64_stats_t runs;
	u64_stats_t pkts;
	u64_stats_t bursts;
};

struct tfib_fwd {
	struct tfib_table *t;
	struct net_device *dev;
	/* dev's name for replies, copied under RTNL and tfib_lock */
	char ifname[IFNAMSIZ];
	netdevice_tracker dev_tracker;
	struct packet_type pt;
	struct tfib_bind_cfg cfg;

	/* The ring mode's; unused inline. */
	struct tfib_pcpu __percpu *pcpu;	/* TFIB_B_* */
	struct tfib_ring ring[TFIB_RINGS];
	spinlock_t pick_lock;		/* pick and draining */
	struct tw_pick *pick;
	/*
	 * The pick's counts, copied under pick_lock whenever they change, so
	 * that an (unprivileged) reader of the stats never takes that lock.
	 */
	struct u64_stats_sync picks_sync;
	u64_stats_t picks[TFIB_PICK_NUM];
	/* A data worker is draining the data ring; read without the lock. */
	bool draining;
	struct tfib_worker writer;
	struct tfib_worker *workers;	/* cfg.workers of them */
};

/* Sum the @n counters of every CPU into @v. */
void tfib_pcpu_read(struct tfib_pcpu __percpu *pc, u32 n, u64 *v);

#endif /* _TFIB_FWD_H */
