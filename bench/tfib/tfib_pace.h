/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tw-tfib-source --pace omware: the trace's frames sent by omware.ko at
 * times the source's token bucket plans, instead of by sendmmsg() at the
 * moments the sending thread finds tokens.
 */
#ifndef TW_TFIB_PACE_H
#define TW_TFIB_PACE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

struct tfib_pace_cfg {
	unsigned int ifindex;		/* the sending interface */
	uint32_t rate;			/* R, packets a second */
	uint32_t burst;			/* B */
	uint64_t rows;
	size_t frame_len;
	/* Writes row i, due at sched_ns, into buf (frame_len bytes). */
	void (*build)(void *arg, size_t i, uint64_t sched_ns, uint8_t *buf);
	void *arg;
	atomic_uint_fast64_t *handed;	/* rows handed to the module so far */
};

struct tfib_pace_result {
	uint64_t sent;			/* rows the module reported sent */
	uint64_t dropped;		/* reported not sent: they never left */
	uint64_t unreported;		/* handed over, no report came */
	uint64_t last_sent_ns;		/* when the last one left */
	struct tw_stats late;		/* sent - planned, ns, of sent rows */
	uint64_t late_over;		/* late by more than the threshold */
	uint32_t late_threshold_ns;	/* the session's */
};

/*
 * Send every row through an omware session; tx_ns[i] gets the time row i
 * was planned for (and carries), or 0 when it was never handed over or
 * omware reported it dropped or cancelled (a row whose report was lost
 * keeps its time: it may have left).  Returns 0, or an exit code of
 * timewire(8) with the reason printed (TW_EXIT_NOMOD: no omware module).
 */
int tfib_pace_run(const struct tfib_pace_cfg *cfg, uint64_t *tx_ns,
		  struct tfib_pace_result *res);

#endif /* TW_TFIB_PACE_H */
