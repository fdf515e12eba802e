# shellcheck shell=bash
# Checks the guest ynl tests share (sourced after ../lib/tap.sh).  The
# includer defines ynl (its family's ynl command line) and $tmp.

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
