#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sched_connect.sh on the build machine, in front of a stand-in for
# mptcp_connect that logs its arguments, with a file for the sysctl: the
# schedulers come in turn, one per run, the program gets its arguments
# untouched, and a scheduler that cannot be selected fails the run before
# the program starts.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/real" <<'STANDIN'
#!/bin/sh
echo "$#: $* with $(cat "${0%/*}/knob")" >> "${0%/*}/calls"
STANDIN
chmod +x "$work/real"
echo 0 > "$work/next"
export TW_REAL_CONNECT=$work/real TW_SCHEDS="default qaware rr" \
	TW_SCHED_STATE=$work TW_SCHED_SYSCTL=$work/knob

# connect ARGS...: through the wrapper; its fd 9 log goes to $work/log.
connect() { sh "$here/sched_connect.sh" "$@" 9>> "$work/log"; }
# called LINE: the stand-in was called with exactly this.
called() { grep -qxF -- "$1" "$work/calls"; }

tap_plan 8
tap_ok "a listener runs" connect -l -p 1 0.0.0.0
tap_ok "with the first scheduler and its arguments" \
	called "4: -l -p 1 0.0.0.0 with default"
tap_ok "a connector runs" connect -p 1 '10.0.1.1 x'
tap_ok "with the next one, an argument with a space intact" \
	called "3: -p 1 10.0.1.1 x with qaware"
connect -p 2 && connect -p 3
tap_ok "the list wraps around" called "2: -p 3 with default"
tap_not "a scheduler that cannot be selected fails the run" \
	env TW_SCHED_SYSCTL="$work/missing/knob" sh "$here/sched_connect.sh" \
	-p 4 9>> "$work/log"
tap_ok "and the program does not start" test "$(grep -c . "$work/calls")" = 4
tap_ok "each choice is logged" test "$(sed 's/.*: //' "$work/log")" = \
	"$(printf '%s\n' default qaware rr default 'cannot select qaware')"
tap_done
