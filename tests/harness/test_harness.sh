#!/bin/bash
# The VM harness's own tests: a failing test and a kernel warning raised by
# a module during a suite must each make the run fail, and be named; a boot
# in virtual time must hold a real-time task to its deadlines.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/.build/results/harness-selftest
fixtures=$top/tests/harness/fixtures
mkdir -p "$top/.build/results"

# (How TAP is counted is tested on the host: tests/lib/test_tap_count.sh;
# TW_QEMU, its refusals and the vng command it makes: test_vm_standin.sh.)
tap_plan 15

# The fixtures' clocks are their settings' (fail, warn: real; vtime:
# virtual), whatever the caller's environment says.
vm() { env -u TW_CLOCK -u TW_TCG_THREAD "$top/tests/vm/vm.sh" "$@"; }

# boot FIXTURE: the fixture suite booted, its output in $out.FIXTURE.log
# and shown as diagnostics, vm.sh's status in $rc.
boot() {
	vm -o "$out/$1" "$fixtures/$1" > "$out.$1.log" 2>&1
	rc=$?
	sed 's/^/# /' "$out.$1.log"
}

# refused WHY VAR=VALUE... -- ARGS...: vm.sh ARGS refused in one line
# before it wrote anything.
refused() {
	local why=$1 env=() msg rc
	shift
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	rm -rf "$out/refused"
	msg=$(env "${env[@]}" "$top/tests/vm/vm.sh" -o "$out/refused" "$@" 2>&1)
	rc=$?
	tap_ok "refused: $why" \
		test "$rc" -eq 2 -a "$(wc -l <<< "$msg")" -eq 1 -a ! -e "$out/refused"
	tap_diag "status $rc: $msg"
}
refused "a clock neither real nor virtual" TW_CLOCK=sundial -- "$fixtures/fail"
refused "virtual time on a foreign guest" TW_CLOCK=virtual -- -a arm64 "$fixtures/fail"
refused "a suite's virtual time on a foreign guest" TW_CLOCK= -- -a mips "$fixtures/vtime"
refused "virtual time on multi-threaded TCG" TW_CLOCK=virtual TW_TCG_THREAD=multi -- \
	"$fixtures/fail"

boot fail
tap_ok "a deliberately failing test fails the run" test $rc -ne 0
tap_ok "the failing test is named, the passing ones counted" \
	grep -q '^fail: 2 passed, 1 failed, 0 skipped$' "$out.fail.log"
tap_ok "a boot says its clock: real by default, two vCPUs" \
	grep -q '^vm: .*, clock real, vCPUs 2' "$out.fail.log"

boot warn
tap_ok "a WARN_ON raised by a module fails the run" test $rc -ne 0
tap_ok "the warning is reported from the kernel log" \
	grep -q '^FAIL warn: kernel log: .*WARNING:' "$out.warn.log"
tap_ok "the suite's own tests still passed" \
	grep -q '^warn: 3 passed, 1 failed, 0 skipped$' "$out.warn.log"

# A TERM to vm.sh's process group, as a CI sends, stops its real guest:
# none of it runs on, writing into the output directory of the next run.
# (Ctrl-C and a TERM to vm.sh alone: tests/lib/test_vm_standin.sh.)
rm -rf "$out/hang"
setsid env -u TW_CLOCK -u TW_TCG_THREAD "$top/tests/vm/vm.sh" -o "$out/hang" "$fixtures/hang" \
	> "$out.hang.log" 2>&1 &
vm_pid=$!
for _ in $(seq 300); do [ -e "$out/hang/started" ] && break; sleep 1; done
kill -TERM -- "-$vm_pid"
wait "$vm_pid"
rc=$?
sed 's/^/# /' "$out.hang.log"
tap_ok "a TERM to vm.sh's group in the guest's test ends it (status 130)" test $rc -eq 130
tap_not "and its guest: no process runs on the stopped output" pgrep -f -- "$out/hang"
pkill -KILL -f -- "$out/hang"

# Only this boot runs in virtual time (its settings' CLOCK=virtual); its
# program's bound holds there alone (tests/harness/fixtures/vtime/vtime.sh).
boot vtime
grep -h 'lateness' "$out"/vtime/*.out 2>/dev/null | sed 's/^ *#* */# vtime: /'
tap_ok "a suite's CLOCK=virtual boots icount on one vCPU" \
	grep -q '^vm: .*-icount shift=3,sleep=off.*, clock virtual, vCPUs 1' "$out.vtime.log"
tap_ok "in virtual time a 1 ms SCHED_FIFO sleep wakes on time (p99)" test $rc -eq 0
tap_ok "the guest was told its clock, and the loop measured" \
	grep -q '^vtime: 2 passed, 0 failed, 0 skipped$' "$out.vtime.log"
tap_done
