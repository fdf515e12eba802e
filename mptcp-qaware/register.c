// SPDX-License-Identifier: GPL-2.0
/*
 * Registration without mptcp_register_scheduler(): it is not exported, and
 * under IBT (X86_KERNEL_IBT) the kernel seals its entry point at boot, so
 * calling it through an address found at run time faults.  The module
 * touches only the data: the scheduler list and its lock, whose addresses
 * come in as parameters (read from /proc/kallsyms by the loader), are
 * checked to be exactly those symbols, the list is checked under its lock,
 * and the schedulers are linked in and out as the kernel itself does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "internal.h"

static unsigned long sched_list;
module_param(sched_list, ulong, 0400);
MODULE_PARM_DESC(sched_list, "address of mptcp_sched_list (from /proc/kallsyms)");

static unsigned long sched_list_lock;
module_param(sched_list_lock, ulong, 0400);
MODULE_PARM_DESC(sched_list_lock,
		 "address of mptcp_sched_list_lock (from /proc/kallsyms)");

/*
 * A uniprocessor kernel without lock debugging has a spinlock_t of no
 * bytes: mptcp_sched_list_lock is then no symbol, and taking it only
 * disables preemption, which taking a lock of our own does alike.
 */
static DEFINE_SPINLOCK(qa_sizeless_lock);

static bool qa_lock_sizeless(void)
{
	return sizeof(spinlock_t) == 0;
}

static spinlock_t *qa_list_lock(void)
{
	return qa_lock_sizeless() ? &qa_sizeless_lock :
				    (spinlock_t *)sched_list_lock;
}

/* A kernel with more schedulers than this has a list we do not know. */
#define QA_MAX_LISTED	64

/* Is addr exactly the start of the kernel's own symbol name? */
static bool qa_is_symbol(unsigned long addr, const char *name)
{
	char sym[KSYM_SYMBOL_LEN];
	size_t len = strlen(name);

	/* "name+0x0/0xsize"; a module's symbol ends in " [module]". */
	sprint_symbol(sym, addr);
	return !strncmp(sym, name, len) && !strncmp(sym + len, "+0x0/", 5) &&
	       !strchr(sym, ' ');
}

static int qa_check_param(const char *param, unsigned long addr,
			  const char *name)
{
	char sym[KSYM_SYMBOL_LEN];

	if (!addr) {
		pr_err("%s= not given: the address of %s from /proc/kallsyms (needs CONFIG_KALLSYMS_ALL)\n",
		       param, name);
		return -EINVAL;
	}
	if (qa_is_symbol(addr, name))
		return 0;
	sprint_symbol(sym, addr);
	pr_err("%s=0x%lx is %s, not %s: wrong address, refusing to load\n",
	       param, addr, sym, name);
	return -EINVAL;
}

static bool qa_ours(const char *name)
{
	unsigned int i;

	for (i = 0; i < qa_nr_scheds; i++)
		if (!strncmp(name, qa_scheds[i].ops.name, MPTCP_SCHED_NAME_MAX))
			return true;
	return false;
}

/*
 * Under the list's lock: a well-formed list (links agree both ways, not
 * endless), holding the kernel's "default" whose callback is the kernel's
 * own, and none of our names yet.
 */
static int qa_check_list(struct list_head *head)
{
	struct mptcp_sched_ops *ops;
	struct list_head *pos;
	bool have_default = false;
	unsigned int n = 0;

	for (pos = head; pos->next != head; pos = pos->next) {
		if (pos->next->prev != pos || ++n > QA_MAX_LISTED) {
			pr_err("mptcp_sched_list is not a list this module knows: refusing to load\n");
			return -EINVAL;
		}
		ops = list_entry(pos->next, struct mptcp_sched_ops, list);
		if (qa_ours(ops->name)) {
			pr_err("a scheduler named %.*s is registered already\n",
			       MPTCP_SCHED_NAME_MAX, ops->name);
			return -EEXIST;
		}
		if (!strncmp(ops->name, "default", MPTCP_SCHED_NAME_MAX))
			have_default = qa_is_symbol((unsigned long)tw_mptcp_sched_send(ops),
						    TW_MPTCP_SCHED_DEFAULT_SEND);
	}
	if (head->prev->next != head || !have_default) {
		pr_err("mptcp_sched_list has no intact \"default\" scheduler: refusing to load\n");
		return -EINVAL;
	}
	return 0;
}

int qa_register(void)
{
	struct list_head *head = (struct list_head *)sched_list;
	spinlock_t *lock = qa_list_lock();
	unsigned int i;
	int err;

	err = qa_check_param("sched_list", sched_list, "mptcp_sched_list");
	/* without a lock symbol, an address given for it is checked too */
	if (!err && (!qa_lock_sizeless() || sched_list_lock))
		err = qa_check_param("sched_list_lock", sched_list_lock,
				     "mptcp_sched_list_lock");
	if (err)
		return err;

	spin_lock(lock);
	err = qa_check_list(head);
	for (i = 0; !err && i < qa_nr_scheds; i++)
		list_add_tail_rcu(&qa_scheds[i].ops.list, head);
	spin_unlock(lock);
	if (!err)
		pr_info("%u schedulers registered\n", qa_nr_scheds);
	return err;
}

/*
 * Sockets that use a scheduler hold the module (ops.owner), so none is in
 * use here; a socket being created may still have found one: wait for it.
 */
void qa_unregister(void)
{
	spinlock_t *lock = qa_list_lock();
	unsigned int i;

	spin_lock(lock);
	for (i = 0; i < qa_nr_scheds; i++)
		list_del_rcu(&qa_scheds[i].ops.list);
	spin_unlock(lock);
	synchronize_rcu();
}
