#!/usr/bin/env bash
# Boot the target kernel once in QEMU (virtme-ng, host filesystem shared
# read-only), run one or more guest suites in that boot, and report their
# results on the host.  The suites are first installed as kselftest
# collections (make -C tests install) into OUTDIR/kselftest; the guest runs
# each with kselftest's run_kselftest.sh, as a user would on a router.
#
# Usage: tests/vm/vm.sh [-o OUTDIR] [-k RELEASE|IMAGE] [-a ARCH] [-r ROOT] SUITE_DIR...
#
# -k: an installed kernel's release (its image /boot/vmlinuz-RELEASE), or
# the path of an image named vmlinuz-RELEASE whose modules lie in
# lib/modules/RELEASE beside it or above (scripts/kernel-image.sh's cache).
#
# -a ARCH: a foreign guest instead (scripts/foreign-archs.sh names them
# and their recipes; scripts/foreign.sh ARCH: its kernel,
# a bookworm root of ARCH, the initramfs that mounts it, the emulator):
# arm64, Debian's arm64 build of the test kernel's version under
# qemu-system-aarch64; mipsel, Debian 12's 6.1 for 32-bit MIPS under
# qemu-system-mipsel -M malta; mips, 32-bit big-endian MIPS, a malta 6.12
# built here with static busybox, bash and iproute2 as its whole root
# (scripts/mips-be.sh).  The modules are make modules-ARCH's, the CLI and
# the suites' programs cross-built in .build/ARCH/.
#
# TW_CLOCK=virtual (or a suite's CLOCK=virtual): the amd64 guest in
# virtual time, one vCPU; the guest's programs see TW_CLOCK too.
# TW_OUT_KEEP="NAME...": those entries of OUTDIR survive its cleaning.
# TW_SILENT=S: a guest that writes nothing for S seconds is ended, what
# QEMU saw of it in OUTDIR/silent.txt (default: its longest test's limit
# and 120 s more).
#
# TW_QEMU=PATH: the amd64 guest under that qemu-system-x86_64, not the
# host's (scripts/qemu-backports.sh unpacks bookworm-backports' QEMU 10.0
# and prints its path), with the modules and firmware unpacked beside it.
#
# -r ROOT: the modules and the CLI of installed packages instead: the
# test kernel booted on a Debian root (tests/deb/boot), or ROOT's files
# over the mips guest's root (an OpenWrt router's, tests/openwrt/boot).
# Only the smoke subset (TW_SMOKE=1) takes all it runs from the packages.
#
# Prints one line per failed or skipped result (FAIL/SKIP), then
# "NAME: N passed, N failed, N skipped" (NAME: the suite's directory, or
# the suites joined by "+").  Writes OUTDIR/summary (three numbers), the
# runs' outputs, the console log and the guest's dmesg.
# Exit status: 0 all passed or skipped; 1 a test failed, the guest did not
# finish, or the kernel log shows a warning, BUG, oops or call trace; 130
# stopped by INT, TERM or HUP, its guest with it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/kernel-version.sh"
# shellcheck source=scripts/debian-archive.sh
. "$top/scripts/debian-archive.sh"
# shellcheck source=scripts/debian-kernel.sh
. "$top/scripts/debian-kernel.sh"

usage() { echo "usage: $0 [-o OUTDIR] [-k RELEASE|IMAGE] [-a ARCH] [-r ROOT] SUITE_DIR..." >&2; exit 2; }
out=""
kver=${KVER:-}
arch=amd64
pkg_root=
while getopts "o:k:a:r:" opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) kver=$OPTARG ;;
	a) arch=$OPTARG ;;
	r) pkg_root=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
# A suite's name (tests/lib/suites.sh) is its kselftest collection.
suites=()
for d in "$@"; do
	s=$("$top/tests/lib/suites.sh" name "$d") && [ -f "$d/settings" ] ||
		{ echo "vm: $d is not a suite directory" >&2; exit 2; }
	suites+=("$s")
