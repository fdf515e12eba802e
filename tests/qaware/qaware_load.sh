#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mptcp_qaware.ko registers its schedulers only with the right addresses:
#
#   a) no address, a wrong symbol, a right symbol off by 4 bytes, the list
#      and the lock swapped (a lock address where a uniprocessor kernel's
#      lock of no bytes has no symbol), bit-fields one bit off the build's
#      BTF, a module compiled for another layout (the running kernel's BTF
#      disagrees, with the right addresses and through the modprobe.d
#      rule), one compiled with a member narrower than BTF's at the same
#      offset: each load is refused with a message naming the reason, and
#      nothing is registered
#   b) with the addresses of /proc/kallsyms it loads, and its schedulers
#      (qaware minrtt rr redundant ecf blest qaware_wait) are in
#      net.mptcp.available_schedulers, after the kernel's default
#   c) a socket created with one of them pins the module: rmmod is refused
#      while it is open, succeeds once it is closed, and the schedulers are
#      gone from the list
#   d) through the modprobe.d rule; compressed (xz, gzip) it loads, a
#      file that only looks compressed is refused
#
# No warning in the kernel log throughout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/qaware_lib.sh"

qa_preflight
socks=$here/qa_socks
[ -x "$socks" ] || { echo "Bail out! $socks not built (make -C tests/qaware)"; exit "$KSFT_FAIL"; }

list=$(qa_sym mptcp_sched_list)
[ -n "$list" ] ||
	tap_skip_all "mptcp_sched_list not in /proc/kallsyms (CONFIG_KALLSYMS_ALL)"
# A uniprocessor kernel's lock may have no bytes, and then no symbol (the
# big-endian MIPS guest's): no address is given for it.
lock=$(qa_sym mptcp_sched_list_lock)
lock_arg=()
[ -z "$lock" ] || lock_arg=(sched_list_lock="$lock")
other=$(qa_sym init_net)
before=$(qa_available)
mark=$(tw_kmsg_mark)
holder=

cleanup() {
	exec 3>&-
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	topo_cleanup
	qa_loaded && qa_unload 2>/dev/null
}
trap cleanup EXIT

# kmsg_has MARK PATTERN: logged since MARK (quietly: TAP reads stdout)
kmsg_has() { tw_kmsg_since "$1" "$2" >/dev/null; }

# refused KO WHAT DMESG_PATTERN insmod-args...
refused() {
	local ko=$1 what=$2 pattern=$3 m
	shift 3
	m=$(tw_kmsg_mark)
	if insmod "$ko" "$@" 2>/dev/null; then
		rmmod mptcp_qaware
		tap_result 1 "load refused: $what"
		return
	fi
	tap_ok "load refused: $what, and the kernel log says why" \
		kmsg_has "$m" "$pattern"
}

tap_plan 23
[ -n "$lock" ] || tap_diag "no mptcp_sched_list_lock in /proc/kallsyms: a lock of no bytes"

refused "$qa_ko" "no address" "sched_list= not given"
refused "$qa_ko" "a wrong symbol (init_net)" \
	"sched_list=0x[0-9a-f]+ is init_net\+0x0/.*, not mptcp_sched_list" \
	sched_list="$other" "${lock_arg[@]}"
# Inside the list head on 32-bit CPUs too, where it is 8 bytes long.
refused "$qa_ko" "mptcp_sched_list+4" "is mptcp_sched_list\+0x4/.*wrong address" \
	sched_list="$(printf '0x%x' $((list + 4)))" "${lock_arg[@]}"
if [ -n "$lock" ]; then
	refused "$qa_ko" "list and lock swapped" \
		"is mptcp_sched_list_lock\+0x0/.*, not mptcp_sched_list" \
		sched_list="$lock" sched_list_lock="$list"
else
	refused "$qa_ko" "a lock address where the kernel has no lock symbol" \
		"sched_list_lock=0x[0-9a-f]+ is mptcp_sched_list\+0x0/.*, not mptcp_sched_list_lock" \
		sched_list="$list" sched_list_lock="$list"
fi
refused "$here/mptcp_qaware-skewed.ko" "a layout one bit off BTF" \
	"mptcp_subflow_context.request_join is not where the kernel's BTF has it" \
	sched_list="$list" "${lock_arg[@]}"
refused "$here/mptcp_qaware-padded.ko" "compiled for another layout" \
	"mptcp_subflow_context.node is at bit 64 in this module, at bit 0 in the running kernel's BTF \(/sys/kernel/btf/vmlinux\)" \
	sched_list="$list" "${lock_arg[@]}"
refused "$here/mptcp_qaware-narrow.ko" "a member narrower than BTF's" \
	"mptcp_sock.token is 16 bits wide in this module, 32 in the running kernel's BTF" \
	sched_list="$list" "${lock_arg[@]}"
tap_ok "refused loads registered nothing" test "$(qa_available)" = "$before"

tap_ok "loads with the addresses of /proc/kallsyms" qa_load
now=$(qa_available)
tap_diag "available_schedulers: $now"
tap_ok "its seven schedulers listed after the kernel's default" \
	test "$now" = "$before qaware minrtt rr redundant ecf blest qaware_wait"

