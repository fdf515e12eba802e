#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the module's per-connection state costs and where it is charged,
# in one network namespace whose scheduler is set per run:
#
#   idle      $idle MPTCP sockets opened by an unprivileged user, $listeners
#             of them listening, none connected: the slab they take per
#             1000 sockets under qaware is within 5 % of the kernel's
#             default's (measured just before, in this boot), and neither
#             "timewire qaware stats" nor the module's "conns" parameter
#             lists any of them
#   conns     $conns connections over 127.0.0.1, one byte sent on each (a
#             decision), run in a cgroup with memory.max: each has its
#             state (conns "live" as many as the statistics list, at least
#             $conns), a decision found its state in at most 2 steps, and
#             the cgroup's memory.current rose by at least half of their
#             states' bytes more than under the default scheduler
#   cap       with max_conns=10, 20 connections: all connect and send, at
#             most 10 have state, decisions were made without it
#   relisten  a connection sends, is disconnected (connect(AF_UNSPEC)),
#             listens, and the socket it accepts sends: both have state of
#             their own (a passive socket is given its listener's ops, here
#             a copy with the listener's state behind it)
#   refused   a cgroup sock_create program refusing every socket (r0 = 0;
#             exit) refuses $refused IPv4 and $refused IPv6 MPTCP sockets
#             created under qaware: the module's reference count is 0
#             afterwards and rmmod succeeds (6.12 never calls release()
#             for such a socket; the module gives the reference back from
#             the socket's destructor)
#
# No warning in the kernel log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/qaware_lib.sh"

qa_preflight
# python3 reads its JSON (the big-endian MIPS guest has none)
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
socks=$here/qa_socks
[ -x "$socks" ] || { echo "Bail out! $socks not built (make -C tests/qaware)"; exit "$KSFT_FAIL"; }

# 100 000 idle sockets: ~340 MB of slab, opened in ~15 s under emulation.
idle=${QA_MEM_IDLE:-100000}
listeners=100
conns=300
refused=50
ns=qam-$$
mark=$(tw_kmsg_mark)
tmp=$(mktemp -d)
cgroot=
mounted=

cleanup() {
	exec 3>&- 2>/dev/null
	sysctl -qw fs.file-max="$file_max"
	topo_cleanup
	[ -n "$cgroot" ] && rmdir "$cgroot"/qam-* 2>/dev/null
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	qa_loaded && qa_unload 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

conns_param() {	# conns_param KEY: of the module's "conns" parameter
	awk -v k="$1" '$1 == k { print $2 }' /sys/module/mptcp_qaware/parameters/conns
}

slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }

# Give empty slabs back, so that a run does not reuse the one before's.
slab_settle() {
	local f
	sleep 2
	for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2>/dev/null
}

# hold CMD...: runs CMD (a qa_socks) with its stdin on fd 3, which keeps
# its sockets open until release; waits for its "ready" line in $tmp/out.
hold() {
	local fifo=$tmp/in i
	rm -f "$fifo" && mkfifo "$fifo" || return 1
	"$@" < "$fifo" > "$tmp/out" 2> "$tmp/err" &
	holder=$!
	exec 3> "$fifo"
	for i in $(seq 1800); do
		grep -q '^ready' "$tmp/out" && return 0
		kill -0 "$holder" 2>/dev/null || break
		sleep 0.1
	done
	tap_diag "$1 $2: $(cat "$tmp/err")"
	return 1
}

release() {
	exec 3>&-
	wait "$holder"
}

in_ns() { ip netns exec "$ns" "$@"; }
set_sched() { in_ns sysctl -qw net.mptcp.scheduler="$1"; }

# listed: connections "timewire qaware stats" shows in the namespace
listed() {
	in_ns timewire -j qaware stats |
		python3 -c 'import json, sys; print(len(json.load(sys.stdin)["conns"]))'
}

# idle_run SCHED: sets per1000 (kB of slab per 1000 sockets), and for a
# module's scheduler nlisted and nlive while they are open
idle_run() {
	local s0 s1 t0=$SECONDS
	per1000=-1
	set_sched "$1" || return 1
	slab_settle
	s0=$(slab_kb)
	hold in_ns "$socks" idle "$idle" "$listeners" 65534 || return 1
	s1=$(slab_kb)
	tap_diag "$1: opened in $((SECONDS - t0)) s" 
	if [ "$1" != default ]; then
		nlisted=$(listed)
		nlive=$(conns_param live)
	fi
	release
	per1000=$(((s1 - s0) * 1000 / idle))
	tap_diag "$1: $idle idle sockets ($listeners listening) took $((s1 - s0)) kB of slab, $per1000 kB per 1000"
}

# The cgroup v2 hierarchy, mounted here if the guest has none.
cgroup_root() {
	cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	if [ -z "$cgroot" ]; then
		mounted=$tmp/cgroup
		mkdir -p "$mounted" && mount -t cgroup2 none "$mounted" || return 1
		cgroot=$mounted
	fi
	echo +memory > "$cgroot/cgroup.subtree_control"
}