done
# A boot is named after its suite's directory, or its suites joined by
# "+", each "/" a "-" (cli/guest and omware-bench/guest both end "guest").
if [ ${#suites[@]} -eq 1 ]; then
	name=$(basename "${suites[0]}")
else
	name=$(IFS=+; echo "${suites[*]//\//-}")
fi
# The guest's clock: real, or virtual if a suite's CLOCK says so;
# TW_CLOCK=real|virtual overrides the suites.  In virtual time (QEMU's
# icount) guest time advances with the instructions the guest executes,
# and idle time is skipped (sleep=off): the host's load never shows as
# lateness in the guest.  Each instruction is 2^ICOUNT_SHIFT ns.  3 (125
# million instructions a virtual second) is slower than the 400-700 MHz
# single-core routers OMware's paper measured, so a path's lateness errs
# long rather than short, and it is the rate every measurement in
# Documentation/harness.rst (and the harness's vtime bound) was made at.
# Guest time is not wall time: the suites' limits, kept in guest time,
# count it (the vtime boot: 150 s of it in 20 s).  The vCPUs
# take turns on one thread and a busy one can hold another off for
# seconds: virtual time boots one.
ICOUNT_SHIFT=3
clock=${TW_CLOCK:-}
for s in "${suites[@]}"; do
	c=$("$top/tests/lib/suites.sh" get "$s" CLOCK)
	case $c in
	"" | real) ;;
	virtual) clock=${clock:-virtual} ;;
	*) echo "vm: $s: CLOCK=$c: real or virtual" >&2; exit 2 ;;
	esac
done
clock=${clock:-real}
case $clock in
real) ;;
virtual)
	[ "$arch" = amd64 ] ||
		{ echo "vm: virtual time boots amd64 guests only, not $arch" >&2; exit 2; }
	[ "${TW_TCG_THREAD:-single}" = single ] ||
		{ echo "vm: virtual time runs single-threaded TCG: not with TW_TCG_THREAD=$TW_TCG_THREAD" >&2; exit 2; } ;;
*)	echo "vm: TW_CLOCK=$clock: real or virtual" >&2; exit 2 ;;
esac
# TW_QEMU: another build's QEMU must not load the host's modules or
# firmware (mixed, the boot hung): its own, from the tree it was unpacked in.
qemu_bin=()
if [ -n "${TW_QEMU:-}" ]; then
	[ "$arch" = amd64 ] ||
		{ echo "vm: TW_QEMU runs amd64 guests only, not $arch" >&2; exit 2; }
	[ -x "$TW_QEMU" ] || { echo "vm: TW_QEMU=$TW_QEMU: not an executable" >&2; exit 2; }
	qemu_usr=$(cd "$(dirname "$TW_QEMU")/.." && pwd)
	export QEMU_MODULE_DIR=$qemu_usr/lib/x86_64-linux-gnu/qemu
	qemu_bin=(--qemu "$TW_QEMU" "--qemu-opts=-L $qemu_usr/share/qemu -L $qemu_usr/share/seabios")
