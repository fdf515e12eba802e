#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# libnl-tiny, the netlink library OpenWrt ships instead of libnl-3, built
# from its source tarball (CMake) for make LIBNL=libnl-tiny and its host
# suite (tests/libnl-tiny).  Nothing of it enters the tree: it is unpacked,
# built and installed outside the clone, under
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/libnl-tiny/<name>/
# keyed by the tarball's name (libnl-tiny-<rev>).  A finished prefix has a
# 'done' stamp: a second run only prints it.  Concurrent runs wait for each
# other (flock).
#
# Usage: scripts/libnl-tiny.sh [--cross PREFIX] [TARBALL]
#   PREFIX   a cross compiler's prefix (mips-linux-gnu-, what OpenWrt's
#            feed test links the router's CLI with): built with
#            PREFIXgcc into <name>-<triplet>/ beside the host's
#   TARBALL  default $LIBNL_TINY_TARBALL, else the newest
#            libnl-tiny-*.tar.gz in $TW_VENDOR, by default ../shared/vendor
#            beside the source tree
# Prints the install prefix on stdout (libnl-tiny.pc in <prefix>/lib/pkgconfig);
# what it does goes to stderr.
set -euo pipefail

die() { echo "libnl-tiny: $*" >&2; exit 1; }

top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cross=
if [ "${1:-}" = --cross ]; then
	cross=$2
	shift 2
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not installed"
fi
vendor=${TW_VENDOR:-$top/../shared/vendor}
tarball=${1:-${LIBNL_TINY_TARBALL:-}}
if [ -z "$tarball" ]; then
	tarball=$(find "$vendor" -maxdepth 1 -name 'libnl-tiny-*.tar.gz' 2>/dev/null |
		  sort -V | tail -n 1) || true
	[ -n "$tarball" ] || die "no libnl-tiny-*.tar.gz in $vendor (set LIBNL_TINY_TARBALL or TW_VENDOR)"
fi
[ -r "$tarball" ] || die "$tarball: not readable"
command -v cmake >/dev/null || die "cmake not installed (make deps)"

name=$(basename "$tarball" .tar.gz)${cross:+-${cross%-}}
cache=${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/libnl-tiny
dir=$cache/$name
# CMake cross-compiles when told the system and the compiler.
cross_args=()
[ -z "$cross" ] || cross_args=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_C_COMPILER="${cross}gcc")
mkdir -p "$cache"
exec 9> "$cache/.lock-$name"
flock 9
if [ ! -f "$dir/done" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/src"
	echo "libnl-tiny: building $name into $dir" >&2
	tar -xzf "$tarball" -C "$dir/src" --strip-components=1
	# lib/, not lib/<multiarch>/: the prefix's layout is the same everywhere.
	if ! { cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_INSTALL_PREFIX="$dir/prefix" \
			-DCMAKE_INSTALL_LIBDIR=lib "${cross_args[@]}" &&
	       cmake --build "$dir/build" -j "$(nproc)" &&
	       cmake --install "$dir/build"; } > "$dir/build.log" 2>&1; then
		tail -n 20 "$dir/build.log" >&2
		die "build failed, see $dir/build.log"
	fi
	[ -f "$dir/prefix/lib/pkgconfig/libnl-tiny.pc" ] ||
		die "no libnl-tiny.pc installed in $dir/prefix"
	rm -rf "$dir/src" "$dir/build"
	touch "$dir/done"
fi
echo "$dir/prefix"
