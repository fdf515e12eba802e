#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The CLI and the guest suites' programs cross-built for mipsel and run
# under qemu-user: test_us_foreign.sh mipsel.
exec "$(dirname "$0")/test_us_foreign.sh" mipsel
