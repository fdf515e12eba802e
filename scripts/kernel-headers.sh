#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch the headers of one of Debian's kernels, without installing them, so
# that the modules can be compiled for a kernel the host does not run:
# linux-headers-<abi>-<flavour> and the packages of the same build it depends
# on (its -common headers, linux-kbuild, the base files where there are
# some), unpacked with dpkg-deb into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/headers/<version>-<flavour>/
# outside the clone.  A finished tree has a 'done' stamp: a second run only
# prints it.  Concurrent runs wait for each other (flock).
#
# Usage: scripts/kernel-headers.sh [--suite SUITE] [SERIES|ABI] [FLAVOUR]
#   SUITE   look in that suite of Debian's archive alone (trixie-backports),
#           through lists of its own (scripts/debian-archive.sh), not in
#           the apt sources the host is configured with
#   SERIES  6.1 (default), 6.12, 7, or a version (6.12.117): the newest
#           ABI of it found
#   ABI     6.1.0-57, 6.12.117+deb12...: that one
#   FLAVOUR amd64 (default), arm64, armmp (32-bit ARM, armhf), 4kc-malta
#           (32-bit little-endian MIPS, mipsel)...: one of
#           another architecture than the host's is for a cross build,
#           kbuild's tools still the host's
# Prints the kernel build directory (KDIR, for make -C KDIR M=...) on
# stdout; what it does goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"
# shellcheck source=scripts/debian-kernel.sh
. "$here/debian-kernel.sh"

suite=
if [ "${1:-}" = --suite ]; then
	suite=${2:?--suite needs a suite}
	shift 2
fi
want=${1:-6.1}
flavour=${2:-amd64}
cache=$(tw_cache_dir)/headers

die() { echo "kernel-headers: $*" >&2; exit 1; }

# The Debian architecture of a kernel flavour.
case $flavour in
*armmp*) arch=armhf ;;
*amd64) arch=amd64 ;;
*arm64*) arch=arm64 ;;
4kc-malta) arch=mipsel ;;
*) arch=$flavour ;;
esac

if [ -n "$suite" ]; then
	tw_apt_suite "$suite" "$arch" || die "apt-get update of $suite failed"
fi

pick=$(tw_debian_kernel "$want" "$flavour") ||
	die "no linux-headers-$want*-$flavour in the apt lists${suite:+ of $suite} (apt-get update?)"
read -r abi version <<< "$pick"
headers=linux-headers-$abi-$flavour
[ "$want" = "$abi" ] ||
	echo "kernel-headers: newest $want for $flavour${suite:+ in $suite}: $abi ($version)" >&2

# The packages of the same build the headers need: the build tree spans
# them, and a part of it may link to the base files.
mapfile -t deps < <(apt-cache show --no-all-versions "$headers" |
	sed -n 's/^Depends: //p' | tr ',' '\n' | awk '{ print $1 }' |
	grep -E '^linux-(headers|kbuild|base)-[0-9]')
# kbuild's tools run here: for another architecture, the host's build
# of them (PKG:amd64).
host=$(dpkg --print-architecture)
if [ "$arch" != "$host" ]; then
	for i in "${!deps[@]}"; do
		[[ ${deps[i]} != linux-kbuild-* ]] || deps[i]+=:$host
	done
fi
dir=$cache/$version-$flavour
kdir=$dir/usr/src/$headers
mkdir -p "$cache"
exec 9> "$cache/.lock-$version-$flavour"
flock 9
if [ ! -f "$dir/done" ]; then
	rm -rf "$dir"
	echo "kernel-headers: fetching $headers $version" >&2
	tw_deb_unpack "$dir" "$headers=$version" "${deps[@]/%/=$version}" ||
		die "fetching $headers $version failed"
	# Absolute links point into the host's /usr: point them into the cache.
	find "$dir" -type l -lname '/*' -print | while read -r link; do
		ln -sfn "$dir$(readlink "$link")" "$link"
	done
	# The arch tree's Makefile names the common tree (and from 7.x
	# itself, as the output tree) by absolute path.
	sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$dir/usr/src/#" "$kdir/Makefile"
	[ -f "$kdir/Makefile" ] && [ -d "$kdir/scripts/" ] ||
		die "$kdir is not a kernel build tree"
	touch "$dir/done"
fi
echo "$kdir"
