# shellcheck shell=bash
# Helpers shared by the omware guest tests (sourced after ../lib/tap.sh).

here=$(cd "$(dirname "$0")" && pwd)
TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
OMW_NL=$here/omware_ctl
# shellcheck disable=SC2034	# used by the scripts that source this
OMW_KO=${TW_KO_DIR:-$TW_ROOT}/omware/omware.ko

# Skip or bail out before any test when the suite cannot run at all.
omw_require() {
	[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
	command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
	if [ ! -x "$OMW_NL" ]; then
		echo "Bail out! $OMW_NL not built (make -C tests/omware)"
		exit "$KSFT_FAIL"
	fi
	"$OMW_NL" state >/dev/null 2>&1
	[ $? -ne "$KSFT_SKIP" ] || tap_skip_all "omware module not loaded"
}

# omw_state FIELD: one number from "omware_ctl state"
# (sessions, pending, submitted, sent, cancelled, dropped_down).
omw_state() {
	"$OMW_NL" state 2>/dev/null |
		awk -v k="$1" 'NR == 1 { for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }'
}

# omw_wait SECONDS COMMAND...: retry COMMAND every 0.1 s until it succeeds.
omw_wait() {
	local n=$(($1 * 10))
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# The network (topo_ns, topo_veth; topo_cleanup removes it).
# shellcheck source=tests/lib/topo.sh
. "$here/../lib/topo.sh"

# omw_veth DEV NS PEER [ID]: DEV here, PEER in a new namespace NS, their
# MAC addresses after ID; no IPv6 chatter on the link under test.
omw_veth() {
	local mac

	mac=02:6f:77:01:$(printf %02x "${4:-1}")
	topo_ns "$2" && topo_veth - "$1" "$2" "$3" mac "$mac:01" "$mac:02" noipv6
}

# The kernel log checks: tw_kmsg_mark, tw_kmsg_clean, tw_kmemleak.
# shellcheck source=tests/lib/kmsg.sh
. "$here/../lib/kmsg.sh"

# omw_hold OUTFILE DEV COUNT: start a session holder in the background,
# set omw_hold_pid, wait until its packets are queued.
omw_hold() {
	"$OMW_NL" hold --dev "$2" --count "$3" --ahead-ms 600000 > "$1" 2>&1 &
	omw_hold_pid=$!
	omw_wait 120 omw_holder_ready "$1" "$omw_hold_pid"
	# whatever else it said (errors) goes to the TAP log as comments
	grep -v '^ready' "$1" | sed 's/^#*/#/'
	grep -q '^ready' "$1"
}

# Ready, or dead: waiting longer would not help.
omw_holder_ready() {	# omw_holder_ready OUTFILE PID
	grep -q '^ready' "$1" || ! kill -0 "$2" 2>/dev/null
}

omw_kill() {	# omw_kill PID [SIGNAL]
	kill "-${2:-KILL}" "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}
