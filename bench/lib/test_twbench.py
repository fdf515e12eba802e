#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of twbench, the module the benchmark analysers share: its
statistics, judging, tables and files on small inputs whose answers are
worked out by hand.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest
import unittest.mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True     # nothing left behind in the tree
from taptest import tap_main  # noqa: E402
import twbench as tb  # noqa: E402

INF = float("inf")


class Statistics(unittest.TestCase):
    def test_percentile(self):
        vals = [10, 20, 30, 40]
        self.assertEqual(tb.percentile(vals, 0), 10)
        self.assertEqual(tb.percentile(vals, 50), 25.0)
        # rank 0.9 * 3 = 2.7: 30 + 0.7 * 10
        self.assertAlmostEqual(tb.percentile(vals, 90), 37.0)
        self.assertEqual(tb.percentile(vals, 100), 40)
        self.assertEqual(tb.percentile([7], 99), 7.0)
        self.assertIsNone(tb.percentile([], 50))
        self.assertEqual(tb.median([3, 1, 2, 10]), 2.5)

    def test_nearest_rank(self):
        vals = list(range(1, 101))
        self.assertEqual(tb.nearest_rank(vals, 99), 99)
        self.assertEqual(tb.nearest_rank(vals, 50), 50)
        self.assertEqual(tb.nearest_rank(vals, 0), 1)
        # one lost packet in 100 leaves p99 finite, two make it infinite
        self.assertEqual(tb.nearest_rank(list(range(1, 100)) + [INF], 99),
                         99)
        self.assertEqual(tb.nearest_rank(list(range(1, 99)) + [INF, INF],
                                         99), INF)
        self.assertIsNone(tb.nearest_rank([], 99))

    def test_means(self):
        self.assertEqual(tb.mean(x for x in (1, 2, 6)), 3.0)
        self.assertIsNone(tb.mean([]))
        self.assertAlmostEqual(tb.geomean([1, 4, 16]), 4.0)
        self.assertIsNone(tb.geomean([]))

    def test_ratio(self):
        self.assertEqual(tb.ratio(6, 3), 2.0)
        self.assertEqual(tb.ratio(0, 3), 0.0)
        for a, b in ((None, 3), (6, None), (6, 0), (6, INF)):
            self.assertIsNone(tb.ratio(a, b), (a, b))

    def test_paired(self):
        # (round, value): a ran rounds 1, 2 and 9, b 2, 4, 9 and 2 twice
        a = [(9, 30), (1, 10), (2, 20)]
        b = [(2, 4), (4, 1), (9, 0), (2, 6)]
        pairs = tb.paired(a, b, lambda x: x[0])
        self.assertEqual(pairs, [(2, [(2, 20)], [(2, 4), (2, 6)]),
                                 (9, [(9, 30)], [(9, 0)])])
        sums = [(k, sum(v for _r, v in x), sum(v for _r, v in y))
                for k, x, y in pairs]
        # round 9's reference gives no scale: no ratio
        self.assertEqual(tb.paired_ratios(sums), [2.0, None])
        self.assertEqual(tb.paired(a, [(5, 1)], lambda x: x[0]), [])

    def test_bootstrap_interval(self):
        # 200 values drawn around a true mean of 10
        rng = random.Random(7)
        sample = [rng.gauss(10, 2) for _ in range(200)]
        lo, hi = tb.bootstrap_interval([sample], tb.mean, random.Random(1))
        self.assertLess(lo, 10)
        self.assertGreater(hi, 10)
        self.assertLess(lo, tb.mean(sample))
        self.assertGreater(hi, tb.mean(sample))
        # about 4 standard errors (2 / sqrt(200)) wide, not the spread
        self.assertLess(hi - lo, 1.0)
        self.assertGreater(hi - lo, 0.3)
        # the seed fixes it; a narrower coverage lies inside
        self.assertEqual(tb.bootstrap_interval([sample], tb.mean,
                                               random.Random(1)), [lo, hi])
        lo50, hi50 = tb.bootstrap_interval([sample], tb.mean,
                                           random.Random(1), conf=0.5)
        self.assertTrue(lo < lo50 < hi50 < hi)
        self.assertIsNone(tb.bootstrap_interval([[1.0]], tb.mean,
                                                random.Random(1)))

    def test_log_mean(self):
        self.assertAlmostEqual(tb.log_mean([2.0, 0.5]), 1.0)
        self.assertAlmostEqual(tb.log_mean([1.0, 4.0, 16.0]), 4.0)
        # a round the subject lost (inf) or was perfect in (0) decides
        self.assertEqual(tb.log_mean([0.5, INF]), INF)
        self.assertEqual(tb.log_mean([0.5, 0.0]), 0.0)
        for vals in ([], [0.0, INF], [1.0, None]):
            self.assertIsNone(tb.log_mean(vals), vals)

    def test_round_ratio(self):
        self.assertEqual(tb.round_ratio(3, 6), 0.5)
        self.assertEqual(tb.round_ratio(INF, 6), INF)
        self.assertEqual(tb.round_ratio(0, 0), 1.0)
        self.assertEqual(tb.round_ratio(1, 0), INF)
        self.assertIsNone(tb.round_ratio(None, 6))
        self.assertIsNone(tb.round_ratio(3, None))

    def test_paired_estimate(self):
        # ten rounds: the geometric mean, an interval around it, seeded
        ratios = [0.8, 1.2, 0.9, 1.1, 1.0, 0.7, 1.3, 1.0, 0.95, 1.05]
        point, (lo, hi) = tb.paired_estimate(ratios, random.Random(3))
        self.assertAlmostEqual(point, tb.geomean(ratios))
        self.assertTrue(0.7 < lo < point < hi < 1.3)
        self.assertEqual(tb.paired_estimate(ratios, random.Random(3)),
                         (point, [lo, hi]))
        # one round: a point, no interval
        self.assertEqual(tb.paired_estimate([0.5], random.Random(3)),
                         (0.5, None))
        # every draw without a mean: no interval, no crash
        self.assertEqual(tb.paired_estimate([0.0, INF], random.Random(3)),
                         (None, [0.0, INF]))


