"""The speed limits the test suite used to assert (issue 30), measured here instead of asserted there.

The tests keep their correctness checks (the same numbers, nothing expanded, nothing decoded past the limit);
the wall-clock limits they asserted moved here, each measured on the test's own workload, in one run:

* ``counts/*``: a ``ScoreCounts`` of ~10¹⁰ instances on 267 distinct scores (the eight table functions, former
  limit 2 s each; ``roc_band`` in five variants, 5 s) and a ``PairedCounts`` of ~10⁹ instances in 2,000-odd pair
  rows (``compare_cost`` and ``compare_vertical``, 5 s) -- tests/test_counts_native.py;
* ``pr_curve/rows``: ``pr_curve(y, s)`` at 10⁶ rows against ``numpy.argsort`` of the same scores (former
  limit: 30× argsort or 3 s, whichever is larger) -- tests/precision/test_curve.py;
* ``pr_curve/max_points``: ``pr_curve`` of a 3,000-row tied table times 10⁶, ``max_points=200_000`` (10 s)
  -- tests/app/test_large_pages.py;
* ``dominance_map/table``: a 10 × 9 dominance map from a 300 × 300 pair table standing for 10⁹ instances
  (60 s) -- tests/compare/test_dominance_counts.py;
* ``load_table/*`` and ``guess_columns/*``: a Parquet bomb refused from its metadata (5 s), an xlsx
  shared-string bomb refused before parsing (5 s), a 3·10⁵-row xlsx read (60 s), the columns of a
  10,000-column CSV guessed (5 s) -- tests/data/test_bad_files.py.

Each figure is the median of ``--repeats`` runs (after one warm-up call), with its ratio to one
``numpy.argsort`` of 10⁶ normal scores measured in the same run (the machine's unit of time; for
``pr_curve/rows``, the argsort of the same scores, as the test had it), the former limit, and the headroom
(limit / median).  ``--quick``: small sizes, one repeat (a smoke run, a few seconds); ``--json PATH``: the
record (bench/_record.py).

Usage: ``python bench/bench_limits.py [--quick] [--repeats 3] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocci  # noqa: E402
from _record import Record, load_average  # noqa: E402
from rocci import InputError  # noqa: E402
from rocci._core.counts import PairedCounts, ScoreCounts  # noqa: E402
from tests.bad_files import corpus  # noqa: E402  (the generators of the bad files)


def median_time(fn, repeats: int) -> float:
    fn()  # warm-up (imports, caches)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def argsort_time(scores, repeats: int = 5) -> float:
    return median_time(lambda: np.argsort(scores), repeats)


# --- the tests' workloads (the same seeds and sizes) ------------------------------------------------------

def huge_scores(seed=2, scale=10, size=300):
    """tests/test_counts_native.py ``_huge_scores``: ~1.5·10⁸·scale positives, ~1.5·10⁹ negatives."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random(size), 3)
    n_pos = (rng.integers(0, 10**6, size) * (0.2 + scores)).astype(np.int64) * scale
    n_neg = (rng.integers(0, 10**7, size) * (1.2 - scores)).astype(np.int64)
    return ScoreCounts.from_counts(scores, n_pos, n_neg)


def huge_pairs(scale=10**5, seed=4, n=6000):
    """tests/test_counts_native.py ``_huge_pairs``: two equally good models, each row's counts times ``scale``."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.5
    a, b = np.round(rng.normal(size=n) + y, 1), np.round(rng.normal(size=n) + y, 1)
    frame = pd.DataFrame({"a": np.r_[a, b], "b": np.r_[b, a], "y": np.r_[y, y]})
    t = frame.groupby(["a", "b"]).agg(n_pos=("y", "sum"), n_neg=("y", lambda v: int((~v).sum()))).reset_index()
    return PairedCounts.from_frame(t.assign(n_pos=t.n_pos * scale, n_neg=t.n_neg * scale), score_a="a", score_b="b")


def different_pairs(rows=400):
    """tests/test_counts_native.py: many operating points of two different models."""
    rng = np.random.default_rng(1)
    table = pd.DataFrame({"a": np.round(rng.random(rows), 2), "b": np.round(rng.random(rows), 2)})
    table["n_pos"] = (rng.integers(0, 10**7, rows) * (table.a + 0.2)).astype(np.int64)
    table["n_neg"] = (rng.integers(0, 10**7, rows) * (1.2 - table.a)).astype(np.int64)
    return PairedCounts.from_frame(table, score_a="a", score_b="b")


def tied_counts(n=3000, seed=2):
    """tests/app/test_large_pages.py ``_tied_counts``."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + 1.1 * y, 1)
    return ScoreCounts.from_arrays(y, s)


