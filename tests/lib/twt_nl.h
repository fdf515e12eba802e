/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twt_nl.h - the netlink client of the guest tests' programs, one for
 * every family (the families' own parts: twt_omware.h, twt_tfib.h).
 *
 * Requests go through the product's transport (userspace/lib/nl.c in
 * libtimewire.a): the acks, extended acks and notifications the timewire
 * CLI sees.  What the tests add to it: every answer kept as data (struct
 * twt_ack), requests built attribute by attribute however malformed, and a
 * raw path that sends bytes exactly as given, several at a time, on any
 * netlink socket.
 */
#ifndef TWT_NL_H
#define TWT_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "lib/nl.h"

/* The answer to a request: its errno and extended ack. */
struct twt_ack {
	int err;
	bool has_msg, has_offs, has_miss;
	char msg[256];
	uint32_t offs;		/* of the attribute blamed, in the request */
	uint32_t miss_type;	/* the attribute missing */
};

/* A socket of one family. */
struct twt {
	struct tw_nl nl;	/* notifications: nl.notify, nl.notify_cmd */
	int fd;
	uint32_t portid;
	unsigned int datagrams;	/* the answer to the last request came in */
};

typedef int (*twt_reply_fn)(struct nlmsghdr *nlh, void *arg);

/* "0 (success)" or "-E (text)", in a static buffer. */
const char *twt_errname(int err);

/*
 * The running kernel is older than major.minor: an assertion on what that
 * release brought to netlink (formatted extended acks: 6.2) skips there.
 */
bool twt_kernel_before(unsigned int major, unsigned int minor);

/*
 * Open a socket of family, bound to port (0: any), with extended acks and
 * room for thousands of notifications.  0, -ENOENT when the family is not
 * registered, -EADDRINUSE when port is taken, or another -errno.
 */
int twt_open(struct twt *s, const char *family, uint32_t port);
void twt_close(struct twt *s);

/* A request of the family, size bytes at most; ends the test on failure. */
struct nl_msg *twt_msg(struct twt *s, uint8_t cmd, int flags, size_t size);
/* Where the attribute put last into m starts, as an extended ack says. */
uint32_t twt_last_offs(struct nl_msg *m);

/*
 * Send m (consumed) and read until its ack or the end of its dump: each
 * reply goes to cb, each notification to the handler of s->nl.  A reply
 * cb refuses (a negative errno) fails the request.  Returns the errno (<= 0),
 * also in a when not NULL.
 */
int twt_xfer(struct twt *s, struct nl_msg *m, twt_reply_fn cb, void *arg,
	     struct twt_ack *a);
/* Take the notifications that come within timeout_ms. */
void twt_pump(struct twt *s, int timeout_ms);

/* ------------------------------------------------------------------ */
/* the raw path                                                        */

#define TWT_RAW_MAX	8192

/*
 * One request as bytes: a netlink header, a genl header, attributes.
 * buf follows an int, so it is aligned for the headers.
 */
struct twt_raw {
	int len;
	uint8_t buf[TWT_RAW_MAX];
};

#define TWT_ATTRS_OFF	((int)(NLMSG_HDRLEN + GENL_HDRLEN))

/* A bare generic netlink socket with extended acks; its fd or -errno. */
int twt_raw_socket(void);
void twt_raw_init(struct twt_raw *m, uint16_t type, uint16_t flags,
		  uint8_t cmd, uint8_t version);
/* Append an attribute; its offset, or -1 when there is no room. */
int twt_raw_put(struct twt_raw *m, uint16_t type, const void *data, int len);
/* Close the nest put at off (a twt_raw_put() of no data). */
void twt_raw_nest_end(struct twt_raw *m, int off);
/* The bytes of a request built by twt_msg() (freed): 0 or -EMSGSIZE. */
int twt_raw_from(struct twt_raw *r, struct nl_msg *m);
/*
 * Send m as it is, but for its length, sequence and the request and ack
 * flags; its sequence number, the send's errno in *err.
 */
uint32_t twt_raw_send(int fd, struct twt_raw *m, int *err);

/* A request in flight and, once it came, its answer. */
struct twt_awaited {
	uint32_t seq;
	int err;
	bool done;
};

typedef void (*twt_data_fn)(struct nlmsghdr *h, void *arg);

/*
 * Read fd until every request of w has its answer or timeout_ms passed:
 * their data messages go to cb, anything else is dropped.  Returns how
 * many are left unanswered.
 */
int twt_raw_wait(int fd, struct twt_awaited *w, int n, int timeout_ms,
		 twt_data_fn cb, void *arg);

#endif
