#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "mptcp_connect" for the upstream MPTCP selftests: upstream.sh runs a
# script from a copy of its directory (symbolic links) in which this file
# takes the program's name.  Each run selects the next scheduler of
# $TW_SCHEDS in the network namespace it was started in, then becomes the
# real program ($TW_REAL_CONNECT).  net.mptcp.scheduler is per netns and
# read when a socket is created; a listener's connections keep the
# listener's, and the scripts start a connector once its listener listens
# (after a bounded wait), so each side of each connection runs with the scheduler named
# for it.  Each choice is logged to fd 9 (the test's output); a scheduler
# that cannot be selected fails the program.  $TW_SCHED_STATE/next counts
# the choices made.  POSIX sh with builtins only: it runs for every
# connection, and a process costs tens of ms in an emulated guest.
real=${TW_REAL_CONNECT:?}
knob=${TW_SCHED_SYSCTL:-/proc/sys/net/mptcp/scheduler}

# nth N WORD...: sets sched to WORD number N modulo their count, from 0.
nth() {
	i=$(($1 % ($# - 1)))
	shift
	while [ "$i" -gt 0 ]; do
		shift
		i=$((i - 1))
	done
	sched=$1
}

# Runs do not overlap when the script waits for its listener, as it
# does; if one did, a count read while being written is taken as 0.
read -r n < "$TW_SCHED_STATE/next"
n=${n:-0}
echo $((n + 1)) > "$TW_SCHED_STATE/next"
# shellcheck disable=SC2086 # one word per scheduler
nth "$n" $TW_SCHEDS
if ! { echo "$sched" > "$knob"; } 2>/dev/null; then
	echo "# [sched] mptcp_connect $*: cannot select $sched" >&9
	exit 1
fi
echo "# [sched] mptcp_connect $*: $sched" >&9
exec "$real" "$@"
