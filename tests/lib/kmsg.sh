# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The kernel log in guest tests (source after tap.sh).  A test marks a
# point and later checks what was logged since, without clearing the ring
# buffer: the harness reads it again after the suite.
#
#   mark=$(tw_kmsg_mark)
#   ...
#   tap_ok "kernel log clean" tw_kmsg_clean "$mark"

TW_KMSG_BAD='WARNING:|BUG:|Oops|Call Trace|general protection fault|kernel BUG|UBSAN:|KASAN:'

# Write a unique marker into the kernel log and print it.
tw_kmsg_mark() {
	local marker="tw-test-mark-$$-$RANDOM$RANDOM"

	echo "$marker" > /dev/kmsg
	echo "$marker"
}

# tw_kmsg_since MARK PATTERN: print the lines logged since MARK that match
# the extended regular expression PATTERN; false when there is none.
tw_kmsg_since() {
	dmesg | sed -n "/$1/,\$p" | grep -E "$2"
}

# tw_kmsg_reports MARK: the kernel's reports since MARK as
# tests/vm/kreports.awk judges them, one "STATUS COUNT SIGNATURE" a line.
tw_kmsg_reports() {
	local mods

	mods=$(. "$TW_ROOT/scripts/modules.sh" && tw_module_names | paste -sd '|')
	dmesg | sed -n "/$1/,\$p" |
		awk -v mods="$mods" -v release="$(uname -r)" \
			-v allow="$TW_ROOT/tests/vm/allowlist" -f "$TW_ROOT/tests/vm/kreports.awk"
}

# tw_kmsg_clean MARK: no warning, bug or oops logged since MARK but those
# tests/vm/allowlist names for this kernel; else the first of them as TAP
# diagnostics, and false.
tw_kmsg_clean() {
	local log sum

	log=$(tw_kmsg_since "$1" "$TW_KMSG_BAD")
	[ -z "$log" ] && return 0
	if [ -n "${TW_ROOT:-}" ]; then
		sum=$(tw_kmsg_reports "$1")
		if [ -n "$sum" ] && ! echo "$sum" | grep -qv '^allowed'; then
			echo "$sum" | sed 's/^/# allowlisted: /'
			return 0
		fi
	fi
	echo "$log" | head -n 20 | sed 's/^/# /'
	return 1
}

# tw_kmemleak MODULE PATTERN: one TAP result, no kmemleak suspect whose
# report matches PATTERN (the module's symbols), after two scans (an object
# is reported only once it stayed unreferenced); a skip on a kernel
# without kmemleak.
tw_kmemleak() {
	local kml=/sys/kernel/debug/kmemleak leaks

	[ -e $kml ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	if [ ! -w $kml ]; then
		# the debug kernel has it: no skip there (a kmemleak that
		# disabled itself, its pool exhausted, fails)
		if [ "${TW_DEBUG_KERNEL:-0}" = 1 ]; then
			tap_result 1 "kmemleak: no $1 leak (kmemleak unavailable on the debug kernel)"
		else
			tap_skip "kmemleak: no $1 leak" "kernel without CONFIG_DEBUG_KMEMLEAK"
		fi
		return
	fi
	echo scan > $kml
	sleep 6
	echo scan > $kml
	tap_diag "kmemleak: $(grep -c 'unreferenced object' $kml) suspects in all"
	leaks=$(grep -cE "$2" $kml)
	tap_ok "kmemleak: no $1 leak" test "$leaks" -eq 0
}
