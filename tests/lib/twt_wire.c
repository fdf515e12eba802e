// SPDX-License-Identifier: GPL-2.0
/*
 * twt_wire.c - test frames, the veth/netns topology and the receiver of the
 * guest tests, and what their programs share (see twt_wire.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/if_packet.h>

#include "twt_wire.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING	23
#endif

uint8_t rxbuf[256 * 1024];

uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * What a wait's bound is multiplied by: TW_TIMEOUT_MULT on a slow (debug)
 * kernel, where the harness scales every program's limit alike.
 */
unsigned int slow_mult(void)
{
	static unsigned int mult;
	const char *v;

	if (!mult) {
		v = getenv("TW_TIMEOUT_MULT");
		mult = v && atoi(v) > 0 ? atoi(v) : 1;
	}
	return mult;
}

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A shell command; its exit status, or -1 if it did not exit. */
int run(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc == -1 || !WIFEXITED(rc))
		return -1;
	return WEXITSTATUS(rc);
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p) {
		perror("calloc");
		exit(KSFT_FAIL);
	}
	return p;
}

/* Deterministic xorshift so every run sends the same shapes. */
static uint32_t rnd_state = 0x2545f491;

uint32_t rnd(void)
{
	uint32_t x = rnd_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rnd_state = x;
	return x;
}

/* Concurrent clients on different devices send different shapes. */
void rnd_mix(uint32_t seed)
{
	rnd_state ^= seed * 2654435761u;
}

void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* One line of a sysfs or procfs file; -1 if it cannot be read. */
static int read_line(const char *path, char *line, int len)
{
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(line, len, f))
		rc = 0;
	fclose(f);
	return rc;
}

