#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# OMware send-time benchmark: every method of tw-omware-bench on one veth,
# observed at the wire by tw-omware-rx -d out (the kernel stamps every
# method's packets at the same point, just before the veth driver), received
# by a second tw-omware-rx in the peer namespace, analysed by
# tw-omware-analyze.
#
#   bench/omware/bench.sh [--short|--full] [OUTDIR]
#
# OUTDIR defaults to $TW_OUT (set by the guest harness).  --short (default)
# is the demo: one round, a few seconds of actual sending (a few minutes of
# setup under emulation).  --full is the whole grid: alpha 1000/100/10 us,
# IP size 40/1500, idle and loaded, ten rounds.
# Runs as root inside the guest (or any machine where it may create network
# namespaces); prints TAP.  Each round runs the cells in an order shuffled
# from the run's seed and the round, and tw-omware-bench the methods of a
# cell in an order shuffled from the seed, the round and the cell, after a
# warm-up trial of the cell's first method, which the analysis leaves out.
# TW_BENCH_SEED sets the seed, which the run prints and keeps in run.json.
# Rounds resume: each round's records go to OUTDIR/raw/round-NN/, marked
# done when no cell broke, every loaded cell ran its cross traffic and
# the observers wrote their records; run again on the same OUTDIR, the
# script skips the done rounds, redoes the others and keeps the seed (a
# different grid, commit, kernel, CPU count or seed is refused).
# --full in virtual time (TW_CLOCK=virtual) fails when a pre-registered
# target fails (tw-omware-analyze --strict); in real time, and the short
# run, report their verdicts without asserting them: the targets judge
# virtual time, and a short run cannot tell noise from a difference.
#
#   ns twb-x (cross traffic)      ns twb-s (sender, ip_forward on)
#   +----------------------+      +------------------------------------+
#   | iperf3 -u (load only)|      | on the sending CPU: tw-omware-bench|
#   |                      |      |   and, under load, a busy loop     |
#   | twxx 10.78.0.2/24 ---+-veth-+-- twxs 10.78.0.1/24                |
#   +----------------------+      | tw-omware-rx -d out (observer)     |
#                                 | tws0 10.77.0.1/24                  |
#                                 +---+--------------------------------+
#        the probes and, under load,  | veth
#        the cross traffic forwarded  |
#   ns twb-r (receiver)               |
#   +---------------------------------+--------------------------------+
#   | twr0 10.77.0.2/24                                                |
#   | tw-omware-rx: AF_PACKET + UDP, the probes to port 29000          |
#   | iperf3 -s, port 5201 (load only)                                 |
#   +------------------------------------------------------------------+
#
# Under load the benchmark's CPU gets one busy loop and the receiver a UDP
# flow at a rate fixed before the run (TW_BENCH_CROSS_PPS packets of
# TW_BENCH_CROSS_SIZE IP bytes a second) routed through the sender; the
# achieved rate (datagrams forwarded per second) goes to
# raw/round-NN/load.csv and run.json.  The observers count the probes to
# port 29000 alone, so the cross traffic is never a sample.
#
# Environment overrides (space separated lists): TW_BENCH_ALPHAS,
# TW_BENCH_SIZES, TW_BENCH_LOADS (idle load), TW_BENCH_ROUNDS,
# TW_BENCH_COUNT, TW_BENCH_PAIRS, TW_BENCH_METHODS (trains list, see
# "tw-omware-bench help"), TW_BENCH_PAIR_METHODS, TW_BENCH_ETF_DELTAS
# (comma separated, us), TW_BENCH_SEED, TW_BENCH_CPU (the sending CPU,
# default 0), TW_BENCH_CROSS_PPS, TW_BENCH_CROSS_SIZE; TW_BENCH_PLOTS=1
# draws the plots in the guest too.
set -u

here=$(cd "$(dirname "$0")" && pwd)
TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$TW_ROOT/tests/lib/tap.sh"
# shellcheck source=bench/lib/bench.sh
. "$TW_ROOT/bench/lib/bench.sh"
# shellcheck source=tests/lib/topo.sh
. "$TW_ROOT/tests/lib/topo.sh"

