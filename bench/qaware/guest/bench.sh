#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The QAware benchmark (make bench-qaware): MPTCP transfers over two
# emulated paths with qaware, its baselines (minrtt, ecf, blest) and the
# kernel's default.
#
#   bench/qaware/guest/bench.sh [--short|--full] OUTDIR
#
# Topology (as the upstream simult_flows.sh): a sender, a router and a
# receiver namespace, two paths.  Path i: sender ci (10.0.i.1) - router
# ai, router bi - receiver di (10.1.i.2).  The sender's egress ci is the
# local queue (tbf at the path's rate, 100 ms of queue, no GSO); the router's
# egress bi adds the path's delay (and loss) with netem, beyond it.  The
# sender connects to 10.1.1.2, the receiver announces 10.1.2.2: one
# subflow per path, scheduled by the sender's net.mptcp.scheduler.
#
# Path 1 can instead leave the sender through a NIC with BQL
# (tests/lib/topo.sh: sender c3 10.0.3.1 - router a3 10.0.3.2, the
# suite boots with NICS=pair): its local queue is then the device's ring,
# as much as DQL lets in, and a bfifo of 100 ms at the path's rate above
# it, no tbf: the NIC's own rate (some 15-20 Mbit/s under TCG, measured
# by a probe) is the path's.  The sender's route to 10.1.1.0/24 picks the
# device per run.
#
# Scenarios (rates in Mbit/s and delays in ms of path 1 / path 2), every
# rate and transfer size divided by the scale factor f:
#   S1      20/20, 20/20 ms, bulk for T s
#   S2      20/5, 10/60 ms, bulk for T s
#   S3      the thesis's Fig. 2.13: 9/6, 10/60 ms, a constant-bit-rate
#           source at 12 (more than either path, less than both) for T3
#           s, and an iperf3 UDP flood at path 1's rate through path 1's
#           egress for the middle 40 % (from 0.3 T3 to 0.7 T3)
#   S3-bql  S3 with path 1 through the NIC with BQL (above): path 1 the
#           NIC's probed rate R, path 2 2/3 R, the source at 4/5 of their
#           sum, the flood at R; each run samples DQL's in flight and,
#           mid-flood, takes `timewire -j qaware stats` (the module's
#           schedulers)
#   S5      S1 with 0.5 % loss on path 1
#   D<size> S1, one transfer of size bytes (completion time; a transfer
#           not done in 60 s fails)
#   SF      the upstream simult_flows.sh, unmodified (tests/mptcp-peer,
#           built from the kernel's source): once per scheduler, after
#           the rounds, its output in OUTDIR/simult/<sched>.txt; its
#           bounds are wall-clock times, so it is run here, on a quiet
#           host, not in make check; full runs only, unless
#           TW_QA_SCENARIOS names it
# --full: T 6, T3 10, sizes 256K 4M 16M, 10 rounds (5 schedulers: about
# 65 min of transfers, 13 of simult_flows.sh, 80 in all); --short: T 3,
# T3 5, sizes 256K 2M 4M, 1 round (40 transfers in 4.5 min).
#
# In S3 the run records what the oracle bound of the flood window needs:
# each path's rate alone, a plain TCP flow through it shaped as the
# scenario has it, before the rounds of every start (bench.json's
# measured_kbit_by_start; a path that carried nothing leaves the
# scenario none), and per transfer the flood's bytes and packets that
# reached the router from path 1's egress while it ran (a counting tc
# action on the router's ingress, read before the flood is due and just
# after it ends: competitor.dequeued_bytes and _packets).  TAP lines
# check that the measured paths are Fig. 2.13's (path 1 < the source <
# both) and that both at once carry the source.
#
# The scale factor f: the smallest of 1 2 4 8 16 at which the guest
# carries both paths at once: two plain TCP flows (iperf3), one per path
# through its tbf at 20/f Mbit/s (20 ms), each reach 90 % of that rate;
# TW_QA_SCALE=N fixes it.  Each round runs every scheduler once per
# scenario, the (scenario, scheduler) pairs in an order shuffled from the
# printed seed plus the round, after one discarded warm-up transfer.
# Every run leaves OUTDIR/runs/<round>-<scenario>-<sched>.json
# (qa_flow.py's record, tagged with its start; a run that left none or
# could not be set up gets one that says it failed); OUTDIR/bench.json
# says what ran.  A stopped run continues when started again with the
# same OUTDIR and configuration (OUTDIR/config: the settings, the tree's
# commit, the sha256 of the module, qa_flow.py and bench.sh, the kernel,
# the clock, a given seed): its seed and scale are kept (OUTDIR/state),
# finished rounds are not run again, an unfinished one's records go to
# runs/stopped-<start>/ and it is rerun whole.  A stopped run of another
# configuration is refused (rm -rf .build/bench-qaware starts afresh);
# a finished one (OUTDIR/complete) starts afresh.  The host analyses
# them (tw-qaware-analyze).  Runs as root;
# loads mptcp_qaware itself (timewire qaware load); prints TAP and a
# progress line per run (also to OUTDIR/../progress.log).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TW_ROOT=${TW_ROOT:-$(cd "$here/../../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$TW_ROOT/tests/lib/tap.sh"
# shellcheck source=bench/lib/bench.sh
. "$TW_ROOT/bench/lib/bench.sh"
# shellcheck source=tests/lib/kmsg.sh
. "$TW_ROOT/tests/lib/kmsg.sh"
# shellcheck source=tests/lib/topo.sh
. "$TW_ROOT/tests/lib/topo.sh"

