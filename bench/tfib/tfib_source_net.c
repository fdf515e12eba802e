// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-source: the receiver, the sender (sendmmsg() through the token
 * bucket, or omware.ko pacing) and their packet sockets.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tbucket.h"
#include "tfib_source.h"
#include "lib/netdev.h"
#include "lib/stop.h"
#include "lib/util.h"

/* --- receiving -------------------------------------------------------- */

static void rx_record(struct run *r, const uint8_t *f, size_t len,
		      uint64_t t_ns)
{
	struct rx_rec rec;
	size_t n = atomic_load_explicit(&r->rx_n, memory_order_relaxed);

	if (!frame_parse(f, len, r->o->fwd_mac, &rec)) {
		r->rx_other++;
		return;
	}
	if (n == r->rx_cap) {
		r->rx_lost++;
		return;
	}
	rec.t_ns = t_ns;
	r->rx[n] = rec;
	atomic_store_explicit(&r->rx_n, n + 1, memory_order_release);
}

static int pin_thread(int cpu, uint32_t fifo, const char *who)
{
	struct sched_param sp = { .sched_priority = (int)fifo };
	cpu_set_t set;
	int err;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (err) {
			tw_err("cannot pin the %s to CPU %d: %s", who, cpu,
			       strerror(err));
			return -1;
		}
	}
	if (!fifo)
		return 0;
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err)
		tw_err("cannot run the %s SCHED_FIFO %d: %s", who, fifo,
		       strerror(err));
	return err ? -1 : 0;
}

struct rx_walk {
	struct run *r;
	uint64_t now_ns;
};

/* One frame of the ring, stamped by the kernel on arrival. */
static void rx_frame(void *arg, const struct tw_rxring_frame *f)
{
	struct rx_walk *w = arg;
	uint64_t t = f->rt_ns ? (uint64_t)(f->rt_ns - w->r->rt_off) : 0;

	/* Only a socket of every protocol sees them: a guard. */
	if (f->pkttype == PACKET_OUTGOING)
		return;
	if (!t || t > w->now_ns)
		w->now_ns = mono_ns();
	/* A stamp from after we read it: the clock moved. */
	if (!t || t > w->now_ns)
		t = w->now_ns;
	rx_record(w->r, f->data, f->len, t);
}

void *receiver(void *arg)
{
	struct run *r = arg;
	struct rx_walk w = { .r = r };
	int n = 0;

	if (pin_thread(r->o->rx_cpu, r->o->fifo, "receiver")) {
		tw_stop = true;
		n = -1;
	}
	__atomic_store_n(&r->rx_ready, true, __ATOMIC_RELEASE);
	while (n >= 0 && !atomic_load(&r->rx_stop)) {
		w.now_ns = mono_ns();
		n = tw_rxring_read(&r->rx_ring, RX_POLL_MS, rx_frame, &w);
	}
	/*
	 * What the ring still holds, unless a signal ended the run: the
	 * block not full comes when its timer hands it over.
	 */
	while (n >= 0 && !tw_stop) {
		w.now_ns = mono_ns();
		n = tw_rxring_read(&r->rx_ring, RX_LAST_MS, rx_frame, &w);
		if (!n)
			break;
	}
	if (n < 0 && !tw_stop) {
		tw_err("reading the receive ring: %s", strerror(-n));
		tw_stop = true;
	}
	return NULL;
}

/* --- sending ---------------------------------------------------------- */

/*
 * The stand-in forwarder: frames [0, k), sent at now_ns, answered from a
 * copy (the sender reuses its frames).
 */
static int sim_xmit(struct run *r, uint8_t (*frames)[FRAME_LEN], int k,
		    uint64_t now_ns)
{
	uint8_t f[FRAME_LEN];
	struct tfib_hdr h;
	int i;

	for (i = 0; i < k; i++) {
		struct sim_entry *e;

		if (r->frames && fwrite(frames[i], FRAME_LEN, 1, r->frames) != 1)
			return -EIO;
		memcpy(f, frames[i], FRAME_LEN);
		memcpy(&h, f + HDR_OFF, sizeof(h));
		e = &r->sim[ntohl(h.user_id)];
		if (h.type == TFIB_PKT_TYPE_CONTROL) {
			e->addr_ns = be64toh(h.addr_ns);
			e->addr_seq = ntohl(h.seq);
			memcpy(e->mac, h.mac, sizeof(e->mac));
			continue;
		}
		h.addr_ns = htobe64(e->addr_ns);
		h.addr_seq = htonl(e->addr_seq);
		memcpy(f + HDR_OFF, &h, sizeof(h));
		memcpy(f, e->mac, ETH_ALEN);
		memcpy(f + ETH_ALEN, r->o->fwd_mac, ETH_ALEN);
		rx_record(r, f, FRAME_LEN, now_ns + SIM_DELAY_NS);
	}
	return k;
}

