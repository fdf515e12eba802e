#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "timewire tfib" against the loaded tfib module: a table's round trip
# (create, show, set, get, dump, unset, stats, del) with the exact text and
# JSON each prints, the kernel's refusals as one "Error:" line naming the
# keyword at fault, an unprivileged user, another network namespace,
# bind/unbind on a veth, and save: its lines, made again by -batch, save
# alike.
#
# Runs as root in the guest: tests/vm/vm.sh tests/cli/guest
set -u
# shellcheck source=tests/cli/guest/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh" tfib

ns=twfib$$
# A table name that only quoting keeps whole in a batch line.
odd="it's #5"
cleanup() {
	for tb in t1 t2 t3 t4 "$odd"; do "$TW" tfib del "$tb" >/dev/null 2>&1; done
	topo_cleanup
	rm -rf "$t"
}
trap cleanup EXIT

# prints TEXT ARGS...: exit 0, nothing on stderr, stdout exactly TEXT.
prints() {
	local want=$1
	shift
	show "$@"
	[ "$rc" -eq 0 ] && [ ! -s "$t/e" ] && [ "$(cat "$t/o")" = "$want" ] || {
		printf '# wanted:\n%s\n' "$want" | sed '2,$s/^/#   /'
		return 1
	}
}

# json JSON ARGS...: exit 0, stdout the JSON object JSON (compared as data).
json() {
	local want=$1
	shift
	show -j "$@"
	[ "$rc" -eq 0 ] && python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1])) != json.loads(sys.argv[2]))' "$t/o" "$want"
}

# refused RC ERROR ARGS...: exit RC, stderr the one line "Error: ERROR",
# nothing on stdout.
refused() {
	local want=$1 msg=$2
	shift 2
	show "$@"
	[ "$rc" -eq "$want" ] && [ ! -s "$t/o" ] &&
		[ "$(cat "$t/e")" = "Error: $msg" ] || {
		echo "# wanted rc $want, Error: $msg"
		return 1
	}
}

# send_data IFNAME USER N: N data packets of the update header (struct
# tfib_hdr) for USER, out of IFNAME towards its peer.
send_data() {
	python3 - "$1" "$2" "$3" <<'PY'
import socket, struct, sys
ifname, user, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
peer = open("/sys/class/net/%s/iflink" % ifname).read().strip()
src = open("/sys/class/net/%s/address" % ifname).read().strip()
dst = open("/sys/class/net/%s/address"
           % socket.if_indextoname(int(peer))).read().strip()
mac = lambda m: bytes(int(x, 16) for x in m.split(":"))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
for i in range(n):
    hdr = struct.pack(">BBHIIIQQ6sBB", 2, 2, 0, user, i, 0, 0, 0, bytes(6), 16, 0)
    s.send(mac(dst) + mac(src) + struct.pack(">H", 0x88b5) + hdr)
PY
}

# hist_words FILE KEY: the text of histogram KEY of t1's JSON stats in
# FILE, as the CLI prints it: UPPER:COUNT for each bin that is not empty.
hist_words() {
	python3 - "$1" "$2" <<'PY'
import json, sys
bins = json.load(open(sys.argv[1]))["tables"][0][sys.argv[2]]
print(" ".join("%s:%d" % ("inf" if b["upper"] == 2**64 - 1 else b["upper"], b["count"])
               for b in bins if b["count"]))
PY
}

# forwarded N: wait (a minute times TW_TIMEOUT_MULT) for t1 to have
# forwarded N packets.
forwarded() {
	local end=$((SECONDS + 60 * ${TW_TIMEOUT_MULT:-1}))

	while [ $SECONDS -lt $end ]; do
		"$TW" -j tfib stats t1 > "$t/o" 2>/dev/null &&
			js "d['tables'][0]['stats']['forwarded'] >= $1" && return 0
		sleep 0.5
	done
	return 1
}

tai_now() {
	python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_TAI))'
}

# Tables of earlier runs would change every listing below.
for tb in t1 t2 t3 t4 "$odd"; do "$TW" tfib del "$tb" >/dev/null 2>&1; done

tap_plan 50

show status
tap_ok "status: tfib loaded" grep -q '^tfib loaded version 1 id [0-9]' "$t/o"

