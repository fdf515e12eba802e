#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The portable core, the probe/packet code and what the benchmarks share,
# on a 32-bit big-endian CPU: build the host unit tests for MIPS32 (the
# OpenWrt router case) with the cross compiler and run them under
# qemu-user.  Catches byte-order slips, 64-bit arithmetic that needs a
# helper on 32-bit, and type-size assumptions in the code the modules
# share with the host.  The kernel modules themselves are not cross-built
# here.
#
# One TAP result per cross-run program: it must build, exit 0 and report
# no failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

CROSS=${TW_CROSS:-mips-linux-gnu}
QEMU=${TW_CROSS_QEMU:-qemu-mips}
CC=$CROSS-gcc
command -v "$CC" >/dev/null || tap_skip_all "$CC not installed (make deps)"
command -v "$QEMU" >/dev/null || tap_skip_all "$QEMU not installed (make deps)"

out=$root/.build/cross/$CROSS
mkdir -p "$out"
cflags=(-O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -static -isystem "$("$root/scripts/linux-src.sh")/tools/testing/selftests")

# build NAME SOURCES... [-- FLAGS...]: a static cross binary in $out.
build() {
	local name=$1
	shift
	"$CC" "${cflags[@]}" -o "$out/$name" "$@" > "$out/$name.build.log" 2>&1
}

# run NAME: the program passes under qemu with every result "ok".
run() {
	local log=$out/$1.log
	"$QEMU" "$out/$1" > "$log" 2>&1 || return 1
	! grep -q '^not ok' "$log" && grep -q '^ok' "$log"
}

# check NAME DESC SOURCES...: one TAP result for one program.
check() {
	local name=$1 desc=$2
	shift 2
	if ! build "$name" "$@"; then
		sed 's/^/# /' "$out/$name.build.log" | head -n 20
		tap_result 1 "$CROSS: $desc: build"
		return
	fi
	if run "$name"; then
		tap_result 0 "$CROSS: $desc ($(grep -c '^ok' "$out/$name.log") results)"
	else
		grep -E '^(not ok|#)' "$out/$name.log" | head -n 20
		tap_result 1 "$CROSS: $desc"
	fi
}

tap_plan 11
core=$root/core
t=$root/tests/core
us=$root/userspace
# what the benchmarks share, written as the core is
bl=$root/bench/lib
# 64-bit atomics on a 32-bit CPU come from libatomic.
check test_timeq "schedule queue (core/timeq.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$t/test_timeq.c" "$core/timeq.c" \
	-lpthread -latomic
check test_guard "adaptive guard (core/guard.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$t/test_guard.c" "$core/guard.c" \
	-lpthread -latomic
# The table's RCU is compat.h's lock-based one here; the stress, shortened
# for the emulator, checks the 64-bit timestamp is never read torn.
check test_tfib "forwarding table (core/tfib.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$t/test_tfib.c" "$core/tfib.c" \
	-lpthread -latomic
check test_tfib_stress "forwarding table under concurrent writes" \
	-DTW_HOST_NO_URCU -DSTRESS_UPDATES=5000 -I"$core" \
	"$t/test_tfib_stress.c" "$core/tfib.c" -lpthread -latomic
check test_pick "worker pick (core/pick.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$t/test_pick.c" "$core/pick.c" \
	-lpthread -latomic
# The trace must be the same rows for a seed on either byte order.
check test_aoi_trace "AoI trace (bench/lib/aoi_trace.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$bl/test_aoi_trace.c" "$bl/aoi_trace.c" \
	-lpthread -latomic -lm
check test_tbucket "token bucket (bench/lib/tbucket.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$bl/test_tbucket.c" "$bl/tbucket.c" \
	-lpthread -latomic
# Saturating 64-bit products and div64 helpers on a 32-bit CPU.
check test_qaware "MPTCP scheduler decisions (core/qaware.c)" \
	-DTW_HOST_NO_URCU -I"$core" "$t/test_qaware.c" "$core/qaware.c" \
	-lpthread -latomic
ksft=$root/.build/linux-src/tools/testing/selftests
[ -f "$ksft/kselftest_harness.h" ] || "$root/scripts/linux-src.sh" >/dev/null
check test_userlib "probe, packet, schedule, statistics, print, clock, batch (userspace/)" \
	-D_GNU_SOURCE -isystem "$ksft" -I"$root/include/uapi" -I"$us" \
	"$root/tests/cli/test_userlib.c" "$us/lib/args.c" "$us/lib/clock.c" \
	"$us/lib/print.c" "$us/lib/stats.c" "$us/lib/stop.c" "$us/lib/util.c" \
	"$us/lib/batch.c" \
	"$us/omware/packet.c" "$us/omware/schedule.c" -lm
check test_cpustat "CPU times (bench/lib/cpustat.c)" \
	-D_GNU_SOURCE -isystem "$ksft" -I"$us" -I"$bl" "$bl/test_cpustat.c" \
	"$bl/cpustat.c" "$us/lib/clock.c" "$us/lib/stop.c"

# The target really is 32-bit big-endian, or the above proves little.
cat > "$out/probe.c" <<'EOF'
#include <stdio.h>
int main(void)
{
	unsigned int one = 1;

	printf("%zu %d\n", sizeof(long), *(unsigned char *)&one);
	return 0;
}
EOF
tap_ok "$CROSS: the target is 32-bit big-endian" \
	eval 'build probe "$out/probe.c" && test "$("$QEMU" "$out/probe")" = "4 0"'
tap_done
