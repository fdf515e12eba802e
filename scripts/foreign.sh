#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The guests of another architecture than the host's, each one of Debian's
# own kernels with a bookworm root of that architecture:
#   arm64   the arm64 build of the test kernel's 6.12 version
#           (scripts/kernel-version.sh), from the suite that came from,
#           under qemu-system-aarch64 -M virt -cpu cortex-a57
#   mipsel  Debian 12's own 6.1 in its 4kc-malta flavour (32-bit little-
#           endian MIPS, the newest bookworm serves: bookworm-security
#           builds no mipsel) under qemu-system-mipsel -M malta
# Everything is cached outside the clone, keyed by the package version, in
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/<arch>/<version>/
# with a 'done' stamp per part; concurrent runs wait for each other (flock).
#
# Usage: scripts/foreign.sh ARCH abi      the kernel's ABI (6.12.117+deb12)
#        scripts/foreign.sh ARCH suite    the suite it comes from
#        scripts/foreign.sh ARCH release  its release (6.12.117+deb12-arm64)
#        scripts/foreign.sh ARCH triplet  the GNU triplet (aarch64-linux-gnu)
#        scripts/foreign.sh ARCH headers  its headers (KDIR) for a cross build
#        scripts/foreign.sh ARCH kbuild   what a suite's own modules are
#                                         built with for its kernel
#                                         (tests/qaware), one make
#                                         variable a line: KVER, KDIR
#                                         (its headers), KRUN (run)
#        scripts/foreign.sh ARCH run CMD...
#                                         CMD... with CROSS_COMPILE set
#                                         (kbuild's make: 6.1's headers
#                                         leave it to dpkg's variables)
#        scripts/foreign.sh ARCH root     a bookworm root of ARCH for the
#                                         guest, the kernel's modules in
#                                         it: prints its path
#        scripts/foreign.sh ARCH boot     what tests/vm/vm.sh boots, one
#                                         NAME=VALUE a line: release,
#                                         kernel (the image), root, initrd
#                                         (it mounts that root over 9p),
#                                         p9_slots (their PCI slots),
#                                         memory (MiB, at most), cmdline
#                                         (its longest kernel command
#                                         line), console, qemu (the
#                                         emulator and its machine, words
#                                         apart) and nic_pair (yes: two
#                                         NICs may join the 9p devices)
#        scripts/foreign.sh ARCH make ARG...
#                                         make ARG... cross-compiling for
#                                         ARCH: the netlink library is the
#                                         root's own (Debian's
#                                         libnl-genl-3-dev:ARCH), so the
#                                         programs run there as built
# The cross compiler and the emulator are installed when missing
# (scripts/deps.sh ARCH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$here/kernel-version.sh"
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"
# shellcheck source=scripts/debian-kernel.sh
. "$here/debian-kernel.sh"

arch=${1:-}
die() { echo "foreign${arch:+ $arch}: $*" >&2; exit 1; }

# What differs between the architectures; the rest is one path.
#   flavour      Debian's kernel flavour, also the release's suffix
#   image_pkg    the image's package, after linux-image-<release>: the
#                -unsigned one where Debian signs
#   image        the image in it, after boot/: what QEMU loads
#   pick         how the kernel is chosen (the functions pick_*)
#   qemu         the emulator and its machine
#   cmdline      the longest kernel command line it passes whole
#   root_extra   what its guest root needs besides root_packages
#   p9_slots     the PCI slots of the two 9p devices (read-only host,
#                writable output), where the board's default would share
#                an interrupt line between them
#   nic_pair     yes where a NIC pair (a suite's NICS=pair) has interrupts
#                of its own
#   timeout_mult what every suite's time limit is multiplied by there
#   keyboard     yes where the machine has one and the kernel takes sysrq
#                from it (a silent guest's stacks, tests/vm/vm.sh)
root_extra=()
p9_slots='' nic_pair='' timeout_mult=1 keyboard=''
case $arch in
arm64)
	flavour=arm64 triplet=aarch64-linux-gnu image_pkg=-unsigned image=vmlinuz
	pick=test_kernel memory=4096 console=ttyAMA0 cmdline=2048 nic_pair=yes
	qemu="qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2" ;;
