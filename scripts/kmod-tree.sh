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
# Sources only: what Kbuild produces in a tree is left behind.  The links
# still missing are grouped by directory, for one mkdir and one ln a
# directory: every process started costs on a loaded machine.
declare -A missing
while read -r f; do
	[ -L "$dest/$f" ] && continue
	d=.
	[[ $f == */* ]] && d=${f%/*}
	missing[$d]+=$top/$f$'\n'
done < <(find Kbuild modules.list scripts/modules.sh "${dirs[@]}" -type f \
	! -name '*.o' ! -name '*.ko' ! -name '*.mod' ! -name '*.mod.c' \
	! -name '.*.cmd' ! -name '*.a' ! -name 'modules.order' \
	! -name 'Module.symvers' ! -name '*.symvers' -print)
link_dirs=("${!missing[@]}")
if [ ${#link_dirs[@]} -gt 0 ]; then
	mkdir -p "${link_dirs[@]/#/$dest/}"
	for d in "${link_dirs[@]}"; do
		mapfile -t files < <(printf %s "${missing[$d]}")
		ln -s -t "$dest/$d" "${files[@]}"
	done
fi
# Sources gone from the tree leave dangling links.
find "$dest" -xtype l -delete
