// SPDX-License-Identifier: GPL-2.0
/*
 * tw-omware-rx - receive timewire probes and record when they arrived.
 *
 * Runs in the receiving network namespace (or, with -d out, in the
 * sending one).  Every probe (probe.h) seen on the interface is recorded
 * with the kernel's software timestamp and written out as CSV when the run
 * ends:
 *
 *   tag,seq,sched_ns,rx_ns,rx_src,kern_ns,udp_ns,user_ns,size
 *
 * tag is the UDP source port (the sender gives every method of a run its
 * own), rx_ns the observed time converted to CLOCK_MONOTONIC (the clock the
 * probes are scheduled in) with the clock pairs logged around the drain
 * that got it, kern_ns / udp_ns the raw CLOCK_REALTIME readings it was chosen
 * from (user_ns, the third, converted too), and rx_src says which one.
 * The compact probe of a packet under 48 bytes carries only the low 32 bits
 * of its scheduled time; tw-omware-rx restores the rest from rx_ns.
 *
 * The wire point (-d out): an AF_PACKET tap on the sender's interface sees
 * every outgoing packet from dev_queue_xmit_nit(), which stamps the copy
 * with the real time right before the driver's transmit, whatever sent it
 * (a socket, a qdisc's timer, the omware module) and whatever delivery time
 * the packet carries.  That is one point for every sender, the moment the
 * packet leaves for the wire, and nothing that happens to the packet after
 * it (the receiver's backlog, its socket, this program's own reading)
 * moves the timestamp (rx_src "wire").  A sender that hands frames to the
 * driver without that call (PACKET_QDISC_BYPASS, XDP) is not seen at all,
 * so it cannot be flattered, only counted as lost.  The sockets are read
 * every millisecond rather than slept on: a sleeping reader would be woken
 * from the sender's transmit path, between the stamp and the driver.
 *
 * The receive point (-d in, the default) has a pitfall on veth: since
 * Linux 5.18 a packet sent with SO_TXTIME keeps its delivery time (a
 * CLOCK_TAI or CLOCK_MONOTONIC value) in skb->tstamp across a veth pair
 * into the peer namespace, and the receive path does not stamp a packet
 * whose tstamp is set.  The tap then stamps it only when it queues its own
 * copy, after the receiver's backlog, while an ordinary packet is stamped
 * on entering the backlog.  IPv4 local delivery replaces such a delivery
 * time with the real time later still, so a UDP socket bound to the probe
 * port sees a timestamp equal to the tap's for an ordinary packet (both
 * copies carry the same skb->tstamp) and different for one that carried a
 * delivery time.  tw-omware-rx therefore receives every probe twice, on the
 * AF_PACKET socket and on the UDP socket, and when the two timestamps
 * differ it uses the UDP one (rx_src "udp"): a later point than the other
 * packets', which is why timing comparisons use -d out.  Without a UDP
 * copy, a tap timestamp later than the clock read right after recvmsg()
 * or more than 10 s older is rejected in favour of that clock read
 * (rx_src "user").  The UDP socket also keeps the receiving stack from
 * answering every probe with an ICMP port unreachable.
 *
 * The sockets are opened once, before any probe is sent, and kept for the
 * whole run: enabling receive timestamps flips a static key (the kernel
 * patches its own text), which is best done while the network is quiet.
 *
 * Usage: tw-omware-rx -i IFNAME -o FILE [-d in|out] [-p PORT] [-n COUNT]
 *              [-t SECONDS] [-s SUMMARY] [-r READY] [-U] [-q]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "lib/clock.h"
#include "lib/stop.h"
#include "omware/probe.h"

#define NSEC_PER_SEC	TW_NSEC_PER_SEC
#define STALE_NS	(10 * NSEC_PER_SEC)
#define RCVBUF_BYTES	(32 << 20)
#define FRAME_MAX	2048
/*
 * The sockets are read on a clock instead of slept on: a blocked reader is
 * woken from the packet's path (with -d out right between the tap's stamp
 * and the driver), which would make every sender pay for the observer.
 */
#define READ_EVERY_NS	1000000

