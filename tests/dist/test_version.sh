#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/version.sh, on scratch git trees holding it and a VERSION file:
# VERSION at the commit that set it or at its tag, VERSION.N~HASH N
# commits past, the same through a link to the script (the build
# mirrors), VERSION alone in a copy that is not a checkout's top, and the
# version a tarball records above all.  What it prints is a version dpkg
# and apk (OpenWrt) both accept, ordered between the release and the next.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

command -v git >/dev/null || tap_skip_all "git not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree

git() {
	command git -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false \
		-c tag.gpgsign=false "$@"
}
commit() {	# commit MESSAGE: one more commit of the scratch tree
	git -C "$tree" add -A && git -C "$tree" commit -q --allow-empty -m "$1"
}
version() { "$tree/scripts/version.sh"; }
head_id() { git -C "$tree" rev-parse --short=7 HEAD; }

# apk's grammar (apk-tools' version.c): digits{.digits}{letter}
# {_suffix{N}}...{~hexhash}{-rN}.
apk_valid() {
	printf '%s\n' "$1" | grep -Eqx \
		'[0-9]+(\.[0-9]+)*[a-z]?(_(alpha|beta|pre|rc|cvs|svn|git|hg|p)[0-9]*)*(~[0-9a-f]+)?(-r[0-9]+)?'
}
dpkg_orders() {	# dpkg_orders A B C: dpkg sorts A < B < C
	dpkg --compare-versions "$1" lt "$2" && dpkg --compare-versions "$2" lt "$3"
}

tap_plan 12

mkdir -p "$tree/scripts"
cp "$root/scripts/version.sh" "$tree/scripts/"
echo 0.1.0 > "$tree/VERSION"
git init -q "$tree" && commit "set VERSION"
tap_is "at the commit that set VERSION: VERSION" 0.1.0 "$(version)"

commit two && commit three
past=$(version)
tap_is "two commits past it: VERSION.2~HASH" "0.1.0.2~$(head_id)" "$past"

mkdir -p "$tmp/mirror/scripts"
ln -s "$tree/scripts/version.sh" "$tmp/mirror/scripts/version.sh"
tap_is "through a link to the script: the tree the script lies in" \
	"$past" "$("$tmp/mirror/scripts/version.sh")"

git -C "$tree" tag v0.1.0 HEAD~1
tap_is "counted from the tag vVERSION when there is one" "0.1.0.1~$(head_id)" "$(version)"

echo 0.2.0 > "$tree/VERSION" && commit "set VERSION"
tap_is "a new VERSION starts again at VERSION" 0.2.0 "$(version)"

mkdir -p "$tree/copy/scripts"
cp "$tree/VERSION" "$tree/copy/"
cp "$tree/scripts/version.sh" "$tree/copy/scripts/"
echo 0.3.0 > "$tree/copy/VERSION"
commit "a copy inside" && commit more
tap_is "a copy inside a checkout, not its top: its VERSION alone" \
	0.3.0 "$("$tree/copy/scripts/version.sh")"

echo 0.2.0.4~abc1234 > "$tree/.tarball-version"
tap_is "a tarball's recorded version wins over git" 0.2.0.4~abc1234 "$(version)"
echo 0.2.0+git4 > "$tree/.tarball-version"
tap_not "a recorded version with a character a packager refuses fails" \
	eval 'version 2>/dev/null'
rm "$tree/.tarball-version"

# --- what the packagers accept ----------------------------------------------------
mine=$("$root/scripts/version.sh")
tap_ok "this tree's version ($mine) and a later one are apk versions" \
	eval 'apk_valid "$mine" && apk_valid "$past" && apk_valid 0.1.0'
tap_not "apk's grammar as checked here refuses +git and -dirty" \
	eval 'apk_valid 0.1.0+git2.gabc1234 || apk_valid 0.1.0-dirty'
if command -v dpkg >/dev/null; then
	tap_ok "this tree's version ($mine) and a later one are dpkg versions" \
		eval 'dpkg --validate-version "$mine" && dpkg --validate-version "$past"'
	tap_ok "dpkg orders 0.1.0 < $past < 0.1.0.3~0 < 0.1.1" \
		eval 'dpkg_orders 0.1.0 "$past" 0.1.0.3~0 && dpkg_orders "$past" 0.1.0.3~0 0.1.1'
else
	tap_skip "this tree's version is a dpkg version" "dpkg not installed"
	tap_skip "dpkg orders the versions" "dpkg not installed"
fi

tap_done
