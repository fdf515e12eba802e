/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mptcp_qaware.ko: MPTCP packet schedulers registered from a module on
 * stock kernels from 6.6 on (the scheduler API's shapes: <tw/compat.h>).
 * Every decision is the portable core's (core/qaware.c, compiled in by
 * core.c); sched.c only reads the sockets into its views.
 */
#ifndef QAWARE_INTERNAL_H
#define QAWARE_INTERNAL_H

#include <linux/atomic.h>
#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <net/mptcp.h>
#include <net/net_namespace.h>
#include <tw/compat.h>
#include "../core/qaware.h"

enum qa_counter {
	QA_DECISIONS,		/* subflows picked (redundant: each one) */
	QA_REFUSALS,		/* calls that found no subflow */
	QA_WAITS,		/* ECF/BLEST/qaware_wait: data held back */
	QA_STALE,		/* subflows found stale (sched.c) */
	QA_NR_COUNTERS,
};

struct qa_counts {
	atomic64_t c[QA_NR_COUNTERS];
};

/*
 * One registered scheduler and the module's total of its counters over
 * every namespace, read by the "decisions" parameter (main.c); each
 * namespace's own, read over netlink, are counters.c's.
 */
struct qa_sched {
	struct mptcp_sched_ops ops;
	enum tw_qa_policy policy;
	struct qa_counts total;
};

/* The registered schedulers: qa_scheds[0..QA_NR_SCHEDS - 1]. */
#define QA_NR_SCHEDS	7
extern struct qa_sched qa_scheds[];
extern const unsigned int qa_nr_scheds;

/*
 * counters.c: each network namespace's counters of each scheduler, so
 * that one namespace does not see another's traffic.
 */
int qa_counters_init(void);
void qa_counters_exit(void);
/* Count @n in @s's total and in @net's counters. */
void qa_count(const struct net *net, struct qa_sched *s,
	      enum qa_counter which, s64 n);
/* @s's counter in @net. */
u64 qa_count_read(const struct net *net, const struct qa_sched *s,
		  enum qa_counter which);

/* push.c: the send head of 6.12's push loop (see there). */
u64 qa_read_acked64(struct mptcp_sock *msk, const u64 *field);
u64 qa_data_end(const struct mptcp_sock *msk);
u64 qa_send_head(const struct mptcp_sock *msk);
void qa_send_from(struct mptcp_sock *msk, u64 seq);

/* layout.c: protocol.h against the running kernel's BTF; 0 if it matches. */
int qa_check_layout(void);

int qa_register(void);
void qa_unregister(void);

struct qa_stats;

/*
 * conn.c: what every connection's state starts with.  Its own copy of the
 * scheduler's ops is what msk->sched points to once the state exists.
 */
struct qa_conn_hdr {
	struct mptcp_sched_ops ops;
	struct qa_sched *sched;		/* the registered one */
	const struct mptcp_sock *msk;	/* key of the table, not read */
	struct rhash_head node;
	struct qa_stats *stats;
	unsigned int lookup_steps;	/* the most one lookup compared */
	struct rcu_head rcu;
};

/* The scheduler's init() and release() (conn.c). */
void qa_conn_init(struct mptcp_sock *msk);
void qa_conn_release(struct mptcp_sock *msk);
/*
 * Under the MPTCP socket lock: the connection's state, made at its first
 * decision (@size bytes, zeroed, *@fresh set), or NULL when it has none
 * (over max_conns, out of memory or of its cgroup's).
 */
struct qa_conn_hdr *qa_conn_get(struct mptcp_sock *msk, size_t size,
				bool *fresh);
/* The registered scheduler of @msk, whose msk->sched may be a copy. */
struct qa_sched *qa_sched_of(const struct mptcp_sock *msk);
int qa_conns_init(void);
void qa_conns_exit(void);

/* What the last reading of a subflow's egress queue found (sched.c). */
struct qa_queue_parts {
	int ifindex;		/* the device; 0: no route seen yet */
	int queue_ifindex;	/* where the queue was read: @ifindex, or a
				 * device below it (the first of a bond's
				 * slaves); 0: no device on the way queues
				 */
	u32 queue_devs;		/* devices whose queues were summed */
	bool bql;		/* a tx queue read runs BQL */
	u32 bql_bytes;		/* DQL in flight */
	u32 qdisc_bytes;	/* backlog of the qdisc above it */
};

/*
 * One subflow as its connection's decisions saw it: flags and picks of the
 * last one, the measured values of the last one that found it active.
 */
struct qa_sf_stats {
	const struct mptcp_subflow_context *subflow;	/* key, not read */
	u32 subflow_id;			/* key: a reused context is another */
	struct in6_addr saddr, daddr;	/* IPv4 as v4-mapped */
	__be16 sport, dport;
	bool backup, active;
	struct qa_queue_parts queue;
	u32 queued_pkts;	/* n_k: unsent + the queue per queue_source */
	u32 unsent_bytes;	/* in the subflow's socket, not sent yet */
	u64 picks;		/* since the subflow took this slot */
	u64 srtt_ns;
	u64 wait_ns;		/* W_k */
	u64 service_ns;		/* S_k */
};

/* A connection's statistics, as one netlink message reports them. */
struct qa_stats_snap {
	const struct qa_sched *sched;
	u32 token;
	u32 n;			/* subflows in @sf */
	u64 calls;		/* decisions asked of the connection */
	u64 refusals;		/* of them, with no subflow to send on */
	struct qa_sf_stats sf[TW_QA_MAX_SUBFLOWS];
};

/*
 * Per-connection statistics, allocated with the connection's state
 * (conn.c) and listed in a registry (stats.c) for the netlink dump.  @s
 * is written at each decision and copied by readers, both under @lock
 * (_bh: decisions run in softirq too).
 */
struct qa_stats {
	spinlock_t lock;
	u32 id;			/* index in the registry; 0: unlisted */
	possible_net_t net;	/* the connection's; compared only */
	struct rcu_head rcu;
	struct qa_stats_snap s;
};

/*
 * stats.c: allocated with the connection's state (conn.c), NULL when out
 * of memory; unlisted when the connection is released, freed with it.
 */
struct qa_stats *qa_stats_new(const struct mptcp_sock *msk,
			      const struct qa_sched *sched, gfp_t gfp);
void qa_stats_unlist(struct qa_stats *st);
void qa_stats_free(struct qa_stats *st);
/* Both under st->lock, once per decision: the connection, then each subflow. */
void qa_stats_conn(struct qa_stats *st, const struct mptcp_sock *msk,
		   unsigned int n, bool picked);
void qa_stats_subflow(struct qa_sf_stats *sf,
		      const struct mptcp_subflow_context *subflow,
		      const struct tw_sf_view *v,
		      const struct qa_queue_parts *queue, bool picked);
/*
 * The first connection of @net listed at *@index or after: 1 with it
 * copied into @out and its index in *@index, 0 when there is none, or
 * -EAGAIN after a bounded scan found none yet (*@index: where to go on).
 */
int qa_stats_read(const struct net *net, unsigned long *index,
		  struct qa_stats_snap *out);

/* netlink.c: the "qaware" generic netlink family. */
int qa_nl_init(void);
void qa_nl_exit(void);

#endif
