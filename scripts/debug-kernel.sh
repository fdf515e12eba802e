#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The debug kernel of make check-debug: the test kernel's own source
# (linux-source-6.12, the version scripts/kernel-version.sh picks) built
# with a small guest config, every suite's config and requires.config and
# the kernel's checkers (scripts/debug-kernel.config).
#
# Cached outside the clone, under
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/debug-kernel/<version>-<hash>/
# keyed by the test kernel's version and a hash of the final fragment: a
# built machine pays nothing, a changed fragment builds a new tree.
#
# Usage: scripts/debug-kernel.sh [build|dir|image|release|fragment]
#   build     build the kernel if it is missing (the default); print its dir
#   dir       print the cache dir (built or not)
#   image     print the bzImage's path, fail if not built
#   release   print the kernel release (uname -r in the guest), fail if not built
#   fragment  print the final fragment
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-version.sh"
# shellcheck source=scripts/kconfig.sh
. "$top/scripts/kconfig.sh"

tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
cache=${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/debug-kernel
kver=$(tw_kernel_installed) || { echo "debug-kernel: no test kernel installed (make deps)" >&2; exit 1; }

# The suites' options first: the main fragment builds them in (=y) where a
# suite is content with a module.
fragment() {
	echo "# suites: every tests/*/config and */requires.config"
	tw_kconfig_suites "$top"
	cat "$top/scripts/debug-kernel.config"
}

hash=$( { echo "$kver"; fragment; } | sha256sum | cut -c1-12)
dir=$cache/$kver-$hash
tree=$dir/linux

configure() {
	fragment > "$dir/fragment.config"
	# The kernel release names this kernel apart from the stock one.
	echo 'CONFIG_LOCALVERSION="-twdebug"' >> "$dir/fragment.config"
	(cd "$tree" && KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m \
		arch/x86/configs/x86_64_defconfig kernel/configs/kvm_guest.config \
		"$dir/fragment.config" > "$dir/merge.log" 2>&1)
	make -s -C "$tree" olddefconfig >> "$dir/merge.log" 2>&1
	tw_kconfig_require debug-kernel "$dir/fragment.config" "$tree/.config"
}

build() {
	local start

	[ -f "$dir/built" ] && return 0
	echo "debug-kernel: building $kver with checkers in $dir (1-2 h on 2 cores)" >&2
	# An interrupted build goes on where it stopped.
	if [ ! -f "$dir/extracted" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		tar -xJf "$tarball" -C "$tree" --strip-components=1
		touch "$dir/extracted"
	fi
	configure
	start=$(date +%s)
	# Idle priority: the machine's other work comes first.
	nice -n 19 make -C "$tree" -j"$(nproc)" all > "$dir/build.log" 2>&1 || {
		tail -n 30 "$dir/build.log" >&2
		echo "debug-kernel: build failed, see $dir/build.log" >&2
		return 1
	}
	echo "$(( $(date +%s) - start ))" > "$dir/build-seconds"
	# The modules directory vng gives the guest (boots side by side must
	# not each make it).
	(cd "$tree" && virtme-prep-kdir-mods) >> "$dir/build.log" 2>&1
	make -s -C "$tree" kernelrelease > "$dir/release"
	touch "$dir/built"
	echo "debug-kernel: built $(cat "$dir/release") in $(cat "$dir/build-seconds")s" >&2
}

built() {
	[ -f "$dir/built" ] || { echo "debug-kernel: not built: scripts/debug-kernel.sh build" >&2; exit 1; }
}

case ${1:-build} in
build)
	mkdir -p "$dir"
	# One build per key, however many callers.
	exec 9> "$dir.lock"
	flock 9
	build
	echo "$dir"
	;;
dir) echo "$dir" ;;
image) built; echo "$tree/arch/x86/boot/bzImage" ;;
release) built; cat "$dir/release" ;;
fragment) fragment ;;
*) echo "usage: $0 [build|dir|image|release|fragment]" >&2; exit 2 ;;
esac
