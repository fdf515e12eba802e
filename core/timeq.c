// SPDX-License-Identifier: GPL-2.0
/*
 * timeq.c - pairing heap behind the time-ordered schedule queue.
 *
 * Every node sits in one sibling list: ->prev points to the previous sibling,
 * or to the parent for the first child, so any node can be unlinked in O(1).
 * Merging children after a pop is the usual two-pass pairing, done with an
 * explicit list instead of recursion to keep kernel stack use constant.
 */
#include "timeq.h"

void tw_timeq_init(struct tw_timeq *q)
{
	q->root = NULL;
	q->next_seq = 0;
	q->len = 0;
}

/*
 * Link two detached trees (->next and ->prev NULL): the later root becomes
 * the first child of the earlier one.
 */
static struct tw_timeq_node *tw_timeq_meld(struct tw_timeq_node *a,
					   struct tw_timeq_node *b)
{
	struct tw_timeq_node *t;

	if (tw_timeq_before(b, a)) {
		t = a;
		a = b;
		b = t;
	}
	b->prev = a;
	b->next = a->child;
	if (a->child)
		a->child->prev = b;
	a->child = b;
	return a;
}

/*
 * Merge a sibling list into one detached tree.  Pass one melds neighbours
 * pairwise from the left and pushes each result on a stack (through ->next),
 * so pass two pops them right to left, melding each into the accumulator.
 */
static struct tw_timeq_node *tw_timeq_combine(struct tw_timeq_node *first)
{
	struct tw_timeq_node *stack = NULL;
	struct tw_timeq_node *a, *b, *rest;

	while (first) {
		a = first;
		b = a->next;
		rest = b ? b->next : NULL;
		a->next = NULL;
		a->prev = NULL;
		if (b) {
			b->next = NULL;
			b->prev = NULL;
			a = tw_timeq_meld(a, b);
		}
		a->next = stack;
		stack = a;
		first = rest;
	}

	if (!stack)
		return NULL;
	a = stack;
	stack = a->next;
	a->next = NULL;
	while (stack) {
		b = stack;
		stack = b->next;
		b->next = NULL;
		a = tw_timeq_meld(b, a);
	}
	return a;
}

void tw_timeq_insert(struct tw_timeq *q, struct tw_timeq_node *n, u64 key)
{
	n->key = key;
	n->seq = q->next_seq++;
	n->child = NULL;
	n->next = NULL;
	n->prev = NULL;
	q->root = q->root ? tw_timeq_meld(q->root, n) : n;
	q->len++;
}

struct tw_timeq_node *tw_timeq_pop(struct tw_timeq *q)
{
	struct tw_timeq_node *n = q->root;

	if (!n)
		return NULL;
	q->root = tw_timeq_combine(n->child);
	n->child = NULL;
	q->len--;
	return n;
}

void tw_timeq_remove(struct tw_timeq *q, struct tw_timeq_node *n)
{
	struct tw_timeq_node *sub;

	if (n == q->root) {
		tw_timeq_pop(q);
		return;
	}
	if (WARN_ON_ONCE(!n->prev))
		return;		/* not queued */

	/* Unlink n with its subtree from its sibling list. */
	if (n->prev->child == n)
		n->prev->child = n->next;
	else
		n->prev->next = n->next;
	if (n->next)
		n->next->prev = n->prev;
	n->next = NULL;
	n->prev = NULL;

	sub = tw_timeq_combine(n->child);
	n->child = NULL;
	if (sub)
		q->root = tw_timeq_meld(q->root, sub);
	q->len--;
}
