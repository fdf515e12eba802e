#!/bin/bash
# The whole grid (make bench-fib); runs in $TW_OUT/fib.
exec "$(dirname "$0")/bench.sh" --full "$TW_OUT/fib"
