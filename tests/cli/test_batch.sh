#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "timewire -batch" on the host, no module needed: comments and blank
# lines, quoting and continued lines, errors named FILE:LINE (stdin's
# "stdin:LINE"), the stop at the first failure and -force, the exit
# status, options of a line kept to it, and the refusals of the option.
# The round trip through a module's save is the guest's
# (tests/cli/guest/test_tfib_guest.sh).
#
#   tests/cli/test_batch.sh            (TW_CLI=path overrides the binary)
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip (binary not built).
set -u

# shellcheck source=tests/cli/cli_host.sh
. "$(dirname "$0")/cli_host.sh"

# batch TEXT: a batch file holding TEXT (printf's format), its path echoed.
n=0
batch() {
	n=$((n + 1))
	# shellcheck disable=SC2059	# TEXT is the format
	printf "$1" > "$tmp/b$n"
	echo "$tmp/b$n"
}

# same_as FILE ARGS...: the stdout of "$TW ARGS..." is FILE's text.
same_as() {
	local want
	want=$("$TW" "${@:2}" 2>&1) || return 1
	[ "$(cat "$1")" = "$want" ] || {
		tap_diag "$(basename "$1") differs from timewire ${*:2}:"
		diff <(echo "$want") "$1" | sed 's/^/#   /'
		return 1
	}
}

# err_is N TEXT: line N of stderr is TEXT.
err_is() {
	[ "$(sed -n "$1p" "$err")" = "$2" ] || {
		tap_diag "stderr line $1: \"$(sed -n "$1p" "$err")\", want \"$2\""
		return 1
	}
}

"$TW" version > "$tmp/version"
"$TW" status > "$tmp/status"
tfib_loaded=0
grep -q '^tfib loaded' "$tmp/status" && tfib_loaded=1

tap_plan 22

# --- lines ------------------------------------------------------------------------
f=$(batch '# settings of the test\n\n   \t\nversion   # its version\nstatus\n# the end\n')
run -batch "$f"
tap_ok "comments and blank lines skipped, every command run in order, exit 0" \
	eval '[ "$rc" -eq 0 ] && [ ! -s "$err" ] &&
	      [ "$(cat "$out")" = "$(cat "$tmp/version" "$tmp/status")" ]'
f=$(batch '')
run -batch "$f"
tap_ok "an empty file: nothing done, exit 0" \
	eval '[ "$rc" -eq 0 ] && [ ! -s "$out" ] && [ ! -s "$err" ]'
