#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The source tree of one of timewire's DKMS packages (packaging/dkms/NAME.conf:
# timewire, timewire-qaware), as dkms takes it from /usr/src/NAME-VERSION/:
# its dkms.conf with the version set, the modules its BUILT_MODULE_NAME
# entries name (their directories, and a modules.list of them alone, so
# that the tree's Kbuild builds those and no other), the core and the
# headers they include, the scripts Kbuild runs, and the version recorded
# (.tarball-version), so that modinfo reports this tree's.  debian/rules
# makes the DKMS packages with it; by hand, on any distribution:
#   scripts/dkms-src.sh timewire /usr/src && dkms install timewire/VERSION
#
# Usage: scripts/dkms-src.sh NAME DEST     prints DEST/NAME-VERSION
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/modules.sh
. "$top/scripts/modules.sh"
[ $# -eq 2 ] || { echo "usage: $0 NAME DEST" >&2; exit 2; }
name=$1 dest=$2
conf=$top/packaging/dkms/$name.conf
die() { echo "dkms-src: $*" >&2; exit 1; }
[ -f "$conf" ] || die "no $conf"

version=$("$top/scripts/version.sh")
mapfile -t modules < <(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"$/\1/p' "$conf")
[ ${#modules[@]} -gt 0 ] || die "$conf names no BUILT_MODULE_NAME"
out=$dest/$name-$version
rm -rf "$out"
mkdir -p "$out/scripts"

# The registry's lines of these modules, in its order; their directories.
tw_modules_table | awk -v want="${modules[*]}" '
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1 }
	$1 in keep { print; delete keep[$1] }
	END { for (m in keep) { print "not in modules.list: " m > "/dev/stderr"; bad = 1 }
	      exit bad }' > "$out/modules.list" || die "$conf names a module modules.list lacks"
mapfile -t dirs < <(awk '{ print $2 }' "$out/modules.list")

cd "$top"
cp -a Kbuild core include "${dirs[@]}" "$out/"
cp -a scripts/modules.sh scripts/version.sh scripts/version.mk "$out/scripts/"
# What a build in this tree leaves is not source.
find "$out" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
	-o -name '.*.cmd' -o -name 'modules.order' -o -name 'Module.symvers' \) -delete
rm -rf "$out/mptcp-qaware/gen"
find "$out" -name .gitignore -delete
echo "$version" > "$out/.tarball-version"
sed "s/#MODULE_VERSION#/$version/g" "$conf" > "$out/dkms.conf"
echo "$out"