# The etf delta, fixed before the run (us): etf gets txtime = time + delta
# and so releases at the time whatever the delta; a larger delta only
# drops fewer late packets.  tw-omware-analyze judges the largest delta run.
etf_delta=10000
# The cross traffic, fixed before the run: the paper's flows ran at 352
# packets a second each, up to 30 of them; 1000 a second of full-size
# packets is what the emulated guest forwards beside the busy loop.
cross_pps=${TW_BENCH_CROSS_PPS:-1000}
cross_size=${TW_BENCH_CROSS_SIZE:-1500}
CROSS_PORT=5201
# A loaded cell whose cross traffic fell below this share of the rate
# fixed before the run did not run the load the plan says.
CROSS_MIN=0.9
send_cpu=${TW_BENCH_CPU:-0}

mode=short
case "${1:-}" in
--short) mode=short; shift ;;
--full) mode=full; shift ;;
-h|--help)
	sed -n '4,30p' "$0" | sed 's/^# \{0,1\}//'
	exit 0 ;;
esac
out=${1:-${TW_OUT:-}}
if [ -z "$out" ]; then
	echo "usage: $0 [--short|--full] OUTDIR" >&2
	exit 1
fi

if [ "$mode" = full ]; then
	alphas=${TW_BENCH_ALPHAS:-"1000 100 10"}
	sizes=${TW_BENCH_SIZES:-"40 1500"}
	loads=${TW_BENCH_LOADS:-"idle load"}
	rounds=${TW_BENCH_ROUNDS:-10}
	count=${TW_BENCH_COUNT:-1000}
	pairs=${TW_BENCH_PAIRS:-1000}
else
	alphas=${TW_BENCH_ALPHAS:-"1000 100"}
	sizes=${TW_BENCH_SIZES:-"40"}
	loads=${TW_BENCH_LOADS:-"idle load"}
	rounds=${TW_BENCH_ROUNDS:-1}
	count=${TW_BENCH_COUNT:-100}
	pairs=${TW_BENCH_PAIRS:-50}
fi
deltas=${TW_BENCH_ETF_DELTAS:-$etf_delta}
train_methods=${TW_BENCH_METHODS:-trains}
pair_methods=${TW_BENCH_PAIR_METHODS:-pairs}
time_mode=${TW_CLOCK:-real}
omware=false
[ -d /sys/module/omware ] && omware=true

BENCH=${TW_BENCH_TOOL:-$TW_ROOT/bench/omware/tw-omware-bench}
RX=$TW_ROOT/bench/omware/tw-omware-rx
AN=$TW_ROOT/bench/omware/tw-omware-analyze
NS_S=twb-s
NS_R=twb-r
NS_X=twb-x
raw=$out/raw
# one line a workload, which make bench-omware follows
progress=$out/progress.log

rx_pids=""
load_pids=""

stop_load() {
	local p

	for p in $load_pids; do kill "$p" 2>/dev/null; done
	for p in $load_pids; do wait "$p" 2>/dev/null; done
	load_pids=""
}

