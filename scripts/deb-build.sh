#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# timewire's Debian packages from a release tarball (make dist): unpacked
# into OUTDIR/build/, its debian/changelog given an entry of the tarball's
# version when its newest entry is another (a tree past a release is
# VERSION.N~HASH), then dpkg-buildpackage -us -uc -b.  The packages, the
# .changes and .buildinfo land in OUTDIR, the build's output in
# OUTDIR/build.log; the .changes is printed.  Runs on Debian with the
# Build-Depends installed: make deb runs it in a bookworm root
# (scripts/deb-chroot.sh).
#
# Usage: scripts/deb-build.sh TARBALL OUTDIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 TARBALL OUTDIR" >&2; exit 2; }
die() { echo "deb-build: $*" >&2; exit 1; }
tarball=$(readlink -f "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
name=$(basename "$tarball" .tar.gz)
version=${name#timewire-}
[ "$name" != "$version" ] || die "$tarball is not a timewire-VERSION.tar.gz"

build=$out/build
rm -rf "$build"
mkdir -p "$build"
tar -xzf "$tarball" -C "$build"
src=$build/$name
[ "$(cat "$src/.tarball-version" 2>/dev/null)" = "$version" ] ||
	die "$tarball records another version than its name's"

# The entry's date is the tarball's (its files carry the commit's time):
# the same tarball makes the same packages.
newest=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
if [ "$newest" != "$version" ]; then
	{
		printf 'timewire (%s) unstable; urgency=medium\n\n' "$version"
		printf '  * Built from the release tarball %s.tar.gz.\n\n' "$name"
		printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l "$src/debian/changelog" -S Maintainer)" \
			"$(date -u -R -d "@$(stat -c %Y "$src/.tarball-version")")"
		cat "$src/debian/changelog"
	} > "$build/changelog"
	mv "$build/changelog" "$src/debian/changelog"
fi

rm -f "$out"/timewire*.deb "$out"/timewire_*.changes "$out"/timewire_*.buildinfo
(cd "$src" && DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=$(nproc)} \
	dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; die "dpkg-buildpackage failed (see $out/build.log)"; }
mv "$build"/timewire*.deb "$build"/timewire_*.changes "$build"/timewire_*.buildinfo "$out/"
ls "$out"/timewire_*.changes
