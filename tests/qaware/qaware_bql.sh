#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# QAware reads the device's queue (DQL's bytes in flight), not only the
# qdisc: shown on a driver with BQL.  Two paths from a client namespace to
# a server namespace:
#
#   path 1  a NIC pair (tests/lib/topo.sh: virtio-net, BQL, transmitting
#           on a timer at some 15-20 Mbit/s), DQL's limit_max at 3000
#           bytes (three frames in the ring); the client's egress a prio
#           qdisc, TCP in band 1, a UDP filler in band 2; the server's side
#           delayed 5 ms (netem)
#   path 2  a veth pair (no BQL), delayed 15 ms
#
# With the filler running, the NIC's ring stays as full as DQL lets it
# while TCP still goes first through the qdisc and waits only behind those
# frames: path 1 keeps the lower RTT, its device queue is full and path
# 2's is empty.
#
# "qaware_bql.sh vlan" (qaware_vlan.sh) runs path 1 over a VLAN on the NIC
# pair (c1.10, s1.10): the route's device then has no queue of its own
# (noqueue, no BQL) and QAware must read the NIC's below it.
#
#   the NIC counts: DQL's in flight > 0 with the filler running
#   minrtt, then qaware with queue_source=1 (BQL only: the qdisc's backlog
#   is not looked at): a 3 MiB upload each with the filler running; both
#   arrive whole, the filler is still queued after each (the device queue
#   stayed full throughout), and qaware sends a smaller share of the
#   bytes on path 1 than minrtt (these two need the guest to keep up with
#   the links' rates: off with TW_THROUGHPUT_CHECKS=0)
#   "timewire qaware stats" of the qaware upload's connection, held open
#   after it: path 1's subflow leaves through c1 (vlan: c1.10) and its
#   queue was read on c1, one device, running BQL
#
# No warning in the kernel log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/qaware_lib.sh"

qa_preflight
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
command -v tc >/dev/null || tap_skip_all "tc (iproute2) not installed"
topo_nicpair_find || tap_skip_all "$topo_nicpair_why"

mode=${1:-nic}
cli=qbc-$$
srv=qbs-$$
# path 1's device in the client namespace: the NIC, or a VLAN on it
dev1=c1 vlan=()
[ "$mode" = vlan ] && dev1=c1.10 vlan=(vlan 10)
size=$((3 * 1024 * 1024))
qsrc=/sys/module/mptcp_qaware/parameters/queue_source
dql=/sys/class/net/c1/queues/tx-0/byte_queue_limits
mark=$(tw_kmsg_mark)
server=
flood=
out=$(mktemp -d)

cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	[ -n "$flood" ] && kill "$flood" 2>/dev/null
	topo_cleanup
	qa_loaded && qa_unload 2>/dev/null
	rm -rf "$out"
}
trap cleanup EXIT

# The NIC's egress: prio; band 1 (TCP) a pfifo whose counters are path 1's
# TCP bytes, band 2 (SO_PRIORITY 2) a pfifo long enough for the filler.
nic_egress() {
	tc -n "$cli" qdisc add dev c1 root handle 1: prio &&
	tc -n "$cli" qdisc add dev c1 parent 1:2 handle 12: pfifo &&
	tc -n "$cli" qdisc add dev c1 parent 1:3 handle 13: pfifo limit 10000
}

topology() {
	topo_mptcp "$cli" "$srv" nic "${vlan[@]}" delay 5 15 &&
	nic_egress &&
	ip netns exec "$cli" sh -c "echo 3000 > $dql/limit_max"
}

# band BAND FIELD: the Sent bytes ("sent") or backlog bytes ("backlog") of
# a band's pfifo on the NIC (handles 12: and 13:); tc shows a large
# backlog in Kb or Mb.
band() {
	tc -n "$cli" -s qdisc show dev c1 | awk -v h="$1:" -v f="$2" '
		$1 == "qdisc" { p = ($3 == h) }
		p && f == "sent" && $1 == "Sent" { print $2; exit }
		p && f == "backlog" && $1 == "backlog" {
			m = $2 ~ /Mb$/ ? 1048576 : $2 ~ /Kb$/ ? 1024 : 1
			print int($2 * m); exit }'
}

# The filler: UDP at SO_PRIORITY 2 into band 2 until stopped.
flood_start() {
	local i

	ip netns exec "$cli" python3 "$xfer" flood 10.0.1.2 2 &
	flood=$!
	# Measure only once the NIC's ring is as full as DQL lets it: an
	# upload started before (a slow guest) found path 1 empty.
	for i in $(seq 100); do
		[ "$(band 13 backlog)" -gt 0 ] 2>/dev/null &&
			[ "$(topo_nicpair_inflight "$cli" c1)" -gt 0 ] 2>/dev/null &&
			return 0
		sleep 0.2
	done
	return 1
}

flood_stop() { kill "$flood" 2>/dev/null; wait "$flood" 2>/dev/null; flood=; }

bql_limit() { ip netns exec "$cli" cat $dql/limit; }

