/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * omware.h - generic netlink API of the OMware pre-dispatch packet sender.
 *
 * Family name "omware", version 1, multicast groups: none (send reports are
 * unicast to the socket that created the session).
 *
 * A tool creates a *session* bound to one network device of its own network
 * namespace and to one clock, then hands packets over ahead of time, each with
 * an absolute send time in nanoseconds of that clock.  The kernel builds the
 * sk_buff at submit time and transmits it from a high-resolution timer when
 * the time comes.  Every accepted packet produces exactly one send report
 * (sent, dropped or cancelled), delivered to the session owner in batches.
 *
 * A session is destroyed by OMWARE_CMD_SESSION_DEL, when the netlink socket
 * that created it is closed, or when its device goes away.  Pending packets
 * are then cancelled and freed.
 *
 * All commands that change state require CAP_NET_ADMIN (in the initial user
 * namespace).  Only the socket that created a session may submit to, cancel,
 * flush or delete it (-EPERM otherwise); any socket of the namespace may read
 * it.  Session ids are per network namespace, and nothing a request reads
 * shows another namespace, except the module-wide caps.  Errors are reported through the extended ack with a message and, where
 * one is to blame, the offending attribute (or the missing one).  Attributes
 * that a command does not take are rejected.
 *
 * Commands
 * --------
 * OMWARE_CMD_SESSION_NEW (do, admin)
 *   Request: OMWARE_A_IFINDEX (required), OMWARE_A_CLOCKID, OMWARE_A_MODE,
 *            OMWARE_A_XMIT, OMWARE_A_CPU, OMWARE_A_LATE_NS,
 *            OMWARE_A_GUARD_MAX_NS, OMWARE_A_MAX_PKTS, OMWARE_A_MAX_BYTES
 *   Reply:   OMWARE_A_SESSION_ID
 *   The device must be an Ethernet device of the caller's namespace.
 *   Defaults: CLOCK_MONOTONIC, OMWARE_MODE_TIMER, OMWARE_XMIT_DIRECT, no
 *   CPU binding, LATE_NS OMWARE_LATE_NS_DEFAULT, GUARD_MAX_NS
 *   OMWARE_GUARD_MAX_NS_DEFAULT (OMWARE_GUARD_MIN_NS to
 *   OMWARE_GUARD_MAX_NS_LIMIT), MAX_PKTS and MAX_BYTES from the module
 *   parameters session_pkts (65536) and session_bytes (64 MiB); they may
 *   not exceed the module-wide caps max_pkts (1M) and max_bytes (256 MiB),
 *   -ERANGE otherwise.  CPU must be online and only matters in hybrid
 *   mode.  At most max_sessions (256) sessions exist at a time (-ENOSPC).
 *
 * OMWARE_CMD_SESSION_DEL (do, admin)
 *   Request: OMWARE_A_SESSION_ID
 *   Pending packets are reported as cancelled.
 *
 * OMWARE_CMD_SESSION_GET (do, dump)
 *   Request: OMWARE_A_SESSION_ID (do); a dump takes no attribute
 *   Reply:   session attributes (OMWARE_A_SESSION_ID, OMWARE_A_IFINDEX,
 *            OMWARE_A_IFNAME, OMWARE_A_CLOCKID, OMWARE_A_MODE, OMWARE_A_XMIT,
 *            OMWARE_A_CPU, OMWARE_A_LATE_NS, OMWARE_A_GUARD_MAX_NS,
 *            OMWARE_A_GUARD_NS, OMWARE_A_MAX_PKTS, OMWARE_A_MAX_BYTES,
 *            OMWARE_A_OWNER_PORTID, OMWARE_A_PENDING_PKTS,
 *            OMWARE_A_PENDING_BYTES, OMWARE_A_STATS, and for a hybrid
 *            session OMWARE_A_GUARD_WAKEUPS, OMWARE_A_GUARD_MISSES and
 *            OMWARE_A_GUARD_QUANTILE_NS: how many wake-ups the guard has
 *            learnt from, how many came later than the guard in force, and
 *            its estimate of the p99.9 lateness it keeps the guard above)
 *   A dump lists the sessions of the caller's network namespace.
 *
 * OMWARE_CMD_SUBMIT (do, admin)
 *   Request: OMWARE_A_SESSION_ID, one or more OMWARE_A_PKT (each with
 *            OMWARE_PKT_A_TIME).
 *   All or nothing: either every packet of the message is queued, or none
 *   is and the extack names the packet and attribute at fault.  A packet
 *   whose time has already passed is sent at once and counted late.  A time
 *   more than horizon_s (module parameter, 3600 s) away from the current
 *   time of the session clock, in either direction, is refused with
 *   -ERANGE.  Going over a session or module-wide cap fails with -ENOBUFS.
 *   The caps bound what a session pins, from submit until the report is
 *   delivered or counted lost: MAX_PKTS its packets, MAX_BYTES the memory
 *   (each sk_buff's truesize until it leaves, plus the queue entry that
 *   carries the reports: about 100 bytes a packet, 40 a train frame).  An
 *   owner that does not read its reports therefore gets -ENOBUFS once the
 *   caps are reached.
 *
 * OMWARE_CMD_TRAIN (do, admin)
 *   Request: OMWARE_A_SESSION_ID, OMWARE_A_TIME, two or more OMWARE_A_PKT
 *            (without OMWARE_PKT_A_TIME).
 *   The frames leave back-to-back, in order, at OMWARE_A_TIME.  A packet
 *   pair is a train of two; a train has at most OMWARE_TRAIN_MAX_PKTS
 *   frames.  Each frame may carry its own cookie and gets its own report.
 *   Cancelling some frames of a train leaves the others; the cancelled
 *   ones are reported when the rest of the train is sent.
 *
 * OMWARE_CMD_CANCEL (do, admin)
 *   Request: OMWARE_A_SESSION_ID, OMWARE_A_COOKIE
 *   Cancels every pending packet carrying that cookie (-ENOENT if none).
 *
 * OMWARE_CMD_FLUSH (do, admin)
 *   Request: OMWARE_A_SESSION_ID
 *   Cancels every pending packet of the session.
 *
 * OMWARE_CMD_STATS_GET (do)
 *   Reply: OMWARE_A_STATS (counters of every session the caller's network
 *          namespace has had), OMWARE_A_PENDING_PKTS and
 *          OMWARE_A_PENDING_BYTES (of its sessions now), OMWARE_A_MAX_PKTS,
 *          OMWARE_A_MAX_BYTES (the module-wide caps, shared by all
 *          namespaces).
 *
 * OMWARE_CMD_REPORT (notification, kernel to session owner)
 *   OMWARE_A_SESSION_ID and one or more OMWARE_A_REPORT.
 *   Reports are batched, a few milliseconds after the packets left.  They
 *   share the owner's socket with the replies to its requests, which
 *   netlink drops when the receive buffer is full, so reports only fill it
 *   up to half (one message always fits an empty buffer): size SO_RCVBUF
 *   for the bursts expected.  While there is no room, delivery is retried
 *   with backoff, report_retries (module parameter, 10) times, about 0.8 s
 *   in all; the reports are then dropped and counted in REPORTS_LOST.
 *
 * End of a session
 * ----------------
 * SESSION_DEL and module unload report pending packets as cancelled.  When
 * the device is unregistered (or moves to another namespace) they are
 * reported as dropped with RC -ENODEV.  These last reports are sent at once;
 * those that find no room count as REPORTS_LOST.  When the owner socket
 * closes there is nobody to report to: pending packets count as cancelled
 * and their reports as lost.
 *
 * Packet attributes (nested in OMWARE_A_PKT)
 * ------------------------------------------
 * OMWARE_PKT_A_TIME (u64)      absolute send time, ns of the session clock.
 * OMWARE_PKT_A_COOKIE (u64)    opaque value echoed in the report.
 * OMWARE_PKT_A_FRAME (binary)  a complete layer-2 frame, Ethernet header
 *                              included; 14 bytes to MTU + header length.
 * OMWARE_PKT_A_PAYLOAD (binary) a layer-3 packet, 1 byte to MTU; the kernel
 *                              prepends an Ethernet header (source: the
 *                              device address).  Needs OMWARE_PKT_A_DST_MAC.
 * OMWARE_PKT_A_DST_MAC (binary, 6 bytes) destination of a PAYLOAD packet.
 * OMWARE_PKT_A_PROTO (u16, network byte order) EtherType of a PAYLOAD
 *                              packet, at least 0x0600; default from the IP
 *                              version nibble (4 or 6, else required).
 * Exactly one of FRAME and PAYLOAD must be present; DST_MAC and PROTO go
 * with PAYLOAD only.  The kernel computes no checksum and asks for no
 * offload: packets leave exactly as given.
 *
 * Report attributes (nested in OMWARE_A_REPORT)
 * ---------------------------------------------
 * OMWARE_REPORT_A_COOKIE (u64)     cookie of the packet.
 * OMWARE_REPORT_A_SCHED_NS (u64)   the time it was scheduled for.
 * OMWARE_REPORT_A_SENT_NS (u64)    the time it was handed to the driver
 *                                  (read just before the hand-off); 0 if it
 *                                  was never handed over.
 * OMWARE_REPORT_A_LATE_NS (s64)    SENT_NS - SCHED_NS; absent when SENT_NS
 *                                  is 0.
 * OMWARE_REPORT_A_STATUS (u8)      enum omware_report_status.
 * OMWARE_REPORT_A_RC (s32)         0 when sent, else a negative errno:
 *                                  -EBUSY (driver queue stopped or busy),
 *                                  -ENOBUFS (the qdisc dropped it),
 *                                  -ENETDOWN (device down), -ENOLINK (no
 *                                  carrier), -ENODEV (device gone),
 *                                  -ECANCELED (cancelled), or another
 *                                  errno the driver returned.
 *
 * Statistics attributes (nested in OMWARE_A_STATS), all u64 counters
 * -------------------------------------------------------------------
 * SUBMITTED, SENT, LATE (sent more than the late threshold after its time),
 * DROPPED_XMIT (driver or qdisc refused it), DROPPED_DOWN (device down or
 * gone), CANCELLED, REPORTS_LOST (report could not be delivered to the
 * owner), SPIN_NS (CPU time spent spinning in hybrid mode), WAKE_LATE_MAX_NS
 * (largest timer lateness seen), SPIN_STALLS (times a spinning hybrid thread
 * lost its CPU for more than OMWARE_SPIN_STALL_NS without giving it up:
 * interrupts, SMIs, a hypervisor; no guard can cover those),
 * SPIN_STALL_MAX_NS (the longest), WORK_NS (CPU time of the module's own
 * work outside its callers' system calls and the hybrid thread: the
 * timer's callbacks, which send in timer mode, and report delivery).
 */
#ifndef _UAPI_LINUX_OMWARE_H
#define _UAPI_LINUX_OMWARE_H

#define OMWARE_FAMILY_NAME	"omware"
#define OMWARE_FAMILY_VERSION	1

/*
 * Bounds of OMWARE_A_GUARD_MAX_NS, the cap of the hybrid mode's adaptive
 * guard, and its default: the guard never goes below GUARD_MIN_NS, and a
 * session that does not set the cap gets GUARD_MAX_NS_DEFAULT, the limit.
 * The guard itself follows the platform's wake-up lateness (tens of
 * microseconds on hardware); the cap only bounds what a platform with
 * worse lateness (a VM, an emulator) can cost in spinning.
 */
#define OMWARE_GUARD_MIN_NS		1000
#define OMWARE_GUARD_MAX_NS_DEFAULT	2000000
#define OMWARE_GUARD_MAX_NS_LIMIT	2000000

/* Longest device name in a reply (OMWARE_A_IFNAME), NUL excluded. */
#define OMWARE_NAME_MAX_LEN		15

/* OMWARE_A_LATE_NS of a session that does not set it. */
#define OMWARE_LATE_NS_DEFAULT		20000

/* Most packets (OMWARE_A_PKT) of one OMWARE_CMD_TRAIN. */
#define OMWARE_TRAIN_MAX_PKTS		1024

/*
 * A spinning hybrid thread whose clock reads lie further apart than this
 * lost its CPU (OMWARE_STATS_A_SPIN_STALLS): no guard covers such a gap.
 */
#define OMWARE_SPIN_STALL_NS		20000

enum omware_mode {
	/* Transmit from the hrtimer callback (softirq context). */
	OMWARE_MODE_TIMER,
	/* Wake a per-session kthread a guard before the time, then spin. */
	OMWARE_MODE_HYBRID,
	__OMWARE_MODE_MAX,
};

#define OMWARE_MODE_MAX (__OMWARE_MODE_MAX - 1)

enum omware_xmit {
	/* Straight to the driver under the tx queue lock; bypasses qdiscs. */
	OMWARE_XMIT_DIRECT,
	/* Through dev_queue_xmit(), i.e. the device's qdisc. */
	OMWARE_XMIT_QDISC,
	__OMWARE_XMIT_MAX,
};

#define OMWARE_XMIT_MAX (__OMWARE_XMIT_MAX - 1)

enum omware_report_status {
	OMWARE_STATUS_SENT,
	OMWARE_STATUS_DROPPED,
	OMWARE_STATUS_CANCELLED,
	__OMWARE_STATUS_MAX,
};

#define OMWARE_STATUS_MAX (__OMWARE_STATUS_MAX - 1)

enum omware_cmd {
	OMWARE_CMD_UNSPEC,
	OMWARE_CMD_SESSION_NEW,
	OMWARE_CMD_SESSION_DEL,
	OMWARE_CMD_SESSION_GET,
	OMWARE_CMD_SUBMIT,
	OMWARE_CMD_TRAIN,
	OMWARE_CMD_CANCEL,
	OMWARE_CMD_FLUSH,
	OMWARE_CMD_STATS_GET,
	OMWARE_CMD_REPORT,
	__OMWARE_CMD_MAX,
};

#define OMWARE_CMD_MAX (__OMWARE_CMD_MAX - 1)

enum omware_attr {
	OMWARE_A_UNSPEC,
	OMWARE_A_PAD,
	OMWARE_A_SESSION_ID,		/* u32 */
	OMWARE_A_IFINDEX,		/* u32 */
	OMWARE_A_IFNAME,		/* string, reply only */
	OMWARE_A_CLOCKID,		/* u32: CLOCK_MONOTONIC (default),
					 * CLOCK_REALTIME or CLOCK_TAI
					 */
	OMWARE_A_MODE,			/* u8, enum omware_mode */
	OMWARE_A_XMIT,			/* u8, enum omware_xmit */
	OMWARE_A_CPU,			/* u32, hybrid kthread CPU; absent:
					 * not bound
					 */
	OMWARE_A_LATE_NS,		/* u32, late threshold */
	OMWARE_A_GUARD_MAX_NS,		/* u32, hybrid guard cap */
	OMWARE_A_GUARD_NS,		/* u64, current hybrid guard, reply;
					 * 0 in timer mode
					 */
	OMWARE_A_MAX_PKTS,		/* u32, pending packet cap */
	OMWARE_A_MAX_BYTES,		/* u32, pending byte cap */
	OMWARE_A_OWNER_PORTID,		/* u32, reply only */
	OMWARE_A_PENDING_PKTS,		/* u32, reply only: under the caps */
	OMWARE_A_PENDING_BYTES,		/* u64, reply only: under the caps */
	OMWARE_A_TIME,			/* u64, train send time */
	OMWARE_A_COOKIE,		/* u64, cancel */
	OMWARE_A_PKT,			/* nest, enum omware_pkt_attr */
	OMWARE_A_REPORT,		/* nest, enum omware_report_attr */
	OMWARE_A_STATS,			/* nest, enum omware_stats_attr */
	OMWARE_A_GUARD_WAKEUPS,		/* u64, reply only, hybrid */
	OMWARE_A_GUARD_MISSES,		/* u64, reply only, hybrid */
	OMWARE_A_GUARD_QUANTILE_NS,	/* u32, reply only, hybrid */
	__OMWARE_A_MAX,
};

#define OMWARE_A_MAX (__OMWARE_A_MAX - 1)

enum omware_pkt_attr {
	OMWARE_PKT_A_UNSPEC,
	OMWARE_PKT_A_PAD,
	OMWARE_PKT_A_TIME,		/* u64 */
	OMWARE_PKT_A_COOKIE,		/* u64 */
	OMWARE_PKT_A_FRAME,		/* binary */
	OMWARE_PKT_A_PAYLOAD,		/* binary */
	OMWARE_PKT_A_DST_MAC,		/* binary, ETH_ALEN */
	OMWARE_PKT_A_PROTO,		/* u16, big endian */
	__OMWARE_PKT_A_MAX,
};

#define OMWARE_PKT_A_MAX (__OMWARE_PKT_A_MAX - 1)

enum omware_report_attr {
	OMWARE_REPORT_A_UNSPEC,
	OMWARE_REPORT_A_PAD,
	OMWARE_REPORT_A_COOKIE,		/* u64 */
	OMWARE_REPORT_A_SCHED_NS,	/* u64 */
	OMWARE_REPORT_A_SENT_NS,	/* u64 */
	OMWARE_REPORT_A_LATE_NS,	/* s64 */
	OMWARE_REPORT_A_STATUS,		/* u8, enum omware_report_status */
	OMWARE_REPORT_A_RC,		/* s32 */
	__OMWARE_REPORT_A_MAX,
};

#define OMWARE_REPORT_A_MAX (__OMWARE_REPORT_A_MAX - 1)

enum omware_stats_attr {
	OMWARE_STATS_A_UNSPEC,
	OMWARE_STATS_A_PAD,
	OMWARE_STATS_A_SUBMITTED,
	OMWARE_STATS_A_SENT,
	OMWARE_STATS_A_LATE,
	OMWARE_STATS_A_DROPPED_XMIT,
	OMWARE_STATS_A_DROPPED_DOWN,
	OMWARE_STATS_A_CANCELLED,
	OMWARE_STATS_A_REPORTS_LOST,
	OMWARE_STATS_A_SPIN_NS,
	OMWARE_STATS_A_WAKE_LATE_MAX_NS,
	OMWARE_STATS_A_SPIN_STALLS,
	OMWARE_STATS_A_SPIN_STALL_MAX_NS,
	OMWARE_STATS_A_WORK_NS,
	__OMWARE_STATS_A_MAX,
};

#define OMWARE_STATS_A_MAX (__OMWARE_STATS_A_MAX - 1)

#endif /* _UAPI_LINUX_OMWARE_H */
