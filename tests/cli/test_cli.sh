#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The timewire command line on the host, no module needed: help at every
# level, the options in iproute2's forms, exact keyword matching, one name
# per idea, errors in one shape and exit codes, JSON output, the version,
# status (every module of the registry), the man pages and the bash
# completion; tfib's and qaware's arguments and errors without their
# modules.  The experiment tools are tested beside them, in bench/.
#
#   tests/cli/test_cli.sh            (TW_CLI=path overrides the binary)
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip (binary not built).
set -u

# shellcheck source=tests/cli/cli_host.sh
. "$(dirname "$0")/cli_host.sh"

# name_of N: a name N bytes long.
name_of() { printf '%*s' "$1" '' | tr ' ' n; }

# name_optional OBJECT KEYWORD COMMAND...: each command's help shows its
# NAME optional, and NAME's KEYWORD too; false, saying which, if not.
name_optional() {
	local object=$1 keyword=$2 c ok=0
	shift 2
	for c; do
		grep -q "^Usage: timewire $object $c \[ \[ $keyword \] NAME \]\$" \
			<("$TW" "$object" "$c" help) ||
			{ ok=1; tap_diag "$object $c: NAME not optional"; }
	done
	return $ok
}

# commands_help OBJECT COMMAND...: each command's help shows its usage;
# the keywords it names kept in $tmp/args-OBJECT-COMMAND.
commands_help() {
	local object=$1 c ok=0
	shift
	for c; do
		expect 0 "^Usage: timewire $object $c( |\$)" "$object" "$c" help || ok=1
		args_of "$out" > "$tmp/args-$object-$c"
	done
	return $ok
}

train_max=$(uapi OMWARE_TRAIN_MAX_PKTS)
tfib_name_max=$(uapi TFIB_NAME_MAX_LEN)
tfib_capacity=$(uapi TFIB_MAX_CAPACITY)
tfib_workers=$(uapi TFIB_MAX_WORKERS)
tfib_ring=$(uapi TFIB_MAX_RING)
tfib_burst=$(uapi TFIB_MAX_BURST)
qaware_name_max=$(uapi QAWARE_NAME_MAX_LEN)

# The module registry (modules.list): "name dir family summary" per module.
registry=$("$root/scripts/modules.sh" table) || exit 1
mod_names=$(awk '{ print $1 }' <<<"$registry" | paste -sd ' ')
families=$(awk '{ print $3 }' <<<"$registry" | paste -sd ' ')

send_keywords="dev clock mode xmit cpu count size schedule seed start-in batch
dst-mac dst src dport sport format report-file late-ns guard-max-ns max-pkts
max-bytes"
omware_cmds="send train pair show flush cancel"

tap_plan 89

# --- help at every level ----------------------------------------------------
tap_ok "help lists the objects" \
	expect 0 '^  omware ' help
cp "$out" "$tmp/help"
objs=$(section "$out" Objects | tr '\n' ' ')
# Each module's object, found by the registry's summary as its help.
mod_objs=""
while read -r name _ _ summary; do
	o=$(awk -v s="$summary" '/^  [^ ]/ && substr($0, 15) == s { print $1 }' "$tmp/help")
	mod_objs="$mod_objs${o:-(no object for $name)} "
done <<<"$registry"
tap_ok "help: objects are version status, one per module of the registry, help" \
	test "$objs" = "version status ${mod_objs}help "
[ "$objs" = "version status ${mod_objs}help " ] ||
	tap_diag "objects \"$objs\", registry's \"$mod_objs\""
# One name per module: its object is its family's name.
tap_ok "help: each module's object is named after its family ($families)" \
	test "$mod_objs" = "$families "
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
	refused 1 'invalid value "mon" for clock: expected \{ mono' omware send dev lo clock mon schedule periodic 1
tap_ok "schedule kind prefix \"per\" refused, exit 1" \
	refused 1 'invalid value "per" for schedule: expected periodic' omware send dev lo schedule per 1
tap_ok "unknown object, exit 1" \
	refused 1 'unknown object "bogus"' bogus
tap_ok "unknown option, exit 1" refused 1 'timewire help' -x status
tap_ok "missing required dev, exit 1" \
	refused 1 'missing required argument: dev IFNAME' omware send schedule periodic 1
tap_ok "missing required schedule, exit 1" \
	refused 1 'missing required argument: schedule \{' omware send dev lo
