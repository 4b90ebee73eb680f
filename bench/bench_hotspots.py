"""Hot spots of issues 13/17, each beside its anchor measured in the same run.

For each call: the median wall time over ``--repeats`` runs, the median ratio
to one ``numpy.argsort`` of the same scores (timed right before each run), the
anchor (the old rocci path, pROC or scikit-learn when installed) timed the same
way, and the load average at the time.  Run: ``python bench/bench_hotspots.py``.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import rocci
import rocci.intervals as intervals
from rocci.exact import binomial_quantile


def _load() -> str:
    return "load %.1f/%.1f/%.1f" % os.getloadavg()


def measure(fn, scores, repeats):
    """Median seconds and median ratio to one argsort of ``scores``, interleaved."""
    times, ratios = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        np.argsort(scores)
        base = time.perf_counter() - t
        t = time.perf_counter()
        fn()
        el = time.perf_counter() - t
        times.append(el)
        ratios.append(el / base)
    return float(np.median(times)), float(np.median(ratios))


def report(name, fn, scores, repeats, anchor_name=None, anchor=None, anchor_repeats=None):
    t, r = measure(fn, scores, repeats)
    result = t
    line = f"{name:<44} {t:8.3f} s  {r:7.1f} x argsort"
    if anchor is not None:
        ta, ra = measure(anchor, scores, anchor_repeats or repeats)
        line += f" | {anchor_name}: {ta:8.3f} s {ra:7.1f} x argsort ({ta / t:.1f}x rocci's time)"
    print(line + f"  [{_load()}]", flush=True)
    return result


def rscript_times(r_body: str, columns: dict, repeats: int):
    """Median elapsed seconds of ``r_body`` in Rscript (data in ``d``), or None without R/pROC."""
    if shutil.which("Rscript") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data.csv")
        np.savetxt(path, np.column_stack(list(columns.values())), delimiter=",", fmt="%.17g",
                   header=",".join(columns), comments="")
        script = (
            "suppressMessages(library(pROC))\n"
            f"d <- read.csv('{path}')\n"
            f"t <- replicate({repeats}, system.time({{ {r_body} }})[['elapsed']])\n"
            "cat(median(t), '\\n')\n"
        )
        out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True)
        if out.returncode != 0:
            return None
        return float(out.stdout.split()[-1])


def report_r(name, r_body, columns, scores, repeats):
    """An R anchor: its median time and its ratio to numpy argsort medians timed just before and after."""
    def argsort_median():
        ts = []
        for _ in range(3):
            t = time.perf_counter()
            np.argsort(scores)
            ts.append(time.perf_counter() - t)
        return float(np.median(ts))

    b0 = argsort_median()
    t = rscript_times(r_body, columns, repeats)
    b1 = argsort_median()
    if t is None:
        print(f"{name:<44} pROC not installed: no comparison  [{_load()}]", flush=True)
        return None
    ratio = t / np.median([b0, b1])
    print(f"{name:<44} {t:8.3f} s  {ratio:7.1f} x argsort (numpy argsort timed around it)  [{_load()}]",
          flush=True)
    return t


def _old_binomial_quantiles(qs, m, p):
    p = np.asarray(p, dtype=float)
    return [binomial_quantile(q, m, p).reshape(p.shape) for q in qs]


class _OldQuantiles:
    """The percentile path as it was (one exact CDF walk per proportion)."""

    def __enter__(self):
        self.saved = intervals._binomial_quantiles
        intervals._binomial_quantiles = _old_binomial_quantiles

    def __exit__(self, *exc):
        intervals._binomial_quantiles = self.saved


@functools.lru_cache(maxsize=None)
def _git_module(rev: str, path: str, name: str):
    """Module ``path`` as it was at ``rev`` (from git), or None outside a checkout."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run(["git", "-C", root, "show", f"{rev}:{path}"], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = os.path.dirname(path).replace("/", ".")  # its relative imports resolve in rocci
    sys.modules[name] = module
    exec(compile(out.stdout, f"{rev}:{path}", "exec"), module.__dict__)
    return module


#: The commit before this round of hot-spot work (Lobatto chain, np.unique + binary searches).
_BEFORE = "1004090"


