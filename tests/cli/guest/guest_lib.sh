# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# What the CLI's guest tests share: the tool ($TW), a scratch directory
# ($t, the caller removes it), show and js, and tests/lib/topo.sh.  Skips the whole program unless
# it runs as root with the tool built and MODULE loaded.
#
#   . "$(dirname "$0")/guest_lib.sh" MODULE
root=${TW_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
# shellcheck source=tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/tap.sh"
# shellcheck source=tests/lib/topo.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/topo.sh"

TW=$root/userspace/timewire/timewire
[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root"
[ -x "$TW" ] || TW=$(command -v timewire) || tap_skip_all "timewire not built or installed"
grep -qs "^$1 " /proc/modules || tap_skip_all "$1 module not loaded"

t=$(mktemp -d)

# show ARGS...: run timewire, keep and log stdout/stderr, set rc.
show() {
	echo "# \$ timewire $*"
	"$TW" "$@" >"$t/o" 2>"$t/e"
	rc=$?
	sed 's/^/#   /' "$t/o" "$t/e"
	echo "#   rc=$rc"
}

# js EXPR: the Python expression holds for the JSON in $t/o (as d).
js() {
	python3 -c "import json,sys; d=json.load(open('$t/o')); sys.exit(0 if ($1) else 1)"
}
