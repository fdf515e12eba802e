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
 * The send times of count packets from a sender that always has some and
 * hands its packets over ahead of their time (omware): an opportunity
 * every gap_ns on the planning clock *clock_ns, each taking its whole
 * offer.  A clock behind floor_ns (the earliest time still ahead of the
 * sender) moves up to it first; the tokens earned meanwhile then leave in
 * bursts of up to B, as they would from a sending thread that fell
 * behind.  *clock_ns ends at the next opportunity.  gap_ns 0 counts as 1; R = 0
 * plans every packet at U64_MAX (never).
 */
void tw_tbucket_plan(struct tw_tbucket *tb, u64 *clock_ns, u64 gap_ns,
		     u64 floor_ns, u64 *times, u32 count);

#endif /* _TW_TBUCKET_H */
