#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Age-of-Information experiment (make bench-tfib), through "timewire tfib
# bench": tw-tfib-source sends a Zipf(1) trace of 1000 users through tfib.ko
# and through the XDP peer (tw-tfib-xdp), over a sweep of rates R that
# passes the chain's capacity, in repetitions.  The grid is what
# tw-tfib-analyze's targets and findings need, no more:
#   CDR 0.1:  rwlock, rcu and seqcount through rings of 64 (the paper's
#             Fig. 4 rings, scaled down), rcu inline, xdp and, with
#             omware loaded, rcu inline paced by omware (shown, not judged)
#   CDR 0.01: rwlock and rcu through the same rings (finding (b))
#
#   bench/tfib/guest/bench.sh [--short|--full] OUTDIR
#
# The regime (the paper's): tfib's rings and writer are the bottleneck
# while the ingress has headroom.  The ingress named cpu0-softirq (the
# default): f0 receives in the sending CPU's softirq, the frame handed to
# tfib's ring in the source's own system call, so the ingress keeps up
# with whatever the source sends; tfib's writer and workers, and the
# sink's receive of what they transmit, share CPU 1, a budget smaller than
# what CPU 0 delivers.  Inline tfib and the XDP peer do their work in that
# same softirq, so they slow the source rather than lose frames.
# TW_AOI_INGRESS=cpu1-napi is the earlier split: f0 receives in a NAPI
# thread on CPU 1, beside tfib's threads, where its ring of 256 overflows
# before tfib's rings do.  Each run's record says where its lost packets
# went: f0's ingress (frames it refused the source), tfib's control and
# data rings, the table (drop-no-entry, drop-table-full).
#
# Each run leaves OUTDIR/rep<N>/cdr<CDR>/r<R>/<method>/{events.csv,run.json}
# (labels sync, fwd, rings, rep, ingress; the forwarder's counters).  The
# host analyses them (tw-tfib-analyze).  Runs as root in the guest, tfib
# loaded; prints TAP and a progress line per run (also to
# OUTDIR/../progress.log; the tools' errors in OUTDIR/../bench-errors.log).
#
# Fixed before the first run, kept in OUTDIR/bench.json:
#   - the capacity C: the highest R of a doubling probe (rcu through rings
#     of 4096, CDR 0.01, then one step of sqrt 2) that the chain carries:
#     the source sends at least 90 % of R and at most 1 % of the data
#     packets are lost;
#   - the sweep: R = C times each factor of $factors, rounded; a run sends
#     R x its seconds rows, at most C x its seconds (above C the source
#     sends as fast as it can);
#   - the order seed S: repetition N runs its cells, every R, CDR and
#     method, in an order shuffled from S + N (printed; TW_BENCH_SEED=S
#     repeats it); the trace's seed is fixed.
# Resumable: run again with the same OUTDIR, a stopped run goes on with
# the plan of bench.json, skipping every run that completed (its
# "completed" marker; a failed run's records are removed and it runs
# again).  Refused when the plan's cells, repetitions, seconds, factors,
# ingress or commit are not this run's.  Each start is a boot, numbered
# into every run.json (boot) and OUTDIR/progress-boot<N>.log; the probe's
# lines and records stay in OUTDIR/probe (no events.csv there).
# --full: factors 1/4 .. 4, 3 s of traffic a run, 5 repetitions (200
# runs, 40 a repetition, about 7 min a repetition under emulation, 40 min
# with the probe); --short: factors 1/2 and 2, 1 s a run, 2 repetitions
# (32 runs, indicative only: the targets need 5).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TW_ROOT=${TW_ROOT:-$(cd "$here/../../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$TW_ROOT/tests/lib/tap.sh"
# shellcheck source=bench/lib/bench.sh
. "$TW_ROOT/bench/lib/bench.sh"
# shellcheck source=tests/lib/topo.sh
. "$TW_ROOT/tests/lib/topo.sh"

