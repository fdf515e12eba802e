/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stopping a run on SIGINT or SIGTERM: the signal only sets a flag, the
 * program's loops see it and wind down (cancel, collect, report).
 */
#ifndef TW_STOP_H
#define TW_STOP_H

#include <signal.h>

/* Set once SIGINT or SIGTERM arrived. */
extern volatile sig_atomic_t tw_stop;

/*
 * Install the handler.  Without SA_RESTART, so a blocking poll() or sleep
 * returns EINTR and the loop around it can look at tw_stop.
 */
void tw_stop_on_signals(void);

#endif /* TW_STOP_H */