def binormal_table(n, cells=300, seed=0, share=0.1, rho=0.6):
    """tests/compare/test_dominance_counts.py ``_binormal_table``: a pair table standing for ``n`` instances."""
    from scipy import stats

    rng = np.random.default_rng(seed)
    g = (np.arange(cells) + 0.5) / cells
    z = stats.norm.ppf(g)
    za, zb = np.meshgrid(z, z, indexing="ij")

    def cell_probabilities(mu_a, mu_b):
        q = (za - mu_a) ** 2 - 2 * rho * (za - mu_a) * (zb - mu_b) + (zb - mu_b) ** 2
        d = np.exp(-q / (2 * (1 - rho**2)) + (za**2 + zb**2) / 2)
        return (d / d.sum()).ravel()

    n_pos = int(n * share)
    p = rng.multinomial(n_pos, cell_probabilities(1.0, 1.2))
    q = rng.multinomial(n - n_pos, cell_probabilities(0.0, 0.0))
    keep = p + q > 0
    return PairedCounts(np.repeat(g, cells)[keep], np.tile(g, cells)[keep], p[keep].astype(np.int64),
                        q[keep].astype(np.int64), ("a", "b"))


def sci(n) -> str:
    """1.5·10¹⁰ for 15,234,567,890."""
    e = len(str(int(n))) - 1
    sup = str(e).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{n / 10**e:.2g}·10{sup}" if round(n / 10**e, 1) != 1 else f"10{sup}"


def refused(load):
    """``load()`` must raise InputError (the bombs)."""
    try:
        load()
    except InputError:
        return
    raise AssertionError("expected an InputError")


# --- the run -----------------------------------------------------------------------------------------------

@dataclass
class Check:
    key: str
    label: str
    setup: Callable[[], Any]  # builds the input afresh (not timed): nothing cached from the last repeat
    run: Callable[[Any], Any]  # the timed call, as the test made it
    limit: float  # seconds, as the test asserted it
    n: int
    test: str


