# SPDX-License-Identifier: GPL-2.0
"""twbench - what the benchmark analysers (tw-*analyze) have in common.

Reading a run's files, the statistics (means, percentiles, ratios, paired
ratios, bootstrap intervals and p-values over rounds), judging targets
(PASS, FAIL, N/A or NOT MEASURED, per-round ratios against a bound,
registered comparisons with Holm's correction, and the exit status of
--strict), tables, CSV and JSON files, the plot data
(plots.json: what the figures draw, small enough to keep with a run) and
plotting to files.  What each experiment measures and judges stays in its
analyser.

The analysers import it from their own directory, where make
install-bench puts it, or from bench/lib in the source tree.
"""

import argparse
import csv
import json
import math
import os
import sys

INF = math.inf
NS_PER_US = 1000.0

# A judged target's result.  N/A (a reference that produced nothing) is
# no failure: --strict ignores it.  NOT MEASURED (a method, a figure or a
# mode the target needs that the run lacks) is no pass either: a target
# that cannot be evaluated fails --strict.
PASS, FAIL, NA, NOT_MEASURED = "PASS", "FAIL", "N/A", "NOT MEASURED"
RESULTS = (PASS, FAIL, NA, NOT_MEASURED)
FAILING = (FAIL, NOT_MEASURED)

# Bootstrap intervals: how many resamples, and the interval's coverage.
BOOT_RESAMPLES = 2000
BOOT_CONF = 0.95
# The family-wise error rate of a run's judged comparisons (Holm).
ALPHA = 1 - BOOT_CONF


# --- Reading a run ----------------------------------------------------

def read_json(path, missing_ok=False):
    """The JSON document in path; {} without the file if missing_ok."""
    if missing_ok and not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def read_csv(path, missing_ok=False):
    """A CSV file's rows as dicts by its header, rows whose first field
    starts with "#" left out; none without the file if missing_ok."""
    if missing_ok and not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f)
                if row and not next(iter(row.values()), "").startswith("#")]


def read_columns(path, fields, required=(), missing_ok=False):
    """Yield (line number, the values of the named fields) of each row of
    a CSV file with a header; empty rows and rows starting with "#" are
    left out, a field the header lacks reads as "".  The plain reader: on
    the big files much faster than DictReader.  A header without every
    field of required is a ValueError; an empty file yields nothing, and
    so does a missing one if missing_ok."""
    if missing_ok and not os.path.exists(path):
        return
    with open(path, newline="") as f:
        r = csv.reader(f)
        head = next(r, None) or []
        if any(k not in head for k in required):
            raise ValueError("no %s header" % ",".join(required))
        if not head:
            return
        idx = [head.index(k) if k in head else None for k in fields]
        for n, row in enumerate(r, 2):
            if not row or row[0].startswith("#"):
                continue
            yield n, tuple(row[i] if i is not None and i < len(row) else ""
                           for i in idx)


# --- Statistics -------------------------------------------------------

def mean(vals):
    """The arithmetic mean; None for no values."""
    vals = list(vals)
    return sum(vals) / len(vals) if vals else None


