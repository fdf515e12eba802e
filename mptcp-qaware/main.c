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

#ifndef __LITTLE_ENDIAN
#error "mptcp_qaware: the bit-field layout check assumes little endian"
#endif

/* Read-only counters, one "name decisions refusals waits" line each. */
static int qa_decisions_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	for (i = 0; i < qa_nr_scheds; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len,
				 "%s %lld %lld %lld\n", qa_scheds[i].ops.name,
				 atomic64_read(&qa_scheds[i].decisions),
				 atomic64_read(&qa_scheds[i].refusals),
				 atomic64_read(&qa_scheds[i].waits));
	return len;
}

static const struct kernel_param_ops qa_decisions_ops = {
	.get = qa_decisions_get,
};
module_param_cb(decisions, &qa_decisions_ops, NULL, 0444);
MODULE_PARM_DESC(decisions, "per scheduler: name, subflows picked, calls with none, ECF/BLEST waits");

/* Exactly one bit set, at byte/bit of the kernel's BTF (little endian). */
static bool qa_bit_at(const u8 *obj, size_t size, unsigned int byte,
		      unsigned int bit)
{
	unsigned int at = byte + bit / 8;
	size_t i;

	for (i = 0; i < size; i++)
		if (obj[i] != (i == at ? BIT(bit % 8) : 0))
			return false;
	return true;
}

/*
 * The offsets and sizes were asserted at build time (qaware_layout.h,
 * generated from the kernel's BTF); C cannot assert where a bit-field
 * lies, so that is checked here, once.  Checking the running kernel's
 * /sys/kernel/btf/vmlinux at load time as well is a later step.
 */
#define QA_CHECK_BITFIELD(s, f, byte, bit)				\
	do {								\
		struct s *obj = scratch;				\
									\
		memset(obj, 0, sizeof(*obj));				\
		obj->f = 1;						\
		if (!bad && !qa_bit_at(scratch, sizeof(*obj), byte, bit)) \
			bad = #s "." #f;	/* the first one */	\
	} while (0)

static int qa_check_bitfields(void)
{
	const char *bad = NULL;
	void *scratch;

	scratch = kzalloc(sizeof(struct mptcp_subflow_context), GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	QA_LAYOUT_BITFIELDS(QA_CHECK_BITFIELD);
	kfree(scratch);
	if (!bad)
		return 0;
	pr_err("%s is not where the kernel's BTF has it: the private layout does not match, refusing to load\n",
	       bad);
	return -EINVAL;
}

static int __init qa_init(void)
{
	int err = qa_check_bitfields();

	if (!err)
		err = qa_register();
	if (err)
		return err;
	/* Last: requests may arrive as soon as the family exists. */
	err = qa_nl_init();
	if (err)
		qa_unregister();
	return err;
}

static void __exit qa_exit(void)
{
	qa_nl_exit();
	qa_unregister();
}

module_init(qa_init);
module_exit(qa_exit);

MODULE_DESCRIPTION("MPTCP packet schedulers for stock kernels (built for Linux " QA_LAYOUT_KERNEL ")");
MODULE_LICENSE("GPL");
