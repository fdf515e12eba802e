// SPDX-License-Identifier: GPL-2.0
/*
 * tfib module setup: parameters, namespaces, the netdev notifier, init and
 * exit.
 *
 * tfib keeps named forwarding tables keyed by user ID in each network
 * namespace; a table bound to a device forwards the project's update
 * packets through it (fwd.c).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "internal.h"

unsigned int tfib_max_tables = 64;
module_param_named(max_tables, tfib_max_tables, uint, 0644);
MODULE_PARM_DESC(max_tables, "Tables at most, all namespaces (64)");

unsigned int tfib_max_entries = 1 << 20;
module_param_named(max_entries, tfib_max_entries, uint, 0644);
MODULE_PARM_DESC(max_entries,
		 "Sum of the capacities of all tables, all namespaces; an entry pins about 100 bytes, 200 in an rcu table (1M)");

/* What buckets and spare tuples cost too: max_entries bounds neither. */
unsigned long tfib_max_bytes = 256UL << 20;
module_param_named(max_bytes, tfib_max_bytes, ulong, 0644);
MODULE_PARM_DESC(max_bytes,
		 "Memory of all tables, all namespaces, in bytes: entries, buckets and rcu spare tuples (256 MiB)");

/* Remote traffic fills the rings: bound what it pins, not only how many. */
unsigned long tfib_ring_bytes = 4UL << 20;
module_param_named(ring_bytes, tfib_ring_bytes, ulong, 0644);
MODULE_PARM_DESC(ring_bytes,
		 "Bytes of packets (truesize) each ring of a binding holds at most, read at bind; over it packets are dropped as by a full ring (4 MiB)");

/* Each binding's writer and data workers are kernel threads: bound them. */
unsigned int tfib_max_threads = 1024;
module_param_named(max_threads, tfib_max_threads, uint, 0644);
MODULE_PARM_DESC(max_threads,
		 "Threads of all bindings, all namespaces: a ring binding has its workers and a writer (1024)");

DEFINE_MUTEX(tfib_lock);
static unsigned int tfib_net_id;

struct tfib_net *tfib_net(const struct net *net)
{
	return net_generic(net, tfib_net_id);
}

static int tfib_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct tfib_table *t;

	/* UNREGISTER is also sent before the device moves to another netns. */
	if (event != NETDEV_UNREGISTER && event != NETDEV_CHANGENAME)
		return NOTIFY_DONE;
	/* nothing bound: leave every other device's events alone */
	if (!READ_ONCE(tfib_nbound))
		return NOTIFY_DONE;
	mutex_lock(&tfib_lock);
	t = tfib_table_of_dev(dev);
	if (t && event == NETDEV_UNREGISTER)
		tfib_table_unbind(t);
	else if (t)
		tfib_fwd_renamed(t);
	mutex_unlock(&tfib_lock);
	return NOTIFY_DONE;
}

static struct notifier_block tfib_netdev_nb = {
	.notifier_call = tfib_netdev_event,
};

static int __net_init tfib_net_init_ops(struct net *net)
{
	mutex_lock(&tfib_lock);
	tfib_net_init(tfib_net(net));
	mutex_unlock(&tfib_lock);
	return 0;
}

/*
 * The namespace's devices are gone or moved out by now (their
 * NETDEV_UNREGISTER unbound the tables); its tables go with it.
 */
static void __net_exit tfib_net_exit_ops(struct net *net)
{
	struct tfib_net *tn = tfib_net(net);

	mutex_lock(&tfib_lock);
	tfib_net_destroy_tables(tn);
	list_del(&tn->node);
	mutex_unlock(&tfib_lock);
}

static struct pernet_operations tfib_net_ops = {
	.init = tfib_net_init_ops,
	.exit = tfib_net_exit_ops,
	.id = &tfib_net_id,
	.size = sizeof(struct tfib_net),
};

static int __init tfib_init(void)
{
	int err;

	err = register_pernet_subsys(&tfib_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&tfib_netdev_nb);
	if (err)
		goto err_pernet;
	/* Last: requests may arrive as soon as the family exists. */
	err = tfib_nl_init();
	if (err)
		goto err_netdev;
	return 0;

err_netdev:
	unregister_netdevice_notifier(&tfib_netdev_nb);
err_pernet:
	unregister_pernet_subsys(&tfib_net_ops);
	return err;
}

/*
 * No request runs once the family is gone; the tables go while the
 * notifier still watches their devices.
 */
static void __exit tfib_exit(void)
{
	tfib_nl_exit();
	mutex_lock(&tfib_lock);
	tfib_destroy_all();
	mutex_unlock(&tfib_lock);
	unregister_netdevice_notifier(&tfib_netdev_nb);
	unregister_pernet_subsys(&tfib_net_ops);
}

module_init(tfib_init);
module_exit(tfib_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tfib: timely forwarding table keyed by user ID");
MODULE_VERSION(TW_VERSION);
MODULE_ALIAS_GENL_FAMILY(TFIB_FAMILY_NAME);
