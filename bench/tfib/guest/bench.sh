#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Age-of-Information experiment (make bench-tfib), through "timewire tfib
# bench": tw-tfib-source sends a Zipf(1) trace of 1000 users through tfib.ko
# in every sync mode (rings small and large, and inline) and through the
# XDP peer (tw-tfib-xdp; its map set by the program, xdp, and by a process
# reading the control packets, xdp-user), at CDR 0.01 and 0.1, over a
# sweep of rates R that passes the chain's capacity (with the split, where
# the forwarder's CPU runs out); plus the baseline (one user, no control
# packets); and, with omware loaded, rcu inline and rcu through rings with
# the source paced by omware (+omware: shown beside the rest, judged by no
# check).  This script finds the capacity and fixes the sweep; bench
# does the runs, one call per R.
#
#   bench/tfib/guest/bench.sh [--short|--full] OUTDIR
#
# Each run leaves OUTDIR/cdr<CDR>/r<R>/<method>/{events.csv,run.json}
# (labels sync, fwd, rings; the forwarder's counters over the run).  The
# host analyses them (tw-tfib-analyze).  Runs as root in the guest, tfib
# loaded; prints TAP and a progress line per run (also to
# OUTDIR/../progress.log; the tools' errors in OUTDIR/../bench-errors.log).
#
# Fixed before the run, whatever it finds:
#   - the capacity C: the highest R of a doubling probe (rcu through rings
#     of 4096, CDR 0.01, then one step of sqrt 2) that the chain carries:
#     the source sends at least 90 % of R and at most 1 % of the data
#     packets are lost (without the split the sender's own system call
#     runs the forwarder's receive path on veth, so the source may be
#     what stops first; each probe line says the CPUs' busy shares);
#   - the sweep: R = C times each factor of $factors, rounded; a run sends
#     R x its seconds rows, at most C x its seconds (bench's cap: above C
#     the source sends as fast as it can, its token bucket always ahead, so
#     the run lasts its seconds or more whatever R);
#   - every run of one R in an order shuffled from the printed seed
#     (bench's order; TW_BENCH_SEED=N repeats it); the trace's seed is
#     fixed.
# --full: factors 1/8 .. 4, 3 s of traffic a run (174 runs with the paced
# ones, 30 min under emulation at 9a409df); --short: factors 1/2 and 2, 1 s
# a run (58 runs).
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
cdrs="0.01 0.1"
syncs="rwlock rcu bucket seqcount"
small_rings="64:64"	# the paper's Fig. 4 rings, scaled down
large_rings="4096:4096"

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
errors=$(dirname "$out")/bench-errors.log
probe_dir=$(dirname "$out")/probe

# Split (default; TW_AOI_SPLIT=0 turns it off; two CPUs or more): the
# source on CPU 0, f0's receive path on CPU 1.  On veth the sender's own
# system call otherwise runs the forwarder's receive path, on the source's
# CPU.
split=${TW_AOI_SPLIT:-1}
[ "$(nproc)" -ge 2 ] || split=0

topology() {
	ip netns del "$ns" 2>/dev/null	# a killed run's
	topo_ns "$ns" && topo_veth "$ns" s0 "$ns" f0 || return 1
	[ "$split" = 1 ] || return 0
	napi_split
}

# The split: f0 receives in NAPI, as a NIC's driver does, on CPU 1, for
# tfib and the XDP peer alike.  GRO on f0 gives it a NAPI instance (kept
# across the peer's attach and detach), TSO off on s0 lets veth hand s0's
# frames to that instance (a TSO sender's frames skip it), and the
# instance, made threaded, has its kthread bound to CPU 1.  The sending
# CPU then only puts each frame on f0's ring of 256.  The forwarder's
# transmit runs s0's receive, the sink's copy into its ring, on CPU 1 too.
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

on_source_cpu() {
	if [ "$split" = 1 ]; then taskset -c 0 "$@"; else "$@"; fi
}

# The split's forwarder on CPU 1: tfib's threads and xdp-user's process.
fwd_cpu() {
	[ "$split" = 1 ] && echo forwarder-cpu 1
}

# bench ARGS...: tw-tfib-bench from s0 (the source) through f0 (the
# forwarder), with what every run shares; a line per run on stdout.  A
# frame f0 refuses s0 is lost: on veth that is the forwarder's receive
# ring full, which behind a wire loses the frame rather than slowing the
# source down.
# shellcheck disable=SC2046 # fwd_cpu's words are two arguments
bench() {
	on_source_cpu ip netns exec "$ns" "$tw_bench" dev f0 source s0 users "$users" \
		burst "$burst" seed "$trace_seed" seconds "$secs" refused lost \
		$(fwd_cpu) "$@" 2>> "$errors"
}

# The methods of one R: the baseline, every sync mode through rings, rcu
# inline, the XDP peer both ways and the paced ones.
methods() {
	local s m=baseline

	for s in $syncs; do m=$m,$s-ring; done
	m=$m,rcu-inline
	[ -x "$xdp" ] && m=$m,xdp,xdp-user
	[ -n "$paced" ] && m=$m,$paced
	echo "$m"
}

# field LINE KEY: the value of KEY in one of bench's lines.
field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$1"
}