tap_ok "keyword given twice, exit 1" \
	refused 1 'argument count given twice' omware send dev lo count 1 count 2 schedule periodic 1
ok=0
for v in 0 -1 1x 0x 10000001 ' 5' ''; do
	refused 1 'invalid value ".*" for count: ' omware send dev lo count "$v" schedule periodic 1 || ok=1
done
tap_ok "bad counts refused (0, -1, 1x, 0x, too big, blank, empty)" test $ok -eq 0
tap_ok "size below the compact probe's 40 bytes refused" \
	refused 1 'invalid value "39" for size: too small; expected an integer from 40 to 65535' omware send dev lo size 39 schedule periodic 1
tap_ok "a train longer than OMWARE_TRAIN_MAX_PKTS ($train_max) refused" \
	refused 1 "invalid value \"$((train_max + 1))\" for count: too large; expected an integer from 2 to $train_max\$" \
	omware train dev lo count $((train_max + 1)) size 40
tap_ok "bad MAC refused" \
	refused 1 'invalid value "02:00:00:00:00" for dst-mac: expected' omware send dev lo dst-mac 02:00:00:00:00 schedule periodic 1
tap_ok "missing value at the end refused" \
	refused 1 'missing value for batch: expected an integer from 1 to 65536' omware send dev lo schedule periodic 1 batch
tap_ok "gamma needs SHAPE and MEAN" \
	refused 1 'missing value for schedule gamma: expected MEAN_US' omware send dev lo schedule gamma 2
tap_ok "train needs count >= 2" \
	refused 1 'invalid value "1" for count: too small' omware train dev lo count 1
printf '0\n1000\nbogus\n' >"$tmp/sched"
tap_ok "schedule file: a bad line is named" \
	refused 1 "sched:3: expected an offset" omware send dev lo schedule file "$tmp/sched"
tap_ok "schedule file: a missing file is named" \
	refused 1 "cannot open $tmp/nonexistent" omware send dev lo schedule file "$tmp/nonexistent"
tap_ok "-j: errors leave stdout empty" refused 1 'unknown object' -j stat
tap_ok "the benchmark is its own tool: omware bench refused" \
	refused 1 'unknown command "bench"' omware bench

# --- options in iproute2's forms ----------------------------------------------
# forms_print REF "FORMS" ARGS...: each option form before ARGS prints REF.
forms_print() {
	local ref=$1 forms=$2 f bad=0
	shift 2
	for f in $forms; do
		run "$f" "$@"
		cmp -s "$out" "$ref" || { bad=1; tap_diag "$f $*: not as $ref"; }
	done
	return $bad
}
run -j version
cp "$out" "$tmp/version.json"
tap_ok "-json and --json print what -j prints" \
	forms_print "$tmp/version.json" "-json --json" version
run -p status
cp "$out" "$tmp/status.pretty"
tap_ok "-pretty and --pretty print what -p prints" \
	forms_print "$tmp/status.pretty" "-pretty --pretty" status
run version
cp "$out" "$tmp/version.txt"
tap_ok "-V, -Version and --version print the version" \
	forms_print "$tmp/version.txt" "-V -Version --version"
tap_ok "-help and --help print the usage" \
	forms_print "$tmp/help" "-help --help"
run status -json
tap_ok "-json after the object" is_json "$out"
tap_ok "an abbreviated option (-js) is refused, exit 1" \
	refused 1 'unknown option "-js"' -js status
tap_ok "help lists every form of the options" \
	expect 0 '^  -j, -json, --json ' help

# --- one name and one unit per idea -------------------------------------------
for c in send train pair; do
	run omware "$c" help
	args_of "$out" > "$tmp/args-$c"
done
ok=0
for c in send train pair; do
	grep -qx 'start-in US' "$tmp/args-$c" || { ok=1; tap_diag "$c lacks start-in US"; }
done
tap_ok "send, train and pair all take start-in US" test $ok -eq 0
tap_ok "train's old \"at\" is refused" \
	refused 1 'unknown argument "at"' omware train dev lo count 2 at 5
# A keyword of several commands takes the same kind of value.
bad=$(one_unit "$tmp"/args-*)
tap_ok "every keyword has one placeholder (unit) in every omware command" \
	test -z "$bad"