def time_check(c: Check, repeats: int) -> float:
    """Median over ``repeats`` of ``run`` on a fresh input, after one untimed call (imports, first use)."""
    c.run(c.setup())
    times = []
    for _ in range(repeats):
        data = c.setup()
        t0 = time.perf_counter()
        c.run(data)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def checks(quick: bool) -> list[Check]:
    from rocci.compare import dominance_map
    from rocci.data import guess_columns
    from rocci.precision.curve import pr_curve

    out = []
    scores = huge_scores(scale=100)
    n_scores = scores.n_pos + scores.n_neg
    for name, fn in (("threshold_table", lambda c: rocci.threshold_table(c).to_frame()),
                     ("gain_curve", lambda c: rocci.gain_curve(c).to_frame()),
                     # the frames the functions returned before 0.3 (the same work as the bench's history), and the
                     # key keeps rocci 0.2's name of the ROC points' PR curve
                     ("precision_recall_curve", lambda c: rocci.pr_curve(c, interpolate=False).to_frame()),
                     ("reading_curve", lambda c: rocci.reading_curve(c).to_frame()),
                     ("confusion_at", lambda c: rocci.confusion_at(c, None, 0.5, method="percentile")),
                     ("rate_threshold", lambda c: rocci.rate_threshold(c, None, 0.1)),
                     ("youden_threshold", lambda c: rocci.youden_threshold(c)),
                     ("cost_threshold", lambda c: rocci.cost_threshold(c, w=0.3))):
        out.append(Check(f"counts/scores/{name}", f"`{name}`, a table of {sci(n_scores)}",
                         lambda: huge_scores(scale=100), fn, 2.0, n_scores, "tests/test_counts_native.py"))
    band_counts = huge_scores()
    n_band = band_counts.n_pos + band_counts.n_neg
    bands = [("3 thresholds", dict(thresholds=[0.97, 0.95, 0.9])),
             ("3 thresholds, sidak", dict(thresholds=[0.97, 0.9, 0.5], method="sidak")),
             ("montecarlo, 500", dict(method="monte-carlo", n_boot=500, seed=1)),
             ("vertical, sidak", dict(kind="vertical", method="sidak", fpr=[0.01, 0.05])),
             ("vertical, montecarlo, 100", dict(kind="vertical", method="monte-carlo", n_boot=100, seed=1,
                                                fpr=[0.05]))]
    for name, kw in bands[:1] if quick else bands:
        out.append(Check(f"counts/roc_band/{name}", f"`roc_band` ({name}), a table of {sci(n_band)}", huge_scores,
                         lambda c, kw=kw: rocci.roc_band(c, **kw), 5.0, n_band, "tests/test_counts_native.py"))
    pairs = huge_pairs()
    n_pairs = int(pairs.n_pos.sum() + pairs.n_neg.sum())
    w = [0.2, 0.5, 0.8]
    costs = [("default", dict()), ("full", dict(bootstrap="full")), ("m = 10⁶, 2·10⁶", dict(m=(10**6, 2 * 10**6))),
             ("full, m = 10⁷", dict(bootstrap="full", m=10**7))]
    verticals = [("3 levels", dict(fpr=[0.01, 0.1, 0.5])),
                 ("percentile, m = 10⁸", dict(fpr=[0.2], method="percentile", m=(10**8, 10**8)))]
    if quick:
        costs, verticals = costs[:1], verticals[:1]
    for name, kw in costs:
        out.append(Check(f"counts/compare_cost/{name}", f"`compare_cost` ({name}), a pair table of {sci(n_pairs)}",
                         huge_pairs, lambda p, kw=kw: rocci.compare_cost(p, w=w, **kw), 5.0, n_pairs,
                         "tests/test_counts_native.py"))
    for name, kw in verticals:
        out.append(Check(f"counts/compare_vertical/{name}", f"`compare_vertical` ({name}), the same pair table",
                         huge_pairs, lambda p, kw=kw: rocci.compare_vertical(p, **kw), 5.0, n_pairs,
                         "tests/test_counts_native.py"))
    different = different_pairs()
    out.append(Check("counts/compare_cost/different", "`compare_cost` (full, 101 costs), two different models",
                     different_pairs, lambda p: rocci.compare_cost(p, bootstrap="full"), 5.0,
                     int(different.n_pos.sum() + different.n_neg.sum()), "tests/test_counts_native.py"))

    def huge_tied():
        values, n_pos, n_neg = tied_counts().table()
        return ScoreCounts.from_counts(values, n_pos * 10**6, n_neg * 10**6)

    h = huge_tied()
    out.append(Check("pr_curve/max_points", f"`pr_curve(max_points=200,000)`, a table of {sci(h.n_pos + h.n_neg)}",
                     huge_tied, lambda c: pr_curve(c, max_points=200_000).to_frame(), 10.0, h.n_pos + h.n_neg,
                     "tests/app/test_large_pages.py"))

    n_map = 10**7 if quick else 10**9
    table = binormal_table(n_map)
    ta = np.quantile(table.score_a, np.linspace(0.05, 0.95, 10))
    tb = np.quantile(table.score_b, np.linspace(0.05, 0.95, 9))
    out.append(Check("dominance_map/table", "`dominance_map` 10 × 9, a 300 × 300 pair table",
                     lambda: binormal_table(n_map), lambda t: dominance_map(t, thresholds_a=ta, thresholds_b=tb),
                     60.0, n_map, "tests/compare/test_dominance_counts.py"))

    # the files are bytes: nothing is cached between reads, so one file serves every repeat
    bomb_rows = 2 * 10**6 if quick else 2 * 10**7  # 30 or 305 MiB decoded: above the limit (10 or 200 MiB)
    bomb, limit = corpus.parquet_bomb(bomb_rows), {"max_bytes": 10 * 2**20} if quick else {}
    out.append(Check("load_table/parquet_bomb", "`load_table` refuses a Parquet bomb (from its metadata)",
                     lambda: bomb, lambda b: refused(lambda: rocci.load_table(b, filename="bomb.parquet", **limit)),
                     5.0, bomb_rows, "tests/data/test_bad_files.py"))
    strings = corpus.shared_string_bomb(20_000)  # 610 MiB of one shared string, ~150 KB on disk
    out.append(Check("load_table/xlsx_string_bomb", "`load_table` refuses an xlsx shared-string bomb",
                     lambda: strings, lambda b: refused(lambda: rocci.load_table(b, filename="strings.xlsx")),
                     5.0, 20_000, "tests/data/test_bad_files.py"))
    xlsx_rows = 3_000 if quick else 300_000
    xlsx = corpus.big_xlsx(xlsx_rows)
    out.append(Check("load_table/xlsx", f"`load_table` reads an xlsx of {xlsx_rows:,} rows", lambda: xlsx,
                     lambda b: rocci.load_table(b, filename="big.xlsx"), 60.0, xlsx_rows,
                     "tests/data/test_bad_files.py"))
    wide = rocci.load_table(corpus.wide_csv(), filename="wide.csv")  # 10,000 columns, 100 rows
    out.append(Check("guess_columns/wide_csv", f"`guess_columns`, a CSV of {wide.shape[1]:,} columns",
                     lambda: wide.copy(), guess_columns, 5.0, wide.shape[1], "tests/data/test_bad_files.py"))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat (smoke run)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    rec = Record("bench_limits", argv if argv is not None else sys.argv[1:])
    print(f"load {load_average()}", file=sys.stderr)

    unit = np.random.default_rng(0).normal(size=10**6)
    t_unit = argsort_time(unit)
    print(f"numpy.argsort of 10^6 normal scores (the unit): {t_unit * 1e3:.1f} ms")
    rec.add("argsort/1e6", t_unit, "s", n=10**6, repeats=5)

    # pr_curve at 10^6 rows against argsort of the same scores (the test's own ratio)
    from rocci.precision.curve import pr_curve

    n = 10**4 if args.quick else 10**6
    rng = np.random.default_rng(3)
    y = rng.random(n) < 0.02
    s = np.round(rng.normal(size=n) + 2 * y, 3)
    t_curve = time_check(Check("", "", lambda: (y.copy(), s.copy()), lambda a: pr_curve(*a).to_frame(), 0.0, n, ""),
                         repeats)
    t_sort = argsort_time(s)
    limit = max(3.0, 30 * t_sort)
    print(f"\npr_curve at {n:,} rows: {t_curve:.3f} s = {t_curve / t_sort:.1f}x argsort of the same scores "
          f"({t_sort * 1e3:.1f} ms); former limit max(3 s, 30x argsort) = {limit:.2f} s, "
          f"headroom {limit / t_curve:.1f}x")
    rec.add("pr_curve/rows", t_curve, "s", n=n, ratio_argsort=t_curve / t_sort, argsort=t_sort, limit=limit,
            limit_rule="max(3 s, 30 x argsort)", repeats=repeats, test="tests/precision/test_curve.py")

    print(f"\n{'check':<62}{'n':>16}{'median':>10}{'x argsort':>11}{'limit':>8}{'headroom':>10}{'load':>6}")
    worst = None
    for c in checks(args.quick):
        t = time_check(c, repeats)
        load = load_average()
        print(f"{c.label[:61]:<62}{c.n:>16,}{t:>9.3f}s{t / t_unit:>10.1f}x{c.limit:>7.0f}s"
              f"{c.limit / t:>9.1f}x{load[0]:>6.1f}", flush=True)
        rec.add(c.key, t, "s", n=c.n, label=c.label, ratio_argsort=t / t_unit, argsort=t_unit, limit=c.limit,
                repeats=repeats, test=c.test, load=load)
        if worst is None or t / c.limit > worst[1]:
            worst = (c.label, t / c.limit)
    print(f"\nclosest to its former limit: {worst[0]} at {100 * worst[1]:.0f}% of it")
    rec.save(args.json)


if __name__ == "__main__":
    main()
