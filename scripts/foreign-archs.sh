#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The foreign guests, every architecture besides the host's amd64 that the
# harness boots: the one list the Makefile, tests/run.sh, tests/vm/vm.sh
# and scripts/deps.sh read.  Another architecture is a line here and its
# recipe: a case of scripts/foreign.sh (one of Debian's kernels and
# roots) or a script of its own, as scripts/mips-be.sh.
#
# Usage: scripts/foreign-archs.sh list [SCRIPT]   the architectures, on one
#                                                 line (SCRIPT: those whose
#                                                 recipe it is, foreign.sh)
#        scripts/foreign-archs.sh recipe ARCH     the command of its recipe,
#                                                 its script's name (in
#                                                 scripts/) first
#        scripts/foreign-archs.sh packages ARCH   what scripts/deps.sh ARCH
#                                                 installs
# recipe and packages exit 1, silent, for no foreign guest.
set -euo pipefail

# ARCH | its recipe: a script of scripts/ and its arguments | its Debian
# packages: the cross compiler and C library of its programs, the emulator
# (big-endian MIPS's compiler is everyone's: scripts/deps.sh's APT_PKGS).
table() {
	cat <<-'LIST'
	arm64  | foreign.sh arm64  | gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
	mipsel | foreign.sh mipsel | gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-system-mips
	mips   | mips-be.sh        | qemu-system-mips
	LIST
}

# column ARCH N: the Nth column of ARCH's line; status 1 without one.
column() {
	table | awk -F ' *[|] *' -v arch="$1" -v n="$2" \
		'$1 == arch { print $n; found = 1 } END { exit !found }'
}

case ${1:-} in
list)
	table | awk -F ' *[|] *' -v script="${2:-}" '
		{ split($2, recipe, " ") }
		script == "" || recipe[1] == script { printf "%s%s", sep, $1; sep = " " }
		END { print "" }' ;;
recipe)
	column "${2:-}" 2 ;;
packages)
	column "${2:-}" 3 ;;
*)
	echo "usage: $0 list [SCRIPT] | recipe ARCH | packages ARCH" >&2
	exit 2 ;;
esac
