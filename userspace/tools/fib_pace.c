// SPDX-License-Identifier: GPL-2.0
/*
 * tw-fib-source --pace omware (see fib_pace.h).
 *
 * The sending thread keeps the frames due within AHEAD_NS handed to the
 * module, their times planned by the token bucket no earlier than LEAD_NS
 * from now (a submit of a batch takes well under that), and takes the
 * reports as they come.  omware runs in timer mode: the hybrid mode's
 * kthread would spin on the CPU this thread needs to stay ahead.  Frames
 * go through the device's qdisc, as the sendmmsg() path's do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fib_pace.h"
#include "lib/clock.h"
#include "lib/stop.h"
#include "lib/util.h"
#include "omware/session.h"
#include "tbucket.h"

#define LEAD_NS		(2 * TW_NSEC_PER_MSEC)
#define AHEAD_NS	(20 * TW_NSEC_PER_MSEC)
#define WAIT_NS		TW_NSEC_PER_MSEC
/* Reports come a few ms after their frames left: room for a slow guest. */
#define REPORT_GRACE_NS	TW_NSEC_PER_SEC
#define CANCEL_GRACE_MS	200
#define PLAN_MAX	1024

struct pacer {
	const struct fib_pace_cfg *cfg;
	struct om_session s;
	struct tw_tbucket tb;
	u64 clock_ns;		/* the bucket's next opportunity */
	u64 gap_ns;
	uint64_t *tx_ns;
};

static uint64_t now_ns(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

static void build_frame(void *arg, size_t i, uint64_t sched_ns, uint8_t *buf)
{
	const struct fib_pace_cfg *cfg = arg;

	cfg->build(cfg->arg, i, sched_ns, buf);
}

static int pacer_open(struct pacer *p)
{
	const struct fib_pace_cfg *cfg = p->cfg;
	struct tw_pkt_spec spec = {
		.frame = true,
		.ip_len = (uint16_t)(cfg->frame_len - TW_ETH_HLEN),
	};
	struct om_session_cfg scfg = {
		.ifindex = cfg->ifindex,
		.clock = CLOCK_MONOTONIC,
		.mode = OMWARE_MODE_TIMER,
		.xmit = OMWARE_XMIT_QDISC,
	};
	int ret = om_connect(&p->s);

	if (ret)
		return ret;
	p->s.build = build_frame;
	p->s.build_arg = (void *)cfg;
	ret = om_run_init(&p->s, &spec, cfg->rows);
	return ret ? ret : om_session_create(&p->s, &scfg);
}

/* Plan and hand over the rows from s.submitted, at most max of them. */
static int submit_next(struct pacer *p, size_t max, uint64_t now)
{
	size_t first = p->s.submitted, i;
	uint64_t left = p->cfg->rows - first;
	u32 count = (u32)(left < max ? left : max);
	u64 times[PLAN_MAX];

	tw_tbucket_plan(&p->tb, &p->clock_ns, p->gap_ns, now + LEAD_NS, times,
			count);
	for (i = 0; i < count; i++) {
		p->s.rep[first + i].sched_ns = times[i];
		p->tx_ns[first + i] = times[i];
	}
	return om_submit(&p->s, first, first + count);
}

/* Keep AHEAD_NS of frames handed over until every row is. */
static int hand_over(struct pacer *p)
{
	size_t batch = om_batch_default(&p->s);
	uint64_t now;
	int ret;

	if (batch > PLAN_MAX)
		batch = PLAN_MAX;
	while (p->s.submitted < p->cfg->rows && !tw_stop) {
		now = now_ns();
		/* The next row's time is at least the bucket's clock. */
		if (p->clock_ns < now + AHEAD_NS) {
			ret = submit_next(p, batch, now);
			if (ret)
				return ret;
			atomic_store(p->cfg->handed, p->s.submitted);
			continue;
		}
		if (p->s.got < p->s.submitted)
			om_collect(&p->s, now + WAIT_NS);
		else
			tw_sleep_until(CLOCK_MONOTONIC, now + WAIT_NS);
	}
	return TW_EXIT_OK;
}

/* Rows sent keep their time; the rest lose it.  The lateness of each. */
static int take_reports(struct pacer *p, struct fib_pace_result *res)
{
	size_t i, n = p->s.submitted;
	int64_t *late = malloc((n ? n : 1) * sizeof(*late));

	if (!late) {
		tw_err("no memory for the send reports");
		return TW_EXIT_SYS;
	}
	memset(res, 0, sizeof(*res));
	res->late_threshold_ns = p->s.late_ns;
	for (i = 0; i < n; i++) {
		const struct om_report *rep = &p->s.rep[i];

		if (!rep->have || rep->status != OMWARE_STATUS_SENT) {
			p->tx_ns[i] = 0;
			res->dropped++;
			continue;
		}
		late[res->sent++] = rep->late_ns;
		res->late_over += rep->late_ns > (int64_t)p->s.late_ns;
		if (rep->sent_ns > res->last_sent_ns)
			res->last_sent_ns = rep->sent_ns;
	}
	tw_stats_compute(late, res->sent, &res->late);
	free(late);
	return TW_EXIT_OK;
}

int fib_pace_run(const struct fib_pace_cfg *cfg, uint64_t *tx_ns,
		 struct fib_pace_result *res)
{
	struct pacer p = {
		.cfg = cfg,
		.gap_ns = TW_NSEC_PER_SEC / cfg->rate,
		.tx_ns = tx_ns,
	};
	int ret, taken;

	if (cfg->frame_len < TW_ETH_HLEN || !cfg->rate) {
		tw_err("omware pacing needs a rate and whole frames");
		return TW_EXIT_FAIL;
	}
	ret = pacer_open(&p);
	if (!ret) {
		/* t_0 at the first time that can be planned: no burst there. */
		p.clock_ns = now_ns() + LEAD_NS;
		tw_tbucket_init(&p.tb, cfg->rate, cfg->burst, 0, p.clock_ns);
		ret = hand_over(&p);
	}
	/* What was handed over is reported, sent or not. */
	om_collect(&p.s, p.clock_ns + REPORT_GRACE_NS);
	om_finish(&p.s, CANCEL_GRACE_MS);
	if (p.s.rep) {
		taken = take_reports(&p, res);
		ret = ret ? ret : taken;
	}
	om_close(&p.s);
	return ret;
}