class Comparisons(unittest.TestCase):
    def test_ratio_of_means(self):
        self.assertAlmostEqual(tb.ratio_of_means([(2, 1), (4, 3)]), 1.5)
        # a failed subject's 0 counts, it is not left out
        self.assertAlmostEqual(tb.ratio_of_means([(0, 1), (2, 1)]), 1.0)
        self.assertEqual(tb.ratio_of_means([(1, 0), (1, 0)]), INF)
        self.assertEqual(tb.ratio_of_means([(1, INF)]), 0.0)
        self.assertEqual(tb.ratio_of_means([(INF, 1)]), INF)
        self.assertIsNone(tb.ratio_of_means([(0, 0)]))
        self.assertIsNone(tb.ratio_of_means([(INF, INF)]))
        self.assertIsNone(tb.ratio_of_means([]))

    def test_paired_draws(self):
        # the pairs stay together: every draw of (x, x) is 1
        pairs = [(1, 1), (5, 5), (9, 9)]
        d = tb.paired_draws(pairs, tb.ratio_of_means, random.Random(1), 50)
        self.assertEqual(d, [1.0] * 50)
        self.assertEqual(tb.paired_draws(pairs[:1], tb.ratio_of_means,
                                         random.Random(1)), [])
        # the same seed, the same draws
        pairs = [(1, 2), (3, 1), (2, 2), (4, 1)]
        self.assertEqual(
            tb.paired_draws(pairs, tb.ratio_of_means, random.Random(3)),
            tb.paired_draws(pairs, tb.ratio_of_means, random.Random(3)))
        self.assertEqual(tb.draws_interval([1, 2, 3]), [1, 3])
        self.assertIsNone(tb.draws_interval([]))

    def test_mean_difference(self):
        self.assertAlmostEqual(tb.mean_difference([(3, 1), (5, 1)]), 3.0)
        self.assertIsNone(tb.mean_difference([(INF, 1)]))
        self.assertIsNone(tb.mean_difference([]))

    def test_p_value(self):
        draws = [0.8, 0.9, 1.1, 1.2]
        # two of four draws not above 1: (2 + 1) / 5
        self.assertAlmostEqual(tb.p_value(draws, lambda d: d > 1), 0.6)
        self.assertAlmostEqual(tb.p_value(draws, lambda d: d > 0), 0.2)
        self.assertEqual(tb.p_value([], lambda d: True), 1.0)
        # an undefined draw counts against the claim: (1 + 1) / 4
        self.assertAlmostEqual(tb.p_value([None, 1.2, 1.3], lambda d: d > 1), 0.5)

    def test_holm(self):
        # sorted 0.01, 0.02, 0.04 of m = 3: 0.03, 0.04, 0.04
        adj = tb.holm([0.04, 0.01, 0.02])
        self.assertEqual([round(p, 6) for p in adj], [0.04, 0.03, 0.04])
        # one not measured counts in m and stays None
        adj = tb.holm([0.01, None])
        self.assertEqual((round(adj[0], 6), adj[1]), (0.02, None))
        self.assertEqual(tb.holm([0.6, 0.7]), [1.0, 1.0])

    def comp(self, ratios, kind, bound):
        pairs = [(r, 1.0) for r in ratios]
        return tb.comparison("c", pairs, tb.ratio_of_means, kind, bound,
                             random.Random(1))

    def test_judge_family(self):
        up = [1.5, 1.6, 1.4, 1.55, 1.45, 1.5]
        level = [1.0, 0.99, 1.01, 1.0, 1.02, 0.98]
        down = [0.8, 0.82, 0.79, 0.81, 0.8, 0.78]
        recs = [self.comp(up, "at_least", 1.3),      # shown: PASS
                self.comp(level, "at_least", 1.3),   # not shown: FAIL
                self.comp(level, "not_below", 1),    # no difference: PASS
                self.comp(down, "not_below", 1),     # shown below: FAIL
                self.comp(down, "at_most", 0.9),     # shown: PASS
                self.comp(up, "not_above", 1),       # shown above: FAIL
                self.comp([1.5], "at_least", 1.3),   # one unit
                tb.not_measured("m", "no such run")]
        tb.judge_family(recs)
        self.assertEqual([r["result"] for r in recs],
                         [tb.PASS, tb.FAIL, tb.PASS, tb.FAIL, tb.PASS,
                          tb.FAIL, tb.NOT_MEASURED, tb.NOT_MEASURED])
        self.assertEqual(recs[6]["why"], "1 unit(s), no interval")
        # Holm over all eight, the two not measured counted
        self.assertAlmostEqual(recs[0]["p_holm"], 8 * recs[0]["p"])
        self.assertEqual(tb.strict_status(recs, True), 1)

    def test_no_worse(self):
        # part 1's factor-1 rule: estimate <= 1, upper side <= 1.10
        better = [0.9, 0.95, 0.92, 0.97, 0.93]
        level = [1.0, 1.01, 0.99, 1.02, 1.0]        # estimate above 1
        wide = [0.5, 1.5, 0.6, 1.4, 0.7]            # upper side > 1.10
        recs = tb.judge_family([self.comp(r, "no_worse", 1)
                                for r in (better, level, wide)])
        self.assertEqual([r["result"] for r in recs],
                         [tb.PASS, tb.FAIL, tb.FAIL])

    def test_above(self):
        # a rise shown over the units; none (flat at 0) is no rise
        def diff(pairs):
            return tb.comparison("d", pairs, tb.mean_difference, "above", 0,
                                 random.Random(1))
        rise = diff([(0.2, 0.0), (0.3, 0.0), (0.25, 0.01), (0.2, 0.0)])
        flat = diff([(0.0, 0.0)] * 5)
        tb.judge_family([rise, flat])
        self.assertEqual((rise["result"], flat["result"]),
                         (tb.PASS, tb.FAIL))


