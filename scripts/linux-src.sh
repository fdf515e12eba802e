#!/usr/bin/env bash
# Extract from Debian's linux-source-6.12 tarball only what the build and the
# tests need (selftests, ynl, netlink specs, checkpatch, UAPI headers, the
# top Makefile that names its version) into
# .build/linux-src.  Nothing extracted here is ever committed.
# With a SERIES other than the host's tarball's (7.3: the upstream MPTCP
# selftests of make check-7's kernel), the same from that series' tarball,
# fetched into the cache by scripts/linux-source.sh, into
# .build/linux-src-SERIES.
# Prints the extracted tree's path.  Idempotent: a stamp records the tarball.
# Usage: scripts/linux-src.sh [SERIES]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
dest=$top/.build/linux-src
host_series=$(basename "$tarball" | sed -n 's/^linux-source-\(.*\)\.tar\.xz$/\1/p')
if [ -n "${1:-}" ] && [ "$1" != "$host_series" ]; then
	tarball=$("$top/scripts/linux-source.sh" "$1")
	dest=$top/.build/linux-src-$1
fi
stamp=$dest/.stamp

[ -r "$tarball" ] || { echo "linux-src: $tarball missing (run make deps)" >&2; exit 1; }
want="$(stat -c '%s %Y' "$tarball") v5"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$dest"
	exit 0
fi

rm -rf "$dest"
mkdir -p "$dest"
top_dir=$(tar -tJf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
paths=(
	Makefile
	tools/testing/selftests/kselftest.h
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest
	tools/testing/selftests/run_kselftest.sh
	tools/testing/selftests/lib.mk
	tools/testing/selftests/net/mptcp
	tools/testing/selftests/net/lib.sh
	tools/testing/selftests/net/lib
	tools/testing/selftests/net/net_helper.sh
	tools/net/ynl
	tools/include
	tools/scripts
	tools/build
	Documentation/netlink
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	scripts/headers_install.sh
	scripts/unifdef.c
	include/uapi
	arch/x86/include/uapi
	usr/include
)
args=()
for p in "${paths[@]}"; do args+=("$top_dir/$p"); done
echo "linux-src: extracting from $tarball" >&2
# Missing members (a path that moved between versions) must not abort the rest.
tar -xJf "$tarball" -C "$dest" --strip-components=1 "${args[@]}" 2>/dev/null || true
[ -f "$dest/scripts/checkpatch.pl" ] || { echo "linux-src: extraction failed" >&2; exit 1; }
# The guest sees this tree read-only: compile ynl's Python here, once, or
# every guest run recompiles it (tens of seconds under emulation).
/usr/bin/python3 -m compileall -q "$dest/tools/net/ynl" >/dev/null 2>&1 || true
echo "$want" > "$stamp"
echo "$dest"
