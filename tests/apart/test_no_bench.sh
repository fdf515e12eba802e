#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The product carries nothing of the experiments: no function or object
# built in bench/ is in the timewire binary or in libtimewire.a (their
# symbols from nm, the objects' names from ar), and "timewire tfib bench",
# now tw-tfib-bench, is gone from the CLI, its man pages, its completion
# and the documentation.  The core's sources the tools build for the host
# (bench/lib/core-*.o) are the product's, and not looked for.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

command -v nm >/dev/null || tap_skip_all "nm (binutils) not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TW=$root/userspace/timewire/timewire
LIB=$root/userspace/libtimewire.a

tap_plan 6

tap_ok "the product and the experiment tools build" \
	eval 'make -s -C "$root/userspace" >/dev/null && make -s -C "$root/bench" >/dev/null'

# What bench/ defines: its objects' global symbols but main.
find "$root/bench" -name '*.o' ! -name 'core-*.o' > "$tmp/objects"
xargs -r nm -g --defined-only < "$tmp/objects" 2>/dev/null |
	awk 'NF == 3 && $3 != "main" { print $3 }' | sort -u > "$tmp/bench.syms"

# no_bench_symbols FILE: FILE defines none of them.
no_bench_symbols() {
	local hits
	[ -s "$tmp/bench.syms" ] || { tap_diag "no symbol of bench/ found to look for"; return 1; }
	nm --defined-only "$1" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u |
		comm -12 - "$tmp/bench.syms" > "$tmp/hits"
	hits=$(paste -sd ' ' "$tmp/hits")
	[ -z "$hits" ] || { tap_diag "${1##*/} defines bench/'s $hits"; return 1; }
}
tap_ok "timewire defines none of the $(wc -l < "$tmp/bench.syms") symbols of bench/'s objects" \
	no_bench_symbols "$TW"
lib_clean() {
	local o bad=0
	no_bench_symbols "$LIB" || bad=1
	while read -r o; do
		ar t "$LIB" | grep -qx "${o##*/}" &&
			{ bad=1; tap_diag "libtimewire.a has a member ${o##*/}, as bench/ does"; }
	done < "$tmp/objects"
	return $bad
}
tap_ok "libtimewire.a has no object of bench/ and defines none of its symbols" lib_clean

# --- "timewire tfib bench" is gone ------------------------------------------------
cli_has_no_bench() {
	"$TW" tfib help | awk '$0 == "Commands:" { on = 1; next } on { print $1 }' |
		grep -qx bench && { tap_diag "tfib help lists bench"; return 1; }
	"$TW" tfib bench >/dev/null 2>"$tmp/err" && return 1
	grep -q 'unknown command "bench"' "$tmp/err" ||
		{ sed 's/^/# /' "$tmp/err"; return 1; }
}
tap_ok "timewire tfib has no bench command, and refuses one" cli_has_no_bench
# mentions FILE...: the lines naming "tfib bench", as diagnostics; true if none.
mentions() {
	! grep -Hn "tfib bench" "$@" | sed 's/^/# /' | grep .
}
tap_ok "no man page or completion of the product names tfib bench" \
	mentions "$root"/man/* "$root"/completion/*
tap_ok "README.md and Documentation/*.rst name tw-tfib-bench, not tfib bench" \
	eval 'mentions "$root/README.md" "$root"/Documentation/*.rst &&
	      grep -q "tw-tfib-bench" "$root/Documentation/tfib.rst"'

tap_done
