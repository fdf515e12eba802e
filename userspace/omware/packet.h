/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPv4/UDP probe packets (see probe.h for the payload).
 */
#ifndef TW_PACKET_H
#define TW_PACKET_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define TW_ETH_HLEN		14
#define TW_IP_MIN_LEN		(20 + 8 + TW_PROBE_COMPACT_LEN)
#define TW_IP_MAX_LEN		65535

struct tw_pkt_spec {
	struct in_addr src;
	struct in_addr dst;
	uint16_t sport;
	uint16_t dport;
	uint16_t ip_len;	/* IPv4 total length, >= TW_IP_MIN_LEN */
	bool frame;		/* build a whole Ethernet frame */
	uint8_t src_mac[6];	/* frame only */
	uint8_t dst_mac[6];
};

/* Bytes tw_pkt_build() writes. */
static inline size_t tw_pkt_len(const struct tw_pkt_spec *s)
{
	return s->ip_len + (s->frame ? TW_ETH_HLEN : 0);
}

void tw_pkt_build(const struct tw_pkt_spec *s, const struct tw_probe *p,
		  uint8_t *buf);

#endif /* TW_PACKET_H */
