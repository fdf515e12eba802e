/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fwd_lib.h - the forwarder's guest tests: update packets, and a table
 * bound to one end of a veth pair whose other end, in a namespace of its
 * own, sends them and receives what comes back.
 *
 *     init netns                         netns "owt-<pid>-<id>"
 *   +----------------------+           +--------------------------+
 *   | owt<id> (table bound)+-- veth ---+ owp<id> (AF_PACKET: sends, |
 *   +----------------------+           |   receives)              |
 *                                      +--------------------------+
 *
 * The topology and the receiver socket are the tests' own (twt_wire.h).
 */
#ifndef FWD_LIB_H
#define FWD_LIB_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "twt_wire.h"
#include "twt_tfib.h"

#define FWD_HDR_LEN	40	/* struct tfib_hdr on the wire */
#define FWD_MARK_LEN	8	/* tag and index, first in the payload */
#define FWD_FRAME_MAX	1514

/* struct tfib_hdr, in host order. */
struct fwd_hdr {
	uint8_t version;
	uint8_t type;
	uint16_t flags;
	uint32_t user_id;
	uint32_t seq;
	uint32_t addr_seq;
	uint64_t send_ns;
	uint64_t addr_ns;
	uint8_t mac[ETH_ALEN];
	uint8_t hop_limit;
	uint8_t reserved;
};

/* A received update packet. */
struct fwd_rx {
	uint8_t dst[ETH_ALEN], src[ETH_ALEN];
	struct fwd_hdr h;
	uint32_t tag, idx;
	bool payload_ok;	/* the payload as fwd_frame() wrote it */
	int len;
};

/* A table bound to the veth of a topology, and a client of the family. */
struct fwd_env {
	struct topo topo;
	struct twt nl;
	char table[TFC_NAME_LEN];
	int tx;			/* an AF_PACKET socket on the peer */
	struct tfc_stats *st;	/* scratch for fwd_stats() */
	bool shared;		/* topo is fwd_topo, not the test's own */
};

/*
 * The topology most tests of a program share: made once before them
 * (root and the module there), removed after; a device made and deleted
 * for each test would cost more than the test under emulation.
 */
extern struct topo fwd_topo;
void fwd_topo_up(int argc, char **argv, int id);
void fwd_topo_down(void);

#define FWD_HARNESS_MAIN(id)					\
	int main(int argc, char **argv)				\
	{							\
		int rc;						\
								\
		fwd_topo_up(argc, argv, id);			\
		rc = test_harness_run(argc, argv);		\
		fwd_topo_down();				\
		return rc;					\
	}

/* A data packet's header for @user, the fields the forwarder leaves. */
struct fwd_hdr fwd_data(uint32_t user, uint32_t seq);
/* A control packet's setting @user to {@mac, @ts_ns, @seq}. */
struct fwd_hdr fwd_control(uint32_t user, const uint8_t *mac, uint64_t ts_ns,
			   uint32_t seq);
/* The tuple the concurrency tests write for counter @k: all from @k. */
void fwd_tuple_of(uint32_t k, uint8_t *mac, uint64_t *ts_ns);

/*
 * Build a frame from the peer to the bound device: @h, then a payload of
 * @payload bytes (at least FWD_MARK_LEN) marked @tag, @idx.  Its length.
 */
int fwd_frame(uint8_t *f, const struct fwd_env *e, const struct fwd_hdr *h,
	      int payload, uint32_t tag, uint32_t idx);
/* Send the frame @f of @len bytes on @fd, waiting out a full queue. */
int fwd_send(int fd, const uint8_t *f, int len);
/* Parse a received frame; false if it is not an update packet. */
bool fwd_parse(const uint8_t *f, int len, struct fwd_rx *rx);
/*
 * Receive update packets marked @tag until @n came or @timeout_ms passed,
 * then @settle_ms more; the first @max go to @out.  How many came.
 */
int fwd_collect(struct fwd_env *e, uint32_t tag, struct fwd_rx *out, int n,
		int max, int timeout_ms, int settle_ms);

/*
 * A table (@sync: enum tfib_sync) on fwd_topo or, with @id >= 0, on a veth
 * topology @id of the test's own, and when @bind is not NULL the binding.
 * 0, KSFT_SKIP (no module, no root) or -1.
 */
int fwd_env_up(struct fwd_env *e, int id, int sync,
	       const struct tfc_bind_cfg *bind);
void fwd_env_down(struct fwd_env *e);
/* An AF_PACKET socket on the peer, for a sender thread of its own. */
int fwd_tx_open(struct fwd_env *e);
/* STATS_GET of the table into e->st; 0 or -errno. */
int fwd_stats(struct fwd_env *e);
/* One counter (enum tfib_stats_attr) of e->st, -1 if it did not come. */
int64_t fwd_ctr(const struct fwd_env *e, int attr);
/* Wait until counter @attr reaches @want (or 5 s); its value. */
int64_t fwd_wait_ctr(struct fwd_env *e, int attr, uint64_t want);
/*
 * Threads whose names start with @prefix: their pids into @pids (up to
 * @max); how many there are.
 */
int fwd_threads(const char *prefix, pid_t *pids, int max);

/*
 * Hold the binding's threads while the caller floods: they and the caller
 * share one CPU, the caller at SCHED_FIFO, so a worker runs only once the
 * caller sleeps.  What the caller was, to give back with fwd_unhold().
 */
struct fwd_hold {
	cpu_set_t cpus;
	int policy;
	struct sched_param param;
};

int fwd_hold(const struct fwd_env *e, struct fwd_hold *h);
void fwd_unhold(const struct fwd_hold *h);
/* The sum of a histogram's counts. */
uint64_t fwd_hist_sum(const struct tfc_bin *bins, unsigned int n);

#endif
