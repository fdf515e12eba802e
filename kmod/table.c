// SPDX-License-Identifier: GPL-2.0
/*
 * The tables: named objects of a network namespace, each holding one
 * forwarding table of the core (tfib.c) and, while bound, a forwarder.
 * Everything here runs under tfib_lock, which also keeps a table alive
 * for whoever found it.
 */
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "internal.h"

/* Every namespace's struct tfib_net, for module unload. */
static LIST_HEAD(tfib_nets);
/* What the caps count, all namespaces. */
static unsigned int tfib_ntables;
static u64 tfib_nentries;
static u64 tfib_nbytes;
static u64 tfib_nthreads;
unsigned int tfib_nbound;

void tfib_net_init(struct tfib_net *tn)
{
	INIT_LIST_HEAD(&tn->tables);
	list_add(&tn->node, &tfib_nets);
}

void tfib_net_destroy_tables(struct tfib_net *tn)
{
	struct tfib_table *t, *tmp;

	list_for_each_entry_safe(t, tmp, &tn->tables, node)
		tfib_table_destroy(t);
}

void tfib_destroy_all(void)
{
	struct tfib_net *tn;

	list_for_each_entry(tn, &tfib_nets, node)
		tfib_net_destroy_tables(tn);
	WARN_ON(tfib_ntables || tfib_nentries || tfib_nbytes ||
		tfib_nthreads || tfib_nbound);
}

struct tfib_table *tfib_table_find(struct net *net, const char *name)
{
	struct tfib_table *t;

	list_for_each_entry(t, &tfib_net(net)->tables, node)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

struct tfib_table *tfib_table_next(struct net *net, const char *name)
{
	struct tfib_table *t;

	list_for_each_entry(t, &tfib_net(net)->tables, node)
		if (strcmp(t->name, name) > 0)
			return t;
	return NULL;
}

struct tfib_table *tfib_table_of_dev(const struct net_device *dev)
{
	struct tfib_net *tn;
	struct tfib_table *t;

	list_for_each_entry(tn, &tfib_nets, node)
		list_for_each_entry(t, &tn->tables, node)
			if (tfib_fwd_dev(t) == dev)
				return t;
	return NULL;
}

/* Room under the module's caps for table @t? */
static int tfib_charge(const struct tfib_table *t,
		       const struct nlattr *cap_attr,
		       struct netlink_ext_ack *extack)
{
	u32 capacity = t->cfg.capacity;
	u64 bytes = t->bytes;
	unsigned int max_tables = READ_ONCE(tfib_max_tables);
	unsigned int max_entries = READ_ONCE(tfib_max_entries);
	unsigned long max_bytes = READ_ONCE(tfib_max_bytes);

	if (tfib_ntables >= max_tables) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "module cap reached: max_tables=%u",
				       max_tables);
		return -ENOSPC;
	}
	if (tfib_nentries + capacity > max_entries) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "capacity over what max_entries=%u leaves: %llu",
				       max_entries,
				       max_entries > tfib_nentries ?
				       max_entries - tfib_nentries : 0);
		NL_SET_BAD_ATTR(extack, cap_attr);
		return -ENOSPC;
	}
	if (tfib_nbytes + bytes > max_bytes) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "table over max_bytes: %llu bytes left",
				       max_bytes > tfib_nbytes ?
				       max_bytes - tfib_nbytes : 0);
		NL_SET_BAD_ATTR(extack, cap_attr);
		return -ENOSPC;
	}
	tfib_ntables++;
	tfib_nentries += capacity;
	tfib_nbytes += bytes;
	return 0;
}

static void tfib_uncharge(const struct tfib_table *t)
{
	tfib_ntables--;
	tfib_nentries -= t->cfg.capacity;
	tfib_nbytes -= t->bytes;
}

/* In name order, so that dumps can resume after the last name sent. */
static void tfib_table_link(struct tfib_net *tn, struct tfib_table *t)
{
	struct tfib_table *pos;

	list_for_each_entry(pos, &tn->tables, node) {
		if (strcmp(pos->name, t->name) > 0) {
			list_add_tail(&t->node, &pos->node);
			return;
		}
	}
	list_add_tail(&t->node, &tn->tables);
}

/*
 * A new table @name of @net; its name is free.  The caller has checked
 * @cfg against the policy; the core checks it again.
 */
struct tfib_table *tfib_table_create(struct net *net, const char *name,
				     const struct tw_tfib_config *cfg,
				     clockid_t clockid,
				     const struct nlattr *capacity,
				     struct netlink_ext_ack *extack)
{
	struct tfib_table *t;
	int err;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->net = net;
	strscpy(t->name, name);
	t->cfg = *cfg;
	t->cfg.seed = get_random_u32();
	t->clockid = clockid;
	t->bytes = tw_tfib_mem_size(cfg);
	err = tfib_charge(t, capacity, extack);
	if (err)
		goto err_free;
	err = tw_tfib_create(&t->fib, &t->cfg);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the table's memory");
		goto err_charge;
	}
	err = tfib_fwd_table_init(t);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the table's counters");
		goto err_fib;
	}
	tfib_table_link(tfib_net(net), t);
	return t;

err_fib:
	tw_tfib_destroy(t->fib);
err_charge:
	tfib_uncharge(t);
err_free:
	kfree(t);
	return ERR_PTR(err);
}

int tfib_threads_reserve(u32 n, const struct nlattr *attr,
			 struct netlink_ext_ack *extack)
{
	unsigned int max = READ_ONCE(tfib_max_threads);

	if (tfib_nthreads + n > max) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "threads over what max_threads=%u leaves: %llu",
				       max, max > tfib_nthreads ?
				       max - tfib_nthreads : 0);
		NL_SET_BAD_ATTR(extack, attr);
		return -ENOSPC;
	}
	tfib_nthreads += n;
	return 0;
}

void tfib_threads_release(u32 n)
{
	tfib_nthreads -= n;
}

void tfib_table_bind(struct tfib_table *t, struct tfib_fwd *fwd,
		     struct net_device *dev, u32 threads)
{
	tfib_fwd_attach(t, fwd, dev);
	t->threads = threads;
	WRITE_ONCE(tfib_nbound, tfib_nbound + 1);
}

void tfib_table_unbind(struct tfib_table *t)
{
	if (!tfib_fwd_dev(t))
		return;
	tfib_fwd_unbind(t);
	tfib_threads_release(t->threads);
	t->threads = 0;
	WRITE_ONCE(tfib_nbound, tfib_nbound - 1);
}

/* Unbind, then free: no forwarder reads the table any more. */
void tfib_table_destroy(struct tfib_table *t)
{
	list_del(&t->node);
	tfib_table_unbind(t);
	tw_tfib_destroy(t->fib);
	tfib_fwd_table_fini(t);
	tfib_uncharge(t);
	kfree(t);
}
