#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every module cross-built for arm64 against Debian's arm64 headers of the
# test kernel's version (scripts/foreign.sh arm64 headers): no compiler
# warning at W=1, and each .ko an AArch64 relocatable whose vermagic
# names that kernel, so that the arm64 guest (make check-arm64) can load it.
# Skipped when the cross compiler is not installed (scripts/deps.sh arm64)
# or Debian's archive does not answer.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"
# shellcheck source=scripts/modules.sh
. "$root/scripts/modules.sh"

command -v aarch64-linux-gnu-gcc >/dev/null ||
	tap_skip_all "aarch64-linux-gnu-gcc not installed (scripts/deps.sh arm64)"
suite=$("$root/scripts/foreign.sh" arm64 suite)
tw_archive_reachable "$suite" ||
	tap_skip_all "Debian's archive does not answer for $suite"
mapfile -t modules < <(tw_modules_table | awk '{ print $2 "/" $1 }')

tap_plan $((3 + ${#modules[@]}))
out=$root/.build/cross/arm64
mkdir -p "$out"
if kdir=$("$root/scripts/foreign.sh" arm64 headers 2> "$out/fetch.log"); then
	tap_result 0 "Debian's arm64 headers fetched from $suite"
else
	sed 's/^/# /' "$out/fetch.log" | tail -n 20
	tap_result 1 "Debian's arm64 headers fetched from $suite"
	tap_done
fi
rel=${kdir##*/linux-headers-}
tap_diag "kernel: $rel ($kdir)"

# A fresh copy each run: every object is compiled, so every warning shows.
tree=$out/tree
rm -rf "$tree"
"$root/scripts/kmod-tree.sh" "$tree"
log=$out/build.log
make -j"$(nproc)" -C "$kdir" M="$tree" W=1 modules > "$log" 2>&1
rc=$?
tap_result $((rc != 0)) "the tree builds for $rel (make exits $rc)"
if grep -E 'warning:|error:' "$log" > "$log.bad"; then
	sed 's/^/# /' "$log.bad" | head -n 20
	tap_result 1 "no compiler warning at W=1"
else
	tap_result 0 "no compiler warning at W=1"
fi
# aarch64 (not x86_64) closes the vermagic: a host object would differ.
for m in "${modules[@]}"; do
	ko=$tree/$m.ko
	tap_ok "${m#*/}.ko: an AArch64 relocatable for $rel" eval \
		'readelf -h "$ko" | grep -q "Type: *REL" &&
		 readelf -h "$ko" | grep -q "Machine: *AArch64" &&
		 [ "$(modinfo -F vermagic "$ko")" = "$rel SMP mod_unload modversions aarch64" ]'
done
tap_done
