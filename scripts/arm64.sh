#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The arm64 twin of the test kernel: Debian's arm64 build of the same 6.12
# version as the amd64 kernel the tests boot (scripts/kernel-version.sh),
# from the suite that version came from.  Everything is cached outside the
# clone, keyed by the package version, in
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/arm64/<version>/
# with a 'done' stamp per part; concurrent runs wait for each other (flock).
#
# Usage: scripts/arm64.sh abi       the test kernel's ABI (6.12.117+deb12)
#        scripts/arm64.sh suite     the suite it came from (bookworm-security)
#        scripts/arm64.sh release   the arm64 kernel release (6.12.117+deb12-arm64)
#        scripts/arm64.sh headers   its headers (KDIR) for a cross build
#        scripts/arm64.sh kernel    its image: prints the Image's path
#        scripts/arm64.sh root      a bookworm arm64 root for the guest, the
#                                   kernel's modules in it: prints its path
#        scripts/arm64.sh initrd    the initramfs that mounts that root
#                                   over 9p: prints its path
#        scripts/arm64.sh make ARG...
#                                   make ARG... cross-compiling for arm64:
#                                   the netlink library is the root's own
#                                   (Debian's libnl-genl-3-dev:arm64), so
#                                   the programs run there as built
# The cross compiler and the emulator are installed when missing
# (scripts/deps.sh arm64).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$here/kernel-version.sh"
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

die() { echo "arm64: $*" >&2; exit 1; }

# The ABI (6.12.117+deb12) of the amd64 test kernel, KVER's if set.
abi() {
	local k=${KVER:-}
	[ -n "$k" ] || k=$(tw_kernel_installed) || die "no test kernel installed (make deps)"
	echo "${k%-amd64}"
}

# The suite the amd64 headers were installed from (bookworm-security):
# the arm64 build of that version is there too.
suite() {
	apt-cache policy "linux-headers-$(abi)-amd64" 2>/dev/null |
		awk '/^ \*\*\*/ { found = 1; next }
		     found && $2 ~ /^http/ { sub(/\/.*/, "", $3); print $3; exit }' |
		grep . || echo bookworm-security
}

# Point apt at that suite for arm64 (private lists, scripts/debian-archive.sh).
apt_arm64() {
	tw_apt_suite "$(suite)" arm64 >/dev/null || die "apt-get update of $(suite) failed"
}

# The package version: the arm64 build of a version is the amd64 one's
# (the same source), so a complete cache needs no network.
version() {
	dpkg-query -W -f='${Version}' "linux-headers-$(abi)-amd64" 2>/dev/null | grep . ||
		die "linux-headers-$(abi)-amd64 is not installed (make deps)"
}

# locked PART FUNC STAMP: FUNC makes $dir/PART under the version's lock,
# unless PART.done says STAMP (what PART is made of) already.
locked() {
	mkdir -p "$dir"
	exec 9> "$dir/.lock"
	flock 9
	# Not in a condition: set -e must stop FUNC at its first failure.
	if [ "$(cat "$dir/$1.done" 2>/dev/null)" != "$3" ]; then
		rm -f "$dir/$1.done"
		"$2"
		echo "$3" > "$dir/$1.done"
	fi
	exec 9>&-
}

# The image package unpacked: boot/vmlinuz-<release> and lib/modules/.
make_kernel() {
	echo "arm64: fetching linux-image-$rel-unsigned $ver" >&2
	apt_arm64
	rm -rf "$dir/kernel"
	tw_deb_unpack "$dir/kernel" "linux-image-$rel-unsigned=$ver" ||
		die "fetching linux-image-$rel-unsigned failed"
}

# What the guest suites run: the shell and its tools, iproute2 (ip, tc),
# the test programs' libraries (libnl, and its -dev files for the cross
# build), python3 (the AoI analyser's), jq.  Unpacked only (mmdebstrap's
# extract variant): the host cannot run arm64 maintainer scripts, and the
# guest needs none of their work but the accounts and the modules' index,
# made here.
root_packages=(bash coreutils util-linux procps kmod iproute2 iputils-ping
	ethtool jq python3 libnl-3-dev libnl-genl-3-dev busybox-static
	libc6 gawk sed grep findutils base-passwd mount)

