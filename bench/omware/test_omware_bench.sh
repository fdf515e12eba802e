#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tw-omware-bench on the host: its help, arguments, methods and text and
# JSON output, its check of the module before any qdisc, and how a failing
# tc is reported (tc stood in for); the keywords it shares with timewire
# omware taking the same values and errors of the same shape; a pair's
# frame that sendmmsg(2) left sent alone (sendmmsg stood in for); the
# real-time thread started outside the CPU window (pthread_create stood in
# for); no clock read standing in for TRW-RT's missing transmit timestamps
# (setsockopt stood in for); its man page and bash completion.
#
#   bench/omware/test_omware_bench.sh    (TW_BENCH_TOOL=path overrides it)
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip (not built).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

TW=${TW_BENCH_TOOL:-$here/tw-omware-bench}
CLI=$root/userspace/timewire/timewire
page=$here/tw-omware-bench.1
[ -x "$TW" ] || tap_skip_all "$TW not built (make userspace)"
[ -x "$CLI" ] || tap_skip_all "$CLI not built (make userspace)"
command -v python3 >/dev/null || tap_skip_all "python3 needed to check JSON"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli/cli_lib.sh
. "$root/tests/cli/cli_lib.sh"

# run_cli ARGS...: run for timewire, to compare with.
run_cli() {
	local TW=$CLI
	run "$@"
}

bench_args="dev lo dst-mac 02:00:00:00:00:02 dst 198.18.0.2"

tap_plan 25

"$TW" help > "$tmp/bench-help"
args_of "$tmp/bench-help" > "$tmp/args-bench"

# --- arguments, methods, output -------------------------------------------------
run help
tap_ok "tw-omware-bench help" \
	eval 'test $rc -eq 0 && grep -q "^Usage: tw-omware-bench dev IFNAME" "$out"'
tap_ok "tw-omware-bench: missing dev, exit 1" \
	eval 'run; test $rc -eq 1 && grep -q "missing required argument: dev IFNAME" "$err"'
tap_ok "tw-omware-bench: unknown method, exit 1" \
	eval 'run $bench_args methods bogus; test $rc -eq 1 &&
	      grep -q "invalid value \"bogus\" for methods: unknown method" "$err"'
# A tc that leaves a trace: the module is checked before any qdisc.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "$*" >> %s/tc.log\n' "$tmp" > "$tmp/bin/tc"
chmod +x "$tmp/bin/tc"
if [ -d /sys/module/omware ]; then
	tap_skip "tw-omware-bench without the module: exit 2, tc untouched" \
		"omware is loaded"
else
	tap_ok "tw-omware-bench without the module: exit 2, tc untouched" \
		eval 'PATH=$tmp/bin:$PATH run $bench_args methods etf,oir;
		      test $rc -eq 2 && [ ! -e "$tmp/tc.log" ] &&
		      grep -q "^Error: the omware module is not loaded.*modprobe omware" "$err" &&
		      [ "$(wc -l < "$err")" -eq 1 ]'
fi
# tc's complaint is reported with what was done, not passed through.
printf '#!/bin/sh\necho "Error: Specified qdisc kind is unknown." >&2\nexit 2\n' \
	> "$tmp/bin/tc"
tap_ok "tw-omware-bench: a failing tc is reported with its command" \
	eval 'PATH=$tmp/bin:$PATH run $bench_args methods etf etf-delta 100 count 2 grace 10;
	      test $rc -eq 5 && [ ! -s "$err" ] &&
	      grep -q "error \"tc qdisc replace dev lo root etf clockid CLOCK_TAI delta 100000 failed: Error: Specified qdisc kind is unknown\.\"$" "$out"'
# Method names in any case; text output of key-value pairs.
tap_ok "tw-omware-bench: method names in any case (Etf,FQ)" \
	eval 'PATH=$tmp/bin:$PATH run $bench_args methods Etf,FQ etf-delta 100 count 2 grace 10 seed 1;
	      test $rc -eq 5 && grep -q "^ETF-100 " "$out" && grep -q "^FQ " "$out"'
cp "$out" "$tmp/bench.txt"
# shellcheck disable=SC2086
PATH=$tmp/bin:$PATH run -json $bench_args methods etf,fq etf-delta 100 count 2 grace 10 seed 1
cp "$out" "$tmp/bench.json"
tap_ok "tw-omware-bench -json (iproute2's form) prints JSON" is_json "$tmp/bench.json"
tap_ok "tw-omware-bench text: key-value pairs, values with blanks quoted" \
	python3 - "$tmp/bench.txt" "$tmp/bench.json" <<'PY'
