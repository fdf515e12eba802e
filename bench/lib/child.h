/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Other programs run by the benchmarks (tc, the tfib tools): started with
 * their output where the caller wants it, and waited for.
 */
#ifndef TW_CHILD_H
#define TW_CHILD_H

#include <sys/types.h>

/* Where a child's stdout or stderr goes. */
enum tw_child_fd {
	TW_CHILD_INHERIT,	/* ours */
	TW_CHILD_NULL,		/* /dev/null */
	TW_CHILD_PIPE,		/* a pipe whose read end the caller gets */
};

struct tw_child {
	pid_t pid;
	int out;		/* the read end of its stdout's pipe, or -1 */
	int err;		/* the read end of its stderr's pipe, or -1 */
};

/*
 * Start argv[0], looked up in PATH, with argv.  0, or -1 with errno set
 * when it did not start (not found, no pipe): nothing is then left open.
 * The pipes' read ends are close-on-exec; the caller closes them.
 */
int tw_child_start(struct tw_child *c, char *const argv[],
		   enum tw_child_fd out, enum tw_child_fd err);

/* Wait for it to end: its exit status, or -1 when a signal ended it. */
int tw_child_wait(pid_t pid);

#endif
