#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mptcp_qaware.ko's generic netlink family "qaware" and its CLI:
#
#   a) "timewire qaware load ko FILE" loads it, and a second load is refused
#   b) "timewire qaware show" lists the module's schedulers with the
#      decisions, refusals and waits its decisions parameter counts, as text
#      and JSON, one by name, from another network namespace too; an
#      unknown name is refused.  A transfer with rr in that namespace
#      counts there and in the parameter's totals, not in the initial
#      namespace's show.  "timewire qaware stats" with no MPTCP
#      connection lists none (text and JSON) and refuses an unknown name
#   c) the kernel's ynl with Documentation/netlink/specs/qaware.yaml: the
#      kernel's operations and policies agree with the spec, a dump and a do
#      answer, the extack of a refused do (and of a refused conn-get dump)
#      names the attribute
#   d) the netlink fuzzer over the family (tests/nlfuzz, its qaware recipe)
#   e) "timewire qaware unload" unloads it; then show and unload say it is
#      not loaded (exit 2)
#
# No warning in the kernel log throughout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${TW_ROOT:-$(cd "$here/../.." && pwd)}
. "$here/../lib/tap.sh"
. "$here/qaware_lib.sh"

qa_preflight
# python3 reads its JSON and moves its data (the big-endian MIPS guest
# has none)
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
py=${YNL_PYTHON:-/usr/bin/python3}
export YNL_NO_SCHEMA=1
spec=$top/Documentation/netlink/specs/qaware.yaml
ns=tw-qafam-$$
tmp=$(mktemp -d)
mark=$(tw_kmsg_mark)

