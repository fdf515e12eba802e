#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The modules cross-built for 32-bit little-endian MIPS against Debian
# 12's own 6.1 (4kc-malta), the kernel make check-mipsel boots:
# test_kmod_headers.sh mipsel.
exec "$(dirname "$0")/test_kmod_headers.sh" mipsel
