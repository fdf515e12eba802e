#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of tw-qaware-analyze on made-up benchmark runs: each target
met, then broken one at a time (the verdict FAIL, exit 1 with --strict),
the goodput during the competitor and the bootstrap interval worked out by
hand, failed transfers left out, bad input refused.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import importlib.machinery
import importlib.util
import json
import os
import random
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

ANALYZE = os.path.join(HERE, "tw-qaware-analyze")
SCHEDS = ("default", "qaware", "minrtt", "ecf", "blest")
PATHS = {"10.0.1.1": 1, "10.0.2.1": 2}
BUSY = 5                # a sample's busy time (us)
ROUNDS = 10


def load_analyzer():
    loader = importlib.machinery.SourceFileLoader("tw_qaware_analyze",
                                                  ANALYZE)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


QA = load_analyzer()

# S3 as the thesis's Fig. 2.13: 9 and 6 Mbit/s, a 12 Mbit/s CBR source,
# the flood over the middle third; both paths measured at their rates.
S3 = {"kbit": [9000, 6000], "seconds": 12, "competitor": "udp",
      "cbr_kbit": 12000, "measured_kbit": [9000, 6000]}
SCENARIOS = {
    "S1": {"kbit": [10000, 10000], "seconds": 8, "competitor": "-"},
    "S2": {"kbit": [10000, 2500], "seconds": 8, "competitor": "-"},
    "S3": S3, "S3-bql": dict(S3, path1="nic"),
    "D4096K": {"kbit": [10000, 10000], "bytes": 4194304, "competitor": "-",
               "timeout_s": 20},
}
# The flood dequeued at 6 Mbit/s of IP packets of 1428 bytes over the
# 4 s window, as TCP payload on the wire (14 bytes more a frame, 1448 of
# 1514 payload) 5.79 Mbit/s: the oracle bound is min(12, 9 - 5.79 + 6).
FLOOD_BYTES = 6e6 / 8 * 4
FLOOD_PACKETS = 2100
FLOOD_MBIT = (FLOOD_BYTES + 14 * FLOOD_PACKETS) * 1448 / 1514 * 8 / 4 / 1e6
ORACLE = 9 - FLOOD_MBIT + 6

# Per scenario and scheduler, the mean goodput (Mbit/s; for S3 the whole
# run's and the flood window's; for D the completion time in s) that
# meets every target: S3's window 0.96 of the bound, 1.72 x minrtt's,
# above default's; 95 % of the summed rate in S1 and S2; downloads 0.76 x
# minrtt's and below default's.
GOOD = {
    ("S1", "default"): 18.0, ("S1", "qaware"): 19.0, ("S1", "minrtt"): 18.0,
    ("S2", "default"): 11.0, ("S2", "qaware"): 11.9, ("S2", "minrtt"): 9.0,
    ("S3", "default"): (10.0, 8.0), ("S3", "qaware"): (10.5, 8.6),
    ("S3", "minrtt"): (9.0, 5.0),
    ("S3-bql", "default"): (10.0, 8.0), ("S3-bql", "qaware"): (10.5, 8.6),
    ("S3-bql", "minrtt"): (9.0, 5.0),
    ("D4096K", "default"): 2.0, ("D4096K", "qaware"): 1.9,
    ("D4096K", "minrtt"): 2.5,
}
for _s in ("S1", "S2", "S3", "S3-bql", "D4096K"):
    GOOD[(_s, "ecf")] = GOOD[(_s, "blest")] = GOOD[(_s, "default")]
# Relative noise per round, each scheduler starting at its own place.
JITTER = (-0.02, 0.01, 0.0, 0.02, -0.01, 0.015, -0.015, 0.005, -0.005,
          0.01)


def acked_samples(size, t_done, window=None, in_window=None):
    """Two subflows sharing size bytes over t_done, sampled every 0.5 s;
    with window (start, end), in_window Mbit/s of them inside it."""
    def acked(t):
        if window is None:
            return size * t / t_done
        start, end = window
        inside = in_window * 1e6 / 8 * (end - start)
        rate = (size - inside) / (t_done - (end - start))
        return rate * min(t, start) + inside * max(
            0.0, min(t, end) - start) / (end - start) + \
            rate * max(0.0, t - end)
    steps = int(t_done / 0.5)
    return [[0.5 * i, {a: [int(acked(0.5 * i) / 2), 0, 0, 0]
                       for a in PATHS}] for i in range(1, steps + 1)]


def record(scen, value):
    """A completed transfer with goodput (or completion time) value, a
    (whole run, flood window) pair for an S3 variant."""
    sc = SCENARIOS[scen]
    window = in_window = None
    if isinstance(value, tuple):
        value, in_window = value
        window = (sc["seconds"] / 3, 2 * sc["seconds"] / 3)
    if "bytes" in sc:
        size, t_done = sc["bytes"], value
    else:
        t_done = sc["seconds"]
        size = int(value * 1e6 / 8 * t_done)
    rec = {"sent": size, "t_done": t_done,
           "samples": acked_samples(size, t_done, window, in_window),
           "receiver": {"bytes": size, "t_first": 0, "t_last": t_done}}
    if window:
        rec["competitor"] = {"start": window[0], "end": window[1], "rc": 0,
                             "dequeued_bytes": FLOOD_BYTES,
                             "dequeued_packets": FLOOD_PACKETS}
    return rec


def jittered(m, r, k):
    j = 1 + JITTER[(r + 3 * k) % len(JITTER)]
    return tuple(x * j for x in m) if isinstance(m, tuple) else m * j


