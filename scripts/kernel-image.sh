#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the image of one of Debian's kernels for the harness to boot
# (tests/vm/vm.sh -k RELEASE: /boot/vmlinuz-RELEASE, /lib/modules/RELEASE):
# the very build whose headers kernel-headers.sh unpacks for the same
# series, both picked by tw_debian_kernel (scripts/debian-kernel.sh).
# Only when asked (make check-6.1): make check never installs it.
# The -unsigned package: the harness boots the image directly, and Debian
# signs a build days after it serves it.  An image of that build already
# installed, signed or not, is kept.
#
# Usage: scripts/kernel-image.sh [--check] [SERIES|ABI]
#   --check  install nothing: exit 1 when the image is missing
#   SERIES   6.1 (default); ABI: 6.1.0-57
# Prints the kernel release (6.1.0-57-amd64) on stdout; what it does goes
# to stderr.  Needs root (sudo otherwise) to install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
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

pick=$(tw_debian_kernel "$want" "$arch") ||
	die "no linux-headers-$want*-$arch in the apt lists (apt-get update?)"
read -r abi version <<< "$pick"
rel=$abi-$arch

# installed: this build's image, under either package name, and its files.
installed() {
	dpkg-query -W -f='${Status} ${Version}\n' "linux-image-$rel" \
		"linux-image-$rel-unsigned" 2>/dev/null |
		grep -qx "install ok installed $version" &&
		[ -r "/boot/vmlinuz-$rel" ] && [ -d "/lib/modules/$rel/kernel" ]
}

if ! installed; then
	[ "$check" -eq 0 ] ||
		die "Debian's $rel ($version) is not installed: scripts/kernel-image.sh $want installs it"
	echo "kernel-image: installing linux-image-$rel-unsigned $version" >&2
	tw_kernel_apt_install "linux-image-$rel-unsigned=$version" ||
		die "apt-get install of linux-image-$rel-unsigned $version failed (apt-get update?)"
	installed || die "$rel installed, but /boot/vmlinuz-$rel or its modules are missing"
fi
echo "$rel"
