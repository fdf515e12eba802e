#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest test: drive the live tfib family with the kernel's ynl command line
# tool and Documentation/netlink/specs/tfib.yaml, nothing of timewire's own:
# the kernel's policies against the spec, a table created, an entry set,
# read and dumped, refusals with their extack, the table deleted.
#
# Tables outlive the socket that made them, so each step is one ynl run.
# Python starts slowly under emulation: the steps are few, JSON is checked
# with jq, and specs are not schema-validated here (test_spec.sh does that on the host).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=${TW_ROOT:-$(cd "$here/../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"
# shellcheck source=tests/lib/topo.sh
. "$here/../lib/topo.sh"

py=${YNL_PYTHON:-/usr/bin/python3}
export YNL_NO_SCHEMA=1
ns=tw-ynlt-$$
tmp=$(mktemp -d)

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
# shellcheck source=tests/ynl/ynl_lib.sh
. "$here/ynl_lib.sh"
ynl_find tfib
[ -d /sys/module/tfib ] || tap_skip_all "tfib module not loaded"

cleanup() {
	topo_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
topo_ns "$ns" || tap_skip_all "cannot create a network namespace"

# run NAME ynl-args...: the request succeeds, its JSON output in $tmp/NAME
run() {
	local name=$1
	shift
	ynl "$@" --output-json >"$tmp/$name" 2>"$tmp/$name.err" && return 0
	sed 's/^/# /' "$tmp/$name.err"
	return 1
}

# The first Python run before the plan: ynl's library needs yaml.
ip netns exec "$ns" "$py" "$here/policy_check.py" "$spec" >"$tmp/policy.out" 2>&1
policy_rc=$?
skip_without_yaml "$tmp/policy.out"

tap_plan 8

sed 's/^\([^#]\)/# \1/' "$tmp/policy.out"
tap_result "$policy_rc" "spec agrees with the kernel's operations, flags and policies"

tap_ok "ynl creates a seqcount table and sets an entry (one message)" \
	run new --multi table-new '{"table": "ynl0", "capacity": 100, "sync": "seqcount"}' \
	--multi entry-set '{"table": "ynl0", "user-id": 7, "mac": "02007f000007", "ts-ns": 123456789, "seq": 3}'

# Both reads in one message (one Python start fewer).
if run get --multi table-get '{"table": "ynl0"}' \
	--multi entry-get '{"table": "ynl0", "user-id": 7}'; then
	tap_ok "ynl table-get: capacity, default buckets, sync, one entry" json_check \
		"$tmp/get" '.[0] | .capacity == 100 and .buckets == 128 and .sync == "seqcount" and .entries == 1 and .clockid == 1'
	tap_ok "ynl entry-get returns the tuple as set" json_check \
		"$tmp/get" '.[1] | .mac == "02007f000007" and .["ts-ns"] == 123456789 and .seq == 3 and .table == "ynl0"'
else
	tap_result 1 "ynl table-get: capacity, default buckets, sync, one entry"
	tap_result 1 "ynl entry-get returns the tuple as set"
fi

if run dump --dump entry-get --json '{"table": "ynl0"}'; then
	tap_ok "ynl entry dump lists the one entry" json_check \
		"$tmp/dump" '[.[]["user-id"]] == [7]'
else
	tap_result 1 "ynl entry dump lists the one entry"
fi

tap_ok "ynl shows the policy's extack (capacity 0)" \
	refused cap0 "Numerical result out of range" .capacity \
	--do table-new --json '{"table": "ynl1", "capacity": 0}'
tap_ok "ynl shows the handler's extack (no such table)" \
	refused notable "No such file or directory" .table \
	--do entry-get --json '{"table": "nosuch", "user-id": 1}'

if run del --do table-del --json '{"table": "ynl0"}' &&
	run left --dump table-get; then
	tap_ok "ynl table-del; the namespace has no table left" json_check \
		"$tmp/left" '. == []'
else
	tap_result 1 "ynl table-del; the namespace has no table left"
fi

tap_done
