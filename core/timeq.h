/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeq.h - time-ordered schedule queue.
 *
 * An intrusive pairing heap keyed by (send time, insertion order): the
 * earliest key pops first and equal keys pop in the order they were
 * inserted.  Insert is O(1), which suits the usual case of a sorted batch of
 * send times; pop and remove of an arbitrary node are amortised O(log n).
 *
 * The queue neither allocates nor locks: the owner embeds struct
 * tw_timeq_node in its objects and serialises all calls on one queue.
 */
#ifndef _TW_TIMEQ_H
#define _TW_TIMEQ_H

#include "compat.h"

struct tw_timeq_node {
	u64 key;			/* send time, ns */
	u64 seq;			/* insertion order: equal keys pop FIFO */
	struct tw_timeq_node *child;
	struct tw_timeq_node *next;
	struct tw_timeq_node *prev;	/* previous sibling, or parent if first child */
};

struct tw_timeq {
	struct tw_timeq_node *root;
	u64 next_seq;
	u32 len;
};

void tw_timeq_init(struct tw_timeq *q);
void tw_timeq_insert(struct tw_timeq *q, struct tw_timeq_node *n, u64 key);
struct tw_timeq_node *tw_timeq_pop(struct tw_timeq *q);
void tw_timeq_remove(struct tw_timeq *q, struct tw_timeq_node *n);

/* Earliest node, or NULL when the queue is empty. */
static inline struct tw_timeq_node *tw_timeq_peek(const struct tw_timeq *q)
{
	return q->root;
}

static inline u32 tw_timeq_len(const struct tw_timeq *q)
{
	return q->len;
}

static inline bool tw_timeq_empty(const struct tw_timeq *q)
{
	return !q->root;
}

/*
 * Optional: mark a node as not queued, so that tw_timeq_node_queued() can
 * be asked before it was ever inserted.  Pop and remove leave nodes in this
 * state.
 */
static inline void tw_timeq_node_init(struct tw_timeq_node *n)
{
	n->child = NULL;
	n->next = NULL;
	n->prev = NULL;
}

/* Whether @n (initialised, or popped/removed before) is queued in @q. */
static inline bool tw_timeq_node_queued(const struct tw_timeq *q,
					const struct tw_timeq_node *n)
{
	return n->prev || q->root == n;
}

/* Strict (key, seq) order: true if @a pops before @b. */
static inline bool tw_timeq_before(const struct tw_timeq_node *a,
				   const struct tw_timeq_node *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return a->seq < b->seq;
}

#endif /* _TW_TIMEQ_H */
