"""Hot spots of issues 13/17, each beside its anchor measured in the same run.

For each call: the median wall time over ``--repeats`` runs, the median ratio
to one ``numpy.argsort`` of the same scores (timed right before each run), the
anchor (the old rocci path, pROC or scikit-learn when installed) timed the same
way, and the load average at the time.  Run: ``python bench/bench_hotspots.py``.

``--json PATH`` also writes every printed figure (``bench/_record.py``): seconds,
ratio to argsort, the anchor's name and figures, repeats and the load average of
each line.  ``--quick``: n = 10^4, one repeat, no old paths, 3 calls per fixed
cost (a smoke run).
"""

from __future__ import annotations

import argparse
import datetime
import io
import functools
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rocci  # noqa: E402
import rocci._core.intervals as intervals  # noqa: E402
from _record import Record  # noqa: E402
from rocci._core.exact import binomial_quantile  # noqa: E402

#: the record of this run (``--json``); every printed figure goes into it
REC = Record("bench_hotspots", argv=sys.argv[1:])


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


def report(name, fn, scores, repeats, anchor_name=None, anchor=None, anchor_repeats=None, *, key):
    t, r = measure(fn, scores, repeats)
    result = t
    line = f"{name:<44} {t:8.3f} s  {r:7.1f} x argsort"
    ctx = {}
    if anchor is not None:
        name = f"rocci {anchor_name}" if anchor_name.startswith("at ") else anchor_name
        try:
            ta, ra = measure(anchor, scores, anchor_repeats or repeats)
        except Exception as exc:  # the previous code no longer fits today's callers: say so, do not stop
            line += f" | {anchor_name}: failed ({type(exc).__name__}: {exc})"
            ctx = dict(anchor=name, anchor_measured=False, note=f"anchor failed: {type(exc).__name__}: {exc}")
        else:
            line += f" | {anchor_name}: {ta:8.3f} s {ra:7.1f} x argsort ({ta / t:.1f}x rocci's time)"
            ctx = dict(anchor=name, anchor_value=ta, anchor_ratio_argsort=ra, anchor_measured=True,
                       anchor_repeats=anchor_repeats or repeats)
    print(line + f"  [{_load()}]", flush=True)
    REC.add(key, t, "s", n=scores.size, ratio_argsort=r, repeats=repeats, label=name.strip(), **ctx)
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


def report_r(name, r_body, columns, scores, repeats, *, key, compared_with=None, compared_value=None):
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
        REC.add(key, None, "s", n=scores.size, anchor_measured=False, label=name.strip(),
                note="pROC not installed (Rscript with r-cran-proc): not measured")
        return None
    ratio = t / np.median([b0, b1])
    print(f"{name:<44} {t:8.3f} s  {ratio:7.1f} x argsort (numpy argsort timed around it)  [{_load()}]",
          flush=True)
    REC.add(key, t, "s", n=scores.size, ratio_argsort=ratio, repeats=repeats, anchor_measured=True,
            label=name.strip(), compared_with=compared_with, compared_value=compared_value,
            speedup=None if compared_value is None else t / compared_value)
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


def _git_package(rev: str, name: str):
    """The whole ``rocci`` package as it was at ``rev`` (``git archive``), imported as ``name`` (its
    imports are relative, so it runs on its own code only), or None outside a checkout."""
    import importlib
    import tarfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run(["git", "-C", root, "archive", "--format=tar", rev, "rocci"], capture_output=True)
    if out.returncode != 0:
        return None
    where = tempfile.mkdtemp(prefix="rocci_bench_")
    with tarfile.open(fileobj=io.BytesIO(out.stdout)) as tar:
        tar.extractall(where, filter="data")
    os.rename(os.path.join(where, "rocci"), os.path.join(where, name))
    sys.path.insert(0, where)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(where)


#: The commit before this round of hot-spot work (Lobatto chain, np.unique + binary searches).
_BEFORE = "1004090"


