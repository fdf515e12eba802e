#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Age-of-Information experiment end to end, briefly, as a user runs it:
# tw-tfib-bench once per sync mode with rings, and inline, and
# through the XDP peer with its map set from user space (xdp-user; where
# tw-tfib-xdp is built, xdp_forward.sh has the rest of the peer), and, with
# omware loaded, rcu inline and rwlock with rings, the source paced by
# omware (METHOD+omware: tw-tfib-source --pace omware), each run
# tw-tfib-source sending a generated trace for about 3 s at a modest rate
# through the table and taking the forwarded app updates back;
# tw-tfib-analyze reads the records.
#
#   netns aoi: s0 (tw-tfib-source: sender and sink) ---veth--- f0
#                                              (tw-tfib-bench's table)
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
#   - bench left no table behind
#   - paced by omware: every row sent, none dropped, and the lateness
#     omware reported ordered (p50 <= p99 <= max, none early)
# No assertion on how fast or how fresh.
#
# make demo runs it through demo.sh, which keeps the runs (TW_AOI_KEEP, a
# directory) and sets the number of users (TW_AOI_USERS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/topo.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
TW=$TW_ROOT/userspace/timewire/timewire
tools=$TW_ROOT/bench/tfib
bench=$tools/tw-tfib-bench
analyze=$tools/tw-tfib-analyze
ns=aoi-$$
users=${TW_AOI_USERS:-100}
rate=2000
# The forwarder's threads pinned (tw-tfib-bench's forwarder-cpu): the last
# CPU online.
last_cpu=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online)
cdr=0.1
rings=4096
methods="rwlock-ring rcu-ring bucket-ring seqcount-ring rcu-inline"
out=

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
command -v python3 >/dev/null || tap_skip_all "python3 not installed (tw-tfib-analyze)"
if [ ! -x "$TW" ] || [ ! -x "$bench" ] || [ ! -x "$tools/tw-tfib-source" ]; then
	make -s -C "$TW_ROOT" userspace >/dev/null 2>&1 ||
		{ echo "Bail out! timewire and the tools not built (make userspace)"; exit "$KSFT_FAIL"; }
fi
"$TW" tfib show >/dev/null 2>&1
[ $? -ne 2 ] || tap_skip_all "tfib module not loaded"
[ -x "$tools/tw-tfib-xdp" ] && methods="$methods xdp-user"
[ -d /sys/module/omware ] &&
	methods="$methods rcu-inline+omware rwlock-ring+omware"

cleanup() {
	topo_cleanup
	[ -n "$out" ] && [ -z "${TW_AOI_KEEP:-}" ] && rm -rf "$out"
}
trap cleanup EXIT

in_ns() { ip netns exec "$ns" "$@"; }

topology() { topo_ns "$ns" && topo_veth "$ns" s0 "$ns" f0; }

# run_dir METHOD: where bench leaves the method's run.
run_dir() {
	case $1 in
	*-ring|*-ring+omware) echo "$out/cdr$cdr/r$rate/$1-$rings-$rings" ;;
	*) echo "$out/cdr$cdr/r$rate/$1" ;;
	esac
}

# One point: the method's table made, the trace sent through it, the table
# gone; bench's line in DIR.bench.
run_method() {	# run_method METHOD
	local dir

	dir=$(run_dir "$1")
	mkdir -p "$(dirname "$dir")"
	in_ns "$bench" dev f0 source s0 out "$out" methods "$1" \
		rate "$rate" cdr "$cdr" rings "$rings" users "$users" \
		seconds 3 seed 3 table aoi forwarder-cpu "$last_cpu" \
		> "$dir.bench" &&
	grep -q "^run $dir method $1 .* status ok " "$dir.bench" &&
	[ "$(in_ns "$TW" tfib show)" = "no tables" ]
}

# The consistency checks of one run; diagnostics on stdout.
check_run() {	# check_run DIR
	python3 "$here/aoi_check.py" "$1"
}

set -- $methods
tap_plan $(($# * 2 + 1))
if [ -n "${TW_AOI_KEEP:-}" ]; then
	out=$TW_AOI_KEEP
	mkdir -p "$out"
else
	out=$(mktemp -d)
fi
topology || { echo "Bail out! cannot make the veth topology"; exit "$KSFT_FAIL"; }

for m in $methods; do
	tap_ok "$m: tw-tfib-bench sends the trace through the forwarder" \
		run_method "$m"
done

tap_ok "tw-tfib-analyze reads every run" \
	python3 "$analyze" -q --no-plots "$out"
for m in $methods; do
	dir=$(run_dir "$m")
	if [ -f "$dir/aoi.json" ]; then
		tap_ok "$m: counts and ages are consistent" check_run "$dir"
	else
		tap_result 1 "$m: counts and ages are consistent (no analysis)"
	fi
done
tap_done
