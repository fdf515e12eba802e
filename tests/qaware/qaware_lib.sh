# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers of the qaware suite, sourced by its programs after tap.sh, with
# $here set to the suite's directory (the module and its modprobe.d rule
# are installed next to the programs; the loader is "timewire qaware load").
# TW_QA_KO and TW_QA_RULE name others: the packages' (tests/vm/guest.sh).

qa_ko=${TW_QA_KO:-$here/mptcp_qaware.ko}
qa_rule=${TW_QA_RULE:-$here/mptcp-qaware.conf}
qa_refcnt=/sys/module/mptcp_qaware/refcnt
# MPTCP transfers and UDP fillers of the path tests
xfer=$here/mptcp_xfer.py

# Skip unless this machine can run the suite at all.
qa_preflight() {
	[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
	[ -r /proc/sys/net/mptcp/available_schedulers ] ||
		tap_skip_all "kernel without the MPTCP scheduler API"
	[ -f "$qa_ko" ] || { echo "Bail out! $qa_ko not built (make -C tests/qaware)"; exit "$KSFT_FAIL"; }
	command -v ip >/dev/null || tap_skip_all "ip (iproute2) not installed"
	command -v timewire >/dev/null || { echo "Bail out! timewire not built (make userspace)"; exit "$KSFT_FAIL"; }
	# A script before us in this boot may have left it held by a socket
	# that closes late (a blackholed subflow): give it the time again.
	if qa_loaded; then
		qa_unload 2>/dev/null
	fi
	! qa_loaded || tap_skip_all "mptcp_qaware is loaded and could not be unloaded"
}

qa_loaded() { grep -q '^mptcp_qaware ' /proc/modules; }

# The address of a kernel (not module) symbol, as the loader reads it.
qa_sym() { awk -v n="$1" '$3 == n && NF == 3 { print "0x" $1; exit }' /proc/kallsyms; }

qa_load() { timewire qaware load ko "$qa_ko"; }

# rmmod once no socket holds the module any more: a closed MPTCP socket is
# freed a little later (RCU, the workqueue; a subflow that was blackholed
# closes at its next retransmission), so wait up to 60 s for that.
qa_unload() {
	local i
	for i in $(seq 300); do
		[ "$(cat "$qa_refcnt" 2>/dev/null)" = 0 ] && break
		sleep 0.2
	done
	rmmod mptcp_qaware
}

qa_available() { cat /proc/sys/net/mptcp/available_schedulers; }

# The limit of one upload: 180 s times TW_TIMEOUT_MULT (the debug kernel).
qa_upload_limit=$((180 * ${TW_TIMEOUT_MULT:-1}))

# qa_wait_held MARKER: wait (as long as an upload may take) until an
# upload started with MARKER (mptcp_xfer.py upload ... MARKER) has sent
# everything and holds its connection open; the caller reads what it
# needs, then removes MARKER.
qa_wait_held() {
	local end=$((SECONDS + qa_upload_limit))

	while [ $SECONDS -lt $end ]; do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# The kernel log checks: tw_kmsg_mark, tw_kmsg_since, tw_kmsg_clean.
# shellcheck source=tests/lib/kmsg.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kmsg.sh"
# The network: topo_ns, topo_mptcp, topo_nicpair_find, topo_cleanup.
# shellcheck source=tests/lib/topo.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/topo.sh"
