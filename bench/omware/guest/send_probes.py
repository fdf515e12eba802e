#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send timewire probes (full 20-byte layout) over UDP, optionally with a
SO_TXTIME delivery time, and write down when each sendmsg() ran.

  send_probes.py DST SPORT COUNT TXTIME OUT [DPORT [ipopts]]

TXTIME is "none", or a signed offset in ns from the send moment (the
delivery time the packet carries, on CLOCK_MONOTONIC), or "tai+NS" (a
CLOCK_TAI delivery time NS after now, for the etf qdisc).  OUT gets
"seq,before_ns,after_ns" lines: CLOCK_MONOTONIC read just before and just
after each sendmsg(), the bracket the packet's wire time must fall in
unless a qdisc holds it.  DPORT (default 29000, the probe port) sends
them elsewhere; "ipopts" gives each packet four bytes of IP options (an
IP header longer than 20 bytes).
"""

import socket
import struct
import sys
import time

SO_TXTIME = 61
PROBE_MAGIC = 0x54574952
PORT = 29000
SIZE = 64   # IPv4 total length: room for the full probe
# Three no-operations and an end of options: a 24-byte IP header.
IP_OPTS = bytes([1, 1, 1, 0])


def txtime_socket(txtime):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if txtime != "none":
        clock = time.CLOCK_TAI if txtime.startswith("tai") else \
            time.CLOCK_MONOTONIC
        # struct sock_txtime { clockid_t clockid; __u32 flags; }
        s.setsockopt(socket.SOL_SOCKET, SO_TXTIME, struct.pack("iI", clock, 0))
    return s


def delivery_time(txtime):
    if txtime == "none":
        return None
    if txtime.startswith("tai+"):
        return time.clock_gettime_ns(time.CLOCK_TAI) + int(txtime[4:])
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) + int(txtime)


def main():
    dst, sport, count, txtime, out = sys.argv[1:6]
    dport = int(sys.argv[6]) if len(sys.argv) > 6 else PORT
    s = txtime_socket(txtime)
    if sys.argv[7:] == ["ipopts"]:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_OPTIONS, IP_OPTS)
    s.bind(("0.0.0.0", int(sport)))
    pad = bytes(SIZE - 28 - 20)
    with open(out, "w") as f:
        for seq in range(int(count)):
            before = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            probe = struct.pack(">IIQI", PROBE_MAGIC, seq, before, 0) + pad
            when = delivery_time(txtime)
            anc = [] if when is None else \
                [(socket.SOL_SOCKET, SO_TXTIME, struct.pack("Q", when))]
            s.sendmsg([probe], anc, 0, (dst, dport))
            after = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            f.write("%d,%d,%d\n" % (seq, before, after))
            time.sleep(0.002)


if __name__ == "__main__":
    main()
