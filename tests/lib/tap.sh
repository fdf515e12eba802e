# shellcheck shell=bash
# TAP helpers for timewire's shell tests (kselftest conventions:
# exit 0 = pass, 1 = fail, 4 = skip).
#
#   . "$(dirname "$0")/../lib/tap.sh"
#   tap_plan 3
#   tap_ok  "description" command args...   # ok if the command succeeds
#   tap_not "description" command args...   # ok if the command fails
#   tap_skip "description" "reason"
#   tap_step LOG "description" command args...  # its output in LOG
#   tap_skip_all "reason" / tap_fail_all "reason"   # before the plan
#   tap_ok_throughput "description" command args...  # off on the debug kernel
#   tap_ok_since 6.5 "why" "description" command args...  # skipped before 6.5
#   tap_done                                 # exits with the right code

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

tap_n=0
tap_failed=0
tap_skipped=0
tap_planned=0

tap_plan() {
	tap_planned=$1
	echo "TAP version 13"
	echo "1..$1"
}

tap_result() {	# tap_result 0|1 description [directive]
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2${3:+ # $3}"
	else
		echo "not ok $tap_n - $2${3:+ # $3}"
		tap_failed=$((tap_failed + 1))
	fi
}

tap_ok() {
	local desc=$1
	shift
	if "$@"; then tap_result 0 "$desc"; else tap_result 1 "$desc"; fi
}

# tap_is DESC WANT GOT: one result comparing two strings, both shown if they differ.
tap_is() {
	[ "$2" = "$3" ] || tap_diag "$1: want '$2', got '$3'"
	tap_result "$([ "$2" = "$3" ]; echo $?)" "$1"
}

tap_not() {
	local desc=$1
	shift
	if "$@"; then tap_result 1 "$desc"; else tap_result 0 "$desc"; fi
}

# tap_ok_throughput: tap_ok for an assertion that holds only if the guest
# reaches the rates the test sets up (links, uploads); skipped with
# TW_THROUGHPUT_CHECKS=0, as on the debug kernel (make check-debug), whose
# checkers slow everything down.
tap_ok_throughput() {
	if [ "${TW_THROUGHPUT_CHECKS:-1}" = 0 ]; then
		tap_skip "$1" "throughput assertions off (TW_THROUGHPUT_CHECKS=0)"
		return
	fi
	tap_ok "$@"
}

# tap_ok_since RELEASE WHY description command args...: tap_ok on Linux
# RELEASE and later; on an older kernel skipped, saying WHY: what the
# assertion needs that RELEASE brought.
tap_ok_since() {
	local since=$1 why=$2 have
	shift 2
	have=$(uname -r | cut -d. -f1,2)
	if [ "$(printf '%s\n' "$since" "$have" | sort -V | head -n 1)" != "$since" ]; then
		tap_skip "$1" "Linux $have: $why (from $since)"
		return
	fi
	tap_ok "$@"
}

# tap_step LOG DESC CMD...: one result for a step (a build, a download)
# whose output goes to LOG, the log's end shown when it fails; the
# command's status returned.
tap_step() {
	local log=$1 desc=$2
	shift 2
	if "$@" > "$log" 2>&1; then
		tap_result 0 "$desc"
		return 0
	fi
	tail -n 20 "$log" | sed 's/^/# /'
	tap_result 1 "$desc"
	return 1
}

tap_skip() {
	tap_skipped=$((tap_skipped + 1))
	tap_result 0 "$1" "SKIP $2"
}

tap_diag() { echo "# $*"; }

# Skip the whole program: no test result lines, exit 4.
tap_skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

# Fail the whole program before its plan: one failing result that says
# why, exit 1.  For a piece make deps installs: a skip would hide a check
# that no longer runs.
tap_fail_all() {
	echo "TAP version 13"
	echo "1..1"
	echo "not ok 1 - $*"
	exit $KSFT_FAIL
}

tap_done() {
	if [ "$tap_planned" -ne "$tap_n" ]; then
		tap_diag "planned $tap_planned tests but ran $tap_n"
		exit $KSFT_FAIL
	fi
	[ "$tap_failed" -eq 0 ] || exit $KSFT_FAIL
	exit $KSFT_PASS
}
