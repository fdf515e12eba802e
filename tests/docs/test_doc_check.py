#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of scripts/doc-check.py on a small tree of fixture pages
(fixtures/good): the tree passes every check, then each test breaks one
rule in a copy and that check alone must fail, its message saying what
to fix.  Cases at each limit pass.

Prints TAP; exit 0 pass, 1 fail.  Needs no module, no guest, no root.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from taptest import tap_main  # noqa: E402

CHECKER = os.path.join(HERE, "..", "..", "scripts", "doc-check.py")
GOOD = os.path.join(HERE, "fixtures", "good")
TAP_LINE = re.compile(r"^(not ok|ok) \d+ - (.*)$")

SECTIONS = "omware.rst: top-level sections Design, API, Usage, Result, Limits"
CITES = "omware.rst: cites exactly one omware run in Documentation/results/"
HASHES = "omware.rst: commit hashes only in Result"
HISTORY = "omware.rst: no phrases of history"
IMAGES = "omware.rst: at most 2 images"
LENGTH = "harness.rst: at most 600 lines"
CELLS = "README.md: table cells at most 30 words"
README_HASHES = "README.md: no commit hashes"
README_HISTORY = "README.md: no phrases of history"
README_IMAGES = "README.md: at most 2 images"
SIZE = "Documentation/results/ under 1000000 bytes"
CITED = "Documentation/results/: every run cited by a page"
RUN = "Documentation/results/omware-2026-01-02-1a2b3c4"


def check(root):
    """Run the checker on root: (exit status, {check: diagnostics}) of the
    failed checks, after testing the TAP is whole."""
    p = subprocess.run([sys.executable, CHECKER, "--root", root],
                       capture_output=True, text=True, check=False)
    lines = p.stdout.splitlines()
    assert lines[0] == "TAP version 13", p.stdout
    plan = int(lines[1].split("..")[1])
    failed, current, results = {}, None, 0
    for line in lines[2:]:
        m = TAP_LINE.match(line)
        if m:
            results += 1
            current = m.group(2) if m.group(1) == "not ok" else None
            if current:
                failed[current] = []
        elif current and line.startswith("# "):
            failed[current].append(line[2:])
    assert results == plan, "plan %d, %d results" % (plan, results)
    return p.returncode, failed


class Tree(unittest.TestCase):
    """A copy of the good tree to break."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.root = os.path.join(self.tmp, "tree")
        shutil.copytree(GOOD, self.root)

    def fresh(self):
        """The good tree again, for the next case of a loop."""
        shutil.rmtree(self.root)
        shutil.copytree(GOOD, self.root)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def path(self, rel):
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def write(self, rel, text):
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(text)

    def replace(self, rel, old, new):
        """Replace old's first occurrence; the number of its line."""
        text = self.read(rel)
        self.assertIn(old, text)
        self.write(rel, text.replace(old, new, 1))
        return text[:text.index(old)].count("\n") + 1

    def fails_only(self, *names):
        """The checks names fail, every other passes; their messages."""
        rc, failed = check(self.root)
        self.assertEqual(sorted(failed), sorted(names))
        self.assertEqual(rc, 1 if names else 0)
        for name in names:
            self.assertTrue(failed[name], "%s: no message" % name)
        return " ".join(" ".join(m) for m in failed.values())


class GoodTree(Tree):
    def test_every_check_passes(self):
        self.fails_only()

    def test_a_page_without_a_title_has_its_sections_at_the_top(self):
        self.replace("Documentation/omware.rst",
                     "=========\nomware\n=========\n", "")
        self.fails_only()


class Sections(Tree):
    def test_out_of_order(self):
        text = self.read("Documentation/omware.rst")
        api = "API\n===\n\nThe netlink family.\n\n"
        self.assertIn(api, text)
        text = text.replace(api, "").replace("Limits\n======",
                                             api + "Limits\n======")
        self.write("Documentation/omware.rst", text)
        msg = self.fails_only(SECTIONS)
        self.assertIn("Design, Usage, Result, API, Limits", msg)

    def test_one_missing(self):
        self.replace("Documentation/omware.rst",
                     "Limits\n======\n\nWhat it does not do.\n", "")
        self.fails_only(SECTIONS)

    def test_one_more(self):
        self.write("Documentation/omware.rst",
                   self.read("Documentation/omware.rst") +
                   "\nSee also\n========\n\nThe man page.\n")
        self.fails_only(SECTIONS)

    def test_a_title_spelled_otherwise(self):
        self.replace("Documentation/omware.rst", "Result\n======",
                     "Results\n=======")
        # a Result section no more: its hashes are outside one now
        self.fails_only(SECTIONS, HASHES)

    def test_the_page_as_it_was_shaped(self):
        self.write("Documentation/omware.rst",
                   "======\nomware\n======\n\nUsing it\n========\n\n"
                   "Send.\n\nDesign\n======\n\nHow.\n\nBenchmark\n=========\n"
                   "\nResults\n-------\n\nIn ``" + RUN + "/``.\n")
        # and its run's name, with the commit, outside a Result section
        msg = self.fails_only(SECTIONS, HASHES)
        self.assertIn("Using it, Design, Benchmark", msg)

    def test_a_module_page_missing(self):
        os.remove(self.path("Documentation/omware.rst"))
        msg = self.fails_only(SECTIONS, CITES, CITED)
        self.assertIn("missing", msg)


class Length(Tree):
    def lines(self, n):
        text = self.read("Documentation/harness.rst")
        pad = n - len(text.splitlines())
        self.write("Documentation/harness.rst", text + "line\n" * pad)
        self.assertEqual(len(self.read("Documentation/harness.rst")
                             .splitlines()), n)

    def test_600_lines_pass(self):
        self.lines(600)
        self.fails_only()

    def test_602_lines_fail(self):
        self.lines(602)
        msg = self.fails_only(LENGTH)
        self.assertIn("602 lines", msg)


