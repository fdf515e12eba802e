// SPDX-License-Identifier: GPL-2.0
/*
 * twt_nl.c - the netlink client of the guest tests (see twt_nl.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "kselftest.h"
#include "twt_nl.h"

/* Thousands of reports may queue while a test is busy sending. */
#define TWT_RCVBUF	(8 << 20)
/* libnl leaves 64 KiB, and netlink refuses a request larger than that. */
#define TWT_SNDBUF	(384 << 10)
#define TWT_RAW_RCVBUF	(1 << 20)

const char *twt_errname(int err)
{
	static char buf[64];

	if (!err)
		return "0 (success)";
	snprintf(buf, sizeof(buf), "-%d (%s)", -err, strerror(-err));
	return buf;
}

bool twt_kernel_before(unsigned int major, unsigned int minor)
{
	unsigned int have_major, have_minor;
	struct utsname u;

	if (uname(&u) ||
	    sscanf(u.release, "%u.%u", &have_major, &have_minor) != 2)
		return false;
	return have_major < major ||
	       (have_major == major && have_minor < minor);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ */
/* requests through the product's transport                           */

/*
 * Datagrams this thread read: libnl reads a whole dump in one call, and a
 * test may want to know that the kernel resumed it.
 */
static __thread unsigned int datagrams_read;

static int counting_recv(struct nl_sock *sk, struct sockaddr_nl *who,
			 unsigned char **buf, struct ucred **creds)
{
	int n = nl_recv(sk, who, buf, creds);

	if (n > 0)
		datagrams_read++;
	return n;
}

int twt_open(struct twt *s, const char *family, uint32_t port)
{
	struct tw_family fam;
	int err;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	err = tw_nl_open_port(&s->nl, port);
	if (err)
		return err;
	err = tw_nl_resolve(&s->nl, family, &fam);
	if (err) {
		tw_nl_close(&s->nl);
		return err;
	}
	/* The tests read the offsets themselves: no names needed. */
	tw_nl_use(&s->nl, &fam, NULL);
	nl_cb_overwrite_recv(s->nl.cb, counting_recv);
	tw_nl_set_rcvbuf(&s->nl, TWT_RCVBUF);
	tw_nl_set_sndbuf(&s->nl, TWT_SNDBUF);
	s->fd = nl_socket_get_fd(s->nl.sk);
	s->portid = nl_socket_get_local_port(s->nl.sk);
	return 0;
}

void twt_close(struct twt *s)
{
	if (s->fd < 0)
		return;
	tw_nl_close(&s->nl);
	s->fd = -1;
}

struct nl_msg *twt_msg(struct twt *s, uint8_t cmd, int flags, size_t size)
{
	struct nl_msg *m = tw_nl_new(&s->nl, cmd, flags, size);

	if (!m) {
		ksft_print_msg("cannot build a netlink message\n");
		exit(KSFT_FAIL);
	}
	return m;
}

uint32_t twt_last_offs(struct nl_msg *m)
{
	struct nlmsghdr *nlh = nlmsg_hdr(m);
	uint8_t *start = (uint8_t *)nlh + TWT_ATTRS_OFF;
	uint8_t *end = (uint8_t *)nlh + nlh->nlmsg_len;
	uint8_t *p = start, *last = start;

	while (p + NLA_HDRLEN <= end) {
		last = p;
		p += NLA_ALIGN(((struct nlattr *)p)->nla_len);
	}
	return last - (uint8_t *)nlh;
}

static void keep_ack(const struct tw_nl *nl, int err, struct twt_ack *a)
{
	a->err = err;
	snprintf(a->msg, sizeof(a->msg), "%s", nl->ext_msg);
	a->has_msg = a->msg[0] != '\0';
	a->has_offs = nl->ext_has_offs;
	a->offs = nl->ext_offs;
	a->has_miss = nl->ext_has_miss;
	a->miss_type = nl->ext_miss_type;
}

/* Messages the kernel dropped for us fail the request they came in. */
static int overrun(struct twt *s, unsigned int before, int err)
{
	if (s->nl.overruns == before)
		return err;
	ksft_print_msg("netlink receive buffer full: messages lost\n");
	return err ? err : -ENOBUFS;
}

int twt_xfer(struct twt *s, struct nl_msg *m, twt_reply_fn cb, void *arg,
	     struct twt_ack *a)
{
	unsigned int overruns = s->nl.overruns, read = datagrams_read;
	struct twt_ack local;
	int err;

	err = tw_nl_request(&s->nl, m, cb, arg);
	s->datagrams = datagrams_read - read;
	err = overrun(s, overruns, err);
	keep_ack(&s->nl, err, a ? a : &local);
	return err;
}

void twt_pump(struct twt *s, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms, left;
	unsigned int overruns = s->nl.overruns;
	int ret;

	while ((left = deadline - now_ms()) > 0) {
		ret = tw_nl_wait(&s->nl, left);
		if (ret < 0 && ret != -EINTR)
			break;
	}
	overrun(s, overruns, 0);
}

/* ------------------------------------------------------------------ */
/* the raw path                                                        */

/* Below the sequence numbers libnl starts from the clock. */
static uint32_t raw_seq = 1;

int twt_raw_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int one = 1, sz = TWT_RAW_RCVBUF, err;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

void twt_raw_init(struct twt_raw *m, uint16_t type, uint16_t flags,
		  uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *g = NLMSG_DATA(h);

	memset(m->buf, 0, TWT_ATTRS_OFF);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	g->cmd = cmd;
	g->version = version;
	m->len = TWT_ATTRS_OFF;
}

int twt_raw_put(struct twt_raw *m, uint16_t type, const void *data, int len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->len);
	int off = m->len;

	if (m->len + NLA_HDRLEN + NLA_ALIGN(len) > TWT_RAW_MAX)
		return -1;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memset(a + 1, 0, NLA_ALIGN(len));
	if (len)
		memcpy(a + 1, data, len);
	m->len += NLA_HDRLEN + NLA_ALIGN(len);
	return off;
}

