// SPDX-License-Identifier: GPL-2.0
/*
 * The schedulers' decisions (the portable core) built into the module; the
 * same source is unit tested on the host (tests/core).
 */
#include "../core/qaware.c"
