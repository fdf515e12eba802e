#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# OMware send-time benchmark: every method of tw-omware-bench on one
# veth, observed by tw-rx in the peer namespace, analysed by tw-analyze.
#
#   tests/omware-bench/bench.sh [--short|--full] [OUTDIR]
#
# OUTDIR defaults to $TW_OUT (set by the guest harness).  --short (default)
# is the demo: a few seconds of actual sending (a few minutes of setup under
# emulation).  --full is the whole grid:
# alpha 1000/100/10 us, IP size 40/1500, idle and loaded, three rounds.
# Runs as root inside the guest (or any machine where it may create network
# namespaces); prints TAP.  It reports timings, it does not assert them.
#
#   ns twb-s (sender)                          ns twb-r (receiver)
#   +-------------------------+               +--------------------------+
#   | tw-omware-bench         |               | tw-rx: AF_PACKET + UDP   |
#   |  tws0 10.77.0.1/24  ----+---- veth -----+-- twr0 10.77.0.2/24      |
#   | iperf3 -c (load only)   |               | iperf3 -s (load only)    |
#   |  twxs 10.78.0.1/24  ----+---- veth -----+-- twxr 10.78.0.2/24      |
#   +-------------------------+               +--------------------------+
#   plus, under load, one busy loop per CPU minus one in the root namespace.
#
# Environment overrides (space separated lists): TW_BENCH_ALPHAS,
# TW_BENCH_SIZES, TW_BENCH_LOADS (idle load), TW_BENCH_ROUNDS,
# TW_BENCH_COUNT, TW_BENCH_PAIRS, TW_BENCH_METHODS (trains list, see
# "tw-omware-bench help"), TW_BENCH_PAIR_METHODS, TW_BENCH_ETF_DELTAS
# (comma separated, us); TW_BENCH_PLOTS=1 draws the plots in the guest too.
set -u

here=$(cd "$(dirname "$0")" && pwd)
TW_ROOT=${TW_ROOT:-$(cd "$here/../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$TW_ROOT/tests/lib/tap.sh"

mode=short
case "${1:-}" in
--short) mode=short; shift ;;
--full) mode=full; shift ;;
-h|--help)
	sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//'
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
	deltas=${TW_BENCH_ETF_DELTAS:-50,100,200,500,1000,2000,5000,10000}
else
	alphas=${TW_BENCH_ALPHAS:-"1000 100"}
	sizes=${TW_BENCH_SIZES:-"40"}
	loads=${TW_BENCH_LOADS:-"idle load"}
	rounds=${TW_BENCH_ROUNDS:-1}
	count=${TW_BENCH_COUNT:-100}
	pairs=${TW_BENCH_PAIRS:-50}
	deltas=${TW_BENCH_ETF_DELTAS:-100,500,2000,10000}
fi
train_methods=${TW_BENCH_METHODS:-trains}
pair_methods=${TW_BENCH_PAIR_METHODS:-pairs}

BENCH=${TW_BENCH_TOOL:-$TW_ROOT/userspace/tools/tw-omware-bench}
RX=$TW_ROOT/userspace/tools/tw-rx
AN=$TW_ROOT/userspace/tools/tw-analyze
NS_S=twb-s
NS_R=twb-r
raw=$out/raw

rx_pid=""
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
	# The receiver goes last: it holds the receive-timestamp sockets.
	if [ -n "$rx_pid" ]; then
		kill -INT "$rx_pid" 2>/dev/null
		wait "$rx_pid" 2>/dev/null
		rx_pid=""
	fi
	ip netns pids "$NS_R" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids "$NS_S" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$NS_S" 2>/dev/null
	ip netns del "$NS_R" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM

