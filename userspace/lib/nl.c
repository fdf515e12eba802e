// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink requests with extended acks.
 *
 * libnl-genl-3, or OpenWrt's libnl-tiny (only the calls both have are
 * used), provides sockets and message construction; the ack and extended
 * ack handling is done here so that the kernel's explanation of a refusal
 * reaches the user together with the name of the attribute it blames.
 * Acks are capped (NETLINK_CAP_ACK): a refused 64 KiB submit is not echoed
 * back, the offending offset is resolved against our own copy.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "clock.h"
#include "nl.h"
#include "util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define DEFAULT_MSG_SIZE	16384
/* A request unanswered for this long means something is badly wrong. */
#define REQUEST_TIMEOUT_MS	60000

static int64_t now_ms(void)
{
	return tw_now_ns(CLOCK_MONOTONIC) / 1000000;
}

static int nlerr_to_errno(int err)
{
	switch (-err) {
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_NOMEM:
		return -ENOBUFS;
	case NLE_INTR:
		return -EINTR;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_EXIST:
		return -EADDRINUSE;	/* the port asked for is taken */
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_SEQ_MISMATCH:
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
		return -EBADMSG;
	default:
		return -EIO;
	}
}

/*
 * Describe the attribute at byte offset off of the request, as a path such
 * as OMWARE_A_PKT[3].OMWARE_PKT_A_TIME.  Returns the attribute set nested
 * in it, for naming a missing attribute inside a nest.
 */
static const struct tw_attr_set *describe(const struct tw_attr_set *set,
					  const char *base, struct nlattr *attrs,
					  int len, uint32_t off, char *out,
					  size_t outlen, bool *found)
{
	unsigned int counts[64] = { 0 };
	const struct tw_attr_set *sub;
	struct nlattr *a;
	size_t used;
	int rem;

	nla_for_each_attr(a, attrs, len, rem) {
		uint32_t start = (const char *)a - base;
		unsigned int type = nla_type(a);
		unsigned int idx = 0;

		if (type < ARRAY_SIZE(counts))
			idx = counts[type]++;
		if (off < start || off >= start + nla_total_size(nla_len(a)))
			continue;

		used = strlen(out);
		sub = set && set->nests && type <= set->max ?
		      set->nests[type] : NULL;
		if (set && type <= set->max && set->names[type])
			snprintf(out + used, outlen - used, "%s%s",
				 used ? "." : "", set->names[type]);
		else
			snprintf(out + used, outlen - used, "%sattribute %u",
				 used ? "." : "", type);
		if (sub) {
			used = strlen(out);
			snprintf(out + used, outlen - used, "[%u]", idx);
		}
		*found = true;
		if (off == start || !sub)
			return sub;
		return describe(sub, base, nla_data(a), nla_len(a), off, out,
				outlen, found);
	}
	return NULL;
}

static const struct tw_attr_set *describe_offset(struct tw_nl *nl,
						 uint32_t off, char *out,
						 size_t outlen)
{
	struct nlmsghdr *nlh;
	bool found = false;
	const struct tw_attr_set *set;
	int hdr = NLMSG_HDRLEN + GENL_HDRLEN;

	out[0] = '\0';
	if (!nl->req)
		return NULL;
	nlh = nlmsg_hdr(nl->req);
	if (off < (uint32_t)hdr || off >= nlh->nlmsg_len)
		return NULL;
	set = describe(nl->attrs, (const char *)nlh,
		       (struct nlattr *)((char *)nlh + hdr),
		       nlh->nlmsg_len - hdr, off, out, outlen, &found);
	if (!found)
		snprintf(out, outlen, "at offset %u", off);
	return set;
}

static void clear_ext_ack(struct tw_nl *nl)
{
	nl->ext_msg[0] = '\0';
	nl->ext_attr[0] = '\0';
	nl->ext_has_offs = false;
	nl->ext_has_miss = false;
	nl->ext_offs = 0;
	nl->ext_miss_type = 0;
}

