#!/bin/bash
# The short grid (make bench-fib SHORT=1); runs in $TW_OUT/fib.
exec "$(dirname "$0")/bench.sh" --short "$TW_OUT/fib"
