// SPDX-License-Identifier: GPL-2.0
/*
 * tw-omware-bench: the methods through an AF_PACKET socket (RSM, RSM-RT,
 * RSM-RT-sleep, TRW, TRW-RT, ETF, FQ), the real-time thread some of them
 * send from, and their transmit timestamps.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/errqueue.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <linux/omware.h>

#include "lib/clock.h"
#include "lib/stop.h"
#include "omware/probe.h"

/* The module's adaptive guard, from the portable core. */
#include "guard.h"
#include "omware_bench.h"

/* ---------------------------------------------------------------------- */
/* socket methods */

/* Offset of the probe in a frame or an IP packet; -1 if none. */
static int probe_offset(const uint8_t *f, size_t len, uint16_t *sport)
{
	size_t off = 0, ihl;

	if (len >= ETH_HLEN + 20 && f[12] == 0x08 && f[13] == 0x00)
		off = ETH_HLEN;
	if (len < off + 28 || (f[off] >> 4) != 4)
		return -1;
	ihl = (f[off] & 0xf) * 4;
	if (f[off + 9] != IPPROTO_UDP || len < off + ihl + 8 + TW_PROBE_COMPACT_LEN)
		return -1;
	*sport = f[off + ihl] << 8 | f[off + ihl + 1];
	return off + ihl + 8;
}

/* Read the error queue: transmit timestamps and etf drop reports. */
static void errq_drain(struct bench *b, struct bm_trial *t, int fd)
{
	uint8_t data[2048];
	char ctrl[512];

	for (;;) {
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		struct sock_extended_err *ee = NULL;
		struct timespec ts = { 0, 0 };
		struct tw_probe p;
		struct cmsghdr *c;
		struct bm_sample *s;
		uint16_t sport;
		ssize_t n;
		int off;

		n = recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
		if (n < 0)
			return;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SO_TIMESTAMPING) {
				struct scm_timestamping tss;

				memcpy(&tss, CMSG_DATA(c), sizeof(tss));
				ts = tss.ts[0];
			} else if (c->cmsg_level == SOL_PACKET &&
				   c->cmsg_type == PACKET_TX_TIMESTAMP) {
				ee = (struct sock_extended_err *)CMSG_DATA(c);
			}
		}
		off = probe_offset(data, n, &sport);
		if (!ee || off < 0 || sport != t->tag ||
		    tw_probe_parse(data + off, n - off, &p) || p.seq >= t->n)
			continue;
		s = &t->s[p.seq];
		if (ee->ee_origin == SO_EE_ORIGIN_TXTIME) {
			/* etf refused it: its time had passed. */
			if (s->status != ST_DROPPED) {
				if (s->status == ST_MISSING)
					t->got++;
				s->status = ST_DROPPED;
				s->src = SRC_NONE;
				s->sent_ns = 0;
			}
		} else if (ee->ee_origin == SO_EE_ORIGIN_TIMESTAMPING &&
			   ee->ee_info == SCM_TSTAMP_SND &&
			   (ts.tv_sec || ts.tv_nsec) &&
			   s->status == ST_MISSING) {
			t->got++;
			s->status = ST_SENT;
			s->src = SRC_TXSW;
			s->sent_ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC +
				     ts.tv_nsec - b->rt_off;
		}
	}
}

/* Read the error queue as it fills until @until or every report is in. */
static void errq_collect(struct bench *b, struct bm_trial *t, int fd,
			 uint64_t until)
{
	while (t->got < t->submitted && !tw_stop) {
		struct pollfd pfd = { .fd = fd, .events = 0 };
		uint64_t now = mono_ns();

		if (now >= until)
			break;
		poll(&pfd, 1, (until - now) / 1000000 + 1);
		errq_drain(b, t, fd);
	}
	errq_drain(b, t, fd);
}

