#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The 32-bit big-endian MIPS guest (the ath79-class router), which no
# Debian kernel or root serves: a malta kernel built from linux-source-6.12
# (scripts/cross-kernel.sh malta-be), a static busybox from Debian's source
# (scripts/busybox-static.sh) in a small initramfs, and the programs the
# guest runs linked statically against libnl-tiny (scripts/libnl-tiny.sh
# --cross).  Everything lives in the cache outside the clone; only the
# initramfs of a given script is written where the caller says.
#
# Usage: scripts/mips-be.sh kernel        build the kernel if missing; print
#                                         its tree (DIR/vmlinux boots; make
#                                         -C DIR ARCH=mips CROSS_COMPILE=...
#                                         M=... builds modules for it)
#        scripts/mips-be.sh release       its release (uname -r in the guest)
#        scripts/mips-be.sh initrd OUT [SCRIPT]
#                                         the initramfs (cpio, gzip) into OUT:
#                                         busybox, scripts/mips-be-init, and
#                                         SCRIPT as /tw-run when given
#        scripts/mips-be.sh boot          what tests/vm/vm.sh boots, one
#                                         NAME=VALUE a line, as
#                                         scripts/foreign.sh ARCH boot prints
#        scripts/mips-be.sh make ARG...   make ARG... cross-compiling static
#                                         programs against libnl-tiny
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
triplet=mips-linux-gnu
die() { echo "mips-be: $*" >&2; exit 1; }

# initrd OUT [SCRIPT]: written by the kernel's own gen_init_cpio from a
# list, so that /dev/console (the init's first stdin and stdout, before
# devtmpfs is up) needs no mknod and no root.
initrd() {
	local out=$1 script=${2:-} kdir busybox list

	kdir=$("$here/cross-kernel.sh" malta-be dir)
	[ -x "$kdir/usr/gen_init_cpio" ] || kdir=$("$here/cross-kernel.sh" malta-be build)
	busybox=$("$here/busybox-static.sh" "$triplet")
	list=$(mktemp)
	{
		printf 'dir /%s 755 0 0\n' dev proc sys bin sbin usr usr/bin usr/sbin
		echo 'dir /tmp 1777 0 0'
		echo 'nod /dev/console 600 0 0 c 5 1'
		echo "file /bin/busybox $busybox 755 0 0"
		echo "file /init $here/mips-be-init 755 0 0"
		[ -z "$script" ] || echo "file /tw-run $(readlink -f "$script") 755 0 0"
	} > "$list"
	"$kdir/usr/gen_init_cpio" "$list" | gzip -1 > "$out"
	rm -f "$list"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
kernel)	exec "$here/cross-kernel.sh" malta-be build ;;
release)
	kdir=$("$here/cross-kernel.sh" malta-be dir)
	[ -f "$kdir/built" ] || die "kernel not built: scripts/mips-be.sh kernel"
	cat "$kdir/release" ;;
initrd)	[ $# -ge 1 ] || die "usage: $0 initrd OUT [SCRIPT]"
	initrd "$@" ;;
boot)	kdir=$("$here/cross-kernel.sh" malta-be build)
	# Beside its kernel, replaced whole: another boot may be reading it.
	initrd "$kdir/initrd.gz.$$"
	mv -f "$kdir/initrd.gz.$$" "$kdir/initrd.gz"
	# Malta maps 256 MiB of low memory, and QEMU passes the command line
	# in one 256-byte variable after rd_start= and rd_size=.
	printf '%s=%s\n' release "$(cat "$kdir/release")" kernel "$kdir/vmlinux" \
		root '' initrd "$kdir/initrd.gz" memory 256 cmdline 210 \
		console ttyS0 qemu "qemu-system-mips -M malta -cpu 24Kf -smp 1" ;;
make)	prefix=$("$here/libnl-tiny.sh" --cross "$triplet-")
	# The cross prefix's pkg-config file alone, never the host's.
	PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH='' \
		exec make CC="$triplet-gcc" AR="$triplet-ar" LIBNL=libnl-tiny \
		LDFLAGS=-static "$@" ;;
*)	die "usage: $0 kernel|release|initrd OUT [SCRIPT]|boot|make ARG..." ;;
esac
