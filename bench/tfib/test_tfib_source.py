#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of tw-tfib-source without a network: its options, the frames
it builds (against struct tfib_hdr, byte for byte) and the records of a
run through its stand-in forwarder (--simulate), read back by
tw-tfib-analyze.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import csv
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

from test_tfib_analyze import TOOLS, TRACE, analysed, tap_main

SOURCE = os.path.join(TOOLS, "tw-tfib-source")
INCLUDE = os.path.join(TOOLS, "..", "..", "include", "uapi")
FRAME = 60
ETH = 14
# struct tfib_hdr as include/uapi/linux/tfib.h documents it: big-endian.
HDR_LAYOUT = (("version", "B"), ("type", "B"), ("flags", "H"),
              ("user_id", "I"), ("seq", "I"), ("addr_seq", "I"),
              ("send_ns", "Q"), ("addr_ns", "Q"), ("mac", "6s"),
              ("hop_limit", "B"), ("reserved", "B"))
HDR_FIELDS = [name for name, _f in HDR_LAYOUT]
HDR = struct.Struct(">" + "".join(f for _n, f in HDR_LAYOUT))
CONTROL, DATA = 1, 2
FWD_MAC = bytes.fromhex("020000000001")
SINK_MAC = bytes.fromhex("020000000002")


def source(*args):
    return subprocess.run([SOURCE] + list(args), capture_output=True,
                          text=True)


def simulate(d, *args):
    """A run through the stand-in forwarder into d/run."""
    out = os.path.join(d, "run")
    p = source("--simulate", "-q", "-o", out, *args)
    if p.returncode:
        raise AssertionError(p.stderr)
    with open(os.path.join(out, "events.csv")) as f:
        events = list(csv.DictReader(f))
    with open(os.path.join(out, "run.json")) as f:
        meta = json.load(f)
    return out, events, meta


def trace_rows(*args):
    """(control, user) rows of tw-tfib-trace with these options."""
    p = subprocess.run([TRACE, "-q", "-o", "-"] + list(args),
                       capture_output=True, text=True, check=True)
    return [(t == "control", int(u)) for t, u in
            csv.reader(p.stdout.splitlines()[1:])]


@unittest.skipUnless(os.access(SOURCE, os.X_OK),
                     "tw-tfib-source not built (make -C bench)")
