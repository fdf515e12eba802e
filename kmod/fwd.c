// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarder of a bound table (Documentation/tfib.rst, "The forwarder").
 *
 * A packet_type handler for TFIB_ETHERTYPE on the bound device classifies
 * what arrives.  In the inline mode it writes the table (control) or
 * addresses and transmits the packet (data) there and then.  In the ring
 * mode it puts control packets on the control ring, drained by one writer
 * thread, and data packets on the data ring, drained by one data worker at
 * a time out of a pool: when data arrives on CPU c and no worker drains the
 * ring, an idle one is picked for c (core/pick.c) and woken.  Threads take
 * up to a burst of packets at once and sleep when their ring is empty.
 *
 * Counters are per CPU, bumped in the receive path and by the threads with
 * BH disabled; the table's survive its bindings, a binding's rings and
 * threads have their own.
 */
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/ptr_ring.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/u64_stats_sync.h>

#include "fwd.h"

static struct tfib_pcpu __percpu *tfib_pcpu_alloc(u32 n)
{
	struct tfib_pcpu __percpu *pc;
	int cpu;

	pc = (struct tfib_pcpu __percpu *)
		__alloc_percpu_gfp(struct_size_t(struct tfib_pcpu, v, n),
				   __alignof__(struct tfib_pcpu),
				   GFP_KERNEL_ACCOUNT);
	if (!pc)
		return NULL;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(pc, cpu)->syncp);
	return pc;
}

/*
 * The irqsave variant keeps the update whole on 32-bit, whatever context
 * the receive path runs in; on 64-bit it costs nothing.
 */
static void tfib_pcpu_add(struct tfib_pcpu __percpu *pc, u32 i, u64 v)
{
	struct tfib_pcpu *p = get_cpu_ptr(pc);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&p->syncp);
	u64_stats_add(&p->v[i], v);
	u64_stats_update_end_irqrestore(&p->syncp, flags);
	put_cpu_ptr(pc);
}

void tfib_pcpu_read(struct tfib_pcpu __percpu *pc, u32 n, u64 *v)
{
	const struct tfib_pcpu *p;
	unsigned int start;
	u64 one;
	u32 i;
	int cpu;

	memset(v, 0, n * sizeof(*v));
	for_each_possible_cpu(cpu) {
		p = per_cpu_ptr(pc, cpu);
		for (i = 0; i < n; i++) {
			do {
				start = u64_stats_fetch_begin(&p->syncp);
				one = u64_stats_read(&p->v[i]);
			} while (u64_stats_fetch_retry(&p->syncp, start));
			v[i] += one;
		}
	}
}

static void tfib_count(struct tfib_table *t, enum tfib_ctr i)
{
	tfib_pcpu_add(t->counters->pcpu, i, 1);
}

/* The log2 bin of @v among @bins. */
static u32 tfib_bin(u64 v, u32 bins)
{
	return min_t(u32, fls64(v), bins - 1);
}

/* Lookup time minus the tuple's timestamp: a clock set back gives bin 0. */
static void tfib_count_age(struct tfib_table *t, u64 now, u64 ts_ns)
{
	s64 age = (s64)(now - ts_ns);

	tfib_pcpu_add(t->counters->pcpu, TFIB_C_AGE +
		      (age > 0 ? tfib_bin(age, TFIB_AGE_BINS) : 0), 1);
}

static struct tfib_hdr *tfib_hdr_of(const struct sk_buff *skb)
{
	return (struct tfib_hdr *)skb->data;
}