/*
 * A pair of clock reads (tw_clock_pair()) is logged this often, and a
 * stamp is converted between the pairs logged before and after the drain
 * that got it: a drift is interpolated, and a step of the real-time clock
 * moves the stamps of one such batch at most, not a whole run's.  A pair
 * at every drain would cost the observer a score of clock reads per
 * millisecond.
 */
#define CLOCK_EVERY_NS	(100 * TW_NSEC_PER_MSEC)

enum { HAVE_PKT = 1, HAVE_UDP = 2 };

struct clock_log {
	struct tw_clock_pair *pair;
	uint32_t n, cap;
	int64_t max_step;	/* largest change of the offset between two */
};

struct row {
	uint32_t tag;
	uint32_t seq;
	uint64_t sched_ns;
	int64_t kern_rt;	/* AF_PACKET timestamp */
	int64_t udp_rt;		/* UDP socket timestamp */
	int64_t user_rt;	/* clock read after the AF_PACKET recvmsg() */
	uint32_t pkt_batch;	/* the clock pair before the drains that */
	uint32_t udp_batch;	/* read the AF_PACKET and the UDP copies */
	uint16_t size;		/* IPv4 total length */
	uint8_t have;
	bool compact;		/* sched_ns holds only the low 32 bits */
};

struct table {
	struct row *rows;
	size_t n, cap;
	uint32_t *slot;		/* open addressing, index + 1, 0 = empty */
	size_t nslot;
};

/* Monotonic nanoseconds, signed for differences. */
static int64_t mono_now(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

static uint64_t key_hash(uint32_t tag, uint32_t seq)
{
	uint64_t k = (uint64_t)tag << 32 | seq;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static int table_grow(struct table *t)
{
	size_t nslot = t->nslot ? t->nslot * 2 : 1 << 16;
	uint32_t *slot = calloc(nslot, sizeof(*slot));
	size_t i;

	if (!slot)
		return -1;
	for (i = 0; i < t->n; i++) {
		size_t h = key_hash(t->rows[i].tag, t->rows[i].seq) &
			   (nslot - 1);

		while (slot[h])
			h = (h + 1) & (nslot - 1);
		slot[h] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

/* The row of (tag, seq), created if new; NULL when out of memory. */
static struct row *table_get(struct table *t, uint32_t tag, uint32_t seq)
{
	size_t h;

	if ((t->n + 1) * 2 > t->nslot && table_grow(t))
		return NULL;
	h = key_hash(tag, seq) & (t->nslot - 1);
	while (t->slot[h]) {
		struct row *r = &t->rows[t->slot[h] - 1];

		if (r->tag == tag && r->seq == seq)
			return r;
		h = (h + 1) & (t->nslot - 1);
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1 << 15;
		struct row *rows = realloc(t->rows, cap * sizeof(*rows));

		if (!rows)
			return NULL;
		t->rows = rows;
		t->cap = cap;
	}
	t->slot[h] = t->n + 1;
	memset(&t->rows[t->n], 0, sizeof(t->rows[0]));
	t->rows[t->n].tag = tag;
	t->rows[t->n].seq = seq;
	return &t->rows[t->n++];
}

/*
 * Log a clock pair.  Out of memory, none is added: the batch it would have
 * ended runs on to the next.
 */
static void clock_log_add(struct clock_log *l)
{
	struct tw_clock_pair p = tw_clock_pair(CLOCK_REALTIME);
	int64_t step;

	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 1024;
		void *grown = realloc(l->pair, cap * sizeof(*l->pair));

		if (!grown)
			return;
		l->pair = grown;
		l->cap = cap;
	}
	if (l->n) {
		step = (p.clock - p.mono) -
		       (l->pair[l->n - 1].clock - l->pair[l->n - 1].mono);
		if (llabs(step) > l->max_step)
			l->max_step = llabs(step);
	}
	l->pair[l->n++] = p;
}

/* A CLOCK_REALTIME stamp of batch i in CLOCK_MONOTONIC; 0 stays 0. */
static int64_t batch_mono(const struct clock_log *l, uint32_t i, int64_t rt)
{
	if (!rt)
		return 0;
	return tw_clock_to_mono(rt, l->pair[i],
				l->pair[i + 1 < l->n ? i + 1 : i]);
}

static void set_bufs(int fd)
{
	int one = 1, size = RCVBUF_BYTES;

	/* FORCE needs CAP_NET_ADMIN; the plain option is the fallback. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one))) {
		perror("tw-omware-rx: SO_TIMESTAMPNS");
		exit(1);
	}
}

/*
 * Only unfragmented IPv4/UDP frames to the probe port reach the socket:
 * other traffic on the device (a benchmark's cross traffic) is left in
 * the kernel, so it costs no reads and the socket's drops count probes.
 */
static void filter_probes(int fd, uint16_t port)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),	/* EtherType */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_IP, 0, 8),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, ETH_HLEN + 9),	/* protocol */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_UDP, 0, 6),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, ETH_HLEN + 6),	/* fragment */
		/* MF or an offset: first fragments out too */
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x3fff, 4, 0),
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, ETH_HLEN),	/* IP header */
		BPF_STMT(BPF_LD | BPF_H | BPF_IND, ETH_HLEN + 2),	/* dport */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(code), .filter = code };

	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
		       sizeof(prog))) {
		perror("tw-omware-rx: SO_ATTACH_FILTER");
		exit(1);
	}
}

