// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions, their schedule queue, timer and hybrid kthread.
 *
 * Design
 * ------
 * A session owns one time-ordered queue (tw_timeq: a sorted run plus a
 * red-black tree, keyed by send time) of entries whose sk_buffs were built at submit time, and one
 * hrtimer armed for the earliest entry.  Everything mutable sits under the
 * session spinlock, always taken with BH disabled since the timer runs in
 * softirq context.  Only one context ever transmits for a session: the timer
 * callback in TIMER mode, the kthread in HYBRID mode.  Both pop the due
 * entries under the lock and transmit with the lock dropped, so submit,
 * cancel and flush never wait for a driver.  Whoever changes the head of the
 * queue (submit, cancel, the sender) re-arms the timer under the lock; an
 * early expiry is harmless, it only finds nothing due.
 *
 * The timer uses HRTIMER_MODE_ABS_SOFT: its callback runs in the hrtimer
 * softirq, where taking the tx queue lock and calling into a driver or a
 * qdisc is legal.  A hardirq callback could do neither (those locks are not
 * IRQ safe and drivers expect BH context), and would stretch interrupt
 * latency for the whole machine.
 *
 * HYBRID mode hides the softirq's wake-up lateness: the timer fires a guard
 * before the send time and only wakes a per-session kthread, optionally
 * bound to a CPU and SCHED_FIFO; it spins on the clock to the exact
 * nanosecond and transmits with BH disabled.  The guard adapts to the
 * observed wake-up lateness (tw_guard), capped by the session's
 * GUARD_MAX_NS, so the spin stays bounded by it.
 *
 * A sent (or dropped, or cancelled) entry moves to the done list; the
 * reports live in the entry itself so the send path never allocates.  A
 * delayed work item turns them into batched REPORT messages in process
 * context, retrying with backoff while the owner's socket is full.
 *
 * Lifetime: sessions are found through their namespace's IDR under the
 * global omw_lock mutex, which every netlink handler and every notifier
 * takes, so none of them can see a session being destroyed.  SUBMIT and
 * TRAIN take a reference and build their packets without omw_lock, so a
 * large batch holds up neither RTNL (the netdev notifier) nor the close()
 * of every generic netlink socket in the system (NETLINK_URELEASE); they
 * find a session that ended meanwhile dead when they queue.  Destruction
 * marks the session dead (no re-arming, no queueing), then stops the
 * timer, the kthread and the report work in that order, after which only
 * reference holders can touch it (and only to see it dead), and drops the
 * IDR's reference; the last one frees it.
 */
#include <linux/idr.h>
#include <linux/if_arp.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "omw.h"

/*
 * Frames sent per timer softirq, or per BH-off section of the hybrid
 * thread, before it yields (the timer re-arms for now, the thread
 * reschedules).  An entry (a train) is never split, so a section may exceed
 * it by up to one train.
 */
#define OMW_SECTION_FRAMES	256
/* Frames popped per round of "pop due, transmit". */
#define OMW_ROUND_FRAMES	64
/* Longest wait between two report delivery attempts, ms. */
#define OMW_REPORT_BACKOFF_MAX	256
/*
 * The hybrid thread spins with BH enabled, except this close to the send
 * time: a softirq starting there would delay the send by its whole run.
 * Short, so this CPU's softirqs wait no longer than that and the send.
 */
#define OMW_SPIN_BH_OFF_NS	5000

static u32 omw_nsessions;	/* all namespaces, under omw_lock */

struct omw_entry *omw_entry_alloc(u32 nframes)
{
	struct omw_entry *e;

	e = kvzalloc(struct_size(e, f, nframes), GFP_KERNEL);
	if (!e)
		return NULL;
	e->nframes = nframes;
	e->size = struct_size(e, f, nframes);
	INIT_LIST_HEAD(&e->list);
	tw_timeq_node_init(&e->node);
	return e;
}

/* Frames still held here were never sent: cancelled, not dropped. */
void omw_entry_free(struct omw_entry *e)
{
	u32 i;

	for (i = 0; i < e->nframes; i++)
		consume_skb(e->f[i].skb);
	kvfree(e);
}

static void omw_uncharge_locked(struct omw_session *s, u32 pkts, u64 bytes)
{
	s->pend_pkts -= pkts;
	s->pend_bytes -= bytes;
	atomic64_sub(pkts, &omw_pend_pkts);
	atomic64_sub(bytes, &omw_pend_bytes);
}