TW=$TW_ROOT/userspace/timewire/timewire
tw_bench=$TW_ROOT/bench/tfib/tw-tfib-bench
xdp=$TW_ROOT/bench/tfib/tw-tfib-xdp
ns=fibb
users=1000
burst=32
trace_seed=1
rings="64:64"
probe_rings="4096:4096"
judged_methods="rwlock-ring rcu-ring seqcount-ring rcu-inline"
low_cdr_methods="rwlock-ring rcu-ring"

bench_args "$@"
if [ "$mode" = full ]; then
	factors="0.25 0.5 1 2 4"
	secs=3
	reps=5
else
	factors="0.5 2"
	secs=1
	reps=2
fi
progress=$(dirname "$out")/progress.log
errors=$(dirname "$out")/bench-errors.log
probe_dir=$(dirname "$out")/probe
plan=$out/bench.json
ingress=${TW_AOI_INGRESS:-cpu0-softirq}
if [ -n "${TW_BENCH_SEED:-}" ]; then
	[[ $TW_BENCH_SEED =~ ^[0-9]+$ ]] ||
		{ echo "Bail out! TW_BENCH_SEED=$TW_BENCH_SEED: not a number"; exit "$KSFT_FAIL"; }
	bench_seed=$((10#$TW_BENCH_SEED))
fi

topology() {
	ip netns del "$ns" 2>/dev/null	# a killed run's
	topo_ns "$ns" && topo_veth "$ns" s0 "$ns" f0 || return 1
	[ "$ingress" = cpu1-napi ] || return 0
	napi_split
}

# cpu1-napi: f0 receives in NAPI, as a NIC's driver does, on CPU 1, for
# tfib and the XDP peer alike.  GRO on f0 gives it a NAPI instance (kept
# across the peer's attach and detach), TSO off on s0 lets veth hand s0's
# frames to that instance (a TSO sender's frames skip it), and the
# instance, made threaded, has its kthread bound to CPU 1.  The sending
# CPU then only puts each frame on f0's ring of 256.
napi_split() {
	local pid pids

	ip netns exec "$ns" ethtool -K f0 gro on >/dev/null &&
		ip netns exec "$ns" ethtool -K s0 tso off >/dev/null &&
		ip netns exec "$ns" sh -c 'echo 1 > /sys/class/net/f0/threaded' ||
		return 1
	pids=$(pgrep '^napi/f0-') || return 1
	# A thread of an f0 whose namespace is still going may be among them.
	for pid in $pids; do
		taskset -pc 1 "$pid" >/dev/null || ! kill -0 "$pid" 2>/dev/null ||
			return 1
	done
}

# bench ARGS...: tw-tfib-bench from s0 (the source) on CPU 0 through f0
# (the forwarder, tfib's threads and xdp-user's process on CPU 1), with
# what every run shares; a line per run on stdout.  A frame f0 refuses s0
# is lost, as behind a wire, rather than slowing the source down.
bench() {
	taskset -c 0 ip netns exec "$ns" "$tw_bench" dev f0 source s0 \
		users "$users" burst "$burst" seed "$trace_seed" \
		seconds "$secs" refused lost forwarder-cpu 1 \
		ingress "$ingress" "$@" < /dev/null 2>> "$errors"
}

# tree_commit: the tree's version, as the plan names it.
tree_commit() {
	git -c safe.directory="$TW_ROOT" -C "$TW_ROOT" describe --always --dirty 2>/dev/null ||
		echo unknown
}

# field LINE KEY: the value of KEY in one of bench's lines.
field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$1"
}

# json_int DIR KEY: a number of the run's record, or "?".
json_int() {
	local v

	v=$(grep -o "\"$2\": *[0-9]*" "$1/run.json" 2>/dev/null | grep -o '[0-9]*$')
	echo "${v:-?}"
}

# loss DIR: the percentage of data packets the source meant to send that
# did not come back, frames omware did not send among them.
loss() {
	local unsent

	unsent=$(json_int "$1" tx_dropped_data)
	awk -F, -v u="${unsent//\?/0}" \
		'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 $c["event"] == "data_tx" { tx++ }
		 $c["event"] == "data_rx" { rx++ }
		 END { tx += u; printf "%.2f", tx ? 100 * (tx - rx) / tx : 100 }' \
		"$1/events.csv" 2>/dev/null || echo 100
}

# where_lost DIR: "ingress N, control ring N, data ring N, receive
# socket N" of a run.
where_lost() {
	echo "ingress $(json_int "$1" tx_refused), control ring $(
		json_int "$1" control_ring_dropped), data ring $(
		json_int "$1" data_ring_dropped), receive socket $(
		json_int "$1" rx_socket_drops)"
}

