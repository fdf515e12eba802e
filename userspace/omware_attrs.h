/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing policies of the omware family's replies, shared by every tool. */
#ifndef TIMEWIRE_OMWARE_ATTRS_H
#define TIMEWIRE_OMWARE_ATTRS_H

#include <netlink/attr.h>
#include <linux/omware.h>

extern struct nla_policy omware_report_policy[OMWARE_REPORT_A_MAX + 1];

#endif
