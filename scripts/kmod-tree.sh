#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Mirror the kernel sources into a build directory as symlinks (as cp -rs
# would, without the objects of an in-tree build), so that Kbuild, run with
# M=<that directory>, writes its objects there and not next to the sources:
# the modules of the test kernel then never mix with those of the running
# kernel.  Idempotent: new sources are linked, removed ones unlinked, and
# objects already built stay.
#
# Usage: scripts/kmod-tree.sh DEST
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/modules.sh
. "$top/scripts/modules.sh"
[ $# -eq 1 ] || { echo "usage: $0 DEST" >&2; exit 2; }
dest=$1
mkdir -p "$dest"

dirs=(core include tests/harness/twwarn)
mapfile -t -O ${#dirs[@]} dirs < <(tw_module_dirs)
cd "$top"
# Sources only: what Kbuild produces in a tree is left behind.
find Kbuild modules.list scripts/modules.sh "${dirs[@]}" -type f \
	! -name '*.o' ! -name '*.ko' ! -name '*.mod' ! -name '*.mod.c' \
	! -name '.*.cmd' ! -name '*.a' ! -name 'modules.order' \
	! -name 'Module.symvers' ! -name '*.symvers' -print |
while read -r f; do
	[ -L "$dest/$f" ] && continue
	mkdir -p "$dest/$(dirname "$f")"
	ln -s "$top/$f" "$dest/$f"
done
# Sources gone from the tree leave dangling links.
find "$dest" -xtype l -delete
