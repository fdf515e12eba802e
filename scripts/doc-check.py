#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""doc-check.py [--root DIR]: the documentation's shape, as TAP.

Checks the tree at DIR (default: this script's tree), one TAP line each:

  module pages    Documentation/{omware,tfib,qaware}.rst have the top-level
                  sections Design, API, Usage, Result, Limits, in this
                  order and no other; each cites exactly one run of its
                  benchmark, Documentation/results/<module>-<date>-<commit>/,
                  and every other entry it cites there exists (a host
                  benchmark's output, core-<date>-<commit>/)
  every page      Documentation/*.rst: at most 600 lines; commit hashes
                  only inside a section titled Result (or below it); no
                  phrase of history ("previous run", "since commit", ...);
                  at most two images
  README.md       every table cell at most 30 words; no commit hash at
                  all; no phrase of history; at most two images
  results         Documentation/results/ under 1 000 000 bytes; every run
                  directory in it cited by a page

A commit hash is a token of 7 to 40 lower-case hex digits with at least
one letter and one digit, not inside a longer word.  History lives in git
and NEWS: a page says what is, and reports one dated result.

Exit status: 0 every check passed, 1 one failed, 2 a usage error.
"""

import argparse
import os
import re
import sys

MODULE_PAGES = ("omware.rst", "tfib.rst", "qaware.rst")
MODULE_SECTIONS = ("Design", "API", "Usage", "Result", "Limits")
RESULT_TITLE = "Result"
MAX_LINES = 600
MAX_CELL_WORDS = 30
MAX_RESULTS_BYTES = 1000000
MAX_IMAGES = 2
HISTORY = ("an earlier version", "earlier text", "this text said",
           "previous run", "before commit", "since commit")
SHOWN = 5               # offending places named per failing check

HASH_RE = re.compile(r"(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])")
RESULTS_RE = re.compile(r"Documentation/results/([A-Za-z0-9][A-Za-z0-9._-]*)")
ADORNMENT_RE = re.compile(r"^([!-/:-@\[-`{-~])\1*\s*$")
RST_IMAGE_RE = re.compile(r"^\s*\.\.\s+(\|[^|]+\|\s+)?(image|figure)::")
MD_IMAGE_RE = re.compile(r"!\[[^\]]*\]\(")
MD_SEPARATOR_RE = re.compile(r"^:?-{3,}:?$")


class Tap:
    """Collects results; prints the plan, then one line per check with
    its diagnostics under it."""

    def __init__(self):
        self.results = []

    def check(self, desc, problems):
        """problems: a list of lines saying what to fix; empty passes."""
        self.results.append((desc, problems))

    def emit(self, out):
        out.write("TAP version 13\n1..%d\n" % len(self.results))
        for n, (desc, problems) in enumerate(self.results, 1):
            out.write("%sok %d - %s\n" % ("not " if problems else "", n, desc))
            for p in problems:
                out.write("# %s\n" % p)
        return 1 if any(p for _, p in self.results) else 0


def is_hash(token):
    return (any(c.isdigit() for c in token) and
            any(c.isalpha() for c in token))


def hashes_in(line):
    return [t for t in HASH_RE.findall(line) if is_hash(t)]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def is_adornment(line):
    return bool(ADORNMENT_RE.match(line))


def is_title_text(line):
    return bool(line.strip()) and not line[0].isspace() and \
        not is_adornment(line)


def rst_titles(lines):
    """Section titles: (line index, style, title).  A style is the
    adornment character and whether it has an overline, as rst tells
    levels apart."""
    titles = []
    i = 0
    while i < len(lines) - 1:
        line, nxt = lines[i], lines[i + 1]
        # an overline, the title (which may be inset), the same underline
        if (is_adornment(line) and i + 2 < len(lines) and
                nxt.strip() and not is_adornment(nxt) and
                lines[i + 2].rstrip() == line.rstrip()):
            titles.append((i + 1, (line[0], True), nxt.strip()))
            i += 3
            continue
        if (is_title_text(line) and is_adornment(nxt) and
                len(nxt.rstrip()) >= len(line.rstrip()) and
                (i == 0 or not lines[i - 1].strip())):
            titles.append((i, (nxt[0], False), line.strip()))
            i += 2
            continue
        i += 1
    return titles


def rst_sections(lines):
    """Sections as (level, title, first line, end line), levels counted
    from 0 in the order their styles first appear."""
    titles = rst_titles(lines)
    styles = []
    for _, style, _ in titles:
        if style not in styles:
            styles.append(style)
    found = [(styles.index(style), title, i) for i, style, title in titles]
    sections = []
    for n, (level, title, start) in enumerate(found):
        end = len(lines)
        for later_level, _, later_start in found[n + 1:]:
            if later_level <= level:
                end = later_start
                break
        sections.append((level, title, start, end))
    return sections


def top_level(sections):
    """The titles of the top-level sections: below the document's title
    when the page has one (a first style used once, first)."""
    if not sections:
        return []
    first = [s for s in sections if s[0] == 0]
    level = 1 if len(first) == 1 and sections[0][0] == 0 else 0
    return [title for lvl, title, _, _ in sections if lvl == level]


def in_result(sections, index):
    return any(title == RESULT_TITLE and start <= index < end
               for _, title, start, end in sections)


def placed(items):
    """'line N: what' for the first SHOWN items, and how many more."""
    text = ["line %d: %s" % item for item in items[:SHOWN]]
    if len(items) > SHOWN:
        text.append("and %d more" % (len(items) - SHOWN))
    return "; ".join(text)


def check_sections(tap, name, lines):
    desc = "%s: top-level sections %s" % (name, ", ".join(MODULE_SECTIONS))
    if lines is None:
        tap.check(desc, ["Documentation/%s is missing" % name])
        return
    got = top_level(rst_sections(lines))
    problems = []
    if tuple(got) != MODULE_SECTIONS:
        problems.append("%s has top-level sections %s; make them %s, in "
                        "this order and no other (subsections go inside)" %
                        (name, ", ".join(got) or "none",
                         ", ".join(MODULE_SECTIONS)))
    tap.check(desc, problems)


def cited_runs(lines):
    names = set()
    for line in lines:
        for m in RESULTS_RE.findall(line):
            m = m.rstrip(".")
            if m and m != "README":
                names.add(m)
    return names


def check_cites_one_run(tap, root, name, lines):
    module = name[:-len(".rst")]
    desc = "%s: cites exactly one %s run in Documentation/results/" % (
        name, module)
    if lines is None:
        tap.check(desc, ["Documentation/%s is missing" % name])
        return
    cited = sorted(cited_runs(lines))
    runs = [r for r in cited if r.startswith(module + "-")]
    results = os.path.join(root, "Documentation", "results")
    problems = []
    if not runs:
        problems.append("%s cites no run: name the run its Result section "
                        "reports, Documentation/results/<dir>/" % name)
    elif len(runs) > 1:
        problems.append("%s cites %d runs: report one run in its Result "
                        "section; older ones are in git history" %
                        (name, len(runs)))
    missing = [r for r in cited
               if not os.path.exists(os.path.join(results, r))]
    if missing:
        shown = ", ".join(missing[:SHOWN])
        if len(missing) > SHOWN:
            shown += " and %d more" % (len(missing) - SHOWN)
        problems.append("%s cites runs Documentation/results/ does not hold: "
                        "%s; fix the name or add the run" % (name, shown))
    tap.check(desc, problems)


def check_length(tap, name, lines):
    problems = []
    if len(lines) > MAX_LINES:
        problems.append("%s has %d lines, over %d: cut it or move a part to "
                        "a page of its own" % (name, len(lines), MAX_LINES))
    tap.check("%s: at most %d lines" % (name, MAX_LINES), problems)


def check_rst_hashes(tap, name, lines):
    sections = rst_sections(lines)
    found = [(i + 1, h) for i, line in enumerate(lines)
             for h in hashes_in(line) if not in_result(sections, i)]
    problems = []
    if found:
        problems.append("%s: commit hashes outside a section titled %s: %s"
                        % (name, RESULT_TITLE, placed(found)))
        problems.append("say what is without the hash (history is in git "
                        "and NEWS), or move the measurement into %s" %
                        RESULT_TITLE)
    tap.check("%s: commit hashes only in %s" % (name, RESULT_TITLE),
              problems)


def check_history(tap, name, lines):
    found = [(i + 1, '"%s"' % p) for i, line in enumerate(lines)
             for p in HISTORY if p in line.lower()]
    problems = []
    if found:
        problems.append("%s: phrases of history: %s; say what is now "
                        "(history is in git and NEWS)" % (name, placed(found)))
    tap.check("%s: no phrases of history" % name, problems)


def check_images(tap, name, lines, pattern):
    found = [(i + 1, line.strip()[:60]) for i, line in enumerate(lines)
             for _ in pattern.findall(line)]
    problems = []
    if len(found) > MAX_IMAGES:
        problems.append("%s references %d images, at most %d: keep the "
                        "ones the text needs (%s)" %
                        (name, len(found), MAX_IMAGES, placed(found)))
    tap.check("%s: at most %d images" % (name, MAX_IMAGES), problems)


def md_cells(line):
    """The cells of a Markdown table row, split at unescaped pipes."""
    cells, cur, i = [], "", 0
    body = line.strip()
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if body[i] == "|":
            cells.append(cur)
            cur = ""
        else:
            cur += body[i]
        i += 1
    cells.append(cur)
    # the row's leading and trailing pipes leave empty ends
    if cells and not cells[0].strip():
        cells = cells[1:]
    if cells and not cells[-1].strip():
        cells = cells[:-1]
    return [c.strip() for c in cells]


def check_readme_cells(tap, lines):
    long_cells = []
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            continue
        for cell in md_cells(line):
            if MD_SEPARATOR_RE.match(cell):
                continue
            words = len(cell.split())
            if words > MAX_CELL_WORDS:
                long_cells.append((i + 1, "%d words, \"%s ...\"" %
                                   (words, " ".join(cell.split()[:6]))))
    problems = []
    if long_cells:
        problems.append("README.md: table cells over %d words: %s; shorten "
                        "them, the detail belongs on the module page" %
                        (MAX_CELL_WORDS, placed(long_cells)))
    tap.check("README.md: table cells at most %d words" % MAX_CELL_WORDS,
              problems)


def check_readme_hashes(tap, lines):
    found = [(i + 1, h) for i, line in enumerate(lines)
             for h in hashes_in(line)]
    problems = []
    if found:
        problems.append("README.md: commit hashes: %s; give the date of a "
                        "result and link the module page's Result section"
                        % placed(found))
    tap.check("README.md: no commit hashes", problems)


def results_size(results):
    total = 0
    for top, _, files in os.walk(results):
        for f in files:
            total += os.lstat(os.path.join(top, f)).st_size
    return total


def check_results_size(tap, results):
    size = results_size(results) if os.path.isdir(results) else 0
    problems = []
    if size >= MAX_RESULTS_BYTES:
        problems.append("Documentation/results/ holds %d bytes, not under "
                        "%d: drop plots and large analysis files (git "
                        "history keeps them)" % (size, MAX_RESULTS_BYTES))
    tap.check("Documentation/results/ under %d bytes" % MAX_RESULTS_BYTES,
              problems)


def check_results_cited(tap, results, pages):
    runs = []
    if os.path.isdir(results):
        runs = sorted(d for d in os.listdir(results)
                      if os.path.isdir(os.path.join(results, d)))
    cited = set()
    for lines in pages.values():
        cited |= cited_runs(lines)
    uncited = [r for r in runs if r not in cited]
    problems = []
    if uncited:
        problems.append("runs no page cites: %s; delete them (git rm -r: "
                        "history keeps them) or cite them from a Result "
                        "section" % ", ".join(uncited))
    tap.check("Documentation/results/: every run cited by a page", problems)


def rst_pages(root):
    doc = os.path.join(root, "Documentation")
    if not os.path.isdir(doc):
        return {}
    return {f: read_lines(os.path.join(doc, f))
            for f in sorted(os.listdir(doc))
            if f.endswith(".rst") and os.path.isfile(os.path.join(doc, f))}


def run_checks(root, tap):
    pages = rst_pages(root)
    results = os.path.join(root, "Documentation", "results")
    for name in MODULE_PAGES:
        check_sections(tap, name, pages.get(name))
        check_cites_one_run(tap, root, name, pages.get(name))
    for name, lines in pages.items():
        check_length(tap, name, lines)
        check_rst_hashes(tap, name, lines)
        check_history(tap, name, lines)
        check_images(tap, name, lines, RST_IMAGE_RE)
    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        lines = read_lines(readme)
        check_readme_cells(tap, lines)
        check_readme_hashes(tap, lines)
        check_history(tap, "README.md", lines)
        check_images(tap, "README.md", lines, MD_IMAGE_RE)
    else:
        tap.check("README.md exists", ["README.md is missing"])
    check_results_size(tap, results)
    check_results_cited(tap, results, pages)


def main():
    ap = argparse.ArgumentParser(
        description="Check the documentation's shape; prints TAP.")
    ap.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."),
        help="the tree to check (default: this script's)")
    args = ap.parse_args()
    if not os.path.isdir(args.root):
        print("doc-check: %s: not a directory" % args.root, file=sys.stderr)
        return 2
    tap = Tap()
    run_checks(os.path.abspath(args.root), tap)
    return tap.emit(sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
