#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm/kreports.awk judges the kernel's reports for the harness: one
# with a frame of a timewire module is timewire's, whatever the allowlist
# says; another is allowed only if the allowlist names it for that kernel.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/tap.sh"
awkf=$here/../vm/kreports.awk
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# judge LOG [AWK-ARGS...]: the STATUS COUNT lines, signatures cut off.
judge() {
	local log=$1

	shift
	awk -v mods='omware|tfib|mptcp_qaware' -v release=6.12.1-twdebug \
		-v allow="$tmp/allow" "$@" -f "$awkf" "$log" |
		cut -f 1,2 | tr '\t\n' ' ;'
}

# A module's WARN; a core one whose only mention of the module is the
# list of modules linked in; the same KASAN report twice, its allocation in
# a module; a refcount underflow and its WARNING, one report.
cat > "$tmp/log" <<'LOG'
[   12.000001] WARNING: CPU: 1 PID: 234 at omware/main.c:23 omw_send+0x1a/0x30 [omware]
[   12.000002] Modules linked in: omware(O)
[   12.000004] Call Trace:
[   12.000005]  <TASK>
[   12.000006]  ? __warn+0x84/0x130
[   12.000007]  omw_send+0x1a/0x30 [omware]
[   12.000008]  </TASK>
[   12.000009] ---[ end trace 0000000000000000 ]---
[   13.000001] WARNING: CPU: 0 PID: 9 at net/core/dev.c:99 dev_close+0x1/0x2
[   13.000002] Modules linked in: omware(O) tfib(O)
[   13.000004] Call Trace:
[   13.000005]  <TASK>
[   13.000006]  dev_close+0x1/0x2
[   13.000007]  </TASK>
[   14.000000] BUG: KASAN: slab-use-after-free in dev_get+0x12/0x40
[   14.000001] Call Trace:
[   14.000002]  <TASK>
[   14.000003]  dev_get+0x12/0x40
[   14.000004]  </TASK>
[   14.000005] Allocated by task 12:
[   14.000006]  tfib_new+0x1/0x3 [tfib]
[   14.000007] ==================================================================
[   15.000000] BUG: KASAN: slab-use-after-free in dev_get+0x14/0x40
[   15.000001] Call Trace:
[   15.000002]  <TASK>
[   15.000003]  dev_get+0x14/0x40
[   15.000004]  </TASK>
[   15.000005] Allocated by task 13:
[   15.000006]  tfib_new+0x1/0x3 [tfib]
[   15.000007] ==================================================================
[   16.000000] refcount_t: underflow; use-after-free.
[   16.000001] WARNING: CPU: 0 PID: 1 at lib/refcount.c:28 refcount_warn_saturate+0x1/0x2
[   16.000002] Call Trace:
[   16.000003]  <TASK>
[   16.000004]  refcount_warn_saturate+0x1/0x2
[   16.000005]  neigh_destroy+0x1/0x2
[   16.000006]  </TASK>
LOG
# kmemleak: a core leak, and one whose allocating module is gone.
cat > "$tmp/leaks" <<'LOG'
unreferenced object 0xffff888003a4c000 (size 64):
  backtrace (crc 0):
    [<ffffffff81234567>] kmemleak_alloc+0x4a/0x80
    [<ffffffff81234567>] acpi_os_alloc+0x1/0x2
unreferenced object 0xffff888003a4d000 (size 128):
  backtrace (crc 0):
    [<ffffffff81234567>] __kmalloc_noprof+0x1/0x2
    [<ffffffffc0234567>] 0xffffffffc0234567
    [<ffffffff81234567>] do_one_initcall+0x1/0x2
LOG

# A device held: the wait and the holder's stack, one report.
cat > "$tmp/held" <<'LOG'
[  389.506436] unregister_netdevice: waiting for owt0 to become free. Usage count = 2
[  389.508220] ref_tracker: owt0@0000000019551151 has 1/1 users at
[  389.508220]      netdev_get_by_index+0x5a/0x80
[  389.508220]      omw_session_create+0x329/0x1160 [omware]
[  389.508220]      genl_rcv_msg+0x439/0x700
LOG

tap_plan 9
: > "$tmp/allow"
tap_is "a module frame is timewire's; other reports are others; repeats counted" \
	"timewire 1;other 1;timewire 2;other 1;" "$(judge "$tmp/log")"
printf '# core\n*\tat net/core/dev\\.c:N dev_close @ dev_close\tcore, seen once\n' > "$tmp/allow"
printf '*\tKASAN: .* @ dev_get\ttried: a module frame wins\n' >> "$tmp/allow"
printf '6.12.1-twdebug\trefcount_t: underflow.* / WARNING: .*lib/refcount\\.c.* @ neigh_destroy\tneigh\n' >> "$tmp/allow"
tap_is "the allowlist allows others, never a timewire report" \
	"timewire 1;allowed 1;timewire 2;allowed 1;" "$(judge "$tmp/log")"
sed -i 's/^6\.12\.1-twdebug/6.12.2-twdebug/' "$tmp/allow"
tap_is "an allowlist line for another kernel allows nothing" \
	"timewire 1;allowed 1;timewire 2;other 1;" "$(judge "$tmp/log")"
printf '*\tat net/core/dev\\.c\n' > "$tmp/allow"
tap_is "an allowlist line without a reason allows nothing" \
	"timewire 1;other 1;timewire 2;other 1;" "$(judge "$tmp/log")"
: > "$tmp/allow"
tap_is "kmemleak: an address in module space is not timewire's by default" \
	"other 1;other 1;" "$(judge "$tmp/leaks")"
tap_is "kmemleak: with modspace=1 it is (the debug kernel has no other module)" \
	"other 1;timewire 1;" "$(judge "$tmp/leaks" -v modspace=1)"
: > "$tmp/allow"
tap_is "a netdev held at unregister: one report, timewire's by its holder" \
	"timewire 1;" "$(judge "$tmp/held")"
sig=$(awk -v mods=omware -v release=r -f "$awkf" "$tmp/log" | sed -n 4p | cut -f 3)
tap_is "a signature: the first lines without numbers, then the first frames" \
	"refcount_t: underflow; use-after-free. / WARNING: CPU: N PID: N at lib/refcount.c:N refcount_warn_saturate @ neigh_destroy" \
	"$sig"
# The modules are the caller's to name (from modules.list): no default.
out=$(awk -v release=r -f "$awkf" "$tmp/log" 2>&1)
tap_is "without mods: exit 2 and a usage line, no verdict" \
	"2 kreports.awk: -v mods=NAME|... is required" "$? $out"
tap_done