/*
 * Outgoing packets reach only ETH_P_ALL taps (dev_queue_xmit_nit() walks
 * ptype_all alone); incoming ones need no more than IPv4.
 */
static int open_packet(const char *ifname, bool outgoing, uint16_t port)
{
	uint16_t proto = htons(outgoing ? ETH_P_ALL : ETH_P_IP);
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = proto,
	};
	int fd;

	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "tw-omware-rx: no interface %s\n", ifname);
		exit(1);
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, proto);
	if (fd < 0) {
		perror("tw-omware-rx: AF_PACKET socket");
		exit(1);
	}
	set_bufs(fd);
	filter_probes(fd, port);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("tw-omware-rx: bind AF_PACKET");
		exit(1);
	}
	return fd;
}

static int open_udp(const char *ifname, uint16_t port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("tw-omware-rx: UDP socket");
		exit(1);
	}
	set_bufs(fd);
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname,
		       strlen(ifname)))
		perror("tw-omware-rx: SO_BINDTODEVICE (continuing)");
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		perror("tw-omware-rx: bind UDP");
		exit(1);
	}
	return fd;
}

/*
 * Parse an Ethernet/IPv4/UDP frame carrying a probe to port.  Returns the
 * UDP payload offset, or -1.
 */
static int parse_frame(const uint8_t *f, size_t len, uint16_t port,
		       uint16_t *sport, uint16_t *ip_len)
{
	size_t ihl, off = ETH_HLEN;

	if (len < off + 20 + 8 || (f[off] >> 4) != 4)
		return -1;
	ihl = (f[off] & 0xf) * 4;
	if (ihl < 20 || f[off + 9] != IPPROTO_UDP || len < off + ihl + 8)
		return -1;
	*ip_len = f[off + 2] << 8 | f[off + 3];
	off += ihl;
	if ((f[off + 2] << 8 | f[off + 3]) != port)
		return -1;
	*sport = f[off] << 8 | f[off + 1];
	return off + 8;
}

struct counters {
	uint64_t pkt_probes;	/* probes on the AF_PACKET socket */
	uint64_t pkt_other;	/* other frames the filter let through */
	uint64_t udp_probes;	/* probes on the UDP socket */
	uint64_t dup;		/* the same (tag, seq) twice on one socket */
	uint64_t nomem;
};

