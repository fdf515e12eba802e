#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Age-of-Information experiment end to end, briefly: tw-fib-source
# sends a generated trace for about 3 s at a modest rate through a tfib
# forwarder and takes the forwarded app updates back; tw-fib-analyze reads
# the records.  Once per sync mode with rings, and inline.
#
#   netns src: s0 (tw-fib-source: sender and sink) ---veth--- f0 :netns fwd
#                                                    (table bound to f0)
#
# The records must be consistent, whatever the timing:
#   - every app update received was sent, once (the analyser matches none
#     in rx_unmatched), and no more are received than sent
#   - each came back after it was sent, addressed by a location the
#     source did send for its user (its sequence and timestamp), or by the
#     entry set before the run
#   - ages are >= 0 and the misaddressed fraction is in [0, 1]
#   - the forwarder's forwarded counter is what the sink saw plus what its
#     socket dropped, and it received no more than was sent
# No assertion on how fast or how fresh.
#
# make demo runs it through demo.sh, which keeps the runs (TW_AOI_KEEP, a
# directory) and sets the number of users (TW_AOI_USERS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
tools=$TW_ROOT/userspace/tools
src_tool=$tools/tw-fib-source
analyze=$tools/tw-fib-analyze
ctl=$here/fwd_aoi_ctl
ns_src=aoi-src-$$
ns_fwd=aoi-fwd-$$
table=aoi
users=${TW_AOI_USERS:-100}
rate=2000
rows=6000
modes="rwlock:ring rcu:ring bucket:ring seqcount:ring rcu:inline"
out=

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
command -v python3 >/dev/null || tap_skip_all "python3 not installed (tw-fib-analyze)"
[ -x "$ctl" ] || { echo "Bail out! $ctl not built (make -C tests/tfib)"; exit "$KSFT_FAIL"; }
if [ ! -x "$src_tool" ]; then
	make -s -C "$TW_ROOT/userspace" tools >/dev/null 2>&1 ||
		{ echo "Bail out! $src_tool not built (make -C userspace)"; exit "$KSFT_FAIL"; }
fi
"$ctl" stats none >/dev/null 2>&1
[ $? -ne "$KSFT_SKIP" ] || tap_skip_all "tfib module not loaded"

cleanup() {
	ip netns del "$ns_src" 2>/dev/null
	ip netns del "$ns_fwd" 2>/dev/null
	[ -n "$out" ] && [ -z "${TW_AOI_KEEP:-}" ] && rm -rf "$out"
}
trap cleanup EXIT

mac_of() {	# mac_of NS IFNAME
	ip -n "$1" -o link show "$2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'
}

topology() {
	ip netns add "$ns_src" && ip netns add "$ns_fwd" &&
	ip -n "$ns_src" link add s0 type veth peer name f0 netns "$ns_fwd" &&
	ip -n "$ns_src" link set s0 up && ip -n "$ns_fwd" link set f0 up
}

# One run: a table in MODE, the source through it, the table deleted.
run_mode() {	# run_mode SYNC FWD DIR
	local sync=$1 fwd=$2 dir=$3 rings=() labels=()

	if [ "$fwd" = ring ]; then
		rings=(4096 4096)
		labels=(--label control_ring=4096 --label data_ring=4096)
	fi
	ip netns exec "$ns_fwd" "$ctl" setup "$table" "$sync" "$fwd" f0 \
		"$users" "$sink_mac" "${rings[@]}" || return 1
	ip netns exec "$ns_src" "$src_tool" -q -i s0 -d "$fwd_mac" -o "$dir" \
		-r "$rate" -n "$rows" -u "$users" -c 0.1 -s 3 \
		--label sync="$sync" --label fwd="$fwd" "${labels[@]}" \
		--counters-cmd "ip netns exec $ns_fwd $ctl stats $table" \
		> "$dir.summary"
	local rc=$?
	ip netns exec "$ns_fwd" "$here/tfib_ctl" del "$table" || rc=1
	return $rc
}

# The consistency checks of one run; diagnostics on stdout.
check_run() {	# check_run DIR
	python3 "$here/aoi_check.py" "$1"
}

set -- $modes
tap_plan $(($# * 2 + 1))
if [ -n "${TW_AOI_KEEP:-}" ]; then
	out=$TW_AOI_KEEP
	mkdir -p "$out"
else
	out=$(mktemp -d)
fi
topology || { echo "Bail out! cannot make the veth topology"; exit "$KSFT_FAIL"; }
sink_mac=$(mac_of "$ns_src" s0)
fwd_mac=$(mac_of "$ns_fwd" f0)

for m in $modes; do
	sync=${m%:*}
	fwd=${m#*:}
	name=$sync-$fwd
	tap_ok "$name: tw-fib-source sends the trace through the forwarder" \
		run_mode "$sync" "$fwd" "$out/$name"
done

tap_ok "tw-fib-analyze reads every run" \
	python3 "$analyze" -q --no-plots "$out"
for m in $modes; do
	name=${m%:*}-${m#*:}
	if [ -f "$out/$name/aoi.json" ]; then
		tap_ok "$name: counts and ages are consistent" check_run "$out/$name"
	else
		tap_result 1 "$name: counts and ages are consistent (no analysis)"
	fi
done
tap_done