[ -z "$bad" ] || tap_diag "differing: $bad"
# --- errors in one shape ------------------------------------------------------
tap_ok "periodic -5: negative" \
	refused 1 'invalid value "-5" for schedule periodic: negative; expected ALPHA_US' \
	omware send dev lo schedule periodic -5
tap_ok "periodic 1e3: exponents are not accepted" \
	refused 1 'invalid value "1e3" for schedule periodic: exponents are not accepted' \
	omware send dev lo schedule periodic 1e3
tap_ok "periodic 12.5555: too many decimals" \
	refused 1 'invalid value "12.5555" for schedule periodic: too many decimals; expected .*up to 3 decimals' \
	omware send dev lo schedule periodic 12.5555
tap_ok "count 12.5: not an integer" \
	refused 1 'invalid value "12.5" for count: not an integer' \
	omware send dev lo count 12.5 schedule periodic 1
ok=0
one_shape <<'LIST' || ok=1
omware send dev lo schedule periodic 1 count x
omware send dev lo schedule periodic 1 clock
omware send dev lo schedule periodic 1 dst 1.2.3
omware send dev lo schedule periodic 1 dst-mac x
omware send dev lo schedule periodic 1 size 39
omware send dev lo schedule periodic 1 batch
omware send dev "" schedule periodic 1
omware send dev lo schedule
omware send dev lo schedule periodic
omware send dev lo schedule poisson 0
omware send dev lo schedule gamma 0 1
omware send dev lo schedule gamma 1 -1
omware send dev lo schedule file
omware train dev lo count 2 gap -1
LIST
tap_ok "every bad or missing value gets one shape of message" \
	test $ok -eq 0
ok=0
for words in "foo" "omware bogus" "version foo" "omware send bogus"; do
	# shellcheck disable=SC2086
	run $words help
	cp "$out" "$tmp/o1"
	cp "$err" "$tmp/e1"
	rc1=$rc
	# shellcheck disable=SC2086
	run help $words
	cmp -s "$out" "$tmp/o1" && cmp -s "$err" "$tmp/e1" && [ "$rc" = "$rc1" ] ||
		{ ok=1; tap_diag "help $words answers unlike $words help"; }
done
run foo
cp "$err" "$tmp/e1"
run help foo
tap_ok "help WORDS answers as WORDS help: help foo as foo" \
	eval 'test $ok -eq 0 && test $rc -eq 1 && cmp -s "$err" "$tmp/e1" &&
	      grep -q "unknown object \"foo\"" "$err"'

# --- each command its own notes -----------------------------------------------
run omware pair help
tap_ok "pair help: its own notes, no \"count\" (pair takes none)" \
	eval 'grep -q "The two packets of a pair" "$out" && ! grep -qw count "$out"'
run omware train help
tap_ok "train help: the notes of trains of count packets" \
	grep -q "Each train of count packets" "$out"
run omware send help
tap_ok "send help points to PROBE PACKETS in timewire-omware(8), not a source file" \
	eval 'grep -q "PROBE PACKETS in timewire-omware(8)" "$out" && ! grep -q "probe\.h" "$out"'

# --- version ------------------------------------------------------------------
# "name version" of every module, as the UAPI headers define them.
uapi=$(while read -r name _ family _; do
	awk -v n="$name" -v d="$(echo "${family}_FAMILY_VERSION" | tr a-z A-Z)" \
		'$1 == "#define" && $2 == d { print n, $3 }' \
		"$root/include/uapi/linux/$family.h"
done <<<"$registry")
loaded_re=$(for m in $mod_names; do printf ' %s ([0-9]+|none)' "$m"; done)
version=$("$root/scripts/version.sh")
tap_ok "version prints the tree's version, scripts/version.sh's" \
	expect 0 "^timewire version ${version//./\\.}\$" version
tap_ok "version prints every module's UAPI version, in the registry's order" \
	grep -qx "uapi $(echo $uapi)" "$out"
tap_ok "version prints every module's loaded version, or none" \
	grep -Eqx "loaded$loaded_re" "$out"
cp "$out" "$tmp/version"
run -V
tap_ok "-V prints the same as version" cmp -s "$out" "$tmp/version"
run -j version
tap_ok "version -j is JSON with version, uapi and loaded of every module" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["program"] == "timewire" and d["version"];
w = sys.argv[2].split()
want = dict(zip(w[0::2], map(int, w[1::2])))
assert d["uapi"] == want, (d["uapi"], want)
assert list(d["loaded"]) == list(want)
assert all(v is None or v > 0 for v in d["loaded"].values())' "$out" "$(echo $uapi)"

