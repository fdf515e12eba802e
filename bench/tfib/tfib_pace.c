// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-source --pace omware (see tfib_pace.h).
 *
 * The sending thread keeps the frames due before now + AHEAD_NS handed to
 * the module, their times planned by the token bucket no earlier than
 * now + LEAD_NS (room for building and submitting a batch under
 * emulation), and takes the reports as they come.  omware runs in timer
 * mode: the hybrid mode's kthread would spin on the CPU this thread needs
 * to stay ahead.  Frames go through the device's qdisc, as the sendmmsg()
 * path's do.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfib_pace.h"
#include "lib/clock.h"
#include "lib/stop.h"
#include "lib/util.h"
#include "omware/session.h"
#include "tbucket.h"

#define LEAD_NS		(5 * TW_NSEC_PER_MSEC)
#define AHEAD_NS	(20 * TW_NSEC_PER_MSEC)
#define WAIT_NS		TW_NSEC_PER_MSEC
/* Reports come a few ms after their frames left: room for a slow guest. */
#define REPORT_GRACE_NS	TW_NSEC_PER_SEC
#define CANCEL_GRACE_MS	200
#define PLAN_MAX	1024

struct pacer {
	const struct tfib_pace_cfg *cfg;
	struct om_session s;
	struct tw_tbucket_planner plan;
	uint64_t *tx_ns;
};

static uint64_t now_ns(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

static int pacer_open(struct pacer *p)
{
	const struct tfib_pace_cfg *cfg = p->cfg;
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
	p->s.build = cfg->build;
	p->s.build_arg = cfg->arg;
	ret = om_run_init(&p->s, &spec, cfg->rows);
	if (ret)
		return ret;
	/* Touched now: the run takes no page fault on the reports. */
	memset(p->s.rep, 0, cfg->rows * sizeof(*p->s.rep));
	return om_session_create(&p->s, &scfg);
}

/* Plan and hand over rows from s.submitted due before now + AHEAD_NS. */
static int submit_next(struct pacer *p, size_t max, uint64_t now)
{
	size_t first = p->s.submitted, i;
	uint64_t left = p->cfg->rows - first;
	u64 times[PLAN_MAX];
	u32 n;

	n = tw_tbucket_plan(&p->plan, now + LEAD_NS, now + AHEAD_NS, times,
			    (u32)(left < max ? left : max));
	for (i = 0; i < n; i++)
		p->s.rep[first + i].sched_ns = times[i];
	return n ? om_submit(&p->s, first, first + n) : TW_EXIT_OK;
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
		if (p->plan.clock_ns < now + AHEAD_NS) {
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

/* A row handed over keeps its time unless omware said it never left. */
static bool never_left(const struct om_report *rep)
{
	return rep->have && rep->status != OMWARE_STATUS_SENT;
}

/*
 * tx_ns of the rows: the planned time of those that left (or may have:
 * a report can be lost), 0 for the rest; and omware's figures.
 */
static int take_reports(struct pacer *p, struct tfib_pace_result *res)
{
	size_t i, n = p->s.submitted;
	int64_t *late;

	memset(res, 0, sizeof(*res));
	res->late_threshold_ns = p->s.late_ns;
	for (i = 0; i < p->cfg->rows; i++) {
		const struct om_report *rep = &p->s.rep[i];

		p->tx_ns[i] = i < n && !never_left(rep) ? rep->sched_ns : 0;
		res->dropped += i < n && never_left(rep);
		res->unreported += i < n && !rep->have;
		if (rep->have && rep->sent_ns > res->last_sent_ns)
			res->last_sent_ns = rep->sent_ns;
	}
	late = malloc((n ? n : 1) * sizeof(*late));
	if (!late) {
		tw_err("no memory for omware's lateness figures");
		return TW_EXIT_SYS;
	}
	for (i = 0; i < n; i++)
		if (p->s.rep[i].have && !never_left(&p->s.rep[i]))
			late[res->sent++] = p->s.rep[i].late_ns;
	for (i = 0; i < res->sent; i++)
		res->late_over += late[i] > (int64_t)p->s.late_ns;
	tw_stats_compute(late, res->sent, &res->late);
	free(late);
	return TW_EXIT_OK;
}

int tfib_pace_run(const struct tfib_pace_cfg *cfg, uint64_t *tx_ns,
		  struct tfib_pace_result *res)
{
	struct pacer p = { .cfg = cfg, .tx_ns = tx_ns };
	int ret, taken;

	if (cfg->frame_len < TW_ETH_HLEN || cfg->frame_len > TW_IP_MAX_LEN) {
		tw_err("omware pacing: frames of %zu bytes", cfg->frame_len);
		return TW_EXIT_FAIL;
	}
	ret = pacer_open(&p);
	/* t_0 at the first time that can be planned: no burst there. */
	if (!ret && tw_tbucket_planner_init(&p.plan, cfg->rate, cfg->burst,
					    now_ns() + LEAD_NS)) {
		tw_err("omware pacing needs a rate and a burst of 1 or more");
		ret = TW_EXIT_FAIL;
	}
	if (!ret)
		ret = hand_over(&p);
	/* What was handed over is reported, sent or not. */
	om_collect(&p.s, p.plan.clock_ns + REPORT_GRACE_NS);
	om_finish(&p.s, CANCEL_GRACE_MS);
	if (p.s.rep) {
		taken = take_reports(&p, res);
		ret = ret ? ret : taken;
	}
	om_close(&p.s);
	return ret;
}
