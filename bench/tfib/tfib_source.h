/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tw-tfib-source's own: its limits, options, the trace, the records and
 * the run every part works on.  tw-tfib-source.c holds the options and
 * the run, tfib_source_trace.c the trace and its frames,
 * tfib_source_net.c the sender, the receiver and their sockets,
 * tfib_source_records.c the forwarder's counters and what is written.
 */
#ifndef TFIB_SOURCE_H
#define TFIB_SOURCE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/tfib.h>

#include "aoi_trace.h"
#include "cpustat.h"
#include "rxring.h"
#include "tfib_pace.h"
#include "lib/clock.h"

#define PROG		"tw-tfib-source"
#define NSEC_PER_SEC	TW_NSEC_PER_SEC
#define NSEC_PER_MSEC	TW_NSEC_PER_MSEC
/* The smallest Ethernet frame: header, tfib_hdr, zero padding. */
#define FRAME_LEN	ETH_ZLEN
#define HDR_OFF		ETH_HLEN
#define MAX_BURST	TFIB_MAX_BURST
/* Receive records beyond one per app update: duplicates, strays. */
#define RX_SLACK	4096
/* The receive ring: about 110 000 frames, half a second at 200 000 pps. */
#define RX_RING_BYTES	(16u << 20)
/* A block of the ring not filled is handed over after this. */
#define RX_BLOCK_MS	4
/* The receiver looks at the stop flag this often. */
#define RX_POLL_MS	20
/* At the end, the block not full: handed over within two ticks of 4 ms. */
#define RX_LAST_MS	50
/*
 * The sending socket's budget of frames in flight: on veth a frame stays
 * charged to it until the forwarder is done with it, so the default
 * (about 200 KiB, some 280 frames) would let a busy forwarder slow the
 * source down, a back-pressure no wire gives.  This is more than the
 * chain's queues hold: the forwarder drops what it cannot take.
 */
#define SNDBUF_BYTES	(16 << 20)
/* Waits for a token shorter than this spin rather than sleep. */
#define SPIN_BELOW_NS	20000
#define MAX_LABELS	16
#define MAX_COUNTERS	64
#define NAME_LEN	64
/* --simulate: the stand-in forwarder's delay. */
#define SIM_DELAY_NS	1000
#define SIM_FWD_MAC	"02:00:00:00:00:01"
#define SIM_SINK_MAC	"02:00:00:00:00:02"

_Static_assert(HDR_OFF + sizeof(struct tfib_hdr) <= FRAME_LEN,
	       "a tfib frame fits the smallest Ethernet frame");

struct src_opts {
	const char *ifname;
	const char *sink_ifname;
	const char *outdir;
	const char *trace_path;
	const char *counters_path;
	const char *counters_cmd;
	const char *frames_path;	/* --simulate: every frame sent */
	const char *labels[MAX_LABELS];
	int nlabels;
	uint8_t fwd_mac[6];
	bool have_mac;
	uint32_t rate;
	uint32_t burst;
	struct tw_aoi_trace_config gen;
	uint64_t rows;
	bool gen_given;			/* an option of the generated trace */
	uint32_t drain_ms;
	int tx_cpu;			/* -1: the CPU the tool starts on */
	int rx_cpu;			/* -1: not pinned */
	uint32_t fifo;			/* SCHED_FIFO priority, 0: none */
	bool simulate;
	bool pace_omware;		/* --pace omware */
	bool refused_lost;		/* --refused lost */
	bool json;
	bool quiet;
};

/* The trace, with each row's sequence worked out before the run. */
struct trace {
	uint32_t *word;			/* tw_aoi_row_word() */
	uint32_t *seq;
	uint64_t n;
	uint64_t control;
	uint32_t users;			/* the highest user ID */
	uint32_t cdr;			/* x 10^6 */
	uint64_t seed;
	bool has_seed;
};

struct rx_rec {
	uint64_t t_ns;
	uint64_t addr_ns;
	uint32_t user;
	uint32_t seq;
	uint32_t addr_seq;
};

struct counter {
	char name[NAME_LEN];
	int64_t value;
};

struct counters {
	struct counter c[MAX_COUNTERS];
	int n;
};

/* The stand-in forwarder's table: per user, its last location update. */
struct sim_entry {
	uint64_t addr_ns;
	uint32_t addr_seq;
	uint8_t mac[6];
};

struct run {
	const struct src_opts *o;
	struct trace tr;
	uint64_t *tx_ns;		/* per row */
	/* rows sent (--pace omware: handed over): a prefix of the trace */
	atomic_uint_fast64_t sent;
	struct rx_rec *rx;
	size_t rx_cap;
	atomic_size_t rx_n;
	uint64_t rx_lost;		/* no record left */
	uint64_t rx_other;		/* frames that are no forwarded update */
	uint64_t tx_short;		/* opportunities the device took less */
	uint64_t tx_refused;		/* --refused lost: frames it refused */
	int tx_fd, rx_fd;
	struct tw_rxring rx_ring;
	int tx_sndbuf;			/* the sending socket's, as granted */
	unsigned int tx_ifindex;
	uint8_t tx_mac[6];
	uint8_t sink_mac[6];
	int64_t rt_off;			/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	uint64_t start_ns, send_end_ns, end_ns;
	/* /proc/stat at the start and the end of sending; ok: both read */
	struct tw_cpu_times cpu_start, cpu_end;
	bool cpu_ok;
	struct tpacket_stats rx_stats;
	atomic_bool tx_done, rx_stop;
	bool rx_ready;
	struct sim_entry *sim;
	FILE *frames;
	int tx_err;			/* errno that ended the sender */
	struct tfib_pace_result pace;	/* --pace omware */
	int pace_ret;			/* tfib_pace_run()'s exit code */
};

static inline uint64_t mono_ns(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

/* tfib_source_trace.c */
int trace_generate(struct trace *t, const struct src_opts *o);
int trace_load(struct trace *t, const char *path);
int trace_number(struct trace *t, bool from_csv);
void frame_init(uint8_t *f, const uint8_t dst[6], const uint8_t src[6]);
void frame_set(uint8_t *f, const struct trace *t, uint64_t i,
	       uint64_t now_ns, const uint8_t next_hop[6]);
bool frame_parse(const uint8_t *f, size_t len, const uint8_t fwd[6],
		 struct rx_rec *rec);

/* tfib_source_net.c */
void *receiver(void *arg);
int run_simulated(struct run *r);
void *sender(void *arg);
void tx_mac_apart(struct run *r);
int open_sockets(struct run *r);

/* tfib_source_records.c */
int counters_read(FILE *f, const char *what, struct counters *c);
int counters_run(const char *cmd, struct counters *c);
void counters_delta(struct counters *after,
		    const struct counters *before);
uint64_t rows_sent(const struct run *r);
int write_records(const struct run *r, const struct counters *ctr,
		  const char *stop);
void print_summary(const struct run *r, const char *stop);

#endif /* TFIB_SOURCE_H */
