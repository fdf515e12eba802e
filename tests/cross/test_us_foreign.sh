#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CLI and the omware and tfib suites' programs cross-built for each
# foreign guest (scripts/foreign-archs.sh list; make userspace-ARCH, in
# .build/ARCH/): against its root's libnl where Debian serves the guest
# (its recipe is scripts/foreign.sh), else static, against libnl-tiny
# (big-endian MIPS), warnings being errors there.  Each is a program of
# ARCH: the ELF class, byte order and machine of what ARCH's cross
# compiler makes; and the CLI runs under qemu-user with the root's
# libraries and reports its version and UAPI.  Where qaware runs (its
# ARCHS), the modules its suite builds itself are ARCH's, for the guest's
# kernel (vermagic).  An architecture is skipped when its cross compiler
# or qemu-user is not installed (scripts/deps.sh ARCH) or Debian's archive
# does not answer.
#
# Usage: test_us_foreign.sh [ARCH...]   every foreign guest when none is
#                                       named; more than one: each a
#                                       subtest (nested TAP)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"

# each_arch ARCH...: this program for each, its TAP nested under one result.
each_arch() {
	local arch rc tmp

	tmp=$(mktemp)
	tap_plan $#
	for arch; do
		"$0" "$arch" > "$tmp" 2>&1
		rc=$?
		sed 's/^/# /' "$tmp"
		if [ $rc -eq "$KSFT_SKIP" ]; then
			tap_skip "$arch" "$(sed -n 's/^1\.\.0 # SKIP //p' "$tmp")"
		else
			tap_result $((rc != 0)) "$arch"
		fi
	done
	rm -f "$tmp"
	tap_done
}

if [ $# -ne 1 ]; then
	# shellcheck disable=SC2046 # the list is words
	[ $# -gt 0 ] || set -- $("$root/scripts/foreign-archs.sh" list)
	each_arch "$@"
fi

arch=$1
read -ra recipe < <("$root/scripts/foreign-archs.sh" recipe "$arch") ||
	tap_fail_all "no foreign guest '$arch' ($("$root/scripts/foreign-archs.sh" list))"
recipe[0]=$root/scripts/${recipe[0]}
# Debian's guests load the programs' libraries from their root; the
# others have none, and their programs are static.
debian='' linked=statically
[ "${recipe[0]##*/}" = foreign.sh ] && debian=yes linked=dynamically
triplet=$("${recipe[@]}" triplet) || tap_fail_all "$arch: no cross compiler triplet"
cc=$triplet-gcc
qemu=qemu-${triplet%%-*}
command -v "$cc" >/dev/null || tap_skip_all "$cc not installed (scripts/deps.sh $arch)"
command -v "$qemu" >/dev/null || tap_skip_all "$qemu not installed (make deps)"
if ! suite=$("${recipe[@]}" suite 2>/dev/null) ||
   ! tw_archive_reachable "$suite"; then
	tap_skip_all "Debian's archive does not answer"
fi

# elf_id FILE: its ELF class, byte order and machine as file(1) names
# them ("ELF 64-bit LSB, ARM aarch64"), whatever its type.
elf_id() {
	file -bL "$1" | awk -F ', ' '{ split($1, w, " "); print w[1], w[2], w[3] ", " $2 }'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 'int tw_arch;' | "$cc" -x c -c -o "$tmp/arch.o" - ||
	tap_fail_all "$cc cannot compile"
want=$(elf_id "$tmp/arch.o")
what="a program of $arch ($want, $linked linked)"

# The root whose libraries the programs load (none for static ones).
sysroot() {
	if [ -n "$debian" ]; then
		"${recipe[@]}" root 2>/dev/null
	else
		echo /
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
is_arch() {
	[ "$(elf_id "$1")" = "$want" ] &&
		file -bL "$1" | grep -q "executable, .*, $linked linked"
}
tap_ok "timewire: $what" is_arch "$cli"
for p in "${progs[@]}"; do
	tap_ok "${p#*/}: $what" is_arch "$out/kselftest/$p"
done
tap_ok "timewire runs on $arch (qemu-user): its version and UAPI" eval \
	'"$qemu" -L "$(sysroot)" "$cli" --version 2>/dev/null |
	 grep -q "^uapi omware 1 tfib 1"'

# ko_fit KO...: each a relocatable of ARCH whose vermagic names the guest's
# kernel (a module built for the host's would name the host's).
ko_fit() {
	local rel ko

	rel=$("${recipe[@]}" release) || return 1
	[ $# -gt 0 ] || return 1
	for ko; do
		tap_diag "${ko##*/}: $(modinfo -F vermagic "$ko")"
		[ "$(elf_id "$ko")" = "$want" ] &&
			file -bL "$ko" | grep -q "^ELF [^,]* relocatable," &&
			[[ "$(modinfo -F vermagic "$ko")" == "$rel "* ]] || return 1
	done
}
# A kernel of Debian's is downloaded; the others' are built, when at all,
# by make check-prep.
if [ -z "$debian" ] && ! "${recipe[@]}" release >/dev/null 2>&1; then
	tap_skip "qaware's own modules" "$arch's kernel is not built (make check-prep)"
elif "$root/tests/lib/suites.sh" on qaware "$arch"; then
	tap_ok "qaware's own modules: relocatables of $arch ($want), for its kernel" \
		ko_fit "$out"/kselftest/qaware/*.ko
else
	tap_skip "qaware's own modules" "qaware's ARCHS do not name $arch"
fi
tap_done
