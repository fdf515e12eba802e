// SPDX-License-Identifier: GPL-2.0
/*
 * The lifetime of a connection's scheduler state.
 *
 * State exists only for a connection that asked for a decision: a socket
 * that never connects, a listener, or one refused at creation costs
 * nothing.  At its first decision the connection gets its own copy of its
 * scheduler's ops with the state behind it, and msk->sched points to that
 * copy: each later decision finds its state in one step, however many
 * connections there are.  The state is charged to the socket's memory
 * cgroup, and at most max_conns exist: beyond that, or when the cgroup is
 * full, decisions are made without state (sched.c).
 *
 * 6.12 calls release() only from __mptcp_destroy_sock(): a socket refused
 * after init() (by a cgroup sock_create program) is freed without it, and
 * the module reference mptcp_init_sched() took for it would stay forever.
 * So init() wraps the socket's destructor, which gives that reference back
 * when release() never ran, and release() unwraps it.  A socket with state
 * keeps the wrapper: the kernel still reads sched->owner from the copy
 * after release(), so the copy is freed with the socket, and the socket
 * holds a module reference of its own until then.
 *
 * Locking: msk->sched changes under the MPTCP socket lock (a decision) or
 * before the socket is visible (init()); the table of states, by socket,
 * is an rhashtable (its own locking, RCU readers), used only when a state
 * is created, unlisted and freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/rhashtable.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <net/inet_common.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include "private.h"
#include "internal.h"

static unsigned int max_conns = 16384;
module_param(max_conns, uint, 0644);
MODULE_PARM_DESC(max_conns, "connections with scheduler state at most; beyond, decisions are made without it (default 16384)");

static atomic_t qa_nr_conns = ATOMIC_INIT(0);
static atomic64_t qa_stateless = ATOMIC64_INIT(0);
static unsigned int qa_steps_max;
static unsigned int qa_state_bytes;

static const struct rhashtable_params qa_conn_params = {
	.head_offset = offsetof(struct qa_conn_hdr, node),
	.key_offset = offsetof(struct qa_conn_hdr, msk),
	.key_len = sizeof_field(struct qa_conn_hdr, msk),
	.automatic_shrinking = true,
};

static struct rhashtable qa_conn_table;

/* One of the registered schedulers, not a connection's copy? */
static struct qa_sched *qa_static_sched(const struct mptcp_sched_ops *ops)
{
	unsigned int i;

	for (i = 0; i < qa_nr_scheds; i++)
		if (ops == &qa_scheds[i].ops)
			return &qa_scheds[i];
	return NULL;
}

struct qa_sched *qa_sched_of(const struct mptcp_sock *msk)
{
	const struct mptcp_sched_ops *ops = READ_ONCE(msk->sched);
	struct qa_sched *sched = qa_static_sched(ops);

	return sched ?: container_of(ops, struct qa_conn_hdr, ops)->sched;
}

/* Unlisted and freed after a grace period: RCU readers of the table. */
static void qa_conn_free(struct qa_conn_hdr *conn)
{
	rhashtable_remove_fast(&qa_conn_table, &conn->node, qa_conn_params);
	qa_stats_free(conn->stats);
	atomic_dec(&qa_nr_conns);
	kfree_rcu(conn, rcu);
}

/*
 * The socket is being freed (by its destructor, below): its state goes,
 * and the module references it held are counted for the caller to give
 * back last.  msk->sched still set means release() never ran, so the
 * kernel's reference is still held too (mptcp_init_sched() cannot have
 * failed for a passive socket, whose sched is copied from its listener:
 * the listener holds the module).
 */
static unsigned int qa_sk_forget(struct sock *sk)
{
	struct mptcp_sock *msk = qa_msk(sk);
	unsigned int refs = msk->sched ? 1 : 0;
	struct qa_conn_hdr *conn;

	conn = rhashtable_lookup_fast(&qa_conn_table, &msk, qa_conn_params);
	if (conn) {
		qa_conn_free(conn);
		refs++;
	}
	return refs;
}

