// SPDX-License-Identifier: GPL-2.0
/*
 * mptcp_qaware.ko: MPTCP packet schedulers for stock kernels, selected per
 * network namespace with sysctl net.mptcp.scheduler=<name>.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/tcp.h>
#include "protocol.h"
#include "qaware_layout.h"
#include "qaware.h"

/* Read-only counters, one "name decisions refusals waits stale" line each. */
static int qa_decisions_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	for (i = 0; i < qa_nr_scheds; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len,
				 "%s %lld %lld %lld %lld\n",
				 qa_scheds[i].ops.name,
				 atomic64_read(&qa_scheds[i].decisions),
				 atomic64_read(&qa_scheds[i].refusals),
				 atomic64_read(&qa_scheds[i].waits),
				 atomic64_read(&qa_scheds[i].stale));
	return len;
}

static const struct kernel_param_ops qa_decisions_ops = {
	.get = qa_decisions_get,
};
module_param_cb(decisions, &qa_decisions_ops, NULL, 0444);
MODULE_PARM_DESC(decisions, "per scheduler: name, subflows picked, calls with none, ECF/BLEST/qaware_wait waits, subflows found stale");

static int __init qa_init(void)
{
	int err = qa_check_layout();

	if (!err)
		err = qa_conns_init();
	if (err)
		return err;
	err = qa_nl_init();
	if (err)
		goto out_conns;
	/*
	 * Last: a socket may take a scheduler, and a reference to the module,
	 * as soon as it is registered; nothing may fail after that.
	 */
	err = qa_register();
	if (!err)
		return 0;
	qa_nl_exit();
out_conns:
	qa_conns_exit();
	return err;
}

static void __exit qa_exit(void)
{
	qa_unregister();
	qa_nl_exit();
	qa_conns_exit();
}

module_init(qa_init);
module_exit(qa_exit);

MODULE_DESCRIPTION("MPTCP packet schedulers for stock kernels (built for Linux " QA_LAYOUT_KERNEL ")");
MODULE_LICENSE("GPL");
