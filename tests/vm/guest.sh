#!/bin/bash
# Runs inside the guest: loads the suite's modules, runs its tests in order,
# stores each program's output and exit status in $TW_OUT for the host.
# Usage: guest.sh SUITE_DIR OUT_DIR
set -u
suite=$1
export TW_OUT=$2
export TW_ROOT=${TW_ROOT:?}
export PATH="$TW_ROOT/userspace:$TW_ROOT/userspace/tools:$PATH"
# First of all: tells the host this boot reached the tests (it never
# boots again once this exists).
: > "$TW_OUT/started"
cd "$suite" || exit 1

MODULES=""
TIMEOUT=300
run_tests=${TESTS:-}
# shellcheck source=/dev/null
. ./settings
[ -n "$run_tests" ] && TESTS=$run_tests

dmesg -c >/dev/null 2>&1
echo "timewire-guest: kernel $(uname -r), suite $(basename "$suite")" >/dev/kmsg

# Flipping the timestamping static key while the other vCPU runs traffic
# oopses multi-threaded TCG (kernel text patching race): keep the key on for
# the whole boot with one socket that asks for receive timestamps.
python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 35, 1)  # SO_TIMESTAMPNS
time.sleep(1e9)' &
tsholder=$!

n=0
record() {	# record NAME RC: the program's output is already in $TW_OUT/N.out
	echo "$1" > "$TW_OUT/$n.name"
	echo "$2" > "$TW_OUT/$n.rc"
}

# MODULES entries: "name" for name/name.ko, or a path without the .ko
# suffix, below the modules' build directory (vm.sh passes TW_KO_DIR).
ko_dir=${TW_KO_DIR:-$TW_ROOT}
ko_path() { case $1 in */*) echo "$ko_dir/$1.ko" ;; *) echo "$ko_dir/$1/$1.ko" ;; esac; }
ko_name() { basename "$1"; }

# step NAME CMD...: a harness action, recorded as a program with one result.
step() {
	local name=$1 out
	shift
	n=$((n + 1))
	{
		echo "1..1"
		if out=$("$@" 2>&1); then
			echo "ok 1 - $name"
		else
			echo "not ok 1 - $name: $out"
		fi
	} > "$TW_OUT/$n.out"
	record "$name" 0
}

for m in $MODULES; do
	step "insmod $(ko_name "$m")" insmod "$(ko_path "$m")"
done

for t in $TESTS; do
	n=$((n + 1))
	echo "timewire-guest: running $t" >/dev/kmsg
	echo "# running $t"
	timeout -k 10 "$TIMEOUT" "./$t" > "$TW_OUT/$n.out" 2>&1 < /dev/null
	rc=$?
	[ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "not ok 999 - $t timed out after ${TIMEOUT}s" >> "$TW_OUT/$n.out"
	sed 's/^/  /' "$TW_OUT/$n.out" | tail -n 40
	record "$t" $rc
done

kill "$tsholder" 2>/dev/null
wait "$tsholder" 2>/dev/null
# Unloading after the suite exercises every exit path with the suite's
# leftovers; a module that will not go is a failure.
for m in $MODULES; do
	m=$(ko_name "$m")
	grep -q "^$m " /proc/modules && step "rmmod $m" rmmod "$m"
done
echo "timewire-guest: done" >/dev/kmsg
dmesg > "$TW_OUT/dmesg.txt"
echo "$n" > "$TW_OUT/count"
exit 0
