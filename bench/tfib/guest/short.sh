#!/bin/bash
# The short grid (make bench-tfib SHORT=1); runs in $TW_OUT/tfib.
exec "$(dirname "$0")/bench.sh" --short "$TW_OUT/tfib"
