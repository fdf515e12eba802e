#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's MPTCP transfer: a receiver and a sender that samples its
subflows.

  qa_flow.py recv PORT
      for each connection, read to EOF, then answer one JSON line (bytes
      read, first and last read on CLOCK_MONOTONIC, the netns's MPTcpExt
      counters that changed since before accept()) and close; forever.
  qa_flow.py send --dst IP --port P (--seconds T [--rate KBIT] | --bytes N)
                  [--interval S] [--competitor-at S --competitor CMD
                  [--competitor-count CMD]]
                  [--snapshot-at S --snapshot CMD] [--dql DIR] [--start N] OUT
      one MPTCP connection: send T seconds' worth or N bytes, shut down,
      with --rate as an application-limited source at KBIT kbit/s
      (constant bit rate: what is due is written every 10 ms),
      wait for the receiver's answer; every S seconds (0.1) read each
      subflow's tcp_info (MPTCP_TCPINFO) and local address
      (MPTCP_SUBFLOW_ADDRS), and with --dql a device's BQL state (DIR its
      byte_queue_limits: inflight and limit, in bytes); keep the MPTcpExt
      counters that changed from before connect() to the close.  With
      --competitor, run CMD S seconds after the connection is up, its
      output kept in OUT's competitor field; --competitor-count CMD
      prints `tc -s -j` JSON whose actions count the competitor's packets:
      run at the start (before CMD is due) and just after CMD ends, the
      bytes and packets they counted in between are the field's
      dequeued_bytes and dequeued_packets; --snapshot likewise, in the
      snapshot field (a command that reads the connection's state).
      --start N is kept in OUT's start field.
      Writes OUT (JSON, whole: a temporary file renamed) and prints "goodput G Mbit/s, ..." (the bytes the
      receiver read over the time from connect() to its answer); exit 1 if
      the transfer fails.

Times are CLOCK_MONOTONIC, which the namespaces of one machine share.
"""

import argparse
import ctypes
import json
import os
import shlex
import socket
import struct
import subprocess
import sys
import threading
import time

IPPROTO_MPTCP = 262
SOL_MPTCP = 284
MPTCP_TCPINFO = 2
MPTCP_SUBFLOW_ADDRS = 3
SUBFLOW_DATA = struct.Struct("IIII")    # struct mptcp_subflow_data
TCP_INFO_LEN = 232                      # up to tcpi_rcv_wnd
ADDRS_LEN = 256                         # struct mptcp_subflow_addrs
CHUNK = 1 << 16
MAX_SUBFLOWS = 8

libc = ctypes.CDLL(None, use_errno=True)


def subflow_records(fd, opt, size_user):
    """The per-subflow records of one MPTCP getsockopt, or []."""
    size = SUBFLOW_DATA.size + MAX_SUBFLOWS * size_user
    buf = ctypes.create_string_buffer(size)
    SUBFLOW_DATA.pack_into(buf, 0, SUBFLOW_DATA.size, 0, 0, size_user)
    optlen = ctypes.c_int(size)
    if libc.getsockopt(fd, SOL_MPTCP, opt, buf, ctypes.byref(optlen)):
        return []
    _, n, _, user = SUBFLOW_DATA.unpack_from(buf, 0)
    n = min(n, MAX_SUBFLOWS)
    return [buf.raw[SUBFLOW_DATA.size + i * user:
                    SUBFLOW_DATA.size + (i + 1) * user] for i in range(n)]


def tcp_fields(rec):
    """One subflow's tcp_info: bytes acked and sent, srtt (us), cwnd, and
    where the kernel has them (tcp_info up to tcpi_bytes_retrans) bytes
    not yet sent, busy time (us, data unacked or unsent), time limited
    by the receive window (us), bytes retransmitted."""
    rtt, = struct.unpack_from("I", rec, 68)
    cwnd, = struct.unpack_from("I", rec, 80)
    acked, = struct.unpack_from("Q", rec, 120)
    if len(rec) < 216:
        return [acked, 0, rtt, cwnd]
    sent, retrans = struct.unpack_from("QQ", rec, 200)
    notsent, = struct.unpack_from("I", rec, 144)
    busy, rwnd_limited = struct.unpack_from("QQ", rec, 168)
    return [acked, sent, rtt, cwnd, notsent, busy, rwnd_limited, retrans]


def local_addr(rec):
    return socket.inet_ntoa(rec[4:8])


def sample(fd):
    """{local address: tcp_fields()} of every subflow."""
    infos = subflow_records(fd, MPTCP_TCPINFO, TCP_INFO_LEN)
    addrs = subflow_records(fd, MPTCP_SUBFLOW_ADDRS, ADDRS_LEN)
    if len(infos) != len(addrs):        # a subflow came or went between
        return None
    return {local_addr(a): tcp_fields(i) for a, i in zip(addrs, infos)}


def mptcp_mib():
    """This netns's MPTcpExt counters ({} where /proc has none)."""
    try:
        with open("/proc/net/netstat") as f:
            lines = [ln.split() for ln in f]
    except OSError:
        return {}
    for names, vals in zip(lines, lines[1:]):
        if names and names[0] == "MPTcpExt:" and vals[0] == "MPTcpExt:":
            return dict(zip(names[1:], map(int, vals[1:])))
    return {}


def mib_delta(before):
    """The counters that changed since before."""
    now = mptcp_mib()
    return {k: v - before.get(k, 0) for k, v in now.items()
            if v != before.get(k, 0)}


def dql_state(path):
    """[inflight, limit] of a byte_queue_limits directory, or None."""
    try:
        return [int(open("%s/%s" % (path, f)).read())
                for f in ("inflight", "limit")]
    except (OSError, ValueError):
        return None


class Sampler(threading.Thread):
    def __init__(self, sock, t0, interval, dql):
        super().__init__(daemon=True)
        self.fd, self.t0, self.interval = sock.fileno(), t0, interval
        self.dql_path, self.dql = dql, []
        self.samples = []
        self.stop = threading.Event()

    def take(self):
        t = round(time.monotonic() - self.t0, 4)
        s = sample(self.fd)
        if s is not None:
            self.samples.append([t, s])
        d = dql_state(self.dql_path) if self.dql_path else None
        if d is not None:
            self.dql.append([t] + d)

    def run(self):
        while not self.stop.wait(self.interval):
            self.take()


def action_bytes(doc, what="bytes"):
    """The bytes (or packets) every tc action in a `tc -s -j` document
    counted."""
    if isinstance(doc, list):
        return sum(action_bytes(d, what) for d in doc)
    if not isinstance(doc, dict):
        return 0
    n = sum(a.get("stats", {}).get(what, 0) for a in doc.get("actions", [])
            if isinstance(a, dict))
    return n + sum(action_bytes(v, what) for k, v in doc.items()
                   if k != "actions")


def counted_bytes(cmd):
    """[bytes, packets] the actions of CMD's output counted, or None when
    it fails."""
    p = subprocess.run(shlex.split(cmd), capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError:
        return None
    return None if doc is None else [action_bytes(doc),
                                     action_bytes(doc, "packets")]


class Timed(threading.Thread):
    """CMD started `at` seconds after t0; its start, end and output; with
    count, the bytes count's command counted while CMD ran."""

    def __init__(self, cmd, at, t0, count=None):
        super().__init__(daemon=True)
        self.cmd, self.at, self.t0, self.count = cmd, at, t0, count
        self.result = {"cmd": cmd}

    def run(self):
        # counted ahead: the count takes a while under emulation, and
        # nothing runs to count before CMD does
        before = counted_bytes(self.count) if self.count else None
        time.sleep(max(0.0, self.t0 + self.at - time.monotonic()))
        self.result["start"] = round(time.monotonic() - self.t0, 4)
        p = subprocess.run(shlex.split(self.cmd), capture_output=True,
                           text=True)
        self.result["end"] = round(time.monotonic() - self.t0, 4)
        self.result["rc"] = p.returncode
        after = counted_bytes(self.count) if self.count else None
        if before is not None and after is not None:
            # what left the egress queue while CMD ran, and the drain of
            # its last queued packets in the moment before this count
            self.result["counted"] = [before[0], after[0]]
            self.result["dequeued_bytes"] = after[0] - before[0]
            self.result["dequeued_packets"] = after[1] - before[1]
        try:
            self.result["output"] = json.loads(p.stdout)
        except ValueError:
            self.result["output"] = (p.stdout + p.stderr)[-2000:]


CBR_TICK = 0.01


def send_cbr(sock, args, t_up):
    """An application-limited source: every CBR_TICK s write what the
    rate has made due since t_up (a blocked write delays the next, so the
    data waits in the socket, as an application's would); bytes sent."""
    chunk, sent, rate = bytes(CHUNK), 0, args.rate * 1000 / 8
    while True:
        now = time.monotonic() - t_up
        if now >= args.seconds:
            due = int(rate * args.seconds)
        else:
            due = int(rate * now)
        while sent < due:
            sent += sock.send(chunk[:min(due - sent, CHUNK)])
        if now >= args.seconds:
            return sent
        time.sleep(CBR_TICK)


def send_all(sock, args, t_up):
    """Send until the time or the byte count is reached; bytes sent."""
    if args.rate:
        return send_cbr(sock, args, t_up)
    chunk, sent = bytes(CHUNK), 0
    while True:
        if args.bytes is not None:
            left = args.bytes - sent
            if left <= 0:
                return sent
            n = sock.send(chunk[:min(left, CHUNK)])
        else:
            if time.monotonic() - t_up >= args.seconds:
                return sent
            n = sock.send(chunk)
        sent += n


def read_answer(sock):
    data = b""
    while not data.endswith(b"\n"):
        b = sock.recv(4096)
        if not b:
            break
        data += b
    return json.loads(data.decode()) if data else None


def write_atomic(path, doc):
    """path holds doc whole or not at all: a stop mid-write leaves no
    record cut short."""
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f)
    os.replace(path + ".tmp", path)


def send(args):
    out = {"dst": args.dst, "seconds": args.seconds, "bytes": args.bytes,
           "rate_kbit": args.rate, "start": args.start}
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    mib0 = mptcp_mib()
    t0 = time.monotonic()
    sock.connect((args.dst, args.port))
    t_up = time.monotonic()
    sampler = Sampler(sock, t0, args.interval, args.dql)
    sampler.start()
    timed = {}
    if args.competitor:
        timed["competitor"] = Timed(args.competitor, args.competitor_at, t0,
                                    args.competitor_count)
    if args.snapshot:
        timed["snapshot"] = Timed(args.snapshot, args.snapshot_at, t0)
    for th in timed.values():
        th.start()
    out["sent"] = send_all(sock, args, t_up)
    t_sent = time.monotonic()
    sock.shutdown(socket.SHUT_WR)
    answer = read_answer(sock)
    t_done = time.monotonic()
    sampler.stop.set()
    sampler.join()
    sampler.take()
    sock.close()
    out["mib"] = mib_delta(mib0)
    for key, th in timed.items():
        th.join()
        out[key] = th.result
    if args.dql:
        out["dql"] = sampler.dql
    out.update(t_connect=0.0, t_up=round(t_up - t0, 6),
               t_sent=round(t_sent - t0, 6), t_done=round(t_done - t0, 6),
               t0_monotonic=t0, receiver=answer, samples=sampler.samples)
    write_atomic(args.out, out)
    if not answer or answer.get("bytes") != out["sent"]:
        print("failed: sent %d bytes, the receiver answered %r"
              % (out["sent"], answer))
        return 1
    print("goodput %.2f Mbit/s, %d bytes in %.3f s"
          % (answer["bytes"] * 8 / out["t_done"] / 1e6, answer["bytes"],
             out["t_done"]))
    return 0


def serve_one(conn, mib0):
    n, first, last = 0, None, None
    while True:
        b = conn.recv(CHUNK)
        if not b:
            break
        last = time.monotonic()
        first = first or last
        n += len(b)
    conn.sendall((json.dumps({"bytes": n, "t_first": first,
                              "t_last": last, "mib": mib_delta(mib0)})
                  + "\n").encode())
    conn.close()


def recv(args):
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("0.0.0.0", args.port))
    lsock.listen(8)
    while True:
        mib0 = mptcp_mib()
        conn, _ = lsock.accept()
        serve_one(conn, mib0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("recv")
    r.add_argument("port", type=int)
    s = sub.add_parser("send")
    s.add_argument("--dst", required=True)
    s.add_argument("--port", type=int, required=True)
    how = s.add_mutually_exclusive_group(required=True)
    how.add_argument("--seconds", type=float)
    how.add_argument("--bytes", type=int)
    s.add_argument("--rate", type=float)
    s.add_argument("--interval", type=float, default=0.1)
    s.add_argument("--competitor")
    s.add_argument("--competitor-count")
    s.add_argument("--competitor-at", type=float, default=0.0)
    s.add_argument("--snapshot")
    s.add_argument("--snapshot-at", type=float, default=0.0)
    s.add_argument("--dql")
    s.add_argument("--start", type=int, default=1,
                   help="the benchmark's start (boot) that ran it")
    s.add_argument("out")
    args = ap.parse_args()
    if args.cmd == "send" and args.rate and args.seconds is None:
        ap.error("--rate needs --seconds")
    return recv(args) if args.cmd == "recv" else send(args)


if __name__ == "__main__":
    sys.exit(main())
