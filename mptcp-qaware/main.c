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
#include "private.h"
#include "internal.h"

/*
 * Read-only counters, one "name decisions refusals waits stale" line each:
 * the module's totals over every network namespace, so readable by root
 * only (sysfs is not per namespace; each namespace reads its own counts
 * over netlink).
 */
static int qa_decisions_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	for (i = 0; i < qa_nr_scheds; i++) {
		const struct qa_counts *t = &qa_scheds[i].total;

		len += scnprintf(buf + len, PAGE_SIZE - len,
				 "%s %lld %lld %lld %lld\n",
				 qa_scheds[i].ops.name,
				 atomic64_read(&t->c[QA_DECISIONS]),
				 atomic64_read(&t->c[QA_REFUSALS]),
				 atomic64_read(&t->c[QA_WAITS]),
				 atomic64_read(&t->c[QA_STALE]));
	}
	return len;
}

static const struct kernel_param_ops qa_decisions_ops = {
	.get = qa_decisions_get,
};
module_param_cb(decisions, &qa_decisions_ops, NULL, 0400);
MODULE_PARM_DESC(decisions, "per scheduler, summed over every network namespace: name, subflows picked, calls with none, ECF/BLEST/qaware_wait waits, subflows found stale");

static int __init qa_init(void)
{
	int err = qa_check_layout();

	if (!err)
		err = qa_counters_init();
	if (err)
		return err;
	err = qa_conns_init();
	if (err)
		goto counters;
	err = qa_nl_init();
	if (err)
		goto conns;
	/*
	 * Last: a socket may take a scheduler, and a reference to the module,
	 * as soon as it is registered; nothing may fail after that.
	 */
	err = qa_register();
	if (!err)
		return 0;
	qa_nl_exit();
conns:
	qa_conns_exit();
counters:
	qa_counters_exit();
	return err;
}

static void __exit qa_exit(void)
{
	qa_unregister();
	qa_nl_exit();
	qa_conns_exit();
	qa_counters_exit();
}

module_init(qa_init);
module_exit(qa_exit);

MODULE_DESCRIPTION("MPTCP packet schedulers for stock kernels (built for Linux " QA_LAYOUT_KERNEL ")");
MODULE_LICENSE("GPL");
MODULE_VERSION(TW_VERSION);
