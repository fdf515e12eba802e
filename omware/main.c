// SPDX-License-Identifier: GPL-2.0
/*
 * OMware module setup: parameters, notifiers, init and exit.
 *
 * OMware takes packets with their absolute send times ahead of time over
 * generic netlink, builds their sk_buffs at once and transmits each from a
 * high-resolution timer when its time comes (Mok, Li and Chang, "Improving
 * the packet send-time accuracy in embedded devices", PAM 2015).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "omw.h"

unsigned int omw_horizon_s = 3600;
module_param_named(horizon_s, omw_horizon_s, uint, 0644);
MODULE_PARM_DESC(horizon_s,
		 "Reject send times further than this from now, s (3600)");

unsigned int omw_sess_pkts = 65536;
module_param_named(session_pkts, omw_sess_pkts, uint, 0644);
MODULE_PARM_DESC(session_pkts,
		 "Default pending packet cap of a session (65536)");

unsigned int omw_sess_bytes = 64 << 20;
module_param_named(session_bytes, omw_sess_bytes, uint, 0644);
MODULE_PARM_DESC(session_bytes,
		 "Default pending byte cap of a session (64 MiB)");

unsigned int omw_max_pkts = 1 << 20;
module_param_named(max_pkts, omw_max_pkts, uint, 0644);
MODULE_PARM_DESC(max_pkts,
		 "Pending packets of all sessions, and bound of a session cap (1M)");

unsigned int omw_max_bytes = 256 << 20;
module_param_named(max_bytes, omw_max_bytes, uint, 0644);
MODULE_PARM_DESC(max_bytes,
		 "Pending bytes of all sessions, and bound of a session cap (256 MiB)");

unsigned int omw_max_sessions = 256;
module_param_named(max_sessions, omw_max_sessions, uint, 0644);
MODULE_PARM_DESC(max_sessions, "Sessions at most, all namespaces (256)");

unsigned int omw_report_retries = 10;
module_param_named(report_retries, omw_report_retries, uint, 0644);
MODULE_PARM_DESC(report_retries,
		 "Delivery attempts of reports to a full socket before they count as lost (10)");

bool omw_hybrid_fifo = true;
module_param_named(hybrid_fifo, omw_hybrid_fifo, bool, 0644);
MODULE_PARM_DESC(hybrid_fifo,
		 "Run hybrid-mode kthreads as SCHED_FIFO (low priority) (Y)");

/* Guards the session IDRs and keeps sessions alive for handlers. */
DEFINE_MUTEX(omw_lock);
/* Every namespace's struct omw_net, for module unload. */
LIST_HEAD(omw_nets);
bool omw_closing;
unsigned int omw_net_id;
atomic64_t omw_pend_pkts = ATOMIC64_INIT(0);
atomic64_t omw_pend_bytes = ATOMIC64_INIT(0);

static int omw_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	/* Also sent when the device moves to another namespace. */
	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	/* Before a move: the device is still in its old namespace. */
	mutex_lock(&omw_lock);
	omw_sessions_destroy(dev_net(dev), dev, 0, OMW_END_DEVICE);
	mutex_unlock(&omw_lock);
	return NOTIFY_DONE;
}

static struct notifier_block omw_netdev_nb = {
	.notifier_call = omw_netdev_event,
};

static int omw_netlink_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	/*
	 * Every generic netlink socket's close comes here and waits for
	 * omw_lock, which is why no handler holds it for long.
	 */
	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	mutex_lock(&omw_lock);
	omw_sessions_destroy(n->net, NULL, n->portid, OMW_END_OWNER);
	mutex_unlock(&omw_lock);
	return NOTIFY_DONE;
}

static struct notifier_block omw_netlink_nb = {
	.notifier_call = omw_netlink_event,
};

static int __net_init omw_net_init(struct net *net)
{
	struct omw_net *on = omw_net(net);
	int err;

	idr_init(&on->ids);
	err = omw_stats_init(&on->stats);
	if (err)
		return err;
	mutex_lock(&omw_lock);
	list_add(&on->node, &omw_nets);
	mutex_unlock(&omw_lock);
	return 0;
}

/*
 * The owner's socket pins the namespace, so its sessions normally end at
 * NETLINK_URELEASE first; this only catches what is left.
 */
static void __net_exit omw_net_exit(struct net *net)
{
	struct omw_net *on = omw_net(net);

	mutex_lock(&omw_lock);
	omw_sessions_destroy(net, NULL, 0, OMW_END_NETNS);
	list_del(&on->node);
	mutex_unlock(&omw_lock);
	idr_destroy(&on->ids);
	omw_stats_free(&on->stats);
}

static struct pernet_operations omw_net_ops = {
	.init = omw_net_init,
	.exit = omw_net_exit,
	.id = &omw_net_id,
	.size = sizeof(struct omw_net),
};

static int __init omw_init(void)
{
	int err;

	err = register_pernet_subsys(&omw_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&omw_netdev_nb);
	if (err)
		goto err_pernet;
	err = netlink_register_notifier(&omw_netlink_nb);
	if (err)
		goto err_netdev;
	/* Last: requests may arrive as soon as the family exists. */
	err = omw_nl_init();
	if (err)
		goto err_netlink;
	return 0;

err_netlink:
	netlink_unregister_notifier(&omw_netlink_nb);
err_netdev:
	unregister_netdevice_notifier(&omw_netdev_nb);
err_pernet:
	unregister_pernet_subsys(&omw_net_ops);
	return err;
}

static void __exit omw_exit(void)
{
	/*
	 * End the sessions while the family still exists, so that owners get
	 * their packets reported as cancelled; omw_closing stops new ones.
	 */
	mutex_lock(&omw_lock);
	omw_closing = true;
	omw_sessions_destroy_all(OMW_END_UNLOAD);
	mutex_unlock(&omw_lock);

	omw_nl_exit();
	netlink_unregister_notifier(&omw_netlink_nb);
	unregister_netdevice_notifier(&omw_netdev_nb);
	unregister_pernet_subsys(&omw_net_ops);

	WARN_ON(omw_session_count());
	WARN_ON(atomic64_read(&omw_pend_pkts) ||
		atomic64_read(&omw_pend_bytes));
}

module_init(omw_init);
module_exit(omw_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("OMware: pre-dispatched packets sent at precise times");
MODULE_VERSION(TW_VERSION);
MODULE_ALIAS_GENL_FAMILY(OMWARE_FAMILY_NAME);
