/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pick.h - choosing an idle worker of a pool for the CPU that has work.
 *
 * A worker that runs again on the CPU it last ran on finds its stack and
 * data still in that CPU's caches.  Two policies look for one:
 *
 *   scan  walk the idle workers, most recently used first, for one that
 *         last ran on the CPU; else take the least recently used idle one
 *         (Caladan's sched_pick_kthread): O(idle workers);
 *   memo  last_run[cpu], the worker that last went idle on the CPU, if it
 *         is still idle and still last ran there; else the least recently
 *         used idle one (Danian): O(1).
 *
 * The idle workers are a doubly linked list of indices, most recently used
 * at the head, so that any member leaves it in O(1).  Nothing is allocated
 * after creation.  The caller serialises get, put and ran on one pool (a
 * spinlock in the kernel); the stats are read under the same lock.
 */
#ifndef _TW_PICK_H
#define _TW_PICK_H

#include "compat.h"

#define TW_PICK_MAX_WORKERS	4096
#define TW_PICK_MAX_CPUS	8192

enum tw_pick_policy {
	TW_PICK_MEMO,
	TW_PICK_SCAN,
	TW_PICK_POLICY_COUNT,
};

struct tw_pick_stats {
	u64 picks;		/* tw_pick_get calls that returned a worker */
	u64 none_idle;		/* tw_pick_get calls that found no idle worker */
	u64 memo_hits;		/* memo policy: last_run[cpu] was valid and taken */
	u64 scan_steps;		/* scan policy: idle-list entries examined */
	u64 ran_on_cpu;		/* tw_pick_ran: the worker ran on its CPU */
	u64 ran_elsewhere;	/* tw_pick_ran: on another one */
};

struct tw_pick;

/*
 * A pool of @workers workers (1..TW_PICK_MAX_WORKERS), all idle, for CPUs
 * 0..@cpus - 1 (1..TW_PICK_MAX_CPUS).  The first picks take the workers in
 * index order.  May sleep.
 */
int tw_pick_create(struct tw_pick **pp, u32 workers, u32 cpus);
void tw_pick_destroy(struct tw_pick *p);

/*
 * Pick an idle worker for CPU @cpu and mark it busy, remembering @cpu as
 * the one it was picked for.  Returns its index, or -1 when none is idle
 * (or, with a warning, when @policy or @cpu is out of range).
 */
int tw_pick_get(struct tw_pick *p, enum tw_pick_policy policy, u32 cpu);

/*
 * Worker @w, busy, goes idle after running on CPU @cpu: it becomes the most
 * recently used idle worker, and last_run[cpu] = @w.
 */
void tw_pick_put(struct tw_pick *p, u32 w, u32 cpu);

/*
 * Worker @w (picked) started running on CPU @cpu: counts ran_on_cpu or
 * ran_elsewhere against the CPU it was picked for, and records @cpu as
 * where it last ran.
 */
void tw_pick_ran(struct tw_pick *p, u32 w, u32 cpu);

void tw_pick_get_stats(const struct tw_pick *p, struct tw_pick_stats *st);
bool tw_pick_is_idle(const struct tw_pick *p, u32 w);
/* Idle workers now. */
u32 tw_pick_idle(const struct tw_pick *p);
/* "memo", "scan"; "?" out of range. */
const char *tw_pick_policy_name(enum tw_pick_policy policy);

#endif /* _TW_PICK_H */
