# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Debian's kernels by series (6.1): which one, from which suite, and
# installing its packages.  Sourced by kernel-headers.sh, kernel-image.sh,
# linux-source.sh and deps.sh; bash only (kernel-version.sh, which make
# sources with /bin/sh, stays POSIX).

# tw_debian_kernel SERIES|ABI [FLAVOUR]: print "ABI VERSION" of one of
# Debian's kernels in the apt lists (APT_CONFIG's, if set): a series (6.1;
# 7 for every 7.x; or one version, 6.12.117) names its newest ABI with
# headers for FLAVOUR (default amd64), an ABI (6.1.0-57, 6.12.117+deb13)
# itself; VERSION is its headers' package version.  The one choice of
# kernel-headers.sh and kernel-image.sh: the image booted is the build the
# modules were compiled against.
tw_debian_kernel() {
	local want=$1 flavour=${2:-amd64} abi version

	case $want in
	*[-+]*) abi=$want ;;
	[0-9]*)
		abi=$(apt-cache pkgnames "linux-headers-$want" |
			grep -E "^linux-headers-${want//./\\.}(\.[0-9]+)*(-[0-9]+|\+deb[0-9]+)-$flavour\$" |
			sed "s/^linux-headers-//; s/-$flavour\$//" | sort -V | tail -n 1) ;;
	*) echo "'$want' is neither a series (6.1, 7, 6.12.117) nor an ABI (6.1.0-57)" >&2
	   return 1 ;;
	esac
	[ -n "$abi" ] || return 1
	version=$(apt-cache show --no-all-versions "linux-headers-$abi-$flavour" 2>/dev/null |
		awk '/^Version:/ { print $2; exit }')
	[ -n "$version" ] && echo "$abi $version"
}

# tw_kernel_suite SERIES|ABI: the suite of Debian's archive serving the
# kernels of SERIES that the host's apt sources do not (trixie-backports
# for 7.x), read through lists of its own (debian-archive.sh); nothing
# for those the host's sources serve (6.1).
tw_kernel_suite() {
	case $1 in
	7 | 7.*) echo trixie-backports ;;
	esac
}

# tw_kernel_apt_install PKG=VERSION...: install a kernel's packages, as
# root (sudo otherwise).  The harness boots the image directly: the
# initramfs update (about a minute) is diverted away for the install.
tw_kernel_apt_install() {
	local sudo=() diverted=0 rc=0

	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	if [ ! -e /usr/sbin/update-initramfs.distrib ]; then
		"${sudo[@]}" dpkg-divert --local --rename --add /usr/sbin/update-initramfs >/dev/null
		"${sudo[@]}" ln -sf /bin/true /usr/sbin/update-initramfs
		diverted=1
	fi
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends -o DPkg::Lock::Timeout=600 "$@" >/dev/null || rc=$?
	if [ "$diverted" -eq 1 ]; then
		"${sudo[@]}" rm -f /usr/sbin/update-initramfs
		"${sudo[@]}" dpkg-divert --local --rename --remove /usr/sbin/update-initramfs >/dev/null
	fi
	return "$rc"
}
