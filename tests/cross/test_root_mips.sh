#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What tests/vm/vm.sh -a mips boots (scripts/mips-be.sh boot): the fields
# it reads, and an initramfs that is the guest's whole root, with the
# foreign guests' one init and big-endian MIPS busybox, bash, iproute2
# (ip, tc) and coreutils' timeout cross-built from Debian's sources, static
# but ip and tc (with their loader and libraries), each of which runs
# under qemu-user: bash with what the harness's runner uses, ip with its
# link kinds (found by dlsym(), which a static ip cannot) and namespaces, timeout as
# the kselftest runner calls it, and busybox's shell running what PATH
# finds (not its own ip).  Skipped while the malta kernel is not in the cache
# (test_kmod_mips.sh says how to build it).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

command -v mips-linux-gnu-gcc >/dev/null || tap_skip_all "mips-linux-gnu-gcc not installed (make deps)"
command -v qemu-mips >/dev/null || tap_skip_all "qemu-mips not installed (make deps)"
kdir=$("$root/scripts/cross-kernel.sh" malta-be dir)
[ -f "$kdir/built" ] || tap_skip_all "the malta big-endian kernel is not built: make check-prep"

tap_plan 17
declare -A boot
mkdir -p "$root/.build/cross"
info=$("$root/scripts/mips-be.sh" boot 2> "$root/.build/cross/mips-root.log")
tap_result $? "scripts/mips-be.sh boot"
while IFS='=' read -r k v; do boot[$k]=$v; done <<< "$info"
tap_ok "it names the release, kernel, initramfs, memory, command line, console and emulator" \
	eval '[ "${boot[release]}" = "$(cat "$kdir/release")" ] && [ -f "${boot[kernel]}" ] &&
	      [ -f "${boot[initrd]}" ] && [ "${boot[memory]}" -gt 0 ] &&
	      [ "${boot[cmdline]}" -gt 0 ] && [ -n "${boot[console]}" ] &&
	      [[ ${boot[qemu]} == qemu-system-mips\ * ]]'
tap_ok "no root beside the initramfs, two 9p slots" \
	eval '[ -z "${boot[root]}" ] && [ "$(wc -w <<< "${boot[p9_slots]}")" -eq 2 ]'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && gzip -dc "${boot[initrd]}" | cpio -id --quiet 2>/dev/null)
tap_ok "its init is the foreign guests' init" cmp -s "$tmp/init" "$root/scripts/foreign-init"
static_be() { file -L "$1" | grep -q 'ELF 32-bit MSB executable, MIPS.*statically linked'; }
for p in usr/bin/busybox usr/bin/bash usr/bin/timeout; do
	tap_ok "$p: a static big-endian MIPS32 program" static_be "$tmp/$p"
done
dynamic_be() { file -L "$1" | grep -Eq 'ELF 32-bit MSB (pie )?executable, MIPS.*dynamically linked, interpreter /lib/ld.so.1'; }
for p in usr/bin/ip usr/bin/tc; do
	tap_ok "$p: a big-endian MIPS32 program for /lib/ld.so.1" dynamic_be "$tmp/$p"
done
tap_ok "its loader and C library are there" eval \
	'[ -f "$tmp/usr/lib/ld.so.1" ] && [ -f "$tmp/usr/lib/libc.so.6" ] && [ "$(readlink "$tmp/lib")" = usr/lib ]'
tap_ok "/usr merged: bin and sbin link into it" \
	eval '[ "$(readlink "$tmp/bin")" = usr/bin ] && [ "$(readlink "$tmp/sbin")" = usr/sbin ]'
tap_ok "root has an account (etc/passwd, etc/group)" \
	eval 'grep -q "^root:x:0:0:" "$tmp/etc/passwd" && grep -q "^root:x:0:" "$tmp/etc/group"'
tap_ok "bash runs: arrays, local, PIPESTATUS, process substitution" eval \
	'[ "$(qemu-mips "$tmp/usr/bin/bash" -c "declare -A a=([k]=v); f() { local x=\${a[k]}; echo \$x; }; f; false | true; echo \${PIPESTATUS[0]}; cat <(echo p)" | paste -sd " ")" = "v 1 p" ]'
tap_ok "ip is iproute2's, with netns" eval \
	'qemu-mips -L "$tmp" "$tmp/usr/bin/ip" -V | grep -q iproute2 &&
	 qemu-mips -L "$tmp" "$tmp/usr/bin/ip" netns help 2>&1 | grep -q "netns exec"'
# In a namespace of its own: qemu-user hands netlink to this kernel, whose
# answer (or qemu-user's "not a socket") says ip got past its arguments.
kind_found() {
	local out
	out=$(unshare -n qemu-mips -L "$tmp" "$tmp/usr/bin/ip" link add link lo name tw0 type vlan id 5 2>&1) ||
		[[ $out == *"RTNETLINK answers"* && $out != *Garbage* ]]
}
tap_ok "ip finds its link kinds (vlan's options parsed)" kind_found
# qemu-user runs no foreign program a program execs: 127 is timeout's
# "not found" (an option it does not know is 125).
tap_ok "timeout takes the runner's --foreground" eval \
	'qemu-mips "$tmp/usr/bin/timeout" --foreground 60 /nonexistent 2>/dev/null; [ $? -eq 127 ]'
qemu=$(command -v qemu-mips)
tap_ok "busybox's shell runs the ip PATH finds, not its own" eval \
	'[ "$(PATH=$tmp/usr/bin "$qemu" "$tmp/usr/bin/busybox" sh -c "command -v ip")" = "$tmp/usr/bin/ip" ]'
tap_done