# loss DIR: the percentage of data packets sent that did not come back.
loss() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 $c["event"] == "data_tx" { tx++ }
		 $c["event"] == "data_rx" { rx++ }
		 END { printf "%.2f", tx ? 100 * (tx - rx) / tx : 100 }' \
		"$1/events.csv" 2>/dev/null || echo 100
}

# json_int DIR KEY: a number of the run's record, or "?".
json_int() {
	local v

	v=$(grep -o "\"$2\": *[0-9]*" "$1/run.json" 2>/dev/null | grep -o '[0-9]*$')
	echo "${v:-?}"
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
	local r=$1 line l p

	line=$(bench out "$probe_dir/$r" methods rcu-ring \
		rings "$large_rings" rate "$r" cdr 0.01) || return 1
	l=$(loss "$(field "$line" run)")
	p=$(field "$line" sent_pps)
	p=${p%.*}
	say "probe: R $r pps, sent ${p:-?} pps, $l % of data lost, $(
		json_int "$(field "$line" run)" tx_refused) frames refused by f0$(busy "$(field "$line" run)")"
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

# sweep_rate R N: every run of R, shuffled, N runs done before; a
# progress line per run as bench reports it.
sweep_rate() {
	local r=$1 n=$2 line dir

	bench out "$out" methods "$(methods)" \
		rings "$small_rings,$large_rings" rate "$r" \
		cdr "${cdrs// /,}" cap "$capacity" order $((seed + r)) |
	while read -r line; do
		case $line in "run "*) ;; *) continue ;; esac
		n=$((n + 1))
		dir=$(field "$line" run)
		line="[$n/$total] R $r CDR $(field "$line" cdr) ${dir##*/}: $(
			case $(field "$line" status) in
			ok) echo "$(loss "$dir") % lost" ;;
			dropped) echo "$(loss "$dir") % lost, $(json_int "$dir" tx_dropped) frames omware could not send" ;;
			*) echo "FAILED ($(tail -n 1 "$errors" 2>/dev/null))" ;;
			esac)"
		say "$line"
	done
}

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
for c in ip awk $([ "$split" = 1 ] && echo taskset ethtool pgrep); do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
[ -x "$TW" ] && [ -x "$tw_bench" ] || make -s -C "$TW_ROOT" userspace >/dev/null 2>&1 ||
	{ echo "Bail out! $TW or $tw_bench not built"; exit "$KSFT_FAIL"; }
"$TW" tfib show >/dev/null 2>&1
[ $? -ne 2 ] || tap_skip_all "tfib module not loaded"
# The source paced by omware where the module is in.
paced=
[ -d /sys/module/omware ] && paced="rcu-inline+omware,rcu-ring+omware"

tap_plan 4
rm -rf "$out" "$progress" "$errors" "$probe_dir"
mkdir -p "$out" || exit 1
tap_ok "one namespace, a veth pair: s0 (source) and f0 (forwarder)" topology
[ -x "$xdp" ] || say "tw-tfib-xdp not built: no XDP peer runs"
[ -n "$paced" ] || say "omware not loaded: no paced runs"
say "$mode run, order seed $seed (TW_BENCH_SEED=$seed repeats it)"

capacity=
probe
tap_result $((capacity == 0)) "capacity probe: C = $capacity pps (rcu, rings 4096, CDR 0.01)"
say "capacity C = $capacity pps (probe runs in $probe_dir)"
rates=$(for f in $factors; do
	awk -v c="$capacity" -v f="$f" 'BEGIN { printf "%d\n", c * f + 0.5 }'
done | sort -un)
say "sweep: R = $(echo $rates) pps; $secs s of traffic a run"

cat > "$out/bench.json" <<EOF
{"mode": "$mode", "seed": $seed, "capacity_pps": $capacity,
 "rates_pps": [$(echo $rates | tr ' ' ',')], "factors": "$factors",
 "seconds": $secs, "users": $users, "burst": $burst, "cdrs": "$cdrs",
 "small_rings": "$small_rings", "large_rings": "$large_rings",
 "paced": "$paced",
 "kernel": "$(uname -r)", "cpus": $(nproc), "clock": "${TW_CLOCK:-real}", "split": $split,
 "commit": "$(git -c safe.directory="$TW_ROOT" -C "$TW_ROOT" describe --always --dirty 2>/dev/null || echo unknown)",
 "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"}
EOF

# Runs of one R: the baseline, and at each CDR every sync mode with both
# ring settings, rcu inline, the XDP peer both ways and, paced, rcu inline
# and rcu with both ring settings.
methods_n=$(( $(echo $syncs | wc -w) * 2 + 1 + $([ -x "$xdp" ] && echo 2 || echo 0) +
	$([ -n "$paced" ] && echo 3 || echo 0) ))
per_rate=$(( 1 + $(echo $cdrs | wc -w) * methods_n ))
total=$(( $(echo $rates | wc -w) * per_rate ))
n=0 start=$(date +%s)
for r in $rates; do
	sweep_rate "$r" "$n"
	n=$((n + per_rate))
done
failed=$(grep -c ': FAILED (' "$progress")
ok_n=$((total - failed))
say "$total runs in $(( $(date +%s) - start )) s, $failed failed"
tap_result $((failed > 0)) "every run completed ($failed of $total failed)"
tap_ok "each completed run left its records" \
	test "$(find "$out" -name events.csv | wc -l)" -eq "$ok_n"
tap_done
