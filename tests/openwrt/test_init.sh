#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The feed's init script (packaging/openwrt/net/timewire/files/timewire.init)
# run as OpenWrt runs it, by a stand-in rc.common (stub/) whose
# functions.sh reads UCI files: the shipped /etc/config/timewire applies
# nothing; fixtures/config/timewire, with every option, becomes exactly
# fixtures/uci.batch, applied with "timewire -batch" before each
# /etc/timewire/*.conf in order, a failing file logged and the next still
# applied; mptcp_qaware loaded and its scheduler set as asked; stop
# deletes the tables the batches create; a disabled global section does
# nothing.  The batch is then read by the tree's own CLI, whose parser
# must accept every line (the module being absent, nothing runs).
# timewire, uname and sysctl are stand-ins that record their calls.  As
# on a router, busybox's sh and tools run it when the host has busybox.
#
# Prints TAP; exit 0 pass, 1 fail.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$root/tests/lib/tap.sh"

feed=$root/packaging/openwrt/net/timewire/files
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/conf" "$tmp/default"
calls=$tmp/calls
# The stand-ins: each call a line of $calls; a batch file named bad.conf fails.
cat > "$tmp/bin/timewire" <<STUB
#!/bin/sh
echo "timewire \$*" >> "$calls"
case \$* in *bad.conf) echo "\$2:1: Error: refused" >&2; exit 1 ;; esac
exit 0
STUB
chmod +x "$tmp/bin/timewire"
# busybox's sh would run its own uname and sysctl: functions come first.
cat > "$tmp/prelude" <<STUB
uname() { echo 6.12.99; }
sysctl() { echo "sysctl \$*" >> "$calls"; }
STUB
cp "$feed/timewire.config" "$tmp/default/timewire"

# OpenWrt's shell and tools are busybox's: the script runs under them
# when this host has busybox, else under sh and the host's tools.
shell="sh"
if command -v busybox >/dev/null; then
	shell="busybox sh"
	for tool in awk tr tail mkdir cat grep sed rm; do
		ln -s "$(command -v busybox)" "$tmp/bin/$tool"
	done
fi

# run_rc ACTION UCI_DIR: the script under the stand-in rc.common.
run_rc() {
	PATH=$tmp/bin:$PATH UCI_CONFIG_DIR=$2 TIMEWIRE=timewire \
		TIMEWIRE_RUN_DIR=$tmp/run TIMEWIRE_CONF_DIR=$tmp/conf TW_PROCD_LOG=$tmp/log \
		TW_RC_PRELUDE=$tmp/prelude $shell "$here/stub/rc.common" "$feed/timewire.init" "$1"
}

# rc ACTION [UCI_DIR]: run_rc from a clean state.
rc() {
	: > "$calls"
	: > "$tmp/log"
	rm -rf "$tmp/run"
	run_rc "$1" "${2:-$here/fixtures/config}"
}

same() {	# same WANT GOT: equal files, the difference shown when not
	diff -u "$1" "$2" > "$tmp/diff" && return 0
	sed 's/^/# /' "$tmp/diff"
	return 1
}

tap_plan 12
tap_diag "the script runs under $shell"

tap_ok "the script parses ($shell -n)" $shell -n "$feed/timewire.init"

rc start "$tmp/default"
tap_ok "the shipped configuration applies nothing and logs nothing" \
	eval '[ ! -s "$tmp/run/uci.batch" ] && [ ! -s "$calls" ] && [ ! -s "$tmp/log" ]'

printf 'tfib create table conf1 capacity 8\n' > "$tmp/conf/a.conf"
printf 'tfib create c2 capacity 8\n' > "$tmp/conf/bad.conf"
printf 'tfib create conf3 capacity 8\n' > "$tmp/conf/c.conf"
printf 'tfib create ignored capacity 8\n' > "$tmp/conf/d.conf.orig"
rc start
tap_ok "every table and entry option becomes its keyword: fixtures/uci.batch" \
	same "$here/fixtures/uci.batch" "$tmp/run/uci.batch"
