#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a binding trusts.  It takes the frames of its own device only: the
# core hands the
# frames that arrive on a device and then belong to an upper device (a
# VLAN, a macvlan in another namespace, a bond over it) to the lower
# device's handlers too; a table bound to the lower device must neither
# learn from their control packets nor forward their data.  A table bound
# to the upper device itself forwards as on any device.  It drops what
# would loop or flood: data packets whose hop limit is spent, sent to a
# group address, or whose next hop is their sender or the device itself;
# and, when it lists its control sources, control packets from others.
#
#   netns src                          netns fwd                 netns mv
#   s0 ------------------ veth ------- f0   (table "lower")
#   s0.100 (VLAN 100)                  f0.100 (table "vlan")
#                                      mv0: macvlan on f0 -------> mv0
#   s1 ------------------ veth ------- f1 in bond0 (table "slave" on f1,
#                                         table "bond" on bond0)
#
# The packets are sent by xdp_pkt.py; the tables are read with timewire.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/topo.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
tw=${TW_CLI:-$TW_ROOT/userspace/timewire/timewire}
pkt=$here/xdp_pkt.py
ns_src=up-src-$$
ns_fwd=up-fwd-$$
ns_mv=up-mv-$$

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
command -v jq >/dev/null || tap_skip_all "jq not installed"
[ -x "$tw" ] || { echo "Bail out! no timewire CLI at $tw"; exit "$KSFT_FAIL"; }
"$tw" tfib show >/dev/null 2>&1 || tap_skip_all "the tfib module is not loaded"


in_src() { ip netns exec "$ns_src" "$@"; }
in_fwd() { ip netns exec "$ns_fwd" "$@"; }
tfib() { in_fwd "$tw" tfib "$@"; }
mac_of() { ip netns exec "$1" cat "/sys/class/net/$2/address"; }

topology() {
	local nsf="topo_ip $ns_fwd"

	topo_ns "$ns_src" "$ns_fwd" "$ns_mv" &&
	topo_veth "$ns_src" s0 "$ns_fwd" f0 &&
	topo_veth "$ns_src" s1 "$ns_fwd" f1 &&
	topo_vlan "$ns_src" s0 100 && topo_vlan "$ns_fwd" f0 100 &&
	$nsf link add link f0 name mv0 type macvlan mode bridge &&
	$nsf link set mv0 netns "$ns_mv" &&
	$nsf link add bond0 type bond mode active-backup &&
	# a bond takes no device that is up
	$nsf link set f1 down && $nsf link set f1 master bond0 &&
	$nsf link set f1 up && $nsf link set bond0 up &&
	topo_ip "$ns_mv" link set mv0 up
}

# send IFNAME DST_MAC [xdp_pkt.py options]: one update packet from IFNAME.
send() { in_src "$pkt" "$@"; }

control() {	# control IFNAME DST_MAC USER
	send "$1" "$2" --set type=1 --set user="$3" \
		--set seq=1 --set addr_ns=1000 --set mac="$sink_mac"
}

# has_user TABLE USER: the table holds an entry for USER.
has_user() { tfib get "$1" user "$2" >/dev/null 2>&1; }

# counter TABLE NAME: one counter of the table (jq: Python starts slowly
# in an emulated guest).
counter() {
	tfib -j stats "$1" |
		jq -er --arg k "$2" '[.. | objects | select(has("stats"))][0].stats[$k]'
}

counter_is() {	# counter_is TABLE NAME VALUE
	local got
	got=$(counter "$1" "$2") || return 1
	[ "$got" = "$3" ] || { echo "# $1 $2: $got, want $3"; return 1; }
}

# Wait until TABLE holds USER: a ring binding's writer inserts it a
# moment after the frame came.
until_user() {	# until_user TABLE USER
	local i
	for i in $(seq 50); do
		has_user "$1" "$2" && return 0
		sleep 0.1
	done
	has_user "$1" "$2"
}

