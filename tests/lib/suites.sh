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
#                             the debug kernel, DEBUG_TESTS if it has one;
#                             with TW_SMOKE=1, its SMOKE_TESTS, maybe none)
#   suites.sh runs SUITE RELEASE  whether it runs on Linux RELEASE: not
#                             older than its SINCE (6.6), if it has one
#   suites.sh on SUITE ARCH   whether it runs on a guest of ARCH: one its
#                             ARCHS names (default amd64 alone)
#   suites.sh arch ARCH       the guest suites that run there
#   suites.sh list SUITE...   kselftest-list.txt lines, COLLECTION:PROGRAM
#   suites.sh dir SUITE       its directory
#   suites.sh name DIR        the suite a directory holds
#
# A suite is named by its directory relative to tests/ (omware, cli/guest);
# the benchmarks live apart, and bench/NAME[/SUB] is the suite
# NAME-bench[/SUB] (bench/omware/guest: omware-bench/guest).  The name is
# also the suite's kselftest collection.  Test fixtures are not suites.
# TW_SUITES_DIR reads an installed tree instead, every suite below it by
# its name.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tests=${TW_SUITES_DIR:-$top/tests}

dir() {	# dir SUITE
	local head=${1%%/*}

	if [ -n "${TW_SUITES_DIR:-}" ] || [ -d "$tests/$1" ] ||
	   [ "${head%-bench}" = "$head" ]; then
		echo "$tests/$1"
	else
		echo "$top/bench/${head%-bench}${1#"$head"}"
	fi
}

name() {	# name DIR
	local d head

	d=$(cd "$1" 2>/dev/null && pwd) || { echo "suites.sh: no directory $1" >&2; return 1; }
	case $d in
	"$tests"/*) echo "${d#"$tests"/}" ;;
	"$top"/bench/*)
		d=${d#"$top"/bench/}
		head=${d%%/*}
		echo "$head-bench${d#"$head"}"
		;;
	*) echo "suites.sh: $1 is below neither $tests nor $top/bench" >&2; return 1 ;;
	esac
}

get() {	# get SUITE VAR
	(
		KIND="" TESTS="" DEBUG_TESTS="" SMOKE_TESTS="" HOST_TESTS="" BOOT=""
		MODULES="" NICS="" SINCE="" ARCHS="" CLOCK="" TCG_THREAD=""
		# shellcheck source=/dev/null
		. "$(dir "$1")/settings" || exit 1
		eval "echo \"\${$2:-}\""
	)
}

# A suite's DEBUG_TESTS bounds what make check-debug (TW_DEBUG_KERNEL=1)
# runs of a program list that takes hours under the checkers.  Its
# SMOKE_TESTS are what make check runs on every kernel and CPU but the
# test kernel (TW_SMOKE=1): a load, a send, a forward, a pick, an unload.
programs() {	# programs SUITE
	local list=${TW_TESTS:-}

	if [ -z "$list" ] && [ "${TW_SMOKE:-0}" = 1 ]; then
		get "$1" SMOKE_TESTS
		return
	fi
	[ -z "$list" ] && [ "${TW_DEBUG_KERNEL:-0}" = 1 ] && list=$(get "$1" DEBUG_TESTS)
	echo "${list:-$(get "$1" TESTS)}"
}

runs() {	# runs SUITE RELEASE
	local since

	since=$(get "$1" SINCE)
	[ -z "$since" ] ||
		[ "$(printf '%s\n' "$since" "${2%%[-+]*}" | sort -V | head -n 1)" = "$since" ]
}

# The foreign guests (tests/vm/vm.sh -a) have no python3, iproute2 or
# test programs of the host's: a suite names those it was built and tried
# for.
on() {	# on SUITE ARCH
	local archs

	archs=$(get "$1" ARCHS)
	[[ " ${archs:-amd64} " == *" $2 "* ]]
}

# The directories of the settings files below $1, relative to it.
settings_below() {
	(cd "$1" && find . -mindepth 2 -name settings -not -path '*/fixtures/*' \
		-printf '%h\n' | sed 's|^\./||')
}

all_suites() {
	{
		settings_below "$tests"
		[ -n "${TW_SUITES_DIR:-}" ] ||
			settings_below "$top/bench" | sed 's|^[^/]*|&-bench|'
	} | sort
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
dir) dir "$2" ;;
name) name "$2" ;;
tests) programs "$2" ;;
runs) runs "$2" "$3" ;;
on) on "$2" "$3" ;;
arch)
	for s in $("$0" guest); do
		on "$s" "$2" && echo "$s"
	done
	;;
list)
	shift
	for s in "$@"; do
		for t in $(programs "$s"); do echo "$s:$t"; done
	done
	;;
*)
	sed -n '3,29s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