/*
 * The last thing the module does for a socket: the code after the last
 * module_put() is this function's return, as for any module that drops
 * its own reference.
 */
static void qa_put_refs(unsigned int refs)
{
	while (refs--)
		module_put(THIS_MODULE);
}

static void qa_sk_destruct4(struct sock *sk)
{
	unsigned int refs = qa_sk_forget(sk);

	inet_sock_destruct(sk);
	qa_put_refs(refs);
}

#if IS_ENABLED(CONFIG_MPTCP_IPV6)
static void qa_sk_destruct6(struct sock *sk)
{
	unsigned int refs = qa_sk_forget(sk);

	inet6_sock_destruct(sk);
	qa_put_refs(refs);
}
#endif

static bool qa_sk_wrapped(const struct sock *sk)
{
#if IS_ENABLED(CONFIG_MPTCP_IPV6)
	if (sk->sk_destruct == qa_sk_destruct6)
		return true;
#endif
	return sk->sk_destruct == qa_sk_destruct4;
}

/*
 * inet_create() and inet6_create() set these destructors before init();
 * a passive socket inherits its listener's, wrapped already.  Another one
 * stays as it is: such a socket gets no state (qa_conn_new()).
 */
static void qa_sk_wrap(struct sock *sk)
{
	if (sk->sk_destruct == inet_sock_destruct)
		sk->sk_destruct = qa_sk_destruct4;
#if IS_ENABLED(CONFIG_MPTCP_IPV6)
	else if (sk->sk_destruct == inet6_sock_destruct)
		sk->sk_destruct = qa_sk_destruct6;
#endif
}

static void qa_sk_unwrap(struct sock *sk)
{
	if (sk->sk_destruct == qa_sk_destruct4)
		sk->sk_destruct = inet_sock_destruct;
#if IS_ENABLED(CONFIG_MPTCP_IPV6)
	else if (sk->sk_destruct == qa_sk_destruct6)
		sk->sk_destruct = inet6_sock_destruct;
#endif
}

/* The scheduler's init(): nothing is allocated (see above). */
void qa_conn_init(struct mptcp_sock *msk)
{
	struct sock *sk = (struct sock *)msk;

	/*
	 * A passive socket is given its listener's ops: a copy if the
	 * listener had state (it connected once, then listened).
	 */
	if (!qa_static_sched(msk->sched))
		msk->sched = &qa_sched_of(msk)->ops;
	qa_sk_wrap(sk);
}

/*
 * The scheduler's release(), msk->sched already NULL.  Without state the
 * socket no longer needs the module (the kernel gives its reference back
 * next); with state, the socket's destructor frees it.
 */
void qa_conn_release(struct mptcp_sock *msk)
{
	struct qa_conn_hdr *conn;

	conn = rhashtable_lookup_fast(&qa_conn_table, &msk, qa_conn_params);
	if (conn)
		qa_stats_unlist(conn->stats);
	else
		qa_sk_unwrap((struct sock *)msk);
}

/*
 * The memory cgroup the socket is charged to: a passive one is not (6.12
 * charges only its first subflow, at accept()).  NULL: in a task, the
 * task's cgroup is charged; in softirq, none.
 */
static struct mem_cgroup *qa_memcg(const struct mptcp_sock *msk)
{
	const struct sock *ssk = READ_ONCE(msk->first);
	struct mem_cgroup *memcg;

	memcg = mem_cgroup_from_sk((const struct sock *)msk);
	if (!memcg && ssk)
		memcg = mem_cgroup_from_sk(ssk);
	return memcg;
}

/*
 * Zeroed state of @size bytes, its statistics, charged to the socket's
 * cgroup.  No __GFP_HIGH: state is optional, a full cgroup refuses it.
 */
static struct qa_conn_hdr *qa_conn_alloc(struct mptcp_sock *msk,
					 struct qa_sched *sched, size_t size)
{
	const gfp_t gfp = GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT;
	struct mem_cgroup *memcg = qa_memcg(msk), *old = NULL;
	struct qa_conn_hdr *conn;

