# SPDX-License-Identifier: GPL-2.0
"""plotcheck - what the analysers' tests check of their plot data, the
same for each: the figures drawn from plots.json alone, and a plots.json
that cannot be drawn refused; and that the record fields an analyser
needs are named where the runner's authors read them.

The tests import it from bench/lib; it is no part of what make
install-bench installs.
"""

import json
import os
import shutil
import subprocess
import sys

# Without matplotlib, --from-plots draws nothing and exits 1.
NO_MATPLOTLIB = 1


def figures(d):
    """{path below d: contents} of every figure (*.png) below d."""
    out = {}
    for top, _dirs, files in os.walk(d):
        for f in files:
            if f.endswith(".png"):
                p = os.path.join(top, f)
                with open(p, "rb") as fh:
                    out[os.path.relpath(p, d)] = fh.read()
    return out


def replot(analyzer, plots, *args):
    """analyzer --from-plots plots, the process."""
    return subprocess.run([sys.executable, analyzer, "--from-plots", plots] +
                          list(args), capture_output=True, text=True)


def redrawn(analyzer, outdir, tmp, *args):
    """The run analysed into outdir drawn again from its plots.json alone,
    copied into tmp/kept/ with nothing beside it: (the process, the run's
    figures, the figures drawn again into tmp/again/)."""
    kept = os.path.join(tmp, "kept")
    os.makedirs(kept)
    plots = shutil.copy(os.path.join(outdir, "plots.json"), kept)
    again = os.path.join(tmp, "again")
    p = replot(analyzer, plots, "-q", "-o", again, *args)
    return p, figures(outdir), figures(again)


def refusals(analyzer, good, tmp):
    """(what is wrong, the process, the file) of --from-plots on copies of
    the plots.json good made unreadable, of another version and of
    another tool; each should exit 2 naming its file, matplotlib or
    not."""
    with open(good) as f:
        doc = json.load(f)
    bad = {"that is not JSON": "{\"format\": \"twbench-plots\",",
           "of version 99": json.dumps(dict(doc, version=99)),
           "of another tool": json.dumps(dict(doc,
                                              tool="tw-other-analyze"))}
    out = []
    for i, (what, text) in enumerate(bad.items()):
        path = os.path.join(tmp, "bad%d.json" % i)
        with open(path, "w") as f:
            f.write(text)
        out.append((what, replot(analyzer, path, "-o", tmp), path))
    return out


def undocumented(analyzer, fields, before="HELP_EPILOG"):
    """The fields of a run's records that analyzer reads (quoted in its
    code ahead of before, its --help text) but that its --help or its man
    page (analyzer.1) does not name: [] when each names them all."""
    p = subprocess.run([sys.executable, analyzer, "--help"],
                       capture_output=True, text=True)
    with open(analyzer + ".1") as f:
        man = f.read()
    with open(analyzer) as f:
        code = f.read().split(before)[0]
    return [(name, where) for name in fields for where, text in
            (("--help", p.stdout), ("man page", man),
             ("code", code if '"%s"' % name in code else ""))
            if name not in text]
