// SPDX-License-Identifier: GPL-2.0
/*
 * tfib module setup.  The tables and their netlink API are being built;
 * for now the module only registers its family.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "tfib.h"

DEFINE_MUTEX(tfib_lock);

static struct genl_family tfib_family = {
	.name = TFIB_FAMILY_NAME,
	.version = TFIB_FAMILY_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
};

static int __init tfib_init(void)
{
	return genl_register_family(&tfib_family);
}

static void __exit tfib_exit(void)
{
	genl_unregister_family(&tfib_family);
}

module_init(tfib_init);
module_exit(tfib_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tfib: timely forwarding table keyed by user ID");
MODULE_ALIAS_GENL_FAMILY(TFIB_FAMILY_NAME);