fi
# TW_DEBUG_KERNEL=1 (make check-debug): the debug kernel of
# scripts/debug-kernel.sh instead, every time limit times TW_TIMEOUT_MULT
# (default 4 there, 1 here) and the throughput assertions off.
debug=${TW_DEBUG_KERNEL:-0}
mult=${TW_TIMEOUT_MULT:-1}
# A foreign guest's kernel, root, initramfs and emulator (foreign_*),
# from the script that makes them (scripts/foreign-archs.sh, its recipe).
script=()
declare -A foreign
cpus=2
if [ "$arch" != amd64 ]; then
	read -ra script < <("$top/scripts/foreign-archs.sh" recipe "$arch")
	[ ${#script[@]} -gt 0 ] || {
		echo "vm: no architecture '$arch' (amd64, $("$top/scripts/foreign-archs.sh" list | sed 's/ /, /g'))" >&2
		exit 2
	}
	script[0]=$top/scripts/${script[0]}
	[ "$debug" = 1 ] && { echo "vm: no debug kernel for $arch" >&2; exit 2; }
	boot_info=$("${script[@]}" boot) || exit 2
	while IFS='=' read -r k v; do foreign[$k]=$v; done <<< "$boot_info"
	kver=${foreign[release]} kernel=${foreign[kernel]}
	mult=${TW_TIMEOUT_MULT:-${foreign[timeout_mult]:-1}}
	[[ ${foreign[qemu]} =~ -smp\ ([0-9]+) ]] && cpus=${BASH_REMATCH[1]}
fi
if [ "$arch" != amd64 ]; then
	kimage=$kernel
elif [ "$debug" = 1 ]; then
	kver=$("$top/scripts/debug-kernel.sh" release) || exit 2
	# vng boots a build tree with the tree's own modules directory: a
	# modprobe of what is built in works as on the stock kernel.
	kernel=$("$top/scripts/debug-kernel.sh" dir)/linux
	kimage=$kernel/arch/x86/boot/bzImage
	mult=${TW_TIMEOUT_MULT:-4}
	export TW_THROUGHPUT_CHECKS=0
else
	[ -n "$kver" ] || kver=$(tw_kernel_installed) || { echo "vm: no target kernel installed (make deps)" >&2; exit 2; }
	kernel=/boot/vmlinuz-$kver
	if [[ $kver == */* ]]; then
		kernel=$kver
		kver=${kver##*/vmlinuz-}
	fi
	kimage=$kernel
fi
[ -r "$kimage" ] || { echo "vm: $kimage not readable" >&2; exit 2; }
vm_kvm=0
[ "$arch" = amd64 ] && [ "$("$top/tests/vm/kvm-probe.sh" "$kimage")" = kvm ] && vm_kvm=1
[ "$clock" = virtual ] && [ "$vm_kvm" = 1 ] &&
	{ echo "vm: virtual time needs TCG (QEMU's icount), and KVM is used here" >&2; exit 2; }
[[ $mult =~ ^[1-9][0-9]*$ ]] || { echo "vm: TW_TIMEOUT_MULT=$mult: not a count" >&2; exit 2; }
[ -n "$out" ] || out=$top/.build/results/$name
[[ ${TW_OUT_KEEP:-} != */* ]] ||
	{ echo "vm: TW_OUT_KEEP=$TW_OUT_KEEP: names of OUTDIR's entries, not paths" >&2; exit 2; }
# A boot's results are its own; what is kept is a stopped benchmark's
# runs, for it to continue (make bench-omware, bench-tfib, bench-qaware).
for f in "$out"/* "$out"/.[!.]*; do
	[ -e "$f" ] || continue
	[[ " ${TW_OUT_KEEP:-} " == *" ${f##*/} "* ]] || rm -rf "$f"
done
mkdir -p "$out"
out=$(cd "$out" && pwd)	# the guest does not share our working directory
# make modules-test builds the modules of this kernel here.
ko_dir=${TW_KO_DIR:-$top/.build/kmod/$kver}
# -r ROOT: the guest's root is ROOT (a Debian root with the packages
# installed, tests/deb/boot), not the host's; its modules are loaded from
# where DKMS put them and its /usr/bin/timewire is run (guest.sh's
# TW_INSTALLED): only the suites' programs come from the tree, which ROOT
# holds at its path (scripts/deb-chroot.sh mount binds it there).
# On the big-endian MIPS guest (a router), ROOT holds the files of the
# OpenWrt packages (tests/openwrt/boot), unpacked over the initramfs root
# (pkg_initrd); the modules are loaded from /lib/modules/RELEASE, the
# CLI is /usr/sbin's.
vng_root=()
if [ -n "$pkg_root" ]; then
	# Only the smoke subset takes every module and the CLI from the
	# packages; other programs name the tree's files.
	[ "${TW_SMOKE:-0}" = 1 ] ||
		{ echo "vm: -r runs the smoke subset only: set TW_SMOKE=1" >&2; exit 2; }
	pkg_root=$(cd "$pkg_root" && pwd) || exit 2
fi
if [ -n "$pkg_root" ] && [ "$arch" = mips ]; then
	ko_dir=/lib/modules/$kver
elif [ -n "$pkg_root" ]; then
	[ "$arch" = amd64 ] && [ "$debug" = 0 ] && [ "$kver" = "$(tw_kernel_installed)" ] ||
		{ echo "vm: -r boots the test kernel or mips only (no -a arm64|mipsel, -k or debug kernel)" >&2; exit 2; }
	[ -d "$pkg_root$top" ] ||
		{ echo "vm: $pkg_root does not hold this tree at $top (scripts/deb-chroot.sh mount binds it)" >&2; exit 2; }
	[ -d "$pkg_root$out" ] ||
		{ echo "vm: $pkg_root does not hold $out: give -o inside the tree" >&2; exit 2; }
	ko_dir=/lib/modules/$kver/updates/dkms
	vng_root=(--root "$pkg_root")
fi

setting() { "$top/tests/lib/suites.sh" get "$@"; }
mib() {	# mib SIZE: 2G -> 2048, 512M -> 512
	case $1 in *G) echo $((${1%G} * 1024)) ;; *M) echo "${1%M}" ;; *) echo "$1" ;; esac
}

