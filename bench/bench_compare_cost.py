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

Issue 17 (the cost rows of "Slow paths"), old path beside new in this run:

* the ROC hull behind every cost call: the distinct-score ROC counts from one
  merge of the sorted classes and Andrew's monotone chain (vectorised pruning
  passes) against the former route (``np.unique``, two binary searches of
  every threshold, Qhull over all ROC points: :func:`qhull_upper_hull`,
  kept here as the reference), continuous and tied scores (100 distinct),
  as multiples of one argsort; the vertices must be identical;
* ``compare_cost`` at the largest n (10⁶; 10⁵ with ``--quick``) at 101 w,
  stratified and full, on the paired data above, on tied scores (100
  distinct) and on two equally good models (every w undecided), in seconds
  and argsorts, with the number of w whose ``P(ΔC* < 0)`` needed a law (not
  settled within 1e-20 by the Chernoff bound); beside it the full bootstrap
  with the Qhull hull patched back in, and with the exact law at every w (the
  Chernoff step patched out);
* ``compare_cost`` from a ``PairedCounts`` (issue 16): the tied data's pair
  table (the same results as the raw arrays, checked), and that table with
  every count times 1,000 (10⁹ instances at n = 10⁶), in seconds;
* fixed costs at n = 10³ (101 w): ``cost_curve``, ``cost_ci`` and
  ``compare_cost`` in milliseconds.

The load average is printed before and after (the machine is shared).

(The paired vertical comparison has its own benchmark,
``bench/bench_vertical_paired.py``.)

