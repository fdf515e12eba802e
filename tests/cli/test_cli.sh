#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The timewire command line on the host, no module needed: help at every
# level, exact keyword matching, errors and exit codes, JSON output, the
# version, status, the man pages and the bash completion; the benchmark
# tool's argument errors and its check of the module.
#
#   tests/cli/test_cli.sh            (TW_CLI=path overrides the binary)
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip (binary not built).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

TW=${TW_CLI:-$root/userspace/timewire/timewire}
BENCH=${TW_BENCH_TOOL:-$root/userspace/tools/tw-omware-bench}
[ -x "$TW" ] || tap_skip_all "$TW not built (make -C userspace)"
command -v python3 >/dev/null || tap_skip_all "python3 needed to check JSON"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$tmp/out
err=$tmp/err
rc=0

# run ARGS...: run the tool, keep stdout, stderr and the exit status.
run() {
	"$TW" "$@" >"$out" 2>"$err"
	rc=$?
}

# run_bench ARGS...: the same for the benchmark tool.
run_bench() {
	local TW=$BENCH
	run "$@"
}

# expect RC PATTERN ARGS...: exit status RC and PATTERN (ERE) in stdout.
expect() {
	local want=$1 pat=$2
	shift 2
	run "$@"
	if [ "$rc" -ne "$want" ]; then
		tap_diag "timewire $*: exit $rc, expected $want"
		sed 's/^/#   /' "$err"
		return 1
	fi
	grep -Eq -- "$pat" "$out" || {
		tap_diag "timewire $*: no /$pat/ in output"
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
		tap_diag "timewire $*: exit $rc, expected $want"
		return 1
	fi
	grep -Eq -- "$pat" "$err" || {
		tap_diag "timewire $*: stderr lacks /$pat/:"
		sed 's/^/#   /' "$err"
		return 1
	}
	[ ! -s "$out" ] || {
		tap_diag "timewire $*: wrote to stdout"
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

send_keywords="dev clock mode xmit cpu count size schedule seed start-in batch
dst-mac dst src dport sport format report-file late-ns guard-max-ns max-pkts
max-bytes"
omware_cmds="send train pair show flush cancel"

tap_plan 56

# --- help at every level ----------------------------------------------------
tap_ok "help lists the objects" \
	expect 0 '^  omware ' help
objs=$(section "$out" Objects | tr '\n' ' ')
tap_ok "help: objects are version status omware help" \
	test "$objs" = "version status omware help "
cp "$out" "$tmp/help"
run -h
tap_ok "-h prints the same as help" cmp -s "$out" "$tmp/help"
run --help
tap_ok "--help prints the same as help" cmp -s "$out" "$tmp/help"
tap_ok "no arguments: usage on stderr, exit 1" \
	refused 1 '^Usage: timewire' 

tap_ok "omware help lists its commands" \
	expect 0 '^Commands:' omware help
cmds=$(section "$out" Commands | tr '\n' ' ')
ok=0
for c in $omware_cmds help; do
	case " $cmds " in *" $c "*) ;; *) ok=1; tap_diag "missing $c" ;; esac
done
tap_ok "omware help: send train pair show flush cancel help" test $ok -eq 0
cp "$out" "$tmp/omware-help"
run help omware
tap_ok "help omware == omware help" cmp -s "$out" "$tmp/omware-help"

tap_ok "omware send help" \
	expect 0 '^Usage: timewire omware send dev IFNAME' omware send help
kws=$(section "$out" Arguments | tr '\n' ' ')
ok=0
for k in $send_keywords; do
	case " $kws " in *" $k "*) ;; *) ok=1; tap_diag "send help lacks $k" ;; esac
done
tap_ok "omware send help lists every keyword" test $ok -eq 0
cp "$out" "$tmp/send-help"
run help omware send
tap_ok "help omware send == omware send help" cmp -s "$out" "$tmp/send-help"
run omware send dev lo help
tap_ok "help after arguments shows the command's help" \
	cmp -s "$out" "$tmp/send-help"

