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
# is the demo: a few seconds of actual sending (a few minutes of setup under
# emulation).  --full is the whole grid:
# alpha 1000/100/10 us, IP size 40/1500, idle and loaded, three rounds.
# Runs as root inside the guest (or any machine where it may create network
# namespaces); prints TAP.  The order of the methods is shuffled per
# invocation from a seed it prints (TW_BENCH_SEED repeats a run's order).
# --full fails when a pre-registered target fails (tw-omware-analyze --strict);
# the short run reports its verdicts without asserting them: it is too
# short to tell noise from a difference.
#
#   ns twb-s (sender)                   ns twb-r (receiver)
#   +----------------------------+      +-------------------------------+
#   | tw-omware-bench            |      | tw-omware-rx: AF_PACKET + UDP |
#   | tw-omware-rx -d out        |      |                               |
#   |   (observer)               |      |                               |
#   |  tws0 10.77.0.1/24  -------+-veth-+-- twr0 10.77.0.2/24           |
#   | iperf3 -c (load only)      |      | iperf3 -s (load only)         |
#   |  twxs 10.78.0.1/24  -------+-veth-+-- twxr 10.78.0.2/24           |
#   +----------------------------+      +-------------------------------+
#   plus, under load, one busy loop per CPU minus one in the root namespace.
#
# Environment overrides (space separated lists): TW_BENCH_ALPHAS,
# TW_BENCH_SIZES, TW_BENCH_LOADS (idle load), TW_BENCH_ROUNDS,
# TW_BENCH_COUNT, TW_BENCH_PAIRS, TW_BENCH_METHODS (trains list, see
# "tw-omware-bench help"), TW_BENCH_PAIR_METHODS, TW_BENCH_ETF_DELTAS
# (comma separated, us), TW_BENCH_SEED; TW_BENCH_PLOTS=1 draws the plots in
# the guest too.
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

mode=short
case "${1:-}" in
--short) mode=short; shift ;;
--full) mode=full; shift ;;
-h|--help)
	sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//'
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
	rounds=${TW_BENCH_ROUNDS:-3}
	count=${TW_BENCH_COUNT:-1000}
	pairs=${TW_BENCH_PAIRS:-1000}
	deltas=${TW_BENCH_ETF_DELTAS:-$etf_delta}
else
	alphas=${TW_BENCH_ALPHAS:-"1000 100"}
	sizes=${TW_BENCH_SIZES:-"40"}
	loads=${TW_BENCH_LOADS:-"idle load"}
	rounds=${TW_BENCH_ROUNDS:-1}
	count=${TW_BENCH_COUNT:-100}
	pairs=${TW_BENCH_PAIRS:-50}
	deltas=${TW_BENCH_ETF_DELTAS:-$etf_delta}
fi
# The order of the methods: shuffled per invocation, from this seed on.
seed=${TW_BENCH_SEED:-$(( $(od -An -N2 -tu2 /dev/urandom) ))}
train_methods=${TW_BENCH_METHODS:-trains}
pair_methods=${TW_BENCH_PAIR_METHODS:-pairs}

BENCH=${TW_BENCH_TOOL:-$TW_ROOT/bench/omware/tw-omware-bench}
RX=$TW_ROOT/bench/omware/tw-omware-rx
AN=$TW_ROOT/bench/omware/tw-omware-analyze
NS_S=twb-s
NS_R=twb-r
raw=$out/raw
# one line a workload, which make bench-omware follows
progress=$out/progress.log

rx_pids=""
iperf_pid=""
hog_pids=""

stop_load() {
	local p

	for p in $hog_pids; do kill "$p" 2>/dev/null; done
	for p in $hog_pids; do wait "$p" 2>/dev/null; done
	hog_pids=""
	if [ -n "$iperf_pid" ]; then
		kill "$iperf_pid" 2>/dev/null
		wait "$iperf_pid" 2>/dev/null
		iperf_pid=""
	fi
}

