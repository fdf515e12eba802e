#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""xdp_forward.sh's packet tool: one update packet sent, and its reply
checked field by field.

  xdp_pkt.py IFNAME FWD_MAC [--set FIELD=VALUE]... [--len N] [--dst MAC]
             [--src MAC] [--expect FIELD=VALUE]... [--expect-none] [--wait S]

The frame is an Ethernet header (to FWD_MAC, or --dst; from IFNAME's
address, or --src; EtherType 0x88b5) and struct tfib_hdr with every field from
--set (default: version 2, type 2 (data), user 1, seq 1, hop_limit 16,
the rest 0),
then --set payload=HEX; --len cuts the frame to N bytes.

With --expect, the reply is the first frame received on IFNAME from
FWD_MAC with the sent user and seq (data packets keep both), and each
FIELD must have VALUE; the fields are those of --set plus dst, src, len.
--expect-none: no such reply within --wait seconds (default 2 for a
reply, 0.5 for none).  Exit 0 when all holds, 1 otherwise (what differs
on stdout as "# ..." lines), 2 for a usage error.
"""
import argparse
import select
import socket
import struct
import sys
import time

ETH_P_TFIB = 0x88b5
PACKET_OUTGOING = 4
# struct tfib_hdr, network byte order (include/uapi/linux/tfib.h)
HDR = struct.Struct("!BBHIIIQQ6sBB")
HDR_FIELDS = ("version", "type", "flags", "user", "seq", "addr_seq",
              "send_ns", "addr_ns", "mac", "hop_limit", "reserved")
MAC_FIELDS = ("dst", "src", "mac")


def mac_bytes(s):
    b = bytes(int(x, 16) for x in s.split(":"))
    if len(b) != 6:
        raise ValueError("not a MAC: " + s)
    return b


def mac_str(b):
    return ":".join("%02x" % x for x in b)


def if_mac(ifname):
    with open("/sys/class/net/%s/address" % ifname) as f:
        return mac_bytes(f.read().strip())


def parse_pairs(pairs):
    out = {}
    for p in pairs:
        key, sep, val = p.partition("=")
        if not sep:
            raise ValueError("not FIELD=VALUE: " + p)
        if key in MAC_FIELDS:
            out[key] = mac_bytes(val)
        elif key == "payload":
            out[key] = bytes.fromhex(val)
        else:
            out[key] = int(val, 0)
    return out


def build(fields, src, dst):
    hdr = dict(version=2, type=2, flags=0, user=1, seq=1, addr_seq=0,
               send_ns=0, addr_ns=0, mac=bytes(6), hop_limit=16, reserved=0)
    hdr.update({k: v for k, v in fields.items() if k in hdr})
    eth = dst + src + struct.pack("!H", ETH_P_TFIB)
    return (eth + HDR.pack(*(hdr[k] for k in HDR_FIELDS)) +
            fields.get("payload", b""))


def decode(frame):
    d = {"dst": frame[0:6], "src": frame[6:12], "len": len(frame)}
    if len(frame) >= 14 + HDR.size:
        d.update(zip(HDR_FIELDS, HDR.unpack_from(frame, 14)))
        d["payload"] = frame[14 + HDR.size:]
    return d


def show(v):
    if isinstance(v, bytes):
        return mac_str(v) if len(v) == 6 else v.hex()
    return str(v)


def wait_reply(sock, fwd, want, seconds):
    """The first frame from fwd with the sent user and seq, or None."""
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0 or not select.select([sock], [], [], left)[0]:
            return None
        frame, addr = sock.recvfrom(65536)
        if addr[2] == PACKET_OUTGOING or frame[6:12] != fwd:
            continue
        d = decode(frame)
        if d.get("user") == want["user"] and d.get("seq") == want["seq"]:
            return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ifname")
    ap.add_argument("fwd_mac")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--expect-none", action="store_true")
    ap.add_argument("--len", type=int)
    ap.add_argument("--dst")
    ap.add_argument("--src")
    ap.add_argument("--wait", type=float)
    a = ap.parse_args()
    try:
        fields = parse_pairs(a.set)
        expect = parse_pairs(a.expect)
        fwd = mac_bytes(a.fwd_mac)
        dst = mac_bytes(a.dst) if a.dst else fwd
        src = mac_bytes(a.src) if a.src else if_mac(a.ifname)
    except ValueError as e:
        print("xdp_pkt.py: %s" % e, file=sys.stderr)
        return 2
    frame = build(fields, src, dst)
    if a.len is not None:
        frame = frame[:a.len]
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                         socket.htons(ETH_P_TFIB))
    sock.bind((a.ifname, ETH_P_TFIB))
    sock.send(frame)
    if not expect and not a.expect_none:
        return 0
    want = {"user": fields.get("user", 1), "seq": fields.get("seq", 1)}
    wait = a.wait if a.wait is not None else (0.5 if a.expect_none else 2)
    got = wait_reply(sock, fwd, want, wait)
    if a.expect_none:
        if got:
            print("# a reply came back: " + " ".join(
                "%s=%s" % (k, show(v)) for k, v in sorted(got.items())))
        return 1 if got else 0
    if got is None:
        print("# no reply within %g s" % wait)
        return 1
    bad = [k for k in expect if got.get(k) != expect[k]]
    for k in bad:
        print("# %s: got %s, want %s" % (k, show(got.get(k)),
                                         show(expect[k])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