/* Parse the extended ack TLVs starting at byte off of an ack or DONE. */
static void parse_ext_ack(struct tw_nl *nl, struct nlmsghdr *nlh, size_t off)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	const struct tw_attr_set *set = nl->attrs;
	char path[192] = "";

	clear_ext_ack(nl);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, NULL))
		return;

	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%.*s",
			 nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS]) {
		nl->ext_has_offs = true;
		nl->ext_offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		describe_offset(nl, nl->ext_offs, path, sizeof(path));
		if (path[0])
			snprintf(nl->ext_attr, sizeof(nl->ext_attr),
				 "attribute %s", path);
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE]) {
		unsigned int type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
		const char *name = NULL;

		nl->ext_has_miss = true;
		nl->ext_miss_type = type;
		if (tb[NLMSGERR_ATTR_MISS_NEST])
			set = describe_offset(nl,
				nla_get_u32(tb[NLMSGERR_ATTR_MISS_NEST]),
				path, sizeof(path));
		else
			path[0] = '\0';
		if (set && type <= set->max)
			name = set->names[type];
		if (name)
			snprintf(nl->ext_attr, sizeof(nl->ext_attr),
				 "missing attribute %s%s%s", name,
				 path[0] ? " in " : "", path);
		else
			snprintf(nl->ext_attr, sizeof(nl->ext_attr),
				 "missing attribute %u%s%s", type,
				 path[0] ? " in " : "", path);
	}
}

static bool is_notification(struct tw_nl *nl, struct nlmsghdr *nlh)
{
	struct genlmsghdr *g;

	if (!nl->notify || nlh->nlmsg_type != nl->family ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	g = nlmsg_data(nlh);
	return g->cmd == nl->notify_cmd;
}

/*
 * Notifications carry sequence number 0 and arrive between the replies of
 * our requests: replies are matched by sequence number in the handlers
 * instead of libnl's strict ordering check.
 */
static int seq_check_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct tw_nl *nl = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int ret;

	if (is_notification(nl, nlh)) {
		ret = nl->notify(nlh, nl->notify_arg);
		if (ret < 0 && nl->busy && !nl->err)
			nl->err = ret;
		return NL_OK;
	}
	/* Replies to an earlier, abandoned request are dropped. */
	if (!nl->busy || nlh->nlmsg_seq != nl->seq || !nl->reply)
		return NL_OK;
	ret = nl->reply(nlh, nl->reply_arg);
	if (ret < 0 && !nl->err)
		nl->err = ret;
	return NL_OK;
}

static int finish_cb(struct nl_msg *msg, void *arg)
{
	struct tw_nl *nl = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	if (!nl->busy || nlh->nlmsg_seq != nl->seq)
		return NL_OK;
	/* A dump that failed part way carries the error in its DONE. */
	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0) {
			if (!nl->err) {
				nl->err = err;
				nl->kernel_err = true;
			}
			parse_ext_ack(nl, nlh, NLMSG_HDRLEN + sizeof(int));
		}
	}
	nl->done = true;
	return NL_OK;
}

/* Where the TLVs of an ack start: after the request, unless it was capped. */
static size_t ack_tlv_offset(struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN;
	return off;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	struct tw_nl *nl = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (!nl->busy || nlh->nlmsg_seq != nl->seq)
		return NL_OK;
	parse_ext_ack(nl, nlh, ack_tlv_offset(nlh));
	if (nl->ext_msg[0])
		tw_warn("%s", nl->ext_msg);
	nl->done = true;
	return NL_OK;
}

static int error_cb(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct tw_nl *nl = arg;

	(void)who;
	if (!nl->busy || nlh->nlmsg_seq != nl->seq)
		return NL_SKIP;
	if (!nl->err) {
		nl->err = e->error;
		nl->kernel_err = true;
	}
	parse_ext_ack(nl, nlh, ack_tlv_offset(nlh));
	nl->done = true;
	return NL_SKIP;
}

/* The handlers find the request's state in nl: where it lives now. */
static void set_callbacks(struct tw_nl *nl)
{
	nl_cb_set(nl->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_check_cb, NULL);
	nl_cb_set(nl->cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, nl);
	nl_cb_set(nl->cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_cb, nl);
	nl_cb_set(nl->cb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, nl);
	nl_cb_err(nl->cb, NL_CB_CUSTOM, error_cb, nl);
}