class _PreviousPercentile:
    """threshold_ci's percentile path as it was at ``_BEFORE``: Lobatto CDF chain for each level,
    thresholds by np.unique and counts by binary search."""

    def __init__(self):
        self.old = _git_module(_BEFORE, "rocci/_core/intervals.py", "_old_intervals")

    def __enter__(self):
        from rocci._core.counts import ScoreCounts

        def counts(c):
            t = c.distinct_thresholds()
            return t, c.n_pos_ge(t).astype(np.int64), c.n_neg_ge(t).astype(np.int64)

        self.saved = intervals._chained_quantiles, ScoreCounts.threshold_counts
        intervals._chained_quantiles = _accepting_only_its_own(self.old._chained_quantiles)
        ScoreCounts.threshold_counts = counts

    def __exit__(self, *exc):
        from rocci._core.counts import ScoreCounts
        intervals._chained_quantiles, ScoreCounts.threshold_counts = self.saved


def _accepting_only_its_own(old):
    """``old`` called with only the keyword arguments it knows: the current callers may pass hints
    about their input (``symmetric=``: the proportions are k/n) that the previous code did not take and
    does not need (it computes the same quantiles without them)."""
    import inspect

    known = set(inspect.signature(old).parameters)

    def call(*args, **kwargs):
        return old(*args, **{k: v for k, v in kwargs.items() if k in known})

    return call


def _previous_compare_auc(y, a, b):
    """compare_auc as it was at ``_BEFORE`` (one argsort per model, boolean-mask splits)."""
    import rocci.compare.auc as compare
    old = _git_module(_BEFORE, "rocci/compare/auc.py", "_old_compare_auc")
    if old is None:
        return None
    if not hasattr(compare, "_placements_in_order"):
        # the placements have been rewritten since: the whole function as it was at _BEFORE (its
        # helpers from today's package), the same results
        return old.compare_auc(y, a, b)
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


#: record keys of the fixed costs at n = 10^3
FIXED_KEYS = {
    "vertical_ci score, 99 levels": "fixed/vertical_ci/score/99",
    "vertical_ci percentile, 99 levels": "fixed/vertical_ci/percentile/99",
    "compare_thresholds, 99 rates": "fixed/compare_thresholds/99",
    "threshold_ci wilson, 99 rates": "fixed/threshold_ci/wilson/99",
    "threshold_ci percentile, 99 rates": "fixed/threshold_ci/percentile/99",
    "threshold_ci wilson, every threshold": "fixed/threshold_ci/wilson/every",
    "threshold_ci percentile, every threshold": "fixed/threshold_ci/percentile/every",
    "roc_curve": "fixed/roc_curve",
    "roc_auc (DeLong)": "fixed/roc_auc/delong",
    "compare_auc (DeLong)": "fixed/compare_auc/delong",
}