ok=0
for c in $omware_cmds; do
	expect 0 "^Usage: timewire omware $c( |\$)" omware "$c" help || ok=1
done
tap_ok "every omware command has help" test $ok -eq 0
tap_ok "status help" expect 0 '^Usage: timewire status' status help
tap_ok "version help" expect 0 '^Usage: timewire version' version help

# --- exact matching and usage errors ------------------------------------------
tap_ok "object prefix \"stat\" refused, exit 1" \
	refused 1 'unknown object "stat".*status' stat
tap_ok "command prefix \"sen\" refused, exit 1" \
	refused 1 'unknown command "sen"' omware sen
tap_ok "keyword prefix \"cou\" refused, exit 1" \
	refused 1 'unknown argument "cou"' omware send dev lo schedule periodic 1 cou 3
tap_ok "keyword prefix \"sched\" refused, exit 1" \
	refused 1 'unknown argument "sched"' omware send dev lo sched periodic 1
tap_ok "value prefix \"clock mon\" refused, exit 1" \
	refused 1 'invalid clock "mon"' omware send dev lo clock mon schedule periodic 1
tap_ok "schedule kind prefix \"per\" refused, exit 1" \
	refused 1 'invalid schedule "per"' omware send dev lo schedule per 1
tap_ok "unknown object, exit 1" \
	refused 1 'unknown object "bogus"' bogus
tap_ok "unknown option, exit 1" refused 1 'timewire help' -x status
tap_ok "missing required dev, exit 1" \
	refused 1 'missing "dev IFNAME"' omware send schedule periodic 1
tap_ok "missing required schedule, exit 1" \
	refused 1 'missing "schedule' omware send dev lo
tap_ok "keyword given twice, exit 1" \
	refused 1 '"count" given twice' omware send dev lo count 1 count 2 schedule periodic 1
ok=0
for v in 0 -1 1x 0x 10000001 ' 5' ''; do
	refused 1 'invalid count' omware send dev lo count "$v" schedule periodic 1 || ok=1
done
tap_ok "bad counts refused (0, -1, 1x, 0x, too big, blank, empty)" test $ok -eq 0
tap_ok "size below the compact probe's 40 bytes refused" \
	refused 1 'invalid size "39"' omware send dev lo size 39 schedule periodic 1
tap_ok "a 40-byte train longer than the compact probe's index refused" \
	refused 1 'at most 16384 packets' omware train dev lo count 16385 size 40
tap_ok "bad MAC refused" \
	refused 1 'invalid dst-mac' omware send dev lo dst-mac 02:00:00:00:00 schedule periodic 1
tap_ok "missing value at the end refused" \
	refused 1 '"batch" needs a value' omware send dev lo schedule periodic 1 batch
tap_ok "gamma needs SHAPE and MEAN" \
	refused 1 'gamma needs' omware send dev lo schedule gamma 2
tap_ok "train needs count >= 2" \
	refused 1 'invalid count "1"' omware train dev lo count 1
printf '0\n1000\nbogus\n' >"$tmp/sched"
tap_ok "schedule file: a bad line is named" \
	refused 1 "sched:3: expected an offset" omware send dev lo schedule file "$tmp/sched"
tap_ok "schedule file: a missing file is named" \
	refused 1 "cannot open $tmp/nonexistent" omware send dev lo schedule file "$tmp/nonexistent"
tap_ok "-j: errors leave stdout empty" refused 1 'unknown object' -j stat
tap_ok "the benchmark is its own tool: omware bench refused" \
	refused 1 'unknown command "bench"' omware bench

# --- version ------------------------------------------------------------------
uapi=$(awk '/define OMWARE_FAMILY_VERSION/ { print $3 }' \
	"$root/include/uapi/linux/omware.h")
tap_ok "version prints the tool's version" \
	expect 0 '^timewire version [0-9]+\.[0-9]+' version
