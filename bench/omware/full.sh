#!/bin/bash
# The whole benchmark grid (make bench-omware); results in $TW_OUT.
exec "$(dirname "$0")/bench.sh" --full "$TW_OUT"
