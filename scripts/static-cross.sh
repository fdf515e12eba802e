#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Programs for a CPU Debian builds nothing for (32-bit big-endian MIPS:
# Debian's big-endian MIPS ended with buster), cross-built from Debian's
# own bookworm source packages (apt-get source through a private apt
# configuration: the host's sources stay as they were), static but ip and
# tc:
#   busybox   busybox, with Debian's busybox-static configuration
#   bash      bash (the guest runner and the suites' scripts)
#   iproute2  ip and tc (namespaces, veth, qdiscs: busybox's ip has none),
#             which look their link and qdisc kinds up with dlsym() in
#             themselves, as a static program cannot: linked against the
#             cross compiler's C library, whose loader and libraries
#             they need come in lib/
#   coreutils timeout (kselftest's runner calls timeout --foreground,
#             which busybox's lacks)
#
# Cached outside the clone, keyed by the source version, the compiler and
# the recipe below:
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/static/<package>-<version>-<triplet>/
# A built one is only printed; concurrent runs wait for each other (flock).
#
# Usage: scripts/static-cross.sh PACKAGE [TRIPLET]   (default mips-linux-gnu)
# Prints the directory that holds the package's programs (and lib/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

pkg=${1:-}
triplet=${2:-mips-linux-gnu}
die() { echo "static-cross${pkg:+ $pkg}: $*" >&2; exit 1; }

# build_PACKAGE SRC OUT: builds in SRC, leaves the programs in OUT.
build_busybox() {
	local kmake=(make -C "$1" CROSS_COMPILE="$triplet-" ARCH="${triplet%%-*}")

	# Debian's busybox-static configuration, options it does not name at
	# their defaults (yes ends on a closed pipe: no failure), but its
	# shell runs only what PATH finds: with applets preferred, the tests'
	# system("ip ...") ran busybox's ip, not iproute2's.
	grep -vE '^CONFIG_FEATURE_(PREFER_APPLETS|SH_STANDALONE|SH_NOFORK)=' \
		"$1/debian/config/pkg/static" > "$1/.config"
	{ yes '' || true; } | "${kmake[@]}" oldconfig
	grep -qx 'CONFIG_STATIC=y' "$1/.config"
	nice -n 19 "${kmake[@]}" -j2 busybox
	cp "$1/busybox" "$2/"
}

build_bash() {
	# No readline, history or curses: nobody types at this shell.
	(cd "$1" && ./configure --host="$triplet" --build="$(gcc -dumpmachine)" \
		--enable-static-link --without-bash-malloc --disable-nls \
		--without-curses --disable-readline --disable-history)
	nice -n 19 make -C "$1" -j2
	"$triplet-strip" -o "$2/bash" "$1/bash"
}

build_iproute2() {
	local p

	# Without pkg-config nothing optional is found: no libmnl, libelf,
	# libbpf or libcap, whose libraries the guest would need too.
	(cd "$1" && CC="$triplet-gcc" PKG_CONFIG=false ./configure)
	nice -n 19 make -C "$1" -j2 CC="$triplet-gcc" HOSTCC=gcc \
		SUBDIRS="lib ip tc" NETNS_RUN_DIR=/run/netns
	for p in ip tc; do
		"$triplet-strip" -o "$2/$p" "$1/$p/$p"
		with_libraries "$2/$p" "$2/lib"
	done
}

# with_libraries PROGRAM DIR: its loader and libraries, from the cross
# compiler's C library, into DIR.
with_libraries() {
	local sysroot=/usr/$triplet/lib lib

	mkdir -p "$2"
	for lib in $("$triplet-readelf" -lW "$1" |
			sed -n 's|.*interpreter: /lib/\([^]]*\)\]|\1|p') \
		   $("$triplet-readelf" -dW "$1" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		cp -L "$sysroot/$lib" "$2/$lib"
	done
}

build_coreutils() {
	local built

	(cd "$1" && ./configure --host="$triplet" --build="$(gcc -dumpmachine)" \
		--disable-nls --without-selinux --without-openssl --without-gmp \
		--disable-acl --disable-xattr --disable-libcap)
	# The generated headers first: a single program's target does not
	# wait for them.
	built=$(printf 'tw-built:\n\t@echo $(BUILT_SOURCES)\n' |
		make -s -C "$1" -f Makefile -f - tw-built)
	# shellcheck disable=SC2086 # a list of files
	nice -n 19 make -C "$1" -j2 $built
	nice -n 19 make -C "$1" -j2 src/timeout LDFLAGS=-static
	"$triplet-strip" -o "$2/timeout" "$1/src/timeout"
}

case $pkg in
busybox | bash | iproute2 | coreutils) ;;
*) die "usage: $0 busybox|bash|iproute2|coreutils [TRIPLET]" ;;
esac
command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc not installed (make deps)"
command -v dpkg-source >/dev/null || die "dpkg-source not installed (dpkg-dev)"

cache=$(tw_cache_dir)/static
apt=$cache/apt
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9

# bookworm's source index alone, lists and downloads under the cache.
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
	"$(tw_debian_mirror) bookworm main" > "$apt/sources.list"
printf '%s\n' "Dir::State::Lists \"$apt/lists\";" "Dir::State::status \"/dev/null\";" \
	"Dir::Cache \"$apt\";" "Dir::Etc::SourceList \"$apt/sources.list\";" \
	"Dir::Etc::SourceParts \"$apt/parts\";" 'APT::Sandbox::User "root";' \
	'Acquire::Languages "none";' > "$apt/apt.conf"
export APT_CONFIG=$apt/apt.conf
# A day's index will do; without the archive, the last one serves.
if [ -z "$(find "$apt/updated" -mmin -1440 2>/dev/null)" ]; then
	apt-get -q -o Dpkg::Use-Pty=0 update >&2 && touch "$apt/updated" ||
		echo "static-cross: apt-get update failed, using the last index" >&2
fi
version=$(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
[ -n "$version" ] || die "no $pkg source in bookworm's index"

dir=$cache/$pkg-${version#*:}-$triplet
recipe=$(declare -f "build_$pkg" | cksum)
if [ "$(cat "$dir/done" 2>/dev/null)" != "$recipe" ]; then
	echo "static-cross: building $pkg $version for $triplet in $dir" >&2
	rm -rf "$dir"
	mkdir -p "$dir/pkg" "$dir/bin"
	(cd "$dir/pkg" && apt-get -q source --download-only "$pkg=$version") >&2 ||
		die "apt-get source $pkg=$version failed"
	dpkg-source -x "$dir"/pkg/*.dsc "$dir/src" > "$dir/build.log" 2>&1 ||
		die "dpkg-source failed, see $dir/build.log"
	# In a subshell: set -e stops the recipe at its first failure.
	if ! (set -e; "build_$pkg" "$dir/src" "$dir/bin") >> "$dir/build.log" 2>&1; then
		tail -n 20 "$dir/build.log" >&2
		die "build failed, see $dir/build.log"
	fi
	# dpkg-source leaves a copy of the upstream tarball beside src/.
	rm -rf "$dir/src" "$dir/pkg" "$dir"/*.orig.tar.*
	echo "$recipe" > "$dir/done"
fi
echo "$dir/bin"
