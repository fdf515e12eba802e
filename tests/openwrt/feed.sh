# shellcheck shell=bash disable=SC2154 # root, build and dl: the caller's
# SPDX-License-Identifier: GPL-2.0
#
# The OpenWrt feed (packaging/openwrt/net/timewire) run as an SDK would,
# with the stand-ins of tests/openwrt/stub/: sourced by test_feed.sh and
# boot/test_router_boot.sh, which set
#   root     the source tree
#   build    BUILD_DIR: the build, and each package's tree in
#            $build/root/<package>/
#   dl       DL_DIR, where feed_sources puts the release tarball
#   kdir     LINUX_DIR, the kernel tree the modules are built against
#            (scripts/cross-kernel.sh mips or malta-be)
# and read version and staging (libnl-tiny's prefix) from feed_sources.

feed=$root/packaging/openwrt/net/timewire
cross=mips-linux-gnu-

# owrt GOAL [VAR=VALUE...]: the feed's make with the stand-ins.
owrt() {
	local goal=$1
	shift
	nice -n 19 make -s -C "$feed" TOPDIR="$root/tests/openwrt/stub" \
		BUILD_DIR="$build" DL_DIR="$dl" STAGING_DIR="${staging:-$dl/none}" \
		LINUX_DIR="${kdir:-$dl/none}" TARGET_CROSS="$cross" ARCH=mips \
		"$@" "$goal"
}

# feed_sources: the release tarball of make dist in $dl, libnl-tiny
# cross-built for MIPS ($staging), the version ($version).
feed_sources() {
	version=$("$root/scripts/version.sh") &&
	make -s -C "$root" dist &&
	mkdir -p "$dl" && cp "$root/.build/timewire-$version.tar.gz" "$dl/" &&
	staging=$("$root/scripts/libnl-tiny.sh" --cross "$cross")
}