# --- tables -------------------------------------------------------------------
tap_ok "show without tables: \"no tables\"" prints "no tables" tfib show
tap_ok "show -j without tables: an empty array" json '{"tables": []}' tfib show
tap_ok "create t1 (seqcount, prefetch, tai, 4 buckets): exit 0, silent" \
	prints "" tfib create t1 capacity 8 buckets 4 sync seqcount prefetch clock tai
tap_ok "show t1: its settings, text" \
	prints "t1 capacity 8 buckets 4 sync seqcount prefetch clockid tai entries 0" \
	tfib show t1
tap_ok "show t1: its settings, JSON" \
	json '{"tables": [{"table": "t1", "capacity": 8, "buckets": 4,
		"sync": "seqcount", "prefetch": true, "clockid": "tai",
		"entries": 0}]}' tfib show t1
tap_ok "create with the keyword table, defaults (rcu, spares, mono, buckets)" \
	prints "" tfib create table t2 capacity 5
tap_ok "show (the default command) lists both, by name" \
	prints "t1 capacity 8 buckets 4 sync seqcount prefetch clockid tai entries 0
t2 capacity 5 buckets 8 sync rcu no-prefetch spares 5 clockid mono entries 0" tfib
tap_ok "show t2 -j: prefetch false, spares, clock words" \
	json '{"tables": [{"table": "t2", "capacity": 5, "buckets": 8,
		"sync": "rcu", "prefetch": false, "spares": 5,
		"clockid": "mono", "entries": 0}]}' tfib show t2

# --- entries ------------------------------------------------------------------
tap_ok "set t1 user 7: exit 0, silent" \
	prints "" tfib set t1 user 7 mac 02:00:00:00:00:07 ts 1000 seq 3
tap_ok "get t1 user 7: the tuple, text" \
	prints "t1 user_id 7 mac 02:00:00:00:00:07 ts_ns 1000 seq 3" tfib get t1 user 7
tap_ok "get t1 user 7: the tuple, JSON" \
	json '{"entries": [{"table": "t1", "user_id": 7,
		"mac": "02:00:00:00:00:07", "ts_ns": 1000, "seq": 3}]}' \
	tfib get t1 user 7
tap_ok "set with a seq not after the stored one: refused, stale counted" \
	eval 'refused 1 "the entry'"'"'s seq is as new or newer; force overwrites (attribute seq)" tfib set t1 user 7 mac 02:00:00:00:00:17 seq 3 &&
	      show -j tfib stats t1 && js "d[\"tables\"][0][\"stats\"][\"stale\"] == 1"'
tap_ok "set force rewrites the tuple, even back in serial order" \
	eval 'prints "" tfib set t1 user 7 mac 02:00:00:00:00:17 ts 18446744073709551615 seq 4294967295 force &&
	      prints "t1 user_id 7 mac 02:00:00:00:00:17 ts_ns 18446744073709551615 seq 4294967295" tfib get t1 user 7'
before=$(tai_now)
show tfib set t1 user 4294967295 mac 0A:0b:0C:0d:0E:0f
after=$(tai_now)
show -j tfib get t1 user 4294967295
tap_ok "set without ts or seq: now on the table's clock (tai), seq 0" \
	js "d['entries'][0]['ts_ns'] >= $before and d['entries'][0]['ts_ns'] <= $after and
	    d['entries'][0]['seq'] == 0 and d['entries'][0]['mac'] == '0a:0b:0c:0d:0e:0f'"
ts=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["entries"][0]["ts_ns"])' "$t/o")
show tfib dump t1
tap_ok "dump t1: two lines, one per entry" \
	eval 'test $rc -eq 0 && test "$(sort "$t/o")" = "t1 user_id 4294967295 mac 0a:0b:0c:0d:0e:0f ts_ns $ts seq 0
t1 user_id 7 mac 02:00:00:00:00:17 ts_ns 18446744073709551615 seq 4294967295"'
show -j tfib dump table t1
tap_ok "dump t1 -j: both entries" \
	js 'sorted(e["user_id"] for e in d["entries"]) == [7, 4294967295] and all(e["table"] == "t1" for e in d["entries"])'
tap_ok "show t1 counts 2 entries" \
	eval 'show -j tfib show t1 && js "d[\"tables\"][0][\"entries\"] == 2"'
