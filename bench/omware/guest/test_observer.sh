#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's observer: tw-omware-rx -d out stamps every packet at one
# point, as it leaves for the wire, whatever sent it and whatever happens to it
# afterwards.  A packet that carries a delivery time (SO_TXTIME) a second
# in the future must not be recorded late, one a second in the past not
# early; packets that wait in the taps' own queues (the observer and the
# receiver stopped) keep their send time; a packet an etf qdisc holds for
# 1 s (less its 400 ms delta) is stamped when the qdisc releases it, not
# when it was queued.  Its socket filter passes a probe whose IP header
# carries options, and keeps UDP to another port (and anything else) out
# of the socket.
# Asserts brackets (the clock before and after each sendmsg()), which are
# causal, not timings.
#
#   twoa (ns two-a) ---- veth ---- twob (ns two-b)
#
# Runs as root in the guest: tests/vm/vm.sh bench/omware/guest
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${TW_ROOT:-$(cd "$here/../../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$here/../../lib/tap.sh"
# shellcheck source=tests/lib/topo.sh
. "$here/../../lib/topo.sh"

RX=$root/bench/omware/tw-omware-rx
SEND=$here/send_probes.py
# Realtime-to-monotonic conversion error the brackets allow: far below the
# second a delivery time would show, and below the 79 us by which the
# receiver's UDP point trailed the others at the median.
SLACK_NS=50000
HOLD_NS=1000000000
# etf releases a packet this early, so that a late wake-up does not make it
# drop the packet as having missed its time: a 10 ms delta lost probes
# when two emulated guests shared the host's two cores.
ETF_DELTA_NS=400000000
COUNT=20

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
[ -x "$RX" ] || tap_skip_all "tw-omware-rx not built (make userspace)"
command -v python3 >/dev/null || tap_skip_all "python3 not installed"

t=$(mktemp -d)
pids=""
cleanup() {
	local p

	for p in $pids; do kill -CONT "$p" 2>/dev/null; kill -INT "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	topo_cleanup
	rm -rf "$t"
}
trap cleanup EXIT

setup() {
	topo_ns two-a two-b &&
		topo_veth two-a twoa two-b twob addr 10.79.0.1/24 10.79.0.2/24
}

# start NS READY ARGS...: a tw-omware-rx in NS, waited for until it
# listens.
start() {
	local ns=$1 ready=$2 i
	shift 2
	ip netns exec "$ns" "$RX" -r "$ready" -t 600 -q "$@" 2>>"$t/rx.log" &
	pids+=" $!"
	for i in $(seq 100); do
		[ -e "$ready" ] && return 0
		sleep 0.1
	done
	return 1
}

stop_all() {
	local p

	for p in $pids; do kill -INT "$p"; done
	for p in $pids; do wait "$p"; done
	pids=""
}

# send SPORT TXTIME [DPORT [ipopts]]: COUNT probes from two-a.
send() {
	local sport=$1 txtime=$2
	shift 2
	ip netns exec two-a python3 "$SEND" 10.79.0.2 "$sport" "$COUNT" \
		"$txtime" "$t/sent-$sport.csv" "$@"
}

# filtered: no row of 31006 (sent to another port) in either CSV, and
# no frame but probes reached either AF_PACKET socket (ARP, ICMP and
# that UDP were all on the link).
filtered() {
	! grep -q '^31006,' "$t/wire.csv" "$t/recv.csv" &&
		python3 -c 'import json, sys
sys.exit(any(json.load(open(f))["pkt_other"] for f in sys.argv[1:]))' \
			"$t/wire.json" "$t/recv.json"
}

# check SPORT SRC LOW_NS HIGH_NS: every probe of SPORT is in FILE with
# rx_src SRC, and before + LOW <= rx_ns <= after + HIGH.
check() {
	python3 - "$t/$1" "$t/sent-$2.csv" "$2" "$3" "$4" "$5" <<'PY'
import csv, sys
path, sent, sport, src, low, high = sys.argv[1:7]
rows = {int(r["seq"]): r for r in csv.DictReader(open(path))
        if r["tag"] == sport}
bad = 0
for line in open(sent):
    seq, before, after = map(int, line.split(","))
    r = rows.get(seq)
    if r is None:
        print("# seq %d: not observed" % seq)
        bad += 1
        continue
    rx = int(r["rx_ns"])
    if r["rx_src"] != src or not before + int(low) <= rx <= after + int(high):
        print("# seq %d: rx %d (%s), sent in [%d, %d], %+d us from before"
              % (seq, rx, r["rx_src"], before, after, (rx - before) // 1000))
        bad += 1
print("# %s: %d of %d probes outside the bracket" % (sport, bad, len(rows)))
sys.exit(bad > 0)
PY
}

tap_plan 10
tap_ok "setup: two namespaces joined by veth" setup
tap_ok "observer tw-omware-rx -d out and receiver tw-omware-rx started" \
	start two-a "$t/wire.ready" -d out -i twoa -o "$t/wire.csv" -s "$t/wire.json" &&
	start two-b "$t/recv.ready" -i twob -o "$t/recv.csv" -s "$t/recv.json"
sleep 1

send 31001 none
send 31002 +1000000000
send 31003 -1000000000
send 31006 none 29001
send 31007 none 29000 ipopts
# Held in the taps' queues: neither stamp may move to the moment of reading.
for p in $pids; do kill -STOP "$p"; done
send 31004 none
sleep 0.3
for p in $pids; do kill -CONT "$p"; done
ip netns exec two-a tc qdisc replace dev twoa root etf clockid CLOCK_TAI \
	delta $ETF_DELTA_NS || tap_diag "no etf qdisc: its case will fail"
send 31005 tai+$HOLD_NS
# Deleting etf purges what it still holds: let the last one leave first.
# Its watchdog can fire far behind time in a loaded emulated guest, so
# wait for the queue to empty (up to 10 s), not a fixed while.
for _ in $(seq 100); do
	tc -n two-a -s qdisc show dev twoa | grep -q 'backlog 0b 0p' && break
	sleep 0.1
done
tap_diag "etf: $(tc -n two-a -s qdisc show dev twoa | tr -s ' \n' ' ')"
ip netns exec two-a tc qdisc del dev twoa root 2>/dev/null
sleep 0.2
stop_all
tap_diag "observer: $(tr -d '\n' < "$t/wire.json" 2>/dev/null)"

tap_ok "plain packets: stamped between the clock reads around sendmsg()" \
	check wire.csv 31001 wire 0 "$SLACK_NS"
tap_ok "delivery time 1 s ahead: not recorded late" \
	check wire.csv 31002 wire 0 "$SLACK_NS"
tap_ok "delivery time 1 s behind: not recorded early" \
	check wire.csv 31003 wire 0 "$SLACK_NS"
tap_ok "a probe with IP options: recorded, stamped as the others" \
	check wire.csv 31007 wire 0 "$SLACK_NS"
tap_ok "UDP to another port: kept out of both sockets, as all but probes" \
	filtered
tap_ok "read 300 ms late: the stamp stays the send time" \
	check wire.csv 31004 wire 0 "$SLACK_NS"
tap_ok "held 1 s by etf: stamped when released, not when queued" \
	check wire.csv 31005 wire $((HOLD_NS - ETF_DELTA_NS - SLACK_NS)) $((HOLD_NS + 1000000000))
tap_ok "the receiver got every probe too" \
	test "$(grep -c '^3100[1-5],' "$t/recv.csv")" -eq $((5 * COUNT))
tap_done