# --- status ---------------------------------------------------------------------
run status
tap_ok "status exits 0 with or without modules" test "$rc" -eq 0
ok=0
# The modules of the registry, in its order, once each, and no other.
got=$(grep -E '^[a-z_]+ (loaded|not loaded)( |$)' "$out" | awk '{ print $1 }' | paste -sd ' ')
[ "$got" = "$mod_names" ] || { ok=1; tap_diag "status names \"$got\", registry \"$mod_names\""; }
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
assert [m["module"] for m in mods] == sys.argv[3].split()
for m in mods:
    assert isinstance(m["loaded"], bool)
    assert (m["module"] + " loaded" in " ".join(text)) == m["loaded"]
    if m["loaded"]:
        assert m["id"] > 0 and m["version"] > 0
assert d["modules_loaded"] == sum(m["loaded"] for m in mods)' \
	"$tmp/status.json" "$tmp/status" "$mod_names"
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

# --- tfib: arguments and errors, no module needed ---------------------------------
tfib_cmds="create del show set get unset dump bind unbind stats save"
run tfib help
cmds=$(section "$out" Commands | tr '\n' ' ')
tap_ok "tfib help: create del show set get unset dump bind unbind stats save help" \
	test "$cmds" = "$tfib_cmds help "
tap_ok "tfib help: show is the default" grep -Eq '^  show .*\(default\)$' "$out"
ok=0
# shellcheck disable=SC2086 # the list is words
commands_help tfib $tfib_cmds || ok=1
tap_ok "every tfib command has help" test $ok -eq 0
ok=0
for c in create del set get unset dump bind unbind; do
	grep -q "^Usage: timewire tfib $c \[ table \] NAME" <("$TW" tfib $c help) ||
		{ ok=1; tap_diag "tfib $c: NAME not required"; }
done
name_optional tfib table show stats save || ok=1
tap_ok "tfib: NAME is required but by show, stats and save, its keyword \"table\" optional" \
	test $ok -eq 0

# "ERROR@ARGS" per line: "timewire tfib ARGS" is refused with ERROR.
ok=0
refused_lines tfib <<LIST || ok=1
missing required argument: table NAME@create capacity 8
missing required argument: capacity N@create t1
missing required argument: capacity N@create table t1
invalid value "0" for capacity: too small; expected an integer from 1 to $tfib_capacity@create t1 capacity 0
invalid value "$((tfib_capacity + 1))" for capacity: too large; expected an integer from 1 to $tfib_capacity@create t1 capacity $((tfib_capacity + 1))
invalid value "$(name_of $((tfib_name_max + 1)))" for table: too long; expected a name of 1 to $tfib_name_max bytes@create $(name_of $((tfib_name_max + 1))) capacity 8
invalid value "" for table: empty; expected a name of 1 to $tfib_name_max bytes@create "" capacity 8
invalid value "mutex" for sync: expected { rwlock | rcu | bucket | seqcount }@create t1 capacity 8 sync mutex
invalid value "boot" for clock: expected { mono | tai | realtime }@create t1 capacity 8 clock boot
unknown argument "1"@create t1 capacity 8 prefetch 1
unknown argument "cap" (keywords must be spelt out: "capacity")@create t1 cap 8
argument table given twice@create t1 table t2 capacity 8
unknown argument "t2"@create t1 capacity 8 t2
missing required argument: user ID@get t1
missing required argument: mac MAC@set t1 user 1
invalid value "-1" for user: negative; expected an integer from 0 to 4294967295@set t1 user -1 mac 02:00:00:00:00:01
invalid value "4294967296" for user: too large; expected an integer from 0 to 4294967295@unset t1 user 4294967296
invalid value "02:00:00:00:00" for mac: expected a MAC address xx:xx:xx:xx:xx:xx@set t1 user 1 mac 02:00:00:00:00
invalid value "1e9" for ts: exponents are not accepted; expected an integer from 0 to 18446744073709551615@set t1 user 1 mac 02:00:00:00:00:01 ts 1e9
missing value for seq: expected an integer from 0 to 4294967295@set t1 user 1 mac 02:00:00:00:00:01 seq
missing required argument: dev IFNAME@bind t1
invalid value "tw-no-such0" for dev: no such network device; expected a network device of this network namespace@bind t1 dev tw-no-such0
invalid value "poll" for mode: expected { ring | inline }@bind t1 dev lo mode poll
invalid value "lru" for pick: expected { memo | scan }@bind t1 dev lo pick lru
invalid value "0" for workers: too small; expected an integer from 1 to $tfib_workers@bind t1 dev lo workers 0
invalid value "$((tfib_workers + 1))" for workers: too large; expected an integer from 1 to $tfib_workers@bind t1 dev lo workers $((tfib_workers + 1))
invalid value "$((tfib_ring + 1))" for control-ring: too large; expected an integer from 1 to $tfib_ring@bind t1 dev lo control-ring $((tfib_ring + 1))
invalid value "0" for data-ring: too small; expected an integer from 1 to $tfib_ring@bind t1 dev lo data-ring 0
invalid value "$((tfib_burst + 1))" for burst: too large; expected an integer from 1 to $tfib_burst@bind t1 dev lo burst $((tfib_burst + 1))
unknown argument "user"@dump t1 user 1
unknown argument "dev"@unbind t1 dev lo
LIST
tap_ok "tfib: every bad, missing or extra argument refused in one line, exit 1" \
	test $ok -eq 0
