"""Benchmark of the paired vertical comparison, ``compare_vertical``, one FPR level at a time.

Correlated binormal scores (positives shifted by (1.0, 0.7)), at n = 10³ and
10⁴ instances, balanced (half positives) and imbalanced (16% positives),
continuous scores and scores rounded to 2 decimals (ties), FPR 0.01, 0.1 and
0.5; at the largest n also ρ = 0.999 and a model against a noisy copy of
itself.  For each case it prints, measured in this one run (the machine is
shared and noisy):

* the median time of one level of the exact law (``--repeats`` calls after a
  warm-up);
* the median time of ``numpy.argsort`` of the same scores and the ratio;
* the route that computed the joint law of the two thresholds' ranks
  (``series``: the Lancaster series at the corners of blocks of ranks;
  ``series+diff``: with pairs of nearly equal top sets summed over the draws
  in their difference; ``quadrature``: the fallback);
* the truncated mass.

``--monte-carlo`` adds a vectorised Monte Carlo bootstrap of the same ΔTPR with
B = 2,000 resamples (its time, and a check that its P(ΔTPR > 0) lies within
5 Monte Carlo standard errors of the exact value).

Usage: ``python bench/bench_vertical_paired.py [--quick] [--repeats 5] [--monte-carlo] [--json PATH]``
(``--json PATH``: every printed figure also as a record, ``bench/_record.py``).
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
from _record import Record  # noqa: E402
from rocci.compare import vertical as vertical_paired  # noqa: E402
from rocci._core import paired_order  # noqa: E402


def paired_data(n: int, positive_share: float, rho, digits, rng):
    """Correlated binormal scores; ``rho = "copy"``: model b is model a plus N(0, 0.01²) noise."""
    n_pos = int(round(n * positive_share))
    if rho == "copy":
        z = rng.standard_normal((n, 1)) + np.array([[0.0]])
        z = np.c_[z, z + 0.01 * rng.standard_normal((n, 1))]
        z[:n_pos] += 1.0
    else:
        z = rng.multivariate_normal([0.0, 0.0], [[1.0, rho], [rho, 1.0]], n)
        z[:n_pos] += [1.0, 0.7]
    if digits is not None:
        z = z.round(digits)
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


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 10^3 only")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per case (median)")
    parser.add_argument("--monte-carlo", action="store_true", help="add a Monte Carlo bootstrap with B = 2,000")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = parser.parse_args()
    rec = Record("bench_vertical_paired", argv=sys.argv[1:])
    rng = np.random.default_rng(2024)

    # Which route computed the joint law (the series returns None when it declines, and calls the
    # sum over the two top sets' difference for pairs with rho near 1).
    routes = []
    series, difference = vertical_paired._joint_cdf_series, paired_order._joint_cdf_disagreement

    def spy(*a, **k):
        out = series(*a, **k)
        routes.append("quadrature" if out is None else routes.pop() if routes else "series")
        return out

    def spy_difference(*a, **k):
        routes.append("series+diff")
        return difference(*a, **k)

    vertical_paired._joint_cdf_series = spy
    paired_order._joint_cdf_disagreement = spy_difference

    sizes = (1_000,) if args.quick else (1_000, 10_000)
    designs = [(0.5, 0.6, None), (0.16, 0.6, None), (0.5, 0.6, 2), (0.16, 0.9, 2)]
    print("compare_vertical, one FPR level; correlated binormal scores; median of "
          f"{args.repeats} calls after a warm-up, argsort of the same scores timed in the same run")
    header = (f"{'n':>7} {'n+/n-':>11} {'scores':>7} {'rho':>5} {'FPR':>5} {'r':>5} {'time':>8} "
              f"{'argsort':>9} {'ratio':>7} {'route':>11} {'truncated':>9}")
    if args.monte_carlo:
        header += f" {'MC B=2000':>10} {'P(d>0)':>8}"
    print(header)
    for n in sizes:
        extra = [(0.5, 0.999, None), (0.5, "copy", None)] if n == sizes[-1] else []
        for share, rho, digits in designs + extra:
            y, a, b = paired_data(n, share, rho, digits, rng)
            n_pos, n_neg = int(y.sum()), int((y == 0).sum())
            t_sort = median_time(lambda: np.argsort(a), max(args.repeats, 21))
            for fpr in (0.01, 0.1, 0.5):
                routes.clear()
                res = rocci.compare_vertical(y, a, b, fpr=[fpr])  # warm-up (and the route)
                route = routes[-1] if routes else "?"
                t_exact = median_time(lambda: rocci.compare_vertical(y, a, b, fpr=[fpr]), args.repeats)
                scores = "cont." if digits is None else f"{digits} dp"
                line = (f"{n:>7,} {f'{n_pos}/{n_neg}':>11} {scores:>7} {rho:>5} {fpr:>5.2f} {int(res.r[0]):>5} "
                        f"{t_exact:>7.3f}s {t_sort * 1e3:>7.3f}ms {t_exact / t_sort:>6.0f}x {route:>11} "
                        f"{res.truncated_mass[0]:>9.1e}")
                ctx = dict(anchor="Monte Carlo stratified bootstrap, B=2000", anchor_measured=False,
                           note="Monte Carlo not run (--monte-carlo)")
                if args.monte_carlo:
                    t = time.perf_counter()
                    sample = monte_carlo(y, a, b, int(res.r[0]), 2000, rng)
                    t_mc = time.perf_counter() - t
                    p = min(max(res.p_a_better[0], 0.0), 1.0)
                    assert abs(np.mean(sample > 0) - p) < 5 * np.sqrt(p * (1 - p) / 2000) + 1e-3
                    line += f" {t_mc:>9.2f}s {p:>8.4f}"
                    ctx = dict(anchor="Monte Carlo stratified bootstrap, B=2000", anchor_value=t_mc,
                               anchor_measured=True, anchor_repeats=1, p_a_better=p)
                print(line, flush=True)
                rec.add("compare_vertical/one_level", t_exact, "s", n=n, n_pos=n_pos, n_neg=n_neg, scores=scores,
                        rho=rho, fpr=fpr, r=int(res.r[0]), repeats=args.repeats, argsort=t_sort,
                        argsort_repeats=max(args.repeats, 21), ratio_argsort=t_exact / t_sort, route=route,
                        truncated_mass=float(res.truncated_mass[0]), **ctx)
    rec.save(args.json)


if __name__ == "__main__":
    main()
