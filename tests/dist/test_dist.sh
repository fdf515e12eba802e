#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The release tarball (make dist), unpacked in a scratch directory: named
# and recorded with the tree's version, git's files and the generated ones
# and nothing else (no build output, cache or git metadata), and a release
# build from it without Python on PATH: plain make, the modules for the
# test kernel and the CLI, leaves the generated files as they came and
# builds nothing of bench/.  `timewire version` and `modinfo -F version`
# of every module built report the tree's version.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=scripts/modules.sh
. "$root/scripts/modules.sh"
# shellcheck source=scripts/kernel-version.sh
. "$root/scripts/kernel-version.sh"

for tool in git make tar gcc; do
	command -v $tool >/dev/null || tap_skip_all "$tool not installed"
done
[ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$root" ] ||
	tap_skip_all "not a git checkout: make dist packs git's files"
kver=$(tw_kernel_installed)
[ -n "$kver" ] && [ -f "/lib/modules/$kver/build/Makefile" ] ||
	tap_skip_all "no test kernel headers (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$("$root/scripts/version.sh") || exit 1
name=timewire-$version
tarball=$root/.build/$name.tar.gz
src=$tmp/$name

# show LOG: the end of a failed step's output, as diagnostics.
show() { tail -n 20 "$1" | sed 's/^/# /'; }

tap_plan 13

make_dist() {
	make -C "$root" dist > "$tmp/dist.log" 2>&1 || { show "$tmp/dist.log"; return 1; }
	grep -Fqx "$tarball" "$tmp/dist.log" && [ -s "$tarball" ]
}
tap_ok "make dist writes .build/$name.tar.gz" make_dist
tar -tzf "$tarball" 2>/dev/null | sort > "$tmp/entries"
tap_ok "every entry lies in $name/" \
	eval '[ -s "$tmp/entries" ] && ! grep -v "^$name/" "$tmp/entries" | sed "s/^/# outside: /" | grep .'
tar -xzf "$tarball" -C "$tmp" 2>/dev/null
tap_is "the tarball records the version" "$version" "$(cat "$src/.tarball-version" 2>/dev/null)"

# --- what it holds ---------------------------------------------------------------
make -s -C "$root" gen-files > "$tmp/generated"
{
	git -C "$root" ls-files | while read -r f; do
		case ${f##*/} in .gitignore | .gitattributes) continue ;; esac
		[ -e "$root/$f" ] && echo "$f"
	done
	cat "$tmp/generated"
	echo .tarball-version
} | sort > "$tmp/want"
(cd "$src" && find . \( -type f -o -type l \) -printf '%P\n' | sort) > "$tmp/got"
tap_ok "it holds git's files but .gitignore, the generated files and the version, nothing else" \
	eval '! diff "$tmp/want" "$tmp/got" | grep "^[<>]" | sed "s/^</# missing:/; s/^>/# extra:/" | grep .'
forbidden='(^|/)(\.git(/|$|ignore$|attributes$)|\.build/|__pycache__/|\.cache/)|\.(o|ko|a|so|pyc|mod|cmd|d)$'
executables() {
	command -v file >/dev/null || { tap_diag "file not installed: no object check"; return 0; }
	find "$src" -type f -exec file --mime-type {} + |
		grep -E 'application/x-(pie-)?(executable|sharedlib|object)'
}
tap_ok "nothing of .build/, git, caches or a build: no object, no executable" \
	eval '! { grep -E "$forbidden" "$tmp/got"; executables; } | sed "s/^/# forbidden: /" | grep .'
generated_there() {
	local f bad=0
	[ -s "$tmp/generated" ] || { tap_diag "make gen-files lists nothing"; return 1; }
	while read -r f; do
		[ -s "$src/$f" ] || { bad=1; tap_diag "no $f"; }
	done < "$tmp/generated"
	return $bad
}
tap_ok "the files generated from the specs are there: $(echo $(cat "$tmp/generated"))" \
	generated_there

# --- a release build without Python --------------------------------------------------
# PATH: every program of the usual directories but Python's.
nopy=$tmp/bin
mkdir -p "$nopy"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	progs=()
	for f in "$d"/*; do
		n=${f##*/}
		case $n in python* | pydoc* | pip*) continue ;; esac
		[ -x "$f" ] && [ ! -e "$nopy/$n" ] && progs+=("$f")
	done
	[ ${#progs[@]} -eq 0 ] || ln -s -t "$nopy" "${progs[@]}" 2>/dev/null
done
tap_not "no python on the build's PATH" env PATH="$nopy" sh -c 'command -v python3'

stamps() { (cd "$src" && xargs stat -c '%n %Y %s' < "$tmp/generated" && xargs cksum < "$tmp/generated"); }
stamps > "$tmp/gen.before"
# The version comes from the tree alone: nothing passed down.
build() {
	env -u TW_VERSION -u MAKEFLAGS -u MAKELEVEL -u MFLAGS PATH="$nopy" \
		make -j"$(nproc)" -C "$src" KVER="$kver" > "$tmp/build.log" 2>&1 ||
		{ show "$tmp/build.log"; return 1; }
}
tap_ok "make in the unpacked tree: the modules for $kver and the CLI, without Python" build
stamps > "$tmp/gen.after"
tap_ok "the build used the generated files as they came" cmp -s "$tmp/gen.before" "$tmp/gen.after"
tap_ok "make builds nothing of bench/ (on request only)" \
	eval '! find "$src/bench" -name "*.o" | sed "s/^/# built: /" | grep .'

tap_is "timewire version reports $version" "timewire version $version" \
	"$("$src/userspace/timewire/timewire" version 2>&1 | head -n 1)"
modules_versioned() {
	local m ko bad=0 got
	while read -r m ko; do
		if [ ! -f "$src/$ko" ]; then
			if grep -q "$m: not built" "$tmp/build.log"; then
				tap_diag "$(grep -m1 -o "$m: not built.*" "$tmp/build.log")"
			else
				bad=1
				tap_diag "no $ko"
			fi
			continue
		fi
		got=$(modinfo -F version "$src/$ko")
		tap_diag "$ko: version '$got'"
		[ "$got" = "$version" ] || bad=1
	done < <(tw_modules_table | awk '{ print $1, $2 "/" $1 ".ko" }')
	return $bad
}
tap_ok "modinfo -F version of every module of modules.list is $version, or it says it was not built" \
	modules_versioned

# A packager may keep the unpacked tree in a repository of its own.
in_repo() {
	git -C "$src" init -q && git -C "$src" add -A &&
		git -C "$src" -c user.name=t -c user.email=t@example.org \
			-c commit.gpgsign=false commit -q -m import &&
		[ "$("$src/scripts/version.sh")" = "$version" ]
}
tap_ok "the unpacked tree made a git repository keeps the recorded version" in_repo

tap_done
