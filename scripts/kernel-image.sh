#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The image of one of Debian's kernels for the harness to boot
# (tests/vm/vm.sh -k IMAGE): the very build whose headers kernel-headers.sh
# unpacks for the same series, both picked by tw_debian_kernel
# (scripts/debian-kernel.sh).  Only when asked (make check-6.1, check-7):
# make check never fetches one.  The unsigned image: the harness boots it
# directly, and Debian signs a build days after it serves it.
# - A series the host's apt sources serve (6.1) is installed
#   (linux-image-<release>-unsigned); an image of that build already
#   installed, signed or not, is kept.
# - One from a suite they do not serve (7.x: trixie-backports, see
#   tw_kernel_suite) is fetched through that suite's own lists and
#   unpacked, never installed, into
#     ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/image/<version>-amd64/
#   outside the clone: the image as boot/vmlinuz-<release>, the modules
#   indexed (depmod) in usr/lib/modules/<release>/, where vng finds them
#   from the image's path.  A 'done' stamp ends it; concurrent runs wait
#   for each other (flock).
#
# Usage: scripts/kernel-image.sh [--check] [SERIES|ABI]
#   --check  fetch and install nothing: exit 1 when the image is missing
#   SERIES   6.1 (default), 7; ABI: 6.1.0-57, 7.3.4+deb13
# Prints the image's path (/boot/vmlinuz-6.1.0-57-amd64) on stdout; what
# it does goes to stderr.  Needs root (sudo otherwise) to install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"
# shellcheck source=scripts/debian-kernel.sh
. "$here/debian-kernel.sh"

check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
want=${1:-6.1}
# The harness boots x86-64 guests only.
arch=amd64

die() { echo "kernel-image: $*" >&2; exit 1; }

suite=$(tw_kernel_suite "$want")
if [ -n "$suite" ]; then
	tw_apt_suite "$suite" "$arch" || die "apt-get update of $suite failed"
fi
pick=$(tw_debian_kernel "$want" "$arch") ||
	die "no linux-headers-$want*-$arch in the apt lists${suite:+ of $suite} (apt-get update?)"
read -r abi version <<< "$pick"
rel=$abi-$arch

# installed: this build's image, under either package name, and its files.
installed() {
	dpkg-query -W -f='${Status} ${Version}\n' "linux-image-$rel" \
		"linux-image-$rel-unsigned" 2>/dev/null |
		grep -qx "install ok installed $version" &&
		[ -r "/boot/vmlinuz-$rel" ] && [ -d "/lib/modules/$rel/kernel" ]
}

install_image() {
	installed && return
	[ "$check" -eq 0 ] ||
		die "Debian's $rel ($version) is not installed: scripts/kernel-image.sh $want installs it"
	echo "kernel-image: installing linux-image-$rel-unsigned $version" >&2
	tw_kernel_apt_install "linux-image-$rel-unsigned=$version" ||
		die "apt-get install of linux-image-$rel-unsigned $version failed (apt-get update?)"
	installed || die "$rel installed, but /boot/vmlinuz-$rel or its modules are missing"
}

# 7.x's image comes in three packages of the build: the kernel
# (linux-binary-unsigned), its modules and its base files (the modules'
# lists, the config).
unpack_image() {
	local moddir=$dir/usr/lib/modules/$rel

	rm -rf "$dir"
	echo "kernel-image: fetching Debian's $rel $version from $suite" >&2
	tw_deb_unpack "$dir" "linux-binary-unsigned-$rel=$version" \
		"linux-modules-$rel=$version" "linux-base-$rel=$version" ||
		die "fetching Debian's $rel $version failed"
	mkdir -p "$dir/boot"
	mv "$moddir/vmlinuz.unsigned" "$image" ||
		die "no image in linux-binary-unsigned-$rel $version"
	# The index dpkg's trigger would have made: modprobe reads it in the
	# guest, and vng, missing it, would write it there at every boot.
	depmod -b "$dir/usr" "$rel" || die "depmod of $rel failed"
	touch "$dir/done"
}

if [ -z "$suite" ]; then
	install_image
	echo "/boot/vmlinuz-$rel"
	exit 0
fi
cache=$(tw_cache_dir)/image
dir=$cache/$version-$arch
image=$dir/boot/vmlinuz-$rel
mkdir -p "$cache"
exec 9> "$cache/.lock-$version-$arch"
flock 9
if [ ! -f "$dir/done" ]; then
	[ "$check" -eq 0 ] ||
		die "Debian's $rel ($version) is not fetched: scripts/kernel-image.sh $want fetches it"
	unpack_image
fi
echo "$image"
