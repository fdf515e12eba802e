/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * qaware.h - generic netlink API of mptcp_qaware.ko, MPTCP packet
 * schedulers registered from a module on stock kernels.
 *
 * Family name "qaware", version 1, multicast groups: none.
 *
 * The module registers its schedulers (qaware and the baselines) with the
 * kernel's MPTCP scheduler list; each network namespace selects one with
 * sysctl net.mptcp.scheduler.  The schedulers are the module's, so every
 * namespace sees the same ones, each with its own namespace's counters.
 * The connections that run them are their namespace's: a namespace lists
 * only its own.
 *
 * Commands that change state would require CAP_NET_ADMIN; there are none
 * yet.  Errors are reported through the extended ack with a message and,
 * where one is to blame, the offending attribute (or the missing one).
 * Attributes a command does not take are rejected.
 *
 * Commands
 * --------
 * QAWARE_CMD_SCHED_GET (do, dump)
 *   Request: QAWARE_A_SCHED (do); a dump takes no attribute
 *   Reply:   QAWARE_A_SCHED, QAWARE_A_DECISIONS, QAWARE_A_REFUSALS,
 *            QAWARE_A_WAITS
 *   -ENOENT when the module has no scheduler of that name.  The counters
 *   count the caller's network namespace's connections since the module
 *   was loaded (or the namespace created).
 *
 * QAWARE_CMD_CONN_GET (dump)
 *   Request: QAWARE_A_SCHED (optional: only connections of that scheduler)
 *   Reply:   one message per MPTCP connection of the caller's network
 *            namespace that runs one of the module's schedulers:
 *            QAWARE_A_SCHED, QAWARE_A_TOKEN, QAWARE_A_CALLS,
 *            QAWARE_A_REFUSALS, and one QAWARE_A_SUBFLOW nest per subflow
 *            (at most 16) of its last decision
 *   -ENOENT when the module has no scheduler of that name.  One consistent
 *   snapshot: the flags as the connection's last decision found them, the
 *   measured values (queue, RTT, W_k, S_k) as the last decision that found
 *   the subflow active saw them (a closing subflow's socket reads as zeros:
 *   the values before are kept); picks count since the subflow took its
 *   place.  A connection
 *   whose state the module could not allocate is not listed.
 *
 * Subflow statistics (QAWARE_SUBFLOW_A_*)
 * ---------------------------------------
 * The addresses and ports of the subflow's TCP socket (an IPv4 subflow as
 * SADDR4/DADDR4, also on an IPv6 socket; else SADDR6/DADDR6), the device
 * its packets leave through and QAware's view of that device's tx queue:
 *   n_k      QUEUED_PKTS: what the decision counted ahead of a new
 *            packet (the socket's unsent data and the egress queue per
 *            module parameter queue_source: BQL in flight + qdisc backlog
 *            by default), in packets of the subflow's MSS, rounded up
 *   parts    BQL_BYTES: the queue's DQL in flight (num_queued -
 *            num_completed; 0 without BQL), QDISC_BYTES: the backlog of the
 *            qdisc above it; both whatever queue_source says
 *   where    QUEUE_IFINDEX: the device whose tx queue was read, IFINDEX
 *            itself or, when that queues nothing (noqueue, no BQL: a
 *            VLAN, macvlan, bond), a device below it; QUEUE_DEVS: how many
 *            devices were summed (a bond's slaves), 0 when no device on
 *            the way queues (WireGuard, PPP, a veth without a qdisc): n_k
 *            is then the socket's unsent data alone
 *   W_k      WAIT_NS: the EWMA of the local queue wait, ns
 *   S_k      SERVICE_NS: SRTT - W_k, at least SRTT / 8 and 1 ns
 *   SRTT_NS  the subflow's smoothed RTT, ns
 *   UNSENT_BYTES  data in the subflow's socket not sent yet (write_seq -
 *            snd_nxt), bytes: part of n_k
 */
#ifndef _UAPI_LINUX_QAWARE_H
#define _UAPI_LINUX_QAWARE_H

