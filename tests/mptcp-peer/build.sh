#!/usr/bin/env bash
# Build the upstream MPTCP selftests of one kernel series from its own
# linux-source, against that series' own UAPI headers (Debian 12's libc
# headers are 6.1): the scripts' checks are their kernel's (pm_netlink.sh's
# limits differ between 6.12 and 7.3), so each series the guests boot has
# its build, and upstream.sh runs the one of the running kernel.
# Usage: build.sh [SERIES|RELEASE]  (7.3, 7.3.4+deb13-amd64, 6.1; default:
# the series of the host's tarball, 6.12).  scripts/linux-src.sh SERIES finds
# the source: the host's tarball, or Debian's linux-source-SERIES in the
# cache.  The programs are built here, natively: they run on the host's own
# root in the guest, whatever kernel it boots.
# Output: .build/mptcp-selftests/SERIES (the programs and scripts, ready to
# run); prints it.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
series=
if [ -n "${1:-}" ]; then
	series=$(echo "${1%%[-+]*}" | cut -d. -f1,2)
	[[ $series =~ ^[0-9]+\.[0-9]+$ ]] ||
		{ echo "mptcp-peer: '$1' names no series (7.3, 7.3.4+deb13-amd64)" >&2; exit 2; }
fi
src=$("$top/scripts/linux-src.sh" ${series:+"$series"})
# The series of the source found: the host's tarball's by default.
series=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$src/Makefile" | paste -sd .)
root=$top/.build/mptcp-selftests
out=$root/$series
khdr=$top/.build/khdr/$series
stamp=$out/.stamp

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(cat "$src/.stamp")" ]; then
	echo "$out"
	exit 0
fi
# The one build of before (6.12's, in the directory itself) is not looked at.
rm -rf "$root/net" "$root/series" "$root/.stamp" "$top/.build/khdr/include" \
	"$top/.build/khdr/.stamp"

# UAPI headers as `make headers` would install them.
if [ ! -f "$khdr/.stamp" ] || [ "$(cat "$khdr/.stamp")" != "$(cat "$src/.stamp")" ]; then
	echo "mptcp-peer: installing $series's UAPI headers" >&2
	rm -rf "$khdr"
	mkdir -p "$khdr/include"
	# headers_install.sh runs scripts/unifdef and names files relative
	# to the top of the source tree.
	gcc -O2 -o "$src/scripts/unifdef" "$src/scripts/unifdef.c"
	for d in include/uapi arch/x86/include/uapi; do
		(cd "$src/$d" && find . -name '*.h' -printf '%P\n') | while read -r f; do
			mkdir -p "$khdr/include/$(dirname "$f")"
			(cd "$src" && sh scripts/headers_install.sh \
				"$d/$f" "$khdr/include/$f")
		done
	done
	cat "$src/.stamp" > "$khdr/.stamp"
fi

echo "mptcp-peer: building upstream MPTCP selftests of $series" >&2
rm -rf "$out"
sel=$src/tools/testing/selftests/net
mkdir -p "$out/net/mptcp"
make -s -C "$sel/mptcp" KHDR_INCLUDES="-isystem $khdr/include" \
	OUTPUT="$out/net/mptcp" "$out/net/mptcp/mptcp_connect" \
	"$out/net/mptcp/pm_nl_ctl" "$out/net/mptcp/mptcp_sockopt" \
	"$out/net/mptcp/mptcp_inq" >&2
# Same layout as upstream: the scripts source what their series has of
# ../lib.sh, ../net_helper.sh and ../lib/sh/ (7.3's lib.sh does).
cp "$sel"/mptcp/*.sh "$sel/mptcp/settings" "$out/net/mptcp/"
for f in lib.sh net_helper.sh; do
	[ ! -f "$sel/$f" ] || cp "$sel/$f" "$out/net/"
done
if [ -d "$sel/lib/sh" ]; then
	mkdir -p "$out/net/lib"
	cp -r "$sel/lib/sh" "$out/net/lib/"
fi
# The series the scripts were written for: their checks hold for it only.
echo "$series" > "$out/series"
cat "$src/.stamp" > "$stamp"
echo "$out"
