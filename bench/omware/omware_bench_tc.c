// SPDX-License-Identifier: GPL-2.0
/*
 * tw-omware-bench: the qdiscs the etf and fq methods need, set with
 * tc(8), and the device's own put back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "omware_bench.h"

/* ---------------------------------------------------------------------- */
/* qdisc switching with tc(8) */

/* What a child writes to fd until it closes it; the start is kept. */
static void read_all(int fd, char *buf, size_t len)
{
	char sink[256];
	size_t used = 0;
	ssize_t n;

	for (;;) {
		if (used + 1 < len)
			n = read(fd, buf + used, len - 1 - used);
		else
			n = read(fd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (used + 1 < len)
			used += n;
	}
	buf[used] = '\0';
}

/*
 * "tc ARGS failed: <what tc said>", its lines joined, into err; status is
 * tw_child_wait()'s.
 */
static void tc_failed(char *const argv[], char *msg, int status, char *err,
		      size_t errlen)
{
	size_t used = 0, end = strlen(msg);
	char *p;
	int i;

	while (end && (msg[end - 1] == '\n' || msg[end - 1] == ' '))
		msg[--end] = '\0';
	for (p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	for (i = 0; argv[i] && used < errlen; i++)
		used += snprintf(err + used, errlen - used, "%s%s",
				 i ? " " : "", argv[i]);
	if (used >= errlen)
		return;
	if (msg[0])
		snprintf(err + used, errlen - used, " failed: %s", msg);
	else if (status > 0)
		snprintf(err + used, errlen - used, " failed (exit %d)",
			 status);
	else
		snprintf(err + used, errlen - used, " failed");
}

/*
 * Run tc; its error output is taken, not passed through, so that it is
 * reported with what was being done instead of passing as our own.
 */
static int run_tc(char *const argv[], char *err, size_t errlen)
{
	char msg[TC_ERR_BYTES];
	struct tw_child tc;
	int status;

	if (tw_child_start(&tc, argv, TW_CHILD_NULL, TW_CHILD_PIPE)) {
		snprintf(err, errlen, "cannot run tc: %s", strerror(errno));
		return -1;
	}
	read_all(tc.err, msg, sizeof(msg));
	close(tc.err);
	status = tw_child_wait(tc.pid);
	if (!status)
		return 0;
	tc_failed(argv, msg, status, err, errlen);
	return -1;
}

/* Back to the device's default root qdisc (noqueue on veth). */
void restore_qdisc(struct bench *b)
{
	char err[TC_ERR_BYTES];
	char *argv[] = { "tc", "qdisc", "del", "dev", (char *)b->o->dev,
			 "root", NULL };

	if (!b->qdisc_changed)
		return;
	b->qdisc_changed = false;
	if (run_tc(argv, err, sizeof(err)))
		tw_warn("cannot restore the root qdisc of %s: %s", b->o->dev,
			err);
}

int set_etf(struct bench *b, struct bm_trial *t)
{
	char delta[32];
	char *argv[] = { "tc", "qdisc", "replace", "dev", (char *)b->o->dev,
			 "root", "etf", "clockid", "CLOCK_TAI", "delta",
			 delta, NULL };

	snprintf(delta, sizeof(delta), "%llu",
		 (unsigned long long)t->delta_ns);
	snprintf(t->qdisc, sizeof(t->qdisc), "etf delta %s", delta);
	/* etf cannot change its parameters in place: start afresh. */
	restore_qdisc(b);
	if (run_tc(argv, t->err, sizeof(t->err)))
		return -1;
	b->qdisc_changed = true;
	return 0;
}

int set_fq(struct bench *b, struct bm_trial *t)
{
	char flow[32], limit[32];
	unsigned long fl = b->o->fq_flow_limit;
	char *argv[] = { "tc", "qdisc", "replace", "dev", (char *)b->o->dev,
			 "root", "fq", "flow_limit", flow, "limit", limit,
			 "timer_slack", "0", NULL };

	/* The default flow_limit (100) would drop most of a queued train. */
	if (!fl)
		fl = t->n + 100;
	snprintf(flow, sizeof(flow), "%lu", fl);
	snprintf(limit, sizeof(limit), "%lu", fl > 10000 ? fl : 10000);
	/* No slack, as this process has none: fq's default is 10 us. */
	snprintf(t->qdisc, sizeof(t->qdisc), "fq flow_limit %s", flow);
	if (run_tc(argv, t->err, sizeof(t->err)))
		return -1;
	b->qdisc_changed = true;
	return 0;
}

