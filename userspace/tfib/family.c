// SPDX-License-Identifier: GPL-2.0
/* The tfib family, as the CLI and the tools connect to it. */
#include "family.h"

const struct tw_family_desc tfib_family = {
	.module = "tfib",
	.family = TFIB_FAMILY_NAME,
	.version = TFIB_FAMILY_VERSION,
	.attrs = &tfib_attr_set,
	.reusable = true,
};
