// SPDX-License-Identifier: GPL-2.0
/*
 * fwd_lib.c - update packets and the bound veth of the forwarder's guest
 * tests (see fwd_lib.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/if_packet.h>

#include "fwd_lib.h"

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, (uint32_t)v);
}

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

struct fwd_hdr fwd_data(uint32_t user, uint32_t seq)
{
	return (struct fwd_hdr){
		.version = TFIB_HDR_VERSION,
		.type = TFIB_PKT_TYPE_DATA,
		.user_id = user,
		.seq = seq,
		/* what the forwarder must overwrite, and what it must not */
		.addr_seq = 0xdeadbeef,
		.addr_ns = 0xdeadbeefcafef00dULL,
		.send_ns = mono(),
		.mac = { 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
		.flags = 0x1234,
		.hop_limit = 16,
		.reserved = 0x56,
	};
}

struct fwd_hdr fwd_control(uint32_t user, const uint8_t *mac, uint64_t ts_ns,
			   uint32_t seq)
{
	struct fwd_hdr h = {
		.version = TFIB_HDR_VERSION,
		.type = TFIB_PKT_TYPE_CONTROL,
		.user_id = user,
		.seq = seq,
		.send_ns = mono(),
		.addr_ns = ts_ns,
	};

	memcpy(h.mac, mac, ETH_ALEN);
	return h;
}

void fwd_tuple_of(uint32_t k, uint8_t *mac, uint64_t *ts_ns)
{
	mac[0] = 0x02;		/* locally administered, unicast */
	put_be32(mac + 1, k);
	mac[5] = (uint8_t)(k * 31 + 7);
	*ts_ns = (uint64_t)k * 1000003 + 17;
}

static uint8_t fwd_fill(uint32_t tag, uint32_t idx, int i)
{
	return (uint8_t)(idx * 7 + i * 13 + tag);
}

int fwd_frame(uint8_t *f, const struct fwd_env *e, const struct fwd_hdr *h,
	      int payload, uint32_t tag, uint32_t idx)
{
	uint8_t *p = f + ETH_HLEN, *pl = p + FWD_HDR_LEN;
	int i;

	memcpy(f, e->topo.mac, ETH_ALEN);
	memcpy(f + ETH_ALEN, e->topo.peer_mac, ETH_ALEN);
	put_be16(f + 12, TFIB_ETHERTYPE);
	p[0] = h->version;
	p[1] = h->type;
	put_be16(p + 2, h->flags);
	put_be32(p + 4, h->user_id);
	put_be32(p + 8, h->seq);
	put_be32(p + 12, h->addr_seq);
	put_be64(p + 16, h->send_ns);
	put_be64(p + 24, h->addr_ns);
	memcpy(p + 32, h->mac, ETH_ALEN);
	p[38] = h->hop_limit;
	p[39] = h->reserved;
	if (payload < FWD_MARK_LEN)
		payload = FWD_MARK_LEN;
	put_be32(pl, tag);
	put_be32(pl + 4, idx);
	for (i = FWD_MARK_LEN; i < payload; i++)
		pl[i] = fwd_fill(tag, idx, i);
	return ETH_HLEN + FWD_HDR_LEN + payload;
}

int fwd_send(int fd, const uint8_t *f, int len)
{
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		if (send(fd, f, len, 0) == len)
			return 0;
		if (errno != ENOBUFS && errno != EAGAIN)
			return -1;
		usleep(1000);
	}
	return -1;
}

bool fwd_parse(const uint8_t *f, int len, struct fwd_rx *rx)
{
	const uint8_t *p = f + ETH_HLEN, *pl = p + FWD_HDR_LEN;
	int i;

	if (len < ETH_HLEN + FWD_HDR_LEN + FWD_MARK_LEN ||
	    get_be16(f + 12) != TFIB_ETHERTYPE)
		return false;
	memset(rx, 0, sizeof(*rx));
	memcpy(rx->dst, f, ETH_ALEN);
	memcpy(rx->src, f + ETH_ALEN, ETH_ALEN);
	rx->h.version = p[0];
	rx->h.type = p[1];
	rx->h.flags = get_be16(p + 2);
	rx->h.user_id = get_be32(p + 4);
	rx->h.seq = get_be32(p + 8);
	rx->h.addr_seq = get_be32(p + 12);
	rx->h.send_ns = get_be64(p + 16);
	rx->h.addr_ns = get_be64(p + 24);
	memcpy(rx->h.mac, p + 32, ETH_ALEN);
	rx->h.hop_limit = p[38];
	rx->h.reserved = p[39];
	rx->tag = get_be32(pl);
	rx->idx = get_be32(pl + 4);
	rx->len = len;
	rx->payload_ok = true;
	for (i = FWD_MARK_LEN; i < len - ETH_HLEN - FWD_HDR_LEN; i++)
		if (pl[i] != fwd_fill(rx->tag, rx->idx, i))
			rx->payload_ok = false;
	return true;
}

int fwd_collect(struct fwd_env *e, uint32_t tag, struct fwd_rx *out, int n,
		int max, int timeout_ms, int settle_ms)
{
	struct rx_window w;
	struct fwd_rx rx;
	int got = 0, len;

	rx_window_open(&w, timeout_ms, settle_ms);
	while ((len = rx_next(&e->topo, &w, got >= n))) {
		if (!fwd_parse(rxbuf, len, &rx) || rx.tag != tag)
			continue;
		if (got < max)
			out[got] = rx;
		got++;
	}
	return got;
}

