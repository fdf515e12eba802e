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


def analyze(d, *args, quiet=True):
    report = ["-q"] if quiet else []
    return subprocess.run([sys.executable, ANALYZE] + report + list(args) +
                          [d], capture_output=True, text=True)


def analysed(d, *args, doc="tfib-analysis.json", quiet=True):
    """The runs in d analysed: (the JSON document it wrote at doc, a
    path below d; the process).  No document: the analyser's error fails
    the test."""
    p = analyze(d, *args, quiet=quiet)
    path = os.path.join(d, doc)
    if not os.path.exists(path):
        raise AssertionError("no %s: %s" % (doc, p.stderr))
    return twbench.read_json(path), p


def run_summary(events, meta=None):
    """aoi.json of one made-up run, analysed by the tool."""
    with tempfile.TemporaryDirectory() as d:
        write_run(d, events, meta or {})
        s, p = analysed(d, "--no-plots", doc="aoi.json")
        if p.returncode:
            raise AssertionError(p.stderr)
        return s


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
        res, p = analysed(d, "--no-plots", *args)
        return {c["name"]: c for c in res["checks"]}, p, res


# Event-level runs, one repetition, at CDR 0.1: rwlock 110 and 170 us
# old at R 1000 and 2000, seqcount younger, rcu misaddressing 1 in 4;
# seqcount loses a fifth at 3000.
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
        res, p = analysed(d, "--no-plots", "--strict", quiet=False)
        return res, p.stdout, p


class Paced(unittest.TestCase):
    """Runs the source paced with omware: shown, compared alike, never
    judged."""

    def test_not_judged(self):
        # paced seqcount at 3000 (the unpaced one dropped there) with the
        # lowest age: judged, it would change the findings
        res, _out, p = paced_analysis(GOOD, [
            ("seq-3k-om", "seqcount", 3000, "ring", dict(delay_us=5))])
        good, gp = checks_of(GOOD, "--strict")[1:][::-1]
        self.assertEqual(p.returncode, gp.returncode, p.stderr)
        self.assertEqual(res["checks"], good["checks"])
        self.assertEqual(res["findings"], good["findings"])
        row = next(r for r in res["runs"] if r["run"] == "seq-3k-om")
        self.assertEqual((row["mode"], row["pace"]),
                         ("seqcount+omware", "omware"))
        # no paced rwlock at its point: no ratio, not the unpaced one's
        self.assertIsNone(row["age_vs_rwlock"])
        self.assertEqual((row["late_p99_ns"], row["tx_dropped"]), (5000, 3))
        # the 3 frames omware did not send are lost: not "0.00 % lost"
        self.assertEqual((row["data_not_sent"], row["data_dropped"]), (3, 3))
        self.assertAlmostEqual(row["data_drop_fraction"], 3 / 103)

    def test_not_sent_by_kind(self):
        # the source splits omware's refusals by kind: data lost, control
        # not sent counted with the control packets; unpaced, none
        meta_ = {"tx": "omware", "tx_dropped": 5, "tx_dropped_data": 3,
                 "tx_dropped_control": 2}
        self.assertEqual(FA.not_sent(meta_), (3, 2))
        run = FA.Run()
        run.add("ctl_tx", 1, 1, 1, 0, 0)
        run.add("data_tx", 2, 1, 2, 0, 0)
        s = FA.traffic(run, meta_, 1)
        self.assertEqual((s["control_sent"], s["data_sent"],
                          s["data_dropped"]), (3, 4, 3))
        self.assertEqual(FA.not_sent(dict(meta_, tx="sendmmsg")), (0, 0))

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