make_root() {
	command -v mmdebstrap >/dev/null || die "mmdebstrap not installed (make deps)"
	echo "arm64: making the guest root $dir/root" >&2
	rm -rf --one-file-system "$dir/root"
	# merged /usr, as bookworm is: the -dev files' paths then hold.  The
	# hook's "$1" is mmdebstrap's to expand.
	# shellcheck disable=SC2016
	mmdebstrap "${tw_mmdebstrap_opts[@]}" --variant=extract --architectures=arm64 \
		--setup-hook='/usr/share/mmdebstrap/hooks/merged-usr/setup00.sh "$1"' \
		--include="$(IFS=,; echo "${root_packages[*]}")" \
		bookworm "$dir/root" "$(tw_debian_source bookworm)" >&2 ||
		die "mmdebstrap of the arm64 root failed"
	# What the maintainer scripts would have linked (dash, update-alternatives).
	ln -sfn bash "$dir/root/usr/bin/sh"
	ln -sfn gawk "$dir/root/usr/bin/awk"
	cp "$dir/root/usr/share/base-passwd/passwd.master" "$dir/root/etc/passwd"
	cp "$dir/root/usr/share/base-passwd/group.master" "$dir/root/etc/group"
	mkdir -p "$dir/root/lib/modules"
	cp -a "$dir/kernel/lib/modules/$rel" "$dir/root/lib/modules/"
	depmod -b "$dir/root" "$rel"
}

# Debian builds 9p and virtio's transport for it as modules: loaded here
# (uncompressed: busybox's insmod may not read xz) before the root mounts.
initrd_modules=(netfs 9pnet 9pnet_virtio 9p)

make_initrd() {
	local tmp m ko
	tmp=$(mktemp -d)
	mkdir -p "$tmp/bin" "$tmp/modules" "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/newroot"
	cp "$dir/root/bin/busybox" "$tmp/bin/busybox"
	for m in "${initrd_modules[@]}"; do
		ko=$(find "$dir/root/lib/modules/$rel" -name "$m.ko*" | head -n 1)
		[ -n "$ko" ] || die "$m.ko not in $rel"
		xz -dc -f "$ko" > "$tmp/modules/$m.ko"
	done
	cp "$here/arm64-init" "$tmp/init"
	chmod +x "$tmp/init"
	(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initrd.gz"
	rm -rf "$tmp"
}

cmd=${1:-}
case $cmd in
abi | suite) "$cmd"; exit 0 ;;
release) echo "$(abi)-arm64"; exit 0 ;;
headers)
	"$here/deps.sh" arm64 >&2
	exec "$here/kernel-headers.sh" --suite "$(suite)" "$(abi)" arm64 ;;
kernel | root | initrd | make) ;;
*) die "usage: $0 abi|suite|release|headers|kernel|root|initrd|make ARG..." ;;
esac

"$here/deps.sh" arm64 >&2
ver=$(version)
rel=$(abi)-arm64
dir=$(tw_cache_dir)/arm64/$ver
locked kernel make_kernel "$rel"
# A new package list makes the root again, and a root or init the initramfs.
root_stamp="${root_packages[*]}"
initrd_stamp="$root_stamp $(cksum < "$here/arm64-init")"
case $cmd in
kernel)	echo "$dir/kernel/boot/vmlinuz-$rel" ;;
root)	locked root make_root "$root_stamp"
	echo "$dir/root" ;;
make)	locked root make_root "$root_stamp"
	shift
	lib=$dir/root/usr/lib/aarch64-linux-gnu
	PKG_CONFIG_SYSROOT_DIR=$dir/root PKG_CONFIG_LIBDIR=$lib/pkgconfig \
		exec make CC=aarch64-linux-gnu-gcc AR=aarch64-linux-gnu-ar \
		LDFLAGS="-Wl,-rpath-link,$lib" "$@" ;;
initrd)	locked root make_root "$root_stamp"
	locked initrd make_initrd "$initrd_stamp"
	echo "$dir/initrd.gz" ;;
esac
