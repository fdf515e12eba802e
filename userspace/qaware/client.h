/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requests of the qaware family: the module's schedulers and what they
 * decided.
 */
#ifndef TW_QAWARE_CLIENT_H
#define TW_QAWARE_CLIENT_H

#include <stdint.h>

#include "family.h"

/* A scheduler's name, at most this many bytes. */
#define QAWARE_NAME_MAX		(QAWARE_NAME_LEN - 1)

struct qaware_sched {
	char name[QAWARE_NAME_LEN];
	uint64_t decisions;
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

#endif /* TW_QAWARE_CLIENT_H */
