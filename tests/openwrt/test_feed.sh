#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The OpenWrt feed's package Makefile (packaging/openwrt/net/timewire),
# evaluated with stand-ins for OpenWrt's rules.mk, include/package.mk and
# include/kernel.mk (stub/): its four packages and their fields, each
# module of the registry packaged by one kmod (FILES), omware and tfib
# probed at boot (AutoProbe), mptcp_qaware's DEPENDS and KCONFIG turning
# on each option of its requires.config, the CLI depending on
# libnl-tiny and the kmods, the release version by default.  Then, as the
# SDK would, its recipes build the release tarball of make dist for
# 32-bit big-endian MIPS (mips-linux-gnu-, the ath79 routers' CPU class)
# against the malta kernel tree of scripts/cross-kernel.sh and libnl-tiny
# cross-built into the cache, and each package's install writes the tree
# its .ipk/.apk would hold (left in .build/openwrt/build/root/): exactly
# the expected files, modules for that kernel (vermagic) with the
# release's version, a MIPS CLI linking libnl-tiny, which qemu-mips runs
# when installed.  A kernel tree without
# mptcp_qaware's options must refuse its package, as an SDK without BTF.
# A piece missing here (cross compiler, kernel source) skips the build
# half with the reason; the evaluation always runs.
#
# Prints TAP; exit 0 pass, 1 fail.
# Functions below run from tap_ok, which shellcheck cannot see.
# shellcheck disable=SC2317,SC2016
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/modules.sh
. "$root/scripts/modules.sh"
# shellcheck source=tests/openwrt/feed.sh
. "$here/feed.sh"

tmp=$(mktemp -d)
dl=$tmp/dl
trap 'rm -rf "$tmp"' EXIT
logs=$root/.build/openwrt
# The build, and the packages' trees in root/<package>/, stay after the
# test for a look or for a router of one's own; each run starts afresh.
build=$logs/build
rm -rf "$build"
mkdir -p "$logs"

# field PACKAGE FIELD: one field of make dump's output.
field() {
	awk -v p="$1" -v f="$2: " '
		/^Package: / { cur = substr($0, 10) }
		cur == p && index($0, f) == 1 { print substr($0, length(f) + 1) }' "$tmp/dump"
}

# has WORD LIST...: WORD is one of the blank-separated words.
has() {
	local w=$1
	shift
	# shellcheck disable=SC2048
	for x in $*; do [ "$x" = "$w" ] && return 0; done
	return 1
}

# The evaluation needs a kernel tree's release only: a fake one will do.
fake=$tmp/fake-kernel
mkdir -p "$fake/include/config"
touch "$fake/Makefile"
echo 6.12.0-fake > "$fake/include/config/kernel.release"

tap_plan 22

# --- the Makefile evaluated -----------------------------------------------------
kdir=$fake
tap_ok "make dump evaluates the feed's Makefile" \
	eval 'owrt dump > "$tmp/dump" 2> "$tmp/dump.err" || { sed "s/^/# /" "$tmp/dump.err"; false; }'
pkgs=$(sed -n 's/^Package: //p' "$tmp/dump" | tr '\n' ' ')
tap_is "four packages: three kmods and the CLI" \
	"kmod-timewire-omware kmod-timewire-tfib kmod-timewire-qaware timewire " "$pkgs"

# Each module of modules.list, as kmod-timewire-<family>: FILES its .ko.
kmods_whole() {
	local name dir family rest files bad=0
	while read -r name dir family rest; do
		files=$(field "kmod-timewire-$family" FILES)
		[ "$files" = "$build/linux-6.12.0-fake/timewire-$(cat "$root/VERSION")/$dir/$name.ko" ] ||
			{ tap_diag "kmod-timewire-$family FILES: '$files'"; bad=1; }
		[ "$(field "kmod-timewire-$family" SECTION)" = kernel ] ||
			{ tap_diag "kmod-timewire-$family: not SECTION kernel"; bad=1; }
	done < <(tw_modules_table)
	return $bad
}
tap_ok "each module of the registry is kmod-timewire-<family>, FILES its <dir>/<name>.ko" kmods_whole
tap_is "omware probed at boot (AutoProbe)" 'probe_module "omware" "";' \
	"$(field kmod-timewire-omware AUTOLOAD)"
tap_is "tfib probed at boot (AutoProbe)" 'probe_module "tfib" "";' \
	"$(field kmod-timewire-tfib AUTOLOAD)"
tap_is "mptcp_qaware not loaded by kmodloader (it needs timewire qaware load)" "" \
	"$(field kmod-timewire-qaware AUTOLOAD)"

