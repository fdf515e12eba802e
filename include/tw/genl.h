/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The family every timewire generic netlink module registers: split ops
 * (netlink-gen.c, generated from the family's spec, a policy each),
 * netns-aware, handlers serialised by the module's own lock
 * (parallel_ops), header and flags checked for every command.
 */
#ifndef _TW_GENL_H
#define _TW_GENL_H

#include <net/genetlink.h>

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
