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
 * namespace sees the same ones; their counters count over all of them.
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
 *   Reply:   QAWARE_A_SCHED, QAWARE_A_DECISIONS
 *   -ENOENT when the module has no scheduler of that name.
 */
#ifndef _UAPI_LINUX_QAWARE_H
#define _UAPI_LINUX_QAWARE_H

#define QAWARE_FAMILY_NAME	"qaware"
#define QAWARE_FAMILY_VERSION	1

/* A scheduler's name with its terminating NUL (MPTCP_SCHED_NAME_MAX). */
#define QAWARE_NAME_LEN		16

enum qaware_cmd {
	QAWARE_CMD_UNSPEC,
	QAWARE_CMD_SCHED_GET,
	__QAWARE_CMD_MAX,
};

#define QAWARE_CMD_MAX (__QAWARE_CMD_MAX - 1)

enum qaware_attr {
	QAWARE_A_UNSPEC,
	QAWARE_A_PAD,
	QAWARE_A_SCHED,		/* string, 1 to 15 bytes */
	QAWARE_A_DECISIONS,	/* u64, reply only */
	__QAWARE_A_MAX,
};

#define QAWARE_A_MAX (__QAWARE_A_MAX - 1)

#endif /* _UAPI_LINUX_QAWARE_H */
