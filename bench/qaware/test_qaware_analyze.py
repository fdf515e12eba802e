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
SCHEDS = ("default", "qaware", "minrtt")
PATHS = {"10.0.1.1": 1, "10.0.2.1": 2}
BUSY = 5                # a sample's busy time (us)


def load_analyzer():
    loader = importlib.machinery.SourceFileLoader("tw_qaware_analyze",
                                                  ANALYZE)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


QA = load_analyzer()

SCENARIOS = {
    "S1": {"kbit": [10000, 10000], "seconds": 8, "competitor": "-"},
    "S2": {"kbit": [10000, 2500], "seconds": 8, "competitor": "-"},
    "S3-udp": {"kbit": [10000, 10000], "seconds": 12, "competitor": "udp"},
    "D4096K": {"kbit": [10000, 10000], "bytes": 4194304, "competitor": "-"},
}

# Mean goodput (Mbit/s; for D the completion time in s) per scenario and
# scheduler that meets every target: qaware 1.5 x default in S3, 95 % of
# the summed rate in S1 and S2, nowhere worse.
GOOD = {
    ("S1", "default"): 18.0, ("S1", "qaware"): 19.0, ("S1", "minrtt"): 18.0,
    ("S2", "default"): 11.0, ("S2", "qaware"): 11.9, ("S2", "minrtt"): 11.0,
    ("S3-udp", "default"): 8.0, ("S3-udp", "qaware"): 12.0,
    ("S3-udp", "minrtt"): 8.0,
    ("D4096K", "default"): 2.0, ("D4096K", "qaware"): 1.9,
    ("D4096K", "minrtt"): 2.0,
}
JITTER = (-0.02, 0.01, 0.0, 0.02, -0.01)    # per round, relative


