#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The 32-bit big-endian MIPS guest (the ath79-class router), which no
# Debian kernel or root serves: a malta kernel built from linux-source-6.12
# (scripts/cross-kernel.sh malta-be), static busybox, bash and iproute2
# from Debian's sources (scripts/static-cross.sh) in an initramfs that is
# the guest's root, and the programs the guest runs linked statically
# against libnl-tiny (scripts/libnl-tiny.sh --cross).  Everything lives in
# the cache outside the clone.
#
# Usage: scripts/mips-be.sh kernel        build the kernel if missing; print
#                                         its tree (DIR/vmlinux boots; make
#                                         -C DIR ARCH=mips CROSS_COMPILE=...
#                                         M=... builds modules for it)
#        scripts/mips-be.sh release       its release (uname -r in the guest)
#        scripts/mips-be.sh triplet       its cross compiler's triplet, as
#                                         scripts/foreign.sh ARCH triplet
#        scripts/mips-be.sh suite         the Debian suite whose sources
#                                         its static programs are built
#                                         from (scripts/static-cross.sh)
#        scripts/mips-be.sh run CMD...    CMD... with ARCH and CROSS_COMPILE
#                                         set for kbuild's make
#        scripts/mips-be.sh kbuild        what a suite's own modules are
#                                         built with for the kernel, as
#                                         scripts/foreign.sh ARCH kbuild
#                                         prints (KDIR: its tree)
#        scripts/mips-be.sh boot          what tests/vm/vm.sh boots, one
#                                         NAME=VALUE a line, as
#                                         scripts/foreign.sh ARCH boot prints;
#                                         the initramfs is the guest's root
#        scripts/mips-be.sh make ARG...   make ARG... cross-compiling static
#                                         programs against libnl-tiny
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
triplet=mips-linux-gnu
die() { echo "mips-be: $*" >&2; exit 1; }

# initrd OUT: the guest's whole root, written by the kernel's own
# gen_init_cpio from a list, so that /dev/console (the init's first stdin
# and stdout, before devtmpfs is up) needs no mknod and no root: busybox,
# bash (the harness's runner and the suites' scripts), iproute2's ip and tc
# (busybox's ip makes no veth or namespace), coreutils' timeout (the
# kselftest runner's), scripts/foreign-init as init.
initrd() {
	local out=$1 kdir list etc p prog lib
	local -A bin

	kdir=$("$here/cross-kernel.sh" malta-be dir)
	[ -x "$kdir/usr/gen_init_cpio" ] || kdir=$("$here/cross-kernel.sh" malta-be build)
	for p in busybox bash iproute2 coreutils; do
		bin[$p]=$("$here/static-cross.sh" "$p" "$triplet")
	done
	list=$(mktemp)
	etc=$(mktemp -d)
	echo 'root:x:0:0:root:/root:/usr/bin/bash' > "$etc/passwd"
	echo 'nobody:x:65534:65534:nobody:/nonexistent:/bin/sh' >> "$etc/passwd"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' > "$etc/group"
	{
		# /usr merged, as Debian's: #!/bin/bash and #!/usr/bin/env alike.
		printf 'dir /%s 755 0 0\n' dev proc sys etc root run usr usr/bin usr/sbin
		printf 'slink /%s usr/%s 777 0 0\n' bin bin sbin sbin
		echo 'dir /tmp 1777 0 0'
		echo 'nod /dev/console 600 0 0 c 5 1'
		echo "file /usr/bin/busybox ${bin[busybox]}/busybox 755 0 0"
		for prog in bash:bash iproute2:ip iproute2:tc coreutils:timeout; do
			echo "file /usr/bin/${prog#*:} ${bin[${prog%:*}]}/${prog#*:} 755 0 0"
		done
		# ip's and tc's loader and libraries (/lib is /usr/lib)
		echo 'dir /usr/lib 755 0 0'
		echo 'slink /lib usr/lib 777 0 0'
		for lib in "${bin[iproute2]}"/lib/*; do
			echo "file /usr/lib/${lib##*/} $lib 755 0 0"
		done
		echo "file /etc/passwd $etc/passwd 644 0 0"
		echo "file /etc/group $etc/group 644 0 0"
		echo "file /init $here/foreign-init 755 0 0"
	} > "$list"
	"$kdir/usr/gen_init_cpio" "$list" | gzip -1 > "$out"
	rm -rf "$list" "$etc"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
kernel)	exec "$here/cross-kernel.sh" malta-be build ;;
triplet) echo "$triplet" ;;
suite)	echo bookworm ;;
release)
	kdir=$("$here/cross-kernel.sh" malta-be dir)
	[ -f "$kdir/built" ] || die "kernel not built: scripts/mips-be.sh kernel"
	cat "$kdir/release" ;;
run)	ARCH=mips CROSS_COMPILE=$triplet- exec "$@" ;;
kbuild)	# Never a kernel build (10-40 min): make modules-mips makes it.
	kdir=$("$here/cross-kernel.sh" malta-be dir)
	[ -f "$kdir/built" ] || die "kernel not built: scripts/mips-be.sh kernel"
	printf '%s\n' "KVER=$(cat "$kdir/release")" "KDIR=$kdir" "KRUN=$here/mips-be.sh run" ;;
boot)	kdir=$("$here/cross-kernel.sh" malta-be build)
	# Beside its kernel, replaced whole: another boot may be reading it.
	initrd "$kdir/initrd.gz.$$"
	mv -f "$kdir/initrd.gz.$$" "$kdir/initrd.gz"
	# Malta maps 256 MiB of low memory, QEMU passes the command line in
	# one 256-byte variable after rd_start= and rd_size=, and the two 9p
	# devices get an interrupt line each (scripts/foreign.sh: mipsel).
	printf '%s=%s\n' release "$(cat "$kdir/release")" kernel "$kdir/vmlinux" \
		root '' initrd "$kdir/initrd.gz" memory 256 cmdline 210 \
		console ttyS0 p9_slots '0x13 0x14' \
		qemu "qemu-system-mips -M malta -cpu 24Kf -smp 1 -nic none" ;;
make)	prefix=$("$here/libnl-tiny.sh" --cross "$triplet-")
	# The cross prefix's pkg-config file alone, never the host's.
	PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH='' \
		exec make CC="$triplet-gcc" AR="$triplet-ar" LIBNL=libnl-tiny \
		LDFLAGS=-static "$@" ;;
*)	die "usage: $0 kernel|release|triplet|suite|run CMD...|kbuild|boot|make ARG..." ;;
esac
