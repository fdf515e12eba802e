#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tap-count.awk counts what the harness reports: plain TAP from our shell
# tests, kselftest_harness.h programs, and kselftest's runner nesting each
# program's TAP under its own result line.  A skip is never a pass.
# And tap.sh's tap_ok_since: the kernel's release decides run or skip.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/tap.sh"

# count RC TEXT: the counts line for TEXT (printf %b escapes) exiting RC.
count() { printf '%b' "$2" | awk -v rc="$1" -f "$here/tap-count.awk" | head -n 1; }
# details RC TEXT: the FAIL/SKIP lines.
details() { printf '%b' "$2" | awk -v rc="$1" -f "$here/tap-count.awk" | tail -n +2; }

# One kselftest_harness.h program: results at the top, diagnostics in "# ".
harness='TAP version 13\n1..3\n# Starting 3 tests from 1 test cases.\n'
harness+='#  RUN           f.a ...\n#            OK  f.a\nok 1 f.a\n'
harness+='#  RUN           f.b ...\n# t.c:9:b:Expected 1 (1) == 2 (2)\n'
harness+='#            FAIL  f.b\nnot ok 2 f.b\n'
harness+='#      SKIP      no device\nok 3 f.c # SKIP no device\n'
harness+='# FAILED: 1 / 3 tests passed.\n'

# kselftest's runner over four programs of collection "s".
runner='TAP version 13\n1..4\n# timeout set to 45\n'
runner+='# selftests: s: p\n# TAP version 13\n# 1..3\n# ok 1 a\n'
runner+='# not ok 2 b\n# ok 3 c # SKIP later\nnot ok 1 selftests: s: p # exit=1\n'
runner+='# selftests: s: q\n# TAP version 13\n# 1..0 # SKIP needs root\n'
runner+='ok 2 selftests: s: q # SKIP\n'
runner+='# selftests: s: r\n# ok 1 x\n# ok 2 y\n'
runner+='not ok 3 selftests: s: r # TIMEOUT 45 seconds\n'
runner+='# selftests: s: t\nok 4 selftests: s: t\n'

tap_plan 21
tap_is "plain: passes, failures and skips" "1 1 1" \
	"$(count 1 'ok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no\n')"
tap_is "plain: exit 4 without results is a skip, not a pass" "0 0 1" \
	"$(count 4 '1..0 # SKIP nothing here\n')"
tap_is "plain: the skip's reason is reported" "SKIP nothing here" \
	"$(details 4 'TAP version 13\n1..0 # SKIP nothing here\n')"
tap_is "plain: non-zero exit without a failing result is a failure" "1 1 0" \
	"$(count 1 'ok 1 - a\n')"
tap_is "plain: no result and exit 0 is one pass" "1 0 0" "$(count 0 '')"
tap_is "plain: TODO and XFAIL are not failures, XPASS is" "2 1 0" \
	"$(count 1 'not ok 1 a # TODO\nok 2 b # XFAIL\nok 3 c # XPASS\n')"
tap_is "kselftest_harness: a failing TEST fails, a SKIP skips" "1 1 1" \
	"$(count 1 "$harness")"
tap_is "kselftest_harness: the failing TEST is named" "FAIL f.b" \
	"$(details 1 "$harness" | grep FAIL)"
tap_is "runner: subtests count, not the programs" "4 2 2" "$(count 1 "$runner")"
tap_is "runner: a failing subtest is named after its program" "FAIL p: b" \
	"$(details 1 "$runner" | sed -n 1p)"
tap_is "runner: a skipped program gives its one-line reason" "SKIP q: needs root" \
	"$(details 1 "$runner" | grep '^SKIP q')"
tap_is "runner: a timeout fails, its passed subtests still count" \
	"FAIL r # TIMEOUT 45 seconds" "$(details 1 "$runner" | grep '^FAIL r')"
tap_is "runner: a program that fails with no failing subtest counts one failure" \
	"2 1 0" "$(count 1 '# ok 1 a\n# ok 2 b\nnot ok 1 selftests: s: p # exit=1\n')"
tap_is "runner: a program that bails out is named with its reason" \
	"FAIL p: OUT holds another run: rm -rf OUT" \
	"$(details 1 '# TAP version 13\n# 1..3\n# Bail out! OUT holds another run: rm -rf OUT\nnot ok 1 selftests: s: p # exit=1\n')"
tap_is "runner: a bail-out's reason stays with its own program" \
	"FAIL q # exit=1" \
	"$(details 1 '# Bail out! early\nnot ok 1 selftests: s: p # exit=1\n# ok 1 a\nnot ok 2 selftests: s: q # exit=1\n' | sed -n 2p)"
tap_is "plain: a program that bails out before any result says why" \
	"FAIL exit status 1: no device" "$(details 1 'TAP version 13\n1..2\nBail out! no device\n')"
tap_is "runner: an orphaned level's bail-out is not the next program's" \
	"FAIL outer2: inner2 # exit=1" \
	"$(details 1 '# # Bail out! early\nnot ok 1 selftests: s: outer # TIMEOUT\n# # ok 1 a\n# not ok 1 inner2 # exit=1\nnot ok 2 selftests: s: outer2 # exit=1\n' | sed -n 2p)"
tap_is "plain: a bail-out after passing results says why" \
	"FAIL exit status 1 with no failing result: lost the device" \
	"$(details 1 'ok 1 a\nBail out! lost the device\n')"

# since RELEASE CMD: tap_ok_since 6.5's line for CMD on a kernel RELEASE,
# from a fresh count (uname is a function here).
since() {
	(
		release=$1
		uname() { echo "$release"; }
		tap_n=0
		tap_ok_since 6.5 "no such thing" "d" "$2"
	)
}
tap_is "tap_ok_since: skipped on an older kernel, saying why" \
	"ok 1 - d # SKIP Linux 6.1: no such thing (from 6.5)" "$(since 6.1.0-57-amd64 false)"
tap_is "tap_ok_since: run on that release" "not ok 1 - d" "$(since 6.5.0 false)"
tap_is "tap_ok_since: run on a later one (6.12 after 6.5)" "ok 1 - d" \
	"$(since 6.12.117+deb12-amd64 true)"
tap_done
