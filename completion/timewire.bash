# SPDX-License-Identifier: GPL-2.0
# bash completion for timewire(8).
#
# Nothing here knows the objects, commands or keywords: they are read from
# the tool's own "help" output at each level, so completion follows the
# binary it completes.

# _timewire_section TOOL SECTION [ARGS...]: first words of the lines of a
# "Section:" block of "TOOL ARGS help".
_timewire_section()
{
	local tool=$1 section=$2
	shift 2
	"$tool" "$@" help 2>/dev/null | awk -v s="$section:" '
		$0 == s { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  [^ ]/ { print $1 }'
}

# _timewire_options TOOL: the short and long options of "TOOL help".
_timewire_options()
{
	"$1" help 2>/dev/null | awk '
		$0 == "Options:" { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  -/ { gsub(",", ""); print $1; if ($2 ~ /^--/) print $2 }'
}

# _timewire_meta TOOL KEYWORD ARGS...: what follows KEYWORD on its line in
# the "Arguments:" block, e.g. "{ mono | tai | realtime }" or "IFNAME".
_timewire_meta()
{
	local tool=$1 kw=$2
	shift 2
	"$tool" "$@" help 2>/dev/null | awk -v k="$kw" '
		$0 == "Arguments:" { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  [^ ]/ && $1 == k {
			line = substr($0, 3 + length(k) + 1)
			# The description starts after two blanks or more.
			sub(/  .*/, "", line)
			print line
			exit
		}'
}

_timewire()
{
	local cur prev tool i w
	local -a words=() rest=()

	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	tool=${COMP_WORDS[0]}
	# Expand a leading ~ so the tool can be run as typed.
	[[ $tool == "~"* ]] && tool=${tool/#\~/$HOME}

	# The words before the cursor, options left out.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		[[ $w == -* ]] && continue
		words+=("$w")
	done

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_timewire_options "$tool")" -- "$cur")
		return
	fi

	case ${#words[@]} in
	0)
		mapfile -t COMPREPLY < <(compgen -W "$(_timewire_section "$tool" Objects)" -- "$cur")
		return
		;;
	1)
		if [[ ${words[0]} == help ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_timewire_section "$tool" Objects)" -- "$cur")
			return
		fi
		w=$(_timewire_section "$tool" Commands "${words[0]}")
		if [[ -n $w ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
			return
		fi
		# An object without commands takes arguments directly.
		rest=("${words[0]}")
		;;
	*)
		if [[ ${words[0]} == help ]]; then
			((${#words[@]} == 2)) &&
				mapfile -t COMPREPLY < <(compgen -W "$(_timewire_section "$tool" Commands "${words[1]}")" -- "$cur")
			return
		fi
		if [[ -n $(_timewire_section "$tool" Commands "${words[0]}") ]]; then
			rest=("${words[0]}" "${words[1]}")
		else
			rest=("${words[0]}")
		fi
		;;
	esac

	# Inside a command: complete the value of the previous keyword, or
	# the next keyword.
	local keywords meta
	keywords=$(_timewire_section "$tool" Arguments "${rest[@]}")
	[[ -z $keywords ]] && return

	if [[ $prev == file && ${COMP_WORDS[COMP_CWORD - 2]} == schedule ]]; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
	fi
	if [[ -n $prev ]] && grep -qx -- "$prev" <<<"$keywords"; then
		meta=$(_timewire_meta "$tool" "$prev" "${rest[@]}")
		case $meta in
		"{"*)
			# Choices are the lower-case words; upper case are
			# placeholders for values.
			w=$(tr -s ' {}|' '\n' <<<"$meta" | grep -E '^[a-z][a-z0-9-]*$')
			mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
			;;
		IFNAME)
			mapfile -t COMPREPLY < <(compgen -W "$(ls /sys/class/net 2>/dev/null)" -- "$cur")
			;;
		PATH)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			;;
		esac
		[[ -n $meta ]] && return
	fi

	# Keywords not given yet.
	local -a left=()
	for w in $keywords help; do
		local used=0 x
		for x in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
			[[ $x == "$w" ]] && used=1 && break
		done
		((used)) || left+=("$w")
	done
	mapfile -t COMPREPLY < <(compgen -W "${left[*]}" -- "$cur")
}

complete -F _timewire timewire
