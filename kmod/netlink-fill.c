// SPDX-License-Identifier: GPL-2.0
/*
 * The replies' view of a binding (internal.h, "Replies"): its settings,
 * the forwarder's counters and histograms, its rings and threads, read
 * from the forwarder's state (fwd.h) under tfib_lock.
 */
#include "fwd.h"

static u64 tfib_bin_upper(u32 i, u32 bins)
{
	return i + 1 == bins ? U64_MAX : (1ULL << i) - 1;
}

static int tfib_put_u64(struct sk_buff *msg, int type, u64 v)
{
	/* every nest of the family has its PAD at 1 */
	return nla_put_u64_64bit(msg, type, v, TFIB_A_PAD);
}

int tfib_fwd_fill_binding(struct sk_buff *msg, const struct tfib_table *t)
{
	const struct tfib_fwd *fwd = t->fwd;
	const struct tfib_bind_cfg *cfg;
	u32 i;

	if (!fwd)
		return 0;
	cfg = &fwd->cfg;
	if (nla_put_u32(msg, TFIB_A_IFINDEX, fwd->dev->ifindex) ||
	    nla_put_string(msg, TFIB_A_IFNAME, fwd->ifname) ||
	    nla_put_u8(msg, TFIB_A_FWD_MODE, cfg->mode))
		return -EMSGSIZE;
	for (i = 0; i < cfg->n_control_src; i++)
		if (nla_put(msg, TFIB_A_CONTROL_SRC, ETH_ALEN,
			    cfg->control_src[i]))
			return -EMSGSIZE;
	if (cfg->mode != TFIB_FWD_MODE_RING)
		return 0;
	if (nla_put_u8(msg, TFIB_A_PICK, cfg->pick) ||
	    nla_put_u32(msg, TFIB_A_WORKERS, cfg->workers) ||
	    nla_put_u32(msg, TFIB_A_CONTROL_RING, cfg->control_ring) ||
	    nla_put_u32(msg, TFIB_A_DATA_RING, cfg->data_ring) ||
	    nla_put_u32(msg, TFIB_A_BURST, cfg->burst))
		return -EMSGSIZE;
	return 0;
}

/* The pick counts of the bindings gone and of the current one. */
static void tfib_pick_stats(const struct tfib_table *t, u64 *v)
{
	const struct tw_pick_stats *gone = &t->counters->picks;
	const struct tfib_fwd *fwd = t->fwd;
	unsigned int start;
	u32 i;

	memset(v, 0, TFIB_PICK_NUM * sizeof(*v));
	if (fwd && fwd->pick) {
		do {
			start = u64_stats_fetch_begin(&fwd->picks_sync);
			for (i = 0; i < TFIB_PICK_NUM; i++)
				v[i] = u64_stats_read(&fwd->picks[i]);
		} while (u64_stats_fetch_retry(&fwd->picks_sync, start));
	}
	v[TFIB_P_PICKS] += gone->picks;
	v[TFIB_P_NONE_IDLE] += gone->none_idle;
	v[TFIB_P_MEMO_HITS] += gone->memo_hits;
	v[TFIB_P_SCAN_STEPS] += gone->scan_steps;
	v[TFIB_P_RAN_ON_CPU] += gone->ran_on_cpu;
	v[TFIB_P_RAN_ELSEWHERE] += gone->ran_elsewhere;
}

int tfib_fwd_fill_counters(struct sk_buff *msg, const struct tfib_table *t)
{
	u64 v[TFIB_C_STATS], picks[TFIB_PICK_NUM];
	u32 i;

	tfib_pcpu_read(t->counters->pcpu, TFIB_C_STATS, v);
	for (i = 0; i <= TFIB_C_DROP_XMIT; i++)
		if (tfib_put_u64(msg, TFIB_STATS_A_RX + i, v[i]))
			return -EMSGSIZE;
	tfib_pick_stats(t, picks);
	for (i = 0; i < TFIB_PICK_NUM; i++)
		if (tfib_put_u64(msg, TFIB_STATS_A_PICKS + i, picks[i]))
			return -EMSGSIZE;
	for (i = 0; i < TFIB_C_LATE; i++)
		if (tfib_put_u64(msg, TFIB_STATS_A_DROP_BAD_MAC + i,
				 v[TFIB_C_DROP_BAD_MAC + i]))
			return -EMSGSIZE;
	return 0;
}

