#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel side of each module's generic netlink family, generated from
# its spec as the kernel's own families are (net/core/netdev-genl-gen.c):
# <dir>/netlink-gen.c holds the attribute policies and the split-op table,
# <dir>/netlink-gen.h declares them and the handlers netlink.c defines.
# ynl-gen-c.py of linux-source-6.12 writes them (scripts/ynl-gen-kernel.py
# pins it).  Both files are committed, so that building a module needs no
# Python: after changing a spec, run this and commit what changed.
#
#   scripts/nlgen-kernel.sh [--check] [DIR...]
#   scripts/nlgen-kernel.sh --spec SPEC -o OUTDIR
#
# DIR: module directories of modules.list (all of them by default), each
# generated from the spec of its family.  --check writes nothing: it shows
# how each file would change and fails if one would.  --spec renders one
# spec into OUTDIR/netlink-gen.[ch].
# Environment: YNL_PYTHON (default /usr/bin/python3, with python3-yaml and
# python3-jsonschema: the generator validates the spec against its schema).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/modules.sh
. "$top/scripts/modules.sh"
py=${YNL_PYTHON:-/usr/bin/python3}

usage() {
	sed -n '11,17s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

check=0 spec= out=
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--spec) [ $# -ge 2 ] || usage; spec=$2; shift ;;
	-o) [ $# -ge 2 ] || usage; out=$2; shift ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
{ [ -n "$spec" ] && [ -z "$out" ]; } && usage
{ [ -z "$spec" ] && [ -n "$out" ]; } && usage

src=$("$top/scripts/linux-src.sh")
ynl=$src/tools/net/ynl
[ -f "$ynl/ynl-gen-c.py" ] || { echo "nlgen-kernel: no ynl-gen-c.py in $ynl" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The generator names the spec in its output relative to the tree root,
# which it finds by a MAINTAINERS file, and reads the schema of the spec's
# protocol from the directory above the spec's: a scratch tree shaped like
# the kernel's gives both, and the path the spec has in this tree too.
tree=$work/tree
mkdir -p "$tree/Documentation/netlink/specs"
touch "$tree/MAINTAINERS"
ln -s "$src"/Documentation/netlink/*.yaml "$tree/Documentation/netlink/"

# render SPEC OUTDIR: OUTDIR/netlink-gen.c and OUTDIR/netlink-gen.h.
render() {
	local copy mode ext
	copy=$tree/Documentation/netlink/specs/$(basename "$1")
	cp "$1" "$copy"
	mkdir -p "$2"
	for mode in source header; do
		ext=c
		[ $mode = header ] && ext=h
		"$py" "$top/scripts/ynl-gen-kernel.py" "$ynl" --mode kernel \
			--$mode --spec "$copy" -o "$2/netlink-gen.$ext" || {
			echo "nlgen-kernel: $1: ynl-gen-c.py failed" >&2
			return 1
		}
	done
	rm -f "$copy"
}

if [ -n "$spec" ]; then
	render "$spec" "$out"
	exit 0
fi

# family_of DIR: the family of the module in DIR, from modules.list.
family_of() {
	tw_modules_table | awk -v d="$1" '$2 == d { print $3; found = 1 }
		END { exit !found }'
}

if [ $# -eq 0 ]; then
	mapfile -t dirs < <(tw_module_dirs)
else
	dirs=("$@")
fi

rc=0
for dir in "${dirs[@]}"; do
	dir=${dir%/}
	family=$(family_of "$dir") || {
		echo "nlgen-kernel: $dir is no module directory of modules.list" >&2
		exit 1
	}
	new=$work/out/$dir
	render "$top/Documentation/netlink/specs/$family.yaml" "$new"
	for f in netlink-gen.c netlink-gen.h; do
		if cmp -s "$new/$f" "$top/$dir/$f"; then
			continue
		fi
		if [ $check -eq 1 ]; then
			echo "nlgen-kernel: $dir/$f differs from what its spec generates:"
			diff -u --label "$dir/$f" --label "$dir/$f (generated)" \
				"$top/$dir/$f" "$new/$f" || true
			rc=1
		else
			cp "$new/$f" "$top/$dir/$f"
			echo "	GEN	$dir/$f"
		fi
	done
done
exit $rc
