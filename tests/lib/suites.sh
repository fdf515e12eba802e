#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the suites under tests/ declare in their settings files: the one
# place that reads them for tests/run.sh, tests/vm/vm.sh and tests/Makefile.
#
#   suites.sh host        suites with HOST_TESTS (run on the build machine)
#   suites.sh vm          suites of KIND=vm (host programs that boot guests)
#   suites.sh guest       guest suites that make check boots and installs
#   suites.sh bench       guest suites run only when asked for
#   suites.sh get SUITE VAR   one setting of a suite (empty if unset)
#   suites.sh tests SUITE     its guest programs ($TW_TESTS overrides; on
#                             the debug kernel, DEBUG_TESTS if it has one)
#   suites.sh list SUITE...   kselftest-list.txt lines, COLLECTION:PROGRAM
#
# A suite is named by its directory relative to tests/ (omware, cli/guest):
# that is also its kselftest collection.  Test fixtures are not suites.
# TW_SUITES_DIR reads an installed tree instead of tests/.
set -u
tests=${TW_SUITES_DIR:-$(cd "$(dirname "$0")/.." && pwd)}

get() {	# get SUITE VAR
	(
		KIND="" TESTS="" DEBUG_TESTS="" HOST_TESTS="" BOOT="" MODULES="" NICS=""
		# shellcheck source=/dev/null
		. "$tests/$1/settings" || exit 1
		eval "echo \"\${$2:-}\""
	)
}

# A suite's DEBUG_TESTS bounds what make check-debug (TW_DEBUG_KERNEL=1)
# runs of a program list that takes hours under the checkers.
programs() {	# programs SUITE
	local list=${TW_TESTS:-}

	[ -z "$list" ] && [ "${TW_DEBUG_KERNEL:-0}" = 1 ] && list=$(get "$1" DEBUG_TESTS)
	echo "${list:-$(get "$1" TESTS)}"
}

all_suites() {
	(cd "$tests" && find . -mindepth 2 -name settings -not -path '*/fixtures/*' \
		-printf '%h\n' | sed 's|^\./||' | sort)
}

case ${1:-} in
host | vm | guest | bench)
	for s in $(all_suites); do
		kind=$(get "$s" KIND)
		case $1 in
		host) [ "$kind" != vm ] && [ -n "$(get "$s" HOST_TESTS)" ] ;;
		vm) [ "$kind" = vm ] ;;
		guest) [ "${kind:-guest}" = guest ] && [ -n "$(get "$s" TESTS)" ] ;;
		bench) [ "$kind" = bench ] ;;
		esac && echo "$s"
	done
	;;
get) get "$2" "$3" ;;
tests) programs "$2" ;;
list)
	shift
	for s in "$@"; do
		for t in $(programs "$s"); do echo "$s:$t"; done
	done
	;;
*)
	sed -n '3,17s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
