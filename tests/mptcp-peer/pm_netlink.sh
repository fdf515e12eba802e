#!/bin/bash
# Upstream MPTCP path-manager netlink selftest, unmodified.  Its limit
# checks are its own kernel's (7.3 accepts limits 6.12 refuses as above
# its hard limit): on another series it is skipped with the reason.
here=$(dirname "$0")
top=${TW_ROOT:-$(cd "$here/../.." && pwd)}
series=$(cat "$top/.build/mptcp-selftests/series" 2>/dev/null)
running=$(uname -r | cut -d. -f1,2)
if [ -n "$series" ] && [ "$series" != "$running" ]; then
	echo "1..0 # SKIP pm_netlink.sh of linux-source-$series checks $series's limits, not $running's"
	exit 4
fi
exec "$here/upstream.sh" pm_netlink.sh
