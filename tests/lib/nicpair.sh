# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Two NICs joined back to back, one in each of two namespaces: a path whose
# device queue is real.  veth has no BQL, so a queue below the qdisc is only
# seen on a driver that counts it (DQL's in flight).
#
# In the guest the emulator provides them: a suite that sets NICS=pair in
# its settings gets two virtio-net devices on one QEMU hub
# (tests/vm/vm.sh adds nicpair_qemu_opts).  virtio-net runs BQL with its
# default napi_tx=1 (netdev_tx_sent_queue / netdev_tx_completed_queue).
# The emulator's link would drain the ring faster than the guest fills it:
# the device transmits on a timer instead, at most a few packets a
# millisecond (iperf3: 15-20 Mbit/s under TCG), so that its ring, and
# DQL's in flight, fills under load.  On a real host, two ports cabled to
# each other serve too: NICPAIR_MACS="MAC1 MAC2".
#
#   nicpair_find || tap_skip_all "$nicpair_why"
#   nicpair_split NS1 NAME1 NS2 NAME2     # end 1 in NS1 as NAME1, ...
#   nicpair_inflight NS NAME              # DQL's bytes in flight, tx-0

NICPAIR_MACS=${NICPAIR_MACS:-52:54:00:74:77:01 52:54:00:74:77:02}
nicpair_dev1=
nicpair_dev2=
nicpair_why=

# The QEMU options, one per line: both ends on hub 0, the transmit timer
# (ns) and the packets sent per expiry.
nicpair_qemu_opts() {
	local i=1 mac

	for mac in $NICPAIR_MACS; do
		echo "-netdev hubport,id=twnic$i,hubid=0"
		echo "-device virtio-net-pci,netdev=twnic$i,mac=$mac,tx=timer,x-txtimer=1000000,x-txburst=2"
		i=$((i + 1))
	done
}

nicpair_by_mac() {	# the device of this namespace with MAC $1
	local d

	for d in /sys/class/net/*; do
		[ "$(cat "$d/address" 2>/dev/null)" = "$1" ] && { basename "$d"; return 0; }
	done
	return 1
}

# Find both ends in this namespace: sets nicpair_dev1 and nicpair_dev2, or
# nicpair_why and false.  A namespace deleted just before hands its devices
# back a little later, and udev may still be loading the driver: wait up to
# 10 s for them.
nicpair_find() {
	local mac1 mac2 i

	read -r mac1 mac2 <<< "$NICPAIR_MACS"
	modprobe -q virtio_net 2>/dev/null
	for i in $(seq 50); do
		nicpair_dev1=$(nicpair_by_mac "$mac1") &&
			nicpair_dev2=$(nicpair_by_mac "$mac2") && return 0
		sleep 0.2
	done
	nicpair_why="no NIC pair with MACs $mac1 $mac2 (NICS=pair in the suite's settings, or NICPAIR_MACS)"
	return 1
}

# nicpair_split NS1 NAME1 NS2 NAME2: each end into its namespace, renamed,
# up.  Deleting a namespace hands its end back to the initial one.
nicpair_split() {
	ip link set dev "$nicpair_dev1" netns "$1" name "$2" &&
	ip link set dev "$nicpair_dev2" netns "$3" name "$4" &&
	ip -n "$1" link set dev "$2" up &&
	ip -n "$3" link set dev "$4" up
}

nicpair_inflight() {	# nicpair_inflight NS DEV: DQL's bytes in flight on tx-0
	ip netns exec "$1" cat "/sys/class/net/$2/queues/tx-0/byte_queue_limits/inflight"
}
