/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clocks: reading them in nanoseconds, relating one to CLOCK_MONOTONIC,
 * sleeping until an absolute time.
 */
#ifndef TW_CLOCK_H
#define TW_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "args.h"

#define TW_NSEC_PER_SEC		1000000000LL
#define TW_NSEC_PER_USEC	1000LL
#define TW_NSEC_PER_MSEC	1000000LL

/* The clocks a user may name: "mono", "tai", "realtime". */
extern const struct tw_keyword tw_clock_words[];

/* Now on clock id, in nanoseconds. */
uint64_t tw_now_ns(clockid_t id);

/* One instant read on clock id and on CLOCK_MONOTONIC. */
struct tw_clock_pair {
	int64_t clock;
	int64_t mono;
};

/*
 * The read of id is bracketed by two monotonic reads; the narrowest of a
 * few tries is kept and its midpoint taken as the monotonic time.
 */
struct tw_clock_pair tw_clock_pair(clockid_t id);
/* Clock id minus CLOCK_MONOTONIC, from tw_clock_pair(). */
int64_t tw_clock_offset(clockid_t id);
/*
 * t, read on the clock of pairs a and b between them, in CLOCK_MONOTONIC:
 * the offset interpolated from a to b (drift), a's before a, b's after b.
 * Pairs read around each batch of readings, not around a whole run, keep
 * a step of the clock from moving the readings of other batches.
 */
int64_t tw_clock_to_mono(int64_t t, struct tw_clock_pair a,
			 struct tw_clock_pair b);

struct msghdr;
/* The SO_TIMESTAMPNS receive time of a message (CLOCK_REALTIME); 0 if none. */
int64_t tw_cmsg_stamp_ns(struct msghdr *msg);

/* Sleep until t on clock id; a signal ends it early only with tw_stop set. */
void tw_sleep_until(clockid_t id, uint64_t t);

#endif /* TW_CLOCK_H */
