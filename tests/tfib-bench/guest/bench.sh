#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Age-of-Information experiment (make bench-fib): tw-fib-source sends
# a Zipf(1) trace of 1000 users through tfib.ko in every sync mode (rings
# small and large, and inline) and through the XDP peer (tw-fib-xdp), at
# CDR 0.01 and 0.1, over a sweep of rates R that passes the forwarder's
# capacity; plus the baseline (one user, no control packets).
#
#   tests/tfib-bench/guest/bench.sh [--short|--full] OUTDIR
#
# Each run leaves OUTDIR/<cdr>/<R>/<method>/{events.csv,run.json} (labels
# sync, fwd, rings; the forwarder's counters over the run).  The host
# analyses them (tw-fib-analyze).  Runs as root in the guest, tfib loaded;
# prints TAP and a progress line per run (also to OUTDIR/../progress.log).
#
# Fixed before the run, whatever it finds:
#   - the capacity C: the highest R of a doubling probe (rcu through rings
#     of 4096, CDR 0.01, then one step of sqrt 2) that the chain carries:
#     the source sends at least 90 % of R and at most 1 % of the data
#     packets are lost (on veth the sender's own system call runs the
#     forwarder's receive path, so the source may be what stops first);
#   - the sweep: R = C times each factor of $factors, rounded; a run sends
#     R x its seconds rows, at most C x its seconds (above C the source
#     sends as fast as it can, its token bucket always ahead, so the run
#     lasts its seconds or more whatever R);
#   - every run of one R in an order shuffled from the printed seed
#     (TW_BENCH_SEED=N repeats it); the trace's seed is fixed.
# --full: factors 1/8 .. 4, 3 s of traffic a run (126 runs, about 20-30
# min under emulation); --short: factors 1/2 and 2, 1 s a run (42 runs).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/../../lib/tap.sh"
# shellcheck source=tests/lib/bench.sh
. "$here/../../lib/bench.sh"

TW_ROOT=${TW_ROOT:-$(cd "$here/../../.." && pwd)}
tools=$TW_ROOT/userspace/tools
src_tool=$tools/tw-fib-source
xdp=$tools/tw-fib-xdp
ctl=$here/fwd_aoi_ctl
ns_src=fibb-src
ns_fwd=fibb-fwd
table=bench
users=1000
burst=32
trace_seed=1
cdrs="0.01 0.1"
syncs="rwlock rcu bucket seqcount"
small_rings="64 64"	# the paper's Fig. 4 rings, scaled down
large_rings="4096 4096"

bench_args "$@"
if [ "$mode" = full ]; then
	factors="0.125 0.25 0.5 1 2 4"
	secs=3
else
	factors="0.5 2"
	secs=1
fi
seed=$bench_seed
progress=$(dirname "$out")/progress.log
probe_dir=$(dirname "$out")/probe

cleanup() {
	ip netns del "$ns_src" 2>/dev/null
	ip netns del "$ns_fwd" 2>/dev/null
}
trap cleanup EXIT

in_src() { ip netns exec "$ns_src" "$@"; }
in_fwd() { ip netns exec "$ns_fwd" "$@"; }
mac_of() { ip netns exec "$1" cat "/sys/class/net/$2/address"; }

topology() {
	cleanup
	ip netns add "$ns_src" && ip netns add "$ns_fwd" &&
	ip -n "$ns_src" link add s0 type veth peer name f0 netns "$ns_fwd" &&
	ip -n "$ns_src" link set s0 up && ip -n "$ns_fwd" link set f0 up
}

# The methods of one routing point: SYNC:FWD[:CRING:DRING], and xdp.
methods() {
	local s

	for s in $syncs; do
		echo "$s:ring:${small_rings/ /:}"
		echo "$s:ring:${large_rings/ /:}"
	done
	echo "rcu:inline"
	[ -x "$xdp" ] && echo "xdp"
}

