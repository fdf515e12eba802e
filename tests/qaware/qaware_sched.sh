#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The schedulers carry MPTCP transfers over two paths: a client namespace
# joined to a server namespace by two veth pairs, each shaped by netem on
# the client's side (rate and delay), the server announcing its second
# address (as the upstream simult_flows.sh topology, without the router).
#
#   rr      a 6 MiB upload arrives whole, both paths carry at least 30 %
#           of the bytes sent, and the module counted rr's decisions
#   minrtt  the same upload arrives whole, minrtt's decisions counted
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
size=$((6 * 1024 * 1024))
mark=$(tw_kmsg_mark)
server=

cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	ip netns del "$cli" 2>/dev/null
	ip netns del "$srv" 2>/dev/null
	qa_loaded && qa_unload 2>/dev/null
}
trap cleanup EXIT

topology() {
	local i
	ip netns add "$cli" && ip netns add "$srv" || return 1
	for i in 1 2; do
		ip link add c$i netns "$cli" type veth peer name s$i netns "$srv" &&
		ip -n "$cli" addr add 10.0.$i.1/24 dev c$i &&
		ip -n "$srv" addr add 10.0.$i.2/24 dev s$i &&
		ip -n "$cli" link set c$i up && ip -n "$srv" link set s$i up &&
		tc -n "$cli" qdisc add dev c$i root netem rate 20mbit delay 10ms limit 1000 ||
			return 1
	done
	ip -n "$srv" mptcp limits set subflows 2 add_addr_accepted 0 &&
	ip -n "$cli" mptcp limits set subflows 2 add_addr_accepted 2 &&
	ip -n "$srv" mptcp endpoint add 10.0.2.2 dev s2 signal
}

# The server counts what it reads per connection and prints it (appending:
# the file is emptied before each transfer).
start_server() {
	ip netns exec "$srv" python3 -c '
import socket
l = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("0.0.0.0", 5201))
l.listen(4)
while True:
    c, _ = l.accept()
    n = 0
    while True:
        b = c.recv(1 << 16)
        if not b:
            break
        n += len(b)
    print(n, flush=True)
    c.close()' >> "$TMPDIR_QA/server.out" &
	server=$!
	sleep 1
}

upload() {
	timeout 180 ip netns exec "$cli" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)
s.connect(("10.0.1.2", 5201))
left = int(sys.argv[1])
chunk = bytes(1 << 16)
while left > 0:
    left -= s.send(chunk[:min(left, len(chunk))])
s.shutdown(socket.SHUT_WR)
s.recv(1)
s.close()' "$size"
}

tx_bytes() { ip netns exec "$cli" cat "/sys/class/net/$1/statistics/tx_bytes"; }

decisions() {	# decisions NAME: subflows the scheduler picked so far
	awk -v n="$1" '$1 == n { print $2 }' /sys/module/mptcp_qaware/parameters/decisions
}

# transfer SCHED: upload with SCHED selected; sets got, path1, path2, picks
transfer() {
	local d0 a0 b0
	ip netns exec "$cli" sysctl -qw net.mptcp.scheduler="$1" || return 1
	d0=$(decisions "$1")
	a0=$(tx_bytes c1)
	b0=$(tx_bytes c2)
	: > "$TMPDIR_QA/server.out"
	upload || tap_diag "$1: upload failed"
	sleep 1
	got=$(tail -n 1 "$TMPDIR_QA/server.out")
	path1=$(($(tx_bytes c1) - a0))
	path2=$(($(tx_bytes c2) - b0))
	picks=$(($(decisions "$1") - d0))
	tap_diag "$1: server read ${got:-nothing} bytes; path 1 $path1, path 2 $path2 bytes; $picks decisions"
}

share_ok() {	# share_ok BYTES: at least 30 % of both paths' bytes
	[ $(($1 * 10)) -ge $(((path1 + path2) * 3)) ]
}

TMPDIR_QA=$(mktemp -d)
tap_plan 7
tap_ok "loads with the addresses of /proc/kallsyms" qa_load
topology || { tap_diag "topology failed"; tap_done; }
start_server

transfer rr
tap_ok "rr: the upload arrives whole" test "${got:-0}" = "$size"
tap_ok "rr: path 1 carries at least 30 % of the bytes" share_ok "$path1"
tap_ok "rr: path 2 carries at least 30 % of the bytes" share_ok "$path2"

transfer minrtt
tap_ok "minrtt: the upload arrives whole" test "${got:-0}" = "$size"
tap_ok "minrtt: decisions counted" test "$picks" -gt 0
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
rm -rf "$TMPDIR_QA"
tap_done
