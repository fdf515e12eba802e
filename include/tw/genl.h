/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The family every timewire generic netlink module registers: split ops
 * (netlink-gen.c, generated from the family's spec, a policy each),
 * netns-aware, handlers serialised by the module's own lock
 * (parallel_ops), header and flags checked for every command.  The module
 * registers it with its ops, tw_genl_register(family, ops), and removes it
 * with tw_genl_unregister() (<tw/compat.h>).
 */
#ifndef _TW_GENL_H
#define _TW_GENL_H

#include <net/genetlink.h>
#include <tw/compat.h>

/* resv_start_op stays 0, so no command skips the strict checks. */
#define TW_GENL_FAMILY(_name, _version) {				\
	.name = (_name),						\
	.version = (_version),						\
	.netnsok = true,						\
	.parallel_ops = true,						\
	.module = THIS_MODULE,						\
}

#endif
