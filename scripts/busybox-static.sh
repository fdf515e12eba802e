#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A static busybox for a CPU Debian builds no busybox for (32-bit
# big-endian MIPS: Debian's big-endian MIPS ended with buster), cross-built
# from Debian's own busybox source package (bookworm, apt-get source through
# a private apt configuration: the host's sources stay as they were) with
# Debian's configuration of its busybox-static package.
#
# Cached outside the clone, keyed by the source version and the compiler:
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/busybox/<version>-<triplet>/busybox
# A built one is only printed; concurrent runs wait for each other (flock).
#
# Usage: scripts/busybox-static.sh [TRIPLET]   (default mips-linux-gnu)
# Prints the binary's path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

triplet=${1:-mips-linux-gnu}
die() { echo "busybox-static: $*" >&2; exit 1; }
command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc not installed (make deps)"
command -v dpkg-source >/dev/null || die "dpkg-source not installed (dpkg-dev)"

cache=$(tw_cache_dir)/busybox
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
		echo "busybox-static: apt-get update failed, using the last index" >&2
fi
version=$(apt-cache showsrc busybox 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
[ -n "$version" ] || die "no busybox source in bookworm's index"

dir=$cache/${version#*:}-$triplet
if [ ! -f "$dir/done" ]; then
	echo "busybox-static: building busybox $version for $triplet in $dir" >&2
	rm -rf "$dir"
	mkdir -p "$dir/pkg"
	(cd "$dir/pkg" && apt-get -q source --download-only "busybox=$version") >&2 ||
		die "apt-get source busybox=$version failed"
	dpkg-source -x "$dir"/pkg/*.dsc "$dir/src" > "$dir/build.log" 2>&1 ||
		die "dpkg-source failed, see $dir/build.log"
	# Debian's busybox-static configuration, options it does not name at
	# their defaults (yes ends on a closed pipe: no failure).
	cp "$dir/src/debian/config/pkg/static" "$dir/src/.config"
	kmake=(make -C "$dir/src" CROSS_COMPILE="$triplet-" ARCH=mips)
	if ! { { yes '' || true; } | "${kmake[@]}" oldconfig &&
	       grep -qx 'CONFIG_STATIC=y' "$dir/src/.config" &&
	       nice -n 19 "${kmake[@]}" -j2 busybox; } >> "$dir/build.log" 2>&1; then
		tail -n 20 "$dir/build.log" >&2
		die "build failed, see $dir/build.log"
	fi
	cp "$dir/src/busybox" "$dir/busybox"
	# dpkg-source leaves a copy of the upstream tarball beside src/.
	rm -rf "$dir/src" "$dir/pkg" "$dir"/busybox_*.orig.tar.*
	touch "$dir/done"
fi
echo "$dir/busybox"