def percentile(sorted_vals, p):
    """Linear interpolation between closest ranks; sorted input."""
    n = len(sorted_vals)
    if n == 0:
        return None
    if n == 1:
        return float(sorted_vals[0])
    k = (n - 1) * p / 100.0
    lo = int(math.floor(k))
    hi = min(lo + 1, n - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (k - lo)


def nearest_rank(sorted_vals, p):
    """The smallest value that p % of the sorted values do not exceed: a
    sample, never an interpolation, so an infinite tail over 1 - p/100 of
    the values (lost packets) makes it infinite and a shorter one not."""
    if not sorted_vals:
        return None
    k = max(0, math.ceil(p / 100.0 * len(sorted_vals)) - 1)
    return sorted_vals[k]


def median(vals):
    return percentile(sorted(vals), 50)


def geomean(vals):
    """Of positive values; None for none."""
    if not vals:
        return None
    return math.exp(sum(math.log(x) for x in vals) / len(vals))


def ratio(a, b):
    """a / b, None where b gives no scale (missing, zero or infinite)."""
    if a is None or b is None or b == 0 or b == INF:
        return None
    return a / b


def paired(a, b, key):
    """[(k, a's items of key k, b's items of key k)] for each k that both
    a and b have, in the order of k: say the rounds two methods both ran,
    to be compared round by round."""
    keys = sorted({key(x) for x in a} & {key(x) for x in b})
    return [(k, [x for x in a if key(x) == k], [x for x in b if key(x) == k])
            for k in keys]


def paired_ratios(pairs):
    """The ratio (see ratio) of each (key, value, reference's value)."""
    return [ratio(v, ref) for _k, v, ref in pairs]


def bootstrap_interval(samples, statistic, rng, resamples=BOOT_RESAMPLES,
                       conf=BOOT_CONF):
    """The conf percentile interval [lo, hi] of statistic(*resampled):
    each sample drawn again, with replacement and to its own size, by rng
    (seeded by the caller, so that a run gives the same interval every
    time), resamples times; a draw whose statistic is None counts not.
    None when a sample has fewer than two values."""
    if any(len(s) < 2 for s in samples):
        return None
    stats = []
    for _ in range(resamples):
        v = statistic(*[[rng.choice(s) for _ in s] for s in samples])
        if v is not None:
            stats.append(v)
    if not stats:
        return None
    stats.sort()
    lo = stats[int((1 - conf) / 2 * (len(stats) - 1))]
    hi = stats[int((1 + conf) / 2 * (len(stats) - 1) + 0.5)]
    return [lo, hi]


def log_mean(ratios):
    """The geometric mean of ratios, a ratio's own average (2 and 1/2
    cancel): 0 or inf when one of them is, None for none or for both."""
    ratios = list(ratios)
    if not ratios or any(r is None for r in ratios):
        return None
    zero, inf = 0 in ratios, INF in ratios
    if zero or inf:
        return None if zero and inf else (0.0 if zero else INF)
    return geomean(ratios)


def round_ratio(value, ref):
    """value / ref of one round, lower being better: None without both;
    against a reference of 0, 1 for a value of 0 and inf for any other."""
    if value is None or ref is None:
        return None
    if ref == 0:
        return 1.0 if value == 0 else INF
    return value / ref


def paired_estimate(ratios, rng, resamples=BOOT_RESAMPLES, conf=BOOT_CONF):
    """The per-round ratios' point estimate, their geometric mean, and its
    bootstrap interval over the rounds (the round the unit: rounds drawn
    with replacement, rng seeded by the caller), None with fewer than two
    rounds."""
    return log_mean(ratios), bootstrap_interval((ratios,), log_mean, rng,
                                                resamples, conf)


def ratio_of_means(pairs):
    """mean of the pairs' first values over mean of their second: the
    ratio of two paired samples' means.  A mean of 0 or inf on both sides
    says nothing (None); a reference mean of 0 against a positive one is
    inf, a subject of inf against a finite reference inf."""
    a, b = mean(p[0] for p in pairs), mean(p[1] for p in pairs)
    if a is None or b is None or (a == b and a in (0, INF)):
        return None
    if b == INF:
        return 0.0
    return INF if b == 0 else a / b


def mean_difference(pairs):
    """mean of the pairs' first values less mean of their second; None
    for none or an infinite side."""
    a, b = mean(p[0] for p in pairs), mean(p[1] for p in pairs)
    if a is None or b is None or INF in (a, b):
        return None
    return a - b


def bootstrap_stats(pairs, statistic, rng, resamples=BOOT_RESAMPLES):
    """statistic of each of resamples draws of pairs (the units, say one
    (subject, reference) per round), drawn whole with replacement to
    their own number, so that a round's two values stay together; rng
    seeded by the caller.  In draw order, None where the statistic is
    undefined; [] with fewer than two pairs."""
    if len(pairs) < 2:
        return []
    return [statistic([rng.choice(pairs) for _ in pairs])
            for _ in range(resamples)]


def paired_draws(pairs, statistic, rng, resamples=BOOT_RESAMPLES):
    """The defined draws of bootstrap_stats, sorted: what an interval is
    taken over."""
    return sorted(s for s in bootstrap_stats(pairs, statistic, rng, resamples)
                  if s is not None)


def draws_interval(draws, conf=BOOT_CONF):
    """The conf percentile interval of sorted bootstrap draws, or None."""
    if not draws:
        return None
    return [draws[int((1 - conf) / 2 * (len(draws) - 1))],
            draws[int((1 + conf) / 2 * (len(draws) - 1) + 0.5)]]


def p_value(draws, holds):
    """The bootstrap p-value of the claim that holds(statistic) says: the
    share of draws for which it does not hold, one added to both counts
    so that it is never 0.  An undefined draw (None) does not hold: left
    out, it would leave a share chosen by the claim.  1 without draws:
    nothing shown."""
    if not draws:
        return 1.0
    failed = sum(1 for d in draws if d is None or not holds(d))
    return (failed + 1) / (len(draws) + 1)


def holm(pvalues):
    """Holm's step-down adjustment of pvalues (None for a comparison that
    was not measured: it counts in the number of comparisons, so that a
    missing one never makes the others easier, and stays None)."""
    m = len(pvalues)
    order = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    out, running = [None] * m, 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


# --- Judging ----------------------------------------------------------

# A factor-1 target ("no worse than the reference") passes when the
# point estimate is at most 1 and the interval's upper bound at most this;
# a target of any other factor when the upper bound is at most the factor.
FACTOR1_UPPER = 1.10


def judge_ratio(point, interval, bound):
    """The verdict on a ratio estimate (paired_estimate's), lower being
    better, against bound: the factor-1 rule for bound 1, the upper bound
    at or under bound for any other; NOT_MEASURED without an interval."""
    if point is None or interval is None:
        return NOT_MEASURED
    if bound == 1:
        return verdict(point <= 1 and interval[1] <= FACTOR1_UPPER)
    return verdict(interval[1] <= bound)


# A registered comparison's kinds: what the statistic must be shown to
# do against its bound (a target that holds only when the run shows it:
# the p-value of the claim, Holm-adjusted, below ALPHA), and what only a
# shown difference fails ("not significantly below/above": the claim
# tested is the difference).
# "no_worse" is part 1's factor-1 rule: the point estimate at most the
# bound and the interval's upper side at most FACTOR1_UPPER times it.
SHOWN = {"at_least": lambda d, b: d >= b, "at_most": lambda d, b: d <= b,
         "above": lambda d, b: d > b,
         "no_worse": lambda d, b: d <= b * FACTOR1_UPPER}
UNLESS_SHOWN = {"not_below": lambda d, b: d < b,
                "not_above": lambda d, b: d > b}


def comparison(name, pairs, statistic, kind, bound, rng, why=None,
               **figures):
    """A registered comparison's record, before judging (judge_family):
    statistic over pairs (the units, one per round or repetition), its
    bootstrap draws over them (bootstrap_stats), their interval and the
    p-value the kind tests, unadjusted.  Without two pairs or an
    estimate it is NOT MEASURED, why saying what is missing."""
    est = statistic(pairs) if pairs else None
    rec = check(name, None, why, kind=kind, bound=bound, estimate=est,
                interval=None, p=None, p_holm=None, n=len(pairs), **figures)
    if why is not None or est is None or len(pairs) < 2:
        rec["result"] = NOT_MEASURED
        rec["why"] = why or ("%d unit(s), no interval" % len(pairs)
                             if est is not None else "no estimate")
        return rec
    stats = bootstrap_stats(pairs, statistic, rng)
    rec["interval"] = draws_interval(sorted(d for d in stats if d is not None))
    claim = SHOWN.get(kind) or UNLESS_SHOWN[kind]
    rec["p"] = p_value(stats, lambda d: claim(d, bound))
    return rec


def not_measured(name, why, kind=None, bound=None, **figures):
    """A registered comparison the run cannot make, why in one line."""
    return check(name, NOT_MEASURED, why, kind=kind, bound=bound,
                 estimate=None, interval=None, p=None, p_holm=None, n=0,
                 **figures)


def judge_family(records, alpha=ALPHA):
    """Judge every registered comparison of a run at once, Holm's
    correction over all of them (those not measured counted in): a
    SHOWN kind passes when its adjusted p-value is below alpha, an
    UNLESS_SHOWN kind fails when it is.  The records, updated."""
    adjusted = holm([r["p"] if r["result"] is None else None
                     for r in records])
    for r, p in zip(records, adjusted):
        if r["result"] is not None:
            continue
        r["p_holm"] = p
        significant = p < alpha
        if r["kind"] == "no_worse":
            significant = significant and r["estimate"] <= r["bound"]
        r["result"] = verdict(significant if r["kind"] in SHOWN
                              else not significant)
    return records


def combined(results):
    """One result of several: FAIL if any failed, else NOT_MEASURED if any
    was not measured, else N/A if any was, else PASS (none: NOT_MEASURED)."""
    results = list(results)
    for r in (FAIL, NOT_MEASURED, NA, PASS):
        if r in results:
            return r
    return NOT_MEASURED


def verdict(ok):
    """PASS or FAIL as ok says; N/A when ok is None (nothing to judge)."""
    return NA if ok is None else (PASS if ok else FAIL)


def at_most(value, ref, factor=1):
    """The verdict on value * factor <= ref, lower being better: N/A when
    the reference produced nothing (None); a value of None, a subject
    that produced nothing, fails."""
    if ref is None:
        return NA
    return verdict(value is not None and value * factor <= ref)


def check(name, result, why, **figures):
    """A check's record: its name, result, why (None when it says it all)
    and the figures it was judged on."""
    return dict(name=name, result=result, why=why, **figures)


def count_results(records, key="result"):
    """{PASS: n, FAIL: n, N/A: n, NOT MEASURED: n} of the records'
    results."""
    return {k: sum(1 for r in records if r[key] == k) for k in RESULTS}


def strict_status(records, strict, key="result"):
    """The exit status: 1 when strict and a record failed or was not
    measured, else 0."""
    return 1 if strict and any(r[key] in FAILING for r in records) else 0


# --- The command line -------------------------------------------------

def arg_parser(description=None, indir_help=None, judged="check",
               usage=None):
    """The arguments every analyser takes: INDIR or --from-plots FILE, -o
    OUTDIR, --strict and -q; the caller adds its own, and parses them
    with parse_args."""
    ap = argparse.ArgumentParser(description=description, usage=usage)
    ap.add_argument("indir", nargs="?", help=indir_help)
    ap.add_argument("--from-plots", metavar="FILE",
                    help="draw the figures of a %s alone, no INDIR" %
                    PLOTS_FILE)
    ap.add_argument("-o", "--outdir", help="output directory "
                    "(default: INDIR, or with --from-plots the "
                    "current directory)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 when a %s fails" % judged)
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="print nothing")
    return ap


