#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A Debian 12 (bookworm) root in which the Debian packages are built
# (dpkg-buildpackage, lintian) and installed, and in which DKMS builds the
# modules, since dpkg and dkms rewrite /lib/modules and /var/lib/dkms,
# which the host's must not be.  Made once with mmdebstrap from Debian's
# archive into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/chroot/bookworm-<arch>-<list>/
# outside the clone, with a 'done' stamp naming its packages: the tools
# below and debian/control's Build-Depends.  <list> is a hash of that
# package list, so that a tree with another list has a root of its own.
# Concurrent runs wait for each other (flock) while the root is made.
#
# Usage: scripts/deb-chroot.sh                   print the root, made if missing
#        scripts/deb-chroot.sh run STATE CMD [ARG]...
#   runs CMD as root in the root seen through an overlay whose writes
#   (dpkg's, dkms's, /lib/modules) land in STATE/upper: the cached root
#   stays as it was made, and the next run with the same STATE finds them.
#   This tree (read and written) and the cached kernel headers (read only,
#   scripts/kernel-headers.sh) are mounted at their own paths; CMD starts
#   in the current directory, which should lie in one of them.  The mounts
#   live in a mount namespace of their own: they end with CMD.
#        scripts/deb-chroot.sh mount STATE CMD [ARG]...
#   runs CMD on the host, not in the root, with that overlay at
#   STATE/merged in such a namespace, this tree bound read only at its
#   path in it: a guest booted on STATE/merged sees the root as dpkg and
#   dkms left it (tests/deb/boot).
# Needs root (sudo otherwise); CMD runs as root, on the caller's PATH.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

arch=$(dpkg --print-architecture)
cache=$(tw_cache_dir)
die() { echo "deb-chroot: $*" >&2; exit 1; }

# debian/control's Build-Depends, one name a line: the first of each set
# of alternatives, without its version or architecture qualifiers (apt
# takes debhelper-compat for the debhelper that provides it).
build_depends() {
	awk '/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, ""); print; next }
	     on && /^[ \t]/ { print; next }
	     { on = 0 }' "$top/debian/control" | tr ',' '\n' |
		sed 's/|.*//; s/[[(<].*//; s/:any//; s/[ \t]//g' | grep .
}

# build-essential and the Build-Depends build the packages; lintian checks
# them; dkms (dh-dkms's postinst calls it) builds the modules, with kmod's
# depmod and modinfo, openssl for its signing key, and gcc-12 and pahole
# for the headers of Debian's kernels (their .kernelvariables and BTF);
# python3 runs timewire-bench's analysers where the package put them.
# The guest booted on this root (tests/deb/boot) needs the suites' own
# tools: iproute2, procps' sysctl, ethtool.
# shellcheck disable=SC2046 # one name a line
mapfile -t packages < <(printf '%s\n' build-essential lintian dkms kmod openssl \
	gcc-12 pahole python3 iproute2 procps ethtool $(build_depends) | sort -u)
[ ${#packages[@]} -gt 8 ] || die "no Build-Depends read from $top/debian/control"

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

stamp() { echo "bookworm $arch: ${packages[*]}"; }
root=$cache/chroot/bookworm-$arch-$(stamp | md5sum | cut -c1-8)

# Documentation stays: the packages installed here are checked as a user
# would have them.  No recommends: only what is listed, and its needs.
make_root() {
	tw_root_made "$root" "$(stamp)" --mode=root --variant=minbase \
		--aptopt='Acquire::Languages "none"' \
		--aptopt='APT::Install-Recommends "false"' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--architectures="$arch" --include="$(IFS=,; echo "${packages[*]}")" \
		bookworm "$root" "$(tw_debian_source bookworm)" || die "mmdebstrap of bookworm failed"
}

# overlay STATE: the root with STATE/upper's writes at STATE/merged.
overlay() {
	mkdir -p "$1/upper" "$1/work" "$1/merged"
	mount -t overlay overlay \
		-o "lowerdir=$root,upperdir=$1/upper,workdir=$1/work" "$1/merged"
}

# enter STATE CMD...: in the private mount namespace, as root.
enter() {
	local state=$1 merged=$1/merged dir
	shift
	overlay "$state"
	mount --rbind /proc "$merged/proc"
	for dir in "$top" "$cache/headers"; do
		mkdir -p "$merged$dir"
		mount --bind "$dir" "$merged$dir"
	done
	mount -o remount,bind,ro "$merged$cache/headers"
	exec chroot "$merged" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		sh -c 'cd "$1" && shift && exec "$@"' sh "$PWD" "$@"
}

case ${1:-} in
"")	make_root
	echo "$root" ;;
run | mount)
	[ $# -ge 3 ] || die "usage: $0 $1 STATE CMD [ARG]..."
	mode=$1
	state=$(mkdir -p "$2" && cd "$2" && pwd)
	shift 2
	make_root
	mkdir -p "$cache/headers"
	# The cache is named here: sudo may give the command another HOME.
	exec "${sudo_cmd[@]}" env TW_CACHE="$cache" PATH="$PATH" \
		unshare --mount --propagation private "$0" "__$mode" "$state" "$@" ;;
__run)	shift
	enter "$@" ;;
__mount) overlay "$2"
	# the tree too, read only, where the guest's programs find it
	mkdir -p "$2/merged$top"
	mount --bind "$top" "$2/merged$top"
	mount -o remount,bind,ro "$2/merged$top"
	shift 2
	exec "$@" ;;
*)	die "usage: $0 [run|mount STATE CMD [ARG]...]" ;;
esac
