#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The modules cross-built for 32-bit ARM against Debian's armmp headers of
# the test kernel's version, in a trixie root: test_kmod_headers.sh armhf.
exec "$(dirname "$0")/test_kmod_headers.sh" armhf
