#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sessions must end cleanly however their owner, their device or the module
# goes away, with thousands of packets still queued far in the future:
#
#   a) the owner process is killed with SIGKILL
#   b) the session's veth is deleted
#   c) the module is removed, then loaded again and used
#
# After each step: no session left, module-wide pending back to where it
# was, and no WARNING/BUG in the kernel log.
#
#   init netns                  netns owl-<pid>
#   owl0 (sessions) ---- veth ---- owl1
# Functions below run from trap and tap_ok, which shellcheck cannot see.
# shellcheck disable=SC2317
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

N=4000
dev=owl0
peer=owl1
ns=owl-$$
tmp=$(mktemp -d)
holder=

cleanup() {
	[ -n "$holder" ] && omw_kill "$holder"
	topo_cleanup
	grep -q '^omware ' /proc/modules || insmod "$OMW_KO" 2>/dev/null
	rm -rf "$tmp"
}

omw_require
trap cleanup EXIT
tap_plan 17

base_sessions=$(omw_state sessions)
base_pending=$(omw_state pending)
tap_diag "before: $base_sessions sessions, $base_pending packets pending"

back_to_base() {
	[ "$(omw_state sessions)" = "$base_sessions" ] &&
		[ "$(omw_state pending)" = "$base_pending" ]
}

queued() {	# the holder's session and its packets are there
	[ "$(omw_state sessions)" = $((base_sessions + 1)) ] &&
		[ "$(omw_state pending)" = $((base_pending + N)) ]
}

if ! omw_veth "$dev" "$ns" "$peer" 1; then
	echo "Bail out! cannot create the veth pair"
	exit "$KSFT_FAIL"
fi

# a) owner killed
mark=$(tw_kmsg_mark)
omw_hold "$tmp/a" "$dev" "$N"
holder=$omw_hold_pid
tap_ok "owner: $N packets queued 10 min ahead" queued
omw_kill "$holder"
holder=
tap_ok "owner: SIGKILL ends the session" omw_wait 10 back_to_base
tap_ok "owner: kernel log clean" tw_kmsg_clean "$mark"

# b) device deleted
mark=$(tw_kmsg_mark)
omw_hold "$tmp/b" "$dev" "$N"
holder=$omw_hold_pid
dropped0=$(omw_state dropped_down)
tap_ok "device: $N packets queued 10 min ahead" queued
ip link del "$dev"
tap_ok "device: deleting the veth ends the session" omw_wait 10 back_to_base
dropped1=$(omw_state dropped_down)
tap_diag "dropped_down: $dropped0 -> $dropped1"
tap_ok "device: its $N packets are counted dropped (device gone)" \
	test "$((dropped1 - dropped0))" -eq "$N"
tap_ok "device: the owner outlives its session" kill -0 "$holder"
omw_kill "$holder"
holder=
tap_ok "device: kernel log clean" tw_kmsg_clean "$mark"
topo_cleanup
omw_veth "$dev" "$ns" "$peer" 1 || { echo "Bail out! cannot recreate the veth pair"; exit "$KSFT_FAIL"; }

# c) module removed under a live session
mark=$(tw_kmsg_mark)
omw_hold "$tmp/c" "$dev" "$N"
holder=$omw_hold_pid
tap_ok "unload: $N packets queued 10 min ahead" queued
out=$(rmmod omware 2>&1)
rc=$?
[ $rc -eq 0 ] || tap_diag "rmmod: $out"
tap_ok "unload: rmmod succeeds with a live session" test $rc -eq 0
tap_not "unload: module gone" grep -q '^omware ' /proc/modules
tap_ok "unload: the owner survives the unload" kill -0 "$holder"
omw_kill "$holder"
holder=
out=$(insmod "$OMW_KO" 2>&1)
rc=$?
[ $rc -eq 0 ] || tap_diag "insmod: $out"
tap_ok "unload: insmod again" test $rc -eq 0
tap_ok "unload: no session after reload" test "$(omw_state sessions)" = 0 -a "$(omw_state pending)" = 0
"$OMW_NL" stream --dev "$dev" --peer-ns "$ns" --peer-dev "$peer" --count 200 > "$tmp/s" 2>&1
rc=$?
sed 's/^#*/#/' "$tmp/s"
tap_ok "unload: the reloaded module sends 200 frames intact" test $rc -eq 0
tap_ok "unload: kernel log clean" tw_kmsg_clean "$mark"

tw_kmemleak omware 'omw_|\[omware\]'

tap_done