class _PreviousPercentile:
    """threshold_ci's percentile path as it was at ``_BEFORE``: Lobatto CDF chain for each level,
    thresholds by np.unique and counts by binary search."""

    def __init__(self):
        self.old = _git_module(_BEFORE, "rocci/intervals.py", "_old_intervals")

    def __enter__(self):
        from rocci.counts import ScoreCounts

        def counts(c):
            t = c.distinct_thresholds()
            return t, c.n_pos_ge(t).astype(np.int64), c.n_neg_ge(t).astype(np.int64)

        self.saved = intervals._chained_quantiles, ScoreCounts.threshold_counts
        intervals._chained_quantiles = self.old._chained_quantiles
        ScoreCounts.threshold_counts = counts

    def __exit__(self, *exc):
        from rocci.counts import ScoreCounts
        intervals._chained_quantiles, ScoreCounts.threshold_counts = self.saved


def _previous_compare_auc(y, a, b):
    """compare_auc as it was at ``_BEFORE`` (one argsort per model, boolean-mask splits)."""
    import rocci.compare.auc as compare
    old = _git_module(_BEFORE, "rocci/compare/auc.py", "_old_compare_auc")
    if old is None:
        return None
    saved = compare._placements_in_order
    compare._placements_in_order = lambda scores, mask, n_pos, n_neg, *_: old._placements_in_order(
        scores, mask, n_pos, n_neg)
    try:
        return rocci.compare_auc(y, a, b)
    finally:
        compare._placements_in_order = saved


#: The commit before the fixed-cost work of issue 17 (one order-statistic law per level, three
#: boost evaluations per term of the paired sign probabilities, np.unique over the labels).
_BEFORE_FIXED = "65f057e"


def _previous_compare_thresholds(*args, **kwargs):
    """compare_thresholds with its sign probabilities as they were at ``_BEFORE_FIXED``."""
    import rocci.compare.thresholds as thresholds
    old = _git_module(_BEFORE_FIXED, "rocci/compare/laws.py", "_old_compare_laws")
    saved = thresholds.difference_sign_probabilities
    thresholds.difference_sign_probabilities = old.difference_sign_probabilities
    try:
        return rocci.compare_thresholds(*args, **kwargs)
    finally:
        thresholds.difference_sign_probabilities = saved


def fixed_costs(repeats: int):
    """Calls at n = 10^3 (milliseconds; the dashboard makes many of them), with the paths of issue 17
    as they were at ``_BEFORE_FIXED`` (loaded from git) timed beside them, interleaved."""
    rng = np.random.default_rng(17)
    n = 1000
    y = rng.random(n) < 0.5
    s = rng.normal(size=n) + y
    b = s + rng.normal(size=n)
    q = np.linspace(0.01, 0.99, 99)
    old_vertical = _git_module(_BEFORE_FIXED, "rocci/vertical.py", "_old_vertical")
    before = {}
    if old_vertical is not None:
        before = {
            "vertical_ci score, 99 levels": lambda: old_vertical.vertical_ci(y, s),
            "vertical_ci percentile, 99 levels": lambda: old_vertical.vertical_ci(y, s, method="percentile"),
            "compare_thresholds, 99 rates": lambda: _previous_compare_thresholds(y, s, b, total_positive_rate=q),
        }
    calls = {
        "vertical_ci score, 99 levels": lambda: rocci.vertical_ci(y, s),
        "vertical_ci percentile, 99 levels": lambda: rocci.vertical_ci(y, s, method="percentile"),
        "compare_thresholds, 99 rates": lambda: rocci.compare_thresholds(y, s, b, total_positive_rate=q),
        "threshold_ci wilson, 99 rates": lambda: rocci.threshold_ci(y, s, total_positive_rate=q),
        "threshold_ci percentile, 99 rates": lambda: rocci.threshold_ci(y, s, total_positive_rate=q,
                                                                        method="percentile"),
        "threshold_ci wilson, every threshold": lambda: rocci.threshold_ci(y, s),
        "threshold_ci percentile, every threshold": lambda: rocci.threshold_ci(y, s, method="percentile"),
        "roc_curve": lambda: rocci.roc_curve(y, s),
        "roc_auc (DeLong)": lambda: rocci.roc_auc(y, s),
        "compare_auc (DeLong)": lambda: rocci.compare_auc(y, s, b),
    }
    print(f"# fixed costs at n = {n:,} (median ms over {repeats} calls; target <= 5 ms)  [{_load()}]")
    for name, fn in calls.items():
        old = before.get(name)
        fn()
        if old is not None:
            old()
        ts, ts_old = [], []
        for _ in range(repeats):
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
            if old is not None:
                t = time.perf_counter()
                old()
                ts_old.append(time.perf_counter() - t)
        line = f"  {name:<44} {1e3 * float(np.median(ts)):8.2f} ms"
        if ts_old:
            line += f" | at {_BEFORE_FIXED}: {1e3 * float(np.median(ts_old)):8.2f} ms"
        print(line + f"  [{_load()}]", flush=True)