/* A location update: the tuple of its user, inserted if new. */
static void tfib_control(struct tfib_fwd *fwd, struct sk_buff *skb)
{
	const struct tfib_hdr *h = tfib_hdr_of(skb);
	struct tw_tfib *fib = fwd->t->fib;
	u32 id = get_unaligned_be32(&h->user_id);
	struct tw_tfib_tuple tu = {
		.ts_ns = get_unaligned_be64(&h->addr_ns),
		.seq = get_unaligned_be32(&h->seq),
	};
	int err;

	memcpy(tu.mac, h->mac, ETH_ALEN);
	/* never back in time: an older update after a newer one is stale */
	err = tw_tfib_set(fib, id, &tu, 0);
	if (err == -ESTALE) {
		/* counted by the table */
		consume_skb(skb);
		return;
	}
	if (err) {
		/* -ENOSPC, or an rcu table out of spare tuples (-EBUSY) */
		tfib_count(fwd->t, TFIB_C_DROP_TABLE_FULL);
		kfree_skb(skb);
		return;
	}
	consume_skb(skb);
}

/* Write the tuple into the packet and send it back out of the device. */
static void tfib_address(struct tfib_fwd *fwd, struct sk_buff *skb,
			 const struct tw_tfib_tuple *tu)
{
	struct tfib_hdr *h;
	struct ethhdr *eth;
	int rc;

	/* the header is rewritten in place: it must be Ethernet's alone */
	if (skb->data - skb_mac_header(skb) != ETH_HLEN)
		goto drop;
	skb_push(skb, ETH_HLEN);
	if (skb_ensure_writable(skb, ETH_HLEN + sizeof(*h)))
		goto drop;
	eth = (struct ethhdr *)skb->data;
	h = (struct tfib_hdr *)(eth + 1);
	put_unaligned_be64(tu->ts_ns, &h->addr_ns);
	put_unaligned_be32(tu->seq, &h->addr_seq);
	h->hop_limit--;
	ether_addr_copy(eth->h_dest, tu->mac);
	ether_addr_copy(eth->h_source, fwd->dev->dev_addr);
	/* a receive checksum no longer covers what was rewritten */
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	/*
	 * Neither a receive timestamp nor a sender's delivery time (which
	 * skb_clear_tstamp() keeps) is a transmit time for fq or etf.
	 */
	skb_set_delivery_time(skb, 0, SKB_CLOCK_REALTIME);
	skb->dev = fwd->dev;
	rc = dev_queue_xmit(skb);
	tfib_count(fwd->t, net_xmit_eval(rc) ? TFIB_C_DROP_XMIT :
					       TFIB_C_FORWARDED);
	return;

drop:
	tfib_count(fwd->t, TFIB_C_DROP_XMIT);
	kfree_skb(skb);
}

/* An app update: look its user up, address it and send it. */
static void tfib_data(struct tfib_fwd *fwd, struct sk_buff *skb)
{
	struct tfib_table *t = fwd->t;
	struct tw_tfib_tuple tu;
	u32 id = get_unaligned_be32(&tfib_hdr_of(skb)->user_id);

	if (tw_tfib_lookup(t->fib, id, &tu)) {
		tfib_count(t, TFIB_C_DROP_NO_ENTRY);
		kfree_skb(skb);
		return;
	}
	/* back to where it came from, or to this device: a loop */
	if (ether_addr_equal(tu.mac, eth_hdr(skb)->h_source) ||
	    ether_addr_equal(tu.mac, fwd->dev->dev_addr)) {
		tfib_count(t, TFIB_C_DROP_LOOP);
		kfree_skb(skb);
		return;
	}
	tfib_count_age(t, tfib_table_now(t), tu.ts_ns);
	tfib_address(fwd, skb, &tu);
}

static void tfib_process(struct tfib_fwd *fwd, u8 kind, struct sk_buff *skb)
{
	if (kind == TFIB_RING_KIND_CONTROL)
		tfib_control(fwd, skb);
	else
		tfib_data(fwd, skb);
}

/* Is the sender of control packet @skb one the binding accepts? */
static bool tfib_control_src_ok(const struct tfib_fwd *fwd,
				const struct sk_buff *skb)
{
	const u8 *src = eth_hdr(skb)->h_source;
	u32 i;

	if (!fwd->cfg.n_control_src)
		return true;
	for (i = 0; i < fwd->cfg.n_control_src; i++)
		if (ether_addr_equal(src, fwd->cfg.control_src[i]))
			return true;
	return false;
}