Usage: ``python bench/bench_compare_cost.py [--quick] [--repeats R] [--only issue17] [--json PATH]``
(``--quick``: n up to 10⁵, one repeat of the slow cells; ``--only issue17``:
the issue-17 sections only; ``--max-n N``: no n above N, e.g. ``--quick --max-n 1000
--repeats 1 --fixed-repeats 1 --mc-resamples 200`` for a smoke run of seconds; ``--json PATH``: every
printed figure also as a record, ``bench/_record.py``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocci  # noqa: E402
from _record import Record  # noqa: E402
import rocci.cost.hull  # noqa: E402
import rocci.cost.paired  # noqa: E402
from rocci._core.counts import score_counts  # noqa: E402
from rocci.cost._common import _scales  # noqa: E402
from rocci.cost.fourier import _paired_law_direct  # noqa: E402
from rocci.cost.hull import _prune_pass, _roc_counts, _upper_hull  # noqa: E402

#: the record of this run (``--json``): every printed figure
REC = Record("bench_compare_cost", argv=sys.argv[1:])


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
        cells = ((res.n_a_pos[i], res.n_b_pos[i]), (res.n_a_neg[i], res.n_b_neg[i]))
        if cells != key:
            key, law = cells, _paired_law_direct(*cells, n_pos, n_neg, "full", n_pos + n_neg)
        out[i] = law.cdf(0.0, *_scales(w[i], "full", n_pos + n_neg, n_pos, n_neg), strict=True)[0]
    return out


def qhull_upper_hull(fp, tp):
    """The former ROC hull (before issue 17): Qhull over all ROC points (a point
    ``(n−, −1)`` below them keeps the hull two-dimensional), then the exact repair
    in integers (points above the chain added back, points on or below a chord
    removed)."""
    from scipy.spatial import ConvexHull

    def prune(idx):
        while idx.size > 2:
            kept = _prune_pass(fp, tp, idx)
            if kept.size == idx.size:
                break
            idx = kept
        return idx

    n = fp.size
    cand = np.arange(n)
    if n > 2:
        pts = np.vstack([np.column_stack([fp, tp]).astype(np.float64), [[float(fp[-1]), -1.0]]])
        v = ConvexHull(pts).vertices
        cand = np.sort(v[v < n])
    cand = prune(np.union1d(cand, [0, n - 1]))
    hx, hy = fp[cand], tp[cand]
    seg = np.clip(np.searchsorted(hx, fp, side="right") - 1, 0, cand.size - 2)
    above = (hx[seg + 1] - hx[seg]) * (tp - hy[seg]) - (hy[seg + 1] - hy[seg]) * (fp - hx[seg]) > 0
    if above.any():
        cand = prune(np.union1d(cand, np.flatnonzero(above)))
    return cand


def old_roc_counts(counts):
    """The former distinct-threshold counts: a sort of all scores and two binary searches."""
    thresholds = counts.distinct_thresholds()
    return thresholds, counts.n_pos_ge(thresholds).astype(np.int64), counts.n_neg_ge(thresholds).astype(np.int64)


def qhull_from_counts(counts):
    """``_Envelope.from_counts`` as it was: old counts and the Qhull hull."""
    thresholds, tp, fp = old_roc_counts(counts)
    idx = qhull_upper_hull(fp, tp)
    env_cls = rocci.cost.hull._Envelope
    htp, hfp = tp[idx], fp[idx]
    dfp, dtp = np.diff(hfp) * counts.n_pos, np.diff(htp) * counts.n_neg
    return env_cls(thresholds[idx], htp, hfp, counts.n_pos, counts.n_neg, dfp / (dfp + dtp))


class patched:
    """Swap one attribute for the duration of a block (old route in the same run)."""

    def __init__(self, obj, name, value):
        self.obj, self.name, self.value = obj, name, value

    def __enter__(self):
        self.saved = getattr(self.obj, self.name)
        setattr(self.obj, self.name, self.value)

    def __exit__(self, *exc):
        setattr(self.obj, self.name, self.saved)


def never_decided(groups):
    """The Chernoff step patched out: the exact law at every w."""
    return np.full(groups[0][1].shape[0], np.nan)


def tied_data(n, rng, distinct=100):
    y, a, b = paired_data(n, rng)
    edges_a, edges_b = np.quantile(a, np.linspace(0, 1, distinct + 1)), np.quantile(b, np.linspace(0, 1, distinct + 1))
    return y, np.searchsorted(edges_a, a) / distinct, np.searchsorted(edges_b, b) / distinct


def equal_models(n, rng):
    """Two equally good, independent models: ΔC is within noise of 0 at every w."""
    y = rng.random(n) < 0.5
    return y, rng.normal(size=n) + y, rng.normal(size=n) + y


def issue17(args, w):
    big = min(10**5 if args.quick else 10**6, args.max_n)
    rng = np.random.default_rng(17)
    print("\nROC hull behind every cost call (issue 17): distinct-score counts + hull of both classes' "
          "sorted scores, as multiples of one argsort of the same scores")
    print(f"{'n':>9} {'scores':>10} {'argsort':>9} {'points':>8} {'vertices':>8} {'Qhull route x':>14} "
          f"{'monotone chain x':>17} {'speed-up':>9}")
    for n in [m for m in ([10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]) if m <= args.max_n]:
        for kind, (y, a, _) in (("continuous", paired_data(n, rng)), ("tied", tied_data(n, rng))):
            counts = score_counts(a[y], a[~y])
            t_sort = median_time(lambda: np.argsort(a), args.repeats)

            def old():
                _, tp, fp = old_roc_counts(counts)
                return qhull_upper_hull(fp, tp)

            def new():
                _, tp, fp = _roc_counts(counts)
                return _upper_hull(fp, tp)

            assert np.array_equal(old(), new()), "hulls differ"
            t_old, t_new = median_time(old, args.repeats), median_time(new, args.repeats)
            points = _roc_counts(counts)[1].size
            print(f"{n:>9,} {kind:>10} {t_sort * 1e3:>7.2f}ms {points:>8,} {new().size:>8} {t_old / t_sort:>13.1f}x "
                  f"{t_new / t_sort:>16.1f}x {t_old / t_new:>8.1f}x")
            ctx = dict(n=n, data=kind, repeats=args.repeats)
            REC.add("hull/argsort", t_sort, "s", **ctx)
            REC.add("hull/monotone_chain", t_new, "s", ratio_argsort=t_new / t_sort, points=points,
                    vertices=int(new().size), anchor="Qhull route (before issue 17)", anchor_value=t_old,
                    anchor_ratio_argsort=t_old / t_sort, anchor_measured=True, speedup=t_old / t_new, **ctx)

    print(f"\ncompare_cost at n = {big:,}, 101 w, Agresti-Coull (issue 17: target <= 1 s), seconds (x argsort)")
    print(f"{'data':>12} {'argsort':>9} {'laws':>5} {'stratified':>15} {'full':>15} {'full, Qhull hull':>17} "
          f"{'full, law at every w':>21}")
    for kind, (y, a, b) in (("paired", paired_data(big, rng)), ("tied (100)", tied_data(big, rng)),
                            ("equal", equal_models(big, rng))):
        reps = 1 if args.quick else args.repeats
        t_sort = median_time(lambda: np.argsort(a), args.repeats)
        res = rocci.compare_cost(y, a, b, w=w, bootstrap="full")
        laws = int(((res.p_a_cheaper > 0) & (res.p_a_cheaper < 1)).sum())
        t_strat = median_time(lambda: rocci.compare_cost(y, a, b, w=w), reps)
        t_full = median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap="full"), reps)
        with patched(rocci.cost.hull._Envelope, "from_counts", staticmethod(qhull_from_counts)):
            old_hull = rocci.compare_cost(y, a, b, w=w, bootstrap="full")
            t_qhull = median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap="full"), reps)
        with patched(rocci.cost.paired, "_decided_below_zero", never_decided):
            every = rocci.compare_cost(y, a, b, w=w, bootstrap="full")
            t_every = median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap="full"), 1)
        assert np.array_equal(old_hull.p_a_cheaper, res.p_a_cheaper), "the hulls give different results"
        assert np.max(np.abs(every.p_a_cheaper - res.p_a_cheaper)) < 1e-14, "Chernoff step changed a probability"

        def cell(t):
            return f"{t:.3f} ({t / t_sort:.0f}x)"

        print(f"{kind:>12} {t_sort * 1e3:>7.1f}ms {laws:>5} {cell(t_strat):>15} {cell(t_full):>15} "
              f"{cell(t_qhull):>17} {cell(t_every):>21}")
        data = kind.split()[0]
        REC.add("big/argsort", t_sort, "s", n=big, data=data, repeats=args.repeats)
        for key, t, r in (("big/compare_cost/stratified", t_strat, reps), ("big/compare_cost/full", t_full, reps),
                          ("big/compare_cost/full_qhull", t_qhull, reps),
                          ("big/compare_cost/full_law_every_w", t_every, 1)):
            REC.add(key, t, "s", n=big, data=data, w=int(w.size), ratio_argsort=t / t_sort, repeats=r, laws=laws)
    print("(laws: operating points whose P(dC* < 0) needed the exact law; the others are settled within 1e-20 "
          "of 0 or 1 by a Chernoff bound)")

    # Issue 16: the same call on the pair table of the tied scores (rows = distinct (score_a, score_b)
    # pairs with their counts; the table is never expanded), and on that table with every count times
    # 1,000 (n = 10⁹ at 10⁶), against the raw arrays.
    y, a, b = tied_data(big, rng)
    frame = pd.DataFrame({"a": a, "b": b, "y": y})
    table = frame.groupby(["a", "b"]).agg(n_pos=("y", "sum"), n_neg=("y", lambda v: int((~v).sum()))).reset_index()
    pairs = rocci.PairedCounts.from_frame(table, score_a="a", score_b="b")
    huge = rocci.PairedCounts.from_frame(table.assign(n_pos=table.n_pos * 1000, n_neg=table.n_neg * 1000),
                                         score_a="a", score_b="b")
    reps = 1 if args.quick else args.repeats
    print(f"\ncompare_cost from the pair table (issue 16; tied scores, {len(table):,} pair rows), 101 w, seconds")
    print(f"{'bootstrap':>11} {'raw arrays':>11} {'pair table':>11} {'table x 1000':>13}")
    for bootstrap in ("stratified", "full"):
        same = rocci.compare_cost(pairs, w=w, bootstrap=bootstrap).to_frame()
        pd.testing.assert_frame_equal(same, rocci.compare_cost(y, a, b, w=w, bootstrap=bootstrap).to_frame(),
                                      check_exact=True)
        t_raw = median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap=bootstrap), reps)
        t_tab = median_time(lambda: rocci.compare_cost(pairs, w=w, bootstrap=bootstrap), reps)
        t_huge = median_time(lambda: rocci.compare_cost(huge, w=w, bootstrap=bootstrap), reps)
        print(f"{bootstrap:>11} {t_raw:>11.3f} {t_tab:>11.3f} {t_huge:>13.3f}")
        for key, t, n_inst in (("raw", t_raw, big), ("pair_table", t_tab, big),
                               ("pair_table_x1000", t_huge, big * 1000)):
            REC.add(f"big/compare_cost/{bootstrap}/{key}", t, "s", n=n_inst, data="tied", rows=len(table),
                    w=int(w.size), repeats=reps)

    n = 10**3
    y, a, b = paired_data(n, rng)
    reps = args.fixed_repeats or max(args.repeats, 15)
    calls = [("cost_curve", lambda: rocci.cost_curve(y, a, w=w)),
             ("cost_ci", lambda: rocci.cost_ci(y, a, w=w)),
             ("cost_ci full", lambda: rocci.cost_ci(y, a, w=w, bootstrap="full")),
             ("cost_ci percentile", lambda: rocci.cost_ci(y, a, w=w, method="percentile")),
             ("compare_cost", lambda: rocci.compare_cost(y, a, b, w=w)),
             ("compare_cost full", lambda: rocci.compare_cost(y, a, b, w=w, bootstrap="full")),
             ("compare_cost pct", lambda: rocci.compare_cost(y, a, b, w=w, method="percentile"))]
    t_sort = median_time(lambda: np.argsort(a), reps)
    print(f"\nfixed costs at n = {n:,}, 101 w (medians of {reps}; argsort {t_sort * 1e3:.3f} ms)")
    REC.add("fixed/argsort", t_sort, "s", n=n, repeats=reps)
    for name, fn in calls:
        t = median_time(fn, reps)
        print(f"{name:>20} {t * 1e3:>9.1f} ms")
        REC.add("fixed/" + name.replace(" ", "/").replace("pct", "percentile"), t, "s", n=n, w=int(w.size),
                repeats=reps, ratio_argsort=t / t_sort)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n up to 10^5 only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=["issue17"], help="run the issue-17 sections only")
    parser.add_argument("--max-n", type=int, default=10**6, help="no n above this (default 10^6)")
    parser.add_argument("--mc-resamples", type=int, default=2000, help="Monte Carlo resamples B (default 2,000)")
    parser.add_argument("--fixed-repeats", type=int, default=None,
                        help="calls per fixed cost at n = 10^3 (default: max(repeats, 15))")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    w = np.linspace(0, 1, 101)
    if args.only == "issue17":
        issue17(args, w)
        print(f"load average after:  {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
        REC.save(args.json)
        return
    rng = np.random.default_rng(20261122)
    sizes = [m for m in ([10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]) if m <= args.max_n]
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
        mc_ctx = dict(anchor=f"Monte Carlo stratified bootstrap, B={args.mc_resamples}", anchor_measured=False,
                      note="Monte Carlo only up to n = 10^4")
        if n <= 10**4:
            res = rocci.compare_thresholds(y, a, b, total_positive_rate=rates)
            ta, tb = res.to_frame()["threshold_a"].to_numpy(), res.to_frame()["threshold_b"].to_numpy()
            t = time.perf_counter()
            mc_dominance(y, a, b, ta, tb, args.mc_resamples, rng)
            t_mc = time.perf_counter() - t
            mc = f"{t_mc / t_cmp:.0f}x"
            mc_ctx = dict(anchor=f"Monte Carlo stratified bootstrap, B={args.mc_resamples}", anchor_value=t_mc,
                          anchor_measured=True, resamples=args.mc_resamples,
                          anchor_repeats=1, speedup=t_mc / t_cmp)
        print(f"{n:>9,} {t_sort * 1e3:>7.2f}ms {t_cmp / t_sort:>9.1f}x {mc:>9} {t_curve / t_sort:>12.1f}x "
              f"{t_ci / t_sort:>9.1f}x {t_pct / t_sort:>8.0f}x {t_brute / t_sort:>11.1f}x")
        REC.add("argsort", t_sort, "s", n=n, repeats=args.repeats)
        REC.add("compare_thresholds/99", t_cmp, "s", n=n, repeats=args.repeats, ratio_argsort=t_cmp / t_sort,
                **mc_ctx)
        REC.add("cost_curve/101", t_curve, "s", n=n, repeats=args.repeats, ratio_argsort=t_curve / t_sort)
        REC.add("cost_ci/agresti_coull/101", t_ci, "s", n=n, repeats=args.repeats, ratio_argsort=t_ci / t_sort)
        REC.add("cost_ci/percentile/101", t_pct, "s", n=n, repeats=1, ratio_argsort=t_pct / t_sort)
        if n <= 10**5:
            REC.add("brute_envelope/101", t_brute, "s", n=n, repeats=1, ratio_argsort=t_brute / t_sort)
        else:
            REC.add("brute_envelope/101", None, "s", n=n, note="brute force only up to n = 10^5")

    n = min(10**4 if args.quick else 10**5, args.max_n)
    y, a, b = paired_data(n, rng)
    grid_a, grid_b = np.quantile(a, np.linspace(0.02, 0.98, 50)), np.quantile(b, np.linspace(0.02, 0.98, 50))
    t_map = median_time(lambda: rocci.dominance_map(y, a, b, thresholds_a=grid_a, thresholds_b=grid_b),
                        args.repeats)
    print(f"\ndominance_map 50 x 50 at n = {n:,}: {t_map:.3f} s")
    REC.add("dominance_map/50x50", t_map, "s", n=n, repeats=args.repeats)

    print("\ncompare_cost at 101 w (Agresti-Coull; exact p_a_cheaper = P(C_a* - C_b* < 0) at every w), seconds:")
    print(f"{'n':>9} {'pairs':>6} {'stratified':>11} {'full':>8} {'full, percentile':>17} "
          f"{'full, direct route':>19}")
    for n in sizes:
        y, a, b = paired_data(n, rng)
        reps = 1 if (args.quick or n >= 10**5) else args.repeats
        res = rocci.compare_cost(y, a, b, w=w)
        pairs = len(set(zip(res.n_a_pos, res.n_b_pos, res.n_a_neg, res.n_b_neg)))
        t_strat = median_time(lambda: rocci.compare_cost(y, a, b, w=w), reps)
        raw = {"full": None, "full_percentile": None, "full_direct": None}
        full = "—"
        if n <= 10**6 and not (args.quick and n > 10**5):
            raw["full"] = median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap='full'), reps)
            full = f"{raw['full']:.2f}"
        pct = "—"
        if n <= 10**5:
            t_pct = median_time(lambda: rocci.compare_cost(y, a, b, w=w, bootstrap="full", method="percentile"), 1)
            pct = f"{t_pct:.2f}"
            raw["full_percentile"] = t_pct
        direct = "—"
        if n <= 10**4:
            raw["full_direct"] = median_time(lambda: direct_full_p_cheaper(y, a, b, w), 1)
            direct = f"{raw['full_direct']:.2f}"
            got = rocci.compare_cost(y, a, b, w=w, bootstrap="full").p_a_cheaper
            assert np.max(np.abs(direct_full_p_cheaper(y, a, b, w) - got)) < 1e-10, "routes disagree"
        print(f"{n:>9,} {pairs:>6} {t_strat:>11.3f} {full:>8} {pct:>17} {direct:>19}")
        REC.add("compare_cost/stratified/101", t_strat, "s", n=n, pairs=pairs, repeats=reps)
        for route, t in raw.items():
            REC.add(f"compare_cost/{route}/101", t, "s", n=n, pairs=pairs, repeats=reps if route == "full" else 1,
                    **({"note": "not run at this n"} if t is None else {}))
    print("(full, percentile bounds: the W x W table of each pair's joint law is built as well; rocci refuses "
          "beyond 4e7 cells, about n = 6·10^5 here, and suggests the stratified bootstrap or a smaller m)")
    issue17(args, w)
    print(f"load average after:  {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    REC.save(args.json)


if __name__ == "__main__":
    main()
