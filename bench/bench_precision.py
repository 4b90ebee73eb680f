"""Speed of rocci.precision at 10^6 rows, as multiples of one numpy.argsort of the same scores.

* precision intervals at fixed thresholds (stratified, percentile): the time per threshold at thresholds
  spread over the ranking, and the projected time for every distinct threshold (10^6 of them);
* precision intervals at the 99 recall levels 0.01 ... 0.99.

Medians of several runs; the load average is printed.
Usage (from the checkout): PYTHONPATH=. python bench/bench_precision.py [--rows N] [--sample K] [--runs R]

First run (load average 6-8 on 2 shared cores, argsort 71 ms): 1.1 s per mid-ranking threshold (8 of 20
sampled thresholds exceed the 12M-cell limit and raise InputError), 56 ms near the top; every threshold
projected at ~1.6e7 argsorts; 99 recall levels 223 s = 3,134 argsorts. Target (10 argsorts) not met.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from rocci.precision import precision_ci


def median_time(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--share", type=float, default=0.1)
    parser.add_argument("--sample", type=int, default=40, help="thresholds timed for the every-threshold projection")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n = args.rows
    y = (rng.random(n) < args.share).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    print(f"rows {n:,}, positives {int(y.sum()):,}, load average {os.getloadavg()}")
    base = median_time(lambda: np.argsort(s), 5)
    print(f"numpy.argsort: {base * 1e3:.1f} ms")

    from rocci import InputError

    t = np.quantile(s, np.linspace(0.001, 0.999, args.sample))
    fits = []
    for ti in t:  # thresholds whose lattice exceeds rocci's cell limit raise InputError: counted apart
        try:
            precision_ci(y, s, thresholds=[ti])
            fits.append(ti)
        except InputError:
            pass
    fits = np.array(fits)
    print(f"thresholds: {fits.size} of {t.size} spread over the ranking fit the cell limit "
          f"(from total positive rate {np.mean(s >= fits.max()):.4f} to {np.mean(s >= fits.min()):.4f})")
    per = median_time(lambda: precision_ci(y, s, thresholds=fits), args.runs) / fits.size
    distinct = np.unique(s).size
    print(f"  {per * 1e3:.2f} ms per threshold (median of {args.runs} runs) = {per / base:.2f} argsorts")
    total = per * distinct
    print(f"  every threshold ({distinct:,}), projected from these: {total:.0f} s = {total / base:,.0f} argsorts")
    top = np.sort(s)[::-1][[10, 100, 1000]]
    per_top = median_time(lambda: precision_ci(y, s, thresholds=top), args.runs) / top.size
    print(f"  near the top (10, 100, 1000 predicted positive): {per_top * 1e3:.2f} ms per threshold")

    levels = np.round(np.linspace(0.01, 0.99, 99), 2)
    rec = median_time(lambda: precision_ci(y, s, recall=levels), args.runs)
    print(f"99 recall levels: {rec:.2f} s = {rec / base:.1f} argsorts ({rec / 99 * 1e3:.1f} ms per level)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
