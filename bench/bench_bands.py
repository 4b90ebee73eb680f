#!/usr/bin/env python
"""Benchmark the exact simultaneous ROC band (rocci.bands.roc_band, issue 15).

Two cases on binormal data (positives N(1, 1), negatives N(0, 1), half each, seeded):

1. the band over 100 thresholds (score quantiles 0.01 … 0.99, plus +inf) at n = 10^6;
2. the band over every distinct threshold at n = 10^4.

Target: under 2 s each.  Prints the median time over repeats, as seconds and
as a multiple of one ``numpy.argsort`` of the same scores, the number of
recursion runs the calibration needed, and the load average before and after.

Usage::

    python bench/bench_bands.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

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
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    rng = np.random.default_rng(2024)
    rows = []
    for n, label, thr in ((10**6, "100 thresholds, n = 10^6", "q100"), (10**4, "all thresholds, n = 10^4", None)):
        y = np.r_[np.ones(n // 2), np.zeros(n - n // 2)]
        s = np.r_[rng.normal(1, 1, n // 2), rng.normal(0, 1, n - n // 2)]
        thresholds = None if thr is None else np.r_[np.inf, np.quantile(s, np.linspace(0.99, 0.01, 100))]
        t_sort, _ = _median_time(lambda: np.argsort(s), args.repeats)
        t_band, band = _median_time(lambda: roc_band(y, s, thresholds=thresholds), args.repeats)
        rows.append((label, band.thresholds.size, t_band, t_band / t_sort, t_sort, band.evaluations,
                     band.critical_value, band.joint_probability, band.joint_probability_below))
    print(f"load average after:  {os.getloadavg()}")
    print()
    print("| case | rows | median s | × argsort | argsort s | recursion runs | c | P*(band) | P*(next narrower) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.0f} | {r[4]:.4f} | {r[5]} | {r[6]:.6f} | {r[7]:.9f} "
              f"| {r[8]:.9f} |")


if __name__ == "__main__":
    main()
