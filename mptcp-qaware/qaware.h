/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mptcp_qaware.ko: MPTCP packet schedulers registered from a module on
 * stock kernels (6.6-6.15 shape: get_subflow + mptcp_sched_data).
 */
#ifndef QAWARE_MODULE_H
#define QAWARE_MODULE_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <net/mptcp.h>

/* More subflows than the path manager allows (8) are never looked at. */
#define QA_MAX_SUBFLOWS	8

/*
 * What a policy sees of one subflow: plain values, no kernel object, so
 * that the decision can move to the portable core (core/qaware) unchanged.
 */
struct qa_candidate {
	u32 srtt_us;		/* smoothed RTT, microseconds */
	bool backup;		/* used only when no other subflow can send */
	bool usable;		/* established, not stale */
	bool can_send;		/* usable and room in its send buffer */
	bool idle;		/* nothing queued or in flight */
	bool last;		/* the subflow this connection picked last */
};

struct qa_view {
	struct qa_candidate c[QA_MAX_SUBFLOWS];
	unsigned int n;
	bool reinject;		/* a retransmission, not new data */
};

/* A policy returns the index of the subflow to use, or -1 for none. */
typedef int (*qa_pick_fn)(const struct qa_view *view);

struct qa_sched {
	struct mptcp_sched_ops ops;
	qa_pick_fn pick;
	atomic64_t decisions;	/* subflows picked */
	atomic64_t refusals;	/* calls that found no subflow */
};

/* What the netlink family reports of a scheduler's counters. */
static inline u64 qa_sched_decisions(const struct qa_sched *s)
{
	return atomic64_read(&s->decisions);
}

extern struct qa_sched qa_scheds[];
extern const unsigned int qa_nr_scheds;

int qa_register(void);
void qa_unregister(void);
int qa_get_subflow(struct mptcp_sock *msk, struct mptcp_sched_data *data);
void qa_conn_init(struct mptcp_sock *msk);
void qa_conn_release(struct mptcp_sock *msk);

/* netlink.c: the "qaware" generic netlink family. */
int qa_nl_init(void);
void qa_nl_exit(void);

#endif
