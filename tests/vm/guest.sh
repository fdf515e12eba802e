#!/bin/bash
# Runs inside the guest: for each suite (a kselftest collection installed
# in KSFT_DIR by tests/vm/vm.sh), loads the modules its settings name, runs
# it with kselftest's own run_kselftest.sh as a user would on a router,
# and unloads the modules.  Stores each run's output and exit status in
# $TW_OUT for the host.
# Usage: guest.sh KSFT_DIR OUT_DIR COLLECTION...
set -u
ksft=$1
export TW_OUT=$2
shift 2
export TW_ROOT=${TW_ROOT:?}
export TW_KO_DIR=${TW_KO_DIR:-$TW_ROOT}
# TW_INSTALLED=1 (vm.sh -r): the packages' files, never the tree's: the
# CLI from /usr/bin (Debian's) or /usr/sbin (OpenWrt's), the modules as
# DKMS or a kmod package installs them, TW_KO_DIR/NAME.ko, compressed as
# the kernel's own (.ko.xz on Debian's), mptcp_qaware's and its
# modprobe.d rule (Debian's; OpenWrt's busybox modprobe skips the rule's
# tests) for the qaware suite too.
installed=${TW_INSTALLED:-0}
installed_ko() {	# installed_ko NAME
	local f
	for f in "$TW_KO_DIR/$1".ko.*; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "$TW_KO_DIR/$1.ko"
}
if [ "$installed" = 1 ]; then
	export PATH=/usr/sbin:/usr/bin:/sbin:/bin
	TW_QA_KO=$(installed_ko mptcp_qaware)
	export TW_QA_KO TW_QA_RULE=/etc/modprobe.d/mptcp-qaware.conf
else
	export PATH="$TW_ROOT/userspace/timewire:$PATH"
fi
# First of all: tells the host this boot reached the tests (it never
# boots again once this exists).
: > "$TW_OUT/started"
cd "$ksft" || exit 1
# The libraries tests/Makefile installs beside the suites.
# shellcheck source=tests/lib/unit.sh
. "$ksft/lib/unit.sh" || exit 1
# shellcheck source=tests/lib/topo.sh
. "$ksft/lib/topo.sh" || exit 1
# kselftest's runner writes the programs' output to /dev/stdout, which
# virtme-ng points at its own console port: make it the caller's stdout,
# as on any other system.
ln -sfn /proc/self/fd/1 /dev/stdout

dmesg -c >/dev/null 2>&1
# A guest the host finds silent is asked for its tasks' stacks from its
# keyboard (sysrq t, vm.sh): the default mask refuses dumps.
{ echo 1 > /proc/sys/kernel/sysrq; } 2>/dev/null
echo "timewire-guest: kernel $(uname -r), suites $*" >/dev/kmsg

# Flipping the timestamping static key while the other vCPU runs traffic
# oopses multi-threaded TCG (kernel text patching race): keep the key on for
# the whole boot with one socket that asks for receive timestamps.  (The
# big-endian MIPS guest has no python3, and one vCPU: nothing races.)
tsholder=
if command -v python3 >/dev/null; then
	python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 35, 1)  # SO_TIMESTAMPNS
time.sleep(1e9)' &
	tsholder=$!
fi

n=0
record() {	# record NAME RC: the program's output is already in $TW_OUT/N.out
	echo "$1" > "$TW_OUT/$n.name"
	echo "$2" > "$TW_OUT/$n.rc"
}

