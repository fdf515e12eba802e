# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# What the boots on installed packages (tests/deb/boot, tests/openwrt/boot:
# vm.sh -r) check of the results, sourced after tests/lib/tap.sh.

installed_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)

# installed_passed OUTDIR NAME: a program or step of guest.sh named NAME
# passed tests and failed none, counted as vm.sh counts them (its report
# in OUTDIR/results.txt lists failures and skips only).
installed_passed() {
	local f n p fl
	for f in "$1"/*.name; do
		[ -f "$f" ] && [ "$(cat "$f")" = "$2" ] || continue
		n=${f%.name}
		read -r p fl _ < <(awk -v rc="$(cat "$n.rc")" \
			-f "$installed_lib/tap-count.awk" "$n.out")
		[ "${p:-0}" -gt 0 ] && [ "${fl:-1}" -eq 0 ] && return 0
	done
	return 1
}

# installed_ran OUTDIR CLI SUITE_DIR...: in vm.sh's OUTDIR, guest.sh's
# step ran the packaged CLI from CLI, and each suite passed tests (one
# that did not run would count nothing).
installed_ran() {
	local out=$1 cli=$2 d bad=0
	shift 2
	installed_passed "$out" "the packaged CLI runs: $cli version" ||
		{ bad=1; tap_diag "the packaged CLI did not run from $cli"; }
	for d in "$@"; do
		d=$("$installed_lib/suites.sh" name "$d")
		installed_passed "$out" "$d" ||
			{ bad=1; tap_diag "no test of $d passed, or one failed"; }
	done
	return "$bad"
}
