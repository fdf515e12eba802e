#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/core/bench-record.sh on stand-in programs: the file is named after
# the version, headed by the commit, holds every program's output, and the
# exit status says whether any failed; every program runs.
#
# Prints TAP; exit 0 pass, 1 fail.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\necho "fig 1: 42 ns"\n' > "$tmp/good"
printf '#!/bin/sh\necho "FAIL: a target"\nexit 1\n' > "$tmp/bad"
chmod +x "$tmp/good" "$tmp/bad"

version=$("$root/scripts/version.sh")
git -C "$root" diff --quiet HEAD -- 2>/dev/null || version=$version-dirty
file=$tmp/out/demo-$version.txt

has_lines() {	# has_lines FILE LINE...: FILE holds each LINE whole
	local f=$1
	shift
	local l
	for l in "$@"; do grep -qxF -- "$l" "$f" || return 1; done
}

tap_plan 7
"$here/bench-record.sh" demo "$tmp/out" "$tmp/good" > "$tmp/stdout"
tap_is "exit 0 when every program passed" 0 $?
tap_ok "the file named after the version, the path printed last" \
	test "$(tail -n 1 "$tmp/stdout")" = "output: $file"
tap_ok "its head names the version and the full commit" has_lines "$file" \
	"# demo, timewire $version, commit $(git -C "$root" rev-parse HEAD)"
tap_ok "the program's output kept" has_lines "$file" "fig 1: 42 ns"
tap_ok "and shown" has_lines "$tmp/stdout" "fig 1: 42 ns"
"$here/bench-record.sh" demo "$tmp/out" "$tmp/bad" "$tmp/good" > /dev/null
tap_is "exit 1 when a program failed" 1 $?
tap_ok "the programs after a failed one still run" \
	has_lines "$file" "FAIL: a target" "fig 1: 42 ns"
tap_done
