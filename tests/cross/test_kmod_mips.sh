#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every module built for the 32-bit big-endian MIPS guest's kernel (the
# malta 6.12 of scripts/mips-be.sh, cached outside the clone) as make
# modules-mips builds them: no compiler or modpost warning at W=1, and each
# .ko a big-endian MIPS32 relocatable for that release, calling only what
# the kernel exports (its own Module.symvers: the whole kernel is built).
# mptcp_qaware builds where that vmlinux carries BTF, else is refused in
# one line.  The kernel takes 10-40 minutes to build: when it is not in the
# cache this test skips, saying how to build it, and never builds it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/modules.sh
. "$root/scripts/modules.sh"

CROSS=mips-linux-gnu-
command -v "${CROSS}gcc" >/dev/null || tap_skip_all "${CROSS}gcc not installed (make deps)"
kdir=$("$root/scripts/cross-kernel.sh" malta-be dir)
[ -f "$kdir/built" ] ||
	tap_skip_all "the malta big-endian kernel is not built ($kdir): make check-prep"
rel=$(cat "$kdir/release")

mapfile -t modules < <(tw_modules_table | awk '{ print $2 "/" $1 }')
qa=mptcp-qaware/mptcp_qaware
btf=0
"${CROSS}readelf" -S "$kdir/vmlinux" | grep -q ' \.BTF ' && btf=1
tap_plan $((2 + 2 * ${#modules[@]}))
tap_diag "kernel: $rel ($kdir), BTF: $([ $btf = 1 ] && echo yes || echo no)"

# A fresh copy each run: every object is compiled, so every warning shows.
tree=$root/.build/cross/mips-be
rm -rf "$tree"
"$root/scripts/kmod-tree.sh" "$tree"
log=$root/.build/cross/mips-be.log
make -j"$(nproc)" -C "$kdir" ARCH=mips CROSS_COMPILE="$CROSS" M="$tree" W=1 modules \
	> "$log" 2>&1
rc=$?
tap_result $((rc != 0)) "the tree builds for $rel, malta big endian (make exits $rc)"
if grep -Ei 'warning:|error:' "$log" | grep -v 'mptcp_qaware: not built' > "$log.bad"; then
	sed 's/^/# /' "$log.bad" | head -n 20
	tap_result 1 "no compiler or modpost warning at W=1"
else
	tap_result 0 "no compiler or modpost warning at W=1"
fi

# mips32_be KO: a big-endian MIPS32 relocatable for the kernel's release.
mips32_be() {
	local head
	head=$("${CROSS}readelf" -h "$1" 2>/dev/null) &&
		grep -Eq 'Class: +ELF32$' <<< "$head" &&
		grep -q 'big endian' <<< "$head" &&
		grep -Eq 'Type: +REL ' <<< "$head" &&
		grep -Eq 'Machine: +MIPS R3000$' <<< "$head" &&
		[ "$(modinfo -F vermagic "$1" | cut -d' ' -f1)" = "$rel" ]
}
# unexported KO: the symbols KO needs that the kernel does not export.
unexported() {
	comm -23 <("${CROSS}readelf" -sW "$1" | awk '$7 == "UND" && $8 != "" { print $8 }' |
		   sort -u) <(cut -f2 "$kdir/Module.symvers" | sort -u)
}
for m in "${modules[@]}"; do
	ko=$tree/$m.ko
	if [ "$m" = "$qa" ] && [ $btf = 0 ]; then
		tap_ok "mptcp_qaware refused in one line: $rel's vmlinux has no BTF" \
			eval 'grep -q "mptcp_qaware: not built" "$log" &&
			      [ "$(grep -c mptcp_qaware "$log")" -eq 1 ]'
		tap_ok "mptcp_qaware not built" test ! -e "$ko"
		continue
	fi
	tap_ok "${m#*/}.ko: a big-endian MIPS32 module for $rel" mips32_be "$ko"
	missing=$(unexported "$ko" 2>/dev/null | paste -sd ' ')
	tap_ok "${m#*/}.ko calls only what $rel exports${missing:+ (not: $missing)}" \
		eval 'test -f "$ko" && test -z "$missing"'
done
tap_done