f=$(batch 'help "tfib" '\''create'\''\n')
run -batch "$f"
tap_ok "quoted words, \"...\" and '...', are the words" \
	same_as "$out" tfib create help
f=$(batch 'help \\\n  tfib \\\ncreate\n')
run -batch "$f"
tap_ok "a line ending with a backslash goes on on the next" \
	same_as "$out" tfib create help
f=$(batch 'help tfib dump\n')
run -b "$f"
tap_ok "-b is -batch" same_as "$out" tfib dump help
run --batch "$f"
tap_ok "--batch is -batch" same_as "$out" tfib dump help

# --- errors named FILE:LINE ---------------------------------------------------------
f=$(batch '# one\nversion\n\nbogus\nversion\n')
run -batch "$f"
tap_ok "an unknown object on line 4: \"FILE:4: Error: ...\", exit 1" \
	eval '[ "$rc" -eq 1 ] && err_is 1 "$f:4: Error: unknown object \"bogus\""'
tap_ok "the first failure stops the batch: the commands after it not run" \
	eval '[ "$(cat "$out")" = "$(cat "$tmp/version")" ]'
f=$(batch 'tfib create t1 capacity "1 2"\n')
run -batch "$f"
tap_ok "a quoted value reaches the command whole: \"1 2\" refused as one value" \
	eval '[ "$rc" -eq 1 ] &&
	      err_is 1 "$f:1: Error: invalid value \"1 2\" for capacity: expected an integer from 1 to $(uapi TFIB_MAX_CAPACITY)"'
f=$(batch 'tfib create t1 \\\n  capacity x\n\ntfib create "t2\\u0021\\\\" capacity "\\"y"\n')
run -force -batch "$f"
tap_ok "errors name a continued command's first line, the lines after it counted" \
	eval 'err_is 1 "$f:1: Error: invalid value \"x\" for capacity: expected an integer from 1 to $(uapi TFIB_MAX_CAPACITY)" &&
	      [ "$(grep -c "^$f:" "$err")" -eq 2 ] &&
	      grep -q "^$f:4: Error: invalid value \"\"y\" for capacity" "$err"'
f=$(batch 'version\ntfib show "t1\nversion\n')
run -batch "$f"
tap_ok "an unterminated quote: \"FILE:2: Error: unterminated quoted string\", exit 1" \
	eval '[ "$rc" -eq 1 ] && err_is 1 "$f:2: Error: unterminated quoted string" &&
	      [ "$(cat "$out")" = "$(cat "$tmp/version")" ]'
f=$(batch 'tfib show "a\\qb"\n')
run -batch "$f"
tap_ok "an unknown escape in \"...\": refused, exit 1" \
	eval '[ "$rc" -eq 1 ] && err_is 1 "$f:1: Error: unknown escape in a quoted string"'

# --- -force and the exit status -----------------------------------------------------
f=$(batch 'bogus\nversion\ntfib create t1\nversion\n')
run -force -batch "$f"
tap_ok "-force: every line run, each failure named, exit 1" \
	eval '[ "$rc" -eq 1 ] && err_is 1 "$f:1: Error: unknown object \"bogus\"" &&
	      grep -qx "$f:3: Error: missing required argument: capacity N" "$err" &&
	      [ "$(cat "$out")" = "$(cat "$tmp/version" "$tmp/version")" ]'
run --force -b "$f"
tap_ok "--force is -force" eval '[ "$rc" -eq 1 ] && [ "$(grep -c "^$f:" "$err")" -eq 2 ]'
if [ $tfib_loaded -eq 0 ]; then
	f=$(batch 'tfib show\nbogus\n')
	run -force -batch "$f"
	tap_ok "-force: the exit status is the first failure's (2: module not loaded)" \
		eval '[ "$rc" -eq 2 ] && err_is 1 "$f:1: Error: the tfib module is not loaded (its generic netlink family \"tfib\" is absent); load it with \"modprobe tfib\""'
else
	tap_skip "-force: the exit status is the first failure's (2: module not loaded)" \
		"tfib is loaded"
fi

# --- stdin ------------------------------------------------------------------------
"$TW" -batch - < <(printf 'version\nstatus\n') > "$out" 2> "$err"
rc=$?
tap_ok "-batch - reads stdin" \
	eval '[ "$rc" -eq 0 ] && [ "$(cat "$out")" = "$(cat "$tmp/version" "$tmp/status")" ]'
"$TW" -batch - < <(printf 'version\n\nbogus\n') > "$out" 2> "$err"
rc=$?
tap_ok "stdin's errors are named stdin:LINE" \
	eval '[ "$rc" -eq 1 ] && err_is 1 "stdin:3: Error: unknown object \"bogus\""'

# --- options --------------------------------------------------------------------------
f=$(batch 'version -j\nversion\nstatus\n')
run -batch "$f"
tap_ok "an option on a line is that line's: JSON once, then text" \
	eval 'sed -n 1p "$out" > "$tmp/json" && is_json "$tmp/json" &&
	      [ "$(sed 1d "$out")" = "$(cat "$tmp/version" "$tmp/status")" ]'
# json_lines N: stdout is N lines, each a JSON object.
json_lines() {
	local i
	[ "$(wc -l < "$out")" -eq "$1" ] || return 1
	for i in $(seq "$1"); do
		sed -n "${i}p" "$out" > "$tmp/json"
		is_json "$tmp/json" || return 1
	done
}
run -j -batch "$f"
tap_ok "-j before -batch: every command prints one JSON object" \
	eval '[ "$rc" -eq 0 ] && json_lines 3'
tap_ok "a file that cannot be opened: named, exit 3" \
	refused 3 "^Error: cannot open $tmp/none: No such file or directory\$" -batch "$tmp/none"
tap_ok "a directory: cannot be read, exit 3" \
	refused 3 "^Error: cannot read $tmp: Is a directory\$" -batch "$tmp"
ok=0
refused_lines <<LIST || ok=1
missing value for -batch: expected a file of commands, or - for stdin@-batch
-batch takes no command: the commands are those of $f@-batch "$f" version
LIST
tap_ok "-batch without its file, or with a command: refused, exit 1" test $ok -eq 0
tap_done
