#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of the benchmark's guest side without a guest: bench.sh's
scenarios, the bench.json it writes (the fields tw-qaware-analyze judges
by), its record of a run that left none, its state for a stopped run;
qa_flow.py's count of the flood's bytes from tc's JSON.

bench.sh is sourced (it stops before its main part), its functions
called with made-up probe results.  Prints TAP; exit 0 pass, 1 fail.
Needs no module, no guest, no root.
"""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
sys.dont_write_bytecode = True     # nothing left behind in the tree
from taptest import tap_main  # noqa: E402

BENCH = os.path.join(HERE, "guest", "bench.sh")
TOP = os.path.join(HERE, "..", "..")


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


QA = load("tw_qaware_analyze", os.path.join(HERE, "tw-qaware-analyze"))
FLOW = load("qa_flow", os.path.join(HERE, "guest", "qa_flow.py"))

# What the probes would have found: the scale, the NIC's rate, each
# flooded scenario's paths alone.
PROBED = """
scale=2 nic_kbit=21000 nic_driver=virtio_net nic_ok=1 starts=1
probe_log="[1, 17.0, 17.5], [2, 9.6, 9.5]"
measured_S3_1="4300 2900" measured_S3_bql_1="20500 13800"
both_S3=7000 both_S3_bql=33000 start_commits='"abc"'
"""
# A stand-in for the probes' iperf3 flows: path 1 (10.1.1.2) carries
# RATE1 Mbit/s, path 2 RATE2; no paths to shape.
FAKE_PATHS = """
path1_via() { :; }; shape() { :; }; say() { echo "# $*"; }
tcp_mbit() { if [ "$2" = 10.1.1.2 ]; then echo $RATE1; else echo $RATE2; fi; }
"""


def bench(outdir, script, mode="--full", env=None):
    """Run script after sourcing bench.sh MODE OUTDIR; its stdout."""
    text = "set -u\n. %s %s %s || exit 9\ntrap - EXIT\n%s\n%s" % (
        BENCH, mode, outdir, PROBED, script)
    p = subprocess.run(["bash", "-c", text], capture_output=True, text=True,
                       env=dict(os.environ, TW_ROOT=TOP, **(env or {})))
    if p.returncode:
        raise AssertionError("bash: %d\n%s%s" % (p.returncode, p.stdout,
                                                 p.stderr))
    return p.stdout


class Runner(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "qaware")
        os.makedirs(self.out)

    def meta(self, mode="--full"):
        bench(self.out, "write_meta", mode)
        with open(os.path.join(self.out, "bench.json")) as f:
            return json.load(f)

    def test_fig_2_13(self):
        # the source more than either path and less than both, the
        # flood over the middle 40 %, S2's delays
        scen = self.meta()["scenarios"]
        for name in ("S3", "S3-bql"):
            s = scen[name]
            self.assertGreater(s["cbr_kbit"], max(s["kbit"]), name)
            self.assertLess(s["cbr_kbit"], sum(s["kbit"]), name)
            self.assertEqual(s["delay_ms"], scen["S2"]["delay_ms"])
            self.assertEqual(s["competitor"], "udp")
            start, end = s["flood_s"]
            self.assertAlmostEqual(start, 0.3 * s["seconds"])
            self.assertAlmostEqual(end, 0.7 * s["seconds"])
        # 9 and 6 Mbit/s over the scale, path 1 through the NIC at its rate
        self.assertEqual(scen["S3"]["kbit"], [4500, 3000])
        self.assertEqual(scen["S3"]["path1"], "veth")
        self.assertEqual(scen["S3-bql"]["kbit"], [21000, 14000])
        self.assertEqual(scen["S3-bql"]["path1"], "nic")

    def test_fields_the_analyser_needs(self):
        meta = self.meta()
        self.assertEqual(meta["scenarios"]["S3"]["measured_kbit"],
                         [4300, 2900])
        self.assertEqual(meta["scenarios"]["S3"]["measured_kbit_by_start"],
                         {"1": [4300, 2900]})
        self.assertEqual(meta["start_commits"], ["abc"])
        self.assertEqual(meta["rounds"], 10)
        self.assertEqual(meta["schedulers"].split(),
                         ["default", "qaware", "minrtt", "ecf", "blest"])
        self.assertTrue(set(QA.BASELINES) <= set(meta["schedulers"].split()))
        downloads = [n for n in meta["scenarios"] if n.startswith("D")]
        self.assertEqual(len(downloads), 3)
        for n in downloads:
            self.assertGreater(meta["scenarios"][n]["timeout_s"], 0)
        groups = {(n, s): [] for n in meta["scenarios"]
                  for s in meta["schedulers"].split()}
        for name in QA.S3_JUDGED + QA.RATE_SCENARIOS:
            self.assertIsNone(QA.scen_missing(meta, name, groups), name)
        self.assertEqual(QA.oracle_missing(meta, "S3", groups),
                         "no competitor.dequeued_bytes (the flood's "
                         "dequeued bytes)")

    def test_short(self):
        meta = self.meta("--short")
        self.assertEqual((meta["mode"], meta["rounds"]), ("short", 1))
        self.assertEqual(meta["scenarios"]["S3"]["seconds"], 5)

    def test_flood(self):
        # iperf3 takes whole seconds: the 40 % of S3's 10 s
        args = bench(self.out, 'competitor_args 10 4500 veth').splitlines()
        self.assertEqual(args[:3], ["--competitor-at", "3", "--competitor"])
        self.assertEqual(args[3], "iperf3 -c 10.1.1.2 -p 5201 -u -b 4500k "
                         "-l 1400 -t 4 -J")
        self.assertEqual(args[4:], ["--competitor-count", "ip netns exec "
                                    "qab-rtr tc -s -j filter show dev a1 "
                                    "ingress"])
        nic = bench(self.out, 'competitor_args 10 21000 nic').splitlines()
        self.assertTrue(nic[-1].endswith("dev a3 ingress"))

    def test_failed_record(self):
        # a run that left no record: one that counts as failed
        f = os.path.join(self.out, "1-S3-qaware.json")
        bench(self.out, 'failed_record %s "exit 124, \\"x\\\\ y"' % f)
        with open(f) as fh:
            rec = json.load(fh)
        self.assertEqual(rec["failed"], "exit 124, x y")
        self.assertFalse(QA.Transfer(1, rec).ok)
        # a record the run left is kept
        bench(self.out, 'failed_record %s other' % f)
        with open(f) as fh:
            self.assertEqual(json.load(fh)["failed"], "exit 124, x y")

    def resumable(self, env=None, mode="--full", script=""):
        return bench(self.out, script + "\nresumable && echo yes || "
                     "echo no; refused_fields", mode, env=env)

    def test_resume(self):
        script = ('save_config; save_state; resumable && echo yes || '
                  'echo no; (. "$out/state"; echo "$seed $scale '
                  '$measured_S3_bql_1 $start_commits")')
        said = bench(self.out, script, env={"TW_BENCH_SEED": "77"})
        self.assertEqual(said.split("\n")[:2],
                         ["yes", '77 2 20500 13800 "abc"'])
        # the seed may be left out, not changed
        self.assertEqual(self.resumable(), "yes\n\n")
        self.assertEqual(self.resumable({"TW_BENCH_SEED": "78"}),
                         "no\nseed\n")
        # another configuration: not this run's to continue
        self.assertEqual(self.resumable({"TW_QA_SCHEDS": "default qaware"}),
                         "no\nschedulers\n")
        self.assertEqual(self.resumable(mode="--short"), "no\nmode rounds\n")
        self.assertEqual(self.resumable({"TW_CLOCK": "virtual"}),
                         "no\nclock\n")
        # a finished run starts afresh
        open(os.path.join(self.out, "complete"), "w").close()
        self.assertEqual(self.resumable(), "no\n\n")

    def test_resume_other_commit(self):
        # only the commit differs: refused, naming it
        bench(self.out, "tree_commit() { echo v1-1-gabc; }; save_config; "
              "save_state")
        self.assertEqual(self.resumable(script="tree_commit() { echo "
                                        "v1-2-gdef; }"), "no\ncommit\n")
        self.assertEqual(self.resumable(script="tree_commit() { echo "
                                        "v1-1-gabc; }"), "yes\n\n")

    def test_resume_other_code(self):
        # the module, qa_flow.py, bench.sh: their sha256 kept
        bench(self.out, "ko=$out/m.ko; echo 1 > $ko; save_config; save_state")
        self.assertEqual(self.resumable(script="ko=$out/m.ko"), "yes\n\n")
        self.assertEqual(self.resumable(script="ko=$out/m.ko; echo 2 > $ko"),
                         "no\nmodule_sha256\n")
        names = bench(self.out, "cut -d= -f1 $out/config").split()
        self.assertEqual(names, ["mode", "schedulers", "rounds", "scenarios",
                                 "params", "scale", "commit",
                                 "module_sha256", "qa_flow_sha256",
                                 "bench_sha256", "kernel", "clock", "seed"])

    def test_main_keeps_config(self):
        # the main part writes what resumable() compares, before the
        # rounds: else every stopped run would be refused
        with open(BENCH) as f:
            main = f.read().split("# Sourced (the host tests")[1]
        self.assertIn("\nsave_config\nsave_state\n", main)
        self.assertLess(main.index("\nsave_config\n"),
                        main.index("for r in $(seq \"$rounds\")"))

    def test_refused_without_config(self):
        # a stopped run of an older layout: every field named
        bench(self.out, "save_state")
        said = self.resumable().split("\n")
        self.assertEqual(said[0], "no")
        self.assertIn("commit", said[1].split())

    def test_measure_paths(self):
        def measured(r1, r2):
            script = FAKE_PATHS + ("unset measured_S3_1 measured_S3_bql_1; "
                                   "measure_paths; echo rc $?; "
                                   "echo \"${measured_S3_1:-none} "
                                   "$both_S3\"; heterogeneous && echo het "
                                   "|| echo not het")
            lines = bench(self.out, script, env={"RATE1": r1, "RATE2": r2,
                                                 "TW_QA_SCENARIOS": "S3"})
            return [ln for ln in lines.splitlines() if ln[0] != "#"]
        self.assertEqual(measured("4.3", "2.9"),
                         ["rc 0", "4300 2900 7200", "het"])
        # a path that carried nothing: no rates, and a failure
        self.assertEqual(measured("0", "0"), ["rc 1", "none 0", "not het"])
        self.assertEqual(measured("0", "6"), ["rc 1", "none 6000",
                                              "not het"])
        # path 1 alone carries the source: not Fig. 2.13's paths
        self.assertEqual(measured("6.5", "2.9")[2], "not het")

    def test_carried_together(self):
        self.assertEqual(bench(self.out, "carried_together && echo yes"),
                         "yes\n")
        self.assertEqual(bench(self.out, "both_S3=5999; carried_together "
                               "|| echo no"), "no\n")

    def round_files(self, rnd):
        return bench(self.out, "round_records %d" % rnd).split()

    def test_unfinished_round_set_aside(self):
        files = self.round_files(2)
        self.assertEqual(len(files), 8 * 5)     # S1..D16384K x 5 scheds
        os.makedirs(os.path.join(self.out, "runs"))
        for f in files[:3]:
            with open(f, "w") as fh:
                json.dump({"sent": 1}, fh)
        with open(files[3], "w") as fh:
            fh.write('{"sent": 1, "samp')     # cut short by a stop
        one = os.path.join(self.out, "runs", "1-S1-default.json")
        with open(one, "w") as fh:
            json.dump({}, fh)
        ok = 'records_ok "$@" && echo ok || echo no'
        self.assertEqual(bench(self.out, ok + "\n" + "set -- %s" %
                               " ".join(files[:3]) + "\n" + ok),
                         "ok\nok\n")
        self.assertEqual(bench(self.out, "set -- %s\n%s" % (
            " ".join(files[:4]), ok)), "no\n")
        bench(self.out, "starts=3; set_aside 2")
        aside = os.path.join(self.out, "runs", "stopped-3")
        self.assertEqual(sorted(os.listdir(aside)),
                         sorted(os.path.basename(f) for f in files[:4]))
        self.assertFalse(any(os.path.exists(f) for f in files[:4]))
        self.assertTrue(os.path.exists(one))    # round 1 not touched
        # the analyser reads none of them
        self.assertEqual(sorted(n for n in os.listdir(
            os.path.join(self.out, "runs")) if QA.parse_name(n)
            if n.endswith(".json")), ["1-S1-default.json"])

    def test_setup_failed(self):
        f = os.path.join(self.out, "1-S1-qaware.json")
        bench(self.out, "starts=2; setup_failed %s 'scheduler qaware' "
              "|| echo failed" % f)
        with open(f) as fh:
            rec = json.load(fh)
        self.assertEqual((rec["failed"], rec["start"]),
                         ("setup: scheduler qaware", 2))
        self.assertFalse(QA.Transfer(1, rec).ok)
        with open(f + ".log") as fh:
            self.assertIn("FAILED setup", fh.read())


class Record(unittest.TestCase):
    def test_write_atomic(self):
        # whole or not at all: the old record stays until the new is
        # complete, and no temporary file is left
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "1-S1-qaware.json")
            FLOW.write_atomic(f, {"sent": 1})
            with self.assertRaises(TypeError):
                FLOW.write_atomic(f, {"sent": object()})
            with open(f) as fh:
                self.assertEqual(json.load(fh), {"sent": 1})
            os.unlink(f + ".tmp")
            self.assertEqual(os.listdir(d), ["1-S1-qaware.json"])


class FloodCount(unittest.TestCase):
    # what `tc -s -j filter show` prints of a u32 filter with a counting
    # action (iproute2 6.1): the action's stats
    TC = [{"protocol": "ip", "pref": 1, "kind": "u32", "chain": 0},
          {"protocol": "ip", "pref": 1, "kind": "u32", "chain": 0,
           "options": {"fh": "800:", "ht_divisor": 1}},
          {"protocol": "ip", "pref": 1, "kind": "u32", "chain": 0,
           "options": {"fh": "800::800", "match": {"value": "110000"},
                       "actions": [{"order": 1, "kind": "gact",
                                    "control_action": {"type": "pass"},
                                    "stats": {"bytes": 142800,
                                              "packets": 100}}]}}]

    def test_action_bytes(self):
        self.assertEqual(FLOW.action_bytes(self.TC), 142800)
        self.assertEqual(FLOW.action_bytes(self.TC, "packets"), 100)
        self.assertEqual(FLOW.action_bytes([]), 0)

    def test_counted_bytes(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(self.TC, f)
            f.flush()
            self.assertEqual(FLOW.counted_bytes("cat " + f.name),
                             [142800, 100])
        self.assertIsNone(FLOW.counted_bytes("false"))
        self.assertIsNone(FLOW.counted_bytes("echo not json"))


if __name__ == "__main__":
    sys.exit(tap_main(sys.modules[__name__]))