class Judging(unittest.TestCase):
    def test_verdict(self):
        self.assertEqual(tb.verdict(True), tb.PASS)
        self.assertEqual(tb.verdict(False), tb.FAIL)
        self.assertEqual(tb.verdict(None), tb.NA)

    def test_at_most(self):
        # the subject must be at most half the reference's
        self.assertEqual(tb.at_most(5, 10, 2), "PASS")
        self.assertEqual(tb.at_most(6, 10, 2), "FAIL")
        self.assertEqual(tb.at_most(10, 10), "PASS")
        # a subject that produced nothing fails, against anything
        self.assertEqual(tb.at_most(None, 10, 2), "FAIL")
        self.assertEqual(tb.at_most(INF, 10), "FAIL")
        # N/A only when the reference produced nothing
        for v in (None, 0, 5, INF):
            self.assertEqual(tb.at_most(v, None, 2), "N/A")
        for ref in (0, 10, INF):
            for v in (None, 0, 5, INF):
                self.assertIn(tb.at_most(v, ref, 2), ("PASS", "FAIL"))

    def test_judge_ratio(self):
        # bound 1: the mean at most 1 and the upper bound at most 1.10
        self.assertEqual(tb.judge_ratio(0.95, [0.8, 1.1], 1), tb.PASS)
        self.assertEqual(tb.judge_ratio(0.95, [0.8, 1.11], 1), tb.FAIL)
        self.assertEqual(tb.judge_ratio(1.01, [0.95, 1.05], 1), tb.FAIL)
        # any other bound: the upper bound at or under it
        self.assertEqual(tb.judge_ratio(0.1, [0.05, 0.2], 0.2), tb.PASS)
        self.assertEqual(tb.judge_ratio(0.1, [0.05, 0.21], 0.2), tb.FAIL)
        self.assertEqual(tb.judge_ratio(1.9, [1.5, 2.0], 2), tb.PASS)
        self.assertEqual(tb.judge_ratio(0.5, [0.4, INF], 2), tb.FAIL)
        # no interval (one round) or no estimate: not measured, no pass
        self.assertEqual(tb.judge_ratio(0.1, None, 0.2), tb.NOT_MEASURED)
        self.assertEqual(tb.judge_ratio(None, [0, 1], 1), tb.NOT_MEASURED)

    def test_combined(self):
        self.assertEqual(tb.combined(["PASS", "N/A"]), "N/A")
        self.assertEqual(tb.combined(["PASS", "NOT MEASURED", "N/A"]),
                         "NOT MEASURED")
        self.assertEqual(tb.combined(["NOT MEASURED", "FAIL"]), "FAIL")
        self.assertEqual(tb.combined(["PASS", "PASS"]), "PASS")
        self.assertEqual(tb.combined([]), "NOT MEASURED")

    def test_records_and_exit(self):
        ok = tb.check("age", tb.at_most(1, 4, 2), None, value=1, ref=4)
        bad = tb.check("drops", tb.at_most(3, 4, 2), "3 > 4/2")
        na = tb.check("xdp", tb.at_most(1, None), "no XDP run")
        self.assertEqual(ok, {"name": "age", "result": "PASS", "why": None,
                              "value": 1, "ref": 4})
        self.assertEqual(bad["result"], "FAIL")
        self.assertEqual(tb.count_results([ok, bad, na]),
                         {"PASS": 1, "FAIL": 1, "N/A": 1, "NOT MEASURED": 0})
        self.assertEqual(tb.strict_status([ok, bad, na], strict=True), 1)
        self.assertEqual(tb.strict_status([ok, bad, na], strict=False), 0)
        # N/A is no failure
        self.assertEqual(tb.strict_status([ok, na], strict=True), 0)
        targets = [{"verdict": "FAIL"}]
        self.assertEqual(tb.strict_status(targets, True, key="verdict"), 1)
        # a target that could not be evaluated is no pass
        unmeasured = {"result": tb.NOT_MEASURED}
        self.assertEqual(tb.strict_status([ok, na, unmeasured], True), 1)
        self.assertEqual(tb.strict_status([ok, na, unmeasured], False), 0)

    def test_arguments(self):
        ap = tb.arg_parser("Analyse.", "a run", judged="target")
        a = ap.parse_args(["-o", "out", "--strict", "-q", "run"])
        self.assertEqual((a.indir, a.outdir, a.strict, a.quiet),
                         ("run", "out", True, True))
        a = ap.parse_args(["run"])
        self.assertEqual((a.outdir, a.strict, a.quiet), (None, False, False))
        self.assertIn("exit 1 when a target fails", ap.format_help())


