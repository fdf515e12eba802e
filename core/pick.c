// SPDX-License-Identifier: GPL-2.0
/*
 * pick.c - the idle-worker pick of a worker pool, by scan or by memo (see
 * pick.h).
 *
 * The idle list is linked by worker index through an array with one more
 * slot than there are workers: that last slot is the list head, so that
 * neither an empty list nor its ends need a case of their own.  A busy
 * worker is off the list, its links TW_PICK_NONE.
 */
#include "pick.h"

#define TW_PICK_NONE	U32_MAX

struct tw_pick_worker {
	u32 next;		/* towards less recently used; NONE: busy */
	u32 prev;
	u32 last_cpu;		/* where it last ran; NONE before it ran */
	u32 picked_cpu;		/* what it was last picked for */
};

struct tw_pick {
	struct tw_pick_worker *w;	/* workers + 1, the head last */
	u32 *last_run;			/* per CPU: the worker last put there */
	u32 workers;			/* also the head's index */
	u32 cpus;
	u32 idle;
	struct tw_pick_stats stats;
};

static const char *const tw_pick_policy_names[TW_PICK_POLICY_COUNT] = {
	[TW_PICK_MEMO] = "memo",
	[TW_PICK_SCAN] = "scan",
};

const char *tw_pick_policy_name(enum tw_pick_policy policy)
{
	return (unsigned int)policy < TW_PICK_POLICY_COUNT ?
	       tw_pick_policy_names[policy] : "?";
}

static bool tw_pick_worker_idle(const struct tw_pick *p, u32 w)
{
	return p->w[w].next != TW_PICK_NONE;
}

/* @w becomes the most recently used idle worker. */
static void tw_pick_link_head(struct tw_pick *p, u32 w)
{
	struct tw_pick_worker *head = &p->w[p->workers];

	p->w[w].next = head->next;
	p->w[w].prev = p->workers;
	p->w[head->next].prev = w;
	head->next = w;
	p->idle++;
}

static void tw_pick_unlink(struct tw_pick *p, u32 w)
{
	struct tw_pick_worker *x = &p->w[w];

	p->w[x->prev].next = x->next;
	p->w[x->next].prev = x->prev;
	x->next = TW_PICK_NONE;
	x->prev = TW_PICK_NONE;
	p->idle--;
}

/* The least recently used idle worker; the head's index when none. */
static u32 tw_pick_lru(const struct tw_pick *p)
{
	return p->w[p->workers].prev;
}

/* Danian: the memo, if the worker is still idle and has not moved since. */
static u32 tw_pick_memo(struct tw_pick *p, u32 cpu)
{
	u32 w = p->last_run[cpu];

	if (w != TW_PICK_NONE && tw_pick_worker_idle(p, w) &&
	    p->w[w].last_cpu == cpu) {
		p->stats.memo_hits++;
		return w;
	}
	return tw_pick_lru(p);
}

/* Caladan: the most recently used idle worker that last ran on @cpu. */
static u32 tw_pick_scan(struct tw_pick *p, u32 cpu)
{
	u32 head = p->workers, steps = 0, w;

	for (w = p->w[head].next; w != head; w = p->w[w].next) {
		steps++;
		if (p->w[w].last_cpu == cpu)
			break;
	}
	p->stats.scan_steps += steps;
	return w != head ? w : tw_pick_lru(p);
}

int tw_pick_get(struct tw_pick *p, enum tw_pick_policy policy, u32 cpu)
{
	u32 w;

	if (WARN_ON_ONCE(cpu >= p->cpus ||
			 (unsigned int)policy >= TW_PICK_POLICY_COUNT))
		return -1;
	w = policy == TW_PICK_MEMO ? tw_pick_memo(p, cpu) :
				     tw_pick_scan(p, cpu);
	if (w == p->workers) {
		p->stats.none_idle++;
		return -1;
	}
	tw_pick_unlink(p, w);
	p->w[w].picked_cpu = cpu;
	p->stats.picks++;
	return w;
}

void tw_pick_put(struct tw_pick *p, u32 w, u32 cpu)
{
	if (WARN_ON_ONCE(w >= p->workers || tw_pick_worker_idle(p, w)))
		return;
	/* idle again all the same, or the pool would lose the worker */
	if (WARN_ON_ONCE(cpu >= p->cpus))
		cpu = TW_PICK_NONE;
	else
		p->last_run[cpu] = w;
	p->w[w].last_cpu = cpu;
	tw_pick_link_head(p, w);
}

void tw_pick_ran(struct tw_pick *p, u32 w, u32 cpu)
{
	if (WARN_ON_ONCE(w >= p->workers || tw_pick_worker_idle(p, w) ||
			 cpu >= p->cpus))
		return;
	if (cpu == p->w[w].picked_cpu)
		p->stats.ran_on_cpu++;
	else
		p->stats.ran_elsewhere++;
	p->w[w].last_cpu = cpu;
}

void tw_pick_get_stats(const struct tw_pick *p, struct tw_pick_stats *st)
{
	*st = p->stats;
}

bool tw_pick_is_idle(const struct tw_pick *p, u32 w)
{
	return w < p->workers && tw_pick_worker_idle(p, w);
}

u32 tw_pick_idle(const struct tw_pick *p)
{
	return p->idle;
}

int tw_pick_create(struct tw_pick **pp, u32 workers, u32 cpus)
{
	struct tw_pick *p;
	u32 i;

	if (!workers || workers > TW_PICK_MAX_WORKERS ||
	    !cpus || cpus > TW_PICK_MAX_CPUS)
		return -EINVAL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->w = kvcalloc(workers + 1, sizeof(*p->w), GFP_KERNEL);
	p->last_run = kvcalloc(cpus, sizeof(*p->last_run), GFP_KERNEL);
	if (!p->w || !p->last_run) {
		tw_pick_destroy(p);
		return -ENOMEM;
	}
	p->workers = workers;
	p->cpus = cpus;
	for (i = 0; i < cpus; i++)
		p->last_run[i] = TW_PICK_NONE;
	/* the head alone: an empty list */
	p->w[workers].next = workers;
	p->w[workers].prev = workers;
	p->w[workers].last_cpu = TW_PICK_NONE;
	/* worker 0 least recently used: the first picks go in index order */
	for (i = 0; i < workers; i++) {
		p->w[i].last_cpu = TW_PICK_NONE;
		p->w[i].picked_cpu = TW_PICK_NONE;
		tw_pick_link_head(p, i);
	}
	*pp = p;
	return 0;
}

void tw_pick_destroy(struct tw_pick *p)
{
	if (!p)
		return;
	kvfree(p->last_run);
	kvfree(p->w);
	kfree(p);
}
