#!/bin/bash
# The short comparison of make demo; results in $TW_OUT.
exec "$(dirname "$0")/bench.sh" --short "$TW_OUT"
