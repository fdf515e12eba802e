/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The omware client's session engine, shared by the timewire CLI and the
 * benchmark: connect to the family, create a session, hand packets over
 * ahead of their time, collect the one report the kernel owes for each.
 *
 * Reports arrive as OMWARE_CMD_REPORT notifications on the socket that
 * created the session, interleaved with the acks of later submits, so the
 * report handler is installed once at connect and stays for every run.
 * Packets are numbered 0 .. n-1 in a run; the number is the cookie.
 */
#ifndef TW_OMWARE_SESSION_H
#define TW_OMWARE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <linux/omware.h>

#include "lib/family.h"
#include "lib/nl.h"
#include "packet.h"

extern const struct tw_family_desc omware_family;

/* What the kernel reported for one packet. */
struct om_report {
	uint64_t sched_ns;	/* from the report, or the planned time */
	uint64_t sent_ns;
	int64_t late_ns;
	int32_t rc;
	uint8_t status;		/* enum omware_status */
	bool have;
};

/* Optional session attributes, sent only when their bit is in ->set. */
enum {
	OM_SET_CPU		= 1 << 0,
	OM_SET_LATE		= 1 << 1,
	OM_SET_GUARD_MAX	= 1 << 2,
	OM_SET_MAX_PKTS		= 1 << 3,
	OM_SET_MAX_BYTES	= 1 << 4,
};

struct om_session_cfg {
	unsigned int ifindex;
	clockid_t clock;
	int mode;		/* enum omware_mode */
	int xmit;		/* enum omware_xmit */
	unsigned int set;
	uint32_t cpu;
	uint32_t late_ns;
	uint32_t guard_max_ns;
	uint32_t max_pkts;
	uint32_t max_bytes;
};

struct om_session {
	struct tw_nl nl;
	/* Keep error messages in err instead of printing them. */
	bool quiet;
	char err[TW_NL_ERRLEN];

	clockid_t clock;
	uint32_t id;
	bool live;
	uint32_t late_ns;	/* the session's late threshold */
	uint64_t stats[OMWARE_STATS_A_MAX + 1];	/* om_session_get() */
	bool stats_has[OMWARE_STATS_A_MAX + 1];	/* what the module sent */
	uint64_t guard_ns;	/* hybrid: the guard in force, om_session_get() */
	uint64_t guard_misses;	/* hybrid: wake-ups later than the guard */

	/* The run: its packets' shape and their reports. */
	struct tw_pkt_spec spec;
	/*
	 * Writes packet i, tw_pkt_len(&spec) bytes, into buf; NULL: a probe
	 * of tw_pkt_build().  For callers that send frames of their own.
	 */
	void (*build)(void *arg, size_t i, uint64_t sched_ns, uint8_t *buf);
	void *build_arg;
	uint8_t *buf;
	struct om_report *rep;
	size_t n;
	size_t submitted;	/* packets the kernel accepted */
	size_t got;
	size_t dups;
	size_t strays;
};

/*
 * Every call returning int returns an exit code of timewire(8); on failure
 * the reason is printed, or with ->quiet kept in ->err, kernel errors with
 * the attribute they blame.
 */

/* Connect to the family (the one "not loaded" message), install the
 * report handler.
 */
int om_connect(struct om_session *s);
/* Start a run of n packets shaped by spec; reports so far are dropped. */
int om_run_init(struct om_session *s, const struct tw_pkt_spec *spec,
		size_t n);
int om_session_create(struct om_session *s, const struct om_session_cfg *cfg);
/* Read the session's late threshold and statistics; errors are ignored. */
void om_session_get(struct om_session *s);
/* Delete the session; it cancels what is pending. */
void om_session_delete(struct om_session *s);

/* A request of the current session (id attribute added), or NULL. */
struct nl_msg *om_msg(struct om_session *s, uint8_t cmd, size_t size);
/* Parse a reply of the family into tb[OMWARE_A_MAX + 1]; 0 or -EPROTO. */
int om_parse(struct nlmsghdr *nlh, struct nlattr **tb);
/* Send msg and wait for its answer; what names it in an error. */
int om_request(struct om_session *s, struct nl_msg *msg,
	       tw_nl_handler_t reply, void *arg, const char *what);

/* Packets a submit message of at most 64 KiB carries. */
size_t om_batch_default(const struct om_session *s);
/* Submit packets first .. end-1, each due at its rep[].sched_ns. */
int om_submit(struct om_session *s, size_t first, size_t end);
/* Submit the rest of the run, batch packets per message, until stopped. */
int om_submit_all(struct om_session *s, size_t batch);
/* Submit count packets from first as one train due at when. */
int om_submit_train(struct om_session *s, size_t first, size_t count,
		    uint64_t when);

/* Collect reports until all are in, deadline (session clock) or a stop. */
void om_collect(struct om_session *s, uint64_t deadline);
/* Delete the session, then take the cancelled packets' reports briefly. */
void om_finish(struct om_session *s, unsigned int grace_ms);
/* Delete the session if still there, close the socket, free the run. */
void om_close(struct om_session *s);

#endif /* TW_OMWARE_SESSION_H */