/* The drop counter of a control packet, or TFIB_C_RX_CONTROL. */
static enum tfib_ctr tfib_check_control(const struct tfib_fwd *fwd,
					const struct sk_buff *skb,
					const struct tfib_hdr *h)
{
	/* first: an unlisted sender moves no counter of content errors */
	if (!tfib_control_src_ok(fwd, skb))
		return TFIB_C_DROP_CONTROL_SRC;
	/* a group next hop would send the user's data everywhere */
	if (!is_valid_ether_addr(h->mac))
		return TFIB_C_DROP_BAD_MAC;
	return TFIB_C_RX_CONTROL;
}

/* The drop counter of a data packet, or TFIB_C_RX_DATA. */
static enum tfib_ctr tfib_check_data(const struct sk_buff *skb,
				     const struct tfib_hdr *h)
{
	/* broadcast or multicast: every forwarder on the link would send it */
	if (skb->pkt_type != PACKET_HOST)
		return TFIB_C_DROP_GROUP;
	if (h->hop_limit <= 1)
		return TFIB_C_DROP_HOP_LIMIT;
	return TFIB_C_RX_DATA;
}

/* The ring of an update packet's type, or -1 after a drop counter. */
static int tfib_classify(struct tfib_fwd *fwd, struct sk_buff *skb)
{
	struct tfib_table *t = fwd->t;
	const struct tfib_hdr *h;
	enum tfib_ctr c;

	if (!pskb_may_pull(skb, sizeof(*h))) {
		tfib_count(t, TFIB_C_DROP_SHORT);
		return -1;
	}
	h = tfib_hdr_of(skb);
	if (h->version != TFIB_HDR_VERSION) {
		tfib_count(t, TFIB_C_DROP_VERSION);
		return -1;
	}
	switch (h->type) {
	case TFIB_PKT_TYPE_CONTROL:
		c = tfib_check_control(fwd, skb, h);
		tfib_count(t, c);
		return c == TFIB_C_RX_CONTROL ? TFIB_RING_KIND_CONTROL : -1;
	case TFIB_PKT_TYPE_DATA:
		c = tfib_check_data(skb, h);
		tfib_count(t, c);
		return c == TFIB_C_RX_DATA ? TFIB_RING_KIND_DATA : -1;
	}
	tfib_count(t, TFIB_C_DROP_TYPE);
	return -1;
}

static void tfib_wake(struct tfib_worker *w)
{
	set_bit(TFIB_KICK, &w->flags);
	wake_up_process(w->task);
}

/* Under pick_lock, which serialises the writers: publish the pick counts. */
static void tfib_picks_publish(struct tfib_fwd *fwd)
{
	struct tw_pick_stats st;

	tw_pick_get_stats(fwd->pick, &st);
	u64_stats_update_begin(&fwd->picks_sync);
	u64_stats_set(&fwd->picks[TFIB_P_PICKS], st.picks);
	u64_stats_set(&fwd->picks[TFIB_P_NONE_IDLE], st.none_idle);
	u64_stats_set(&fwd->picks[TFIB_P_MEMO_HITS], st.memo_hits);
	u64_stats_set(&fwd->picks[TFIB_P_SCAN_STEPS], st.scan_steps);
	u64_stats_set(&fwd->picks[TFIB_P_RAN_ON_CPU], st.ran_on_cpu);
	u64_stats_set(&fwd->picks[TFIB_P_RAN_ELSEWHERE], st.ran_elsewhere);
	u64_stats_update_end(&fwd->picks_sync);
}

/*
 * The data ring has work from this CPU: unless a worker drains it, pick an
 * idle one for this CPU and wake it.
 */