void omw_session_uncharge(struct omw_session *s, u32 pkts, u64 bytes)
{
	spin_lock_bh(&s->lock);
	omw_uncharge_locked(s, pkts, bytes);
	spin_unlock_bh(&s->lock);
}

/* Queued sk_buffs of this many bytes left: sent, dropped or cancelled. */
static void omw_skbs_gone_locked(struct omw_session *s, u64 bytes)
{
	s->skb_bytes -= bytes;
	omw_uncharge_locked(s, 0, bytes);
}

static void omw_report_kick(struct omw_session *s)
{
	/* One jiffy batches the reports of a burst into few messages. */
	queue_delayed_work(system_unbound_wq, &s->report_work, 1);
}

static void omw_set_head_locked(struct omw_session *s)
{
	struct tw_timeq_node *n = tw_timeq_peek(&s->q);

	write_seqcount_begin(&s->head_seq);
	s->head_ns = n ? n->key : U64_MAX;
	write_seqcount_end(&s->head_seq);
}

/* head_ns without the lock; a plain u64 load may tear on 32-bit. */
static u64 omw_head_ns(struct omw_session *s)
{
	unsigned int seq;
	u64 t;

	do {
		seq = read_seqcount_begin(&s->head_seq);
		t = s->head_ns;
	} while (read_seqcount_retry(&s->head_seq, seq));
	return t;
}

/* Arm the timer for the earliest entry (minus the guard in hybrid mode). */
static void omw_arm_locked(struct omw_session *s)
{
	u64 at;

	omw_set_head_locked(s);
	at = s->head_ns;
	if (at == U64_MAX || s->dead)
		return;
	if (s->cfg.mode == OMWARE_MODE_HYBRID)
		at -= min_t(u64, at, tw_guard_ns(&s->guard));
	/*
	 * A time already past would make the wake-up look late by however
	 * long ago it was, and feed that to the guard: arm for now instead.
	 */
	at = max(at, omw_now(s));
	/* An earlier expiry only costs a spurious wake-up: keep it. */
	if (hrtimer_is_queued(&s->timer) && s->armed_ns <= at)
		return;
	s->armed_ns = at;
	hrtimer_start(&s->timer, ns_to_ktime(min_t(u64, at, KTIME_MAX)),
		      HRTIMER_MODE_ABS_SOFT);
}

/* Pop due entries, about @budget frames' worth; returns the frames. */
static u32 omw_pop_due_locked(struct omw_session *s, u64 now, u32 budget,
			      struct list_head *due)
{
	struct tw_timeq_node *n;
	struct omw_entry *e;
	u32 frames = 0;

	while (frames < budget && (n = tw_timeq_peek(&s->q)) &&
	       n->key <= now) {
		tw_timeq_pop(&s->q);
		e = container_of(n, struct omw_entry, node);
		list_move_tail(&e->list, due);
		frames += e->live;
		omw_skbs_gone_locked(s, e->bytes);
	}
	omw_set_head_locked(s);
	return frames;
}

/*
 * Transmit everything due.  BH is disabled: the timer softirq or the
 * kthread's local_bh_disable().  Only one context per session calls this.
 */
static void omw_send_due(struct omw_session *s, u64 now)
{
	bool timer_mode = s->cfg.mode == OMWARE_MODE_TIMER;
	struct omw_entry *e;
	u32 sent = 0;
	LIST_HEAD(due);

	for (;;) {
		spin_lock(&s->lock);
		/* Bounded, so a backlog cannot hold the CPU with BH disabled. */
		if (sent < OMW_SECTION_FRAMES)
			sent += omw_pop_due_locked(s, now, OMW_ROUND_FRAMES,
						   &due);
		if (list_empty(&due)) {
			if (timer_mode)
				omw_arm_locked(s);
			spin_unlock(&s->lock);
			break;
		}
		spin_unlock(&s->lock);

		list_for_each_entry(e, &due, list)
			omw_xmit_entry(s, e);

		spin_lock(&s->lock);
		list_splice_tail_init(&due, &s->done);
		spin_unlock(&s->lock);
		omw_report_kick(s);
		now = omw_now(s);
	}
}

/* Hybrid mode: wake the kthread, telling it which expiry woke it. */
static void omw_kick(struct omw_session *s, u64 exp)
{
	/* Under the lock: a u64 store may tear on 32-bit. */
	spin_lock(&s->lock);
	s->kick_ns = exp;
	spin_unlock(&s->lock);
	set_bit(OMW_FLAG_KICK, &s->flags);
	wake_up_process(s->task);
}