class Hashes(Tree):
    def test_in_design(self):
        line = self.replace("Documentation/omware.rst", "How it works.",
                            "How it works since 9f8e7d6.")
        msg = self.fails_only(HASHES)
        self.assertIn("line %d: 9f8e7d6" % line, msg)

    def test_in_a_section_after_result(self):
        self.replace("Documentation/omware.rst", "What it does not do.",
                     "What it does not do (c0ffee1).")
        self.fails_only(HASHES)

    def test_a_full_hash(self):
        self.replace("Documentation/omware.rst", "The netlink family.",
                     "The netlink family, " + "ab12" * 10 + ".")
        self.fails_only(HASHES)

    def test_in_a_page_without_result(self):
        self.replace("Documentation/harness.rst", "Result\n======",
                     "Measured\n========")
        self.fails_only("harness.rst: commit hashes only in Result")

    def test_not_hashes(self):
        # too short, too long, upper case, inside a word or a hex number,
        # digits only, letters only
        self.replace("Documentation/omware.rst", "More of it.",
                     "More: 1a2b3c, " + "1a" * 21 + ", 1A2B3C4, x1a2b3c4, "
                     "0x1a2b3c4, tw_1a2b3c4, 1234567, facade.")
        self.fails_only()

    def test_in_readme_anywhere(self):
        self.replace("README.md", "keep to thirty words",
                     "keep (since 1a2b3c4) to thirty words")
        self.fails_only(README_HASHES)


class History(Tree):
    def test_every_phrase_in_a_page_and_readme(self):
        for phrase in ("an earlier version", "Earlier text",
                       "this text said", "the previous run",
                       "before commit", "Since commit"):
            with self.subTest(phrase=phrase):
                self.fresh()
                self.replace("Documentation/omware.rst", "More of it.",
                             "More of it than %s." % phrase)
                self.replace("README.md", "A README", "%s, a README" % phrase)
                msg = self.fails_only(HISTORY, README_HISTORY)
                self.assertIn(phrase.lower().replace("the ", ""), msg)


class ReadmeCells(Tree):
    def test_31_words(self):
        line = self.replace("README.md", "twenty-nine thirty",
                            "twenty-nine thirty thirty-one")
        msg = self.fails_only(CELLS)
        self.assertIn("line %d: 31 words" % line, msg)

    def test_an_escaped_pipe_stays_in_its_cell(self):
        self.replace("README.md", "twenty-nine thirty |",
                     "twenty-nine \\| thirty |")
        self.fails_only(CELLS)


class Results(Tree):
    def fill(self, size):
        """Make the results' files size bytes in all."""
        total = 0
        for top, _, files in os.walk(self.path("Documentation/results")):
            total += sum(os.path.getsize(os.path.join(top, f)) for f in files)
        self.write(RUN + "/big.json", "x" * (size - total))

    def test_just_under_1_mb(self):
        self.fill(999999)
        self.fails_only()

    def test_1_mb(self):
        self.fill(1000000)
        msg = self.fails_only(SIZE)
        self.assertIn("1000000 bytes", msg)

    def test_a_run_no_page_cites(self):
        os.mkdir(self.path("Documentation/results/omware-2025-12-01-0a0b0c0"))
        msg = self.fails_only(CITED)
        self.assertIn("omware-2025-12-01-0a0b0c0", msg)

    def test_a_page_cites_two_runs(self):
        os.mkdir(self.path("Documentation/results/omware-2025-12-01-0a0b0c0"))
        self.replace("Documentation/omware.rst", "in a subsection of Result.",
                     "in a subsection of Result; before it, ``Documentation/"
                     "results/omware-2025-12-01-0a0b0c0/``.")
        msg = self.fails_only(CITES)
        self.assertIn("2 runs", msg)

    def test_a_host_benchmark_beside_its_run(self):
        os.mkdir(self.path("Documentation/results/core-2025-12-01-0a0b0c0"))
        self.replace("Documentation/omware.rst", "in a subsection of Result.",
                     "in a subsection of Result; the queue's, ``Documentation/"
                     "results/core-2025-12-01-0a0b0c0/``.")
        self.fails_only()
        os.rmdir(self.path("Documentation/results/core-2025-12-01-0a0b0c0"))
        msg = self.fails_only(CITES)
        self.assertIn("core-2025-12-01-0a0b0c0", msg)

    def test_a_page_cites_none(self):
        self.replace("Documentation/omware.rst", "``" + RUN + "/``", "git")
        self.fails_only(CITES, CITED)

    def test_a_page_cites_a_run_not_there(self):
        self.replace("Documentation/omware.rst", "1a2b3c4/``", "9a9b9c9/``")
        msg = self.fails_only(CITES, CITED)
        self.assertIn("omware-2026-01-02-9a9b9c9", msg)


class Images(Tree):
    def test_a_third_in_a_page(self):
        self.replace("Documentation/omware.rst", "Limits\n======",
                     ".. |plot| image:: three.png\n\nLimits\n======")
        self.fails_only(IMAGES)

    def test_three_in_readme(self):
        self.write("README.md", self.read("README.md") +
                   "\n![a](a.png) ![b](b.png)\n\n![c](c.png)\n")
        msg = self.fails_only(README_IMAGES)
        self.assertIn("3 images", msg)


class Usage(unittest.TestCase):
    def test_no_such_root(self):
        p = subprocess.run([sys.executable, CHECKER, "--root",
                            os.path.join(GOOD, "nothing-here")],
                           capture_output=True, text=True, check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not a directory", p.stderr)


if __name__ == "__main__":
    sys.exit(tap_main(sys.modules[__name__]))
