#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm.sh on the build machine, no guest booted: vng is a stand-in that
# logs its environment's QEMU_MODULE_DIR and its arguments, one a line,
# and boots nothing (or, with VNG_HANG, runs a stand-in QEMU that ignores
# TERM until it is killed); the kernel image is an empty stand-in and the
# QEMU one that fails.
# - TW_QEMU=PATH: the boot must name that QEMU, give it its tree's
#   firmware and modules, and keep the emulation's own options beside
#   them; TW_QEMU is refused on any guest but amd64 and when it is not an
#   executable, before anything runs.
# - A boot of several suites is named after them all.
# - A stop of vm.sh (a terminal's Ctrl-C to its group, a TERM to it alone
#   as tests/run.sh sends, a TERM to its group as a CI does) ends it with
#   status 130 and ends its guest, the QEMU that ignores TERM included.
# - A guest silent for TW_SILENT seconds is ended, and its run fails.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/tap.sh"
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"

tmp=$(mktemp -d)
# The installed kernel's release: with another, vm.sh would want its
# headers before it boots.
release=$(tw_kernel_installed)
image=$tmp/boot/vmlinuz-${release:-none}
# kvm-probe.sh caches its verdict for the last kernel it probed: the
# stand-in image must not stay there in place of the real one.
probe=$top/.build/kvm-probe
[ -f "$probe" ] && cp -p "$probe" "$tmp/kvm-probe"
# shellcheck disable=SC2317 # run by the EXIT trap
restore_probe() {
	[ "$(head -n 1 "$probe" 2>/dev/null)" = "$image $(uname -n)" ] || return 0
	if [ -f "$tmp/kvm-probe" ]; then cp -p "$tmp/kvm-probe" "$probe"; else rm -f "$probe"; fi
}
# A stopped test takes its stand-in guest with it.
vm_pid= hang=twhang-$$
trap 'exit 130' INT TERM
trap '[ -z "$vm_pid" ] || kill -KILL -- "-$vm_pid" 2>/dev/null; pkill -KILL -f "^$hang"
	restore_probe; rm -rf "$tmp"' EXIT

