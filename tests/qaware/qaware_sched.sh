#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The schedulers carry MPTCP transfers over two paths: a client namespace
# joined to a server namespace by two veth pairs (as the upstream
# simult_flows.sh topology, without the router), the server announcing its
# second address.  Each client egress is a prio qdisc: band 1 (where TCP
# goes) a tbf at 20 Mbit/s, band 2 a tbf that lets almost nothing through;
# the server delays its side by 10 ms on path 1, 20 ms on path 2 (netem):
# far enough apart that an emulated guest's jitter on a busy host does not
# blur which path has the lower RTT.
#
#   every scheduler   a 3 MiB upload arrives whole and its decisions are
#                     counted
#   rr                both paths carry at least 30 % of the bytes (40 %
#                     when paced)
#   redundant         each path carries at least 3/5 of the upload's size,
#                     both together at least 3/2 of it: the data is copied,
#                     not spread (6.12's push loop gives each scheduled
#                     subflow the next data; the module moves the send head
#                     to each subflow's own position; data the peer acked
#                     through the other path is not copied any more)
#   every scheduler   a paced upload (a piece each 65 ms, most acked
#                     before the next) over the clean paths is not sent
#                     again at the MPTCP level: MPTcpExtMPTCPRetrans rises
#                     by at most one in ten pieces more than under the
#                     kernel's default, run first as the control (6.12's
#                     default scheduler sets the MPTCP retransmission
#                     interval at each decision; one that does not leaves
#                     it at 0 after an idle moment, and the kernel then
#                     sends the outstanding data again every tick)
#   qaware vs minrtt  with ~1.4 MB of UDP parked in band 2 of path 1's
#                     egress (its queue full, its RTT still the lower,
#                     since TCP does not wait behind it), an upload at
#                     8 Mbit/s (application-limited: either path alone
#                     carries it, so a policy's preference shows, not
#                     where windows overflow): minrtt sends over half of
#                     it on path 1, qaware under a quarter (throughput
#                     assertions: off with TW_THROUGHPUT_CHECKS=0)
#   qaware stats      that qaware upload's connection, held open after it:
#                     "timewire -j qaware stats" in the client namespace
#                     lists it with both subflows picked, path 1's with its
#                     full egress queue (n_k, the qdisc part, W); neither
#                     another namespace nor "stats minrtt" lists it; the
#                     text has a line per connection and per subflow
#   qaware_wait       on the same loaded path 1, an unpaced upload: it
#                     arrives whole, and qaware_wait waited (its waits
#                     counter rose) rather than send behind path 1's queue
#                     while path 2's window was full
#   stale subflows    every scheduler: path 1 turns into a blackhole (both
#                     directions dropped) after 1 MiB of an upload (paused
#                     meanwhile); the upload still arrives whole, over path 2,
#                     and the module found the subflow stale (the kernel's
#                     stale detection never runs for a module's scheduler);
#                     for redundant, which may finish on path 2 first,
#                     staleness is reported, not judged
#
# No warning in the kernel log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/qaware_lib.sh"

qa_preflight
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
command -v tc >/dev/null || tap_skip_all "tc (iproute2) not installed"

cli=qac-$$
srv=qas-$$
size=$((3 * 1024 * 1024))
paced=$((512 * 1024))
scheds="qaware minrtt rr redundant ecf blest qaware_wait"
mark=$(tw_kmsg_mark)
server=

cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	topo_cleanup
	qa_loaded && qa_unload 2>/dev/null
}
trap cleanup EXIT

# egress DEV NS: prio, TCP (band 1) through a 20 Mbit/s tbf, band 2 (the
# UDP filler, SO_PRIORITY 2) through a tbf of 8 kbit/s with room for 2 MB.
egress() {
	tc -n "$2" qdisc add dev "$1" root handle 1: prio &&
	tc -n "$2" qdisc add dev "$1" parent 1:2 tbf rate 20mbit burst 32kb latency 100ms &&
	tc -n "$2" qdisc add dev "$1" parent 1:3 tbf rate 8kbit burst 1600 limit 2000000
}

