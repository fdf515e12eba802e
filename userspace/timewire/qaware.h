/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "timewire qaware": the MPTCP schedulers of mptcp_qaware.ko.
 */
#ifndef TW_CLI_QAWARE_H
#define TW_CLI_QAWARE_H

#include "lib/args.h"
#include "qaware/client.h"

extern const struct tw_object mptcp_qaware_object;

/* qaware_load.c */
extern const struct tw_cmd qaware_load_cmd;
extern const struct tw_cmd qaware_unload_cmd;

#endif /* TW_CLI_QAWARE_H */
