# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The network a guest test runs on: namespaces, the links that join them
# (veth pairs, VLANs, the emulator's NIC pair) and the two-path MPTCP
# topology of the qaware tests and benchmark.  What it makes it removes at
# exit: it sets "trap topo_cleanup EXIT" unless the program has an EXIT
# trap already, whose handler then calls topo_cleanup.  NS "-"
# is the initial namespace.  Bad arguments: a usage line on stderr, status 2.
#
#   topo_ns NAME...                       new namespaces, lo up
#   topo_veth NS1 DEV1 NS2 DEV2 [OPTION]...
#                                         a veth pair, both ends up; options
#       addr ADDR1 ADDR2                  an address on each end (10.0.1.1/24)
#       mac MAC1 MAC2                     the ends' MAC addresses
#       noipv6                            no IPv6 on either end (no chatter)
#   topo_vlan NS DEV ID                   DEV.ID, VLAN ID on DEV, up
#   topo_nicpair NS1 DEV1 NS2 DEV2 [addr ADDR1 ADDR2] [noipv6]
#                                         the NIC pair (below) as a link
#   topo_mptcp CLI SRV [OPTION]...        two paths from CLI to SRV (below)
#   topo_in NS COMMAND...                 COMMAND run in NS
#   topo_cleanup                          processes in the namespaces killed,
#                                         namespaces and veths deleted

topo_namespaces=()
topo_links=()	# veths with an end in the initial namespace, by that end

topo_usage() {	# topo_usage TEXT: "usage: TEXT" on stderr, status 2
	echo "usage: $*" >&2
	return 2
}

# topo_ip NS ARGS...: ip in NS; a failure names the command, since ip's
# own error ("File exists") does not say which step of a topology failed.
topo_ip() {
	local ns=$1

	shift
	if [ "$ns" = - ]; then ip "$@"; else ip -n "$ns" "$@"; fi ||
		{ echo "# topo: failed in $ns: ip $*"; return 1; }
}