# busy DIR: ", CPU busy: cpu0 N % cpu1 N % ..." from the run's record,
# while it sent.
busy() {
	tr -d ' \n' < "$1/run.json" 2>/dev/null |
		grep -o '"cpu_busy_permille":{[^}]*}' |
		awk -F'[{}:,"]+' '{ s = ", CPU busy:";
			for (i = 3; i < NF; i += 2) s = s " " $i " " $(i + 1) / 10 " %";
			print s }'
}

# carries R: does the chain carry R (rcu, rings 4096, CDR 0.01)?
carries() {
	local r=$1 line l p dir

	line=$(bench out "$probe_dir/$r" methods rcu-ring \
		rings "$probe_rings" rate "$r" cdr 0.01) || return 1
	dir=$(field "$line" run)
	l=$(loss "$dir")
	p=$(field "$line" sent_pps)
	p=${p%.*}
	say "probe: R $r pps, sent ${p:-?} pps, $l % of data lost ($(
		where_lost "$dir"))$(busy "$dir")"
	mkdir -p "$out/probe" && cp "$dir/run.json" "$out/probe/r$r.json" 2>/dev/null
	awk -v l="$l" -v p="${p:-0}" -v r="$r" \
		'BEGIN { exit !(l <= 1 && p >= 0.9 * r) }'
}

# probe: the capacity C, doubling R from 500 pps while the chain carries
# it (up to 1024000), then one step of sqrt 2 above the last R carried
# (up to 1443840).
probe() {
	local r=500

	capacity=0
	while [ $r -le 1024000 ] && carries $r; do
		capacity=$r
		r=$((r * 2))
	done
	r=$((capacity * 141 / 100))
	[ "$capacity" -gt 0 ] && carries $r && capacity=$r
}

# plan_value KEY: a string or number of bench.json, or nothing.
plan_value() {
	tr -d '\n' < "$plan" 2>/dev/null |
		grep -o "\"$1\": *\(\"[^\"]*\"\|[0-9]*\)" | sed 's/^[^:]*: *//; s/"//g'
}

# write_plan: the run's design, fixed before its first run.
write_plan() {
	cat > "$plan" <<EOF
{"mode": "$mode", "seed": $seed, "capacity_pps": $capacity,
 "rates_pps": [$(echo $rates | tr ' ' ',')], "factors": "$factors",
 "seconds": $secs, "repetitions": $reps, "users": $users,
 "burst": $burst, "rings": "$rings", "probe_rings": "$probe_rings",
 "ingress": "$ingress", "cells": "$(cells | tr '\n' ' ' | sed 's/ $//')",
 "kernel": "$(uname -r)", "cpus": $(nproc), "clock": "${TW_CLOCK:-real}",
 "commit": "$(tree_commit)",
 "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"}
EOF
}

# plan_differs: what of the plan is not this run's (mode, cells,
# repetitions, seconds, factors, ingress, commit), or nothing.
plan_differs() {
	local key want

	for key in mode cells repetitions seconds factors ingress commit; do
		case $key in
		cells) want=$(cells | tr '\n' ' ' | sed 's/ $//') ;;
		repetitions) want=$reps ;;
		seconds) want=$secs ;;
		commit) want=$(tree_commit) ;;
		*) want=${!key} ;;
		esac
		[ "$(plan_value "$key")" = "$want" ] ||
			{ echo "its $key: $(plan_value "$key"), not $want"; return; }
	done
}

