# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# A systemd unit's commands, for tests that run them without systemd (a
# guest has none; a host test runs them with stand-ins).
#
#   unit_exec_start UNIT     each ExecStart= command, one a line, for sh -c

# Systemd unescapes $$ to $ (undone here) and %% to %; its own $NAME and
# %x expansion and C-style escapes are not, so the unit uses none.  A
# prefix (-, @, :, +, !) changes how systemd runs a command: it is refused
# rather than handed to the shell as part of the command.
unit_exec_start() {	# unit_exec_start UNIT
	if grep -q '^ExecStart=[-@:+!]' "$1"; then
		echo "unit_exec_start: $1: an ExecStart= prefix this cannot run" >&2
		return 1
	fi
	sed -n 's/^ExecStart=//p' "$1" | sed 's/\$\$/$/g; s/%%/%/g'
}