class Tables(unittest.TestCase):
    def test_cells(self):
        self.assertEqual(tb.cell(None), "-")
        self.assertEqual(tb.cell(INF, 1000.0), "inf")
        self.assertEqual(tb.cell(12345, 1000.0), "12.3")
        self.assertEqual(tb.cell(7, None, "%d"), "7")
        self.assertEqual(tb.num(0.5), "0.50")
        self.assertEqual(tb.num(None), "-")

    def test_table_lines(self):
        cols = (("grid", 5, lambda r: r[0]), ("n", 4, lambda r: str(r[1])),
                ("note", 6, lambda r: r[2]))
        rows = [("a", 1, ""), ("a", 22, "x"), ("b", 3, "")]
        self.assertEqual(tb.table_lines(rows, cols, left=1,
                                        group=lambda r: r[0]),
                         ["grid     n   note",
                          "a        1",
                          "a       22      x",
                          "",
                          "b        3"])
        self.assertEqual(tb.table_lines(rows[:1], cols),
                         ["grid  n    note", "a     1"])

    def test_fitted_table(self):
        cells = [("01 long", "7"), ("02", "")]
        self.assertEqual(tb.fitted_table(("case", "ms"), cells),
                         ["case     ms", "01 long  7", "02"])


class InTempDir(unittest.TestCase):
    """A test case with a temporary directory of its own, self.d."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.d = tmp.name


class Files(InTempDir):

    def path(self, name, text=None):
        p = os.path.join(self.d, name)
        if text is not None:
            with open(p, "w") as f:
                f.write(text)
        return p

    def test_csv_round_trip(self):
        p = self.path("rows.csv")
        tb.write_csv([{"a": 1, "b": None}, {"b": 2.5, "c": "x"}], p)
        with open(p) as f:
            self.assertEqual(f.read().splitlines(),
                             ["a,b,c", "1,,", ",2.5,x"])
        self.assertEqual(tb.read_csv(p), [{"a": "1", "b": "", "c": ""},
                                          {"a": "", "b": "2.5", "c": "x"}])
        p = self.path("c.csv", "a,b\n# a note,\n3,4\n")
        self.assertEqual(tb.read_csv(p), [{"a": "3", "b": "4"}])
        self.assertEqual(tb.read_csv(self.path("none.csv"), missing_ok=True),
                         [])
        with self.assertRaises(OSError):
            tb.read_csv(self.path("none.csv"))

    def test_read_columns(self):
        p = self.path("ev.csv", "t,ev,x\n1,tx,9\n\n# note\n2,rx\n")
        self.assertEqual(list(tb.read_columns(p, ("ev", "t", "absent"))),
                         [(2, ("tx", "1", "")), (5, ("rx", "2", ""))])
        with self.assertRaisesRegex(ValueError, "no ev,y header"):
            list(tb.read_columns(p, ("ev",), required=("ev", "y")))
        empty = self.path("empty.csv", "")
        self.assertEqual(list(tb.read_columns(empty, ("ev",))), [])
        with self.assertRaises(ValueError):
            list(tb.read_columns(empty, ("ev",), required=("ev",)))
        none = self.path("none.csv")
        self.assertEqual(list(tb.read_columns(none, ("ev",),
                                              missing_ok=True)), [])
        with self.assertRaises(OSError):
            list(tb.read_columns(none, ("ev",)))

    def test_json(self):
        obj = {"p99": INF, "low": -INF, "rows": [{"x": INF}, (1, 2.5)]}
        self.assertEqual(tb.json_safe(obj),
                         {"p99": "inf", "low": "-inf",
                          "rows": [{"x": "inf"}, [1, 2.5]]})
        p = self.path("a.json")
        tb.write_json(tb.json_safe(obj), p)
        with open(p) as f:
            text = f.read()
        self.assertTrue(text.endswith("}\n"))
        self.assertEqual(tb.read_json(p)["rows"][0], {"x": "inf"})
        tb.write_json({"a": 1}, p, end="")
        with open(p) as f:
            self.assertEqual(f.read(), '{\n "a": 1\n}')
        self.assertEqual(tb.read_json(self.path("none.json"),
                                      missing_ok=True), {})
        with self.assertRaises(OSError):
            tb.read_json(self.path("none.json"))

    def test_figure(self):
        try:
            plt = tb.agg_pyplot()
        except ImportError:
            self.skipTest("matplotlib not installed")
        fig, ax = plt.subplots(figsize=(2, 2))
        ax.plot([0, 1], [1, 0])
        written = []
        p = tb.save_figure(fig, self.path("f.png"), written, dpi=50)
        self.assertEqual(written, [p])
        with open(p, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        # closed: pyplot holds no figure any more
        self.assertEqual(plt.get_fignums(), [])


class PlotData(InTempDir):

    def test_levels(self):
        lv = tb.CDF_LEVELS
        self.assertEqual((lv[0], lv[-1], len(lv)), (0, 1, 44))
        self.assertEqual(list(lv), sorted(set(lv)))
        for p in (0.25, 0.5, 0.75, 0.99, 0.995, 0.999):
            self.assertIn(p, lv)

    def test_cdf_curve(self):
        # 1..200 ns, shuffled, in us; 400 expected, half never arrived
        vals = list(range(1, 201))
        random.Random(3).shuffle(vals)
        c = tb.cdf_curve(vals, total=400, scale=1000)
        q = dict(zip(tb.CDF_LEVELS, c["q"]))
        self.assertEqual((c["n"], c["total"], len(c["q"])), (200, 400, 44))
        # each a sample: the smallest that the level's share reaches
        self.assertEqual((q[0], q[0.5], q[0.99], q[0.999], q[1]),
                         (0.001, 0.1, 0.198, 0.2, 0.2))
        # 0.275 * 200 is not quite 55 in floating point: still rank 55
        self.assertEqual(q[0.275], 0.055)
        x, y = tb.cdf_points(c, tb.CDF_LEVELS)
        self.assertEqual(x, c["q"])
        self.assertEqual((y[0], y[-1]), (0, 0.5))
        self.assertEqual(tb.cdf_curve([5])["q"], [5.0] * 44)
        self.assertIsNone(tb.cdf_curve([]))

    def test_decimate(self):
        ts = [0.1 * i for i in range(250)]
        vs = [10 * (i % 3) for i in range(250)]
        dt, dv = tb.decimate(ts, vs, 100)
        # threes averaged: 84 points, every full one at 10
        self.assertEqual(len(dt), 84)
        self.assertEqual(set(dv[:-1]), {10})
        self.assertAlmostEqual(dt[0], 0.1)
        self.assertAlmostEqual(dt[-1], 24.9)
        self.assertEqual(dv[-1], 0)
        self.assertEqual(tb.decimate([1, 2], [3, 4]), ([1, 2], [3, 4]))
        self.assertEqual(len(tb.decimate(ts, vs)[0]), 125)
        self.assertEqual(len(tb.decimate(ts, vs, 250)[0]), 250)

    def test_rounded(self):
        got = tb.rounded({"a": 1234.5678, "b": [0.012345, 7.0, 2, -0.0],
                          "c": ("x", True, None, INF)})
        self.assertEqual(got, {"a": 1230, "b": [0.0123, 7, 2, 0.0],
                               "c": ["x", True, None, INF]})
        self.assertIsInstance(got["a"], int)
        # beyond a float's exact integers it stays a float
        self.assertEqual(repr(tb.rounded(2.0 ** 60)), "1.15e+18")
        # times keep hundredths of a second on a long axis
        self.assertEqual(tb.rounded({"t": tb.Times([123.456, 0.004, 2])}),
                         {"t": [123.46, 0.0, 2]})

    def test_round_trip(self):
        p = os.path.join(self.d, "plots.json")
        fig = {"curve": tb.cdf_curve(range(1000), scale=7), "n": 3}
        tb.write_plots(p, "tw-x", fig)
        with open(p) as f:
            text = f.read()
        # compact: one line
        self.assertEqual(text.count("\n"), 1)
        doc = tb.read_plots(p, "tw-x")
        self.assertEqual(doc["figures"], tb.rounded(fig))
        self.assertEqual((doc["version"], doc["levels"]),
                         (tb.PLOTS_VERSION, list(tb.CDF_LEVELS)))

    def refused(self, text, why):
        p = os.path.join(self.d, "plots.json")
        with open(p, "w") as f:
            f.write(text)
        with self.assertRaisesRegex(tb.PlotDataError,
                                    "^%s: .*%s" % (p, why)):
            tb.read_plots(p, "tw-x")

    def test_refused(self):
        good = {"format": "twbench-plots", "version": 1, "tool": "tw-x",
                "levels": [0, 1], "figures": {}}
        self.refused('{"format": ', "cannot read")
        self.refused("[]", "not a plots.json")
        for k, v, why in (("format", "other", "not a plots.json"),
                          ("version", 2, "version 2, this tool reads 1"),
                          ("tool", "tw-y", "written by tw-y, not tw-x"),
                          ("figures", [], "no figures"),
                          ("levels", None, "no figures or levels")):
            self.refused(json.dumps(dict(good, **{k: v})), why)
        with self.assertRaisesRegex(tb.PlotDataError, "none.json: cannot"):
            tb.read_plots(os.path.join(self.d, "none.json"), "tw-x")

    def test_arguments(self):
        ap = tb.arg_parser("Analyse.", "a run")
        a = tb.parse_args(ap, ["--from-plots", "kept/plots.json"])
        self.assertEqual((a.indir, a.outdir), (None, "."))
        a = tb.parse_args(ap, ["--from-plots", "plots.json", "-o", "o"])
        self.assertEqual(a.outdir, "o")
        self.assertEqual(tb.parse_args(ap, ["run"]).outdir, "run")
        for argv in ([], ["run", "--from-plots", "plots.json"]):
            with contextlib.redirect_stderr(io.StringIO()) as err, \
                    self.assertRaises(SystemExit) as e:
                tb.parse_args(ap, argv)
            self.assertEqual(e.exception.code, 2)
            self.assertIn("exactly one", err.getvalue())

    def test_not_from_plots(self):
        """What --from-plots cannot do is refused, naming both options;
        each alone is taken."""
        ap = tb.arg_parser("Analyse.", "a run")
        ap.add_argument("--summary", action="store_true")
        ap.add_argument("--no-plots", action="store_true")
        ap.add_argument("--plots", choices=("all", "none"), default="all")
        for extra, named in ((["--strict"], "--strict"),
                             (["--summary"], "--summary"),
                             (["--no-plots"], "--no-plots"),
                             (["--plots", "none"], "--plots none")):
            with contextlib.redirect_stderr(io.StringIO()) as err, \
                    self.assertRaises(SystemExit) as e:
                tb.parse_args(ap, ["--from-plots", "p.json"] + extra)
            self.assertEqual(e.exception.code, 2, extra)
            self.assertIn("--from-plots and %s" % named, err.getvalue())
            self.assertEqual(tb.parse_args(ap, ["run"] + extra).indir, "run")
        a = tb.parse_args(ap, ["--from-plots", "p.json", "--plots", "all"])
        self.assertEqual(a.from_plots, "p.json")

    def replot(self, draw, text=None):
        """replot's status and what it wrote to stderr, on a plots.json
        of tw-x (text, or the one write_plots writes)."""
        p = os.path.join(self.d, "plots.json")
        tb.write_plots(p, "tw-x", {"bars": [1, 2]})
        if text is not None:
            with open(p, "w") as f:
                f.write(text)
        args = tb.parse_args(tb.arg_parser(), ["-q", "--from-plots", p])
        with contextlib.redirect_stderr(io.StringIO()) as err:
            rc = tb.replot(args, "tw-x", draw)
        return rc, err.getvalue(), p

    def test_replot(self):
        seen = []
        rc, err, p = self.replot(lambda doc, out: seen.append(doc) or [])
        if "matplotlib not available" in err:
            self.assertEqual((rc, seen), (1, []))
            self.skipTest("matplotlib not installed")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(seen[0]["figures"], {"bars": [1, 2]})

    def test_replot_refused(self):
        rc, err, p = self.replot(lambda doc, out: [], "{")
        self.assertEqual(rc, 2)
        self.assertTrue(err.startswith("tw-x: %s: cannot read" % p), err)

    def test_replot_malformed(self):
        """Figures missing a part are refused, matplotlib or not: the
        probe for it is stubbed, draw never touches pyplot."""
        def draw(doc, out):
            return doc["figures"]["lines"]
        with unittest.mock.patch.object(tb, "try_pyplot",
                                        return_value=object()):
            rc, err, p = self.replot(draw)
        self.assertEqual(rc, 2)
        self.assertIn("tw-x: %s: malformed plot data: KeyError" % p, err)


class ResultsPlots(InTempDir):
    """make results-plots' script on a results directory of its own."""

    SCRIPT = os.path.join(HERE, "..", "..", "scripts", "results-plots.sh")

    def setUp(self):
        super().setUp()
        self.results = os.path.join(self.d, "results")
        self.out = os.path.join(self.d, "out")

    def run_script(self, runs):
        """runs: {name: its plots.json text, or None for none}, or None
        for no results directory at all; the script's process, drawing
        into self.out."""
        if runs is not None:
            os.mkdir(self.results)
        for name, text in (runs or {}).items():
            os.makedirs(os.path.join(self.results, name))
            if text is not None:
                with open(os.path.join(self.results, name, "plots.json"),
                          "w") as f:
                    f.write(text)
        return subprocess.run([self.SCRIPT, self.results, self.out],
                              capture_output=True, text=True)

    @staticmethod
    def s3_plots():
        """The plots.json tw-qaware-analyze writes for a made-up S3 run:
        one scheduler's transfer over two subflows, the competitor's
        window greyed."""
        t = [i / 10 for i in range(30)]
        doc = {"s3": [{"scenario": "S3a", "competitor": "TCP",
                       "transfers": [{"scheduler": "qaware",
                                      "window": [1.0, 2.0],
                                      "series": {
                                          "sf1": {"t": t, "mbit": [
                                              5 + i % 3 for i in range(30)]},
                                          "sf2": {"t": t, "mbit": [
                                              2 + i % 2 for i in range(30)]}
                                      }}]}]}
        with tempfile.NamedTemporaryFile("r", suffix=".json") as f:
            tb.write_plots(f.name, "tw-qaware-analyze", doc)
            return f.read()

    def test_drawn(self):
        """A good plots.json is drawn into OUTDIR/<run>/, replacing what
        an earlier drawing left there, and counted."""
        run = "qaware-2026-01-04-0123abc"
        stale = os.path.join(self.out, run, "qaware-S3old.png")
        os.makedirs(os.path.dirname(stale))
        with open(stale, "w") as f:
            f.write("left from an earlier drawing")
        p = self.run_script({run: self.s3_plots()})
        if "matplotlib not available" in p.stderr:
            self.assertEqual(p.returncode, 1)
            self.skipTest("matplotlib not installed for the analysers")
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(p.stdout, "%s: 1 plots in %s/%s/\n" % (
            run, self.out, run))
        self.assertEqual(os.listdir(os.path.join(self.out, run)),
                         ["qaware-S3a.png"])
        with open(os.path.join(self.out, run, "qaware-S3a.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_without_plot_data(self):
        p = self.run_script({"omware-2026-01-02-abc1234": None})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "omware-2026-01-02-abc1234: no plots.json"
                         ", nothing drawn\n")

    def test_no_results_dir(self):
        p = self.run_script(None)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr,
                         r"^results-plots: no directory .*/results\n$")
        self.assertEqual(p.stdout, "")

    def test_no_runs(self):
        p = self.run_script({})
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr,
                         r"^results-plots: no runs in .*/results\n$")
        self.assertEqual(p.stdout, "")

    def test_bad_plot_data(self):
        p = self.run_script({"omware-2026-01-02-abc1234": None,
                             "tfib-2026-01-03-def5678": "[]"})
        self.assertEqual(p.returncode, 1)
        self.assertIn("omware-2026-01-02-abc1234: no plots.json", p.stdout)
        self.assertRegex(p.stderr, r"tw-tfib-analyze: .*/tfib-2026-01-03-"
                         r"def5678/plots.json: not a plots.json")
        self.assertIn("tfib-2026-01-03-def5678: not drawn", p.stderr)


if __name__ == "__main__":
    sys.exit(tap_main(sys.modules[__name__]))
