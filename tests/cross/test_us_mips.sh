#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The programs of the 32-bit big-endian MIPS guest, which has busybox and
# nothing else: make userspace-mips links the CLI and the omware and tfib
# suites' programs statically against libnl-tiny cross-built from the
# vendored tarball (.build/mips/).  Each must be a static big-endian MIPS32
# program, and the CLI runs under qemu-user without any library and
# reports its version and UAPI.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

command -v mips-linux-gnu-gcc >/dev/null || tap_skip_all "mips-linux-gnu-gcc not installed (make deps)"
command -v qemu-mips >/dev/null || tap_skip_all "qemu-mips not installed (make deps)"

out=$root/.build/mips
progs=(omware/omware_session omware/omware_ctl tfib/tfib_tables tfib/fwd_forward tfib/tfib_ctl)
tap_plan $((3 + ${#progs[@]}))
log=$root/.build/cross/userspace-mips.log
mkdir -p "${log%/*}"
rm -rf "$out/kselftest"
make -C "$root" userspace-mips > "$log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$log" | tail -n 20
tap_result $((rc != 0)) "make userspace-mips (exits $rc)"
cli=$out/userspace/timewire/timewire
static_mips() { file -L "$1" | grep -q 'ELF 32-bit MSB executable, MIPS.*statically linked'; }
tap_ok "timewire: a static big-endian MIPS32 program" static_mips "$cli"
for p in "${progs[@]}"; do
	tap_ok "${p#*/}: a static big-endian MIPS32 program" static_mips "$out/kselftest/$p"
done
# No -L: a static program needs no root of the guest's libraries.
tap_ok "timewire runs on big-endian MIPS (qemu-user): its version and UAPI" eval \
	'qemu-mips "$cli" --version 2>/dev/null | grep -q "^uapi omware 1 tfib 1"'
tap_done
