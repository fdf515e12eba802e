// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire omware": drive the omware pre-dispatch sender.  The commands
 * live in omware_send.c (send, train, pair) and omware_show.c (show,
 * flush, cancel).
 */
#include "omware_cli.h"

static const struct tw_cmd *const omware_cmds[] = {
	&omware_send_cmd,
	&omware_train_cmd,
	&omware_pair_cmd,
	&omware_show_cmd,
	&omware_flush_cmd,
	&omware_cancel_cmd,
	NULL,
};

const struct tw_object omware_object = {
	.name = "omware",
	.cmds = omware_cmds,
	.dflt = "show",
};