import json, shlex, sys
text = open(sys.argv[1]).read().splitlines()
runs = json.load(open(sys.argv[2]))["methods"]
# The workload, the seed and order, then the warm-up and the two runs.
assert len(runs) == 3 and len(text) == 8, text
# Each run: a line "NAME key value ...", then a line "key value ...".
for i, run in enumerate(runs):
    words = shlex.split(text[2 + 2 * i]) + shlex.split(text[3 + 2 * i])
    assert words[0] == run["method"] and len(words) % 2 == 1, words
    pairs = dict(zip(words[1::2], words[2::2]))
    assert set(pairs) == set(run) - {"method"}, (pairs, run)
    for k in ("qdisc", "error", "tag", "sent"):
        assert pairs[k] == str(run[k]), (k, pairs[k], run[k])
    assert " " in pairs["qdisc"] and " " in pairs["error"]
PY
# The order: a seeded shuffle, printed; the warm-up runs its first
# method, and every run has a tag of its own.
ok=0
orders=""
for seed in 1 2 3 4 5 6 7 8 1; do
	# shellcheck disable=SC2086
	PATH=$tmp/bin:$PATH run $bench_args methods etf,fq etf-delta 100 count 2 grace 10 seed $seed
	order=$(awk '$1 == "seed" && $2 == '"$seed"' { print $4 }' "$out")
	runs=$(awk '/^[A-Z]/ { sub(/-100$/, "", $1)
		print $1 ($4 == "warmup" && $5 == 1 ? "*" : "") }' "$out" | paste -sd,)
	tags=$(awk '/^[A-Z]/ { print $3 }' "$out" | sort -u | paste -sd,)
	[ "$runs" = "${order%%,*}*,$order" ] && [ "$tags" = 30000,30001,30002 ] ||
		{ ok=1; tap_diag "seed $seed: order $order, runs $runs, tags $tags"; }
	orders="$orders $seed:$order"
done
# The same seed, the same order; some seeds put each method first.
first=$(echo "$orders" | tr ' ' '\n' | grep '^1:' | sort -u | wc -l)
kinds=$(echo "$orders" | tr ' ' '\n' | grep : | cut -d: -f2 | sort -u | paste -sd' ')
tap_ok "tw-omware-bench: seeded order, warm-up first, unique tags" \
	eval 'test $ok -eq 0 && test "$first" -eq 1 && test "$kinds" = "ETF,FQ FQ,ETF"'
sed -n '/^Methods:/,/^$/p' "$tmp/bench-help" > "$tmp/methods-help"
tap_ok "tw-omware-bench help lists rsm-rt, rsm-rt-sleep and trw-rt" \
	eval 'grep -q "^  rsm-rt  .*SCHED_FIFO" "$tmp/methods-help" &&
	      grep -q "^  rsm-rt-sleep  .*without guard and spin" "$tmp/methods-help" &&
	      grep -q "^  trw-rt  .*rsm-rt-sleep.s thread" "$tmp/methods-help"'
# The socket methods' threads in the mode column: whether the run could
# send (root) or not, each method gets its row (etf's, its tc refused).
# shellcheck disable=SC2086
PATH=$tmp/bin:$PATH run $bench_args methods rsm,rsm-rt,rsm-rt-sleep,trw,trw-rt,etf \
	etf-delta 100 count 2 grace 10 seed 1 out "$tmp/rt"
rt_rc=$rc
modes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["warmup"] == 0 { print $col["method"] ":" $col["kind"] ":" $col["mode"] }' \
	"$tmp/rt/methods.csv" 2>/dev/null | LC_ALL=C sort | paste -sd ' ')
tap_ok "tw-omware-bench: RSM-RT-sleep, TRW-RT and ETF on the real-time thread (mode rt-sleep)" \
	eval 'test $rt_rc -eq 5 &&
	      test "$modes" = "ETF-100:train:rt-sleep RSM-RT-sleep:train:rt-sleep RSM-RT:train:rt RSM:train:- TRW-RT:pair:rt-sleep TRW:pair:-"'
[ "$rt_rc" -eq 5 ] || tap_diag "exit $rt_rc: $(cat "$err")"
# A sendmmsg() that takes only the first frame of a pair, as when the
# second finds the queue full: the count says so, the second's error is
# gone, so TRW-RT sends that frame again alone.
cat > "$tmp/one_of_two.c" <<'C'
#define _GNU_SOURCE
#include <sys/socket.h>

int sendmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags)
{
	ssize_t n;

	if (!vlen)
		return 0;
	n = sendmsg(fd, &vec[0].msg_hdr, flags);
	if (n < 0)
		return -1;
	vec[0].msg_len = n;
	return 1;
}
C
if [ "$(id -u)" -ne 0 ]; then
	tap_skip "TRW-RT: a frame sendmmsg() left is sent alone" "needs root"
