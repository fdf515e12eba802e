/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requests of the qaware family: the module's schedulers and what they
 * decided, in total and per connection and subflow.
 */
#ifndef TW_QAWARE_CLIENT_H
#define TW_QAWARE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include <netinet/in.h>

#include "family.h"

/* Subflows of one connection a reply carries, at most. */
#define QAWARE_SUBFLOWS_MAX	16

struct qaware_sched {
	char name[QAWARE_NAME_MAX_LEN + 1];
	uint64_t decisions;
	uint64_t refusals;
	uint64_t waits;
};

/* One subflow as its connection's last decision saw it (qaware.h). */
struct qaware_subflow {
	uint32_t index;
	int family;			/* AF_INET or AF_INET6 */
	struct in6_addr saddr, daddr;	/* IPv4: the first 4 bytes */
	uint16_t sport, dport;		/* host order */
	uint32_t ifindex;
	uint32_t queue_ifindex, queue_devs;	/* where n_k's queue was read */
	bool bql, backup, active;
	uint64_t picks;
	uint32_t queued_pkts;		/* n_k */
	uint32_t bql_bytes, qdisc_bytes, unsent_bytes;
	uint64_t srtt_ns, wait_ns, service_ns;	/* W_k, S_k */
};

struct qaware_conn {
	char sched[QAWARE_NAME_MAX_LEN + 1];
	uint32_t token;
	uint64_t calls, refusals;
	unsigned int n;
	struct qaware_subflow sf[QAWARE_SUBFLOWS_MAX];
};

/* Called per scheduler of a reply; a negative errno stops the request. */
typedef int (*qaware_sched_fn)(const struct qaware_sched *s, void *arg);

/*
 * The scheduler called name, or every one (name NULL), on a socket
 * connected to the family.  Returns 0 or -errno (tw_nl_perror() explains
 * a kernel's refusal).
 */
int qaware_sched_get(struct tw_nl *nl, const char *name, qaware_sched_fn fn,
		     void *arg);

typedef int (*qaware_conn_fn)(const struct qaware_conn *c, void *arg);

/*
 * The connections of the caller's network namespace that use one of the
 * module's schedulers (only sched's when not NULL).  As qaware_sched_get().
 */
int qaware_conn_get(struct tw_nl *nl, const char *sched, qaware_conn_fn fn,
		    void *arg);

#endif /* TW_QAWARE_CLIENT_H */
