# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# What the boots on installed packages (tests/deb/boot, tests/openwrt/boot:
# vm.sh -r) check of the results, sourced after tests/lib/tap.sh.

# installed_ran RESULTS CLI SUITE_DIR...: in vm.sh's RESULTS, guest.sh's
# step ran the packaged CLI from CLI, and each suite passed tests (one
# that did not run would count nothing).
installed_ran() {
	local results=$1 cli=$2 d bad=0
	shift 2
	grep -q "^PASS [^:]*: the packaged CLI runs: $cli " "$results" ||
		{ bad=1; tap_diag "the packaged CLI did not run from $cli"; }
	for d in "$@"; do
		grep -q "^PASS [^:]*: ${d##*/}: " "$results" ||
			{ bad=1; tap_diag "no test of ${d##*/} passed"; }
	done
	return "$bad"
}