int tw_nl_open(struct tw_nl *nl)
{
	return tw_nl_open_port(nl, 0);
}

int tw_nl_open_port(struct tw_nl *nl, uint32_t port)
{
	int one = 1, fd, err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	nl->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nl->sk || !nl->cb) {
		tw_nl_close(nl);
		return -ENOMEM;
	}
	if (port)
		nl_socket_set_local_port(nl->sk, port);
	err = genl_connect(nl->sk);
	if (err < 0) {
		tw_nl_close(nl);
		return nlerr_to_errno(err);
	}
	nl_socket_disable_seq_check(nl->sk);
	nl_socket_enable_msg_peek(nl->sk);
	nl_socket_set_nonblocking(nl->sk);

	fd = nl_socket_get_fd(nl->sk);
	/* Older kernels lack some of these; errors then stay plain errnos. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof(one));

	set_callbacks(nl);
	return 0;
}

void tw_nl_close(struct tw_nl *nl)
{
	if (nl->release && nl->sk) {
		nl->release(nl);
		return;
	}
	if (nl->req)
		nlmsg_free(nl->req);
	if (nl->cb)
		nl_cb_put(nl->cb);
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->req = NULL;
	nl->cb = NULL;
	nl->sk = NULL;
}

void tw_nl_move(struct tw_nl *to, struct tw_nl *from)
{
	*to = *from;
	/* What the last user asked for is not the next one's. */
	to->reply = NULL;
	to->notify = NULL;
	to->release = NULL;
	if (to->cb)
		set_callbacks(to);
	from->req = NULL;
	from->cb = NULL;
	from->sk = NULL;
}

static int set_buf(struct tw_nl *nl, int force, int plain, int bytes)
{
	int fd = nl_socket_get_fd(nl->sk);

	/* The forcing variant needs CAP_NET_ADMIN; fall back to rmem_max. */
	if (!setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof(bytes)))
		return 0;
	if (setsockopt(fd, SOL_SOCKET, plain, &bytes, sizeof(bytes)))
		return -errno;
	return 0;
}

int tw_nl_set_rcvbuf(struct tw_nl *nl, int bytes)
{
	return set_buf(nl, SO_RCVBUFFORCE, SO_RCVBUF, bytes);
}

int tw_nl_set_sndbuf(struct tw_nl *nl, int bytes)
{
	return set_buf(nl, SO_SNDBUFFORCE, SO_SNDBUF, bytes);
}

struct nl_msg *tw_nl_new(struct tw_nl *nl, uint8_t cmd, int flags,
			 size_t size)
{
	struct nl_msg *msg;

	msg = nlmsg_alloc_size(size ? size : DEFAULT_MSG_SIZE);
	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PID, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, nl->version)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Anything to read (or an error to collect) on @fd within @timeout_ms? */
static int readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret = poll(&pfd, 1, timeout_ms);

	return ret < 0 ? -errno : ret;
}

int tw_nl_wait(struct tw_nl *nl, int timeout_ms)
{
	int fd = nl_socket_get_fd(nl->sk);
	int ret;

	ret = readable(fd, timeout_ms);
	if (ret <= 0)
		return ret;
	/*
	 * Drain everything queued, not just one datagram.  libnl-3 reports
	 * the empty socket as -NLE_AGAIN, libnl-tiny as a plain 0 like any
	 * datagram read: only the socket itself says when it is empty.
	 */
	do {
		ret = nl_recvmsgs(nl->sk, nl->cb);
		if (ret == -NLE_AGAIN)
			break;
		if (ret == -NLE_NOMEM) {
			/* ENOBUFS: the kernel dropped messages for us. */
			nl->overruns++;
			continue;
		}
		if (ret < 0)
			return nlerr_to_errno(ret);
		if (nl->busy && nl->done)
			break;
	} while (readable(fd, 0) > 0);
	return 1;
}