static void tfib_kick_data(struct tfib_fwd *fwd)
{
	int w;

	/* the packet on the ring before draining is read: see tfib_idle() */
	smp_mb();
	if (READ_ONCE(fwd->draining))
		return;
	spin_lock(&fwd->pick_lock);
	if (!fwd->draining) {
		w = tw_pick_get(fwd->pick, fwd->cfg.pick, smp_processor_id());
		tfib_picks_publish(fwd);
		if (w >= 0) {
			WRITE_ONCE(fwd->draining, true);
			tfib_wake(&fwd->workers[w]);
		}
	}
	spin_unlock(&fwd->pick_lock);
}

static void tfib_kick_writer(struct tfib_fwd *fwd)
{
	/* running or woken already: it looks at the ring again */
	if (!test_and_set_bit(TFIB_KICK, &fwd->writer.flags))
		wake_up_process(fwd->writer.task);
}

/*
 * Put @skb on @ring if the ring has room, in places and in bytes: remote
 * traffic may fill the rings, not pin more memory than the budget.
 */
static bool tfib_ring_put(struct tfib_ring *ring, struct sk_buff *skb)
{
	long size = skb->truesize;

	if (atomic_long_add_return(size, &ring->bytes) > ring->max_bytes)
		goto undo;
	if (!ptr_ring_produce(&ring->r, skb))
		return true;
undo:
	atomic_long_sub(size, &ring->bytes);
	return false;
}

/* NET_RX_DROP when the ring is full. */
static int tfib_enqueue(struct tfib_fwd *fwd, u8 kind, struct sk_buff *skb)
{
	struct tfib_ring *ring = &fwd->ring[kind];
	int len = atomic_inc_return(&ring->len);

	if (!tfib_ring_put(ring, skb)) {
		atomic_dec(&ring->len);
		tfib_pcpu_add(fwd->pcpu, TFIB_B_DROPPED(kind), 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_FULL_RING);
		return NET_RX_DROP;
	}
	tfib_pcpu_add(fwd->pcpu, TFIB_B_ENQUEUED(kind), 1);
	/* a statistic: two CPUs racing here may lose one's peak */
	if (len > READ_ONCE(ring->peak))
		WRITE_ONCE(ring->peak, min_t(u32, len, ring->r.size));
	if (kind == TFIB_RING_KIND_CONTROL)
		tfib_kick_writer(fwd);
	else
		tfib_kick_data(fwd);
	return NET_RX_SUCCESS;
}

/*
 * In the receive path, under RCU: fwd lives until dev_remove_pack().
 *
 * The handler sits on the bound device's own list, which the core also
 * delivers to when a frame that arrived on it has been handed to an upper
 * device (a VLAN, macvlan, ipvlan, bond or team on top): @dev is then the
 * upper.  Such a frame is that device's, of another VLAN or namespace
 * maybe, and is never the binding's.
 */
static int tfib_rcv(struct sk_buff *skb, struct net_device *dev,
		    struct packet_type *pt, struct net_device *orig_dev)
{
	struct tfib_fwd *fwd = container_of(pt, struct tfib_fwd, pt);
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	int kind;

	/* not a drop: the upper device's own handlers may take it */
	if (dev != fwd->dev) {
		consume_skb(skb);
		return NET_RX_SUCCESS;
	}
	/* a frame for another host, seen in promiscuous mode */
	if (skb->pkt_type == PACKET_OTHERHOST) {
		reason = SKB_DROP_REASON_OTHERHOST;
		goto drop;
	}
	/* other handlers (taps) may hold it too: rewritten, it must be ours */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	tfib_count(fwd->t, TFIB_C_RX);
	kind = tfib_classify(fwd, skb);
	if (kind < 0)
		goto drop;
	if (fwd->cfg.mode == TFIB_FWD_MODE_RING)
		return tfib_enqueue(fwd, kind, skb);
	tfib_process(fwd, kind, skb);
	return NET_RX_SUCCESS;

drop:
	kfree_skb_reason(skb, reason);
	return NET_RX_DROP;
}

/* Sleep until kicked; false when the thread is to stop. */
static bool tfib_worker_wait(struct tfib_worker *w)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		if (test_and_clear_bit(TFIB_KICK, &w->flags)) {
			__set_current_state(TASK_RUNNING);
			return true;
		}
		schedule();
	}
}