static int sock_open(struct bench *b, struct bm_trial *t)
{
	int fd, flags, size;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		trial_fail(t, "AF_PACKET socket: %s", strerror(errno));
		return -1;
	}
	/* Transmit timestamps only: no receive timestamps, so no static
	 * key is flipped by opening or closing this socket.
	 */
	flags = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)))
		tw_warn("%s: no transmit timestamps (%s), using the clock after sendto()",
			t->name, strerror(errno));
	size = ERRQ_RCVBUF;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (t->m->base == BM_ETF || t->m->base == BM_FQ) {
		struct sock_txtime tx = { 0 };
		uint64_t need = (uint64_t)t->n * (b->len + 1024) + (1 << 20);

		/* The whole train waits in the qdisc, charged to us. */
		size = need > INT32_MAX / 2 ? INT32_MAX / 2 : need;
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
			       sizeof(size)))
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size,
				   sizeof(size));
		if (t->m->base == BM_ETF) {
			tx.clockid = CLOCK_TAI;
			tx.flags = SOF_TXTIME_REPORT_ERRORS;
		} else {
			tx.clockid = CLOCK_MONOTONIC;
		}
		if (setsockopt(fd, SOL_SOCKET, SO_TXTIME, &tx, sizeof(tx))) {
			trial_fail(t, "SO_TXTIME: %s", strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Where every frame goes: the receiver's MAC on the device. */
static void sock_dest(struct bench *b, struct sockaddr_ll *sll)
{
	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_protocol = htons(ETH_P_IP);
	sll->sll_ifindex = b->ifindex;
	sll->sll_halen = ETH_ALEN;
	memcpy(sll->sll_addr, b->spec.dst_mac, ETH_ALEN);
}

/*
 * Record packet i as handed over at now, or refused with errno err (0:
 * taken) by the call named.  Returns -1 after a refusal.
 */
static int sock_outcome(struct bm_trial *t, size_t i, uint64_t now, int err,
			const char *call)
{
	t->s[i].user_ns = now;
	t->submitted = i + 1;
	if (!err)
		return 0;
	t->s[i].status = ST_DROPPED;
	t->got++;
	/* etf refuses a packet whose time has passed: a drop, which the
	 * sweep is there to find, not a failure of the run.
	 */
	if (t->m->base != BM_ETF || err != ENOBUFS)
		trial_fail(t, "%s: %s", call, strerror(err));
	return -1;
}

static int sock_send(struct bench *b, struct bm_trial *t, int fd, size_t i,
		     const uint8_t *buf, int64_t txtime_off)
{
	char ctrl[CMSG_SPACE(sizeof(uint64_t))] = { 0 };
	struct iovec iov = { (void *)buf, b->len };
	struct sockaddr_ll sll;
	struct msghdr msg = {
		.msg_name = &sll, .msg_namelen = sizeof(sll),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;
	int err;

	sock_dest(b, &sll);
	if (t->m->base == BM_ETF || t->m->base == BM_FQ) {
		struct cmsghdr *c;
		uint64_t txtime = t->s[i].sched_ns + txtime_off;

		msg.msg_control = ctrl;
		msg.msg_controllen = sizeof(ctrl);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_TXTIME;
		c->cmsg_len = CMSG_LEN(sizeof(txtime));
		memcpy(CMSG_DATA(c), &txtime, sizeof(txtime));
	}
	n = sendmsg(fd, &msg, 0);
	err = n < 0 ? errno : 0;
	return sock_outcome(t, i, mono_ns(), err, "sendmsg");
}

/*
 * Packets i and i + 1, the pair, in one sendmmsg(): one entry into the
 * kernel, the second frame right behind the first.
 */
static void sock_send_pair(struct bench *b, struct bm_trial *t, int fd,
			   size_t i)
{
	struct iovec iov[2] = { { b->buf, b->len }, { b->buf2, b->len } };
	struct mmsghdr mm[2];
	struct sockaddr_ll sll;
	uint64_t now;
	int k, n, err;

	sock_dest(b, &sll);
	memset(mm, 0, sizeof(mm));
	for (k = 0; k < 2; k++) {
		mm[k].msg_hdr.msg_name = &sll;
		mm[k].msg_hdr.msg_namelen = sizeof(sll);
		mm[k].msg_hdr.msg_iov = &iov[k];
		mm[k].msg_hdr.msg_iovlen = 1;
	}
	n = sendmmsg(fd, mm, 2, 0);
	now = mono_ns();
	err = n < 0 ? errno : 0;
	if (n != 1) {
		for (k = 0; k < 2; k++) {
			sock_outcome(t, i + k, now, err, "sendmmsg");
			t->s[i + k].batched = true;
		}
		return;
	}
	/* One frame taken: sendmmsg() reports the count and drops the
	 * second's error; sent again alone it gets its errno, and its
	 * honest, larger, gap from the first.
	 */
	sock_outcome(t, i, now, 0, "sendmmsg");
	sock_send(b, t, fd, i + 1, b->buf2, 0);
}

/* A socket method's sender: what its loop works with. */
struct sock_sender {
	struct bench *b;
	struct bm_trial *t;
	int fd;
	int64_t txtime_off;	/* etf, fq: txtime minus the scheduled time */
	struct tw_guard guard;	/* RT_SPIN */
};

/* Pin the calling thread and make it SCHED_FIFO; false after an error. */
static bool rt_enter(struct bm_trial *t, int cpu)
{
	struct sched_param sp = { .sched_priority = RT_PRIORITY };
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret) {
		trial_fail(t, "cannot pin the sending thread to CPU %d: %s",
			   cpu, strerror(ret));
		return false;
	}
	ret = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (ret) {
		trial_fail(t, "cannot make the sending thread SCHED_FIFO %d: %s",
			   RT_PRIORITY, strerror(ret));
		return false;
	}
	return true;
}

/* Spin on the clock until target; the spin and its stalls are counted. */
static void rt_spin(struct bm_trial *t, uint64_t now, uint64_t target)
{
	uint64_t prev;

	while (now < target && !tw_stop) {
		prev = now;
		now = mono_ns();
		t->spin_ns += now - prev;
		/* Preemption included: user space cannot tell it apart. */
		if (now - prev > OMWARE_SPIN_STALL_NS) {
			t->spin_stalls++;
			t->spin_stall_max_ns = max(t->spin_stall_max_ns,
						   now - prev);
		}
	}
}

/*
 * Wait for target as hybrid mode does: sleep until the guard before it,
 * feed the wake-up's lateness to the guard, then spin.  Within the guard
 * already (the previous packet was close), spin without sleeping.
 */
static void rt_wait(struct sock_sender *s, uint64_t target)
{
	uint64_t guard = tw_guard_ns(&s->guard);
	uint64_t wake = target > guard ? target - guard : 0;
	uint64_t now = mono_ns();

	if (wake > now) {
		tw_sleep_until(CLOCK_MONOTONIC, wake);
		now = mono_ns();
		tw_guard_observe(&s->guard, (int64_t)(now - wake));
	}
	rt_spin(s->t, now, target);
}

/* Wait for a send time: sleep until it, or RT_SPIN's sleep and spin. */
static void sender_wait(struct sock_sender *s, uint64_t target)
{
	if (s->t->m->rt == RT_SPIN)
		rt_wait(s, target);
	else
		tw_sleep_until(CLOCK_MONOTONIC, target);
}

/*
 * A pair: TRW's two sendto() back to back; from the real-time thread
 * (TRW-RT) both frames in one sendmmsg(), the closest together a socket
 * hands them to the kernel.
 */
static void sender_pair(struct sock_sender *s, size_t i)
{
	struct bench *b = s->b;
	struct bm_trial *t = s->t;

	build_packet(b, t, i, b->buf);
	build_packet(b, t, i + 1, b->buf2);
	sender_wait(s, t->s[i].sched_ns);
	if (t->m->rt != RT_NONE) {
		sock_send_pair(b, t, s->fd, i);
	} else {
		sock_send(b, t, s->fd, i, b->buf, 0);
		sock_send(b, t, s->fd, i + 1, b->buf2, 0);
	}
}

/* Each socket method's sending loop, in its own manner. */
static void sender_loop(struct sock_sender *s)
{
	struct bench *b = s->b;
	struct bm_trial *t = s->t;
	size_t i;

	switch (t->m->base) {
	case BM_ETF:
	case BM_FQ:
		/* Everything handed over at once: the qdisc keeps time. */
		for (i = 0; i < t->n && !tw_stop; i++) {
			build_packet(b, t, i, b->buf);
			sock_send(b, t, s->fd, i, b->buf, s->txtime_off);
		}
		trial_handed_over(b, t);
		break;
	case BM_RSM:
		for (i = 0; i < t->n && !tw_stop; i++) {
			build_packet(b, t, i, b->buf);
			sender_wait(s, t->s[i].sched_ns);
			sock_send(b, t, s->fd, i, b->buf, 0);
		}
		break;
	case BM_TRW:
		for (i = 0; i + 1 < t->n && !tw_stop; i += 2)
			sender_pair(s, i);
		break;
	default:
		break;
	}
}

static void *rt_send_thread(void *arg)
{
	struct sock_sender *s = arg;

	/* Never silently the plain method: without its footing it fails. */
	if (!rt_enter(s->t, s->b->rt_cpu))
		return NULL;
	/* The CPU window opens here, on the thread's footing: starting the
	 * thread and its locked stack are setup, as for the other methods.
	 */
	trial_schedule(s->b, s->t);
	sender_loop(s);
	return NULL;
}

/*
 * The real-time senders' memory is locked (before the schedule, so that
 * its cost is setup, not sending): page faults while sending would be
 * stalls of their own making.  Failing that they go on, warned.
 */
static void rt_lock(struct bm_trial *t, bool lock)
{
	if (t->m->rt == RT_NONE)
		return;
	if (!lock)
		munlockall();
	else if (mlockall(MCL_CURRENT | MCL_FUTURE))
		tw_warn("%s: cannot lock memory (%s), going on without",
			t->name, strerror(errno));
}

/*
 * The sending loop on the footing of the module's hybrid kthread:
 * SCHED_FIFO 1, one CPU; RT_SPIN with the same guard policy and cap.
 */
static void rt_send(struct sock_sender *s)
{
	uint32_t cap = s->b->o->guard_max_ns ? s->b->o->guard_max_ns :
		       OMWARE_GUARD_MAX_NS_DEFAULT;
	struct bm_trial *t = s->t;
	pthread_attr_t attr;
	pthread_t thread;
	int ret;

	tw_guard_init(&s->guard, min_t(u32, OMWARE_GUARD_MIN_NS, cap), cap);
	pthread_attr_init(&attr);
	/* A small stack: locked memory is populated up front. */
	pthread_attr_setstacksize(&attr, RT_STACK_BYTES);
	ret = pthread_create(&thread, &attr, rt_send_thread, s);
	pthread_attr_destroy(&attr);
	if (ret)
		trial_fail(t, "cannot start the sending thread: %s",
			   strerror(ret));
	else
		pthread_join(thread, NULL);
	if (t->m->rt != RT_SPIN)
		return;
	t->guarded = true;
	t->guard_ns = tw_guard_ns(&s->guard);
	t->guard_misses = s->guard.misses;
}

/*
 * Plan the schedule, opening the CPU window, and send every packet, from
 * the caller's thread or a real-time one.
 */
static void sock_send_all(struct bench *b, struct bm_trial *t, int fd,
			  int64_t off)
{
	struct sock_sender s = { .b = b, .t = t, .fd = fd, .txtime_off = off };

	if (t->m->rt != RT_NONE) {
		rt_send(&s);
		return;
	}
	trial_schedule(b, t);
	sender_loop(&s);
}

/*
 * No transmit timestamp: fall back to the clock after sendto().  Not for
 * the frames of one sendmmsg(): one clock read after both would give
 * them one time, a gap of 0 by construction; they are sent, at no known
 * time.
 */
static void sock_user_times(struct bm_trial *t)
{
	size_t i;

	if (t->m->base == BM_ETF || t->m->base == BM_FQ)
		return;
	for (i = 0; i < t->submitted; i++) {
		struct bm_sample *s = &t->s[i];

		if (s->status != ST_MISSING || !s->user_ns)
			continue;
		s->status = ST_SENT;
		if (s->batched)
			continue;
		s->src = SRC_USER;
		s->sent_ns = s->user_ns;
	}
}

void sock_trial(struct bench *b, struct bm_trial *t)
{
	uint64_t until, last;
	int64_t off = 0;
	int fd;

	/* Sent from our own threads, with the driver's work counted. */
	t->irq_known = t->m->base != BM_ETF && t->m->base != BM_FQ;
	if (t->m->base == BM_ETF && set_etf(b, t))
		return;
	if (t->m->base == BM_FQ && set_fq(b, t))
		return;
	fd = sock_open(b, t);
	if (fd < 0)
		return;
	/*
	 * Without launch-time offload etf releases a packet delta before its
	 * txtime (and drops it once txtime has passed): a txtime delta after
	 * the scheduled time makes the release window [sched, sched + delta],
	 * never early, as a user who wants the packet out at sched would set.
	 */
	if (t->m->base == BM_ETF)
		off = b->tai_off + (int64_t)t->delta_ns;
	rt_lock(t, true);
	sock_send_all(b, t, fd, off);
	/* 0 if the real-time thread never planned it: nothing to wait for. */
	last = t->s[t->n - 1].sched_ns;
	/* Timestamps read in the CPU window, as omware's reports are. */
	errq_collect(b, t, fd, last + CPU_SETTLE_NS);
	trial_window_end(t);
	rt_lock(t, false);

	/* The rest of them and drop reports; etf may still hold packets. */
	if (mono_ns() > last)
		last = mono_ns();
	until = last + t->delta_ns + (uint64_t)b->o->grace_ms * 1000000;
	errq_collect(b, t, fd, until);
	close(fd);
	/* The qdisc stays for the next etf delta; trial_run() restores it. */
	sock_user_times(t);
}

