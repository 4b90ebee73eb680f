"""Benchmark of the decision curves at the 99-point grid of threshold probabilities (issue 31): every threshold
in under 20 argsorts of the same scores.

Data: ``n`` rows, 20% positives, predicted risks ``expit(z + 1.5·y − 1.8)`` with ``z ~ N(0, 1)`` (model a)
and ``expit(0.8·z + 0.6·z' + 1.3·y − 1.8)`` (model b, for the comparison), seeded. For n = 10⁴, 10⁵, 10⁶
(``--quick``: 10⁴ only, one repeat), the median time (``--repeats``) of

* ``numpy.argsort`` of model a's risks (two runs per round, at least 5), the unit of time;
* ``rocci.net_benefit(y, a)`` at the default grid 0.01 … 0.99, full bootstrap and stratified, and the same
  calls of the package at ``_PREVIOUS`` (the quantile search before one exact CDF and the atoms between;
  ``git archive``, imported under another name), with the largest difference of the bounds; the argsorts
  and these calls interleaved, one round per repeat, as the load of a shared machine drifts;
* ``rocci.compare_net_benefit(y, a, b)`` at the grid, full bootstrap (one run at 10⁶ rows: ~40 s);
* a seeded Monte Carlo bootstrap of the same net benefits: ``B`` resamples of the ``n`` rows (200;
  ``--quick`` 20), in each the flagged positives and negatives counted at each threshold,
  ``NB* = (TP* − FP*·p/(1 − p))/n``, and its percentile interval (one run), with its time over the exact
  full bootstrap's and the largest distance of its bounds from the exact ones in exact standard deviations;

and every time's ratio to the argsort.

Usage: ``python bench/bench_decision.py [--quick] [--repeats 3] [--resamples 200] [--skip-previous]
[--json PATH]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from scipy.special import expit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocci  # noqa: E402
from _record import Record, load_average  # noqa: E402
from bench_hotspots import _git_package  # noqa: E402

#: The last commit with the previous net-benefit quantile search (regula falsi on the exact CDF).
_PREVIOUS = "cf1b6cb"
LEVEL = 0.95


def _median_time(fn, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def _data(n: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    z = rng.normal(size=n)
    a = expit(z + 1.5 * y - 1.8)
    b = expit(0.8 * z + 0.6 * rng.normal(size=n) + 1.3 * y - 1.8)
    return y, a, b


def monte_carlo(y, s, thresholds, resamples: int, seed: int = 31, level: float = LEVEL):
    """``resamples`` full-bootstrap resamples of the rows: ``NB*`` at each threshold (flagged: risk ``>= p``)
    and its percentile interval (the smallest resampled value whose empirical CDF reaches each level)."""
    rng = np.random.default_rng(seed)
    n, odds = y.size, thresholds / (1 - thresholds)
    flagged_upto = np.searchsorted(thresholds, s, side="right")  # row i is flagged at thresholds[:flagged_upto[i]]
    nb = np.empty((resamples, thresholds.size))
    for b in range(resamples):
        idx = rng.integers(0, n, size=n)
        k, yy = flagged_upto[idx], y[idx]
        tp = np.cumsum(np.bincount(k[yy], minlength=thresholds.size + 1)[::-1])[::-1][1:]  # rows with k > j
        fp = np.cumsum(np.bincount(k[~yy], minlength=thresholds.size + 1)[::-1])[::-1][1:]
        nb[b] = (tp - odds * fp) / n
    alpha = 1 - level
    low, high = np.quantile(nb, [alpha / 2, 1 - alpha / 2], axis=0, method="inverted_cdf")
    return nb, low, high


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="10⁴ rows only, one repeat, 20 resamples")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--resamples", type=int, default=None, help="Monte Carlo resamples (default 200; quick 20)")
    ap.add_argument("--skip-previous", action="store_true", help="do not time the code at " + _PREVIOUS)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    sizes = [10**4] if args.quick else [10**4, 10**5, 10**6]
    repeats = 1 if args.quick else args.repeats
    resamples = args.resamples or (20 if args.quick else 200)
    previous = None if args.skip_previous else _git_package(_PREVIOUS, "_rocci_decision_previous")
    why_not = "--skip-previous" if args.skip_previous else "not a git checkout"
    rec = Record("bench_decision", argv)
    grid = rocci.cost.decision.DEFAULT_THRESHOLDS
    y, a, b = _data(1000)
    rocci.net_benefit(y, a), rocci.compare_net_benefit(y, a, b)  # warm-up (imports)
    print(f"99 thresholds, level {LEVEL}; previous = rocci at {_PREVIOUS}; load {load_average()}")
    print(f"{'n':>9}{'argsort':>10}{'full':>9}{'×':>7}{'before':>9}{'strat':>9}{'×':>7}{'before':>9}"
          f"{'compare':>9}{'×':>8}{'MC':>9}{'MC/full':>9}")
    for n in sizes:
        y, a, b = _data(n)
        # argsort, the exact calls and the previous code interleaved, round by round (the load drifts)
        clock = {"argsort": []}
        results = {}
        for _ in range(repeats):
            clock["argsort"] += [_median_time(lambda: np.argsort(a), 1)[0] for _ in range(2)]
            for boot in ("full", "stratified"):
                codes = [("now", rocci)] + ([("before", previous)] if previous is not None else [])
                for which, package in codes:
                    t, results[which, boot] = _median_time(
                        lambda: package.net_benefit(y, a, bootstrap=boot, confidence_level=LEVEL), 1)
                    clock.setdefault((which, boot), []).append(t)
        clock["argsort"] += [_median_time(lambda: np.argsort(a), 1)[0] for _ in range(max(0, 5 - 2 * repeats))]
        t_sort = float(np.median(clock["argsort"]))
        rec.add("argsort", t_sort, "s", n=n, repeats=len(clock["argsort"]))
        row = {}
        for boot in ("full", "stratified"):
            t_now, res = float(np.median(clock["now", boot])), results["now", boot]
            t_old, diff = float("nan"), None
            if previous is not None:
                t_old, old = float(np.median(clock["before", boot])), results["before", boot]
                diff = float(max(np.abs(res.net_benefit_low - old.net_benefit_low).max(),
                                 np.abs(res.net_benefit_high - old.net_benefit_high).max()))
            row[boot] = (t_now, t_old, res)
            rec.add(f"net_benefit/{boot}/99", t_now, "s", n=n, ratio_argsort=t_now / t_sort, repeats=repeats,
                    anchor=f"rocci@{_PREVIOUS}", anchor_value=None if previous is None else t_old,
                    anchor_measured=previous is not None, max_bound_diff=diff, level=LEVEL,
                    note="" if previous is not None else f"previous code not run ({why_not})")
        reps_cmp = 1 if n >= 10**6 else repeats
        t_cmp, _ = _median_time(lambda: rocci.compare_net_benefit(y, a, b, confidence_level=LEVEL), reps_cmp)
        rec.add("compare_net_benefit/full/99", t_cmp, "s", n=n, ratio_argsort=t_cmp / t_sort, repeats=reps_cmp)
        t_mc, (_, low, high) = _median_time(lambda: monte_carlo(y, a, grid, resamples), 1)
        exact = row["full"][2]
        gap = np.maximum(np.abs(low - exact.net_benefit_low), np.abs(high - exact.net_benefit_high))
        gap_sd = float(np.max(gap / np.maximum(exact.net_benefit_std, 1e-300)))
        rec.add("montecarlo/net_benefit/full/99", t_mc, "s", n=n, ratio_argsort=t_mc / t_sort, resamples=resamples,
                ratio_exact=t_mc / row["full"][0], max_bound_gap_sd=gap_sd, repeats=1, anchor_measured=True,
                anchor=f"Monte Carlo, B={resamples}", anchor_value=t_mc)
        (tf, of, _), (ts, os_, _) = row["full"], row["stratified"]
        print(f"{n:>9,}{t_sort:>10.4f}{tf:>9.3f}{tf / t_sort:>7.1f}{of:>9.3f}{ts:>9.3f}{ts / t_sort:>7.1f}"
              f"{os_:>9.3f}{t_cmp:>9.2f}{t_cmp / t_sort:>8.0f}{t_mc:>9.2f}{t_mc / tf:>9.1f}", flush=True)
    rec.save(args.json)


if __name__ == "__main__":
    main()