tap_ok "tfib: command prefix \"cre\" refused, exit 1" \
	refused 1 'unknown command "cre" \(did you mean "create"\?' tfib cre
tap_ok "tfib save -j: refused, its lines are commands, not JSON" \
	refused 1 '^Error: save prints commands for "timewire -batch", not JSON$' -j tfib save
if grep -q '^tfib not loaded' "$tmp/status"; then
	ok=0
	while read -r args; do
		# shellcheck disable=SC2086
		run -j tfib $args
		[ "$rc" -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] &&
		grep -qx 'Error: the tfib module is not loaded (its generic netlink family "tfib" is absent); load it with "modprobe tfib"' "$err" ||
			{ ok=1; tap_diag "tfib $args: exit $rc"; sed 's/^/#   /' "$err"; }
	done <<'LIST'

show
show t1
create t1 capacity 8 buckets 8 sync seqcount prefetch spares 8 clock tai
del t1
set t1 user 1 mac 02:00:00:00:00:01 ts 5 seq 1
get table t1 user 1
unset t1 user 1
dump t1
bind t1 dev lo mode ring pick scan workers 2 control-ring 64 data-ring 64 burst 8
unbind t1
stats
stats t1
LIST
	tap_ok "tfib without the module: every command, exit 2, one line saying how to load it" \
		test $ok -eq 0
else
	tap_skip "tfib without the module: every command, exit 2, one line saying how to load it" \
		"tfib is loaded"
fi

# --- qaware: arguments and errors, no module needed ---------------------------------
qaware_cmds="show stats load unload"
run qaware help
tap_ok "qaware help: show stats load unload help, show the default" \
	eval 'test "$(section "$out" Commands | paste -sd " ")" = "$qaware_cmds help" &&
	      grep -Eq "^  show .*\(default\)$" "$out"'
ok=0
# shellcheck disable=SC2086 # the list is words
commands_help qaware $qaware_cmds || ok=1
name_optional qaware sched show stats || ok=1
tap_ok "every qaware command has help; show's and stats' NAME optional, its keyword too" \
	test $ok -eq 0
ok=0
while IFS=@ read -r want args; do
	# shellcheck disable=SC2086
	run qaware $args
	if [ "$rc" -ne 1 ] || [ "$(head -1 "$err")" != "Error: $want" ] || [ -s "$out" ]; then
		ok=1
		tap_diag "qaware $args: exit $rc"
		sed 's/^/#   /' "$err"
	fi
