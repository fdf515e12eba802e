#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install and make install-bench, each into a DESTDIR of its own.
# The product's is timewire, its man pages (section 8, one per module of
# the registry) and its completion, and nothing named tw-*.  The
# experiment's is every program the bench Makefile lists (make -C bench
# programs: the one list), each with its page in section 1, the
# analysers' module beside them, and nothing of the product; every tw-*
# program of bench/ is on that list but one the build said it skipped.
# The analysers run from where they were installed.  Each install's files
# are exactly those of its list, install.list and install-bench.list, and
# no bench/ file is on the product's; make uninstall leaves nothing of
# the product and keeps a configuration file of the user's.  The unit
# systemd-analyze accepts, and its loop applies every *.conf in order,
# failing when one fails.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"
# shellcheck source=tests/lib/unit.sh
. "$root/tests/lib/unit.sh"

command -v make >/dev/null || tap_skip_all "make not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=/usr/local
prod=$tmp/product
exp=$tmp/bench

# install_to TARGET DESTDIR: the top Makefile's TARGET, its output kept.
install_to() {
	make -C "$root" "$1" DESTDIR="$2" PREFIX="$prefix" > "$tmp/$1.log" 2>&1 ||
		{ tail -n 20 "$tmp/$1.log" | sed 's/^/# /'; return 1; }
}

# files DIR: every file and link below DIR, relative to it.
files() {
	(cd "$1" && find . \( -type f -o -type l \) -printf '%P\n' | sort)
}

# listed LIST: the list's files, comments and blank lines dropped.
listed() {
	grep -v -e '^#' -e '^$' "$here/$1" | sort
}

# same WANT GOT: equal files, the difference shown when not.
same() {
	diff -u "$1" "$2" > "$tmp/diff" && return 0
	sed 's/^/# /' "$tmp/diff"
	return 1
}

tap_plan 14

tap_ok "make install DESTDIR=... PREFIX=$prefix" install_to install "$prod"
tap_ok "make install-bench DESTDIR=... PREFIX=$prefix" \
	install_to install-bench "$exp"

# --- the product ----------------------------------------------------------------
families=$("$root/scripts/modules.sh" families) || exit 1
product_whole() {
	local f bad=0
	[ -x "$prod$prefix/bin/timewire" ] || { bad=1; tap_diag "no bin/timewire"; }
	"$prod$prefix/bin/timewire" version >/dev/null || bad=1
	for f in timewire $(printf 'timewire-%s ' $families); do
		[ -f "$prod$prefix/share/man/man8/$f.8" ] ||
			{ bad=1; tap_diag "no man8/$f.8"; }
	done
	[ -f "$prod$prefix/share/bash-completion/completions/timewire" ] ||
		{ bad=1; tap_diag "no completion for timewire"; }
	return $bad
}
tap_ok "the product's install: timewire, a page for it and each module, its completion" \
	product_whole
files "$prod" > "$tmp/product.files"
tap_ok "the product's install holds no tw-* file, no twbench, no page outside section 8" \
	eval '! grep -E "(^|/)(tw-|twbench)|/man[1-79]/" "$tmp/product.files" |
	      sed "s/^/# not the product'\''s: /" | grep .'

listed install.list > "$tmp/product.want"
tap_ok "make install's files are install.list's" same "$tmp/product.want" "$tmp/product.files"
tap_ok "install.list names nothing of bench/ (tw-*, twbench, section 1)" \
	eval '! grep -E "(^|/)(tw-|twbench)|/man1/" "$tmp/product.want" | sed "s/^/# /" | grep .'
# The unit as systemd reads it; its loop run with a recording timewire
# and the configuration directory of the test.
unit=$prod$prefix/lib/systemd/system/timewire.service
if command -v systemd-analyze >/dev/null; then
	unit_valid() {
		systemd-analyze verify --man=no "$unit" > "$tmp/verify" 2>&1 && [ ! -s "$tmp/verify" ] ||
			{ sed 's/^/# /' "$tmp/verify"; return 1; }
	}
	tap_ok "systemd-analyze verify accepts timewire.service" unit_valid
else
	tap_skip "systemd-analyze verify accepts timewire.service" "systemd not installed"