tap_ok "version prints the omware UAPI version" \
	grep -qx "uapi omware $uapi" "$out"
tap_ok "version prints the loaded omware version, or none" \
	grep -Eqx "loaded omware ([0-9]+|none)" "$out"
cp "$out" "$tmp/version"
run -V
tap_ok "-V prints the same as version" cmp -s "$out" "$tmp/version"
run -j version
tap_ok "version -j is JSON with version and uapi.omware" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["program"] == "timewire" and d["version"];
assert d["uapi"]["omware"] == int(sys.argv[2])
assert d["loaded"]["omware"] is None or d["loaded"]["omware"] > 0' "$out" "$uapi"

# --- status ---------------------------------------------------------------------
run status
tap_ok "status exits 0 with or without modules" test "$rc" -eq 0
ok=0
grep -Eq "^omware (loaded|not loaded)" "$out" || ok=1
# Only the modules this build knows, once each.
[ "$(grep -Ec '^[a-z_]+ (loaded|not loaded)( |$)' "$out")" -eq 1 ] || ok=1
if grep -q '^[a-z]* loaded' "$out"; then
	grep -q 'no timewire module is loaded' "$out" && ok=1
else
	grep -q '^no timewire module is loaded$' "$out" || ok=1
fi
tap_ok "status names each module, and says when none is loaded" test $ok -eq 0
cp "$out" "$tmp/status"

run status -j
cp "$out" "$tmp/status.json"
tap_ok "status -j (option after the object) is valid JSON" \
	is_json "$tmp/status.json"
tap_ok "status -j agrees with the text output" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
mods = d["modules"]
assert [m["module"] for m in mods] == ["omware"]
for m in mods:
    assert isinstance(m["loaded"], bool)
    assert (m["module"] + " loaded" in " ".join(text)) == m["loaded"]
    if m["loaded"]:
        assert m["id"] > 0 and m["version"] > 0
assert d["modules_loaded"] == sum(m["loaded"] for m in mods)' \
	"$tmp/status.json" "$tmp/status"
run -p status
tap_ok "-p status is indented valid JSON" \
	eval 'is_json "$out" && [ "$(wc -l <"$out")" -gt 3 ]'

# omware commands without the module: exit 2 and say so.
if grep -q '^omware not loaded' "$tmp/status"; then
	tap_ok "omware show without the module: exit 2" \
		refused 2 'omware module is not loaded' omware show
else
	tap_skip "omware show without the module: exit 2" "omware is loaded"
fi

# --- the benchmark tool ------------------------------------------------------------
bench_args="dev lo dst-mac 02:00:00:00:00:02 dst 198.18.0.2"
if [ -x "$BENCH" ]; then
	run_bench help
	tap_ok "tw-omware-bench help" \
		eval 'test $rc -eq 0 && grep -q "^Usage: tw-omware-bench dev IFNAME" "$out"'
	tap_ok "tw-omware-bench: missing dev, exit 1" \
		eval 'run_bench; test $rc -eq 1 && grep -q "missing \"dev IFNAME\"" "$err"'
	tap_ok "tw-omware-bench: unknown method, exit 1" \
		eval 'run_bench $bench_args methods bogus; test $rc -eq 1 &&
		      grep -q "unknown method \"bogus\"" "$err"'
	# A tc that leaves a trace: the module is checked before any qdisc.
	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\necho "$*" >> %s/tc.log\n' "$tmp" > "$tmp/bin/tc"
	chmod +x "$tmp/bin/tc"
	if [ -d /sys/module/omware ]; then
		tap_skip "tw-omware-bench without the module: exit 2, tc untouched" \
			"omware is loaded"
	else
		tap_ok "tw-omware-bench without the module: exit 2, tc untouched" \
			eval 'PATH=$tmp/bin:$PATH run_bench $bench_args methods etf,oir;
			      test $rc -eq 2 && [ ! -e "$tmp/tc.log" ] &&
			      grep -q "^Error: the omware module is not loaded.*modprobe omware" "$err" &&
			      [ "$(wc -l < "$err")" -eq 1 ]'
	fi
	# tc's complaint is reported with what was done, not passed through.
	printf '#!/bin/sh\necho "Error: Specified qdisc kind is unknown." >&2\nexit 2\n' \
		> "$tmp/bin/tc"
	tap_ok "tw-omware-bench: a failing tc is reported with its command" \
		eval 'PATH=$tmp/bin:$PATH run_bench $bench_args methods etf etf-delta 100 count 2 grace 10;
		      test $rc -eq 5 && [ ! -s "$err" ] &&
		      grep -q "error tc qdisc replace dev lo root etf clockid CLOCK_TAI delta 100000 failed: Error: Specified qdisc kind is unknown\.$" "$out"'