cleanup() {
	stop_load
	# The observers go last: they hold the timestamping sockets.
	stop_observers
	topo_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

setup() {
	cleanup
	ip netns del "$NS_S" 2>/dev/null	# a killed run's
	ip netns del "$NS_R" 2>/dev/null
	topo_ns "$NS_S" "$NS_R" || return 1
	# No IPv6 chatter (router solicitations, DAD) on the link under test.
	ip netns exec "$NS_S" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$NS_R" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	topo_veth "$NS_S" tws0 "$NS_R" twr0 addr 10.77.0.1/24 10.77.0.2/24 \
		mac 02:74:77:00:00:01 02:74:77:00:00:02 noipv6 &&
	topo_veth "$NS_S" twxs "$NS_R" twxr addr 10.78.0.1/24 10.78.0.2/24 noipv6
}

# observe NS NAME TW-OMWARE-RX-ARGS...: a tw-omware-rx for the whole run;
# NAME.ready appears once its socket is open.
observe() {
	local ns=$1 name=$2 i
	shift 2
	ip netns exec "$ns" "$RX" -r "$raw/$name.ready" -t 86400 -q "$@" \
		2>> "$raw/$name.log" &
	rx_pids+=" $!"
	for i in $(seq 50); do
		[ -e "$raw/$name.ready" ] && return
		sleep 0.1
	done
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

start_load() {
	local i ncpu

	ip netns exec "$NS_R" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	sleep 0.5
	ip netns exec "$NS_S" iperf3 -c 10.78.0.2 -p 5201 -t 86400 -i 0 \
		>/dev/null 2>&1 &
	iperf_pid=$!
	# Leave one CPU to the sender, take the others with busy loops.
	ncpu=$(nproc)
	for ((i = 1; i < (ncpu > 1 ? ncpu : 2); i++)); do
		bash -c 'while :; do :; done' &
		hog_pids+=" $!"
	done
	sleep 1
}

# bench GRID ROUND TAG SEED ARGS...
bench() {
	local grid=$1 round=$2 tag=$3 seed=$4 rc
	shift 4
	ip netns exec "$NS_S" "$BENCH" dev tws0 \
		dst-mac 02:74:77:00:00:02 dst 10.77.0.2 \
		grid "$grid" round "$round" sport "$tag" seed "$seed" \
		out "$raw" "$@" >> "$raw/bench.log" 2>&1
	rc=$?
	echo "$grid round $round: exit $rc" >> "$raw/bench.log"
	# 0 everything sent, 5 some packets dropped or unreported (etf
	# sweeps drop on purpose); anything else means the run broke.
	[ $rc -eq 0 ] || [ $rc -eq 5 ]
}

meta() {
	local cs virt="none" commit

	# The tree measured; "-dirty" when it differs from that commit.
	# The tree may belong to another user than root in the guest.
	commit=$(git -c safe.directory="$TW_ROOT" -C "$TW_ROOT" describe \
		--always --dirty 2>/dev/null)
	commit=${commit:-unknown}

	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
	grep -qw hypervisor /proc/cpuinfo && virt="hypervisor"
	[ -e /dev/kvm ] || true
	cat > "$raw/run.json" <<EOF
{"mode": "$mode", "kernel": "$(uname -r)", "cpus": $(nproc), "clock": "${TW_CLOCK:-real}",
 "clocksource": "${cs:-unknown}", "cpu_flags_virt": "$virt",
 "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "alphas_us": "$alphas", "sizes": "$sizes", "loads": "$loads",
 "rounds": $rounds, "count": $count, "pairs": $pairs,
 "etf_deltas_us": "$deltas",
 "observer": "wire", "seed": $seed, "commit": "$commit",
 "omware_loaded": $omware}
EOF
}

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
for c in ip tc iperf3 python3; do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
if [ ! -x "$RX" ] || [ ! -x "$BENCH" ]; then
	make -s -C "$TW_ROOT" userspace >/dev/null 2>&1 ||
		tap_skip_all "tw-omware-rx and tw-omware-bench not built (make userspace)"
fi

nalpha=$(echo "$alphas" | wc -w)
nsize=$(echo "$sizes" | wc -w)
nload=$(echo "$loads" | wc -w)
total=$((rounds * nload * nsize * (nalpha + 1)))
tap_plan 6

mkdir -p "$raw" || exit 1
rm -f "$raw"/methods.csv "$raw"/send.csv "$raw"/rx.csv "$raw"/recv.csv \
	"$raw"/*.ready "$raw"/bench.log "$progress"
omware=false
[ -d /sys/module/omware ] && omware=true
meta

tap_ok "setup: two namespaces joined by veth" setup
tap_diag "method order seed $seed (TW_BENCH_SEED=$seed repeats the order)"
if [ "$omware" = false ]; then
	tap_diag "omware module not loaded: its methods are recorded as failed"
fi

# The observers for the whole run, started before any traffic: opening a
# timestamping socket flips a static key, which must not race with traffic
# under multi-threaded TCG.  rx.csv (the wire) is what the analysis times;
# recv.csv records what arrived.
observe "$NS_S" wire -d out -i tws0 -o "$raw/rx.csv" -s "$raw/rx-summary.json"
observe "$NS_R" recv -i twr0 -o "$raw/recv.csv" -s "$raw/recv-summary.json"
tap_ok "observers tw-omware-rx started (wire and receiver)" \
	test -e "$raw/wire.ready" -a -e "$raw/recv.ready"
# Let the deferred static-key switch settle before the first packet.
sleep 1

failed=0
ran=0
inv=0
start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
	for load in $loads; do
		[ "$load" = load ] && start_load
		for size in $sizes; do
			for alpha in $alphas; do
				grid="a$alpha-s$size-$load"
				tag=$((30000 + inv * 64))
				bench "$grid" "$r" "$tag" $((seed + inv)) \
					methods "$train_methods" count "$count" \
					alpha "$alpha" size "$size" \
					etf-delta "$deltas" || failed=$((failed + 1))
				inv=$((inv + 1))
				ran=$((ran + 1))
				say "[$ran/$total] round $r $grid ($failed broke so far)"
			done
			# Pairs, a millisecond apart as in the paper.
			grid="pairs-s$size-$load"
			tag=$((30000 + inv * 64))
			bench "$grid" "$r" "$tag" $((seed + inv)) \
				methods "$pair_methods" count "$pairs" \
				alpha 1000 size "$size" || failed=$((failed + 1))
			inv=$((inv + 1))
			ran=$((ran + 1))
			say "[$ran/$total] round $r $grid ($failed broke so far)"
		done
		stop_load
	done
done
tap_diag "ran $ran workloads ($nalpha alphas x $nsize sizes x $nload loads x $rounds rounds, plus pairs) in $(( $(date +%s) - start ))s, setup included"
tap_result $((failed > 0)) "every workload ran ($failed of $ran broke, see raw/bench.log)"

stop_load
sleep 0.5
stop_observers
tap_ok "observers wrote their CSV (exit $obs_rc)" test -s "$raw/rx.csv" -a -s "$raw/recv.csv"
for f in rx-summary recv-summary; do
	[ -s "$raw/$f.json" ] && tap_diag "$f: $(tr -d '\n' < "$raw/$f.json")"
done

# Plotting is slow under emulation (minutes): off unless TW_BENCH_PLOTS=1;
# the host draws them afterwards from $out/plots.json (--from-plots).
plots=--no-plots
[ "${TW_BENCH_PLOTS:-0}" = 1 ] && plots=
export MPLCONFIGDIR=$out/.matplotlib MPLBACKEND=Agg
mkdir -p "$MPLCONFIGDIR"
# A font cache from the (shared) host saves rebuilding it in the guest.
cp "$HOME"/.cache/matplotlib/fontlist-*.json "$MPLCONFIGDIR"/ 2>/dev/null
# A full run asserts the verdicts; a short one only that each target got one.
judge=--all-judged
[ "$mode" = full ] && judge="--strict --all-judged"
# shellcheck disable=SC2086
/usr/bin/python3 "$AN" -o "$out" -q $plots $judge "$raw"
an_rc=$?
# 1 is a failed or unjudged target, not a broken analysis.
tap_result $((an_rc > 1)) "tw-omware-analyze (exit $an_rc)"
[ -n "$plots" ] &&
	tap_diag "plots: /usr/bin/python3 bench/omware/tw-omware-analyze --from-plots $out/plots.json"
if [ -s "$out/table.txt" ]; then
	sed 's/^/# /' "$out/table.txt"
fi
if [ "$mode" = full ]; then
	tap_result $((an_rc != 0)) "pre-registered targets pass (tw-omware-analyze --strict)"
else
	tap_diag "a short run is noisy: its verdicts are indicative, not asserted"
	tap_result $((an_rc != 0)) "targets evaluated: each has a verdict in a cell (tw-omware-analyze --all-judged)"
fi
tap_done
