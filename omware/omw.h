/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the OMware pre-dispatch packet sender.
 */
#ifndef _OMW_H
#define _OMW_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/idr.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/netlink.h>
#include <tw/compat.h>

#include <uapi/linux/omware.h>

#include "timeq.h"
#include "guard.h"

/* Counters, in the order of enum omware_stats_attr from SUBMITTED on. */
enum omw_stat {
	OMW_STAT_SUBMITTED,
	OMW_STAT_SENT,
	OMW_STAT_LATE,
	OMW_STAT_DROPPED_XMIT,
	OMW_STAT_DROPPED_DOWN,
	OMW_STAT_CANCELLED,
	OMW_STAT_REPORTS_LOST,
	OMW_STAT_SPIN_NS,
	OMW_STAT_WAKE_LATE_MAX_NS,
	OMW_STAT_SPIN_STALLS,
	OMW_STAT_SPIN_STALL_MAX_NS,
	OMW_STAT_WORK_NS,
	OMW_STAT_NUM,
};

static_assert(OMWARE_STATS_A_SUBMITTED + OMW_STAT_NUM - 1 ==
	      OMWARE_STATS_A_MAX);

/*
 * Counters of a session or of a namespace, per CPU so that the send path
 * never touches a shared cache line (or, with 64-bit atomics emulated on
 * 32-bit, a hashed spinlock) between the frames of a train.  Summed on
 * read; the *_MAX_NS ones are maxima.
 */
struct omw_pcpu_stats {
	u64_stats_t v[OMW_STAT_NUM];
	struct u64_stats_sync syncp;
};

struct omw_stats {
	struct omw_pcpu_stats __percpu *pcpu;
};

/* What a network namespace holds: its sessions and their counters. */
struct omw_net {
	struct idr ids;			/* sessions by id, under omw_lock */
	struct omw_stats stats;
	struct list_head node;		/* on omw_nets, under omw_lock */
};

/* Defaults and bounds of the session settings. */
#define OMW_LATE_NS_DEFAULT	((u32)OMWARE_LATE_NS_DEFAULT)
#define OMW_GUARD_MAX_DEFAULT	((u32)OMWARE_GUARD_MAX_NS_DEFAULT)
#define OMW_GUARD_MIN_NS	((u32)OMWARE_GUARD_MIN_NS)
#define OMW_TRAIN_MAX		((u32)OMWARE_TRAIN_MAX_PKTS)

/* One frame of a queue entry and, once it is done, its report. */
struct omw_frame {
	struct sk_buff *skb;	/* NULL once sent, dropped or cancelled */
	u64 cookie;
	u64 sent_ns;		/* 0: never handed to the device */
	s32 rc;
	u8 status;		/* enum omware_report_status, once done */
};

/*
 * A queue entry: one packet (SUBMIT) or a train of frames sent back to back
 * (TRAIN).  It sits in the session's time queue and pending list until it is
 * sent or cancelled, then on the done list until its reports are delivered.
 * The report memory is part of the entry, so the send path never allocates.
 */
struct omw_entry {
	struct tw_timeq_node node;	/* key: send time, ns */
	struct list_head list;
	u64 time_ns;
	u32 bytes;			/* truesize of the frames still queued */
	u32 size;			/* of this allocation */
	u32 live;			/* frames still queued */
	u32 reported;			/* frames whose report was delivered */
	u32 nframes;
	struct omw_frame f[] __counted_by(nframes);
};

/* Why a session ends; decides what its pending packets become. */
enum omw_end {
	OMW_END_DEL,		/* SESSION_DEL: cancelled, reported */
	OMW_END_DEVICE,		/* device unregistered: dropped, reported */
	OMW_END_UNLOAD,		/* module unload: cancelled, reported */
	OMW_END_OWNER,		/* owner socket closed: nobody to tell */
	OMW_END_NETNS,		/* namespace dismantled: nobody to tell */
};

struct omw_session_cfg {
	clockid_t clockid;
	u8 mode;
	u8 xmit;
	s32 cpu;		/* hybrid kthread CPU, -1: not bound */
	u32 late_ns;
	u32 guard_max_ns;
	u32 max_pkts;
	u32 max_bytes;
};

/* What SESSION_GET shows of a session's changing state. */
struct omw_session_state {
	u32 pend_pkts;
	u64 pend_bytes;
	u32 guard_ns;			/* 0 in timer mode */
	u64 guard_wakeups;
	u64 guard_misses;
	u32 guard_quantile_ns;
};

struct omw_session {
	/*
	 * Held by the IDR while the session lives, and by a handler that
	 * builds packets for it without omw_lock; the last put frees it.
	 */
	refcount_t ref;
	u32 id;
	u32 portid;			/* owner socket's port id */
	struct sock *owner;		/* held, to watch its receive queue */
	struct net *net;		/* owner's namespace, also the device's */
	/*
	 * Held from create to omw_session_destroy(), not to the last put: a
	 * builder's reference must not keep an unregistering device.  A
	 * builder holds the device itself while it uses it.
	 */
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct omw_session_cfg cfg;