topology() {
	topo_mptcp "$cli" "$srv" delay 10 20 && egress c1 "$cli" && egress c2 "$cli"
}

# Park ~1.4 MB of UDP in band 2 of path 1's egress: it drains at 8 kbit/s.
fill_path1() { ip netns exec "$cli" python3 "$xfer" fill 10.0.1.2 2 1000; }

backlog1() {	# bytes waiting in path 1's egress qdisc
	tc -n "$cli" -s qdisc show dev c1 | awk '$1 == "qdisc" && $2 == "prio" { p = 1 }
		p && $1 == "backlog" { sub(/b$/, "", $2); print $2; exit }'
}

# The server counts what it reads per connection and prints it (appending:
# the file is emptied before each transfer).
start_server() {
	ip netns exec "$srv" python3 "$xfer" serve 5201 >> "$TMPDIR_QA/server.out" &
	server=$!
	sleep 1
}

# upload [PAUSE [MARKER [KBIT [BYTES]]]]: BYTES ($size if not given);
# after PAUSE bytes (if not 0) print "paused" and go on once a line
# arrives on stdin.  With a MARKER file, the connection stays open after
# the transfer (it creates the file) until the file is gone.  KBIT (if
# not 0) paces the writes.
upload() {
	timeout "$qa_upload_limit" ip netns exec "$cli" python3 "$xfer" upload 10.0.1.2 5201 \
		"${4:-$size}" "${1:-0}" "${2:-}" "${3:-0}"
}

tx_bytes() { ip netns exec "$cli" cat "/sys/class/net/$1/statistics/tx_bytes"; }

counter() {	# counter NAME COLUMN: of the module's "decisions" parameter (0: not the module's)
	awk -v n="$1" -v c="$2" '$1 == n { v = $c } END { print v + 0 }' \
		/sys/module/mptcp_qaware/parameters/decisions
}
decisions() { counter "$1" 2; }	# subflows the scheduler picked so far
waits() { counter "$1" 4; }	# decisions it held back for a better subflow
stale_count() { counter "$1" 5; }	# subflows it found stale so far

# transfer SCHED [MARKER [KBIT [BYTES]]]: upload with SCHED selected; sets
# got, path1, path2, picks
transfer() {
	local d0 a0 b0
	ip netns exec "$cli" sysctl -qw net.mptcp.scheduler="$1" || return 1
	d0=$(decisions "$1")
	a0=$(tx_bytes c1)
	b0=$(tx_bytes c2)
	: > "$TMPDIR_QA/server.out"
	upload 0 "${2:-}" "${3:-0}" "${4:-$size}" || tap_diag "$1: upload failed"
	sleep 1
	got=$(tail -n 1 "$TMPDIR_QA/server.out")
	path1=$(($(tx_bytes c1) - a0))
	path2=$(($(tx_bytes c2) - b0))
	picks=$(($(decisions "$1") - d0))
	tap_diag "$1: server read ${got:-nothing} bytes; path 1 $path1, path 2 $path2 bytes; $picks decisions"
}

# The client namespace's MPTCP MIB counter NAME (/proc/net/netstat).
mptcp_mib() {
	ip netns exec "$cli" awk -v k="$1" '$1 == "MPTcpExt:" {
		if (!seen) { for (i = 2; i <= NF; i++) name[i] = $i; seen = 1; next }
		for (i = 2; i <= NF; i++) if (name[i] == k) print $i }' /proc/net/netstat
}

# paced_transfer SCHED: $paced bytes at 1 Mbit/s (8 KiB pieces, one
# each 65 ms: the paths' RTTs are 10 and 20 ms); sets got and rtx, the
# MPTCP-level retransmissions it took
paced_transfer() {
	local r0

	r0=$(mptcp_mib MPTCPRetrans)
	transfer "$1" "" 1000 "$paced"
	rtx=$(($(mptcp_mib MPTCPRetrans) - r0))
	tap_diag "$1, paced: $rtx MPTCP-level retransmissions for $((paced / 8192)) pieces"
}

