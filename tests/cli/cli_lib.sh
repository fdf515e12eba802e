# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers of the host tests of the programs built on the command framework
# of userspace/lib/args.h: timewire (tests/cli/test_cli.sh) and the
# experiment tools that take keywords (bench/*/test_*_bench.sh).  Sourced
# after tap.sh, with $root the source tree, $TW the program under test and
# $tmp a scratch directory; sets $out, $err and $rc.

out=$tmp/out
err=$tmp/err
rc=0

# run ARGS...: run $TW, keep stdout, stderr and the exit status.
run() {
	"$TW" "$@" >"$out" 2>"$err"
	rc=$?
}

# expect RC PATTERN ARGS...: exit status RC and PATTERN (ERE) in stdout.
expect() {
	local want=$1 pat=$2
	shift 2
	run "$@"
	if [ "$rc" -ne "$want" ]; then
		tap_diag "${TW##*/} $*: exit $rc, expected $want"
		sed 's/^/#   /' "$err"
		return 1
	fi
	grep -Eq -- "$pat" "$out" || {
		tap_diag "${TW##*/} $*: no /$pat/ in output"
		return 1
	}
}

# refused RC PATTERN ARGS...: exit status RC, PATTERN on stderr, and
# nothing on stdout (errors never pollute output that scripts parse).
refused() {
	local want=$1 pat=$2
	shift 2
	run "$@"
	if [ "$rc" -ne "$want" ]; then
		tap_diag "${TW##*/} $*: exit $rc, expected $want"
		return 1
	fi
	grep -Eq -- "$pat" "$err" || {
		tap_diag "${TW##*/} $*: stderr lacks /$pat/:"
		sed 's/^/#   /' "$err"
		return 1
	}
	[ ! -s "$out" ] || {
		tap_diag "${TW##*/} $*: wrote to stdout"
		return 1
	}
}

is_json() {
	python3 -m json.tool "$1" >/dev/null 2>&1
}

# section FILE NAME: first words of the "NAME:" block of a help text.
section() {
	awk -v s="$2:" '$0 == s { on = 1; next } /^[^ ]/ { on = 0 }
		on && /^  [^ ]/ { print $1 }' "$1"
}

# args_of HELPFILE: "keyword placeholder" for each argument of a help text.
args_of() {
	awk '$0 == "Arguments:" { on = 1; next } /^[^ ]/ { on = 0 }
		on && /^  [^ ]/ { v = substr($0, 3 + length($1)); sub(/^ /, "", v)
			sub(/  .*/, "", v); print $1 " " v }' "$1"
}

# one_unit FILE...: the keywords that the argument lists FILE... (args_of's)
# give different placeholders, one a line; none when each keyword of
# several commands or tools takes the same kind of value.
one_unit() {
	cat "$@" | sort -u | awk '{ n[$1]++ } n[$1] == 2 { print $1 }'
}

# man_documents PAGE ARGSFILE WHAT: every keyword of ARGSFILE (args_of's)
# is in PAGE; a diagnostic naming WHAT for each that is not.
man_documents() {
	local page=$1 k v re bad=0
	while read -r k v; do
		re=$(printf '%s' "$k" | sed 's/-/\\\\-/g')
		grep -Eq -- "(^|[ \"])$re(\$|[ \"])" "$page" ||
			{ bad=1; tap_diag "$(basename "$page") does not document $3's $k"; }
	done < "$2"
	return $bad
}

# man_sections PAGE: the sections every page has, and no groff warning.
man_sections() {
	local page=$1 s w bad=0
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"\{0,1\}$s\"\{0,1\}\$" "$page" ||
			{ bad=1; tap_diag "$(basename "$page") lacks $s"; }
	done
	if command -v groff >/dev/null; then
		w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
		[ -z "$w" ] || { bad=1; tap_diag "$w"; }
	fi
	return $bad
}