static void drain_packet(int fd, bool outgoing, struct table *t,
			 uint16_t port, uint32_t batch, struct counters *c)
{
	uint8_t buf[FRAME_MAX];
	char ctrl[256];

	for (;;) {
		struct iovec iov = { buf, sizeof(buf) };
		struct sockaddr_ll sll;
		struct msghdr msg = {
			.msg_name = &sll, .msg_namelen = sizeof(sll),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		struct tw_probe p;
		uint16_t sport, ip_len;
		struct row *r;
		ssize_t n;
		int64_t user;
		int off;

		n = recvmsg(fd, &msg, MSG_TRUNC);
		user = tw_now_ns(CLOCK_REALTIME);
		if (n < 0)
			return;
		if ((sll.sll_pkttype == PACKET_OUTGOING) != outgoing)
			continue;
		if (n > (ssize_t)sizeof(buf))
			n = sizeof(buf);
		off = parse_frame(buf, n, port, &sport, &ip_len);
		if (off < 0 || tw_probe_parse(buf + off, n - off, &p)) {
			c->pkt_other++;
			continue;
		}
		r = table_get(t, sport, p.seq);
		if (!r) {
			c->nomem++;
			continue;
		}
		if (r->have & HAVE_PKT) {
			c->dup++;
			continue;
		}
		c->pkt_probes++;
		r->have |= HAVE_PKT;
		r->sched_ns = p.sched_ns;
		r->compact = p.compact;
		r->kern_rt = tw_cmsg_stamp_ns(&msg);
		r->user_rt = user;
		r->pkt_batch = batch;
		r->size = ip_len;
	}
}

static void drain_udp(int fd, struct table *t, uint32_t batch,
		      struct counters *c)
{
	uint8_t buf[FRAME_MAX];
	char ctrl[256];

	for (;;) {
		struct iovec iov = { buf, sizeof(buf) };
		struct sockaddr_in from;
		struct msghdr msg = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		struct tw_probe p;
		struct row *r;
		ssize_t n;

		n = recvmsg(fd, &msg, 0);
		if (n < 0)
			return;
		if (tw_probe_parse(buf, n, &p))
			continue;
		r = table_get(t, ntohs(from.sin_port), p.seq);
		if (!r) {
			c->nomem++;
			continue;
		}
		if (r->have & HAVE_UDP) {
			c->dup++;
			continue;
		}
		c->udp_probes++;
		r->have |= HAVE_UDP;
		r->udp_rt = tw_cmsg_stamp_ns(&msg);
		r->udp_batch = batch;
		if (!(r->have & HAVE_PKT)) {
			r->sched_ns = p.sched_ns;
			r->compact = p.compact;
			r->size = n + 28;
		}
	}
}

struct verdicts {
	uint64_t sw, udp_fix, user_fix, udp_only;
};

/* tap_src names the tap's point in the CSV: "wire" (-d out) or "sw". */
static int write_csv(const char *path, const struct table *t,
		     const char *tap_src, const struct clock_log *l,
		     struct verdicts *v)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	size_t i;

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "tag,seq,sched_ns,rx_ns,rx_src,kern_ns,udp_ns,user_ns,size\n");
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];
		uint64_t sched = r->sched_ns;
		const char *src;
		int64_t rx;

		if (!(r->have & HAVE_PKT)) {
			rx = batch_mono(l, r->udp_batch, r->udp_rt);
			src = "udp-only";
			v->udp_only++;
		} else if ((r->have & HAVE_UDP) && r->udp_rt &&
			   r->udp_rt != r->kern_rt) {
			/* The tap saw a delivery time: see the top comment. */
			rx = batch_mono(l, r->udp_batch, r->udp_rt);
			src = "udp";
			v->udp_fix++;
		} else if (!r->kern_rt || r->kern_rt > r->user_rt ||
			   r->user_rt - r->kern_rt > STALE_NS) {
			rx = batch_mono(l, r->pkt_batch, r->user_rt);
			src = "user";
			v->user_fix++;
		} else {
			rx = batch_mono(l, r->pkt_batch, r->kern_rt);
			src = tap_src;
			v->sw++;
		}
		/*
		 * A compact probe's time is restored from its arrival, which
		 * assumes the probes were scheduled on CLOCK_MONOTONIC.
		 */
		if (r->compact && rx > 0)
			sched = tw_probe_unwrap(sched, rx);
		fprintf(f, "%u,%u,%" PRIu64 ",%" PRId64 ",%s,%" PRId64 ",%"
			PRId64 ",%" PRId64 ",%u\n", r->tag, r->seq, sched,
			rx, src, r->kern_rt, r->udp_rt,
			batch_mono(l, r->pkt_batch, r->user_rt), r->size);
	}
	if (f != stdout && fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

struct run {
	const char *ifname;
	unsigned long port;
	bool outgoing, use_udp;
	const char *why;	/* what ended it */
	size_t probes;
	struct counters c;
	struct verdicts v;
	unsigned int socket_drops;
	struct tw_clock_pair a, b;	/* the first and the last pair read */
	int64_t max_step;
};

static int write_summary(const char *path, const struct run *r)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "{\"ifname\": \"%s\", \"direction\": \"%s\",\n"
		" \"port\": %lu, \"stop\": \"%s\",\n",
		r->ifname, r->outgoing ? "out" : "in", r->port, r->why);
	fprintf(f, " \"probes\": %zu, \"pkt_probes\": %" PRIu64
		", \"pkt_other\": %" PRIu64 ", \"udp_probes\": %" PRIu64
		", \"duplicates\": %" PRIu64 ", \"nomem\": %" PRIu64 ",\n",
		r->probes, r->c.pkt_probes, r->c.pkt_other, r->c.udp_probes,
		r->c.dup, r->c.nomem);
	fprintf(f, " \"rx_src\": {\"%s\": %" PRIu64 ", \"udp\": %" PRIu64
		", \"user\": %" PRIu64 ", \"udp-only\": %" PRIu64 "},\n",
		r->outgoing ? "wire" : "sw", r->v.sw, r->v.udp_fix,
		r->v.user_fix, r->v.udp_only);
	fprintf(f, " \"pkt_socket_drops\": %u,\n"
		" \"clock_offset_ns\": {\"start\": %" PRId64
		", \"end\": %" PRId64 ", \"max_step\": %" PRId64 "},\n"
		" \"udp_witness\": %s}\n",
		r->socket_drops, r->a.clock - r->a.mono,
		r->b.clock - r->b.mono, r->max_step,
		r->use_udp ? "true" : "false");
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tw-omware-rx -i IFNAME -o FILE [-d in|out] [-p PORT] [-n COUNT]\n"
		"             [-t SECONDS] [-s SUMMARY] [-r READY] [-U] [-q]\n"
		"  -i IFNAME   interface to listen on\n"
		"  -o FILE     CSV output, written when the run ends (- = stdout)\n"
		"  -d in|out   record probes arriving (default) or leaving IFNAME;\n"
		"              out is the wire point, the same for every sender\n"
		"  -p PORT     UDP destination port of the probes (default %u)\n"
		"  -n COUNT    stop after COUNT probes (default: no limit)\n"
		"  -t SECONDS  stop after SECONDS (default 60)\n"
		"  -s SUMMARY  write a JSON summary of the run\n"
		"  -r READY    create this file once the sockets are open\n"
		"  -U          no UDP socket (no delivery-time correction)\n"
		"  -q          quiet\n"
		"SIGINT or SIGTERM end the run normally.\n", TW_PROBE_PORT);
}

