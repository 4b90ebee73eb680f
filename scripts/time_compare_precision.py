"""Speed of rocci.compare_precision at recall levels (issues 14 and 16): the series route against the former
route (one joint law of (FP*_a, FP*_b) per cell triple, rocci.precision.paired._recall_law), same run.

Two binormal models (correlation 0.7 of the scores, seeded), 30% positives by default; median of --runs.
Usage: PYTHONPATH=. python scripts/time_compare_precision.py [--rows 2000] [--levels 99] [--old-levels 2]
[--runs 1] [--share 0.3]  (--old-levels K: the former route at K levels only, it takes minutes per level)

A development timing, not yet a bench/ script: it writes no --json record and bench/report.py does not run it.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def data(n, share, seed=0, rho=0.7):
    rng = np.random.default_rng(seed)
    n_pos = int(n * share)
    y = np.r_[np.ones(n_pos, int), np.zeros(n - n_pos, int)]
    a = rng.normal(0, 1, n) + 1.2 * y
    b = rho * a + np.sqrt(1 - rho**2) * rng.normal(0, 1, n) + 0.3 * y
    return y, a, b


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--share", type=float, default=0.3)
    parser.add_argument("--levels", type=int, default=99)
    parser.add_argument("--old-levels", type=int, default=0)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--m-neg", type=int, default=None)
    args = parser.parse_args()
    from rocci.precision import compare_precision
    from rocci.precision import paired as P

    y, a, b = data(args.rows, args.share)
    recall = np.round(np.linspace(0.01, 0.99, args.levels), 4)
    mask = y == 1
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    m = None if args.m_neg is None else (n_pos, args.m_neg)
    print(f"rows {args.rows:,}, positives {n_pos:,}, m {m}, load {open('/proc/loadavg').read().split()[:3]}")
    t0 = time.perf_counter()
    np.argsort(a)
    print(f"argsort {1e3 * (time.perf_counter() - t0):.2f} ms")
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        res = compare_precision(y, a, b, recall=recall, m=m)
        times.append(time.perf_counter() - t0)
    print(f"series route, {res.r.size} levels: {np.median(times):.2f} s ({np.median(times) / res.r.size * 1e3:.0f} ms "
          f"per level); max truncated mass {res.truncated_mass.max():.1e}")
    if args.old_levels:
        ctx = P._vertical_paired()._PairedData(a[~mask], b[~mask], a[mask], b[mask], n_neg, n_pos)
        pick = np.linspace(0, res.r.size - 1, args.old_levels).round().astype(int)
        for i in pick:
            r = int(res.r[i])
            t0 = time.perf_counter()
            comp = compare_precision(y, a, b, recall=[res.recall[i]])
            t_new = time.perf_counter() - t0
            t0 = time.perf_counter()
            old = P._recall_law(ctx, a[~mask], b[~mask], r, "precision", n_pos, n_neg, n_pos, n_neg)
            t_old = time.perf_counter() - t0
            print(f"  level r = {r}: former {t_old:.2f} s, series {t_new:.3f} s; |Δmean| "
                  f"{abs(old.mean - comp.delta_mean[0]):.1e}, |Δsd| {abs(old.std - comp.delta_std[0]):.1e}")
    print(f"load at the end {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