# Wait until the binding's counter is VALUE: a ring binding's writer runs
# a moment after the frame came.
until_counter() {	# until_counter TABLE NAME VALUE
	local i
	for i in $(seq 50); do
		[ "$(counter "$1" "$2" 2>/dev/null)" = "$3" ] && return 0
		sleep 0.1
	done
	counter_is "$@"
}

# Frames of the uppers of f0 do not reach f0's inline binding; its own do.
lower() {
	tfib create lower capacity 64 sync rcu &&
		tfib bind lower dev f0 mode inline &&
		tfib set lower user 2 mac "$sink_mac" ||
		{ tap_result 1 "bind a table to f0"; return; }
	tap_ok "a control packet from VLAN 100 does not write f0's table" \
		eval 'control s0.100 "$fwd_mac" 1 && ! has_user lower 1'
	tap_ok "a data packet from VLAN 100 is not forwarded by f0's table" \
		eval 'send s0.100 "$fwd_mac" --set user=2 --set seq=5 &&
		      counter_is lower rx 0 && counter_is lower forwarded 0'
	tap_ok "a control packet to a macvlan in another netns is not f0's" \
		eval 'control s0 "$mv_mac" 3 && ! has_user lower 3 &&
		      counter_is lower rx 0'
	# the control of the test: the same packets on f0 itself are taken
	# and it comes after the others: had they been taken, they would be
	# counted by now
	tap_ok "a control packet on f0 itself writes f0's table, alone" \
		eval 'control s0 "$fwd_mac" 4 && until_counter lower rx 1 &&
		      has_user lower 4 && ! has_user lower 1 && ! has_user lower 3'
	tap_ok "a data packet on f0 itself is forwarded untagged" \
		send s0 "$fwd_mac" --set user=2 --set seq=6 \
		--expect dst="$sink_mac" --expect src="$fwd_mac"
	tfib del lower
}

# The same through the rings: the check comes before the mode's path.
lower_ring() {
	tfib create lower capacity 64 && tfib bind lower dev f0 mode ring ||
		{ tap_result 1 "bind a table to f0 with rings"; return; }
	tap_ok "ring: a control packet from VLAN 100 is not queued for f0's table" \
		eval 'control s0.100 "$fwd_mac" 1 && control s0 "$fwd_mac" 4 &&
		      until_user lower 4 && ! has_user lower 1 &&
		      counter_is lower rx 1'
	tfib del lower
}

# The drop rules against loops and floods, on an inline binding of f0.
loops() {
	tfib create trust capacity 64 && tfib bind trust dev f0 mode inline &&
		tfib set trust user 2 mac "$sink_mac" &&
		tfib set trust user 3 mac "$src_mac" &&
		tfib set trust user 4 mac "$fwd_mac" ||
		{ tap_result 1 "bind a table to f0"; return; }
	tap_ok "a data packet leaves with its hop limit taken one" \
		send s0 "$fwd_mac" --set user=2 --set seq=1 --set hop_limit=5 \
		--expect hop_limit=4 --expect dst="$sink_mac"
	tap_ok "a data packet with hop limit 2 leaves with 1" \
		send s0 "$fwd_mac" --set user=2 --set seq=7 --set hop_limit=2 \
		--expect hop_limit=1
	tap_ok "a data packet with hop limit 1 is dropped and counted" \
		eval 'send s0 "$fwd_mac" --set user=2 --set seq=2 \
			--set hop_limit=1 --expect-none &&
		      counter_is trust drop_hop_limit 1'
	tap_ok "a header of the old version 1 is dropped and counted" \
		eval 'send s0 "$fwd_mac" --set version=1 --set user=2 \
			--set seq=3 --expect-none &&
		      counter_is trust drop_version 1'
	tap_ok "a broadcast data packet is dropped and counted" \
		eval 'send s0 "$fwd_mac" --dst ff:ff:ff:ff:ff:ff --set user=2 \
			--set seq=4 --expect-none &&
		      counter_is trust drop_group 1'
	tap_ok "a data packet whose next hop is its sender is dropped" \
		eval 'send s0 "$fwd_mac" --set user=3 --set seq=5 --expect-none &&
		      counter_is trust drop_loop 1'
	tap_ok "a data packet whose next hop is the device is dropped" \
		eval 'send s0 "$fwd_mac" --set user=4 --set seq=6 --expect-none &&
		      counter_is trust drop_loop 2 && counter_is trust forwarded 2'
	tfib del trust
}

