// SPDX-License-Identifier: GPL-2.0
/*
 * Build IPv4/UDP probe packets.
 *
 * Headers are written byte by byte in network order, so the code is the
 * same on every host whatever its endianness or alignment rules.
 */
#include <string.h>

#include <linux/if_ether.h>

#include "packet.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

/* One's complement sum of 16-bit big-endian words. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	while (len > 1) {
		sum += (uint32_t)p[0] << 8 | p[1];
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

void tw_pkt_build(const struct tw_pkt_spec *s, const struct tw_probe *p,
		  uint8_t *buf)
{
	uint16_t udp_len = s->ip_len - 20;
	uint8_t *ip, *udp;
	uint32_t sum;
	uint16_t c;

	memset(buf, 0, tw_pkt_len(s));
	ip = buf;
	if (s->frame) {
		memcpy(buf, s->dst_mac, 6);
		memcpy(buf + 6, s->src_mac, 6);
		put16(buf + 12, ETH_P_IP);
		ip = buf + TW_ETH_HLEN;
	}
	udp = ip + 20;

	ip[0] = 0x45;				/* version 4, 5 words */
	put16(ip + 2, s->ip_len);
	put16(ip + 4, p->seq & 0xffff);		/* identification */
	put16(ip + 6, 0x4000);			/* don't fragment */
	ip[8] = 64;				/* TTL */
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, &s->src, 4);
	memcpy(ip + 16, &s->dst, 4);
	put16(ip + 10, csum_fold(csum_add(0, ip, 20)));

	put16(udp, s->sport);
	put16(udp + 2, s->dport);
	put16(udp + 4, udp_len);
	tw_probe_put(udp + 8, udp_len - 8, p);

	/* Pseudo header: addresses, protocol, UDP length. */
	sum = csum_add(0, ip + 12, 8);
	sum += IPPROTO_UDP + udp_len;
	sum = csum_add(sum, udp, udp_len);
	c = csum_fold(sum);
	put16(udp + 6, c ? c : 0xffff);		/* 0 would mean "none" */
}