# What --from-plots cannot do, an option each with its test: judge
# (there are no records), print a summary, or draw nothing.
NOT_FROM_PLOTS = (
    ("--strict", lambda a: a.strict),
    ("--summary", lambda a: getattr(a, "summary", False)),
    ("--no-plots", lambda a: getattr(a, "no_plots", False) is True),
    ("--plots none or --no-plots",
     lambda a: getattr(a, "plots", None) == "none"))


def parse_args(ap, argv=None):
    """arg_parser's arguments: exactly one of INDIR and --from-plots, and
    with --from-plots none of NOT_FROM_PLOTS (a usage error, exit 2,
    otherwise); outdir defaults to INDIR, or to the current directory."""
    a = ap.parse_args(argv)
    if (a.indir is None) == (a.from_plots is None):
        ap.error("INDIR or --from-plots FILE: exactly one of them")
    for option, given in NOT_FROM_PLOTS if a.from_plots else ():
        if given(a):
            ap.error("--from-plots and %s: one or the other" % option)
    if a.outdir is None:
        # Not FILE's directory: a kept run's is in the source tree.
        a.outdir = a.indir or "."
    return a


# --- Tables and files -------------------------------------------------

def cell(v, scale=None, fmt="%.1f"):
    """A figure as a table shows it: "-" for none, "inf", or fmt of v
    (divided by scale when given)."""
    if v is None:
        return "-"
    if v == INF:
        return "inf"
    return fmt % (v / scale if scale else v)


