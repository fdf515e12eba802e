#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The XDP peer of the forwarder (bench/tfib/tfib_xdp.bpf.c, loaded by
# tw-tfib-xdp): packets one at a time with every header field checked, its
# map and counters exact, the same with the control packets handled in
# user space (--user-control, tw-tfib-xdp serve), then tw-tfib-source
# through it for about 2 s and tw-tfib-analyze's records checked for
# consistency as fwd_aoi.sh does (fwd_aoi.sh runs xdp-user through
# tw-tfib-bench).
#
#   netns src: s0 (xdp_pkt.py, tw-tfib-source) ---veth--- f0 :netns fwd
#              tfib_xdp_pass (native)                     tfib_xdp
#
# veth takes a native XDP_TX frame from f0 only while s0 runs NAPI, which
# an XDP program on s0 turns on: the pass-through one.  Generic mode needs
# none.  Skipped (never passed) where tw-tfib-xdp cannot be built: no
# clang, libbpf-dev or bpftool on the host.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/topo.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
tools=$TW_ROOT/bench/tfib
xdp=$tools/tw-tfib-xdp
pkt=$here/xdp_pkt.py
ns_src=xdp-src-$$
ns_fwd=xdp-fwd-$$
out=
server=

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
if [ ! -x "$xdp" ] || [ ! -x "$tools/tw-tfib-source" ]; then
	# A guest given the programs built elsewhere (a foreign one) has no
	# make to ask why: the tools built without it is the same verdict.
	[ -x "$tools/tw-tfib-source" ] && ! command -v make >/dev/null &&
		tap_skip_all "tw-tfib-xdp not built"
	why=$(make -s -C "$TW_ROOT/bench" 2>&1)
	case $why in
	*"tw-tfib-xdp not built"*) tap_skip_all "$why" ;;
	esac
	[ -x "$xdp" ] && [ -x "$tools/tw-tfib-source" ] ||
		{ echo "Bail out! tw-tfib-xdp not built: $why"; exit "$KSFT_FAIL"; }
fi

cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	topo_cleanup
	[ -n "$out" ] && rm -rf "$out"
}
trap cleanup EXIT

in_src() { ip netns exec "$ns_src" "$@"; }
in_fwd() { ip netns exec "$ns_fwd" "$@"; }
mac_of() { ip netns exec "$1" cat "/sys/class/net/$2/address"; }

topology() { topo_ns "$ns_src" "$ns_fwd" && topo_veth "$ns_src" s0 "$ns_fwd" f0; }

# The forwarder on f0 (native, the peer passing) or generic (no peer).
attach() {	# attach native|generic [tw-tfib-xdp attach options]
	local mode=$1
	shift
	in_fwd "$xdp" detach f0 2>/dev/null
	in_src "$xdp" detach s0 2>/dev/null
	if [ "$mode" = native ]; then
		in_src "$xdp" attach s0 --pass >/dev/null || return 1
		in_fwd "$xdp" attach f0 "$@" >/dev/null
	else
		in_fwd "$xdp" attach f0 --generic "$@" >/dev/null
	fi
}

# One update packet from s0 to the forwarder, and what must come back.
# It leaves from an address of its own: the forwarder drops an app update
# whose next hop (s0, the sink) is its sender.
send() { in_src "$pkt" s0 "$fwd_mac" --src "$tx_mac" "$@"; }

control() {	# control USER SEQ ADDR_NS MAC
	send --set type=1 --set user="$1" --set seq="$2" --set addr_ns="$3" \
		--set mac="$4"
}

tuple_is() {	# tuple_is USER MAC TS SEQ
	local got want="user $1 mac $2 ts_ns $3 seq $4"

	got=$(in_fwd "$xdp" get f0 "$1") || return 1
	[ "$got" = "$want" ] || { echo "# got:  $got"; echo "# want: $want"; return 1; }
}

stats_are() {	# stats_are "name value ..." (every counter)
	local got
	got=$(in_fwd "$xdp" stats f0 | tr '\n' ' ')
	[ "$got" = "$1 " ] || { echo "# counters: $got"; echo "# want:     $1"; return 1; }
}