share_ok() {	# share_ok BYTES: at least 30 % of both paths' bytes
	[ $(($1 * 10)) -ge $(((path1 + path2) * 3)) ]
}

copied() {	# both paths at least 3/5 of the upload, together 3/2 of it
	[ $((path1 * 5)) -ge $((size * 3)) ] && [ $((path2 * 5)) -ge $((size * 3)) ] &&
		[ $(((path1 + path2) * 2)) -ge $((size * 3)) ]
}

# Path 1 drops everything, both ways (its TCP hears no ACK); heal1 undoes it.
blackhole1() {
	tc -n "$cli" qdisc replace dev c1 root netem loss 100% &&
	tc -n "$srv" qdisc change dev s1 root netem delay 10ms loss 100%
}
heal1() {
	tc -n "$cli" qdisc del dev c1 root &&
	egress c1 "$cli" &&
	tc -n "$srv" qdisc change dev s1 root netem delay 10ms limit 1000
}

# stale_transfer SCHED: an upload paused after 1 MiB, path 1 turned into
# a blackhole, and resumed; sets got and stale (subflows the scheduler
# found stale)
stale_transfer() {
	local s0 pid i fifo=$TMPDIR_QA/go
	ip netns exec "$cli" sysctl -qw net.mptcp.scheduler="$1" || return 1
	s0=$(stale_count "$1")
	: > "$TMPDIR_QA/server.out"
	rm -f "$fifo" && mkfifo "$fifo" && exec 3<>"$fifo"
	upload $((1 << 20)) <&3 > "$TMPDIR_QA/upload.out" &
	pid=$!
	for i in $(seq 600); do
		grep -q paused "$TMPDIR_QA/upload.out" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	blackhole1 || tap_diag "$1: path 1 not blackholed"
	echo go >&3
	wait "$pid" || tap_diag "$1: upload failed"
	exec 3>&-
	sleep 1
	got=$(tail -n 1 "$TMPDIR_QA/server.out")
	stale=$(($(stale_count "$1") - s0))
	heal1 || tap_diag "$1: path 1 not healed"
	tap_diag "$1, path 1 blackholed: server read ${got:-nothing} bytes; $stale subflows found stale"
}

bql1() {	# path 1's BQL in flight (veth: none, so 0 or absent)
	ip netns exec "$cli" cat /sys/class/net/c1/queues/tx-0/byte_queue_limits/inflight 2>/dev/null ||
		echo "n/a"
}

share1() {	# path 1's share of the bytes, in percent
	echo $((path1 * 100 / (path1 + path2 > 0 ? path1 + path2 : 1)))
}

# stats_when_held MARKER OUT: once upload has created MARKER, the stats
# from the client namespace (OUT.cli, as text OUT.txt), the init one
# (OUT.init) and of minrtt only (OUT.minrtt); then lets the connection go.
stats_when_held() {
	qa_wait_held "$1"
	ip netns exec "$cli" timewire -j qaware stats > "$2.cli"
	ip netns exec "$cli" timewire qaware stats > "$2.txt"
	timewire -j qaware stats > "$2.init"
	ip netns exec "$cli" timewire -j qaware stats minrtt > "$2.minrtt"
	rm -f "$1"
}

