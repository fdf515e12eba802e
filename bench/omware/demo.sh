#!/bin/bash
# The short comparison of make demo; results in $TW_OUT.  make demo then
# prints the summary and draws the IDT error CDF on the host.
exec "$(dirname "$0")/bench.sh" --short "$TW_OUT"