void twt_raw_nest_end(struct twt_raw *m, int off)
{
	if (off >= 0)
		((struct nlattr *)(m->buf + off))->nla_len = m->len - off;
}

int twt_raw_from(struct twt_raw *r, struct nl_msg *m)
{
	struct nlmsghdr *h = nlmsg_hdr(m);
	int rc = -EMSGSIZE;

	if (h->nlmsg_len <= sizeof(r->buf)) {
		memcpy(r->buf, h, h->nlmsg_len);
		r->len = h->nlmsg_len;
		rc = 0;
	}
	nlmsg_free(m);
	return rc;
}

uint32_t twt_raw_send(int fd, struct twt_raw *m, int *err)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;

	h->nlmsg_len = m->len;
	h->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = raw_seq++ & 0x3fffffff;
	h->nlmsg_pid = 0;
	*err = 0;
	if (send(fd, m->buf, m->len, 0) < 0)
		*err = -errno;
	return h->nlmsg_seq;
}

static struct twt_awaited *awaited_of(struct twt_awaited *w, int n,
				      uint32_t seq)
{
	int i;

	for (i = 0; i < n; i++)
		if (!w[i].done && w[i].seq == seq)
			return &w[i];
	return NULL;
}

/* The errno an NLMSG_ERROR or NLMSG_DONE carries. */
static int answer_err(const struct nlmsghdr *h)
{
	if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(int))
		return 0;
	if (h->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	return *(int *)NLMSG_DATA(h);
}

/* One datagram's messages; how many answers it brought. */
static int raw_datagram(struct nlmsghdr *h, int len, struct twt_awaited *w,
			int n, twt_data_fn cb, void *arg)
{
	struct twt_awaited *a;
	int answers = 0;

	for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		a = awaited_of(w, n, h->nlmsg_seq);
		if (!a)
			continue;
		if (h->nlmsg_type != NLMSG_ERROR &&
		    h->nlmsg_type != NLMSG_DONE) {
			if (cb)
				cb(h, arg);
			continue;
		}
		a->err = answer_err(h);
		a->done = true;
		answers++;
	}
	return answers;
}

/*
 * A dump's DONE may come after the answers to the requests sent behind
 * it: every sequence is looked for in every datagram.
 */
int twt_raw_wait(int fd, struct twt_awaited *w, int n, int timeout_ms,
		 twt_data_fn cb, void *arg)
{
	static uint8_t buf[256 * 1024];
	int64_t deadline = now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int len, left = n;

	while (left && now_ms() < deadline) {
		if (poll(&pfd, 1, deadline - now_ms() + 1) <= 0)
			continue;
		len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (len < 0)
			continue;	/* EAGAIN, or ENOBUFS: reports lost */
		left -= raw_datagram((struct nlmsghdr *)buf, len, w, n, cb,
				     arg);
	}
	return left;
}