fi
unit_applies() {
	local cmd conf=$tmp/conf want=$tmp/applied.want
	mkdir -p "$conf/timewire" "$tmp/stub"
	printf '#!/bin/sh\necho "$*" >> %s/applied\n[ "${2##*/}" != b.conf ]\n' "$tmp" > "$tmp/stub/timewire"
	chmod +x "$tmp/stub/timewire"
	touch "$conf/timewire/a.conf" "$conf/timewire/b.conf" "$conf/timewire/c.conf" \
		"$conf/timewire/README"
	printf -- '-batch %s\n' "$conf/timewire/a.conf" "$conf/timewire/b.conf" \
		"$conf/timewire/c.conf" > "$want"
	# The one ExecStart that runs timewire, as the shell runs it.
	cmd=$(unit_exec_start "$unit" | grep -F "$prefix/bin/timewire")
	[ -n "$cmd" ] && [ "$(wc -l <<< "$cmd")" = 1 ] ||
		{ tap_diag "not one ExecStart= runs $prefix/bin/timewire: ${cmd:-none}"; return 1; }
	cmd=${cmd//\/etc\/timewire/$conf/timewire}
	cmd=${cmd//$prefix\/bin\/timewire/$tmp/stub/timewire}
	if sh -c "$cmd"; then tap_diag "a failing file did not fail the unit"; return 1; fi
	same "$want" "$tmp/applied"
}
tap_ok "the unit applies each *.conf in order, and fails when one fails" unit_applies
# Its condition as systemd judges it: skipped (not failed) with nothing to
# apply, as on a host with the CLI and no modules or configuration.
unit_waits_for_conf() {
	local cond conf=$tmp/cond
	cond=$(grep '^ConditionPathExistsGlob=' "$unit") ||
		{ tap_diag "the unit has no ConditionPathExistsGlob="; return 1; }
	mkdir -p "$conf"
	cond=${cond//\/etc\/timewire/$conf}
	touch "$conf/README"
	systemd-analyze condition "$cond" > /dev/null 2>&1 &&
		{ tap_diag "runs with only a README in its directory"; return 1; }
	touch "$conf/a.conf"
	systemd-analyze condition "$cond" > /dev/null 2>&1 ||
		{ tap_diag "skipped with a.conf in its directory"; return 1; }
}
if command -v systemd-analyze >/dev/null; then
	tap_ok "the unit is skipped when no *.conf is there, run when one is" unit_waits_for_conf
else
	tap_skip "the unit is skipped when no *.conf is there" "systemd not installed"
fi
uninstall_clean() {
	echo "tfib create t capacity 8" > "$prod/etc/timewire/mine.conf"
	make -C "$root" uninstall DESTDIR="$prod" PREFIX="$prefix" > "$tmp/uninstall.log" 2>&1 ||
		{ tail -n 20 "$tmp/uninstall.log" | sed 's/^/# /'; return 1; }
	files "$prod" > "$tmp/left"
	echo etc/timewire/mine.conf | same - "$tmp/left"
}
tap_ok "make uninstall removes every file make install put, not the user's *.conf" uninstall_clean

# --- the experiment ---------------------------------------------------------------
make -s -C "$root/bench" programs > "$tmp/programs" 2> "$tmp/programs.err"
# Each program of bench/: a tw-*.c with its main, or a tw-* script.
find "$root/bench" -mindepth 2 -maxdepth 2 -name 'tw-*' ! -name '*.*' -type f \
	-exec sh -c 'head -c 2 "$1" | grep -q "#!"' _ {} \; -printf '%f\n' > "$tmp/sources"
find "$root/bench" -mindepth 2 -maxdepth 2 -name 'tw-*.c' -printf '%f\n' |
	sed 's/\.c$//' >> "$tmp/sources"
bench_listed() {
	local p bad=0
	[ -s "$tmp/programs" ] || { tap_diag "make -C bench programs lists nothing"; return 1; }
	while read -r p; do
		grep -qx "$p" "$tmp/programs" && continue
		grep -q "^$p not built" "$tmp/install-bench.log" && continue
		bad=1
		tap_diag "$p is in bench/ but not on the bench Makefile's list"
	done < "$tmp/sources"
	return $bad
}
tap_ok "every tw-* program of bench/ is on the bench Makefile's list, or said skipped" \
	bench_listed
bench_whole() {
	local p bad=0
	while read -r p; do
		[ -x "$exp$prefix/bin/$p" ] || { bad=1; tap_diag "no bin/$p"; }
		[ -f "$exp$prefix/share/man/man1/$p.1" ] ||
			{ bad=1; tap_diag "no man1/$p.1"; }
	done < "$tmp/programs"
	[ -f "$exp$prefix/bin/twbench.py" ] || { bad=1; tap_diag "no bin/twbench.py"; }
	files "$exp" | grep -E "(^|/)timewire|/man8/" | sed 's/^/# the product'\''s: /' |
		grep . && bad=1
	return $bad
}
tap_ok "the bench's install: each listed program and its page (man1), twbench.py, nothing of the product" \
	bench_whole
# An analyser imports the module it shares with the others from its own
# directory: there once installed.
analysers_run() {
	local s n=0
	for s in "$exp$prefix"/bin/tw-*-analyze; do
		"$s" --help >/dev/null || { tap_diag "${s##*/} --help failed"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -eq "$(grep -c -- '-analyze$' "$tmp/programs")" ]
}
tap_ok "every installed analyser runs from the install" analysers_run
bench_list() {
	local p
	listed install-bench.list > "$tmp/bench.want"
	# What the build said it skipped is missing, with its page.
	for p in $(sed -n 's/^\(tw-[a-z-]*\) not built.*/\1/p' "$tmp/install-bench.log"); do
		grep -v -e "/$p\$" -e "/$p\.1\$" "$tmp/bench.want" > "$tmp/bench.want2"
		mv "$tmp/bench.want2" "$tmp/bench.want"
	done
	files "$exp" | same "$tmp/bench.want" -
}
tap_ok "make install-bench's files are install-bench.list's" bench_list

tap_done
