# shellcheck shell=bash
# What the guest ynl tests share (sourced after ../lib/tap.sh, with $here
# the test's directory, $top the source tree's, $py the Python to run):
# the kernel's ynl found for a family and run in the test's namespace
# ($ns), and checks of its output (in $tmp).

# ynl_find FAMILY: ynl_cli, the kernel's ynl command line for FAMILY, and
# spec, FAMILY's spec: the suite's own copies once installed
# (tests/ynl/Makefile), else the source tree's.  Skips the program
# without them, or without jq.  Call before the plan.
ynl_find() {
	if [ -f "$here/cli.py" ]; then
		spec=$here/$1.yaml
		ynl_cli=("$py" "$here/cli.py" --spec "$spec")
	elif [ -x "$top/scripts/ynl.sh" ]; then
		spec=$top/Documentation/netlink/specs/$1.yaml
		ynl_cli=("$top/scripts/ynl.sh" --spec "$1")
	else
		tap_skip_all "the kernel's ynl is neither installed here nor in a source tree"
	fi
	command -v jq >/dev/null || tap_skip_all "no jq (apt install jq)"
}

# ynl ARGS...: ynl_find's command line in $ns.
ynl() { ip netns exec "$ns" "${ynl_cli[@]}" --no-schema "$@"; }

# skip_without_yaml OUTPUT: the suite is skipped if a Python run whose
# output is in OUTPUT found no yaml module (asking Python up front would
# cost one more start, seconds in an emulated guest).  Call before the plan.
skip_without_yaml() {
	! grep -q "No module named 'yaml'" "$1" ||
		tap_skip_all "python3 lacks yaml (apt install python3-yaml)"
}

# json_check FILE EXPR: the jq filter EXPR is true for the JSON in FILE
# (jq, not Python: each Python start costs seconds in an emulated guest).
json_check() {
	jq -e "$2" "$1" >/dev/null && return 0
	sed 's/^/# got: /' "$1"
	return 1
}

# refused NAME ERRTEXT BADATTR ynl-args...: the request fails, ynl prints the
# error and the extack names BADATTR with a message.
refused() {
	local out=$tmp/$1.out errtext=$2 bad=$3
	shift 3
	if ynl "$@" >"$out" 2>&1; then
		tap_diag "request succeeded"
		return 1
	fi
	sed 's/^/# /' "$out"
	grep -q "Netlink error: $errtext" "$out" &&
		grep -q "'msg': '[^']" "$out" &&
		grep -q "'bad-attr': '$bad'" "$out"
}
