#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules against one of Debian's kernels from its headers
# packages (scripts/kernel-headers.sh fetches them into the cache outside
# the clone when they are not there yet): omware.ko and tfib.ko build at
# W=1 without a compiler warning, for that kernel, and mptcp_qaware, whose
# scheduler API exists in 6.6 to 6.14 only, is refused in one line
# without failing the build of the others.
#
# Usage: test_kmod_headers.sh [SERIES]
#   6.1  Debian 12's own kernel, from the host's apt sources (default;
#        missing headers fail, never skip)
#   7    the newest 7.x of trixie-backports, built in a trixie root
#        (scripts/trixie-root.sh, its kbuild tools need trixie's glibc);
#        skipped only when Debian's archive does not answer
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"

series=${1:-${TW_HEADERS_SERIES:-6.1}}
refusal='mptcp_qaware: not built: Linux [0-9.]+ has'
suite='' plan=7 name=$series
case $series in
6.1)
	fetch=("$series") runner=()
	refusal="$refusal no MPTCP scheduler API \(6\.6 or later needed\)$" ;;
7)
	suite=trixie-backports
	tw_archive_reachable "$suite" ||
		tap_skip_all "Debian's archive does not answer for $suite at $(tw_debian_mirror)"
	fetch=(--suite "$suite" "$series") runner=("$root/scripts/trixie-root.sh" run)
	plan=8 name=7.x	# and the root made
	refusal="$refusal the get_send/get_retrans scheduler API of 6\.15 \(6\.6 to 6\.14 needed\)$" ;;
*)
	tap_fail_all "no case for series '$series' (6.1 or 7)" ;;
esac

tap_plan $plan
out=$root/.build/cross/headers-$series
mkdir -p "$out"
# step LOG DESC CMD...: CMD succeeds, else its log's end is shown.
step() {
	local log=$1 desc=$2
	shift 2
	if "$@" > "$log.out" 2> "$log"; then
		tap_result 0 "$desc"
		return 0
	fi
	sed 's/^/# /' "$log" | tail -n 20
	tap_result 1 "$desc"
	return 1
}
step "$out/fetch.log" "Debian's $name headers fetched${suite:+ from $suite}" \
	"$root/scripts/kernel-headers.sh" "${fetch[@]}" || tap_done
kdir=$(cat "$out/fetch.log.out")
rel=${kdir##*/linux-headers-}
tap_diag "kernel: $rel ($kdir)"
if [ ${#runner[@]} -gt 0 ]; then
	step "$out/root.log" "trixie root made (scripts/trixie-root.sh)" \
		"$root/scripts/trixie-root.sh" || tap_done
fi

# A fresh copy each run: every object is compiled, so every warning shows.
# Where make modules-SERIES builds too: vm.sh -k RELEASE loads them there
# (tests/run.sh --kernel SERIES).
tree=$root/.build/kmod/$rel
rm -rf "$tree"
"$root/scripts/kmod-tree.sh" "$tree"
log=$out/build.log
# From the tree: a runner works in the current directory.
(cd "$root" && "${runner[@]}" make -j"$(nproc)" -C "$kdir" M="$tree" W=1 modules) > "$log" 2>&1
rc=$?
tap_result $((rc != 0)) "the tree builds for $rel (make exits $rc)"
for m in omware/omware kmod/tfib; do
	tap_ok "${m#*/}.ko built for $rel" eval \
		'[ "$(modinfo -F vermagic "$tree/$m.ko" 2>/dev/null | cut -d" " -f1)" = "$rel" ]'
done
if grep -E 'warning:|error:' "$log" > "$log.bad"; then
	sed 's/^/# /' "$log.bad" | head -n 20
	tap_result 1 "no compiler warning at W=1"
else
	tap_result 0 "no compiler warning at W=1"
fi
tap_ok "mptcp_qaware refused in one line" \
	eval 'grep -Eq "$refusal" "$log" && [ "$(grep -c mptcp_qaware "$log")" -eq 1 ]'
tap_ok "mptcp_qaware not built" test ! -e "$tree/mptcp-qaware/mptcp_qaware.ko"
tap_done