# Summaries as the targets read them: per mode and R the age (us), the
# control ring's drop fraction and the misaddressed fraction, and whether
# the R was carried.  At CDR 0.1 rwlock carries 1000 and 2000 pps, so
# 4000 and 8000 are the overload regime, where rcu and seqcount drop a
# fifth of its control packets in the ring, misaddress a fifth as much
# and age half as fast; rcu-inline is the youngest at the two lowest R and
# carries up to 4000, as the XDP peer does.
RATES = (1000, 2000, 4000, 8000)
SPEC = {
    "rwlock": {1000: (80, 0.0, 0.001, True), 2000: (90, 0.0, 0.002, True),
               4000: (200, 0.10, 0.05, False),
               8000: (260, 0.20, 0.08, False)},
    "rcu": {1000: (70, 0.0, 0.001, True), 2000: (75, 0.0, 0.001, True),
            4000: (100, 0.02, 0.01, True), 8000: (120, 0.04, 0.02, False)},
    "rcu-inline": {1000: (50, None, 0.001, True),
                   2000: (55, None, 0.001, True),
                   4000: (300, None, 0.01, True),
                   8000: (900, None, 0.05, False)},
    "xdp": {1000: (40, None, 0.0, True), 2000: (40, None, 0.0, True),
            4000: (45, None, 0.0, True), 8000: (50, None, 0.0, False)},
}
SPEC["seqcount"] = SPEC["rcu"]
NOISE = (-0.03, 0.01, 0.0, 0.02, -0.015)
T_INLINE = "rcu-inline age at R %d <= %s's (rings 64/1024)"
T_RING = "%s vs rwlock at R %d, rings 64/1024: %s"
T_XDP = "xdp capacity <= 1.5 x rcu-inline's at CDR 0.1, ingress " + \
    FA.XDP_INGRESS


def summary(mode, rate, rep, age_us, ctl, mis, carried_, cdr=0.1,
            ingress=FA.XDP_INGRESS, rings=None):
    """One repetition's run summary, noise by repetition and mode."""
    j = 1 + NOISE[(rep + len(mode)) % len(NOISE)]
    ring = mode in ("rcu", "seqcount", "rwlock")
    return {"mode": mode, "run": "%s-%d-%d" % (mode, rate, rep),
            "rings": rings or ("64/1024" if ring else ""),
            "rate_pps": rate, "cdr": cdr, "rep": rep, "users": 1000,
            "pace": None, "ingress": ingress, "offered_pps": rate,
            "sent_pps": rate, "data_drop_fraction": 0 if carried_ else 0.05,
            "age_avg_ns": age_us * 1000 * j,
            "control_ring_drop_fraction": None if ctl is None else ctl * j,
            "misaddressed_fraction": mis * j,
            "fib_age_mean_ns": 1e6 / rate}


def spec_runs(spec=SPEC, reps=5, **kw):
    return [summary(m, r, rep, *spec[m][r], **kw)
            for m in spec for r in spec[m] for rep in range(1, reps + 1)]


def changed_spec(mode, rate, **fields):
    """SPEC with mode's figures at rate changed (age, ctl, mis,
    carried)."""
    spec = {m: dict(v) for m, v in SPEC.items()}
    age, ctl, mis, car = spec[mode][rate]
    new = dict(dict(age=age, ctl=ctl, mis=mis, carried=car), **fields)
    spec[mode][rate] = (new["age"], new["ctl"], new["mis"], new["carried"])
    return spec


def judged(runs):
    return {t["name"]: t for t in FA.targets(runs)}


