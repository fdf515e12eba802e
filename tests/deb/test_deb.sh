#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages and DKMS, in the bookworm root of
# scripts/deb-chroot.sh (made once, cached outside the clone): make deb
# builds timewire, timewire-dkms, timewire-qaware-dkms and timewire-bench
# from the release tarball, lintian finds no error in them, each holds
# what it should (the product's every file in timewire, nothing of the
# experiment outside timewire-bench), and installed with dpkg -i they
# work as on a user's machine: on a Debian 12 host with its own 6.1, the
# DKMS packages' postinsts build omware and tfib and skip mptcp_qaware
# (6.6 on); when the test kernel arrives, the kernel hooks its packages
# run build all three without failing; every module lands in
# /lib/modules/KVER/updates/dkms/ reporting the tarball's version and
# signed with DKMS's key; the installed programs run; removing the
# packages removes the modules.  The kernel headers come from
# the cache (scripts/kernel-headers.sh).
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/kernel-version.sh
. "$root/scripts/kernel-version.sh"
# shellcheck source=scripts/debian-archive.sh
. "$root/scripts/debian-archive.sh"

for tool in git make dpkg-deb mmdebstrap unshare; do
	command -v $tool >/dev/null || tap_skip_all "$tool not installed"
done
[ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null ||
	tap_skip_all "needs root (or sudo) for the chroot"
[ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$root" ] ||
	tap_skip_all "not a git checkout: make dist packs git's files"
# The root and the headers come from Debian's archive the first time.
if ! "$root/scripts/deb-chroot.sh" > /dev/null 2>&1; then
	tw_archive_reachable bookworm || tap_skip_all "Debian's archive unreachable: no bookworm root"
fi
kt=$(tw_kernel_installed)
[ -n "$kt" ] || tap_skip_all "no test kernel (make deps)"
if ! kdir_t=$("$root/scripts/kernel-headers.sh" "${kt%-amd64}" 2> /dev/null) ||
   ! kdir_61=$("$root/scripts/kernel-headers.sh" 6.1 2> /dev/null); then
	tap_skip_all "the headers of $kt or of 6.1 not fetched (Debian's archive?)"
fi
k61=${kdir_61##*/linux-headers-}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$("$root/scripts/version.sh") || exit 1
out=$root/.build/deb
state=$out/root
packages="timewire timewire-dkms timewire-qaware-dkms timewire-bench"

# show LOG: the end of a failed step's output, as diagnostics.
show() { tail -n 25 "$1" | sed 's/^/# /'; }
# in_root CMD...: CMD as root in the root, through make deb's overlay.
in_root() { "$root/scripts/deb-chroot.sh" run "$state" "$@"; }
# logged NAME CMD...: CMD's output in $tmp/NAME.log, shown if it fails.
logged() {
	local name=$1
	shift
	"$@" > "$tmp/$name.log" 2>&1 || { show "$tmp/$name.log"; return 1; }
}
deb() { echo "$out/${1}_${version}_$2.deb"; }
arch=$(dpkg --print-architecture)
debfile() {	# debfile PACKAGE: its .deb
	case $1 in *-dkms) deb "$1" all ;; *) deb "$1" "$arch" ;; esac
}
# contents PACKAGE: its paths, one a line, without ./ (links as paths).
contents() { dpkg-deb --fsys-tarfile "$(debfile "$1")" | tar -t | sed 's|^\./||; /\/$/d; /^$/d'; }

tap_plan 16

# --- the packages ---------------------------------------------------------------
tap_ok "make deb: the tarball, then the packages built from it in the bookworm root" \
	logged deb make -C "$root" deb
built() {
	local p bad=0
	for p in $packages; do
		[ -f "$(debfile "$p")" ] || { bad=1; tap_diag "no $(debfile "$p")"; continue; }
		[ "$(dpkg-deb -f "$(debfile "$p")" Version)" = "$version" ] ||
			{ bad=1; tap_diag "$p: version $(dpkg-deb -f "$(debfile "$p")" Version)"; }
	done
	return $bad
}
tap_ok "$packages, each of version $version" built

lintian_clean() {
	in_root lintian --fail-on error --tag-display-limit 0 \
		"$out/timewire_${version}_$arch.changes" > "$tmp/lintian.log" 2>&1
	local rc=$?
	grep -E '^[EW]: ' "$tmp/lintian.log" | sed 's/^/# lintian: /'
	return $rc
}
tap_ok "lintian: no error (its warnings shown)" lintian_clean

for p in $packages; do contents "$p" > "$tmp/$p.files" 2>/dev/null; done
# What the tree's install targets put under PREFIX=/usr, pages compressed
# as dh_compress leaves them.
make -s -C "$root" install DESTDIR="$tmp/product" PREFIX=/usr > "$tmp/install.log" 2>&1
make -s -C "$root" install-bench DESTDIR="$tmp/bench" PREFIX=/usr >> "$tmp/install.log" 2>&1
installed() { (cd "$1" && find . \( -type f -o -type l \) -printf '%P\n' | sed 's|^\(usr/share/man/.*\)|\1.gz|' | sort); }
installed "$tmp/product" > "$tmp/product.want"
installed "$tmp/bench" > "$tmp/bench.want"

holds_all() {	# holds_all PACKAGE WANT: every path of WANT in PACKAGE
	local f bad=0
	[ -s "$2" ] || { show "$tmp/install.log"; return 1; }
	while read -r f; do
		grep -qxF "$f" "$tmp/$1.files" ||
			# the analysers' directory (debian/rules)
			grep -qxF "usr/share/timewire-bench/${f##*/}" "$tmp/$1.files" ||
			{ bad=1; tap_diag "$1 lacks $f"; }
	done < "$2"
	return $bad
}
tap_ok "timewire holds every file make install puts in place ($(wc -l < "$tmp/product.want"))" \
	holds_all timewire "$tmp/product.want"
modprobe_rule() {
	dpkg-deb --fsys-tarfile "$(debfile timewire)" |
		tar -xO ./etc/modprobe.d/mptcp-qaware.conf > "$tmp/rule" 2>/dev/null &&
		grep -Eq '^install mptcp_qaware /usr/bin/timewire qaware load' "$tmp/rule"
}
tap_ok "timewire's modprobe rule loads mptcp_qaware through /usr/bin/timewire" modprobe_rule
tap_ok "timewire-bench holds every file make install-bench puts in place ($(wc -l < "$tmp/bench.want"))" \
	holds_all timewire-bench "$tmp/bench.want"
no_bench_outside() {
	local p names
	names=$(sed 's|.*/||; s|\.gz$||' "$tmp/bench.want" | sort -u | paste -sd '|')
	for p in timewire timewire-dkms timewire-qaware-dkms; do
		grep -E "(^|/)(tw-|twbench|bench/)|/man1/|/($names)$" "$tmp/$p.files" | sed "s/^/# in $p: /"
	done | grep -q . && return 1
	return 0
}
tap_ok "nothing of the experiment outside timewire-bench" no_bench_outside

dkms_sources() {	# dkms_sources PACKAGE NAME WANT_DIRS NOT_DIRS
	local d bad=0 src=usr/src/$2-$version
	dpkg-deb --fsys-tarfile "$(debfile "$1")" | tar -xO "./$src/dkms.conf" > "$tmp/$2.conf" 2>/dev/null
	grep -qx "PACKAGE_VERSION=\"$version\"" "$tmp/$2.conf" ||
		{ bad=1; tap_diag "$src/dkms.conf: $(grep PACKAGE_VERSION "$tmp/$2.conf")"; }
	for d in $3 .tarball-version; do
		grep -q "^$src/$d" "$tmp/$1.files" || { bad=1; tap_diag "$1 lacks $src/$d"; }
	done
	for d in $4; do
		grep -q "^$src/$d/" "$tmp/$1.files" && { bad=1; tap_diag "$1 holds $src/$d"; }
	done
	return $bad
}
tap_ok "timewire-dkms: /usr/src/timewire-$version with omware and tfib, dkms.conf of that version" \
	dkms_sources timewire-dkms timewire "omware/Kbuild kmod/Kbuild" mptcp-qaware
tap_ok "timewire-qaware-dkms: /usr/src/timewire-qaware-$version with mptcp_qaware alone" \
	dkms_sources timewire-qaware-dkms timewire-qaware mptcp-qaware/Kbuild "omware kmod"

# --- installed, in the root -----------------------------------------------------
# link_headers KVER KDIR: what installing linux-headers-KVER leaves.
link_headers() {
	# shellcheck disable=SC2016 # expanded in the root
	in_root sh -c 'mkdir -p "/lib/modules/$1" && ln -sfn "$2" "/lib/modules/$1/build"' \
		sh "$1" "$2"
}
debs=()
for p in $packages; do debs+=("$(debfile "$p")"); done
# A Debian 12 host on its own 6.1 first.
install_all() {
	link_headers "$k61" "$kdir_61" && logged dpkg in_root dpkg -i "${debs[@]}"
}
tap_ok "dpkg -i of the four packages: the DKMS postinsts build and install for $k61" install_all

# modules_there KVER MODULE...: each in updates/dkms, of this version and
# for KVER, signed; the modules' lines of modinfo as diagnostics.
modules_there() {
	local kver=$1
	shift
	# shellcheck disable=SC2016 # expanded in the root
	in_root sh -c 'k=$1 v=$2; shift 2; bad=0
		for m; do
			f=/lib/modules/$k/updates/dkms/$m.ko
			[ -f "$f" ] || { echo "# no $f"; bad=1; continue; }
			got=$(modinfo -F version "$f") magic=$(modinfo -F vermagic "$f")
			signer=$(modinfo -F signer "$f")
			echo "# $m.ko for $k: version $got, signer ${signer:-none}"
			[ "$got" = "$v" ] && [ "${magic%% *}" = "$k" ] && [ -n "$signer" ] || bad=1
		done
		[ -f /var/lib/dkms/mok.pub ] || { echo "# no /var/lib/dkms/mok.pub"; bad=1; }
		exit $bad' sh "$kver" "$version" "$@"
}
tap_ok "$k61: omware and tfib in updates/dkms, version $version, signed" \
	modules_there "$k61" omware tfib

# Then the test kernel arrives, as a new kernel's packages install it:
# their postinst runs the hooks of /etc/kernel/postinst.d, any failure
# failing it.
new_kernel() {
	link_headers "$kt" "$kdir_t" &&
		logged hooks in_root run-parts --report --exit-on-error --arg="$kt" \
			--arg="/boot/vmlinuz-$kt" /etc/kernel/postinst.d
}
tap_ok "a new kernel, $kt: the kernel hooks build and install every module" new_kernel
grep -E 'timewire-qaware-dkms|autoinstall' "$tmp/hooks.log" | sed 's/^/# /'
tap_ok "$kt: omware, tfib and mptcp_qaware in updates/dkms, version $version, signed" \
	modules_there "$kt" omware tfib mptcp_qaware
# A 6.1 update later runs the same hooks: mptcp_qaware is skipped, and
# the kernel's installation must not fail for it (dkms 3.0's autoinstall
# would, were the module AUTOINSTALL).
qaware_excluded() {
	logged hooks61 in_root run-parts --report --exit-on-error --arg="$k61" \
		--arg="/boot/vmlinuz-$k61" /etc/kernel/postinst.d || return 1
	in_root dkms status 2> /dev/null > "$tmp/status"
	sed 's/^/# /' "$tmp/status"
	grep -q "^timewire-qaware/$version, $kt, .*: installed" "$tmp/status" &&
		! grep -q "^timewire-qaware/$version, $k61" "$tmp/status" &&
		in_root test ! -e "/lib/modules/$k61/updates/dkms/mptcp_qaware.ko"
}
tap_ok "$k61 again (an update): the hooks succeed, mptcp_qaware not built (BUILD_EXCLUSIVE_KERNEL: 6.6 on)" \
	qaware_excluded

programs_run() {
	in_root timewire version > "$tmp/programs.log" 2>&1 &&
		grep -qx "timewire version $version" "$tmp/programs.log" &&
		logged analyse in_root tw-omware-analyze --help
}
tap_ok "the installed timewire reports $version; an installed analyser finds its module" programs_run

remove_all() {
	logged remove in_root dpkg -r timewire-dkms timewire-qaware-dkms || return 1
	in_root sh -c 'ls /lib/modules/*/updates/dkms/*.ko 2>/dev/null' | sed 's/^/# left: /' |
		grep -q . && return 1
	in_root dkms status | sed 's/^/# dkms status: /' | grep -q . && return 1
	return 0
}
tap_ok "dpkg -r of the DKMS packages removes their modules from both kernels" remove_all

tap_done
