/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of tfib.ko, the timely forwarding table.
 *
 * Two halves meet here: the tables and their netlink API (main.c, table.c,
 * netlink.c), and the forwarder that a binding runs (fwd.c; netlink-fill.c
 * reports it).  The table side owns every struct tfib_table and calls into
 * the forwarder under tfib_lock; the forwarder never frees a table.
 */
#ifndef _TFIB_INTERNAL_H
#define _TFIB_INTERNAL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <tw/compat.h>

#include <uapi/linux/tfib.h>

#include "../core/tfib.h"

/* A table's name with its terminating NUL; a device's fits too. */
#define TFIB_NAME_LEN	(TFIB_NAME_MAX_LEN + 1)
static_assert(TFIB_NAME_LEN == IFNAMSIZ);

struct tfib_fwd;		/* a binding: fwd.c's own */
struct tfib_fwd_counters;	/* the forwarder's per-CPU counters */

/* A named table of one network namespace. */
struct tfib_table {
	struct list_head node;		/* in its namespace's list */
	struct net *net;		/* not counted: tables die with it */
	char name[TFIB_NAME_LEN];
	struct tw_tfib *fib;
	struct tw_tfib_config cfg;
	u64 bytes;			/* charged: tw_tfib_mem_size() */
	clockid_t clockid;		/* of the tuples' timestamps */
	/* The binding, or NULL: written under tfib_lock. */
	struct tfib_fwd *fwd;
	/* Kept across bindings: allocated by tfib_fwd_table_init(). */
	struct tfib_fwd_counters *counters;
	/* Threads of the binding, charged to max_threads. */
	u32 threads;
};

/* The forwarder's settings, from TFIB_CMD_BIND with defaults filled in. */
struct tfib_bind_cfg {
	u8 mode;		/* enum tfib_fwd_mode */
	u8 pick;		/* enum tfib_pick */
	u32 workers;
	u32 control_ring;
	u32 data_ring;
	u32 burst;
	/*
	 * Accepted sources of control packets; any when there are none.
	 * ether_addr_equal() wants each u16-aligned.
	 */
	u8 control_src[TFIB_MAX_CONTROL_SRC][ETH_ALEN] __aligned(2);
	u8 n_control_src;
};

/* Serialises every change of tables and bindings, in all namespaces. */
extern struct mutex tfib_lock;

/* The current time on a table's clock, in ns. */
static inline u64 tfib_table_now(const struct tfib_table *t)
{
	return tw_clock_ns(t->clockid);
}

/*
 * The forwarder (fwd.c).  All but the counters' own updates run under
 * tfib_lock and may sleep.
 */

/* Allocate and free t->counters (at table creation and destruction). */
int tfib_fwd_table_init(struct tfib_table *t);
void tfib_fwd_table_fini(struct tfib_table *t);

/*
 * A binding in two steps, so that what may take long runs without RTNL:
 * tfib_fwd_create() allocates the rings and starts the threads (named
 * after @ifindex), with no lock held; tfib_fwd_attach() gives it to table
 * t, which is unbound, and starts forwarding what dev receives, under RTNL
 * and tfib_lock (so that dev cannot leave t's namespace meanwhile).  The
 * binding holds its own reference on dev.  tfib_fwd_destroy() frees a
 * binding that was not attached.
 */
struct tfib_fwd *tfib_fwd_create(const struct tfib_bind_cfg *cfg, int ifindex,
				 struct netlink_ext_ack *extack);
void tfib_fwd_attach(struct tfib_table *t, struct tfib_fwd *fwd,
		     struct net_device *dev);
void tfib_fwd_destroy(struct tfib_fwd *fwd);
/*
 * Stop forwarding and free the binding: on return no packet handler and
 * no worker of it runs any more, packets on its rings are freed, and t may
 * be destroyed.  Nothing when t is unbound.
 */
void tfib_fwd_unbind(struct tfib_table *t);
/*
 * The bound device was renamed (NETDEV_CHANGENAME, under RTNL and
 * tfib_lock): replies name it from a copy, as dev->name may change under
 * a reader that holds tfib_lock alone.
 */