class Targets(unittest.TestCase):
    """The registered targets, over repetitions, each broken in turn."""

    def assert_only_fails(self, runs, *which):
        t = judged(runs)
        for w in which:
            self.assertEqual(t[w]["result"], "FAIL", t[w])
        self.assertEqual([k for k, v in t.items() if v["result"] != "PASS"],
                         list(which))
        self.assertEqual(twbench.strict_status(list(t.values()), True), 1)
        return t

    def test_all_met(self):
        t = judged(spec_runs())
        self.assertEqual({v["result"] for v in t.values()}, {"PASS"},
                         [v for v in t.values() if v["result"] != "PASS"])
        # overload 4000, 8000: 2 modes x 3; inline 2 R x 3 modes; XDP
        self.assertEqual(len(t), 19)
        self.assertIn(T_RING % ("rcu", 8000, "age <= rwlock's"), t)
        self.assertNotIn(T_RING % ("rcu", 2000, "age <= rwlock's"), t)
        self.assertEqual([tuple(c) for c in t[T_XDP]["capacities"]],
                         [(4000, 4000)] * 5)

    def test_control_ring_drops(self):
        # 0.12 of rwlock's 0.2: 0.6
        self.assert_only_fails(spec_runs(changed_spec(
            "rcu", 8000, ctl=0.12)),
            T_RING % ("rcu", 8000, "control-ring drops <= 1/2 rwlock's"))

    def test_misaddressed(self):
        self.assert_only_fails(spec_runs(changed_spec(
            "seqcount", 4000, mis=0.03)),
            T_RING % ("seqcount", 4000, "misaddressed <= 1/2 rwlock's"))

    def test_age(self):
        # 1.04 x rwlock's: within the factor-1 upper side, but above 1
        self.assert_only_fails(spec_runs(changed_spec(
            "rcu", 8000, age=270)),
            T_RING % ("rcu", 8000, "age <= rwlock's"))

    def test_inline_age(self):
        # 80 us: older than rcu's and seqcount's 75, not rwlock's 90
        self.assert_only_fails(spec_runs(changed_spec(
            "rcu-inline", 2000, age=80)), T_INLINE % (2000, "rcu"),
            T_INLINE % (2000, "seqcount"))

    def test_xdp_capacity(self):
        # the peer carries 8000, twice rcu-inline's 4000
        self.assert_only_fails(spec_runs(changed_spec(
            "xdp", 8000, carried=True)), T_XDP)

    def test_xdp_named_configuration(self):
        # seqcount-inline carries 8000 too: no help, only rcu-inline is
        # judged, not the best of the modes
        spec = changed_spec("xdp", 8000, carried=True)
        spec["seqcount-inline"] = {r: (50, None, 0.0, True) for r in RATES}
        t = judged(spec_runs(spec))
        self.assertEqual(t[T_XDP]["result"], "FAIL")

    def test_xdp_other_ingress(self):
        # the peer through another ingress: not the named configuration,
        # whatever it carried there
        runs = [dict(s, ingress="cpu1-napi") if s["mode"] == "xdp" else s
                for s in spec_runs()]
        t = judged(runs)[T_XDP]
        self.assertEqual((t["result"], t["why"]),
                         ("NOT MEASURED", "no xdp run with ingress %s"
                          % FA.XDP_INGRESS))
        # both through the other one: still not measured
        runs = [dict(s, ingress="cpu1-napi") for s in spec_runs()]
        self.assertEqual(judged(runs)[T_XDP]["result"], "NOT MEASURED")

    def test_rings_not_the_bottleneck(self):
        # the loss at ingress: no mode's control ring dropped anything, a
        # target no mode could meet or miss
        spec = {m: {r: (a, 0.0 if c is not None else None, mis, car)
                    for r, (a, c, mis, car) in v.items()}
                for m, v in SPEC.items()}
        t = judged(spec_runs(spec))
        c = t[T_RING % ("rcu", 4000, "control-ring drops <= 1/2 rwlock's")]
        self.assertEqual(c["result"], "NOT MEASURED")
        self.assertIn("the rings were not the bottleneck", c["why"])

    def test_overload_not_reached(self):
        spec = changed_spec("rwlock", 4000, carried=True)
        spec["rwlock"][8000] = spec["rwlock"][8000][:3] + (True,)
        t = judged(spec_runs(spec))
        c = t["rcu, seqcount vs rwlock, rings 64/1024: the overload regime"]
        self.assertEqual(c["result"], "NOT MEASURED")
        self.assertIn("no R above rwlock's capacity (8000 pps)", c["why"])

    def test_one_repetition_carries(self):
        # rwlock carried 4000 in one repetition: 4000 is not overload
        runs = spec_runs()
        for s in runs:
            if (s["mode"], s["rate_pps"], s["rep"]) == ("rwlock", 4000, 2):
                s["data_drop_fraction"] = 0
        t = judged(runs)
        self.assertNotIn(T_RING % ("rcu", 4000, "age <= rwlock's"), t)
        self.assertIn(T_RING % ("rcu", 8000, "age <= rwlock's"), t)

    def test_too_few_repetitions(self):
        t = judged(spec_runs(reps=3))
        self.assertEqual({v["result"] for v in t.values()},
                         {"NOT MEASURED"})
        self.assertIn("3 repetition(s), the targets need 5",
                      t[T_INLINE % (1000, "rwlock")]["why"])

    def test_failed_repetition_counts(self):
        # rcu received nothing in one repetition: infinitely old there
        runs = spec_runs()
        for s in runs:
            if (s["mode"], s["rate_pps"], s["rep"]) == ("rcu", 8000, 4):
                s["age_avg_ns"] = None
        t = judged(runs)
        self.assertEqual(
            t[T_RING % ("rcu", 8000, "age <= rwlock's")]["result"], "FAIL")


