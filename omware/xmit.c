// SPDX-License-Identifier: GPL-2.0
/*
 * Hand prepared frames to the device.
 *
 * OMWARE_XMIT_DIRECT calls the driver under the tx queue lock, as pktgen
 * does: nothing queues between the timer and the driver, and a train leaves
 * under one lock acquisition with xmit_more set on all but its last frame.
 * The price is that the device's qdisc (shaping, pacing, netem, etf) is
 * bypassed and a stopped queue drops the frame instead of buffering it.
 * OMWARE_XMIT_QDISC goes through dev_queue_xmit() and so obeys whatever
 * qdisc is configured, at the cost of its queueing delay.
 *
 * The send time in a report is read just before each hand-off.  Counters
 * are added once per entry, after the tx lock is released.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#include "omw.h"

/*
 * Build the sk_buff of one packet at submit time, so that sending it later
 * is only a hand-off.  The checksum, if any, is the caller's: no offload
 * is asked.
 */
struct sk_buff *omw_build_skb(struct net_device *dev, const struct omw_pkt *p)
{
	unsigned int hroom = LL_RESERVED_SPACE(dev);
	struct sk_buff *skb;
	struct ethhdr *eth;

	/* A payload's Ethernet header goes in the headroom. */
	skb = alloc_skb(hroom + p->len + dev->needed_tailroom,
			GFP_KERNEL | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, hroom);
	if (p->dst_mac) {
		skb_reset_network_header(skb);
		skb_put_data(skb, p->data, p->len);
		eth = skb_push(skb, ETH_HLEN);
		skb_reset_mac_header(skb);
		ether_addr_copy(eth->h_dest, p->dst_mac);
		ether_addr_copy(eth->h_source, dev->dev_addr);
		eth->h_proto = p->proto;
	} else {
		skb_put_data(skb, p->data, p->len);
		skb_reset_mac_header(skb);
		skb_set_network_header(skb, ETH_HLEN);
	}
	skb->dev = dev;
	skb->protocol = p->proto;
	/* Top band of the default qdiscs: do not wait behind bulk traffic. */
	skb->priority = TC_PRIO_CONTROL;
	skb->ip_summed = CHECKSUM_NONE;
	return skb;
}

/* Outcomes of the frames of one entry, counted once it is done. */
struct omw_tally {
	u32 sent;
	u32 late;
	u32 dropped;
};

static void omw_frame_sent(struct omw_session *s, struct omw_entry *e,
			   struct omw_frame *f, u64 sent_ns,
			   struct omw_tally *t)
{
	f->sent_ns = sent_ns;
	f->rc = 0;
	f->status = OMWARE_STATUS_SENT;
	t->sent++;
	if (sent_ns > e->time_ns && sent_ns - e->time_ns > s->cfg.late_ns)
		t->late++;
}

/*
 * What a refused hand-off reports as OMWARE_REPORT_A_RC: a negative errno,
 * never the driver's or qdisc's private codes.
 */
static int omw_xmit_errno(int rc)
{
	if (rc == NETDEV_TX_BUSY)
		return -EBUSY;
	return rc < 0 ? rc : -ENOBUFS;
}

/* @rc: a negative errno, as documented for OMWARE_REPORT_A_RC. */
static void omw_frame_dropped(struct omw_frame *f, u64 sent_ns, int rc,
			      struct omw_tally *t)
{
	f->sent_ns = sent_ns;
	f->rc = rc;
	f->status = OMWARE_STATUS_DROPPED;
	t->dropped++;
}

static void omw_drop_down(struct omw_session *s, struct omw_entry *e,
			  int rc)
{
	struct omw_frame *f;
	u32 i, n = 0;

	for (i = 0; i < e->nframes; i++) {
		f = &e->f[i];
		if (!f->skb)
			continue;
		kfree_skb_reason(f->skb, SKB_DROP_REASON_DEV_READY);
		f->skb = NULL;
		f->sent_ns = 0;
		f->rc = rc;
		f->status = OMWARE_STATUS_DROPPED;
		n++;
	}
	omw_stat_add(s, OMW_STAT_DROPPED_DOWN, n);
}

/*
 * The queue the stack would pick (netdev_core_pick_tx() is not exported):
 * the driver's choice first, else XPS and the flow hash, capped to the
 * queues in use as the stack does.  sender_cpu lets XPS see this CPU.
 */
