#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The OpenWrt packages on a router, booted: the feed's recipes (feed.sh)
# build its packages against the bootable big-endian MIPS malta kernel
# (scripts/cross-kernel.sh malta-be), so that the modules' vermagic is
# the booted kernel's; exactly the files the packages hold (their FILES
# and installs), and libnl-tiny's shared library where OpenWrt's
# libnl-tiny package puts it (/usr/lib), are staged in one root
# (.build/openwrt/router/root), which tests/vm/vm.sh -a mips -r unpacks
# over the guest's initramfs root.  The guest runs the installed
# kselftest tree of the suites whose ARCHS name mips, their smoke subset
# (TW_SMOKE=1: omware_submit, fwd_forward, and qaware_load.sh when the
# kernel has what kmod-timewire-qaware needs), with run_kselftest.sh, the
# modules loaded with busybox's insmod from /lib/modules/RELEASE/ and the
# CLI run from /usr/sbin (tests/vm/guest.sh's TW_INSTALLED): only the
# suites' programs come from the tree.  Before the suites, the packaged
# init script applies a UCI configuration written over the package's
# /etc/config/timewire (a table, an entry, a binding), as at boot:
# guest.sh loads the /etc/modules.d modules as kmodloader does, runs the
# script's start through its #! line, /etc/rc.common (tests/openwrt's
# stand-ins are the root's rc.common and /lib/functions.sh, which reads
# the UCI file without uci), and looks for all three with the CLI.  So a
# file missing from a package fails a test: TW_ROUTER_DROP names paths of
# the root removed before the boot (usr/sbin/timewire: the guest's step
# that runs the CLI fails, and so do the suites needing it;
# lib/modules/RELEASE/omware.ko: its insmod and the suites needing
# omware; etc/init.d/timewire: the configuration's step).
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
# Functions below run from tap_ok and tap_step, which shellcheck cannot see.
# shellcheck disable=SC2317
set -u

root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=tests/vm/installed.sh
. "$root/tests/vm/installed.sh"
# shellcheck source=tests/openwrt/feed.sh
. "$root/tests/openwrt/feed.sh"
# shellcheck source=scripts/modules.sh
. "$root/scripts/modules.sh"

for tool in "${cross}gcc" qemu-system-mips cpio; do
	command -v "$tool" >/dev/null || tap_skip_all "$tool not installed (make deps)"
done
kdir=$("$root/scripts/cross-kernel.sh" malta-be dir)
# A kernel build takes 10-40 minutes: make check-prep makes it.
[ -f "$kdir/built" ] || tap_skip_all "no malta kernel built (make check-prep)"
release=$(cat "$kdir/release")

state=$root/.build/openwrt/router
out=$root/.build/results/openwrt-boot
build=$state/build dl=$state/dl
stage=$state/root
rm -rf "$state" "$out"
mkdir -p "$state" "$out"

# give_up N WHY: the N results left fail, saying WHY.
give_up() {
	local i
	for ((i = 0; i < $1; i++)); do tap_result 1 "$2"; done
	tap_done
}

tap_plan 7

tap_step "$out/sources.log" "the release tarball and libnl-tiny for MIPS (feed_sources)" \
	feed_sources || give_up 6 "nothing to build with"
start=$(date +%s)
# kmod-timewire-qaware when the kernel has its options, as an SDK makes it.
pkgs="kmod-timewire-omware kmod-timewire-tfib timewire"
with_qaware=0
tw_module_missing mptcp-qaware "$kdir/.config" > /dev/null ||
	{ pkgs+=" kmod-timewire-qaware"; with_qaware=1; }
packaged() {
	local p
	owrt compile TIMEWIRE_VERSION="$version" || return 1
	for p in $pkgs; do
		owrt "package-$p" TIMEWIRE_VERSION="$version" || return 1
	done
}
tap_step "$out/packages.log" "the feed's packages built against the malta kernel $release: $pkgs" \
	packaged || give_up 5 "no packages"
tap_diag "built in $(($(date +%s) - start)) s"

# The root a firmware with the packages installed has of them: each
# package's tree, libnl-tiny's library by the name the CLI needs.
cli_lib=$("${cross}readelf" -d "$build/root/timewire/usr/sbin/timewire" |
	sed -n 's/.*(NEEDED).*\[\(libnl-tiny[^]]*\)\].*/\1/p')
staged() {
	local p
	mkdir -p "$stage/usr/lib" &&
	for p in $pkgs; do cp -a "$build/root/$p/." "$stage/" || return 1; done &&
	[ -n "$cli_lib" ] && cp -L "$staging/lib/$cli_lib" "$stage/usr/lib/" &&
	(cd "$stage" && find . ! -type d -printf '%P\n' | sort | sed 's/^/# /')
}
tap_ok "the packages' files and /usr/lib/$cli_lib in the router's root" staged

# A configuration for the boot to apply (guest.sh runs the init script's
# start and looks for what it asks for), over the package's as a user
# writes it: a table bootcheck, user 7's entry, a binding to bootcheck0.
boot_config="config timewire 'global'
	option enabled '1'

config table 'bootcheck'
	option capacity '8'
	option sync 'rcu'
	option dev 'bootcheck0'
	option mode 'inline'

config entry
	option table 'bootcheck'
	option user '7'
	option mac '02:00:00:00:00:07'"
# What an OpenWrt root has and the busybox one lacks: the init script's
# #! line, /etc/rc.common, and its /lib/functions.sh, tests/openwrt's
# stand-ins (which read the UCI file themselves: no uci needed).
configured() {
	[ -f "$stage/etc/config/timewire" ] &&
	printf '%s\n' "$boot_config" > "$stage/etc/config/timewire" &&
	cp "$root/tests/openwrt/stub/rc.common" "$stage/etc/rc.common" &&
	mkdir -p "$stage/lib" &&
	cp "$root/tests/openwrt/stub/lib/functions.sh" "$stage/lib/functions.sh"
}
tap_ok "a UCI configuration in /etc/config/timewire, stand-ins for /etc/rc.common and /lib/functions.sh" \
	configured

# By hand: a file a package holds, removed, must fail the boot.
for f in ${TW_ROUTER_DROP:-}; do
	tap_diag "removed from the root: $f"
	rm -f "$stage/${f#/}"
done

# The suites of the smoke subset that run on mips; qaware's only with
# its package.
dirs=()
for s in $("$root/tests/lib/suites.sh" arch mips); do
	[ "$s" = qaware ] && [ "$with_qaware" = 0 ] && continue
	[ -n "$(TW_SMOKE=1 "$root/tests/lib/suites.sh" tests "$s")" ] &&
		"$root/tests/lib/suites.sh" runs "$s" "$release" &&
		dirs+=("$("$root/tests/lib/suites.sh" dir "$s")")
done
start=$(date +%s)
TW_SMOKE=1 "$root/tests/vm/vm.sh" -a mips -r "$stage" -o "$out/guest" "${dirs[@]}" \
	> "$out/guest.log" 2>&1
rc=$?
tap_diag "the boot on the router's root: $(( $(date +%s) - start )) s"
grep -v '^PASS ' "$out/guest.log" | sed 's/^/# /'
tap_ok "a mips guest on the router's root passes the smoke subset of ${dirs[*]##*/}" \
	test "$rc" -eq 0
tap_ok "the packaged CLI ran, and each suite passed tests" \
	installed_ran "$out/guest" /usr/sbin/timewire "${dirs[@]}"
tap_ok "the packaged init script's start applied /etc/config/timewire: table, entry, binding" \
	installed_passed "$out/guest" "the installed timewire service applies the boot configuration"
tap_done