# A socket of its own namespace, with rr selected, pins the module: one
# MPTCP socket of qa_socks, open until its stdin (fd 3 here) closes.
ns=qal-$$
topo_ns "$ns"
ip netns exec "$ns" sysctl -qw net.mptcp.scheduler=rr
in=$(mktemp -u) out=$(mktemp -u)
mkfifo "$in" "$out"
ip netns exec "$ns" "$socks" idle 1 0 0 < "$in" > "$out" &
holder=$!
exec 3> "$in"
read -r -t 30 line < "$out"
rm -f "$in" "$out"
tap_diag "holder ${line:-not ready}, refcnt $(cat "$qa_refcnt")"
tap_not "rmmod refused while an MPTCP socket uses rr" rmmod mptcp_qaware
exec 3>&-
wait "$holder" 2>/dev/null
holder=
ip netns del "$ns"
tap_ok "rmmod succeeds once the socket is closed" qa_unload
tap_ok "the schedulers are gone from the list" test "$(qa_available)" = "$before"

# The rule as installed, pointing at the timewire on PATH (the package's
# rule names /usr/bin/timewire already); MODPROBE_OPTIONS reaches the
# loader's own modprobe too.
modprobe_by_rule() {	# modprobe_by_rule DIR KO
	local tmp=$1 kver
	kver=$(uname -r)
	mkdir -p "$tmp/lib/modules/$kver/extra" "$tmp/modprobe.d" &&
	# compressed (a package's .ko.xz) as it came
	cp "$2" "$tmp/lib/modules/$kver/extra/mptcp_qaware.ko${2##*.ko}" &&
	depmod -b "$tmp" "$kver" 2>/dev/null &&
	sed "s|/usr/local/bin/timewire|$(command -v timewire)|" "$qa_rule" \
		> "$tmp/modprobe.d/mptcp-qaware.conf" &&
	MODPROBE_OPTIONS="-d $tmp -C $tmp/modprobe.d" modprobe mptcp_qaware
}
rule_checks() {
	local tmp m

	tmp=$(mktemp -d)
	tap_ok "modprobe through the modprobe.d rule loads it" modprobe_by_rule "$tmp" "$qa_ko"
	tap_ok "and it unloads" qa_unload
	rm -rf "$tmp"
	tmp=$(mktemp -d)
	m=$(tw_kmsg_mark)
	tap_not "the rule refuses a module compiled for another layout" \
		modprobe_by_rule "$tmp" "$here/mptcp_qaware-padded.ko"
	tap_ok "and the kernel log says why" kmsg_has "$m" \
		"mptcp_subflow_context.node is at bit 64 in this module.*refusing to load"
	qa_loaded && qa_unload
	rm -rf "$tmp"
}
# The rule is tried in a modules directory and modprobe.d of its own
# (kmod's modprobe -d, -C); busybox's modprobe (the big-endian MIPS
# guest's) reads only the system's.
if modprobe --version 2>/dev/null | grep -q '^kmod'; then
	rule_checks
else
	for t in "modprobe through the modprobe.d rule loads it" "and it unloads" \
		"the rule refuses a module compiled for another layout" \
		"and the kernel log says why"; do
		tap_skip "$t" "modprobe is not kmod's: no -d or -C"
	done
fi

# A compressed file, decompressed by the CLI (not by the kernel, which
# takes its own build's format and options only): whichever the tool.
compressed() {	# compressed TOOL SUFFIX: the module through TOOL, loaded
	local tmp rc
	tmp=$(mktemp -d)
	"$1" -c "$qa_ko" > "$tmp/mptcp_qaware.ko.$2" &&
		timewire qaware load ko "$tmp/mptcp_qaware.ko.$2"
	rc=$?
	rm -rf "$tmp"
	return $rc
}
# A file that is no such archive: refused before the kernel sees it.
not_compressed() {
	local tmp out
	tmp=$(mktemp -d)
	cp "$qa_ko" "$tmp/mptcp_qaware.ko.gz"
	out=$(timewire qaware load ko "$tmp/mptcp_qaware.ko.gz" 2>&1)
	rm -rf "$tmp"
	echo "$out" | sed 's/^/# /'
	[[ $out == *"cannot decompress"* ]] && ! qa_loaded
}
# Tools that compress (busybox's xz only decompresses: the MIPS guests').
compresses() { [ -n "$(echo x | "$1" -c 2> /dev/null)" ]; }
if [ "${qa_ko##*.}" = ko ] && compresses xz && compresses gzip; then
	tap_ok "timewire qaware load ko of an .xz copy" compressed xz xz
	tap_ok "and it unloads" qa_unload
	tap_ok "timewire qaware load ko of a .gz copy" compressed gzip gz
	tap_ok "and it unloads" qa_unload
	tap_ok "a .gz that is none refused, saying so" not_compressed
else
	for t in "timewire qaware load ko of an .xz copy" "and it unloads" \
		"timewire qaware load ko of a .gz copy" "and it unloads" \
		"a .gz that is none refused"; do
		tap_skip "$t" "no xz and gzip that compress here, or the module is compressed already"
	done
fi
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
tap_done
