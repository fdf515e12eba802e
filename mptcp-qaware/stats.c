// SPDX-License-Identifier: GPL-2.0
/*
 * Per-connection decision statistics: what each decision saw of the
 * subflows (n_k, S_k, W_k, SRTT) and picked, kept in the connection's
 * state and listed in a registry that the netlink dump walks.
 *
 * Locking: the registry is an XArray (its own lock, _bh: connections come
 * and go in softirq too), read under RCU; an entry is freed by kfree_rcu()
 * after it left the registry, so a reader under rcu_read_lock() may still
 * take its lock.  The values are written under
 * the entry's lock by the decision (which the MPTCP socket lock already
 * serialises) and copied under it, so a reader sees one decision whole.
 */
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include "private.h"
#include "internal.h"

/* Cyclic ids: a dump resumes after the last one it sent. */
static DEFINE_XARRAY_FLAGS(qa_stats_reg, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
static u32 qa_stats_next_id;

/* At a decision, in softirq too: @gfp from conn.c, which charges it. */
struct qa_stats *qa_stats_new(const struct mptcp_sock *msk,
			      const struct qa_sched *sched, gfp_t gfp)
{
	struct qa_stats *st = kzalloc(sizeof(*st), gfp);

	if (!st)
		return NULL;
	spin_lock_init(&st->lock);
	write_pnet(&st->net, sock_net((const struct sock *)msk));
	st->s.sched = sched;
	if (xa_alloc_cyclic_bh(&qa_stats_reg, &st->id, st, xa_limit_32b,
			       &qa_stats_next_id, gfp) < 0) {
		kfree(st);
		return NULL;
	}
	return st;
}

/* Released: no longer listed, though its memory stays with the socket. */
void qa_stats_unlist(struct qa_stats *st)
{
	if (!st || !st->id)
		return;
	xa_erase_bh(&qa_stats_reg, st->id);
	/* the id may be someone else's from now on */
	st->id = 0;
}

void qa_stats_free(struct qa_stats *st)
{
	if (!st)
		return;
	qa_stats_unlist(st);
	/* a dump may still be copying it */
	kfree_rcu(st, rcu);
}

void qa_stats_conn(struct qa_stats *st, const struct mptcp_sock *msk,
		   unsigned int n, bool picked)
{
	u32 token = READ_ONCE(msk->token);

	lockdep_assert_held(&st->lock);
	/*
	 * After connect(AF_UNSPEC) the socket and its first subflow carry
	 * another connection: its subflows' picks and addresses start anew.
	 */
	if (token != st->s.token) {
		memset(st->s.sf, 0, sizeof(st->s.sf));
		st->s.token = token;
	}
	st->s.n = n;
	st->s.calls++;
	if (!picked)
		st->s.refusals++;
}

/* The socket's addresses and ports; an IPv4 one as v4-mapped. */
static void qa_stats_addrs(struct qa_sf_stats *sf, const struct sock *ssk)
{
	const struct inet_sock *inet = inet_sk(ssk);

	sf->sport = inet->inet_sport;
	sf->dport = inet->inet_dport;
#if IS_ENABLED(CONFIG_IPV6)
	if (ssk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&ssk->sk_v6_daddr)) {
		sf->saddr = ssk->sk_v6_rcv_saddr;
		sf->daddr = ssk->sk_v6_daddr;
		return;
	}
#endif
	ipv6_addr_set_v4mapped(inet->inet_saddr, &sf->saddr);
	ipv6_addr_set_v4mapped(inet->inet_daddr, &sf->daddr);
}

void qa_stats_subflow(struct qa_sf_stats *sf,
		      const struct mptcp_subflow_context *subflow,
		      const struct tw_sf_view *v,
		      const struct qa_queue_parts *queue, bool picked)
{
	/* A slot taken by another subflow counts its picks afresh. */
	if (sf->subflow != subflow || sf->subflow_id != subflow->subflow_id) {
		memset(sf, 0, sizeof(*sf));
		sf->subflow = subflow;
		sf->subflow_id = subflow->subflow_id;
	}
	/* once connected: a closed socket forgets its addresses */
	if (!sf->dport)
		qa_stats_addrs(sf, qa_subflow_ssk(subflow));
	sf->backup = v->backup;
	sf->active = v->active;
	if (picked)
		sf->picks++;
	/* a closing subflow's zeros would hide what the decisions saw */
	if (!v->active)
		return;
	sf->queue = *queue;
	sf->queued_pkts = tw_qa_queued_pkts(v);
	sf->unsent_bytes = v->unsent_bytes;
	sf->srtt_ns = (u64)v->srtt_us * NSEC_PER_USEC;
	sf->wait_ns = v->wait_ns;
	sf->service_ns = tw_qa_service_ns(v);
}

/* Entries one RCU read section looks at, at most: other namespaces' too. */
#define QA_STATS_SCAN	256

int qa_stats_read(const struct net *net, unsigned long *index,
		  struct qa_stats_snap *out)
{
	unsigned int scanned = 0;
	struct qa_stats *st;
	unsigned long i;
	int found = 0;

	rcu_read_lock();
	xa_for_each_start(&qa_stats_reg, i, st, *index) {
		if (net_eq(read_pnet(&st->net), net)) {
			spin_lock_bh(&st->lock);
			*out = st->s;
			spin_unlock_bh(&st->lock);
			*index = i;
			found = 1;
			break;
		}
		if (++scanned == QA_STATS_SCAN) {
			*index = i + 1;
			found = -EAGAIN;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}
