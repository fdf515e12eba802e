/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omware_bench.h - "timewire omware bench": the OMware paper's test suite
 * (OIR, OFR, OSM, RSM, TOM, TRW) plus SO_TXTIME with the etf and fq qdiscs,
 * every method sending the same workload on one interface.
 *
 * The command lives in omware_bench.c; the omware object lists it in its
 * command table with the OMWARE_BENCH_CMD initializer.
 */
#ifndef TW_OMWARE_BENCH_H
#define TW_OMWARE_BENCH_H

#include <netinet/in.h>
#include <stdint.h>

#include "timewire.h"

struct omware_bench_opts {
	const char *dev;
	uint8_t dst_mac[6];
	struct in_addr dst;
	struct in_addr src;
	uint32_t dport;
	uint32_t count;		/* packets of a train method, pairs of a pair one */
	uint32_t alpha_us;	/* spacing of packets, or of pairs */
	uint32_t size;		/* IPv4 total length */
	uint32_t phi_us;	/* OFR pre-dispatch period */
	uint32_t guard_max_us;	/* hybrid sessions' guard cap, 0 = module's */
	uint32_t lead_us;	/* first send time from now; 0: automatic */
	uint32_t grace_ms;	/* wait for reports after the last send time */
	const char *methods;	/* comma separated; see omware_bench_notes */
	const char *deltas;	/* etf deltas in microseconds, comma separated */
	int sweep;		/* etf: stop at the first delta without drops */
	uint32_t fq_flow_limit;
	uint32_t rotate;	/* start the method list at this index */
	uint32_t slack_ns;	/* timer slack of this process */
	const char *out;	/* directory for methods.csv and send.csv */
	const char *grid;	/* label of the workload, for the analysis */
	uint32_t round;
	uint32_t tag;		/* UDP source port of the first method */
};

extern const struct tw_arg omware_bench_args[];
extern const char omware_bench_notes[];
void omware_bench_init(void *opts);
int omware_bench_run(void *opts, uint64_t seen);

#define OMWARE_BENCH_CMD {						\
	.name = "bench",						\
	.help = "Compare the send-time accuracy of OMware and its peers", \
	.notes = omware_bench_notes,					\
	.args = omware_bench_args,					\
	.opts_size = sizeof(struct omware_bench_opts),			\
	.init = omware_bench_init,					\
	.run = omware_bench_run,					\
}

#endif /* TW_OMWARE_BENCH_H */
