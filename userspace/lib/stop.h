/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stopping a run on SIGINT or SIGTERM: the signal only sets a flag, the
 * program's loops see it and wind down (cancel, collect, report).
 */
#ifndef TW_STOP_H
#define TW_STOP_H

#include <stdatomic.h>
#include <stdbool.h>

/* Set once SIGINT or SIGTERM arrived; lock-free, so a handler may set it. */
extern atomic_bool tw_stop;

/*
 * Install the handler.  Without SA_RESTART, so a blocking poll() or sleep
 * returns EINTR and the loop around it can look at tw_stop.
 */
void tw_stop_on_signals(void);

#endif /* TW_STOP_H */