class Options(unittest.TestCase):

    def refused(self, says, *args):
        p = source(*args)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(says, p.stderr)

    def test_help(self):
        p = source("-h")
        self.assertEqual(p.returncode, 0)
        self.assertIn("Usage: tw-tfib-source", p.stdout)

    def test_what_is_missing(self):
        self.refused("add -o OUTDIR", "-i", "lo", "-d", "02:00:00:00:00:01")
        self.refused("-i IFNAME -d MAC", "-o", "x")
        self.refused("-i IFNAME -d MAC", "-o", "x", "-i", "lo")

    def test_bad_values(self):
        self.refused("invalid value \"0\" for -b", "--simulate", "-o", "x",
                     "-b", "0")
        self.refused("for -b", "--simulate", "-o", "x", "-b", "1025")
        self.refused("for -r", "--simulate", "-o", "x", "-r", "-5")
        self.refused("for -c", "--simulate", "-o", "x", "-c", "0.1234567")
        self.refused("-d takes the forwarder's MAC", "-o", "x", "-i", "lo",
                     "-d", "02:00")
        self.refused("for --cpu", "--simulate", "-o", "x", "--cpu", "x")

    def test_conflicts(self):
        self.refused("leave them out with -t", "--simulate", "-o", "x",
                     "-t", "f", "-u", "3")
        self.refused("keep one", "--simulate", "-o", "x", "--counters",
                     "a", "--counters-cmd", "b")
        self.refused("--simulate run only", "-o", "x", "-i", "lo", "-d",
                     "02:00:00:00:00:01", "--frames", "f")
        self.refused("leave out -i", "--simulate", "-o", "x", "-i", "lo")
        self.refused("unexpected argument", "--simulate", "-o", "x", "y")
        self.refused("-h for the options", "--simulate", "-o", "x",
                     "--no-such-option")

    def test_labels(self):
        self.refused("KEY=VALUE", "--simulate", "-o", "x", "--label", "sync")
        self.refused("KEY=VALUE", "--simulate", "-o", "x", "--label",
                     "Sync=rcu")
        self.refused("has that field already", "--simulate", "-o", "x",
                     "--label", "rate_pps=5")

    def test_pace(self):
        self.refused("--pace takes sendmmsg or omware", "--simulate", "-o",
                     "x", "--pace", "hrtimer")
        self.refused("not with --simulate", "--simulate", "-o", "x",
                     "--pace", "omware")
        self.refused("has that field already", "--simulate", "-o", "x",
                     "--label", "tx_dropped=1")

    @unittest.skipUnless(os.geteuid() == 0, "packet sockets need root")
    def test_pace_without_module(self):
        # without the module the run ends at once with the reason, exit
        # 2 as timewire's, and its records
        modinfo = shutil.which("modinfo") or shutil.which(
            "modinfo", path="/sbin:/usr/sbin")
        if os.path.exists("/sys/module/omware") or modinfo and \
                subprocess.run([modinfo, "omware"],
                               capture_output=True).returncode == 0:
            self.skipTest("omware is loaded here, or can be")
        with tempfile.TemporaryDirectory() as d:
            p = source("-o", d, "-i", "lo", "-d", "02:00:00:00:00:01",
                       "-n", "10", "-q", "--pace", "omware")
            with open(os.path.join(d, "run.json")) as f:
                run = json.load(f)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("modprobe omware", p.stderr)
        self.assertIn("0 of 10 rows sent", p.stderr)
        self.assertEqual((run["tx"], run["stop"], run["packets_sent"]),
                         ("omware", "error", 0))

    def test_refused(self):
        self.refused("--refused takes retry or lost", "--simulate", "-o",
                     "x", "--refused", "drop")
        self.refused("omware loses what the device refuses anyway",
                     "-o", "x", "-i", "lo", "-d", "02:00:00:00:00:01",
                     "--pace", "omware", "--refused", "lost")

    @unittest.skipUnless(os.geteuid() == 0, "packet sockets need root")
    def test_receive_ring_on_lo(self):
        # lo hands every frame back: the receive ring sees each once (none
        # is a forwarded update: its source is lo, not the forwarder),
        # those of the last block not full too, with no drain to wait
        # for its timer
        for policy in ("retry", "lost"):
            with tempfile.TemporaryDirectory() as d:
                p = source("-o", d, "-i", "lo", "-d", "02:00:00:00:00:01",
                           "-n", "300", "-r", "20000", "-q", "--drain",
                           "0", "--refused", policy)
                with open(os.path.join(d, "run.json")) as f:
                    run = json.load(f)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual((run["packets_sent"], run["rx_other"],
                              run["packets_received"],
                              run["rx_socket_drops"]), (300, 300, 0, 0))
            self.assertEqual((run["tx_refused_policy"], run["tx_refused"]),
                             (policy, 0))
            self.assertGreaterEqual(run["tx_sndbuf_bytes"], 16 << 20)

    def test_no_such_interface(self):
        with tempfile.TemporaryDirectory() as d:
            p = source("-o", d, "-i", "no-such-if0", "-d",
                       "02:00:00:00:00:01", "-n", "10")
        self.assertEqual(p.returncode, 3)
        self.assertIn("no interface no-such-if0", p.stderr)


@unittest.skipUnless(os.access(SOURCE, os.X_OK),
                     "tw-tfib-source not built (make -C bench)")
