#!/usr/bin/env python
"""Benchmark the exact simultaneous ROC band (rocci.bands.roc_band, issue 15).

Two cases on binormal data (positives N(1, 1), negatives N(0, 1), half each, seeded):

1. the band over 100 thresholds (score quantiles 0.01 … 0.99, plus +inf) at n = 10^6;
2. the band over every distinct threshold at n = 10^4.

Target: under 2 s each.  Prints the median time over repeats, as seconds and
as a multiple of one ``numpy.argsort`` of the same scores, the number of
recursion runs the calibration needed, and the load average before and after.

Usage::

    python bench/bench_bands.py [--repeats 5] [--json PATH]
    python bench/bench_bands.py --quick      # n = 10^4 and 10^3, one repeat (smoke run)

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
from rocci.bands import roc_band  # noqa: E402


def _median_time(fn, repeats):
    times = []
    out = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="n = 10^4 and 10^3, one repeat (smoke run)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = parser.parse_args(argv)
    rec = Record("bench_bands", argv=sys.argv[1:] if argv is None else argv)
    cases = ((10**6, "100 thresholds, n = 10^6", "q100"), (10**4, "all thresholds, n = 10^4", None))
    if args.quick:
        args.repeats = 1
        cases = ((10**4, "100 thresholds, n = 10^4", "q100"), (10**3, "all thresholds, n = 10^3", None))
    print(f"load average before: {os.getloadavg()}")
    rng = np.random.default_rng(2024)
    rows = []
    for n, label, thr in cases:
        y = np.r_[np.ones(n // 2), np.zeros(n - n // 2)]
        s = np.r_[rng.normal(1, 1, n // 2), rng.normal(0, 1, n - n // 2)]
        thresholds = None if thr is None else np.r_[np.inf, np.quantile(s, np.linspace(0.99, 0.01, 100))]
        t_sort, _ = _median_time(lambda: np.argsort(s), args.repeats)
        t_band, band = _median_time(lambda: roc_band(y, s, thresholds=thresholds), args.repeats)
        rows.append((label, band.thresholds.size, t_band, t_band / t_sort, t_sort, band.evaluations,
                     band.critical_value, band.joint_probability, band.joint_probability_below))
        rec.add("roc_band/" + ("every_threshold" if thr is None else "100_thresholds"), t_band, "s", n=n,
                rows=int(band.thresholds.size), ratio_argsort=t_band / t_sort, argsort=t_sort, repeats=args.repeats,
                evaluations=int(band.evaluations), critical_value=float(band.critical_value),
                joint_probability=float(band.joint_probability),
                joint_probability_below=float(band.joint_probability_below))
    print(f"load average after:  {os.getloadavg()}")
    print()
    print("| case | rows | median s | × argsort | argsort s | recursion runs | c | P*(band) | P*(next narrower) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.0f} | {r[4]:.4f} | {r[5]} | {r[6]:.6f} | {r[7]:.9f} "
              f"| {r[8]:.9f} |")
    rec.save(args.json)


if __name__ == "__main__":
    main()