/*
 * The time spent here and in the report work is the session's WORK_NS:
 * CPU time no process of the owner's is charged with.
 */
static enum hrtimer_restart omw_timer_fn(struct hrtimer *t)
{
	struct omw_session *s = container_of(t, struct omw_session, timer);
	u64 exp = ktime_to_ns(hrtimer_get_expires(t));
	u64 start = local_clock();
	u64 now;

	if (s->cfg.mode == OMWARE_MODE_HYBRID) {
		omw_kick(s, exp);
	} else {
		now = omw_now(s);
		if (now > exp)
			omw_stat_add(s, OMW_STAT_WAKE_LATE_MAX_NS, now - exp);
		omw_send_due(s, now);
	}
	omw_stat_add(s, OMW_STAT_WORK_NS, local_clock() - start);
	return HRTIMER_NORESTART;
}

/* What the hybrid kthread's spin keeps between its steps. */
struct omw_spin {
	u64 now;		/* on the session's clock */
	u64 tick;		/* on the CPU's clock */
	u64 spun;		/* ns spun since the last send */
	unsigned long nivcsw;
	bool bh_off;
};

/* How late the timer woke us: the guard learns from it. */
static void omw_hybrid_woke(struct omw_session *s, u64 now)
{
	s64 late;

	spin_lock_bh(&s->lock);
	late = (s64)(now - s->kick_ns);
	/* Under the lock: SESSION_GET reads the estimator's u64s. */
	tw_guard_observe(&s->guard, late);
	spin_unlock_bh(&s->lock);
	if (late > 0)
		omw_stat_add(s, OMW_STAT_WAKE_LATE_MAX_NS, late);
}

/* Restart the clocks after the CPU was given away or used for sending. */
static void omw_spin_restart(struct omw_session *s, struct omw_spin *sp)
{
	sp->now = omw_now(s);
	sp->tick = local_clock();
}

static void omw_spin_send(struct omw_session *s, struct omw_spin *sp)
{
	omw_stat_add(s, OMW_STAT_SPIN_NS, sp->spun);
	sp->spun = 0;
	if (!sp->bh_off)
		local_bh_disable();
	omw_send_due(s, sp->now);
	local_bh_enable();
	sp->bh_off = false;
	/* A long backlog must not keep this CPU from others. */
	cond_resched();
	omw_spin_restart(s, sp);
}

/* BH off only for the last stretch before the send time. */
static void omw_spin_bh(struct omw_spin *sp, u64 target)
{
	bool near = target - sp->now <= OMW_SPIN_BH_OFF_NS;

	if (near && !sp->bh_off)
		local_bh_disable();
	else if (!near && sp->bh_off)
		local_bh_enable();	/* the head moved later */
	sp->bh_off = near;
}

/*
 * One step of the spin.  No cpu_relax(): PAUSE is where a hypervisor may
 * take the CPU from a spinning guest (KVM's pause-loop exiting can yield
 * the vCPU; QEMU's TCG leaves its execution loop at each one), a stall at
 * the moment this spin exists for.  The spin is bounded by the guard, and
 * so is what running without PAUSE costs a sibling hyperthread.
 */
static void omw_spin_step(struct omw_session *s, struct omw_spin *sp)
{
	u64 prev_tick = sp->tick;

	sp->now = omw_now(s);
	sp->tick = local_clock();
	sp->spun += sp->tick - prev_tick;
	/*
	 * Time lost without yielding or being preempted (interrupts, SMIs,
	 * a hypervisor): nothing a guard could cover.
	 */
	if ((s64)(sp->tick - prev_tick) > OMWARE_SPIN_STALL_NS &&
	    current->nivcsw == sp->nivcsw) {
		omw_stat_add(s, OMW_STAT_SPIN_STALLS, 1);
		omw_stat_add(s, OMW_STAT_SPIN_STALL_MAX_NS,
			     sp->tick - prev_tick);
	}
	sp->nivcsw = current->nivcsw;
}

/*
 * Spin to the head's send time while it is within the guard, transmit, and
 * go on with the next one; once the head is further away than the guard
 * (or gone), re-arm the timer and return to sleep.  Spin time and stalls
 * are timed on the CPU's clock, which no one can step: a REALTIME or TAI
 * step is neither spin nor stall.
 */
