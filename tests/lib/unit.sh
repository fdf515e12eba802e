# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# A systemd unit's commands, for tests that run them without systemd (a
# guest has none; a host test runs them with stand-ins).
#
#   unit_exec_start UNIT     each ExecStart= command, one a line, for sh -c

# Systemd expands $NAME itself and unescapes $$ to $: undone here, the
# line is the shell's.  Its quoting is the shell's too as long as the
# unit uses no backslash escapes (systemd's C-style ones): a
# "/bin/sh -c '...'" line runs as is.
unit_exec_start() {	# unit_exec_start UNIT
	sed -n 's/^ExecStart=//p' "$1" | sed 's/\$\$/$/g'
}
