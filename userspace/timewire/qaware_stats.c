// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire qaware stats": the MPTCP connections of this network namespace
 * that use one of the module's schedulers, each subflow as the
 * connection's last decision saw it.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>

#include "lib/print.h"
#include "qaware_cli.h"

static void print_addr(const char *key, int family, const struct in6_addr *a)
{
	char buf[INET6_ADDRSTRLEN];

	if (inet_ntop(family, a, buf, sizeof(buf)))
		print_string(key, buf);
	else
		print_null(key, "?");
}

/* A device: its index, and its name while it exists in this namespace. */
static void print_dev(const char *index_key, const char *name_key,
		      uint32_t ifindex)
{
	char name[IF_NAMESIZE];

	print_uint(index_key, ifindex);
	if (ifindex && if_indextoname(ifindex, name))
		print_string(name_key, name);
}

static void print_subflow(const struct qaware_subflow *sf)
{
	open_object(NULL);
	print_uint("index", sf->index);
	print_addr("saddr", sf->family, &sf->saddr);
	print_uint("sport", sf->sport);
	print_addr("daddr", sf->family, &sf->daddr);
	print_uint("dport", sf->dport);
	print_dev("ifindex", "dev", sf->ifindex);
	print_dev("queue_ifindex", "queue_dev", sf->queue_ifindex);
	print_uint("queue_devs", sf->queue_devs);
	print_bool("active", sf->active, "active", "inactive");
	print_bool("backup", sf->backup, "backup", "regular");
	print_bool("bql", sf->bql, "bql", "no-bql");
	print_u64("picks", sf->picks);
	print_uint("queued_pkts", sf->queued_pkts);
	print_uint("bql_bytes", sf->bql_bytes);
	print_uint("qdisc_bytes", sf->qdisc_bytes);
	print_u64("srtt_ns", sf->srtt_ns);
	print_u64("wait_ns", sf->wait_ns);
	print_u64("service_ns", sf->service_ns);
	print_uint("unsent_bytes", sf->unsent_bytes);
	close_object();
}

static int print_conn(const struct qaware_conn *c, void *arg)
{
	unsigned int *count = arg;
	unsigned int i;

	(*count)++;
	open_object(NULL);
	print_name("sched", c->sched);
	print_uint("token", c->token);
	print_u64("calls", c->calls);
	print_u64("refusals", c->refusals);
	open_array("subflows");
	for (i = 0; i < c->n; i++)
		print_subflow(&c->sf[i]);
	close_array();
	close_object();
	return 0;
}

static int stats_req(struct tw_nl *nl, void *p)
{
	struct qaware_opts *o = p;
	unsigned int count = 0;
	int ret;

	ret = qaware_conn_get(nl, o->sched, print_conn, &count);
	if (!ret && !count)
		print_text("no connections");
	return ret;
}

static int stats_run(void *p, uint64_t seen)
{
	(void)seen;
	return qaware_query("conns", stats_req, p,
			   "cannot get the connections");
}

static const char stats_notes[] =
"Per connection: its scheduler, MPTCP token, calls (decisions asked of it)\n"
"and refusals (those with no subflow to send on).  Per subflow, as the last\n"
"decision saw it: picks (decisions that chose it), queued_pkts (n_k: what\n"
"waits ahead of a new packet, in packets), its parts in bytes: bql_bytes\n"
"(the device queue's BQL in flight), qdisc_bytes (the qdisc backlog above\n"
"it) and unsent_bytes (in the subflow's socket, not sent yet), srtt_ns,\n"
"wait_ns (W_k) and service_ns (S_k = SRTT - W_k).  queue_dev is where the\n"
"queue was read: dev itself, or when dev queues nothing (a VLAN, macvlan or\n"
"bond) a device below it; queue_devs how many were summed (a bond's slaves),\n"
"0 when no device on the way queues (WireGuard, PPP).\n"
"Only the connections of this network namespace are listed.\n";

const struct tw_cmd qaware_stats_cmd = {
	.name = "stats",
	.help = "the connections using the schedulers, per subflow",
	.notes = stats_notes,
	.args = qaware_sched_args,
	.opts_size = sizeof(struct qaware_opts),
	.run = stats_run,
};