static int tfib_fill_hist(struct sk_buff *msg, int type, const u64 *count,
			  u32 bins)
{
	struct nlattr *nest;
	u32 i;

	for (i = 0; i < bins; i++) {
		nest = nla_nest_start(msg, type);
		if (!nest)
			return -EMSGSIZE;
		if (tfib_put_u64(msg, TFIB_BIN_A_UPPER,
				 tfib_bin_upper(i, bins)) ||
		    tfib_put_u64(msg, TFIB_BIN_A_COUNT, count[i])) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int tfib_fill_ring(struct sk_buff *msg, const struct tfib_fwd *fwd,
			  u8 kind, const u64 *v)
{
	const struct tfib_ring *ring = &fwd->ring[kind];
	struct nlattr *nest;

	nest = nla_nest_start(msg, TFIB_A_RING);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(msg, TFIB_RING_A_KIND, kind) ||
	    nla_put_u32(msg, TFIB_RING_A_SIZE, ring->r.size) ||
	    tfib_put_u64(msg, TFIB_RING_A_ENQUEUED, v[TFIB_B_ENQUEUED(kind)]) ||
	    tfib_put_u64(msg, TFIB_RING_A_DROPPED, v[TFIB_B_DROPPED(kind)]) ||
	    nla_put_u32(msg, TFIB_RING_A_PEAK, READ_ONCE(ring->peak))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int tfib_fill_worker(struct sk_buff *msg, struct tfib_worker *w)
{
	u64 runs, pkts, bursts;
	struct nlattr *nest;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&w->syncp);
		runs = u64_stats_read(&w->runs);
		pkts = u64_stats_read(&w->pkts);
		bursts = u64_stats_read(&w->bursts);
	} while (u64_stats_fetch_retry(&w->syncp, start));
	nest = nla_nest_start(msg, TFIB_A_WORKER);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, TFIB_WORKER_A_INDEX, w->index) ||
	    nla_put_u8(msg, TFIB_WORKER_A_KIND, w->kind) ||
	    /* where it last ran: nowhere yet, no attribute */
	    (runs && nla_put_u32(msg, TFIB_WORKER_A_CPU, READ_ONCE(w->cpu))) ||
	    tfib_put_u64(msg, TFIB_WORKER_A_RUNS, runs) ||
	    tfib_put_u64(msg, TFIB_WORKER_A_PKTS, pkts) ||
	    tfib_put_u64(msg, TFIB_WORKER_A_BURSTS, bursts)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * The rings, the threads (with @workers) and the burst histogram of a
 * ring binding.
 */
static int tfib_fill_rings(struct sk_buff *msg, struct tfib_fwd *fwd,
			   const u64 *burst, bool workers)
{
	u64 v[TFIB_B_NUM];
	u32 i;

	tfib_pcpu_read(fwd->pcpu, TFIB_B_NUM, v);
	for (i = 0; i < TFIB_RINGS; i++)
		if (tfib_fill_ring(msg, fwd, i, v))
			return -EMSGSIZE;
	if (workers && tfib_fill_worker(msg, &fwd->writer))
		return -EMSGSIZE;
	for (i = 0; workers && i < fwd->cfg.workers; i++)
		if (tfib_fill_worker(msg, &fwd->workers[i]))
			return -EMSGSIZE;
	return tfib_fill_hist(msg, TFIB_A_BURST_HIST, burst, TFIB_BURST_BINS);
}

int tfib_fwd_fill_detail(struct sk_buff *msg, const struct tfib_table *t,
			 bool workers)
{
	u64 v[TFIB_C_NUM];
	int err;

	if (!t->fwd)
		return 0;
	tfib_pcpu_read(t->counters->pcpu, TFIB_C_NUM, v);
	err = tfib_fill_hist(msg, TFIB_A_AGE_HIST, v + TFIB_C_AGE,
			     TFIB_AGE_BINS);
	if (err || t->fwd->cfg.mode != TFIB_FWD_MODE_RING)
		return err;
	return tfib_fill_rings(msg, t->fwd, v + TFIB_C_BURST, workers);
}

/* Sizes of what the fill functions above put. */
#define TFIB_U64_SIZE	nla_total_size_64bit(sizeof(u64))
#define TFIB_BIN_SIZE	(nla_total_size(0) + 2 * TFIB_U64_SIZE)
#define TFIB_RING_SIZE	(nla_total_size(0) + nla_total_size(sizeof(u8)) + \
			 2 * nla_total_size(sizeof(u32)) + 2 * TFIB_U64_SIZE)
#define TFIB_WORKER_SIZE (nla_total_size(0) + nla_total_size(sizeof(u8)) + \
			  2 * nla_total_size(sizeof(u32)) + 3 * TFIB_U64_SIZE)

size_t tfib_fwd_counters_size(void)
{
	return (TFIB_STATS_A_DROP_CONTROL_SRC - TFIB_STATS_A_RX + 1) *
	       TFIB_U64_SIZE;
}

size_t tfib_fwd_detail_size(const struct tfib_table *t, bool workers)
{
	const struct tfib_fwd *fwd = t->fwd;
	size_t size;

	if (!fwd)
		return 0;
	size = TFIB_AGE_BINS * TFIB_BIN_SIZE;
	if (fwd->cfg.mode != TFIB_FWD_MODE_RING)
		return size;
	size += TFIB_RINGS * TFIB_RING_SIZE + TFIB_BURST_BINS * TFIB_BIN_SIZE;
	if (workers)
		size += (fwd->cfg.workers + 1) * TFIB_WORKER_SIZE;
	return size;
}
