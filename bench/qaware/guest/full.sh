#!/bin/bash
# The whole benchmark (make bench-qaware); runs in $TW_OUT/qaware.
exec "$(dirname "$0")/bench.sh" --full "$TW_OUT/qaware"
