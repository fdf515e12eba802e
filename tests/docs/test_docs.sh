#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation of this tree, checked by scripts/doc-check.py: one TAP
# line per check, each failure saying what to fix.
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/../../scripts/doc-check.py" --root "$here/../.."
