/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * tfib.h - generic netlink API and packet header of the timely forwarding
 * table.
 *
 * Family name "tfib", version 1, multicast groups: none.
 *
 * A *table* is a named object of one network namespace (names up to
 * TFIB_NAME_MAX_LEN bytes, unique within the namespace).  It maps a user
 * ID (u32) to an address tuple: next-hop MAC, location timestamp (ns of
 * the table's clock) and the sequence of the location update that wrote
 * it.  Its capacity is fixed at creation and its memory allocated then;
 * how its readers and writers are kept apart (enum tfib_sync) too.
 *
 * A table *bound* to an Ethernet device of its namespace forwards the
 * update packets that device receives (EtherType TFIB_ETHERTYPE, header
 * struct tfib_hdr below):
 *   - a control packet (a location update) sets the tuple of its user:
 *     MAC from the header's mac, timestamp from addr_ns, sequence from seq;
 *   - a data packet (an app update) looks its user up; the tuple's
 *     timestamp and sequence are written into addr_ns and addr_seq, the
 *     Ethernet destination becomes the tuple's MAC, the source the device's
 *     address, and the packet leaves the device it came in on.
 * Packets too short, of another version or of an unknown type, and data
 * packets for an unknown user, are counted and dropped, never forwarded.
 * So are data packets sent to a group address, whose hop_limit is 1 or
 * less, or whose next hop is the device itself or the packet's sender
 * (each of which would loop), and, when the binding lists its control
 * sources (TFIB_A_CONTROL_SRC), control packets from any other source.
 * Only frames received on the bound device itself are taken: not those
 * of a VLAN, macvlan or bond device over it.  Anyone on the device's
 * link may otherwise send control packets: Documentation/tfib.rst, "Trust
 * model".  A device carries at most one binding, a table at most one.
 *
 * In TFIB_FWD_MODE_RING mode, receive puts control packets on the control ring
 * and data packets on the data ring (a full ring drops and counts); one
 * writer thread drains the control ring, a pool of data worker threads
 * (possibly more than the CPUs) the data ring, each in bursts.  When the
 * data ring gets work on CPU c and no worker is draining it, an idle worker
 * is picked (enum tfib_pick) and woken.  In TFIB_FWD_MODE_INLINE mode the work
 * is done in the receive path, with no ring and no thread.
 *
 * A table, and its binding, go away with TFIB_CMD_TABLE_DEL, its network
 * namespace, or module unload; a binding also with TFIB_CMD_UNBIND or when
 * its device is unregistered.  Packets on the rings are then dropped.
 *
 * All commands that change state require CAP_NET_ADMIN.  Nothing a request
 * reads or names crosses network namespaces.  Errors are reported through
 * the extended ack with a message and, where one is to blame, the offending
 * attribute (or the missing one).  Attributes a command does not take are
 * rejected.
 *
 * Commands
 * --------
 * TFIB_CMD_TABLE_NEW (do, admin)
 *   Request: TFIB_A_TABLE, TFIB_A_CAPACITY (required), TFIB_A_BUCKETS,
 *            TFIB_A_SYNC, TFIB_A_PREFETCH, TFIB_A_SPARES, TFIB_A_CLOCKID
 *   -EEXIST when the name is taken; -ENOSPC or -ENOMEM over the module's
 *   caps (module parameters max_tables, max_entries, and max_bytes, which
 *   counts what the table allocates: entries, buckets and spare tuples).
 *   -EINVAL for more than 16 entries a bucket (capacity / buckets).
 *   Defaults: buckets the capacity rounded up to a power of two,
 *   TFIB_SYNC_RCU, no prefetch, spares the capacity, CLOCK_MONOTONIC.
 *
 * TFIB_CMD_TABLE_DEL (do, admin)
 *   Request: TFIB_A_TABLE
 *
 * TFIB_CMD_TABLE_GET (do, dump)
 *   Request: TFIB_A_TABLE (do); a dump takes no attribute
 *   Reply:   TFIB_A_TABLE, TFIB_A_CAPACITY, TFIB_A_BUCKETS, TFIB_A_SYNC,
 *            TFIB_A_PREFETCH, TFIB_A_SPARES, TFIB_A_CLOCKID,
 *            TFIB_A_ENTRIES and, when bound, TFIB_A_IFINDEX, TFIB_A_IFNAME,
 *            TFIB_A_FWD_MODE, TFIB_A_CONTROL_SRC (one per source), and for
 *            a ring binding TFIB_A_PICK, TFIB_A_WORKERS,
 *            TFIB_A_CONTROL_RING, TFIB_A_DATA_RING, TFIB_A_BURST
 *
 * TFIB_CMD_ENTRY_SET (do, admin)
 *   Request: TFIB_A_TABLE, TFIB_A_USER_ID, TFIB_A_MAC (required),
 *            TFIB_A_TS_NS (default: now on the table's clock),
 *            TFIB_A_SEQ (default 0), TFIB_A_FORCE
 *   Inserts the entry, or rewrites its tuple when TFIB_A_SEQ is after the
 *   stored sequence in serial-number arithmetic ((__s32)(new - old) > 0),
 *   as a control packet does; with TFIB_A_FORCE, whatever the stored one.
 *   -ESTALE when the stored tuple is as new or newer (counted in
 *   TFIB_STATS_A_STALE); -EINVAL when TFIB_A_MAC is no unicast address;
 *   -ENOSPC when the table is full; -EBUSY when an rcu table has no spare
 *   tuple (retry later).
 *
 * TFIB_CMD_ENTRY_GET (do, dump)
 *   Request: TFIB_A_TABLE, TFIB_A_USER_ID (do); TFIB_A_TABLE (dump)
 *   Reply:   TFIB_A_TABLE, TFIB_A_USER_ID, TFIB_A_MAC, TFIB_A_TS_NS,
 *            TFIB_A_SEQ
 *   -ENOENT when there is no such entry.
 *
 * TFIB_CMD_ENTRY_DEL (do, admin)
 *   Request: TFIB_A_TABLE, TFIB_A_USER_ID
 *
 * TFIB_CMD_BIND (do, admin)
 *   Request: TFIB_A_TABLE, TFIB_A_IFINDEX (required), TFIB_A_FWD_MODE,
 *            TFIB_A_PICK, TFIB_A_WORKERS, TFIB_A_CONTROL_RING,
 *            TFIB_A_DATA_RING, TFIB_A_BURST, TFIB_A_CONTROL_SRC (up to
 *            TFIB_MAX_CONTROL_SRC unicast MACs, one per attribute)
 *   Defaults: TFIB_FWD_MODE_RING, TFIB_PICK_MEMO, a worker per online CPU,
 *   rings of TFIB_DEFAULT_RING, bursts of TFIB_DEFAULT_BURST, control
 *   packets from any source.  The ring attributes are refused in inline
 *   mode.  -EBUSY when the table or the device is bound already; -ENOSPC
 *   when its threads (workers and a writer) would exceed the module
 *   parameter max_threads.
 *
 * TFIB_CMD_UNBIND (do, admin)
 *   Request: TFIB_A_TABLE.  -ENOENT when the table is not bound.
 *
 * TFIB_CMD_STATS_GET (do, dump)
 *   Request: TFIB_A_TABLE (do); a dump takes no attribute
 *   Reply:   TFIB_A_TABLE, TFIB_A_STATS and, when bound, TFIB_A_AGE_HIST;
 *            for a ring binding also one TFIB_A_RING per ring, one
 *            TFIB_A_WORKER per thread (in a do reply only) and
 *            TFIB_A_BURST_HIST.
 *   A dump leaves the per-thread nests out, so that each table fits in a
 *   message of the default size whatever its number of workers; a do
 *   reply is sized for all of them.
 *   The forwarder's counters (TFIB_STATS_A_RX and after) count since the
 *   table was created, across bindings.
 *
 * Nested attributes
 * -----------------
 * TFIB_A_STATS: enum tfib_stats_attr, every counter u64.  TFIB_STATS_A_STALE
 *   counts updates refused as not newer than the stored tuple (control
 *   packets and ENTRY_SET), TFIB_STATS_A_PREFETCHES the buckets a ring
 *   binding's threads prefetched for the next packet of a burst.
 * TFIB_A_RING: TFIB_RING_A_KIND (u8, enum tfib_ring_kind),
 *   TFIB_RING_A_SIZE (u32), TFIB_RING_A_ENQUEUED (u64),
 *   TFIB_RING_A_DROPPED (u64, ring full: in packets, or in bytes over the
 *   module parameter ring_bytes), TFIB_RING_A_PEAK (u32).
 * TFIB_A_WORKER: TFIB_WORKER_A_INDEX (u32), TFIB_WORKER_A_KIND (u8),
 *   TFIB_WORKER_A_CPU (u32, last ran on), TFIB_WORKER_A_RUNS,
 *   TFIB_WORKER_A_PKTS, TFIB_WORKER_A_BURSTS (u64).
 * TFIB_A_AGE_HIST, TFIB_A_BURST_HIST: one nest per bin, in rising order,
 *   TFIB_BIN_A_UPPER (u64, the bin's inclusive upper bound; the last one
 *   is 2^64 - 1) and TFIB_BIN_A_COUNT (u64).
 */
#ifndef _UAPI_LINUX_TFIB_H
#define _UAPI_LINUX_TFIB_H

#include <linux/types.h>

#define TFIB_FAMILY_NAME	"tfib"
#define TFIB_FAMILY_VERSION	1

/* EtherType of the update packets: IEEE 802 local experimental 1. */
#define TFIB_ETHERTYPE		0x88b5
#define TFIB_HDR_VERSION	2

/* Longest name of a table or a device, NUL excluded (IFNAMSIZ - 1). */
#define TFIB_NAME_MAX_LEN	15

#define TFIB_MAX_CAPACITY	16777216
#define TFIB_MAX_WORKERS	1024
#define TFIB_MAX_RING		65536
#define TFIB_MAX_BURST		1024
#define TFIB_MAX_CONTROL_SRC	16

/* TFIB_CMD_BIND's TFIB_A_CONTROL_RING, TFIB_A_DATA_RING, TFIB_A_BURST. */
#define TFIB_DEFAULT_RING	4096
#define TFIB_DEFAULT_BURST	64

/*
 * The header of an update packet, right after the Ethernet header; every
 * field in network byte order.  A packet may carry a payload after it,
 * which is forwarded untouched.
 */
struct tfib_hdr {
	__u8	version;	/* TFIB_HDR_VERSION */
	__u8	type;		/* enum tfib_pkt_type */
	__be16	flags;		/* 0; forwarded untouched */
	__be32	user_id;
	__be32	seq;		/* control: the sequence stored in the tuple;
				 * data: the sender's, untouched
				 */
	__be32	addr_seq;	/* data: the tuple's sequence, written by
				 * the forwarder
				 */
	__be64	send_ns;	/* the sender's clock when sent; untouched */
	__be64	addr_ns;	/* control: the location timestamp stored;
				 * data: the tuple's, written by the forwarder
				 */
	__u8	mac[6];		/* control: the user's next hop */
	__u8	hop_limit;	/* data: each forwarder takes one and none
				 * forwards it at 1 or 0, so a packet sent
				 * with N crosses N - 1 at most (version 2
				 * split version 1's __be16 reserved)
				 */
	__u8	reserved;	/* 0; forwarded untouched */
};

enum tfib_sync {
	/* One readers-writer lock for the table. */
	TFIB_SYNC_RWLOCK,
	/* Readers under RCU, tuples copied and published by writers. */
	TFIB_SYNC_RCU,
	/* A per-bucket lock taken with one compare-and-swap by everyone. */
	TFIB_SYNC_BUCKET,
	/* RCU readers, bucket-locked writers, per-entry seqcount. */
	TFIB_SYNC_SEQCOUNT,
	__TFIB_SYNC_MAX,
};

#define TFIB_SYNC_MAX (__TFIB_SYNC_MAX - 1)

enum tfib_fwd_mode {
	/* Rings drained by a writer thread and a pool of data workers. */
	TFIB_FWD_MODE_RING,
	/* In the receive path, no ring, no thread. */
	TFIB_FWD_MODE_INLINE,
	__TFIB_FWD_MODE_MAX,
};

#define TFIB_FWD_MODE_MAX (__TFIB_FWD_MODE_MAX - 1)

enum tfib_pick {
	/* O(1): the worker that last ran on the CPU, validated. */
	TFIB_PICK_MEMO,
	/* O(idle workers): search the idle list. */
	TFIB_PICK_SCAN,
	__TFIB_PICK_MAX,
};

#define TFIB_PICK_MAX (__TFIB_PICK_MAX - 1)

enum tfib_ring_kind {
	TFIB_RING_KIND_CONTROL,
	TFIB_RING_KIND_DATA,
	__TFIB_RING_KIND_MAX,
};

#define TFIB_RING_KIND_MAX (__TFIB_RING_KIND_MAX - 1)

enum tfib_pkt_type {
	TFIB_PKT_TYPE_CONTROL = 1,	/* location update */
	TFIB_PKT_TYPE_DATA,		/* app update */
	__TFIB_PKT_TYPE_MAX,
};

#define TFIB_PKT_TYPE_MAX (__TFIB_PKT_TYPE_MAX - 1)

enum tfib_cmd {
	TFIB_CMD_UNSPEC,
	TFIB_CMD_TABLE_NEW,
	TFIB_CMD_TABLE_DEL,
	TFIB_CMD_TABLE_GET,
	TFIB_CMD_ENTRY_SET,
	TFIB_CMD_ENTRY_GET,
	TFIB_CMD_ENTRY_DEL,
	TFIB_CMD_BIND,
	TFIB_CMD_UNBIND,
	TFIB_CMD_STATS_GET,
	__TFIB_CMD_MAX,
};

#define TFIB_CMD_MAX (__TFIB_CMD_MAX - 1)

enum tfib_attr {
	TFIB_A_UNSPEC,
	TFIB_A_PAD,
	TFIB_A_TABLE,		/* string, 1 to 15 bytes */
	TFIB_A_CAPACITY,	/* u32 */
	TFIB_A_BUCKETS,		/* u32, a power of two */
	TFIB_A_SYNC,		/* u8, enum tfib_sync */
	TFIB_A_PREFETCH,	/* flag */
	TFIB_A_SPARES,		/* u32, rcu tables */
	TFIB_A_CLOCKID,		/* u32 */
	TFIB_A_ENTRIES,		/* u32, reply only */
	TFIB_A_USER_ID,		/* u32 */
	TFIB_A_MAC,		/* binary, 6 bytes */
	TFIB_A_TS_NS,		/* u64 */
	TFIB_A_SEQ,		/* u32 */
	TFIB_A_IFINDEX,		/* u32 */
	TFIB_A_IFNAME,		/* string, reply only */
	TFIB_A_FWD_MODE,	/* u8, enum tfib_fwd_mode */
	TFIB_A_PICK,		/* u8, enum tfib_pick */
	TFIB_A_WORKERS,		/* u32 */
	TFIB_A_CONTROL_RING,	/* u32 */
	TFIB_A_DATA_RING,	/* u32 */
	TFIB_A_BURST,		/* u32 */
	TFIB_A_STATS,		/* nest, enum tfib_stats_attr */
	TFIB_A_RING,		/* nest, enum tfib_ring_attr, multi */
	TFIB_A_WORKER,		/* nest, enum tfib_worker_attr, multi */
	TFIB_A_AGE_HIST,	/* nest, enum tfib_bin_attr, multi */
	TFIB_A_BURST_HIST,	/* nest, enum tfib_bin_attr, multi */
	TFIB_A_CONTROL_SRC,	/* binary, 6 bytes, multi */
	TFIB_A_FORCE,		/* flag: ENTRY_SET overwrites an older seq */
	__TFIB_A_MAX,
};

#define TFIB_A_MAX (__TFIB_A_MAX - 1)

enum tfib_stats_attr {
	TFIB_STATS_A_UNSPEC,
	TFIB_STATS_A_PAD,
	TFIB_STATS_A_LOOKUPS,
	TFIB_STATS_A_MISSES,
	TFIB_STATS_A_INSERTS,
	TFIB_STATS_A_UPDATES,
	TFIB_STATS_A_DELETES,
	TFIB_STATS_A_RETRIES,
	TFIB_STATS_A_SPINS,
	TFIB_STATS_A_BUSY,
	TFIB_STATS_A_BACKLOG,
	TFIB_STATS_A_BACKLOG_PEAK,
	TFIB_STATS_A_RX,
	TFIB_STATS_A_RX_CONTROL,
	TFIB_STATS_A_RX_DATA,
	TFIB_STATS_A_FORWARDED,
	TFIB_STATS_A_DROP_SHORT,
	TFIB_STATS_A_DROP_VERSION,
	TFIB_STATS_A_DROP_TYPE,
	TFIB_STATS_A_DROP_NO_ENTRY,
	TFIB_STATS_A_DROP_TABLE_FULL,
	TFIB_STATS_A_DROP_XMIT,
	TFIB_STATS_A_PICKS,
	TFIB_STATS_A_PICK_NONE,
	TFIB_STATS_A_MEMO_HITS,
	TFIB_STATS_A_SCAN_STEPS,
	TFIB_STATS_A_RAN_ON_CPU,
	TFIB_STATS_A_RAN_ELSEWHERE,
	TFIB_STATS_A_DROP_BAD_MAC,
	TFIB_STATS_A_DROP_HOP_LIMIT,
	TFIB_STATS_A_DROP_LOOP,
	TFIB_STATS_A_DROP_GROUP,
	TFIB_STATS_A_DROP_CONTROL_SRC,
	TFIB_STATS_A_STALE,
	TFIB_STATS_A_PREFETCHES,
	__TFIB_STATS_A_MAX,
};

#define TFIB_STATS_A_MAX (__TFIB_STATS_A_MAX - 1)

enum tfib_ring_attr {
	TFIB_RING_A_UNSPEC,
	TFIB_RING_A_PAD,
	TFIB_RING_A_KIND,
	TFIB_RING_A_SIZE,
	TFIB_RING_A_ENQUEUED,
	TFIB_RING_A_DROPPED,
	TFIB_RING_A_PEAK,
	__TFIB_RING_A_MAX,
};

#define TFIB_RING_A_MAX (__TFIB_RING_A_MAX - 1)

enum tfib_worker_attr {
	TFIB_WORKER_A_UNSPEC,
	TFIB_WORKER_A_PAD,
	TFIB_WORKER_A_INDEX,
	TFIB_WORKER_A_KIND,
	TFIB_WORKER_A_CPU,
	TFIB_WORKER_A_RUNS,
	TFIB_WORKER_A_PKTS,
	TFIB_WORKER_A_BURSTS,
	__TFIB_WORKER_A_MAX,
};

#define TFIB_WORKER_A_MAX (__TFIB_WORKER_A_MAX - 1)

enum tfib_bin_attr {
	TFIB_BIN_A_UNSPEC,
	TFIB_BIN_A_PAD,
	TFIB_BIN_A_UPPER,
	TFIB_BIN_A_COUNT,
	__TFIB_BIN_A_MAX,
};

#define TFIB_BIN_A_MAX (__TFIB_BIN_A_MAX - 1)

#endif /* _UAPI_LINUX_TFIB_H */
