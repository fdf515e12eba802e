#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""MPTCP transfers and UDP fillers for the qaware suite's path tests.

  mptcp_xfer.py serve PORT             print the bytes read per connection
  mptcp_xfer.py upload ADDR PORT BYTES [PAUSE [MARKER [KBIT]]]
                                       send BYTES, wait for the peer's close;
                                       after PAUSE bytes (if not 0) print
                                       "paused" and go on once a line comes
                                       on stdin; with MARKER (if not ""),
                                       create that file when done and keep
                                       the connection until it is gone;
                                       with KBIT (if not 0), write at that
                                       rate in 8 KiB pieces
  mptcp_xfer.py flood ADDR PRIO        UDP to ADDR's discard port with
                                       SO_PRIORITY PRIO, until killed
  mptcp_xfer.py fill ADDR PRIO COUNT   as flood, COUNT datagrams at most,
                                       never blocking; prints how many
"""
import os
import socket
import sys
import time

IPPROTO_MPTCP = 262
SO_SNDBUFFORCE = 32
CHUNK = 1 << 16
PACED_CHUNK = 8 << 10


def serve(port):
    lsk = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    lsk.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsk.bind(("0.0.0.0", port))
    lsk.listen(4)
    while True:
        conn, _ = lsk.accept()
        total = 0
        for data in iter(lambda: conn.recv(CHUNK), b""):
            total += len(data)
        print(total, flush=True)
        conn.close()


def send_bytes(sk, size):
    buf = bytes(CHUNK)
    while size > 0:
        size -= sk.send(buf[:min(size, CHUNK)])


# Application-limited: a piece each PACED_CHUNK * 8 / kbit ms.  A writer
# that fell behind (a slow guest) starts its schedule anew instead of
# catching up in a burst.
def send_paced(sk, size, kbit):
    gap = PACED_CHUNK * 8 / (kbit * 1000)
    due = time.monotonic()
    while size > 0:
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        due = max(due, now) + gap
        piece = min(size, PACED_CHUNK)
        sk.sendall(bytes(piece))
        size -= piece


def upload(addr, port, size, pause=0, marker="", kbit=0):
    sk = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    sk.connect((addr, port))
    if 0 < pause < size:
        send_bytes(sk, pause)
        print("paused", flush=True)
        sys.stdin.readline()
        size -= pause
    if kbit:
        send_paced(sk, size, kbit)
    else:
        send_bytes(sk, size)
    sk.shutdown(socket.SHUT_WR)
    sk.recv(1)
    if marker:
        open(marker, "w", encoding="ascii").close()
        while os.path.exists(marker):
            time.sleep(0.1)
    sk.close()


# Datagrams of 1400 bytes at @prio; the send buffer is large, for a
# standing qdisc backlog too (the datagrams count against it while they
# wait).
def udp_socket(prio, sndbuf):
    sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sk.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
    sk.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, sndbuf)
    return sk


# Until killed: a blocking socket sleeps while its send buffer is full.
def flood(addr, prio):
    sk = udp_socket(prio, 4 << 20)
    data = bytes(1400)
    while True:
        sk.sendto(data, (addr, 9))


def fill(addr, prio, count):
    sk = udp_socket(prio, 16 << 20)
    sent = 0
    try:
        while sent < count:
            sk.sendto(bytes(1400), socket.MSG_DONTWAIT, (addr, 9))
            sent += 1
    except BlockingIOError:
        pass
    print(sent, "datagrams queued")


def main(argv):
    # name: (function, argument types, how many are optional)
    cmds = {"serve": (serve, (int,), 0),
            "upload": (upload, (str, int, int, int, str, int), 3),
            "flood": (flood, (str, int), 0),
            "fill": (fill, (str, int, int), 0)}
    if len(argv) < 2 or argv[1] not in cmds:
        sys.exit(__doc__)
    func, types, optional = cmds[argv[1]]
    if not len(types) - optional <= len(argv) - 2 <= len(types):
        sys.exit(__doc__)
    func(*(t(a) for t, a in zip(types, argv[2:])))


if __name__ == "__main__":
    main(sys.argv)