class Repetitions(unittest.TestCase):
    def test_through_the_tool(self):
        # five repetitions of rwlock and rcu at R 1000 (both carry) and
        # 2000 (a fifth lost): rep and ingress read from run.json, 2000
        # judged, rcu's age there about 90 us against rwlock's 170
        with tempfile.TemporaryDirectory() as d:
            for rep in range(1, 6):
                for sync, delay in (("rwlock", 120), ("rcu", 40)):
                    for rate, drop in ((1000, 0), (2000, 5)):
                        write_run(os.path.join(d, "%s-%d-%d" % (
                            sync, rate, rep)), periodic(
                                delay_us=delay, drop_every=drop),
                            meta(sync, rate, rep=rep, ingress="veth"))
            res, p = analysed(d, "--no-plots", "--strict")
            self.assertEqual(p.returncode, 1)
        t = {c["name"]: c for c in res["checks"]}
        age = t["rcu vs rwlock at R 2000, rings 64/1024: age <= rwlock's"]
        self.assertEqual((age["result"], age["n"]), ("PASS", 5))
        self.assertLess(age["estimate"], 0.6)
        self.assertEqual({r["ingress"] for r in res["runs"]}, {"veth"})
        self.assertEqual(sorted({r["rep"] for r in res["runs"]}),
                         [1, 2, 3, 4, 5])
        # seqcount did not run: its targets say so
        seq = t["seqcount vs rwlock at R 2000, rings 64/1024: age <= "
                "rwlock's"]
        self.assertEqual((seq["result"], seq["why"]),
                         ("NOT MEASURED", "no seqcount run at R 2000"))

    def test_paced_twin_of_its_repetition(self):
        runs = spec_runs(reps=2)
        paced = dict(runs[1], mode=runs[1]["mode"] + "+omware",
                     pace="omware")
        self.assertEqual(FA.unpaced(runs, paced), runs[1])
        self.assertEqual(runs[1]["rep"], 2)

    def test_pairs_within_repetition(self):
        a = [{"rep": r, "v": r} for r in (1, 2, 4)]
        b = [{"rep": r, "v": 10 * r} for r in (4, 1, 3)]
        self.assertEqual(FA.rep_pairs(a, b, lambda s: s["v"]),
                         [(1, 10), (4, 40)])