tap_ok "unset t1 user 7: exit 0, silent" prints "" tfib unset t1 user 7
tap_ok "get of the unset entry: refused, the user named" \
	refused 1 "no such entry (attribute user)" tfib get t1 user 7
tap_ok "unset again: refused alike" \
	refused 1 "no such entry (attribute user)" tfib unset t1 user 7
tap_ok "dump t2 (empty): \"no entries\"" prints "no entries" tfib dump t2

# --- stats ----------------------------------------------------------------------
show -j tfib stats t1
tap_ok "stats t1 -j: inserts 2, updates 1, deletes 1, lookups counted" \
	js 'len(d["tables"]) == 1 and d["tables"][0]["table"] == "t1" and
	    d["tables"][0]["stats"]["inserts"] == 2 and d["tables"][0]["stats"]["updates"] == 1 and
	    d["tables"][0]["stats"]["deletes"] == 1 and d["tables"][0]["stats"]["lookups"] >= 4'
show tfib stats
tap_ok "stats (every table), text: name lines, indented stats lines" \
	eval 'test $rc -eq 0 && test "$(grep -c "^t[12]\$" "$t/o")" -eq 2 &&
	      test "$(grep -c "^  stats lookups [0-9]* misses [0-9]* inserts " "$t/o")" -eq 2'

# --- the kernel's refusals -------------------------------------------------------
tap_ok "create an existing table: refused, table named" \
	refused 1 "a table of this name exists in this namespace (attribute table)" \
	tfib create t1 capacity 8
tap_ok "buckets not a power of two: refused, buckets named" \
	refused 1 "buckets must be a power of two (attribute buckets)" \
	tfib create t3 capacity 8 buckets 3
tap_ok "spares of a bucket table: refused, spares named" \
	refused 1 "spares are for rcu tables only (attribute spares)" \
	tfib create t3 capacity 8 sync bucket spares 4
# unknown_table: every command naming a table refuses t3 alike.
unknown_table() {
	local a
	for a in "show t3" "del t3" "get t3 user 1" "unset t3 user 1" \
		"set t3 user 1 mac 02:00:00:00:00:01" "unbind t3" "stats t3"; do
		# shellcheck disable=SC2086
		refused 1 "no such table in this network namespace (attribute table)" \
			tfib $a || return 1
	done
}
tap_ok "an unknown table, for every command that names one but dump" unknown_table
# The dump's table is looked up in its start, whose extended ack older
# kernels drop: there the error alone comes back.
tap_ok "an unknown table, dump: refused" \
	eval 'show tfib dump t3; test $rc -eq 1 && test ! -s "$t/o"'
tap_ok_since 6.5 "a dump's start reports no extended ack" \
	"an unknown table, dump: the table named" \
	refused 1 "no such table in this network namespace (attribute table)" tfib dump t3
tap_ok "a full table refuses a new entry" \
	eval 'prints "" tfib create t4 capacity 1 sync rwlock &&
	      prints "" tfib set t4 user 1 mac 02:00:00:00:00:01 &&
	      show tfib set t4 user 2 mac 02:00:00:00:00:02 &&
	      test $rc -eq 1 && grep -qx "Error: .*table is full.*" "$t/e" && test "$(wc -l < "$t/e")" -eq 1'

# Reads need no privilege, changes CAP_NET_ADMIN.
if command -v setpriv >/dev/null; then
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
	tap_ok "unprivileged: show and get work" \
		eval 'nobody "$TW" tfib show t1 > "$t/o" && nobody "$TW" tfib get t1 user 4294967295 > "$t/o"'
	tap_ok "unprivileged: create refused, CAP_NET_ADMIN named, exit 1" \
		eval 'nobody "$TW" tfib create t3 capacity 8 > "$t/o" 2> "$t/e"; rc=$?; cat "$t/e";
		      test $rc -eq 1 && test "$(cat "$t/e")" = "Error: cannot create the table: Operation not permitted (CAP_NET_ADMIN is required)"'
else
	tap_skip "unprivileged: show and get work" "no setpriv"
	tap_skip "unprivileged: create refused" "no setpriv"
fi

