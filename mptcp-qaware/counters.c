// SPDX-License-Identifier: GPL-2.0
/*
 * The schedulers' counters per network namespace.  A scheduler is the
 * module's, but its decisions are its connections', and those belong to
 * a namespace: "timewire qaware show" (QAWARE_CMD_SCHED_GET) reports the
 * caller's namespace's counts only.  The module's totals (qa_sched.total)
 * stay for the root-only "decisions" parameter.
 */
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "internal.h"

struct qa_net {
	struct qa_counts sched[QA_NR_SCHEDS];
};

static unsigned int qa_net_id __read_mostly;

/* Zeroed by the core for each namespace: nothing to set up or free. */
static struct pernet_operations qa_net_ops = {
	.id = &qa_net_id,
	.size = sizeof(struct qa_net),
};

int qa_counters_init(void)
{
	return register_pernet_subsys(&qa_net_ops);
}

void qa_counters_exit(void)
{
	unregister_pernet_subsys(&qa_net_ops);
}

static struct qa_counts *qa_net_counts(const struct net *net,
				       const struct qa_sched *s)
{
	struct qa_net *qn = net_generic(net, qa_net_id);

	return &qn->sched[s - qa_scheds];
}

void qa_count(const struct net *net, struct qa_sched *s,
	      enum qa_counter which, s64 n)
{
	atomic64_add(n, &s->total.c[which]);
	atomic64_add(n, &qa_net_counts(net, s)->c[which]);
}

u64 qa_count_read(const struct net *net, const struct qa_sched *s,
		  enum qa_counter which)
{
	return atomic64_read(&qa_net_counts(net, s)->c[which]);
}
