#!/bin/bash
# Upstream MPTCP data-transfer selftest, unmodified.
exec "$(dirname "$0")/upstream.sh" mptcp_connect.sh "$@"
