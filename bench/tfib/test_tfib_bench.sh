#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tw-tfib-bench on the host, no module needed: its help, every bad,
# missing or extra argument refused in one line with exit 1, the keywords
# it shares with timewire taking the same values, its man page and its
# bash completion.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip (not built).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

TW=$here/tw-tfib-bench
CLI=$root/userspace/timewire/timewire
page=$here/tw-tfib-bench.1
[ -x "$TW" ] || tap_skip_all "$TW not built (make userspace)"
[ -x "$CLI" ] || tap_skip_all "$CLI not built (make userspace)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli/cli_lib.sh
. "$root/tests/cli/cli_lib.sh"

tfib_name_max=$(uapi TFIB_NAME_MAX_LEN)
tfib_capacity=$(uapi TFIB_MAX_CAPACITY)
tfib_ring=$(uapi TFIB_MAX_RING)
tfib_burst=$(uapi TFIB_MAX_BURST)

tap_plan 9

run help
cp "$out" "$tmp/help"
args_of "$tmp/help" > "$tmp/args-bench"
tap_ok "help: its usage, NAME optional, its keyword \"table\" too" \
	grep -q "^Usage: tw-tfib-bench dev IFNAME source IFNAME out DIR \[ \[ table \] NAME \]" "$tmp/help"

# "ERROR@ARGS" per line: "tw-tfib-bench ARGS" is refused with ERROR.
ok=0
refused_lines <<LIST || ok=1
missing required argument: dev IFNAME@source lo out d
missing required argument: source IFNAME@dev lo out d
missing required argument: out DIR@dev lo source lo
invalid value "tw-no-such0" for dev: no such network device; expected a network device of this network namespace@dev tw-no-such0 source lo out d
invalid value "tw-no-such0" for source: no such network device; expected a network device of this network namespace@dev lo source tw-no-such0 out d
invalid value "0123456789abcdef" for table: too long; expected a name of 1 to $tfib_name_max bytes@dev lo source lo out d table 0123456789abcdef
invalid value "foo-ring" for methods: no such sync mode; expected a list of SYNC-ring, SYNC-inline (SYNC: rwlock, rcu, bucket, seqcount), xdp, xdp-user, baseline, each maybe +omware@dev lo source lo out d methods rcu-ring,foo-ring
invalid value "rcu" for methods: expected a list of SYNC-ring, SYNC-inline (SYNC: rwlock, rcu, bucket, seqcount), xdp, xdp-user, baseline, each maybe +omware@dev lo source lo out d methods xdp,rcu
invalid value "rcu+omware" for methods: expected a list of SYNC-ring, SYNC-inline (SYNC: rwlock, rcu, bucket, seqcount), xdp, xdp-user, baseline, each maybe +omware@dev lo source lo out d methods rcu-inline+omware,rcu+omware
invalid value "0" for rate: expected a list of rates, packets/s, 1 or more@dev lo source lo out d rate 1000,0
invalid value "," for rate: empty; expected a list of rates, packets/s, 1 or more@dev lo source lo out d rate ,
invalid value "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33" for rate: too many values; expected a list of rates, packets/s, 1 or more@dev lo source lo out d rate 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33
invalid value "1e3" for cdr: exponents are not accepted; expected a list of ratios from 0 to 4000@dev lo source lo out d cdr 0.1,1e3
invalid value "4000" for cdr: expected a list of ratios from 0 to 4000@dev lo source lo out d cdr 4000
invalid value "64:0" for rings: expected a list of CONTROL:DATA or N, sizes from 1 to $tfib_ring@dev lo source lo out d rings 64,64:0
invalid value "$((tfib_ring + 1))" for rings: expected a list of CONTROL:DATA or N, sizes from 1 to $tfib_ring@dev lo source lo out d rings $((tfib_ring + 1))
invalid value "0" for seconds: too small; expected an integer from 1 to 3600@dev lo source lo out d seconds 0
invalid value "0" for users: too small; expected an integer from 1 to $tfib_capacity@dev lo source lo out d users 0
invalid value "$((tfib_burst + 1))" for burst: too large; expected an integer from 1 to $tfib_burst@dev lo source lo out d burst $((tfib_burst + 1))
invalid value "1024" for forwarder-cpu: too large; expected an integer from 0 to 1023@dev lo source lo out d forwarder-cpu 1024
unknown argument "met" (keywords must be spelt out: "methods")@dev lo source lo out d met xdp
argument rate given twice@dev lo source lo out d rate 1 rate 2
LIST
tap_ok "every bad, missing or extra argument refused in one line, exit 1" \
	test $ok -eq 0
tap_ok "one device for both ends refused in one line, nothing made, exit 1" \
	eval 'refused 1 "^Error: dev and source are both lo: the source needs a device of its own\$" dev lo source lo out "$tmp/bench" &&
	      [ "$(wc -l < "$err")" -eq 1 ] && [ ! -e "$tmp/bench" ]'
tap_ok "-j: errors leave stdout empty" refused 1 'missing required argument' -j

# The keywords it shares with timewire's tfib commands (table, dev, burst)
# take the same kind of value there.
for c in $("$CLI" tfib help | awk '$0 == "Commands:" { on = 1; next }
		on && /^  [^ ]/ && $1 != "help" { print $1 }'); do
	"$CLI" tfib "$c" help > "$tmp/help-$c"
	args_of "$tmp/help-$c" > "$tmp/args-tfib-$c"
done
bad=$(one_unit "$tmp"/args-*)
tap_ok "every keyword it shares with timewire tfib has the same placeholder" \
	eval 'test -z "$bad" && grep -q "^table NAME" "$tmp/args-tfib-create"'
[ -z "$bad" ] || tap_diag "differing: $bad"

ok=0
states_lines <<'LIST' || ok=1
TFIB_DEFAULT_RING 1 help: or N for both \(default @\)
TFIB_MAX_RING 1 bench/tfib/tw-tfib-bench.1 for both, 1 to @ \(default
TFIB_DEFAULT_RING 1 bench/tfib/tw-tfib-bench.1 for both, 1 to \d+ \(default @\)
TFIB_MAX_BURST 1 bench/tfib/tw-tfib-bench.1 The token bucket's burst B, packets, 1 to @
TFIB_ETHERTYPE 1 bench/tfib/tw-tfib-xdp.1 \(EtherType @,
TFIB_ETHERTYPE 1 bench/tfib/tw-tfib-source.1 \(EtherType @\)
LIST
tap_ok "help and man pages state the UAPI headers' numbers" test $ok -eq 0

tap_ok "man page: sections, no groff warnings" man_sections "$page"
tap_ok "man page documents every keyword" \
	man_documents "$page" "$tmp/args-bench" tw-tfib-bench

ok=0
check "methods" "$TW" dev lo met
check "" "$TW" dev lo rate ""
check "retry lost" "$TW" dev lo refused ""
case " $(cand "$TW" dev lo source "") " in
*" lo "*) ;;
*) ok=1; tap_diag "source: no device offered" ;;
esac
mkdir -p "$tmp/dir.d"
check "$tmp/dir.d" "$TW" dev lo source lo out "$tmp/dir."
grep -qx -- "-o filenames" "$tmp/compopt" || { ok=1; tap_diag "out: no -o filenames"; }
tap_ok "completion: keywords, choices, devices, directories for out" \
	test $ok -eq 0

tap_done
