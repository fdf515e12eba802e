#!/bin/bash
# Upstream MPTCP two-path transfer selftest, unmodified: 16 MiB each way
# over two netem-shaped paths, for balanced and unbalanced rates and delays.
exec "$(dirname "$0")/upstream.sh" --schedulers simult_flows.sh "$@"
