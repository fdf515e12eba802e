#!/bin/bash
# Run one upstream MPTCP selftest (built by build.sh at test time) as is,
# from the build of the running kernel's series (.build/mptcp-selftests/
# SERIES): the scripts check their own kernel's behaviour, so 7.3's run
# on 7.3, 6.12's on 6.12.  Without that build the test skips, naming it.
# With --schedulers, every MPTCP scheduler of the kernel takes its turn:
# the script runs from a copy of its directory in which sched_connect.sh
# stands in for mptcp_connect and gives each run of it the next one of
# /proc/sys/net/mptcp/available_schedulers ($TW_MPTCP_SCHEDULERS, when set,
# instead: "ecf" runs everything with ecf).  The choices are printed with
# the script's output, so a failure names its schedulers.
#
# mptcp_qaware's schedulers join when the module is loaded already, or
# when its file is found ($TW_KO_DIR/mptcp-qaware/mptcp_qaware.ko, as the
# harness sets it; .build/kmod/$(uname -r) of the source tree otherwise):
# then it is loaded for the run and must unload cleanly after.
# Usage: upstream.sh [--schedulers] SCRIPT [ARGS...]
rotate=0
[ "${1:-}" = --schedulers ] && { rotate=1; shift; }
top=${TW_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
here=$(cd "$(dirname "$0")" && pwd)
series=$(uname -r | cut -d. -f1,2)
dir=$top/.build/mptcp-selftests/$series/net/mptcp
[ -x "$dir/$1" ] || {
	echo "1..0 # SKIP $1 of linux-source-$series not built here (tests/mptcp-peer/build.sh $series in the source tree, TW_ROOT)"
	exit 4
}
ko=${TW_KO_DIR:-$top/.build/kmod/$(uname -r)}/mptcp-qaware/mptcp_qaware.ko
avail=/proc/sys/net/mptcp/available_schedulers
loaded_here=0

qaware_loaded() { grep -q '^mptcp_qaware ' /proc/modules; }

# Load mptcp_qaware unless it is there; the harness always has its file.
qaware_load() {
	qaware_loaded && return 0
	if [ ! -f "$ko" ]; then
		[ -z "${TW_KO_DIR:-}" ] && return 0
		echo "Bail out! $ko not built (make modules-test)"
		exit 1
	fi
	timewire qaware load ko "$ko" >&2 ||
		{ echo "Bail out! timewire qaware load ko $ko failed"; exit 1; }
	loaded_here=1
}

# A closed MPTCP socket lets go of its scheduler a little later (RCU, the
# workqueue): retry the unload for up to 20 s.
qaware_unload() {
	local i
	for i in $(seq 40); do
		rmmod mptcp_qaware 2>/dev/null && return 0
		sleep 0.5
	done
	rmmod mptcp_qaware
}

# The script runs from a copy of the selftests' directory, symbolic links
# but for mptcp_connect, which is sched_connect.sh, with its state.
rotation_setup() {
	local scheds=${TW_MPTCP_SCHEDULERS:-$(cat "$avail")} f

	echo "# schedulers in turn: $scheds"
	state=$(mktemp -d)
	echo 0 > "$state/next"
	mkdir "$state/net"
	for f in "$dir"/../*; do
		[ "$f" -ef "$dir" ] || ln -s "$f" "$state/net/"
	done
	mkdir "$state/net/mptcp"
	for f in "$dir"/*; do ln -s "$f" "$state/net/mptcp/"; done
	ln -sf "$here/sched_connect.sh" "$state/net/mptcp/mptcp_connect"
	export TW_REAL_CONNECT=$dir/mptcp_connect TW_SCHEDS=$scheds \
		TW_SCHED_STATE=$state
	dir=$state/net/mptcp
}

state=
if [ $rotate -eq 1 ] && [ -r "$avail" ]; then
	[ "$(id -u)" -eq 0 ] && qaware_load
	rotation_setup
elif [ $rotate -eq 1 ]; then
	echo "# no MPTCP scheduler API in this kernel: its one scheduler only"
fi

# The scripts run their helpers as ./NAME and keep temporaries in /tmp.
cd "$dir" || exit 1
"$dir/$@" 9>&1
rc=$?
if [ -n "$state" ]; then
	read -r n < "$state/next"
	echo "# $n scheduler selections"
	# the rotation must have reached every scheduler at least once
	if [ "${n:-0}" -lt "$(echo "$TW_SCHEDS" | wc -w)" ]; then
		echo "# too few for the $(echo "$TW_SCHEDS" | wc -w) schedulers: the stand-in was not used"
		[ $rc -ne 0 ] || rc=1
	fi
	rm -rf "$state"
fi
if [ $loaded_here -eq 1 ] && ! qaware_unload; then
	echo "# mptcp_qaware did not unload after $1"
	rc=1
fi
exit $rc
