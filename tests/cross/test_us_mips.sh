#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The CLI and the guest suites' programs built statically for 32-bit
# big-endian MIPS and run under qemu-user: test_us_foreign.sh mips.
exec "$(dirname "$0")/test_us_foreign.sh" mips
