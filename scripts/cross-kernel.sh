#!/usr/bin/env bash
# Prepare a kernel build tree for another architecture from Debian's
# linux-source-6.12 tarball, so that the modules can be compile-checked
# for it: 32-bit big-endian MIPS (malta, the OpenWrt router case).
# The trees live outside the clone, in
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/cross/<tarball>-<size>/
# so that every clone of a machine shares them; runs wait for each other
# (flock).
#
# Usage: scripts/cross-kernel.sh [mips]
# Prints the prepared build directory (for make -C DIR M=...).  Idempotent:
# a stamp records the tarball and this script's settings.
set -euo pipefail
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
target=${1:-mips}

case $target in
mips)
	arch=mips
	cross=mips-linux-gnu-
	defconfig=malta_defconfig
	# malta defaults to little endian; the routers are big endian.
	config=(-e CPU_BIG_ENDIAN -d CPU_LITTLE_ENDIAN -e MODULES -e NET
		-e INET -e HIGH_RES_TIMERS)
	;;
*)
	echo "cross-kernel: unknown target '$target'" >&2
	exit 2 ;;
esac

[ -r "$tarball" ] || { echo "cross-kernel: $tarball missing (run make deps)" >&2; exit 1; }
command -v "${cross}gcc" >/dev/null ||
	{ echo "cross-kernel: ${cross}gcc missing (run make deps)" >&2; exit 1; }

src_want="$(stat -c '%s %Y' "$tarball")"
cache=${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/cross
cache+=/$(basename "$tarball" .tar.xz)-$(stat -c %s "$tarball")
src=$cache/linux
out=$cache/$target-kernel
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9
out_want="$src_want $defconfig ${config[*]}"

if [ ! -f "$src/.stamp" ] || [ "$(cat "$src/.stamp")" != "$src_want" ]; then
	echo "cross-kernel: extracting $tarball" >&2
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	echo "$src_want" > "$src/.stamp"
fi

if [ ! -f "$out/.stamp" ] || [ "$(cat "$out/.stamp")" != "$out_want" ]; then
	echo "cross-kernel: preparing $arch ($defconfig) in $out" >&2
	rm -rf "$out"
	mkdir -p "$out"
	kmake=(make -s -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross")
	"${kmake[@]}" "$defconfig" >/dev/null
	"$src/scripts/config" --file "$out/.config" "${config[@]}"
	"${kmake[@]}" olddefconfig >/dev/null
	"${kmake[@]}" -j"$(nproc)" modules_prepare >/dev/null
	echo "$out_want" > "$out/.stamp"
fi
echo "$out"