elif ! ${CC:-cc} -shared -fPIC -o "$tmp/one_of_two.so" "$tmp/one_of_two.c"; then
	tap_skip "TRW-RT: a frame sendmmsg() left is sent alone" "no C compiler"
else
	# shellcheck disable=SC2086
	LD_PRELOAD=$tmp/one_of_two.so run $bench_args methods trw-rt count 2 grace 10 seed 1
	tap_ok "TRW-RT: a frame sendmmsg() left is sent alone" \
		eval 'test $rc -eq 0 && grep -q "^TRW-RT tag 30001 packets 4 sent 4 dropped 0 " "$out"'
	[ "$rc" -eq 0 ] || tap_diag "exit $rc: $(cat "$out" "$err")"
fi
# Starting the real-time thread is setup, outside the CPU window, as
# every other method's: a pthread_create() that burns 300 ms of CPU
# leaves RSM-RT's window (its two packets' few milliseconds) under 150 ms.
cat > "$tmp/slow_start.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
			 void *(*)(void *), void *);

int pthread_create(pthread_t *th, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	create_fn real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	struct timespec ts;
	long long start, now;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	start = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	} while (now - start < 300000000);
	return real(th, attr, fn, arg);
}
C
if [ "$(id -u)" -ne 0 ]; then
	tap_skip "RSM-RT: starting its thread is outside the CPU window" "needs root"
elif ! ${CC:-cc} -shared -fPIC -o "$tmp/slow_start.so" "$tmp/slow_start.c" -ldl; then
	tap_skip "RSM-RT: starting its thread is outside the CPU window" "no C compiler"
else
	# shellcheck disable=SC2086
	LD_PRELOAD=$tmp/slow_start.so run $bench_args methods rsm-rt count 2 grace 10 \
		seed 1 out "$tmp/slow"
	cpu=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["warmup"] == 0 { print $col["cpu_proc_ns"] }' "$tmp/slow/methods.csv")
	tap_ok "RSM-RT: starting its thread is outside the CPU window" \
		eval 'test $rc -eq 0 && test -n "$cpu" && test "$cpu" -lt 150000000'
	tap_diag "RSM-RT cpu_proc_ns $cpu with a pthread_create() of 300 ms"
fi
# Without transmit timestamps the socket methods fall back to the clock
# after the call, but not TRW-RT: one read after its sendmmsg() would give
# both frames one time.  Its frames are sent, at no known time.
cat > "$tmp/no_stamps.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

typedef int (*setsockopt_fn)(int, int, int, const void *, socklen_t);

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	setsockopt_fn real = (setsockopt_fn)dlsym(RTLD_NEXT, "setsockopt");

	if (level == SOL_SOCKET && (name == SO_TIMESTAMPING || name == 65)) {
		errno = ENOPROTOOPT;
		return -1;
	}
	return real(fd, level, name, val, len);
}
C
if [ "$(id -u)" -ne 0 ]; then
	tap_skip "no transmit timestamps: TRW the clock, TRW-RT no send time" "needs root"
elif ! ${CC:-cc} -shared -fPIC -o "$tmp/no_stamps.so" "$tmp/no_stamps.c" -ldl; then
	tap_skip "no transmit timestamps: TRW the clock, TRW-RT no send time" "no C compiler"
else
	# shellcheck disable=SC2086
	LD_PRELOAD=$tmp/no_stamps.so run $bench_args methods trw,trw-rt count 2 grace 10 \
		seed 1 out "$tmp/nostamp"
	# tag 30000 is the warm-up; per measured run: sources, statuses.
	srcs=$(awk -F, '$1 == 30001 || $1 == 30002 { print $1 ":" $5 ":" $7 ":" ($4 > 0) }' \
		"$tmp/nostamp/send.csv" | LC_ALL=C sort | uniq -c | awk '{ print $1 "x" $2 }' |
		paste -sd ' ')
	names=$(awk '/^TRW/ && !/warmup 1/ { print $3 ":" $1 }' "$out" | paste -sd ' ')
	tap_ok "no transmit timestamps: TRW the clock, TRW-RT no send time" \
		eval 'test $rc -eq 0 && grep -q "no transmit timestamps" "$err" &&
		      case "$names" in
		      "30001:TRW 30002:TRW-RT")
			test "$srcs" = "4x30001:user:sent:1 4x30002:none:sent:0" ;;
		      "30001:TRW-RT 30002:TRW")
			test "$srcs" = "4x30001:none:sent:0 4x30002:user:sent:1" ;;
		      *) false ;;
		      esac'
	tap_diag "runs $names, send.csv $srcs"
fi