struct tx_batch {
	struct mmsghdr msg[MAX_BURST];
	struct iovec iov[MAX_BURST];
	uint8_t frame[MAX_BURST][FRAME_LEN];
};

static void tx_batch_init(struct tx_batch *b, const struct run *r)
{
	int i;

	memset(b->msg, 0, sizeof(b->msg));
	for (i = 0; i < MAX_BURST; i++) {
		frame_init(b->frame[i], r->o->fwd_mac, r->tx_mac);
		b->iov[i] = (struct iovec){ b->frame[i], FRAME_LEN };
		b->msg[i].msg_hdr.msg_iov = &b->iov[i];
		b->msg[i].msg_hdr.msg_iovlen = 1;
	}
}

/* Frames [from, k) the device took, 0 if none, -errno on a failure. */
static int tx_sendmmsg(struct run *r, struct tx_batch *b, int from, int k)
{
	int n = sendmmsg(r->tx_fd, b->msg + from, k - from, 0);

	if (n >= 0)
		return n;
	/* A full queue: the tokens stay, the rows go next time. */
	if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)
		return 0;
	return -errno;
}

/*
 * --refused lost: every frame is sent; one the device refuses is lost, as
 * a wire loses what the far end's full receive ring cannot take.  On veth
 * the device's refusal is the forwarder's ring being full.
 */
static int tx_send_all(struct run *r, struct tx_batch *b, int k)
{
	int done = 0, n;

	while (done < k) {
		n = tx_sendmmsg(r, b, done, k);
		if (n < 0)
			return n;
		/* none taken: only a full queue (ENOBUFS) is a refusal */
		if (!n && errno != ENOBUFS)
			continue;
		done += n;
		/* sendmmsg stops at the frame refused: it is gone */
		if (done < k) {
			r->tx_refused++;
			done++;
		}
	}
	return k;
}

/* Frames the device took, 0 when it took none, -errno on a failure. */
static int tx_send(struct run *r, struct tx_batch *b, int k, uint64_t now_ns)
{
	if (r->o->simulate)
		return sim_xmit(r, b->frame, k, now_ns);
	if (r->o->refused_lost)
		return tx_send_all(r, b, k);
	return tx_sendmmsg(r, b, 0, k);
}

/* Until the bucket has a token: sleep when that is long, else spin. */
static void tx_wait(const struct run *r, uint64_t now_ns)
{
	uint64_t gap = NSEC_PER_SEC / r->o->rate;

	if (r->o->simulate)
		return;
	if (gap >= SPIN_BELOW_NS)
		tw_sleep_until(CLOCK_MONOTONIC, now_ns + gap);
}

static void send_trace(struct run *r, struct tx_batch *b)
{
	uint64_t i = 0, now = r->start_ns;
	struct tw_tbucket tb;

	tw_tbucket_init(&tb, r->o->rate, r->o->burst, 0, now);
	while (i < r->tr.n && !tw_stop) {
		uint32_t k, j;
		int got;

		/* A simulated clock: one token's time per opportunity. */
		now = r->o->simulate ? now + NSEC_PER_SEC / r->o->rate :
			mono_ns();
		k = tw_tbucket_offer(&tb, now);
		if (!k) {
			tx_wait(r, now);
			continue;
		}
		if (k > r->tr.n - i)
			k = r->tr.n - i;
		for (j = 0; j < k; j++)
			frame_set(b->frame[j], &r->tr, i + j, now, r->sink_mac);
		got = tx_send(r, b, k, now);
		if (got < 0) {
			r->tx_err = -got;
			tw_stop = true;
			break;
		}
		for (j = 0; j < (uint32_t)got; j++)
			r->tx_ns[i + j] = now;
		i += got;
		atomic_store_explicit(&r->sent, i, memory_order_release);
		tw_tbucket_take(&tb, got);
		r->tx_short += (uint32_t)got < k;
	}
	r->send_end_ns = now;
}

/* --pace omware: row i, due at sched_ns, as send_trace() would send it. */
static void pace_build(void *arg, size_t i, uint64_t sched_ns, uint8_t *buf)
{
	struct run *r = arg;

	frame_init(buf, r->o->fwd_mac, r->tx_mac);
	frame_set(buf, &r->tr, i, sched_ns, r->sink_mac);
}

static void pace_trace(struct run *r)
{
	struct tfib_pace_cfg cfg = {
		.ifindex = r->tx_ifindex,
		.rate = r->o->rate,
		.burst = r->o->burst,
		.rows = r->tr.n,
		.frame_len = FRAME_LEN,
		.build = pace_build,
		.arg = r,
		.handed = &r->sent,
	};

	r->pace_ret = tfib_pace_run(&cfg, r->tx_ns, &r->pace);
	if (r->pace_ret)
		tw_stop = true;
	r->send_end_ns = r->pace.last_sent_ns ? r->pace.last_sent_ns :
			 mono_ns();
}