static void omw_hybrid_run(struct omw_session *s, bool slept)
{
	struct omw_spin sp = { };
	u64 target;

	if (slept)
		omw_hybrid_woke(s, omw_now(s));
	omw_spin_restart(s, &sp);
	sp.nivcsw = current->nivcsw;
	while (!kthread_should_stop()) {
		target = omw_head_ns(s);
		if (target <= sp.now) {
			omw_spin_send(s, &sp);
			continue;
		}
		/*
		 * Bounded spin: never further ahead than the guard, itself
		 * capped by GUARD_MAX_NS.  A later head, or a wall clock that
		 * was set back, sends us back to sleep on the timer.
		 */
		if (target == U64_MAX || target - sp.now > tw_guard_ns(&s->guard))
			break;
		omw_spin_bh(&sp, target);
		/* Not in the BH-off stretch, which cannot sleep. */
		if (!sp.bh_off && need_resched()) {
			cond_resched();
			omw_spin_restart(s, &sp);
			continue;
		}
		omw_spin_step(s, &sp);
	}
	/* The head moved away, or the thread stops. */
	if (sp.bh_off)
		local_bh_enable();
	omw_stat_add(s, OMW_STAT_SPIN_NS, sp.spun);

	spin_lock_bh(&s->lock);
	omw_arm_locked(s);
	spin_unlock_bh(&s->lock);
}

static int omw_kthread_fn(void *arg)
{
	struct omw_session *s = arg;
	bool slept = false;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!test_and_clear_bit(OMW_FLAG_KICK, &s->flags)) {
			schedule();
			slept = true;
			continue;
		}
		__set_current_state(TASK_RUNNING);
		omw_hybrid_run(s, slept);
		slept = false;
		cond_resched();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static u32 omw_unreported(struct list_head *list)
{
	struct omw_entry *e;
	u32 n = 0;

	list_for_each_entry(e, list, list)
		n += e->nframes - e->reported;
	return n;
}

/* Free entries whose reports were counted lost, and their charge. */
static void omw_free_list(struct omw_session *s, struct list_head *list)
{
	struct omw_entry *e, *tmp;
	u64 bytes = 0;
	u32 pkts = 0;

	list_for_each_entry_safe(e, tmp, list, list) {
		list_del(&e->list);
		pkts += e->nframes;
		bytes += e->size;
		omw_entry_free(e);
	}
	omw_session_uncharge(s, pkts, bytes);
}

static void omw_report_deliver(struct omw_session *s)
{
	u32 delivered = 0;
	LIST_HEAD(list);
	int err;

	spin_lock_bh(&s->lock);
	list_splice_init(&s->done, &list);
	spin_unlock_bh(&s->lock);
	if (list_empty(&list))
		return;

	err = s->owner_gone ? -ECONNREFUSED :
	      omw_nl_report(s, &list, &delivered);
	if (!err) {
		s->report_tries = 0;
		return;
	}
	if (delivered)
		s->report_tries = 0;

	/* Owner's socket full (or no memory): try again a bit later. */
	if ((err == -EAGAIN || err == -ENOMEM) &&
	    s->report_tries < READ_ONCE(omw_report_retries)) {
		unsigned int ms = min(1U << min(s->report_tries, 16U),
				      OMW_REPORT_BACKOFF_MAX);

		s->report_tries++;
		spin_lock_bh(&s->lock);
		list_splice(&list, &s->done);	/* keep the order */
		spin_unlock_bh(&s->lock);
		/* Override a kick queued meanwhile: the backoff holds. */
		mod_delayed_work(system_unbound_wq, &s->report_work,
				 msecs_to_jiffies(ms));
		return;
	}

	if (err == -ECONNREFUSED)
		s->owner_gone = true;
	s->report_tries = 0;
	omw_stat_add(s, OMW_STAT_REPORTS_LOST, omw_unreported(&list));
	omw_free_list(s, &list);
}

/*
 * Preemption is counted too, so the figure errs high; a work moved to
 * another CPU meanwhile reads another CPU's clock, whose difference is
 * dropped if negative.
 */
static void omw_report_workfn(struct work_struct *work)
{
	struct omw_session *s = container_of(to_delayed_work(work),
					     struct omw_session, report_work);
	u64 start = local_clock();
	s64 took;

	omw_report_deliver(s);
	took = local_clock() - start;
	if (took > 0)
		omw_stat_add(s, OMW_STAT_WORK_NS, took);
}

/* A session that never became visible: nothing but memory and the device. */
static void omw_session_free_unused(struct omw_session *s)
{
	netdev_put(s->dev, &s->dev_tracker);
	omw_stats_free(&s->stats);
	kfree(s);
}

