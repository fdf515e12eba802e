#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""aoi_check.py RUNDIR: the consistency checks of one tw-tfib-source run
through a forwarder (tfib's, or the XDP peer), after tw-tfib-analyze has
read it (RUNDIR/aoi.json).  Used by fwd_aoi.sh and xdp_forward.sh.

  - every app update received was sent, once, and came back after it was
    sent, addressed by a location the source did send for its user (its
    sequence and timestamp), or by the entry set before the run
  - no more received than sent; ages >= 0; the misaddressed fraction in
    [0, 1]
  - the forwarder's forwarded counter is what the sink saw plus what its
    socket dropped, and it received no more than was sent
  - paced by omware: every row sent, and its lateness in order
Nothing about timing.  Exit 1 with "# ..." lines saying what failed.
"""
import csv, json, os, sys

d = sys.argv[1]
meta = json.load(open(os.path.join(d, "run.json")))
aoi = json.load(open(os.path.join(d, "aoi.json")))
c = meta["counters"]
bad = []

def want(ok, what):
    if not ok:
        bad.append(what)

tx, ctl = {}, {}
for e in csv.DictReader(open(os.path.join(d, "events.csv"))):
    u, s, t = int(e["user"]), int(e["seq"]), int(e["t_ns"])
    if e["event"] == "ctl_tx":
        ctl[(u, s)] = t
    elif e["event"] == "data_tx":
        tx[(u, s)] = t
    else:
        key, a_seq, a_ns = (u, s), int(e["addr_seq"]), int(e["addr_ns"])
        want(key in tx and t >= tx[key],
             "receive %s not after its send" % (key,))
        if a_seq:
            want(ctl.get((u, a_seq)) == a_ns,
                 "user %d addressed by location %d at %d, never sent"
                 % (u, a_seq, a_ns))
        else:
            want(a_ns <= meta["start_ns"],
                 "user %d: the entry set before the run is dated %d"
                 % (u, a_ns))
want(aoi["rx_unmatched"] == 0, "%d receives match no send"
     % aoi["rx_unmatched"])
want(aoi["data_received"] <= aoi["data_sent"], "more received than sent")
want(meta["packets_received"] <= meta["packets_sent"],
     "more packets received than sent")
want(aoi["data_received"] > 0, "nothing came back")
for k in ("age_avg_ns", "fib_age_low_mean_ns", "fib_age_mean_ns"):
    want(aoi[k] is not None and aoi[k] >= 0, "%s = %s" % (k, aoi[k]))
want(0 <= aoi["misaddressed_fraction"] <= 1,
     "misaddressed fraction %s" % aoi["misaddressed_fraction"])
want(c["forwarded"] == meta["packets_received"] +
     meta["rx_socket_drops"] + meta["rx_no_record"],
     "forwarded %d != received %d + socket drops %d + no record %d"
     % (c["forwarded"], meta["packets_received"], meta["rx_socket_drops"],
        meta["rx_no_record"]))
want(c["rx_control"] + c["rx_data"] <= meta["packets_sent"],
     "the forwarder received more than was sent")
want(meta["rx_other"] == 0, "%d frames that are no forwarded update"
     % meta["rx_other"])
# Run as root: the sending socket got the budget that keeps a busy
# forwarder from slowing the source down.
if meta.get("tx") != "omware":
    # Linux reports twice what it was asked for.
    want(meta.get("tx_sndbuf_bytes", 0) >= 16 << 20, "the sending "
         "socket's budget is %s bytes, under 16 MiB"
         % meta.get("tx_sndbuf_bytes"))
if meta.get("tx") == "omware":
    late = meta["omware_late_ns"]
    want(meta["tx_dropped"] == 0 and meta["packets_sent"] == meta["rows"],
         "omware sent %d of %d rows, %d dropped"
         % (meta["packets_sent"], meta["rows"], meta["tx_dropped"]))
    want(0 <= late["min"] <= late["p50"] <= late["p99"] <= late["max"],
         "omware's lateness out of order: %s" % late)
print("# %s: sent %d, received %d, socket drops %d, forwarded %d, "
      "misaddressed %.4f, age %.0f us"
      % (os.path.basename(d), meta["packets_sent"], meta["packets_received"],
         meta["rx_socket_drops"], c["forwarded"],
         aoi["misaddressed_fraction"], aoi["age_avg_ns"] / 1000))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
