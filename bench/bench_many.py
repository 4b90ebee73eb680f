#!/usr/bin/env python
"""Benchmark compare_many (k models on the same instances) and compare_vertical_unpaired (issue 32).

Cases, on seeded binormal data (30% positives; model i's positives shifted by 0.2·i, a shared noise
term so the models are correlated):

1. ``compare_many`` of 6 models × 10^5 rows, continuous scores and scores rounded to 2 decimals
   (ties), without ``fpr``: the DeLong covariance matrix, 15 pairs, 10^6 draws of the joint normal;
2. the same with ``fpr=0.1`` at 6 models × 10^4 rows (6 ``vertical_ci`` and 15 ``compare_vertical``);
3. ``compare_vertical_unpaired`` of two test sets of 10^5 rows at 4 FPR levels;
4. ``compare_cost_unpaired`` of two test sets of 10^5 rows at w = 0.5, each model at a threshold in the
   middle of its scores (one-model laws of ~10^6 points): ``P(ΔC* < 0)`` with the Agresti–Caffo interval
   (the default), and the exact percentile bounds; beside them a Monte Carlo bootstrap of the same
   difference (B = 200 resamples of the rows of each set).

Target: case 1 well under 5 s.  Prints the median time over repeats, as seconds and as a multiple of
one ``numpy.argsort`` of one model's scores, and the load average before and after.

Usage::

    python bench/bench_many.py [--repeats 3] [--json PATH]
    python bench/bench_many.py --quick      # n = 10^4 (10^3 with fpr), one repeat (smoke run)

``--json PATH`` also writes every printed figure as a record (``bench/_record.py``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _record import Record  # noqa: E402
from rocci.compare import compare_many, compare_vertical_unpaired  # noqa: E402
from rocci.cost import compare_cost_unpaired  # noqa: E402


def _median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _models(n, k, rng, decimals=None):
    y = rng.random(n) < 0.3
    common = rng.normal(size=n)
    scores = {f"m{i}": 0.2 * i * y + common + rng.normal(size=n) for i in range(k)}
    if decimals is not None:
        scores = {name: np.round(s, decimals) for name, s in scores.items()}
    return y, scores


def _monte_carlo_cost(ya, sa, yb, sb, w, ta, tb, n_boot, seed=7):
    """B resamples of the rows of each set (stratified): the bootstrap of ΔC a Monte Carlo user would run."""
    rng = np.random.default_rng(seed)
    out = np.empty(n_boot)
    parts = [(s[y], s[~y], t) for y, s, t in ((ya, sa, ta), (yb, sb, tb))]
    for b in range(n_boot):
        cost = []
        for pos, neg, t in parts:
            fn = np.mean(pos[rng.integers(0, pos.size, pos.size)] < t)
            fp = np.mean(neg[rng.integers(0, neg.size, neg.size)] >= t)
            cost.append(w * fn + (1 - w) * fp)
        out[b] = cost[0] - cost[1]
    return np.quantile(out, [0.025, 0.975]), np.mean(out < 0)


def _cost_unpaired(rows, rec, ya, sa, yb, sb, n, t_sort, repeats):
    ta, tb = float(np.median(sa)), float(np.median(sb))
    for method in ("agresti-coull", "percentile"):
        t = _median_time(lambda: compare_cost_unpaired(ya, sa, yb, sb, w=0.5, thresholds_a=ta, thresholds_b=tb,
                                                       method=method), repeats)
        rows.append((f"compare_cost_unpaired, w = 0.5, {method}", n, t, t / t_sort))
        rec.add(f"compare_cost_unpaired/{method}", t, "s", n=n, ratio_argsort=t / t_sort, argsort=t_sort,
                repeats=repeats)
    n_boot = 200
    t = _median_time(lambda: _monte_carlo_cost(ya, sa, yb, sb, 0.5, ta, tb, n_boot), 1)
    rows.append((f"Monte Carlo bootstrap of the same ΔC, B = {n_boot}", n, t, t / t_sort))
    rec.add("compare_cost_unpaired/monte_carlo_200", t, "s", n=n, ratio_argsort=t / t_sort, argsort=t_sort,
            repeats=1, n_boot=n_boot)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small n, one repeat (smoke run)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = parser.parse_args(argv)
    rec = Record("bench_many", argv=sys.argv[1:] if argv is None else argv)
    n_many, n_fpr, n_unpaired = (10**4, 10**3, 10**4) if args.quick else (10**5, 10**4, 10**5)
    if args.quick:
        args.repeats = 1
    print(f"load average before: {os.getloadavg()}")
    rng = np.random.default_rng(2026)
    rows = []
    for label, decimals in (("continuous", None), ("tied", 2)):
        y, scores = _models(n_many, 6, rng, decimals)
        t_sort = _median_time(lambda: np.argsort(scores["m0"]), args.repeats)
        t = _median_time(lambda: compare_many(y, scores), args.repeats)
        rows.append((f"compare_many, 6 models, {label}", n_many, t, t / t_sort))
        rec.add(f"compare_many/6_models/{label}", t, "s", n=n_many, ratio_argsort=t / t_sort, argsort=t_sort,
                repeats=args.repeats, n_draws=10**6)
    y, scores = _models(n_fpr, 6, rng, 2)
    t_sort = _median_time(lambda: np.argsort(scores["m0"]), args.repeats)
    t = _median_time(lambda: compare_many(y, scores, fpr=0.1), args.repeats)
    rows.append(("compare_many, 6 models, tied, fpr=0.1", n_fpr, t, t / t_sort))
    rec.add("compare_many/6_models/fpr", t, "s", n=n_fpr, ratio_argsort=t / t_sort, argsort=t_sort,
            repeats=args.repeats)
    ya, sa = _models(n_unpaired, 1, rng)
    yb, sb = _models(n_unpaired, 1, rng, 2)
    t_sort = _median_time(lambda: np.argsort(sa["m0"]), args.repeats)
    t = _median_time(lambda: compare_vertical_unpaired(ya, sa["m0"], yb, sb["m0"], fpr=[0.01, 0.1, 0.5, 0.9]),
                     args.repeats)
    rows.append(("compare_vertical_unpaired, 4 levels", n_unpaired, t, t / t_sort))
    rec.add("compare_vertical_unpaired/4_levels", t, "s", n=n_unpaired, ratio_argsort=t / t_sort, argsort=t_sort,
            repeats=args.repeats)
    _cost_unpaired(rows, rec, ya, sa["m0"], yb, sb["m0"], n_unpaired, t_sort, args.repeats)
    print(f"load average after:  {os.getloadavg()}")
    print()
    print("| case | rows | median s | × argsort |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.0f} |")
    rec.save(args.json)


if __name__ == "__main__":
    main()