topo_in() {
	local ns=$1

	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

topo_ns() {
	local ns

	[ $# -gt 0 ] || { topo_usage "topo_ns NAME..."; return; }
	for ns; do
		case $ns in
		"" | - | */*) topo_usage "topo_ns NAME... (not '$ns')"; return ;;
		esac
	done
	topo_trap
	for ns; do
		ip netns add "$ns" || return 1
		topo_namespaces+=("$ns")
		ip -n "$ns" link set dev lo up || return 1
	done
}

# The cleanup at exit, unless the program has a handler of its own.
topo_trap() { [ -n "$(trap -p EXIT)" ] || trap topo_cleanup EXIT; }

topo_cleanup() {
	local dev ns

	for dev in "${topo_links[@]}"; do
		ip link del dev "$dev" 2>/dev/null
	done
	for ns in "${topo_namespaces[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	topo_links=()
	topo_namespaces=()
	return 0
}

# topo_link_options ARGS...: a link's options into its caller's locals
# (addr1 addr2 mac1 mac2 noipv6); "mac" only where the caller allows it
# (macs=1).
topo_link_options() {
	while [ $# -gt 0 ]; do
		case $1 in
		addr)
			[ $# -ge 3 ] || return 2
			addr1=$2 addr2=$3
			shift 3 ;;
		mac)
			[ $# -ge 3 ] && [ -n "${macs:-}" ] || return 2
			mac1=$2 mac2=$3
			shift 3 ;;
		noipv6)
			noipv6=1
			shift ;;
		*)
			return 2 ;;
		esac
	done
}

topo_no_ipv6() {	# topo_no_ipv6 NS DEV (nothing to do without IPv6)
	[ -d /proc/sys/net/ipv6 ] || return 0
	topo_in "$1" sysctl -qw "net/ipv6/conf/$2/disable_ipv6=1"
}

# topo_ends_up NS1 DEV1 NS2 DEV2: a new link's options applied (the
# caller's locals), then both ends up.
topo_ends_up() {
	if [ -n "$noipv6" ]; then
		topo_no_ipv6 "$1" "$2" && topo_no_ipv6 "$3" "$4" || return 1
	fi
	if [ -n "$addr1" ]; then
		topo_ip "$1" addr add "$addr1" dev "$2" &&
			topo_ip "$3" addr add "$addr2" dev "$4" || return 1
	fi
	topo_ip "$1" link set dev "$2" up && topo_ip "$3" link set dev "$4" up
}

topo_veth() {
	local use="topo_veth NS1 DEV1 NS2 DEV2 [addr ADDR1 ADDR2] [mac MAC1 MAC2] [noipv6]"
	local ns1=$1 dev1=$2 ns2=$3 dev2=$4 macs=1
	local addr1="" addr2="" mac1="" mac2="" noipv6="" where=()

	[ $# -ge 4 ] && [ -n "$ns1" ] && [ -n "$dev1" ] && [ -n "$ns2" ] &&
		[ -n "$dev2" ] || { topo_usage "$use"; return; }
	shift 4
	topo_link_options "$@" || { topo_usage "$use"; return; }
	# Made from an end's namespace, the initial one's if it has an end:
	# 6.12 looks the name up where ip runs (6.18 where the device goes),
	# and a device of that name there (a NIC pair's end handed back to
	# the initial one) refuses it: "File exists".
	local here=$ns1 dev=$dev1 mac=$mac1 peer=$dev2 peer_mac=$mac2 there=$ns2
	if [ "$ns1" != - ] && [ "$ns2" = - ]; then
		here=- dev=$dev2 mac=$mac2 peer=$dev1 peer_mac=$mac1 there=$ns1
	fi
	[ "$there" = - ] || where=(netns "$there")
	topo_ip "$here" link add "$dev" ${mac:+address "$mac"} type veth \
		peer name "$peer" ${peer_mac:+address "$peer_mac"} "${where[@]}" || return 1
	# deleted before the namespaces: at once, not when a namespace goes
	if [ "$ns1" = - ]; then
		topo_links+=("$dev1")
	elif [ "$ns2" = - ]; then
		topo_links+=("$dev2")
	fi
	topo_trap
	topo_ends_up "$ns1" "$dev1" "$ns2" "$dev2"
}

topo_vlan() {
	[ $# -eq 3 ] && [ -n "$1" ] && [ -n "$2" ] && [ "$3" -ge 1 ] 2>/dev/null &&
		[ "$3" -le 4094 ] || { topo_usage "topo_vlan NS DEV ID (1-4094)"; return; }
	topo_ip "$1" link add link "$2" name "$2.$3" type vlan id "$3" &&
		topo_ip "$1" link set dev "$2.$3" up
}

# The NIC pair: two NICs joined back to back, a path whose device queue is
# real.  veth has no BQL, so a queue below the qdisc is only seen on a
# driver that counts it (DQL's in flight).
#
# In the guest the emulator provides them: a suite that sets NICS=pair in
# its settings gets two virtio-net devices on one QEMU hub
# (tests/vm/vm.sh adds topo_nicpair_qemu_opts).  virtio-net runs BQL with
# its default napi_tx=1 (netdev_tx_sent_queue / netdev_tx_completed_queue).
# The emulator's link would drain the ring faster than the guest fills it:
# the device transmits on a timer instead, at most a few packets a
# millisecond (iperf3: 15-20 Mbit/s under TCG), so that its ring, and
# DQL's in flight, fills under load.  On a real host, two ports cabled to
# each other serve too: NICPAIR_MACS="MAC1 MAC2".
#
#   topo_nicpair_find || tap_skip_all "$topo_nicpair_why"
#   topo_nicpair NS1 NAME1 NS2 NAME2     # end 1 in NS1 as NAME1, ...
#   topo_nicpair_inflight NS NAME        # DQL's bytes in flight, tx-0

NICPAIR_MACS=${NICPAIR_MACS:-52:54:00:74:77:01 52:54:00:74:77:02}
topo_nicpair_dev1=
topo_nicpair_dev2=
# shellcheck disable=SC2034	# read by the programs that source this
topo_nicpair_why=

# The QEMU options, one per line: both ends on hub 0, the transmit timer
# (ns) and the packets sent per expiry.
topo_nicpair_qemu_opts() {
	local i=1 mac

	for mac in $NICPAIR_MACS; do
		echo "-netdev hubport,id=twnic$i,hubid=0"
		echo "-device virtio-net-pci,netdev=twnic$i,mac=$mac,tx=timer,x-txtimer=1000000,x-txburst=2"
		i=$((i + 1))
	done
}

topo_nicpair_by_mac() {	# the device of this namespace with MAC $1
	local d

	for d in /sys/class/net/*; do
		[ "$(cat "$d/address" 2>/dev/null)" = "$1" ] && { basename "$d"; return 0; }
	done
	return 1
}

# Find both ends in this namespace: sets topo_nicpair_dev1 and
# topo_nicpair_dev2, or topo_nicpair_why and false.  A namespace deleted
# just before hands its devices back a little later, and udev may still be
# loading the driver: wait up to 10 s for them.
# shellcheck disable=SC2034	# topo_nicpair_why: read by the programs
topo_nicpair_find() {
	local mac1 mac2 i

	read -r mac1 mac2 <<< "$NICPAIR_MACS"
	modprobe -q virtio_net 2>/dev/null
	for i in $(seq 50); do
		topo_nicpair_dev1=$(topo_nicpair_by_mac "$mac1") &&
			topo_nicpair_dev2=$(topo_nicpair_by_mac "$mac2") && return 0
		sleep 0.2
	done
	topo_nicpair_why="no NIC pair with MACs $mac1 $mac2 (NICS=pair in the suite's settings, or NICPAIR_MACS)"
	return 1
}

# Each end into its namespace (two made by topo_ns), renamed; then as
# topo_veth.  Deleting a namespace hands its end back to the initial one.
topo_nicpair() {
	local use="topo_nicpair NS1 DEV1 NS2 DEV2 [addr ADDR1 ADDR2] [noipv6]"
	local ns1=$1 dev1=$2 ns2=$3 dev2=$4 addr1="" addr2="" mac1="" mac2="" noipv6="" macs=""

	[ $# -ge 4 ] && [ -n "$ns1" ] && [ "$ns1" != - ] && [ -n "$dev1" ] &&
		[ -n "$ns2" ] && [ "$ns2" != - ] && [ -n "$dev2" ] ||
		{ topo_usage "$use"; return; }
	shift 4
	topo_link_options "$@" || { topo_usage "$use"; return; }
	[ -n "$topo_nicpair_dev1" ] || topo_nicpair_find || return 1
	ip link set dev "$topo_nicpair_dev1" netns "$ns1" name "$dev1" &&
		ip link set dev "$topo_nicpair_dev2" netns "$ns2" name "$dev2" &&
		topo_ends_up "$ns1" "$dev1" "$ns2" "$dev2"
}

topo_nicpair_inflight() {	# topo_nicpair_inflight NS DEV: DQL's bytes in flight on tx-0
	topo_in "$1" cat "/sys/class/net/$2/queues/tx-0/byte_queue_limits/inflight"
}

# topo_mptcp CLI SRV [via RTR] [nic] [vlan ID] [delay MS1 MS2] [nogso]
#
# Two paths from CLI to SRV (as the upstream simult_flows.sh), SRV
# announcing its address of path 2 (an MPTCP endpoint, signal) and both
# accepting two subflows: a connection to SRV's address of path 1 has one
# subflow a path.  Path i:
#   CLI ci 10.0.i.1/24 ---- si 10.0.i.2/24 SRV
#   via RTR (routed, RTR forwarding):
#   CLI ci 10.0.i.1/24 ---- ai 10.0.i.2/24 RTR bi 10.1.i.1/24 ---- di 10.1.i.2/24 SRV
# Options: nic, path 1's first hop the NIC pair, not a veth; vlan ID,
# path 1's addresses on a VLAN over its first hop (c1.ID, s1.ID or a1.ID);
# delay, a netem delay (ms) on SRV's end of path 1 and of path 2; nogso,
# CLI's devices send no TSO or GSO bursts.
topo_mptcp() {
	local use="topo_mptcp CLI SRV [via RTR] [nic] [vlan ID] [delay MS1 MS2] [nogso]"
	local cli=$1 srv=$2 rtr="" nic="" vlan="" delay1="" delay2="" nogso=""

	[ $# -ge 2 ] && [ -n "$cli" ] && [ -n "$srv" ] || { topo_usage "$use"; return; }
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		via) [ -n "${2:-}" ] || break; rtr=$2; shift 2 ;;
		nic) nic=1; shift ;;
		vlan) topo_number "${2:-}" || break; vlan=$2; shift 2 ;;
		delay) topo_number "${2:-}" && topo_number "${3:-}" || break
			delay1=$2 delay2=$3; shift 3 ;;
		nogso) nogso=1; shift ;;
		*) break ;;
		esac
	done
	[ $# -eq 0 ] || { topo_usage "$use"; return; }
	topo_ns "$cli" "$srv" ${rtr:+"$rtr"} || return
	[ -z "$rtr" ] || topo_in "$rtr" sysctl -qw net.ipv4.ip_forward=1 || return 1
	topo_mptcp_path 1 "$delay1" && topo_mptcp_path 2 "$delay2" || return
	topo_ip "$srv" mptcp limits set subflows 2 add_addr_accepted 0 &&
		topo_ip "$cli" mptcp limits set subflows 2 add_addr_accepted 2 &&
		if [ -n "$rtr" ]; then
			topo_ip "$srv" mptcp endpoint add 10.1.2.2 dev d2 signal
		else
			topo_ip "$srv" mptcp endpoint add 10.0.2.2 dev s2 signal
		fi
}

topo_number() { [ "$1" -ge 0 ] 2>/dev/null; }

# topo_mptcp_path I DELAY: path I of topo_mptcp (its locals but the
# delay).
topo_mptcp_path() {
	local near=c$1 far=s$1 farns=$srv srvdev=s$1 kind=topo_veth

	if [ -n "$rtr" ]; then
		far=a$1 farns=$rtr srvdev=d$1
	fi
	[ "$1" = 1 ] && [ -n "$nic" ] && kind=topo_nicpair
	$kind "$cli" "$near" "$farns" "$far" || return
	if [ "$1" = 1 ] && [ -n "$vlan" ]; then
		topo_vlan "$cli" "$near" "$vlan" && topo_vlan "$farns" "$far" "$vlan" || return
		near=$near.$vlan far=$far.$vlan
		[ -n "$rtr" ] || srvdev=$far
	fi
	topo_ip "$cli" addr add "10.0.$1.1/24" dev "$near" &&
		topo_ip "$farns" addr add "10.0.$1.2/24" dev "$far" || return 1
	if [ -n "$rtr" ]; then
		topo_veth "$rtr" "b$1" "$srv" "d$1" addr "10.1.$1.1/24" "10.1.$1.2/24" &&
			topo_ip "$cli" route add "10.1.$1.0/24" via "10.0.$1.2" dev "$near" &&
			topo_ip "$srv" route add "10.0.$1.0/24" via "10.1.$1.1" dev "d$1" ||
			return 1
	fi
	if [ -n "$nogso" ]; then
		topo_in "$cli" ethtool -K "$near" tso off gso off >/dev/null || return 1
	fi
	[ -z "$2" ] || tc -n "$srv" qdisc add dev "$srvdev" root netem delay "$2ms" limit 1000
}
