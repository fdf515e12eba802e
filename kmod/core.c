// SPDX-License-Identifier: GPL-2.0
/*
 * The portable core (the forwarding table and the worker pick) built into
 * the module; the same sources are unit tested on the host.
 */
#include "../core/tfib.c"
#include "../core/pick.c"