	if (memcg)
		old = set_active_memcg(memcg);
	conn = kzalloc(size, gfp);
	if (conn) {
		conn->stats = qa_stats_new(msk, sched, gfp);
		if (!conn->stats) {
			kfree(conn);
			conn = NULL;
		}
	}
	if (memcg)
		set_active_memcg(old);
	return conn;
}

static struct qa_conn_hdr *qa_conn_new(struct mptcp_sock *msk,
				       struct qa_sched *sched, size_t size)
{
	struct qa_conn_hdr *conn = NULL;

	/* only the wrapped destructor frees state */
	if (!qa_sk_wrapped((struct sock *)msk))
		return NULL;
	if (atomic_inc_return(&qa_nr_conns) <= READ_ONCE(max_conns))
		conn = qa_conn_alloc(msk, sched, size);
	if (!conn)
		goto out;
	conn->msk = msk;
	conn->sched = sched;
	conn->ops = sched->ops;
	INIT_LIST_HEAD(&conn->ops.list);
	if (rhashtable_lookup_insert_fast(&qa_conn_table, &conn->node,
					  qa_conn_params)) {
		qa_stats_free(conn->stats);
		kfree(conn);
		conn = NULL;
		goto out;
	}
	WRITE_ONCE(qa_state_bytes, kmalloc_size_roundup(size) +
		   kmalloc_size_roundup(sizeof(*conn->stats)));
	/* held by the socket until its destructor frees the state */
	__module_get(THIS_MODULE);
	WRITE_ONCE(msk->sched, &conn->ops);
	return conn;
out:
	atomic_dec(&qa_nr_conns);
	return NULL;
}

/* The most states a lookup compared, per connection and over all. */
static void qa_conn_steps(struct qa_conn_hdr *conn, unsigned int steps)
{
	if (steps > conn->lookup_steps)
		conn->lookup_steps = steps;
	if (steps > READ_ONCE(qa_steps_max))
		WRITE_ONCE(qa_steps_max, steps);
}

struct qa_conn_hdr *qa_conn_get(struct mptcp_sock *msk, size_t size,
				bool *fresh)
{
	struct mptcp_sched_ops *ops = msk->sched;
	struct qa_sched *sched = qa_static_sched(ops);
	struct qa_conn_hdr *conn;

	*fresh = false;
	if (!sched) {
		conn = container_of(ops, struct qa_conn_hdr, ops);
		qa_conn_steps(conn, 1);
		/* init() gives a passive socket its own ops: never another's */
		if (WARN_ON_ONCE(conn->msk != msk))
			return NULL;
		return conn;
	}
	conn = qa_conn_new(msk, sched, size);
	if (!conn) {
		atomic64_inc(&qa_stateless);
		return NULL;
	}
	*fresh = true;
	qa_conn_steps(conn, 1);
	return conn;
}

/* Read-only: what the states cost and how they are found. */
static int qa_conns_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE,
			 "live %d\nmax %u\nstate_bytes %u\nstateless %lld\nlookup_steps_max %u\n",
			 atomic_read(&qa_nr_conns), READ_ONCE(max_conns),
			 READ_ONCE(qa_state_bytes),
			 atomic64_read(&qa_stateless), READ_ONCE(qa_steps_max));
}

static const struct kernel_param_ops qa_conns_ops = {
	.get = qa_conns_get,
};
module_param_cb(conns, &qa_conns_ops, NULL, 0444);
MODULE_PARM_DESC(conns, "connections with state now, max_conns, bytes of one state, decisions made without state, most states one lookup compared");

int qa_conns_init(void)
{
	return rhashtable_init(&qa_conn_table, &qa_conn_params);
}

/* Every socket with state held the module: none is left. */
void qa_conns_exit(void)
{
	rhashtable_destroy(&qa_conn_table);
}
