#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest test: drive the live omware family with the kernel's ynl tools and
# Documentation/netlink/specs/omware.yaml, nothing of timewire's own CLI.
#
#   netns $ns                            netns $ns2
#   +--------------------------+         +-----------------------+
#   | veth0 <------> veth1     |         | (no devices; looks at |
#   | sessions live on veth0   |         |  $ns's sessions)      |
#   +--------------------------+         +-----------------------+
#
# Every ynl command line run opens its own netlink socket, and a session dies
# with the socket that created it: single requests use scripts/ynl.sh, checks
# that need a live session use omware_ynl.py (several requests, one socket).
# Python starts slowly under emulation: the driver runs all its checks in one
# process, and specs are not schema-validated here (test_spec.sh does that
# on the host).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=${TW_ROOT:-$(cd "$here/../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"
# shellcheck source=tests/lib/topo.sh
. "$here/../lib/topo.sh"

py=${YNL_PYTHON:-/usr/bin/python3}
export YNL_NO_SCHEMA=1
ns=tw-ynl-$$
ns2=tw-ynl2-$$
tmp=$(mktemp -d)

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
# shellcheck source=tests/ynl/ynl_lib.sh
. "$here/ynl_lib.sh"
ynl_find omware

registered() {
	if command -v genl >/dev/null; then
		genl ctrl get name omware >/dev/null 2>&1
	else
		"$py" "$here/omware_ynl.py" probe >/dev/null
	fi
}
registered || tap_skip_all "omware family not registered (module not loaded)"

cleanup() {
	topo_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT

topo_ns "$ns" "$ns2" && topo_veth "$ns" veth0 "$ns" veth1 ||
	tap_skip_all "cannot create the network namespaces"

# The first request before the plan: ynl cannot start without yaml.
ynl --do stats-get --output-json >"$tmp/stats.json" 2>"$tmp/stats.err"
stats_rc=$?
skip_without_yaml "$tmp/stats.err"

tap_plan 11

if [ "$stats_rc" -eq 0 ]; then
	tap_ok "ynl stats-get returns module counters and caps" json_check \
		"$tmp/stats.json" '(.stats | has("submitted")) and .["max-pkts"] > 0'
else
	sed 's/^/# /' "$tmp/stats.err"
	tap_result 1 "ynl stats-get returns module counters and caps"
fi

if ynl --dump session-get --output-json >"$tmp/dump.json" 2>"$tmp/dump.err"; then
	tap_ok "ynl dump in a fresh netns lists no session" json_check \
		"$tmp/dump.json" '. == []'
else
	sed 's/^/# /' "$tmp/dump.err"
	tap_result 1 "ynl dump in a fresh netns lists no session"
fi

# The driver's checks, in one process; their results are read back below.
checks=(policy lifecycle submit owner-close netns extack)
ip netns exec "$ns" "$py" "$here/omware_ynl.py" --ifname veth0 --peer veth1 \
	--other-netns "$ns2" "${checks[@]}" >"$tmp/drv.out" 2>&1
grep -v '^@@ ' "$tmp/drv.out" | sed 's/^\([^#]\)/# \1/'
drv() {	# drv CHECK DESCRIPTION: report the driver's result for CHECK
	local rc
	rc=$(sed -n "s/^@@ $1 \([0-9]*\)$/\1/p" "$tmp/drv.out")
	case $rc in
	0) tap_result 0 "$2" ;;
	4) tap_skip "$2" "see diagnostics" ;;
	*)
		[ -n "$rc" ] || tap_diag "the driver did not report $1"
		tap_result 1 "$2"
		;;
	esac
}
drv policy "spec agrees with the kernel's operations, flags and policies"
drv lifecycle "session lifecycle on one socket"
drv submit "submitted frames leave in time order, never early, reported"
drv owner-close "only the owner changes a session, which dies with its socket"
drv netns "a session is invisible from another netns"
drv extack "refused submits name the attribute, queue nothing"

tap_ok "ynl shows the policy's extack (ifindex 0)" \
	refused ifindex0 "Numerical result out of range" .ifindex --do session-new --json '{"ifindex": 0}'
tap_ok "ynl shows the handler's extack (no such device)" \
	refused nodev "No such device" .ifindex \
	--do session-new --json '{"ifindex": 99999}'

# GENL_ADMIN_PERM: without CAP_NET_ADMIN reads work, changes are refused.
unpriv() {
	ip netns exec "$ns" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all \
		"${ynl_cli[@]}" --no-schema "$@"
}
no_admin() {
	unpriv --do stats-get >"$tmp/unpriv-get.out" 2>&1 || {
		sed 's/^/# stats-get: /' "$tmp/unpriv-get.out"
		return 1
	}
	local idx
	idx=$(ip netns exec "$ns" cat /sys/class/net/veth0/ifindex)
	if unpriv --do session-new --json "{\"ifindex\": $idx}" \
		>"$tmp/unpriv-new.out" 2>&1; then
		tap_diag "unprivileged session-new succeeded"
		return 1
	fi
	grep -q "Netlink error: Operation not permitted" "$tmp/unpriv-new.out" || {
		sed 's/^/# session-new: /' "$tmp/unpriv-new.out"
		return 1
	}
}
if command -v setpriv >/dev/null; then
	tap_ok "without CAP_NET_ADMIN: stats-get works, session-new is EPERM" no_admin
else
	tap_skip "without CAP_NET_ADMIN: stats-get works, session-new is EPERM" "no setpriv"
fi

tap_done