/*
 * Packets processed with BH disabled at a time: the receive path's context
 * (counters, fib locks, transmit), held for a few lookups, not a burst.
 */
#define TFIB_BH_BATCH	16

/* Take a burst off the worker's ring and process it; its size. */
static int tfib_burst(struct tfib_worker *w)
{
	struct tfib_fwd *fwd = w->fwd;
	struct tfib_ring *ring = &fwd->ring[w->kind];
	long bytes = 0;
	int i, n;

	local_bh_disable();
	n = ptr_ring_consume_batched(&ring->r, w->batch, fwd->cfg.burst);
	if (n <= 0) {
		local_bh_enable();
		return 0;
	}
	atomic_sub(n, &ring->len);
	for (i = 0; i < n; i++)
		bytes += ((struct sk_buff *)w->batch[i])->truesize;
	atomic_long_sub(bytes, &ring->bytes);
	tfib_pcpu_add(fwd->t->counters->pcpu, TFIB_C_BURST +
		      tfib_bin(n, TFIB_BURST_BINS), 1);
	u64_stats_update_begin(&w->syncp);
	u64_stats_inc(&w->bursts);
	u64_stats_add(&w->pkts, n);
	u64_stats_update_end(&w->syncp);
	for (i = 0; i < n; i++) {
		if (i && !(i % TFIB_BH_BATCH)) {
			local_bh_enable();
			/* no lock held: let softirqs and other tasks run */
			cond_resched();
			local_bh_disable();
		}
		/* the next one's bucket comes in while this one runs */
		if (i + 1 < n)
			tw_tfib_prefetch(fwd->t->fib, get_unaligned_be32(
				&tfib_hdr_of(w->batch[i + 1])->user_id));
		tfib_process(fwd, w->kind, w->batch[i]);
	}
	local_bh_enable();
	return n;
}

/* Burst after burst until the ring is empty or the thread is to stop. */
static void tfib_drain(struct tfib_worker *w)
{
	while (!kthread_should_stop() && tfib_burst(w) > 0)
		cond_resched();
}

/* Count a run of @w that starts on @cpu. */
static void tfib_worker_ran(struct tfib_worker *w, u32 cpu)
{
	WRITE_ONCE(w->cpu, cpu);
	local_bh_disable();
	u64_stats_update_begin(&w->syncp);
	u64_stats_inc(&w->runs);
	u64_stats_update_end(&w->syncp);
	local_bh_enable();
}

static int tfib_writer_fn(void *arg)
{
	struct tfib_worker *w = arg;

	while (tfib_worker_wait(w)) {
		tfib_worker_ran(w, raw_smp_processor_id());
		tfib_drain(w);
	}
	return 0;
}

/*
 * The data ring looks empty: go idle, unless a packet came meanwhile.
 * Pairs with tfib_kick_data(): either the receive path sees draining
 * false and picks a worker, or this sees its packet.
 */
static bool tfib_idle(struct tfib_worker *w)
{
	struct tfib_fwd *fwd = w->fwd;
	bool idle;

	spin_lock_bh(&fwd->pick_lock);
	WRITE_ONCE(fwd->draining, false);
	/* draining false before the ring is read: see tfib_kick_data() */
	smp_mb();
	/*
	 * Without the consumer lock, which must not nest in pick_lock (taken
	 * in softirq): this worker is the ring's only consumer, and the ring
	 * is never resized.
	 */
	idle = __ptr_ring_empty(&fwd->ring[TFIB_RING_KIND_DATA].r);
	if (idle)
		tw_pick_put(fwd->pick, w->index, smp_processor_id());
	else
		WRITE_ONCE(fwd->draining, true);
	spin_unlock_bh(&fwd->pick_lock);
	return idle;
}

