#!/bin/bash
# Upstream MPTCP path-manager netlink selftest, unmodified.  Its limit
# checks are its own kernel's (7.3 accepts limits 6.12 refuses as above
# its hard limit): upstream.sh runs the build of the running kernel's
# series, and skips, naming the build, when there is none.
exec "$(dirname "$0")/upstream.sh" pm_netlink.sh