# One boot for all: the most memory any suite asks for, every suite's
# extra kernel command line, and the sum of their programs' limits.
# Single-threaded TCG unless a suite asks for more (the benchmark, whose
# load needs both host cores): with a thread per vCPU, the kernel patching
# its own text (static keys, at boot too) races the other vCPU, and the
# guest dies of an int3 in code being patched.
# TW_TCG_THREAD=single|multi overrides the suites (make demo: a short run
# that must not die of that race).
memory=1024 TCG_THREAD=${TW_TCG_THREAD:-single} APPEND="" NICS="" limit=180 longest=0
for s in "${suites[@]}"; do
	m=$(setting "$s" MEMORY)
	[ -n "$m" ] && [ "$(mib "$m")" -gt "$memory" ] && memory=$(mib "$m")
	[ -z "${TW_TCG_THREAD:-}" ] && [ "$clock" = real ] &&
		[ "$(setting "$s" TCG_THREAD)" = multi ] && TCG_THREAD=multi
	APPEND+=" $(setting "$s" APPEND)"
	[ "$(setting "$s" NICS)" = pair ] && NICS=pair
	t=$(setting "$s" timeout)
	limit=$((limit + $("$top/tests/lib/suites.sh" tests "$s" | wc -w) * ${t:-45} * mult))
	[ "${t:-45}" -gt "$longest" ] && longest=${t:-45}
done
# A guest that writes nothing (no file in OUTDIR, no console line) for
# longer than its longest test may run has hung where no timeout of its
# own ends it: a silent emulated MIPS guest, idle, its hung-task check
# mute, ran out the whole limit.  TW_SILENT=S overrides.  A boot of one
# test still goes silent before its limit.
silent=${TW_SILENT:-$((longest * mult + 120))}
[[ $silent =~ ^[1-9][0-9]*$ ]] || { echo "vm: TW_SILENT=$silent: not a count of seconds" >&2; exit 2; }
# Where the guest takes sysrq from its keyboard: not arm64's virt (no
# keyboard), the big-endian malta (no sysrq) or the debug kernel (no
# keyboard driver).
keyboard=yes
[ "$debug" = 1 ] && keyboard=
[ "$arch" = amd64 ] || keyboard=${foreign[keyboard]:-}
# The checkers' memory: KASAN's shadow is an eighth of it, kmemleak's
# objects come on top.
[ "$debug" = 1 ] && [ "$memory" -lt 2048 ] && memory=2048
# A foreign machine's own bound (malta's 256 MiB).
[ -n "${foreign[memory]:-}" ] && [ "$memory" -gt "${foreign[memory]}" ] &&
	memory=${foreign[memory]}

# TW_TESTS="a.sh b.sh" tests/vm/vm.sh SUITE installs and runs a subset.
# One install at a time: boots may start side by side (tests/run.sh), and
# installing builds the suites' programs in the source tree.
mkdir -p "$top/.build"
# The modules a suite builds itself (tests/qaware) are built for the kernel
# booted: on the debug kernel, against its tree; the upstream MPTCP
# selftests (tests/mptcp-peer) from the source of its series, by KVER.
# Another of Debian's kernels (-k IMAGE): against its headers in the cache,
# in the trixie root where its kbuild tools need trixie's glibc.  A foreign
# guest's: cross-compiled as its script says (kbuild).
kbuild=()
if [ "$arch" != amd64 ]; then
	kbuild_info=$("${script[@]}" kbuild) || exit 2
	mapfile -t kbuild <<< "$kbuild_info"
elif [ "$debug" = 1 ]; then
	kbuild=(KVER="$kver" KDIR="$kernel")