# source DIR RATE CDR USERS COUNTERS-CMD LABELS...: one tw-fib-source run.
source_run() {
	local dir=$1 rate=$2 cdr=$3 n=$4 cmd=$5 rows
	shift 5
	rows=$(awk -v r="$rate" -v s="$secs" -v c="${row_cap:-0}" \
		'BEGIN { if (c && r > c) r = c; printf "%d", r * s }')
	mkdir -p "$dir"
	in_src "$src_tool" -q -i s0 -d "$fwd_mac" -o "$dir" -r "$rate" \
		-b "$burst" -n "$rows" -u "$n" -c "$cdr" -s "$trace_seed" \
		--counters-cmd "$cmd" "$@" > "$dir/summary.txt" 2>&1
}

# tfib_run DIR RATE CDR USERS SYNC FWD [CRING DRING]
tfib_run() {
	local dir=$1 rate=$2 cdr=$3 n=$4 sync=$5 fwd=$6 rc
	local rings=("${@:7}") labels=(--label sync="$5" --label fwd="$6")

	[ ${#rings[@]} -eq 2 ] && labels+=(--label control_ring="${rings[0]}"
					   --label data_ring="${rings[1]}")
	in_fwd "$ctl" setup "$table" "$sync" "$fwd" f0 "$n" "$sink_mac" \
		"${rings[@]}" || return 1
	source_run "$dir" "$rate" "$cdr" "$n" \
		"ip netns exec $ns_fwd $ctl stats $table" "${labels[@]}"
	rc=$?
	in_fwd "$here/tfib_ctl" del "$table" || rc=1
	return $rc
}

# xdp_run DIR RATE CDR USERS: native on f0, the pass-through on s0 (veth
# delivers a native XDP_TX frame only to a peer running NAPI).
xdp_run() {
	local dir=$1 rate=$2 cdr=$3 n=$4 rc

	in_src "$xdp" attach s0 --pass >/dev/null &&
	in_fwd "$xdp" attach f0 -e "$n" >/dev/null &&
	in_fwd "$xdp" set f0 "1-$n" "$sink_mac" || return 1
	source_run "$dir" "$rate" "$cdr" "$n" \
		"ip netns exec $ns_fwd $xdp stats f0" --label fwd=xdp
	rc=$?
	in_fwd "$xdp" detach f0 || rc=1
	in_src "$xdp" detach s0 || rc=1
	return $rc
}

# one DIR RATE CDR METHOD: the method's run at (R, CDR); baseline: one
# user, CDR 0, rcu inline (a lookup of one entry: the cheapest path).
one() {
	local dir=$1 rate=$2 cdr=$3 m=$4

	case $m in
	xdp) xdp_run "$dir" "$rate" "$cdr" "$users" ;;
	baseline) tfib_run "$dir" "$rate" 0 1 rcu inline ;;
	*) local f
	   IFS=: read -ra f <<< "$m"
	   tfib_run "$dir" "$rate" "$cdr" "$users" "${f[@]}" ;;
	esac
}

# loss DIR: the percentage of data packets sent that did not come back.
loss() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 $c["event"] == "data_tx" { tx++ }
		 $c["event"] == "data_rx" { rx++ }
		 END { printf "%.2f", tx ? 100 * (tx - rx) / tx : 100 }' \
		"$1/events.csv" 2>/dev/null || echo 100
}

# sent_pps DIR: the rate the source achieved.
sent_pps() {
	awk '{ for (i = 1; i < NF; i++) if ($i == "sent_pps") print int($(i + 1)) }' \
		"$1/summary.txt" 2>/dev/null
}

# carries R: does the chain carry R (rcu, rings 4096, CDR 0.01)?
carries() {
	local r=$1 dir=$probe_dir/$1 l p

	one "$dir" "$r" 0.01 rcu:ring:${large_rings/ /:} || return 1
	l=$(loss "$dir")
	p=$(sent_pps "$dir")
	say "probe: R $r pps, sent ${p:-?} pps, $l % of data lost"
	awk -v l="$l" -v p="${p:-0}" -v r="$r" \
		'BEGIN { exit !(l <= 1 && p >= 0.9 * r) }'
}