def write_bench(d, means, rounds=ROUNDS, mode="full", extra=None,
                subset=False, scenarios=None, meta_extra=None):
    meta = {"mode": mode, "subset": subset, "seed": 7, "rounds": rounds,
            "scale": 2, "probe": [[1, 15.0, 16.0], [2, 9.5, 9.6]],
            "schedulers": " ".join(SCHEDS), "paths": PATHS,
            "scenarios": scenarios or SCENARIOS, "kernel": "test",
            "commit": "test", "starts": 1, "start_commits": ["test"]}
    meta.update(meta_extra or {})
    os.makedirs(os.path.join(d, "runs"), exist_ok=True)
    with open(os.path.join(d, "bench.json"), "w") as f:
        json.dump(meta, f)
    order = sorted({s for _, s in means})
    for (scen, sched), m in means.items():
        for r in range(rounds):
            rec = record(scen, jittered(m, r, order.index(sched)))
            name = "%d-%s-%s.json" % (r + 1, scen, sched)
            with open(os.path.join(d, "runs", name), "w") as f:
                json.dump(rec, f)
    for name, rec in (extra or {}).items():
        with open(os.path.join(d, "runs", name), "w") as f:
            json.dump(rec, f)


def analyze(d, *args):
    return subprocess.run([sys.executable, ANALYZE, "--no-plots"] +
                          list(args) + [d], capture_output=True, text=True)


def targets(d):
    with open(os.path.join(d, "qaware-analysis.json")) as f:
        return {t["name"]: t for t in json.load(f)["targets"]}


def changed(**kw):
    """GOOD with scenario_scheduler=value changed (S3bql for S3-bql)."""
    means = dict(GOOD)
    for k, v in kw.items():
        scen, sched = k.rsplit("_", 1)
        means[(scen.replace("S3bql", "S3-bql"), sched)] = v
    return means


def failed(scen, rnd, sched="qaware", means=GOOD):
    """{file: record} of a transfer whose bytes did not all arrive."""
    rec = record(scen, means[(scen, sched)])
    rec["receiver"]["bytes"] -= 1
    return {"%d-%s-%s.json" % (rnd, scen, sched): rec}


T_ORACLE = "S3: flood window qaware >= 0.9 x the oracle bound"
T_MINRTT = "S3: flood window qaware >= 1.3 x minrtt's"
T_WINDOW = "S3: flood window qaware not significantly below default's"
T_S3 = "S3: qaware not significantly below default's"
T_S1 = "S1: qaware not significantly below default's"
T_S1_RATE = "S1: qaware >= 90 % of the summed path rate"
T_S2_RATE = "S2: qaware >= 90 % of the summed path rate"
T_D_MINRTT = "D4096K: qaware completion time <= 0.8 x minrtt's"
T_COMMIT = "run: every start at one commit"
T_D_DEFAULT = ("D4096K: qaware completion time not significantly above "
               "default's")