# A binding that lists its control sources.
sources() {
	tfib create trust capacity 64 ||
		{ tap_result 1 "create a table"; return; }
	tap_ok "a group address as control source is refused, and named" \
		eval 'tfib bind trust dev f0 control-src 01:00:5e:00:00:01 2>&1 |
		      grep -q "control source must be a unicast MAC address"'
	tfib bind trust dev f0 mode inline control-src "$ctl_mac,02:00:00:00:00:78" ||
		{ tap_result 1 "bind a table to f0 with control sources"; return; }
	tap_ok "the binding shows its control sources" \
		eval 'tfib -j show trust | jq -e --arg a "$ctl_mac" \
			"[.. | objects | select(has(\"control_src\"))][0].control_src == [\$a, \"02:00:00:00:00:78\"]" >/dev/null'
	tap_ok "a control packet from an unlisted source is dropped and counted" \
		eval 'control s0 "$fwd_mac" 5 && ! has_user trust 5 &&
		      counter_is trust drop_control_src 1'
	tap_ok "a control packet from a listed source writes the table" \
		eval 'send s0 "$fwd_mac" --src "$ctl_mac" --set type=1 --set user=6 \
			--set seq=1 --set mac="$sink_mac" && has_user trust 6 &&
		      counter_is trust rx_control 1'
	tfib del trust
}

# A table bound to the VLAN device and to the bond forwards.
uppers() {
	tfib create vlan capacity 64 && tfib bind vlan dev f0.100 mode inline ||
		{ tap_result 1 "bind a table to f0.100"; return; }
	tap_ok "a table bound to f0.100 learns from VLAN 100" \
		eval 'control s0.100 "$fwd_mac" 7 && until_counter vlan rx 1 &&
		      has_user vlan 7'
	tap_ok "a table bound to f0.100 forwards back into VLAN 100" \
		send s0.100 "$fwd_mac" --set user=7 --set seq=8 \
		--expect dst="$sink_mac" --expect src="$fwd_mac"
	tfib del vlan

	tfib create slave capacity 64 && tfib bind slave dev f1 mode inline &&
		tfib create bond capacity 64 && tfib bind bond dev bond0 mode inline ||
		{ tap_result 1 "bind tables to f1 and bond0"; return; }
	tap_ok "a control packet to bond0 writes bond0's table, not its slave's" \
		eval 'control s1 "$bond_mac" 9 && until_counter bond rx 1 &&
		      has_user bond 9 && ! has_user slave 9 &&
		      counter_is slave rx 0'
	tap_ok "a table bound to bond0 forwards out of the bond" \
		send s1 "$bond_mac" --set user=9 --set seq=10 \
		--expect dst="$sink_mac" --expect src="$bond_mac"
	tfib del slave
	tfib del bond
}

tap_plan 21
modprobe -q 8021q && modprobe -q macvlan && modprobe -q bonding ||
	tap_skip_all "the kernel lacks 8021q, macvlan or bonding"
if ! topology; then
	echo "Bail out! cannot make the topology (VLAN, macvlan, bonding)"
	exit "$KSFT_FAIL"
fi
fwd_mac=$(mac_of "$ns_fwd" f0)
mv_mac=$(mac_of "$ns_mv" mv0)
bond_mac=$(mac_of "$ns_fwd" bond0)
src_mac=$(mac_of "$ns_src" s0)
sink_mac=02:00:00:00:00:42
ctl_mac=02:00:00:00:00:77
lower
lower_ring
uppers
loops
sources
tap_done
