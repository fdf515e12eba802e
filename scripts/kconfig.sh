# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the scripts that build a kernel from a config fragment.

# tw_kconfig_missing FRAGMENT CONFIG: print the lines of FRAGMENT that the
# final CONFIG does not honour (olddefconfig drops what a dependency
# forbids, silently).  A module asked for (=m) is satisfied by a built-in
# one.
tw_kconfig_missing() {
	local fragment=$1 config=$2 line opt val

	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			opt=${line%%=*} val=${line#*=}
			[ "$val" = m ] && grep -qx "$opt=y" "$config" && continue
			grep -qxF "$line" "$config" || echo "$line"
			;;
		"# CONFIG_"*" is not set")
			opt=${line#"# "} opt=${opt%% *}
			grep -q "^$opt=" "$config" && echo "$line"
			;;
		esac
	done < "$fragment"
	return 0
}

# tw_kconfig_require WHO FRAGMENT CONFIG: fail, saying which lines as WHO,
# when CONFIG does not honour FRAGMENT.
tw_kconfig_require() {
	local miss

	miss=$(tw_kconfig_missing "$2" "$3")
	[ -z "$miss" ] && return 0
	echo "$1: the config lacks what the fragment asks for:" >&2
	echo "$miss" | sed "s/^/$1:   /" >&2
	return 1
}

# tw_kconfig_suites TOP: every suite's config and every module's
# requires.config, one option a line.
tw_kconfig_suites() {
	cat "$1"/tests/*/config "$1"/*/requires.config 2>/dev/null |
		grep -E '^CONFIG_[A-Z0-9_]+=' | sort -u
}