class Targets(unittest.TestCase):
    def run_case(self, means, **kw):
        self.tmp = tempfile.TemporaryDirectory()
        write_bench(self.tmp.name, means, **kw)
        strict = analyze(self.tmp.name, "--strict")
        plain = analyze(self.tmp.name)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        return strict, targets(self.tmp.name)

    def tearDown(self):
        if hasattr(self, "tmp"):
            self.tmp.cleanup()

    def assert_fails(self, means, which, **kw):
        strict, t = self.run_case(means, **kw)
        self.assertEqual(t[which]["result"], "FAIL", t[which])
        self.assertEqual(strict.returncode, 1, strict.stdout)
        self.assertIn("FAIL", strict.stdout)
        others = [k for k, v in t.items() if v["result"] != "PASS"]
        self.assertEqual(others, [which])
        return t

    def test_all_met(self):
        strict, t = self.run_case(GOOD)
        self.assertEqual(strict.returncode, 0, strict.stdout)
        self.assertEqual({v["result"] for v in t.values()}, {"PASS"},
                         strict.stdout)
        # 4 per S3 variant, 2 for S1 and S2, 2 per download; the run's
        # check of its starts' commits
        self.assertEqual(len(t), 15)
        self.assertEqual(t[T_COMMIT]["result"], "PASS")
        self.assertAlmostEqual(t[T_ORACLE]["estimate"], 8.6 / ORACLE,
                               places=2)
        self.assertIn("Holm's correction over all 14", strict.stdout)

    def test_oracle_bound(self):
        # 8.0 of the 9 Mbit/s bound: 0.89, above minrtt and default.
        self.assert_fails(changed(S3_qaware=(10.5, 8.0), S3_default=(
            10.0, 7.5)), T_ORACLE)

    def test_oracle_capped_by_cbr(self):
        # a flood that leaves path 1 whole: 9 + 6 = 15 > the CBR's 12
        rec = record("S3", (10.0, 8.0))
        rec["competitor"]["dequeued_bytes"] = 0
        t = QA.Transfer(1, rec)
        self.assertAlmostEqual(QA.oracle_bound(
            {"scenarios": SCENARIOS}, "S3", t), 12.0)
        rec["competitor"]["dequeued_bytes"] = FLOOD_BYTES * 2
        # the flood took 12 of path 1's 9: path 2's 6 alone
        self.assertAlmostEqual(QA.oracle_bound(
            {"scenarios": SCENARIOS}, "S3", t), 6.0)
        del rec["competitor"]["dequeued_bytes"]
        self.assertIsNone(QA.oracle_bound({"scenarios": SCENARIOS}, "S3",
                                          t))

    def test_minrtt_factor(self):
        # x1.23 of minrtt's window
        self.assert_fails(changed(S3_minrtt=(9.0, 7.0)), T_MINRTT)

    def test_window_below_default(self):
        # default's window above qaware's, the bound raised with it
        means = changed(S3_default=(10.0, 9.4))
        strict, t = self.run_case(means)
        self.assertEqual(t[T_WINDOW]["result"], "FAIL", t[T_WINDOW])
        self.assertEqual(strict.returncode, 1)

    def test_whole_run_below_default(self):
        self.assert_fails(changed(S3_default=(11.5, 8.0)), T_S3)

    def test_s1_below_default(self):
        self.assert_fails(changed(S1_default=19.0, S1_qaware=18.6,
                                  S1_ecf=19.0, S1_blest=19.0), T_S1)

    def test_s1_below_rate(self):
        # 17.5 of 20 Mbit/s is 87.5 %; default 17.5 too, so not below.
        self.assert_fails(changed(S1_qaware=17.5, S1_default=17.5,
                                  S1_minrtt=17.5), T_S1_RATE)

    def test_s2_below_rate(self):
        self.assert_fails(changed(S2_qaware=11.0, S2_default=10.8),
                          T_S2_RATE)

    def test_download_against_minrtt(self):
        # 1.9 s against 2.2: 0.86
        self.assert_fails(changed(D4096K_minrtt=2.2), T_D_MINRTT)

    def test_download_above_default(self):
        self.assert_fails(changed(D4096K_qaware=1.95, D4096K_default=1.8,
                                  D4096K_ecf=1.8, D4096K_blest=1.8),
                          T_D_DEFAULT)

    def test_overlap_is_not_worse(self):
        # 1 % slower with 2 % noise each way: the interval holds 1.
        _, t = self.run_case(changed(D4096K_qaware=2.02, D4096K_minrtt=2.6))
        self.assertEqual(t[T_D_DEFAULT]["result"], "PASS")
        self.assertLessEqual(t[T_D_DEFAULT]["interval"][0], 1)

    def test_holm(self):
        # S1 barely below default: significant alone, not after Holm's
        # correction over the 14 comparisons.
        _, t = self.run_case(changed(S1_qaware=17.7))
        s1 = t[T_S1]
        self.assertLess(s1["p"], 0.05)
        self.assertGreaterEqual(s1["p_holm"], 0.05)
        self.assertEqual(s1["result"], "PASS")

    def test_constant_rounds(self):
        # every round the same: a degenerate interval still decides,
        # 0.99 x default's S1 below it, 1.0 x not.
        means = changed(S1_qaware=17.82)
        self.tmp = tempfile.TemporaryDirectory()
        write_bench(self.tmp.name, means)
        for r in range(ROUNDS):
            for sched, v in (("qaware", 17.82), ("default", 18.0)):
                with open(os.path.join(self.tmp.name, "runs", "%d-S1-%s.json"
                                       % (r + 1, sched)), "w") as f:
                    json.dump(record("S1", v), f)
        analyze(self.tmp.name)
        s1 = targets(self.tmp.name)[T_S1]
        self.assertEqual(s1["interval"][0], s1["interval"][1])
        self.assertEqual(s1["result"], "FAIL")

    def test_failed_transfer_counts(self):
        # one S1 transfer of ten failed: counted as no goodput, it takes
        # the mean under 90 % of the summed rate; dropped, it would not.
        strict, t = self.run_case(GOOD, extra=failed("S1", 4))
        self.assertEqual(t[T_S1_RATE]["result"], "FAIL")
        self.assertAlmostEqual(t[T_S1_RATE]["estimate"], 0.95 * 0.9,
                               places=2)
        self.assertIn("1 transfer(s) failed", strict.stdout)

    def test_failed_download_counts(self):
        # two failed downloads count as the 20 s timeout each
        extra = dict(failed("D4096K", 2), **failed("D4096K", 7))
        _, t = self.run_case(GOOD, extra=extra)
        self.assertGreater(t[T_D_MINRTT]["estimate"], 2)
        self.assertEqual(t[T_D_MINRTT]["result"], "FAIL")

    def test_nothing_delivered(self):
        # qaware's S3 transfers all failed: no goodput in any round,
        # every S3 target fails, none is left unjudged
        extra = {}
        for r in range(1, ROUNDS + 1):
            extra.update(failed("S3", r))
        _, t = self.run_case(GOOD, extra=extra)
        self.assertEqual([t[k]["result"] for k in (T_ORACLE, T_MINRTT,
                                                   T_WINDOW, T_S3)],
                         ["FAIL"] * 4)

    def test_failed_run_without_record(self):
        # the runner's record of a run killed by its timeout: no window,
        # no answer; it stays in the oracle's pairs as 0 of the CBR rate
        extra = {"5-S3-qaware.json": {"failed": "exit 124", "sent": None,
                                      "receiver": None, "t_done": 0}}
        strict, t = self.run_case(GOOD, extra=extra)
        self.assertEqual(t[T_ORACLE]["n"], ROUNDS)
        # nine windows of 8.6 over the bound of 9, one of 0 over 12
        self.assertAlmostEqual(t[T_ORACLE]["estimate"],
                               8.6 * 0.9 / (0.9 * ORACLE + 0.1 * 12),
                               places=2)
        self.assertEqual(t[T_ORACLE]["result"], "FAIL")
        self.assertIn("1 transfer(s) failed", strict.stdout)

    def test_too_few_rounds(self):
        strict, t = self.run_case(GOOD, rounds=5)
        del t[T_COMMIT]
        self.assertEqual({v["result"] for v in t.values()},
                         {"NOT MEASURED"})
        self.assertEqual(strict.returncode, 1)
        self.assertIn("not measured: 5 paired round(s), the targets need 10",
                      strict.stdout)
        # the figures are still there
        self.assertIsNotNone(t[T_S1]["interval"])

    def test_old_s3_design(self):
        # today's S3 (equal paths, no CBR source) and no S3-bql
        scen = dict(SCENARIOS)
        scen["S3"] = {k: v for k, v in S3.items() if k != "cbr_kbit"}
        del scen["S3-bql"]
        means = {k: v for k, v in GOOD.items() if k[0] != "S3-bql"}
        strict, t = self.run_case(means, scenarios=scen)
        self.assertEqual(strict.returncode, 1)
        self.assertIn("not measured: S3 has no cbr_kbit", strict.stdout)
        self.assertIn("not measured: S3-bql not in the run", strict.stdout)
        self.assertEqual(t[T_S1]["result"], "PASS")

    def test_no_flood_bytes(self):
        recs = {}
        for r in range(ROUNDS):
            rec = record("S3", jittered(GOOD[("S3", "qaware")], r, 3))
            del rec["competitor"]["dequeued_bytes"]
            recs["%d-S3-qaware.json" % (r + 1)] = rec
        strict, t = self.run_case(GOOD, extra=recs)
        self.assertEqual(t[T_ORACLE]["result"], "NOT MEASURED")
        self.assertIn("competitor.dequeued_bytes", t[T_ORACLE]["why"])
        self.assertEqual(t[T_MINRTT]["result"], "PASS")
        self.assertEqual(strict.returncode, 1)

    def test_mixed_commits(self):
        # a run continued on other code: its records are not one run's
        strict, t = self.run_case(GOOD, meta_extra={
            "starts": 2, "start_commits": ["v1-3-gabc", "v1-4-gdef"]})
        self.assertEqual(t[T_COMMIT]["result"], "NOT MEASURED")
        self.assertIn("v1-3-gabc, v1-4-gdef", t[T_COMMIT]["why"])
        self.assertIn("Started 2 time(s), commits: v1-3-gabc, v1-4-gdef",
                      strict.stdout)
        self.assertEqual(strict.returncode, 1)
        self.assertEqual(t[T_ORACLE]["result"], "PASS")

    def test_unmeasured_paths(self):
        # a path measured at nothing: no bound, not a bound of the other
        for rates in ([0, 0], [0, 6000], [9000, 0]):
            scen = dict(SCENARIOS, S3=dict(S3, measured_kbit=rates))
            strict, t = self.run_case(GOOD, scenarios=scen)
            self.assertEqual(t[T_ORACLE]["result"], "NOT MEASURED", rates)
            self.assertIn("two positive rates", t[T_ORACLE]["why"])
            self.assertEqual(strict.returncode, 1)

    def test_rates_of_the_start(self):
        # each record's bound takes the rates measured at its start
        scen = dict(S3, measured_kbit_by_start={"1": [9000, 6000],
                                                "2": [8000, 5000]})
        rec = record("S3", (10.0, 8.0))
        meta = {"scenarios": {"S3": scen}}
        self.assertAlmostEqual(QA.oracle_bound(meta, "S3", QA.Transfer(
            1, dict(rec, start=1))), ORACLE)
        self.assertAlmostEqual(QA.oracle_bound(meta, "S3", QA.Transfer(
            1, dict(rec, start=2))), ORACLE - 2)
        self.assertIsNone(QA.oracle_bound(meta, "S3", QA.Transfer(
            1, dict(rec, start=3))))

    def test_flood_payload(self):
        # 1000 frames of 1428 IP bytes: less than their IP bytes, so the
        # bound is not lowered by the unit
        self.assertLess(QA.flood_payload(1428000, 1000), 1428000)
        self.assertAlmostEqual(QA.flood_payload(1428000, 1000),
                               1442000 * 1448 / 1514)
        self.assertAlmostEqual(QA.flood_payload(1428000, None),
                               1428000 * 1448 / 1514)

    def test_flood_that_did_not_run(self):
        scen = dict(S3, seconds=12, flood_s=[4, 8])
        for change in ({"rc": 1}, {"dequeued_bytes": 0}, {"end": 7.5}):
            rec = record("S3", (10.0, 8.0))
            rec["competitor"].update(change)
            self.assertIsNone(QA.Transfer(1, rec, scen).window, change)
        rec = record("S3", (10.0, 8.0))
        self.assertAlmostEqual(QA.Transfer(1, rec, scen).window, 8.0)
        rec["competitor"]["end"] = 7.7      # 0.925 of its plan
        self.assertIsNotNone(QA.Transfer(1, rec, scen).window)

    def test_no_downloads(self):
        scen = {k: v for k, v in SCENARIOS.items() if k != "D4096K"}
        means = {k: v for k, v in GOOD.items() if k[0] != "D4096K"}
        strict, t = self.run_case(means, scenarios=scen)
        self.assertIn("no download scenario in the run", strict.stdout)
        self.assertEqual(strict.returncode, 1)

    def test_pairs_within_round(self):
        # round 3 of default missing: that round is left out of the
        # pairs, not matched with another
        self.tmp = tempfile.TemporaryDirectory()
        write_bench(self.tmp.name, GOOD)
        os.unlink(os.path.join(self.tmp.name, "runs", "3-S1-default.json"))
        analyze(self.tmp.name)
        self.assertEqual(targets(self.tmp.name)[T_S1]["n"], ROUNDS - 1)
        groups = QA.load(self.tmp.name)[1]
        pairs = QA.round_pairs(groups[("S1", "qaware")],
                               groups[("S1", "default")],
                               lambda t: t.round)
        self.assertEqual([a for a, b in pairs], [1, 2, 4, 5, 6, 7, 8, 9, 10])
        self.assertTrue(all(a == b for a, b in pairs))

    def test_short_run_not_judged_as_pass(self):
        strict, t = self.run_case(GOOD, rounds=1, mode="short")
        self.assertEqual(t[T_S1]["result"], "NOT MEASURED")
        self.assertEqual(t[T_S1]["why"],
                         "1 paired round(s), the targets need 10")
        self.assertEqual(strict.returncode, 1)
        self.assertIn("indicative", strict.stdout)

    def test_subset_not_judged(self):
        # S2 is below its rate, yet a subset run judges nothing.
        strict, t = self.run_case(changed(S2_qaware=11.0), subset=True)
        self.assertEqual({v["result"] for v in t.values()}, {"N/A"})
        self.assertEqual(strict.returncode, 0, strict.stdout)
        self.assertIn("subset run, not judged", strict.stdout)
        self.assertIn("A subset run", strict.stdout)
        self.assertIn("full subset run", strict.stdout)


