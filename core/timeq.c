// SPDX-License-Identifier: GPL-2.0
/*
 * timeq.c - the run and the red-black tree of the schedule queue.
 *
 * The tree is the textbook algorithm with parent pointers and NULL leaves
 * (black).
 * Both mirror images of every case are one piece of code: child[dir] is
 * the side the case looks at, child[!dir] the other.  No recursion, so
 * kernel stack use stays constant.
 */
#include "timeq.h"

void tw_timeq_init(struct tw_timeq *q)
{
	q->root = NULL;
	q->first = NULL;
	q->run_head = NULL;
	q->run_tail = NULL;
	q->next_seq = 0;
	q->len = 0;
}

static bool tw_timeq_red(const struct tw_timeq_node *n)
{
	return n && n->red;
}

/* Put @new where @old hangs below @parent (NULL: the root). */
static void tw_timeq_replace(struct tw_timeq *q, struct tw_timeq_node *parent,
			     struct tw_timeq_node *old,
			     struct tw_timeq_node *new)
{
	if (!parent)
		q->root = new;
	else
		parent->child[parent->child[1] == old] = new;
	if (new)
		new->parent = parent;
}

/* Rotate @x down towards child[@dir]; its child[!dir] takes its place. */
static void tw_timeq_rotate(struct tw_timeq *q, struct tw_timeq_node *x,
			    int dir)
{
	struct tw_timeq_node *y = x->child[!dir];

	x->child[!dir] = y->child[dir];
	if (y->child[dir])
		y->child[dir]->parent = x;
	tw_timeq_replace(q, x->parent, x, y);
	y->child[dir] = x;
	x->parent = y;
}

/* The tree node after @n in key order, or NULL. */
static struct tw_timeq_node *tw_timeq_next(struct tw_timeq_node *n)
{
	struct tw_timeq_node *p;

	if (n->child[1]) {
		n = n->child[1];
		while (n->child[0])
			n = n->child[0];
		return n;
	}
	while ((p = n->parent) && p->child[1] == n)
		n = p;
	return p;
}

/* Restore the red-black rules after linking the red leaf @z. */
static void tw_timeq_insert_fixup(struct tw_timeq *q, struct tw_timeq_node *z)
{
	struct tw_timeq_node *p, *g, *u;
	int dir;

	while ((p = z->parent) && p->red) {
		g = p->parent;		/* a red node is never the root */
		dir = g->child[1] == p;
		u = g->child[!dir];
		if (tw_timeq_red(u)) {
			p->red = false;
			u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (z == p->child[!dir]) {
			tw_timeq_rotate(q, p, dir);
			z = p;
			p = z->parent;
		}
		p->red = false;
		g->red = true;
		tw_timeq_rotate(q, g, !dir);
	}
	q->root->red = false;
}

static void tw_timeq_tree_insert(struct tw_timeq *q, struct tw_timeq_node *n)
{
	struct tw_timeq_node *parent = NULL, *at = q->root;
	bool first = true;
	int dir = 0;

	while (at) {
		parent = at;
		dir = !tw_timeq_before(n, at);
		first &= !dir;
		at = at->child[dir];
	}
	n->parent = parent;
	n->child[0] = NULL;
	n->child[1] = NULL;
	n->red = true;
	n->where = TW_TIMEQ_TREE;
	if (parent)
		parent->child[dir] = n;
	else
		q->root = n;
	if (first)
		q->first = n;
	tw_timeq_insert_fixup(q, n);
}

void tw_timeq_insert(struct tw_timeq *q, struct tw_timeq_node *n, u64 key)
{
	struct tw_timeq_node *tail = q->run_tail;

	n->key = key;
	n->seq = q->next_seq++;
	q->len++;
	if (tail && n->key < tail->key) {
		tw_timeq_tree_insert(q, n);
		return;
	}
	/* No earlier than the run's tail (seq breaks the tie): append. */
	n->parent = NULL;
	n->child[0] = tail;
	n->child[1] = NULL;
	n->where = TW_TIMEQ_RUN;
	if (tail)
		tail->child[1] = n;
	else
		q->run_head = n;
	q->run_tail = n;
}

/* Restore the rules after a black node left above @x, child of @xp. */
static void tw_timeq_erase_fixup(struct tw_timeq *q, struct tw_timeq_node *x,
				 struct tw_timeq_node *xp)
{
	struct tw_timeq_node *w;
	int dir;

	while (x != q->root && !tw_timeq_red(x)) {
		dir = xp->child[1] == x;
		/* The lost black height means the sibling exists. */
		w = xp->child[!dir];
		if (w->red) {
			w->red = false;
			xp->red = true;
			tw_timeq_rotate(q, xp, dir);
			w = xp->child[!dir];
		}
		if (!tw_timeq_red(w->child[0]) && !tw_timeq_red(w->child[1])) {
			w->red = true;
			x = xp;
			xp = x->parent;
			continue;
		}
		if (!tw_timeq_red(w->child[!dir])) {
			w->child[dir]->red = false;
			w->red = true;
			tw_timeq_rotate(q, w, !dir);
			w = xp->child[!dir];
		}
		w->red = xp->red;
		xp->red = false;
		w->child[!dir]->red = false;
		tw_timeq_rotate(q, xp, dir);
		x = q->root;
	}
	if (x)
		x->red = false;
}

static void tw_timeq_erase(struct tw_timeq *q, struct tw_timeq_node *z)
{
	struct tw_timeq_node *y, *x, *xp;
	bool removed_red = z->red;

	if (!z->child[0] || !z->child[1]) {
		x = z->child[0] ? z->child[0] : z->child[1];
		xp = z->parent;
		tw_timeq_replace(q, z->parent, z, x);
	} else {
		/* Two children: the next node in order takes z's place. */
		y = z->child[1];
		while (y->child[0])
			y = y->child[0];
		removed_red = y->red;
		x = y->child[1];
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			tw_timeq_replace(q, y->parent, y, x);
			y->child[1] = z->child[1];
			y->child[1]->parent = y;
		}
		tw_timeq_replace(q, z->parent, z, y);
		y->child[0] = z->child[0];
		y->child[0]->parent = y;
		y->red = z->red;
	}
	if (!removed_red)
		tw_timeq_erase_fixup(q, x, xp);
}

static void tw_timeq_run_remove(struct tw_timeq *q, struct tw_timeq_node *n)
{
	struct tw_timeq_node *prev = n->child[0], *next = n->child[1];

	if (prev)
		prev->child[1] = next;
	else
		q->run_head = next;
	if (next)
		next->child[0] = prev;
	else
		q->run_tail = prev;
}

void tw_timeq_remove(struct tw_timeq *q, struct tw_timeq_node *n)
{
	if (WARN_ON_ONCE(!tw_timeq_node_queued(q, n)))
		return;
	if (n->where == TW_TIMEQ_RUN) {
		tw_timeq_run_remove(q, n);
	} else {
		if (n == q->first)
			q->first = tw_timeq_next(n);
		tw_timeq_erase(q, n);
	}
	q->len--;
	tw_timeq_node_init(n);
}

struct tw_timeq_node *tw_timeq_pop(struct tw_timeq *q)
{
	struct tw_timeq_node *n = tw_timeq_peek(q);

	if (n)
		tw_timeq_remove(q, n);
	return n;
}