	spinlock_t lock;		/* protects the fields down to dead */
	/* Lets the spinning kthread read head_ns without the lock. */
	seqcount_spinlock_t head_seq;
	struct tw_timeq q;
	struct list_head pending;	/* entries in q, in submit order */
	struct list_head done;		/* entries whose reports are due */
	/*
	 * What the caps count: frames from submit until their report is
	 * delivered or counted lost, and the memory they pin meanwhile (the
	 * sk_buffs' truesize until they leave, skb_bytes of it, and the
	 * entries, which hold the reports).
	 */
	u32 pend_pkts;
	u64 pend_bytes;
	u64 skb_bytes;
	u64 head_ns;			/* earliest send time, U64_MAX: none */
	u64 armed_ns;			/* expiry the timer was last set to */
	bool dead;			/* being destroyed: never re-arm */

	struct hrtimer timer;
	struct tw_guard guard;		/* hybrid only; kthread updates it */
	struct task_struct *task;	/* hybrid only */
	unsigned long flags;
	u64 kick_ns;			/* expiry of the timer that kicked */

	struct delayed_work report_work;
	u32 report_tries;		/* consecutive failed deliveries */
	bool owner_gone;

	struct omw_stats stats;
	struct omw_stats *net_stats;	/* the namespace's counters */
};

#define OMW_FLAG_KICK	0		/* bit in flags: timer woke kthread */

/* main.c: module parameters and module-wide state */
extern unsigned int omw_horizon_s;
extern unsigned int omw_sess_pkts;
extern unsigned int omw_sess_bytes;
extern unsigned int omw_max_pkts;
extern unsigned int omw_max_bytes;
extern unsigned int omw_max_sessions;
extern unsigned int omw_report_retries;
extern bool omw_hybrid_fifo;

extern unsigned int omw_net_id;
extern struct mutex omw_lock;
extern struct list_head omw_nets;
extern bool omw_closing;
/* Pending packets and bytes of all sessions, against max_pkts/max_bytes. */
extern atomic64_t omw_pend_pkts;
extern atomic64_t omw_pend_bytes;

static inline struct omw_net *omw_net(const struct net *net)
{
	return net_generic(net, omw_net_id);
}

/* stats.c */
int omw_stats_init(struct omw_stats *st);
void omw_stats_free(struct omw_stats *st);
void omw_stats_read(const struct omw_stats *st, u64 *v);
/* Adds @v to counter @i, or raises it to @v for the *_MAX_NS ones. */
void omw_stat_add(struct omw_session *s, enum omw_stat i, u64 v);

static inline u64 omw_now(const struct omw_session *s)
{
	return tw_clock_ns(s->cfg.clockid);
}

/* session.c, all with omw_lock held */

struct omw_entry *omw_entry_alloc(u32 nframes);
void omw_entry_free(struct omw_entry *e);
void omw_session_uncharge(struct omw_session *s, u32 pkts, u64 bytes);
struct omw_session *omw_session_create(struct net *net, struct sock *owner,
				       u32 portid, int ifindex,
				       const struct nlattr *ifattr,
				       const struct omw_session_cfg *cfg,
				       struct netlink_ext_ack *extack);
struct omw_session *omw_session_find(struct net *net, u32 id);
void omw_session_put(struct omw_session *s);
struct omw_session *omw_session_next(struct net *net, u32 *id);
void omw_session_destroy(struct omw_session *s, enum omw_end why);
void omw_sessions_destroy(struct net *net, struct net_device *dev,
			  u32 portid, enum omw_end why);
void omw_sessions_destroy_all(enum omw_end why);
void omw_net_pending(struct net *net, u32 *pkts, u64 *bytes);
int omw_session_enqueue(struct omw_session *s, struct list_head *batch,
			u32 pkts, u64 bytes, struct netlink_ext_ack *extack);
u32 omw_session_cancel(struct omw_session *s, u64 cookie);
u32 omw_session_flush(struct omw_session *s);
void omw_session_state(struct omw_session *s, struct omw_session_state *st);
u32 omw_session_count(void);

/* One packet to build: a whole frame, or a payload with its Ethernet header. */
struct omw_pkt {
	const void *data;
	u32 len;
	const u8 *dst_mac;	/* payload only */
	__be16 proto;
};

/* xmit.c */
struct sk_buff *omw_build_skb(struct net_device *dev, const struct omw_pkt *p);
/* Called with BH disabled. */
void omw_xmit_entry(struct omw_session *s, struct omw_entry *e);

/* netlink.c */
int omw_nl_init(void);
void omw_nl_exit(void);
int omw_nl_report(struct omw_session *s, struct list_head *list,
		  u32 *delivered);

#endif /* _OMW_H */
