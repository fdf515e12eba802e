#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The modules built against the newest 7.x kernel Debian serves
# (trixie-backports), in a trixie root: test_kmod_headers.sh 7.
exec "$(dirname "$0")/test_kmod_headers.sh" 7
