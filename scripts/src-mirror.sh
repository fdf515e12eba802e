#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Mirror the tree's sources into DEST as symlinks, so that a build run in
# DEST (make LIBNL=libnl-tiny: .build/libnl-tiny/) writes its objects and
# programs there and the tree's own build stays as it is.  The sources are
# git's: the files it tracks and the new ones it does not ignore (what a
# build writes is ignored).  Idempotent: new sources are linked, removed
# ones unlinked, and what was built in DEST stays.
#
# Usage: scripts/src-mirror.sh DEST
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 DEST" >&2; exit 2; }
dest=$1

git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
	echo "src-mirror: $top is not a git checkout: build in it instead (make -C userspace LIBNL=...)" >&2
	exit 1
}
mkdir -p "$dest"
cd "$top"
git ls-files -z --cached --others --exclude-standard |
while IFS= read -r -d '' f; do
	# Tracked but deleted in the working tree: nothing to link.
	[ -e "$f" ] || continue
	[ -L "$dest/$f" ] && continue
	mkdir -p "$dest/$(dirname "$f")"
	ln -s "$top/$f" "$dest/$f"
done
# Sources gone from the tree leave dangling links.
find "$dest" -xtype l -delete