class Findings(unittest.TestCase):
    """The study's findings over repetitions: (a)-(c) can fail, (d) is
    reported."""

    def found(self, runs):
        return {f["name"]: f for f in FA.findings(runs)}

    def test_met(self):
        f = self.found(spec_runs())
        a = f["(a) age first falls then rises with R"]
        # rwlock's ages rise throughout: no valley
        self.assertEqual(a["result"], "FAIL")
        self.assertIn("rwlock 64/1024 CDR 0.1 min at R 1000", a["why"])
        c = [v for k, v in f.items() if k.startswith("(c)")]
        self.assertEqual(len(c), 4)
        self.assertEqual({v["result"] for v in c}, {"PASS"})
        d = f["(d) location-update age at the FIB falls with R"]
        self.assertEqual(d["result"], "REPORTED")
        self.assertIn("cannot fail at a fixed CDR", d["why"])

    def test_valley(self):
        spec = changed_spec("rwlock", 1000, age=120)
        spec = {m: v for m, v in spec.items() if m in ("rwlock",)}
        f = self.found(spec_runs(spec))
        self.assertEqual(f["(a) age first falls then rises with R"]
                         ["result"], "PASS")

    def test_c_from_ingress_fails(self):
        # control-ring drops flat at 0 (the loss elsewhere): no rise
        spec = {m: {r: (a, 0.0 if c is not None else None, mis, car)
                    for r, (a, c, mis, car) in v.items()}
                for m, v in SPEC.items()}
        f = self.found(spec_runs(spec))
        c = f["(c) rcu rings 64/1024: control_ring_drop_fraction rises "
              "from R 1000 to 8000"]
        self.assertEqual(c["result"], "FAIL")

    def test_b_over_repetitions(self):
        # rcu younger in three repetitions, older in two: 1.02 x on
        # average, its interval above 1.10: not shown
        runs = []
        for rep in range(1, 6):
            runs.append(summary("rwlock", 8000, rep, 100, 0.0, 0.0, True,
                                cdr=0.01))
            runs.append(summary("rcu", 8000, rep, 80 if rep <= 3 else 140,
                                0.0, 0.0, True, cdr=0.01))
        f = self.found(runs)
        b = f["(b) rcu's age <= rwlock's at R 8000, CDR 0.01, rings "
              "64/1024"]
        self.assertEqual(b["result"], "FAIL")
        self.assertGreater(b["interval"][1], 1.1)
        # (d) whatever the ages do: reported
        self.assertEqual(f["(d) location-update age at the FIB falls "
                           "with R"]["result"], "REPORTED")


class StoppedRuns(unittest.TestCase):
    """A run whose source stopped early is left out, and named."""

    def test_left_out(self):
        with tempfile.TemporaryDirectory() as d:
            for stop in ("done", "signal", "error", "dropped"):
                write_run(os.path.join(d, stop), periodic(),
                          meta("rwlock", 1000, stop=stop))
            res, p = analysed(d, "--no-plots", quiet=False)
            self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(r["run"] for r in res["runs"]),
                         ["done", "dropped"])
        self.assertEqual(res["left_out"], ["error (error)",
                                           "signal (signal)"])
        self.assertIn("Left out, the source stopped early: error (error), "
                      "signal (signal)", p.stdout)
        self.assertTrue(p.stdout.startswith("Real time: "))


