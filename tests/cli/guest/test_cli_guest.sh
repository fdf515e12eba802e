#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The timewire CLI against the loaded omware module: send (every schedule,
# both formats, both transmit paths, hybrid mode), train, pair, show, the
# CSV report, the kernel's refusals as "Error:" lines with the attribute
# at fault, sessions of another process, and SIGINT.  Asserts counts, order
# and "never early", never timing (the guest is emulated).
#
#   init netns:  twa (sender) ---- veth ---- twb (AF_PACKET receiver)
#
# Runs as root in the guest: tests/vm/vm.sh tests/cli/guest
set -u
# shellcheck source=tests/cli/guest/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh" omware

cleanup() {
	topo_cleanup
	rm -rf "$t"
}
trap cleanup EXIT

# rx IFNAME N SECONDS: wait for N distinct probes on IFNAME; print
# "distinct bad-magic min-seq max-seq".  Creates $t/ready once listening.
rx() {
	python3 - "$1" "$2" "$3" "$t/ready" <<'PY'
import socket, struct, sys, time
ifname, want, secs, ready = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
s.bind((ifname, 0))
s.settimeout(0.5)
open(ready, "w").write("ready\n")
seqs, bad, end = set(), 0, time.time() + secs
while time.time() < end and len(seqs) < want:
    try:
        f = s.recv(4096)
    except socket.timeout:
        continue
    ip = f[14:]
    if len(ip) < 40 or ip[9] != 17:
        continue
    if ip[28:32] == b"TWIR" and len(ip) >= 48:
        seq = struct.unpack(">I", ip[32:36])[0]
    elif ip[28:30] == b"tw":
        seq = struct.unpack(">I", ip[32:36])[0]
    else:
        bad += 1
        continue
    seqs.add(seq)
print(len(seqs), bad, min(seqs, default=-1), max(seqs, default=-1))
PY
}

topo_veth - twa - twb || {
	echo "Bail out! cannot create the veth pair"
	exit "$KSFT_FAIL"
}

tap_plan 22


show status
tap_ok "status: omware loaded" grep -q '^omware loaded version 1 id' $t/o
show omware show
tap_ok "show exits 0" test $rc -eq 0

rx twb 50 60 >$t/rx &
rxp=$!
while [ ! -s $t/ready ]; do sleep 0.1; done
show omware send dev twa count 50 schedule periodic 1000 report-file $t/r.csv
tap_ok "send periodic: exit 0, 50 sent" eval 'test $rc -eq 0 && grep -q "sent 50 " $t/o && grep -q "missing 0 " $t/o'
wait $rxp
echo "# rx: $(cat $t/rx)"
tap_ok "receiver saw 50 probes seq 0..49" test "$(cat $t/rx)" = "50 0 0 49"
head -3 $t/r.csv | sed 's/^/#   /'
tap_ok "csv: 50 sent rows, never early" awk -F, 'NR > 1 { n++; if ($5 != "sent" || $3 < $2 || $4 != $3 - $2) bad++ } END { exit !(n == 50 && !bad) }' $t/r.csv

show -j omware send dev twa count 200 size 1000 schedule poisson 200 seed 3 mode hybrid
tap_ok "send -j poisson hybrid: all 200 sent, none early" js 'd["sent"]==200 and d["missing"]==0 and d["early"]==0 and d["error_ns"]["count"]==200 and d["seed"]==3'

show omware send dev twa count 20 schedule gamma 2 500 format frame xmit qdisc dst-mac 02:00:00:00:00:02
tap_ok "send frame qdisc: 20 sent" eval 'test $rc -eq 0 && grep -q "sent 20 " $t/o'

printf '0\n# x\n5000\n2500\n' > $t/sched
show -j omware send dev twa schedule file $t/sched
tap_ok "send schedule file: 3 packets" js 'd["packets"]==3 and d["sent"]==3'

show -j omware train dev twa count 4 repeat 5 gap 2000 report-file $t/t.csv
tap_ok "train: 20 sent, 15 gaps" js 'd["sent"]==20 and d["gap_ns"]["count"]==15 and d["gap_ns"]["min"]>=0'
tap_ok "train csv: one sched time per train" awk -F, 'NR > 1 { tr = int(($1) / 4); if (tr in s && s[tr] != $2) bad++; s[tr] = $2 } END { exit !!bad }' $t/t.csv
show -j omware pair dev twa pairs 10 gap 1000
tap_ok "pair: 20 sent, 10 gaps" js 'd["sent"]==20 and d["gap_ns"]["count"]==10'

# The smallest packets carry the compact probe; tw-omware-rx restores their
# 64-bit scheduled times from the arrival times.
rm -f $t/ready
"$root/bench/omware/tw-omware-rx" -i twb -o $t/rx40.csv -n 30 -t 60 -r $t/ready -U -q &
rxp=$!
for _ in $(seq 100); do [ -e $t/ready ] && break; sleep 0.1; done
show omware send dev twa count 30 size 40 schedule periodic 2000 report-file $t/r40.csv
wait $rxp
rxrc=$?
tap_ok "send size 40: 30 sent, tw-omware-rx saw 30 probes of 40 bytes" eval 'test $rc -eq 0 && test $rxrc -eq 0 && awk -F, "NR > 1 && \$9 == 40 { n++ } END { exit n != 30 }" $t/rx40.csv'
tap_ok "compact probe: receiver's sched_ns equal the reports'" eval 'test "$(tail -n +2 $t/r40.csv | cut -d, -f1,2 | sort)" = "$(tail -n +2 $t/rx40.csv | cut -d, -f2,3 | sort)"'

show omware send dev twa count 3 size 3000 schedule periodic 10
tap_ok "oversize packet: kernel refuses, exit 1, Error: line" eval 'test $rc -eq 1 && grep -q "^Error: .*OMWARE_PKT_A_PAYLOAD" $t/e'
show omware flush session 99999
tap_ok "flush unknown session: exit 1" eval 'test $rc -eq 1 && grep -q "^Error: " $t/e'
show omware cancel session 99999 cookie 5
tap_ok "cancel unknown session: exit 1" test $rc -eq 1
show omware show session 99999
tap_ok "show unknown session: exit 1" test $rc -eq 1

"$TW" omware send dev twa count 1000 schedule periodic 200000 >$t/o2 2>$t/e2 &
p=$!
sleep 3
show -j omware show
sid=$(python3 -c "import json; d=json.load(open('$t/o')); print(d['sessions'][0]['session'])")
tap_ok "show lists the running session with pending packets" js 'len(d["sessions"])==1 and d["sessions"][0]["pending_pkts"]>0'
show omware flush session "$sid"
tap_ok "flush another process's session: refused, exit 1" eval 'test $rc -eq 1 && grep -q "^Error: .*another socket" $t/e'
show omware cancel session "$sid" cookie 999
tap_ok "cancel in another process's session: refused, exit 1" eval 'test $rc -eq 1 && grep -q "^Error: .*another socket" $t/e'
kill -INT $p
wait $p
rc=$?
sed 's/^/#   /' $t/o2 $t/e2
tap_ok "SIGINT: summary, cancelled, exit 5" eval 'test $rc -eq 5 && grep -q "cancelled [1-9]" $t/o2'
show -j omware show
tap_ok "no session left" js 'd["sessions"]==[] and d["global"]["pending_pkts"]==0'
tap_done