# complete_words FILE WORDS...: the candidates for the last word, one per
# line, as FILE's completion finds them; the options it set with compopt
# go to $tmp/compopt.
complete_words() {
	local file=$1
	shift
	: > "$tmp/compopt"
	bash -c '
		log=$1/compopt
		complete() { :; }
		compopt() { echo "$*" >> "$log"; }
		. "$2"
		shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_timewire
		printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp" "$file" "$@"
}

comp=$root/completion/timewire.bash
# cand WORDS...: the candidates on one line.
cand() {
	complete_words "$comp" "$@" | paste -sd ' '
}

# check WANT WORDS...: the candidates are WANT, else ok=1 and a diagnostic.
check() {
	local want=$1 got
	shift
	got=$(cand "$@")
	[ "$got" = "$want" ] || { ok=1; tap_diag "${*:2}: got \"$got\", want \"$want\""; }
}

# The one shape of the first line of a bad or missing value's error.
error_shape='^Error: (invalid value "[^"]*" for [a-z -]+: |missing value for [a-z -]+: expected )'

# refused_line ERROR ARGS...: exit 1 with one "Error:" line that is ERROR
# (exactly), the hint after it, nothing on stdout.
refused_line() {
	local want=$1
	shift
	run "$@"
	if [ "$rc" -ne 1 ] || [ "$(head -1 "$err")" != "Error: $want" ] ||
		[ "$(wc -l < "$err")" -ne 2 ] || [ -s "$out" ]; then
		tap_diag "${TW##*/} $*: exit $rc, stderr:"
		sed 's/^/#   /' "$err"
		tap_diag "wanted: Error: $want"
		return 1
	fi
}

# refused_lines [WORDS...]: each line "ERROR@ARGS" of stdin is refused_line
# ERROR WORDS... ARGS; false if any was not.
refused_lines() {
	local want args bad=0
	while IFS='@' read -r want args; do
		eval "refused_line \"\$want\" \"\$@\" $args" || bad=1
	done
	return $bad
}

# one_shape [WORDS...]: the first error line of WORDS... ARGS, for each line
# ARGS of stdin, has error_shape; false if any has not.
one_shape() {
	local args bad=0
	while read -r args; do
		eval "run \"\$@\" $args"
		head -1 "$err" | grep -Eq "$error_shape" ||
			{ bad=1; tap_diag "${TW##*/} $* $args: $(head -1 "$err")"; }
	done
	return $bad
}

# --- the UAPI headers' numbers, as help and pages state them -----------------
# uapi NAME: the value include/uapi/linux/ gives the constant NAME, as
# written there.
uapi() {
	awk -v n="$1" '$1 == "#define" && $2 == n { print $3; found = 1 }
		END { exit !found }' "$root"/include/uapi/linux/*.h
}

# flat WHERE: the text of WHERE on one line, blanks squeezed: a file of the
# tree, or help:W1,W2 for "$TW W1 W2 help" (help: for "$TW help").
flat() {
	case $1 in
	# shellcheck disable=SC2046	# the words of the command
	help:*) "$TW" $(tr , ' ' <<<"${1#help:}") help ;;
	*) cat "$root/$1" ;;
	esac | tr -s '\n\t ' '   '
}

# states NAME UNIT WHERE PCRE: PCRE, with @ for the value of the constant
# NAME in UNIT (1: as the header writes it, us, ms), is in WHERE.
states() {
	local v div=1

	v=$(uapi "$1") || { tap_diag "no $1 in include/uapi"; return 1; }
	case $2 in us) div=1000 ;; ms) div=1000000 ;; esac
	if [ $div -ne 1 ]; then
		[ $((v % div)) -eq 0 ] || { tap_diag "$1 ($v) is no whole $2"; return 1; }
		v=$((v / div))
	fi
	flat "$3" | grep -Pq -- "${4//@/(?<![0-9])$v(?![0-9])}" ||
		{ tap_diag "$3 does not say /$4/ with $1 = $v $2"; return 1; }
}

# states_lines: states NAME UNIT WHERE PCRE for each such line of stdin;
# false if any is not stated.
states_lines() {
	local name unit where text bad=0

	while read -r name unit where text; do
		states "$name" "$unit" "$where" "$text" || bad=1
	done
	return $bad
}