class LossPlaces(unittest.TestCase):
    """Where the lost packets were lost, from the counters."""

    def test_columns(self):
        counters = {"ingress_dropped": 40, "control_ring_dropped": 5,
                    "data_ring_dropped": 7, "drop_no_entry": 2,
                    "drop_table_full": 1, "rx_control": 0}
        with tempfile.TemporaryDirectory() as d:
            write_run(d, periodic(drop_every=5),
                      meta("rwlock", 2000, counters=counters))
            s, p = analysed(d, "--no-plots", doc="aoi.json", quiet=False)
            self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([s[k] for k in ("lost_ingress", "lost_control_ring",
                                         "lost_data_ring", "lost_table")],
                         [40, 5, 7, 3])
        self.assertEqual(s["control_ring_drop_fraction"], None)
        self.assertRegex(p.stdout, r" 40 +5 +7 +3 ")
        self.assertNotIn("not measured (run.json counters lack", p.stdout)
        # without the ingress's counter: that column alone not measured
        del counters["ingress_dropped"]
        s = FA.loss_places({"counters": counters})
        self.assertIsNone(s["lost_ingress"])
        runs = [dict(s, run="x")]
        self.assertEqual(FA.loss_note(runs), "Loss at ingress: not "
                         "measured (run.json counters lack "
                         "ingress_dropped)")

    def test_ingress_from_refused(self):
        # frames f0 refused the source, lost rather than sent again: lost
        # at the ingress; sent again, not lost at all
        meta_ = {"counters": {"control_ring_dropped": 5},
                 "tx_refused": 12, "tx_refused_policy": "lost"}
        self.assertEqual(FA.loss_places(meta_)["lost_ingress"], 12)
        meta_["tx_refused_policy"] = "retry"
        self.assertIsNone(FA.loss_places(meta_)["lost_ingress"])
        # the device's own counter, when the runner has it, wins
        meta_.update(tx_refused_policy="lost",
                     counters={"ingress_dropped": 3})
        self.assertEqual(FA.loss_places(meta_)["lost_ingress"], 3)

    def test_control_ring_fraction(self):
        s = FA.traffic(FA.Run(), {"counters": {"control_ring_dropped": 5}},
                       0)
        self.assertIsNone(s["control_ring_drop_fraction"])    # none sent
        run = FA.Run()
        for i in range(10):
            run.add("ctl_tx", i, 1, i, 0, 0)
        s = FA.traffic(run, {"counters": {"control_ring_dropped": 5}}, 0)
        self.assertEqual(s["control_ring_drop_fraction"], 0.5)


class Documented(unittest.TestCase):
    FIELDS = ("rep", "ingress", "ingress_dropped", "control_ring_dropped",
              "data_ring_dropped", "drop_no_entry", "drop_table_full",
              "tx_dropped_data", "tx_dropped_control")

    def test_fields_named(self):
        """The run.json fields the runner must write for the targets:
        named in --help and the man page, read by the analyser."""
        self.assertEqual(plotcheck.undocumented(ANALYZE, self.FIELDS), [])


class Outputs(unittest.TestCase):

    def test_files(self):
        with tempfile.TemporaryDirectory() as d:
            grid(d, GOOD)
            out = os.path.join(d, "out")
            res, p = analysed(d, "-o", out, quiet=False,
                              doc=os.path.join("out", "tfib-analysis.json"))
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(out, "tfib-runs.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), len(GOOD))
            with open(os.path.join(out, "seq-2k", "aoi-users.csv")) as f:
                users = list(csv.DictReader(f))
            self.assertEqual([u["user"] for u in users], ["1", "2"])
            self.assertIn("Targets (registered; Holm's correction over all "
                          "3, alpha 0.05): 0 pass, 0 fail, 3 not measured",
                          p.stdout)
            # one repetition, no rcu-inline, no XDP peer: named
            self.assertIn("the sweep reaches no R above rwlock's capacity "
                          "(2000 pps)", p.stdout)
            self.assertIn("Loss at ingress, control ring, data ring, "
                          "table: not measured", p.stdout)
            # the rings column: CONTROL/DATA of a ring run, - inline
            self.assertRegex(p.stdout, r"\nseqcount +64/1024 +2000 ")
            self.assertRegex(p.stdout, r"\nseqcount-inline +- +1000 ")
        if "matplotlib not available" in p.stderr:
            self.skipTest("matplotlib not installed")
        self.assertEqual(len(res["plots"]), 4)

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

    def analysed_grid(self, runs, *args):
        """The grid of runs analysed in a directory kept until the test
        ends: (it, the analysis, the process)."""
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        grid(self.tmp.name, runs)
        return (self.tmp.name,) + analysed(self.tmp.name, *args)

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
        d, res, p = self.analysed_grid(GOOD, "--no-plots")
        self.assertEqual(p.returncode, 0, p.stderr)
        runs = res["runs"]
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
        d, _res, p = self.analysed_grid(GOOD)
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
        d, _res, p = self.analysed_grid(GOOD, "--no-plots")
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
