"""Benchmark of the gain at fixed depths, ``gain_ci(..., total_positive_rate=[0.01, 0.1, 0.5])`` (rocci 0.2's
``depth=``), against the code before
the per-draw law (the whole package at ``_ANCHOR``, imported under another name) in the same run.

Cases: binormal scores (positives shifted by 1.2), 10⁴–10⁶ rows in memory, continuous or rounded (ties
between the classes), and counts standing for 10⁸ instances in 1,000 distinct scores (the anchor refuses
those in the dashboard; its own law would need ~10⁹ products per depth, so it is not run there).  For each
case: the median time of the call (``--repeats``), the anchor's time (or "refused" with its message), the
median time of ``numpy.argsort`` of the same scores and the ratios, and the largest difference of the two
codes' interval bounds (0 without ties; with ties the two tie conventions differ).

Usage: ``python bench/bench_gain_depth.py [--quick] [--repeats 3] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocci  # noqa: E402
from _record import Record, load_average  # noqa: E402
from bench_hotspots import _git_package  # noqa: E402

#: The last commit with the per-instance tie order at fixed depths.
_ANCHOR = "231072b"
DEPTHS = [0.01, 0.1, 0.5]


def _median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def _rows(n, digits, seed=1, share=0.1):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(np.int8)
    s = rng.normal(0.0, 1.0, n) + 1.2 * y
    return y, (np.round(s, digits) if digits is not None else s)


def _counts(n, distinct, share=0.1, seed=2):
    from scipy import stats

    edges = np.linspace(-6, 7, distinct + 1)
    rng = np.random.default_rng(seed)
    p_pos, p_neg = np.diff(stats.norm.cdf(edges, 1.2)), np.diff(stats.norm.cdf(edges))
    P = rng.multinomial(int(n * share), p_pos / p_pos.sum())
    N = rng.multinomial(n - int(n * share), p_neg / p_neg.sum())
    keep = P + N > 0
    frame = pd.DataFrame({"score": edges[1:][keep], "pos": P[keep], "neg": N[keep]})
    return rocci.ScoreCounts.from_frame(frame, score="score", n_pos="pos", n_neg="neg")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="10⁴ and 10⁵ rows only")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    old = _git_package(_ANCHOR, "_rocci_gain_anchor")
    rec = Record("bench_gain_depth", argv)
    cases = [(10**4, 1), (10**4, None), (10**5, 2), (10**5, None)]
    if not args.quick:
        cases += [(10**6, None), (10**6, 3), ("counts", 10**8)]
    print(f"gain_ci(total_positive_rate={DEPTHS}); anchor = rocci at {_ANCHOR}; load {load_average()}")
    print(f"{'case':<34}{'now s':>8}{'anchor s':>10}{'ratio':>8}{'argsort s':>10}{'now/argsort':>12}  max |Δbound|")
    for case in cases:
        if case[0] == "counts":
            data = (_counts(case[1], 1000),)
            label = "counts of 10^8 in 1,000 scores"
            scores = None
        else:
            y, s = _rows(*case)
            data = (y, s)
            scores = s
            label = f"{case[0]:.0e} rows, " + ("no ties" if case[1] is None else f"{case[1]} decimals")
        reps = args.repeats if case[0] != 10**6 else 1
        t_now, res = _median_time(lambda: rocci.precision.gain_ci(*data, total_positive_rate=DEPTHS), reps)
        t_old, old_res, note = float("nan"), None, ""
        if old is not None and case[0] != "counts":
            try:
                t_old, old_res = _median_time(lambda: old.precision.gain_ci(*data, depth=DEPTHS), reps)  # 0.2 API
            except old.InputError as exc:
                note = "anchor refused: " + str(exc)[:50] + "…"
        elif case[0] == "counts":
            note = "anchor not run (refused in the dashboard above ROCCI_MAX_INSTANCES)"
        t_sort = _median_time(lambda: np.argsort(scores), 5)[0] if scores is not None else float("nan")
        diff = ""
        if old_res is not None:
            a, b = res.to_frame(), old_res.to_frame()
            cols = ["gain_low", "gain_high"]
            diff = f"{np.abs(a[cols].to_numpy() - b[cols].to_numpy()).max():.2e}"
        print(f"{label:<34}{t_now:>8.2f}{t_old:>10.2f}{t_now / t_old:>8.3f}{t_sort:>10.4f}{t_now / t_sort:>12.1f}  "
              f"{diff}{note}", flush=True)
        rec.add(f"gain_ci_depth/{label}", t_now, unit="s", anchor=f"rocci@{_ANCHOR}", anchor_value=t_old,
                ratio_argsort=t_now / t_sort if scores is not None else None, repeats=reps, note=note)
    rec.save(args.json)


if __name__ == "__main__":
    main()
