# SPDX-License-Identifier: GPL-2.0
# bash completion for timewire(8) (every object, timewire-tfib(8) included),
# and for any program of its command framework whose completion loads
# this file and names it.
#
# Nothing here knows the objects, commands, keywords or methods: they are
# read from the tool's own "help" output at each level, so completion
# follows the binary it completes.  Only the placeholders of values have a
# meaning here: IFNAME (a network device), PATH (a file), DIR (a directory),
# LIST (a comma-separated list of the names in the help's section named
# after the keyword, e.g. "Methods:" for "methods"); any other placeholder
# is a number or an address, for which nothing is offered.

# _timewire_help TOOL WORDS...: the output of "TOOL WORDS... help".
_timewire_help()
{
	local tool=$1
	shift
	"$tool" "$@" help 2>/dev/null
}

# _timewire_section SECTION: first words of the lines of the "SECTION:"
# block of the help text on stdin.
_timewire_section()
{
	awk -v s="$1:" '
		$0 == s { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  [^ ]/ { print $1 }'
}

# _timewire_options: every form of the options of the help text on stdin
# ("  -j, -json, --json   ...").
_timewire_options()
{
	awk '
		$0 == "Options:" { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  -/ {
			for (i = 1; i <= NF && $i ~ /^-/; i++) {
				w = $i
				sub(/,$/, "", w)
				print w
			}
		}'
}

# _timewire_option_value OPTION: the placeholder of OPTION's value in the
# help text on stdin ("  -b, -batch, --batch PATH  ..."); none when it
# takes no value.
_timewire_option_value()
{
	awk -v o="$1" '
		$0 == "Options:" { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  -/ {
			hit = 0
			for (i = 1; i <= NF && $i ~ /^-/; i++) {
				w = $i
				sub(/,$/, "", w)
				if (w == o)
					hit = 1
			}
			if (hit && $i ~ /^[A-Z]+$/)
				print $i
		}'
}

# _timewire_arguments: "KEYWORD<tab>VALUE" for each entry of the
# "Arguments:" block of the help text on stdin; VALUE is what follows the
# keyword up to the description, e.g. "{ mono | tai | realtime }" or "N".
_timewire_arguments()
{
	awk '
		$0 == "Arguments:" { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && /^  [^ ]/ {
			v = substr($0, 3 + length($1))
			# The description starts after two blanks or more.
			if (v ~ /^  /)
				v = ""
			sub(/^ /, "", v)
			sub(/  .*/, "", v)
			print $1 "\t" v
		}'
}

# _timewire_slots VALUE NEXT: set slots to the words a keyword's VALUE
# takes, given NEXT, the word after the keyword.  A choice among words
# becomes one slot "=word word..."; the alternative NEXT chose adds its
# placeholders, as in "{ periodic ALPHA_US | gamma SHAPE MEAN_US }".
_timewire_slots()
{
	local value=$1 next=$2 alt choices=
	local -a words
	slots=()
	if [[ $value != "{"* ]]; then
		read -ra slots <<<"$value"
		return
	fi
	value=${value#\{}
	value=${value%\}}
	local -a alts
	IFS='|' read -ra alts <<<"$value"
	for alt in "${alts[@]}"; do
		read -ra words <<<"$alt"
		choices+=" ${words[0]}"
		[[ ${words[0]} == "$next" ]] && slots=("${words[@]:1}")
	done
	slots=("=${choices# }" "${slots[@]}")
}

# _timewire_list_value TOOL KEYWORD: complete the last name of a
# comma-separated list from the "Keyword:" section of "TOOL help".
_timewire_list_value()
{
	local tool=$1 kw=$2 prefix= last=$cur names w
	local -a left=()
	names=$(_timewire_help "$tool" | _timewire_section "${kw^}")
	[[ -z $names ]] && return
	if [[ $cur == *,* ]]; then
		prefix=${cur%,*},
		last=${cur##*,}
	fi
	for w in $names; do
		[[ ,$prefix == *",$w,"* ]] || left+=("$w")
	done
	mapfile -t COMPREPLY < <(compgen -P "$prefix" -W "${left[*]}" -- "$last")
}

# _timewire_value SLOT TOOL KEYWORD: complete a value whose placeholder
# or choices is SLOT.
_timewire_value()
{
	local slot=$1
	case $slot in
	=*)
		mapfile -t COMPREPLY < <(compgen -W "${slot#=}" -- "$cur")
		;;
	IFNAME)
		mapfile -t COMPREPLY < <(compgen -W "$(ls /sys/class/net 2>/dev/null)" -- "$cur")
		;;
	PATH)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	DIR)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		;;
	LIST)
		_timewire_list_value "$2" "$3"
		;;
	esac
}