# stats_check OUT WHAT: the held qaware connection in OUT.cli (its subflows
# told apart by their local address 10.0.P.1): "ok" or what is wrong.
stats_check() {
	python3 - "$1" "$2" <<'PY'
import json, sys
out, what = sys.argv[1:]
def conns(suffix, sched="qaware"):
    try:
        j = json.load(open(out + suffix))
    except (OSError, ValueError) as e:
        return None
    return [c for c in j["conns"] if c["sched"] == sched]
def held(cs):
    for c in cs or []:
        p = {s["saddr"]: s for s in c["subflows"]}
        if "10.0.1.1" in p and "10.0.2.1" in p:
            return p["10.0.1.1"], p["10.0.2.1"]
    return None
found = held(conns(".cli"))
if what == "diag":
    print(json.dumps(found))
    sys.exit(0)
if not found:
    print("no qaware connection over both paths in", conns(".cli"))
    sys.exit(0)
p1, p2 = found
bad = []
if what == "subflows":
    for name, s in (("path 1", p1), ("path 2", p2)):
        if s["picks"] <= 0:
            bad.append(f"{name}: picks {s['picks']}")
        if not 0 < s["service_ns"] <= s["srtt_ns"]:
            bad.append(f"{name}: S {s['service_ns']} not in (0, SRTT {s['srtt_ns']}]")
        if not isinstance(s.get("unsent_bytes"), int) or s["unsent_bytes"] < 0:
            bad.append(f"{name}: unsent_bytes {s.get('unsent_bytes')}")
elif what == "queue":
    if p1["queued_pkts"] <= 0 or p1["qdisc_bytes"] < 100000 or p1["wait_ns"] <= 0:
        bad.append(f"path 1: n {p1['queued_pkts']}, qdisc {p1['qdisc_bytes']} B, W {p1['wait_ns']} ns")
    if p1["bql"] or p1["bql_bytes"]:
        bad.append(f"path 1 (veth, no BQL): bql {p1['bql']}, {p1['bql_bytes']} B")
    if p1.get("dev") != "c1" or p2.get("dev") != "c2":
        bad.append(f"devices {p1.get('dev')}, {p2.get('dev')}")
elif what == "netns":
    if conns(".init") is None or held(conns(".init")):
        bad.append("the init namespace lists it")
    if conns(".minrtt", "minrtt") is None or held(conns(".minrtt", "qaware")):
        bad.append("stats minrtt lists it")
print("; ".join(bad) or "ok")
PY
}

stats_ok() {	# stats_ok WHAT
	local r
	r=$(stats_check "$TMPDIR_QA/stats" "$1")
	[ "$r" = ok ] || tap_diag "$1: $r"
	[ "$r" = ok ]
}

# The text: a line per connection, an indented one per subflow.
stats_text_ok() {
	sed 's/^/# /' "$TMPDIR_QA/stats.txt"
	grep -Eq '^qaware token [0-9]+ calls [0-9]+ refusals [0-9]+$' "$TMPDIR_QA/stats.txt" &&
	[ "$(grep -Ec '^  index [01] saddr 10\.0\.[12]\.1 sport [0-9]+ daddr 10\.0\.[12]\.2 dport 5201 .* picks [1-9][0-9]* queued_pkts [0-9]+ bql_bytes 0 qdisc_bytes [0-9]+ srtt_ns' \
		"$TMPDIR_QA/stats.txt")" -ge 2 ]
}

TMPDIR_QA=$(mktemp -d)
tap_plan 35
tap_ok "loads with the addresses of /proc/kallsyms" qa_load
topology || { tap_diag "topology failed"; tap_done; }
start_server
# The control: what the environment alone (a late ACK in a slow guest)
# makes the kernel's own scheduler send again.
paced_transfer default
rtx_default=$rtx