# conns_run SCHED: $conns connections in a fresh cgroup with memory.max;
# sets charged (its memory.current once they are up, bytes), and for a
# module's scheduler nlisted, nlive, steps
conns_run() {
	local cg=$cgroot/qam-$1
	set_sched "$1" && mkdir "$cg" && echo 512M > "$cg/memory.max" || return 1
	hold sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' - "$cg" \
		ip netns exec "$ns" "$socks" conns "$conns" || return 1
	charged=$(cat "$cg/memory.current")
	if [ "$1" != default ]; then
		nlisted=$(listed)
		nlive=$(conns_param live)
		steps=$(conns_param lookup_steps_max)
	fi
	release
	tap_diag "$1: $conns connections, memory.current $charged bytes"
}

file_max=$(sysctl -n fs.file-max)
# a guest of 1 GiB allows ~100 000 open files in all
[ "$file_max" -gt $((idle + 10000)) ] || sysctl -qw fs.file-max=$((idle + 10000))

tap_plan 14
tap_ok "loads with the addresses of /proc/kallsyms" qa_load
topo_ns "$ns" || tap_diag "no namespace"

idle_run default
d1000=$per1000
nlisted=- nlive=-
idle_run qaware
q1000=$per1000
tap_ok "idle sockets: slab per 1000 under qaware within 5 % of default's ($q1000 vs $d1000 kB)" \
	test $(((q1000 - d1000) * 100)) -le $((d1000 * 5)) -a \
	$(((d1000 - q1000) * 100)) -le $((d1000 * 5))
tap_ok "idle and listening sockets: no statistics entry ($nlisted listed)" \
	test "$nlisted" = 0
tap_ok "idle and listening sockets: no state (conns live $nlive)" \
	test "$nlive" = 0

# The connections' checks need a cgroup with memory.max.
conns_checks() {
	bytes=$(conns_param state_bytes)
	tap_diag "one state: ${bytes:-?} bytes; $nlive with state, $nlisted listed, lookups of at most $steps steps"
	tap_ok "connections: each has its state, as many as listed" \
		test "$nlive" -ge "$conns" -a "$nlive" = "$nlisted"
	tap_ok "connections: a decision finds its state in at most 2 steps" \
		test "$steps" -ge 1 -a "$steps" -le 2
	tap_ok "connections: the states show in the cgroup's memory.current ($((charged_qaware - charged_default)) bytes more than default's)" \
		test $(((charged_qaware - charged_default) * 2)) -ge $((conns * ${bytes:-0})) -a "${bytes:-0}" -gt 0
}

if cgroup_root; then
	conns_run default
	charged_default=${charged:-0}
	nlisted=- nlive=- steps=-
	conns_run qaware
	charged_qaware=${charged:-0}
	conns_checks
else
	for what in "each has its state" "a decision's lookup steps" \
		    "the states in memory.current"; do
		tap_skip "connections: $what" "no cgroup v2 memory controller (CONFIG_MEMCG)"
	done
fi

set_sched qaware
echo 10 > /sys/module/mptcp_qaware/parameters/max_conns
s0=$(conns_param stateless)
hold in_ns "$socks" conns 20 && capped_ok=1 || capped_ok=0
nlive=$(conns_param live)
release
echo 16384 > /sys/module/mptcp_qaware/parameters/max_conns
tap_diag "max_conns 10: $nlive with state, $(($(conns_param stateless) - s0)) decisions without"
tap_ok "max_conns 10: 20 connections connect and send" test "$capped_ok" = 1
tap_ok "max_conns 10: at most 10 have state" test "$nlive" -le 10
tap_ok "max_conns 10: the others' decisions are made without state" \
	test "$(conns_param stateless)" -gt "$s0"

ip netns del "$ns"
topo_ns "$ns" && set_sched qaware ||
	tap_diag "no namespace"
hold in_ns "$socks" relisten && relisten_ok=1 || relisten_ok=0
nlisted=$(listed)
release
tap_ok "relisten: the accepted socket sends ($relisten_ok), both sockets with state ($nlisted listed)" \
	test "$relisten_ok" = 1 -a "$nlisted" = 2

ip netns del "$ns"
if [ -n "$cgroot" ]; then
	mkdir "$cgroot/qam-refuse"
	set_sched() { sysctl -qw net.mptcp.scheduler="$1"; }
	before=$(cat /proc/sys/net/mptcp/scheduler)
	set_sched qaware
	r=$("$socks" refuse "$cgroot/qam-refuse" "$refused")
	set_sched "$before"
fi
tap_ok "refused at creation: every socket refused (${r:-none})" \
	test "${r:-}" = "refused $((2 * refused))"
tap_diag "after the refused sockets: refcnt $(cat "$qa_refcnt")"
tap_ok "refused at creation: no module reference left, rmmod succeeds" qa_unload
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
tap_done
