// SPDX-License-Identifier: GPL-2.0
/*
 * The portable core (time queue, adaptive guard) built into the
 * module; the same sources are unit tested on the host.
 */
#include "../core/timeq.c"
#include "../core/guard.c"