# --- one name and one unit per idea --------------------------------------------
# A keyword it shares with timewire omware's commands takes the same kind
# of value.
for c in send train pair; do
	"$CLI" omware "$c" help > "$tmp/help-$c"
	args_of "$tmp/help-$c" > "$tmp/args-$c"
done
bad=$(one_unit "$tmp"/args-*)
tap_ok "every keyword it shares with timewire omware has the same placeholder" \
	eval 'test -z "$bad" && grep -qx "start-in US" "$tmp/args-send"'
[ -z "$bad" ] || tap_diag "differing: $bad"
ok=0
for k in sport guard-max-ns start-in size seed; do
	grep -q "^$k " "$tmp/args-bench" || { ok=1; tap_diag "bench lacks $k"; }
done
for k in tag guard-max lead rotate; do
	# shellcheck disable=SC2086
	run $bench_args "$k" 1
	grep -q "unknown argument \"$k\"" "$err" || { ok=1; tap_diag "bench takes $k"; }
done
tap_ok "the bench says sport, guard-max-ns, start-in, seed (not tag, guard-max, lead, rotate)" \
	test $ok -eq 0
run_cli omware send dev lo size 65536 schedule periodic 1
sed -n 's/.*expected //p' "$err" > "$tmp/size-cli"
# shellcheck disable=SC2086
run $bench_args size 65536
sed -n 's/.*expected //p' "$err" > "$tmp/size-bench"
tap_ok "the CLI and the bench take the same packet sizes (40 to 65535)" \
	eval 'grep -qx "an integer from 40 to 65535" "$tmp/size-cli" &&
	      cmp -s "$tmp/size-cli" "$tmp/size-bench"'
# The help gives the code's automatic start: its base, plus twice the
# measured hand-over.
base=$(awk '/define START_BASE_NS/ { sub(/ULL$/, "", $3); print $3 / 1000 }' \
	"$here/omware_bench.h")
tap_ok "the bench's help gives the code's default start-in ($base us + 2 x hand-over)" \
	eval 'tr -s " \n" "  " < "$tmp/bench-help" |
	      grep -q "start-in US first send time, microseconds after each method.s setup (default: $base plus twice the hand-over time"'

# --- errors in one shape --------------------------------------------------------
ok=0
# shellcheck disable=SC2086 # the words of bench_args
one_shape $bench_args <<'LIST' || ok=1
methods bogus
methods oir,,rsm
etf-delta 0
etf-delta 10,1e3
guard-max-ns x
seed 4294967296
seed -1
alpha
LIST
tap_ok "every bad or missing value gets timewire's one shape of message" \
	test $ok -eq 0

# --- man page -------------------------------------------------------------------
ok=0
states_lines <<'LIST' || ok=1
OMWARE_GUARD_MAX_NS_LIMIT 1 bench/omware/tw-omware-bench.1 at most @ \(the module's limit\)
OMWARE_GUARD_MAX_NS_DEFAULT 1 bench/omware/tw-omware-bench.1 the module's default, @ \(OMWARE_GUARD_MAX_NS_DEFAULT\)
OMWARE_GUARD_MAX_NS_DEFAULT 1 help: guard cap of the hybrid mode and RSM-RT; 0 = the module's default \(default @,
LIST
tap_ok "help and man page state the UAPI headers' numbers" test $ok -eq 0

tap_ok "man page: sections, no groff warnings" man_sections "$page"
tap_ok "man page documents every keyword" \
	man_documents "$page" "$tmp/args-bench" tw-omware-bench

# --- bash completion ------------------------------------------------------------
ok=0
check "methods" "$TW" dev lo meth
check "sport" "$TW" dev lo sp
check "start-in" "$TW" dev lo st
check "oir oir-hybrid oir-qdisc oir-hybrid-qdisc" "$TW" dev lo methods oir
check "rsm,tom rsm,tom-hybrid rsm,trw rsm,trw-rt rsm,trains" "$TW" dev lo methods rsm,t
check "rsm rsm-rt rsm-rt-sleep" "$TW" dev lo methods rs
check "first all" "$TW" dev lo etf-sweep ""
check "" "$TW" dev lo alpha ""
tap_ok "completion of tw-omware-bench: keywords, the methods list, no numbers" \
	test $ok -eq 0
# The methods it offers are those of the help, in the help's order.
want=$(sed -n '/^Methods:/,/^$/p' "$tmp/bench-help" | awk '/^  [^ ]/ { print $1 }' | paste -sd ' ')
tap_ok "completion of methods follows tw-omware-bench help" \
	eval 'test -n "$want" && test "$(cand "$TW" dev lo methods "")" = "$want"'
got=$(complete_words "$root/bench/lib/completion.bash" "$TW" dev lo meth)
tap_ok "tw-omware-bench's own completion file loads timewire's" test "$got" = methods

tap_done