flow=$here/qa_flow.py
py=/usr/bin/python3	# not a wrapper that looks up a version each start
ko=$here/mptcp_qaware.ko
snd=qab-snd
# DQL's state of path 1's NIC (seen from the sender's namespace)
dql=/sys/class/net/c3/queues/tx-0/byte_queue_limits
rtr=qab-rtr
rcv=qab-rcv
port=5300
dl_timeout=60	# s: a download not done by then failed
# TW_QA_SCHEDS and TW_QA_SCENARIOS (names, space-separated) run a subset,
# TW_QA_ROUNDS another number of rounds, TW_QA_PARAMS module parameters
# ("backlog_pct=100"): for looking into a few cells, never for a reported
# result.
scheds=${TW_QA_SCHEDS:-"default qaware minrtt ecf blest"}

bench_args "$@"
if [ "$mode" = full ]; then
	T=6 T3=10 sizes="262144 4194304 16777216" rounds=10
else
	T=3 T3=5 sizes="262144 2097152 4194304" rounds=1
fi
rounds=${TW_QA_ROUNDS:-$rounds}	# as TW_QA_SCHEDS: not for reported results
subset=false
qa_params=${TW_QA_PARAMS:-}
case $qa_params in
*[\"\\]*) echo "TW_QA_PARAMS: no quotes or backslashes" >&2; exit 1 ;;
esac
[ -n "${TW_QA_SCHEDS:-}${TW_QA_SCENARIOS:-}${TW_QA_ROUNDS:-}$qa_params" ] &&
	subset=true
seed=$bench_seed
progress=$(dirname "$out")/progress.log
receiver=
nic_kbit=0 nic_now=0 nic_driver='' nic_by_start=''

# tree_commit: the tree's commit, as git describes it (dirty or not).
tree_commit() {
	git -c safe.directory="$TW_ROOT" -C "$TW_ROOT" describe --always \
		--dirty 2>/dev/null || echo unknown
}

sha() { sha256sum "$1" 2>/dev/null | awk '{ print $1 }'; }

# config_lines: what a resumed run must share with the one it continues,
# NAME=VALUE a line: its settings, code, module, kernel and clock; the
# order seed only when TW_BENCH_SEED gives one.
config_lines() {
	printf '%s\n' "mode=$mode" "schedulers=$scheds" "rounds=$rounds" \
		"scenarios=${TW_QA_SCENARIOS:-}" "params=$qa_params" \
		"scale=${TW_QA_SCALE:-}" "commit=$(tree_commit)" \
		"module_sha256=$(sha "$ko")" "qa_flow_sha256=$(sha "$flow")" \
		"bench_sha256=$(sha "$here/bench.sh")" "kernel=$(uname -r)" \
		"clock=${TW_CLOCK:-real}"
	[ -z "${TW_BENCH_SEED:-}" ] || echo "seed=$TW_BENCH_SEED"
}

# config_diff: the names of the fields of config_lines that differ from
# the stopped run's (OUTDIR/config), one a line.
config_diff() {
	config_lines | awk 'NR == FNR { i = index($0, "="); was[substr($0, 1, i - 1)] = substr($0, i + 1); next }
		{ i = index($0, "="); n = substr($0, 1, i - 1) }
		!(n in was) || was[n] != substr($0, i + 1) { print n }' \
		"$out/config" -
}

# save_config: this run's config_lines, with the seed it uses.
save_config() {
	{ config_lines; [ -n "${TW_BENCH_SEED:-}" ] || echo "seed=$seed"; } \
		> "$out/config"
}

cleanup() {
	[ -n "$receiver" ] && kill "$receiver" 2>/dev/null
	topo_cleanup
	[ -n "$loaded" ] && unload
}

loaded=
loaded() { grep -q '^mptcp_qaware ' /proc/modules; }

# unload: once the last socket is freed (RCU, the workqueue: up to 20 s).
unload() {
	local i

	for i in $(seq 100); do
		timewire qaware unload 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}
trap cleanup EXIT

in_snd() { ip netns exec "$snd" "$@"; }

# flood_counter DEV: on the router's ingress from path 1 (DEV a1 or a3), a
# tc action that counts the UDP packets (the flood's; the transfer is
# TCP): what left path 1's egress queue of the flood.
flood_counter() {
	tc -n "$rtr" qdisc add dev "$1" clsact &&
	tc -n "$rtr" filter add dev "$1" ingress protocol ip prio 1 u32 \
		match ip protocol 17 0xff action pass
}

# flood_count DEV: the command that prints flood_counter's state (JSON).
flood_count() { echo "ip netns exec $rtr tc -s -j filter show dev $1 ingress"; }

topology() {
	topo_mptcp "$snd" "$rcv" via "$rtr" nogso && flood_counter a1
}

# The NIC with BQL as path 1's other way out: c3 - a3, 10.0.3.0/24.
nic_path() {
	topo_nicpair "$snd" c3 "$rtr" a3 addr 10.0.3.1/24 10.0.3.2/24 &&
	ip netns exec "$snd" ethtool -K c3 tso off gso off >/dev/null &&
	ip -n "$rcv" route add 10.0.3.0/24 via 10.1.1.1 dev d1 &&
	flood_counter a3
}

# path1_via veth|nic: the sender's route to the receiver's first address.
path1_via() {
	if [ "$1" = nic ]; then
		ip -n "$snd" route replace 10.1.1.0/24 via 10.0.3.2 dev c3
	else
		ip -n "$snd" route replace 10.1.1.0/24 via 10.0.1.2 dev c1
	fi
}

# shape PATH KBIT DELAY_MS LOSS [DEV]: the local queue (tbf, 100 ms of
# queue, at least 20 packets) and, beyond it, the delay and loss (netem);
# KBIT 0: no tbf.  DEV nic (path 1): the NIC's ring and a bfifo of 100 ms
# at KBIT above it, the NIC's rate.  The burst, 50 ms of the rate, lets
# tbf catch up after its timer fired late: in a starved TCG guest it
# does, by many ms, and with 10 ms two TCP flows reached under half the
# rate at every rate probed.  The sender's veths send no GSO bursts
# (topology): a 64 KB burst would not fit the small queues of the low
# rates.
shape() {
	local i=$1 kbit=$2 delay=$3 loss=$4 dev=${5:-veth} burst limit

	tc -n "$snd" qdisc del dev c"$i" root 2>/dev/null
	if [ "$dev" = nic ]; then
		limit=$((kbit * 100 / 8))
		[ "$limit" -ge 30280 ] || limit=30280
		tc -n "$snd" qdisc replace dev c3 root bfifo limit "$limit" ||
			return 1
	elif [ "$kbit" -gt 0 ]; then
		burst=$((kbit * 50 / 8))	# bytes in 50 ms: see below
		[ "$burst" -ge 3028 ] || burst=3028
		limit=$((kbit * 100 / 8))
		[ "$limit" -ge 30280 ] || limit=30280
		tc -n "$snd" qdisc add dev c"$i" root tbf rate "${kbit}kbit" \
			burst "$burst" limit "$limit" || return 1
	fi
	tc -n "$rtr" qdisc replace dev b"$i" root netem delay "${delay}ms" \
		loss "${loss}%" limit 100000
}

# The scenarios, scaled: NAME KBIT1 KBIT2 DELAY1 DELAY2 LOSS HOW AMOUNT
# COMPETITOR DEV1 CBR_KBIT (HOW seconds or bytes; COMPETITOR - or udp;
# DEV1 path 1's way out, veth or nic; CBR_KBIT 0: bulk).  S3-bql's rates
# follow the NIC's (nic_kbit, 0 until probed).
all_scenarios() {
	local s nic2=$((nic_kbit * 2 / 3)) f=$scale

	echo "S1 $((20000 / f)) $((20000 / f)) 20 20 0 seconds $T - veth 0"
	echo "S2 $((20000 / f)) $((5000 / f)) 10 60 0 seconds $T - veth 0"
	echo "S3 $((9000 / f)) $((6000 / f)) 10 60 0 seconds $T3 udp veth $((12000 / f))"
	echo "S3-bql $nic_kbit $nic2 10 60 0 seconds $T3 udp nic $(((nic_kbit + nic2) * 4 / 5))"
	echo "S5 $((20000 / f)) $((20000 / f)) 20 20 0.5 seconds $T - veth 0"
	for s in $sizes; do
		echo "D$((s / 1024))K $((20000 / f)) $((20000 / f)) 20 20 0 bytes $((s / f)) - veth 0"
	done
}

# The scenarios of this run: TW_QA_SCENARIOS's, and none through the NIC
# when it is missing (nic_ok empty).
scenarios() {
	all_scenarios | awk -v only=" ${TW_QA_SCENARIOS:-} " -v nic="$nic_ok" \
		'(only == "  " || index(only, " " $1 " ")) && (nic || $10 != "nic")'
}

scenario() { scenarios | awk -v n="$1" '$1 == n'; }

# at FRACTION SECONDS: FRACTION of SECONDS (awk's arithmetic).
at() { awk -v f="$1" -v t="$2" 'BEGIN { print f * t }'; }

# competitor_args SECONDS KBIT DEV1: qa_flow.py's arguments for the
# flood, one a line: iperf3 UDP at path 1's rate, for the middle 40 % of
# SECONDS.
competitor_args() {
	local counter=a1

	[ "$3" = nic ] && counter=a3
	echo "--competitor-at"
	at 0.3 "$1"
	echo "--competitor"
	echo "iperf3 -c 10.1.1.2 -p 5201 -u -b ${2}k -l 1400 -t $(at 0.4 "$1") -J"
	echo "--competitor-count"
	flood_count "$counter"
}

# failed_record OUT WHY: the record of a run that left none (killed by
# its timeout, say): a transfer that delivered nothing, so that it counts.
failed_record() {
	[ -s "$1" ] && return
	printf '{"failed": "%s", "start": %d, "sent": null, "receiver": null, "t_done": 0}\n' \
		"$(printf %s "$2" | tr -d '"\\' | tr '[:cntrl:]' ' ')" "$starts" > "$1"
}

# setup_failed OUT WHY: a run whose paths or scheduler could not be set
# up: its failed record (it counts, as any failed run) and log.
setup_failed() {
	echo "FAILED setup: $2" > "$1.log"
	failed_record "$1" "setup: $2"
	return 1
}

# run SCENARIO SCHED OUT: one transfer.
run() {
	local name kb1 kb2 d1 d2 loss how amount comp dev1 cbr
	local args limit

	read -r name kb1 kb2 d1 d2 loss how amount comp dev1 cbr <<< "$(scenario "$1")"
	path1_via "$dev1" && shape 1 "$kb1" "$d1" "$loss" "$dev1" &&
		shape 2 "$kb2" "$d2" 0 || { setup_failed "$3" paths; return 1; }
	in_snd sysctl -qw net.mptcp.scheduler="$2" ||
		{ setup_failed "$3" "scheduler $2"; return 1; }
	# No run inherits another's cached ssthresh or RTT.
	ip -n "$snd" tcp_metrics flush all 2>/dev/null
	ip -n "$rcv" tcp_metrics flush all 2>/dev/null
	args=(--dst 10.1.1.2 --port "$port" --start "$starts")
	if [ "$how" = bytes ]; then
		args+=(--bytes "$amount")
		limit=$dl_timeout
	else
		args+=(--seconds "$amount")
		limit=$((amount + 120))
	fi
	[ "$cbr" -gt 0 ] && args+=(--rate "$cbr")
	if [ "$comp" != - ]; then
		mapfile -t -O ${#args[@]} args < <(competitor_args "$amount" "$kb1" "$dev1")
	fi
	if [ "$dev1" = nic ]; then
		args+=(--dql "$dql")
		[ "$2" = default ] ||
			args+=(--snapshot-at "$(at 0.5 "$amount")"
			       --snapshot "timewire -j qaware stats")
	fi
	timeout "$limit" ip netns exec "$snd" $py "$flow" send \
		"${args[@]}" "$3" > "$3.log" 2>&1
	local rc=$?

	failed_record "$3" "exit $rc, $(tail -n 1 "$3.log" 2>/dev/null)"
	return $rc
}

# goodput LOG: the Mbit/s qa_flow.py reported (0 when the run failed).
goodput() {
	awk '$1 == "goodput" { g = $2 } END { print g ? g : 0 }' "$1" 2>/dev/null || echo 0
}

# tcp_mbit PORT DST: iperf3's receiver goodput of a plain TCP flow (3 s
# measured after 1 s of slow start).
tcp_mbit() {
	ip netns exec "$snd" iperf3 -c "$2" -p "$1" -t 3 -O 1 -J 2>/dev/null |
		$py -c 'import json, sys
try:
    print("%.2f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 1e6))
except Exception:
    print(0)'
}

# carries F: do two plain TCP flows at once, one per path through its
# tbf at 20/F Mbit/s (20 ms), each reach 90 % of that rate?
carries() {
	local kbit=$((20000 / $1)) r1 r2

	shape 1 "$kbit" 20 0 && shape 2 "$kbit" 20 0 || return 1
	tcp_mbit 5201 10.1.1.2 > "$out/probe-$1.1" &
	r2=$(tcp_mbit 5202 10.1.2.2)
	wait $!
	r1=$(cat "$out/probe-$1.1")
	rm -f "$out/probe-$1.1"
	probe_log+="${probe_log:+, }[$1, $r1, $r2]"
	say "probe: two TCP flows at $((kbit / 1000)).$((kbit % 1000 / 100)) Mbit/s each: $r1 and $r2 Mbit/s"
	awk -v a="$r1" -v b="$r2" -v r="$kbit" \
		'BEGIN { exit !(a >= 0.9 * r / 1000 && b >= 0.9 * r / 1000) }'
}

# probe: the scale factor, the smallest of 1 2 4 8 16 the guest carries
# (TW_QA_SCALE=N fixes it; 16 if none).
probe() {
	local f

	if [ -n "${TW_QA_SCALE:-}" ]; then
		scale=$TW_QA_SCALE
		return
	fi
	for f in 1 2 4 8 16; do
		scale=$f
		carries "$f" && return
	done
}

# kbit MBIT: Mbit/s as whole kbit/s.
kbit() { awk -v m="$1" 'BEGIN { printf "%d\n", m * 1000 }'; }

# nic_probe: one plain TCP flow through the NIC (path 1 as S3-bql has it,
# alone): the path's rate, which the emulator sets, not a tbf.
nic_probe() {
	local mbit

	path1_via nic && shape 1 $((20000 / scale)) 20 0 nic || return 1
	mbit=$(tcp_mbit 5201 10.1.1.2)
	nic_now=$(kbit "$mbit")
	nic_by_start+="${nic_by_start:+, }$nic_now"
	# the first start's rate is S3-bql's for every round
	[ "$nic_kbit" -gt 0 ] || nic_kbit=$nic_now
	nic_driver=$(basename "$(in_snd readlink /sys/class/net/c3/device/driver)")
	path1_via veth
	say "NIC path: one TCP flow at $mbit Mbit/s, DQL limit $(in_snd cat "$dql/limit") bytes"
	[ "$nic_now" -gt 0 ]
}

# measure_paths: at this start, each flooded scenario's paths as it
# shapes them: a plain TCP flow alone through each, the rates its oracle
# bound takes (measured_<name>_<start>, kbit/s, "path1 path2"), and one
# through each at once (both_<name>, their sum).  A scenario where a
# path carried nothing gets no rates, and this fails.
measure_paths() {
	local name kb1 kb2 d1 d2 loss how amount comp dev1 cbr r1 r2 b2 v bad=0

	while read -r name kb1 kb2 d1 d2 loss how amount comp dev1 cbr; do
		[ "$comp" = - ] && continue
		v=${name//-/_}
		if ! { path1_via "$dev1" && shape 1 "$kb1" "$d1" 0 "$dev1" &&
			shape 2 "$kb2" "$d2" 0; }; then
			bad=1
			continue
		fi
		r1=$(kbit "$(tcp_mbit 5201 10.1.1.2)")
		r2=$(kbit "$(tcp_mbit 5202 10.1.2.2)")
		tcp_mbit 5201 10.1.1.2 > "$out/both.1" &
		b2=$(kbit "$(tcp_mbit 5202 10.1.2.2)")
		wait $!
		printf -v "both_$v" %d $(($(kbit "$(cat "$out/both.1")") + b2))
		rm -f "$out/both.1"
		v=both_$v
		say "$name: path 1 alone $r1, path 2 alone $r2, both at once ${!v} kbit/s (its source $cbr kbit/s)"
		if [ "$r1" -le 0 ] || [ "$r2" -le 0 ]; then
			bad=1
			continue
		fi
		printf -v "measured_${name//-/_}_$starts" '%s %s' "$r1" "$r2"
	done < <(scenarios)
	path1_via veth
	return $bad
}

# measured NAME [START]: the JSON list of NAME's rates measured at START
# (this start), or null.
measured() {
	local v="measured_${1//-/_}_${2:-$starts}"

	[ -n "${!v:-}" ] && echo "[${!v// /, }]" || echo null
}

# measured_by_start NAME: {start: measured NAME START} of every start.
measured_by_start() {
	local i sep=

	printf '{'
	for i in $(seq "$starts"); do
		printf '%s"%d": %s' "$sep" "$i" "$(measured "$1" "$i")"
		sep=', '
	done
	printf '}'
}

# heterogeneous: each flooded scenario's path 1 alone, as measured at this
# start, under its source, and the source under the paths alone summed.
heterogeneous() {
	local name kb1 kb2 d1 d2 loss how amount comp dev1 cbr v

	while read -r name kb1 kb2 d1 d2 loss how amount comp dev1 cbr; do
		[ "$comp" = - ] && continue
		v=measured_${name//-/_}_$starts
		read -r kb1 kb2 <<< "${!v:-0 0}"
		[ "$kb1" -gt 0 ] && [ "$kb1" -lt "$cbr" ] &&
			[ "$cbr" -lt $((kb1 + kb2)) ] || return 1
	done < <(scenarios)
}

# carried_together: both paths at once carry each flooded scenario's
# source (both_<name> from measure_paths).
carried_together() {
	local name kb1 kb2 d1 d2 loss how amount comp dev1 cbr v

	while read -r name kb1 kb2 d1 d2 loss how amount comp dev1 cbr; do
		[ "$comp" = - ] && continue
		v=both_${name//-/_}
		[ "${!v:-0}" -ge "$cbr" ] || return 1
	done < <(scenarios)
}

# save_state: what a resumed run takes over (sourced by it).
save_state() {
	local v

	{
		printf 'seed=%q\nscale=%q\nprobe_log=%q\n' \
			"$seed" "$scale" "$probe_log"
		printf 'nic_kbit=%q\nnic_driver=%q\nstarts=%q\n' \
			"$nic_kbit" "$nic_driver" "$starts"
		printf 'start_commits=%q\nnic_by_start=%q\n' \
			"$start_commits" "$nic_by_start"
		for v in ${!measured_*}; do printf '%s=%q\n' "$v" "${!v}"; done
	} > "$out/state"
}

# refused_fields: config_diff's fields, space-separated (all, when the
# stopped run kept no configuration).
refused_fields() {
	if [ -f "$out/config" ]; then
		config_diff | paste -sd ' '
	else
		config_lines | cut -d= -f1 | paste -sd ' '
	fi
}

# kept_state: the stopped run's state gave a scale and, when S3-bql runs,
# the NIC's rate.
kept_state() {
	[ "${scale:-0}" -ge 1 ] 2>/dev/null &&
		{ [ "$nic_kbit" -gt 0 ] || ! scenario S3-bql | grep -q .; }
}

# stopped: OUTDIR holds a stopped run (to continue, or to refuse).
stopped() { [ -f "$out/state" ] && [ ! -f "$out/complete" ]; }

# resumable: OUTDIR holds a stopped run of this configuration.
resumable() { stopped && [ -f "$out/config" ] && [ -z "$(config_diff)" ]; }

write_meta() {
	local name kb1 kb2 d1 d2 loss how amount comp dev1 cbr first=1

	{
		echo "{\"mode\": \"$mode\", \"subset\": $subset, \"seed\": $seed, \"rounds\": $rounds,"
		echo " \"scale\": $scale, \"probe\": [$probe_log], \"starts\": $starts,"
		echo " \"schedulers\": \"$scheds\", \"params\": \"$qa_params\","
		echo " \"sample_interval\": 0.1,"
		echo " \"paths\": {\"10.0.1.1\": 1, \"10.0.2.1\": 2, \"10.0.3.1\": 1},"
		[ "$nic_kbit" -gt 0 ] &&
			echo " \"nic\": {\"mbit\": $(at 0.001 "$nic_kbit"), \"driver\": \"$nic_driver\", \"kbit_by_start\": [$nic_by_start]},"
		echo " \"scenarios\": {"
		scenarios | while read -r name kb1 kb2 d1 d2 loss how amount comp dev1 cbr; do
			[ $first -eq 1 ] || echo ","
			first=0
			printf '  "%s": {"kbit": [%d, %d], "delay_ms": [%s, %s], "loss": [%s, 0], "%s": %s, "competitor": "%s", "path1": "%s"' \
				"$name" "$kb1" "$kb2" "$d1" "$d2" "$loss" \
				"$how" "$amount" "$comp" "$dev1"
			[ "$cbr" -gt 0 ] && printf ', "cbr_kbit": %d' "$cbr"
			[ "$comp" != - ] && printf ', "measured_kbit": %s, "measured_kbit_by_start": %s, "flood_s": [%s, %s]' \
				"$(measured "$name")" "$(measured_by_start "$name")" \
				"$(at 0.3 "$amount")" "$(at 0.7 "$amount")"
			[ "$how" = bytes ] && printf ', "timeout_s": %d' "$dl_timeout"
			printf '}'
		done
		echo "},"
		echo " \"kernel\": \"$(uname -r)\", \"cpus\": $(nproc), \"clock\": \"${TW_CLOCK:-real}\","
		echo " \"commit\": \"$(tree_commit)\", \"start_commits\": [$start_commits],"
		echo " \"date\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}"
	} > "$out/bench.json"
}

# pairs: the (scenario, scheduler) pairs of a round, SCENARIO/SCHED a line.
pairs() {
	local sc s

	for sc in $(scenarios | awk '{ print $1 }'); do
		for s in $scheds; do echo "$sc/$s"; done
	done
}

# round_records R: the records round R leaves, one a line.
round_records() {
	local p

	for p in $(pairs); do echo "$out/runs/$1-${p%/*}-${p#*/}.json"; done
}

# records_ok FILE...: each exists and parses (a record cut short by a
# stop does not).
records_ok() {
	$py -c 'import json, sys
for f in sys.argv[1:]:
    with open(f) as fh:
        json.load(fh)' "$@" 2>/dev/null
}

# set_aside R: round R's records, a stopped round's, moved to
# runs/stopped-<start>/ (kept to look at, not analysed): the round is run
# again whole, so that its pairs share one boot's emulator.
set_aside() {
	local f d=$out/runs/stopped-$starts

	for f in "$out/runs/$1"-*.json*; do
		[ -e "$f" ] || continue
		mkdir -p "$d" && mv "$f" "$d/" || return 1
	done
}

# Sourced (the host tests of the scenarios and the state), it stops here.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
for c in ip tc ethtool iperf3 $py; do
	command -v "$c" >/dev/null || tap_skip_all "$c not installed"
done
[ -r /proc/sys/net/mptcp/available_schedulers ] ||
	tap_skip_all "kernel without the MPTCP scheduler API"
[ -f "$ko" ] || { echo "Bail out! $ko not built"; exit "$KSFT_FAIL"; }
command -v timewire >/dev/null || { echo "Bail out! timewire not built"; exit "$KSFT_FAIL"; }
! loaded || tap_skip_all "mptcp_qaware is loaded already"

mark=$(tw_kmsg_mark)
tap_plan 10
resumed=false starts=1 start_commits=
if resumable; then
	resumed=true
	# shellcheck source=/dev/null
	. "$out/state"
	starts=$((starts + 1))
elif stopped; then
	# never thrown away unasked: the hours it holds are the user's
	echo "Bail out! $out holds a stopped run of another configuration" \
		"(differs: $(refused_fields)):" \
		"rm -rf .build/bench-qaware to start afresh"
	exit "$KSFT_FAIL"
else
	rm -rf "$out" "$progress"
fi
start_commits+="${start_commits:+, }\"$(tree_commit)\""
mkdir -p "$out/runs" "$out/warmup" || exit 1
tap_ok "mptcp_qaware loads (timewire qaware load)" \
	timewire qaware load ko "$ko" params "$qa_params"
loaded && loaded=1
tap_ok "three namespaces, two paths, the flood's counter" topology
# The NIC with BQL, when a scenario of this run needs it; without it those
# scenarios are left out and this line fails.
nic_ok=1 scale=${scale:-1}
if scenarios | awk '$10 == "nic" { f = 1 } END { exit !f }'; then
	nic_ok=
	topo_nicpair_find && nic_path && nic_ok=1
	tap_result $((nic_ok != 1)) "path 1's NIC with BQL${topo_nicpair_why:+ ($topo_nicpair_why)}"
else
	tap_ok "path 1's NIC with BQL: not needed by this run's scenarios" true
fi
ip netns exec "$rcv" $py "$flow" recv "$port" > "$out/receiver.log" 2>&1 &
receiver=$!
ip netns exec "$rcv" iperf3 -s -p 5201 -D >/dev/null 2>&1
ip netns exec "$rcv" iperf3 -s -p 5202 -D >/dev/null 2>&1
sleep 1

if $resumed; then
	say "$mode run resumed (start $starts), order seed $seed, scale $scale: finished rounds are kept"
	tap_ok "scale probe: kept from the stopped run (/ $scale)" kept_state
else
	say "$mode run, order seed $seed (TW_BENCH_SEED=$seed repeats it)"
	scale=1 probe_log=
	probe
	tap_ok "scale probe: rates and sizes / $scale" test -n "$probe_log${TW_QA_SCALE:-}"
	say "scale factor $scale: rates and sizes / $scale"
fi
# every start measures its own rates: a new boot is a new emulator
if [ -n "$nic_ok" ] && scenarios | awk '$10 == "nic" { f = 1 } END { exit !f }'; then
	nic_probe || say "NIC path: the probe carried nothing"
fi
# S3-bql needs the NIC's rate: without it, it is left out.
[ "$nic_kbit" -gt 0 ] || nic_ok=
measure_paths || say "a flooded scenario's paths could not be measured"
tap_ok "flooded scenarios: path 1 alone < the source < both paths alone" \
	heterogeneous
tap_ok "flooded scenarios: both paths at once carry the source" \
	carried_together
save_config
save_state
write_meta

# SF: the upstream simult_flows.sh with each scheduler but redundant
# (it copies every byte to both paths, and the script's bounds assume the
# paths' summed rate): in a full run, or when TW_QA_SCENARIOS names SF.
simult_wanted() {
	if [ -n "${TW_QA_SCENARIOS:-}" ]; then
		[[ " $TW_QA_SCENARIOS " == *" SF "* ]]
	else
		[ "$mode" = full ]
	fi
}

simult_flows() {
	local s failed=0

	mkdir -p "$out/simult" || return 1
	simult_runs=0 simult_n=0
	for s in $scheds; do
		[ "$s" = redundant ] && continue
		simult_n=$((simult_n + 1))
		TW_MPTCP_SCHEDULERS=$s "$TW_ROOT/tests/mptcp-peer/upstream.sh" \
			--schedulers simult_flows.sh > "$out/simult/$s.txt" 2>&1 ||
			failed=$((failed + 1))
		# a run that got through has the script's own plan, a skip not
		grep -q '^1\.\.[1-9]' "$out/simult/$s.txt" &&
			simult_runs=$((simult_runs + 1))
		say "SF $s: $(grep -c '^not ok [0-9]* - simult_flows' "$out/simult/$s.txt") of $(grep -c '^\(not \)\?ok [0-9]* - simult_flows' "$out/simult/$s.txt") cases not ok"
	done
	say "SF: simult_flows.sh with $simult_n schedulers, $failed exited non-zero"
}

# The warm-up: the run's first scenario (S1 unless a subset leaves it out).
warm=$(scenarios | awk 'NR == 1 { print $1 }')
if [ -n "$warm" ]; then
	run "$warm" default "$out/warmup/$warm-default.json"
	say "warm-up (discarded): $warm default, $(goodput "$out/warmup/$warm-default.json.log") Mbit/s"
fi

total=$((rounds * $(pairs | wc -l)))
done_n=0 failed=0 kept=0 start=$(date +%s)
for r in $(seq "$rounds"); do
	# a stopped run's finished round is kept, an unfinished one set aside
	keep=false
	if mapfile -t recs < <(round_records "$r") && records_ok "${recs[@]}"; then
		keep=true
	else
		set_aside "$r"
	fi
	for p in $(pairs | shuffle $((seed + r))); do
		sc=${p%/*} s=${p#*/}
		f=$out/runs/$r-$sc-$s.json
		done_n=$((done_n + 1))
		if $keep; then
			# its failures counted
			kept=$((kept + 1))
			[ "$(goodput "$f.log")" != 0 ] || failed=$((failed + 1))
		elif run "$sc" "$s" "$f"; then
			say "[$done_n/$total] round $r $sc $s: $(goodput "$f.log") Mbit/s"
		else
			failed=$((failed + 1))
			say "[$done_n/$total] round $r $sc $s: FAILED ($(tail -n 1 "$f.log" 2>/dev/null))"
		fi
	done
done
say "$done_n runs ($kept kept from before) in $(( $(date +%s) - start )) s, $failed failed"
if simult_wanted; then
	simult_flows
	tap_ok "simult_flows.sh ran its cases with every scheduler but redundant" \
		test "$simult_runs" -eq "$simult_n" -a "$simult_n" -gt 0
else
	tap_ok "simult_flows.sh: not in this run's scenarios" true
fi
touch "$out/complete"
tap_result $((failed > 0)) "every run completed ($failed of $done_n failed)"
all_records() { local r; for r in $(seq "$rounds"); do round_records "$r"; done; }
mapfile -t recs < <(all_records)
tap_ok "each run left its record (${#recs[@]})" records_ok "${recs[@]}"
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
tap_done
