"""Benchmark of ``compare_vertical`` at one FPR level for a model against a near-copy of itself, against the
code before the wider series and difference routes (the whole package at ``_ANCHOR``, imported under another
name) in the same run.

Model a: binormal scores, 10% positives shifted by 1.2; model b = a + N(0, ε²) (ε = 0.03, 0.01, 0.003: the
two rankings differ by a few swaps near every threshold, the case where the Lancaster series needs
thousands of terms and the draws in the two top sets' difference number hundreds).  For each case: the
median time of ``compare_vertical(y, a, b, fpr=[0.1])`` (``--repeats``), the anchor's time, the route of the
joint law of the two thresholds (``series``, or ``quadrature``: the fallback), the median time of
``numpy.argsort`` of the scores and the ratio, and the largest difference of the two codes' laws of ΔTPR.
The anchor is not run at 10⁶ rows for ε = 0.01 and 0.003 (258 s for ε = 0.01 on 2026-11-26, longer
for 0.003); ``--skip-slow-anchor``: only up to 10⁵ rows.

Usage: ``python bench/bench_near_copy.py [--quick] [--repeats 3] [--json PATH]``.
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
from rocci.compare import vertical as vertical_paired  # noqa: E402

#: The last commit with the narrower routes (series up to 4,000 terms, difference sums up to 160 draws).
_ANCHOR = "51217cc"
FPR = 0.1


def _median_time(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def _data(n, eps, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    a = rng.normal(size=n) + 1.2 * y
    return y, a, a + eps * rng.normal(size=n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="10⁴ rows only")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-slow-anchor", action="store_true", help="run the anchor up to 10⁵ rows only")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    old = _git_package(_ANCHOR, "_rocci_near_copy_anchor")
    rec = Record("bench_near_copy", argv)
    cases = [(10**4, 0.01)] if args.quick else [(10**5, 0.03), (10**5, 0.01), (10**5, 0.003),
                                                (10**6, 0.03), (10**6, 0.01), (10**6, 0.003)]
    # The anchor at 10^6 rows: ε = 0.01 took 258 s on 2026-11-26 (quadrature), ε = 0.003 longer; 0.03 is run.
    slow_anchor = {(10**6, 0.01), (10**6, 0.003)}
    routes = []
    spy_target = vertical_paired._joint_threshold_law

    def spy(*a, **k):
        routes.append("quadrature")
        return spy_target(*a, **k)

    vertical_paired._joint_threshold_law = spy
    print(f"compare_vertical(y, a, a + N(0, ε²), fpr=[{FPR}]), 10% positives; anchor = rocci at {_ANCHOR}; "
          f"load {load_average()}")
    print(f"{'case':<24}{'now s':>8}{'route':>12}{'anchor s':>10}{'ratio':>8}{'argsort s':>10}{'× argsort':>10}"
          f"  max |Δ law|")
    for n, eps in cases:
        y, a, b = _data(n, eps)
        label = f"{n:.0e} rows, ε = {eps:g}"
        reps = args.repeats if n < 10**6 else 1
        routes.clear()
        t_now, res = _median_time(lambda: rocci.compare_vertical(y, a, b, fpr=[FPR]), reps)
        route = "quadrature" if routes else "series"
        t_old, old_res, note = float("nan"), None, ""
        skip = (n, eps) in slow_anchor or (args.skip_slow_anchor and n >= 10**6)
        if old is not None and not skip:
            t_old, old_res = _median_time(lambda: old.compare_vertical(y, a, b, fpr=[FPR]), 1)
        elif old is not None:
            note = "anchor not run (over 4 minutes: 258 s at ε = 0.01 on 2026-11-26)"
        t_sort = _median_time(lambda: np.argsort(a), 5)[0]
        diff = ""
        if old_res is not None:
            diff = f"{np.abs(res.distribution(0)[1] - old_res.distribution(0)[1]).max():.1e}"
        print(f"{label:<24}{t_now:>8.2f}{route:>12}{t_old:>10.2f}{t_now / t_old:>8.3f}{t_sort:>10.4f}"
              f"{t_now / t_sort:>10.1f}  {diff}{note}", flush=True)
        rec.add(f"compare_vertical_near_copy/{label}", t_now, unit="s", anchor=f"rocci@{_ANCHOR}",
                n=n, eps=eps, anchor_value=t_old, ratio_argsort=t_now / t_sort, repeats=reps,
                note=f"route {route}; {note}".strip())
    vertical_paired._joint_threshold_law = spy_target
    rec.save(args.json)


if __name__ == "__main__":
    main()
