#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules against Debian 12's own kernel, 6.1, from its headers
# packages (scripts/kernel-headers.sh fetches them into the cache outside
# the clone when they are not there yet: missing headers fail, never
# skip): omware.ko and tfib.ko build at W=1 without a compiler warning,
# for that kernel, and mptcp_qaware, which needs 6.6, is refused in one
# line without failing the build of the others.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

series=${TW_HEADERS_SERIES:-6.1}
tap_plan 7
out=$root/.build/cross/headers-$series
mkdir -p "$out"
if ! kdir=$("$root/scripts/kernel-headers.sh" "$series" 2> "$out/fetch.log"); then
	sed 's/^/# /' "$out/fetch.log" | tail -n 20
	tap_result 1 "Debian's $series headers fetched"
	tap_done
fi
tap_result 0 "Debian's $series headers fetched ($kdir)"
rel=${kdir##*/linux-headers-}

# A fresh copy each run: every object is compiled, so every warning shows.
tree=$out/tree
rm -rf "$tree"
"$root/scripts/kmod-tree.sh" "$tree"
log=$out/build.log
make -j"$(nproc)" -C "$kdir" M="$tree" W=1 modules > "$log" 2>&1
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
refusal='mptcp_qaware: not built: Linux [0-9.]+ has no MPTCP scheduler API \(6\.6 or later needed\)$'
tap_ok "mptcp_qaware refused in one line" \
	eval 'grep -Eq "$refusal" "$log" && [ "$(grep -c mptcp_qaware "$log")" -eq 1 ]'
tap_ok "mptcp_qaware not built" test ! -e "$tree/mptcp-qaware/mptcp_qaware.ko"
tap_done