void tfib_fwd_renamed(struct tfib_table *t);
/* The device t is bound to, or NULL. */
struct net_device *tfib_fwd_dev(const struct tfib_table *t);

/*
 * Replies (netlink-fill.c, called under tfib_lock).
 * tfib_fwd_fill_binding() puts the binding's TABLE_GET attributes (nothing
 * when unbound); tfib_fwd_fill_counters() puts the forwarder's counters,
 * TFIB_STATS_A_RX and after, into the open TFIB_A_STATS nest;
 * tfib_fwd_fill_detail() puts the rings, the histograms and, with
 * @workers, a nest per thread after it.  -EMSGSIZE when msg is full.  The
 * _size() functions say how much room the last two need.
 */
int tfib_fwd_fill_binding(struct sk_buff *msg, const struct tfib_table *t);
int tfib_fwd_fill_counters(struct sk_buff *msg, const struct tfib_table *t);
int tfib_fwd_fill_detail(struct sk_buff *msg, const struct tfib_table *t,
			 bool workers);
size_t tfib_fwd_counters_size(void);
size_t tfib_fwd_detail_size(const struct tfib_table *t, bool workers);

/*
 * The table side (main.c, table.c, netlink.c).  Everything here but
 * tfib_table_now() runs under tfib_lock.  The netdev notifier calls
 * tfib_fwd_dev() and tfib_fwd_unbind() with RTNL held as well (tfib_lock
 * nests inside RTNL), so the forwarder never takes RTNL under tfib_lock.
 */

/* A network namespace's tables, kept sorted by name. */
struct tfib_net {
	struct list_head tables;
	struct list_head node;		/* on tfib_nets */
};

/* Module parameters: caps over all namespaces. */
extern unsigned int tfib_max_tables;
extern unsigned int tfib_max_entries;
extern unsigned long tfib_max_bytes;
/* Bytes (truesize) of packets a ring of a new binding may hold. */
extern unsigned long tfib_ring_bytes;
/* Threads of all bindings, all namespaces. */
extern unsigned int tfib_max_threads;
/*
 * Bound tables, all namespaces.  Changed under tfib_lock; it leaves zero
 * only in a bind, which holds RTNL too, so the netdev notifier (under
 * RTNL) may read it without tfib_lock.
 */
extern unsigned int tfib_nbound;

struct tfib_net *tfib_net(const struct net *net);
void tfib_net_init(struct tfib_net *tn);
/* Destroy every table of @tn, or of every namespace. */
void tfib_net_destroy_tables(struct tfib_net *tn);
void tfib_destroy_all(void);

struct tfib_table *tfib_table_find(struct net *net, const char *name);
/* The first table named after @name (every table when @name is ""). */
struct tfib_table *tfib_table_next(struct net *net, const char *name);
/*
 * A cap on entries or bytes that refuses the table blames @capacity (the
 * request's TFIB_A_CAPACITY) in the ack.
 */
struct tfib_table *tfib_table_create(struct net *net, const char *name,
				     const struct tw_tfib_config *cfg,
				     clockid_t clockid,
				     const struct nlattr *capacity,
				     struct netlink_ext_ack *extack);
void tfib_table_destroy(struct tfib_table *t);
/*
 * Reserve a binding's @n threads under max_threads before making them
 * (-ENOSPC, blaming @attr), and give them back if it is not attached.
 */
int tfib_threads_reserve(u32 n, const struct nlattr *attr,
			 struct netlink_ext_ack *extack);
void tfib_threads_release(u32 n);
/* Attach @fwd, with its @threads reserved, to @t (tfib_fwd_attach()). */
void tfib_table_bind(struct tfib_table *t, struct tfib_fwd *fwd,
		     struct net_device *dev, u32 threads);
/* Unbind @t (tfib_fwd_unbind()) and release its threads. */
void tfib_table_unbind(struct tfib_table *t);
/*
 * The table bound to @dev, or NULL.  Searched in every namespace: a
 * binding whose device left its table's namespace must still be found.
 */
struct tfib_table *tfib_table_of_dev(const struct net_device *dev);

/* netlink.c */
int tfib_nl_init(void);
void tfib_nl_exit(void);

#endif /* _TFIB_INTERNAL_H */
