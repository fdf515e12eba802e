#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# topo.sh on the build machine, as no root: ip, tc, sysctl and ethtool are
# stand-ins that log their command lines (and fail one that matches
# $STUB_FAIL), so each case compares the commands the library ran, its
# cleanup at exit included, with the ones it must run.  Bad arguments run
# nothing.  Then the rule it exists for: no test program under tests/ or
# bench/ makes a namespace or a veth by hand, and one with an EXIT trap of its
# own that makes them through topo.sh calls topo_cleanup.
here=$(cd "$(dirname "$0")" && pwd)
tests=$(cd "$here/.." && pwd)
bench=$(cd "$tests/../bench" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for c in ip tc sysctl ethtool; do
	cat > "$tmp/bin/$c" <<'EOF'
#!/bin/sh
echo "${0##*/} $*" >> "$STUB_LOG"
case "${0##*/} $*" in ${STUB_FAIL:-"no such command"}) exit 1 ;; esac
exit 0
EOF
	chmod +x "$tmp/bin/$c"
done
export STUB_LOG=$tmp/log

# run SCRIPT: SCRIPT in a shell that sourced topo.sh, the stand-ins first
# on PATH; prints the commands logged (at its exit too), then "status N".
run() {
	: > "$STUB_LOG"
	PATH=$tmp/bin:$PATH bash -c ". '$here/topo.sh'; $1" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	cat "$STUB_LOG"
	echo "status $rc"
}

# is DESC SCRIPT WANT: run SCRIPT, its log and status exactly WANT.
is() {
	local got

	got=$(run "$2")
	[ "$got" = "$3" ] || diff <(echo "$3") <(echo "$got") | sed 's/^/# /'
	tap_ok "$1" test "$got" = "$3"
}

# refused DESC SCRIPT: status 2, a usage line, nothing run.
refused() {
	local got

	got=$(run "$2")
	grep -q '^usage: topo_' "$tmp/err" || got+=" (no usage line)"
	[ "$got" = "status 2" ] || echo "$got" | sed 's/^/# /'
	tap_ok "$1" test "$got" = "status 2"
}

# Test programs that make a namespace or a veth without topo.sh.
by_hand() {
	grep -rlE --include='*.sh' 'netns add|type veth' "$tests" "$bench" |
		grep -vE "^$tests/lib/(topo|test_topo)\.sh$"
}

# Functions that make namespaces or veths: topo.sh's and those of the
# suites' sourced libraries (no #! line) that call them (omw_veth).
makers() {
	local f

	echo "topo_ns topo_veth topo_nicpair topo_mptcp"
	while read -r f; do
		head -n 1 "$f" | grep -q '^#!' && continue
		awk '/^[a-z_0-9]+\(\) *\{/ { f = $1; sub(/\(\).*/, "", f) }
			f && /(^|[^a-z_])topo_(ns|veth|nicpair|mptcp) / { print f; f = "" }
			/^}/ { f = "" }' "$f"
	done < <(find "$tests" "$bench" -name '*.sh' ! -path "$tests/lib/topo.sh")
}

# Programs with an EXIT trap of their own that make namespaces or veths
# and never call topo_cleanup.
leaky() {
	local re f

	re=$(makers | tr ' ' '\n' | sort -u | paste -sd '|')
	for f in $(grep -rlE --include='*.sh' '^[[:space:]]*trap [^-].* EXIT' "$tests" "$bench"); do
		[ "$f" = "$here/test_topo.sh" ] && continue
		grep -qE "(^|[^a-z_])($re)( |;|$)" "$f" && ! grep -q topo_cleanup "$f" && echo "$f"
	done
}

tap_plan 19

is "topo_ns: each namespace made with lo up, deleted at exit" \
	'topo_ns twa twb' "ip netns add twa
ip -n twa link set dev lo up
ip netns add twb
ip -n twb link set dev lo up
ip netns pids twa
ip netns del twa
ip netns pids twb
ip netns del twb
status 0"
STUB_FAIL="ip netns add twb" is "topo_ns: fails with the namespace it could not make, deletes the others" \
	'topo_ns twa twb twc' "ip netns add twa
ip -n twa link set dev lo up
ip netns add twb
ip netns pids twa
ip netns del twa
status 1"
is "topo_ns: keeps the program's own EXIT trap, which calls topo_cleanup" \
	'trap "echo own >> \$STUB_LOG; topo_cleanup" EXIT; topo_ns twa; topo_ns twa2' "ip netns add twa
