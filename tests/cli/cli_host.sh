# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The start of every host test of timewire in this directory: $here,
# $root, tap.sh, $TW (TW_CLI=path overrides the binary), a scratch $tmp
# removed at exit, then cli_lib.sh.  Skips the whole program without the
# binary, or without python3 to check JSON.
#
#   . "$(dirname "$0")/cli_host.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

TW=${TW_CLI:-$root/userspace/timewire/timewire}
[ -x "$TW" ] || tap_skip_all "$TW not built (make -C userspace)"
command -v python3 >/dev/null || tap_skip_all "python3 needed to check JSON"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/cli_lib.sh
. "$here/cli_lib.sh"
