// SPDX-License-Identifier: GPL-2.0
/*
 * The one stop flag of the timewire programs.
 */
#include <signal.h>
#include <string.h>

#include "stop.h"

atomic_bool tw_stop;

static void on_signal(int sig)
{
	(void)sig;
	tw_stop = true;
}

void tw_stop_on_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
