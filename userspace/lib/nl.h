/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink requests with extended acks, on libnl-genl-3 or on
 * OpenWrt's libnl-tiny (make LIBNL=libnl-tiny).
 */
#ifndef TW_NL_H
#define TW_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * libnl-tiny's netlink/types.h defines min_t and max_t unguarded, as the
 * portable core's compat.h does for the tools that use both: whichever
 * a file includes first, the library's stay inside its headers.
 */
#pragma push_macro("min_t")
#pragma push_macro("max_t")
#undef min_t
#undef max_t
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#undef min_t
#undef max_t
#pragma pop_macro("min_t")
#pragma pop_macro("max_t")

/* Attribute names of a family, used to name the attribute an error blames. */
struct tw_attr_set {
	const char *const *names;	/* indexed by attribute type */
	unsigned int max;
	const struct tw_attr_set *const *nests;	/* nested set per type */
};

struct tw_family {
	int id;
	unsigned int version;
	unsigned int hdrsize;
	unsigned int maxattr;
};

/*
 * Called for every reply to the request in flight, or for every
 * notification; a negative errno stops the request with that error.
 */
typedef int (*tw_nl_handler_t)(struct nlmsghdr *nlh, void *arg);

struct tw_nl {
	struct nl_sock *sk;
	struct nl_cb *cb;
	int family;
	unsigned int version;
	const struct tw_attr_set *attrs;

	/* Request in flight. */
	struct nl_msg *req;
	uint32_t seq;
	bool busy;
	bool done;
	int err;
	bool kernel_err;		/* err came from the kernel's ack */
	tw_nl_handler_t reply;
	void *reply_arg;

	/* Notifications: messages of the family carrying this command. */
	uint8_t notify_cmd;
	tw_nl_handler_t notify;
	void *notify_arg;
	unsigned int overruns;		/* receive buffer overflows seen */

	/*
	 * Called by tw_nl_close() instead of closing, when the socket is
	 * lent by a keeper (tw_family_keep()); NULL: close.
	 */
	void (*release)(struct tw_nl *nl);

	/* Extended ack of the last request. */
	char ext_msg[256];
	char ext_attr[256];
	/* The same as the kernel sent it, for tests of the refusals. */
	bool ext_has_offs, ext_has_miss;
	uint32_t ext_offs;		/* the attribute blamed, in the request */
	uint32_t ext_miss_type;		/* the attribute missing */
};

int tw_nl_open(struct tw_nl *nl);
/* The same, bound to netlink port id port (0: one of libnl's choice). */
int tw_nl_open_port(struct tw_nl *nl, uint32_t port);
void tw_nl_close(struct tw_nl *nl);
/*
 * Hand the open socket of from to to (from is left closed): the replies of
 * later requests update to.  No request may be in flight.
 */
void tw_nl_move(struct tw_nl *to, struct tw_nl *from);
/* Bytes of receive buffer; forced past rmem_max when allowed. */
int tw_nl_set_rcvbuf(struct tw_nl *nl, int bytes);
int tw_nl_set_sndbuf(struct tw_nl *nl, int bytes);

/* 0, -ENOENT when no such family is registered, or another -errno. */
int tw_nl_resolve(struct tw_nl *nl, const char *name, struct tw_family *fam);
/* Use this family for tw_nl_new() and for naming attributes in errors. */
void tw_nl_use(struct tw_nl *nl, const struct tw_family *fam,
	       const struct tw_attr_set *attrs);

/* A request of the current family; size 0 picks a default. */
struct nl_msg *tw_nl_new(struct tw_nl *nl, uint8_t cmd, int flags,
			 size_t size);
/*
 * Send msg (consumed) and process replies until the ack or the end of the
 * dump.  Notifications arriving meanwhile go to the notify handler.
 * Returns 0 or -errno; the extended ack is kept for tw_nl_perror().
 */
int tw_nl_request(struct tw_nl *nl, struct nl_msg *msg,
		  tw_nl_handler_t reply, void *arg);
/*
 * Process whatever arrives within timeout_ms (-1: block).  Returns 1 when
 * messages were processed, 0 on timeout, -EINTR on a signal, or -errno.
 */
int tw_nl_wait(struct tw_nl *nl, int timeout_ms);

/* Room for the explanation of a failed request. */
#define TW_NL_ERRLEN	640

/*
 * Explain a failed request: "<kernel message> (attribute X)", or
 * "what: <errno text>".  nl may be NULL for errors of our own.
 */
void tw_nl_strerror(struct tw_nl *nl, int err, const char *what, char *buf,
		    size_t len);
/* The same as one "Error: " line on stderr. */
void tw_nl_perror(struct tw_nl *nl, int err, const char *what);

#endif /* TW_NL_H */
