#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# suites.sh, the one reader of the suites' settings: which programs a suite
# runs on the stock kernel, on the debug kernel, and under TW_TESTS; the
# kernels and guests it runs on.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/tap.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/long" "$dir/short"
printf 'TESTS="a.sh b.sh"\nDEBUG_TESTS="a.sh"\nSMOKE_TESTS="b.sh"\n' > "$dir/long/settings"
printf 'TESTS="c.sh"\nSINCE="6.6"\nARCHS="amd64 mips"\n' > "$dir/short/settings"
suites() { TW_SUITES_DIR=$dir "$here/suites.sh" "$@"; }

tap_plan 18
tap_is "stock kernel: every program" "a.sh b.sh" "$(TW_DEBUG_KERNEL=0 suites tests long)"
tap_is "debug kernel: DEBUG_TESTS" "a.sh" "$(TW_DEBUG_KERNEL=1 suites tests long)"
tap_is "debug kernel, no DEBUG_TESTS: every program" "c.sh" \
	"$(TW_DEBUG_KERNEL=1 suites tests short)"
tap_is "TW_TESTS overrides DEBUG_TESTS" "b.sh" \
	"$(TW_DEBUG_KERNEL=1 TW_TESTS=b.sh suites tests long)"
tap_is "the kselftest list follows DEBUG_TESTS" "long:a.sh short:c.sh" \
	"$(TW_DEBUG_KERNEL=1 suites list long short | tr '\n' ' ' | sed 's/ $//')"
tap_is "smoke: SMOKE_TESTS" "b.sh" "$(TW_SMOKE=1 suites tests long)"
tap_is "smoke, no SMOKE_TESTS: nothing" "" "$(TW_SMOKE=1 suites tests short)"
tap_is "TW_TESTS overrides SMOKE_TESTS" "a.sh" "$(TW_SMOKE=1 TW_TESTS=a.sh suites tests long)"
tap_ok "no SINCE: runs on 6.1" suites runs long 6.1.0-57-amd64
tap_not "SINCE 6.6: not on 6.1" suites runs short 6.1.0-57-amd64
tap_ok "SINCE 6.6: on 6.6.0" suites runs short 6.6.0
tap_ok "SINCE 6.6: on 7.3.4" suites runs short 7.3.4+deb13-amd64
tap_is "both suites are guest suites" "long short" \
	"$(suites guest | tr '\n' ' ' | sed 's/ $//')"
tap_ok "no ARCHS: on amd64" suites on long amd64
tap_not "no ARCHS: not on arm64" suites on long arm64
tap_ok "ARCHS amd64 mips: on mips" suites on short mips
tap_not "ARCHS amd64 mips: not on mipsel (no match of a part)" suites on short mipsel
tap_is "arch mips: the suites that name it" "short" "$(suites arch mips | tr '\n' ' ' | sed 's/ $//')"
tap_done
