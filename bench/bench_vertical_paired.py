"""Benchmark of the paired vertical comparison, ``compare_vertical`` (issue 3).

For correlated binormal scores (ρ = 0.6, half positives) prints, per FPR level
and as ratios measured in this one run (the machine is shared and noisy):

* the time of one level of the exact law (fast route: quadrature over the
  order statistic, Fourier mixture) at n = 200 … 20,000 instances;
* the thesis's direct formula (O(n⁴)) at small n, and the speed-up over it;
* a vectorised Monte Carlo bootstrap of the same ΔTPR with B = 2,000
  resamples, its time relative to the exact law, and the Monte Carlo standard
  error of P(ΔTPR > 0) it leaves (the exact law has none: it is the B → ∞
  limit).

Usage: ``python bench/bench_vertical_paired.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import rocci  # noqa: E402
from rocci.vertical_paired import _PairedData  # noqa: E402


def paired_data(n: int, rng):
    n_pos = n // 2
    z = rng.multivariate_normal([0.0, 0.0], [[1.0, 0.6], [0.6, 1.0]], n)
    z[:n_pos] += [1.0, 0.7]
    y = np.r_[np.ones(n_pos, int), np.zeros(n - n_pos, int)]
    return y, z[:, 0], z[:, 1]


def monte_carlo(y, a, b, r: int, reps: int, rng) -> np.ndarray:
    """ΔTPR in ``reps`` stratified bootstrap samples (vectorised, in chunks)."""
    pos_a, pos_b, neg_a, neg_b = a[y == 1], b[y == 1], a[y == 0], b[y == 0]
    n_pos, n_neg = pos_a.size, neg_a.size
    out = np.empty(reps)
    chunk = max(1, 4_000_000 // max(n_pos, n_neg))
    for start in range(0, reps, chunk):
        size = min(chunk, reps - start)
        ni = rng.integers(0, n_neg, (size, n_neg))
        t_a = -np.partition(-neg_a[ni], r - 1, axis=1)[:, r - 1][:, None]
        t_b = -np.partition(-neg_b[ni], r - 1, axis=1)[:, r - 1][:, None]
        pi = rng.integers(0, n_pos, (size, n_pos))
        out[start:start + size] = ((pos_a[pi] >= t_a).sum(1) - (pos_b[pi] >= t_b).sum(1)) / n_pos
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="stop at n = 2,000")
    args = parser.parse_args()
    rng = np.random.default_rng(2024)
    sizes = (200, 1_000, 2_000) if args.quick else (200, 1_000, 2_000, 10_000, 20_000)
    print("compare_vertical, one FPR level; n instances, half negatives; correlated binormal (rho = 0.6)")
    print(f"{'n':>7} {'n-':>6} {'FPR':>5} {'exact':>9} {'direct':>9} {'speed-up':>9} "
          f"{'MC B=2000':>10} {'MC/exact':>9} {'MC s.e. of P(d>0)':>18} {'P(d>0)':>8} {'truncated':>10}")
    for n in sizes:
        y, a, b = paired_data(n, rng)
        n_neg = int((y == 0).sum())
        for fpr in (0.1, 0.5):
            t = time.perf_counter()
            res = rocci.compare_vertical(y, a, b, fpr=[fpr])
            t_exact = time.perf_counter() - t
            r = int(res.r[0])
            direct = speed = "—"
            if n <= 200:
                ctx = _PairedData(a[y == 1], b[y == 1], a[y == 0], b[y == 0], n - n_neg, n_neg)
                t = time.perf_counter()
                ctx.level(r, route="direct")
                t_direct = time.perf_counter() - t
                direct, speed = f"{t_direct:.2f}s", f"{t_direct / t_exact:.0f}x"
            t = time.perf_counter()
            sample = monte_carlo(y, a, b, r, 2000, rng)
            t_mc = time.perf_counter() - t
            p = min(max(res.p_a_better[0], 0.0), 1.0)
            print(f"{n:>7,} {n_neg:>6,} {fpr:>5.2f} {t_exact:>8.2f}s {direct:>9} {speed:>9} {t_mc:>9.2f}s "
                  f"{t_mc / t_exact:>8.2f}x {np.sqrt(p * (1 - p) / 2000):>18.4f} {p:>8.4f} "
                  f"{res.truncated_mass[0]:>10.1e}")
            assert abs(np.mean(sample > 0) - p) < 5 * np.sqrt(p * (1 - p) / 2000) + 1e-3


if __name__ == "__main__":
    main()
