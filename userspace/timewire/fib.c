// SPDX-License-Identifier: GPL-2.0
/* "timewire fib": the timely forwarding table (commands being built). */
#include "modules.h"

static const struct tw_cmd *const fib_cmds[] = {
	NULL,
};

const struct tw_object tfib_object = {
	.name = "fib",
	.cmds = fib_cmds,
};
