#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch the headers of one of Debian's kernels, without installing them, so
# that the modules can be compiled for a kernel the host does not run:
# linux-headers-<abi>-<arch> and the packages of the same build it depends
# on (its -common headers, linux-kbuild, the base files where there are
# some), unpacked with dpkg-deb into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/headers/<version>-<arch>/
# outside the clone.  A finished tree has a 'done' stamp: a second run only
# prints it.  Concurrent runs wait for each other (flock).
#
# Usage: scripts/kernel-headers.sh [--suite SUITE] [SERIES|ABI] [ARCH]
#   SUITE   look in that suite of Debian's archive alone (trixie-backports),
#           through lists of its own (scripts/debian-archive.sh), not in
#           the apt sources the host is configured with
#   SERIES  6.1 (default), 6.12, 7...: the newest ABI of that series found
#   ABI     6.1.0-57, 6.12.117+deb12...: that one
#   ARCH    amd64 (default), arm64...
# Prints the kernel build directory (KDIR, for make -C KDIR M=...) on
# stdout; what it does goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

suite=
if [ "${1:-}" = --suite ]; then
	suite=${2:?--suite needs a suite}
	shift 2
fi
want=${1:-6.1}
arch=${2:-amd64}
cache=$(tw_cache_dir)/headers

die() { echo "kernel-headers: $*" >&2; exit 1; }

if [ -n "$suite" ]; then
	tw_apt_suite "$suite" "$arch" || die "apt-get update of $suite failed"
fi

# newest_abi SERIES: the newest ABI of SERIES (6.1, or 7 for every 7.x)
# with headers for $arch.
newest_abi() {
	apt-cache pkgnames "linux-headers-$1." |
		grep -E "^linux-headers-${1//./\\.}(\.[0-9]+)+(-[0-9]+|\+deb[0-9]+)-$arch\$" |
		sed "s/^linux-headers-//; s/-$arch\$//" | sort -V | tail -n 1
}

case $want in
*.*.*) abi=$want ;;
*.* | [0-9]*) abi=$(newest_abi "$want")
     [ -n "$abi" ] || die "no linux-headers-$want.*-$arch in the apt lists${suite:+ of $suite} (apt-get update?)"
     ;;
*) die "'$want' is neither a series (6.1, 7) nor an ABI (6.1.0-57)" ;;
esac
headers=linux-headers-$abi-$arch
version=$(apt-cache show --no-all-versions "$headers" 2>/dev/null |
	  awk '/^Version:/ { print $2; exit }')
[ -n "$version" ] || die "$headers is not in the apt lists"
[ "$want" = "$abi" ] ||
	echo "kernel-headers: newest $want for $arch${suite:+ in $suite}: $abi ($version)" >&2

# The packages of the same build the headers need: the build tree spans
# them, and a part of it may link to the base files.
mapfile -t deps < <(apt-cache show --no-all-versions "$headers" |
	sed -n 's/^Depends: //p' | tr ',' '\n' | awk '{ print $1 }' |
	grep -E '^linux-(headers|kbuild|base)-[0-9]')
# For another architecture the build tools (linux-kbuild) are the host's:
# they run here.
host=$(dpkg --print-architecture)
for i in "${!deps[@]}"; do
	[[ $arch != "$host" && ${deps[i]} == linux-kbuild-* ]] && deps[i]+=:$host
done
dir=$cache/$version-$arch
kdir=$dir/usr/src/$headers
mkdir -p "$cache"
exec 9> "$cache/.lock-$version-$arch"
flock 9
if [ ! -f "$dir/done" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	echo "kernel-headers: fetching $headers $version" >&2
	# apt-get download writes into the current directory.
	(cd "$dir/debs" && apt-get -q download "$headers=$version" \
		"${deps[@]/%/=$version}") >&2 ||
		die "apt-get download of $headers $version failed"
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir"
	done
	# Absolute links point into the host's /usr: point them into the cache.
	find "$dir" -type l -lname '/*' -print | while read -r link; do
		ln -sfn "$dir$(readlink "$link")" "$link"
	done
	# The arch tree's Makefile names the common tree (and from 7.x
	# itself, as the output tree) by absolute path.
	sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$dir/usr/src/#" "$kdir/Makefile"
	[ -f "$kdir/Makefile" ] && [ -d "$kdir/scripts/" ] ||
		die "$kdir is not a kernel build tree"
	rm -rf "$dir/debs"
	touch "$dir/done"
fi
echo "$kdir"
