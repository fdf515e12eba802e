/* SPDX-License-Identifier: GPL-2.0 */
/* Client side of the tfib family. */
#ifndef TW_TFIB_FAMILY_H
#define TW_TFIB_FAMILY_H

#include <linux/tfib.h>

#include "lib/family.h"
#include "gen/tfib.h"

extern const struct tw_family_desc tfib_family;

#endif /* TW_TFIB_FAMILY_H */
