#!/bin/bash
# Upstream MPTCP data-transfer selftest, unmodified, with its own options
# bounding it for an emulated guest: IPv4 only, 64 KiB transfers, no netem
# delay, loss or reordering.  Every test group of the script still runs.
exec "$(dirname "$0")/upstream.sh" --schedulers mptcp_connect.sh -4 -f 65536 -d 0 -l 0 -r 0 "$@"