/* A session holding its Ethernet device, not yet visible to anyone. */
static struct omw_session *omw_session_alloc(struct net *net, int ifindex,
					     const struct nlattr *ifattr,
					     struct netlink_ext_ack *extack)
{
	struct omw_session *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s || omw_stats_init(&s->stats)) {
		kfree(s);
		NL_SET_ERR_MSG_MOD(extack, "out of memory for the session");
		return ERR_PTR(-ENOMEM);
	}
	s->dev = netdev_get_by_index(net, ifindex, &s->dev_tracker,
				     GFP_KERNEL);
	if (!s->dev) {
		NL_SET_ERR_MSG_ATTR(extack, ifattr,
				    "no such device in this network namespace");
		omw_stats_free(&s->stats);
		kfree(s);
		return ERR_PTR(-ENODEV);
	}
	if (s->dev->type != ARPHRD_ETHER || s->dev->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG_ATTR(extack, ifattr, "not an Ethernet device");
		omw_session_free_unused(s);
		return ERR_PTR(-EOPNOTSUPP);
	}
	return s;
}

static void omw_session_init(struct omw_session *s, struct net *net,
			     u32 portid, const struct omw_session_cfg *cfg)
{
	refcount_set(&s->ref, 1);
	s->net_stats = &omw_net(net)->stats;
	s->net = net;
	s->portid = portid;
	s->cfg = *cfg;
	spin_lock_init(&s->lock);
	seqcount_spinlock_init(&s->head_seq, &s->lock);
	tw_timeq_init(&s->q);
	INIT_LIST_HEAD(&s->pending);
	INIT_LIST_HEAD(&s->done);
	s->head_ns = U64_MAX;
	tw_guard_init(&s->guard, min(OMW_GUARD_MIN_NS, cfg->guard_max_ns),
		      cfg->guard_max_ns);
	hrtimer_setup(&s->timer, omw_timer_fn, cfg->clockid,
		      HRTIMER_MODE_ABS_SOFT);
	INIT_DELAYED_WORK(&s->report_work, omw_report_workfn);
}

/* The hybrid mode's spinning kthread, named after the session id. */
static int omw_session_start_task(struct omw_session *s,
				  struct netlink_ext_ack *extack)
{
	struct task_struct *task;

	task = kthread_create(omw_kthread_fn, s, "omware/%u", s->id);
	if (IS_ERR(task)) {
		NL_SET_ERR_MSG_MOD(extack, "cannot create the kthread");
		return PTR_ERR(task);
	}
	if (s->cfg.cpu >= 0)
		kthread_bind(task, s->cfg.cpu);
	if (READ_ONCE(omw_hybrid_fifo))
		sched_set_fifo_low(task);
	s->task = task;
	wake_up_process(task);
	return 0;
}

/*
 * Whether the device and the owner socket still live, so that their
 * notifiers will find the session: both run after the state we look at
 * changed and wait for omw_lock, which we hold.
 */
static int omw_session_check_live(struct omw_session *s, struct sock *owner,
				  const struct nlattr *ifattr,
				  struct netlink_ext_ack *extack)
{
	if (tw_dev_reg_state(s->dev) != NETREG_REGISTERED) {
		NL_SET_ERR_MSG_ATTR(extack, ifattr, "device is going away");
		return -ENODEV;
	}
	/* A closing socket is orphaned before its NETLINK_URELEASE. */
	if (sock_flag(owner, SOCK_DEAD)) {
		NL_SET_ERR_MSG_MOD(extack, "socket is closing");
		return -ECONNREFUSED;
	}
	return 0;
}

static int omw_session_check_room(struct netlink_ext_ack *extack)
{
	if (omw_closing) {
		NL_SET_ERR_MSG_MOD(extack, "module is being unloaded");
		return -ESHUTDOWN;
	}
	if (omw_nsessions >= READ_ONCE(omw_max_sessions)) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "too many sessions (max_sessions=%u)",
				       READ_ONCE(omw_max_sessions));
		return -ENOSPC;
	}
	return 0;
}

struct omw_session *omw_session_create(struct net *net, struct sock *owner,
				       u32 portid, int ifindex,
				       const struct nlattr *ifattr,
				       const struct omw_session_cfg *cfg,
				       struct netlink_ext_ack *extack)
{
	struct omw_net *on = omw_net(net);
	struct omw_session *s;
	int err, id;