# Control packets, then data packets checked field by field.
packets() {
	tap_ok "a control packet sets its user's tuple exactly" \
		eval 'control 7 5 123456789 "$sink_mac" &&
		      tuple_is 7 "$sink_mac" 123456789 5'
	tap_ok "a data packet comes back from the tuple, every field exact" \
		send --set user=7 --set seq=9 --set flags=0x1234 \
		--set send_ns=42 --set payload=deadbeef \
		--expect dst="$sink_mac" --expect src="$fwd_mac" \
		--expect version=2 --expect type=2 --expect flags=0x1234 \
		--expect user=7 --expect seq=9 --expect addr_seq=5 \
		--expect send_ns=42 --expect addr_ns=123456789 \
		--expect mac=00:00:00:00:00:00 --expect hop_limit=15 \
		--expect reserved=0 \
		--expect payload=deadbeef --expect len=58
	tap_ok "a later control packet replaces the tuple" \
		eval 'control 7 6 223456789 "$sink_mac" &&
		      send --set user=7 --set seq=10 --expect addr_seq=6 \
			--expect addr_ns=223456789 --expect dst="$sink_mac"'
	tap_ok "a multicast next hop is dropped, the tuple kept" \
		eval 'control 7 7 1 01:00:5e:00:00:01 &&
		      tuple_is 7 "$sink_mac" 223456789 6'
	tap_ok "a zero next hop is dropped, the tuple kept" \
		eval 'control 7 8 1 00:00:00:00:00:00 &&
		      tuple_is 7 "$sink_mac" 223456789 6'
}

malformed() {
	tap_ok "a short packet is dropped" \
		send --set user=7 --set seq=11 --len 30 --expect-none
	tap_ok "another version is dropped" \
		send --set version=1 --set user=7 --set seq=12 --expect-none
	tap_ok "an unknown type is dropped" \
		send --set type=3 --set user=7 --set seq=13 --expect-none
	tap_ok "a data packet of an unknown user is dropped" \
		send --set user=99 --set seq=14 --expect-none
	tap_ok "a frame for another host passes, not counted" \
		send --dst 02:00:00:00:00:99 --set user=7 --set seq=15 \
		--expect-none
	tap_ok "a data packet with hop limit 1 is dropped" \
		send --set user=7 --set seq=16 --set hop_limit=1 --expect-none
	tap_ok "a broadcast data packet is dropped" \
		send --dst ff:ff:ff:ff:ff:ff --set user=7 --set seq=17 \
		--expect-none
	tap_ok "a data packet whose next hop is its sender is dropped" \
		eval 'control 8 1 1 "$tx_mac" &&
		      send --set user=8 --set seq=18 --expect-none'
	# rx: 5 control, 4 data, short, version, type, hop limit, broadcast
	tap_ok "the counters count each packet once, where it ended" \
		stats_are "rx 14 rx_control 5 rx_data 4 forwarded 2 drop_short 1 drop_version 1 drop_type 1 drop_no_entry 1 drop_hop_limit 1 drop_loop 1 drop_group 1 drop_table_full 0 drop_bad_mac 2 drop_control_queue 0"
}

# until_ok CMD...: CMD passes within 5 s (the process writes the map a
# moment after the packet arrives).
until_ok() {
	local i

	for i in $(seq 50); do
		"$@" >/dev/null && return 0
		sleep 0.1
	done
	"$@"
}

# The forwarder passing control packets, and serve writing the map; the
# map holds ENTRIES users.
serve_start() {	# serve_start ENTRIES
	attach native --user-control -e "$1" || return 1
	# not through in_fwd: $! must be the server itself (ip netns exec execs)
	ip netns exec "$ns_fwd" "$xdp" serve f0 > "$out/serve.out" 2>&1 &
	server=$!
	until_ok grep -qx "serving f0" "$out/serve.out"
}

serve_stop() {
	kill -TERM "$server" && wait "$server"
	local rc=$?
	server=
	return $rc
}