cleanup() {
	topo_cleanup
	qa_loaded && qa_unload 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The module's own count of each scheduler's decisions: "name decisions".
qa_param_counts() {
	awk '{ print $1, $2 }' /sys/module/mptcp_qaware/parameters/decisions
}

# rr_decisions [NS]: rr's decisions as "timewire qaware show" gives them
# in NS (default: this namespace).
rr_decisions() {
	${1:+ip netns exec "$1"} timewire -j qaware show rr | "$py" -c 'import json, sys
print(json.load(sys.stdin)["scheds"][0]["decisions"])'
}

# A small MPTCP upload over the loopback of $ns with rr; true if it
# arrived whole.
rr_transfer() {
	local server got

	ip netns exec "$ns" sysctl -qw net.mptcp.scheduler=rr || return 1
	ip netns exec "$ns" python3 "$xfer" serve 5301 > "$tmp/serve.out" &
	server=$!
	sleep 1
	timeout 60 ip netns exec "$ns" python3 "$xfer" upload 127.0.0.1 5301 65536
	sleep 0.5
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	got=$(tail -n 1 "$tmp/serve.out")
	tap_diag "rr upload in $ns: ${got:-nothing} bytes read"
	test "$got" = 65536
}

tap_plan 18

tap_ok "timewire qaware load ko FILE loads it" qa_load
tap_ok "a second load is refused: exit 1, loaded already" \
	eval 'timewire qaware load ko "$qa_ko" 2>"$tmp/again"; [ $? -eq 1 ] &&
	      grep -q "loaded already" "$tmp/again"'

# joined CMD...: CMD's lines as one, for tap_is to show both sides (diff(1)
# is not on every guest: the arm64 root has none)
joined() { "$@" | paste -sd ';'; }
# show_json KEY...: each scheduler of show -j with those of its values
show_json() {
	"$py" -c 'import json, sys
for s in json.load(open(sys.argv[1]))["scheds"]:
    print(" ".join(str(s[k]) for k in sys.argv[2:]))' "$tmp/show.json" "$@"
}

timewire qaware show > "$tmp/show.txt"
tap_is "show: every scheduler with the decisions the module counts" \
	"$(joined qa_param_counts)" "$(joined awk '{ print $1, $3 }' "$tmp/show.txt")"
timewire -j qaware show > "$tmp/show.json"
tap_is "show -j: the same, as JSON" \
	"$(joined qa_param_counts)" "$(joined show_json sched decisions)"
tap_is "show -j: refusals and waits as the module counts them" \
	"$(joined awk '{ print $1, $3, $4 }' /sys/module/mptcp_qaware/parameters/decisions)" \
	"$(joined show_json sched refusals waits)"
first=$(qa_param_counts | awk 'NR == 1 { print $1 }')
tap_ok "show $first: that one only" \
	eval 'test "$(timewire qaware show "$first" | awk "{ print \$1 }")" = "$first"'
topo_ns "$ns"
tap_is "show from another network namespace: the same schedulers" \
	"$(joined awk '{ print $1 }' /sys/module/mptcp_qaware/parameters/decisions)" \
	"$(ip netns exec "$ns" timewire qaware show | joined awk '{ print $1 }')"
rr_transfer || tap_diag "the rr upload in $ns did not arrive whole"
there=$(rr_decisions "$ns")
home=$(rr_decisions)	# not $here: the suite's directory, for nlfuzz below
total=$(qa_param_counts | awk '$1 == "rr" { print $2 }')
tap_diag "rr decisions: $there in $ns, $home here, $total in all"
tap_ok "a transfer with rr in another namespace counts there, not here" \
	test "${there:-0}" -gt 0 -a "${home:-x}" = 0 -a "${total:-0}" -ge "${there:-1}"
tap_ok "show nosuch: refused by the kernel, exit 1, saying why" \
	eval 'timewire qaware show nosuch 2>"$tmp/nosuch"; [ $? -eq 1 ] &&
	      grep -q "no scheduler of this name" "$tmp/nosuch"'
tap_ok "stats with no MPTCP connection: none, as text and JSON" \
	eval 'test "$(ip netns exec "$ns" timewire qaware stats)" = "no connections" &&
	      test "$(ip netns exec "$ns" timewire -j qaware stats qaware)" = "{\"conns\":[]}"'
tap_ok "stats nosuch: refused by the kernel, exit 1, saying why" \
	eval 'timewire qaware stats nosuch 2>"$tmp/nosuch"; [ $? -eq 1 ] &&
	      grep -q "no scheduler of this name" "$tmp/nosuch"'

# c) the kernel's ynl, from the source tree.
if [ -x "$top/scripts/ynl.sh" ] && "$py" -c 'import yaml' 2>/dev/null; then
	ynl() { ip netns exec "$ns" "$top/scripts/ynl.sh" --spec qaware --no-schema "$@"; }
	tap_ok "spec agrees with the kernel's operations, flags and policies" \
		ip netns exec "$ns" "$py" "$top/tests/ynl/policy_check.py" "$spec"
	tap_ok "ynl sched-get dump: the module's schedulers" \
		eval 'diff <(ynl --dump sched-get --output-json | "$py" -c "import json, sys
for s in json.load(sys.stdin):
    print(s[\"sched\"])") <(qa_param_counts | awk "{ print \$1 }")'
	tap_ok "ynl sched-get of an unknown name: ENOENT, the extack names sched" \
		eval 'ynl --do sched-get --json "{\"sched\": \"nosuch\"}" >"$tmp/ynl" 2>&1;
		      sed "s/^/# /" "$tmp/ynl"; grep -q "No such file or directory" "$tmp/ynl" &&
		      grep -q "'"'"'bad-attr'"'"': '"'"'.sched'"'"'" "$tmp/ynl"'
	tap_ok "ynl conn-get dump of an unknown scheduler: ENOENT, the extack names sched" \
		eval 'ynl --dump conn-get --json "{\"sched\": \"nosuch\"}" >"$tmp/ynl" 2>&1;
		      sed "s/^/# /" "$tmp/ynl"; grep -q "No such file or directory" "$tmp/ynl" &&
		      grep -q "'"'"'bad-attr'"'"': '"'"'.sched'"'"'" "$tmp/ynl"'
else
	for t in "spec agrees with the kernel's operations, flags and policies" \
		"ynl sched-get dump: the module's schedulers" \
		"ynl sched-get of an unknown name: ENOENT, the extack names sched" \
		"ynl conn-get dump of an unknown scheduler: ENOENT, the extack names sched"; do
		tap_skip "$t" "the kernel's ynl or python3-yaml unavailable"
	done
fi

# d) the fuzzer, over the one family loaded here; it leaves the module.
if [ -x "$here/nlfuzz" ]; then
	"$here/nlfuzz" --budget "${QA_FUZZ_BUDGET:-20}" > "$tmp/fuzz" 2>&1
	rc=$?
	grep -E '^(not )?ok|^# (FAIL|qaware)' "$tmp/fuzz" | sed 's/^/# /'
	tap_ok "netlink fuzzer over the qaware family: every check passes" \
		eval '[ $rc -eq 0 ] && grep -q "^ok .*qaware" "$tmp/fuzz"'
else
	tap_skip "netlink fuzzer over the qaware family: every check passes" "nlfuzz not built"
fi

tap_ok "timewire qaware unload unloads it; show and unload then exit 2" \
	eval 'timewire qaware unload && ! qa_loaded &&
	      { timewire qaware show 2>/dev/null; [ $? -eq 2 ]; } &&
	      { timewire qaware unload 2>/dev/null; [ $? -eq 2 ]; }'
tap_ok "no warning in the kernel log" tw_kmsg_clean "$mark"
tap_done