# _timewire_args TOOL FIRST WORDS...: complete the arguments of
# "TOOL WORDS...", which start at COMP_WORDS[FIRST].
_timewire_args()
{
	local tool=$1 i=$2 kw value w x n
	shift 2
	local -a kws=() slots=() left=()
	local -A values=()
	while IFS=$'\t' read -r kw value; do
		kws+=("$kw")
		values[$kw]=$value
	done < <(_timewire_help "$tool" "$@" | _timewire_arguments)

	# Walk the keywords given so far, each with the words of its value.
	while ((i < COMP_CWORD)); do
		w=${COMP_WORDS[i]}
		if [[ -z ${values[$w]+set} ]]; then
			((i++))
			continue
		fi
		_timewire_slots "${values[$w]}" "${COMP_WORDS[i + 1]}"
		n=${#slots[@]}
		if ((COMP_CWORD <= i + n)); then
			_timewire_value "${slots[COMP_CWORD - i - 1]}" "$tool" "$w"
			return
		fi
		((i += 1 + n))
	done

	# A keyword: those not given yet.
	for w in "${kws[@]}" help; do
		for x in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
			[[ $x == "$w" ]] && continue 2
		done
		left+=("$w")
	done
	mapfile -t COMPREPLY < <(compgen -W "${left[*]}" -- "$cur")
}

_timewire()
{
	local cur tool top i w
	local -a path=()

	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	tool=${COMP_WORDS[0]}
	# Expand a leading ~ so the tool can be run as typed.
	[[ $tool == "~"* ]] && tool=${tool/#\~/$HOME}
	top=$(_timewire_help "$tool")

	# The value of an option (-batch PATH).
	if ((COMP_CWORD > 1)); then
		w=$(_timewire_option_value "${COMP_WORDS[COMP_CWORD - 1]}" <<<"$top")
		if [[ -n $w ]]; then
			_timewire_value "$w" "$tool"
			return
		fi
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_timewire_options <<<"$top")" -- "$cur")
		return
	fi

	# The object and command typed so far, for a tool that has objects;
	# options may stand anywhere.
	i=1
	if [[ -n $(_timewire_section Objects <<<"$top") ]]; then
		while [[ ${COMP_WORDS[i]} == -* ]] && ((i < COMP_CWORD)); do
			# The one option with a value, -batch, brings the
			# commands with it: no object follows.
			[[ -n $(_timewire_option_value "${COMP_WORDS[i]}" <<<"$top") ]] &&
				return
			((i++))
		done
		if ((i == COMP_CWORD)); then
			mapfile -t COMPREPLY < <(compgen -W "$(_timewire_section Objects <<<"$top")" -- "$cur")
			return
		fi
		path=("${COMP_WORDS[i]}")
		((i++))
		if [[ ${path[0]} == help ]]; then
			# "help OBJECT COMMAND"
			w=Objects
			((COMP_CWORD == 3)) && w=Commands
			((COMP_CWORD <= 3)) &&
				mapfile -t COMPREPLY < <(compgen -W "$(_timewire_help "$tool" "${COMP_WORDS[@]:2:COMP_CWORD-2}" | _timewire_section "$w")" -- "$cur")
			return
		fi
		w=$(_timewire_help "$tool" "${path[0]}" | _timewire_section Commands)
		if [[ -n $w ]]; then
			while [[ ${COMP_WORDS[i]} == -* ]] && ((i < COMP_CWORD)); do
				((i++))
			done
			if ((i == COMP_CWORD)); then
				mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
				return
			fi
			path+=("${COMP_WORDS[i]}")
			((i++))
		fi
	fi
	_timewire_args "$tool" "$i" "${path[@]}"
}

complete -F _timewire timewire
