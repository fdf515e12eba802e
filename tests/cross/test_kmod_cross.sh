#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile-check every timewire module for 32-bit big-endian MIPS (the
# OpenWrt router case) against a kernel tree prepared from the same
# linux-source-6.12 (scripts/cross-kernel.sh): no compiler warning at W=1,
# and no call into libgcc's 64-bit division, which a 32-bit kernel does not
# export (u64 divisions must go through div64 helpers).  Loading them needs
# such a machine; this proves they build for it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/modules.sh
. "$root/scripts/modules.sh"

CROSS=mips-linux-gnu-
command -v "${CROSS}gcc" >/dev/null || tap_skip_all "${CROSS}gcc not installed (make deps)"
[ -r /usr/src/linux-source-6.12.tar.xz ] ||
	tap_skip_all "linux-source-6.12 not installed (make deps)"

mapfile -t modules < <(tw_modules_table | awk '{ print $1 ":" $2 }')
[ ${#modules[@]} -gt 0 ] || tap_skip_all "no module in the registry"

tap_plan $((1 + 3 * ${#modules[@]}))
log=$root/.build/cross/kmod.log
mkdir -p "$root/.build/cross"
if ! kdir=$("$root/scripts/cross-kernel.sh" mips 2> "$log"); then
	sed 's/^/# /' "$log" | tail -n 20
	tap_result 1 "mips kernel tree (malta, 32-bit big endian) prepared"
	tap_done
fi
tap_result 0 "mips kernel tree (malta, 32-bit big endian) prepared"

# The sources are copied so that the cross objects never mix with the
# host's in the working tree.
src=$root/.build/cross/src
rm -rf "$src"
mkdir -p "$src"
cp -r "$root/core" "$root/include" "$src/"
# What a module's Kbuild reads its version with.
mkdir -p "$src/scripts"
cp "$root/VERSION" "$src/"
cp "$root/scripts/version.mk" "$root/scripts/version.sh" "$src/scripts/"
for entry in "${modules[@]}"; do
	m=${entry%%:*} dir=${entry#*:}
	if missing=$(tw_module_missing "$dir" "$kdir/.config"); then
		for what in "builds for mips" "no compiler warning at W=1" \
			    "a 32-bit big-endian MIPS module without 64-bit division helpers"; do
			tap_skip "$m: $what" "the mips tree lacks $missing ($dir/requires.config)"
		done
		continue
	fi
	cp -r "$root/$dir" "$src/"
	find "$src/$dir" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' \
		-o -name '.*.cmd' -o -name 'modules.order' \) -delete
	mlog=$src/$m.build.log
	# Without the cross kernel's Module.symvers every kernel symbol is
	# unresolved: modpost may only warn.
	make -j"$(nproc)" -C "$kdir" ARCH=mips CROSS_COMPILE="$CROSS" M="$src/$dir" W=1 \
		KBUILD_MODPOST_WARN=1 modules > "$mlog" 2>&1
	ko=$src/$dir/$m.ko
	tap_ok "$m.ko builds for mips" test -f "$ko"
	if grep -E 'warning:|error:' "$mlog" | grep -v 'undefined!' > "$mlog.bad"; then
		sed 's/^/# /' "$mlog.bad" | head -n 20
		tap_result 1 "$m: no compiler warning at W=1"
	else
		tap_result 0 "$m: no compiler warning at W=1"
	fi
	div=$("${CROSS}nm" -u "$ko" 2>/dev/null | grep -Eo '__(u)?(div|mod)di3' | sort -u | tr '\n' ' ')
	tap_ok "$m: a 32-bit big-endian MIPS module without 64-bit division helpers${div:+ (calls $div)}" \
		eval 'test -z "$div" && "${CROSS}readelf" -h "$ko" | grep -q "ELF32" &&
		      "${CROSS}readelf" -h "$ko" | grep -q "big endian" &&
		      "${CROSS}readelf" -h "$ko" | grep -q "MIPS"'
done
tap_done
