// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_xdp.bpf.c - the XDP peer of tfib's inline forwarder: the same job
 * on a BPF hash map, in the driver's receive path.
 *
 * Update packets (EtherType TFIB_ETHERTYPE, struct tfib_hdr) addressed to
 * this interface:
 *   - a control packet sets its user's tuple with bpf_map_update_elem()
 *     (a multicast or zero next hop is refused) and is consumed; with
 *     control_to_user set it passes to the stack instead, where a process
 *     (tw-tfib-xdp serve) reads it from a packet socket and writes the map;
 *   - a data packet looks its user up, gets the tuple's timestamp and
 *     sequence in addr_ns and addr_seq, the tuple's MAC as Ethernet
 *     destination and the interface's own as source, and leaves with
 *     XDP_TX;
 *   - short packets, other versions and types, and data packets of
 *     unknown users, sent to a group address, with a hop limit of 1 or
 *     0, or whose next hop is their sender or this interface, are counted
 *     and dropped, as tfib drops them.
 * Everything else passes to the stack untouched.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <linux/tfib.h>
#include "tfib_xdp.h"

/*
 * The interface's address, set by the loader before the load.  libbpf's
 * idiom: const puts it in .rodata, which the verifier knows; volatile
 * keeps clang from folding the zeros of the object file into the code.
 */
const volatile __u8 own_mac[ETH_ALEN];
/* Control packets to user space (the loader's --user-control). */
const volatile __u8 control_to_user;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TFIB_XDP_DEFAULT_ENTRIES);	/* the loader's -e */
	__type(key, __u32);
	__type(value, struct tfib_xdp_tuple);
} tfib_tuples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TFIB_XDP_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} tfib_counters SEC(".maps");

static __always_inline void count(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&tfib_counters, &i);

	/* per CPU, and XDP does not migrate: no atomic needed */
	if (v)
		(*v)++;
}

static __always_inline int drop(__u32 counter)
{
	count(counter);
	return XDP_DROP;
}

static __always_inline int is_own_mac(const __u8 *mac)
{
	int i;

	for (i = 0; i < ETH_ALEN; i++)
		if (mac[i] != own_mac[i])
			return 0;
	return 1;
}

/* Unicast and not all zeros: a next hop a frame can be sent to. */
static __always_inline int is_unicast(const __u8 *mac)
{
	return !(mac[0] & 1) &&
	       (mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]);
}

static __always_inline int tfib_control(const struct tfib_hdr *h)
{
	struct tfib_xdp_tuple tu = {
		.ts_ns = bpf_be64_to_cpu(h->addr_ns),
		.seq = bpf_ntohl(h->seq),
	};
	__u32 id = bpf_ntohl(h->user_id);

	if (!is_unicast(h->mac))
		return drop(TFIB_XDP_DROP_BAD_MAC);
	__builtin_memcpy(tu.mac, h->mac, ETH_ALEN);
	/* a new element swapped in under the bucket lock: tfib.rst */
	if (bpf_map_update_elem(&tfib_tuples, &id, &tu, BPF_ANY))
		return drop(TFIB_XDP_DROP_TABLE_FULL);
	return XDP_DROP;
}

static __always_inline int same_mac(const __u8 *a, const __u8 *b)
{
	int i;

	for (i = 0; i < ETH_ALEN; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static __always_inline int tfib_data(struct ethhdr *eth, struct tfib_hdr *h)
{
	__u32 id = bpf_ntohl(h->user_id);
	struct tfib_xdp_tuple *found, tu;
	int i;

	found = bpf_map_lookup_elem(&tfib_tuples, &id);
	if (!found)
		return drop(TFIB_XDP_DROP_NO_ENTRY);
	/* one copy first: the element may be reused by a writer meanwhile */
	tu = *found;
	/* back to where it came from, or to this host: a loop */
	if (same_mac(tu.mac, eth->h_source) || is_own_mac(tu.mac))
		return drop(TFIB_XDP_DROP_LOOP);
	h->addr_ns = bpf_cpu_to_be64(tu.ts_ns);
	h->addr_seq = bpf_htonl(tu.seq);
	h->hop_limit--;
	__builtin_memcpy(eth->h_dest, tu.mac, ETH_ALEN);
	/* volatile reads: a memcpy would fold the zeros (see own_mac) */
	for (i = 0; i < ETH_ALEN; i++)
		eth->h_source[i] = own_mac[i];
	count(TFIB_XDP_FORWARDED);
	return XDP_TX;
}

SEC("xdp")
int tfib_xdp(struct xdp_md *ctx)
{
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)(long)ctx->data;
	struct tfib_hdr *h = (void *)(eth + 1);

	if ((void *)(eth + 1) > end ||
	    eth->h_proto != bpf_htons(TFIB_ETHERTYPE))
		return XDP_PASS;
	/* a frame for another host: tfib leaves it alone too */
	if (!(eth->h_dest[0] & 1) && !is_own_mac(eth->h_dest))
		return XDP_PASS;
	count(TFIB_XDP_RX);
	if ((void *)(h + 1) > end)
		return drop(TFIB_XDP_DROP_SHORT);
	if (h->version != TFIB_HDR_VERSION)
		return drop(TFIB_XDP_DROP_VERSION);
	switch (h->type) {
	case TFIB_PKT_TYPE_CONTROL:
		count(TFIB_XDP_RX_CONTROL);
		return control_to_user ? XDP_PASS : tfib_control(h);
	case TFIB_PKT_TYPE_DATA:
		/* as tfib: neither drop is counted in rx_data */
		if (eth->h_dest[0] & 1)
			return drop(TFIB_XDP_DROP_GROUP);
		if (h->hop_limit <= 1)
			return drop(TFIB_XDP_DROP_HOP_LIMIT);
		count(TFIB_XDP_RX_DATA);
		return tfib_data(eth, h);
	}
	return drop(TFIB_XDP_DROP_TYPE);
}

/*
 * Every frame to the stack.  A veth device takes XDP_TX frames from its
 * peer only while it runs NAPI, which an XDP program of its own turns on:
 * this one, on the peer of a native tfib_xdp.
 */
SEC("xdp")
int tfib_xdp_pass(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