mipsel)
	# Malta maps 256 MiB below the kernel's segments and 4kc-malta has
	# no highmem.  Its SMP is MIPS MT's (a 34K's VPEs), not tried under
	# QEMU here: one CPU, the 24Kf malta's default.
	# QEMU hands the command line over in one 256-byte firmware
	# variable, after the initrd's rd_start= and rd_size= (45 bytes).
	flavour=4kc-malta triplet=mipsel-linux-gnu image_pkg='' image=vmlinuz
	pick=series_6_1 memory=256 console=ttyS0 cmdline=210 keyboard=yes
	# Its 64-bit atomics (scripts/host.mk: ATOMIC_LIBS).
	root_extra=(libatomic1)
	# Malta routes PCI slots 19-21 to the 8259's lines 10, 11, 11; two
	# busy 9p devices on line 11 lost an interrupt within seconds here,
	# and a request then waits for ever.  Slots 19 and 20 have a line
	# each; no NIC, whose slot 11 would share line 10.
	p9_slots='0x13 0x14'
	# One emulated CPU at a fraction of arm64's speed: fwd_aoi.sh's
	# fifteen runs took 650 s against the 300 s limit set for amd64.
	timeout_mult=3
	qemu="qemu-system-mipsel -M malta -smp 1 -nic none" ;;
*) die "usage: $0 arm64|mipsel abi|suite|release|triplet|headers|kbuild|root|boot|run CMD...|make ARG..." ;;
esac
shift

# pick_test_kernel: "SUITE ABI VERSION" of the arm64 build of the amd64
# test kernel (KVER's if set): its version is the amd64 one's (the same
# source), so a complete cache needs no network.
pick_test_kernel() {
	local k=${KVER:-} abi suite ver
	[ -n "$k" ] || k=$(tw_kernel_installed) || die "no test kernel installed (make deps)"
	abi=${k%-amd64}
	suite=$(apt-cache policy "linux-headers-$abi-amd64" 2>/dev/null |
		awk '/^ \*\*\*/ { found = 1; next }
		     found && $2 ~ /^http/ { sub(/\/.*/, "", $3); print $3; exit }')
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$abi-amd64" 2>/dev/null) ||
		die "linux-headers-$abi-amd64 is not installed (make deps)"
	echo "${suite:-bookworm-security} $abi $ver"
}

# pick_series_6_1: the newest 6.1 bookworm builds for the flavour.  A
# point release changes it: lists of the day will do (a run asks several
# times), and the last ones serve when the archive does not answer.
pick_series_6_1() {
	local pick
	TW_APT_FRESH_MIN=1440 tw_apt_suite bookworm "$arch" >/dev/null 2>&1 || true
	pick=$(tw_debian_kernel 6.1 "$flavour") ||
		die "no linux-headers-6.1*-$flavour in bookworm's lists"
	echo "bookworm $pick"
}

# What needs no kernel is answered before one is picked.
cmd=${1:-}
case $cmd in
triplet) echo "$triplet"; exit 0 ;;
run)	shift
	CROSS_COMPILE=$triplet- exec "$@" ;;
esac
read -r suite abi ver <<< "$("pick_$pick")"
[ -n "$ver" ] || exit 1
rel=$abi-$flavour
dir=$(tw_cache_dir)/$arch/$ver

# locked PART FUNC STAMP: FUNC makes $dir/PART under the version's lock,
# unless PART.done says STAMP (what PART is made of) already.
locked() {
	mkdir -p "$dir"
	exec 9> "$dir/.lock"
	flock 9
	# Not in a condition: set -e must stop FUNC at its first failure.
	if [ "$(cat "$dir/$1.done" 2>/dev/null)" != "$3" ]; then
		rm -f "$dir/$1.done"
		"$2"
		echo "$3" > "$dir/$1.done"
	fi
	exec 9>&-
}

# The image package unpacked: boot/<image>-<release> and lib/modules/.
make_kernel() {
	local pkg=linux-image-$rel$image_pkg
	echo "foreign $arch: fetching $pkg $ver" >&2
	tw_apt_suite "$suite" "$arch" >/dev/null || die "apt-get update of $suite failed"
	rm -rf "$dir/kernel"
	tw_deb_unpack "$dir/kernel" "$pkg=$ver" || die "fetching $pkg failed"
}

# What the guest suites run: the shell and its tools, iproute2 (ip, tc),
# the test programs' libraries (libnl, and its -dev files for the cross
# build), python3 (the AoI analyser's), jq.  Unpacked only (mmdebstrap's
# extract variant): the host cannot run a foreign architecture's
# maintainer scripts, and the guest needs none of their work but the
# accounts and the modules' index, made here.
root_packages=(bash coreutils util-linux procps kmod iproute2 iputils-ping
	ethtool jq python3 libnl-3-dev libnl-genl-3-dev busybox-static
	libc6 gawk sed grep findutils base-passwd mount "${root_extra[@]}")