# Another namespace sees none of these tables.
topo_ns "$ns"
tap_ok "another namespace: no tables, t1 unknown" \
	eval 'ip netns exec "$ns" "$TW" tfib show > "$t/o" && test "$(cat "$t/o")" = "no tables" &&
	      ! ip netns exec "$ns" "$TW" tfib get t1 user 7 2> "$t/e" &&
	      grep -qx "Error: no such table in this network namespace (attribute table)" "$t/e"'

# --- bind and unbind ---------------------------------------------------------------
topo_veth - tfa - tfb
tap_ok "bind to lo: refused, not Ethernet, dev named" \
	refused 1 "not an Ethernet device (attribute dev)" tfib bind t1 dev lo
show tfib bind t1 dev tfa workers 2 control-ring 64 data-ring 128 burst 8 pick scan
if [ "$rc" -eq 1 ] && [ "$(cat "$t/e")" = "Error: forwarding is not available yet" ]; then
	# The forwarder is not in this module yet: its refusal is what binds get.
	forwarding=0
	tap_ok "bind: the module answers that forwarding is not available yet" true
	tap_ok "unbind an unbound table: refused, table named" \
		refused 1 "table is not bound (attribute table)" tfib unbind t1
	tap_skip "bound table shown with its binding" "forwarding not available yet"
	tap_skip "5 data packets from the peer forwarded" "forwarding not available yet"
	tap_skip "stats of a bound table, JSON" "forwarding not available yet"
	tap_skip "stats of a bound table, text" "forwarding not available yet"
	tap_skip "unbind: the binding gone" "forwarding not available yet"
else
	forwarding=1
	tap_ok "bind t1 dev tfa: exit 0, silent" eval 'test $rc -eq 0 && test ! -s "$t/o" && test ! -s "$t/e"'
	tap_ok "bind twice: refused, table named" \
		refused 1 "table is bound already; unbind it first (attribute table)" tfib bind t1 dev tfa
	idx=$(cat /sys/class/net/tfa/ifindex)
	tap_ok "bound table shown with its binding" \
		json '{"tables": [{"table": "t1", "capacity": 8, "buckets": 4,
			"sync": "seqcount", "prefetch": true, "clockid": "tai",
			"entries": 1, "ifindex": '"$idx"', "ifname": "tfa",
			"fwd_mode": "ring", "pick": "scan", "workers": 2,
			"control_ring": 64, "data_ring": 128, "burst": 8}]}' tfib show t1
	send_data tfb 4294967295 5
	tap_ok "5 data packets from the peer forwarded" forwarded 5
	show -j tfib stats t1
	tap_ok "stats of a bound table, JSON: two rings, a writer and 2 workers, every bin" \
		js '[(r["kind"], r["size"]) for r in d["tables"][0]["ring"]] == [("control", 64), ("data", 128)] and
		    sorted(w["kind"] for w in d["tables"][0]["worker"]) == ["control", "data", "data"] and
		    all(h and h[-1]["upper"] == 2**64 - 1 and
			all(set(b) == {"upper", "count"} for b in h) and
			[b["upper"] for b in h] == sorted(b["upper"] for b in h)
			for h in (d["tables"][0]["age_hist"], d["tables"][0]["burst_hist"])) and
		    sum(b["count"] for b in d["tables"][0]["age_hist"]) >= 5'
	cp "$t/o" "$t/stats.json"
	show tfib stats t1
	tap_ok "stats of a bound table, text: ring and worker lines, histograms in one line" \
		eval 'test "$(grep -c "^  ring kind \(control\|data\) size " "$t/o")" -eq 2 &&
		      test "$(grep -c "^  worker index [0-9]* kind " "$t/o")" -eq 3 &&
		      test "$(grep "^  age_hist " "$t/o")" = "  age_hist $(hist_words "$t/stats.json" age_hist)" &&
		      grep -Eqx "  burst_hist( [0-9]+:[0-9]+| inf:[0-9]+)+" "$t/o"'
	tap_ok "unbind: the binding gone" \
		eval 'prints "" tfib unbind t1 &&
		      prints "t1 capacity 8 buckets 4 sync seqcount prefetch clockid tai entries 1" tfib show t1'
fi

