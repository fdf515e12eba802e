// SPDX-License-Identifier: GPL-2.0
#include "omware_attrs.h"

/* libnl takes non-const policies. */
struct nla_policy omware_report_policy[OMWARE_REPORT_A_MAX + 1] = {
	[OMWARE_REPORT_A_COOKIE]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_SCHED_NS]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_SENT_NS]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_LATE_NS]	= { .type = NLA_U64 },
	[OMWARE_REPORT_A_STATUS]	= { .type = NLA_U8 },
	[OMWARE_REPORT_A_RC]		= { .type = NLA_U32 },
};