	lockdep_assert_held(&omw_lock);
	err = omw_session_check_room(extack);
	if (err)
		return ERR_PTR(err);
	s = omw_session_alloc(net, ifindex, ifattr, extack);
	if (IS_ERR(s))
		return s;
	omw_session_init(s, net, portid, cfg);

	/* Reserve the id; the session becomes visible at idr_replace(). */
	id = idr_alloc_cyclic(&on->ids, NULL, 1, INT_MAX, GFP_KERNEL);
	if (id < 0) {
		NL_SET_ERR_MSG_MOD(extack, "no session id left");
		err = id;
		goto err_free;
	}
	s->id = id;
	if (cfg->mode == OMWARE_MODE_HYBRID) {
		err = omw_session_start_task(s, extack);
		if (err)
			goto err_id;
	}
	err = omw_session_check_live(s, owner, ifattr, extack);
	if (err)
		goto err_task;

	s->owner = owner;
	sock_hold(owner);
	idr_replace(&on->ids, s, s->id);
	omw_nsessions++;
	return s;

err_task:
	if (s->task)
		kthread_stop(s->task);
err_id:
	idr_remove(&on->ids, s->id);
err_free:
	omw_session_free_unused(s);
	return ERR_PTR(err);
}

struct omw_session *omw_session_find(struct net *net, u32 id)
{
	struct omw_session *s;

	lockdep_assert_held(&omw_lock);
	if (id > INT_MAX)
		return NULL;
	s = idr_find(&omw_net(net)->ids, id);
	return s;
}

/* The session of @net with the lowest id >= *@id, for dumps. */
struct omw_session *omw_session_next(struct net *net, u32 *id)
{
	struct omw_session *s;
	int i = *id;

	lockdep_assert_held(&omw_lock);
	if (*id > INT_MAX)
		return NULL;
	s = idr_get_next(&omw_net(net)->ids, &i);
	if (s)
		*id = i;
	return s;
}

u32 omw_session_count(void)
{
	return READ_ONCE(omw_nsessions);
}

void omw_session_destroy(struct omw_session *s, enum omw_end why)
{
	bool gone = why == OMW_END_DEVICE;
	struct omw_entry *e, *tmp;
	u32 n = 0, k = 0, delivered = 0;
	u32 i;

	lockdep_assert_held(&omw_lock);

	idr_remove(&omw_net(s->net)->ids, s->id);
	omw_nsessions--;

	spin_lock_bh(&s->lock);
	/* Builders read it without the lock to stop early. */
	WRITE_ONCE(s->dead, true);
	spin_unlock_bh(&s->lock);
	/* Timer first: its callback may wake the kthread. */
	hrtimer_cancel(&s->timer);
	if (s->task)
		kthread_stop(s->task);
	cancel_delayed_work_sync(&s->report_work);

	/*
	 * Nothing else runs for this session now, and reference holders
	 * see it dead and leave the lists alone: no locking needed.
	 */
	list_for_each_entry_safe(e, tmp, &s->pending, list) {
		for (i = 0; i < e->nframes; i++) {
			if (!e->f[i].skb)
				continue;
			if (gone)
				kfree_skb_reason(e->f[i].skb,
						 SKB_DROP_REASON_DEV_READY);
			else
				consume_skb(e->f[i].skb);
			e->f[i].skb = NULL;
			e->f[i].status = gone ? OMWARE_STATUS_DROPPED :
						OMWARE_STATUS_CANCELLED;
			e->f[i].rc = gone ? -ENODEV : -ECANCELED;
			n++;
		}
		list_move_tail(&e->list, &s->done);
		if (!(++k % 1024))
			cond_resched();
	}
	tw_timeq_init(&s->q);
	omw_skbs_gone_locked(s, s->skb_bytes);
	omw_stat_add(s, gone ? OMW_STAT_DROPPED_DOWN : OMW_STAT_CANCELLED, n);

	/* owner_gone is stable now that the report work is stopped. */
	if (why <= OMW_END_UNLOAD && !s->owner_gone)
		omw_nl_report(s, &s->done, &delivered);
	omw_stat_add(s, OMW_STAT_REPORTS_LOST, omw_unreported(&s->done));
	omw_free_list(s, &s->done);
	WARN_ON_ONCE(s->pend_pkts || s->pend_bytes);

	/* No sk_buff of the session is left; an unregister waits on no put. */
	netdev_put(s->dev, &s->dev_tracker);
	omw_session_put(s);
}

void omw_session_put(struct omw_session *s)
{
	if (!refcount_dec_and_test(&s->ref))
		return;
	sock_put(s->owner);
	omw_stats_free(&s->stats);
	kfree(s);
}

