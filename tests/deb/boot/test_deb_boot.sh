#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packages on a Debian 12 host, booted: in an overlay of the bookworm
# root of scripts/deb-chroot.sh (its writes in .build/deb/boot/upper), the
# test kernel's modules as its image's package leaves them, then the four
# packages of make deb installed with dpkg -i, whose postinsts have DKMS
# build omware, tfib and mptcp_qaware for that kernel.  A guest of the
# test kernel booted on that root (tests/vm/vm.sh -r) runs the guest
# suites' smoke subset (TW_SMOKE=1: omware_submit, fwd_forward and, from
# 6.6 on, qaware_load.sh) with the modules loaded from
# /lib/modules/KVER/updates/dkms, the CLI and mptcp_qaware's modprobe.d
# rule from the timewire package; only the suites' programs come from the
# tree.  So a file missing from a package fails a test: TW_DEB_DROP
# names paths removed from the root before the boot; without
# /usr/bin/timewire the guest's step that runs it fails, and so does
# qaware_load.sh (its preflight bails out without a timewire), without a
# module's .ko.xz its insmod step and its suite.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u
# Functions below run from tap_ok, which shellcheck cannot see.
# shellcheck disable=SC2317

root=$(cd "$(dirname "$0")/../../.." && pwd)
# deb-chroot.sh runs its command in the root at the caller's directory.
cd "$root" || exit 1
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=tests/vm/installed.sh
. "$root/tests/vm/installed.sh"
# shellcheck source=scripts/kernel-version.sh
. "$root/scripts/kernel-version.sh"

for tool in make dpkg-deb mmdebstrap unshare vng; do
	command -v $tool >/dev/null || tap_skip_all "$tool not installed"
done
# The boot runs as root in the overlay's namespace (scripts/deb-chroot.sh
# mount), vng too: root's, or the caller's on the PATH passed through.
[ "$(id -u)" -eq 0 ] || sudo -n env PATH="$PATH" vng --version > /dev/null 2>&1 ||
	tap_skip_all "needs root, or sudo without a password that can run vng, for the root's overlay"
kt=$(tw_kernel_installed)
[ -n "$kt" ] || tap_skip_all "no test kernel (make deps)"
kdir=$("$root/scripts/kernel-headers.sh" "${kt%-amd64}" 2> /dev/null) ||
	tap_skip_all "the headers of $kt not fetched (Debian's archive?)"

version=$("$root/scripts/version.sh") || exit 1
debs=()
for p in timewire timewire-dkms timewire-qaware-dkms timewire-bench; do
	case $p in *-dkms) a=all ;; *) a=$(dpkg --print-architecture) ;; esac
	debs+=("$root/.build/deb/${p}_${version}_$a.deb")
done
state=$root/.build/deb/boot
out=$root/.build/results/deb-boot
mkdir -p "$out"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

# logged NAME CMD...: CMD's output in $out/NAME.log, its end shown if it fails.
logged() {
	local name=$1
	shift
	"$@" > "$out/$name.log" 2>&1 || { tail -n 25 "$out/$name.log" | sed 's/^/# /'; return 1; }
}
in_root() { "$root/scripts/deb-chroot.sh" run "$state" "$@"; }
mounted() { "$root/scripts/deb-chroot.sh" mount "$state" "$@"; }

tap_plan 6

# The host suite deb has built them in make check; built here otherwise.
packages_built() {
	local d
	for d in "${debs[@]}"; do
		[ -f "$d" ] || { logged deb make -C "$root" deb; return; }
	done
}
tap_ok "the four packages of $version (make deb)" packages_built

# A fresh root: the test kernel's modules and their depmod, as
# linux-image-$kt installs them (DKMS then compresses ours as those are:
# .ko.xz), its headers, the packages.
# shellcheck disable=SC2016 # expanded by the inner shells
install_all() {
	"${sudo_cmd[@]}" rm -rf --one-file-system "$state" &&
	mounted sh -c 'm=$1/lib/modules/$2 && mkdir -p "$m" &&
		cp -a "/lib/modules/$2/kernel" "/lib/modules/$2"/modules.order \
			"/lib/modules/$2"/modules.builtin* "$m/"' sh "$state/merged" "$kt" &&
	in_root sh -c 'depmod "$1" && ln -sfn "$2" "/lib/modules/$1/build"' sh "$kt" "$kdir" &&
	logged dpkg in_root dpkg -i "${debs[@]}"
}
installed=0
tap_ok "$kt's modules and the four packages in a bookworm root (dpkg -i, DKMS)" install_all &&
	installed=1
# shellcheck disable=SC2016 # expanded in the root
dkms_built() {
	in_root sh -c 'for m in omware tfib mptcp_qaware; do
		ls "/lib/modules/$1/updates/dkms/$m".ko* || exit 1; done' sh "$kt" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}
tap_ok "DKMS put omware, tfib and mptcp_qaware in /lib/modules/$kt/updates/dkms" dkms_built ||
	installed=0
if [ "$installed" = 0 ]; then
	tap_diag "not booted: the install failed"
	tap_ok "a guest booted on the root passes the smoke subset" false
	tap_ok "the packaged CLI ran, and each suite passed tests" false
	tap_ok "the installed timewire.service's lines applied a configuration" false
	tap_done
fi

# A configuration for the boot to apply (guest.sh runs the unit's lines
# and looks for what it asks for): a table bootcheck, user 7's entry, a
# binding to bootcheck0.
in_root sh -c 'printf "%s\n" "tfib create bootcheck capacity 8 sync rcu" \
	"tfib set bootcheck user 7 mac 02:00:00:00:00:07" \
	"tfib bind bootcheck dev bootcheck0 mode inline" > /etc/timewire/boot-check.conf'

# By hand: a file a package should hold, removed, must fail the boot.
# shellcheck disable=SC2016 # expanded in the root
for f in ${TW_DEB_DROP:-}; do
	if in_root sh -c 'rm "$1" && [ ! -e "$1" ]' sh "$f"; then
		tap_diag "removed from the root: $f"
	else
		tap_diag "TW_DEB_DROP: $f is not in the root"
	fi
done

# The suites of the smoke subset that run on the test kernel.
dirs=()
for s in $("$root/tests/lib/suites.sh" guest); do
	[ -n "$(TW_SMOKE=1 "$root/tests/lib/suites.sh" tests "$s")" ] &&
		"$root/tests/lib/suites.sh" runs "$s" "$kt" &&
		dirs+=("$("$root/tests/lib/suites.sh" dir "$s")")
done
start=$(date +%s)
rm -rf "$out/guest"
mounted env TW_SMOKE=1 "$root/tests/vm/vm.sh" -r "$state/merged" -o "$out/guest" \
	"${dirs[@]}" > "$out/guest.log" 2>&1
rc=$?
# What the boot built and wrote as root in the tree, given back.
[ "$(id -u)" -eq 0 ] || "${sudo_cmd[@]}" chown -R --from=0 "$(id -u):$(id -g)" \
	"$root/.build" "$root/tests" "$root/userspace"
tap_diag "the boot on the root: $(( $(date +%s) - start )) s"
grep -v '^PASS ' "$out/guest.log" | sed 's/^/# /'
tap_ok "a guest booted on the root passes the smoke subset of ${dirs[*]##*/}" test "$rc" -eq 0
tap_ok "the packaged CLI ran, and each suite passed tests" \
	installed_ran "$out/guest" /usr/bin/timewire "${dirs[@]}"
tap_ok "the installed timewire.service's lines applied /etc/timewire/boot-check.conf" \
	installed_passed "$out/guest" "the installed timewire service applies the boot configuration"
tap_done
