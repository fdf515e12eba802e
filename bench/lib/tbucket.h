/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tbucket.h - the token bucket of the Age-of-Information source.
 *
 * The rule is the AoI forwarder study's (Ramani, Chen, Yates, section IV):
 * at t_0 the bucket holds N_0 = 0 tokens and gains R tokens a second.  At
 * each sending opportunity t_i the sender offers K_i = min(B, N_i) packets;
 * when L_i of them were taken, N_{i+1} = N_i - L_i + (t_{i+1} - t_i) R.
 * Tokens the sender could not use (a full transmit ring) stay in the
 * bucket, so the long-run rate is R whatever the ring does; B only bounds
 * one opportunity's batch.  An optional depth caps N (a classic bucket);
 * depth 0 keeps the study's unbounded one.
 *
 * Time is the caller's, in ns, so tests drive a simulated clock.  Integer
 * arithmetic only, no locking: one sender owns a bucket.
 */
#ifndef _TW_TBUCKET_H
#define _TW_TBUCKET_H

#include "compat.h"

struct tw_tbucket {
	u32 rate_pps;		/* R */
	u32 burst;		/* B */
	u64 depth;		/* cap on tokens; U64_MAX: none */
	u64 last_ns;		/* t_i: the clock when tokens were last added */
	u64 tokens;		/* whole tokens, N_i */
	u32 part;		/* a token's fraction, in 1e-9 tokens */
};

/* Empty bucket at now_ns; depth 0: unbounded.  -EINVAL when burst is 0. */
int tw_tbucket_init(struct tw_tbucket *tb, u32 rate_pps, u32 burst,
		    u64 depth, u64 now_ns);

/* K_i: the tokens earned up to now_ns are added, min(B, N_i) returned. */
u32 tw_tbucket_offer(struct tw_tbucket *tb, u64 now_ns);

/* L_i packets of the offer were taken (at most the offer). */
void tw_tbucket_take(struct tw_tbucket *tb, u32 taken);

/*
 * The send times of a sender that always has packets and hands them over
 * ahead of their time (omware): sending opportunities one token's time
 * (1e9 / R, rounded down) apart on the planner's own clock, each taking
 * its whole offer, at most B.  An offer cut by the caller's count goes on
 * in the next call, at the same time, so the plan does not depend on
 * where the caller cuts it.
 */
struct tw_tbucket_planner {
	struct tw_tbucket tb;
	u64 clock_ns;		/* the current opportunity */
	u64 gap_ns;
	u32 used;		/* packets planned at clock_ns so far */
};

/* t_0 = the first opportunity = start_ns.  -EINVAL: R or B is 0. */
int tw_tbucket_planner_init(struct tw_tbucket_planner *p, u32 rate_pps,
			    u32 burst, u64 start_ns);

/*
 * Plan up to count packets into times[], at opportunities before until_ns.
 * A clock behind floor_ns (the earliest time still ahead of the sender)
 * moves up to it first; the tokens earned meanwhile then leave in bursts
 * of up to B, one opportunity apart.  Returns the packets planned.
 */
u32 tw_tbucket_plan(struct tw_tbucket_planner *p, u64 floor_ns,
		    u64 until_ns, u64 *times, u32 count);

#endif /* _TW_TBUCKET_H */
