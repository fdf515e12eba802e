#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The image of one of Debian's kernels for the harness to boot
# (tests/vm/vm.sh -k IMAGE): the very build whose headers kernel-headers.sh
# unpacks for the same series, both picked by tw_debian_kernel
# (scripts/debian-kernel.sh).  make check boots each for its smoke
# subset, make check-6.1 and check-7 for every suite.  The unsigned image:
# the harness boots it directly, and Debian signs a build days after it
# serves it.  Fetched, never installed (6.1 through the host's apt
# sources, 7.x through trixie-backports' own lists, see tw_kernel_suite),
# and unpacked into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/image/<version>-amd64/
# outside the clone: the image as boot/vmlinuz-<release>, the modules
# indexed (depmod) in [usr/]lib/modules/<release>/, where vng finds them
# from the image's path.  A 'done' stamp ends it; concurrent runs wait
# for each other (flock).
#
# Usage: scripts/kernel-image.sh [--check] [SERIES|ABI]
#   --check  fetch nothing: exit 1 when the image is missing
#   SERIES   6.1 (default), 7; ABI: 6.1.0-57, 7.3.4+deb13
# Prints the image's path on stdout; what it does goes to stderr.
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

# The packages of the build's image: 7.x's comes in three (the kernel in
# linux-binary-unsigned, its modules, its base files: the modules' lists,
# the config); 6.1's in one, linux-image-<release>-unsigned.
image_packages() {
	if apt-cache show "linux-binary-unsigned-$rel=$version" >/dev/null 2>&1; then
		echo "linux-binary-unsigned-$rel=$version linux-modules-$rel=$version" \
			"linux-base-$rel=$version"
	else
		echo "linux-image-$rel-unsigned=$version"
	fi
}

unpack_image() {
	local moddir

	rm -rf "$dir"
	echo "kernel-image: fetching Debian's $rel $version${suite:+ from $suite}" >&2
	# shellcheck disable=SC2046 # a list of packages
	tw_deb_unpack "$dir" $(image_packages) ||
		die "fetching Debian's $rel $version failed"
	moddir=$dir/usr/lib/modules/$rel
	[ -d "$moddir" ] || moddir=$dir/lib/modules/$rel
	[ -d "$moddir" ] || die "no modules directory in Debian's $rel $version"
	mkdir -p "$dir/boot"
	[ -f "$image" ] || mv "$moddir/vmlinuz.unsigned" "$image" ||
		die "no image in Debian's $rel $version"
	# The index dpkg's trigger would have made: modprobe reads it in the
	# guest, and vng, missing it, would write it there at every boot.
	depmod -b "${moddir%/lib/modules/"$rel"}" "$rel" || die "depmod of $rel failed"
	touch "$dir/done"
}

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
