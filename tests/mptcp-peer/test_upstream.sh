#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# upstream.sh and pm_netlink.sh on the build machine, over a source tree
# (TW_ROOT) holding stand-in builds of two series and a uname on PATH that
# names the running kernel: each kernel runs its own series' scripts, in
# their directory, with the arguments given; a series without a build
# skips, naming the build to run; build.sh refuses what names no series.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
cat > "$work/bin/uname" <<'STANDIN'
#!/bin/sh
echo "$TW_TEST_RELEASE"
STANDIN
chmod +x "$work/bin/uname"
# A stand-in of an upstream script in each series' build: it prints its
# series, its directory and its arguments.
for s in 6.12 7.3; do
	d=$work/root/.build/mptcp-selftests/$s/net/mptcp
	mkdir -p "$d"
	for f in probe.sh pm_netlink.sh; do
		# shellcheck disable=SC2016 # expanded by the stand-in
		printf '#!/bin/sh\necho "%s $PWD $*"\n' "$s" > "$d/$f"
		chmod +x "$d/$f"
	done
done
sel=$work/root/.build/mptcp-selftests

# on RELEASE SCRIPT ARGS...: the wrapper SCRIPT (upstream.sh, pm_netlink.sh)
# as if RELEASE were running; its output in $work/out, its status in $rc.
on() {
	local release=$1 script=$2
	shift 2
	TW_TEST_RELEASE=$release PATH=$work/bin:$PATH TW_ROOT=$work/root \
		"$here/$script" "$@" > "$work/out" 2>&1
	rc=$?
}

tap_plan 9
on 7.3.4+deb13-amd64 upstream.sh probe.sh -x 'a b'
tap_is "7.3 runs 7.3's script, in its directory, with its arguments" \
	"7.3 $sel/7.3/net/mptcp -x a b" "$(cat "$work/out")"
on 6.12.117+deb12-amd64 upstream.sh probe.sh
tap_is "6.12 runs 6.12's" "6.12 $sel/6.12/net/mptcp " "$(cat "$work/out")"
on 6.12.117-twdebug upstream.sh probe.sh
tap_is "a kernel built here is known by its series too" \
	"6.12 $sel/6.12/net/mptcp " "$(cat "$work/out")"
on 7.3.4+deb13-amd64 pm_netlink.sh
tap_is "pm_netlink.sh runs the running kernel's own" \
	"7.3 $sel/7.3/net/mptcp " "$(cat "$work/out")"
on 6.1.0-57-amd64 pm_netlink.sh
tap_is "a series without a build skips" 4 "$rc"
tap_ok "saying which build to run" \
	grep -q '^1\.\.0 # SKIP pm_netlink.sh of linux-source-6.1 .*build\.sh 6\.1 ' "$work/out"
rm "$sel/7.3/net/mptcp/probe.sh"
on 7.3.4+deb13-amd64 upstream.sh probe.sh
tap_is "so does a script missing from the series' build" 4 "$rc"
tap_not "build.sh refuses a name without a series" \
	"$here/build.sh" 7 2> "$work/out"
tap_ok "saying what it wants" grep -q "names no series" "$work/out"
tap_done
