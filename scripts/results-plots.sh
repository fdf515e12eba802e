#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make results-plots: the plots of every run kept in Documentation/results/,
# drawn again from its plots.json by its module's analyser (a run is named
# <module>-<date>-<commit>), into .build/results-plots/<run>/.  The raw
# records are never kept, so that file is all there is to draw from.  A run
# without one is named, no failure; a plots.json that cannot be drawn, a
# missing RESULTS or one without runs fails.
#
#   scripts/results-plots.sh [RESULTS [OUTDIR]]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
results=$(realpath -m "${1:-$top/Documentation/results}")
out=$(realpath -m "${2:-$top/.build/results-plots}")
rc=0

if [ ! -d "$results" ]; then
	echo "results-plots: no directory $results" >&2
	exit 1
fi
shopt -s nullglob
runs=("$results"/*/)
if [ ${#runs[@]} -eq 0 ]; then
	echo "results-plots: no runs in $results" >&2
	exit 1
fi

for dir in "${runs[@]}"; do
	dir=${dir%/}
	run=${dir##*/}
	mod=${run%%-*}
	tool=$top/bench/$mod/tw-$mod-analyze
	if [ ! -f "$dir/plots.json" ]; then
		echo "$run: no plots.json, nothing drawn"
	elif [ ! -x "$tool" ]; then
		echo "$run: no analyser bench/$mod/tw-$mod-analyze" >&2
		rc=1
	else
		rm -rf "${out:?}/$run"
		if "$tool" -q --from-plots "$dir/plots.json" -o "$out/$run"; then
			echo "$run: $(find "$out/$run" -name '*.png' | wc -l) plots in ${out#"$top"/}/$run/"
		else
			echo "$run: not drawn" >&2
			rc=1
		fi
	fi
done
exit $rc
