/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twt_wire.h - the wire side of the guest tests' programs: test frames, the
 * veth/netns topology they cross and the AF_PACKET receiver at its far end;
 * and what the programs share besides netlink (twt_nl.h): the clock, shell
 * commands, random numbers, module parameters.
 *
 *     init netns                      netns "owt-<pid>-<id>"
 *   +-------------+                 +-------------------+
 *   | owt<id> ----+---- veth -------+- owp<id> (AF_PACKET
 *   | (sessions)  |                 |   receiver)       |
 *   +-------------+                 +-------------------+
 */
#ifndef TWT_WIRE_H
#define TWT_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <net/if.h>
#include <linux/if_ether.h>

#include "kselftest.h"

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#define TEST_ETHERTYPE	0x88b5	/* IEEE local experimental */
#define TEST_MAGIC	0x4f4d5754	/* "OMWT" */
#define FRAME_MAX	1514

/*
 * FRAME packets: dst, src, TEST_ETHERTYPE, magic, tag, index, filler.
 * PAYLOAD packets: an IPv4 header (protocol 253, for experiments) then
 * magic, tag, index, filler; the module prepends the Ethernet header.
 */
#define FRAME_HDR	14
#define IP_HDR		20
#define MARK_LEN	12
#define FRAME_MIN_TAGGED (FRAME_HDR + MARK_LEN)
#define PAYLOAD_MIN	(IP_HDR + MARK_LEN)

/* One diagnostic line in the TAP stream. */
#define diag(fmt, ...)	ksft_print_msg(fmt "\n", ##__VA_ARGS__)

uint64_t mono(void);
unsigned int slow_mult(void);
void sleep_ms(unsigned int ms);
__printf(1, 2) int run(const char *fmt, ...);
void *xcalloc(size_t n, size_t sz);
uint32_t rnd(void);
void rnd_mix(uint32_t seed);
void put_be16(uint8_t *p, uint16_t v);
void put_be32(uint8_t *p, uint32_t v);
bool if_carrier(const char *dev);
/* Is the harness only asked for the tests' names (-l, -h)? */
bool listing_only(int argc, char **argv);
/* /sys/module/<module>/parameters/<name>: 0, or -1 when it cannot be had. */
int param_read(const char *module, const char *name, char *buf, size_t len);
int param_write(const char *module, const char *name, const char *v);

int make_frame(uint8_t *f, int len, const uint8_t *dst, const uint8_t *src,
	       uint32_t tag, uint32_t idx);
int make_payload(uint8_t *p, int len, uint32_t tag, uint32_t idx);
bool frame_mark(const uint8_t *f, int len, uint32_t *tag, uint32_t *idx);

struct topo {
	char ns[40];
	char dev[IFNAMSIZ];
	char peer[IFNAMSIZ];
	int ifindex;
	int peer_ifindex;
	uint8_t mac[ETH_ALEN];
	uint8_t peer_mac[ETH_ALEN];
	int rx;			/* AF_PACKET socket living in ns */
	bool made;		/* we created it, so we remove it */
};

int enter_ns(const char *ns);
int leave_ns(void);
int topo_make(struct topo *t, int id);
int topo_attach(struct topo *t, const char *dev, const char *ns,
		const char *peer);
void topo_del(struct topo *t);
int topo_other_ns_ifindex(const struct topo *t);
int topo_set_link(const struct topo *t, bool peer_side, bool up);

struct rxframe {
	uint8_t d[FRAME_MAX + 64];
	int len;
	uint32_t idx;
};

/* Receive scratch space, big enough for any frame or netlink batch. */
extern uint8_t rxbuf[256 * 1024];

void rx_flush(struct topo *t);

/*
 * How long a collection listens: until the frames it wants came or
 * @timeout_ms passed, then @settle_ms more for extra copies.
 */
struct rx_window {
	uint64_t deadline, settle_end, settle_ns;
};

void rx_window_open(struct rx_window *w, int timeout_ms, int settle_ms);
/*
 * The next frame into rxbuf while @w lasts: its length (MSG_TRUNC's), or
 * 0 once @w closed.  @done: the caller has all it wanted, settle from now.
 */
int rx_next(struct topo *t, struct rx_window *w, bool done);
int rx_collect(struct topo *t, uint32_t tag, struct rxframe *out, int n,
	       int max, int timeout_ms, int settle_ms);
void rx_positions(const struct rxframe *f, int got, int *pos, int n);

#endif
