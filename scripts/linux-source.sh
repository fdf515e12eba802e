#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Debian's linux-source-SERIES tarball for a series the host has none of
# (7.3, for the tests of make check-7's kernel: scripts/linux-src.sh
# SERIES extracts from it), fetched, never installed, from the suite
# that serves the series' kernels (tw_kernel_suite: trixie-backports for
# 7.x, through lists of its own; the host's apt sources otherwise) and
# unpacked into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/source/<version>/
# outside the clone.  A 'done' stamp ends it; concurrent runs wait for
# each other (flock).
#
# Usage: scripts/linux-source.sh SERIES
# Prints the tarball's path on stdout; what it does goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"
# shellcheck source=scripts/debian-kernel.sh
. "$here/debian-kernel.sh"

die() { echo "linux-source: $*" >&2; exit 1; }

series=${1:?usage: linux-source.sh SERIES (7.3)}
[[ $series =~ ^[0-9]+\.[0-9]+$ ]] || die "'$series' is not a series (7.3)"
pkg=linux-source-$series
suite=$(tw_kernel_suite "$series")
if [ -n "$suite" ]; then
	tw_apt_suite "$suite" "$(dpkg --print-architecture)" ||
		die "apt-get update of $suite failed"
fi
version=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null |
	awk '/^Version:/ { print $2; exit }')
[ -n "$version" ] ||
	die "no $pkg in the apt lists${suite:+ of $suite} (apt-get update?)"

cache=$(tw_cache_dir)/source
dir=$cache/$version
tarball=$dir/usr/src/$pkg.tar.xz
mkdir -p "$cache"
exec 9> "$cache/.lock-$version"
flock 9
if [ ! -f "$dir/done" ]; then
	rm -rf "$dir"
	echo "linux-source: fetching $pkg $version${suite:+ from $suite}" >&2
	tw_deb_unpack "$dir" "$pkg=$version" || die "fetching $pkg $version failed"
	[ -r "$tarball" ] || die "no $tarball in $pkg $version"
	touch "$dir/done"
fi
echo "$tarball"