# --- save, and -batch making it again ---------------------------------------------
# every_setting: bindings of both modes, entries at the ends of their
# ranges, a table whose name needs quoting.
every_setting() {
	prints "" tfib create "$odd" capacity 2 sync bucket &&
	prints "" tfib set "$odd" user 0 mac 02:00:00:00:00:05 ts 0 seq 4294967295 &&
	prints "" tfib set t2 user 10 mac 02:00:00:00:00:0a ts 6 seq 2 &&
	prints "" tfib set t2 user 9 mac 02:00:00:00:00:09 ts 5 seq 1 || return 1
	[ "$forwarding" -eq 1 ] || return 0
	prints "" tfib bind t1 dev tfa pick scan workers 2 control-ring 64 \
		data-ring 128 burst 8 control-src 02:00:00:00:00:aa,02:00:00:00:00:bb &&
	prints "" tfib bind t2 dev tfb mode inline
}
tap_ok "a table of every kind, entries and bindings set up" every_setting
"$TW" -j tfib show > "$t/before.json"
show tfib save
cp "$t/o" "$t/saved"
# saved_line LINE: LINE is one of the lines saved.
saved_line() {
	grep -qxF -- "$1" "$t/saved" || { echo "# not saved: $1"; return 1; }
}
tap_ok "save: a create of each table, with every setting, in the keywords of create" \
	eval 'test $rc -eq 0 && test ! -s "$t/e" &&
	      test "$(grep -c "^tfib create " "$t/saved")" -eq 4 &&
	      saved_line "tfib create t1 capacity 8 buckets 4 sync seqcount prefetch clock tai" &&
	      saved_line "tfib create t2 capacity 5 buckets 8 sync rcu spares 5 clock mono" &&
	      saved_line "tfib create \"it'"'"'s #5\" capacity 2 buckets 2 sync bucket clock mono"'
# The lines of table t2, by command: its create, its sets, then its bind.
t2_order="create set set"
[ "$forwarding" -eq 1 ] && t2_order="$t2_order bind"
tap_ok "save: a set of each entry, its ts and seq as they stand, after its table's create, by user ID" \
	eval 'test "$(grep -c "^tfib set " "$t/saved")" -eq 5 &&
	      test "$(grep "^tfib set t2 " "$t/saved" | cut -d" " -f5 | paste -sd " ")" = "9 10" &&
	      saved_line "tfib set \"it'"'"'s #5\" user 0 mac 02:00:00:00:00:05 ts 0 seq 4294967295" &&
	      saved_line "tfib set t2 user 9 mac 02:00:00:00:00:09 ts 5 seq 1" &&
	      test "$(grep "^tfib [a-z]* t2 " "$t/saved" | cut -d" " -f2 | paste -sd " ")" = "$t2_order"'
if [ "$forwarding" -eq 1 ]; then
	tap_ok "save: a bind of each bound table, its settings in the keywords of bind" \
		eval 'test "$(grep -c "^tfib bind " "$t/saved")" -eq 2 &&
		      saved_line "tfib bind t1 dev tfa mode ring pick scan workers 2 control-ring 64 data-ring 128 burst 8 control-src 02:00:00:00:00:aa,02:00:00:00:00:bb" &&
		      saved_line "tfib bind t2 dev tfb mode inline"'
else
	tap_skip "save: a bind of each bound table, its settings in the keywords of bind" \
		"forwarding not available yet"
fi
# restore: every table deleted, then made again by -batch from the saved lines.
restore() {
	local tb
	for tb in t1 t2 t4 "$odd"; do prints "" tfib del "$tb" || return 1; done
	prints "no tables" tfib show &&
	prints "" -batch "$t/saved"
}
tap_ok "every table deleted, then made again by -batch from the saved lines: exit 0, silent" restore
show tfib save
tap_ok "saved again: the same lines" \
	eval 'test $rc -eq 0 && { cmp -s "$t/saved" "$t/o" ||
		{ diff "$t/saved" "$t/o" | sed "s/^/#   /"; false; }; }'
"$TW" -j tfib show > "$t/after.json"
tap_ok "shown again: every table as it was" cmp -s "$t/before.json" "$t/after.json"

# --- del -----------------------------------------------------------------------------
del_all() {
	local tb
	for tb in t1 t2 t4 "$odd"; do prints "" tfib del "$tb" || return 1; done
	prints "no tables" tfib show
}
tap_ok "del every table: none left" del_all
tap_done
