#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch the headers of one of Debian's kernels, without installing them, so
# that the modules can be compiled for a kernel the host does not run:
# linux-headers-<abi>-<arch>, linux-headers-<abi>-common and the matching
# linux-kbuild-<series>, unpacked with dpkg-deb into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/headers/<version>-<arch>/
# outside the clone.  A finished tree has a 'done' stamp: a second run only
# prints it.  Concurrent runs wait for each other (flock).
#
# Usage: scripts/kernel-headers.sh [SERIES|ABI] [ARCH]
#   SERIES  6.1 (default), 6.12...: the newest ABI of that series the
#           configured apt sources offer
#   ABI     6.1.0-57, 6.12.117+deb12...: that one
#   ARCH    amd64 (default), arm64...
# Prints the kernel build directory (KDIR, for make -C KDIR M=...) on
# stdout; what it does goes to stderr.
set -euo pipefail

want=${1:-6.1}
arch=${2:-amd64}
cache=${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/headers

die() { echo "kernel-headers: $*" >&2; exit 1; }

# newest_abi SERIES: the newest ABI of SERIES with headers for $arch.
newest_abi() {
	apt-cache pkgnames "linux-headers-$1." |
		grep -E "^linux-headers-${1//./\\.}\.[0-9]+(-[0-9]+|\+deb[0-9]+)-$arch\$" |
		sed "s/^linux-headers-//; s/-$arch\$//" | sort -V | tail -n 1
}

case $want in
*.*.*) abi=$want ;;
*.*) abi=$(newest_abi "$want")
     [ -n "$abi" ] || die "no linux-headers-$want.*-$arch in the apt lists (apt-get update?)"
     echo "kernel-headers: newest $want for $arch: $abi" >&2 ;;
*) die "'$want' is neither a series (6.1) nor an ABI (6.1.0-57)" ;;
esac
series=$(echo "$abi" | cut -d. -f1-2)
headers=linux-headers-$abi-$arch
version=$(apt-cache show --no-all-versions "$headers" 2>/dev/null |
	  awk '/^Version:/ { print $2; exit }')
[ -n "$version" ] || die "$headers is not in the apt lists"

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
		"linux-headers-$abi-common=$version" \
		"linux-kbuild-$series=$version") >&2 ||
		die "apt-get download of $headers $version failed"
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir"
	done
	# Absolute links point into the host's /usr: point them into the cache.
	find "$dir" -type l -lname '/*' -print | while read -r link; do
		ln -sfn "$dir$(readlink "$link")" "$link"
	done
	# The arch tree's Makefile includes the common tree's by absolute path.
	sed -i "s|^include /usr/src/|include $dir/usr/src/|" "$kdir/Makefile"
	[ -f "$kdir/Makefile" ] && [ -d "$kdir/scripts/" ] ||
		die "$kdir is not a kernel build tree"
	rm -rf "$dir/debs"
	touch "$dir/done"
fi
echo "$kdir"
