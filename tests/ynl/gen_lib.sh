# shellcheck shell=bash
# The setup of the host tests of the specs and what they generate
# (test_spec.sh, test_nlgen.sh, test_kgen.sh): the tree, TAP, the module
# registry, the Python the generators run with, a scratch directory and a
# log.  make deps (scripts/deps.sh) installs all they need, so a missing
# piece fails the test: a skip would hide a check that no longer runs.
#
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/gen_lib.sh"

top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=scripts/modules.sh
. "$top/scripts/modules.sh"

py=${YNL_PYTHON:-/usr/bin/python3}
cc=${CC:-cc}

# need_python MODULE...: $py imports every MODULE (Debian's python3-MODULE).
need_python() {
	local m

	for m in "$@"; do
		"$py" -c "import $m" 2>/dev/null ||
			tap_fail_all "$py cannot import $m: run make deps (python3-$m)"
	done
}

# need_cc: a C compiler.
need_cc() {
	command -v "$cc" >/dev/null ||
		tap_fail_all "no C compiler $cc: run make deps (build-essential)"
}

# need_ynl: src, the kernel source scripts/linux-src.sh extracts, with the
# ynl code generator the tables are pinned to.
need_ynl() {
	src=$("$top/scripts/linux-src.sh") ||
		tap_fail_all "no kernel source: run make deps (linux-source-6.12)"
	[ -f "$src/tools/net/ynl/ynl-gen-c.py" ] ||
		tap_fail_all "no ynl-gen-c.py in $src: linux-source-6.12 is needed"
}

specs=("$top"/Documentation/netlink/specs/*.yaml)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/log
# show: the start of the log, as diagnostics.
show() { sed 's/^/# /' "$log" | head -n 20; }