# requires.config's options, each as OpenWrt turns it on: a package or a
# menu option in DEPENDS, or (KALLSYMS_ALL, which OpenWrt forces off
# otherwise) the package's KCONFIG.
qaware_depends() {
	local opt want bad=0 deps
	deps="$(field kmod-timewire-qaware DEPENDS) $(field kmod-timewire-qaware KCONFIG)"
	for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$root/mptcp-qaware/requires.config"); do
		case $opt in
		CONFIG_MPTCP) want=+kmod-mptcp ;;
		CONFIG_DEBUG_INFO_BTF) want=@KERNEL_DEBUG_INFO_BTF ;;
		CONFIG_KALLSYMS_ALL) want="@KERNEL_KALLSYMS CONFIG_KALLSYMS_ALL=y" ;;
		*) tap_diag "$opt: no OpenWrt way to turn it on known here (add one, and to the feed)"
		   bad=1; continue ;;
		esac
		for w in $want; do
			has "$w" "$deps" || { tap_diag "$opt: DEPENDS or KCONFIG lacks $w"; bad=1; }
		done
	done
	has @!LINUX_6_1 "$deps" || { tap_diag "DEPENDS lets 6.1 build it (6.6 needed)"; bad=1; }
	return $bad
}
tap_ok "mptcp_qaware's DEPENDS and KCONFIG cover requires.config (MPTCP, BTF, KALLSYMS_ALL), 6.6" \
	qaware_depends
tap_ok "every kmod excludes kernels before 6.1 (@!LINUX_5_15)" \
	eval 'for p in omware tfib qaware; do has @!LINUX_5_15 "$(field kmod-timewire-$p DEPENDS)" || exit 1; done'
cli_depends() {
	local deps
	deps=$(field timewire DEPENDS)
	has +libnl-tiny "$deps" && has +kmod-timewire-omware "$deps" &&
		has +kmod-timewire-tfib "$deps" && ! has +kmod-timewire-qaware "$deps"
}
tap_ok "the CLI depends on libnl-tiny, omware and tfib, not qaware (BTF)" cli_depends
tap_ok "/etc/config/timewire and /etc/timewire/ are conffiles" \
	eval 'has /etc/config/timewire "$(field timewire Conffiles)" &&
	      has /etc/timewire/ "$(field timewire Conffiles)"'
tap_is "the release's version by default (VERSION)" "$(cat "$root/VERSION")-r1" \
	"$(field timewire VERSION)"

