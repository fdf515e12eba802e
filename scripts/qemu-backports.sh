#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch the QEMU of bookworm-backports (10.0) for amd64 guests, without
# installing it: qemu-system-x86 and the packages of the same build it
# runs with (its modules, its firmware, the seabios it asks for), unpacked
# with dpkg-deb into
#   ${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}/qemu-<major.minor>/
# The host's QEMU, which make check uses, stays as it is.  A finished tree
# has a 'done' stamp (the version): a second run only prints the path.
#
# Usage: scripts/qemu-backports.sh
# Prints the path of its qemu-system-x86_64 on stdout, for
# TW_QEMU=PATH tests/vm/vm.sh (which gives it its own modules and
# firmware); what it does goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/debian-archive.sh
. "$here/debian-archive.sh"

suite=bookworm-backports
tw_apt_suite "$suite" amd64
version=$(apt-cache policy qemu-system-x86 | awk '/Candidate:/ { print $2 }')
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
	echo "qemu-backports: $suite has no qemu-system-x86" >&2
	exit 1
fi
# 1:10.0.2+ds-2+deb13u1~bpo12+1 -> 10.0
series=$(sed -E 's/^[0-9]+://; s/^([0-9]+\.[0-9]+).*/\1/' <<< "$version")
dir=$(tw_cache_dir)/qemu-$series
bin=$dir/usr/bin/qemu-system-x86_64
if [ "$(cat "$dir/done" 2>/dev/null)" != "$version" ]; then
	seabios=$(apt-cache policy seabios | awk '/Candidate:/ { print $2 }')
	echo "qemu-backports: unpacking QEMU $version into $dir" >&2
	rm -rf "$dir"
	tw_deb_unpack "$dir" qemu-system-x86="$version" qemu-system-common="$version" \
		qemu-system-data="$version" seabios="$seabios"
	QEMU_MODULE_DIR=$dir/usr/lib/x86_64-linux-gnu/qemu "$bin" --version >&2
	echo "$version" > "$dir/done"
fi
echo "$bin"