# Samples of the NIC's in flight, 0.1 s apart; sets inflight_max.
sample_inflight() {
	local v samples=

	inflight_max=0
	for v in $(ip netns exec "$cli" sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do
			cat $dql/inflight; sleep 0.1; done"); do
		samples+=" $v"
		[ "$v" -gt "$inflight_max" ] && inflight_max=$v
	done
	tap_diag "NIC in flight (bytes):$samples; DQL limit $(bql_limit); qdisc backlog $(band 13 backlog)"
}

tx_bytes() { ip netns exec "$cli" cat "/sys/class/net/$1/statistics/tx_bytes"; }

# stats_sample MARKER: once the upload, done, has created MARKER and holds
# its connection open, the client namespace's qaware connections (JSON)
# into $out/stats.json; then lets the connection go.  Sampled during the
# upload instead, a busy guest could miss path 1's subflow.
stats_sample() {
	qa_wait_held "$1" || echo "the upload never held its connection" > "$out/stats.err"
	ip netns exec "$cli" timewire -j qaware stats qaware \
		> "$out/stats.json" 2>> "$out/stats.err"
	rm -f "$1"
}

# Path 1's subflow in that sample: "ok" when it leaves through $dev1 and
# its queue was read on c1, one device, running BQL; else what it shows.
queue_where() {
	python3 - "$out/stats.json" "$dev1" <<'PY'
import json, sys
path, dev = sys.argv[1:]
try:
    conns = json.load(open(path))["conns"]
except (OSError, ValueError, KeyError):
    conns = []
for c in conns:
    for s in c["subflows"]:
        if s["saddr"] == "10.0.1.1":
            ok = (s.get("dev") == dev and s.get("queue_dev") == "c1" and
                  s.get("queue_devs") == 1 and s.get("bql") is True)
            print("ok" if ok else json.dumps(s))
            sys.exit(0)
seen = [s["saddr"] for c in conns for s in c["subflows"]]
err = open(path[:-len("json")] + "err").read().strip()
print("no subflow from 10.0.1.1 sampled: %d connections, subflows from %s%s"
      % (len(conns), seen or "nowhere", "; " + err if err else ""))
PY
}

# transfer SCHED: the filler on, then the upload; sets got, share1
# (path 1's percentage of the TCP bytes) and left (filler still queued).
transfer() {
	local a0 b0 path1 path2 sampler

	ip netns exec "$cli" sysctl -qw net.mptcp.scheduler="$1" || return 1
	flood_start || tap_diag "$1: the NIC's ring did not fill in 20 s"
	tap_diag "$1: filler on, NIC in flight $(topo_nicpair_inflight "$cli" c1) bytes"
	a0=$(band 12 sent)
	b0=$(tx_bytes c2)
	: > "$out/server.out"
	rm -f "$out/stats.json"
	: > "$out/stats.err"
	stats_sample "$out/held" &
	sampler=$!
	timeout "$qa_upload_limit" ip netns exec "$cli" python3 "$xfer" upload 10.0.1.2 5201 \
		"$size" 0 "$out/held" || tap_diag "$1: upload failed"
	rm -f "$out/held"
	wait "$sampler"
	left=$(band 13 backlog)
	flood_stop
	sleep 1
	got=$(tail -n 1 "$out/server.out")
	path1=$(($(band 12 sent) - a0))
	path2=$(($(tx_bytes c2) - b0))
	share1=$((path1 * 100 / (path1 + path2 > 0 ? path1 + path2 : 1)))
	tap_diag "$1: server read ${got:-nothing} bytes; path 1 (NIC) $path1, path 2 (veth) $path2 bytes: $share1 % on the NIC; filler left ${left:-0} bytes"
}

tap_plan 7
tap_diag "path 1 over $dev1"
tap_diag "NIC pair: $topo_nicpair_dev1 and $topo_nicpair_dev2, driver $(basename "$(readlink "/sys/class/net/$topo_nicpair_dev1/device/driver")"), virtio_net napi_tx $(cat /sys/module/virtio_net/parameters/napi_tx 2>/dev/null)"
tap_ok "loads with the addresses of /proc/kallsyms" qa_load
topology || { tap_diag "topology failed"; tap_done; }
ip netns exec "$srv" python3 "$xfer" serve 5201 >> "$out/server.out" &
server=$!
sleep 1

flood_start
sample_inflight
flood_stop
tap_ok "the NIC runs BQL: its in flight is above 0 under load" test "$inflight_max" -gt 0

transfer minrtt
minrtt_got=${got:-0} minrtt_share=$share1 minrtt_left=${left:-0}
echo 1 > "$qsrc"
transfer qaware
echo 0 > "$qsrc"
qaware_got=${got:-0} qaware_share=$share1 qaware_left=${left:-0}
where=$(queue_where)
tap_ok "full NIC queue: both uploads arrive whole" \
	test "$minrtt_got" = "$size" -a "$qaware_got" = "$size"
tap_ok_throughput "full NIC queue: the filler outlasts both uploads" \
	test "$minrtt_left" -gt 0 -a "$qaware_left" -gt 0
tap_ok_throughput "full NIC queue: qaware (BQL only) sends a smaller share there than minrtt ($qaware_share % < $minrtt_share %)" \
	test "$qaware_share" -lt "$minrtt_share"
[ "$where" = ok ] || tap_diag "path 1's subflow: $where"
tap_ok "qaware stats: path 1 leaves through $dev1, its queue read on c1 (BQL)" \
	test "$where" = ok
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
tap_done