# MODULES entries: a module of modules.list by its name (its object is
# $TW_KO_DIR/<dir>/<name>.ko, installed_ko's when installed), or a path
# below $TW_KO_DIR without the .ko suffix (the harness's own test module).
ko_path() {
	local ko

	case $1 in
	*/*) ko=$1.ko ;;
	*) [ "$installed" = 1 ] && { installed_ko "$1"; return; }
	   ko=$("$TW_ROOT/scripts/modules.sh" ko "$1") || ko="$1 (not in modules.list)" ;;
	esac
	echo "$TW_KO_DIR/$ko"
}
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

setting() {	# setting COLLECTION VAR: one value of its installed settings
	TW_SUITES_DIR=$ksft "$TW_ROOT/tests/lib/suites.sh" get "$@"
}

# load_step MODULE: insmod of its file; of an installed package's, kmod's
# modprobe where there is one, as a user loads it (the packaged CLI's
# first use may have loaded it already, through its family's alias).
load_step() {
	local name
	name=$(ko_name "$1")
	if [ "$installed" = 1 ] && modprobe --version 2>/dev/null | grep -q '^kmod'; then
		step "modprobe $name" modprobe "$name"
	else
		step "insmod $name" insmod "$(ko_path "$1")"
	fi
}

# run_suite COLLECTION: the modules in, the collection, the modules out.
run_suite() {
	local c=$1 m t tests limit rc

	for m in $(setting "$c" MODULES); do
		load_step "$m"
	done
	# (TW_TESTS, a subset, is what vm.sh installed and listed.)
	tests=$(grep -c "^$c:" kselftest-list.txt)
	# kselftest's runner limits each program; this bounds the whole run.
	t=$(setting "$c" timeout)
	limit=$((tests * ${t:-45} + 60))
	n=$((n + 1))
	echo "timewire-guest: running $c" >/dev/kmsg
	echo "# running $c"
	# Through a pipe: the runner reopens /dev/stdout, which on a plain file
	# starts writing at offset 0 again, over its own output.
	timeout -k 10 "$limit" ./run_kselftest.sh -c "$c" 2>&1 < /dev/null | cat > "$TW_OUT/$n.out"
	rc=${PIPESTATUS[0]}
	[ $rc -eq 124 ] || [ $rc -eq 137 ] &&
		echo "not ok 999 - $c: the runner timed out after ${limit}s" >> "$TW_OUT/$n.out"
	sed 's/^/  /' "$TW_OUT/$n.out" | tail -n 40
	record "$c" $rc
	# Unloading after the suite exercises every exit path with the suite's
	# leftovers; a module that will not go is a failure.
	for m in $(setting "$c" MODULES); do
		m=$(ko_name "$m")
		grep -q "^$m " /proc/modules && step "rmmod $m" rmmod "$m"
	done
}

# Whatever the suites use of it: a package without the CLI fails here.
[ "$installed" = 1 ] && step "the packaged CLI runs: $(command -v timewire) version" \
	timewire version

# The boot configuration the package boots put in the root (tests/deb/boot
# in /etc/timewire/boot-check.conf, tests/openwrt/boot in UCI's
# /etc/config/timewire): a table bootcheck with user 7's entry, bound to
# bootcheck0.  That device made first, as the network is up before the
# service starts; the configuration applied as the installed service does
# at boot; the table, entry and binding looked for with the CLI; then all
# deleted, and the modules the boot loaded unloaded for the suites to load.
bootcheck_dev=bootcheck0

boot_service() {	# the timewire service a package installed
	local s
	for s in /etc/init.d/timewire /lib/systemd/system/timewire.service; do
		[ -f "$s" ] && { echo "$s"; return 0; }
	done
	echo "no timewire service installed" >&2
	return 1
}

# unit_starts UNIT: its ExecStart lines in order (no systemd here).
unit_starts() {
	local cmd
	while IFS= read -r cmd; do
		sh -c "$cmd" || return 1
	done < <(unit_exec_start "$1")
}

# procd_starts SCRIPT: as OpenWrt boots, kmodloader's modules of
# /etc/modules.d first, then the script's start through its #! line,
# /etc/rc.common.  (rc.common, the stand-in, logs to TW_PROCD_LOG: here
# the step's output, which a failure shows.)
procd_starts() {
	local f m args
	# (The mips root has no /dev/fd: no process substitution.)
	for f in /etc/modules.d/*; do
		[ -f "$f" ] || continue
		# shellcheck disable=SC2086 # a module's parameters, as kmodloader splits them
		while read -r m args; do
			[ -z "$m" ] || grep -q "^$m " /proc/modules ||
				insmod "$(installed_ko "$m")" $args || return 1
		done < "$f"
	done
	TW_PROCD_LOG=/proc/self/fd/2 "$1" start
}

bootcheck_made() {
	local show entry
	show=$(timewire tfib show table bootcheck 2>&1)
	entry=$(timewire tfib get table bootcheck user 7 2>&1)
	echo "$show"
	echo "$entry"
	echo "$show" | grep -qw "ifname $bootcheck_dev" &&
		echo "$entry" | grep -qw "mac 02:00:00:00:00:07"
}

boot_applies() {
	local service before m rc
	service=$(boot_service) || return 1
	before=$(cat /proc/modules)
	topo_veth - "$bootcheck_dev" - bootcheck1 || return 1
	case $service in
	*.service) unit_starts "$service" ;;
	*) procd_starts "$service" ;;
	esac && bootcheck_made
	rc=$?
	# What was made goes, whether or not it was right; a table that will
	# not go is a failure.
	timewire tfib del table bootcheck 2>&1 || [ $rc -ne 0 ] || rc=1
	ip link del "$bootcheck_dev" || rc=1
	topo_cleanup
	for m in tfib omware; do
		grep -q "^$m " /proc/modules && ! echo "$before" | grep -q "^$m " &&
			{ rmmod "$m" || rc=1; }
	done
	return $rc
}
[ "$installed" = 1 ] && grep -qsw bootcheck /etc/timewire/boot-check.conf /etc/config/timewire &&
	step "the installed timewire service applies the boot configuration" boot_applies
for c in "$@"; do
	run_suite "$c"
done

if [ -n "$tsholder" ]; then
	kill "$tsholder" 2>/dev/null
	wait "$tsholder" 2>/dev/null
fi
# On a kernel with kmemleak: the leaks of the whole boot, the modules'
# exit paths included, for the host to judge (an object is reported once
# it stayed unreferenced through a scan, so two).
kml=/sys/kernel/debug/kmemleak
[ -e $kml ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ -w $kml ]; then
	echo scan > $kml && sleep 6 && echo scan > $kml
	cat $kml > "$TW_OUT/kmemleak.txt"
fi
echo "timewire-guest: done" >/dev/kmsg
dmesg > "$TW_OUT/dmesg.txt"
echo "$n" > "$TW_OUT/count"
exit 0