void *sender(void *arg)
{
	struct run *r = arg;
	struct tx_batch *b = malloc(sizeof(*b));

	if (!b || pin_thread(r->o->tx_cpu, r->o->fifo, "sender")) {
		tw_stop = true;
	} else if (r->o->pace_omware) {
		pace_trace(r);
	} else {
		tx_batch_init(b, r);
		send_trace(r, b);
	}
	free(b);
	atomic_store(&r->tx_done, true);
	return NULL;
}

/* Every user's entry as the caller would set it before a run. */
static void sim_fill(struct run *r)
{
	uint32_t u;

	for (u = 0; u <= r->tr.users; u++) {
		r->sim[u].addr_ns = r->start_ns;
		memcpy(r->sim[u].mac, r->sink_mac, ETH_ALEN);
	}
}

int run_simulated(struct run *r)
{
	struct tx_batch *b = malloc(sizeof(*b));

	if (!b) {
		tw_err("no memory");
		return -1;
	}
	tx_batch_init(b, r);
	r->start_ns = mono_ns();
	sim_fill(r);
	send_trace(r, b);
	free(b);
	r->end_ns = r->send_end_ns + SIM_DELAY_NS;
	if (r->frames && fclose(r->frames)) {
		tw_err("%s: %s", r->o->frames_path, strerror(errno));
		return -1;
	}
	return r->tx_err ? -1 : 0;
}

/* --- sockets ---------------------------------------------------------- */

static int open_packet(const char *ifname, uint16_t proto, unsigned int *ifx)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(proto),
	};
	int fd;

	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		tw_err("no interface %s (-i and --sink name one of this network namespace)",
		       ifname);
		return -1;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(proto));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		tw_err("AF_PACKET socket on %s: %s%s", ifname, strerror(errno),
		       errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (ifx)
		*ifx = sll.sll_ifindex;
	return fd;
}

/*
 * The sink: a receive ring, so that the frames are copied in the kernel's
 * receive path rather than by a system call of this CPU's per frame.  The
 * timestamps are asked for so that the stack stamps each frame where it
 * enters the receive path, not where the ring copies it.
 */
static int rx_socket_open(struct run *r, const char *sink)
{
	int one = 1, err;

	r->rx_fd = open_packet(sink, TFIB_ETHERTYPE, NULL);
	if (r->rx_fd < 0)
		return -1;
	if (setsockopt(r->rx_fd, SOL_SOCKET, SO_TIMESTAMPNS, &one,
		       sizeof(one))) {
		tw_err("receive socket options: %s", strerror(errno));
		return -1;
	}
	err = tw_rxring_open(&r->rx_ring, r->rx_fd, RX_RING_BYTES,
			     RX_BLOCK_MS);
	if (err) {
		tw_err("a receive ring of %u MiB on %s: %s", RX_RING_BYTES >> 20,
		       sink, strerror(-err));
		return -1;
	}
	return 0;
}

/* FORCE needs CAP_NET_ADMIN; the plain option, capped lower, is the fallback. */
static void tx_socket_budget(struct run *r)
{
	int size = SNDBUF_BYTES;
	socklen_t len = sizeof(r->tx_sndbuf);

	if (setsockopt(r->tx_fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
		       sizeof(size)))
		setsockopt(r->tx_fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	if (getsockopt(r->tx_fd, SOL_SOCKET, SO_SNDBUF, &r->tx_sndbuf, &len))
		r->tx_sndbuf = -1;
}

/*
 * A forwarder drops an app update whose next hop is its sender (a loop).
 * Sent and received on one interface, the frames therefore leave from the
 * interface's address with its locally administered bit flipped: the
 * sender and the sink are two stations, as in the study.
 */
void tx_mac_apart(struct run *r)
{
	if (!memcmp(r->tx_mac, r->sink_mac, ETH_ALEN))
		r->tx_mac[0] ^= 0x02;
}

int open_sockets(struct run *r)
{
	const struct src_opts *o = r->o;
	const char *sink = o->sink_ifname ? o->sink_ifname : o->ifname;
	int err;

	/* Protocol 0: the sending socket receives nothing. */
	r->tx_fd = open_packet(o->ifname, 0, &r->tx_ifindex);
	if (r->tx_fd < 0)
		return -1;
	tx_socket_budget(r);
	if (rx_socket_open(r, sink))
		return -1;
	err = tw_dev_mac(o->ifname, r->tx_mac);
	if (!err)
		err = tw_dev_mac(sink, r->sink_mac);
	if (err) {
		tw_err("the MAC address of %s or %s: %s", o->ifname, sink,
		       strerror(-err));
		return -1;
	}
	tx_mac_apart(r);
	return 0;
}
