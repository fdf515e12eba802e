#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sched_ip.sh on the build machine, in front of a stand-in for ip that
# logs its arguments: the schedulers come in turn for a new netns and for
# every mptcp_connect, everything else passes through untouched, and a
# scheduler that cannot be selected fails the command.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/ip" <<'EOF'
#!/bin/sh
echo "$*" >> "${0%/*}/calls"
case "$*" in *scheduler=broken*) exit 1 ;; esac
EOF
chmod +x "$work/ip"
echo 0 > "$work/next"
export TW_REAL_IP=$work/ip TW_SCHEDS="default qaware broken" TW_SCHED_STATE=$work

# ip ARGS...: through the wrapper; its fd 9 log goes to $work/log.
ip() { sh "$here/sched_ip.sh" "$@" 9>> "$work/log"; }
# called LINE: the stand-in was called with exactly these arguments.
called() { grep -qxF "$1" "$work/calls"; }

tap_plan 9
tap_ok "netns add runs" ip netns add nsA
tap_ok "the new netns gets the first scheduler" \
	called "netns exec nsA sysctl -q -w net.mptcp.scheduler=default"
tap_ok "mptcp_connect starts" ip netns exec nsA ./mptcp_connect -p 1
tap_ok "as it was called" called "netns exec nsA ./mptcp_connect -p 1"
tap_ok "mptcp_connect gets the next one" \
	called "netns exec nsA sysctl -q -w net.mptcp.scheduler=qaware"
tap_ok "other commands pass through" ip -n nsA link set lo up
tap_ok "and select no scheduler" test "$(cat "$work/next")" = 2
tap_not "a scheduler that cannot be selected fails the program" \
	ip netns exec nsA ./mptcp_connect -p 2
tap_ok "each choice is logged" \
	test "$(cut -d' ' -f5- "$work/log")" = "$(printf '%s\n' default qaware 'cannot select broken')"
tap_done
