/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "timewire omware": the commands of the object, one file per group.
 */
#ifndef TW_CLI_OMWARE_H
#define TW_CLI_OMWARE_H

#include "lib/args.h"

extern const struct tw_object omware_object;

/* omware_send.c */
extern const struct tw_cmd omware_send_cmd;
extern const struct tw_cmd omware_train_cmd;
extern const struct tw_cmd omware_pair_cmd;

/* omware_show.c */
extern const struct tw_cmd omware_show_cmd;
extern const struct tw_cmd omware_flush_cmd;
extern const struct tw_cmd omware_cancel_cmd;

#endif /* TW_CLI_OMWARE_H */
