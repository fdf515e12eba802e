#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""MPTCP transfers and a UDP filler for the qaware suite's path tests.

  mptcp_xfer.py serve PORT             print the bytes read per connection
  mptcp_xfer.py upload ADDR PORT BYTES send BYTES, wait for the peer's close
  mptcp_xfer.py flood ADDR PRIO        UDP to ADDR's discard port with
                                       SO_PRIORITY PRIO, until killed
"""
import socket
import sys

IPPROTO_MPTCP = 262
SO_SNDBUFFORCE = 32
CHUNK = 1 << 16


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


def upload(addr, port, size):
    sk = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    sk.connect((addr, port))
    buf = bytes(CHUNK)
    while size > 0:
        size -= sk.send(buf[:min(size, CHUNK)])
    sk.shutdown(socket.SHUT_WR)
    sk.recv(1)
    sk.close()


# Datagrams of 1400 bytes at @prio until killed: a blocking socket sleeps
# while its send buffer (large, for a standing qdisc backlog too) is full.
def flood(addr, prio):
    sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sk.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
    sk.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, 4 << 20)
    data = bytes(1400)
    while True:
        sk.sendto(data, (addr, 9))


def main(argv):
    cmds = {"serve": (serve, int), "upload": (upload, str, int, int),
            "flood": (flood, str, int)}
    if len(argv) < 2 or argv[1] not in cmds or \
            len(argv) - 2 != len(cmds[argv[1]]) - 1:
        sys.exit(__doc__)
    func, *types = cmds[argv[1]]
    func(*(t(a) for t, a in zip(types, argv[2:])))


if __name__ == "__main__":
    main(sys.argv)
