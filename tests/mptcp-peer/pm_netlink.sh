#!/bin/bash
# Upstream MPTCP path-manager netlink selftest, unmodified.
exec "$(dirname "$0")/upstream.sh" pm_netlink.sh
