#!/usr/bin/env bash
# timewire test runner: host tests first (native, no VM), then the guest
# suites, one boot per BOOT group, as many boots at once as the host has
# CPUs (TW_BOOTS=N to set).  Nothing is listed here: every suite's
# settings, in tests/ or bench/, declares its programs (tests/lib/suites.sh).
# Ends with "N passed, N failed, N skipped" and exits non-zero if anything
# failed.  A skip is never counted as a pass.
#
# TW_DEBUG_KERNEL=1 (make check-debug): the guest suites only, on the debug
# kernel, whose modules make check-debug has built (tests/vm/vm.sh).
#
# Usage: tests/run.sh [--host-only] [--kernel SERIES | --arch ARCH] [--suite NAME]...
#   NAME: a suite (core, omware, cli/guest, ...), a BOOT group (omware: the
#   suites that share its boot), "host" (every host test) or "smoke" (the
#   smoke boots of the other kernels and CPUs).
#   SERIES: another of Debian's kernels (6.1, make check-6.1; 7, make
#   check-7), its image fetched by scripts/kernel-image.sh:
#   the modules are built for it by the cross suite's headers test
#   (tests/cross/test_kmod_headers.sh, which also checks the build), then
#   the guest suites boot it.  No other host test runs.
#   ARCH: a foreign guest (scripts/foreign-archs.sh: tests/vm/vm.sh -a), its
#   modules built (make modules-ARCH), then one boot of every guest suite
#   whose settings' ARCHS name it.  No host test runs.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

host_only=0
only=()
kernel='' arch=''
while [ $# -gt 0 ]; do
	case $1 in
	--host-only) host_only=1 ;;
	--kernel) kernel=$2; shift ;;
	--arch) arch=$2; shift ;;
	--suite) only+=("$2"); shift ;;
	-h|--help) sed -n '2,23p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -z "$kernel" ] || [ -z "$arch" ] ||
	{ echo "run.sh: --kernel and --arch exclude each other" >&2; exit 2; }

suites() { tests/lib/suites.sh "$@"; }

# The runner runs every scheduler: narrowing the upstream scripts to one
# is for a by-hand vm.sh run (Documentation/harness.rst).
unset TW_MPTCP_SCHEDULERS
# Nor does it keep a stopped benchmark's results: every boot starts clean.
unset TW_OUT_KEEP

passed=0 failed=0 skipped=0
failures=()
results=$top/.build/results
mkdir -p "$results"

tally() {	# tally NAME P F S [DETAIL...]
	local name=$1
	passed=$((passed + $2)) failed=$((failed + $3)) skipped=$((skipped + $4))
	shift 4
	local d
	for d in "$@"; do
		case $d in FAIL*) failures+=("$name: ${d#FAIL }") ;; esac
	done
}

run_program() {	# run_program NAME CMD...: run, show, count its TAP
	local name=$1 log rc
	shift
	log=$results/host-$(basename "$name").log
	echo "== $name"
	"$@" > "$log" 2>&1
	rc=$?
	# Failures and diagnostics; not kselftest_harness.h's progress lines.
	grep -E '^(not ok|#)' "$log" |
		grep -vE '^#  RUN |^# +OK  |^# Starting |^# PASSED: |^# Totals: ' | head -n 40
	local counts details=()
	{
		read -r counts
		mapfile -t details
	} < <(awk -v rc="$rc" -f tests/lib/tap-count.awk "$log")
	# shellcheck disable=SC2086
	tally "$name" $counts "${details[@]}"
	echo "   $(echo "$counts" | awk '{print $1" passed, "$2" failed, "$3" skipped"}')"
}

named() {	# named NAME: was NAME given with --suite?
	local s
	for s in "${only[@]}"; do [ "$s" = "$1" ] && return 0; done
	return 1
}

