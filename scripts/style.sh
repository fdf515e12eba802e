#!/usr/bin/env bash
# make style: checkpatch (from the target kernel's source, extracted at
# build time) on all kernel C, then sparse through Kbuild (C=2), and
# docutils on the reStructuredText, each if installed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=scripts/modules.sh
. scripts/modules.sh
src=$(scripts/linux-src.sh) || exit 1
rc=0

# The kernel C: the core, the UAPI headers, every registered module and the
# harness's test module; and what the benchmarks share that is written as
# the core is, against its compat.h (bench/lib: the AoI trace, the token
# bucket).
dirs=$(tw_module_dirs | paste -sd '|') || exit 1
mapfile -t files < <(git ls-files -- '*.c' '*.h' | grep -E "^(core|include/uapi|include/tw|tests/harness/twwarn|$dirs)/")
for h in $(git grep -l '#include "compat.h"' -- 'bench/lib/*.h'); do
	files+=("$h")
	[ -f "${h%.h}.c" ] && files+=("${h%.h}.c")
done
echo "style: checkpatch on ${#files[@]} files"
if ! perl "$src/scripts/checkpatch.pl" --no-tree --quiet -f "${files[@]}"; then
	rc=1
fi

if command -v sparse >/dev/null 2>&1; then
	echo "style: sparse (C=2)"
	log=$(make -s modules-test C=2 CF="-D__CHECK_ENDIAN__" 2>&1)
	# Kbuild prints sparse findings as warnings/errors on our sources.
	if echo "$log" | grep -E "^$top/.*: (warning|error):"; then
		rc=1
	fi
else
	echo "style: sparse not installed, skipped (make deps installs it)"
fi
# The documentation: reStructuredText that docutils parses cleanly.
mapfile -t docs < <(git ls-files -- '*.rst')
if /usr/bin/python3 -c 'import docutils' 2>/dev/null; then
	echo "style: docutils on ${#docs[@]} files"
	/usr/bin/python3 scripts/rst-check.py "${docs[@]}" || rc=1
else
	echo "style: docutils not installed, skipped (make deps installs it)"
fi
[ $rc -eq 0 ] && echo "style: clean"
exit $rc
