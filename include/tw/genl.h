/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shape every timewire generic netlink family shares: split ops with
 * a policy each, netns-aware, handlers serialised by the module's own
 * lock (parallel_ops), header and flags checked for every command.
 */
#ifndef _TW_GENL_H
#define _TW_GENL_H

#include <net/genetlink.h>

/* A do handler of @_cmd; @_flags adds GENL_ADMIN_PERM to a change. */
#define TW_GENL_DO(_cmd, _fn, _policy, _flags) {			\
	.cmd = (_cmd),							\
	.doit = (_fn),							\
	.policy = (_policy),						\
	.maxattr = ARRAY_SIZE(_policy) - 1,				\
	.flags = GENL_CMD_CAP_DO | (_flags),				\
}

/* A dump of @_cmd, with its own policy (often: no attribute at all). */
#define TW_GENL_DUMP(_cmd, _start, _fn, _policy) {			\
	.cmd = (_cmd),							\
	.start = (_start),						\
	.dumpit = (_fn),						\
	.policy = (_policy),						\
	.maxattr = ARRAY_SIZE(_policy) - 1,				\
	.flags = GENL_CMD_CAP_DUMP,					\
}

/* resv_start_op stays 0, so no command skips the strict checks. */
#define TW_GENL_FAMILY(_name, _version, _ops) {				\
	.name = (_name),						\
	.version = (_version),						\
	.netnsok = true,						\
	.parallel_ops = true,						\
	.module = THIS_MODULE,						\
	.split_ops = (_ops),						\
	.n_split_ops = ARRAY_SIZE(_ops),				\
}

#endif