def num(v, fmt="%.2f"):
    """A plain figure (a ratio, a fraction) as a table shows it."""
    return cell(v, None, fmt)


def table_lines(rows, columns, left=None, group=None):
    """A table of fixed columns, (head, width, function of a row giving
    its text): the heads' line, then one line per row.  The first `left`
    columns are aligned left and the others right (None: all left); a
    blank line parts the rows wherever group(row) changes."""
    def line(texts):
        return " ".join(t.ljust(w) if left is None or i < left
                        else t.rjust(w)
                        for i, (t, (_h, w, _f)) in
                        enumerate(zip(texts, columns))).rstrip()
    lines = [line([h for h, _w, _f in columns])]
    last = None
    for r in rows:
        if group is not None:
            if last is not None and group(r) != last:
                lines.append("")
            last = group(r)
        lines.append(line([f(r) for _h, _w, f in columns]))
    return lines


def fitted_table(head, cells):
    """A table whose columns are as wide as their widest text, two blanks
    apart: the lines of head and the rows of cells."""
    cells = [head] + cells
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    return ["  ".join(c[i].ljust(widths[i]) for i in range(len(head)))
            .rstrip() for c in cells]


def write_csv(rows, path):
    """Rows (dicts) as CSV: every key any row has, in the order first
    seen; None as an empty field."""
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})