def _old_compare_auc(y, a, b):
    """compare_auc with its placements as they were (two argsorts and two sorts per model)."""
    import rocci.compare.auc as compare
    from rocci.counts import score_counts
    from rocci.roc import _placements

    def in_order(scores, mask, n_pos, n_neg, *_):
        pos, neg = scores[mask], scores[~mask]
        op, on = np.argsort(pos, kind="stable"), np.argsort(neg, kind="stable")
        v10s, v01s, ng, nt = _placements(score_counts(pos, neg))
        v10, v01 = np.empty(pos.size), np.empty(neg.size)
        v10[op], v01[on] = v10s, v01s
        return v10, v01, (ng + 0.5 * nt) / (pos.size * neg.size)

    saved = compare._placements_in_order
    compare._placements_in_order = in_order
    try:
        return rocci.compare_auc(y, a, b)
    finally:
        compare._placements_in_order = saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--skip-old", action="store_true", help="do not time the old rocci paths (slow)")
    ap.add_argument("--fixed-only", action="store_true", help="only the fixed costs at n = 10^3")
    args = ap.parse_args()
    if args.fixed_only:
        print(f"# bench_hotspots  {datetime.datetime.now():%Y-%m-%d %H:%M}  "
              f"{platform.machine()} {os.cpu_count()} cpus  numpy {np.__version__}  [{_load()}]")
        fixed_costs(max(20, 4 * args.repeats))
        return
    n = args.n
    rng = np.random.default_rng(2009)
    y = rng.random(n) < 0.5
    s = rng.normal(size=n) + y
    print(f"# bench_hotspots  {datetime.datetime.now():%Y-%m-%d %H:%M}  n={n:,}  "
          f"{platform.machine()} {os.cpu_count()} cpus  numpy {np.__version__}  [{_load()}]")

    def old_percentile():
        with _OldQuantiles():
            rocci.threshold_ci(y, s, method="percentile")

    previous = _PreviousPercentile()

    def previous_percentile():
        with previous:
            rocci.threshold_ci(y, s, method="percentile")

    report("threshold_ci wilson, every threshold", lambda: rocci.threshold_ci(y, s), s, args.repeats)
    report("threshold_ci percentile, every threshold", lambda: rocci.threshold_ci(y, s, method="percentile"),
           s, args.repeats, *(() if previous.old is None else (f"at {_BEFORE}", previous_percentile)))
    if not args.skip_old:
        report("  (exact walk per threshold, the first path)", old_percentile, s, 1)

    # compare_auc (DeLong), model b a noisier copy of model a
    b = s + rng.normal(size=n)
    t_rocci = report("compare_auc (DeLong)", lambda: rocci.compare_auc(y, s, b), s, args.repeats,
                     f"at {_BEFORE}", lambda: _previous_compare_auc(y, s, b))
    if not args.skip_old:
        report("  (two argsorts and two sorts per model)", lambda: _old_compare_auc(y, s, b), s, args.repeats)
    report("roc_auc (DeLong), one model", lambda: rocci.roc_auc(y, s), s, args.repeats)
    from rocci._validation import check_labels
    old_validation = _git_module(_BEFORE_FIXED, "rocci/_validation.py", "_old_validation")
    report("check_labels (booleans)", lambda: check_labels(y), s, args.repeats,
           *(() if old_validation is None else (f"at {_BEFORE_FIXED}", lambda: old_validation.check_labels(y))))
    t_r = report_r("  pROC roc.test(delong) incl. 2x roc()",
                   "r1 <- roc(d$y, d$a, levels=c(0,1), direction='<', quiet=TRUE); "
                   "r2 <- roc(d$y, d$b, levels=c(0,1), direction='<', quiet=TRUE); "
                   "roc.test(r1, r2, method='delong')",
                   {"y": y.astype(int), "a": s, "b": b}, s, 3)
    if t_r is not None:
        print(f"  -> rocci compare_auc {t_rocci:.3f} s vs pROC {t_r:.3f} s: {t_r / t_rocci:.1f}x faster (same run)")
    fixed_costs(max(20, 4 * args.repeats))


if __name__ == "__main__":
    main()
