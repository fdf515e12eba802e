#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The programs that speak generic netlink, built against libnl-tiny, the
# library OpenWrt ships instead of libnl-genl-3: libnl-tiny from its source
# tarball into the cache outside the clone (scripts/libnl-tiny.sh), then
# make LIBNL=libnl-tiny (the CLI and bench/'s tools, in the tree's mirror
# .build/libnl-tiny/) and the tests' clients in that mirror.  Every one
# must link libnl-tiny and nothing of libnl-3.  Then the CLI's host tests
# run against them: tests/cli/test_cli.sh (help, refusals, completion; no
# module needed), test_userlib, and test_family, whose requests go through
# libnl-tiny to the kernel's own nlctrl family and back.  A build that
# fails is a failure, never a skip: the tarball and cmake are make deps'.
#
# Prints TAP; exit 0 pass, 1 fail.
# Functions below run from tap_ok, which shellcheck cannot see.
# shellcheck disable=SC2317
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

tree=$root/.build/libnl-tiny
logs=$tree/test-logs
mkdir -p "$logs"
jobs=-j$(nproc)

# step NAME DESC CMD...: one result, its output in $logs/NAME.log.
step() {
	local name=$1
	shift
	tap_step "$logs/$name.log" "$@"
}

# links_tiny MIN FILE...: none needs libnl-3, at least MIN need libnl-tiny
# (the linker leaves it out of a program that makes no call of it), and
# those find it in the cache.
links_tiny() {
	local min=$1 f needed linked=0 bad=0

	shift
	for f in "$@"; do
		needed=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
		if grep -q '^libnl-\(genl-\)\?3' <<<"$needed"; then
			tap_diag "${f#"$tree"/} links libnl-3"
			bad=1
		fi
		grep -qx 'libnl-tiny\.so\.[0-9]*' <<<"$needed" || continue
		linked=$((linked + 1))
		ldd "$f" 2>/dev/null | grep -qF "=> $prefix/lib/libnl-tiny.so" || {
			tap_diag "${f#"$tree"/} does not find libnl-tiny in $prefix/lib"
			bad=1
		}
	done
	tap_diag "$linked of $# link libnl-tiny"
	[ "$bad" -eq 0 ] && [ "$linked" -ge "$min" ]
}

# check_tap NAME DESC CMD...: a TAP program passes: exit 0, results, no failure.
check_tap() {
	local name=$1 desc=$2 log=$logs/$1.log rc
	shift 2
	"$@" > "$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^ok' "$log" && ! grep -q '^not ok' "$log"; then
		tap_result 0 "$desc ($(grep -c '^ok' "$log") results)"
		return
	fi
	tap_diag "$name exited $rc"
	grep -E '^(not ok|1\.\.0|# )' "$log" | grep -vE '^#  RUN |^# +OK  ' |
		head -n 20 | sed 's/^/# /'
	tap_result 1 "$desc"
}

tap_plan 10

if ! prefix=$("$root/scripts/libnl-tiny.sh" 2> "$logs/libnl-tiny.log"); then
	sed 's/^/# /' "$logs/libnl-tiny.log" | tail -n 20
	tap_result 1 "libnl-tiny built from its tarball"
	tap_done
fi
tap_result 0 "libnl-tiny built from its tarball ($prefix)"

cli=$tree/userspace/timewire/timewire
if step userspace "make LIBNL=libnl-tiny builds the CLI and the tools in .build/libnl-tiny" \
	make -C "$root" "$jobs" LIBNL=libnl-tiny userspace; then
	# The programs built there: the mirror's sources, scripts too, are links.
	mapfile -t tools < <(find "$tree/bench" -name 'tw-*' -type f -perm -u+x)
	tap_ok "the CLI links libnl-tiny, not libnl-3" links_tiny 1 "$cli"
	tap_ok "the tools that speak netlink link libnl-tiny, none libnl-3" \
		links_tiny 1 "${tools[@]}"
else
	tap_result 1 "the CLI links libnl-tiny, not libnl-3"
	tap_result 1 "the tools that speak netlink link libnl-tiny, none libnl-3"
fi

# The tests' clients: the host tests of the CLI's library, the omware and
# tfib suites' programs and the netlink fuzzer (tests/lib/twt_*).
ksft=$("$root/scripts/linux-src.sh" 2>/dev/null)/tools/testing/selftests
build_clients() {
	make -C "$tree/tests/cli" "$jobs" LIBNL=libnl-tiny KSFT="$ksft" &&
	make -C "$tree/tests/omware" "$jobs" LIBNL=libnl-tiny KSFT_DIR="$ksft" &&
	make -C "$tree/tests/tfib" "$jobs" LIBNL=libnl-tiny KSFT_DIR="$ksft" &&
	make -C "$tree/tests/nlfuzz" "$jobs" LIBNL=libnl-tiny KSFT_DIR="$ksft"
}
clients=("$tree"/tests/{cli/test_family,omware/omware_ctl,omware/omware_session,tfib/tfib_ctl,nlfuzz/nlfuzz})
if step clients "the tests' netlink clients build against libnl-tiny" build_clients; then
	tap_ok "the tests' clients link libnl-tiny, not libnl-3" \
		links_tiny ${#clients[@]} "${clients[@]}"
else
	tap_result 1 "the tests' clients link libnl-tiny, not libnl-3"
fi

check_tap test_cli "tests/cli/test_cli.sh on the libnl-tiny CLI" \
	env TW_CLI="$cli" "$root/tests/cli/test_cli.sh"
check_tap test_userlib "test_userlib on libnl-tiny" "$tree/tests/cli/test_userlib"
check_tap test_family "test_family on libnl-tiny: requests to nlctrl and back" \
	"$tree/tests/cli/test_family"
# The runner has built the tree's own first: it is left as it was.
own_cli_default() {
	readelf -d "$root/userspace/timewire/timewire" | grep -q 'NEEDED.*libnl-genl-3'
}
tap_ok "the tree's own CLI still links libnl-genl-3" own_cli_default
tap_done
