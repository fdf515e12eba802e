// SPDX-License-Identifier: GPL-2.0
/*
 * fwd_aoi_ctl - fwd_aoi.sh's client of the tfib family: a forwarder set up
 * for tw-fib-source, and its counters in the form that tool reads.
 *
 *   fwd_aoi_ctl setup NAME SYNC MODE IFNAME USERS MAC [CRING DRING]
 *       a table of USERS users in sync mode SYNC (rwlock, rcu, bucket,
 *       seqcount), users 1..USERS set to MAC at the table's now with
 *       sequence 0, bound to IFNAME in MODE (ring or inline; ring sizes
 *       CRING and DRING)
 *   fwd_aoi_ctl stats NAME
 *       the forwarder's counters as "name value" lines: enum
 *       tfib_stats_attr in lower case without its prefix, and
 *       control_ring_dropped, data_ring_dropped
 *
 * Exit status 0, 1 when the kernel refused (its error on stderr), 2 for a
 * usage error, 4 when the family is not registered.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfib_util.h"

static const char *const sync_names[] = {
	[TFIB_SYNC_RWLOCK] = "rwlock", [TFIB_SYNC_RCU] = "rcu",
	[TFIB_SYNC_BUCKET] = "bucket", [TFIB_SYNC_SEQCOUNT] = "seqcount",
};

static const char *const mode_names[] = {
	[TFIB_FWD_MODE_RING] = "ring", [TFIB_FWD_MODE_INLINE] = "inline",
};

static const char *const stat_names[] = {
	[TFIB_STATS_A_LOOKUPS] = "lookups",
	[TFIB_STATS_A_MISSES] = "misses",
	[TFIB_STATS_A_INSERTS] = "inserts",
	[TFIB_STATS_A_UPDATES] = "updates",
	[TFIB_STATS_A_DELETES] = "deletes",
	[TFIB_STATS_A_RETRIES] = "retries",
	[TFIB_STATS_A_SPINS] = "spins",
	[TFIB_STATS_A_BUSY] = "busy",
	[TFIB_STATS_A_BACKLOG] = "backlog",
	[TFIB_STATS_A_BACKLOG_PEAK] = "backlog_peak",
	[TFIB_STATS_A_RX] = "rx",
	[TFIB_STATS_A_RX_CONTROL] = "rx_control",
	[TFIB_STATS_A_RX_DATA] = "rx_data",
	[TFIB_STATS_A_FORWARDED] = "forwarded",
	[TFIB_STATS_A_DROP_SHORT] = "drop_short",
	[TFIB_STATS_A_DROP_VERSION] = "drop_version",
	[TFIB_STATS_A_DROP_TYPE] = "drop_type",
	[TFIB_STATS_A_DROP_NO_ENTRY] = "drop_no_entry",
	[TFIB_STATS_A_DROP_TABLE_FULL] = "drop_table_full",
	[TFIB_STATS_A_DROP_XMIT] = "drop_xmit",
	[TFIB_STATS_A_PICKS] = "picks",
	[TFIB_STATS_A_PICK_NONE] = "pick_none",
	[TFIB_STATS_A_MEMO_HITS] = "memo_hits",
	[TFIB_STATS_A_SCAN_STEPS] = "scan_steps",
	[TFIB_STATS_A_RAN_ON_CPU] = "ran_on_cpu",
	[TFIB_STATS_A_RAN_ELSEWHERE] = "ran_elsewhere",
};

static int refused(const char *what, const struct tfc_ack *a)
{
	fprintf(stderr, "%s: %s%s%s\n", what, tfc_errname(a->err),
		a->has_msg ? ": " : "", a->has_msg ? a->msg : "");
	return 1;
}

/* The index of word in names, or -1. */
static int lookup(const char *const *names, int n, const char *word)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], word))
			return i;
	return -1;
}

static int fill(struct tfc *c, const char *table, uint32_t users,
		const uint8_t mac[6])
{
	struct tfc_entry e = { .has_ts = true, .has_seq = true };
	struct tfc_ack a;

	memcpy(e.mac, mac, sizeof(e.mac));
	for (e.user_id = 1; e.user_id <= users; e.user_id++) {
		/* The table's default clock: CLOCK_MONOTONIC. */
		e.ts_ns = tfu_now(CLOCK_MONOTONIC);
		if (tfc_entry_set(c, table, &e, &a))
			return refused("entry", &a);
	}
	return 0;
}

static int cmd_setup(struct tfc *c, int argc, char **argv)
{
	struct tfc_table_cfg tcfg;
	struct tfc_bind_cfg bcfg;
	unsigned int ifindex;
	struct tfc_ack a;
	uint8_t mac[6];
	uint32_t users;
	int sync, mode;

	if (argc != 6 && argc != 8)
		return 2;
	sync = lookup(sync_names, TFIB_SYNC_MAX + 1, argv[1]);
	mode = lookup(mode_names, TFIB_FWD_MODE_MAX + 1, argv[2]);
	ifindex = if_nametoindex(argv[3]);
	users = strtoul(argv[4], NULL, 0);
	if (sync < 0 || mode < 0 || !ifindex || !users ||
	    sscanf(argv[5], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		   &mac[2], &mac[3], &mac[4], &mac[5]) != 6)
		return 2;
	tcfg = tfc_table_defaults(argv[0], users);
	tcfg.sync = sync;
	if (tfc_table_new(c, &tcfg, &a))
		return refused("new", &a);
	if (fill(c, argv[0], users, mac))
		return 1;
	bcfg = tfc_bind_defaults(ifindex);
	bcfg.mode = mode;
	if (argc == 8) {
		bcfg.control_ring = strtoul(argv[6], NULL, 0);
		bcfg.data_ring = strtoul(argv[7], NULL, 0);
	}
	return tfc_bind(c, argv[0], &bcfg, &a) ? refused("bind", &a) : 0;
}

static int cmd_stats(struct tfc *c, const char *table)
{
	struct tfc_stats *st = calloc(1, sizeof(*st));
	struct tfc_ack a;
	unsigned int i;

	if (!st || tfc_stats_get(c, table, st, &a)) {
		free(st);
		return st ? refused("stats", &a) : 1;
	}
	for (i = 0; i <= TFIB_STATS_A_MAX; i++)
		if (st->has[i] && i < sizeof(stat_names) / sizeof(*stat_names) &&
		    stat_names[i])
			printf("%s %" PRIu64 "\n", stat_names[i], st->v[i]);
	for (i = 0; i < st->nring; i++)
		printf("%s_ring_dropped %" PRIu64 "\n",
		       st->ring[i].kind == TFIB_RING_KIND_CONTROL ? "control" :
		       "data", st->ring[i].dropped);
	free(st);
	return 0;
}

int main(int argc, char **argv)
{
	struct tfc c;
	int err, rc = 2;

	if (argc < 3)
		goto usage;
	err = tfc_open(&c);
	if (err) {
		fprintf(stderr, "fwd_aoi_ctl: %s\n", tfc_errname(err));
		return err == -ENOENT ? 4 : 1;
	}
	if (!strcmp(argv[1], "setup"))
		rc = cmd_setup(&c, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "stats") && argc == 3)
		rc = cmd_stats(&c, argv[2]);
	tfc_close(&c);
	if (rc != 2)
		return rc;
usage:
	fprintf(stderr, "usage: fwd_aoi_ctl setup NAME rwlock|rcu|bucket|seqcount ring|inline IFNAME USERS MAC [CRING DRING] | stats NAME\n");
	return 2;
}
