/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The omware family's tables for clients: attribute names (for naming the
 * attribute a kernel error blames), parse policies of the replies, output
 * keys of the statistics and the words of its enums.  They follow
 * Documentation/netlink/specs/omware.yaml.
 */
#ifndef TW_OMWARE_ATTRS_H
#define TW_OMWARE_ATTRS_H

#include <linux/omware.h>
#include <netlink/attr.h>

#include "lib/args.h"
#include "lib/nl.h"

/* The root attribute set, its nests included. */
extern const struct tw_attr_set omware_attr_set;

/* libnl takes non-const policies. */
extern struct nla_policy omware_attr_policy[OMWARE_A_MAX + 1];
extern struct nla_policy omware_pkt_policy[OMWARE_PKT_A_MAX + 1];
extern struct nla_policy omware_report_policy[OMWARE_REPORT_A_MAX + 1];
extern struct nla_policy omware_stats_policy[OMWARE_STATS_A_MAX + 1];

/* Output key of each statistics counter, e.g. "dropped_xmit". */
extern const char *const omware_stats_keys[OMWARE_STATS_A_MAX + 1];

/* enum omware_mode, omware_xmit and omware_status as words. */
extern const struct tw_keyword omware_mode_words[];
extern const struct tw_keyword omware_xmit_words[];
extern const struct tw_keyword omware_status_words[];

#endif /* TW_OMWARE_ATTRS_H */