class Figures(unittest.TestCase):
    def test_window_goodput(self):
        # 1 MB acked by 2 s, 3 MB by 4 s: 2 MB over [2, 4] s.
        rec = {"samples": [[1.0, {"a": [500000]}], [2.0, {"a": [1000000]}],
                           [4.0, {"a": [3000000]}]],
               "competitor": {"start": 2.0, "end": 4.0}}
        self.assertAlmostEqual(QA.window_goodput(rec), 8.0)
        # halfway between samples: interpolated.
        rec["competitor"] = {"start": 3.0, "end": 4.0}
        self.assertAlmostEqual(QA.window_goodput(rec), 8.0)
        self.assertIsNone(QA.window_goodput({"samples": []}))

    def test_subflow_series(self):
        rec = {"samples": [[0.0, {"10.0.1.1": [0]}],
                           [0.5, {"10.0.1.1": [125000],
                                  "10.0.2.1": [0]}],
                           [1.0, {"10.0.1.1": [250000],
                                  "10.0.2.1": [62500]}]]}
        s = QA.subflow_series(rec, PATHS)
        self.assertEqual(s["path 1"], ([0.5, 1.0], [2.0, 2.0]))
        self.assertEqual(s["path 2"], ([1.0], [1.0]))

    def test_path_figures(self):
        # [acked, sent, srtt, cwnd, notsent, busy us, rwnd us, retrans]
        rec = {"t_done": 4.0, "samples": [
            [1.0, {"10.0.1.1": [10, 0, 0, 0, 3000, 0, 0, 0],
                   "10.0.2.1": [5, 0, 0, 0, 1000, 0, 0, 0]}],
            [4.0, {"10.0.1.1": [2000000, 0, 0, 0, 1000, 3000000, 400000,
                                1500]}]]}
        f = QA.path_figures(rec, PATHS)
        self.assertEqual(sorted(f), ["1", "2"])
        self.assertAlmostEqual(f["1"]["mbyte"], 2.0)
        self.assertAlmostEqual(f["1"]["busy"], 0.75)
        self.assertAlmostEqual(f["1"]["rwnd_limited"], 0.1)
        self.assertAlmostEqual(f["1"]["notsent_kb"], 2.0)
        self.assertAlmostEqual(f["1"]["retrans_kb"], 1.5)
        # path 2's last sample is its only one.
        self.assertAlmostEqual(f["2"]["notsent_kb"], 1.0)
        self.assertAlmostEqual(f["2"]["mbyte"], 5e-6)
        self.assertAlmostEqual(f["1"]["tail_idle_ms"], 0.0)
        # the last write at 2 s; path 1 busy 1 of the 2 s after it.
        rec["t_sent"] = 2.0
        rec["samples"][0][1]["10.0.1.1"][BUSY] = 1000000
        rec["samples"].insert(1, [2.0, {"10.0.1.1": [0, 0, 0, 0, 0,
                                                     2000000, 0, 0]}])
        f = QA.path_figures(rec, PATHS)
        self.assertAlmostEqual(f["1"]["tail_idle_ms"], 1000.0)
        self.assertAlmostEqual(QA.value_at([(1.0, 10), (3.0, 30)], 2.5),
                               25.0)
        self.assertEqual(QA.value_at([(1.0, 10), (3.0, 30)], 9.0), 30)
        self.assertEqual(QA.value_at([(1.0, 10)], 0.5), 10)
        # a run recorded before the fields: none.
        self.assertEqual(QA.path_figures({"t_done": 1.0, "samples": [
            [0.5, {"10.0.1.1": [1, 0, 0, 0]}]]}, PATHS), {})

    def test_path_rows(self):
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD, rounds=2)
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "paths.txt")))
            ok = record("S2", 1.0)
            ok["samples"][-1][1]["10.0.1.1"] += [0, 2000000, 0, 0]
            ok["samples"][-1][1]["10.0.2.1"] += [0, 8000000, 0, 0]
            slow = json.loads(json.dumps(ok))
            slow["samples"][-1][1]["10.0.1.1"][BUSY] = 6000000
            bad = json.loads(json.dumps(ok))
            bad["receiver"]["bytes"] -= 1
            for name, rec in (("1-S2-qaware.json", ok),
                              ("2-S2-qaware.json", slow),
                              ("3-S2-qaware.json", bad)):
                with open(os.path.join(d, "runs", name), "w") as f:
                    json.dump(rec, f)
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("per path:", p.stdout)
            with open(os.path.join(d, "qaware-analysis.json")) as f:
                rows = json.load(f)["paths"]
            # the failed transfer is left out; busy is 2/8 and 6/8.
            self.assertEqual([(r["path"], r["n"]) for r in rows],
                             [("1", 2), ("2", 2)])
            self.assertAlmostEqual(rows[0]["busy"], 0.5)
            self.assertAlmostEqual(rows[1]["busy"], 1.0)
            with open(os.path.join(d, "paths.txt")) as f:
                text = f.read()
            self.assertIn("S2        qaware  1     2  0.50", text)
            self.assertNotIn("Per connection", text)

    def test_mib_rows(self):
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD, rounds=2)
            for r, ofo in ((1, 10), (2, 30)):
                rec = record("S2", 1.0)
                rec["samples"][-1][1]["10.0.1.1"] += [0, 1, 0, 0]
                rec["mib"] = {"MPTCPRetrans": 2 * r}
                rec["receiver"]["mib"] = {"OFOQueue": ofo}
                with open(os.path.join(d, "runs", "%d-S2-qaware.json" % r),
                          "w") as f:
                    json.dump(rec, f)
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "qaware-analysis.json")) as f:
                rows = json.load(f)["mib"]
            self.assertEqual(len(rows), 1)
            self.assertEqual((rows[0]["scenario"], rows[0]["n"]), ("S2", 2))
            self.assertAlmostEqual(rows[0]["rcv:OFOQueue"], 20.0)
            self.assertAlmostEqual(rows[0]["snd:MPTCPRetrans"], 3.0)
            self.assertAlmostEqual(rows[0]["rcv:DuplicateData"], 0.0)
            with open(os.path.join(d, "paths.txt")) as f:
                self.assertIn("Per connection", f.read())

    def test_dql_figures(self):
        # [t, inflight, limit]; the competitor runs over [1, 2] s.
        rec = {"dql": [[0.5, 0, 3000], [1.0, 3000, 3000],
                       [1.5, 4500, 6000], [2.5, 1500, 6000]],
               "competitor": {"start": 1.0, "end": 2.0}}
        f = QA.dql_figures(rec)
        self.assertAlmostEqual(f["inflight"], 2250.0)
        self.assertEqual(f["inflight_max"], 4500)
        self.assertAlmostEqual(f["inflight_comp"], 3750.0)
        self.assertAlmostEqual(f["limit"], 4500.0)
        self.assertIsNone(QA.dql_figures({"dql": []}))
        del rec["competitor"]
        self.assertIsNone(QA.dql_figures(rec)["inflight_comp"])

    def test_dql_rows(self):
        def snap(bql):
            return {"start": 6.0, "output": {"conns": [{
                "sched": "qaware", "subflows": [
                    {"saddr": "10.0.3.1", "queued_pkts": 4,
                     "bql_bytes": bql, "qdisc_bytes": 10, "srtt_ns": 2e7,
                     "service_ns": 1e7},
                    {"saddr": "10.0.2.1", "queued_pkts": 0,
                     "bql_bytes": 0}]}]}}
        paths = dict(PATHS, **{"10.0.3.1": 1})
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD, rounds=2)
            with open(os.path.join(d, "bench.json")) as f:
                meta = json.load(f)
            meta.update(paths=paths, nic={"mbit": 17.5,
                                          "driver": "virtio_net"})
            with open(os.path.join(d, "bench.json"), "w") as f:
                json.dump(meta, f)
            for r, bql in ((1, 3000), (2, 1000)):
                rec = record("S3-bql", (10.0, 10.0))
                rec["dql"] = [[1.0, bql, 6000], [5.0, 2 * bql, 6000]]
                rec["snapshot"] = snap(bql)
                with open(os.path.join(
                        d, "runs", "%d-S3-bql-qaware.json" % r), "w") as f:
                    json.dump(rec, f)
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "qaware-analysis.json")) as f:
                rows = json.load(f)["dql"]
            self.assertEqual([(r["scheduler"], r["n"], r["snapshots"])
                              for r in rows], [("qaware", 2, 2)])
            # inflight: means 4500 and 1500; at 5 s, in [4, 8]: 6000, 2000.
            self.assertAlmostEqual(rows[0]["inflight"], 3000.0)
            self.assertAlmostEqual(rows[0]["inflight_comp"], 4000.0)
            self.assertEqual(rows[0]["inflight_max"], 4000.0)
            self.assertAlmostEqual(rows[0]["p1_bql_bytes"], 2000.0)
            self.assertAlmostEqual(rows[0]["p1_queued_pkts"], 4.0)
            with open(os.path.join(d, "paths.txt")) as f:
                text = f.read()
            self.assertIn("virtio_net, one TCP flow alone: 17.5", text)
            self.assertIn("2000 B", text)
        self.assertEqual(QA.snapshot_subflows(
            {"snapshot": {"output": "no connections\n"}}, paths), {})

    def test_failed_counted(self):
        # a failed eleventh transfer is counted, as no goodput
        bad = record("S1", 1.0)
        bad["receiver"]["bytes"] -= 1
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD, extra={"11-S1-qaware.json": bad})
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "qaware-analysis.json")) as f:
                rows = json.load(f)["rows"]
            row = [r for r in rows if r["scenario"] == "S1" and
                   r["scheduler"] == "qaware"][0]
            self.assertEqual((row["n"], row["failed"]), (11, 1))
            self.assertAlmostEqual(row["mean"], 19.0 * 10 / 11, places=1)
            self.assertIn("1 transfer(s) failed", p.stdout)
        self.assertEqual(QA.values([QA.Transfer(1, bad)], True), [0.0])
        self.assertEqual(QA.values([QA.Transfer(1, bad)], False, 20.0),
                         [20.0])

    def test_names(self):
        self.assertEqual(QA.parse_name("3-S3-tcp-qaware.json"),
                         (3, "S3-tcp", "qaware"))
        self.assertIsNone(QA.parse_name("warm-S1.json"))

    def test_plot(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("matplotlib not installed")
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD, rounds=1)
            p = subprocess.run([sys.executable, ANALYZE, "-q", d],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(os.path.getsize(
                os.path.join(d, "qaware-S3.png")) > 1000)


def sampled(seconds, rng, interval=0.1):
    """A transfer over two subflows sampled every interval, each at its
    own uneven rate around 10 Mbit/s."""
    samples, acked = [], {"10.0.1.1": 0, "10.0.2.1": 0}
    for i in range(1, int(seconds / interval) + 1):
        for a in acked:
            acked[a] += int(rng.uniform(0.5, 1.5) * 10e6 / 8 * interval)
        samples.append([round(i * interval, 3),
                        {a: [v, 0, 0, 0] for a, v in acked.items()}])
    size = sum(acked.values())
    return {"sent": size, "t_done": seconds, "samples": samples,
            "receiver": {"bytes": size}, "competitor": {
                "start": seconds / 3, "end": 2 * seconds / 3}}


def full_size(d, seconds=12):
    """The S3 variants of a full run: 3, each with 8 schedulers' 12 s
    transfers sampled every 0.1 s; longer ones (seconds) thinned out."""
    rng = random.Random(5)
    scheds = "default qaware minrtt rr redundant ecf blest qaware_wait"
    scen = {n: dict(S3, competitor=c) for n, c in
            (("S3-tcp", "tcp"), ("S3", "udp"), ("S3-bql", "udp"))}
    os.makedirs(os.path.join(d, "runs"))
    with open(os.path.join(d, "bench.json"), "w") as f:
        json.dump({"schedulers": scheds, "paths": PATHS,
                   "scenarios": scen}, f)
    for n in scen:
        for s in scheds.split():
            with open(os.path.join(d, "runs", "1-%s-%s.json" % (n, s)),
                      "w") as f:
                json.dump(sampled(seconds, rng), f)


class PlotData(unittest.TestCase):
    """plots.json: what the figures draw, and the figures drawn from it
    alone."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.d = self.tmp.name
        self.plots = os.path.join(self.d, "plots.json")

    def test_full_size(self):
        # as long as S4, longer than any S3 variant: 299 rates, in twos
        full_size(self.d, 30)
        p = analyze(self.d)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertLess(os.path.getsize(self.plots), twbench.PLOTS_MAX_BYTES)
        s3 = twbench.read_plots(self.plots, QA.TOOL)["figures"]["s3"]
        self.assertEqual([(x["scenario"], len(x["transfers"])) for x in s3],
                         [("S3-tcp", 8), ("S3", 8), ("S3-bql", 8)])
        self.assertEqual({len(xy["mbit"]) for x in s3 for t in
                          x["transfers"] for xy in t["series"].values()},
                         {150})

    def test_content(self):
        write_bench(self.d, {("S3", "default"): (12.0, 12.0),
                             ("S3", "qaware"): (12.0, 12.0)}, rounds=1)
        self.assertEqual(analyze(self.d).returncode, 0)
        s3 = twbench.read_plots(self.plots, QA.TOOL)["figures"]["s3"]
        self.assertEqual([(x["scenario"], x["competitor"]) for x in s3],
                         [("S3", "udp")])
        t = s3[0]["transfers"][1]
        self.assertEqual((t["scheduler"], t["window"], sorted(t["series"])),
                         ("qaware", [4, 8], ["path 1", "path 2"]))
        # 12 Mbit/s and 2 %, half a subflow, from 1 s on every 0.5 s
        p1 = t["series"]["path 1"]
        self.assertEqual((p1["t"][0], p1["t"][-1], len(p1["t"])),
                         (1, 12, 23))
        self.assertEqual(set(p1["mbit"]), {6.12})

    def test_from_plots_alone(self):
        """Drawing needs only plots.json and is deterministic: a copy of
        it alone, nothing beside it, gives the run's figures again, the
        same files."""
        write_bench(self.d, GOOD, rounds=1)
        p = subprocess.run([sys.executable, ANALYZE, "-q", self.d],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            p, run, again = plotcheck.redrawn(ANALYZE, self.d, tmp)
        if p.returncode == plotcheck.NO_MATPLOTLIB and not run:
            self.skipTest("matplotlib not installed")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(run), ["qaware-S3-bql.png", "qaware-S3.png"])
        self.assertEqual(run, again)

    def test_refused(self):
        write_bench(self.d, GOOD, rounds=1)
        self.assertEqual(analyze(self.d).returncode, 0)
        for what, p, path in plotcheck.refusals(ANALYZE, self.plots,
                                                self.d):
            self.assertEqual(p.returncode, 2, what)
            self.assertIn(path, p.stderr, what)


# simult_flows.sh's output as upstream.sh leaves it: the stand-in's notes
# written into the lines, a case within its bound, one over it (client and
# server both say so), one killed at the timeout, a flaky one ignored
# (a backslash ends a line that the real output does not break).
SIMULT_OUT = """# schedulers in turn: qaware
01 balanced bwidth                      # [sched] mptcp_connect -l -p 10001: qaware
# [sched] mptcp_connect -p 10001 10.0.3.3: qaware
7455 max 7906       [ OK ]
02 balanced bwidth - reverse direction  # [sched] mptcp_connect -l: qaware
# [sched] mptcp_connect -p 10002 10.0.3.3: qaware
transfer slower than expected! runtime 7955 ms, expected 7906 mstransfer \
slower than expected! runtime 8120 ms, expected 7906 ms max 7906       [FAIL]
client exit code 1, server 1
03 unbalanced bwidth with opposed, unbalanced delay - reverse direction\
# [sched] mptcp_connect -l: qaware
# [sched] mptcp_connect -p 10003 10.0.3.3: qaware
 max 11921      [FAIL]
client exit code 124, server 124
04 unbalanced bwidth                    # [sched] mptcp_connect: qaware
# [sched] mptcp_connect: qaware
transfer slower than expected! runtime 23433 ms, expected 11921 ms \
max 11921      [IGNO] (flaky)
TAP version 13
1..5
"""


class Simult(unittest.TestCase):
    def test_cases(self):
        got = QA.simult_cases(SIMULT_OUT)
        self.assertEqual(
            [(c["case"], c["title"], c["ms"], c["bound_ms"], c["result"])
             for c in got],
            [(1, "balanced bwidth", 7455, 7906, "OK"),
             (2, "balanced bwidth - reverse direction", 8120, 7906, "FAIL"),
             (3, "unbalanced bwidth with opposed, unbalanced delay - "
              "reverse direction", None, 11921, "FAIL"),
             (4, "unbalanced bwidth", 23433, 11921, "IGNO")])

    def test_longer_end(self):
        # the client in time, the server over: the case shows the longer
        got = QA.simult_cases("01 balanced bwidth  transfer slower than "
                              "expected! runtime 8200 ms, expected 7906 ms"
                              "7455 max 7906       [FAIL]\n")
        self.assertEqual((got[0]["ms"], got[0]["result"]), (8200, "FAIL"))

    def test_table(self):
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD)
            os.makedirs(os.path.join(d, "simult"))
            for sched in ("qaware", "default"):
                with open(os.path.join(d, "simult", sched + ".txt"),
                          "w") as f:
                    f.write(SIMULT_OUT if sched == "qaware" else
                            SIMULT_OUT.replace("[FAIL]", "[ OK ]"))
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "table.txt")) as f:
                text = f.read().splitlines()
            head = next(i for i, ln in enumerate(text)
                        if ln.startswith("simult_flows.sh"))
            self.assertIn("default", text[head + 1].split())
            row = next(ln for ln in text if ln.startswith("02 "))
            self.assertIn("7.91 s", row)
            self.assertIn("8.12 s FAIL", row)
            self.assertIn("killed FAIL", next(
                ln for ln in text if ln.startswith("03 ")))
            # five planned, one output cut off: missing counts as failed
            self.assertEqual(text[-1].split()[2:], ["3", "of", "4", "1",
                                                    "of", "4"])
            with open(os.path.join(d, "qaware-analysis.json")) as f:
                run = json.load(f)["simult"]["qaware"]
            self.assertEqual((run["planned"], len(run["cases"])), (5, 4))

    def test_only_simult(self):
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, {}, subset=True)
            os.makedirs(os.path.join(d, "simult"))
            with open(os.path.join(d, "simult", "qaware.txt"), "w") as f:
                f.write(SIMULT_OUT)
            p = analyze(d, "--strict")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("01 balanced bwidth", p.stdout)

    def test_none(self):
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD)
            p = analyze(d)
            self.assertEqual(p.returncode, 0)
            self.assertNotIn("simult_flows", p.stdout)


class Documented(unittest.TestCase):
    FIELDS = ("cbr_kbit", "measured_kbit", "timeout_s", "dequeued_bytes",
              "measured_kbit_by_start", "dequeued_packets", "start_commits")

    def test_fields_named(self):
        """The fields the runner must write, in --help and the man page
        alike, and each one the analyser reads."""
        self.assertEqual(plotcheck.undocumented(ANALYZE, self.FIELDS), [])
        self.assertEqual(plotcheck.undocumented(ANALYZE, ("no_such",)),
                         [("no_such", w) for w in ("--help", "man page",
                                                   "code")])


class BadInput(unittest.TestCase):
    def test_no_bench_json(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(analyze(d).returncode, 2)

    def test_no_runs(self):
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, {})
            p = analyze(d)
            self.assertEqual(p.returncode, 2)
            self.assertIn("no runs", p.stderr)


if __name__ == "__main__":
    sys.exit(tap_main(sys.modules[__name__]))
