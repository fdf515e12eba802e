#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's runner (guest/bench.sh --short) on the host, through a
# stand-in tw-tfib-bench that leaves a run's records without sending
# anything and a stand-in ip that runs "ip netns exec" commands here: the
# plan it fixes, repetitions in orders shuffled from the printed seed,
# every run labelled with its repetition, boot and ingress, a stopped run
# that goes on where it stopped, running again the runs that failed, and
# a plan of other cells refused.
#
# Prints TAP; exit 0 pass, 1 fail, 4 skip.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

[ "$(id -u)" -eq 0 ] || tap_skip_all "the runner checks for root"
[ -x /usr/bin/python3 ] || tap_skip_all "/usr/bin/python3 not installed"
command -v taskset >/dev/null || tap_skip_all "taskset not installed"
[ "$(nproc)" -ge 2 ] || tap_skip_all "the runner needs two CPUs"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake=$tmp/root
mkdir -p "$fake/bench/tfib/guest" "$fake/userspace/timewire" "$tmp/bin"
ln -s "$root/tests" "$fake/tests"
ln -s "$root/bench/lib" "$fake/bench/lib"

cat > "$tmp/bin/ip" <<'EOF'
#!/bin/bash
# ip netns exec NS CMD...: CMD here; anything else succeeds
[ "$1 $2" = "netns exec" ] && { shift 3; exec "$@"; }
exit 0
EOF
cat > "$fake/userspace/timewire/timewire" <<'EOF'
#!/bin/bash
exit 0
EOF
# Every run carried up to 4000 pps (C = 4000 with the probe's sqrt 2
# step refused); a run's labels as given.  FAIL_FROM=N: runs from the
# Nth on fail, leaving the records of a source stopped by a signal.
cat > "$fake/bench/tfib/tw-tfib-bench" <<'EOF'
#!/bin/bash
declare -A a
while [ $# -gt 1 ]; do a[$1]=$2; shift 2; done
echo "${a[methods]} ${a[rate]} ${a[cdr]} ${a[rep]:-probe}" >> "$CALLS"
n=$(wc -l < "$CALLS")
d=${a[out]}/cdr${a[cdr]}/r${a[rate]}/${a[methods]}
case ${a[methods]} in *-ring*) d=$d-${a[rings]/:/-} ;; esac
stop=done
[ -z "${FAIL_FROM:-}" ] || [ "$n" -lt "$FAIL_FROM" ] || stop=signal
mkdir -p "$d"
rx=2
[ "${a[rate]}" -le 4000 ] || rx=1
printf 'event,t_ns,user,seq,addr_ns,addr_seq\ndata_tx,1,1,1,,\ndata_tx,2,1,2,,\n' > "$d/events.csv"
for i in $(seq 1 $rx); do echo "data_rx,3,1,$i,1,1" >> "$d/events.csv"; done
echo "{\"rep\": ${a[rep]:-0}, \"boot\": ${a[boot]:-0}, \"ingress\": \"${a[ingress]}\", \"tx_refused\": 3, \"stop\": \"$stop\"}" > "$d/run.json"
[ $stop = done ] || { echo "run $d status failed"; exit 1; }
echo "run $d status ok sent_pps ${a[rate]}.0"
EOF
chmod +x "$tmp/bin/ip" "$fake/userspace/timewire/timewire" \
	"$fake/bench/tfib/tw-tfib-bench"

# runner OUTDIR [MODE]: guest/bench.sh (--short) in the stand-in tree.
runner() {
	PATH=$tmp/bin:$PATH TW_ROOT=$fake CALLS=$tmp/calls \
		bash "$here/guest/bench.sh" "${2:---short}" "$1" > "$tmp/out" 2>&1
}

# planned DIR: bench.json has the probe's C, the rates, seed 41, the
# ingress.
planned() {
	grep -q '"seed": 41, "capacity_pps": 4000' "$1/bench.json" &&
		grep -q '"rates_pps": \[2000,8000\]' "$1/bench.json" &&
		grep -q '"ingress": "cpu0-softirq"' "$1/bench.json"
}

# went_on: the second start completed with the first one's seed,
# running again only the runs the first did not complete, as boot 2.
went_on() {
	grep -q "^ok.*every run completed" "$tmp/out" &&
		grep -q "order seed 42 " "$tmp/out" &&
		[ "$(wc -l < "$tmp/calls")" -eq $((runs - 5)) ] &&
		[ "$(cat "$tmp"/c/tfib/rep*/cdr*/r*/*/run.json |
			grep -c '"boot": 2')" -eq $((runs - 5)) ]
}

# The runs of one R: 6, 7 with omware loaded (the paced one).
cells=6
[ -d /sys/module/omware ] && cells=7
runs=$((2 * 2 * cells))

: > "$tmp/calls"
tap_plan 10
TW_BENCH_SEED=41 runner "$tmp/a/tfib"
tap_ok "a short run completes, its seed printed" \
	grep -q "order seed 41 (TW_BENCH_SEED=41 repeats it)" "$tmp/out"
tap_ok "the plan: C, the rates, the seed, the ingress" planned "$tmp/a/tfib"
tap_is "every run of 2 repetitions, each labelled (boot 1)" "$runs" \
	"$(grep -l '"rep": [12], "boot": 1, "ingress": "cpu0-softirq"' \
		"$tmp"/a/tfib/rep*/cdr*/r*/*/run.json | wc -l)"
tap_not "each repetition in an order of its own" \
	cmp -s "$tmp/a/tfib/order-rep1" "$tmp/a/tfib/order-rep2"
TW_BENCH_SEED=41 runner "$tmp/b/tfib"
tap_ok "the same seed, the same orders" \
	cmp -s "$tmp/a/tfib/order-rep2" "$tmp/b/tfib/order-rep2"

# Failing after the probe's 6 runs and 5 of the sweep, each failed run
# leaving its records, then started again with another seed: the plan's
# is kept, the failed runs run again.
: > "$tmp/calls"
FAIL_FROM=12 TW_BENCH_SEED=42 runner "$tmp/c/tfib"
# failed: the runner said so, and the failed runs' events are out of
# the analyser's walk.
failed() {
	grep -q "^not ok.*every run completed ($((runs - 5)) of $runs not)" "$tmp/out" &&
		[ "$(find "$tmp/c/tfib" -name events.csv | wc -l)" -eq 5 ] &&
		[ "$(find "$tmp/c/tfib" -name events-failed.csv | wc -l)" -eq $((runs - 5)) ]
}
tap_ok "runs that failed but left records are not completed" failed
: > "$tmp/calls"
TW_BENCH_SEED=43 runner "$tmp/c/tfib"
tap_ok "a stopped run goes on: its plan, the runs it lacked" went_on
TW_BENCH_SEED=42 runner "$tmp/d/tfib"
tap_ok "its orders are the plan's" \
	cmp -s "$tmp/c/tfib/order-rep1" "$tmp/d/tfib/order-rep1"
runner "$tmp/c/tfib" --full
tap_ok "another mode's plan is refused" \
	grep -q "^Bail out! .*bench.json is another run's: its mode" "$tmp/out"
# An XDP peer built since: its cells are not the plan's.
printf '#!/bin/bash\n' > "$fake/bench/tfib/tw-tfib-xdp"
chmod +x "$fake/bench/tfib/tw-tfib-xdp"
runner "$tmp/c/tfib"
tap_ok "a plan of other cells is refused" \
	grep -q "^Bail out! .*its cells: .*rm -rf .* to start afresh" "$tmp/out"
tap_done
