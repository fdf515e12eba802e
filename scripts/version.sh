#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The version this tree builds: the one source of what `timewire version`
# and each module's `modinfo -F version` report.
#
#   a release tarball (make dist)  the version recorded in it, .tarball-version
#   a git checkout                 VERSION, or VERSION.N~HASH when HEAD is N
#                                  commits past the tag vVERSION (without
#                                  one, past the commit that last changed
#                                  VERSION); HASH is HEAD's abbreviated id
#   anything else                  VERSION
#
# VERSION.N~HASH sorts after VERSION and before the next release for both
# dpkg and apk (OpenWrt), and both accept it: apk's grammar is digits{.
# digits}{letter}{_suffix{N}}{~hexhash}{-rN}, which has no '+', while
# dpkg's has no '_'.
#
# Usage: scripts/version.sh
set -eu
# A link to this script (the build mirrors, scripts/kmod-tree.sh) reads the
# tree it lies in.
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

# A release's numbers only: what both packagers accept, and safe to quote.
checked() {	# checked VERSION FROM
	if ! printf '%s\n' "$1" | grep -Eqx '[0-9]+(\.[0-9]+)*(\.[0-9]+~[0-9a-f]+)?'; then
		echo "version.sh: '$1' in $2 is not a version (digits and dots)" >&2
		exit 1
	fi
	printf '%s\n' "$1"
}

if [ -f "$top/.tarball-version" ]; then
	checked "$(cat "$top/.tarball-version")" "$top/.tarball-version"
	exit 0
fi
release=$(checked "$(cat "$top/VERSION")" "$top/VERSION")

# Only a checkout of this tree, not one it was copied into.
if ! command -v git >/dev/null ||
   [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" != "$top" ]; then
	echo "$release"
	exit 0
fi
git() { command git -C "$top" "$@"; }
base=$(git rev-parse -q --verify "refs/tags/v$release^{commit}" ||
       git log -1 --format=%H -- VERSION)
if [ -n "$base" ]; then
	n=$(git rev-list --count "$base..HEAD")
else
	n=$(git rev-list --count HEAD)
fi
if [ "$n" -eq 0 ]; then
	echo "$release"
else
	echo "$release.$n~$(git rev-parse --short=7 HEAD)"
fi
