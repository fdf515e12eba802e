#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two sessions on two veths, driven by two processes pinned to CPU 0 and
# CPU 1, in timer then hybrid mode.  Each must get every report and its
# receiver every frame, byte for byte and in order.
#
#   init netns                        netns owc-<pid>-1 / owc-<pid>-2
#   owc1 (CPU 0 sender) ---- veth ---- owc1p (receiver)
#   owc2 (CPU 1 sender) ---- veth ---- owc2p (receiver)
# Functions below run from trap and tap_ok, which shellcheck cannot see.
# shellcheck disable=SC2317
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

N=2000
tmp=$(mktemp -d)

cleanup() {
	topo_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT

omw_require
[ "$(nproc)" -ge 2 ] || tap_skip_all "needs 2 CPUs, have $(nproc)"
command -v taskset >/dev/null || tap_skip_all "taskset not installed"
tap_plan 7

for i in 1 2; do
	if ! omw_veth "owc$i" "owc-$$-$i" "owc${i}p" $((10 + i)); then
		echo "Bail out! cannot create veth owc$i"
		exit "$KSFT_FAIL"
	fi
done
mark=$(tw_kmsg_mark)

# pair MODE COUNT: run both streams at once, one per CPU
pair() {
	local pids=() i

	for i in 1 2; do
		taskset -c $((i - 1)) "$OMW_NL" stream --dev "owc$i" \
			--peer-ns "owc-$$-$i" --peer-dev "owc${i}p" \
			--count "$2" --mode "$1" > "$tmp/$1.$i" 2>&1 &
		pids+=($!)
	done
	for i in 1 2; do
		wait "${pids[$((i - 1))]}"
		echo $? > "$tmp/$1.$i.rc"
	done
	for i in 1 2; do
		sed 's/^#*/#/' "$tmp/$1.$i"
	done
}

pair timer "$N"
tap_ok "timer: owc1 on CPU 0, $N frames, all reports, exact delivery" test "$(cat "$tmp/timer.1.rc")" = 0
tap_ok "timer: owc2 on CPU 1, $N frames, all reports, exact delivery" test "$(cat "$tmp/timer.2.rc")" = 0

pair hybrid $((N / 4))
tap_ok "hybrid: owc1 on CPU 0, $((N / 4)) frames, all reports, exact delivery" test "$(cat "$tmp/hybrid.1.rc")" = 0
tap_ok "hybrid: owc2 on CPU 1, $((N / 4)) frames, all reports, exact delivery" test "$(cat "$tmp/hybrid.2.rc")" = 0

tap_ok "no session left" omw_wait 5 test "$(omw_state sessions)" = 0
tap_ok "nothing pending" test "$(omw_state pending)" = 0
tap_ok "kernel log clean" tw_kmsg_clean "$mark"
tap_done