else
	for t in help "missing dev" "unknown method" "without the module" \
		"a failing tc"; do
		tap_skip "tw-omware-bench: $t" "$BENCH not built"
	done
fi

# --- man pages and completion ------------------------------------------------
ok=0
for page in "$root/man/timewire.8" "$root/man/timewire-omware.8"; do
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"\{0,1\}$s\"\{0,1\}\$" "$page" ||
			{ ok=1; tap_diag "$(basename "$page") lacks $s"; }
	done
	if command -v groff >/dev/null; then
		w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
		[ -z "$w" ] || { ok=1; tap_diag "$w"; }
	fi
done
for k in $send_keywords; do
	grep -q -- "$(printf '%s' "$k" | sed 's/-/\\\\-/g')" "$root/man/timewire-omware.8" ||
		{ ok=1; tap_diag "timewire-omware.8 does not document $k"; }
done
for c in 0 1 2 3 5; do
	grep -Eq "^\.B $c\$" "$root/man/timewire.8" ||
		{ ok=1; tap_diag "timewire.8 does not document exit status $c"; }
done
tap_ok "man pages: sections, no groff warnings, every keyword and exit code" \
	test $ok -eq 0

complete_words() {	# complete_words WORDS...: the candidates for the last
	bash -c '
		complete() { :; }
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_timewire
		echo "${COMPREPLY[*]}"' _ "$root/completion/timewire.bash" "$@"
}
ok=0
[ "$(complete_words "$TW" st)" = "status" ] || ok=1
[ "$(complete_words "$TW" omware s)" = "send show" ] || ok=1
[ "$(complete_words "$TW" omware send dev lo clock "")" = "mono tai realtime" ] || ok=1
[ "$(complete_words "$TW" omware send dev lo schedule "")" = "periodic poisson gamma file" ] || ok=1
[ "$(complete_words "$TW" omware send dev lo count 5 ba)" = "batch" ] || ok=1
tap_ok "bash completion follows the tool's help" test $ok -eq 0

# --- install ----------------------------------------------------------------------
if [ -z "${TW_CLI:-}" ] && command -v make >/dev/null; then
	inst=$tmp/inst
	installed() {
		make -s -C "$root/userspace" install DESTDIR="$inst" \
			PREFIX=/usr/local >/dev/null &&
		[ -x "$inst/usr/local/bin/timewire" ] &&
		[ -x "$inst/usr/local/bin/tw-rx" ] &&
		[ -x "$inst/usr/local/bin/tw-analyze" ] &&
		[ -x "$inst/usr/local/bin/tw-omware-bench" ] &&
		[ -f "$inst/usr/local/share/man/man8/timewire.8" ] &&
		[ -f "$inst/usr/local/share/man/man8/timewire-omware.8" ] &&
		[ -f "$inst/usr/local/share/bash-completion/completions/timewire" ] &&
		"$inst/usr/local/bin/timewire" version >/dev/null
	}
	tap_ok "make install DESTDIR=... PREFIX=/usr/local: every tool, page, completion" installed
else
	tap_skip "make install DESTDIR=... PREFIX=/usr/local: every tool, page, completion" "TW_CLI given"
fi

tap_done
