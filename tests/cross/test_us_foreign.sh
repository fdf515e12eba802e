#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CLI and the omware and tfib suites' programs cross-built for a
# foreign guest (make userspace-ARCH: against its root's libnl, in
# .build/ARCH/; big-endian MIPS, which has no root of Debian's: static,
# against libnl-tiny), warnings being errors there: each a program of
# ARCH, and the CLI runs under qemu-user with the root's libraries and
# reports its version and UAPI.  Where qaware runs (its ARCHS), the
# modules its suite builds itself are ARCH's, for the guest's kernel
# (vermagic).  Skipped when the cross compiler or
# qemu-user is not installed (scripts/deps.sh ARCH) or Debian's archive
# does not answer.
#
# Usage: test_us_foreign.sh arm64|mipsel|mips
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"

arch=${1:-}
# What file(1) says of its programs, and qemu-user's name for it.
case $arch in
arm64) kind="ELF 64-bit LSB .*ARM aarch64" what="an AArch64" qemu=qemu-aarch64
	ko_kind="ELF 64-bit LSB relocatable, ARM aarch64" ;;
mipsel) kind="ELF 32-bit LSB .*MIPS" what="a 32-bit little-endian MIPS" qemu=qemu-mipsel
	ko_kind="ELF 32-bit LSB relocatable, MIPS" ;;
mips)	kind="ELF 32-bit MSB executable, MIPS.*statically linked"
	what="a static big-endian MIPS32" qemu=qemu-mips
	ko_kind="ELF 32-bit MSB relocatable, MIPS" ;;
*) tap_fail_all "no case for architecture '$arch' (arm64, mipsel or mips)" ;;
esac
if [ "$arch" = mips ]; then
	cc=mips-linux-gnu-gcc suite=bookworm
else
	cc=$("$root/scripts/foreign.sh" "$arch" triplet)-gcc
	suite=$("$root/scripts/foreign.sh" "$arch" suite)
fi
command -v "$cc" >/dev/null || tap_skip_all "$cc not installed (scripts/deps.sh $arch)"
command -v "$qemu" >/dev/null || tap_skip_all "$qemu not installed (make deps)"
tw_archive_reachable "$suite" || tap_skip_all "Debian's archive does not answer"

# The root whose libraries the programs load (none for static ones).
sysroot() {
	if [ "$arch" = mips ]; then
		echo /
	else
		"$root/scripts/foreign.sh" "$arch" root 2>/dev/null
	fi
}

out=$root/.build/$arch
progs=(omware/omware_session omware/omware_ctl tfib/tfib_tables tfib/fwd_forward tfib/tfib_ctl)
tap_plan $((4 + ${#progs[@]}))
log=$root/.build/cross/userspace-$arch.log
mkdir -p "${log%/*}"
rm -rf "$out/kselftest"
make -C "$root" "userspace-$arch" > "$log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$log" | tail -n 20
tap_result $((rc != 0)) "make userspace-$arch (exits $rc)"
cli=$out/userspace/timewire/timewire
is_arch() { file -L "$1" | grep -Eq "$kind"; }
tap_ok "timewire: $what program" is_arch "$cli"
for p in "${progs[@]}"; do
	tap_ok "${p#*/}: $what program" is_arch "$out/kselftest/$p"
done
tap_ok "timewire runs on $arch (qemu-user): its version and UAPI" eval \
	'"$qemu" -L "$(sysroot)" "$cli" --version 2>/dev/null |
	 grep -q "^uapi omware 1 tfib 1"'

# guest_release: uname -r of the guest's kernel.
guest_release() {
	if [ "$arch" = mips ]; then
		"$root/scripts/mips-be.sh" release
	else
		"$root/scripts/foreign.sh" "$arch" release
	fi
}

# ko_fit KO...: each a relocatable of ARCH whose vermagic names the guest's
# kernel (a module built for the host's would name the host's).
ko_fit() {
	local rel ko

	rel=$(guest_release) || return 1
	[ $# -gt 0 ] || return 1
	for ko; do
		tap_diag "${ko##*/}: $(modinfo -F vermagic "$ko")"
		file -L "$ko" | grep -q "$ko_kind" &&
			[[ "$(modinfo -F vermagic "$ko")" == "$rel "* ]] || return 1
	done
}
if [ "$arch" = mips ] && ! "$root/scripts/mips-be.sh" release >/dev/null 2>&1; then
	tap_skip "qaware's own modules" "the malta kernel is not cached (make check-prep)"
elif "$root/tests/lib/suites.sh" on qaware "$arch"; then
	tap_ok "qaware's own modules: $what relocatable each, for its kernel" \
		ko_fit "$out"/kselftest/qaware/*.ko
else
	tap_skip "qaware's own modules" "qaware's ARCHS do not name $arch"
fi
tap_done