static int tfib_data_fn(void *arg)
{
	struct tfib_worker *w = arg;
	struct tfib_fwd *fwd = w->fwd;
	u32 cpu;

	while (tfib_worker_wait(w)) {
		spin_lock_bh(&fwd->pick_lock);
		cpu = smp_processor_id();
		tw_pick_ran(fwd->pick, w->index, cpu);
		tfib_picks_publish(fwd);
		spin_unlock_bh(&fwd->pick_lock);
		tfib_worker_ran(w, cpu);
		do {
			tfib_drain(w);
		} while (!kthread_should_stop() && !tfib_idle(w));
	}
	return 0;
}

static void tfib_worker_stop(struct tfib_worker *w)
{
	if (w->task)
		kthread_stop(w->task);
	w->task = NULL;
	kvfree(w->batch);
	w->batch = NULL;
}

static int tfib_worker_start(struct tfib_fwd *fwd, struct tfib_worker *w,
			     u8 kind, u32 index, int ifindex)
{
	struct task_struct *task;

	w->fwd = fwd;
	w->kind = kind;
	w->index = index;
	u64_stats_init(&w->syncp);
	w->batch = kvmalloc_array(fwd->cfg.burst, sizeof(*w->batch),
				  GFP_KERNEL_ACCOUNT);
	if (!w->batch)
		return -ENOMEM;
	if (kind == TFIB_RING_KIND_CONTROL)
		task = kthread_create(tfib_writer_fn, w, "tfib/%d:w", ifindex);
	else
		task = kthread_create(tfib_data_fn, w, "tfib/%d:%u", ifindex,
				      index);
	if (IS_ERR(task))
		return PTR_ERR(task);
	w->task = task;
	/* into its wait: it sleeps until kicked */
	wake_up_process(task);
	return 0;
}

static void tfib_skb_free(void *ptr)
{
	kfree_skb(ptr);
}

/* Fold the binding's pick counts into the table's, which outlive it. */
static void tfib_fwd_keep_picks(struct tfib_fwd *fwd)
{
	struct tfib_fwd_counters *c = fwd->t->counters;
	struct tw_pick_stats st;

	if (!fwd->pick)
		return;
	tw_pick_get_stats(fwd->pick, &st);
	c->picks.picks += st.picks;
	c->picks.none_idle += st.none_idle;
	c->picks.memo_hits += st.memo_hits;
	c->picks.scan_steps += st.scan_steps;
	c->picks.ran_on_cpu += st.ran_on_cpu;
	c->picks.ran_elsewhere += st.ran_elsewhere;
}

/*
 * After the handler is gone (or before it was added): threads first, then
 * what is left on the rings.
 */
void tfib_fwd_destroy(struct tfib_fwd *fwd)
{
	u32 i;

	if (fwd->workers)
		for (i = 0; i < fwd->cfg.workers; i++)
			tfib_worker_stop(&fwd->workers[i]);
	tfib_worker_stop(&fwd->writer);
	kvfree(fwd->workers);
	for (i = 0; i < TFIB_RINGS; i++)
		if (fwd->ring[i].r.queue)
			ptr_ring_cleanup(&fwd->ring[i].r, tfib_skb_free);
	/* a binding that was attached keeps its pick counts in the table */
	if (fwd->t)
		tfib_fwd_keep_picks(fwd);
	tw_pick_destroy(fwd->pick);
	free_percpu(fwd->pcpu);
	netdev_put(fwd->dev, &fwd->dev_tracker);
	kfree(fwd);
}