int fwd_tx_open(struct fwd_env *e)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = e->topo.peer_ifindex,
	};
	int fd;

	if (enter_ns(e->topo.ns))
		return -1;
	/* protocol 0: it sends only, the receiver is topo.rx */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		close(fd);
		fd = -1;
	}
	if (leave_ns()) {
		diag("cannot return to the original netns");
		exit(KSFT_FAIL);
	}
	return fd;
}

int fwd_threads(const char *prefix, pid_t *pids, int max)
{
	char path[300], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc");
	FILE *f;
	int n = 0;

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, prefix, strlen(prefix))) {
			if (n < max)
				pids[n] = atoi(d->d_name);
			n++;
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return n;
}

int fwd_hold(const struct fwd_env *e, struct fwd_hold *h)
{
	struct sched_param fifo = { .sched_priority = 1 };
	pid_t pids[64];
	char prefix[32];
	cpu_set_t one;
	int i, n;

	snprintf(prefix, sizeof(prefix), "tfib/%d:", e->topo.ifindex);
	n = fwd_threads(prefix, pids, 64);
	if (n < 1 || n > 64 || sched_getaffinity(0, sizeof(h->cpus), &h->cpus))
		return -1;
	h->policy = sched_getscheduler(0);
	if (h->policy < 0 || sched_getparam(0, &h->param))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	for (i = 0; i < n; i++)
		if (sched_setaffinity(pids[i], sizeof(one), &one))
			return -1;
	if (sched_setaffinity(0, sizeof(one), &one) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo)) {
		fwd_unhold(h);
		return -1;
	}
	return 0;
}

void fwd_unhold(const struct fwd_hold *h)
{
	sched_setscheduler(0, h->policy, &h->param);
	sched_setaffinity(0, sizeof(h->cpus), &h->cpus);
}

struct topo fwd_topo = { .rx = -1 };

/* Root, and the family there? */
static bool fwd_can_run(void)
{
	struct twt c;

	if (geteuid() || tfc_open(&c))
		return false;
	twt_close(&c);
	return true;
}

void fwd_topo_up(int argc, char **argv, int id)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-h"))
			return;
	if (fwd_can_run() && topo_make(&fwd_topo, id))
		diag("cannot make the veth topology: the tests will fail");
}

void fwd_topo_down(void)
{
	topo_del(&fwd_topo);
}

int fwd_env_up(struct fwd_env *e, int id, int sync,
	       const struct tfc_bind_cfg *bind)
{
	struct tfc_table_cfg cfg;
	struct twt_ack a;
	int err;

	memset(e, 0, sizeof(*e));
	e->tx = -1;
	e->topo.rx = -1;
	e->nl.fd = -1;
	if (geteuid())
		return KSFT_SKIP;
	err = tfc_open(&e->nl);
	if (err == -ENOENT)
		return KSFT_SKIP;
	e->st = calloc(1, sizeof(*e->st));
	if (err || !e->st)
		return -1;
	e->shared = id < 0;
	if (e->shared) {
		if (!fwd_topo.made)
			return -1;
		e->topo = fwd_topo;
	} else if (topo_make(&e->topo, id)) {
		return -1;
	}
	snprintf(e->table, sizeof(e->table), "fwd%d", e->topo.ifindex);
	cfg = tfc_table_defaults(e->table, 1024);
	cfg.sync = sync;
	if (tfc_table_new(&e->nl, &cfg, &a)) {
		diag("TABLE_NEW %s: %s %s", e->table, twt_errname(a.err), a.msg);
		return -1;
	}
	if (bind) {
		struct tfc_bind_cfg b = *bind;

		b.ifindex = e->topo.ifindex;
		if (tfc_bind(&e->nl, e->table, &b, &a)) {
			diag("BIND: %s %s", twt_errname(a.err), a.msg);
			return -1;
		}
	}
	e->tx = fwd_tx_open(e);
	return e->tx < 0 ? -1 : 0;
}

void fwd_env_down(struct fwd_env *e)
{
	struct twt_ack a;

	if (e->tx >= 0)
		close(e->tx);
	e->tx = -1;
	if (e->nl.fd >= 0) {
		if (e->table[0])
			tfc_table_del(&e->nl, e->table, &a);
		twt_close(&e->nl);
		e->nl.fd = -1;
	}
	if (!e->shared)
		topo_del(&e->topo);
	free(e->st);
	e->st = NULL;
}

int fwd_stats(struct fwd_env *e)
{
	struct twt_ack a;

	return tfc_stats_get(&e->nl, e->table, e->st, &a);
}

int64_t fwd_ctr(const struct fwd_env *e, int attr)
{
	return e->st->has[attr] ? (int64_t)e->st->v[attr] : -1;
}

int64_t fwd_wait_ctr(struct fwd_env *e, int attr, uint64_t want)
{
	int64_t v = -1;
	int i;

	for (i = 0; i < 250; i++) {
		if (!fwd_stats(e)) {
			v = fwd_ctr(e, attr);
			if (v >= 0 && (uint64_t)v >= want)
				break;
		}
		sleep_ms(20);
	}
	return v;
}

uint64_t fwd_hist_sum(const struct tfc_bin *bins, unsigned int n)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += bins[i].count;
	return sum;
}
