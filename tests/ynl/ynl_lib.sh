# shellcheck shell=bash
# Checks the guest ynl tests share (sourced after ../lib/tap.sh).  The
# includer defines ynl (its family's ynl command line), $py and $tmp.

# json_check FILE EXPR: EXPR (python, over the JSON value r) holds for FILE.
json_check() {
	"$py" -c 'import json, sys
r = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("# got:", r)
sys.exit(0 if ok else 1)' "$1" "$2"
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