# probe: the capacity C, doubling R from 500 pps while the chain carries
# it (up to 128000), then one step of sqrt 2 above the last R carried.
probe() {
	local r=500

	capacity=0
	while [ $r -le 128000 ] && carries $r; do
		capacity=$r
		r=$((r * 2))
	done
	r=$((capacity * 141 / 100))
	[ "$capacity" -gt 0 ] && carries $r && capacity=$r
}

# point_runs: every "CDR/METHOD" of one R, the baseline as "0/baseline".
point_runs() {
	local c m

	echo "0/baseline"
	for c in $cdrs; do
		for m in $(methods); do echo "$c/$m"; done
	done
}

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
for c in ip python3 awk; do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
[ -x "$ctl" ] || { echo "Bail out! $ctl not built"; exit "$KSFT_FAIL"; }
[ -x "$src_tool" ] || { echo "Bail out! $src_tool not built"; exit "$KSFT_FAIL"; }
"$ctl" stats none >/dev/null 2>&1
[ $? -ne "$KSFT_SKIP" ] || tap_skip_all "tfib module not loaded"

tap_plan 4
rm -rf "$out" "$progress" "$probe_dir"
mkdir -p "$out" || exit 1
tap_ok "two namespaces joined by veth" topology
sink_mac=$(mac_of "$ns_src" s0)
fwd_mac=$(mac_of "$ns_fwd" f0)
[ -x "$xdp" ] || say "tw-fib-xdp not built: no XDP peer runs"
say "$mode run, order seed $seed (TW_BENCH_SEED=$seed repeats it)"

capacity=
probe
tap_result $((capacity == 0)) "capacity probe: C = $capacity pps (rcu, rings 4096, CDR 0.01)"
say "capacity C = $capacity pps (probe runs in $probe_dir)"
row_cap=$capacity
rates=$(for f in $factors; do
	awk -v c="$capacity" -v f="$f" 'BEGIN { printf "%d\n", c * f + 0.5 }'
done | sort -un)
say "sweep: R = $(echo $rates) pps; $secs s of traffic a run"

cat > "$out/bench.json" <<EOF
{"mode": "$mode", "seed": $seed, "capacity_pps": $capacity,
 "rates_pps": [$(echo $rates | tr ' ' ',')], "factors": "$factors",
 "seconds": $secs, "users": $users, "burst": $burst, "cdrs": "$cdrs",
 "small_rings": "$small_rings", "large_rings": "$large_rings",
 "kernel": "$(uname -r)", "cpus": $(nproc),
 "commit": "$(git -c safe.directory="$TW_ROOT" -C "$TW_ROOT" describe --always --dirty 2>/dev/null || echo unknown)",
 "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"}
EOF

total=$(( $(echo $rates | wc -w) * $(point_runs | wc -l) ))
done_n=0 failed=0 start=$(date +%s)
for r in $rates; do
	for p in $(point_runs | shuffle $((seed + r))); do
		c=${p%%/*} m=${p#*/}
		dir=$out/cdr$c/r$r/${m//:/-}
		done_n=$((done_n + 1))
		if one "$dir" "$r" "$c" "$m"; then
			say "[$done_n/$total] R $r CDR $c $m: $(loss "$dir") % lost"
		else
			failed=$((failed + 1))
			say "[$done_n/$total] R $r CDR $c $m: FAILED ($(tail -n 1 "$dir/summary.txt" 2>/dev/null))"
		fi
	done
done
say "$done_n runs in $(( $(date +%s) - start )) s, $failed failed"
tap_result $((failed > 0)) "every run completed ($failed of $done_n failed)"
tap_ok "each completed run left its records" \
	test "$(find "$out" -name events.csv | wc -l)" -eq $((done_n - failed))
tap_done
