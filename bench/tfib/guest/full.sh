#!/bin/bash
# The whole grid (make bench-tfib); runs in $TW_OUT/tfib.
exec "$(dirname "$0")/bench.sh" --full "$TW_OUT/tfib"