# Control packets in user space, one at a time.
user_control() {
	# still the program of packets(): it sets the map itself
	tap_ok "serve refuses a program attached without --user-control" \
		eval 'in_fwd timeout 10 "$xdp" serve f0 2>&1 |
		      grep -q "attach it with --user-control"'
	tap_ok "user control: attach --user-control, serve opens its socket" \
		serve_start 2
	tap_ok "user control: a control packet sets the tuple through serve" \
		eval 'control 7 5 123456789 "$sink_mac" &&
		      until_ok tuple_is 7 "$sink_mac" 123456789 5'
	tap_ok "user control: a data packet comes back from that tuple" \
		send --set user=7 --set seq=9 --expect addr_seq=5 \
		--expect addr_ns=123456789 --expect dst="$sink_mac" \
		--expect src="$fwd_mac"
	tap_ok "user control: a multicast next hop is dropped, the tuple kept" \
		eval 'control 7 6 1 01:00:5e:00:00:01 &&
		      until_ok eval "in_fwd \"\$xdp\" stats f0 | grep -qx \"drop_bad_mac 1\"" &&
		      tuple_is 7 "$sink_mac" 123456789 5'
	tap_ok "user control: a full map refuses the third user" \
		eval 'control 1 1 1000 "$sink_mac" && control 2 1 1000 "$sink_mac" &&
		      until_ok eval "in_fwd \"\$xdp\" stats f0 | grep -qx \"drop_table_full 1\"" &&
		      tuple_is 1 "$sink_mac" 1000 1'
	tap_ok "user control: SIGTERM ends serve, which counts what it did" \
		eval 'serve_stop && grep -qx "applied 2" "$out/serve.out" &&
		      grep -qx "drop_bad_mac 1" "$out/serve.out"'
	# rx: 4 control, 1 data
	tap_ok "user control: the counters count each packet once" \
		stats_are "rx 5 rx_control 4 rx_data 1 forwarded 1 drop_short 0 drop_version 0 drop_type 0 drop_no_entry 0 drop_hop_limit 0 drop_loop 0 drop_group 0 drop_table_full 1 drop_bad_mac 1 drop_control_queue 0"
}

# Generic mode, a map of one entry: full for a second user.
generic() {
	tap_ok "generic mode, a full map: the new user's control dropped" \
		eval 'attach generic -e 1 &&
		      control 1 1 1000 "$sink_mac" && control 2 1 1000 "$sink_mac" &&
		      in_fwd "$xdp" stats f0 | grep -qx "drop_table_full 1"'
	tap_ok "generic mode forwards without a program on the peer" \
		send --set user=1 --set seq=1 --expect addr_seq=1 \
		--expect addr_ns=1000 --expect src="$fwd_mac"
	tap_ok "detach leaves both devices without XDP" \
		eval 'in_fwd "$xdp" detach f0 &&
		      ! in_fwd ip link show f0 | grep -q prog/xdp &&
		      ! in_src ip link show s0 | grep -q prog/xdp'
}

# tw-tfib-source through the forwarder, about 2 s at 2000 pps.
aoi_run() {	# aoi_run DIR
	attach native -e 1024 &&
	in_fwd "$xdp" set f0 1-100 "$sink_mac" &&
	in_src "$tools/tw-tfib-source" -q -i s0 -d "$fwd_mac" -o "$1" \
		-r 2000 -n 4000 -u 100 -c 0.1 -s 3 --label fwd=xdp \
		--counters-cmd "ip netns exec $ns_fwd $xdp stats f0" \
		> "$1.summary"
}

tap_plan 29
out=$(mktemp -d)
topology || { echo "Bail out! cannot make the veth topology"; exit "$KSFT_FAIL"; }
sink_mac=$(mac_of "$ns_src" s0)
fwd_mac=$(mac_of "$ns_fwd" f0)
tx_mac=02:00:00:00:00:51

tap_ok "tw-tfib-xdp attaches to f0 (native) and the pass-through to s0" \
	attach native
packets
malformed
user_control
generic
tap_ok "xdp: tw-tfib-source sends the trace through the XDP peer" \
	aoi_run "$out/xdp"
tap_ok "tw-tfib-analyze reads the run" \
	python3 "$tools/tw-tfib-analyze" -q --no-plots "$out"
if [ -f "$out/xdp/aoi.json" ]; then
	tap_ok "xdp: counts and ages are consistent" \
		python3 "$here/aoi_check.py" "$out/xdp"
else
	tap_result 1 "xdp: counts and ages are consistent (no analysis)"
fi
in_fwd "$xdp" detach f0
in_src "$xdp" detach s0
tap_done
