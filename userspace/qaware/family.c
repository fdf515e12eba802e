// SPDX-License-Identifier: GPL-2.0
/* The qaware family, as the CLI connects to it. */
#include "family.h"

const struct tw_family_desc mptcp_qaware_family = {
	.module = "mptcp_qaware",
	.family = QAWARE_FAMILY_NAME,
	.version = QAWARE_FAMILY_VERSION,
	.attrs = &qaware_attr_set,
	.reusable = true,
};
