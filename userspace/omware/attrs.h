/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The omware family's tables for clients: attribute names (for naming the
 * attribute a kernel error blames), parse policies of the replies, output
 * keys of the attributes and the words of its enums.  Generated from
 * Documentation/netlink/specs/omware.yaml by scripts/nlgen.py at build
 * time (userspace/gen/omware.h lists them), so they cannot drift from it.
 */
#ifndef TW_OMWARE_ATTRS_H
#define TW_OMWARE_ATTRS_H

#include "gen/omware.h"

#endif /* TW_OMWARE_ATTRS_H */
