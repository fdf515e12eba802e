#!/bin/bash
# The short benchmark (make bench-qaware SHORT=1); runs in $TW_OUT/qaware.
exec "$(dirname "$0")/bench.sh" --short "$TW_OUT/qaware"
