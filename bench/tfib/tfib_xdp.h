/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfib_xdp.h - what the XDP peer of the tfib forwarder (tfib_xdp.bpf.c)
 * and its loader (tw-tfib-xdp.c) share: the map's value and the
 * counters' indices.
 */
#ifndef TFIB_XDP_H
#define TFIB_XDP_H

#include <linux/types.h>

/* Object names as the kernel keeps them (at most 15 bytes). */
#define TFIB_XDP_PROG_NAME	"tfib_xdp"
#define TFIB_XDP_PASS_NAME	"tfib_xdp_pass"
#define TFIB_XDP_TUPLES_NAME	"tfib_tuples"
#define TFIB_XDP_COUNTERS_NAME	"tfib_counters"

#define TFIB_XDP_DEFAULT_ENTRIES	65536

/*
 * The value of the tuples map (key: the user ID, u32, host order): the
 * same tuple as a tfib table's, in host order.
 */
struct tfib_xdp_tuple {
	__u64 ts_ns;
	__u32 seq;
	__u8 mac[6];
	__u16 pad;
};

/*
 * Indices of the per-CPU counters map, each a u64, named after tfib's
 * TFIB_STATS_A_* (not in their order).  RX_CONTROL counts every control
 * packet here, those then refused (DROP_TABLE_FULL, DROP_BAD_MAC)
 * included, where tfib counts what passed its checks.  With control
 * packets handled in user space, the server (tw-tfib-xdp serve) owns the
 * control drops, the last three, and writes them as CPU 0's values; the
 * program does not touch them then.
 */
enum tfib_xdp_counter {
	TFIB_XDP_RX,		/* update packets for this host */
	TFIB_XDP_RX_CONTROL,
	TFIB_XDP_RX_DATA,
	TFIB_XDP_FORWARDED,	/* data packets returned with XDP_TX */
	TFIB_XDP_DROP_SHORT,
	TFIB_XDP_DROP_VERSION,
	TFIB_XDP_DROP_TYPE,
	TFIB_XDP_DROP_NO_ENTRY,
	TFIB_XDP_DROP_HOP_LIMIT,	/* data: hop limit 1 or 0 */
	TFIB_XDP_DROP_LOOP,	/* data: next hop the sender or this host */
	TFIB_XDP_DROP_GROUP,	/* data: to a group address */
	TFIB_XDP_DROP_TABLE_FULL,	/* the map refused the update */
	TFIB_XDP_DROP_BAD_MAC,	/* control: multicast or zero next hop */
	TFIB_XDP_DROP_CONTROL_QUEUE,	/* lost before the server read them */
	TFIB_XDP_COUNTERS,
};

#endif /* TFIB_XDP_H */
