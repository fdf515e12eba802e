# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# A stand-in for OpenWrt's /lib/functions.sh (tests/openwrt): the calls an
# init script reads UCI with, over a UCI file of $UCI_CONFIG_DIR parsed
# here, where OpenWrt's asks its uci program: the router boot
# (tests/openwrt/boot), which stages it as /lib/functions.sh, needs no
# uci.  Sections are kept in file order; an anonymous one is named
# cfgNN by its position, as UCI's own are, and addressed by that name.
#
#   config_load NAME                     read $UCI_CONFIG_DIR/NAME
#   config_foreach FUNC [TYPE [ARG...]]  FUNC SECTION ARG... per section
#   config_get VAR SECTION OPTION [DEFAULT]
#   config_get_bool VAR SECTION OPTION [DEFAULT]   1 or 0
#   config_list_foreach SECTION OPTION FUNC        FUNC VALUE per value

UCI_CONFIG_DIR=${UCI_CONFIG_DIR:-/etc/config}
tw_uci_db=

# Each line of the file as "section<TAB>type<TAB>key<TAB>value", the
# section's own line with an empty key; quotes taken off the values.
config_load() {
	tw_uci_db=$(awk -v OFS='\t' '
		function unquote(s) {
			if (s ~ /^'\''.*'\''$/ || s ~ /^".*"$/)
				return substr(s, 2, length(s) - 2)
			return s
		}
		/^[ \t]*(#|$)/ { next }
		{ sub(/^[ \t]+/, "") }
		$1 == "config" {
			n++
			type = $2
			name = (NF > 2) ? unquote($3) : sprintf("cfg%02d", n)
			print name, type, "", ""
			next
		}
		$1 == "option" || $1 == "list" {
			line = $0
			sub(/^[a-z]+[ \t]+[^ \t]+[ \t]+/, "", line)
			print name, type, ($1 == "list" ? "+" : "") $2, unquote(line)
		}' "$UCI_CONFIG_DIR/$1") || return 1
}

tw_uci_query() {	# tw_uci_query SECTION KEY: its values, one a line
	printf '%s\n' "$tw_uci_db" | awk -F '\t' -v s="$1" -v k="$2" \
		'$1 == s && $3 == k { print $4 }'
}

config_foreach() {
	local func=$1 type=${2:-} section
	[ $# -gt 0 ] && shift
	[ $# -gt 0 ] && shift
	for section in $(printf '%s\n' "$tw_uci_db" |
			 awk -F '\t' -v t="$type" '$3 == "" && (t == "" || $2 == t) { print $1 }'); do
		"$func" "$section" "$@"
	done
}

# The locals have names of their own: eval sets the caller's VAR.
# shellcheck disable=SC2034 # tw_got is read by the eval
config_get() {
	local tw_got
	tw_got=$(tw_uci_query "$2" "$3" | tail -n 1)
	eval "$1=\${tw_got:-\${4:-}}"
}

config_get_bool() {
	local tw_bool
	config_get tw_bool "$2" "$3" "${4:-0}"
	case $tw_bool in
	1 | on | true | yes | enabled) tw_bool=1 ;;
	*) tw_bool=0 ;;
	esac
	eval "$1=\$tw_bool"
}

config_list_foreach() {
	local tw_item tw_items
	tw_items=$(tw_uci_query "$1" "+$2")
	[ -n "$tw_items" ] || return 0
	while IFS= read -r tw_item; do
		"$3" "$tw_item"
	done <<EOF_ITEMS
$tw_items
EOF_ITEMS
}
