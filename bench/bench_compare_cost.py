"""Benchmarks for the paired comparison and the cost curves (issues 3 and 4).

Prints, as ratios measured in this one run (the machine is shared and noisy;
medians of repeats):

* ``compare_thresholds`` at 99 threshold pairs (equal total positive rates)
  relative to one ``numpy.argsort`` of the scores, n = 10³…10⁶, and its
  speed-up over a vectorised Monte Carlo bootstrap of the same dominance
  probabilities (B = 2,000) up to n = 10⁵;
* the 50 × 50 dominance map at n = 10⁵;
* ``cost_curve`` and ``cost_ci`` (Agresti–Coull and percentile) at 101
  values of w relative to argsort, and the same envelope by brute force,
  O(n·|w|), over every distinct threshold (up to n = 10⁵);
* ``compare_cost`` at 101 values of w (each model at its optimal threshold,
  Agresti–Coull, which computes ``p_a_cheaper = P(ΔC* < 0)``, ``ΔC = C_a − C_b``,
  exactly at every w), stratified
  and full bootstrap, in seconds (full with percentile bounds too, which
  builds each pair's W × W table), and the earlier direct route of the full
  bootstrap's paired law (``rocci.cost._paired_law_direct``, O(W³) per
  threshold pair) for comparison at small n.

(The paired vertical comparison has its own benchmark,
``bench/bench_vertical_paired.py``.)

Usage: ``python bench/bench_compare_cost.py [--quick] [--repeats R]``
(``--quick``: n up to 10⁵, one repeat of the slow cells).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import rocci  # noqa: E402
from rocci.cost._common import _scales  # noqa: E402
from rocci.cost.fourier import _paired_law_direct  # noqa: E402


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def paired_data(n, rng, rho=0.6):
    y = rng.random(n) < 0.5
    cov = [[1.0, rho], [rho, 1.0]]
    z = rng.multivariate_normal([0.0, 0.0], cov, n)
    a = z[:, 0] + 1.0 * y
    b = z[:, 1] + 1.2 * y
    return y, a, b


def mc_dominance(y, a, b, ta, tb, B, rng, chunk=200):
    """Monte Carlo stratified bootstrap of P(A dominates) at threshold pairs."""
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    wins = np.zeros(len(ta))
    for start in range(0, B, chunk):
        size = min(chunk, B - start)
        for cls, sign in ((pos, 1), (neg, -1)):
            idx = cls[rng.integers(0, cls.size, (size, cls.size))]
            d = ((a[idx][..., None] >= ta) & (b[idx][..., None] < tb)).sum(1) - (
                (a[idx][..., None] < ta) & (b[idx][..., None] >= tb)).sum(1)
            if sign == 1:
                dtp = d
            else:
                dfp = d
        wins += ((dtp >= 0) & (dfp <= 0) & ~((dtp == 0) & (dfp == 0))).sum(0)
    return wins / B


def brute_envelope(y, s, w):
    """Minimum over every distinct threshold of w(1 − TPR) + (1 − w)FPR, O(n·|w|)."""
    curve = rocci.roc_curve(y, s)
    costs = w[:, None] * (1 - curve.tpr[None, :]) + (1 - w[:, None]) * curve.fpr[None, :]
    return costs.min(axis=1)


def direct_full_p_cheaper(y, a, b, w):
    """The earlier full-bootstrap route: the joint law of each threshold pair by the
    O(W³) mixture over the number of positives drawn, then P(ΔC* < 0) at each w
    (``ΔC = C_a − C_b``: the probability that a is cheaper, ``p_a_cheaper``)."""
    res = rocci.compare_cost(y, a, b, w=w, method="wald")
    n_pos, n_neg, key, law = res.n_pos, res.n_neg, None, None
    out = np.empty(w.size)
    for i in range(w.size):
        cells = ((res.na_pos[i], res.nb_pos[i]), (res.na_neg[i], res.nb_neg[i]))
        if cells != key:
            key, law = cells, _paired_law_direct(*cells, n_pos, n_neg, "full", n_pos + n_neg)
        out[i] = law.cdf(0.0, *_scales(w[i], "full", n_pos + n_neg, n_pos, n_neg), strict=True)[0]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n up to 10^5 only")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(20261122)
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]
    rates = np.linspace(0.01, 0.99, 99)
    w = np.linspace(0, 1, 101)

    print("compare_thresholds (99 pairs at equal total positive rate) and cost curves at 101 w, "
          "as multiples of one argsort")
    print(f"{'n':>9} {'argsort':>9} {'cmp_thr x':>10} {'MC/exact':>9} {'cost_curve x':>13} "
          f"{'cost_ci x':>10} {'ci pct x':>9} {'brute env x':>12}")
    for n in sizes:
        y, a, b = paired_data(n, rng)
        t_sort = median_time(lambda: np.argsort(a), args.repeats)
        t_cmp = median_time(lambda: rocci.compare_thresholds(y, a, b, total_positive_rate=rates), args.repeats)
        t_curve = median_time(lambda: rocci.cost_curve(y, a, w=w), args.repeats)
        t_ci = median_time(lambda: rocci.cost_ci(y, a, w=w), args.repeats)
        t_pct = median_time(lambda: rocci.cost_ci(y, a, w=w, method="percentile"), 1)
        t_brute = median_time(lambda: brute_envelope(y, a, w), 1) if n <= 10**5 else float("nan")
        mc = "—"
        if n <= 10**4:
            res = rocci.compare_thresholds(y, a, b, total_positive_rate=rates)
            ta, tb = res.to_frame()["threshold_a"].to_numpy(), res.to_frame()["threshold_b"].to_numpy()
            t = time.perf_counter()
            mc_dominance(y, a, b, ta, tb, 2000, rng)
            mc = f"{(time.perf_counter() - t) / t_cmp:.0f}x"
        print(f"{n:>9,} {t_sort * 1e3:>7.2f}ms {t_cmp / t_sort:>9.1f}x {mc:>9} {t_curve / t_sort:>12.1f}x "
              f"{t_ci / t_sort:>9.1f}x {t_pct / t_sort:>8.0f}x {t_brute / t_sort:>11.1f}x")

    n = 10**4 if args.quick else 10**5
    y, a, b = paired_data(n, rng)
    grid_a, grid_b = np.quantile(a, np.linspace(0.02, 0.98, 50)), np.quantile(b, np.linspace(0.02, 0.98, 50))
    t_map = median_time(lambda: rocci.dominance_map(y, a, b, thresholds_a=grid_a, thresholds_b=grid_b),
                        args.repeats)
    print(f"\ndominance_map 50 x 50 at n = {n:,}: {t_map:.3f} s")

    print("\ncompare_cost at 101 w (Agresti-Coull; exact p_a_cheaper = P(C_a* - C_b* < 0) at every w), seconds:")
    print(f"{'n':>9} {'pairs':>6} {'stratified':>11} {'full':>8} {'full, percentile':>17} "
          f"{'full, direct route':>19}")
    for n in sizes:
        y, a, b = paired_data(n, rng)
        reps = 1 if (args.quick or n >= 10**5) else args.repeats
        res = rocci.compare_cost(y, a, b, w=w)
        pairs = len(set(zip(res.na_pos, res.nb_pos, res.na_neg, res.nb_neg)))
        t_strat = median_time(lambda: rocci.compare_cost(y, a, b, w=w), reps)
        full = "—"
        if n <= 10**6 and not (args.quick and n > 10**5):
            full = f"{median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap='full'), reps):.2f}"
        pct = "—"
        if n <= 10**5:
            pct = f"{median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap='full', method='percentile'), 1):.2f}"
        direct = "—"
        if n <= 10**4:
            direct = f"{median_time(lambda: direct_full_p_cheaper(y, a, b, w), 1):.2f}"
            got = rocci.compare_cost(y, a, b, w=w, bootstrap="full").p_a_cheaper
            assert np.max(np.abs(direct_full_p_cheaper(y, a, b, w) - got)) < 1e-10, "routes disagree"
        print(f"{n:>9,} {pairs:>6} {t_strat:>11.3f} {full:>8} {pct:>17} {direct:>19}")
    print("(full, percentile bounds: the W x W table of each pair's joint law is built as well; rocci refuses "
          "beyond 4e7 cells, about n = 6·10^5 here, and suggests the stratified bootstrap or a smaller m)")


if __name__ == "__main__":
    main()