ip -n twa link set dev lo up
ip netns add twa2
ip -n twa2 link set dev lo up
own
ip netns pids twa
ip netns del twa
ip netns pids twa2
ip netns del twa2
status 0"
refused "topo_ns: no name, an empty one or - refused" \
	'topo_ns || [ $? -ne 2 ] || topo_ns twa "" || [ $? -ne 2 ] || topo_ns -; exit $?'

is "topo_veth: an end here, one in a namespace; addresses, MACs, no IPv6; this end deleted first" \
	'topo_ns twb && topo_veth - tw0 twb tw1 addr 10.9.0.1/24 10.9.0.2/24 mac 02:00:00:00:00:01 02:00:00:00:00:02 noipv6' \
	"ip netns add twb
ip -n twb link set dev lo up
ip link add tw0 address 02:00:00:00:00:01 type veth peer name tw1 address 02:00:00:00:00:02 netns twb
sysctl -qw net/ipv6/conf/tw0/disable_ipv6=1
ip netns exec twb sysctl -qw net/ipv6/conf/tw1/disable_ipv6=1
ip addr add 10.9.0.1/24 dev tw0
ip -n twb addr add 10.9.0.2/24 dev tw1
ip link set dev tw0 up
ip -n twb link set dev tw1 up
ip link del dev tw0
ip netns pids twb
ip netns del twb
status 0"
is "topo_veth: both ends in one namespace" \
	'topo_veth twa s0 twa f0' "ip -n twa link add s0 type veth peer name f0 netns twa
ip -n twa link set dev s0 up
ip -n twa link set dev f0 up
status 0"
is "topo_veth: an end in a namespace, one here: made here, named here" \
	'topo_veth twa s1 - f1 mac 02:00:00:00:00:01 02:00:00:00:00:02' \
	"ip link add f1 address 02:00:00:00:00:02 type veth peer name s1 address 02:00:00:00:00:01 netns twa
ip -n twa link set dev s1 up
ip link set dev f1 up
ip link del dev f1
status 0"
is "topo_veth: both ends here, the pair deleted at exit" \
	'topo_veth - twa - twb' "ip link add twa type veth peer name twb
ip link set dev twa up
ip link set dev twb up
ip link del dev twa
status 0"
refused "topo_veth: three arguments refused" 'topo_veth twa s0 twb'
refused "topo_veth: an option it does not know refused" 'topo_veth twa s0 twb f0 mtu 9000'
refused "topo_veth: one address refused" 'topo_veth twa s0 twb f0 addr 10.9.0.1/24'
refused "topo_vlan: IDs 0, 4095 and x refused" \
	'topo_vlan twa s0 0 || [ $? -ne 2 ] || topo_vlan twa s0 4095 || [ $? -ne 2 ] || topo_vlan twa s0 x; exit $?'
refused "topo_nicpair: the initial namespace refused" \
	'topo_nicpair_dev1=eth1 topo_nicpair_dev2=eth2; topo_nicpair - c1 twb s1'

is "topo_mptcp: two veth paths, delays on the server's side, its second address announced" \
	'topo_mptcp qc qs delay 10 20' "ip netns add qc
ip -n qc link set dev lo up
ip netns add qs
ip -n qs link set dev lo up
ip -n qc link add c1 type veth peer name s1 netns qs
ip -n qc link set dev c1 up
ip -n qs link set dev s1 up
ip -n qc addr add 10.0.1.1/24 dev c1
ip -n qs addr add 10.0.1.2/24 dev s1
tc -n qs qdisc add dev s1 root netem delay 10ms limit 1000
ip -n qc link add c2 type veth peer name s2 netns qs
ip -n qc link set dev c2 up
ip -n qs link set dev s2 up
ip -n qc addr add 10.0.2.1/24 dev c2
ip -n qs addr add 10.0.2.2/24 dev s2
tc -n qs qdisc add dev s2 root netem delay 20ms limit 1000
ip -n qs mptcp limits set subflows 2 add_addr_accepted 0
ip -n qc mptcp limits set subflows 2 add_addr_accepted 2
ip -n qs mptcp endpoint add 10.0.2.2 dev s2 signal
ip netns pids qc
ip netns del qc
ip netns pids qs
ip netns del qs
status 0"
is "topo_mptcp: path 1 over a VLAN on the NIC pair" \
	'topo_nicpair_dev1=eth1 topo_nicpair_dev2=eth2; topo_mptcp qc qs nic vlan 10 delay 5 15 && topo_links=() topo_namespaces=()' \
	"ip netns add qc