#define QAWARE_FAMILY_NAME	"qaware"
#define QAWARE_FAMILY_VERSION	1

/* Longest scheduler name, NUL excluded (MPTCP_SCHED_NAME_MAX - 1). */
#define QAWARE_NAME_MAX_LEN	15

enum qaware_cmd {
	QAWARE_CMD_UNSPEC,
	QAWARE_CMD_SCHED_GET,
	QAWARE_CMD_CONN_GET,
	__QAWARE_CMD_MAX,
};

#define QAWARE_CMD_MAX (__QAWARE_CMD_MAX - 1)

enum qaware_attr {
	QAWARE_A_UNSPEC,
	QAWARE_A_PAD,
	QAWARE_A_SCHED,		/* string, 1 to QAWARE_NAME_MAX_LEN bytes */
	QAWARE_A_DECISIONS,	/* u64, reply only: subflows picked */
	QAWARE_A_REFUSALS,	/* u64, reply only: calls that found no subflow */
	QAWARE_A_WAITS,		/* u64, reply only: ECF/BLEST/qaware_wait
				 * held back
				 */
	QAWARE_A_TOKEN,		/* u32, reply only: the connection's MPTCP token */
	QAWARE_A_CALLS,		/* u64, reply only: decisions asked of it */
	QAWARE_A_SUBFLOW,	/* nest of QAWARE_SUBFLOW_A_*, repeated, reply only */
	__QAWARE_A_MAX,
};

#define QAWARE_A_MAX (__QAWARE_A_MAX - 1)

/* One subflow of a connection (QAWARE_A_SUBFLOW), reply only. */
enum qaware_subflow_attr {
	QAWARE_SUBFLOW_A_UNSPEC,
	QAWARE_SUBFLOW_A_PAD,
	QAWARE_SUBFLOW_A_INDEX,		/* u32: place in the decision, 0-15 */
	QAWARE_SUBFLOW_A_SADDR4,	/* u32, big endian */
	QAWARE_SUBFLOW_A_DADDR4,	/* u32, big endian */
	QAWARE_SUBFLOW_A_SADDR6,	/* binary, 16 bytes */
	QAWARE_SUBFLOW_A_DADDR6,	/* binary, 16 bytes */
	QAWARE_SUBFLOW_A_SPORT,		/* u16, big endian */
	QAWARE_SUBFLOW_A_DPORT,		/* u16, big endian */
	QAWARE_SUBFLOW_A_IFINDEX,	/* u32: egress device; 0: no route yet */
	QAWARE_SUBFLOW_A_BQL,		/* flag: the device's queue runs BQL */
	QAWARE_SUBFLOW_A_BACKUP,	/* flag: backup priority */
	QAWARE_SUBFLOW_A_ACTIVE,	/* flag: may be used (not stale, not closing) */
	QAWARE_SUBFLOW_A_PICKS,		/* u64: decisions that picked it */
	QAWARE_SUBFLOW_A_QUEUED_PKTS,	/* u32: n_k */
	QAWARE_SUBFLOW_A_BQL_BYTES,	/* u32: DQL in flight */
	QAWARE_SUBFLOW_A_QDISC_BYTES,	/* u32: qdisc backlog */
	QAWARE_SUBFLOW_A_SRTT_NS,	/* u64 */
	QAWARE_SUBFLOW_A_WAIT_NS,	/* u64: W_k */
	QAWARE_SUBFLOW_A_SERVICE_NS,	/* u64: S_k */
	QAWARE_SUBFLOW_A_UNSENT_BYTES,	/* u32: unsent in the socket */
	QAWARE_SUBFLOW_A_QUEUE_IFINDEX,	/* u32: where the queue was read */
	QAWARE_SUBFLOW_A_QUEUE_DEVS,	/* u32: devices whose queues were summed */
	__QAWARE_SUBFLOW_A_MAX,
};

#define QAWARE_SUBFLOW_A_MAX (__QAWARE_SUBFLOW_A_MAX - 1)

#endif /* _UAPI_LINUX_QAWARE_H */