static int read_dev_mac(const char *dev, uint8_t *mac)
{
	char path[128], line[64];

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", dev);
	if (read_line(path, line, sizeof(line)))
		return -1;
	return sscanf(line, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

bool if_carrier(const char *dev)
{
	char path[128], line[8];

	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", dev);
	return !read_line(path, line, sizeof(line)) && line[0] == '1';
}

bool listing_only(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int param_path(const char *module, const char *name, char *path,
		      size_t len)
{
	return snprintf(path, len, "/sys/module/%s/parameters/%s", module,
			name) >= (int)len ? -1 : 0;
}

int param_read(const char *module, const char *name, char *buf, size_t len)
{
	char path[256];

	if (param_path(module, name, path, sizeof(path)) ||
	    read_line(path, buf, len))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int param_write(const char *module, const char *name, const char *v)
{
	char path[256];
	FILE *f;
	int rc;

	if (param_path(module, name, path, sizeof(path)))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	rc = fputs(v, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* frames: every test frame carries a magic, a per-batch tag and index */

static void fill_mark(uint8_t *p, int len, uint32_t tag, uint32_t idx)
{
	int i;

	put_be32(p, TEST_MAGIC);
	put_be32(p + 4, tag);
	put_be32(p + 8, idx);
	for (i = MARK_LEN; i < len; i++)
		p[i] = (uint8_t)(idx * 7 + i * 13 + tag);
}

/* @f must hold FRAME_MIN_TAGGED bytes even when @len is shorter. */
int make_frame(uint8_t *f, int len, const uint8_t *dst, const uint8_t *src,
	       uint32_t tag, uint32_t idx)
{
	memcpy(f, dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, src, ETH_ALEN);
	put_be16(f + 12, TEST_ETHERTYPE);
	fill_mark(f + FRAME_HDR, len - FRAME_HDR, tag, idx);
	return len;
}

static uint16_t ip_csum(const uint8_t *p, int len)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

int make_payload(uint8_t *p, int len, uint32_t tag, uint32_t idx)
{
	memset(p, 0, IP_HDR);
	p[0] = 0x45;
	put_be16(p + 2, len);
	put_be16(p + 4, idx);
	put_be16(p + 6, 0x4000);		/* DF */
	p[8] = 64;
	p[9] = 253;
	put_be32(p + 12, 0xc0000201);		/* 192.0.2.1 */
	put_be32(p + 16, 0xc0000202);		/* 192.0.2.2 */
	put_be16(p + 10, ip_csum(p, IP_HDR));
	fill_mark(p + IP_HDR, len - IP_HDR, tag, idx);
	return len;
}

/* Find magic/tag/index in a received frame; false if it is not ours. */
bool frame_mark(const uint8_t *f, int len, uint32_t *tag, uint32_t *idx)
{
	static const int offs[] = { FRAME_HDR, FRAME_HDR + IP_HDR };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		if (len < offs[i] + MARK_LEN)
			continue;
		if (get_be32(f + offs[i]) != TEST_MAGIC)
			continue;
		*tag = get_be32(f + offs[i] + 4);
		*idx = get_be32(f + offs[i] + 8);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* topology                                                            */

static int self_ns = -1;

int enter_ns(const char *ns)
{
	char path[96];
	int fd, rc;

	if (self_ns < 0)
		self_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (self_ns < 0 || fd < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rc = setns(fd, CLONE_NEWNET);
	close(fd);
	return rc;
}

int leave_ns(void)
{
	return setns(self_ns, CLONE_NEWNET);
}

static int rx_socket(int ifindex)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifindex,
	};
	int one = 1, sz = 32 << 20;
	int fd;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Open the receiver in the peer namespace; the socket stays bound there. */
static int topo_rx_open(struct topo *t)
{
	int fd = -1;

	if (enter_ns(t->ns)) {
		diag("cannot enter netns %s: %s", t->ns, strerror(errno));
		return -1;
	}
	t->peer_ifindex = if_nametoindex(t->peer);
	if (t->peer_ifindex)
		fd = rx_socket(t->peer_ifindex);
	if (leave_ns()) {
		diag("cannot return to the original netns");
		exit(KSFT_FAIL);
	}
	if (fd < 0) {
		diag("cannot open the receiver on %s: %s", t->peer,
		     strerror(errno));
		return -1;
	}
	t->rx = fd;
	return 0;
}

void topo_del(struct topo *t)
{
	if (t->rx >= 0)
		close(t->rx);
	t->rx = -1;
	if (!t->made)
		return;
	run("ip link del %s >/dev/null 2>&1", t->dev);
	run("ip netns del %s >/dev/null 2>&1", t->ns);
	t->made = false;
}

static void set_ipv6_off(const char *dev)
{
	char path[128];
	FILE *f;

	/* Keep the link quiet: no router or neighbour solicitations. */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 dev);
	f = fopen(path, "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
}

/* A veth owt<id> here, its peer owp<id> in a namespace of its own. */
int topo_make(struct topo *t, int id)
{
	memset(t, 0, sizeof(*t));
	t->rx = -1;
	snprintf(t->ns, sizeof(t->ns), "owt-%d-%d", (int)getpid(), id);
	snprintf(t->dev, sizeof(t->dev), "owt%d", id);
	snprintf(t->peer, sizeof(t->peer), "owp%d", id);
	memcpy(t->mac, (uint8_t[]){ 0x02, 0x6f, 0x77, 0, id, 1 }, ETH_ALEN);
	memcpy(t->peer_mac, (uint8_t[]){ 0x02, 0x6f, 0x77, 0, id, 2 },
	       ETH_ALEN);
	run("ip link del %s >/dev/null 2>&1", t->dev);
	if (run("ip netns add %s", t->ns))
		return -1;
	t->made = true;
	if (run("ip link add %s address 02:6f:77:00:%02x:01 type veth peer name %s address 02:6f:77:00:%02x:02 netns %s",
		t->dev, id, t->peer, id, t->ns))
		goto err;
	set_ipv6_off(t->dev);
	if (run("ip link set %s up", t->dev) ||
	    run("ip -n %s link set %s up", t->ns, t->peer))
		goto err;
	t->ifindex = if_nametoindex(t->dev);
	if (!t->ifindex || topo_rx_open(t))
		goto err;
	return 0;
err:
	topo_del(t);
	return -1;
}

/* Attach to a topology made by a script; no receiver without @ns. */
int topo_attach(struct topo *t, const char *dev, const char *ns,
		const char *peer)
{
	memset(t, 0, sizeof(*t));
	t->rx = -1;
	snprintf(t->dev, sizeof(t->dev), "%s", dev);
	t->ifindex = if_nametoindex(dev);
	if (!t->ifindex || read_dev_mac(dev, t->mac)) {
		diag("no device %s", dev);
		return -1;
	}
	if (!ns)
		return 0;
	snprintf(t->ns, sizeof(t->ns), "%s", ns);
	snprintf(t->peer, sizeof(t->peer), "%s", peer);
	if (topo_rx_open(t))
		return -1;
	/* The peer MAC is only needed as a destination; read it in place. */
	if (enter_ns(ns) == 0) {
		read_dev_mac(peer, t->peer_mac);
		leave_ns();
	}
	return 0;
}

static int set_flags(const char *dev, bool up)
{
	struct ifreq ifr = { 0 };
	int fd, rc;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (!rc) {
		ifr.ifr_flags = up ? ifr.ifr_flags | IFF_UP :
				     ifr.ifr_flags & ~IFF_UP;
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return rc;
}

/*
 * Set the device (or with @peer_side its peer) up or down.  An ioctl, not
 * ip(8): a test racing packets due in a second cannot wait for an exec in
 * an emulated guest.
 */
int topo_set_link(const struct topo *t, bool peer_side, bool up)
{
	int rc;

	if (!peer_side)
		return set_flags(t->dev, up);
	if (enter_ns(t->ns))
		return -1;
	rc = set_flags(t->peer, up);
	if (leave_ns()) {
		diag("cannot return to the original netns");
		exit(KSFT_FAIL);
	}
	return rc;
}

/*
 * A device index that exists in the peer namespace only (0 if none can be
 * made): the peer's own, or a veth made there with an index unused here.
 */
int topo_other_ns_ifindex(const struct topo *t)
{
	char name[IF_NAMESIZE];

	if (!if_indextoname(t->peer_ifindex, name))
		return t->peer_ifindex;
	if (run("ip -n %s link add owx0 index 31337 type veth peer name owx1 >/dev/null 2>&1",
		t->ns) == 0 && !if_indextoname(31337, name))
		return 31337;
	return 0;
}

/* ------------------------------------------------------------------ */
/* receiver                                                            */

/* Throw away whatever the receiver holds. */
void rx_flush(struct topo *t)
{
	while (recv(t->rx, rxbuf, sizeof(rxbuf), MSG_DONTWAIT) > 0)
		;
}

static void rx_store(struct rxframe *f, int len, uint32_t idx)
{
	f->len = len > (int)sizeof(f->d) ? (int)sizeof(f->d) : len;
	memcpy(f->d, rxbuf, f->len);
	f->idx = idx;
}

void rx_window_open(struct rx_window *w, int timeout_ms, int settle_ms)
{
	w->deadline = mono() + timeout_ms * NSEC_PER_MSEC;
	w->settle_end = 0;
	w->settle_ns = settle_ms * NSEC_PER_MSEC;
}

int rx_next(struct topo *t, struct rx_window *w, bool done)
{
	for (;;) {
		struct pollfd pfd = { .fd = t->rx, .events = POLLIN };
		uint64_t now = mono(), end;
		int len;

		if (done && !w->settle_end)
			w->settle_end = now + w->settle_ns;
		end = w->settle_end ? w->settle_end : w->deadline;
		if (now >= end)
			return 0;
		if (poll(&pfd, 1, (int)((end - now) / NSEC_PER_MSEC) + 1) <= 0)
			continue;
		len = recv(t->rx, rxbuf, sizeof(rxbuf), MSG_DONTWAIT | MSG_TRUNC);
		if (len > 0)
			return len;
	}
}

/*
 * Collect frames tagged @tag until @n arrived or @timeout_ms passed, then
 * listen @settle_ms more for extra copies.  Returns the number of frames
 * seen; the first @max are stored in @out.
 */
int rx_collect(struct topo *t, uint32_t tag, struct rxframe *out, int n,
	       int max, int timeout_ms, int settle_ms)
{
	struct rx_window w;
	uint32_t ftag, idx;
	int got = 0, len;

	rx_window_open(&w, timeout_ms, settle_ms);
	while ((len = rx_next(t, &w, got >= n))) {
		if (!frame_mark(rxbuf, len, &ftag, &idx) || ftag != tag)
			continue;
		if (got < max)
			rx_store(&out[got], len, idx);
		got++;
	}
	return got;
}

/* Position of each packet index in the received sequence (-1: missing). */
void rx_positions(const struct rxframe *f, int got, int *pos, int n)
{
	int i;

	for (i = 0; i < n; i++)
		pos[i] = -1;
	for (i = 0; i < got; i++)
		if (f[i].idx < (uint32_t)n && pos[f[i].idx] < 0)
			pos[f[i].idx] = i;
}