mkdir -p "$tmp/bin" "$tmp/boot" "$tmp/usr/bin" "$tmp/usr/share/qemu" "$tmp/usr/share/seabios"
: > "$image"
cat > "$tmp/bin/vng" <<'EOF'
#!/bin/bash
{ echo "QEMU_MODULE_DIR=${QEMU_MODULE_DIR:-}"; printf '%s\n' "$@"; } > "$VNG_LOG"
case "${VNG_HANG:-}${VNG_BUSY:-}:$*" in
"":* | *:*kvm-ok*) exit 0 ;;
esac
prev= out= qmp=
for a in "$@"; do
	case $prev:$a in
	--rwdir:*) out=${a%%=*} ;;
	*:"--qemu-opts=-qmp unix:"*) qmp=${a#*unix:} qmp=${qmp%%,*} ;;
	esac
	prev=$a
done
if [ -n "${VNG_BUSY:-}" ]; then
	: > "$out/started"
	mkdir -p "$out/sub"
	for _ in $(seq "$VNG_BUSY"); do date > "$out/sub/tick"; sleep 1; done
	exit 0
fi
[ -z "$qmp" ] || (trap '' INT TERM HUP; exec -a "$VNG_HANG" python3 "$VNG_QMP" "$qmp") &
(trap '' INT TERM HUP; exec -a "$VNG_HANG" sleep 300) &
: > "$VNG_LOG.guest"
wait
EOF
# The stand-in's QEMU monitor: answers every QMP command, logs it, and
# prints a stack dump on the console for a key press.
cat > "$tmp/fake-qmp.py" <<'EOF'
import json, os, socket, sys
server = socket.socket(socket.AF_UNIX)
server.bind(sys.argv[1])
server.listen(4)
log = open(os.environ["VNG_LOG"] + ".qmp", "a")
while True:
    conn, _ = server.accept()
    f = conn.makefile("rw")
    f.write('{"QMP": {}}\n')
    f.flush()
    for line in f:
        command = json.loads(line)["execute"]
        log.write(command + "\n")
        log.flush()
        if command == "send-key":
            print("sysrq: Show State\nCall Trace:\n fake_frame+0x0/0x10", flush=True)
        f.write(json.dumps({"return": [] if command == "x-query-virtio" else {}}) + "\n")
        f.flush()
EOF
export VNG_QMP=$tmp/fake-qmp.py
qemu=$tmp/usr/bin/qemu-system-x86_64
printf '#!/bin/sh\nexit 1\n' > "$qemu"
chmod +x "$tmp/bin/vng" "$qemu"
cp "$qemu" "$tmp/usr/bin/not-executable"
chmod -x "$tmp/usr/bin/not-executable"
export VNG_LOG=$tmp/vng.log

# vm QEMU ARGS...: vm.sh -k IMAGE ARGS with TW_QEMU=QEMU on the harness's
# failing fixture, the stand-in first on PATH, the caller's clock and
# threading ignored; its status in $rc, its messages in $tmp/err, the
# last vng call in $VNG_LOG.
vm() {
	rm -rf "$VNG_LOG" "$tmp/out"
	TW_QEMU=$1 PATH=$tmp/bin:$PATH env -u TW_CLOCK -u TW_TCG_THREAD -u TW_DEBUG_KERNEL \
		"$top/tests/vm/vm.sh" -o "$tmp/out" -k "$image" "${@:2}" \
		"$top/tests/harness/fixtures/fail" > "$tmp/err" 2>&1
	rc=$?
}

# refused DESC MESSAGE QEMU ARGS...: vm QEMU ARGS refused: status 2,
# MESSAGE alone, nothing run.
refused() {
	local desc=$1 msg=$2 got
	vm "${@:3}"
	got="status $rc: $(cat "$tmp/err")"
	[ -e "$VNG_LOG" ] || [ -e "$tmp/out" ] && got+=" (ran)"
	tap_is "$desc" "status 2: $msg" "$got"
}

# boot_arg OPTION: the word after OPTION in the logged vng call.
boot_arg() { sed -n "/^--$1\$/{n;p;q}" "$VNG_LOG"; }

tap_plan 23
# An architecture no script boots: were the check gone, vm.sh would stop
# at its name rather than boot a foreign guest.
refused "TW_QEMU on any guest but amd64" \
	"vm: TW_QEMU runs amd64 guests only, not sparc64" "$qemu" -a sparc64
refused "a TW_QEMU that is not an executable" \
	"vm: TW_QEMU=$tmp/usr/bin/not-executable: not an executable" \
	"$tmp/usr/bin/not-executable"

# stopped HOW: vm.sh booting the stand-in guest in a session of its own,
# stopped HOW once the guest runs: int-group (a terminal's Ctrl-C),
# term-alone (tests/run.sh), term-group (a CI), term-twice (a CI's TERM
# to the runner's group: vm.sh's, then the runner's own).  Its status,
# the seconds it took, whether the guest ran: $rc, $took, $ran.  SIGINT
# is reset first: a shell's background job would have it ignored.
stopped() {
	rm -rf "$VNG_LOG" "$VNG_LOG.guest" "$tmp/out"
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp("setsid", ["setsid"] + sys.argv[1:])' env -u TW_CLOCK -u TW_TCG_THREAD -u TW_DEBUG_KERNEL \
		-u TW_QEMU VNG_HANG="$hang" PATH="$tmp/bin:$PATH" "$top/tests/vm/vm.sh" -o "$tmp/out" -k "$image" \
		"$top/tests/harness/fixtures/fail" > "$tmp/err" 2>&1 &
	vm_pid=$!
	for _ in $(seq 600); do [ -e "$VNG_LOG.guest" ] && break; sleep 0.1; done
	[ -e "$VNG_LOG.guest" ] && ran=ran || ran="never ran"
	SECONDS=0
	case $1 in
	int-group) kill -INT -- "-$vm_pid" ;;
	term-alone) kill -TERM "$vm_pid" ;;
	term-group) kill -TERM -- "-$vm_pid" ;;
	term-twice) kill -TERM -- "-$vm_pid"; sleep 0.3; kill -TERM "$vm_pid" ;;
	esac
	wait "$vm_pid"
	rc=$? took=$SECONDS
	vm_pid=
}

# stop_cases: each way of stopping; the guest's QEMU ignores TERM, so
# its end takes vm.sh's KILL after 10 s, well within 40.
stop_cases() {
	local how
	for how in int-group term-alone term-group term-twice; do
		stopped "$how"
		tap_is "stopped by $how: the guest ran, vm.sh ends, status 130" "ran 130" "$ran $rc"
		[ "$rc" = 130 ] || sed 's/^/# /' "$tmp/err"
		tap_ok "stopped by $how: its guest ends within 40 s, QEMU too (${took}s)" \
			bash -c '[ "$1" -lt 40 ] && ! pgrep -f "^$2"' _ "$took" "$hang"
		pkill -KILL -f "^$hang"
	done
}