int tw_nl_request(struct tw_nl *nl, struct nl_msg *msg,
		  tw_nl_handler_t reply, void *arg)
{
	int64_t deadline;
	int ret;

	if (nl->req)
		nlmsg_free(nl->req);
	nl->req = msg;
	clear_ext_ack(nl);
	nl->err = 0;
	nl->kernel_err = false;
	nl->done = false;
	nl->reply = reply;
	nl->reply_arg = arg;

	ret = nl_send_auto_complete(nl->sk, msg);
	if (ret < 0)
		return nlerr_to_errno(ret);
	nl->seq = nlmsg_hdr(msg)->nlmsg_seq;
	nl->busy = true;

	deadline = now_ms() + REQUEST_TIMEOUT_MS;
	while (!nl->done) {
		int64_t left = deadline - now_ms();

		if (left <= 0) {
			ret = -ETIMEDOUT;
			break;
		}
		ret = tw_nl_wait(nl, left);
		/* A signal does not abandon the request: the ack will come. */
		if (ret < 0 && ret != -EINTR)
			break;
		ret = 0;
	}
	nl->busy = false;
	nl->reply = NULL;
	if (ret < 0)
		return ret;
	return nl->err;
}

struct family_reply {
	struct tw_family *fam;
	bool seen;
};

static int family_cb(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct family_reply *r = arg;

	if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL))
		return -EPROTO;
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return -EPROTO;
	r->fam->id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		r->fam->version = nla_get_u32(tb[CTRL_ATTR_VERSION]);
	if (tb[CTRL_ATTR_HDRSIZE])
		r->fam->hdrsize = nla_get_u32(tb[CTRL_ATTR_HDRSIZE]);
	if (tb[CTRL_ATTR_MAXATTR])
		r->fam->maxattr = nla_get_u32(tb[CTRL_ATTR_MAXATTR]);
	r->seen = true;
	return 0;
}

int tw_nl_resolve(struct tw_nl *nl, const char *name, struct tw_family *fam)
{
	struct family_reply r = { .fam = fam };
	struct nl_msg *msg;
	int family = nl->family, version = nl->version;
	const struct tw_attr_set *attrs = nl->attrs;
	int ret;

	memset(fam, 0, sizeof(*fam));
	nl->family = GENL_ID_CTRL;
	nl->version = 1;
	nl->attrs = NULL;
	msg = tw_nl_new(nl, CTRL_CMD_GETFAMILY, 0, 0);
	if (!msg) {
		ret = -ENOMEM;
		goto out;
	}
	if (nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) < 0) {
		nlmsg_free(msg);
		ret = -EMSGSIZE;
		goto out;
	}
	ret = tw_nl_request(nl, msg, family_cb, &r);
	if (!ret && !r.seen)
		ret = -EPROTO;
out:
	nl->family = family;
	nl->version = version;
	nl->attrs = attrs;
	return ret;
}

void tw_nl_use(struct tw_nl *nl, const struct tw_family *fam,
	       const struct tw_attr_set *attrs)
{
	nl->family = fam->id;
	nl->version = fam->version;
	nl->attrs = attrs;
}

void tw_nl_strerror(struct tw_nl *nl, int err, const char *what, char *buf,
		    size_t len)
{
	if (nl && nl->ext_msg[0] && nl->ext_attr[0])
		snprintf(buf, len, "%s (%s)", nl->ext_msg, nl->ext_attr);
	else if (nl && nl->ext_msg[0])
		snprintf(buf, len, "%s", nl->ext_msg);
	else if (nl && nl->ext_attr[0])
		snprintf(buf, len, "%s: %s (%s)", what, strerror(-err),
			 nl->ext_attr);
	else if (err == -EPERM)
		snprintf(buf, len, "%s: %s (CAP_NET_ADMIN is required)", what,
			 strerror(-err));
	else
		snprintf(buf, len, "%s: %s", what, strerror(-err));
}

void tw_nl_perror(struct tw_nl *nl, int err, const char *what)
{
	char msg[TW_NL_ERRLEN];

	tw_nl_strerror(nl, err, what, msg, sizeof(msg));
	tw_err("%s", msg);
}
