#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tables must go with their namespace and with the module, in every sync
# mode and full of entries, and leave nothing behind:
#
#   a) a namespace holding four tables is deleted: their places under the
#      max_tables cap come back
#   b) the module is removed with tables in two namespaces, then loaded
#      again: no table is left, and it works
#   c) binds and unbinds race the device's moves between two namespaces:
#      each bind either takes the device where it is or is refused, and
#      the device is deleted at the end without waiting on a binding
#
# Where the forwarder binds, one table of the namespace is bound to a veth
# of it in both.
#
# After each: no WARNING/BUG in the kernel log; at the end, no kmemleak
# suspect of tfib.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/kmsg.sh"
. "$here/../lib/topo.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
ctl=$here/tfib_ctl
ko=${TW_KO_DIR:-$TW_ROOT}/kmod/tfib.ko
params=/sys/module/tfib/parameters
ns=tfl-$$
ns2=tfl2-$$
tw=$TW_ROOT/userspace/timewire/timewire
max_tables=

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
[ -x "$ctl" ] || { echo "Bail out! $ctl not built (make -C tests/tfib)"; exit "$KSFT_FAIL"; }
"$ctl" count >/dev/null 2>&1
[ $? -ne "$KSFT_SKIP" ] || tap_skip_all "tfib module not loaded"

cleanup() {
	topo_cleanup
	[ -n "${showf:-}" ] && rm -f "$showf"
	grep -q '^tfib ' /proc/modules || insmod "$ko" 2>/dev/null
	[ -n "$max_tables" ] && echo "$max_tables" > $params/max_tables
	"$ctl" del l0 2>/dev/null
	"$ctl" del l1 2>/dev/null
}
trap cleanup EXIT

in_ns() { ip netns exec "$ns" "$ctl" "$@"; }

# four tables, one per sync mode, full
fill_ns() {
	local s

	for s in 0 1 2 3; do
		in_ns new "m$s" 500 "$s" && in_ns fill "m$s" 500 || return 1
	done
}

# m0 bound to a veth of the namespace: 0, 4 when the forwarder binds
# nothing, 1 on failure
bind_ns() {
	local idx

	topo_veth "$ns" tfl0 "$ns" tfl1 || return 1
	idx=$(ip netns exec "$ns" cat /sys/class/net/tfl0/ifindex) || return 1
	in_ns bind m0 "$idx"
}

# tap_bound DESCRIPTION: report bind_ns
tap_bound() {
	bind_ns
	case $? in
	0) tap_result 0 "$1" ;;
	4) tap_skip "$1" "the forwarder binds nothing" ;;
	*) tap_result 1 "$1" ;;
	esac
}

retry() {	# retry SECONDS COMMAND...
	local n=$(($1 * 10))

	shift
	until "$@" 2>/dev/null; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# c) move tfr0 between the two namespaces, back and forth, ROUNDS times
RACE_ROUNDS=60
mover() {
	local i

	for ((i = 0; i < RACE_ROUNDS; i++)); do
		ip -n "$ns" link set tfr0 netns "$ns2" 2>/dev/null
		ip -n "$ns2" link set tfr0 netns "$ns" 2>/dev/null
	done
}

# bind r0 to tfr0 and unbind it while mover runs; a move may unbind it
# first, so an unbind may find nothing bound.  Counts in $binds.
binder() {
	binds=0
	while kill -0 "$1" 2>/dev/null; do
		ip netns exec "$ns" "$tw" tfib bind r0 dev tfr0 >/dev/null 2>&1 ||
			continue
		binds=$((binds + 1))
		ip netns exec "$ns" "$tw" tfib unbind r0 >/dev/null 2>&1
	done
}

# tfr0 ends in one of the two namespaces; delete it from there
del_tfr0() {
	timeout 60 ip -n "$ns" link del tfr0 2>/dev/null ||
		timeout 60 ip -n "$ns2" link del tfr0
}

tap_plan 16

# a) namespace deleted
mark=$(tw_kmsg_mark)
max_tables=$(cat $params/max_tables)
topo_ns "$ns" || { echo "Bail out! cannot create a namespace"; exit "$KSFT_FAIL"; }
tap_ok "netns: four full tables, one per sync mode" fill_ns
tap_bound "netns: one bound to a veth of the namespace"
echo 4 > $params/max_tables
tap_not "netns: the cap is reached" "$ctl" new l0 1
ip netns del "$ns"
tap_ok "netns: deleting it gives the four places back" retry 20 "$ctl" new l0 1
tap_ok "netns: and the others" eval '"$ctl" new l1 1 && "$ctl" del l1'
echo "$max_tables" > $params/max_tables
tap_ok "netns: kernel log clean" tw_kmsg_clean "$mark"

# b) module removed with tables in two namespaces
mark=$(tw_kmsg_mark)
topo_ns "$ns"
fill_ns >/dev/null 2>&1
tap_bound "unload: a table bound in the other namespace"
out=$(rmmod tfib 2>&1)
rc=$?
[ $rc -eq 0 ] || tap_diag "rmmod: $out"
tap_ok "unload: rmmod with tables in two namespaces" test $rc -eq 0
out=$(insmod "$ko" 2>&1)
rc=$?
[ $rc -eq 0 ] || tap_diag "insmod: $out"
tap_ok "unload: insmod again" test $rc -eq 0
tap_ok "unload: no table after reload, in either namespace" \
	eval '[ "$("$ctl" count)" = 0 ] && [ "$(in_ns count)" = 0 ]'
tap_ok "unload: kernel log clean" tw_kmsg_clean "$mark"

# c) bind and unbind racing the device's namespace moves
mark=$(tw_kmsg_mark)
showf=$(mktemp)
topo_ns "$ns2"
topo_veth "$ns" tfr0 "$ns" tfr1
in_ns new r0 16 >/dev/null
mover &
mpid=$!
binder "$mpid"
wait "$mpid"
tap_diag "race: $binds binds took the device in $RACE_ROUNDS round trips"
tap_ok "race: a bind after the race takes the device" \
	eval 'ip -n "$ns2" link set tfr0 netns "$ns" 2>/dev/null;
	      ip netns exec "$ns" "$tw" tfib bind r0 dev tfr0'
tap_ok "race: the device is deleted without waiting on a binding" del_tfr0
tap_ok "race: deleting the device unbound the table" \
	eval 'ip netns exec "$ns" "$tw" -j tfib show r0 > "$showf" &&
	      grep -q "\"entries\"" "$showf" && ! grep -q "\"ifindex\"" "$showf"'
tap_ok "race: kernel log clean" tw_kmsg_clean "$mark"

tw_kmemleak tfib 'tfib_|tw_tfib_|\[tfib\]'

tap_done
