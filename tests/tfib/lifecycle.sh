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
#
# After each: no WARNING/BUG in the kernel log; at the end, no kmemleak
# suspect of tfib.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
ctl=$here/tfib_ctl
ko=${TW_KO_DIR:-$TW_ROOT}/kmod/tfib.ko
params=/sys/module/tfib/parameters
ns=tfl-$$
max_tables=

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
[ -x "$ctl" ] || { echo "Bail out! $ctl not built (make -C tests/tfib)"; exit "$KSFT_FAIL"; }
"$ctl" count >/dev/null 2>&1
[ $? -ne "$KSFT_SKIP" ] || tap_skip_all "tfib module not loaded"

cleanup() {
	ip netns del "$ns" 2>/dev/null
	grep -q '^tfib ' /proc/modules || insmod "$ko" 2>/dev/null
	[ -n "$max_tables" ] && echo "$max_tables" > $params/max_tables
	"$ctl" del l0 2>/dev/null
	"$ctl" del l1 2>/dev/null
}
trap cleanup EXIT

mark() {
	marker="tfib-test-mark-$$-$RANDOM"
	echo "$marker" > /dev/kmsg
}

kernel_clean() {
	local bad='WARNING:|BUG:|Oops|Call Trace|general protection fault|kernel BUG|UBSAN:|KASAN:'
	local log

	log=$(dmesg | sed -n "/$marker/,\$p" | grep -E "$bad")
	[ -z "$log" ] && return 0
	echo "$log" | head -n 20 | sed 's/^/# /'
	return 1
}

in_ns() { ip netns exec "$ns" "$ctl" "$@"; }

# four tables, one per sync mode, full
fill_ns() {
	local s

	for s in 0 1 2 3; do
		in_ns new "m$s" 500 "$s" && in_ns fill "m$s" 500 || return 1
	done
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

tap_plan 10

# a) namespace deleted
mark
max_tables=$(cat $params/max_tables)
ip netns add "$ns" || { echo "Bail out! cannot create a namespace"; exit "$KSFT_FAIL"; }
tap_ok "netns: four full tables, one per sync mode" fill_ns
echo 4 > $params/max_tables
tap_not "netns: the cap is reached" "$ctl" new l0 1
ip netns del "$ns"
tap_ok "netns: deleting it gives the four places back" retry 20 "$ctl" new l0 1
tap_ok "netns: and the others" eval '"$ctl" new l1 1 && "$ctl" del l1'
echo "$max_tables" > $params/max_tables
tap_ok "netns: kernel log clean" kernel_clean

# b) module removed with tables in two namespaces
mark
ip netns add "$ns"
fill_ns >/dev/null 2>&1
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
tap_ok "unload: kernel log clean" kernel_clean

# kmemleak, where the kernel has it
kml=/sys/kernel/debug/kmemleak
[ -e $kml ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ -w $kml ]; then
	# two scans: an object is reported only once it stayed unreferenced
	echo scan > $kml
	sleep 6
	echo scan > $kml
	leaks=$(grep -cE 'tfib_|tw_fib_|\[tfib\]' $kml)
	tap_ok "kmemleak: no tfib leak" test "$leaks" -eq 0
else
	tap_skip "kmemleak: no tfib leak" "kernel without CONFIG_DEBUG_KMEMLEAK"
fi

tap_done
