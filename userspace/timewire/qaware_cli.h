/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "timewire qaware": the MPTCP schedulers of mptcp_qaware.ko.
 */
#ifndef TW_CLI_QAWARE_H
#define TW_CLI_QAWARE_H

#include "lib/args.h"
#include "qaware/client.h"

extern const struct tw_object mptcp_qaware_object;

/* The options of show and stats: a scheduler's name, or NULL for all. */
struct qaware_opts {
	const char *sched;
};

/* "[ sched ] NAME", optional. */
extern const struct tw_arg qaware_sched_args[];

/* One request on a socket connected to the family; 0 or -errno. */
typedef int (*qaware_req_fn)(struct tw_nl *nl, void *arg);

/*
 * Connect, run req with its replies printed into the array of that key,
 * close.  Returns an exit code; a failure is explained as "what: ...".
 */
int qaware_query(const char *array, qaware_req_fn req, void *arg,
		 const char *what);

/* qaware_stats.c */
extern const struct tw_cmd qaware_stats_cmd;

/* qaware_load.c */
extern const struct tw_cmd qaware_load_cmd;
extern const struct tw_cmd qaware_unload_cmd;

#endif /* TW_CLI_QAWARE_H */
