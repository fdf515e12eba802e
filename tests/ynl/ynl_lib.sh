# shellcheck shell=bash
# Checks the guest ynl tests share (sourced after ../lib/tap.sh).  The
# includer defines ynl (its family's ynl command line), $py and $tmp.

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
