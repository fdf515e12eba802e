// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarder of a bound table.  Not written yet: binding is refused.
 */
#include "tfib.h"

int tfib_fwd_table_init(struct tfib_table *t)
{
	return 0;
}

void tfib_fwd_table_fini(struct tfib_table *t)
{
}

int tfib_fwd_bind(struct tfib_table *t, struct net_device *dev,
		  const struct tfib_bind_cfg *cfg,
		  struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "forwarding is not available yet");
	return -EOPNOTSUPP;
}

void tfib_fwd_unbind(struct tfib_table *t)
{
}

struct net_device *tfib_fwd_dev(const struct tfib_table *t)
{
	return NULL;
}

int tfib_fwd_fill_binding(struct sk_buff *msg, const struct tfib_table *t)
{
	return 0;
}

int tfib_fwd_fill_counters(struct sk_buff *msg, const struct tfib_table *t)
{
	return 0;
}

int tfib_fwd_fill_detail(struct sk_buff *msg, const struct tfib_table *t)
{
	return 0;
}
