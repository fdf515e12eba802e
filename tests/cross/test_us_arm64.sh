#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CLI and the omware and tfib suites' programs cross-built for arm64
# (make userspace-arm64: against the arm64 guest root's libnl, in
# .build/arm64/), warnings being errors there: each an AArch64 program,
# and the CLI runs under qemu-user with the root's libraries and reports
# its version and UAPI.  Skipped as test_kmod_arm64.sh is.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"

command -v aarch64-linux-gnu-gcc >/dev/null ||
	tap_skip_all "aarch64-linux-gnu-gcc not installed (scripts/deps.sh arm64)"
command -v qemu-aarch64 >/dev/null || tap_skip_all "qemu-aarch64 not installed (make deps)"
tw_archive_reachable "$("$root/scripts/arm64.sh" suite)" ||
	tap_skip_all "Debian's archive does not answer"

out=$root/.build/arm64
progs=(omware/omware_session omware/omware_ctl tfib/tfib_tables tfib/fwd_forward tfib/tfib_ctl)
tap_plan $((3 + ${#progs[@]}))
log=$root/.build/cross/userspace-arm64.log
mkdir -p "${log%/*}"
rm -rf "$out/kselftest"
make -C "$root" userspace-arm64 > "$log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$log" | tail -n 20
tap_result $((rc != 0)) "make userspace-arm64 (exits $rc)"
cli=$out/userspace/timewire/timewire
aarch64() { file -L "$1" | grep -q 'ELF 64-bit LSB .*ARM aarch64'; }
tap_ok "timewire: an AArch64 program" aarch64 "$cli"
for p in "${progs[@]}"; do
	tap_ok "${p#*/}: an AArch64 program" aarch64 "$out/kselftest/$p"
done
tap_ok "timewire runs on arm64 (qemu-user): its version and UAPI" eval \
	'qemu-aarch64 -L "$("$root/scripts/arm64.sh" root 2>/dev/null)" "$cli" --version 2>/dev/null |
	 grep -q "^uapi omware 1 tfib 1"'
tap_done
