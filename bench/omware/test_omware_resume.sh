#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016 # the stand-ins expand their own variables
#
# bench.sh's rounds on the build machine, as no root: id, ip, tc, sysctl,
# taskset, iperf3 and git are stand-ins, and so are tw-omware-bench,
# tw-omware-rx and tw-omware-analyze (in a tree of stand-ins beside the real
# libraries).  What is checked is what bench.sh decides: a round marked
# done only when nothing in it broke, every loaded cell ran its cross
# traffic and the observers wrote their records; a run resumed only on
# the same plan, commit and seed; done rounds never deleted; one
# timestamping socket held open for the whole run.
#
#   bench/omware/test_omware_resume.sh
#
# Prints TAP; exit 0 pass, 1 fail.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/bin
fake=$tmp/root
mkdir -p "$bin" "$fake/tests" "$fake/bench/omware"
ln -s "$root/tests/lib" "$fake/tests/lib"
ln -s "$root/bench/lib" "$fake/bench/lib"

stub() {	# stub NAME BODY: an executable shell script
	printf '#!/bin/bash\n%s\n' "$2" > "$1"
	chmod +x "$1"
}
stub "$bin/id" 'echo 0'
stub "$bin/tc" 'exit 0'
stub "$bin/sysctl" 'exit 0'
stub "$bin/git" 'echo "$STUB_COMMIT"'
stub "$bin/iperf3" 'exec sleep 600'
# taskset -c CPU CMD...: the busy loop waits instead of spinning.
stub "$bin/taskset" 'shift 2
[ "$1" = bash ] && exec sleep 600
exec "$@"'
# ip netns exec NS CMD: CMD, but the forwarding counter's read, which
# counts STUB_FWD datagrams more each time; anything else does nothing.
stub "$bin/ip" '[ "$1 $2" = "netns exec" ] || exit 0
shift 3
if [ "$1" = awk ]; then
	n=$(( $(cat "$STUB_DIR/fwd" 2>/dev/null || echo 0) + STUB_FWD ))
	echo "$n" > "$STUB_DIR/fwd"
	echo "$n"
	exit 0
fi
exec "$@"'
# The sender: its arguments logged; a cell whose grid is STUB_BREAK breaks.
stub "$fake/bench/omware/tw-omware-bench" 'echo "$*" >> "$STUB_DIR/bench.log"
echo bench >> "$STUB_DIR/seq.log"
case " $* " in *" grid ${STUB_BREAK:-none} "*) exit 1 ;; esac
exit 0'
# The observer: ready at once; on SIGINT its CSV and summary; its start
# and stop in seq.log, by interface, among the sender's runs.  Python:
# a shell's trap cannot undo the SIGINT a background job ignores.
cat > "$fake/bench/omware/tw-omware-rx" <<'EOF'
#!/usr/bin/python3
import os, signal, sys
a = sys.argv
opt = {k: a[i + 1] for i, k in enumerate(a[:-1])
       if k in ("-r", "-o", "-s", "-i")}
def log(what):
    with open(os.environ["STUB_DIR"] + "/seq.log", "a") as f:
        f.write("%s %s\n" % (what, opt["-i"]))
def finish(_s, _f):
    log("stop")
    with open(opt["-o"], "w") as f:
        f.write("tag,seq,rx_ns\n")
    if "-s" in opt:
        with open(opt["-s"], "w") as f:
            f.write('{"pkt_socket_drops": 0}\n')
    sys.exit(0)
signal.signal(signal.SIGINT, finish)
log("start")
open(opt["-r"], "w").close()
while True:
    signal.pause()
EOF
chmod +x "$fake/bench/omware/tw-omware-rx"
cat > "$fake/bench/omware/tw-omware-analyze" <<'EOF'
import json, os, sys
out = sys.argv[sys.argv.index("-o") + 1]
with open(os.path.join(out, "analysis.json"), "w") as f:
    json.dump({"info": {"rx_unknown_tags": 0}}, f)
EOF
export STUB_DIR=$tmp STUB_COMMIT=abc1234 STUB_FWD=100000
export TW_BENCH_ROUNDS=2 TW_BENCH_LOADS=idle TW_BENCH_ALPHAS=1000 \
	TW_BENCH_SEED=42

# bench OUTDIR [VAR=VALUE...]: bench.sh --short OUTDIR with the stand-ins;
# its output in $tmp/out, its status in $rc.
bench() {
	local o=$1
	shift
	: > "$tmp/bench.log"
	: > "$tmp/seq.log"
	env "$@" PATH="$bin:$PATH" TW_ROOT="$fake" TW_BENCH_TOOL="$fake/bench/omware/tw-omware-bench" \
		bash "$here/bench.sh" --short "$o" > "$tmp/out" 2>&1
	rc=$?
}

# field FILE KEY: KEY of the JSON object in FILE.
field() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

refused() {	# refused DESC: status 1, the one line, no sender run
	local why=$1
	grep -q "rm -rf $tmp/o to start afresh" "$tmp/out" || why+=" (no rm -rf line)"
	tap_ok "$why" test "$rc" = 1 -a ! -s "$tmp/bench.log"
}

tap_plan 12

bench "$tmp/o"
tap_ok "a fresh run of 2 rounds: both done, exit 0" \
	test "$rc" = 0 -a -e "$tmp/o/raw/round-01/done" -a -e "$tmp/o/raw/round-02/done"
seq=$(sed -n '1p;$p' "$tmp/seq.log" | tr '\n' ' ')
tap_ok "one timestamping socket held from before the first observer to after the last" \
	test "$seq$(grep -c 'start lo' "$tmp/seq.log")" = "start lo stop lo 1"
plan=no
grep -q '"plan": ".*|abc1234|' "$tmp/o/raw/run.json" && plan=yes
tap_ok "run.json's plan holds the commit; each round's record its commit" \
	test "$plan $(field "$tmp/o/raw/round-02/round.json" commit)" = "yes abc1234"
bench "$tmp/o"
tap_ok "resumed: the done rounds kept, no cell run again" \
	test "$rc" = 0 -a ! -s "$tmp/bench.log"

bench "$tmp/o" STUB_COMMIT=def5678
refused "another commit: refused"
bench "$tmp/o" TW_BENCH_SEED=43
refused "another TW_BENCH_SEED: refused"
echo "{" > "$tmp/o/raw/run.json"
bench "$tmp/o"
refused "an unreadable run.json beside done rounds: refused"
tap_ok "... and the done rounds kept" test -e "$tmp/o/raw/round-01/done"

bench "$tmp/b" STUB_BREAK=a1000-s40-idle
tap_ok "a cell broke: no round done, the round's record counts it" \
	test "$rc" = 1 -a ! -e "$tmp/b/raw/round-01/done" -a \
	"$(field "$tmp/b/raw/round-01/round.json" broke)" = 1
bench "$tmp/b"
tap_ok "resumed: the broken rounds redone and done" \
	test "$rc" = 0 -a -e "$tmp/b/raw/round-01/done" -a -e "$tmp/b/raw/round-02/done"

bench "$tmp/l" TW_BENCH_LOADS=load STUB_FWD=0
tap_ok "no cross traffic forwarded: no round done, the shortfall recorded" \
	test "$rc" = 1 -a ! -e "$tmp/l/raw/round-01/done" -a \
	"$(field "$tmp/l/raw/round-01/round.json" cross_short)" = 2
bench "$tmp/l" TW_BENCH_LOADS=load
tap_ok "the cross traffic at its rate: resumed, both rounds done" \
	test "$rc" = 0 -a -e "$tmp/l/raw/round-02/done"
tap_done