cat > "$tmp/want" <<EOF
timewire qaware load ko /lib/modules/6.12.99/mptcp_qaware.ko params debug=1
sysctl -w net.mptcp.scheduler=qaware
timewire -batch $tmp/run/uci.batch
timewire -batch $tmp/conf/a.conf
timewire -batch $tmp/conf/bad.conf
timewire -batch $tmp/conf/c.conf
EOF
tap_ok "qaware loaded and its scheduler set, then the UCI batch, then each *.conf in order" \
	same "$tmp/want" "$calls"
logged() { grep -F -- "$1" "$tmp/log" >/dev/null || { tap_diag "not logged: $1"; return 1; }; }
tap_ok "a failing file's error and an entry without mac are logged" \
	eval 'logged "bad.conf:1: Error: refused" && logged "entry cfg09 of table users: user and mac are needed"'

# stop reads what the last start left in the run directory.
: > "$calls"
run_rc stop "$here/fixtures/config"
cat > "$tmp/want" <<EOF
timewire tfib del table users
timewire tfib del table show
timewire tfib del table a b
timewire tfib del table conf1
timewire tfib del table c2
timewire tfib del table conf3
EOF
tap_ok "stop deletes the tables the UCI batch and the *.conf files create" \
	same "$tmp/want" "$calls"

rc triggers
tap_ok "a reload trigger on the timewire configuration" \
	grep -qx "procd_add_reload_trigger timewire" "$tmp/log"

mkdir -p "$tmp/off"
sed "s/option enabled '1'/option enabled '0'/" "$here/fixtures/config/timewire" > "$tmp/off/timewire"
rc start "$tmp/off"
tap_ok "global enabled 0: nothing loaded or applied" eval '[ ! -s "$calls" ]'

printf "config table x\n\toption capacity \"8'\"\n" > "$tmp/off/timewire"
rc start "$tmp/off"
tap_ok "a value holding a quote is refused and logged, not passed on" \
	eval '[ ! -s "$tmp/run/uci.batch" ] && grep -q "a value holds a quote" "$tmp/log"'

# Every word is checked: a quote in an entry's user or a binding's dev
# drops that line alone.
printf "config table x\n\toption dev \"e'0\"\nconfig entry\n\toption table x\n\toption user \"7'\"\n\toption mac 02:00:00:00:00:01\n" > "$tmp/off/timewire"
: > "$tmp/log"
rc start "$tmp/off"
tap_ok "a quote in an entry's user: its line dropped and logged" \
	eval 'grep -qx "tfib create table x" "$tmp/run/uci.batch" &&
		! grep -q "^tfib set" "$tmp/run/uci.batch" &&
		grep -q "entry .*: a value holds a quote" "$tmp/log"'
tap_ok "a quote in a binding's dev: its line dropped and logged" \
	eval '! grep -q "^tfib bind" "$tmp/run/uci.batch" &&
		grep -q "table x: a value holds a quote" "$tmp/log"'

# The tree's CLI reads the batch: with tfib absent, every line must fail
# for that alone (or for a device this host lacks), none for its words.
cli=$root/userspace/timewire/timewire
lines=$(wc -l < "$here/fixtures/uci.batch")
parsed() {
	"$cli" -force -batch "$here/fixtures/uci.batch" > "$tmp/parse" 2>&1
	[ "$(grep -c ':[0-9]*: Error: ' "$tmp/parse")" -eq "$lines" ] || {
		sed 's/^/# /' "$tmp/parse"
		return 1
	}
	! grep ': Error: ' "$tmp/parse" |
		grep -v -e 'module is not loaded' -e 'for dev: no such network device' |
		sed 's/^/# /' | grep .
}
if [ ! -x "$cli" ]; then
	tap_skip "the CLI's parser accepts every line of the batch" "no $cli (make userspace)"
elif [ -d /sys/module/tfib ]; then
	tap_skip "the CLI's parser accepts every line of the batch" \
		"tfib is loaded here: the batch would change this host"
else
	tap_ok "the CLI's parser accepts every line of the batch ($lines lines)" parsed
fi
tap_done
