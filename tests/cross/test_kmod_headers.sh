#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules against one of Debian's kernels from its headers
# packages (scripts/kernel-headers.sh fetches them into the cache outside
# the clone when they are not there yet): omware.ko and tfib.ko build at
# W=1 without a compiler or modpost warning, as relocatables for that
# kernel's CPU and release calling only what it exports (a plain u64
# division on 32-bit would call libgcc's __aeabi_uldivmod).
# mptcp_qaware, which needs the scheduler API of 6.6 and later and BTF,
# builds the same way where it has both (7.x: the get_send/get_retrans
# shape of <tw/compat.h>), else is refused in one line without failing
# the build of the others.
#
# Usage: test_kmod_headers.sh [SERIES]
#   6.1  Debian 12's own kernel, from the host's apt sources (default;
#        missing headers fail, never skip)
#   7    the newest 7.x of trixie-backports, built in a trixie root
#        (scripts/trixie-root.sh, its kbuild tools need trixie's glibc);
#        skipped only when Debian's archive does not answer
#   armhf  32-bit ARM: Debian's armmp flavour of the test kernel's
#          version, which only trixie builds for armhf, cross-compiled in
#          a trixie root with its cross compiler; skipped likewise, or
#          when no test kernel is installed
#   mipsel 32-bit little-endian MIPS: Debian 12's own 6.1 in its
#          4kc-malta flavour (scripts/foreign.sh mipsel, what make
#          check-mipsel boots), cross-compiled with bookworm's
#          mipsel-linux-gnu-gcc; skipped when that is not installed or
#          the archive does not answer
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"
# shellcheck source=scripts/kernel-version.sh
. "$root/scripts/kernel-version.sh"

series=${1:-${TW_HEADERS_SERIES:-6.1}}
# refusal: the one line mptcp_qaware is refused with; none: it builds
refusal='mptcp_qaware: not built: Linux [0-9.]+ has'
# What readelf -h says of the modules: the host's CPU unless cross-built.
elf_class=ELF64 elf_machine=X86-64 elf_data='little endian'
# fetch: the arguments of scripts/kernel-headers.sh, or headers: another
# command printing the headers' directory; runner: what runs the build.
suite='' rootcmd=() name=$series headers=() runner=()
case $series in
6.1)
	fetch=("$series")
	refusal="$refusal no MPTCP scheduler API \(6\.6 or later needed\)$" ;;
7)
	suite=trixie-backports
	fetch=(--suite "$suite" "$series") rootcmd=("$root/scripts/trixie-root.sh")
	name=7.x
	refusal= ;;
armhf)
	kver=$(tw_kernel_installed) || tap_skip_all "no test kernel installed (make deps)"
	suite=trixie
	fetch=(--suite "$suite" "${kver%%+*}" armmp)
	rootcmd=("$root/scripts/trixie-root.sh" --cross armhf)
	name="${kver%%+*} armmp (armhf)" elf_class=ELF32 elf_machine=ARM
	refusal='mptcp_qaware: not built: [^ ]+-armmp lacks CONFIG_DEBUG_INFO_BTF CONFIG_KALLSYMS_ALL ' ;;
mipsel)
	foreign=("$root/scripts/foreign.sh" mipsel)
	command -v "$("${foreign[@]}" triplet)-gcc" >/dev/null ||
		tap_skip_all "the mipsel cross compiler is not installed (scripts/deps.sh mipsel)"
	suite=$("${foreign[@]}" suite)
	headers=("${foreign[@]}" headers) runner=("${foreign[@]}" run)
	name="6.1 4kc-malta (mipsel)" elf_class=ELF32 elf_machine='MIPS R3000'
	refusal="$refusal no MPTCP scheduler API \(6\.6 or later needed\)$" ;;
*)
	tap_fail_all "no case for series '$series' (6.1, 7, armhf or mipsel)" ;;
esac
if [ -n "$suite" ]; then
	tw_archive_reachable "$suite" ||
		tap_skip_all "Debian's archive does not answer for $suite at $(tw_debian_mirror)"
fi
[ ${#rootcmd[@]} -eq 0 ] || runner=("${rootcmd[@]}" run)
[ ${#headers[@]} -gt 0 ] || headers=("$root/scripts/kernel-headers.sh" "${fetch[@]}")

modules=(omware/omware kmod/tfib)
qa_checks=2	# refused in one line, not built
if [ -z "$refusal" ]; then
	modules+=(mptcp-qaware/mptcp_qaware)
	qa_checks=1	# not refused, and checked as the others are
fi
# fetch, the root if any, the build, two checks a module, warnings, and
# qaware's
tap_plan $((3 + (${#rootcmd[@]} > 0) + 2 * ${#modules[@]} + qa_checks))
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
	"${headers[@]}" || tap_done
kdir=$(cat "$out/fetch.log.out")
rel=${kdir##*/linux-headers-}
tap_diag "kernel: $rel ($kdir)"
if [ ${#rootcmd[@]} -gt 0 ]; then
	step "$out/root.log" "trixie root made (scripts/${rootcmd[*]##*/})" \
		"${rootcmd[@]}" || tap_done
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
# elf_is KO: KO is a relocatable for the kernel's CPU and release.
elf_is() {
	local head
	head=$(readelf -h "$1" 2>/dev/null) &&
		grep -Eq "Class: +$elf_class\$" <<< "$head" &&
		grep -Eq "Data: +.*$elf_data\$" <<< "$head" &&
		grep -Eq "Type: +REL " <<< "$head" &&
		grep -Eq "Machine: +(.* )?$elf_machine\$" <<< "$head" &&
		[ "$(modinfo -F vermagic "$1" | cut -d" " -f1)" = "$rel" ]
}
# unexported KO: the symbols KO needs that the kernel does not export.
unexported() {
	comm -23 <(readelf -sW "$1" | awk '$7 == "UND" && $8 != "" { print $8 }' | sort -u) \
		<(cut -f2 "$kdir/Module.symvers" | sort -u)
}
for m in "${modules[@]}"; do
	ko=$tree/$m.ko
	tap_ok "${m#*/}.ko: an $elf_class $elf_machine module for $rel" elf_is "$ko"
	missing=$(unexported "$ko" 2>/dev/null | paste -sd ' ')
	tap_ok "${m#*/}.ko calls only what $rel exports${missing:+ (not: $missing)}" \
		eval 'test -f "$ko" && test -z "$missing"'
done
# modpost's warnings too (WARNING: modpost: ...).
if grep -Ei 'warning:|error:' "$log" > "$log.bad"; then
	sed 's/^/# /' "$log.bad" | head -n 20
	tap_result 1 "no compiler or modpost warning at W=1"
else
	tap_result 0 "no compiler or modpost warning at W=1"
fi
if [ -n "$refusal" ]; then
	tap_ok "mptcp_qaware refused in one line" \
		eval 'grep -Eq "$refusal" "$log" && [ "$(grep -c mptcp_qaware "$log")" -eq 1 ]'
	tap_ok "mptcp_qaware not built" test ! -e "$tree/mptcp-qaware/mptcp_qaware.ko"
else
	tap_not "mptcp_qaware not refused" grep -q "mptcp_qaware: not built" "$log"
fi
tap_done