static int tfib_rings_start(struct tfib_fwd *fwd, int ifindex)
{
	const struct tfib_bind_cfg *cfg = &fwd->cfg;
	int err;
	u32 i;

	for (i = 0; i < TFIB_RINGS; i++)
		fwd->ring[i].max_bytes = min_t(unsigned long, LONG_MAX,
					       READ_ONCE(tfib_ring_bytes));
	fwd->pcpu = tfib_pcpu_alloc(TFIB_B_NUM);
	if (!fwd->pcpu ||
	    ptr_ring_init(&fwd->ring[TFIB_RING_KIND_CONTROL].r,
			  cfg->control_ring, GFP_KERNEL_ACCOUNT) ||
	    ptr_ring_init(&fwd->ring[TFIB_RING_KIND_DATA].r, cfg->data_ring,
			  GFP_KERNEL_ACCOUNT))
		return -ENOMEM;
	err = tw_pick_create(&fwd->pick, cfg->workers, nr_cpu_ids);
	if (err)
		return err;
	fwd->workers = kvcalloc(cfg->workers, sizeof(*fwd->workers),
				GFP_KERNEL_ACCOUNT);
	if (!fwd->workers)
		return -ENOMEM;
	err = tfib_worker_start(fwd, &fwd->writer, TFIB_RING_KIND_CONTROL, 0,
				ifindex);
	for (i = 0; !err && i < cfg->workers; i++)
		err = tfib_worker_start(fwd, &fwd->workers[i],
					TFIB_RING_KIND_DATA, i, ifindex);
	return err;
}

struct tfib_fwd *tfib_fwd_create(const struct tfib_bind_cfg *cfg, int ifindex,
				 struct netlink_ext_ack *extack)
{
	struct tfib_fwd *fwd;
	int err;

	fwd = kzalloc(sizeof(*fwd), GFP_KERNEL_ACCOUNT);
	if (!fwd)
		return ERR_PTR(-ENOMEM);
	fwd->cfg = *cfg;
	spin_lock_init(&fwd->pick_lock);
	u64_stats_init(&fwd->picks_sync);
	if (cfg->mode == TFIB_FWD_MODE_RING) {
		err = tfib_rings_start(fwd, ifindex);
		if (err) {
			NL_SET_ERR_MSG_MOD(extack,
					   "cannot start the rings and threads");
			tfib_fwd_destroy(fwd);
			return ERR_PTR(err);
		}
	}
	return fwd;
}

void tfib_fwd_attach(struct tfib_table *t, struct tfib_fwd *fwd,
		     struct net_device *dev)
{
	ASSERT_RTNL();
	lockdep_assert_held(&tfib_lock);
	fwd->t = t;
	fwd->dev = dev;
	netdev_hold(dev, &fwd->dev_tracker, GFP_KERNEL);
	strscpy(fwd->ifname, dev->name);
	fwd->pt.type = htons(TFIB_ETHERTYPE);
	fwd->pt.dev = dev;
	fwd->pt.func = tfib_rcv;
	t->fwd = fwd;
	/* last: packets come as soon as it is in */
	dev_add_pack(&fwd->pt);
}

void tfib_fwd_unbind(struct tfib_table *t)
{
	struct tfib_fwd *fwd = t->fwd;

	lockdep_assert_held(&tfib_lock);
	if (!fwd)
		return;
	/* waits for the handlers in flight (synchronize_net) */
	dev_remove_pack(&fwd->pt);
	t->fwd = NULL;
	tfib_fwd_destroy(fwd);
}

void tfib_fwd_renamed(struct tfib_table *t)
{
	ASSERT_RTNL();
	lockdep_assert_held(&tfib_lock);
	if (t->fwd)
		strscpy(t->fwd->ifname, t->fwd->dev->name);
}

struct net_device *tfib_fwd_dev(const struct tfib_table *t)
{
	return t->fwd ? t->fwd->dev : NULL;
}

int tfib_fwd_table_init(struct tfib_table *t)
{
	struct tfib_fwd_counters *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->pcpu = tfib_pcpu_alloc(TFIB_C_NUM);
	if (!c->pcpu) {
		kfree(c);
		return -ENOMEM;
	}
	t->counters = c;
	return 0;
}

void tfib_fwd_table_fini(struct tfib_table *t)
{
	struct tfib_fwd_counters *c = t->counters;

	WARN_ON_ONCE(t->fwd);
	if (!c)
		return;
	free_percpu(c->pcpu);
	kfree(c);
	t->counters = NULL;
}