# silent ENV...: vm.sh with TW_SILENT=3 and ENV on the stand-in; its
# status and seconds in $rc and $took.
silent() {
	rm -rf "$VNG_LOG" "$VNG_LOG.guest" "$VNG_LOG.qmp" "$tmp/out"
	SECONDS=0
	env -u TW_CLOCK -u TW_TCG_THREAD -u TW_DEBUG_KERNEL -u TW_QEMU TW_SILENT=3 "$@" \
		PATH="$tmp/bin:$PATH" "$top/tests/vm/vm.sh" -o "$tmp/out" \
		-k "$image" "$top/tests/harness/fixtures/fail" > "$tmp/err" 2>&1
	rc=$? took=$SECONDS
}

# A guest that goes silent (the stand-in QEMU sleeps, deaf to TERM) is
# ended after TW_SILENT seconds of silence, never booted again, and its
# run fails with the reason; what QEMU answered is kept, and the stacks
# its keys brought go from the console to stacks.txt, judged no kernel
# report.  A guest writing into OUTDIR's subdirectories is not silent.
silent_cases() {
	silent VNG_HANG="$hang"
	tap_is "a silent guest: its run fails" 1 "$rc"
	tap_ok "a silent guest: ended within 40 s, QEMU too (${took}s)" \
		bash -c '[ "$1" -lt 40 ] && ! pgrep -f "^$2"' _ "$took" "$hang"
	tap_ok "a silent guest: the reason named" grep -qxF "FAIL fail: guest silent for 3s,\
 ended (what QEMU saw: $tmp/out/silent.txt, stacks.txt)" "$tmp/err"
	tap_ok "a silent guest: booted once" bash -c '! grep -q "attempt 1" "$1"' _ "$tmp/err"
	tap_is "a silent guest: QEMU asked twice, the keys between" "2 send-key query-status" \
		"$(grep -c '^status:' "$tmp/out/silent.txt") $(grep -x -e send-key -e query-status \
			"$VNG_LOG.qmp" | sed -n '2,3p' | paste -sd ' ')"
	tap_ok "a silent guest: its stacks in stacks.txt, not the console" bash -c \
		'grep -q "^Call Trace" "$1/stacks.txt" && ! grep -q "Call Trace" "$1/console.log"' _ "$tmp/out"
	tap_ok "a silent guest: its stacks are no kernel report" \
		bash -c '! grep -q "kernel log" "$1"' _ "$tmp/err"
	pkill -KILL -f "^$hang"
	silent VNG_BUSY=14
	tap_ok "a busy guest: never silent (${took}s)" \
		bash -c '[ "$1" -ge 14 ] && [ ! -e "$2/silent.txt" ] && ! grep -q silent "$3"' \
		_ "$took" "$tmp/out" "$tmp/err"
}

# The amd64 guest: the KVM probe runs the stand-in vng, which prints
# nothing, so the guest is emulated, with the options that come with it.
if [ -z "$release" ]; then
	for t in "the QEMU named" "its firmware" "the emulation's options" "its modules" \
		int-group int-group term-alone term-alone term-group term-group \
		term-twice term-twice "a shared boot" "a silent guest" "a silent guest" \
		"a silent guest" "a silent guest" "a silent guest" "a silent guest" \
		"a silent guest" "a busy guest"; do
		tap_skip "$t" "no test kernel installed (make deps)"
	done
	tap_done
fi
stop_cases
silent_cases
vm "$qemu"
[ -f "$VNG_LOG" ] || sed 's/^/# /' "$tmp/err"
tap_is "the QEMU named: --qemu PATH" "$qemu" "$(boot_arg qemu)"
tap_ok "its firmware: -L its share/qemu and share/seabios" grep -qxF -- \
	"--qemu-opts=-L $tmp/usr/share/qemu -L $tmp/usr/share/seabios" "$VNG_LOG"
tap_ok "the emulation's options beside them: -accel tcg,thread=single" \
	grep -qxF -- "--qemu-opts=-accel tcg,thread=single" "$VNG_LOG"
tap_ok "its modules: QEMU_MODULE_DIR in its tree" grep -qxF -- \
	"QEMU_MODULE_DIR=$tmp/usr/lib/x86_64-linux-gnu/qemu" "$VNG_LOG"
# A boot of two suites is named after both, not after its first alone.
vm "$qemu" "$top/tests/harness/fixtures/warn"
tap_is "a shared boot: its results named after its suites" "harness-fixtures-warn+harness-fixtures-fail: 0 passed, 1 failed, 0 skipped" \
	"$(tail -n 1 "$tmp/err")"
tap_done
