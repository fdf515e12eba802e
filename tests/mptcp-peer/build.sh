#!/usr/bin/env bash
# Build the upstream MPTCP selftests of the target kernel from linux-source,
# against that kernel's own UAPI headers (Debian 12's libc headers are 6.1).
# Output: .build/mptcp-selftests (the programs and scripts, ready to run).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/linux-src.sh")
out=$top/.build/mptcp-selftests
khdr=$top/.build/khdr
stamp=$out/.stamp

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(cat "$src/.stamp")" ]; then
	echo "$out"
	exit 0
fi

# UAPI headers as `make headers` would install them.
if [ ! -f "$khdr/.stamp" ] || [ "$(cat "$khdr/.stamp")" != "$(cat "$src/.stamp")" ]; then
	echo "mptcp-peer: installing UAPI headers" >&2
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

echo "mptcp-peer: building upstream MPTCP selftests" >&2
rm -rf "$out"
sel=$src/tools/testing/selftests/net
mkdir -p "$out/net/mptcp"
make -s -C "$sel/mptcp" KHDR_INCLUDES="-isystem $khdr/include" \
	OUTPUT="$out/net/mptcp" "$out/net/mptcp/mptcp_connect" \
	"$out/net/mptcp/pm_nl_ctl" "$out/net/mptcp/mptcp_sockopt" \
	"$out/net/mptcp/mptcp_inq" >&2
# Same layout as upstream: the scripts source ../lib.sh and ../net_helper.sh.
cp "$sel"/mptcp/*.sh "$sel/mptcp/settings" "$out/net/mptcp/"
cp "$sel/lib.sh" "$sel/net_helper.sh" "$out/net/"
# The series the scripts were written for: their checks may hold for it only.
sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$src/Makefile" | paste -sd . > "$out/series"
cat "$src/.stamp" > "$stamp"
echo "$out"