done <<LIST
invalid value "$(name_of $((qaware_name_max + 1)))" for sched: too long; expected a name of 1 to $qaware_name_max bytes@show $(name_of $((qaware_name_max + 1)))
unknown argument "bogus"@show qaware bogus
invalid value "$(name_of $((qaware_name_max + 2)))" for sched: too long; expected a name of 1 to $qaware_name_max bytes@stats sched $(name_of $((qaware_name_max + 2)))
missing value for ko: expected FILE@load ko
unknown argument "now"@unload now
unknown command "bogus"@bogus
LIST
tap_ok "qaware: bad, missing or extra arguments refused in one line, exit 1" test $ok -eq 0
if grep -q '^mptcp_qaware not loaded' "$tmp/status"; then
	ok=0
	for args in "" show "show qaware" "show sched rr" stats "stats qaware"; do
		# shellcheck disable=SC2086
		run -j qaware $args
		[ "$rc" -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] &&
		grep -q '^Error: the mptcp_qaware module is not loaded' "$err" ||
			{ ok=1; tap_diag "qaware $args: exit $rc"; sed 's/^/#   /' "$err"; }
	done
	tap_ok "qaware show and stats without the module: exit 2, one line saying so" \
		test $ok -eq 0
	# Here as anywhere without the module: not root, no MPTCP, no
	# addresses or not installed, each said in one line with what to do.
	run qaware load
	tap_ok "qaware load where it cannot load: exit 1, one line naming what is missing" \
		eval '[ "$rc" -eq 1 ] && [ "$(wc -l < "$err")" -eq 1 ] &&
		      grep -Eq "^Error: .*(root|MPTCP|CONFIG_KALLSYMS_ALL|kptr_restrict|not installed)" "$err"'
else
	tap_skip "qaware show and stats without the module: exit 2, one line saying so" \
		"mptcp_qaware is loaded"
	tap_skip "qaware load where it cannot load: exit 1, one line naming what is missing" \
		"mptcp_qaware is loaded"
fi