cleanup() {
	stop_load
	# The observers go last: they hold the timestamping sockets.
	stop_observers
	release_timestamping
	topo_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

setup() {
	cleanup
	local ns
	for ns in "$NS_S" "$NS_R" "$NS_X"; do
		ip netns del "$ns" 2>/dev/null	# a killed run's
	done
	topo_ns "$NS_S" "$NS_R" "$NS_X" || return 1
	# No IPv6 chatter (router solicitations, DAD) on the link under test.
	for ns in "$NS_S" "$NS_R" "$NS_X"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	done
	topo_veth "$NS_S" tws0 "$NS_R" twr0 addr 10.77.0.1/24 10.77.0.2/24 \
		mac 02:74:77:00:00:01 02:74:77:00:00:02 noipv6 &&
	topo_veth "$NS_X" twxx "$NS_S" twxs addr 10.78.0.2/24 10.78.0.1/24 noipv6 &&
	ip netns exec "$NS_S" sysctl -qw net.ipv4.ip_forward=1 &&
	ip -n "$NS_X" route add default via 10.78.0.1 &&
	ip -n "$NS_R" route add 10.78.0.0/24 via 10.77.0.1 &&
	hold_timestamping
}

# observe NS NAME DIR TW-OMWARE-RX-ARGS...: a tw-omware-rx for a round;
# DIR/NAME.ready appears once its socket is open.
observe() {
	local ns=$1 name=$2 dir=$3 i
	shift 3
	ip netns exec "$ns" "$RX" -r "$dir/$name.ready" -t 86400 -q "$@" \
		2>> "$dir/$name.log" &
	rx_pids+=" $!"
	for i in $(seq 50); do
		[ -e "$dir/$name.ready" ] && return
		sleep 0.1
	done
}

# hold_timestamping: one timestamping socket (a tw-omware-rx on the
# sender's lo) open from before the first round to the end of the run.
# Opening the first such socket and closing the last flips a static key;
# the rounds' observers come and go, and without it each round would
# patch the kernel's code under traffic, which multi-threaded TCG races
# (Documentation/harness.rst, "Single-threaded emulation").
hold_timestamping() {
	local i

	keep_dir=$(mktemp -d) || return 1
	ip netns exec "$NS_S" "$RX" -r "$keep_dir/ready" -t 86400 -q -d out \
		-i lo -o "$keep_dir/lo.csv" 2>> "$keep_dir/log" &
	keep_pid=$!
	for i in $(seq 50); do
		[ -e "$keep_dir/ready" ] && return
		sleep 0.1
	done
	return 1
}

release_timestamping() {
	[ -n "${keep_pid:-}" ] || return 0
	kill -INT "$keep_pid" 2>/dev/null
	wait "$keep_pid" 2>/dev/null
	rm -rf "$keep_dir"
	keep_pid=
}

# SIGINT makes tw-omware-rx write its CSV; obs_rc is the worst exit status.
stop_observers() {
	local p rc

	obs_rc=0
	for p in $rx_pids; do kill -INT "$p" 2>/dev/null; done
	for p in $rx_pids; do
		wait "$p"
		rc=$?
		[ $rc -gt $obs_rc ] && obs_rc=$rc
	done
	rx_pids=""
}

# The datagrams the sender's namespace has forwarded (IP ForwDatagrams).
forwarded() {
	ip netns exec "$NS_S" awk '$1 == "Ip:" && !n { for (i = 2; i <= NF; i++) col[$i] = i; n = 1; next }
		$1 == "Ip:" { print $col["ForwDatagrams"] }' /proc/net/snmp
}

# start_load: the busy loop on the sending CPU, then the cross traffic;
# the forwarding counter is read once the flow runs.
start_load() {
	local payload=$((cross_size - 28))

	taskset -c "$send_cpu" bash -c 'while :; do :; done' &
	load_pids+=" $!"
	ip netns exec "$NS_R" iperf3 -s -1 -p "$CROSS_PORT" >/dev/null 2>&1 &
	load_pids+=" $!"
	sleep 0.5
	# Pinned: the forwarding runs on the CPU that sends, here the
	# sending CPU, with one vCPU or two alike.
	ip netns exec "$NS_X" taskset -c "$send_cpu" iperf3 -c 10.77.0.2 -p "$CROSS_PORT" -u \
		-l "$payload" -b $((cross_pps * payload * 8)) -t 86400 -i 0 \
		>/dev/null 2>&1 &
	load_pids+=" $!"
	sleep 1
	load_t0=$(date +%s%N)
	load_f0=$(forwarded)
}

# end_load DIR GRID ROUND: the cross traffic's achieved rate into
# DIR/load.csv, then the load stopped; 1 when it fell short of
# CROSS_MIN of the rate fixed before the run.
end_load() {
	local t1 f1 secs pps
	t1=$(date +%s%N)
	f1=$(forwarded)
	stop_load
	secs=$(awk -v a="$load_t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	[ -s "$1/load.csv" ] || echo "grid,round,secs,forwarded,pps,target_pps,ip_size,busy_cpu" > "$1/load.csv"
	pps=$(awk -v s="$secs" -v f=$((f1 - load_f0)) \
		'BEGIN { printf "%.1f", (s > 0 ? f / s : 0) }')
	echo "$2,$3,$secs,$((f1 - load_f0)),$pps,$cross_pps,$cross_size,$send_cpu" >> "$1/load.csv"
	awk -v p="$pps" -v t="$cross_pps" -v m="$CROSS_MIN" 'BEGIN { exit !(p >= m * t) }'
}

# bench DIR GRID ROUND TAG SEED ARGS...: one cell, every method, on the
# sending CPU.
bench() {
	local dir=$1 grid=$2 round=$3 tag=$4 seed=$5 rc
	shift 5
	ip netns exec "$NS_S" taskset -c "$send_cpu" "$BENCH" dev tws0 \
		dst-mac 02:74:77:00:00:02 dst 10.77.0.2 \
		grid "$grid" round "$round" sport "$tag" seed "$seed" \
		out "$dir" "$@" < /dev/null >> "$dir/bench.log" 2>&1
	rc=$?
	echo "$grid round $round: exit $rc" >> "$dir/bench.log"
	# 0 everything sent, 5 some packets dropped or unreported (etf
	# sweeps drop on purpose); anything else means the run broke.
	[ $rc -eq 0 ] || [ $rc -eq 5 ]
}

# The cells of a round in their canonical order: a cell's index in it
# gives its tags, so that a cell has the same tags in every round.
cells() {
	local load size alpha
	for load in $loads; do
		for size in $sizes; do
			for alpha in $alphas; do
				echo "a$alpha-s$size-$load"
			done
			# Pairs, a millisecond apart as in the paper.
			echo "pairs-s$size-$load"
		done
	done
}

# run_cell DIR ROUND INDEX GRID: 1 when the cell broke; a loaded cell
# whose cross traffic fell short adds one to short_cells.
run_cell() {
	local dir=$1 r=$2 k=$3 grid=$4 size load alpha rc
	size=${grid#*-s}
	size=${size%%-*}
	load=${grid##*-}
	[ "$load" = load ] && start_load
	# The methods' order: from the seed, the round and the cell.
	if [ "${grid%%-*}" = pairs ]; then
		bench "$dir" "$grid" "$r" $((30000 + k * 64)) \
			$((seed + 1000 * r + k)) methods "$pair_methods" \
			count "$pairs" alpha 1000 size "$size"
	else
		alpha=${grid%%-*}
		bench "$dir" "$grid" "$r" $((30000 + k * 64)) \
			$((seed + 1000 * r + k)) methods "$train_methods" \
			count "$count" alpha "${alpha#a}" size "$size" \
			etf-delta "$deltas"
	fi
	rc=$?
	if [ "$load" = load ] && ! end_load "$dir" "$grid" "$r"; then
		short_cells=$((short_cells + 1))
	fi
	return $rc
}

# round_record DIR R: the round's record, its commit and what went
# wrong in it so far.
round_record() {
	echo "{\"round\": $2, \"commit\": $(json_str "$commit"), \"date\": \"$round_date\"," \
		"\"broke\": $round_broke, \"cross_short\": $short_cells}" > "$1/round.json"
}

# run_round R: the round's cells in its shuffled order, the observers
# around them; DIR/done only when no cell broke, every loaded cell ran
# its cross traffic and the observers wrote their records: a round
# without it is redone on resume.  broke counts the cells that broke.
run_round() {
	local r=$1 dir k grid n=0 all round_date round_broke=0
	dir=$raw/$(printf 'round-%02d' "$r")
	rm -rf "$dir"
	mkdir -p "$dir" || return 1
	round_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	short_cells=0
	round_record "$dir" "$r"
	# The observers before any traffic (hold_timestamping keeps the
	# static key on).  rx.csv (the wire) is what the analysis times;
	# recv.csv records what arrived.
	observe "$NS_S" wire "$dir" -d out -i tws0 -o "$dir/rx.csv" -s "$dir/rx-summary.json"
	observe "$NS_R" recv "$dir" -i twr0 -o "$dir/recv.csv" -s "$dir/recv-summary.json"
	if ! [ -e "$dir/wire.ready" ] || ! [ -e "$dir/recv.ready" ]; then
		stop_observers
		return 1
	fi
	sleep 1	# the observers settle
	all=$(cells)
	while read -r grid; do
		k=$(grep -nxF "$grid" <<< "$all" | cut -d: -f1)
		if ! run_cell "$dir" "$r" "$k" "$grid"; then
			broke=$((broke + 1))
			round_broke=$((round_broke + 1))
		fi
		n=$((n + 1))
		ran=$((ran + 1))
		say "[$n/$ncells] round $r/$rounds $grid ($broke broke so far)"
	done < <(shuffle $((seed + r)) <<< "$all")
	stop_observers
	sleep 0.5
	round_record "$dir" "$r"
	[ "$round_broke" -eq 0 ] && [ "$short_cells" -eq 0 ] || return 1
	[ "$obs_rc" -eq 0 ] && [ -s "$dir/rx.csv" ] && [ -s "$dir/recv.csv" ] &&
		[ -s "$dir/rx-summary.json" ] || return 1
	: > "$dir/done"
}

# json_str TEXT: TEXT as a JSON string.
json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}

# The tree measured; "-dirty" when it differs from that commit.  The
# tree may belong to another user than root in the guest.
commit() {
	local c
	c=$(git -c safe.directory="$TW_ROOT" -C "$TW_ROOT" describe \
		--always --dirty 2>/dev/null)
	echo "${c:-unknown}"
}

# The seed, start date and plan of the run OUTDIR holds, one a line.
read_meta() {
	/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["seed"]); print(d["date"]); print(d.get("plan", ""))' "$raw/run.json"
}

# The cross traffic's achieved rates over the loaded cells of the done
# rounds, as JSON.
achieved() {
	/usr/bin/python3 -c 'import csv, glob, json, os, statistics, sys
pps = [float(r["pps"]) for f in sorted(glob.glob(sys.argv[1] + "/round-*/load.csv"))
       if os.path.exists(os.path.join(os.path.dirname(f), "done"))
       for r in csv.DictReader(open(f))]
print(json.dumps({"cells": len(pps), "min": min(pps), "median": statistics.median(pps),
                  "max": max(pps)} if pps else {"cells": 0}))' "$raw"
}

meta() {
	local cs virt="none"

	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
	grep -qw hypervisor /proc/cpuinfo && virt="hypervisor"
	cat > "$raw/run.json.new" <<EOF
{"mode": "$mode", "kernel": "$(uname -r)", "cpus": $(nproc), "clock": "$time_mode",
 "time_mode": "$time_mode",
 "clocksource": "${cs:-unknown}", "cpu_flags_virt": "$virt",
 "date": "$started", "updated": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "alphas_us": $(json_str "$alphas"), "sizes": $(json_str "$sizes"),
 "loads": $(json_str "$loads"),
 "rounds": $rounds, "count": $count, "pairs": $pairs,
 "etf_deltas_us": $(json_str "$deltas"),
 "load": {"busy_loop_cpu": $send_cpu, "cross_target_pps": $cross_pps,
  "cross_ip_size": $cross_size, "cross_port": $CROSS_PORT,
  "cross_achieved_pps": $(achieved)},
 "send_cpu": $send_cpu, "warmup": "one trial per cell, discarded",
 "observer": "wire", "seed": $seed, "commit": $(json_str "$commit"),
 "omware_loaded": $omware, "plan": $(json_str "$plan")}
EOF
	mv "$raw/run.json.new" "$raw/run.json"
}

# refuse WHY: the one line saying why OUTDIR's run cannot go on.
refuse() {
	tap_diag "$raw: $1: rm -rf $out to start afresh"
	return 1
}

# fresh_or_resume: a new run in an empty raw/, or the seed and start of the
# run raw/ holds if its plan (commit and machine included) and seed are
# this one's; 1 if they are not, or if raw/ has done rounds but no
# readable run.json.
fresh_or_resume() {
	local old
	if [ -s "$raw/run.json" ] && mapfile -t old < <(read_meta) &&
	   [ ${#old[@]} -eq 3 ]; then
		if [ "${old[2]}" != "$plan" ]; then
			refuse "holds another run (plan ${old[2]}), not $plan"
			return 1
		fi
		if [ -n "${TW_BENCH_SEED:-}" ] && [ "$TW_BENCH_SEED" != "${old[0]}" ]; then
			refuse "holds the run of seed ${old[0]}, not TW_BENCH_SEED=$TW_BENCH_SEED"
			return 1
		fi
		seed=${old[0]} started=${old[1]}
		resumed=1
		return 0
	fi
	if compgen -G "$raw/round-*/done" >/dev/null; then
		refuse "done rounds but no readable run.json"
		return 1
	fi
	rm -rf "$raw"
	mkdir -p "$raw" || return 1
	seed=$bench_seed
	started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	resumed=0
}

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
for c in ip tc iperf3 python3 taskset; do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
if [ ! -x "$RX" ] || [ ! -x "$BENCH" ]; then
	make -s -C "$TW_ROOT" userspace >/dev/null 2>&1 ||
		tap_skip_all "tw-omware-rx and tw-omware-bench not built (make userspace)"
fi
[ "$send_cpu" -lt "$(nproc)" ] 2>/dev/null ||
	tap_skip_all "TW_BENCH_CPU=$send_cpu: no such CPU"

ncells=$(cells | wc -l)
tap_plan 8

mkdir -p "$out" || exit 1
rm -f "$progress"
commit=$(commit)
# What a resumed run must share with the rounds it continues: the grid,
# the tree and the machine.
plan="$mode|$alphas|$sizes|$loads|$count|$pairs|$deltas|$train_methods|$pair_methods|$cross_pps|$cross_size|$send_cpu|$time_mode|$commit|$(nproc)|$(uname -r)|$omware"

if ! fresh_or_resume; then
	tap_result 1 "run.json: a new run, or one with the same grid to resume"
	exit "$KSFT_FAIL"
fi
tap_result 0 "run.json: a new run, or one with the same grid to resume"
meta
tap_ok "setup: three namespaces, the cross traffic routed out tws0, a timestamping socket held" \
	setup
# Let the deferred static-key switch settle before the first packet.
sleep 1
tap_diag "order seed $seed (TW_BENCH_SEED=$seed repeats the order)"
[ "$resumed" = 1 ] && tap_diag "resuming the run of $started in $raw"
if [ "$omware" = false ]; then
	tap_diag "omware module not loaded: its methods are recorded as failed"
fi

broke=0
ran=0
done_rounds=0
obs_failed=0
start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
	if [ -e "$raw/$(printf 'round-%02d' "$r")/done" ]; then
		say "round $r/$rounds: done before, kept"
		done_rounds=$((done_rounds + 1))
		continue
	fi
	if run_round "$r"; then
		done_rounds=$((done_rounds + 1))
	else
		obs_failed=$((obs_failed + 1))
	fi
	meta
done
tap_diag "ran $ran workloads in $(( $(date +%s) - start ))s ($ncells cells a round; $done_rounds of $rounds rounds done)"
tap_result $((broke > 0)) "every workload ran ($broke of $ran broke, see raw/round-*/bench.log)"
tap_result $((done_rounds != rounds || obs_failed > 0)) \
	"every round done, its observers' CSV written ($done_rounds of $rounds)"
for f in "$raw"/round-*/rx-summary.json; do
	[ -s "$f" ] && tap_diag "${f#"$raw"/}: $(tr -d '\n' < "$f")"
done
tap_diag "cross traffic: target $cross_pps/s of $cross_size B, achieved $(achieved)"
# Every loaded cell (none under --short TW_BENCH_LOADS=idle) forwarded
# out tws0 at least CROSS_MIN of the rate fixed before the run.
tap_ok "the cross traffic ran at >= $CROSS_MIN x $cross_pps/s in every loaded cell" \
	/usr/bin/python3 -c 'import csv, glob, sys
rows = [r for f in glob.glob(sys.argv[1] + "/round-*/load.csv")
        for r in csv.DictReader(open(f))]
sys.exit(0 if all(float(r["pps"]) >= float(sys.argv[2]) * float(r["target_pps"])
                  for r in rows) else 1)' "$raw" "$CROSS_MIN"

# Plotting is slow under emulation (minutes): off unless TW_BENCH_PLOTS=1;
# the host draws them afterwards from $out/plots.json (--from-plots).
plots=--no-plots
[ "${TW_BENCH_PLOTS:-0}" = 1 ] && plots=
export MPLCONFIGDIR=$out/.matplotlib MPLBACKEND=Agg
mkdir -p "$MPLCONFIGDIR"
# A font cache from the (shared) host saves rebuilding it in the guest.
cp "$HOME"/.cache/matplotlib/fontlist-*.json "$MPLCONFIGDIR"/ 2>/dev/null
# A full run in virtual time asserts the verdicts; a short one, or one in
# real time (reported beside the virtual one, not judged), only that each
# target got one.
judge=--all-judged
judged=0
[ "$mode" = full ] && [ "$time_mode" = virtual ] && judged=1
[ "$judged" = 1 ] && judge="--strict --all-judged"
# shellcheck disable=SC2086
/usr/bin/python3 "$AN" -o "$out" -q $plots $judge "$raw"
an_rc=$?
# 1 is a failed or unjudged target, not a broken analysis.
tap_result $((an_rc > 1)) "tw-omware-analyze (exit $an_rc)"
# The observers count probes alone: no cross-traffic datagram, no packet
# of another run, became a sample.
tap_ok "no packet but the benchmark's probes was recorded" \
	/usr/bin/python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["info"]["rx_unknown_tags"] != 0)' \
	"$out/analysis.json"
[ -n "$plots" ] &&
	tap_diag "plots: /usr/bin/python3 bench/omware/tw-omware-analyze --from-plots $out/plots.json"
if [ -s "$out/table.txt" ]; then
	sed 's/^/# /' "$out/table.txt"
fi
if [ "$judged" = 1 ]; then
	tap_result $((an_rc != 0)) "pre-registered targets pass (tw-omware-analyze --strict)"
else
	if [ "$mode" = full ]; then
		tap_diag "a run in $time_mode time: the targets judge the one in virtual time"
	else
		tap_diag "a short run is noisy: its verdicts are indicative, not asserted"
	fi
	tap_result $((an_rc != 0)) "targets evaluated: each has a verdict in a cell (tw-omware-analyze --all-judged)"
fi
tap_done