def json_safe(v):
    """Infinity as the string "inf": JSON has no number for it."""
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, dict):
        return {k: json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_safe(x) for x in v]
    return v


def write_json(obj, path, end="\n"):
    """obj as indented JSON, then end."""
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write(end)


# --- Plot data --------------------------------------------------------

# plots.json: what an analyser's figures draw, written with every
# analysis.  The raw records are tens of MB and never kept; this file is
# kept with a run in Documentation/results/, and every figure, a fresh
# run's too, is drawn from it alone: one drawing path for both.
PLOTS_FILE = "plots.json"
PLOTS_FORMAT = "twbench-plots"
PLOTS_VERSION = 1
# A full-size run's plots.json stays under this.  The largest, omware's
# (16 workloads, 132 methods' cells, about 400 CDF curves), takes about
# 105 kB, tfib's full sweep (216 runs) 36 kB, qaware's S3 series 55 kB;
# three runs' plot data at the bound beside their tables (340 kB today) keep
# Documentation/results/ under tests/docs' 1 MB.
PLOTS_MAX_BYTES = 150000
# Significant digits kept of each number but times: no figure shows
# more.  Times (Times) are kept to TIME_DECIMALS places of a second
# instead: three digits would leave a 100 s axis whole seconds, several
# of a series' points in one.
PLOT_DIGITS = 3
TIME_DECIMALS = 2
# A CDF keeps its values at these levels: every 2.5 %, as its linear axis
# shows it, and 99, 99.5 and 99.9 %, where the targets (p99) are read.
CDF_LEVELS = tuple(sorted({i / 40 for i in range(41)} |
                          {0.99, 0.995, 0.999}))
# A time series keeps at most this many points: about one per three
# pixels of a figure's width, a 12 s transfer sampled every 0.1 s whole.
SERIES_POINTS = 200


class PlotDataError(ValueError):
    """A plots.json that cannot be drawn: its message names the file."""


def cdf_curve(vals, total=None, scale=1):
    """A CDF as plots.json keeps it: n, the values' count; total, the
    count the curve is a share of (more than n: the rest never arrived,
    the curve ends short of 1); q, the values (divided by scale) at
    CDF_LEVELS, each a sample.  None without values."""
    v = sorted(vals)
    if not v:
        return None
    # The nearest rank, rounded first: 0.275 * 200 is 55.00000000000001.
    ranks = [max(0, math.ceil(round(p * len(v), 6)) - 1) for p in CDF_LEVELS]
    return {"n": len(v), "total": total or len(v),
            "q": [v[k] / scale for k in ranks]}


def cdf_points(curve, levels):
    """The (x, y) of a kept CDF curve, as drawn."""
    share = curve["n"] / curve["total"]
    return curve["q"], [p * share for p in levels]