setup() {
	cleanup
	ip netns add "$NS_S" && ip netns add "$NS_R" || return 1
	ip -n "$NS_S" link add tws0 address 02:74:77:00:00:01 type veth \
		peer name twr0 address 02:74:77:00:00:02 netns "$NS_R" || return 1
	ip -n "$NS_S" link add twxs type veth peer name twxr netns "$NS_R" ||
		return 1
	ip -n "$NS_S" addr add 10.77.0.1/24 dev tws0 &&
	ip -n "$NS_R" addr add 10.77.0.2/24 dev twr0 &&
	ip -n "$NS_S" addr add 10.78.0.1/24 dev twxs &&
	ip -n "$NS_R" addr add 10.78.0.2/24 dev twxr || return 1
	# No IPv6 chatter (router solicitations, DAD) on the link under test.
	ip netns exec "$NS_S" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$NS_R" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	local ns
	for ns in "$NS_S" "$NS_R"; do
		ip -n "$ns" link set lo up || return 1
	done
	ip -n "$NS_S" link set tws0 up && ip -n "$NS_R" link set twr0 up &&
	ip -n "$NS_S" link set twxs up && ip -n "$NS_R" link set twxr up
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

# bench GRID ROUND TAG ROTATE ARGS...
bench() {
	local grid=$1 round=$2 tag=$3 rot=$4 rc
	shift 4
	ip netns exec "$NS_S" "$BENCH" dev tws0 \
		dst-mac 02:74:77:00:00:02 dst 10.77.0.2 \
		grid "$grid" round "$round" sport "$tag" rotate "$rot" \
		out "$raw" "$@" >> "$raw/bench.log" 2>&1
	rc=$?
	echo "$grid round $round: exit $rc" >> "$raw/bench.log"
	# 0 everything sent, 5 some packets dropped or unreported (etf
	# sweeps drop on purpose); anything else means the run broke.
	[ $rc -eq 0 ] || [ $rc -eq 5 ]
}

meta() {
	local cs virt="none"

	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
	grep -qw hypervisor /proc/cpuinfo && virt="hypervisor"
	[ -e /dev/kvm ] || true
	cat > "$raw/run.json" <<EOF
{"mode": "$mode", "kernel": "$(uname -r)", "cpus": $(nproc),
 "clocksource": "${cs:-unknown}", "cpu_flags_virt": "$virt",
 "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "alphas_us": "$alphas", "sizes": "$sizes", "loads": "$loads",
 "rounds": $rounds, "count": $count, "pairs": $pairs,
 "etf_deltas_us": "$deltas",
 "omware_loaded": $omware}
EOF
}

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
for c in ip tc iperf3 python3; do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
if [ ! -x "$RX" ] || [ ! -x "$BENCH" ]; then
	make -s -C "$TW_ROOT/userspace/tools" >/dev/null 2>&1 ||
		tap_skip_all "tw-rx and tw-omware-bench not built (make -C userspace/tools)"
fi

nalpha=$(echo "$alphas" | wc -w)
nsize=$(echo "$sizes" | wc -w)
nload=$(echo "$loads" | wc -w)
tap_plan 6

mkdir -p "$raw" || exit 1
rm -f "$raw"/methods.csv "$raw"/send.csv "$raw"/rx.csv "$raw"/bench.log
omware=false
[ -d /sys/module/omware ] && omware=true
meta

tap_ok "setup: two namespaces joined by veth" setup
if [ "$omware" = false ]; then
	tap_diag "omware module not loaded: its methods are recorded as failed"
fi

# One receiver for the whole run, started before any traffic: opening a
# receive-timestamp socket flips a static key, which must not race with
# traffic under multi-threaded TCG.
ip netns exec "$NS_R" "$RX" -i twr0 -o "$raw/rx.csv" \
	-s "$raw/rx-summary.json" -r "$raw/rx.ready" -t 86400 -q \
	2>> "$raw/rx.log" &
rx_pid=$!
for _ in $(seq 50); do
	[ -e "$raw/rx.ready" ] && break
	sleep 0.1
done
tap_ok "receiver tw-rx started" test -e "$raw/rx.ready"
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
				bench "$grid" "$r" "$tag" $((inv + r)) \
					methods "$train_methods" count "$count" \
					alpha "$alpha" size "$size" \
					etf-delta "$deltas" || failed=$((failed + 1))
				inv=$((inv + 1))
				ran=$((ran + 1))
			done
			# Pairs, a millisecond apart as in the paper.
			grid="pairs-s$size-$load"
			tag=$((30000 + inv * 64))
			bench "$grid" "$r" "$tag" $((inv + r)) \
				methods "$pair_methods" count "$pairs" \
				alpha 1000 size "$size" || failed=$((failed + 1))
			inv=$((inv + 1))
			ran=$((ran + 1))
		done
		stop_load
	done
done
tap_diag "ran $ran workloads ($nalpha alphas x $nsize sizes x $nload loads x $rounds rounds, plus pairs) in $(( $(date +%s) - start ))s, setup included"
tap_result $((failed > 0)) "every workload ran ($failed of $ran broke, see raw/bench.log)"

stop_load
sleep 0.5
kill -INT "$rx_pid" 2>/dev/null
wait "$rx_pid"
rxrc=$?
rx_pid=""
tap_ok "receiver wrote its CSV (exit $rxrc)" test -s "$raw/rx.csv"
[ -s "$raw/rx-summary.json" ] && tap_diag "receiver: $(tr -d '\n' < "$raw/rx-summary.json")"

# Plotting is slow under emulation (minutes): off unless TW_BENCH_PLOTS=1;
# the same command on the host draws them from $out/raw afterwards.
plots=--no-plots
[ "${TW_BENCH_PLOTS:-0}" = 1 ] && plots=
export MPLCONFIGDIR=$out/.matplotlib MPLBACKEND=Agg
mkdir -p "$MPLCONFIGDIR"
# A font cache from the (shared) host saves rebuilding it in the guest.
cp "$HOME"/.cache/matplotlib/fontlist-*.json "$MPLCONFIGDIR"/ 2>/dev/null
# shellcheck disable=SC2086
tap_ok "tw-analyze" /usr/bin/python3 "$AN" -o "$out" -q $plots "$raw"
[ -n "$plots" ] &&
	tap_diag "plots: /usr/bin/python3 userspace/tools/tw-analyze -o $out $raw"
if [ -s "$out/table.txt" ]; then
	sed 's/^/# /' "$out/table.txt"
fi
# Targets are reported, not asserted (absolute timings under emulation
# mean little); the test only checks that they could be evaluated.
tap_ok "targets evaluated" grep -qE '^(PASS|FAIL|N/A) ' "$out/table.txt"
tap_done