for s in $scheds; do
	transfer "$s"
	tap_ok "$s: the upload arrives whole, its decisions counted" \
		test "${got:-0}" = "$size" -a "$picks" -gt 0
	case $s in
	rr)
		# Flat out, rr passes over a subflow whose window is full: how
		# often depends on the guest's speed (29 % on the debug kernel).
		tap_ok_throughput "$s: both paths carry at least 30 % of the bytes" \
			eval 'share_ok "$path1" && share_ok "$path2"' ;;
	redundant)
		tap_ok "$s: each path carries 3/5 of the upload, both 3/2 of it" \
			copied ;;
	esac
	paced_transfer "$s"
	tap_ok "$s: a paced upload arrives whole, not sent again at the MPTCP level" \
		test "${got:-0}" = "$paced" -a "$rtx" -le $((paced / 8192 / 10 + rtx_default))
	# Paced, both subflows are idle at every piece: rr takes turns.
	[ "$s" = rr ] && tap_ok "$s, paced: each path carries at least 40 % of the bytes" \
		eval '[ $((path1 * 5)) -ge $(((path1 + path2) * 2)) ] &&
		      [ $((path2 * 5)) -ge $(((path1 + path2) * 2)) ]'
done

# Path 1's queue full, its RTT still the lower: qaware leaves it, minrtt not.
tap_diag "path 1 egress filled: $(fill_path1 2>&1 | tail -n 1)"
tap_diag "path 1 egress: qdisc backlog $(backlog1) bytes, BQL in flight $(bql1) bytes"
transfer minrtt "" 8000
minrtt_got=${got:-0} minrtt_share=$(share1)
stats_when_held "$TMPDIR_QA/held" "$TMPDIR_QA/stats" &
watcher=$!
transfer qaware "$TMPDIR_QA/held" 8000
wait "$watcher"
qaware_got=${got:-0} qaware_share=$(share1)
tap_diag "loaded path 1: minrtt sent $minrtt_share %, qaware $qaware_share % of the bytes there; backlog now $(backlog1) bytes"
tap_ok "loaded path 1: both uploads arrive whole" \
	test "$minrtt_got" = "$size" -a "$qaware_got" = "$size"
tap_ok_throughput "loaded path 1: minrtt sends over half of the bytes there" \
	test "$minrtt_share" -gt 50
tap_ok_throughput "loaded path 1: qaware sends under a quarter of the bytes there" \
	test "$qaware_share" -lt 25
tap_diag "qaware stats, path 1 and path 2: $(stats_check "$TMPDIR_QA/stats" diag)"
tap_ok "qaware stats -j: the connection, both subflows picked, 0 < S <= SRTT, unsent bytes" \
	stats_ok subflows
tap_ok "qaware stats -j: path 1's full egress queue (n_k, qdisc part, W; no BQL on veth)" \
	stats_ok queue
tap_ok "qaware stats: neither the init namespace nor stats minrtt lists it" \
	stats_ok netns
tap_ok "qaware stats (text): a line for the connection, an indented one per subflow" \
	stats_text_ok

# An unpaced upload fills path 2's window; path 1 still has its own queue:
# qaware_wait waits for path 2 rather than send behind that queue.
w0=$(waits qaware_wait)
transfer qaware_wait
w1=$(waits qaware_wait)
tap_diag "loaded path 1, bulk: qaware_wait sent $(share1) % there, waited $((w1 - w0)) times"
tap_ok "loaded path 1, bulk: qaware_wait's upload arrives whole" \
	test "${got:-0}" = "$size"
tap_ok "loaded path 1, bulk: qaware_wait waits for path 2" \
	test $((w1 - w0)) -gt 0

# Before any blackhole: a subflow found stale here was a false alarm.
tap_diag "subflows found stale so far: $(for s in $scheds; do printf '%s %s, ' "$s" "$(stale_count "$s")"; done)"
for s in $scheds; do
	stale_transfer "$s"
	# redundant sends every byte on path 2 as well, which may end the
	# upload before path 1's retransmission timer makes it stale: that is
	# reported above, and judged for the others
	if [ "$s" = redundant ]; then
		tap_ok "$s: path 1 blackholed, the upload arrives whole over path 2" \
			test "${got:-0}" = "$size"
		continue
	fi
	tap_ok "$s: path 1 blackholed, the upload arrives whole and the subflow is found stale" \
		test "${got:-0}" = "$size" -a "$stale" -gt 0
done
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
rm -rf "$TMPDIR_QA"
tap_done
