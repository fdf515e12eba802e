#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The release tarball, OUTDIR/timewire-VERSION.tar.gz (make dist): every
# file git tracks but git's own (.gitignore), plus the GENERATED files
# given (the CLI's tables from the specs), so that building the modules
# and the CLI from it takes a C toolchain, make, pkg-config, libnl and
# kernel headers, and no Python.  VERSION is scripts/version.sh's, recorded
# in the tarball's .tarball-version for the builds made from it.
#
# Every file carries HEAD's commit time: the generated files are then no
# older than their sources, so make does not generate them again, and the
# same commit gives the same tarball.  A tree with uncommitted changes is
# packed as it is, with a warning.
#
# Usage: scripts/dist.sh OUTDIR GENERATED...
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR GENERATED..." >&2; exit 2; }
out=$1
shift

[ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ] || {
	echo "dist: $top is not a git checkout: the tarball's list is git's" >&2
	exit 1
}
version=$("$top/scripts/version.sh")
name=timewire-$version
stage=$out/dist
rm -rf "$stage"
mkdir -p "$stage/$name"
list=$stage/files

cd "$top"
git ls-files -z | while IFS= read -r -d '' f; do
	case ${f##*/} in .gitignore | .gitattributes) continue ;; esac
	# Tracked but deleted in the working tree: not part of it.
	[ -e "$f" ] && printf '%s\0' "$f"
done > "$list"
for f in "$@"; do
	f=${f#"$top"/}
	[ -s "$f" ] || { echo "dist: generated file $f missing (make gen)" >&2; exit 1; }
	printf '%s\0' "$f" >> "$list"
done
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	echo "dist: warning: uncommitted changes are packed; $version names HEAD" >&2

tar -C "$top" --null -T "$list" -cf - | tar -C "$stage/$name" -xf -
echo "$version" > "$stage/$name/.tarball-version"
tarball=$out/$name.tar.gz
tar -C "$stage" --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
	--mode=go-w --mtime="@$(git log -1 --format=%ct)" -cf - "$name" |
	gzip -9n > "$tarball.tmp"
mv "$tarball.tmp" "$tarball"
rm -rf "$stage"
echo "$tarball"