elif [ "$arch" = amd64 ] && [ "$kver" != "$(tw_kernel_installed)" ]; then
	kdirs=()
	for kdir in "$(tw_cache_dir)"/headers/*/usr/src/linux-headers-"$kver"; do
		[ -d "$kdir" ] && kdirs+=("$kdir")
	done
	[ ${#kdirs[@]} -eq 1 ] ||
		{ echo "vm: ${#kdirs[@]} cached header trees for $kver, not one (scripts/kernel-headers.sh)" >&2; exit 2; }
	kbuild=(KVER="$kver" KDIR="${kdirs[0]}")
	[ -z "$(tw_kernel_suite "$kver")" ] ||
		kbuild+=(KRUN="$top/scripts/trixie-root.sh run")
fi
install_failed() {
	tail -n 20 "$out/install.log" | sed 's/^/vm:   /'
	echo "FAIL $name: installing ${suites[*]} (see $out/install.log)" | tee "$out/results.txt"
	echo "0 1 0" > "$out/summary"
	echo "$name: 0 passed, 1 failed, 0 skipped"
	exit 1
}
# A foreign guest: the programs cross-built in a mirror of the tree, the
# CLI and the tools first (the guest runs them from there).
tree=$top
make_cmd=(make)
if [ "$arch" != amd64 ]; then
	tree=$top/.build/$arch
	make_cmd=("${script[@]}" make)
	# In its directories: the mirror's own top Makefile would mirror it
	# again for another netlink library (LIBNL=libnl-tiny, mips).
	{ "$top/scripts/src-mirror.sh" "$tree" &&
	  flock "$top/.build/.install.lock" "${make_cmd[@]}" -s -C "$tree/userspace" &&
	  flock "$top/.build/.install.lock" "${make_cmd[@]}" -s -C "$tree/bench"; } \
		> "$out/install.log" 2>&1 || install_failed
fi
flock "$top/.build/.install.lock" "${make_cmd[@]}" -s -C "$tree/tests" install "${kbuild[@]}" \
	INSTALL_PATH="$out/kselftest" SUITES="${suites[*]}" >> "$out/install.log" 2>&1 ||
	install_failed

# Each program's limit is its suite's timeout (kselftest's runner reads it
# from the installed settings; guest.sh too): scaled there.
if [ "$mult" -gt 1 ]; then
	for s in "${suites[@]}"; do
		t=$(setting "$s" timeout)
		sed -i '/^timeout=/d' "$out/kselftest/$s/settings"
		echo "timeout=$(( ${t:-45} * mult ))" >> "$out/kselftest/$s/settings"
	done
fi

# Bash reads a script as it runs it: the guest runs a copy, so editing the
# tree during a run cannot change the script under it.
cp "$top/tests/vm/guest.sh" "$out/guest.sh"

# udev coldplug of these modules costs ~10 s under TCG and nothing here needs them.
blacklist=kvm_amd,kvm_intel,kvm,ccp,irqbypass,crct10dif_pclmul,crc32_pclmul,crc32c_intel
blacklist+=,ghash_clmulni_intel,sha512_ssse3,sha256_ssse3,sha1_ssse3,aesni_intel,gf128mul
blacklist+=,crypto_simd,cryptd,psmouse,ahci,libahci,libata,sr_mod,cdrom,sg,scsi_mod
blacklist+=,scsi_common,iTCO_wdt,iTCO_vendor_support,intel_pmc_bxt,i2c_i801,i2c_smbus
blacklist+=,i6300esb,watchdog,serio_raw,pcspkr,evdev,lpc_ich,button,qemu_fw_cfg

accel=(--disable-kvm)
if [ "$arch" != amd64 ]; then
	# shellcheck disable=SC2054 # one option, commas and all
	accel=(-accel tcg,thread=single)
elif [ "$vm_kvm" = 1 ]; then
	accel=()
elif [ "$clock" = virtual ]; then
	# sleep=off: an idle guest's time jumps to its next timer, so a run
	# takes about as long as on plain TCG.  No CX16 (below): a virtual-time
	# bench-omware guest died after 1905 s of a double fault right after
	# SLUB's cmpxchg16b, its EFLAGS garbage, on one vCPU.
	accel+=("--qemu-opts=-accel tcg,thread=single -icount shift=$ICOUNT_SHIFT,sleep=off"
		"--qemu-opts=-cpu max,-cx16")
	cpus=1
elif [ "$TCG_THREAD" = single ]; then
	accel+=("--qemu-opts=-accel tcg,thread=single")
else
	# A thread per vCPU: QEMU 7.2 seems to mis-emulate SLUB's cmpxchg16b under
	# contention (two bench-tfib runs died of corrupt slab lists at 700 s,
	# one with reserved EFLAGS bits set); without CX16 the kernel takes
	# its locked path and the same run finished.
	accel+=("--qemu-opts=-cpu max,-cx16")
fi

# NICS=pair: two NICs with BQL joined by the emulator (tests/lib/topo.sh),
# on a foreign guest where its script offers them (nic_pair=yes; malta's
# few interrupt lines are its 9p devices'): the tests needing them skip.
qemu_nics=()
[ "$arch" = amd64 ] || [ "${foreign[nic_pair]:-}" = yes ] || NICS=""
if [ "$NICS" = pair ]; then
	. "$top/tests/lib/topo.sh"
	while read -r o; do
		if [ "$arch" = amd64 ]; then
			qemu_nics+=("--qemu-opts=$o")
		else
			read -ra words <<< "$o"
			qemu_nics+=("${words[@]}")
		fi
	done < <(topo_nicpair_qemu_opts)
fi

# The programs' settings from the caller's environment (TW_BENCH_SEED=N
# make bench-qaware ...): the guest's command starts with a fresh one.
guest_env=
while IFS='=' read -r k _; do
	case $k in
	TW_BENCH_* | TW_QA_* | TW_AOI_* | TW_MPTCP_* | TW_THROUGHPUT_CHECKS | TW_DEBUG_KERNEL) guest_env+=" $k=$(printf '%q' "${!k}")" ;;
	esac
done < <(env)
# The programs' own waits scale as their limits do.
if [ "$mult" -gt 1 ]; then guest_env+=" TW_TIMEOUT_MULT=$mult"; fi
[ -z "$pkg_root" ] || guest_env+=" TW_INSTALLED=1"

echo "vm: ${suites[*]} on $kver${pkg_root:+ rooted at $pkg_root} (${accel[*]:-kvm}, clock $clock, vCPUs $cpus${NICS:+, NICs $NICS}${TW_QEMU:+, QEMU $TW_QEMU}), limit ${limit}s${guest_env:+, with$guest_env}"
# run_guest CMD...: CMD under the time limit, its output in console.log,
# its status in vm_rc.  It runs in the background so that a stop of this
# script (Ctrl-C, TERM, HUP) stops the guest too: timeout puts the guest
# in a process group of its own, out of a terminal's reach, whose number
# (timeout's PID) .guest-pid keeps.  QEMU answers QMP on $qmp_sock, in
# /tmp: a socket's path has at most 107 bytes.
guest_running=0 silence_watch=
qmp_dir=$(mktemp -d /tmp/tw-qmp.XXXXXX) || exit 2
qmp_sock=$qmp_dir/qmp
trap 'rm -rf "$qmp_dir"' EXIT
run_guest() {
	rm -f "$out/.guest-pid" "$out/silent.txt" "$out/stacks.txt" "$out/.stacks-from"
	guest_running=1
	( { echo "$BASHPID" > "$out/.guest-pid"
	    exec timeout -k 15 "$limit" "$@"; } </dev/null 2>&1 | cat > "$out/console.log"
	  exit "${PIPESTATUS[0]}" ) &
	local guest=$!
	watch_silence "$guest" > /dev/null 2>&1 &
	silence_watch=$!
	wait "$guest"
	vm_rc=$?
	kill "$silence_watch" 2>/dev/null
	silence_watch=
	# A pipeline killed from outside may leave its guest behind.
	[ "$vm_rc" -le 128 ] || end_guest
	guest_running=0
	rm -f "$out/.guest-pid"
}
# watch_silence PID: while PID runs, end a guest silent for $silent s, with
# what QEMU sees of it in OUTDIR/silent.txt twice (whether its 9p
# requests were answered, its interrupts raised), and in between, where it
# has a keyboard, its tasks' stacks (sysrq t), which the console's part
# after .stacks-from holds.  A QEMU that does not answer is ended too.
watch_silence() {
	local since gap=$((silent < 30 ? silent : 30))
	trap 'kill "$!" 2>/dev/null; exit' TERM
	while sleep 10 & wait "$!" && kill -0 "$1" 2>/dev/null; do
		since=$(($(date +%s) - silent))
		[ -z "$(find "$out" -newermt "@$since" -print -quit 2>/dev/null)" ] || continue
		{
			echo "vm: nothing from the guest for ${silent}s, $(date -u +%T)"
			qmp_state state && {
				[ -z "$keyboard" ] || {
					stat -c %s "$out/console.log" > "$out/.stacks-from"
					qmp_state keys alt sysrq t
				}
				sleep "$gap" & wait "$!"
				echo "vm: ${gap} s later"
				qmp_state state
			}
		} > "$out/silent.txt" 2>&1
		end_guest
		return
	done
}
qmp_state() { timeout 60 "$top/tests/vm/qmp-state.py" "$qmp_sock" "$@"; }
# split_stacks: the tasks' stacks a silent guest printed go from its
# console log to OUTDIR/stacks.txt: they are evidence, not kernel reports.
split_stacks() {
	local from
	from=$(cat "$out/.stacks-from" 2>/dev/null) || return 0
	tail -c +$((from + 1)) "$out/console.log" > "$out/stacks.txt"
	truncate -s "$from" "$out/console.log"
	rm -f "$out/.stacks-from"
}
# end_guest: the guest's whole group, QEMU too (timeout passes a TERM on
# but exits with its child, vng, and may leave a busy QEMU running), and
# timeout itself if it has no group yet; a KILL after 10 s.
end_guest() {
	local group i
	group=$(cat "$out/.guest-pid" 2>/dev/null)
	[ -n "$group" ] || return 0
	kill -TERM -- "-$group" 2>/dev/null || kill -TERM "$group" 2>/dev/null
	for i in $(seq 40); do
		pgrep -g "$group" > /dev/null || kill -0 "$group" 2>/dev/null || return 0
		[ "$i" -ne 20 ] ||
			kill -KILL -- "-$group" 2>/dev/null || kill -KILL "$group" 2>/dev/null
		sleep 0.5
	done
}
# A second signal (a CI's TERM to the group, then the runner's to vm.sh)
# must not cut the stop short: the stop is bounded and ends in exit 130.
stop_guest() {
	trap '' INT TERM HUP
	[ -z "$silence_watch" ] || kill "$silence_watch" 2>/dev/null
	if [ "$guest_running" = 1 ]; then
		# The pipeline writes .guest-pid first; it may not have yet.
		for _ in $(seq 50); do
			[ -s "$out/.guest-pid" ] && break
			sleep 0.1
		done
		end_guest
		wait
		rm -f "$out/.guest-pid"
		echo "vm: stopped, and the guest with it" >&2
	fi
	exit 130
}
trap stop_guest INT TERM HUP

boot() {
	TW_ROOT=$top run_guest vng --run "$kernel" "${qemu_bin[@]}" "${accel[@]}" "${qemu_nics[@]}" --force-9p \
		"--qemu-opts=-qmp unix:$qmp_sock,server=on,wait=off" \
		--cpus "$cpus" --memory "${memory}M" -v "${vng_root[@]}" --rwdir "$out=$out" \
		--append "modprobe.blacklist=$blacklist $APPEND" \
		--exec "TW_ROOT=$top TW_KO_DIR=$ko_dir TW_CLOCK=$clock$guest_env $out/guest.sh $out/kselftest $out ${suites[*]}"
}

# pkg_initrd: the initramfs with ROOT's files in a second archive after
# it, which the kernel unpacks over the first (owned by root, as a
# package manager installs them).  As a package manager, it adds the
# directories the root lacks only: the kernel replaces an entry of
# another type, and ROOT's lib/ would replace the initramfs's /lib link
# to usr/lib, and with it the programs' loader.
pkg_initrd() {
	local have
	have=$(gzip -dc "${foreign[initrd]}" | cpio -t --quiet) || return 1
	{ cat "${foreign[initrd]}" &&
	  (cd "$pkg_root" &&
	   { find . -mindepth 1 ! -type d -printf '%P\n'
	     find . -mindepth 1 -type d -printf '%P\n' | { grep -vxF "$have" || true; }
	   } | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1); } > "$out/initrd.gz"
}
if [ -n "$pkg_root" ] && [ "$arch" = mips ]; then
	pkg_initrd || { echo "vm: packing $pkg_root failed" >&2; exit 2; }
	foreign[initrd]=$out/initrd.gz
fi

# boot_foreign: the same under the foreign architecture's emulator.  The
# initramfs (scripts/foreign-init) mounts the guest's root, the tree
# (read only) and OUTDIR at their host paths, and runs foreign-run.sh,
# which powers the guest off at its end.
boot_foreign() {
	local root=${foreign[root]} qemu slot
	read -ra qemu <<< "${foreign[qemu]}"
	read -ra slot <<< "${foreign[p9_slots]:-}"
	mkdir -p "$root$top" "$root$out" 2>/dev/null
	cat > "$out/foreign-run.sh" <<-EOF
	#!/bin/sh
	export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
	TW_ROOT=$tree TW_KO_DIR=$ko_dir TW_CLOCK=$clock$guest_env bash $out/guest.sh $out/kselftest $out ${suites[*]}
	# Debian's kernels have sysrq; the malta built here powers off with
	# busybox.
	{ echo o > /proc/sysrq-trigger; } 2>/dev/null || poweroff -f
	sleep 30
	EOF
	chmod +x "$out/foreign-run.sh"
	# shellcheck disable=SC2054 # QEMU's options are comma lists
	# Two 9p devices: the host's / read-only (the guest's root and the
	# tree come from it), the output writable.
	local p9=(-device "virtio-9p-pci,fsdev=host,mount_tag=host${slot[0]:+,addr=${slot[0]}}"
		  -fsdev "local,id=host,path=/,security_model=none,readonly=on"
		  -device "virtio-9p-pci,fsdev=out,mount_tag=out${slot[1]:+,addr=${slot[1]}}"
		  -fsdev "local,id=out,path=$out,security_model=none")
	local cmdline="console=${foreign[console]} panic=-1 tw.ro=$top tw.rw=$out"
	cmdline+=" tw.init=$out/foreign-run.sh $APPEND"
	# A cut line would lose the init's arguments without a word.
	if [ ${#cmdline} -gt "${foreign[cmdline]}" ]; then
		echo "vm: the kernel command line has ${#cmdline} bytes, $arch passes" \
			"${foreign[cmdline]}: use a shorter path for the tree or -o" > "$out/console.log"
		vm_rc=2
		return
	fi
	run_guest "${qemu[@]}" "${accel[@]}" \
		-m "$memory" -nographic -no-reboot -kernel "$kimage" \
		-initrd "${foreign[initrd]}" "${p9[@]}" "${qemu_nics[@]}" -append "$cmdline" \
		-qmp "unix:$qmp_sock,server=on,wait=off"
}

# A guest that dies before our script starts (QEMU failing to start, the
# emulator faulting during boot) has run no test: say so, show why, and boot
# once more.  A guest that reached guest.sh is never booted again, nor
# one that hung (its state is the evidence).
for attempt in 1 2; do
	start=$(date +%s)
	if [ "$arch" = amd64 ]; then boot; else boot_foreign; fi
	echo "vm: guest finished in $(( $(date +%s) - start ))s (status $vm_rc)"
	split_stacks
	[ -e "$out/started" ] || [ -e "$out/silent.txt" ] && break
	echo "vm: the guest did not reach the test script (attempt $attempt); console ends:"
	tail -n 15 "$out/console.log" | sed 's/^/vm:   /'
	cp "$out/console.log" "$out/console-attempt$attempt.log"
done

passed=0 failed=0 skipped=0
report() {	# report STATUS TEXT
	echo "$1 $name: $2" | tee -a "$out/results.txt"
}
count=$(cat "$out/count" 2>/dev/null || echo 0)
for ((i = 1; i <= count; i++)); do
	tname=$(cat "$out/$i.name")
	rc=$(cat "$out/$i.rc")
	{
		read -r p f s
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		while read -r st detail; do report "$st" "$tname: $detail"; done
	} < <(awk -v rc="$rc" -f "$top/tests/lib/tap-count.awk" "$out/$i.out")
done
if [ -f "$out/silent.txt" ]; then
	failed=$((failed + 1))
	report FAIL "guest silent for ${silent}s, ended (what QEMU saw: $out/silent.txt${keyboard:+, stacks.txt})"
elif [ "$count" -eq 0 ] || [ ! -f "$out/dmesg.txt" ]; then
	failed=$((failed + 1))
	report FAIL "guest did not finish (status $vm_rc; see $out/console.log)"
fi
# The kernel's reports (tests/vm/kreports.awk), from the console (which
# sees what dmesg.txt would miss if the guest died), dmesg and kmemleak: one
# with a frame of a timewire module fails the run, and so does any other
# that tests/vm/allowlist does not name for this kernel.
logs=()
# An attempt that died before the tests counts too: a boot oops is a failure.
for f in "$out"/console-attempt*.log "$out/console.log" "$out/dmesg.txt" "$out/kmemleak.txt"; do
	[ -f "$f" ] && logs+=("$f")
done
mods=$(. "$top/scripts/modules.sh" && tw_module_names | paste -sd '|')
: > "$out/kernel-reports.sum"
[ ${#logs[@]} -gt 0 ] &&
	awk -v mods="$mods|twwarn" -v modspace="$debug" -v release="$kver" \
		-v allow="$top/tests/vm/allowlist" \
		-v full="$out/kernel-reports.txt" -f "$top/tests/vm/kreports.awk" \
		"${logs[@]}" > "$out/kernel-reports.sum"
grep -v '^allowed' "$out/kernel-reports.sum" | cut -f 1,3 | sed 's/\t/: /' > "$out/kernel-problems.all"
head -n 5 "$out/kernel-problems.all" > "$out/kernel-problems.txt"
if [ -s "$out/kernel-problems.txt" ]; then
	failed=$((failed + 1))
	report FAIL "kernel log: $(head -n 1 "$out/kernel-problems.txt")"
	sed 's/^/    /' "$out/kernel-problems.txt"
	echo "vm: the reports in full: $out/kernel-reports.txt"
fi
allowed=$(grep -c '^allowed' "$out/kernel-reports.sum")
[ "$allowed" -gt 0 ] && echo "vm: $allowed allowlisted kernel report(s), see $out/kernel-reports.sum"
echo "$passed $failed $skipped" > "$out/summary"
echo "$name: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
