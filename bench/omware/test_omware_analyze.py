#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of tw-omware-analyze on made-up runs whose answers are known.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import csv
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYZE = os.path.join(HERE, "tw-omware-analyze")
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.dont_write_bytecode = True     # nothing left behind in the tree
import plotcheck  # noqa: E402
from twbench import PLOTS_MAX_BYTES  # noqa: E402

OLD_HEAD = ("tag,grid,round,method,kind,count,alpha_ns,size,phi_ns,"
            "delta_ns,mode,xmit,qdisc,start_ns,cpu_proc_ns,cpu_busy_ns,"
            "wall_ns,submitted,sent,dropped,early,spin_ns,spin_stalls,"
            "spin_stall_max_ns,err").split(",")
# A newer run's columns (the order's seed, warm-up trials, the guard).
NEW_HEAD = OLD_HEAD[:3] + ["seed", "warmup"] + OLD_HEAD[3:-1] + \
    ["guard_ns", "guard_misses", "cpu_kthread_ns", "err"]
ALPHA = 1000000
T0 = 10 ** 12
LAT = 5000              # from the TX timestamp to the wire tap: c
SOCKET = ("RSM", "RSM-RT", "TRW", "FQ")     # and ETF-*: TX timestamped


class Run:
    """A made-up run: add() trials, write() the benchmark's files."""

    def __init__(self, new=True, meta=None):
        self.head = NEW_HEAD if new else OLD_HEAD
        self.meta = meta
        self.methods, self.send, self.rx = [], [], []
        self.tag = 30000
        self.rx_summary = None      # rx-summary.json, when set

    def add(self, grid, method, offsets_ns, kind="train", dropped=(),
            err="", cpu=1000000, rnd=1, delta=0, mode="-", spin=0,
            stalls=(0, 0), alpha=ALPHA, warmup=0, point=0, restore=0,
            rx_src="wire", kthread=0):
        """offsets_ns[i]: packet i's schedule error at the observer, None:
        sent but not seen; dropped: refused by the sender.  point: how much
        later than the others the observer sees this method after its TX
        timestamp; restore: added to rx.csv's sched_ns of every third row
        (the probe's restoration going wrong)."""
        tag = self.tag
        self.tag += 1
        n = len(offsets_ns)
        count = n // 2 if kind == "pair" else n
        vals = dict(zip(OLD_HEAD, [
            tag, grid, rnd, method, kind, count, alpha, 48, 0, delta, mode,
            "-", "-", T0, cpu, cpu, 1, n, n - len(dropped), len(dropped),
            0, spin, stalls[0], stalls[1], err]))
        vals.update(seed=7, warmup=warmup, guard_ns=20000 if mode ==
                    "hybrid" else "", guard_misses=1 if spin else "",
                    cpu_kthread_ns=kthread)
        self.methods.append({k: vals[k] for k in self.head})
        src = "txsw" if method in SOCKET or method.startswith("ETF") \
            else "omware"
        for i, off in enumerate(offsets_ns):
            sched = T0 + (i // 2 if kind == "pair" else i) * alpha
            if i in dropped:
                self.send.append([tag, i, sched, 0, "none", 0, "dropped"])
                continue
            rx = sched + (off or 0) + LAT
            self.send.append([tag, i, sched, rx - LAT - point, src, 0,
                              "sent"])
            if off is not None:
                self.rx.append([tag, i, sched + (restore if i % 3 == 0
                                                 else 0), rx, rx_src, 0, 0,
                                0, 48])

    def write(self, d):
        with open(os.path.join(d, "methods.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=self.head)
            w.writeheader()
            w.writerows(self.methods)
        write_rows(os.path.join(d, "send.csv"),
                   "tag,seq,sched_ns,sent_ns,sent_src,user_ns,status",
                   self.send)
        write_rows(os.path.join(d, "rx.csv"),
                   "tag,seq,sched_ns,rx_ns,rx_src,kern_ns,udp_ns,user_ns,"
                   "size", self.rx)
        if self.meta is not None:
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(self.meta, f)
        if self.rx_summary is not None:
            with open(os.path.join(d, "rx-summary.json"), "w") as f:
                json.dump(self.rx_summary, f)


def write_rows(path, head, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head.split(","))
        w.writerows(rows)


def jitter(n, amp, spike=0, every=0):
    """Alternating +-amp offsets, with a spike every `every` packets."""
    out = []
    for i in range(n):
        v = amp if i % 2 else -amp
        if every and i % every == every - 1:
            v += spike
        out.append(v)
    return out


def missing(offsets, every):
    """offsets with every `every`-th packet lost on the way."""
    return [None if i % every == every - 1 else v
            for i, v in enumerate(offsets)]


WIRE = {"observer": "wire", "seed": 7, "mode": "full"}


def build(d):
    """An older run: no seed, warm-up or guard columns, no run.json."""
    r = Run(new=False)
    g = "a1000-s48-idle"
    # OIR: IDT errors of 2*2 us, two 2 ms stalls; RSM: 20 ms stalls.
    r.add(g, "OIR", jitter(200, 2000, 2000000, 100))
    r.add(g, "OIR-hybrid", jitter(200, 1000), mode="hybrid",
          spin=150 * ALPHA, stalls=(7, 900000))
    r.add(g, "RSM", jitter(200, 10000, 20000000, 50), cpu=4000000)
    # etf: 100 us drops one packet, 500 us none, 1000 us none.
    r.add(g, "ETF-100", jitter(200, 1000), dropped={7}, delta=100000)
    r.add(g, "ETF-500", jitter(200, 30000, 5000000, 20), delta=500000)
    r.add(g, "ETF-1000", jitter(200, 1000), delta=1000000)
    # A workload where OMware failed outright.
    g2 = "a100-s48-idle"
    r.add(g2, "OIR-hybrid", [None] * 200, err="omware module not loaded")
    r.add(g2, "RSM", jitter(200, 10000))
    # Every etf delta dropped a packet.
    g3 = "a10-s48-idle"
    r.add(g3, "OIR-hybrid", jitter(200, 1000), mode="hybrid")
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


# A full run's methods on trains (ETF* made of the one delta).
FULL_TRAINS = ("OIR-hybrid", "OIR", "OIR-qdisc", "OIR-hybrid-qdisc", "OFR",
               "OSM", "RSM", "RSM-RT", "ETF-10000", "FQ")


def build_full(d, packets=200):
    """A run of full size: 12 train workloads of 10 methods and 4 pair
    workloads of 3, as make bench-omware runs; errors spread over five
    decades, as a loaded guest's are."""
    rng = random.Random(5)
    r = Run(meta=dict(WIRE))

    def errors():
        return [int(rng.lognormvariate(9, 2)) for _ in range(packets)]
    for alpha in (1000, 100, 10):
        for size in (40, 1500):
            for load in ("idle", "load"):
                g = "a%d-s%d-%s" % (alpha, size, load)
                for m in FULL_TRAINS:
                    r.add(g, m, errors(), alpha=alpha * 1000,
                          delta=10 ** 7 if m.startswith("ETF") else 0)
    for size in (40, 1500):
        for load in ("idle", "load"):
            for m in ("TOM", "TOM-hybrid", "TRW"):
                r.add("pairs-s%d-%s" % (size, load), m, errors(),
                      kind="pair")
    r.write(d)


def analyze(d, *args):
    return subprocess.run([sys.executable, ANALYZE] + list(args) + [d],
                          capture_output=True, text=True)


def scenario(add, *args):
    """Analyse the run add(Run) makes: (analysis.json, the process, the
    summary printed)."""
    with tempfile.TemporaryDirectory() as d:
        r = Run(meta=dict(WIRE))
        add(r)
        r.write(d)
        p = analyze(d, "--no-plots", "--summary", *args)
        res = {}
        if os.path.exists(os.path.join(d, "analysis.json")):
            with open(os.path.join(d, "analysis.json")) as f:
                res = json.load(f)
        return res, p, p.stdout


def target(res, grid, reference, metric=None):
    """The check of a workload against a reference ("run": the
    timestamp-point check, "observer": the observer's), by one metric if
    given, or {}."""
    label = {"run": "same point", "observer": "observer"}.get(reference)
    return next((t for t in res.get("targets", []) if t["grid"] == grid
                 and (t.get("reference") == reference or
                      label and t.get("label") == label) and
                 metric in (None, t.get("metric"))), {})


def row(res, grid, method):
    return next((r for r in res.get("rows", []) if r["grid"] == grid and
                 r["method"] == method), {})


def width(text, d):
    """The longest line, the output directory counted as "OUTDIR"."""
    return max(len(ln.replace(d, "OUTDIR")) for ln in text.splitlines())


def row_of(text, name):
    """The words of the first line that starts with the word name."""
    return next((ln.split() for ln in text.splitlines()
                 if ln.split()[:1] == [name]), [])


def words(text):
    """text on one line, wrapped lines joined."""
    return " ".join(text.split())


def check_old_run(check, res):
    """The metrics of the older run build() made."""
    rows = {(r["grid"], r["method"]): r for r in res.get("rows", [])}
    oir = rows.get(("a1000-s48-idle", "OIR"), {})
    # 196 gaps of 4 us, 3 of 2004 us around the two stalls.
    check("OIR p99 IDT error reaches the stalls",
          abs(oir.get("rx_idt_p99_ns", 0) - 2004000) < 1)
    check("OIR median IDT error", oir.get("rx_idt_p50_ns") == 4000)
    check("OIR fraction within 20 us",
          abs(oir.get("rx_within20_frac", 0) - 196 / 199) < 1e-6)
    check("offset c: the median rx - TX timestamp of the socket methods",
          res.get("offset_c_ns") == LAT and res.get("offset_c_n", 0) > 0)
    # Two stalls in 200 packets are 1 %: p99 stays below them.
    check("OIR schedule error: p50 and p99 2 us, max the 2 ms stall",
          oir.get("rx_sched_p50_ns") == 2000 and
          oir.get("rx_sched_p99_ns") == 2000 and
          oir.get("rx_sched_max_ns") == 2002000)
    etf = rows.get(("a1000-s48-idle", "ETF*"), {})
    check("ETF* is the largest delta tried, not the best-looking one",
          etf.get("etf_deltas") == "ETF-1000")
    t = target(res, "a1000-s48-idle", "RSM")
    check("RSM target judges OIR-hybrid's p99 schedule error",
          t.get("result") == "PASS" and t.get("subject") == "OIR-hybrid" and
          t.get("value_ns") == 1000 and t.get("ref_ns") == 20010000)
    t = target(res, "a1000-s48-idle", "ETF*")
    check("ETF* target compares against ETF-1000", t.get("result") == "FAIL"
          and t.get("ref_ns") == etf.get("rx_sched_p99_ns") == 1000)
    t = target(res, "a1000-s48-idle", "RSM-RT")
    check("an older run without RSM-RT: that target is N/A, saying why",
          t.get("result") == "N/A" and t.get("why") == "no RSM-RT run")
    t = target(res, "a100-s48-idle", "RSM")
    check("a failed OMware run is a FAIL, not a pass",
          t.get("result") == "FAIL" and "error: omware module not loaded"
          in t.get("why", ""))
    t = target(res, "a10-s48-idle", "ETF*")
    check("an etf run that dropped 0.5 % is judged, its drops lost",
          t.get("result") in ("PASS", "FAIL") and
          row(res, "a10-s48-idle", "ETF*").get("rx_lost") == 1)
    for metric in ("gap50", "gap99"):
        t = target(res, "pairs-s48-idle", "TRW", metric)
        check("pair target %s: TOM gap 1 us vs TRW 20 us" % metric,
              t.get("result") == "PASS" and
              abs(t.get("ratio", 0) - 0.05) < 1e-6)
    check("CPU ratio against RSM", abs(
        oir.get("cpu_vs_ref", 0) - 0.25) < 1e-9 and
        rows.get(("a1000-s48-idle", "RSM"), {}).get("cpu_vs_ref") == 1.0)
    hyb = rows.get(("a1000-s48-idle", "OIR-hybrid"), {})
    check("hybrid spin: 150 of 200 spacings, 7 stalls up to 900 us;"
          " none for other modes; no guard columns in an older run",
          abs(hyb.get("spin_frac", 0) - 0.75) < 1e-9 and
          hyb.get("spin_stalls") == 7 and
          hyb.get("spin_stall_max_ns") == 900000 and
          oir.get("spin_frac", 1) is None and
          hyb.get("guard_ns", 1) is None)
    check("every method at one timestamp point",
          target(res, "run", "run").get("result") == "PASS")
    check("counts the checks", res.get("counts") ==
          {"PASS": 5, "FAIL": 5, "N/A": 3, "NOT MEASURED": 0})
    check("no observer summary: that check is N/A",
          target(res, "run", "observer").get("result") == "N/A")


def check_summary(check, d):
    """The short summary of the run build() made."""
    p = analyze(d, "--summary", "--no-plots")
    out = p.stdout
    check("summary: exits 0 with a failing check (no --strict), every line"
          " at most 80 columns",
          p.returncode == 0 and out and width(out, d) <= 80)
    with open(os.path.join(d, "summary.txt")) as f:
        check("summary: summary.txt holds what was printed", f.read() == out)
    # Workloads in order a1000, a100, a10.
    check("summary: OIR-hybrid's p99 schedule error in us per workload",
          row_of(out, "OIR-hybrid")[1:4] == ["1.0", "failed", "1.0"])
    # No etf run in a100: ETF*'s second cell is the a10 one.
    check("summary: ETF* is the largest delta in every workload with etf;"
          " the one without leaves its cell empty",
          row_of(out, "ETF*")[1:3] == ["1.0", "1.0"])
    check("summary: the failed OMware run is a failing check",
          "FAIL a100-s48-idle p99 <= RSM/5 inf > 0.20; OIR-hybrid inf us,"
          " RSM 10.0 us; OIR-hybrid run incomplete: error: omware module"
          " not loaded" in words(out))
    check("summary: a check passing with its ratio, bound and values",
          "PASS pairs-s48-idle gap99 <= TRW/2 0.05 <= 0.50; TOM 1.0 us, TRW"
          " 20.0 us" in words(out))
    check("summary: states c, the pre-registered methods, the short run and"
          " that the observer is not the wire tap",
          "Offset c = 5.0 us" in out and
          "Pre-registered: OIR-hybrid (trains), TOM (pairs)" in out and
          "\nShort run (1 round, 200 packets per cell): noisy; verdicts"
          " indicative only.\n" in out and
          "warning: the observer is unknown, not the wire tap" in
          words(out))
    check("summary: counts N/A apart",
          "Checks: 5 pass, 5 fail, 3 N/A" in out)
    check("summary: says where the full table is",
          "Full table: %s" % os.path.join(d, "table.txt") in out)
    with open(os.path.join(d, "table.txt")) as f:
        table = f.read()
    check("table: schedule error before the IDT metrics",
          0 < table.find(" p99 ") < table.find(" idt99 "))


def bursty(r):
    """At 10 us spacing OIR-hybrid leaves in 200-packet bursts, each at its
    last packet's time (up to 2 ms late); RSM and RSM-RT within 25 us."""
    g, a = "a10-s40-idle", 10000
    r.add(g, "OIR-hybrid", [(199 - i % 200) * a for i in range(1000)],
          alpha=a, mode="hybrid")
    r.add(g, "RSM", jitter(1000, 25000), alpha=a)
    r.add(g, "RSM-RT", jitter(1000, 5000), alpha=a, mode="rt")


def check_bursty(check):
    res, _p, _out = scenario(bursty)
    g = "a10-s40-idle"
    check("bursty-late: the RSM and RSM-RT targets FAIL",
          target(res, g, "RSM").get("result") == "FAIL" and
          target(res, g, "RSM-RT").get("result") == "FAIL")
    hyb, rsm = row(res, g, "OIR-hybrid"), row(res, g, "RSM")
    check("bursty-late: the IDT metrics alone would have passed it (99 %"
          " within 20 us, IDT p99 at a fifth of RSM's)",
          hyb.get("rx_within20_frac", 0) > 0.99 and
          0 < hyb.get("rx_idt_p99_ns", 0) * 5 <= rsm.get("rx_idt_p99_ns", 0))


def late_episodes(r):
    """OIR-hybrid on time but for packets 10-14 (2 ms late), 15 (0.5 ms:
    not late) and 50 (3 ms early); one lost (60); RSM never late."""
    g = "a1000-s40-idle"
    off = [0] * 200
    for i in range(10, 15):
        off[i] = 2000000
    off[15], off[50], off[60] = 500000, -3000000, None
    r.add(g, "OIR-hybrid", off, mode="hybrid")
    r.add(g, "RSM", jitter(200, 10000))


def check_late(check):
    with tempfile.TemporaryDirectory() as d:
        r = Run(meta=dict(WIRE))
        late_episodes(r)
        r.write(d)
        analyze(d, "--no-plots", "-q")
        with open(os.path.join(d, "analysis.json")) as f:
            res = json.load(f)
        with open(os.path.join(d, "table.txt")) as f:
            table = f.read()
    hyb, rsm = row(res, "a1000-s40-idle", "OIR-hybrid"), \
        row(res, "a1000-s40-idle", "RSM")
    check("late/runs: 6 packets more than 1 ms off in 2 runs, a lost one"
          " not among them; none for RSM",
          (hyb.get("rx_late"), hyb.get("rx_late_runs")) == (6, 2) and
          (rsm.get("rx_late"), rsm.get("rx_late_runs")) == (0, 0))
    check("late/runs: in the table, OIR-hybrid's row",
          any(ln.split()[:2] == ["a1000-s40-idle", "OIR-hybrid"] and
              ln.split()[-1] == "6/2" for ln in table.splitlines()))


def lossy(lost_every, dropped=()):
    def add(r):
        g = "a1000-s40-idle"
        r.add(g, "OIR-hybrid", missing([0] * 1000, lost_every),
              dropped=dropped, mode="hybrid")
        r.add(g, "RSM", jitter(1000, 10000))
    return add


def check_lost(check):
    g = "a1000-s40-idle"
    res, _p, _out = scenario(lossy(50))
    t = target(res, g, "RSM")
    check("2 % lost: p99 infinite, the target FAILs",
          row(res, g, "OIR-hybrid").get("rx_sched_p99_ns") == "inf" and
          t.get("result") == "FAIL" and
          t.get("why") == "OIR-hybrid run incomplete: lost 2.0 %")
    # 3 lost on the way, 2 refused by the sender: 0.5 %.
    res, _p, _out = scenario(lossy(300, dropped={10, 20}))
    r = row(res, g, "OIR-hybrid")
    check("0.5 % lost (sender drops included): p99 finite, the lost"
          " counted, max infinite",
          r.get("rx_lost") == 5 and r.get("rx_sched_p99_ns") == 0 and
          r.get("rx_sched_max_ns") == "inf" and
          target(res, g, "RSM").get("result") == "PASS")


def late_point(r):
    """ETF's packets seen 500 us after their TX timestamp, the others at
    LAT; TRW's pairs too."""
    g = "a1000-s40-idle"
    r.add(g, "OIR-hybrid", jitter(200, 1000), mode="hybrid")
    r.add(g, "RSM", jitter(200, 10000))
    r.add(g, "RSM-RT", jitter(200, 2000), mode="rt")
    r.add(g, "ETF-500", jitter(200, 1000), delta=500000, point=500000)
    r.add("pairs-s40-idle", "TRW", [0, 20000] * 100, kind="pair")


def check_point(check):
    res, _p, out = scenario(late_point)
    t = target(res, "run", "run")
    check("a later timestamp point: the check FAILs naming ETF-500 alone",
          t.get("result") == "FAIL" and t.get("why") ==
          "observed at another point: ETF-500 +500.0 us" and
          "ETF-500 +500.0 us" in words(out))
    check("the wire observer: no warning", "warning" not in out)
    check("omware's reported send times are in the point check",
          set(t.get("offsets_ns", {})) ==
          {"OIR-hybrid", "RSM", "RSM-RT", "ETF-500", "TRW"})
    res, _p, out = scenario(late_omware)
    t = target(res, "run", "run")
    check("omware seen 500 us after its reported send time: the point"
          " check FAILs naming OIR-qdisc alone",
          t.get("result") == "FAIL" and t.get("why") ==
          "observed at another point: OIR-qdisc +500.0 us" and
          res.get("offset_c_ns") == LAT)
    res, _p, _out = scenario(lossy_point)
    check("a run that lost half its packets takes no part in the point"
          " check", target(res, "run", "run").get("result") == "PASS")
    res, _p, out = scenario(omware_only)
    check("no socket method: c = 0, said so; the point check N/A",
          res.get("offset_c_ns") == 0 and
          "Offset c = 0: no socket method's TX timestamp" in out and
          target(res, "run", "run").get("result") == "N/A")


def late_omware(r):
    """OIR-qdisc's packets seen 500 us after the send time omware reported
    for them; OIR-hybrid and RSM at LAT after theirs."""
    g = "a1000-s40-idle"
    r.add(g, "RSM", jitter(200, 10000))
    r.add(g, "OIR-hybrid", jitter(200, 1000), mode="hybrid")
    r.add(g, "OIR-qdisc", jitter(200, 1000), point=500000)


def lossy_point(r):
    """An etf delta too small: half its packets lost, the rest seen 300 us
    after their TX timestamp; the delta that worked at the others' point."""
    g = "a1000-s40-idle"
    r.add(g, "RSM", jitter(200, 10000))
    r.add(g, "ETF-50", missing(jitter(200, 1000), 2), delta=50000,
          point=300000)
    r.add(g, "ETF-500", jitter(200, 1000), delta=500000)


def omware_only(r):
    r.add("a1000-s40-idle", "OIR-hybrid", jitter(100, 1000), mode="hybrid")


def missing_ref(hybrid_amp, rt_err="sched_setscheduler: EPERM", rt_lost=0):
    """Two rounds of 500 packets; RSM-RT reported an error (or lost
    packets) but delivered."""
    def add(r):
        g = "a1000-s40-idle"
        for rnd in (1, 2):
            r.add(g, "OIR-hybrid", jitter(500, hybrid_amp), rnd=rnd,
                  mode="hybrid")
            rt = jitter(500, 10000)
            r.add(g, "RSM-RT", missing(rt, rt_lost) if rt_lost else rt,
                  rnd=rnd, err=rt_err, mode="rt")
    return add


def check_missing_ref(check):
    g = "a1000-s40-idle"
    res, _p, out = scenario(missing_ref(50000))
    t = target(res, g, "RSM-RT")
    check("missing reference: OIR-hybrid worse than what RSM-RT delivered"
          " is a FAIL", t.get("result") == "FAIL" and
          t.get("why", "").startswith("worse than what RSM-RT delivered") and
          t.get("round_ratios") == [5.0, 5.0])
    check("a run of 2 rounds of 500: no short-run line",
          "Short run" not in out)
    res, _p, _out = scenario(missing_ref(2000))
    t = target(res, g, "RSM-RT")
    check("missing reference: OIR-hybrid better is N/A, saying why",
          t.get("result") == "N/A" and t.get("why") ==
          "RSM-RT run incomplete: error: sched_setscheduler: EPERM")
    res, _p, _out = scenario(missing_ref(50000, "", 33))
    t = target(res, g, "RSM-RT")
    check("a reference that lost 3 %: its p99 is infinite, N/A",
          t.get("result") == "N/A" and t.get("why") ==
          "RSM-RT run incomplete: lost 3.0 %")


def restored(shift):
    def add(r):
        g = "a1000-s40-idle"
        r.add(g, "OIR-hybrid", jitter(300, 3000, 70000, 40), mode="hybrid",
              restore=shift)
        r.add(g, "RSM", jitter(300, 10000), restore=shift)
    return add


def check_restore(check):
    plain, _p, _o = scenario(restored(0))
    off, _p, _o = scenario(restored(2 ** 32))
    keys = ("rx_sched_p99_ns", "rx_sched_bias_ns", "rx_idt_p99_ns")
    check("rx.csv's sched_ns 2^32 ns off in some rows: no effect",
          plain.get("rows") and
          [[r.get(k) for k in keys] for r in plain["rows"]] ==
          [[r.get(k) for k in keys] for r in off.get("rows", [])] and
          plain["targets"] == off["targets"])


def warm(r):
    g = "a1000-s40-idle"
    r.add(g, "OIR-hybrid", [10 ** 7] * 100, rnd=0, warmup=1, mode="hybrid")
    r.add(g, "RSM", [None] * 100, rnd=0, warmup=1)
    r.add(g, "OIR-hybrid", jitter(100, 1000), mode="hybrid")
    r.add(g, "RSM", jitter(100, 10000))


def check_warmup(check):
    res, _p, out = scenario(warm)
    r = row(res, "a1000-s40-idle", "OIR-hybrid")
    check("warm-up trials discarded entirely",
          r.get("rounds") == 1 and r.get("rx_sched_p99_ns") == 1000 and
          res.get("info", {}).get("warmup_trials") == 2 and
          res["info"].get("rx_unknown_tags") == 0 and
          target(res, "a1000-s40-idle", "RSM").get("result") == "PASS" and
          "Order: seed 7; 2 warm-up trials discarded." in out)
    check("the guard's columns read", r.get("guard_ns") == 20000)


def check_strict(check):
    _r, fail, _o = scenario(lossy(50), "--strict")
    _r, lax, _o = scenario(lossy(50))
    _r, na, _o = scenario(warm, "--strict")
    with tempfile.TemporaryDirectory() as d:
        empty = analyze(d, "--strict")
    check("--strict: exit 1 on a FAIL, 0 without --strict, 0 with N/A"
          " only, 2 without input",
          (fail.returncode, lax.returncode, na.returncode,
           empty.returncode) == (1, 0, 0, 2))


def prereg(r):
    """OIR-hybrid fails against RSM (round 1 by 30x, round 2 by 10x);
    OIR-qdisc would pass."""
    g = "a1000-s40-idle"
    for rnd, amp in ((1, 3000000), (2, 1000000)):
        r.add(g, "OIR-hybrid", jitter(200, amp), rnd=rnd, mode="hybrid")
        r.add(g, "OIR-qdisc", jitter(200, 1000), rnd=rnd)
        r.add(g, "RSM", jitter(200, 100000), rnd=rnd)


def check_prereg(check):
    res, _p, _out = scenario(prereg)
    t = target(res, "a1000-s40-idle", "RSM")
    check("pre-registration: a better OIR-qdisc does not rescue OIR-hybrid",
          t.get("result") == "FAIL" and t.get("subject") == "OIR-hybrid" and
          len([x for x in res["targets"] if x.get("reference") == "RSM"]) == 1
          and not row(res, "a1000-s40-idle", "OIR-qdisc").get(
              "preregistered", True))
    check("per-round spread next to the pooled ratio",
          t.get("ratio") == 30.0 and t.get("round_ratios") == [30.0, 10.0]
          and t.get("round_min") == 10.0 and t.get("round_max") == 30.0)


def check_wide(check):
    with tempfile.TemporaryDirectory() as d:
        build_wide(d, 15)
        out = analyze(d, "--summary", "--no-plots").stdout
        lines = out.splitlines()
        check("summary of 15 workloads: at most 80 columns, every workload"
              " shown in both tables", lines and width(out, d) <= 80 and
              sum(ln.split()[2:].count(str(1000 + i)) for ln in lines
                  if ln.startswith("alpha") for i in range(15)) == 30)


def check_png(check, skip):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        skip("schedule error CDF drawn", "matplotlib not installed")
        return
    with tempfile.TemporaryDirectory() as d:
        build(d)
        p = analyze(d, "--summary", "--plots", "cdf")
        png = os.path.join(d, "sched-error-cdf.png")
        magic = b""
        if os.path.exists(png):
            with open(png, "rb") as f:
                magic = f.read(8)
        check("--plots cdf draws sched-error-cdf.png only, and says where",
              p.returncode == 0 and magic == b"\x89PNG\r\n\x1a\n" and
              not os.path.exists(os.path.join(d, "plots")) and
              "Schedule error CDF per method: %s" % png in p.stdout)


def read_plots(d):
    path = os.path.join(d, "plots.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def check_plots_size(check):
    with tempfile.TemporaryDirectory() as d:
        build_full(d)
        p = analyze(d, "--no-plots", "-q")
        size = os.path.getsize(os.path.join(d, "plots.json")) \
            if p.returncode == 0 else PLOTS_MAX_BYTES
        cells = read_plots(d).get("figures", {}).get("cells", {})
    check("a full-size run, analysed without plots, keeps plots.json under"
          " %d bytes (%d)" % (PLOTS_MAX_BYTES, size),
          size < PLOTS_MAX_BYTES)
    check("plots.json: 16 workloads, 132 methods' cells, ETF* for the"
          " single etf delta", len(cells) == 16 and
          sum(len(ms) for ms in cells.values()) == 132 and
          "ETF*" in cells.get("a10-s40-load", {}) and
          not any("ETF-10000" in ms for ms in cells.values()))


def level(doc, curve, p):
    """A kept curve's value at level p."""
    return curve["q"][doc["levels"].index(p)]


def check_plots_content(check, d):
    """plots.json of the run build() made: OIR's errors 2 us but two of
    2002 us; TOM's pairs 1 us apart."""
    doc = read_plots(d)
    cells = doc.get("figures", {}).get("cells", {})
    sched = cells.get("a1000-s48-idle", {}).get("OIR", {}).get(
        "sched_error", {"q": []})
    check("plots.json: OIR's |schedule error| CDF in us, p99 2 us, its"
          " tail 2002 us to three digits",
          doc.get("version") == 1 and sched.get("total") == 200 and
          [level(doc, sched, p) for p in (0.5, 0.99, 0.995, 1.0)] ==
          [2, 2, 2000, 2000])
    tom = cells.get("pairs-s48-idle", {}).get("TOM", {})
    check("plots.json: a pair method's gap CDF, no schedule error CDF",
          "gap" in tom and level(doc, tom["gap"], 0.5) == 1 and
          "sched_error" not in tom)


def check_replot(check, skip, d):
    """The figures of the run build() made, analysed into d, drawn again
    from a copy of plots.json alone: drawing needs nothing else and is
    deterministic.  Bad copies of it refused."""
    with tempfile.TemporaryDirectory() as tmp:
        p, run, again = plotcheck.redrawn(ANALYZE, d, tmp)
        bad = plotcheck.refusals(ANALYZE, os.path.join(d, "plots.json"), tmp)
    for what, rp, path in bad:
        check("--from-plots refuses a plots.json %s, naming it" % what,
              rp.returncode == 2 and path in rp.stderr)
    if p.returncode == plotcheck.NO_MATPLOTLIB and not run:
        skip("figures drawn from plots.json alone", "matplotlib not"
             " installed (--from-plots exits 1)")
        return
    check("--from-plots needs only plots.json and draws deterministically:"
          " the run's figures again, the same files",
          p.returncode == 0 and len(run) == 12 and
          "sched-error-cdf.png" in run and
          "plots/idt-error-cdf.png" in run and run == again)
    with tempfile.TemporaryDirectory() as tmp:
        cdf = plotcheck.replot(ANALYZE, os.path.join(d, "plots.json"),
                               "--plots", "cdf", "-o", tmp)
        check("--from-plots --plots cdf: sched-error-cdf.png alone, its"
              " path printed", cdf.returncode == 0 and
              list(plotcheck.figures(tmp)) == ["sched-error-cdf.png"] and
              cdf.stdout == os.path.join(tmp, "sched-error-cdf.png") + "\n")


def observed(drops=0, src="wire"):
    """RSM and OIR-hybrid seen by an observer that dropped `drops` packets
    and stamped OIR-hybrid's with `src`."""
    def add(r):
        g = "a1000-s40-idle"
        r.rx_summary = {"pkt_socket_drops": drops, "nomem": 0}
        r.add(g, "RSM", jitter(200, 10000))
        r.add(g, "OIR-hybrid", jitter(200, 1000), mode="hybrid", rx_src=src,
              cpu=1000000, kthread=3000000)
    return add


def check_observer(check):
    g = "a1000-s40-idle"
    res, _p, _out = scenario(observed())
    check("an observer that dropped nothing and stamped every packet: PASS",
          target(res, "run", "observer").get("result") == "PASS")
    check("CPU per packet counts omware's hybrid kthread",
          row(res, g, "OIR-hybrid").get("cpu_proc_ns_per_pkt") == 20000)
    res, _p, _out = scenario(observed(drops=3))
    t = target(res, "run", "observer")
    check("an observer that dropped packets: FAIL, saying how many",
          t.get("result") == "FAIL" and
          t.get("why") == "3 packets dropped by the observer")
    res, _p, _out = scenario(observed(src="user"))
    t = target(res, "run", "observer")
    check("packets stamped by the observer's own clock are unseen: lost,"
          " and the observer check FAILs",
          row(res, g, "OIR-hybrid").get("rx_lost") == 200 and
          t.get("result") == "FAIL" and
          t.get("why") == "200 without a kernel stamp")


def no_prereg(r):
    g = "a1000-s40-idle"
    r.add(g, "RSM", jitter(200, 10000))
    r.add(g, "OIR-qdisc", jitter(200, 1000), mode="timer")


def check_no_prereg(check):
    t = target(scenario(no_prereg)[0], "a1000-s40-idle", "RSM")
    check("the pre-registered method did not run: FAIL, not N/A",
          t.get("result") == "FAIL" and t.get("why") == "no OIR-hybrid run")


def one_good_pair(r):
    """TOM: one pair 0.1 us apart, the other 99 50 us apart; TRW 20 us."""
    p = "pairs-s40-idle"
    r.add(p, "TOM", [0, 100] + [0, 50000] * 99, kind="pair")
    r.add(p, "TRW", [0, 20000] * 100, kind="pair")


def lost_pairs(r):
    """TOM: every pair 1 us apart, but two lost their second packet (1 % of
    the packets, as much as a run may lose); TRW 20 us."""
    p = "pairs-s40-idle"
    tom = [0, 1000] * 100
    tom[3] = tom[101] = None
    r.add(p, "TOM", tom, kind="pair")
    r.add(p, "TRW", [0, 20000] * 100, kind="pair")


def check_pairs(check):
    p = "pairs-s40-idle"
    res, _p, _out = scenario(one_good_pair)
    check("one good pair, the rest bad: both pair targets FAIL, though the"
          " smallest gap is 1/200 of TRW's",
          target(res, p, "TRW", "gap50").get("result") == "FAIL" and
          target(res, p, "TRW", "gap99").get("result") == "FAIL" and
          row(res, p, "TOM").get("rx_gap_min_ns") == 100 and
          row(res, p, "TOM").get("rx_gap_err_p50_ns") == 50000)
    res, _p, _out = scenario(lost_pairs)
    t = target(res, p, "TRW", "gap99")
    check("two pairs of 100 not seen whole: infinite gap errors, the p99"
          " target FAILs, the p50 one PASSes",
          row(res, p, "TOM").get("rx_gap_pairs_lost") == 2 and
          t.get("result") == "FAIL" and t.get("value_ns") == "inf" and
          target(res, p, "TRW", "gap50").get("result") == "PASS")


def main():
    checks = []

    def check(desc, ok):
        checks.append((desc, bool(ok), ""))

    def skip(desc, why):
        checks.append((desc, True, " # SKIP " + why))

    with tempfile.TemporaryDirectory() as d:
        build(d)
        # with matplotlib the plots too, drawn again below
        p = analyze(d, "-q")
        check("tw-omware-analyze reads an older run, exits 0",
              p.returncode == 0)
        if p.returncode:
            sys.stderr.write(p.stderr)
        res = {}
        jp = os.path.join(d, "analysis.json")
        if os.path.exists(jp):
            with open(jp) as f:
                res = json.load(f)
        check_old_run(check, res)
        check_summary(check, d)
        check_plots_content(check, d)
        check_replot(check, skip, d)
    check_plots_size(check)
    for each in (check_bursty, check_late, check_lost, check_point,
                 check_missing_ref, check_restore, check_warmup,
                 check_strict, check_prereg, check_wide, check_observer,
                 check_no_prereg, check_pairs):
        each(check)
    check_png(check, skip)

    print("TAP version 13")
    print("1..%d" % len(checks))
    for i, (desc, ok, directive) in enumerate(checks, 1):
        print("%s %d - %s%s" % ("ok" if ok else "not ok", i, desc,
                                directive))
    return 0 if all(ok for _d, ok, _s in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
