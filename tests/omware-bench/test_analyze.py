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
    # A close call: OIR's p99 at 0.3 of RSM's (bound 0.2); every etf
    # delta dropped a packet.
    g3 = "a10-s48-idle"
    r.add(g3, "OIR", jitter(200, 3000))
    r.add(g3, "RSM", jitter(200, 10000))
    r.add(g3, "ETF-100", jitter(200, 1000), dropped={3}, delta=100000)
    # Pairs: TOM gap 1 us, TRW gap 20 us.
    p = "pairs-s48-idle"
    r.add(p, "TOM", [0, 1000] * 100, kind="pair")
    r.add(p, "TRW", [0, 20000] * 100, kind="pair")
    r.write(d)


def build_wide(d, ngrids):
    """Many workloads: the summary must still fit in 80 columns."""
    r = Run()
    for i in range(ngrids):
        g = "a%d-s1500-%s" % (1000 + i, "idle" if i % 2 else "load")
        r.add(g, "OIR-hybrid-qdisc", jitter(20, 2000))
        r.add(g, "RSM", jitter(20, 10000))
    r.write(d)


def analyze(d, *args):
    return subprocess.run([sys.executable, ANALYZE] + list(args) + [d],
                          capture_output=True, text=True)


def width(text, d):
    """The longest line, the output directory counted as "OUTDIR"."""
    return max(len(ln.replace(d, "OUTDIR")) for ln in text.splitlines())


def line_with(text, *words):
    """The first line holding every word, or ""."""
    return next((ln for ln in text.splitlines()
                 if all(w in ln.split() for w in words)), "")


def check_summary(check, d, res):
    """The short summary of the run build() made, against its analysis."""
    p = analyze(d, "--summary", "--no-plots")
    out = p.stdout
    check("summary: exits 0, every line at most 80 columns",
          p.returncode == 0 and out and width(out, d) <= 80)
    with open(os.path.join(d, "summary.txt")) as f:
        check("summary: summary.txt holds what was printed", f.read() == out)
    rows = {(r["grid"], r["method"]): r for r in res.get("rows", [])}
    oir = rows.get(("a1000-s48-idle", "OIR"), {}).get("rx_idt_p99_ns", 0)
    rsm = rows.get(("a1000-s48-idle", "RSM"), {}).get("rx_idt_p99_ns", 1)
    # Workloads in order a1000, a100, a10: OIR's first cell is a1000's.
    check("summary: OIR's p99 ratio to RSM, then the cells of the failed"
          " and the close workloads",
          line_with(out, "OIR").split()[1:4] ==
          ["%.2f" % (oir / rsm), "failed", "0.30"])
    check("summary: RSM's own p99 in us as the reference row",
          line_with(out, "RSM", "p99", "(us)").split()[3] ==
          "%.0f" % (rsm / 1000))
    words = " ".join(out.split())
    check("summary: ETF* without a delta free of drops reads \"drops\"",
          line_with(out, "ETF*").split()[-4] == "drops" and
          "drops: every etf delta dropped packets" in words)
    check("summary: the run that left in one burst has no ratio",
          line_with(out, "OIR-hybrid").split() == ["OIR-hybrid", "burst"]
          and "burst: sent in one late burst" in words)
    check("summary: the failed OMware run is a failing check",
          line_with(out, "FAIL", "a100-s48-idle", "p99/RSM")
          .endswith("OMware run incomplete"))
    check("summary: a check passing with its ratio and bound",
          line_with(out, "PASS", "pairs-s48-idle").split()[-4:] ==
          ["0.05", "<=", "0.50", "TOM"])
    close = line_with(out, "FAIL", "close", "a10-s48-idle", "p99/RSM")
    check("summary: a near miss is a close FAIL, explained once",
          close.split()[-4:] == ["0.30", ">", "0.20", "OIR"] and
          sum(ln.startswith("close: ") for ln in out.splitlines()) == 1 and
          " close " not in line_with(out, "FAIL", "a100-s48-idle"))
    check("summary: counts the checks",
          "Targets: 3 pass, 2 fail (1 close), 2 not evaluated" in out and
          len(res.get("targets", [])) == 7)
    check("summary: says where the full table is",
          "Full table: %s" % os.path.join(d, "table.txt") in out)


def check_wide(check):
    with tempfile.TemporaryDirectory() as d:
        build_wide(d, 15)
        out = analyze(d, "--summary", "--no-plots").stdout
        lines = out.splitlines()
        check("summary of 15 workloads: at most 80 columns, every workload"
              " shown", lines and width(out, d) <= 80 and
              sum(ln.split()[2:].count(str(1000 + i)) for ln in lines
                  if ln.startswith("alpha") for i in range(15)) == 15)


def check_png(check, skip):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        skip("IDT error CDF drawn", "matplotlib not installed")
        return
    with tempfile.TemporaryDirectory() as d:
        build(d)
        p = analyze(d, "--summary", "--plots", "cdf")
        png = os.path.join(d, "idt-error-cdf.png")
        magic = b""
        if os.path.exists(png):
            with open(png, "rb") as f:
                magic = f.read(8)
        check("--plots cdf draws idt-error-cdf.png only, and says where",
              p.returncode == 0 and magic == b"\x89PNG\r\n\x1a\n" and
              not os.path.exists(os.path.join(d, "plots")) and
              "IDT error CDF per method: %s" % png in p.stdout)


def main():
    checks = []

    def check(desc, ok):
        checks.append((desc, bool(ok), ""))

    def skip(desc, why):
        checks.append((desc, True, " # SKIP " + why))

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
        check_summary(check, d, res)
    check_wide(check)
    check_png(check, skip)

    print("TAP version 13")
    print("1..%d" % len(checks))
    for i, (desc, ok, directive) in enumerate(checks, 1):
        print("%s %d - %s%s" % ("ok" if ok else "not ok", i, desc,
                                directive))
    return 0 if all(ok for _d, ok, _s in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
