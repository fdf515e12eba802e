#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A Debian 13 (trixie) root with what an out-of-tree module build needs,
# for the kernels whose kbuild tools (objtool, modpost, the gcc-14 they
# expect) are linked against trixie's glibc and do not run on the host:
# made once with mmdebstrap from Debian's archive into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/chroot/trixie-<arch>-<list>/
# outside the clone, with a 'done' stamp naming its packages.  <list> is
# a hash of that package list: a checkout with another list (an older
# branch beside a newer one) has a root of its own instead of making this
# one again while it may be in use.  Concurrent runs wait for each other
# (flock).
#
# Usage: scripts/trixie-root.sh [--cross ARCH]   print the root, made if missing
#        scripts/trixie-root.sh [--cross ARCH] run CMD [ARG]...
#   --cross ARCH: a root of its own, trixie-<arch>-ARCH, with trixie's
#   cross compiler for ARCH too (gcc-arm-linux-gnueabihf for armhf), so
#   that only the builds for ARCH pay for it.
#   runs CMD in the root as the calling user, with this tree (read and
#   written) and the cached kernel headers (read only) mounted at their
#   own paths, in the current directory (which should lie in one of
#   them).  The mounts live in a mount namespace of their own: they end
#   with CMD, whatever way it ends.
#   Compiles go through ccache (Debian's headers call it when
#   DEBIAN_KERNEL_USE_CCACHE is set), its cache beside the root: a
#   rebuild of unchanged sources is quick and still shows their warnings.
# Needs root (sudo otherwise).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

cross=
if [ "${1:-}" = --cross ]; then
	cross=${2:?--cross needs an architecture}
	shift 2
fi
arch=$(dpkg --print-architecture)
cache=$(tw_cache_dir)
ccache=$cache/chroot/ccache-trixie-$arch
# gcc-14 and binutils are what the headers' .kernelvariables name; libelf,
# libssl and zlib what linux-kbuild's tools link to; pahole writes the
# modules' BTF; bc, flex, bison and kmod what kbuild may call; gcc
# (kbuild's HOSTCC), libbpf-dev and pkgconf what mptcp_qaware's
# btf-layout, a host program, builds with.
packages=(gcc-14 make libc6-dev libelf-dev libssl-dev zlib1g bc flex bison
	  pahole kmod ccache gcc libbpf-dev pkgconf)
if [ -n "$cross" ]; then
	triplet=$(dpkg-architecture -a "$cross" -q DEB_HOST_GNU_TYPE 2>/dev/null) ||
		{ echo "trixie-root: unknown architecture '$cross'" >&2; exit 1; }
	# perl: W=1 runs kernel-doc, a perl script before 6.17, and the
	# cross builds are for 6.12.
	packages+=("gcc-$triplet" perl)
fi

die() { echo "trixie-root: $*" >&2; exit 1; }

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

stamp() { echo "trixie $arch: ${packages[*]}"; }
root=$cache/chroot/trixie-$arch${cross:+-$cross}-$(stamp | md5sum | cut -c1-8)

make_root() {
	tw_root_made "$root" "$(stamp)" "${tw_mmdebstrap_opts[@]}" --variant=minbase \
		--architectures="$arch" --include="$(IFS=,; echo "${packages[*]}")" \
		trixie "$root" "$(tw_debian_source trixie)" || die "mmdebstrap of trixie failed"
}

# enter CALLER CMD...: in the private mount namespace, as root.
enter() {
	local caller=$1 dir
	shift
	mount --rbind /proc "$root/proc"
	for dir in "$top" "$cache/headers" "$ccache"; do
		mkdir -p "$root$dir"
		mount --bind "$dir" "$root$dir"
	done
	mount -o remount,bind,ro "$root$cache/headers"
	exec chroot --userspec="$caller" "$root" /usr/bin/env \
		PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp \
		DEBIAN_KERNEL_USE_CCACHE=1 CCACHE_DIR="$ccache" \
		sh -c 'cd "$1" && shift && exec "$@"' sh "$PWD" "$@"
}

case ${1:-} in
"")	make_root
	echo "$root" ;;
run)	shift
	[ $# -gt 0 ] || die "run: which command?"
	make_root
	mkdir -p "$cache/headers" "$ccache"
	# The cache is named here: sudo may give the command another HOME.
	exec "${sudo_cmd[@]}" env TW_CACHE="$cache" \
		unshare --mount --propagation private \
		"$0" ${cross:+--cross "$cross"} __enter "$(id -u):$(id -g)" "$@" ;;
__enter) shift
	enter "$@" ;;
*)	die "usage: $0 [--cross ARCH] [run CMD [ARG]...]" ;;
esac