/*
 * Destroy the sessions of @net on @dev (NULL: any) or owned by the closed
 * socket that had @portid (0: any).  The port id alone is not enough: it
 * is free again before NETLINK_URELEASE and a new socket, often of the same
 * process, may already own sessions under it.  The closed one is orphaned
 * (SOCK_DEAD) by then; the new one is not.
 */
void omw_sessions_destroy(struct net *net, struct net_device *dev,
			  u32 portid, enum omw_end why)
{
	struct omw_session *s;
	int id;

	lockdep_assert_held(&omw_lock);
	idr_for_each_entry(&omw_net(net)->ids, s, id) {
		if (dev && s->dev != dev)
			continue;
		if (portid && (s->portid != portid ||
			       !sock_flag(s->owner, SOCK_DEAD)))
			continue;
		omw_session_destroy(s, why);
	}
}

void omw_sessions_destroy_all(enum omw_end why)
{
	struct omw_net *on;
	struct omw_session *s;
	int id;

	lockdep_assert_held(&omw_lock);
	list_for_each_entry(on, &omw_nets, node)
		idr_for_each_entry(&on->ids, s, id)
			omw_session_destroy(s, why);
}

/* Pending packets and bytes of the sessions of @net. */
void omw_net_pending(struct net *net, u32 *pkts, u64 *bytes)
{
	struct omw_session_state st;
	struct omw_session *s;
	int id;

	lockdep_assert_held(&omw_lock);
	*pkts = 0;
	*bytes = 0;
	idr_for_each_entry(&omw_net(net)->ids, s, id) {
		omw_session_state(s, &st);
		*pkts += st.pend_pkts;
		*bytes += st.pend_bytes;
	}
}

int omw_session_enqueue(struct omw_session *s, struct list_head *batch,
			u32 pkts, u64 bytes, struct netlink_ext_ack *extack)
{
	u32 gmax_pkts = READ_ONCE(omw_max_pkts);
	u32 gmax_bytes = READ_ONCE(omw_max_bytes);
	struct omw_entry *e, *tmp;
	int err = -ENOBUFS;

	spin_lock_bh(&s->lock);
	/* The packets were built without omw_lock: the session may be gone. */
	if (s->dead) {
		NL_SET_ERR_MSG_MOD(extack, "session ended: device gone or deleted");
		err = -ENODEV;
		goto out;
	}
	if ((u64)s->pend_pkts + pkts > s->cfg.max_pkts) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "packet cap: %u pending + %u > %u",
				       s->pend_pkts, pkts, s->cfg.max_pkts);
		goto out;
	}
	if (s->pend_bytes + bytes > s->cfg.max_bytes) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "byte cap: %u pending + %llu > %u",
				       /* pend_bytes never exceeds max_bytes */
				       (u32)s->pend_bytes, bytes, s->cfg.max_bytes);
		goto out;
	}
	if (atomic64_add_return(pkts, &omw_pend_pkts) > gmax_pkts) {
		atomic64_sub(pkts, &omw_pend_pkts);
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "module packet limit reached (max_pkts=%u)",
				       gmax_pkts);
		goto out;
	}
	if (atomic64_add_return(bytes, &omw_pend_bytes) > gmax_bytes) {
		atomic64_sub(bytes, &omw_pend_bytes);
		atomic64_sub(pkts, &omw_pend_pkts);
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "module byte limit reached (max_bytes=%u)",
				       gmax_bytes);
		goto out;
	}

	list_for_each_entry_safe(e, tmp, batch, list) {
		tw_timeq_insert(&s->q, &e->node, e->time_ns);
		list_move_tail(&e->list, &s->pending);
		s->skb_bytes += e->bytes;
	}
	s->pend_pkts += pkts;
	s->pend_bytes += bytes;
	/* A send time already passed makes the timer fire at once. */
	omw_arm_locked(s);
	err = 0;
out:
	spin_unlock_bh(&s->lock);
	if (!err)
		omw_stat_add(s, OMW_STAT_SUBMITTED, pkts);
	return err;
}

/*
 * Cancel the live frames of @e carrying *@cookie (all if NULL).  Their
 * sk_buffs go to @junk, to be freed outside the session lock.
 */
static u32 omw_entry_cancel(struct omw_entry *e, const u64 *cookie,
			    struct sk_buff_head *junk, u64 *bytes)
{
	struct omw_frame *f;
	u32 n = 0, i;

