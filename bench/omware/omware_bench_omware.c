// SPDX-License-Identifier: GPL-2.0
/*
 * tw-omware-bench: the methods through omware.ko (OIR, OFR, OSM, TOM),
 * run by the omware client's session engine.
 */
#include <sched.h>
#include <stdio.h>

#include <linux/omware.h>

#include "lib/clock.h"
#include "lib/stop.h"
#include "omware/session.h"

#include "omware_bench.h"

/* ---------------------------------------------------------------------- */
/* omware methods, through the omware client's session engine */

/* Hand the packets over the way the method does; false after an error. */
static bool om_hand_over(struct bench *b, struct bm_trial *t)
{
	struct om_session *s = &b->om;
	uint64_t phi = (uint64_t)b->o->phi_us * NSEC_PER_USEC;
	size_t i;

	switch (t->m->base) {
	case BM_OIR:
		if (om_submit_all(s, om_batch_default(s)))
			return false;
		trial_handed_over(b, t);
		break;
	case BM_OFR:
	case BM_OSM:
		if (t->m->base == BM_OSM)
			phi = 0;
		for (i = 0; i < t->n && !tw_stop; i++) {
			tw_sleep_until(CLOCK_MONOTONIC, t->s[i].sched_ns - phi);
			if (om_submit(s, i, i + 1))
				return false;
		}
		break;
	case BM_TOM:
		for (i = 0; i + 1 < t->n && !tw_stop; i += 2)
			if (om_submit_train(s, i, 2, t->s[i].sched_ns))
				return false;
		trial_handed_over(b, t);
		break;
	default:
		break;
	}
	return true;
}

/* The reports into the trial's samples. */
static void om_take_reports(struct bench *b, struct bm_trial *t)
{
	const struct om_session *s = &b->om;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct om_report *r = &s->rep[i];
		struct bm_sample *smp = &t->s[i];

		if (!r->have)
			continue;
		switch (r->status) {
		case OMWARE_STATUS_SENT:
			smp->status = ST_SENT;
			break;
		case OMWARE_STATUS_DROPPED:
			smp->status = ST_DROPPED;
			break;
		default:
			smp->status = ST_CANCELLED;
		}
		if (smp->status == ST_SENT && r->sent_ns) {
			smp->sent_ns = r->sent_ns;
			smp->src = SRC_OMWARE;
		}
	}
	t->submitted = s->submitted;
	t->got = s->got;
	t->spin_ns = s->stats[OMWARE_STATS_A_SPIN_NS];
	t->spin_stalls = s->stats[OMWARE_STATS_A_SPIN_STALLS];
	t->spin_stall_max_ns = s->stats[OMWARE_STATS_A_SPIN_STALL_MAX_NS];
	/* A module without the counter measured nothing: not a 0. */
	t->cpu_irq_ns = s->stats[OMWARE_STATS_A_WORK_NS];
	t->irq_known = s->stats_has[OMWARE_STATS_A_WORK_NS];
	if (t->m->mode == OMWARE_MODE_HYBRID) {
		t->guarded = true;
		t->guard_ns = s->guard_ns;
		t->guard_misses = s->guard_misses;
	}
}

void om_trial(struct bench *b, struct bm_trial *t)
{
	struct om_session *s = &b->om;
	struct om_session_cfg cfg = {
		.ifindex = b->ifindex,
		.clock = CLOCK_MONOTONIC,
		.mode = t->m->mode,
		.xmit = t->m->xmit,
	};
	uint64_t last;
	size_t i;

	if (t->m->mode == OMWARE_MODE_HYBRID && b->o->guard_max_ns) {
		cfg.set |= OM_SET_GUARD_MAX;
		cfg.guard_max_ns = b->o->guard_max_ns;
	}
	/* The hybrid kthread on RSM-RT's CPU: the same footing. */
	if (t->m->mode == OMWARE_MODE_HYBRID) {
		cfg.set |= OM_SET_CPU;
		cfg.cpu = b->rt_cpu;
	}
	b->spec.sport = t->tag;
	if (om_run_init(s, &b->spec, t->n) || om_session_create(s, &cfg)) {
		trial_fail(t, "%s", s->err);
		return;
	}
	if (t->m->mode == OMWARE_MODE_HYBRID) {
		char comm[32];

		snprintf(comm, sizeof(comm), "omware/%u", s->id);
		t->kthread = kthread_pid(comm);
	}
	trial_schedule(b, t);
	for (i = 0; i < t->n; i++)
		s->rep[i].sched_ns = t->s[i].sched_ns;
	last = t->s[t->n - 1].sched_ns;
	if (!om_hand_over(b, t))
		trial_fail(t, "%s", s->err);

	/* Reports are taken as they come, in the CPU window too. */
	om_collect(s, last + CPU_SETTLE_NS);
	trial_window_end(t);
	/* A sender that fell behind hands the last packet over late. */
	if (mono_ns() > last)
		last = mono_ns();
	om_collect(s, last + (uint64_t)b->o->grace_ms * 1000000);
	/* The session's spinning and stalls in hybrid mode, before it goes. */
	om_session_get(s);
	om_finish(s, TRAIL_MS);
	om_take_reports(b, t);
	if (t->got < t->submitted)
		trial_fail(t, "%zu reports missing", t->submitted - t->got);
	if (s->nl.overruns)
		trial_fail(t, "netlink receive buffer overflowed, reports lost");
	s->nl.overruns = 0;
}

