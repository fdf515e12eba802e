// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters of sessions and namespaces.
 *
 * Writers run in process context, in the timer softirq and in the hybrid
 * kthread with BH disabled, possibly on the same CPU: the irqsave variant
 * keeps a softirq from interrupting a process-context update of the same
 * per-CPU block on 32-bit, where the update is a seqcount write.  On 64-bit
 * it costs nothing.
 */
#include <linux/percpu.h>

#include "omw.h"

static bool omw_stat_is_max(enum omw_stat i)
{
	return i == OMW_STAT_WAKE_LATE_MAX_NS ||
	       i == OMW_STAT_SPIN_STALL_MAX_NS;
}

int omw_stats_init(struct omw_stats *st)
{
	struct omw_pcpu_stats *p;
	int cpu;

	st->pcpu = alloc_percpu(struct omw_pcpu_stats);
	if (!st->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		p = per_cpu_ptr(st->pcpu, cpu);
		u64_stats_init(&p->syncp);
	}
	return 0;
}

void omw_stats_free(struct omw_stats *st)
{
	free_percpu(st->pcpu);
	st->pcpu = NULL;
}

/* Sum the counters of every CPU (the maxima: their maximum) into @v. */
void omw_stats_read(const struct omw_stats *st, u64 *v)
{
	const struct omw_pcpu_stats *p;
	u64 one[OMW_STAT_NUM];
	unsigned int start;
	int cpu, i;

	memset(v, 0, sizeof(*v) * OMW_STAT_NUM);
	for_each_possible_cpu(cpu) {
		p = per_cpu_ptr(st->pcpu, cpu);
		do {
			start = u64_stats_fetch_begin(&p->syncp);
			for (i = 0; i < OMW_STAT_NUM; i++)
				one[i] = u64_stats_read(&p->v[i]);
		} while (u64_stats_fetch_retry(&p->syncp, start));
		for (i = 0; i < OMW_STAT_NUM; i++)
			v[i] = omw_stat_is_max(i) ? max(v[i], one[i]) :
						    v[i] + one[i];
	}
}

/* Add @v to counter @i, or raise it to @v if it is a maximum. */
static void omw_pcpu_update(struct omw_stats *st, enum omw_stat i, u64 v)
{
	struct omw_pcpu_stats *p = get_cpu_ptr(st->pcpu);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&p->syncp);
	if (!omw_stat_is_max(i))
		u64_stats_add(&p->v[i], v);
	else if (v > u64_stats_read(&p->v[i]))
		u64_stats_set(&p->v[i], v);
	u64_stats_update_end_irqrestore(&p->syncp, flags);
	put_cpu_ptr(st->pcpu);
}

/* Count @v in the session's and its namespace's counter @i. */
void omw_stat_add(struct omw_session *s, enum omw_stat i, u64 v)
{
	if (!v)
		return;
	omw_pcpu_update(&s->stats, i, v);
	omw_pcpu_update(s->net_stats, i, v);
}
