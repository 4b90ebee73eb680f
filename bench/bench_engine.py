"""The engine's shape (issue 30) moved code without changing what it computes: the same public calls,
timed in one run on the package now and on the package before issue 30 began (``_BEFORE``, ``git
archive``, imported under another name), with their medians, the ratio now/before and the largest
difference of the two results' interval bounds (0 expected).

Usage: ``python bench/bench_engine.py [--quick] [--repeats 5] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocci  # noqa: E402
from _record import Record, load_average  # noqa: E402
from bench_hotspots import _git_package  # noqa: E402

#: The commit before issue 30's first step (the test tiers, then the subpackage layout).
_BEFORE = "46fbf17"


def _calls(pkg, y, a, b, t):
    """Public calls with the same signature before and after, and the columns to compare."""
    return {
        "roc_auc": (lambda: pkg.roc_auc(y, a), ("auc_low", "auc_high")),
        "threshold_ci (wilson)": (lambda: pkg.threshold_ci(y, a, thresholds=t), ("tpr_low", "tpr_high")),
        "vertical_ci (percentile)": (lambda: pkg.vertical_ci(y, a, fpr=[0.05, 0.1, 0.3], method="percentile"),
                                     ("tpr_low", "tpr_high")),
        "cost_curve": (lambda: pkg.cost_curve(y, a), ("cost",)),
        "cost_ci (101 w)": (lambda: pkg.cost_ci(y, a, w=np.linspace(0, 1, 101)), ("cost_low", "cost_high")),
        "compare_auc": (lambda: pkg.compare_auc(y, a, b), ("delta_auc_low", "delta_auc_high")),
        "compare_thresholds": (lambda: pkg.compare_thresholds(y, a, b, thresholds_a=t, thresholds_b=t),
                               ("delta_tpr_low", "delta_tpr_high")),
        "compare_vertical": (lambda: pkg.compare_vertical(y, a, b, fpr=[0.1]), ("delta_tpr_low", "delta_tpr_high")),
        "compare_cost (11 w)": (lambda: pkg.compare_cost(y, a, b, w=np.linspace(0, 1, 11)),
                                ("delta_cost_low", "delta_cost_high")),
        "precision_ci": (lambda: pkg.precision_ci(y, a, thresholds=t), ("precision_low", "precision_high")),
        "roc_band (100 thresholds)": (lambda: pkg.roc_band(y, a, thresholds=np.quantile(a, np.linspace(0.01, 0.99, 100))),
                                      ("tpr_low", "tpr_high")),
    }


def _median(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


#: Columns issue 30 renamed (one name per quantity): the commit before reads them under the old name.
_OLD_COLUMN = {"auc_low": "low", "auc_high": "high", "delta_auc_low": "low", "delta_auc_high": "high"}


def _gap(now, before, cols) -> float:
    fa, fb = now.to_frame(), before.to_frame()
    old = [c if c in fb.columns else _OLD_COLUMN[c] for c in cols]
    return max(float(np.nanmax(np.abs(fa[c].to_numpy(float) - fb[o].to_numpy(float)))) for c, o in zip(cols, old))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 2,000, one repeat (smoke run)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--json", default=None, metavar="PATH")
    args = parser.parse_args()
    if args.quick:
        args.n, args.repeats = 2_000, 1
    rec = Record("bench_engine", argv=sys.argv[1:])
    before = _git_package(_BEFORE, "rocci_before_30")
    rng = np.random.default_rng(3)
    n = args.n
    y = rng.random(n) < 0.3
    z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], n)
    a, b = np.round(z[:, 0] + 1.0 * y, 3), np.round(z[:, 1] + 0.8 * y, 3)
    t = list(np.quantile(a, [0.5, 0.7, 0.9]))
    now_calls = _calls(rocci, y, a, b, t)
    old_calls = _calls(before, y, a, b, t) if before is not None else {}
    print(f"n = {n:,}, medians of {args.repeats}; before = {_BEFORE} ({'measured' if before else 'not found'})")
    print(f"{'call':<28} {'now':>10} {'before':>10} {'now/before':>11} {'max |Δ bound|':>14}")
    for name, (fn, cols) in now_calls.items():
        t_now, r_now = _median(fn, args.repeats)
        t_old = gap = ratio = None
        if name in old_calls:
            t_old, r_old = _median(old_calls[name][0], args.repeats)
            t_now2, _ = _median(fn, args.repeats)  # interleaved: now, before, now
            t_now = min(t_now, t_now2)
            ratio = t_now / t_old
            gap = _gap(r_now, r_old, cols)
        print(f"{name:<28} {t_now:>9.4f}s {t_old if t_old is None else round(t_old, 4)!s:>10} "
              f"{'—' if ratio is None else f'{ratio:.2f}':>11} {'—' if gap is None else f'{gap:.1e}':>14}")
        rec.add(f"engine/{name}", t_now, "s", n=n, repeats=args.repeats, anchor=f"rocci at {_BEFORE}",
                anchor_value=t_old, anchor_measured=t_old is not None, ratio_before=ratio, max_bound_gap=gap,
                load=load_average())
    rec.save(args.json)


if __name__ == "__main__":
    main()