static u16 omw_pick_tx(struct net_device *dev, struct sk_buff *skb)
{
	u16 qi;

	if (dev->real_num_tx_queues == 1)
		return 0;
#ifdef CONFIG_XPS
	skb->sender_cpu = raw_smp_processor_id() + 1;
#endif
	if (dev->netdev_ops->ndo_select_queue)
		qi = dev->netdev_ops->ndo_select_queue(dev, skb, NULL);
	else
		qi = netdev_pick_tx(dev, skb, NULL);
	return netdev_cap_txqueue(dev, qi);
}

static void omw_xmit_direct(struct omw_session *s, struct omw_entry *e,
			    struct omw_tally *t)
{
	struct net_device *dev = s->dev;
	struct sk_buff *skb = NULL;
	struct netdev_queue *txq;
	struct omw_frame *f;
	u32 i, last = 0;
	u64 sent_ns;
	u16 qi;
	int rc;

	for (i = 0; i < e->nframes; i++) {
		if (e->f[i].skb) {
			skb = skb ? : e->f[i].skb;
			last = i;
		}
	}
	if (!skb)
		return;

	rcu_read_lock();
	/* The whole train uses one queue. */
	qi = omw_pick_tx(dev, skb);
	txq = netdev_get_tx_queue(dev, qi);

	HARD_TX_LOCK(dev, txq, smp_processor_id());
	for (i = 0; i <= last; i++) {
		f = &e->f[i];
		skb = f->skb;
		if (!skb)
			continue;
		f->skb = NULL;
		skb_set_queue_mapping(skb, qi);

		if (unlikely(netif_xmit_frozen_or_drv_stopped(txq))) {
			kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
			omw_frame_dropped(f, 0, -EBUSY, t);
			continue;
		}
		/* Let packet sockets on the device see the frame. */
		if (dev_nit_active(dev))
			dev_queue_xmit_nit(skb, dev);

		sent_ns = omw_now(s);
		rc = netdev_start_xmit(skb, dev, txq, i != last);
		if (rc == NETDEV_TX_OK || rc == NET_XMIT_CN) {
			omw_frame_sent(s, e, f, sent_ns, t);
			continue;
		}
		if (!dev_xmit_complete(rc))
			kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		omw_frame_dropped(f, sent_ns, omw_xmit_errno(rc), t);
	}
	HARD_TX_UNLOCK(dev, txq);
	rcu_read_unlock();
}

static void omw_xmit_qdisc(struct omw_session *s, struct omw_entry *e,
			   struct omw_tally *t)
{
	struct sk_buff *skb;
	struct omw_frame *f;
	u64 sent_ns;
	u32 i;
	int rc;

	for (i = 0; i < e->nframes; i++) {
		f = &e->f[i];
		skb = f->skb;
		if (!skb)
			continue;
		f->skb = NULL;
		sent_ns = omw_now(s);
		rc = dev_queue_xmit(skb);
		if (rc == NET_XMIT_SUCCESS || rc == NET_XMIT_CN)
			omw_frame_sent(s, e, f, sent_ns, t);
		else
			omw_frame_dropped(f, sent_ns, omw_xmit_errno(rc), t);
	}
}

/* Send the live frames of @e and fill in their reports.  BH disabled. */
void omw_xmit_entry(struct omw_session *s, struct omw_entry *e)
{
	struct net_device *dev = s->dev;
	struct omw_tally t = {};

	lockdep_assert_in_softirq();

	if (unlikely(!netif_running(dev)))
		omw_drop_down(s, e, -ENETDOWN);
	else if (unlikely(!netif_carrier_ok(dev)))
		omw_drop_down(s, e, -ENOLINK);
	else if (s->cfg.xmit == OMWARE_XMIT_QDISC)
		omw_xmit_qdisc(s, e, &t);
	else
		omw_xmit_direct(s, e, &t);
	e->live = 0;
	e->bytes = 0;
	omw_stat_add(s, OMW_STAT_SENT, t.sent);
	omw_stat_add(s, OMW_STAT_LATE, t.late);
	omw_stat_add(s, OMW_STAT_DROPPED_XMIT, t.dropped);
}