def decimate(ts, vs, limit=SERIES_POINTS):
    """A time series (ts, vs) of at most limit points: each run of k
    consecutive points (k as small as that allows) as their means, so
    that a rate keeps its average."""
    k = max(1, math.ceil(len(ts) / limit))
    groups = range(0, len(ts), k)
    return ([mean(ts[i:i + k]) for i in groups],
            [mean(vs[i:i + k]) for i in groups])


class Times(list):
    """Times in seconds for plots.json, rounded to TIME_DECIMALS places
    rather than to PLOT_DIGITS significant digits."""


def rounded(v, digits=PLOT_DIGITS):
    """v with every float to digits significant digits (whole ones as
    integers), a Times' to TIME_DECIMALS places, inside lists and dicts
    too: what a figure can show."""
    if isinstance(v, Times):
        return [round(t, TIME_DECIMALS) for t in v]
    if isinstance(v, float) and math.isfinite(v) and v:
        r = float("%.*g" % (digits, v))
        return int(r) if r.is_integer() and abs(r) < 2 ** 53 else r
    if isinstance(v, dict):
        return {k: rounded(x, digits) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [rounded(x, digits) for x in v]
    return v


def write_plots(path, tool, figures):
    """figures, tool's plot data, as plots.json: rounded, compact, marked
    with the format, its version, the tool and the CDF levels."""
    doc = {"format": PLOTS_FORMAT, "version": PLOTS_VERSION, "tool": tool,
           "levels": list(CDF_LEVELS), "figures": rounded(figures)}
    with open(path, "w") as f:
        json.dump(json_safe(doc), f, separators=(",", ":"))
        f.write("\n")
    return path


def read_plots(path, tool):
    """The plot data tool wrote to path (write_plots' document); a
    PlotDataError naming the file for one it cannot draw."""
    try:
        doc = read_json(path)
    except (OSError, ValueError) as e:
        raise PlotDataError("%s: cannot read: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("format") != PLOTS_FORMAT:
        raise PlotDataError("%s: not a %s file" % (path, PLOTS_FILE))
    if doc.get("version") != PLOTS_VERSION:
        raise PlotDataError("%s: version %r, this tool reads %d" % (
            path, doc.get("version"), PLOTS_VERSION))
    if doc.get("tool") != tool:
        raise PlotDataError("%s: written by %s, not %s" % (
            path, doc.get("tool"), tool))
    if not isinstance(doc.get("figures"), dict) or \
            not isinstance(doc.get("levels"), list):
        raise PlotDataError("%s: no figures or levels" % path)
    return doc


# --- Plots ------------------------------------------------------------

def agg_pyplot():
    """matplotlib's pyplot, drawing to files (Agg): no display needed.
    ImportError without matplotlib, for the caller to say so its way."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def try_pyplot(tool):
    """agg_pyplot(), or None without matplotlib, said on stderr."""
    try:
        return agg_pyplot()
    except ImportError:
        sys.stderr.write("%s: matplotlib not available, no plots\n" % tool)
        return None


def replot(args, tool, draw):
    """--from-plots: draw(plots.json's document, args.outdir), the paths
    it returns printed unless -q.  The exit status: 0 drawn; 1 nothing
    drawn, no matplotlib; 2 a file it cannot draw, named on stderr."""
    try:
        doc = read_plots(args.from_plots, tool)
        if try_pyplot(tool) is None:
            return 1
        os.makedirs(args.outdir, exist_ok=True)
        written = draw(doc, args.outdir)
    except PlotDataError as e:
        sys.stderr.write("%s: %s\n" % (tool, e))
        return 2
    except OSError as e:
        sys.stderr.write("%s: cannot write the figures: %s\n" % (tool, e))
        return 2
    except (KeyError, IndexError, TypeError, ValueError) as e:
        # Figures whose parts are missing or of the wrong kind.
        sys.stderr.write("%s: %s: malformed plot data: %s: %s\n" % (
            tool, args.from_plots, type(e).__name__, e))
        return 2
    for path in [] if args.quiet else written:
        print(path)
    return 0


def save_figure(fig, path, written=None, rect=None, dpi=100):
    """Lay fig out (within rect of the figure, default all of it), write
    it to path, close it; path is added to written when given."""
    import matplotlib.pyplot as plt
    fig.tight_layout(rect=rect)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    if written is not None:
        written.append(path)
    return path
