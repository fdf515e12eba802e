#!/bin/bash
# The VM harness's own tests: a failing test and a kernel warning raised by
# a module during a suite must each make the run fail, and be named.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/.build/results/harness-selftest

# (How TAP is counted is tested on the host: tests/lib/test_tap_count.sh.)
tap_plan 5

"$top/tests/vm/vm.sh" -o "$out/fail" "$top/tests/harness/fixtures/fail" > "$out.fail.log" 2>&1
rc=$?
sed 's/^/# /' "$out.fail.log"
tap_ok "a deliberately failing test fails the run" test $rc -ne 0
tap_ok "the failing test is named, the passing ones counted" \
	grep -q '^fail: 2 passed, 1 failed, 0 skipped$' "$out.fail.log"

"$top/tests/vm/vm.sh" -o "$out/warn" "$top/tests/harness/fixtures/warn" > "$out.warn.log" 2>&1
rc=$?
sed 's/^/# /' "$out.warn.log"
tap_ok "a WARN_ON raised by a module fails the run" test $rc -ne 0
tap_ok "the warning is reported from the kernel log" \
	grep -q '^FAIL warn: kernel log: .*WARNING:' "$out.warn.log"
tap_ok "the suite's own tests still passed" \
	grep -q '^warn: 3 passed, 1 failed, 0 skipped$' "$out.warn.log"
tap_done