def fixed_costs(repeats: int):
    """Calls at n = 10^3 (milliseconds; the dashboard makes many of them), with the paths of issue 17
    as they were at ``_BEFORE_FIXED`` (the whole package from git) timed beside them, interleaved."""
    rng = np.random.default_rng(17)
    n = 1000
    y = rng.random(n) < 0.5
    s = rng.normal(size=n) + y
    b = s + rng.normal(size=n)
    q = np.linspace(0.01, 0.99, 99)
    previous = _git_package(_BEFORE_FIXED, "_rocci_before_fixed")
    before = {}
    if previous is not None:
        before = {
            "vertical_ci score, 99 levels": lambda: previous.vertical_ci(y, s),
            "vertical_ci percentile, 99 levels": lambda: previous.vertical_ci(y, s, method="percentile"),
            "compare_thresholds, 99 rates": lambda: previous.compare_thresholds(y, s, b, total_positive_rate=q),
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
        failed = None
        if old is not None:
            try:
                old()
            except Exception as exc:  # the previous code no longer fits today's package: say so, do not stop
                failed, old = f"anchor failed: {type(exc).__name__}: {exc}", None
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
        ctx = {} if failed is None else dict(anchor=f"rocci at {_BEFORE_FIXED}", anchor_measured=False, note=failed)
        if failed:
            line += f" | at {_BEFORE_FIXED}: {failed}"
        if ts_old:
            line += f" | at {_BEFORE_FIXED}: {1e3 * float(np.median(ts_old)):8.2f} ms"
            ctx = dict(anchor=f"rocci at {_BEFORE_FIXED}", anchor_value=float(np.median(ts_old)),
                       anchor_measured=True, anchor_repeats=repeats)
        print(line + f"  [{_load()}]", flush=True)
        REC.add(FIXED_KEYS[name], float(np.median(ts)), "s", n=n, repeats=repeats, label=name, **ctx)


def _old_compare_auc(y, a, b):
    """compare_auc with its placements as they were (two argsorts and two sorts per model)."""
    import rocci.compare.auc as compare
    from rocci._core.counts import score_counts
    from rocci.roc.curve import _placements

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
    ap.add_argument("--fixed-repeats", type=int, default=None,
                    help="calls per fixed cost at n = 10^3 (default: max(20, 4 x repeats))")
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: n = 10^4, 1 repeat, --skip-old, 3 calls per fixed cost")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = ap.parse_args()
    if args.quick:
        args.n, args.repeats, args.skip_old = min(args.n, 10**4), 1, True
        args.fixed_repeats = args.fixed_repeats or 3
    fixed_repeats = args.fixed_repeats or max(20, 4 * args.repeats)
    if args.fixed_only:
        print(f"# bench_hotspots  {datetime.datetime.now():%Y-%m-%d %H:%M}  "
              f"{platform.machine()} {os.cpu_count()} cpus  numpy {np.__version__}  [{_load()}]")
        fixed_costs(fixed_repeats)
        REC.save(args.json)
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

    report("threshold_ci wilson, every threshold", lambda: rocci.threshold_ci(y, s), s, args.repeats,
           key="threshold_ci/wilson/every")
    report("threshold_ci percentile, every threshold", lambda: rocci.threshold_ci(y, s, method="percentile"),
           s, args.repeats, *(() if previous.old is None else (f"at {_BEFORE}", previous_percentile)),
           key="threshold_ci/percentile/every")
    if not args.skip_old:
        report("  (exact walk per threshold, the first path)", old_percentile, s, 1,
               key="old/threshold_ci/percentile/every/exact_walk")
    else:
        REC.add("old/threshold_ci/percentile/every/exact_walk", None, "s", n=n, note="not run (--skip-old)")

    # compare_auc (DeLong), model b a noisier copy of model a
    b = s + rng.normal(size=n)
    t_rocci = report("compare_auc (DeLong)", lambda: rocci.compare_auc(y, s, b), s, args.repeats,
                     f"at {_BEFORE}", lambda: _previous_compare_auc(y, s, b), key="compare_auc/delong")
    import rocci.compare.auc as compare_module
    if not args.skip_old and hasattr(compare_module, "_placements_in_order"):
        report("  (two argsorts and two sorts per model)", lambda: _old_compare_auc(y, s, b), s, args.repeats,
               key="old/compare_auc/delong/two_argsorts")
    else:
        REC.add("old/compare_auc/delong/two_argsorts", None, "s", n=n,
                note="not run (--skip-old)" if args.skip_old else "not run (the placements it patches are gone)")
    report("roc_auc (DeLong), one model", lambda: rocci.roc_auc(y, s), s, args.repeats, key="roc_auc/delong")
    from rocci._core.inputs import check_labels
    old_validation = _git_module(_BEFORE_FIXED, "rocci/_core/inputs.py", "_old_validation")
    report("check_labels (booleans)", lambda: check_labels(y), s, args.repeats,
           *(() if old_validation is None else (f"at {_BEFORE_FIXED}",
                                                lambda: old_validation.check_labels(y))),
           key="check_labels/bool")
    t_r = report_r("  pROC roc.test(delong) incl. 2x roc()",
                   "r1 <- roc(d$y, d$a, levels=c(0,1), direction='<', quiet=TRUE); "
                   "r2 <- roc(d$y, d$b, levels=c(0,1), direction='<', quiet=TRUE); "
                   "roc.test(r1, r2, method='delong')",
                   {"y": y.astype(int), "a": s, "b": b}, s, 3,
                   key="pROC/roc.test/delong", compared_with="compare_auc/delong", compared_value=t_rocci)
    if t_r is not None:
        print(f"  -> rocci compare_auc {t_rocci:.3f} s vs pROC {t_r:.3f} s: {t_r / t_rocci:.1f}x faster (same run)")
    fixed_costs(fixed_repeats)
    REC.save(args.json)


if __name__ == "__main__":
    main()
