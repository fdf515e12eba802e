// SPDX-License-Identifier: GPL-2.0
/*
 * twwarn - the VM harness's self-test module.
 *
 * Writing 1 to /sys/module/twwarn/parameters/trigger fires a WARN_ON, so
 * the harness can prove that a warning raised in a module during a suite
 * fails the run.  Never loaded outside the harness's own tests.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>

static int twwarn_trigger(const char *val, const struct kernel_param *kp)
{
	bool fire;
	int err;

	err = kstrtobool(val, &fire);
	if (err)
		return err;
	WARN_ON(fire);
	return 0;
}

static const struct kernel_param_ops twwarn_trigger_ops = {
	.set = twwarn_trigger,
};

module_param_cb(trigger, &twwarn_trigger_ops, NULL, 0200);
MODULE_PARM_DESC(trigger, "write 1 to raise a deliberate kernel warning");

static int __init twwarn_init(void)
{
	return 0;
}

static void __exit twwarn_exit(void)
{
}

module_init(twwarn_init);
module_exit(twwarn_exit);
MODULE_DESCRIPTION("timewire VM harness self-test: deliberate kernel warning");
MODULE_LICENSE("GPL");
