#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the core's host benchmarks and keep what they printed in a file
# named after the tree's version, headed by the commit, date and machine:
# a figure a page cites must say what it measured.  Commit the file under
# Documentation/results/ to keep it.
#
#   tests/core/bench-record.sh NAME OUTDIR PROGRAM...
#
# Runs every PROGRAM in turn, even after one failed, shows what each
# prints and writes it all to OUTDIR/NAME-VERSION.txt: VERSION as
# scripts/version.sh gives it (VERSION.N~HASH past a release), "-dirty"
# added when tracked files differ from that commit, which then cannot
# reproduce the figures.  Prints the file's path last; exits 1 when a
# program failed, 2 on a usage error.
set -u -o pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 3 ]; then
	echo "usage: $0 NAME OUTDIR PROGRAM..." >&2
	exit 2
fi
name=$1 outdir=$2
shift 2
version=$("$top/scripts/version.sh") || exit 2
commit=none
if git -C "$top" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	commit=$(git -C "$top" rev-parse HEAD)
	git -C "$top" diff --quiet HEAD -- || version=$version-dirty
fi
mkdir -p "$outdir" || exit 2
out=$outdir/$name-$version.txt
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)

(
	echo "# $name, timewire $version, commit $commit"
	echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -srm), $(nproc) CPUs: ${cpu:-unknown}"
	rc=0
	for prog in "$@"; do
		echo "# $prog"
		"$prog" 2>&1 || rc=1
	done
	exit $rc
) | tee "$out"
rc=$?
echo "output: $out"
exit $rc