make_root() {
	command -v mmdebstrap >/dev/null || die "mmdebstrap not installed (make deps)"
	echo "foreign $arch: making the guest root $dir/root" >&2
	rm -rf --one-file-system "$dir/root"
	# merged /usr, as bookworm is: the -dev files' paths then hold.  The
	# hook's "$1" is mmdebstrap's to expand.
	# shellcheck disable=SC2016
	tw_mmdebstrap --variant=extract --architectures="$arch" \
		--setup-hook='/usr/share/mmdebstrap/hooks/merged-usr/setup00.sh "$1"' \
		--include="$(IFS=,; echo "${root_packages[*]}")" \
		bookworm "$dir/root" "$(tw_debian_source bookworm)" ||
		die "mmdebstrap of the $arch root failed"
	# What the maintainer scripts would have linked (dash, update-alternatives).
	ln -sfn bash "$dir/root/usr/bin/sh"
	ln -sfn gawk "$dir/root/usr/bin/awk"
	cp "$dir/root/usr/share/base-passwd/passwd.master" "$dir/root/etc/passwd"
	cp "$dir/root/usr/share/base-passwd/group.master" "$dir/root/etc/group"
	mkdir -p "$dir/root/lib/modules"
	cp -a "$dir/kernel/lib/modules/$rel" "$dir/root/lib/modules/"
	depmod -b "$dir/root" "$rel"
}

# What mounting the root over virtio's 9p needs that the kernel builds as
# modules (arm64: 9p's; mipsel: virtio's PCI transport too), in the order
# modules.dep loads them; loaded by the initramfs before the root mounts.
initrd_wanted=(virtio_pci 9pnet_virtio 9p)

# initrd_modules: the modules' paths below lib/modules/<release>/, each
# after those it needs; one built in is no module to load.
initrd_modules() {
	local deps=$dir/root/lib/modules/$rel/modules.dep
	local m
	for m in "${initrd_wanted[@]}"; do
		awk -v m="$m" -F': *' '
			{ n = $1; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n) }
			n == m { c = split($2, need, " ")
				 for (i = c; i >= 1; i--) print need[i]; print $1 }' "$deps"
	done | awk '!seen[$0]++'
}

make_initrd() {
	local tmp ko
	tmp=$(mktemp -d)
	mkdir -p "$tmp/bin" "$tmp/modules" "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/newroot"
	cp "$dir/root/bin/busybox" "$tmp/bin/busybox"
	# The init loads them in this order (busybox's insmod may not read
	# xz: uncompressed here).
	initrd_modules | while read -r ko; do
		xz -dcf "$dir/root/lib/modules/$rel/$ko" > "$tmp/modules/$(basename "${ko%.xz}")"
		basename "${ko%.xz}" >> "$tmp/modules/order"
	done
	[ -s "$tmp/modules/order" ] || grep -q '/9p\.ko' "$dir/root/lib/modules/$rel/modules.builtin" ||
		die "9p is neither a module nor built in $rel"
	cp "$here/foreign-init" "$tmp/init"
	echo "$dir/root" > "$tmp/rootdir"
	chmod +x "$tmp/init"
	(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initrd.gz"
	rm -rf "$tmp"
}

case $cmd in
abi) echo "$abi"; exit 0 ;;
suite) echo "$suite"; exit 0 ;;
release) echo "$rel"; exit 0 ;;
headers)
	"$here/deps.sh" "$arch" >&2
	exec "$here/kernel-headers.sh" --suite "$suite" "$abi" "$flavour" ;;
kbuild)	kdir=$("$here/foreign.sh" "$arch" headers) || exit 1
	printf '%s\n' "KVER=$rel" "KDIR=$kdir" "KRUN=$here/foreign.sh $arch run"
	exit 0 ;;
root | boot | make) ;;
*) die "usage: $0 $arch abi|suite|release|triplet|headers|kbuild|root|boot|run CMD...|make ARG..." ;;
esac

"$here/deps.sh" "$arch" >&2
locked kernel make_kernel "$rel"
# A new package list makes the root again, and a root or init the initramfs.
root_stamp="${root_packages[*]}"
locked root make_root "$root_stamp"
case $cmd in
root)	echo "$dir/root" ;;
make)	shift
	lib=$dir/root/usr/lib/$triplet
	PKG_CONFIG_SYSROOT_DIR=$dir/root PKG_CONFIG_LIBDIR=$lib/pkgconfig \
		exec make CC="$triplet-gcc" AR="$triplet-ar" \
		LDFLAGS="-Wl,-rpath-link,$lib" "$@" ;;
boot)	locked initrd make_initrd "$root_stamp ${initrd_wanted[*]} $(cksum < "$here/foreign-init")"
	printf '%s=%s\n' release "$rel" kernel "$dir/kernel/boot/$image-$rel" \
		root "$dir/root" initrd "$dir/initrd.gz" memory "$memory" \
		cmdline "$cmdline" console "$console" qemu "$qemu" p9_slots "$p9_slots" \
		nic_pair "$nic_pair" timeout_mult "$timeout_mult" keyboard "$keyboard" ;;
esac