ip -n qc link set dev lo up
ip netns add qs
ip -n qs link set dev lo up
ip link set dev eth1 netns qc name c1
ip link set dev eth2 netns qs name s1
ip -n qc link set dev c1 up
ip -n qs link set dev s1 up
ip -n qc link add link c1 name c1.10 type vlan id 10
ip -n qc link set dev c1.10 up
ip -n qs link add link s1 name s1.10 type vlan id 10
ip -n qs link set dev s1.10 up
ip -n qc addr add 10.0.1.1/24 dev c1.10
ip -n qs addr add 10.0.1.2/24 dev s1.10
tc -n qs qdisc add dev s1.10 root netem delay 5ms limit 1000
ip -n qc link add c2 type veth peer name s2 netns qs
ip -n qc link set dev c2 up
ip -n qs link set dev s2 up
ip -n qc addr add 10.0.2.1/24 dev c2
ip -n qs addr add 10.0.2.2/24 dev s2
tc -n qs qdisc add dev s2 root netem delay 15ms limit 1000
ip -n qs mptcp limits set subflows 2 add_addr_accepted 0
ip -n qc mptcp limits set subflows 2 add_addr_accepted 2
ip -n qs mptcp endpoint add 10.0.2.2 dev s2 signal
status 0"
is "topo_mptcp: through a router, routed, no GSO from the client" \
	'topo_mptcp qc qs via qr nogso && topo_links=() topo_namespaces=()' \
	"ip netns add qc
ip -n qc link set dev lo up
ip netns add qs
ip -n qs link set dev lo up
ip netns add qr
ip -n qr link set dev lo up
ip netns exec qr sysctl -qw net.ipv4.ip_forward=1
ip -n qc link add c1 type veth peer name a1 netns qr
ip -n qc link set dev c1 up
ip -n qr link set dev a1 up
ip -n qc addr add 10.0.1.1/24 dev c1
ip -n qr addr add 10.0.1.2/24 dev a1
ip -n qr link add b1 type veth peer name d1 netns qs
ip -n qr addr add 10.1.1.1/24 dev b1
ip -n qs addr add 10.1.1.2/24 dev d1
ip -n qr link set dev b1 up
ip -n qs link set dev d1 up
ip -n qc route add 10.1.1.0/24 via 10.0.1.2 dev c1
ip -n qs route add 10.0.1.0/24 via 10.1.1.1 dev d1
ip netns exec qc ethtool -K c1 tso off gso off
ip -n qc link add c2 type veth peer name a2 netns qr
ip -n qc link set dev c2 up
ip -n qr link set dev a2 up
ip -n qc addr add 10.0.2.1/24 dev c2
ip -n qr addr add 10.0.2.2/24 dev a2
ip -n qr link add b2 type veth peer name d2 netns qs
ip -n qr addr add 10.1.2.1/24 dev b2
ip -n qs addr add 10.1.2.2/24 dev d2
ip -n qr link set dev b2 up
ip -n qs link set dev d2 up
ip -n qc route add 10.1.2.0/24 via 10.0.2.2 dev c2
ip -n qs route add 10.0.2.0/24 via 10.1.2.1 dev d2
ip netns exec qc ethtool -K c2 tso off gso off
ip -n qs mptcp limits set subflows 2 add_addr_accepted 0
ip -n qc mptcp limits set subflows 2 add_addr_accepted 2
ip -n qs mptcp endpoint add 10.1.2.2 dev d2 signal
status 0"
refused "topo_mptcp: an unknown option, a lone delay and VLAN x refused" \
	'topo_mptcp qc qs fast || [ $? -ne 2 ] || topo_mptcp qc qs delay 10 ||
	 [ $? -ne 2 ] || topo_mptcp qc qs vlan x; exit $?'


hand=$(by_hand)
[ -z "$hand" ] || echo "$hand" | sed 's/^/# by hand: /'
tap_ok "no test program makes a namespace or a veth by hand" test -z "$hand"
leaks=$(leaky)
[ -z "$leaks" ] || echo "$leaks" | sed 's/^/# no topo_cleanup: /'
tap_ok "programs with an EXIT trap of their own call topo_cleanup" test -z "$leaks"
tap_done
