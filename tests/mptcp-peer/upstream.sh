#!/bin/bash
# Run one upstream MPTCP selftest (built by build.sh at test time) as is.
# Usage: upstream.sh SCRIPT [ARGS...]
top=${TW_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=$top/.build/mptcp-selftests/net/mptcp
[ -x "$dir/$1" ] || { echo "1..0 # SKIP $1 not built here (tests/mptcp-peer/build.sh in the source tree, TW_ROOT)"; exit 4; }
# The scripts run their helpers as ./NAME and keep temporaries in /tmp.
cd "$dir" || exit 1
exec "$dir/$@"
