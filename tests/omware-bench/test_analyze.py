#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of tw-analyze on made-up runs whose answers are known.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYZE = os.path.join(HERE, "..", "..", "userspace", "tools", "tw-analyze")

METHODS_HEAD = ("tag,grid,round,method,kind,count,alpha_ns,size,phi_ns,"
                "delta_ns,mode,xmit,qdisc,start_ns,cpu_proc_ns,cpu_busy_ns,"
                "wall_ns,submitted,sent,dropped,early,spin_ns,spin_stalls,"
                "spin_stall_max_ns,err").split(",")
ALPHA = 1000000
T0 = 10 ** 12


class Run:
    def __init__(self):
        self.methods, self.send, self.rx = [], [], []
        self.tag = 30000

    def add(self, grid, method, offsets_ns, kind="train", dropped=(),
            err="", cpu=1000000, rnd=1, delta=0, mode="-", spin=0,
            stalls=(0, 0)):
        """offsets_ns[i]: actual - scheduled of packet i, None = lost."""
        tag = self.tag
        self.tag += 1
        n = len(offsets_ns)
        count = n // 2 if kind == "pair" else n
        self.methods.append(dict(zip(METHODS_HEAD, [
            tag, grid, rnd, method, kind, count, ALPHA, 48, 0, delta, mode,
            "-", "-", T0, cpu, cpu, 1, n, n - len(dropped), len(dropped),
            0, spin, stalls[0], stalls[1], err])))
        for i, off in enumerate(offsets_ns):
            sched = T0 + (i // 2 if kind == "pair" else i) * ALPHA
            if i in dropped:
                self.send.append([tag, i, sched, 0, "none", 0, "dropped"])
                continue
            if off is None:
                self.send.append([tag, i, sched, 0, "none", 0, "missing"])
                continue
            self.send.append([tag, i, sched, sched + off, "txsw", 0, "sent"])
            self.rx.append([tag, i, sched, sched + off + 5000, "sw", 0, 0, 0,
                            48])

    def write(self, d):
        with open(os.path.join(d, "methods.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=METHODS_HEAD)
            w.writeheader()
            w.writerows(self.methods)
        with open(os.path.join(d, "send.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow("tag,seq,sched_ns,sent_ns,sent_src,user_ns,status"
                       .split(","))
            w.writerows(self.send)
        with open(os.path.join(d, "rx.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow("tag,seq,sched_ns,rx_ns,rx_src,kern_ns,udp_ns,user_ns,"
                       "size".split(","))
            w.writerows(self.rx)


def jitter(n, amp, spike=0, every=0):
    """Alternating +-amp offsets, with a spike every `every` packets."""
    out = []
    for i in range(n):
        v = amp if i % 2 else -amp
        if every and i % every == every - 1:
            v += spike
        out.append(v)
    return out


def build(d):
    r = Run()
    g = "a1000-s48-idle"
    # OIR: IDT errors of 2*2 us, two 2 ms stalls; RSM: 20 ms stalls.  The
    # hybrid run left in one late burst: its p99 (alpha) would beat OIR's.
    r.add(g, "OIR", jitter(200, 2000, 2000000, 100))
    r.add(g, "OIR-hybrid", [50000000 + i * -ALPHA for i in range(200)],
          mode="hybrid", spin=150 * ALPHA, stalls=(7, 900000))
    r.add(g, "RSM", jitter(200, 10000, 20000000, 50), cpu=4000000)
    # etf: 100 us drops one packet, 500 us none, 1000 us none.
    r.add(g, "ETF-100", jitter(200, 1000), dropped={7}, delta=100000)
    r.add(g, "ETF-500", jitter(200, 30000, 5000000, 20), delta=500000)
    r.add(g, "ETF-1000", jitter(200, 1000), delta=1000000)
    # A workload where OMware failed outright.
    g2 = "a100-s48-idle"
    r.add(g2, "OIR", [None] * 200, err="omware module not loaded")
    r.add(g2, "RSM", jitter(200, 10000))
    # Pairs: TOM gap 1 us, TRW gap 20 us.
    p = "pairs-s48-idle"
    r.add(p, "TOM", [0, 1000] * 100, kind="pair")
    r.add(p, "TRW", [0, 20000] * 100, kind="pair")
    r.write(d)


def main():
    checks = []

    def check(desc, ok):
        checks.append((desc, bool(ok)))

    with tempfile.TemporaryDirectory() as d:
        build(d)
        p = subprocess.run([sys.executable, ANALYZE, "--no-plots", "-q", d],
                           capture_output=True, text=True)
        check("tw-analyze exits 0", p.returncode == 0)
        if p.returncode:
            sys.stderr.write(p.stderr)
        res = {}
        jp = os.path.join(d, "analysis.json")
        if os.path.exists(jp):
            with open(jp) as f:
                res = json.load(f)
        rows = {(r["grid"], r["method"]): r for r in res.get("rows", [])}
        tg = {(t["grid"], t["target"]): t for t in res.get("targets", [])}
        oir = rows.get(("a1000-s48-idle", "OIR"), {})
        # 196 gaps of 4 us, 3 of 2004 us around the two stalls.
        check("OIR p99 IDT error reaches the stalls",
              abs(oir.get("rx_idt_p99_ns", 0) - 2004000) < 1)
        check("OIR median IDT error", oir.get("rx_idt_p50_ns") == 4000)
        check("OIR receiver bias is the 5 us path delay",
              oir.get("rx_bias_ns") == 5000)
        check("OIR fraction within 20 us",
              abs(oir.get("rx_within20_frac", 0) - 196 / 199) < 1e-6)
        etf = rows.get(("a1000-s48-idle", "ETF*"), {})
        check("ETF* is the smallest delta without drops",
              etf.get("etf_deltas") == "ETF-500")
        t1 = tg.get(("a1000-s48-idle", "OMware best p99|IDT err| <= RSM/5"))
        check("target 1 passes with OIR as best (burst excluded)",
              t1 and t1["result"] == "PASS" and t1.get("method") == "OIR")
        t2 = tg.get(("a1000-s48-idle", "OMware best p99|IDT err| <= ETF*/2"))
        check("target 2 compares against ETF-500", t2 and
              t2["result"] == "PASS" and
              abs(t2["ref_ns"] - etf.get("rx_idt_p99_ns", -1)) < 1)
        t3 = tg.get(("a100-s48-idle", "OMware best p99|IDT err| <= RSM/5"))
        check("a failed OMware run is a FAIL, not a pass",
              t3 and t3["result"] == "FAIL")
        t4 = tg.get(("pairs-s48-idle", "TOM min pair gap <= TRW/2"))
        check("pair target: TOM gap 1 us vs TRW 20 us", t4 and
              t4["result"] == "PASS" and abs(t4["ratio"] - 0.05) < 1e-6)
        rsm = rows.get(("a1000-s48-idle", "RSM"), {})
        check("CPU ratio against RSM", abs(
            oir.get("cpu_vs_ref", 0) - 0.25) < 1e-9 and
            rsm.get("cpu_vs_ref") == 1.0)
        hyb = rows.get(("a1000-s48-idle", "OIR-hybrid"), {})
        check("hybrid spin: 150 of 200 spacings, 7 stalls up to 900 us;"
              " none for other modes",
              abs(hyb.get("spin_frac", 0) - 0.75) < 1e-9 and
              hyb.get("spin_stalls") == 7 and
              hyb.get("spin_stall_max_ns") == 900000 and
              oir.get("spin_frac", 1) is None and
              oir.get("spin_stalls", 1) is None)
        check("table written", os.path.exists(os.path.join(d, "table.txt")))

    print("TAP version 13")
    print("1..%d" % len(checks))
    for i, (desc, ok) in enumerate(checks, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, desc))
    return 0 if all(ok for _d, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