# --- numbers of the UAPI headers, as the help and the pages state them ---------
ok=0
states_lines <<'LIST' || ok=1
OMWARE_LATE_NS_DEFAULT 1 help:omware,send counted as late \(kernel default @\)
OMWARE_LATE_NS_DEFAULT 1 man/timewire-omware.8 counts as late \(kernel default @\)
OMWARE_LATE_NS_DEFAULT us Documentation/omware.rst ``LATE_NS`` @ us,
OMWARE_GUARD_MAX_NS_DEFAULT 1 help:omware,send spin guard \(kernel default @\)
OMWARE_GUARD_MIN_NS 1 man/timewire-omware.8 the module accepts @ to
OMWARE_GUARD_MAX_NS_LIMIT 1 man/timewire-omware.8 accepts \d+ to @ and
OMWARE_GUARD_MAX_NS_DEFAULT 1 man/timewire-omware.8 and defaults to @:
OMWARE_GUARD_MIN_NS us Documentation/omware.rst The guard stays between @ us and
OMWARE_GUARD_MIN_NS us Documentation/omware.rst ``GUARD_MAX_NS`` \(@ us to
OMWARE_GUARD_MAX_NS_LIMIT ms Documentation/omware.rst ``GUARD_MAX_NS`` \(\d+ us to @ ms,
OMWARE_GUARD_MAX_NS_DEFAULT ms Documentation/omware.rst us to \d+ ms, default @ ms\)
OMWARE_GUARD_MIN_NS us Documentation/omware.rst ``GUARD_MAX_NS`` \d+ ms \(@ us to
OMWARE_GUARD_MAX_NS_LIMIT ms Documentation/omware.rst ``GUARD_MAX_NS`` \d+ ms \(\d+ us to @ ms\)
OMWARE_GUARD_MAX_NS_DEFAULT ms Documentation/omware.rst ``GUARD_MAX_NS`` @ ms \(
OMWARE_TRAIN_MAX_PKTS 1 man/timewire-omware.8 packets \(2 to @, OMWARE_TRAIN_MAX_PKTS
OMWARE_TRAIN_MAX_PKTS 1 Documentation/omware.rst ``OMWARE_CMD_TRAIN`` queues 2 to @ frames
OMWARE_TRAIN_MAX_PKTS 1 Documentation/omware.rst Queue 2 to @ ``PKT``
OMWARE_TRAIN_MAX_PKTS 1 Documentation/omware.rst a train has at most @ frames
OMWARE_SPIN_STALL_NS us man/timewire-omware.8 OMWARE_SPIN_STALL_NS \(@ us,
OMWARE_SPIN_STALL_NS us Documentation/omware.rst ``OMWARE_SPIN_STALL_NS``, @ us,
TFIB_ETHERTYPE 1 help:tfib,bind update packets \(EtherType @\)
TFIB_ETHERTYPE 1 man/timewire-tfib.8 \(EtherType @,
TFIB_ETHERTYPE 1 Documentation/tfib.rst \(@, IEEE 802 local experimental 1\)
TFIB_NAME_MAX_LEN 1 man/timewire-tfib.8 names of 1 to @ bytes
TFIB_NAME_MAX_LEN 1 Documentation/tfib.rst ``TABLE`` name, 1 to @ bytes
TFIB_NAME_MAX_LEN 1 Documentation/tfib.rst its name \(1 to @ bytes
TFIB_MAX_WORKERS 1 man/timewire-tfib.8 Data worker threads, 1 to @,
TFIB_MAX_WORKERS 1 Documentation/tfib.rst ``WORKERS`` 1 to @;
TFIB_MAX_RING 1 man/timewire-tfib.8 Ring sizes, 1 to @ packets
TFIB_DEFAULT_RING 1 man/timewire-tfib.8 Ring sizes, 1 to \d+ packets \(default @ each\)
TFIB_MAX_RING 1 Documentation/tfib.rst ``CONTROL_RING``, 1 to @ packets each
TFIB_DEFAULT_RING 1 Documentation/tfib.rst 1 to \d+ packets each; default @
TFIB_DEFAULT_RING 1 help:tfib,bind control ring size, in packets \(default @\)
TFIB_DEFAULT_RING 1 help:tfib,bind data ring size, in packets \(default @\)
TFIB_MAX_BURST 1 man/timewire-tfib.8 looks again, 1 to @ \(default
TFIB_DEFAULT_BURST 1 man/timewire-tfib.8 looks again, 1 to \d+ \(default @\)
TFIB_MAX_BURST 1 Documentation/tfib.rst ``BURST`` 1 to @; default
TFIB_DEFAULT_BURST 1 Documentation/tfib.rst ``BURST`` 1 to \d+; default @
TFIB_DEFAULT_BURST 1 help:tfib,bind at once \(default @\)
TFIB_MAX_CONTROL_SRC 1 man/timewire-tfib.8 up to @ unicast ones
TFIB_MAX_CONTROL_SRC 1 Documentation/tfib.rst \(up to @ unicast MACs\)
TFIB_MAX_CONTROL_SRC 1 Documentation/tfib.rst ``CONTROL_SRC`` up to @, one unicast
LIST
tap_ok "help, man pages and documentation state the UAPI headers' numbers" \
	test $ok -eq 0

# --- man pages --------------------------------------------------------------
ok=0
pages=("$root/man/timewire.8")
for f in $families; do pages+=("$root/man/timewire-$f.8"); done
for page in "${pages[@]}"; do
	man_sections "$page" || ok=1
done
# Every keyword of every command, as its help names it, in the page; every
# object of the help in timewire.8.
for c in send train pair $(printf 'tfib-%s ' $tfib_cmds) \
	$(printf 'qaware-%s ' $qaware_cmds); do
	case $c in
	tfib-*) page=$root/man/timewire-tfib.8 ;;
	qaware-*) page=$root/man/timewire-qaware.8 ;;
	*) page=$root/man/timewire-omware.8 ;;
	esac
	[ -f "$tmp/args-$c" ] || continue
	man_documents "$page" "$tmp/args-$c" "$c" || ok=1
done
for o in $objs; do
	grep -Eq "(^|[ \"])$o(\$|[ \"])" "$root/man/timewire.8" ||
		{ ok=1; tap_diag "timewire.8 does not name the object $o"; }
done
for c in 0 1 2 3 5; do
	grep -Eq "^\.B $c\$" "$root/man/timewire.8" ||
		{ ok=1; tap_diag "timewire.8 does not document exit status $c"; }
done
tap_ok "man pages: sections, no groff warnings, every keyword and exit code" \
	test $ok -eq 0

# man_objects: timewire.8 names the objects as modules.list has them: its
# synopsis's OBJECT and its OBJECTS section version, status and each
# module's family, its SEE ALSO each module's page, in the registry's order.
man_objects() {
	local page=$root/man/timewire.8 want="version status $families" got

	got=$(sed -n '/^\.IR OBJECT " := { "$/{n;p;}' "$page" |
		sed 's/^\.BR //; s/ " }"$//; s/ " | " / /g')
	[ "$got" = "$want" ] ||
		{ tap_diag "timewire.8's OBJECT: \"$got\", not \"$want\""; return 1; }
	got=$(sed -n '/^\.SH OBJECTS$/,/^\.SH /{/^\.TP$/{n;s/^\.B //p;};}' "$page" |
		paste -sd ' ')
	[ "$got" = "$want" ] ||
		{ tap_diag "timewire.8's OBJECTS: \"$got\", not \"$want\""; return 1; }
	got=$(sed -n '/^\.SH "\{0,1\}SEE ALSO"\{0,1\}$/,$s/^\.BR timewire\\-\([a-z0-9_]*\) (8),\{0,1\}$/\1/p' \
		"$page" | paste -sd ' ')
	[ "$got" = "$families" ] ||
		{ tap_diag "timewire.8's SEE ALSO: timewire-\"$got\", not \"$families\""; return 1; }
}
tap_ok "man: timewire.8's objects and pages are modules.list's" man_objects

# --- bash completion ----------------------------------------------------------
ok=0
check "status" "$TW" st
check "send show" "$TW" omware s
check "mono tai realtime" "$TW" omware send dev lo clock ""
check "periodic poisson gamma file" "$TW" omware send dev lo schedule ""
check "batch" "$TW" omware send dev lo count 5 ba
check "version status ${mod_objs}help" "$TW" help ""
check "send train pair show flush cancel help" "$TW" help omware ""
check "-j -json" "$TW" -j
check "$qaware_cmds help" "$TW" qaware ""
check "sched help" "$TW" qaware show ""
check "ko params help" "$TW" qaware load ""
tap_ok "completion: objects, commands, keywords, choices and options from the help" \
	test $ok -eq 0
ok=0
check "" "$TW" omware send dev lo count ""
check "" "$TW" omware send dev lo schedule periodic ""
check "" "$TW" omware send dev lo schedule gamma 2 ""
check "" "$TW" omware send dev lo start-in ""
check "count" "$TW" omware send dev lo schedule gamma 2 5 cou
check "count" "$TW" omware send dev lo schedule periodic 5 cou
tap_ok "completion: nothing where a number is due, keywords after a whole value" \
	test $ok -eq 0
ok=0
check "$tfib_cmds help" "$TW" tfib ""
check "table capacity buckets sync prefetch spares clock help" "$TW" tfib create t1 ""
check "capacity buckets sync prefetch spares clock help" "$TW" tfib create table t1 ""
check "rwlock rcu bucket seqcount" "$TW" tfib create t1 sync ""
check "mono tai realtime" "$TW" tfib create t1 capacity 8 clock ""
check "buckets" "$TW" tfib create t1 prefetch bu
check "" "$TW" tfib create t1 capacity ""
check "" "$TW" tfib set t1 user ""
check "table ts" "$TW" tfib set t1 user 1 mac 02:00:00:00:00:01 t
check "ring inline" "$TW" tfib bind t1 dev lo mode ""
check "memo scan" "$TW" tfib bind t1 dev lo pick ""
check "control-ring control-src" "$TW" tfib bind t1 dev lo con
case " $(cand "$TW" tfib bind t1 dev "") " in
*" lo "*) ;;
*) ok=1; tap_diag "tfib bind dev: no device offered" ;;
esac
tap_ok "completion of tfib: commands, keywords (table too), sync, clock, mode and pick words, devices" \
	test $ok -eq 0
mkdir -p "$tmp/dir.d"
ok=0
check "$tmp/dir.d" "$TW" omware send dev lo schedule file "$tmp/dir."
grep -qx -- "-o filenames" "$tmp/compopt" || { ok=1; tap_diag "schedule file: no -o filenames"; }
check "$tmp/dir.d" "$TW" omware send dev lo report-file "$tmp/dir."
grep -qx -- "-o filenames" "$tmp/compopt" || { ok=1; tap_diag "report-file: no -o filenames"; }
check "dst-mac dst" "$TW" omware send dev lo ds
[ -s "$tmp/compopt" ] && { ok=1; tap_diag "keywords completed as file names"; }
tap_ok "completion: file names (-o filenames) only for file arguments" \
	test $ok -eq 0
ok=0
check "-b -batch" "$TW" -b
check "-force" "$TW" -f
check "$tmp/dir.d" "$TW" -batch "$tmp/dir."
grep -qx -- "-o filenames" "$tmp/compopt" || { ok=1; tap_diag "-batch: no -o filenames"; }
check "$tmp/dir.d" "$TW" -force --batch "$tmp/dir."
check "" "$TW" -batch "$tmp/dir.d" ""
check "--force" "$TW" -b "$tmp/dir.d" --f
tap_ok "completion: -batch's file, then nothing but options" test $ok -eq 0

tap_done
