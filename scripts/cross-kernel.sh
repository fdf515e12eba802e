#!/usr/bin/env bash
# Kernel trees for another architecture from Debian's linux-source-6.12
# tarball, for 32-bit big-endian MIPS (malta, the ath79-class OpenWrt
# router): no Debian kernel is built for it.
#   mips      a compile-check tree: malta_defconfig made big endian,
#             modules_prepare only (minutes)
#   malta-be  a bootable kernel for qemu-system-mips -M malta -cpu 24Kf:
#             allnoconfig, then every suite's config and requires.config,
#             then scripts/mips-be.config; vmlinux and Module.symvers built
#             (nice, -j2: 10 min on 2 idle cores, 40 loaded; paid once)
# The trees live outside the clone, in
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/cross/<tarball>-<size>/
# (mips-kernel/, malta-be-<fragment hash>/) so that every clone of a
# machine shares them; runs wait for each other (flock).
#
# Usage: scripts/cross-kernel.sh [mips|malta-be] [build|dir|fragment]
#   build     prepare or build the tree if missing; print its dir (default)
#   dir       print the tree's dir, built or not
#   fragment  print malta-be's final fragment
# Modules build against a tree with make -C DIR ARCH=mips
# CROSS_COMPILE=mips-linux-gnu- M=...; malta-be's DIR/vmlinux boots.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kconfig.sh
. "$top/scripts/kconfig.sh"

tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
target=${1:-mips}
action=${2:-build}
arch=mips
cross=mips-linux-gnu-

fragment() {
	echo "# suites: every tests/*/config and */requires.config"
	tw_kconfig_suites "$top"
	cat "$top/scripts/mips-be.config"
}

cache=${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/cross
cache+=/$(basename "$tarball" .tar.xz)-$(stat -c %s "$tarball" 2>/dev/null || echo none)
src=$cache/linux
case $target in
mips)
	out=$cache/mips-kernel ;;
malta-be)
	out=$cache/malta-be-$(fragment | sha256sum | cut -c1-12) ;;
*)
	echo "cross-kernel: unknown target '$target'" >&2
	exit 2 ;;
esac
case $action in
dir) echo "$out"; exit 0 ;;
fragment) fragment; exit 0 ;;
build) ;;
*) echo "usage: $0 [mips|malta-be] [build|dir|fragment]" >&2; exit 2 ;;
esac

[ -r "$tarball" ] || { echo "cross-kernel: $tarball missing (run make deps)" >&2; exit 1; }
command -v "${cross}gcc" >/dev/null ||
	{ echo "cross-kernel: ${cross}gcc missing (run make deps)" >&2; exit 1; }

kmake=(make -s -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross")

# The source, extracted once per tarball; the trees build outside it (O=).
extract() {
	local want

	want="$(stat -c '%s %Y' "$tarball")"
	[ -f "$src/.stamp" ] && [ "$(cat "$src/.stamp")" = "$want" ] && return 0
	echo "cross-kernel: extracting $tarball" >&2
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	echo "$want" > "$src/.stamp"
}

# malta_defconfig defaults to little endian; the routers are big endian.
prepare_mips() {
	local want config=(-e CPU_BIG_ENDIAN -d CPU_LITTLE_ENDIAN -e MODULES -e NET
		      -e INET -e HIGH_RES_TIMERS)

	want="$(cat "$src/.stamp") malta_defconfig ${config[*]}"
	[ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$want" ] && return 0
	echo "cross-kernel: preparing $arch (malta_defconfig) in $out" >&2
	rm -rf "$out"
	mkdir -p "$out"
	"${kmake[@]}" malta_defconfig >/dev/null
	"$src/scripts/config" --file "$out/.config" "${config[@]}"
	"${kmake[@]}" olddefconfig >/dev/null
	"${kmake[@]}" -j"$(nproc)" modules_prepare >/dev/null
	echo "$want" > "$out/.stamp"
}

configure_malta_be() {
	fragment > "$out/fragment.config"
	"${kmake[@]}" allnoconfig > "$out/merge.log" 2>&1
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
		fragment.config >> merge.log 2>&1)
	"${kmake[@]}" olddefconfig >> "$out/merge.log" 2>&1
	tw_kconfig_require cross-kernel "$out/fragment.config" "$out/.config"
}

build_malta_be() {
	local start

	[ -f "$out/built" ] && return 0
	echo "cross-kernel: building malta big endian in $out (10-40 min on 2 cores)" >&2
	mkdir -p "$out"
	configure_malta_be
	start=$(date +%s)
	# Idle priority and two jobs: the machine's other work comes first.
	nice -n 19 "${kmake[@]}" -j2 vmlinux modules > "$out/build.log" 2>&1 || {
		tail -n 30 "$out/build.log" >&2
		echo "cross-kernel: build failed, see $out/build.log" >&2
		return 1
	}
	echo "$(( $(date +%s) - start ))" > "$out/build-seconds"
	"${kmake[@]}" kernelrelease > "$out/release"
	touch "$out/built"
	echo "cross-kernel: built $(cat "$out/release") in $(cat "$out/build-seconds")s" >&2
}

mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9
extract
if [ "$target" = mips ]; then
	prepare_mips
else
	# The long build holds its own lock: the compile-check tree need not
	# wait for it.
	exec 8> "$out.lock"
	flock 8
	flock -u 9
	build_malta_be
fi
echo "$out"
