#!/usr/bin/env bash
# timewire test runner: host unit tests first (native, no VM), then one VM
# boot per guest suite.  Ends with "N passed, N failed, N skipped" and exits
# non-zero if anything failed.  A skip is never counted as a pass.
#
# Usage: tests/run.sh [--host-only] [--suite NAME]...
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

host_only=0
only=()
while [ $# -gt 0 ]; do
	case $1 in
	--host-only) host_only=1 ;;
	--suite) only+=("$2"); shift ;;
	-h|--help) sed -n '2,7p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

# Host programs, in order.  Each prints TAP.
HOST_TESTS=(
	tests/core/test_timeq
	tests/core/test_guard
	tests/core/test_compat
	tests/cli/test_userlib
	tests/cli/test_family
	tests/cross/test_cross.sh
	tests/cross/test_kmod_cross.sh
	tests/cli/test_cli.sh
	tests/ynl/test_spec.sh
	tests/ynl/test_nlgen.sh
	tests/omware-bench/test_analyze.py
)
# Guest suites, one boot each (the omware boot also runs the CLI and ynl
# tests against the live family).  The harness self-test boots twice.
GUEST_SUITES=(harness omware nlfuzz mptcp-peer)

passed=0 failed=0 skipped=0
failures=()
results=$top/.build/results
mkdir -p "$results"

tally() {	# tally NAME P F S [DETAIL...]
	local name=$1
	passed=$((passed + $2)) failed=$((failed + $3)) skipped=$((skipped + $4))
	shift 4
	local d
	for d in "$@"; do
		case $d in FAIL*) failures+=("$name: ${d#FAIL }") ;; esac
	done
}

run_program() {	# run_program NAME CMD...: run, show, count its TAP
	local name=$1 log rc
	shift
	log=$results/host-$(basename "$name").log
	echo "== $name"
	"$@" > "$log" 2>&1
	rc=$?
	grep -E '^(not ok|ok|#)' "$log" | grep -v '^ok ' | head -n 40
	local counts details=()
	{
		read -r counts
		mapfile -t details
	} < <(awk -v rc="$rc" -f tests/lib/tap-count.awk "$log")
	# shellcheck disable=SC2086
	tally "$name" $counts "${details[@]}"
	echo "   $(echo "$counts" | awk '{print $1" passed, "$2" failed, "$3" skipped"}')"
}

want() {	# want NAME: is this suite selected?
	[ ${#only[@]} -eq 0 ] && return 0
	local s
	for s in "${only[@]}"; do [ "$s" = "$1" ] && return 0; done
	return 1
}

start=$(date +%s)
if want host; then
	echo "### host tests"
	if make -s -C tests/core > "$results/host-build.log" 2>&1 &&
	   make -s -C userspace >> "$results/host-build.log" 2>&1 &&
	   make -s -C tests/cli >> "$results/host-build.log" 2>&1; then
		for t in "${HOST_TESTS[@]}"; do
			run_program "$t" "$t"
		done
	else
		cat "$results/host-build.log"
		tally "tests/core build" 0 1 0 "FAIL build of the host tests"
	fi
fi

if [ "$host_only" -eq 0 ]; then
	# The guests load the modules built for the test kernel (.build/kmod/).
	if ! make -s modules-test > "$results/kmod-build.log" 2>&1; then
		tail -n 20 "$results/kmod-build.log"
		tally "make modules-test" 0 1 0 "FAIL building the modules for the test kernel"
	fi
	for s in "${GUEST_SUITES[@]}"; do
		want "$s" || continue
		echo "### guest suite: $s"
		case $s in
		harness)
			run_program tests/harness tests/harness/test_harness.sh
			continue ;;
		mptcp-peer)
			if ! tests/mptcp-peer/build.sh > "$results/mptcp-build.log" 2>&1; then
				tail -n 20 "$results/mptcp-build.log"
				tally "$s" 0 1 0 "FAIL building the upstream MPTCP selftests"
				continue
			fi ;;
		omware)
			# The guest cannot write bytecode caches: fill them here.
			scripts/linux-src.sh >/dev/null
			/usr/bin/python3 -m compileall -q tests/ynl >/dev/null 2>&1
			if ! make -s -C tests/omware > "$results/omware-build.log" 2>&1; then
				tail -n 20 "$results/omware-build.log"
				tally "$s" 0 1 0 "FAIL building tests/omware"
				continue
			fi ;;
		nlfuzz)
			if ! make -s -C tests/nlfuzz > "$results/nlfuzz-build.log" 2>&1; then
				tail -n 20 "$results/nlfuzz-build.log"
				tally "$s" 0 1 0 "FAIL building tests/nlfuzz"
				continue
			fi ;;
		esac
		tests/vm/vm.sh -o "$results/$s" "tests/$s" | tee "$results/$s.log" |
			grep -v '^PASS '
		if [ -f "$results/$s/summary" ]; then
			read -r p f sk < "$results/$s/summary"
			mapfile -t details < <(sed -n "s/^FAIL $s: /FAIL /p" "$results/$s/results.txt" 2>/dev/null)
			tally "$s" "$p" "$f" "$sk" "${details[@]}"
		else
			tally "$s" 0 1 0 "FAIL the harness did not produce results"
		fi
	done
fi

echo
echo "### summary ($(( $(date +%s) - start )) s)"
for f in "${failures[@]}"; do echo "FAIL $f"; done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]
