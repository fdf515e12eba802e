#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "ip" for the upstream MPTCP selftests: upstream.sh puts it first on their
# PATH under that name.  It runs the real ip ($TW_REAL_IP) and selects the
# MPTCP schedulers of $TW_SCHEDS in turn, without touching the scripts:
#
#   ip netns add NS                  NS starts with the next scheduler
#   ip netns exec NS .../mptcp_connect ...
#                                    NS gets the next one just before the
#                                    program creates its sockets
#
# net.mptcp.scheduler is per netns and read when a socket is created; a
# listener's connections keep the listener's, and the scripts start a
# connector only once its listener listens, so each mptcp_connect runs with
# the scheduler named for it.  Each choice is logged to fd 9 (the test's
# output); a scheduler that cannot be selected fails the command.
# $TW_SCHED_STATE/next counts the choices made.  POSIX sh: it runs for
# every ip the scripts call.
real=${TW_REAL_IP:?}

select_next() {	# select_next NS WHAT
	n=$(cat "$TW_SCHED_STATE/next")
	echo $((n + 1)) > "$TW_SCHED_STATE/next"
	s=$(echo "$TW_SCHEDS" | awk -v n="$n" '{ print $(n % NF + 1) }')
	if "$real" netns exec "$1" sysctl -q -w "net.mptcp.scheduler=$s"; then
		echo "# [sched] $1 $2: $s" >&9
	else
		echo "# [sched] $1 $2: cannot select $s" >&9
		return 1
	fi
}

case "$1 $2" in
"netns add")
	"$real" "$@" || exit
	[ $# -eq 3 ] || exit 0
	select_next "$3" "created"
	;;
"netns exec")
	case ${4##*/} in
	mptcp_connect) select_next "$3" "mptcp_connect" || exit 1 ;;
	esac
	exec "$real" "$@"
	;;
*)
	exec "$real" "$@"
	;;
esac
