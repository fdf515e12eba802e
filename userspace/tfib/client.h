/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tfib client: one request helper per command of the family, shared by
 * the timewire CLI and the experiment tools.  Tables outlive the socket
 * that made them (include/uapi/linux/tfib.h), so a helper may be called on
 * any connection.
 *
 * Every call returning int returns an exit code of timewire(8); on failure
 * the reason is printed, or with ->quiet kept in ->err, a kernel error with
 * its message and the attribute it blames.
 */
#ifndef TW_TFIB_CLIENT_H
#define TW_TFIB_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "family.h"

struct tfib_client {
	struct tw_nl nl;
	bool quiet;
	char err[TW_NL_ERRLEN];
};

/* Optional attributes of a request: sent only when their bit is set. */
enum {
	TFIB_SET_BUCKETS	= 1 << 0,
	TFIB_SET_SYNC		= 1 << 1,
	TFIB_SET_SPARES		= 1 << 2,
	TFIB_SET_CLOCKID	= 1 << 3,
	TFIB_SET_TS		= 1 << 4,
	TFIB_SET_SEQ		= 1 << 5,
	TFIB_SET_FWD_MODE	= 1 << 6,
	TFIB_SET_PICK		= 1 << 7,
	TFIB_SET_WORKERS	= 1 << 8,
	TFIB_SET_CONTROL_RING	= 1 << 9,
	TFIB_SET_DATA_RING	= 1 << 10,
	TFIB_SET_BURST		= 1 << 11,
};

struct tfib_table_cfg {
	uint32_t capacity;		/* required */
	uint32_t buckets;
	uint32_t spares;
	uint32_t clockid;
	int sync;			/* enum tfib_sync */
	bool prefetch;
	unsigned int set;
};

struct tfib_entry {
	uint32_t user_id;
	uint8_t mac[6];
	uint64_t ts_ns;
	uint32_t seq;
	unsigned int set;		/* TFIB_SET_TS, TFIB_SET_SEQ */
	bool force;			/* set: even over a newer seq */
};

struct tfib_bind_cfg {
	uint32_t ifindex;		/* required */
	int fwd_mode;			/* enum tfib_fwd_mode */
	int pick;			/* enum tfib_pick */
	uint32_t workers;
	uint32_t control_ring;
	uint32_t data_ring;
	uint32_t burst;
	/* accepted sources of control packets; any when none */
	unsigned int n_control_src;
	uint8_t control_src[TFIB_MAX_CONTROL_SRC][6];
	unsigned int set;
};

/*
 * Connect to the family (the one "not loaded" message).  names: how
 * errors name the attributes of a request (NULL: their UAPI names).
 * ->quiet is the caller's to set, before or after.
 */
int tfib_connect(struct tfib_client *c, const struct tw_attr_set *names);
void tfib_close(struct tfib_client *c);

/* A request naming table (NULL: none), or NULL when out of memory. */
struct nl_msg *tfib_msg(struct tfib_client *c, uint8_t cmd, int flags,
			const char *table);
/* Send msg and wait for its answer; what names it in an error. */
int tfib_request(struct tfib_client *c, struct nl_msg *msg,
		 tw_nl_handler_t reply, void *arg, const char *what);
/* Parse a reply of the family into tb[TFIB_A_MAX + 1]; 0 or -EPROTO. */
int tfib_parse(struct nlmsghdr *nlh, struct nlattr **tb);
/* The entry a reply carries; 0 or -EPROTO when it lacks one. */
int tfib_entry_parse(struct nlattr **tb, struct tfib_entry *e);

int tfib_table_new(struct tfib_client *c, const char *table,
		   const struct tfib_table_cfg *cfg);
int tfib_table_del(struct tfib_client *c, const char *table);
int tfib_entry_set(struct tfib_client *c, const char *table,
		   const struct tfib_entry *e);
int tfib_entry_get(struct tfib_client *c, const char *table,
		   uint32_t user_id, struct tfib_entry *e);
int tfib_entry_del(struct tfib_client *c, const char *table,
		   uint32_t user_id);
int tfib_bind(struct tfib_client *c, const char *table,
	      const struct tfib_bind_cfg *cfg);
int tfib_unbind(struct tfib_client *c, const char *table);
/* The table's counters, indexed by enum tfib_stats_attr (0 if absent). */
int tfib_stats_get(struct tfib_client *c, const char *table,
		   uint64_t stats[TFIB_STATS_A_MAX + 1]);

#endif /* TW_TFIB_CLIENT_H */