def record(scen, value):
    """A completed transfer with goodput (or completion time) value: two
    subflows sharing the bytes, sampled every 0.5 s."""
    sc = SCENARIOS[scen]
    if "bytes" in sc:
        size, t_done = sc["bytes"], value
    else:
        t_done = sc["seconds"]
        size = int(value * 1e6 / 8 * t_done)
    steps = int(t_done / 0.5)
    samples = [[0.5 * i, {"10.0.1.1": [size * i // steps // 2, 0, 0, 0],
                          "10.0.2.1": [size * i // steps // 2, 0, 0, 0]}]
               for i in range(1, steps + 1)]
    rec = {"sent": size, "t_done": t_done, "samples": samples,
           "receiver": {"bytes": size, "t_first": 0, "t_last": t_done}}
    if sc["competitor"] != "-":
        rec["competitor"] = {"start": sc["seconds"] / 3,
                             "end": 2 * sc["seconds"] / 3, "rc": 0}
    return rec


def write_bench(d, means, rounds=5, mode="full", extra=None, subset=False):
    meta = {"mode": mode, "subset": subset, "seed": 7, "rounds": rounds, "scale": 2,
            "probe": [[1, 15.0, 16.0], [2, 9.5, 9.6]], "schedulers": " ".join(SCHEDS),
            "paths": PATHS, "scenarios": SCENARIOS, "kernel": "test",
            "commit": "test"}
    os.makedirs(os.path.join(d, "runs"), exist_ok=True)
    with open(os.path.join(d, "bench.json"), "w") as f:
        json.dump(meta, f)
    for (scen, sched), m in means.items():
        for r in range(rounds):
            rec = record(scen, m * (1 + JITTER[r % len(JITTER)]))
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
        return {t["target"].split(":")[0]: t for t in
                json.load(f)["targets"]}


def changed(**kw):
    means = dict(GOOD)
    for k, v in kw.items():
        scen, sched = k.rsplit("_", 1)
        means[(scen.replace("S3udp", "S3-udp"), sched)] = v
    return means


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

    def assert_fails(self, means, which):
        strict, t = self.run_case(means)
        self.assertEqual(t[which]["verdict"], "FAIL")
        self.assertEqual(strict.returncode, 1, strict.stdout)
        self.assertIn("FAIL", strict.stdout)
        others = [k for k, v in t.items() if v["verdict"] != "PASS"]
        self.assertEqual(others, [which])

    def test_all_met(self):
        strict, t = self.run_case(GOOD)
        self.assertEqual(strict.returncode, 0, strict.stdout)
        self.assertEqual({v["verdict"] for v in t.values()}, {"PASS"})
        self.assertEqual(len(t), 4)

    def test_s3_below_factor(self):
        # 1.25 x default: short of 1.3, and not worse than default.
        self.assert_fails(changed(S3udp_qaware=10.0), "S3-udp")

    def test_s1_below_rate(self):
        # 17.5 of 20 Mbit/s is 87.5 %; default 17.5 too, so not worse.
        self.assert_fails(changed(S1_qaware=17.5, S1_default=17.5,
                                  S1_minrtt=17.5), "S1")

    def test_s2_below_rate(self):
        self.assert_fails(changed(S2_qaware=11.0), "S2")

    def test_completion_significantly_worse(self):
        self.assert_fails(changed(D4096K_qaware=2.4),
                          "qaware nowhere significantly worse than default")

    def test_goodput_significantly_worse(self):
        strict, t = self.run_case(changed(S1_default=19.5, S1_qaware=18.5))
        worse = t["qaware nowhere significantly worse than default"]
        self.assertEqual(worse["verdict"], "FAIL")
        self.assertEqual(worse["value"], "S1")
        self.assertEqual(strict.returncode, 1)

    def test_overlap_is_not_worse(self):
        # 1 % lower with 2 % noise each way: the interval holds 1.
        _, t = self.run_case(changed(D4096K_qaware=2.02))
        self.assertEqual(
            t["qaware nowhere significantly worse than default"]["verdict"],
            "PASS")

    def test_one_round_not_judged(self):
        strict, t = self.run_case(GOOD, rounds=1, mode="short")
        worse = t["qaware nowhere significantly worse than default"]
        self.assertEqual(worse["verdict"], "N/A")
        self.assertEqual(strict.returncode, 0)
        self.assertIn("indicative", strict.stdout)

    def test_subset_not_judged(self):
        # S2 is below its rate, yet a subset run judges nothing.
        strict, t = self.run_case(changed(S2_qaware=11.0), subset=True)
        self.assertEqual({v["verdict"] for v in t.values()}, {"N/A"})
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

    def test_bootstrap(self):
        import random
        a, b = [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]
        self.assertEqual(QA.bootstrap_ratio(a, b, random.Random(1)),
                         [2.0, 2.0])
        self.assertIsNone(QA.bootstrap_ratio([2.0], b, random.Random(1)))
        lo, hi = QA.bootstrap_ratio([1.0, 3.0], [1.0, 1.0],
                                    random.Random(1))
        self.assertTrue(1.0 <= lo < 2.0 < hi <= 3.0)

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
                rec = record("S3-udp", 10.0)
                rec["dql"] = [[1.0, bql, 6000], [5.0, 2 * bql, 6000]]
                rec["snapshot"] = snap(bql)
                with open(os.path.join(
                        d, "runs", "%d-S3-udp-qaware.json" % r), "w") as f:
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

    def test_failed_left_out(self):
        bad = record("S1", 1.0)
        bad["receiver"]["bytes"] -= 1
        with tempfile.TemporaryDirectory() as d:
            write_bench(d, GOOD, extra={"6-S1-qaware.json": bad})
            p = analyze(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "qaware-analysis.json")) as f:
                rows = json.load(f)["rows"]
            row = [r for r in rows if r["scenario"] == "S1" and
                   r["scheduler"] == "qaware"][0]
            self.assertEqual((row["n"], row["failed"]), (5, 1))
            self.assertAlmostEqual(row["mean"], 19.0, places=1)
            self.assertIn("1 transfer(s) failed", p.stdout)

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
                os.path.join(d, "qaware-S3-udp.png")) > 1000)


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
    scen = {n: dict(SCENARIOS["S3-udp"], competitor=c) for n, c in
            (("S3-tcp", "tcp"), ("S3-udp", "udp"), ("S3-bql", "udp"))}
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
                         [("S3-tcp", 8), ("S3-udp", 8), ("S3-bql", 8)])
        self.assertEqual({len(xy["mbit"]) for x in s3 for t in
                          x["transfers"] for xy in t["series"].values()},
                         {150})

    def test_content(self):
        write_bench(self.d, GOOD, rounds=1)
        self.assertEqual(analyze(self.d).returncode, 0)
        s3 = twbench.read_plots(self.plots, QA.TOOL)["figures"]["s3"]
        self.assertEqual([(x["scenario"], x["competitor"]) for x in s3],
                         [("S3-udp", "udp")])
        t = s3[0]["transfers"][1]
        self.assertEqual((t["scheduler"], t["window"], sorted(t["series"])),
                         ("qaware", [4, 8], ["path 1", "path 2"]))
        # 12 Mbit/s less 2 %, half a subflow, from 1 s on every 0.5 s
        p1 = t["series"]["path 1"]
        self.assertEqual((p1["t"][0], p1["t"][-1], len(p1["t"])),
                         (1, 12, 23))
        self.assertEqual(set(p1["mbit"]), {5.88})

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
        self.assertEqual(sorted(run), ["qaware-S3-udp.png"])
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