class Frames(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        frames = os.path.join(cls.dir, "frames")
        _out, cls.events, _m = simulate(cls.dir, "-n", "3000", "-u", "40",
                                        "-c", "0.2", "-s", "5", "-r",
                                        "50000", "--frames", frames)
        with open(frames, "rb") as f:
            raw = f.read()
        cls.frames = [raw[i:i + FRAME] for i in range(0, len(raw), FRAME)]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_layout_is_the_kernel_header(self):
        """The offsets this test reads are struct tfib_hdr's."""
        cc = shutil.which("cc")
        if not cc:
            self.skipTest("no C compiler")
        prog = "".join(
            '{"%s", offsetof(struct tfib_hdr, %s)},' % (f, f)
            for f in HDR_FIELDS)
        src = ("#include <stddef.h>\n#include <stdio.h>\n"
               "#include <linux/tfib.h>\n"
               "int main(void) { struct { const char *n; size_t o; } f[] = {"
               + prog + "}; for (size_t i = 0; i < sizeof(f) / sizeof(*f); "
               "i++) printf(\"%s %zu\\n\", f[i].n, f[i].o); "
               "printf(\"size %zu\\n\", sizeof(struct tfib_hdr)); }\n")
        c, exe = os.path.join(self.dir, "o.c"), os.path.join(self.dir, "o")
        with open(c, "w") as f:
            f.write(src)
        subprocess.run([cc, "-I", INCLUDE, "-o", exe, c], check=True)
        got = dict(ln.split() for ln in subprocess.run(
            [exe], capture_output=True, text=True).stdout.splitlines())
        offs = {name: struct.calcsize(">" + "".join(
            f for _n, f in HDR_LAYOUT[:i]))
            for i, (name, _f) in enumerate(HDR_LAYOUT)}
        offs["size"] = HDR.size
        self.assertEqual({k: int(v) for k, v in got.items()}, offs)

    def test_one_frame_per_row(self):
        tx = [e for e in self.events if e["event"] != "data_rx"]
        self.assertEqual(len(self.frames), len(tx))
        self.assertEqual(len(tx), 3000)

    def test_bytes(self):
        tx = [e for e in self.events if e["event"] != "data_rx"]
        for f, e in zip(self.frames, tx):
            h = dict(zip(HDR_FIELDS, HDR.unpack_from(f, ETH)))
            ctl = e["event"] == "ctl_tx"
            self.assertEqual(f[0:6], FWD_MAC)
            # from the sink's address with its U/L bit flipped: no loop
            self.assertEqual(f[6:12], bytes([SINK_MAC[0] ^ 2]) + SINK_MAC[1:])
            self.assertEqual(f[12:14], b"\x88\xb5")
            self.assertEqual(f[ETH + HDR.size:], bytes(FRAME - ETH -
                                                       HDR.size))
            self.assertEqual(h, {
                "version": 2, "type": CONTROL if ctl else DATA, "flags": 0,
                "user_id": int(e["user"]), "seq": int(e["seq"]),
                "addr_seq": 0, "send_ns": int(e["t_ns"]),
                "addr_ns": int(e["t_ns"]) if ctl else 0,
                "mac": SINK_MAC if ctl else bytes(6),
                "hop_limit": 0 if ctl else 16, "reserved": 0})


@unittest.skipUnless(os.access(SOURCE, os.X_OK) and os.access(TRACE,
                                                              os.X_OK),
                     "tw-tfib-source or tw-tfib-trace not built")
class Records(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def check_sequences(self, events, rows):
        tx = [e for e in events if e["event"] != "data_rx"]
        self.assertEqual([(e["event"] == "ctl_tx", int(e["user"]))
                          for e in tx], rows)
        ctl, data = {}, {}
        for e in tx:
            u, s = int(e["user"]), int(e["seq"])
            seqs = ctl if e["event"] == "ctl_tx" else data
            self.assertEqual(s, seqs.get(u, 0) + 1)
            seqs[u] = s
        times = [int(e["t_ns"]) for e in tx]
        self.assertEqual(times, sorted(times))

    def test_generated_trace(self):
        out, events, meta = simulate(
            self.dir, "-n", "5000", "-u", "30", "-c", "0.1", "-s", "7",
            "-r", "20000", "-b", "8", "--label", "sync=rcu", "--label",
            "fwd=ring", "--label", "data_ring=1024")
        rows = trace_rows("-n", "5000", "-u", "30", "-c", "0.1", "-s", "7")
        self.check_sequences(events, rows)
        ctl = sum(c for c, _u in rows)
        self.assertEqual(
            {k: meta[k] for k in ("rate_pps", "burst", "cdr", "users", "seed",
                                  "rows", "packets_sent", "control_sent",
                                  "packets_received", "rx_socket_drops",
                                  "sync", "fwd", "data_ring", "stop",
                                  "trace")},
            {"rate_pps": 20000, "burst": 8, "cdr": 0.1, "users": 30,
             "seed": 7, "rows": 5000, "packets_sent": 5000,
             "control_sent": ctl, "packets_received": 5000 - ctl,
             "rx_socket_drops": 0, "sync": "rcu", "fwd": "ring",
             "data_ring": 1024, "stop": "done", "trace": "generated"})
        # The simulated clock gives a token every 1/R.
        self.assertAlmostEqual(meta["sent_pps"], 20000, delta=20)
        self.assertNotIn("counters", meta)

    def test_receives_match_sends(self):
        """Every app update comes back once, addressed by the last
        location update of its user (the stand-in applies at once)."""
        _o, events, _m = simulate(self.dir, "-n", "4000", "-u", "20", "-c",
                                  "0.5")
        last_ctl, sent = {}, {}
        for e in events:
            u, s = int(e["user"]), int(e["seq"])
            if e["event"] == "ctl_tx":
                last_ctl[u] = (s, int(e["t_ns"]))
            elif e["event"] == "data_tx":
                sent[(u, s)] = last_ctl.get(u, (0, None))
        rx = [e for e in events if e["event"] == "data_rx"]
        self.assertEqual(sorted((int(e["user"]), int(e["seq"])) for e in rx),
                         sorted(sent))
        for e in rx:
            seq, ts = sent[(int(e["user"]), int(e["seq"]))]
            self.assertEqual(int(e["addr_seq"]), seq)
            if ts is not None:
                self.assertEqual(int(e["addr_ns"]), ts)

    def test_trace_files(self):
        """A binary and a CSV trace give the rows they hold."""
        args = ("-n", "2000", "-u", "25", "-c", "0.3", "-s", "11")
        rows = trace_rows(*args)
        for fmt in ("bin", "csv"):
            path = os.path.join(self.dir, "t." + fmt)
            subprocess.run([TRACE, "-q", "-f", fmt, "-o", path] + list(args),
                           check=True)
            _o, events, meta = simulate(os.path.join(self.dir, fmt), "-t",
                                        path)
            self.check_sequences(events, rows)
            self.assertEqual(meta["trace"], path)
            self.assertEqual(meta["users"], 25 if fmt == "bin" else
                             max(u for _c, u in rows))
            if fmt == "bin":
                self.assertEqual((meta["cdr"], meta["seed"]), (0.3, 11))
            else:
                ctl = sum(c for c, _u in rows)
                self.assertAlmostEqual(meta["cdr"], ctl / (2000 - ctl),
                                       places=5)

    def test_counters(self):
        path = os.path.join(self.dir, "counters")
        with open(path, "w") as f:
            f.write("# after minus before\nrx_control 12\nforwarded=30\n\n")
        _o, _e, meta = simulate(self.dir, "-n", "100", "--counters", path)
        self.assertEqual(meta["counters"], {"rx_control": 12,
                                            "forwarded": 30})
        state = os.path.join(self.dir, "state")
        cmd = ("n=$(cat %s 2>/dev/null || echo 0); echo $((n + 7)) > %s; "
               "echo rx_data $((n * 3)); echo drop_xmit 4" % (state, state))
        _o, _e, meta = simulate(self.dir, "-n", "100", "--counters-cmd", cmd)
        self.assertEqual(meta["counters"], {"rx_data": 21, "drop_xmit": 0})
        with open(path, "w") as f:
            f.write("rx_control twelve\n")
        p = source("--simulate", "-q", "-o", os.path.join(self.dir, "x"),
                   "-n", "10", "--counters", path)
        self.assertEqual(p.returncode, 3)
        self.assertIn("no \"name value\" line", p.stderr)

    def test_summary(self):
        p = source("--simulate", "-j", "-o", os.path.join(self.dir, "j"),
                   "-n", "500", "-c", "0")
        self.assertEqual(p.returncode, 0, p.stderr)
        s = json.loads(p.stdout)
        self.assertEqual((s["sent"], s["received"], s["socket_drops"],
                          s["stop"]), (500, 500, 0, "done"))

    def test_analysed(self):
        """The records are what tw-tfib-analyze reads: no drop, nothing
        misaddressed, ages from the stand-in's delay up."""
        out, _e, meta = simulate(self.dir, "-n", "6000", "-u", "50", "-c",
                                 "0.1", "--label", "sync=bucket")
        a, p = analysed(out, "--no-plots", doc="aoi.json")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual((a["mode"], a["data_dropped"], a["rx_unmatched"],
                          a["misaddressed"], a["control_sent"]),
                         ("bucket", 0, 0, 0, meta["control_sent"]))
        self.assertGreaterEqual(a["age_avg_ns"], 1000)
        self.assertGreaterEqual(a["fib_age_low_mean_ns"], 0)


if __name__ == "__main__":
    sys.exit(tap_main(sys.modules[__name__]))