# load_plan: a stopped run's design, if OUTDIR has one: 0 when it is
# this run's, 1 when there is none, 2 when it differs ($why says how).
load_plan() {
	[ -s "$plan" ] || return 1
	why=$(plan_differs)
	[ -z "$why" ] || return 2
	why="it lacks the seed, C or the rates"
	seed=$(plan_value seed)
	capacity=$(plan_value capacity_pps)
	rates=$(tr -d '\n' < "$plan" | grep -o '"rates_pps": *\[[^]]*\]' |
		grep -o '[0-9][0-9]*' | tr '\n' ' ')
	[ -n "$seed" ] && [ -n "$capacity" ] && [ -n "$rates" ] || return 2
}

# cells: the runs of one R as "CDR:METHOD", one a line.
cells() {
	local m

	for m in $judged_methods; do echo "0.1:$m"; done
	[ -x "$xdp" ] && echo "0.1:xdp"
	[ -n "$paced" ] && echo "0.1:$paced"
	for m in $low_cdr_methods; do echo "0.01:$m"; done
}

# run_dir REP R CDR METHOD: where tw-tfib-bench leaves the run.
run_dir() {
	local d=$out/rep$1/cdr$3/r$2/$4

	case $4 in *-ring*) d=$d-${rings/:/-} ;; esac
	echo "$d"
}

# completed DIR: did the run of DIR complete (one_run's marker)?
completed() {
	[ -e "$1/completed" ]
}

# stopped_well DIR: did the source send to the end (run.json's stop done,
# or dropped by omware), not stopped by a signal or an error?
stopped_well() {
	grep -q '"stop": *"\(done\|dropped\)"' "$1/run.json" 2>/dev/null
}

# one_run N REP R CDR METHOD: one run and its progress line, unless a
# stopped boot completed it; a run that failed leaves no marker and its
# events under another name, and its records go when it runs again.
one_run() {
	local n=$1 rep=$2 r=$3 cdr=$4 m=$5 dir line status

	dir=$(run_dir "$rep" "$r" "$cdr" "$m")
	if completed "$dir"; then
		skipped=$((skipped + 1))
		return
	fi
	rm -rf "$dir"
	line=$(bench out "$out/rep$rep" methods "$m" rings "$rings" \
		rate "$r" cdr "$cdr" cap "$capacity" rep "$rep" boot "$boot")
	status=$(field "$line" status)
	case $status in
	ok|dropped) stopped_well "$dir" || status="stopped" ;;
	esac
	case $status in
	ok|dropped) touch "$dir/completed"
		line="$(loss "$dir") % lost: $(where_lost "$dir")" ;;
	*) failed_now=$((failed_now + 1))
		# Kept to be looked at, but out of the analyser's walk.
		mv "$dir/events.csv" "$dir/events-failed.csv" 2>/dev/null
		line="FAILED ($(tail -n 1 "$errors" 2>/dev/null))" ;;
	esac
	[ "$status" != dropped ] ||
		line="$line, $(json_int "$dir" tx_dropped) frames omware did not send"
	say "[$n/$total] rep $rep R $r CDR $cdr $m: $line"
	cp "$progress" "$out/progress-boot$boot.log"
}

# each_cell: every run of the plan as "REP R CDR METHOD", one a line.
each_cell() {
	local rep r c

	for rep in $(seq 1 "$reps"); do
		for r in $rates; do
			for c in $(cells); do echo "$rep $r ${c/:/ }"; done
		done
	done
}

# count_cells TEST: the plan's runs whose directory passes TEST DIR.
count_cells() {
	local rep r cdr m n=0

	while read -r rep r cdr m; do
		"$1" "$(run_dir "$rep" "$r" "$cdr" "$m")" && n=$((n + 1))
	done < <(each_cell)
	echo "$n"
}

# left_events DIR: a completed run left its events (or did not complete).
left_events() {
	! completed "$1" || [ -s "$1/events.csv" ]
}

# rates_of C: the sweep's rates, C times each factor, rounded.
rates_of() {
	local f

	for f in $factors; do
		awk -v c="$1" -v f="$f" 'BEGIN { printf "%d\n", c * f + 0.5 }'
	done | sort -un | tr '\n' ' '
}