	for (i = 0; i < e->nframes; i++) {
		f = &e->f[i];
		if (!f->skb || (cookie && f->cookie != *cookie))
			continue;
		e->bytes -= f->skb->truesize;
		*bytes += f->skb->truesize;
		__skb_queue_tail(junk, f->skb);
		f->skb = NULL;
		f->status = OMWARE_STATUS_CANCELLED;
		f->rc = -ECANCELED;
		e->live--;
		n++;
	}
	return n;
}

static void omw_cancelled(struct omw_session *s, struct sk_buff_head *junk,
			  u32 n)
{
	/* Cancelled on request: consumed, not dropped. */
	__skb_queue_purge_reason(junk, SKB_CONSUMED);
	if (n) {
		omw_stat_add(s, OMW_STAT_CANCELLED, n);
		omw_report_kick(s);
	}
}

/* Pending entries examined per BH-off section of a cancel. */
#define OMW_CANCEL_CHUNK	256

/*
 * Cancel the pending frames carrying @cookie; returns how many.  The
 * pending list is walked a chunk at a time, BH enabled in between, with a
 * cursor in the list holding the place: the sender may take entries out
 * meanwhile, and submits add at the tail.  Only handlers holding omw_lock
 * walk the list, so none of them meets the cursor.
 */
u32 omw_session_cancel(struct omw_session *s, u64 cookie)
{
	struct list_head *pos, cursor;
	struct sk_buff_head junk;
	struct omw_entry *e;
	u32 n = 0, k;
	u64 bytes;

	lockdep_assert_held(&omw_lock);
	__skb_queue_head_init(&junk);
	spin_lock_bh(&s->lock);
	pos = s->pending.next;
	for (;;) {
		bytes = 0;
		for (k = 0; pos != &s->pending && k < OMW_CANCEL_CHUNK; k++) {
			e = list_entry(pos, struct omw_entry, list);
			pos = pos->next;
			n += omw_entry_cancel(e, &cookie, &junk, &bytes);
			/* A train with frames left is reported once sent. */
			if (!e->live) {
				tw_timeq_remove(&s->q, &e->node);
				list_move_tail(&e->list, &s->done);
			}
		}
		omw_skbs_gone_locked(s, bytes);
		if (pos == &s->pending)
			break;
		list_add_tail(&cursor, pos);
		spin_unlock_bh(&s->lock);
		__skb_queue_purge_reason(&junk, SKB_CONSUMED);
		cond_resched();
		spin_lock_bh(&s->lock);
		pos = cursor.next;
		list_del(&cursor);
	}
	if (n)
		omw_arm_locked(s);
	spin_unlock_bh(&s->lock);
	omw_cancelled(s, &junk, n);
	return n;
}

/*
 * Cancel every pending frame.  The queue is detached in O(1) under the
 * lock; its entries are then walked with BH enabled, however many.
 */
u32 omw_session_flush(struct omw_session *s)
{
	struct sk_buff_head junk;
	struct omw_entry *e;
	u32 n = 0, k = 0;
	u64 bytes = 0;
	LIST_HEAD(list);

	__skb_queue_head_init(&junk);
	spin_lock_bh(&s->lock);
	list_splice_init(&s->pending, &list);
	tw_timeq_init(&s->q);
	omw_skbs_gone_locked(s, s->skb_bytes);
	/* An armed timer now finds nothing due: harmless. */
	omw_set_head_locked(s);
	spin_unlock_bh(&s->lock);

	list_for_each_entry(e, &list, list) {
		n += omw_entry_cancel(e, NULL, &junk, &bytes);
		if (!(++k % 1024))
			cond_resched();
	}

	spin_lock_bh(&s->lock);
	list_splice_tail(&list, &s->done);
	spin_unlock_bh(&s->lock);
	omw_cancelled(s, &junk, n);
	return n;
}

void omw_session_state(struct omw_session *s, struct omw_session_state *st)
{
	bool hybrid = s->cfg.mode == OMWARE_MODE_HYBRID;

	spin_lock_bh(&s->lock);
	st->pend_pkts = s->pend_pkts;
	st->pend_bytes = s->pend_bytes;
	st->guard_ns = hybrid ? tw_guard_ns(&s->guard) : 0;
	st->guard_wakeups = s->guard.samples;
	st->guard_misses = s->guard.misses;
	st->guard_quantile_ns = tw_guard_quantile_ns(&s->guard);
	spin_unlock_bh(&s->lock);
}
