#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The module registry (modules.list at the top of the tree), read once here
# for every script.  Source it for the functions, or run it:
#
#   scripts/modules.sh names|dirs|families|kos    one module per line
#   scripts/modules.sh table                      name dir family summary
#   scripts/modules.sh ko NAME                    the object of module NAME
#
# kos prints each module's object as Kbuild leaves it, <dir>/<name>.ko,
# relative to the build directory.  A module's <dir>/requires.config names
# the kernel options it needs (tw_module_missing).  TW_MODULES_LIST names another registry.

tw_modules_file() {
	echo "${TW_MODULES_LIST:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/modules.list}"
}

# tw_modules_table: "name dir family summary" per module, comments and
# blank lines dropped, blanks squeezed to one space.
tw_modules_table() {
	local list
	list=$(tw_modules_file)
	[ -r "$list" ] || { echo "modules.sh: cannot read $list" >&2; return 1; }
	awk '/^[ \t]*(#|$)/ { next }
	     NF < 4 { printf "%s:%d: needs name, dir, family and a summary\n",
		      FILENAME, FNR > "/dev/stderr"; bad = 1; next }
	     { $1 = $1; print }
	     END { exit bad }' "$list"
}

tw_modules_column() {	# tw_modules_column N
	tw_modules_table | awk -v n="$1" '{ print $n }'
}

tw_module_names() { tw_modules_column 1; }
tw_module_dirs() { tw_modules_column 2; }
tw_module_families() { tw_modules_column 3; }
tw_module_kos() { tw_modules_table | awk '{ print $2 "/" $1 ".ko" }'; }

# tw_module_ko NAME: <dir>/NAME.ko; fails for a name the registry lacks.
tw_module_ko() {
	tw_modules_table | awk -v n="$1" '$1 == n { print $2 "/" $1 ".ko"; found = 1 }
		END { exit !found }'
}

# tw_module_missing DIR CONFIG: print the options of DIR/requires.config
# (CONFIG_X=y lines: what the module needs of the kernel) that the kernel
# configuration CONFIG lacks, and succeed; fail when it lacks none.
tw_module_missing() {
	local req=$(dirname "$(tw_modules_file)")/$1/requires.config missing
	[ -r "$req" ] || return 1
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$req" | grep -vxFf "$2" | cut -d= -f1 | paste -sd ' ')
	[ -n "$missing" ] && echo "$missing"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case ${1:-} in
	names) tw_module_names ;;
	dirs) tw_module_dirs ;;
	families) tw_module_families ;;
	kos) tw_module_kos ;;
	ko) [ $# -eq 2 ] && tw_module_ko "$2" ;;
	table) tw_modules_table ;;
	*) sed -n '3,12s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
fi