# repetition REP: every run of the sweep once, in the order of its seed.
repetition() {
	local rep=$1 r c cdr m n

	say "repetition $rep: order seed $((seed + rep))"
	n=$(( (rep - 1) * per_rep ))
	for r in $rates; do
		for c in $(cells); do echo "$r:$c"; done
	done | shuffle $((seed + rep)) > "$out/order-rep$rep"
	while IFS=: read -r r cdr m; do
		n=$((n + 1))
		one_run "$n" "$rep" "$r" "$cdr" "$m"
	done < "$out/order-rep$rep"
}

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
case $ingress in
cpu0-softirq|cpu1-napi) ;;
*) echo "Bail out! TW_AOI_INGRESS: cpu0-softirq or cpu1-napi, not $ingress"
   exit "$KSFT_FAIL" ;;
esac
for c in ip awk taskset /usr/bin/python3 \
	 $([ "$ingress" = cpu1-napi ] && echo ethtool pgrep); do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
[ "$(nproc)" -ge 2 ] || tap_skip_all "needs two CPUs: the source's, the forwarder's"
[ -x "$TW" ] && [ -x "$tw_bench" ] || make -s -C "$TW_ROOT" userspace >/dev/null 2>&1 ||
	{ echo "Bail out! $TW or $tw_bench not built"; exit "$KSFT_FAIL"; }
"$TW" tfib show >/dev/null 2>&1
[ $? -ne 2 ] || tap_skip_all "tfib module not loaded"
# The source paced by omware where the module is in.
paced=
[ -d /sys/module/omware ] && paced="rcu-inline+omware"

tap_plan 4
mkdir -p "$out" || exit 1
tap_ok "one namespace, a veth pair: s0 (source), f0 (forwarder), ingress $ingress" \
	topology
[ -x "$xdp" ] || say "tw-tfib-xdp not built: no XDP peer runs"
[ -n "$paced" ] || say "omware not loaded: no paced runs"

load_plan
case $? in
0)	say "resuming the $mode run of $plan"
	[ -z "${TW_BENCH_SEED:-}" ] || [ "$bench_seed" = "$seed" ] ||
		say "TW_BENCH_SEED=$bench_seed not used: the plan's order seed is $seed"
	tap_is "capacity: C = $capacity pps from the stopped run's plan, its rates from C" \
		"$(rates_of "$capacity")" "$rates" ;;
1)	seed=$bench_seed
	rm -rf "$probe_dir" "$out/probe"
	probe
	tap_result $((capacity == 0)) "capacity probe: C = $capacity pps (rcu, rings 4096, CDR 0.01)"
	say "capacity C = $capacity pps (probe runs in $probe_dir)"
	rates=$(rates_of "$capacity")
	mkdir -p "$out/probe" && cp "$progress" "$out/probe/progress.log"
	[ "$capacity" -eq 0 ] || write_plan ;;
*)	echo "Bail out! $plan is another run's: $why; rm -rf $out to start afresh"
	exit "$KSFT_FAIL" ;;
esac
boot=$(( $(ls "$out"/progress-boot*.log 2>/dev/null | wc -l) + 1 ))
per_rep=$(( $(echo $rates | wc -w) * $(cells | wc -l) ))
total=$((reps * per_rep))
say "$mode run, ingress $ingress, order seed $seed (TW_BENCH_SEED=$seed repeats it)"
say "sweep: R = $(echo $rates) pps; $secs s of traffic a run; $reps repetitions of $per_rep runs"

skipped=0 failed_now=0 start=$(date +%s)
say "boot $boot (run.json's boot; this boot's lines in $out/progress-boot$boot.log)"
cp "$progress" "$out/progress-boot$boot.log"
if [ "$capacity" -gt 0 ]; then
	for rep in $(seq 1 "$reps"); do
		repetition "$rep"
	done
fi
done_n=$(count_cells completed)
failed=$((total - done_n))
say "$total runs ($skipped kept from a stopped boot, $failed_now failed in this one) in $(( $(date +%s) - start )) s, $failed not completed"
tap_result $((failed > 0)) "every run completed ($failed of $total not)"
tap_is "each completed run left its events" "$total" "$(count_cells left_events)"
tap_done
