/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The private MPTCP structures as this module knows them.  Their layout is
 * the target kernel's BTF (qaware_layout.h, written at build time by
 * gen-private.sh: only the members used, each at its offset).  BTF carries
 * no code, so the few inline helpers of net/mptcp/protocol.h the module
 * needs are written again here, each naming the kernel helper it mirrors
 * and the releases it was compared with (Documentation/qaware.rst, "The
 * private layout").
 */
#ifndef QAWARE_PRIVATE_H
#define QAWARE_PRIVATE_H

#include <linux/list.h>
#include <net/inet_connection_sock.h>
#include <net/inet_sock.h>
#include <net/mptcp.h>
#include <net/sock.h>
#include <net/tcp.h>
#include "qaware_layout.h"

/* mptcp_sk(): the connection is its struct sock's container. */
static inline struct mptcp_sock *qa_msk(struct sock *sk)
{
	return container_of(sk, struct mptcp_sock, sk.icsk_inet.sk);
}

/* mptcp_for_each_subflow(): the subflows hang on conn_list by node. */
#define qa_for_each_subflow(msk, subflow)				\
	list_for_each_entry(subflow, &(msk)->conn_list, node)

/* mptcp_subflow_tcp_sock(): the subflow's TCP socket. */
static inline struct sock *
qa_subflow_ssk(const struct mptcp_subflow_context *subflow)
{
	return subflow->tcp_sock;
}

/*
 * mptcp_data_lock() and _unlock(): the data lock is the socket's
 * spinlock, which softirq takes without owning the socket.
 */
static inline void qa_data_lock(struct sock *sk)
{
	spin_lock_bh(&sk->sk_lock.slock);
}

static inline void qa_data_unlock(struct sock *sk)
{
	spin_unlock_bh(&sk->sk_lock.slock);
}

/* before64() and after64(): 64-bit data sequence order, modulo 2^64. */
static inline bool qa_before64(u64 seq1, u64 seq2)
{
	return (s64)(seq1 - seq2) < 0;
}

#define qa_after64(seq2, seq1)	qa_before64(seq1, seq2)

/*
 * A joined subflow counts once the peer validated it.  fully_established
 * is a bit-field before 6.13 (and 6.12.5), a bool read with READ_ONCE()
 * since: the generator tells which.
 */
static inline bool
qa_subflow_established(const struct mptcp_subflow_context *subflow)
{
#ifdef QA_BITFIELD_mptcp_subflow_context_fully_established
	return subflow->fully_established;
#else
	return READ_ONCE(subflow->fully_established);
#endif
}

/*
 * __mptcp_subflow_active() with __tcp_can_send(): a subflow may take data
 * when its join (if any) completed and its TCP side is still open for
 * sending.
 */
static inline bool qa_subflow_active(const struct mptcp_subflow_context *subflow)
{
	const struct sock *ssk = qa_subflow_ssk(subflow);

	if (subflow->request_join && !qa_subflow_established(subflow))
		return false;
	return (1 << inet_sk_state_load(ssk)) &
	       (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT);
}

#endif
