#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of tw-tfib-analyze on made-up runs whose answers are worked
out by hand, and of tw-tfib-trace's files.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import csv
import importlib.machinery
import importlib.util
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.dont_write_bytecode = True     # nothing left behind in the tree
from taptest import tap_main  # noqa: E402
import plotcheck  # noqa: E402
import twbench  # noqa: E402
TOOLS = HERE
ANALYZE = os.path.join(TOOLS, "tw-tfib-analyze")
TRACE = os.path.join(TOOLS, "tw-tfib-trace")
US = 1000


def load_analyzer():
    """The script as a module, for its functions."""
    loader = importlib.machinery.SourceFileLoader("tw_tfib_analyze", ANALYZE)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


FA = load_analyzer()


def write_run(d, events, meta=None):
    """events: (event, t_ns, user, seq, addr_ns, addr_seq) rows."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "events.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["event", "t_ns", "user", "seq", "addr_ns", "addr_seq"])
        w.writerows(events)
    if meta is not None:
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(meta, f)


def analyze(d, *args):
    return subprocess.run([sys.executable, ANALYZE, "-q"] + list(args) +
                          [d], capture_output=True, text=True)


def run_summary(events, meta=None):
    """aoi.json of one made-up run, analysed by the tool."""
    with tempfile.TemporaryDirectory() as d:
        write_run(d, events, meta or {})
        p = analyze(d, "--no-plots")
        if p.returncode:
            raise AssertionError(p.stderr)
        with open(os.path.join(d, "aoi.json")) as f:
            return json.load(f)


def periodic(users=2, n=50, period_us=100, delay_us=20, misaddr_every=0,
             drop_every=0):
    """Every user sends a data packet every period; each returns delay
    later, except every drop_every-th (lost).  Every misaddr_every-th is
    preceded by a control packet the forwarder has not applied yet (it
    comes back with the old sequence): misaddressed."""
    tx, rx, ctl_seq = [], [], 0
    for i in range(n):
        for u in range(1, users + 1):
            t = (i * period_us + u) * US
            addr = ctl_seq
            if misaddr_every and i % misaddr_every == misaddr_every - 1:
                ctl_seq += 1
                tx.append(("ctl_tx", t - 1, u, ctl_seq, t - 1, ""))
            tx.append(("data_tx", t, u, i, "", ""))
            if not (drop_every and i % drop_every == drop_every - 1):
                rx.append(("data_rx", t + delay_us * US, u, i, 0, addr))
    return tx + rx


def meta(sync, rate, cdr=0.1, fwd="ring", **more):
    m = {"rate_pps": rate, "burst": 32, "cdr": cdr, "users": 2,
         "sync": sync, "fwd": fwd, "control_ring": 64, "data_ring": 1024}
    m.update(more)
    return m


class Sawtooth(unittest.TestCase):
    """The time-average age, worked out by hand."""

    def test_three_updates(self):
        # generated 0, 10, 20; received 5, 12, 30; run ends at 40:
        # area 59.5 + 198 + 150 over 35
        self.assertAlmostEqual(FA.sawtooth([(5, 0), (12, 10), (30, 20)], 40),
                               407.5 / 35)

    def test_older_update_late(self):
        # update 10 at 12, then the older 0 at 15: the age keeps growing
        # from 10; area (10^2 - 2^2) / 2 = 48 over [12, 20]
        self.assertAlmostEqual(FA.sawtooth([(12, 10), (15, 0)], 20), 6.0)

    def test_single_update_at_end(self):
        self.assertEqual(FA.sawtooth([(7, 3)], 7), 4.0)

    THREE = [("data_tx", 0, 1, 1, "", ""), ("data_tx", 10, 1, 2, "", ""),
             ("data_tx", 20, 1, 3, "", ""), ("data_rx", 5, 1, 1, 0, 0),
             ("data_rx", 12, 1, 2, 0, 0), ("data_rx", 30, 1, 3, 0, 0)]

    def test_through_the_tool(self):
        s = run_summary(self.THREE, {"end_ns": 40})
        self.assertAlmostEqual(s["age_avg_ns"], 407.5 / 35)

    def test_send_end(self):
        # the source's last send at 25: the integration ends at the last
        # receive (30), not at the drain's end (40): area 59.5 + 198
        # over 25
        s = run_summary(self.THREE, {"end_ns": 40, "send_end_ns": 25})
        self.assertAlmostEqual(s["age_avg_ns"], (59.5 + 198) / 25)
        self.assertEqual(s["end_ns"], 25)

    def test_mean_over_users(self):
        # user 1: 407.5 / 35 as above; user 2: received once at 20, sent
        # at 16, run ends at 40: (4 + 24) / 2 = 14
        ev = [("data_tx", 0, 1, 1, "", ""), ("data_tx", 10, 1, 2, "", ""),
              ("data_tx", 16, 2, 1, "", ""), ("data_tx", 20, 1, 3, "", ""),
              ("data_rx", 5, 1, 1, 0, 0), ("data_rx", 12, 1, 2, 0, 0),
              ("data_rx", 20, 2, 1, 0, 0), ("data_rx", 30, 1, 3, 0, 0)]
        s = run_summary(ev, {"end_ns": 40})
        self.assertAlmostEqual(s["age_avg_ns"], (407.5 / 35 + 14) / 2)
        self.assertEqual(s["users_updated"], 2)

    def test_periodic(self):
        # sent every 100 us, back 20 us later: age D + P / 2 = 70 us for
        # user 2, whose last receive ends the run; user 1's ends 1 us
        # earlier, its age then grows from 20 to 21 us: 49 periods of 70
        # and 20.5 for that last 1 us of 4901
        s = run_summary(periodic())
        self.assertAlmostEqual(s["age_avg_ns"],
                               (343020.5 / 4901 + 70) / 2 * US)


class Misaddressed(unittest.TestCase):

    def events(self):
        return [
            ("data_tx", 0, 1, 1, "", ""),       # no location sent yet
            ("ctl_tx", 10, 1, 5, 10, ""),
            ("data_tx", 11, 1, 2, "", ""),      # after location 5
            ("ctl_tx", 20, 1, 6, 20, ""),
            ("data_tx", 21, 1, 3, "", ""),      # after location 6
            ("ctl_tx", 30, 1, 7, 30, ""),       # same time, earlier row
            ("data_tx", 30, 1, 4, "", ""),      # after location 7
            ("data_rx", 40, 1, 1, 0, 0),        # fresh: none was sent
            ("data_rx", 41, 1, 2, 10, 5),       # fresh
            ("data_rx", 42, 1, 3, 10, 5),       # misaddressed: 6 was sent
            ("data_rx", 43, 1, 4, 20, 6),       # misaddressed: 7 was sent
        ]

    def test_classification(self):
        s = run_summary(self.events(), {"end_ns": 50})
        self.assertEqual(s["misaddressed"], 2)
        self.assertAlmostEqual(s["misaddressed_fraction"], 0.5)
        # the misaddressed updates do not count for the age: 1 (sent at
        # 0) at 40, 2 (sent at 11) at 41, then nothing fresher until 50
        want = (40.5 + (30 + 39) * 9 / 2.0) / 10
        self.assertAlmostEqual(s["age_avg_ns"], want)

    def test_fib_age(self):
        s = run_summary(self.events(), {"end_ns": 50})
        # receive minus addr_ns: 40, 31, 32, 23; send minus it: 0, 1, 11, 10
        self.assertAlmostEqual(s["fib_age_mean_ns"], 126 / 4)
        self.assertAlmostEqual(s["fib_age_low_mean_ns"], 22 / 4)

    def test_periodic(self):
        s = run_summary(periodic(n=40, misaddr_every=4))
        self.assertEqual(s["misaddressed"], 20)
        self.assertEqual(s["control_sent"], 20)


class Drops(unittest.TestCase):

    def test_without_counters(self):
        s = run_summary(periodic(n=50, drop_every=5))
        self.assertEqual((s["data_sent"], s["data_received"],
                          s["data_dropped"]), (100, 80, 20))
        self.assertAlmostEqual(s["data_drop_fraction"], 0.2)
        self.assertIsNone(s["control_dropped"])
        self.assertIsNone(s["data_dropped_forwarder"])

    def test_counters(self):
        m = {"counters": {"rx_control": 15, "control_ring_dropped": 3,
                          "data_ring_dropped": 7, "drop_no_entry": 2}}
        s = run_summary(periodic(n=40, misaddr_every=2), m)
        # 40 control sent, 15 reached the forwarder, 3 of those dropped
        self.assertEqual(s["control_sent"], 40)
        self.assertEqual(s["control_dropped"], 28)
        self.assertAlmostEqual(s["control_drop_fraction"], 0.7)
        self.assertEqual(s["data_dropped_forwarder"], 9)
        # xdp-user: lost before the process read them, or refused
        m = {"fwd": "xdp-user",
             "counters": {"rx_control": 15, "drop_control_queue": 4,
                          "drop_table_full": 1, "drop_bad_mac": 2}}
        s = run_summary(periodic(n=40, misaddr_every=2), m)
        self.assertEqual(s["control_dropped"], 32)
        # tfib: one with a bad MAC was never in rx_control, one the full
        # table refused was
        m["fwd"] = "ring"
        s = run_summary(periodic(n=40, misaddr_every=2), m)
        self.assertEqual(s["control_dropped"], 26)

    def test_cpu_busy(self):
        m = {"cpu_busy_permille": {"cpu10": 5, "cpu1": 450, "cpu0": 990,
                                   "cpux": 7}}
        s = run_summary(periodic(n=10), m)
        self.assertEqual([k for k in s if k.startswith("busy_cpu")],
                         ["busy_cpu0", "busy_cpu1", "busy_cpu10"])
        self.assertAlmostEqual(s["busy_cpu1"], 0.45)
        self.assertEqual(FA.cpu_cell(s), "99/45/0")
        self.assertEqual(FA.cpu_cell(run_summary(periodic(n=10))), "-")

    def test_unmatched_and_duplicates(self):
        ev = [("data_tx", 0, 1, 1, "", ""), ("data_rx", 5, 1, 1, 0, 0),
              ("data_rx", 6, 1, 1, 0, 0), ("data_rx", 7, 1, 9, 0, 0),
              ("data_rx", 8, 2, 1, 0, 0)]
        s = run_summary(ev)
        self.assertEqual((s["data_received"], s["rx_unmatched"]), (1, 3))
        self.assertEqual(s["data_dropped"], 0)

    def test_rates(self):
        s = run_summary(periodic(n=50, misaddr_every=10),
                        meta("rcu", 20000))
        self.assertAlmostEqual(s["cdr_achieved"], 10 / 100)
        self.assertEqual(s["offered_pps"], 20000)
        # 110 packets sent between 1 us and 4902 us (the first control
        # packet goes at 901 us - 1 ns)
        self.assertAlmostEqual(s["sent_pps"], 110 * 1e9 / 4901000)
        # 100 received between 21 us and 4922 us
        self.assertAlmostEqual(s["carried_pps"], 100 * 1e9 / 4901000)


def grid(d, runs):
    """runs: (name, sync, rate, cdr, fwd, periodic's arguments)."""
    for name, sync, rate, cdr, fwd, kw in runs:
        write_run(os.path.join(d, name), periodic(**kw),
                  meta(sync, rate, cdr, fwd))


def checks_of(runs, *args):
    with tempfile.TemporaryDirectory() as d:
        grid(d, runs)
        p = analyze(d, "--no-plots", *args)
        with open(os.path.join(d, "tfib-analysis.json")) as f:
            res = json.load(f)
        return {re.split(" [<>]=", c["name"])[0] + (
            " " + c["name"].rsplit(" ", 1)[1] if "best mode" not in c["name"]
            else ""): c for c in res["checks"]}, p, res


XDP = "best tfib mode's capacity 0.1"

# At CDR 0.1, R 2000: seqcount (the best) carries, age 70 us (20 + 50);
# rwlock 170 us; rcu misaddresses 1 in 4, seqcount 1 in 10.
GOOD = [
    ("rwl-1k", "rwlock", 1000, 0.1, "ring", dict(delay_us=60)),
    ("rwl-2k", "rwlock", 2000, 0.1, "ring", dict(delay_us=120)),
    ("rcu-2k", "rcu", 2000, 0.1, "ring", dict(delay_us=40,
                                              misaddr_every=4)),
    ("seq-1k", "seqcount", 1000, 0.1, "ring", dict(delay_us=30)),
    ("seq-2k", "seqcount", 2000, 0.1, "ring", dict(misaddr_every=10)),
    ("inl-1k", "seqcount", 1000, 0.1, "inline", dict(delay_us=10)),
    ("seq-3k", "seqcount", 3000, 0.1, "ring", dict(drop_every=5)),
]


class Checks(unittest.TestCase):

    def test_pass(self):
        c, p, res = checks_of(GOOD, "--strict")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        age = c["best mode's age"]
        self.assertEqual(age["result"], "PASS")
        # 3000 lost data: the best mode is seqcount at 2000
        self.assertEqual((age["mode"], age["rate_pps"]), ("seqcount", 2000))
        self.assertGreater(age["reference"], 2 * age["value"])
        # 5 of 50 per user misaddressed against rcu's 12 of 50
        self.assertEqual(c["best mode's misaddressed"]["result"], "PASS")
        self.assertAlmostEqual(c["best mode's misaddressed"]["ratio"],
                               10 / 24)
        self.assertEqual(c["inline age at low R 0.1"]["result"], "PASS")
        self.assertEqual(res["counts"], {"PASS": 3, "FAIL": 0, "N/A": 1,
                                         "NOT MEASURED": 0})
        self.assertEqual((c[XDP]["result"], c[XDP]["why"]),
                         ("N/A", "no XDP run"))
        # the ratio to rwlock in the table: D + P / 2 each, but for the
        # last microsecond of user 1 (Sawtooth.test_periodic)
        row = next(r for r in res["runs"] if r["run"] == "seq-1k")
        self.assertAlmostEqual(row["age_vs_rwlock"], 80 / 110, delta=1e-4)
        # seqcount at 2000 loses updates 9, 19, ..., 49 of 50: 41 periods
        # of 100 us at 70 us on average and 4 of 200 us at 120 us, in
        # 4900 us; rwlock's age is 170 us
        self.assertAlmostEqual(age["value"] / age["reference"],
                               (41 * 7000 + 4 * 24000) / 4900 / 170,
                               delta=1e-3)

    def test_fail(self):
        bad = [r for r in GOOD if r[0] not in ("rwl-2k", "rcu-2k",
                                               "inl-1k")]
        bad += [("rwl-2k", "rwlock", 2000, 0.1, "ring", dict(delay_us=60)),
                # seqcount (10 % misaddressed) the best, rcu at 6.7 %
                ("rcu-2k", "rcu", 2000, 0.1, "ring",
                 dict(delay_us=40, misaddr_every=15)),
                ("inl-1k", "seqcount", 1000, 0.1, "inline",
                 dict(delay_us=31))]
        c, p, res = checks_of(bad, "--strict")
        self.assertEqual(p.returncode, 1)
        for name in ("best mode's age", "best mode's misaddressed",
                     "inline age at low R 0.1"):
            self.assertEqual(c[name]["result"], "FAIL", name)
        self.assertIn("FAIL", p.stdout if p.stdout else "FAIL")
        # without --strict a failed check is no error
        self.assertEqual(checks_of(bad)[1].returncode, 0)

    def test_not_applicable(self):
        runs = [r for r in GOOD if r[1] != "rwlock" and r[3] == 0.1]
        c, p, res = checks_of(runs, "--strict")
        self.assertEqual(p.returncode, 0)
        self.assertEqual(c["best mode's age"]["result"], "N/A")
        self.assertEqual(c["best mode's misaddressed"]["result"], "PASS")
        c, p, res = checks_of([("seq-3k", "seqcount", 3000, 0.1, "ring",
                                dict(drop_every=5))], "--strict")
        self.assertEqual([x["result"] for x in c.values()],
                         ["N/A", "N/A", "N/A", "N/A"])

    def test_xdp_capacity(self):
        # an XDP run that carried nothing is N/A, and says so
        c = checks_of(GOOD + [("xdp-3k", None, 3000, 0.1, "xdp",
                               dict(drop_every=5))])[0]
        self.assertEqual(c[XDP]["result"], "N/A")
        self.assertIn("no XDP run carried an R", c[XDP]["why"])
        # seqcount carries up to 2000; the XDP peer 2000 (3000 lost data)
        xdp = [("xdp-2k", None, 2000, 0.1, "xdp", {}),
               ("xdp-3k", None, 3000, 0.1, "xdp", dict(drop_every=5))]
        c, p, res = checks_of(GOOD + xdp, "--strict")
        self.assertEqual((c[XDP]["result"], c[XDP]["value"],
                          c[XDP]["reference"]), ("PASS", 2000, 2000))
        self.assertEqual(p.returncode, 0)
        # the peer carries 4000: twice tfib's 2000, beyond 1.5x
        xdp.append(("xdp-4k", None, 4000, 0.1, "xdp", {}))
        c, p, res = checks_of(GOOD + xdp, "--strict")
        self.assertEqual(c[XDP]["result"], "FAIL")
        self.assertEqual(c[XDP]["ratio"], 2.0)
        self.assertIn("tfib 2000 pps, XDP 4000 pps", c[XDP]["why"])
        self.assertEqual(p.returncode, 1)
        # the XDP peer never counts as the best mode
        self.assertEqual(c["best mode's age"]["mode"], "seqcount")
        # xdp-user is neither the reference nor a tfib mode
        xdp.append(("xdpu-8k", None, 8000, 0.1, "xdp-user", {}))
        c, p, res = checks_of(GOOD + xdp, "--strict")
        self.assertEqual((c[XDP]["value"], c[XDP]["reference"]),
                         (2000, 4000))
        self.assertEqual(c["best mode's age"]["mode"], "seqcount")

    def test_source_slowed_is_not_carried(self):
        # periodic() sends about 20400 pps.  Asked 40000, the XDP peer
        # loses nothing but the source reached half of R: not carried,
        # so its capacity stays 2000 and tfib passes
        xdp = [("xdp-2k", None, 2000, 0.1, "xdp", {}),
               ("xdp-40k", None, 40000, 0.1, "xdp", {})]
        c, p, res = checks_of(GOOD + xdp, "--strict")
        self.assertEqual((c[XDP]["result"], c[XDP]["reference"]),
                         ("PASS", 2000))
        row = next(r for r in res["runs"] if r["run"] == "xdp-40k")
        self.assertAlmostEqual(row["sent_pps"] / 40000, 0.51, delta=0.01)
        # at 20000 (sent/R 1.02) it carries: 10 times tfib's 2000, a FAIL
        xdp.append(("xdp-20k", None, 20000, 0.1, "xdp", {}))
        c, p, res = checks_of(GOOD + xdp, "--strict")
        self.assertEqual((c[XDP]["result"], c[XDP]["reference"]),
                         ("FAIL", 20000))
        # nor is a tfib mode's R carried when the source fell short there
        runs = GOOD + [("seq-40k", "seqcount", 40000, 0.1, "ring", {}),
                       ("rwl-40k", "rwlock", 40000, 0.1, "ring", {})]
        c = checks_of(runs)[0]
        self.assertEqual(c["best mode's age"]["rate_pps"], 2000)

    def test_rwlock_never_best(self):
        # rwlock carries more than anyone: the best is still another mode
        runs = GOOD + [("rwl-3k", "rwlock", 3000, 0.1, "ring", {})]
        c = checks_of(runs)[0]
        self.assertEqual(c["best mode's age"]["mode"], "seqcount")


LATE = {"p50": 1000, "p99": 5000, "max": 9000}


def paced_analysis(runs, paced):
    """GOOD-like runs plus paced ones: (name, sync, rate, fwd, periodic's
    arguments), CDR 0.1, run.json as tw-tfib-source --pace omware writes
    it.  The analysis and the tool's output."""
    with tempfile.TemporaryDirectory() as d:
        grid(d, runs)
        for name, sync, rate, fwd, kw in paced:
            write_run(os.path.join(d, name), periodic(**kw),
                      meta(sync, rate, 0.1, fwd, tx="omware", tx_dropped=3,
                           omware_late_ns=LATE))
        p = analyze(d, "--no-plots", "--strict")
        with open(os.path.join(d, "tfib-analysis.json")) as f:
            return json.load(f), subprocess.run(
                [sys.executable, ANALYZE, "--no-plots", d],
                capture_output=True, text=True).stdout, p


class Paced(unittest.TestCase):
    """Runs the source paced with omware: shown, compared alike, never
    judged."""

    def test_not_judged(self):
        # paced seqcount carries 3000 (the unpaced one dropped there) with
        # the lowest age: it would be the best mode if it were judged
        res, _out, p = paced_analysis(GOOD, [
            ("seq-3k-om", "seqcount", 3000, "ring", dict(delay_us=5))])
        good = checks_of(GOOD)[2]
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(res["checks"], good["checks"])
        self.assertEqual(res["findings"], good["findings"])
        row = next(r for r in res["runs"] if r["run"] == "seq-3k-om")
        self.assertEqual((row["mode"], row["pace"]),
                         ("seqcount+omware", "omware"))
        # no paced rwlock at its point: no ratio, not the unpaced one's
        self.assertIsNone(row["age_vs_rwlock"])
        self.assertEqual((row["late_p99_ns"], row["tx_dropped"]), (5000, 3))

    def test_beside_unpaced(self):
        res, out, _p = paced_analysis(GOOD, [
            ("seq-1k-om", "seqcount", 1000, "ring", dict(delay_us=15)),
            ("rwl-1k-om", "rwlock", 1000, "ring", dict(delay_us=30))])
        pair = {r["run"]: r for r in res["paced"]}
        seq = next(r for r in res["runs"] if r["run"] == "seq-1k")
        om = next(r for r in res["runs"] if r["run"] == "seq-1k-om")
        self.assertEqual(pair["seq-1k-om"]["age_unpaced_ns"],
                         seq["age_avg_ns"])
        self.assertAlmostEqual(pair["seq-1k-om"]["age_vs_unpaced"],
                               om["age_avg_ns"] / seq["age_avg_ns"])
        self.assertLess(pair["seq-1k-om"]["age_vs_unpaced"], 1)
        # the paced rwlock is the paced run's reference: 65 / 80 us
        self.assertAlmostEqual(om["age_vs_rwlock"], 65 / 80, delta=1e-3)
        self.assertIn("Paced by omware", out)
        self.assertIn("seqcount+omware", out)


def point(mode, rate, cdr, age, rings="64/64", **more):
    """A run's summary as the findings read it."""
    s = {"mode": mode, "rings": rings, "rate_pps": rate, "cdr": cdr,
         "users": 1000, "age_avg_ns": age, "control_drop_fraction": None,
         "misaddressed_fraction": None, "fib_age_mean_ns": None}
    s.update(more)
    return s


def sweep(mode, cdr, ages, rings="64/64", **series_of):
    """Runs at R 1000, 2000, 4000 with these ages (and per-run values of
    the keys given as lists)."""
    return [point(mode, r, cdr, a, rings,
                  **{k: v[i] for k, v in series_of.items()})
            for i, (r, a) in enumerate(zip((1000, 2000, 4000), ages))]


def found(runs):
    return {f["name"][:3]: f for f in FA.findings(runs)}


class Findings(unittest.TestCase):
    """The study's findings (a)-(d) on made-up summaries."""

    RUNS = (sweep("rcu", 0.01, [130, 70, 250], fib_age_mean_ns=[9, 5, 3]) +
            sweep("rwlock", 0.01, [140, 80, 350], fib_age_mean_ns=[8, 6, 4])
            + sweep("rcu", 0.1, [130, 70, 250],
                    control_drop_fraction=[0, 0.1, 0.25],
                    misaddressed_fraction=[0.04, 0.1, 0.2],
                    fib_age_mean_ns=[9, 5, 3])
            + sweep("rwlock", 0.1, [130, 90, 250],
                    control_drop_fraction=[0, 0, 0.01],
                    misaddressed_fraction=[0.04, 0.05, 0.3],
                    fib_age_mean_ns=[9, 5, 3]))

    def test_reproduced(self):
        f = found(self.RUNS)
        self.assertEqual([f[k]["result"] for k in ("(a)", "(b)", "(c)",
                                                   "(d)")],
                         ["reproduced"] * 4)
        self.assertTrue(f["(a)"]["why"].startswith("4 of 4: "))
        self.assertIn("rcu 64/64 min at R 2000", f["(a)"]["why"])
        self.assertIn("R 4000 rings 64/64: rcu 0.2 us, rwlock 0.3 us",
                      f["(b)"]["why"])
        self.assertIn("rwlock 64/64 control: 0.00 % -> 1.00 %",
                      f["(c)"]["why"])

    def test_not_reproduced(self):
        runs = [dict(s) for s in self.RUNS]
        for s in runs:
            if s["mode"] == "rcu" and s["rate_pps"] == 4000:
                # CDR 0.1: falls throughout; CDR 0.01: above rwlock's
                s["age_avg_ns"] = 10 if s["cdr"] == 0.1 else 400
            if s["mode"] == "rwlock" and s["cdr"] == 0.1:
                s["misaddressed_fraction"] = 0.04   # flat
                s["fib_age_mean_ns"] = 2 + s["rate_pps"] / 1000   # rises
        f = found(runs)
        self.assertEqual([f[k]["result"] for k in ("(a)", "(b)", "(c)",
                                                   "(d)")],
                         ["not reproduced"] * 4)
        self.assertTrue(f["(a)"]["why"].startswith("3 of 4: "))
        self.assertTrue(f["(c)"]["why"].startswith("3 of 4: "))

    def test_rings_apart_and_nothing_to_judge(self):
        # small and large rings are two series, each too short for (a)
        runs = (sweep("rcu", 0.01, [130, 70])
                + sweep("rcu", 0.01, [130, 70], rings="4096/4096")[1:])
        self.assertEqual(sorted(FA.by_series(runs)),
                         ["rcu 4096/4096", "rcu 64/64"])
        f = found(runs)
        self.assertEqual(f["(a)"]["result"], "N/A")
        self.assertEqual(f["(c)"]["result"], "N/A")
        # a run that received nothing is infinitely old: no valley there
        f = found(sweep("rcu", 0.01, [130, None, 250]))
        self.assertEqual(f["(a)"]["result"], "not reproduced")


class Outputs(unittest.TestCase):

    def test_files(self):
        with tempfile.TemporaryDirectory() as d:
            grid(d, GOOD)
            out = os.path.join(d, "out")
            p = subprocess.run([sys.executable, ANALYZE, "-o", out, d],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(out, "tfib-runs.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), len(GOOD))
            with open(os.path.join(out, "seq-2k", "aoi-users.csv")) as f:
                users = list(csv.DictReader(f))
            self.assertEqual([u["user"] for u in users], ["1", "2"])
            self.assertIn("Checks: 3 pass, 0 fail, 1 N/A", p.stdout)
            # the rings column: CONTROL/DATA of a ring run, - inline
            self.assertRegex(p.stdout, r"\nseqcount +64/1024 +2000 ")
            self.assertRegex(p.stdout, r"\nseqcount-inline +- +1000 ")
            with open(os.path.join(out, "tfib-analysis.json")) as f:
                plots = json.load(f)["plots"]
        if "matplotlib not available" in p.stderr:
            self.skipTest("matplotlib not installed")
        self.assertEqual(len(plots), 4)

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(analyze(d).returncode, 2)
            write_run(d, [("data_sent", 0, 1, 1, "", "")])
            p = analyze(d)
            self.assertEqual(p.returncode, 2)
            self.assertIn("unknown event", p.stderr)


def full_size(d):
    """216 runs, as many as a full sweep: 6 sync modes, 3 ring settings,
    6 R and 2 CDRs, their figures of every size."""
    rng = random.Random(5)
    for sync in ("rwlock", "rcu", "seqcount", "bucket", "percpu", "mcs"):
        for ring in (64, 1024, 4096):
            for rate in (22560, 45120, 90240, 180480, 360960, 721920):
                for cdr in (0.01, 0.1):
                    write_run(os.path.join(d, "%s-%d-%d-%g" % (
                        sync, ring, rate, cdr)), periodic(
                            n=8, delay_us=rng.randrange(5, 5000),
                            misaddr_every=rng.randrange(2, 5),
                            drop_every=rng.randrange(2, 9)),
                        meta(sync, rate, cdr, control_ring=ring))


class PlotData(unittest.TestCase):
    """plots.json: what the figures draw, and the figures drawn from it
    alone."""

    def analysed(self, runs, *args):
        """The grid of runs analysed in a directory of its own: (it, the
        process)."""
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        grid(self.tmp.name, runs)
        return self.tmp.name, analyze(self.tmp.name, *args)

    def test_full_size(self):
        with tempfile.TemporaryDirectory() as d:
            full_size(d)
            p = analyze(d, "--no-plots")
            self.assertEqual(p.returncode, 0, p.stderr)
            path = os.path.join(d, "plots.json")
            self.assertLess(os.path.getsize(path), twbench.PLOTS_MAX_BYTES)
            runs = twbench.read_plots(path, FA.TOOL)["figures"]["runs"]
        self.assertEqual(len(runs), 216)

    def test_content(self):
        d, p = self.analysed(GOOD, "--no-plots")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(d, "tfib-analysis.json")) as f:
            runs = json.load(f)["runs"]
        kept = twbench.read_plots(os.path.join(d, "plots.json"), FA.TOOL)
        # every run, in order, its figures to three digits
        self.assertEqual(kept["figures"]["runs"], [
            twbench.rounded({k: s[k] for k in FA.PLOT_FIELDS})
            for s in runs])
        # seq-1k: age 80 us (30 + 50) less user 1's 5 ns short of it
        seq = [r for r in kept["figures"]["runs"] if r["mode"] ==
               "seqcount" and r["rate_pps"] == 1000]
        self.assertEqual([(r["rings"], r["cdr"], r["age_avg_ns"])
                          for r in seq], [("64/1024", 0.1, 80000)])

    def test_from_plots_alone(self):
        """Drawing needs only plots.json and is deterministic: a copy of
        it alone, nothing beside it, gives the run's figures again, the
        same files."""
        d, p = self.analysed(GOOD)
        self.assertEqual(p.returncode, 0, p.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            p, run, again = plotcheck.redrawn(ANALYZE, d, tmp)
        if p.returncode == plotcheck.NO_MATPLOTLIB and not run:
            self.skipTest("matplotlib not installed")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(run), [name for name, _k, _l, _s in
                                       sorted(FA.PLOTS)])
        self.assertEqual(run, again)

    def test_refused(self):
        d, p = self.analysed(GOOD, "--no-plots")
        with tempfile.TemporaryDirectory() as tmp:
            bad = plotcheck.refusals(ANALYZE, os.path.join(d, "plots.json"),
                                     tmp)
        for what, p, path in bad:
            self.assertEqual(p.returncode, 2, what)
            self.assertIn(path, p.stderr, what)


def trace(*args):
    return subprocess.run([TRACE, "-q"] + list(args), capture_output=True)


@unittest.skipUnless(os.access(TRACE, os.X_OK),
                     "tw-tfib-trace not built (make -C bench)")
class TraceFiles(unittest.TestCase):

    def test_binary_header_and_rows(self):
        with tempfile.TemporaryDirectory() as d:
            b, c = os.path.join(d, "t.bin"), os.path.join(d, "t.csv")
            self.assertEqual(trace("-f", "bin", "-o", b, "-n", "1000", "-u",
                                   "50", "-c", "0.25", "-s", "9")
                             .returncode, 0)
            self.assertEqual(trace("-o", c, "-n", "1000", "-u", "50", "-c",
                                   "0.25", "-s", "9").returncode, 0)
            with open(b, "rb") as f:
                raw = f.read()
            with open(c) as f:
                rows = list(csv.reader(f))
        magic, ver, n, cdr, _r, seed, count = struct.unpack(">8sIIIIQQ",
                                                            raw[:40])
        self.assertEqual((magic, ver, n, cdr, seed, count),
                         (b"TWAOITRC", 1, 50, 250000, 9, 1000))
        words = struct.unpack(">1000I", raw[40:])
        self.assertEqual(rows[0], ["type", "user"])
        self.assertEqual([["control" if w >> 31 else "data",
                           str(w & 0x7fffffff)] for w in words], rows[1:])
        self.assertTrue(all(1 <= w & 0x7fffffff <= 50 for w in words))

    def test_deterministic_and_back_to_csv(self):
        a = trace("-o", "-", "-n", "500", "-s", "3").stdout
        self.assertEqual(a, trace("-o", "-", "-n", "500", "-s", "3").stdout)
        self.assertNotEqual(a, trace("-o", "-", "-n", "500", "-s", "4")
                            .stdout)
        b = trace("-o", "-", "-f", "bin", "-n", "500", "-s", "3").stdout
        p = subprocess.run([TRACE, "-q", "-r", "-", "-o", "-"], input=b,
                           capture_output=True)
        self.assertEqual(p.stdout, a)

    def test_baseline(self):
        out = trace("-o", "-", "-n", "2000", "-u", "1", "-c", "0").stdout
        self.assertEqual(set(out.decode().split("\n")[1:-1]), {"data,1"})


if __name__ == "__main__":
    sys.exit(tap_main(sys.modules[__name__]))
