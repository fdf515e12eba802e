// SPDX-License-Identifier: GPL-2.0
/*
 * Clock helpers shared by the tool, the benchmark and the receiver.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "clock.h"
#include "stop.h"

#define PAIR_TRIES	7

const struct tw_keyword tw_clock_words[] = {
	{ "mono", CLOCK_MONOTONIC },
	{ "tai", CLOCK_TAI },
	{ "realtime", CLOCK_REALTIME },
	{ NULL, 0 },
};

uint64_t tw_now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * TW_NSEC_PER_SEC + ts.tv_nsec;
}

struct tw_clock_pair tw_clock_pair(clockid_t id)
{
	struct tw_clock_pair best = { 0, 0 };
	int64_t width = INT64_MAX;
	int i;

	for (i = 0; i < PAIR_TRIES; i++) {
		int64_t m1 = tw_now_ns(CLOCK_MONOTONIC);
		int64_t c = tw_now_ns(id);
		int64_t m2 = tw_now_ns(CLOCK_MONOTONIC);

		if (m2 - m1 < width) {
			width = m2 - m1;
			best.clock = c;
			best.mono = m1 + (m2 - m1) / 2;
		}
	}
	return best;
}

int64_t tw_clock_offset(clockid_t id)
{
	struct tw_clock_pair p = tw_clock_pair(id);

	return p.clock - p.mono;
}

int64_t tw_clock_to_mono(int64_t t, struct tw_clock_pair a,
			 struct tw_clock_pair b)
{
	int64_t oa = a.clock - a.mono, ob = b.clock - b.mono;
	double f;

	if (b.clock == a.clock)
		return t - oa;
	f = (double)(t - a.clock) / (double)(b.clock - a.clock);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return t - (oa + (int64_t)((ob - oa) * f));
}

void tw_sleep_until(clockid_t id, uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / TW_NSEC_PER_SEC,
		.tv_nsec = t % TW_NSEC_PER_SEC,
	};

	while (clock_nanosleep(id, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	       !tw_stop)
		;
}

int64_t tw_cmsg_stamp_ns(struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		struct timespec ts;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_TIMESTAMPNS)
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		return ts.tv_sec * TW_NSEC_PER_SEC + ts.tv_nsec;
	}
	return 0;
}
