# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers of the guest benchmarks (tfib-bench, qaware-bench), sourced
# after tap.sh.  The host follows $progress (make bench-*), which the
# benchmark sets before it calls say.

# The order seed: TW_BENCH_SEED, else a random one (printed, so that
# TW_BENCH_SEED=N repeats the run's order).
bench_seed=${TW_BENCH_SEED:-$(( $(od -An -N2 -tu2 /dev/urandom) ))}

say() {	# say TEXT: a progress line, on the TAP output and for the host
	echo "# $*"
	echo "$(date -u +%H:%M:%S) $*" >> "$progress"
}

# shuffle SEED: stdin's words, one a line, in a seeded random order.
# /usr/bin/python3: not a wrapper that looks the version up at each start
# (slow under emulation).
shuffle() {
	/usr/bin/python3 -c 'import random, sys
lines = sys.stdin.read().split()
random.Random(int(sys.argv[1])).shuffle(lines)
print("\n".join(lines))' "$1"
}

# bench_args "$@": [--short|--full] OUTDIR into $mode (full by default)
# and $out; -h prints the program's header comment.
bench_args() {
	mode=full
	case "${1:-}" in
	--short) mode=short; shift ;;
	--full) shift ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3' "$0" |
			sed 's/^# \{0,1\}//'; exit 0 ;;
	esac
	out=${1:-}
	[ -n "$out" ] || { echo "usage: $0 [--short|--full] OUTDIR" >&2; exit 1; }
}
