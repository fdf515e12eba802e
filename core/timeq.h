/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeq.h - time-ordered schedule queue.
 *
 * Keyed by (send time, insertion order): the earliest key pops first and
 * equal keys pop in the order they were inserted.  Two parts:
 *  - the run, a list of nodes inserted in order (each no earlier than the
 *    run's tail): a tool submitting its schedule in time order, the usual
 *    case, inserts and pops in O(1);
 *  - an intrusive red-black tree, with its first node cached, for the rest:
 *    O(log n) in the worst case, whatever order the keys come in (the
 *    structure sch_etf and sch_fq use for the same job).
 * The earliest node is the earlier of the run's head and the tree's first.
 * Remove of an arbitrary node is O(1) in the run, O(log n) in the tree.
 *
 * The queue neither allocates nor locks: the owner embeds struct
 * tw_timeq_node in its objects and serialises all calls on one queue.
 */
#ifndef _TW_TIMEQ_H
#define _TW_TIMEQ_H

#include "compat.h"

enum tw_timeq_where {
	TW_TIMEQ_OUT,			/* not queued */
	TW_TIMEQ_RUN,
	TW_TIMEQ_TREE,
};

struct tw_timeq_node {
	u64 key;			/* send time, ns */
	u64 seq;			/* insertion order: equal keys pop FIFO */
	struct tw_timeq_node *parent;	/* tree only */
	/* tree: [0] earlier, [1] later child; run: [0] previous, [1] next */
	struct tw_timeq_node *child[2];
	u8 red;				/* tree only */
	u8 where;			/* enum tw_timeq_where */
};

struct tw_timeq {
	struct tw_timeq_node *root;	/* of the tree */
	struct tw_timeq_node *first;	/* the tree's earliest */
	struct tw_timeq_node *run_head;
	struct tw_timeq_node *run_tail;
	u64 next_seq;
	u32 len;
};

void tw_timeq_init(struct tw_timeq *q);
void tw_timeq_insert(struct tw_timeq *q, struct tw_timeq_node *n, u64 key);
struct tw_timeq_node *tw_timeq_pop(struct tw_timeq *q);
void tw_timeq_remove(struct tw_timeq *q, struct tw_timeq_node *n);

/* Strict (key, seq) order: true if @a pops before @b. */
static inline bool tw_timeq_before(const struct tw_timeq_node *a,
				   const struct tw_timeq_node *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return a->seq < b->seq;
}

/* Earliest node, or NULL when the queue is empty. */
static inline struct tw_timeq_node *tw_timeq_peek(const struct tw_timeq *q)
{
	struct tw_timeq_node *r = q->run_head, *t = q->first;

	if (!r || (t && tw_timeq_before(t, r)))
		return t;
	return r;
}

static inline u32 tw_timeq_len(const struct tw_timeq *q)
{
	return q->len;
}

static inline bool tw_timeq_empty(const struct tw_timeq *q)
{
	return !q->len;
}

/*
 * Optional: mark a node as not queued, so that tw_timeq_node_queued() can
 * be asked before it was ever inserted.  Pop and remove leave nodes in this
 * state.
 */
static inline void tw_timeq_node_init(struct tw_timeq_node *n)
{
	n->parent = NULL;
	n->child[0] = NULL;
	n->child[1] = NULL;
	n->where = TW_TIMEQ_OUT;
}

/* Whether @n (initialised, or popped/removed before) is queued in @q. */
static inline bool tw_timeq_node_queued(const struct tw_timeq *q,
					const struct tw_timeq_node *n)
{
	(void)q;	/* a node knows on its own */
	return n->where != TW_TIMEQ_OUT;
}

#endif /* _TW_TIMEQ_H */
