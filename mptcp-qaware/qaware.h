/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mptcp_qaware.ko: MPTCP packet schedulers registered from a module on
 * stock kernels (6.6-6.15 shape: get_subflow + mptcp_sched_data).  Every
 * decision is the portable core's (core/qaware.c, compiled in by core.c);
 * sched.c only reads the sockets into its views.
 */
#ifndef QAWARE_MODULE_H
#define QAWARE_MODULE_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <net/mptcp.h>
#include "../core/qaware.h"

/*
 * One registered scheduler and its counters, read by the "decisions"
 * parameter (main.c) and by the statistics over netlink.
 */
struct qa_sched {
	struct mptcp_sched_ops ops;
	enum tw_qa_policy policy;
	atomic64_t decisions;	/* subflows picked (redundant: each one) */
	atomic64_t refusals;	/* calls that found no subflow */
	atomic64_t waits;	/* ECF/BLEST: held back for the fast subflow */
	atomic64_t stale;	/* subflows found stale (sched.c) */
};

/* What the netlink family reports of a scheduler's counters. */
static inline u64 qa_sched_decisions(const struct qa_sched *s)
{
	return atomic64_read(&s->decisions);
}

extern struct qa_sched qa_scheds[];
extern const unsigned int qa_nr_scheds;

/* push.c: the send head of 6.12's push loop (see there). */
u64 qa_data_end(const struct mptcp_sock *msk);
u64 qa_send_head(const struct mptcp_sock *msk);
void qa_send_from(struct mptcp_sock *msk, u64 seq);

/* layout.c: protocol.h against the running kernel's BTF; 0 if it matches. */
int qa_check_layout(void);

int qa_register(void);
void qa_unregister(void);
int qa_get_subflow(struct mptcp_sock *msk, struct mptcp_sched_data *data);
void qa_conn_init(struct mptcp_sock *msk);
void qa_conn_release(struct mptcp_sock *msk);

/* netlink.c: the "qaware" generic netlink family. */
int qa_nl_init(void);
void qa_nl_exit(void);

#endif