want() {	# want NAME...: is any of these selected (all are by default)?
	[ ${#only[@]} -eq 0 ] && return 0
	local s
	for s in "$@"; do named "$s" && return 0; done
	return 1
}

run_host_tests() {	# run_host_tests SUITE: its HOST_TESTS, in order
	local t d
	d=$(suites dir "$1")
	d=${d#"$top"/}
	for t in $(suites get "$1" HOST_TESTS); do
		run_program "$d/$t" "$d/$t"
	done
}

start=$(date +%s)
debug=${TW_DEBUG_KERNEL:-0}
host=()
for s in $(suites host); do
	[ "$debug" = 1 ] || [ -n "$kernel$arch" ] && break
	want host "$s" && host+=("$s")
done
if [ ${#host[@]} -gt 0 ]; then
	echo "### host tests"
	if make -s -C userspace > "$results/host-build.log" 2>&1 &&
	   make -s -C bench >> "$results/host-build.log" 2>&1 &&
	   make -s -C tests host >> "$results/host-build.log" 2>&1; then
		for s in "${host[@]}"; do run_host_tests "$s"; done
	else
		cat "$results/host-build.log"
		tally "host build" 0 1 0 "FAIL build of the host tests"
	fi
fi

# Host programs that boot guests themselves (the harness's self-test).
run_vm_tests() {
	local s
	for s in $(suites vm); do
		want "$s" || continue
		echo "### guest suite: $s"
		run_host_tests "$s"
	done
}

# One boot's results, once it has ended: its log (but the passes), counts.
boot_report() {	# boot_report NAME
	local name=$1 p f sk details
	echo "### guest suite: $name (one boot): done"
	grep -v '^PASS ' "$results/$name.log"
	if [ -f "$results/$name/summary" ]; then
		read -r p f sk < "$results/$name/summary"
		# vm.sh prefixes each result with the boot's suites
		mapfile -t details < <(sed -n 's/^FAIL [^:]*: /FAIL /p' "$results/$name/results.txt" 2>/dev/null)
		tally "$name" "$p" "$f" "$sk" "${details[@]}"
	else
		tally "$name" 0 1 0 "FAIL the harness did not produce results"
	fi
}

# The boots under way, by pid; stopped with the run (vm.sh stops its
# guest on TERM).
declare -A running=()
stop_boots() {
	local pid
	for pid in "${!running[@]}"; do
		kill "$pid"
	done 2>/dev/null
	wait
	exit 130
}
trap stop_boots INT TERM

# Wait for one boot to end, report it.
reap_boot() {
	local pid
	wait -n -p pid "${!running[@]}"
	boot_report "${running[$pid]}"
	unset "running[$pid]"
}

# A boot group that wants the whole machine: a benchmark, or a guest on
# multi-threaded TCG.
boot_alone() {	# boot_alone SUITE...
	local s
	for s in "$@"; do
		[ "$(suites get "$s" KIND)" = bench ] && return 0
		[ "$(suites get "$s" TCG_THREAD)" = multi ] && return 0
	done
	return 1
}

# Guest suites, grouped by BOOT (default: the suite itself), the group's
# own suite first.  Benchmarks run only when named.  Boots run side by
# side, as many as the host has CPUs ($TW_BOOTS to set): each guest is
# one thread of single-threaded TCG.  A benchmark, or a guest on
# multi-threaded TCG, runs alone.
run_guest_suites() {
	local -A group=()
	local order=() members=() dirs=() s boot g name limit max=${TW_BOOTS:-$(nproc)}

	[[ $max =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: TW_BOOTS=$max: not a count" >&2; exit 2; }
	for s in $(suites guest) $(suites bench); do
		suites on "$s" amd64 || continue
		boot=$(suites get "$s" BOOT)
		boot=${boot:-$s}
		if [ "$(suites get "$s" KIND)" = bench ]; then
			named "$s" || continue
		else
			want "$s" "$boot" || continue
		fi
		if [ -n "$kernel" ] && ! suites runs "$s" "$kernel_rel"; then
			echo "SKIP $s: needs Linux $(suites get "$s" SINCE) or later, not $kernel_rel"
			tally "$s" 0 0 1
			continue
		fi
		[ -n "${group[$boot]:-}" ] || order+=("$boot")
		if [ "$s" = "$boot" ]; then
			group[$boot]="$s ${group[$boot]:-}"
		else
			group[$boot]="${group[$boot]:-} $s"
		fi
	done
	for g in "${order[@]}"; do
		read -ra members <<< "${group[$g]}"
		dirs=()
		for s in "${members[@]}"; do dirs+=("$(suites dir "$s")"); done
		limit=$max
		boot_alone "${members[@]}" && limit=1
		start_boot "$(basename "${members[0]}")" "$limit" "${members[*]}" \
			"${vm_kernel[@]}" "${dirs[@]}"
	done
	[ -n "$kernel" ] || [ "$debug" = 1 ] || smoke_boots "$max"
	while [ ${#running[@]} -gt 0 ]; do reap_boot; done
}

# start_boot NAME LIMIT WHAT VM_ARGS...: one boot, once fewer than LIMIT
# run.
start_boot() {
	local name=$1 limit=$2 what=$3
	shift 3
	while [ ${#running[@]} -ge "$limit" ]; do reap_boot; done
	echo "### guest suite: $what (one boot): started"
	# a boot that fails to start must not report the last run's
	rm -f "$results/$name/summary"
	tests/vm/vm.sh -o "$results/$name" "$@" > "$results/$name.log" 2>&1 &
	running[$!]=$name
	[ "$limit" -gt 1 ] || reap_boot
}

# Every other kernel and CPU make check boots (TW_SMOKE_KERNELS, empty
# for none): the suites' SMOKE_TESTS in one boot each, beside the test
# kernel's boots, with the modules the cross suite built for it (built
# here when only "smoke" was asked for).  make check-matrix runs every
# suite there.
smoke_kernels=${TW_SMOKE_KERNELS-6.1 7 arm64 mipsel mips}
smoke_boots() {	# smoke_boots LIMIT
	local k image rel dirs=() s

	want smoke || [ ${#only[@]} -eq 0 ] || return 0
	for k in $smoke_kernels; do
		# Not built here: the mips kernel, 10-40 minutes once (make
		# check-prep, which make check runs first).
		if [ "$k" = mips ] && ! scripts/mips-be.sh release > /dev/null 2>&1; then
			echo "SKIP smoke mips: its kernel is not in the cache (make check-prep builds it)"
			tally "smoke mips" 0 0 1
		elif foreign "$k"; then
			TW_SMOKE=1 foreign_boot "smoke-$k" "$k" "$1" "smoke on"
		fi
		foreign "$k" && continue
		if ! image=$(scripts/kernel-image.sh "$k" 2> "$results/smoke-$k.image.log"); then
			tally "smoke $k" 0 1 0 "FAIL Debian's $k image: $(tail -n 1 "$results/smoke-$k.image.log")"
			continue
		fi
		rel=${image##*/vmlinuz-}
		dirs=()
		for s in $(suites guest); do
			[ -n "$(TW_SMOKE=1 suites tests "$s")" ] && suites runs "$s" "$rel" &&
				dirs+=("$(suites dir "$s")")
		done
		[ -f ".build/kmod/$rel/omware/omware.ko" ] ||
			make -s "modules-$k" > "$results/smoke-$k.build.log" 2>&1
		TW_SMOKE=1 start_boot "smoke-$k" "$1" "smoke on $rel" -k "$image" "${dirs[@]}"
	done
}

foreign() { scripts/foreign-archs.sh recipe "$1" > /dev/null; }

# foreign_release ARCH: the kernel release its guest boots.
foreign_release() {
	local recipe
	read -ra recipe < <(scripts/foreign-archs.sh recipe "$1") || return 1
	"scripts/${recipe[0]}" "${recipe[@]:1}" release
}

# foreign_boot NAME ARCH LIMIT WHAT: ARCH's modules built (a test of its
# own), then one boot of the suites that run there ($TW_SMOKE: their
# smoke tests), once fewer than LIMIT boots run.  Returns 1 when no suite
# does.
foreign_boot() {
	local name=$1 a=$2 s rel dirs=() names=()

	rel=$(foreign_release "$a" 2> /dev/null) || rel=
	for s in $(suites arch "$a"); do
		# --suite narrows a boot of its own, not the smoke boots
		[ "$name" != "$a" ] || want "$s" "$(suites get "$s" BOOT)" || continue
		[ -n "$(suites tests "$s")" ] || continue
		if [ -n "$rel" ] && ! suites runs "$s" "$rel"; then
			echo "SKIP $s: needs Linux $(suites get "$s" SINCE) or later, not $rel"
			tally "$s" 0 0 1
			continue
		fi
		dirs+=("$(suites dir "$s")")
		names+=("$s")
	done
	[ ${#dirs[@]} -gt 0 ] || return 1
	if ! make -s "modules-$a" > "$results/$name.build.log" 2>&1; then
		tail -n 20 "$results/$name.build.log"
		tally "make modules-$a" 0 1 0 "FAIL building the modules for $a"
		return
	fi
	start_boot "$name" "$3" "$4 $a: ${names[*]}" -a "$a" "${dirs[@]}"
}

# The guests load the modules built for the kernel they boot (.build/kmod/).
build_test_modules() {
	if ! make -s modules-test > "$results/kmod-build.log" 2>&1; then
		tail -n 20 "$results/kmod-build.log"
		tally "make modules-test" 0 1 0 "FAIL building the modules for the test kernel"
	fi
}

# --kernel: the image must be there; the build for it is a test of its own.
vm_kernel=() kernel_rel=
build_other_modules() {
	local image

	if ! image=$(scripts/kernel-image.sh --check "$kernel"); then
		tally "kernel $kernel" 0 1 0 "FAIL Debian's $kernel image not there (make check-$kernel)"
		return 1
	fi
	vm_kernel=(-k "$image")
	kernel_rel=${image##*/vmlinuz-}
	echo "### modules for ${image##*/vmlinuz-}"
	run_program "cross/test_kmod_headers.sh $kernel" tests/cross/test_kmod_headers.sh "$kernel"
}

if [ "$host_only" -eq 0 ]; then
	if [ -n "$arch" ]; then
		foreign "$arch" ||
			{ echo "run.sh: no foreign guest '$arch' ($(scripts/foreign-archs.sh list | sed 's/ /, /g'))" >&2; exit 2; }
		foreign_boot "$arch" "$arch" 1 "every suite on" ||
			{ echo "run.sh: no suite selected runs on $arch (their settings' ARCHS)" >&2; exit 2; }
		while [ ${#running[@]} -gt 0 ]; do reap_boot; done
	elif [ -n "$kernel" ]; then
		build_other_modules && run_guest_suites
	else
		[ "$debug" = 1 ] || { build_test_modules; run_vm_tests; }
		run_guest_suites
	fi
fi

echo
echo "### summary ($(( $(date +%s) - start )) s)"
for f in "${failures[@]}"; do echo "FAIL $f"; done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]
