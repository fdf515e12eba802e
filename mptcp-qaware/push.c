// SPDX-License-Identifier: GPL-2.0
/*
 * The send head of 6.12's push loop, moved by the schedulers.
 *
 * The kernel keeps one send head per connection (msk->first_pending and
 * each fragment's already_sent): __mptcp_push_pending() hands every
 * scheduled subflow the data after it and moves it on.  To send data again
 * (a subflow went stale; redundant's slower subflow catches up), the head
 * is moved back, as the kernel itself does when a subflow closes or goes
 * stale (__mptcp_retransmit_pending_data(), not exported): the fragments
 * from there on count as unsent, and recovery mode lets ACKs arrive for
 * data beyond the head.  Fragments, their memory and the retransmission
 * queue stay the kernel's; only these fields are written, recovery mode
 * under the data lock.
 *
 * Caller: a scheduler's callback (sched.c), which runs either with the
 * MPTCP socket owned (process context) or under its spinlock without an
 * owner (softirq): both exclude the push paths and __mptcp_clean_una().
 */
#include <net/tcp.h>
#include "private.h"
#include "internal.h"

/*
 * snd_una and wnd_end move under the data lock, from softirq even while
 * the socket is owned: on 32-bit a read without that lock can tear.
 */
u64 qa_read_acked64(struct mptcp_sock *msk, const u64 *field)
{
#if BITS_PER_LONG == 32
	struct sock *sk = (struct sock *)msk;
	u64 val;

	/* owned: by this caller, which does not hold the data lock */
	if (sock_owned_by_user(sk)) {
		qa_data_lock(sk);
		val = *field;
		qa_data_unlock(sk);
		return val;
	}
#endif
	return READ_ONCE(*field);
}

/* Sequence number after the last byte written by the application. */
u64 qa_data_end(const struct mptcp_sock *msk)
{
	const struct mptcp_data_frag *last;

	if (list_empty(&msk->rtx_queue))
		return msk->snd_nxt;
	last = list_last_entry(&msk->rtx_queue, struct mptcp_data_frag, list);
	return last->data_seq + last->data_len;
}

/* Where the next push starts: the send head, or the end when none. */
u64 qa_send_head(const struct mptcp_sock *msk)
{
	const struct mptcp_data_frag *head = msk->first_pending;

	return head ? head->data_seq + head->already_sent : qa_data_end(msk);
}

/*
 * Recovery mode, written under the data lock as the kernel's own
 * __mptcp_retransmit_pending_data() does: __mptcp_clean_una() reads it
 * there, from softirq too.  Owned: by this caller, which does not hold
 * that lock; not owned: the caller (softirq) holds it already.
 */
static void qa_set_recovery(struct mptcp_sock *msk, u64 nxt)
{
	msk->recovery_snd_nxt = nxt;
	msk->recovery = true;
}

static void qa_enter_recovery(struct mptcp_sock *msk, u64 nxt)
{
	struct sock *sk = (struct sock *)msk;

	if (!sock_owned_by_user(sk)) {
		qa_set_recovery(msk, nxt);
		return;
	}
	qa_data_lock(sk);
	qa_set_recovery(msk, nxt);
	qa_data_unlock(sk);
}

/*
 * Make the next push start at @seq (clamped to [snd_una, snd_nxt]): the
 * fragments before it count as sent, the one holding it as sent up to it,
 * the later ones as unsent.
 */
void qa_send_from(struct mptcp_sock *msk, u64 seq)
{
	u64 una = qa_read_acked64(msk, &msk->snd_una), nxt = msk->snd_nxt;
	struct mptcp_data_frag *dfrag, *head = NULL;

	if (qa_before64(seq, una))
		seq = una;
	if (qa_after64(seq, nxt))
		seq = nxt;
	if (seq == qa_send_head(msk))
		return;
	list_for_each_entry(dfrag, &msk->rtx_queue, list) {
		u64 start = dfrag->data_seq;

		if (!qa_after64(start + dfrag->data_len, seq)) {
			dfrag->already_sent = dfrag->data_len;
		} else if (!head) {
			head = dfrag;
			dfrag->already_sent = qa_after64(seq, start) ? seq - start : 0;
		} else {
			dfrag->already_sent = 0;
		}
	}
	msk->first_pending = head;
	if (qa_before64(seq, nxt))
		qa_enter_recovery(msk, nxt);
}
