/* SPDX-License-Identifier: GPL-2.0 */
/* Client side of the qaware family of mptcp_qaware.ko. */
#ifndef TW_QAWARE_FAMILY_H
#define TW_QAWARE_FAMILY_H

#include <linux/qaware.h>

#include "lib/family.h"
#include "gen/qaware.h"

extern const struct tw_family_desc mptcp_qaware_family;

#endif /* TW_QAWARE_FAMILY_H */
