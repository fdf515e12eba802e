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
 * The send time in a report is read just before each hand-off.
 */
#include <linux/netdevice.h>
#include <linux/rcupdate.h>

#include "omw.h"

static void omw_frame_result(struct omw_session *s, struct omw_entry *e,
			     struct omw_frame *f, u64 sent_ns, int rc,
			     bool sent)
{
	f->sent_ns = sent_ns;
	f->rc = rc;
	if (!sent) {
		f->status = OMWARE_STATUS_DROPPED;
		omw_stat_add(s, OMW_STAT_DROPPED_XMIT, 1);
		return;
	}
	f->status = OMWARE_STATUS_SENT;
	omw_stat_add(s, OMW_STAT_SENT, 1);
	if (sent_ns > e->time_ns && sent_ns - e->time_ns > s->cfg.late_ns)
		omw_stat_add(s, OMW_STAT_LATE, 1);
}

static void omw_drop_down(struct omw_session *s, struct omw_entry *e,
			  int rc)
{
	struct omw_frame *f;
	u32 i;

	for (i = 0; i < e->nframes; i++) {
		f = &e->f[i];
		if (!f->skb)
			continue;
		kfree_skb(f->skb);
		f->skb = NULL;
		f->sent_ns = 0;
		f->rc = rc;
		f->status = OMWARE_STATUS_DROPPED;
		omw_stat_add(s, OMW_STAT_DROPPED_DOWN, 1);
	}
}

static void omw_xmit_direct(struct omw_session *s, struct omw_entry *e)
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
	/*
	 * The whole train uses one queue, chosen as the stack would:
	 * netdev_core_pick_tx() is not exported, so ask the driver first.
	 */
	if (dev->real_num_tx_queues == 1)
		qi = 0;
	else if (dev->netdev_ops->ndo_select_queue)
		qi = dev->netdev_ops->ndo_select_queue(dev, skb, NULL);
	else
		qi = netdev_pick_tx(dev, skb, NULL);
	txq = netdev_get_tx_queue(dev, netdev_cap_txqueue(dev, qi));

	HARD_TX_LOCK(dev, txq, smp_processor_id());
	for (i = 0; i <= last; i++) {
		f = &e->f[i];
		skb = f->skb;
		if (!skb)
			continue;
		f->skb = NULL;
		skb_set_queue_mapping(skb, qi);

		if (unlikely(netif_xmit_frozen_or_drv_stopped(txq))) {
			kfree_skb(skb);
			omw_frame_result(s, e, f, 0, NETDEV_TX_BUSY, false);
			continue;
		}
		/* Let packet sockets on the device see the frame. */
		if (dev_nit_active(dev))
			dev_queue_xmit_nit(skb, dev);

		sent_ns = omw_now(s);
		rc = netdev_start_xmit(skb, dev, txq, i != last);
		if (!dev_xmit_complete(rc))
			kfree_skb(skb);	/* NETDEV_TX_BUSY: still ours */
		omw_frame_result(s, e, f, sent_ns, rc,
				 rc == NETDEV_TX_OK || rc == NET_XMIT_CN);
	}
	HARD_TX_UNLOCK(dev, txq);
	rcu_read_unlock();
}

static void omw_xmit_qdisc(struct omw_session *s, struct omw_entry *e)
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
		omw_frame_result(s, e, f, sent_ns, rc,
				 rc == NET_XMIT_SUCCESS || rc == NET_XMIT_CN);
	}
}

/* Send the live frames of @e and fill in their reports.  BH disabled. */
void omw_xmit_entry(struct omw_session *s, struct omw_entry *e)
{
	struct net_device *dev = s->dev;

	lockdep_assert_in_softirq();

	if (unlikely(!netif_running(dev)))
		omw_drop_down(s, e, -ENETDOWN);
	else if (unlikely(!netif_carrier_ok(dev)))
		omw_drop_down(s, e, -ENOLINK);
	else if (s->cfg.xmit == OMWARE_XMIT_QDISC)
		omw_xmit_qdisc(s, e);
	else
		omw_xmit_direct(s, e);
	e->live = 0;
	e->bytes = 0;
}