# --- the recipes run for MIPS -----------------------------------------------------
build_results=11
skip_build() {
	local i
	for ((i = 0; i < build_results; i++)); do
		tap_skip "the feed's recipes for 32-bit big-endian MIPS" "$1"
	done
	tap_done
}
command -v "${cross}gcc" >/dev/null || skip_build "${cross}gcc not installed (make deps)"
[ -r /usr/src/linux-source-6.12.tar.xz ] || skip_build "linux-source-6.12 not installed (make deps)"
command -v git >/dev/null && [ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$root" ] ||
	skip_build "not a git checkout: make dist packs git's files"

# step NAME DESC CMD...: one result, its output in $logs/NAME.log.
step() {
	local name=$1
	shift
	tap_step "$logs/$name.log" "$@"
}
prepare() {
	feed_sources > "$logs/dist.out" &&
	kdir=$("$root/scripts/cross-kernel.sh" mips)
}
kdir=
if ! step prepare "make dist's tarball, libnl-tiny for MIPS, the malta kernel tree (big endian)" prepare; then
	build_results=10
	skip_build "nothing to build with"
fi
release=$(cat "$kdir/include/config/kernel.release")
start=$(date +%s)
if ! step compile "Build/Compile: the modules and the CLI for MIPS (TIMEWIRE_VERSION=$version)" \
	owrt compile TIMEWIRE_VERSION="$version"; then
	build_results=9
	skip_build "the build failed"
fi
tap_diag "built in $(($(date +%s) - start)) s"

pkgroot=$build/root
for p in kmod-timewire-omware kmod-timewire-tfib timewire; do
	owrt "package-$p" TIMEWIRE_VERSION="$version" > "$logs/package-$p.log" 2>&1 ||
		sed 's/^/# /' "$logs/package-$p.log"
done
cat > "$tmp/want" <<EOF
kmod-timewire-omware/etc/modules.d/timewire-omware
kmod-timewire-omware/lib/modules/$release/omware.ko
kmod-timewire-tfib/etc/modules.d/timewire-tfib
kmod-timewire-tfib/lib/modules/$release/tfib.ko
timewire/etc/config/timewire
timewire/etc/init.d/timewire
timewire/usr/sbin/timewire
EOF
(cd "$pkgroot" 2>/dev/null && find . \( -type f -o -type l \) -printf '%P\n' | sort) > "$tmp/got"
same() {	# same WANT GOT: equal files, the difference shown when not
	diff -u "$1" "$2" > "$tmp/diff" && return 0
	sed 's/^/# /' "$tmp/diff"
	return 1
}
tap_ok "the packages hold exactly the CLI, its configuration, init script, the two modules and their lists" \
	same "$tmp/want" "$tmp/got"
tap_ok "modules.d lists each module for kmodloader" \
	eval '[ "$(cat "$pkgroot"/kmod-timewire-omware/etc/modules.d/timewire-omware)" = omware ] &&
	      [ "$(cat "$pkgroot"/kmod-timewire-tfib/etc/modules.d/timewire-tfib)" = tfib ]'

# A qaware package is refused when the tree lacks its options, and made
# when it has them.
package_qaware() {
	owrt package-kmod-timewire-qaware TIMEWIRE_VERSION="$version" \
		> "$logs/package-qaware.log" 2>&1
}
if missing=$(tw_module_missing mptcp-qaware "$kdir/.config"); then
	# Refused for the module Kbuild did not build, not for any failure.
	tap_ok "kmod-timewire-qaware refused: the tree lacks $(echo $missing)" \
		eval '! package_qaware && grep -q "mptcp_qaware.ko missing" "$logs/package-qaware.log"'
else
	tap_ok "kmod-timewire-qaware made: the tree has its options" package_qaware
fi

mips_elf() {	# mips_elf FILE: a 32-bit big-endian MIPS ELF
	local h
	h=$("${cross}readelf" -h "$1" 2>/dev/null) || return 1
	grep -q ELF32 <<<"$h" && grep -q "big endian" <<<"$h" && grep -q MIPS <<<"$h"
}
kos_right() {
	local ko bad=0
	for ko in "$pkgroot"/kmod-*/lib/modules/"$release"/*.ko; do
		mips_elf "$ko" || { tap_diag "${ko##*/}: not a big-endian MIPS object"; bad=1; }
		case $(modinfo -F vermagic "$ko") in
		"$release "*) ;;
		*) tap_diag "${ko##*/}: vermagic $(modinfo -F vermagic "$ko")"; bad=1 ;;
		esac
		[ "$(modinfo -F version "$ko")" = "$version" ] ||
			{ tap_diag "${ko##*/}: version $(modinfo -F version "$ko")"; bad=1; }
	done
	return $bad
}
tap_ok "the modules: big-endian MIPS, vermagic $release, version $version" kos_right
cli=$pkgroot/timewire/usr/sbin/timewire
needed=$("${cross}readelf" -d "$cli" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
tap_ok "the CLI: big-endian MIPS, linking libnl-tiny, not libnl-3 ($needed)" \
	eval 'mips_elf "$cli" && grep -q "libnl-tiny.so" <<<"$needed" && ! grep -q "libnl-\(genl-\)\?3" <<<"$needed"'
tap_ok "the init script is executable, the configuration root's only (0600)" \
	eval '[ -x "$pkgroot/timewire/etc/init.d/timewire" ] &&
	      [ "$(stat -c %a "$pkgroot/timewire/etc/config/timewire")" = 600 ]'
# The init script runs the CLI from where the package puts it.
init_cli=$(sed -n 's/^TIMEWIRE=\${TIMEWIRE:-\(.*\)}$/\1/p' "$feed/files/timewire.init")
tap_ok "the init script's timewire, ${init_cli:-(none)}, is the packaged CLI" \
	test -n "$init_cli" -a "$pkgroot/timewire$init_cli" -ef "$cli"
tap_ok "nothing of bench/ in any package" \
	eval '! grep -E "(^|/)(tw-|twbench)" "$tmp/got" | sed "s/^/# /" | grep .'
if command -v qemu-mips >/dev/null; then
	tap_is "the packaged CLI runs (qemu-mips): timewire version" "timewire version $version" \
		"$(qemu-mips -L /usr/mips-linux-gnu -E LD_LIBRARY_PATH="$staging/lib" "$cli" version 2>/dev/null | head -n 1)"
else
	tap_skip "the packaged CLI runs (qemu-mips)" "qemu-user not installed"
fi
tap_done