/* The command line. */
struct rx_opts {
	const char *ifname, *out, *summary, *ready;
	unsigned long port, count, timeout;
	bool use_udp, quiet, outgoing;
};

/* 0: run; otherwise 1 + the exit code (help or a bad option). */
static int parse_args(int argc, char **argv, struct rx_opts *o)
{
	int opt;

	*o = (struct rx_opts){ .port = TW_PROBE_PORT, .timeout = 60,
			       .use_udp = true };
	while ((opt = getopt(argc, argv, "i:o:d:p:n:t:s:r:Uqh")) != -1) {
		switch (opt) {
		case 'd':
			if (strcmp(optarg, "in") && strcmp(optarg, "out")) {
				fprintf(stderr, "tw-omware-rx: -d takes in or out, not %s\n",
					optarg);
				return 2;
			}
			o->outgoing = !strcmp(optarg, "out");
			break;
		case 'i':
			o->ifname = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'p':
			o->port = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			o->count = strtoul(optarg, NULL, 0);
			break;
		case 't':
			o->timeout = strtoul(optarg, NULL, 0);
			break;
		case 's':
			o->summary = optarg;
			break;
		case 'r':
			o->ready = optarg;
			break;
		case 'U':
			o->use_udp = false;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!o->ifname || !o->out || !o->port || o->port > 65535 ||
	    optind != argc) {
		usage(stderr);
		return 2;
	}
	/* Leaving packets carry no delivery time to correct. */
	if (o->outgoing)
		o->use_udp = false;
	return 0;
}

/* The file whose creation tells the caller we listen. */
static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		perror(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* Read both sockets until the deadline, the count or a signal; why it stopped. */
static const char *receive(const struct rx_opts *o, int pkt_fd, int udp_fd,
			   struct table *t, struct clock_log *clocks,
			   struct counters *c)
{
	int64_t deadline = mono_now() + (int64_t)o->timeout * NSEC_PER_SEC;
	int64_t next_pair = mono_now() + CLOCK_EVERY_NS;
	const char *why = "timeout";

	while (!tw_stop && mono_now() < deadline) {
		/* A sleeping reader would be woken from the packet's path. */
		tw_sleep_until(CLOCK_MONOTONIC, mono_now() + READ_EVERY_NS);
		if (mono_now() >= next_pair) {
			clock_log_add(clocks);
			next_pair += CLOCK_EVERY_NS;
		}
		drain_packet(pkt_fd, o->outgoing, t, o->port, clocks->n - 1, c);
		if (o->use_udp)
			drain_udp(udp_fd, t, clocks->n - 1, c);
		if (o->count && c->pkt_probes >= o->count) {
			why = "count";
			break;
		}
	}
	if (tw_stop)
		why = "signal";
	/* Collect the UDP copies of the last tap packets. */
	if (o->use_udp) {
		usleep(100000);
		drain_udp(udp_fd, t, clocks->n - 1, c);
	}
	/* The end of the last batch. */
	clock_log_add(clocks);
	return why;
}

int main(int argc, char **argv)
{
	struct tpacket_stats pst = { 0 };
	socklen_t pstlen = sizeof(pst);
	struct clock_log clocks = { 0 };
	struct counters c = { 0 };
	struct verdicts v = { 0 };
	struct table t = { 0 };
	int rc, pkt_fd, udp_fd = -1;
	struct rx_opts o;
	const char *why;
	struct run run;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc - 1;
	tw_stop_on_signals();
	pkt_fd = open_packet(o.ifname, o.outgoing, o.port);
	if (o.use_udp)
		udp_fd = open_udp(o.ifname, o.port);
	clock_log_add(&clocks);
	if (!clocks.n) {
		fprintf(stderr, "tw-omware-rx: out of memory\n");
		return 1;
	}
	if (o.ready && touch(o.ready))
		return 1;
	if (!o.quiet)
		fprintf(stderr, "tw-omware-rx: listening on %s port %lu (%s)\n",
			o.ifname, o.port, o.outgoing ? "outgoing" : "incoming");

	why = receive(&o, pkt_fd, udp_fd, &t, &clocks, &c);
	getsockopt(pkt_fd, SOL_PACKET, PACKET_STATISTICS, &pst, &pstlen);
	if (write_csv(o.out, &t, o.outgoing ? "wire" : "sw", &clocks, &v))
		return 1;
	run = (struct run){
		.ifname = o.ifname, .port = o.port, .outgoing = o.outgoing,
		.use_udp = o.use_udp, .why = why, .probes = t.n, .c = c, .v = v,
		.socket_drops = pst.tp_drops, .a = clocks.pair[0],
		.b = clocks.pair[clocks.n - 1], .max_step = clocks.max_step,
	};
	if (o.summary && write_summary(o.summary, &run))
		return 1;
	if (!o.quiet)
		fprintf(stderr,
			"tw-omware-rx: %zu probes (%s); timestamps: %" PRIu64
			" tap, %" PRIu64 " corrected from UDP (delivery time), %"
			PRIu64 " from the user clock, %" PRIu64
			" UDP only; %u socket drops\n", t.n, why, v.sw, v.udp_fix,
			v.user_fix, v.udp_only, pst.tp_drops);
	/* Close only now: see the static-key note at the top. */
	close(pkt_fd);
	if (o.use_udp)
		close(udp_fd);
	return 0;
}
