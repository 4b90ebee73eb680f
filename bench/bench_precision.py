"""Speed of rocci.precision at 10^6 rows, as seconds and multiples of one numpy.argsort of the same scores.

* one call of ``precision_ci`` (stratified, percentile) at ONE threshold, at thresholds near the top, in the
  middle and near the bottom of the ranking (what the dashboard asks for), and ``metric_ci`` with F1 and MCC
  and the full bootstrap in the middle;
* the marginal time per threshold (a call with all nine thresholds, minus the input's own cost, / 9);
* precision intervals at the 99 recall levels 0.01 ... 0.99 (percentile, the default, and the score interval);
* precision with the score interval at EVERY threshold (every distinct score, ~10^6 thresholds), timed whole
  (one call, ``method="score"``: the moments of all thresholds at once by quadrature);
* with ``--every-threshold K``: the same with Wald's interval, timed whole, and the percentile bounds at every
  threshold, extrapolated from K thresholds spread over the ranking (each needs its own exact law: too many
  calls to time whole);
* with ``--explorer N``: the Threshold explorer's seven metrics (``metric_ci`` at one threshold each) from a
  ``ScoreCounts`` table standing for N instances (10^4 distinct binormal scores, 1% and 50% positives,
  thresholds with half and 0.1% of the instances predicted positive), seconds per metric and in total.

Medians of several runs; the load average is printed before and after, the argsort measured in the same run.
Usage (from the checkout): PYTHONPATH=. python bench/bench_precision.py [--rows N] [--runs R] [--skip-recall]
[--repeat-recall] [--every-threshold K] [--explorer N] [--quick] [--json PATH]  (``--quick``: 10^4 rows, one run;
``--json PATH``: every printed figure also as a record, ``bench/_record.py``).
Running it with PYTHONPATH pointing at an older checkout times that one (calls it refuses are reported).

Quoted from the first run of the old implementation (2026-11-23, the project's 2-core shared machine; tables
of cells; load 6-8, argsort 71 ms; not re-measured): 1.1 s per mid-ranking threshold, 8 of 20 sampled
thresholds over its 12M-cell limit (InputError), 56 ms near the top; 99 recall levels 223 s.  Figures of the
current one: bench/README.md, section "bench_precision.py" (generated from bench/results/bench_precision.json).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _record import Record  # noqa: E402


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
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-recall", action="store_true")
    parser.add_argument("--repeat-recall", action="store_true", help="time the recall levels --runs times at 10^6 too")
    parser.add_argument("--every-threshold", type=int, default=0, metavar="K",
                        help="also time Wald's interval at every threshold, and estimate the percentile bounds at "
                             "every threshold from K thresholds spread over the ranking")
    parser.add_argument("--explorer", type=float, default=0, metavar="N",
                        help="also time the explorer's metrics from a ScoreCounts of N instances (e.g. 1e8)")
    parser.add_argument("--quick", action="store_true", help="10^4 rows, one run (smoke run)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = parser.parse_args()
    rec = Record("bench_precision", argv=sys.argv[1:])
    if args.quick:
        args.rows, args.runs = 10_000, 1

    import rocci
    from rocci import InputError
    from rocci.precision import metric_ci, precision_ci

    rng = np.random.default_rng(0)
    n = args.rows
    y = (rng.random(n) < args.share).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    print(f"rocci from {os.path.dirname(rocci.__file__)}")
    print(f"rows {n:,}, positives {int(y.sum()):,}, load average {os.getloadavg()}")
    base = median_time(lambda: np.argsort(s), 5)
    print(f"numpy.argsort: {base * 1e3:.1f} ms")
    rec.add("argsort", base, "s", n=n, repeats=5)

    desc = np.sort(s)[::-1]
    places = {
        "top (100, 1,000, 10,000 predicted positive)": desc[[99, 999, 9999]],
        "middle (30%, 50%, 70% predicted positive)": desc[[int(0.3 * n), int(0.5 * n), int(0.7 * n)]],
        "bottom (99%, 99.9%, all but 10 predicted positive)": desc[[int(0.99 * n), int(0.999 * n), n - 11]],
    }

    def one(fn):
        try:
            return median_time(fn, args.runs)
        except InputError as exc:
            return f"refused ({str(exc)[:60]}…)"

    def show(label, t, key, **ctx):
        if isinstance(t, str):
            print(f"  {label}: {t}")
            rec.add(key, None, "s", n=n, label=label, refused=t, repeats=args.runs, **ctx)
        else:
            print(f"  {label}: {t:.3f} s = {t / base:.1f} argsorts")
            rec.add(key, t, "s", n=n, label=label, ratio_argsort=t / base, repeats=args.runs, **ctx)

    print("one call at ONE threshold (median per threshold of the three):")
    for place, ts in places.items():
        times = [one(lambda t=t: precision_ci(y, s, thresholds=[t])) for t in ts]
        num = [t for t in times if not isinstance(t, str)]
        refused = len(times) - len(num)
        show(f"precision, {place}", float(np.median(num)) if num else times[0],
             "precision/one_threshold/" + place.split()[0], refused_of_3=refused, thresholds_timed=3)
        if refused:
            print(f"    {refused} of 3 refused")
    mid = places["middle (30%, 50%, 70% predicted positive)"][1:2]
    show("F1, middle (50%)", one(lambda: metric_ci(y, s, metric="f1", thresholds=mid)), "f1/one_threshold/middle")
    show("MCC, middle (50%)", one(lambda: metric_ci(y, s, metric="mcc", thresholds=mid)), "mcc/one_threshold/middle")
    show("precision, full bootstrap, middle (50%)", one(lambda: precision_ci(y, s, thresholds=mid,
                                                                            bootstrap="full")),
         "precision/full_bootstrap/middle")
    every = np.concatenate([places[k] for k in places])
    try:
        t_all = median_time(lambda: precision_ci(y, s, thresholds=every), args.runs)
        t_in = median_time(lambda: precision_ci(y, s, thresholds=every[:1]), args.runs)
        show("marginal time per threshold (9 thresholds in one call)", (t_all - t_in) / (every.size - 1),
             "precision/marginal_per_threshold")
    except InputError:
        print("  marginal time per threshold: refused (some threshold over the cell limit)")
        rec.add("precision/marginal_per_threshold", None, "s", n=n, refused="some threshold over the cell limit")

    if not args.skip_recall:
        levels = np.round(np.linspace(0.01, 0.99, 99), 2)
        runs = 1 if n >= 500_000 and not args.repeat_recall else args.runs
        t_rec = median_time(lambda: precision_ci(y, s, recall=levels), runs)
        print(f"99 recall levels: {t_rec:.2f} s = {t_rec / base:.1f} argsorts ({t_rec / 99 * 1e3:.1f} ms per level)")
        rec.add("precision/recall_99", t_rec, "s", n=n, ratio_argsort=t_rec / base, repeats=runs,
                per_level=t_rec / 99)
        try:
            t_sc = median_time(lambda: precision_ci(y, s, recall=levels, method="score"), runs)
            print(f"99 recall levels, score interval: {t_sc:.2f} s = {t_sc / base:.1f} argsorts")
            rec.add("precision/recall_99/score", t_sc, "s", n=n, ratio_argsort=t_sc / base, repeats=runs)
        except (InputError, ValueError) as exc:  # an older checkout without method="score"
            print(f"99 recall levels, score interval: not available ({str(exc)[:60]}…)")
    else:
        rec.add("precision/recall_99", None, "s", n=n, note="not run (--skip-recall)")

    # Every distinct score a threshold, the score interval (and Wald's): timed whole, one call, medians of --runs.
    # The moments of every threshold at once (rocci/precision/_moments.py), no law object per threshold.
    n_thr = np.unique(s).size
    for method in ("score", "wald"):
        if method == "wald" and not args.every_threshold:
            continue
        t_every = median_time(lambda: precision_ci(y, s, method=method), args.runs)
        print(f"every threshold ({n_thr:,}), {method}, timed whole: {t_every:.2f} s = {t_every / base:.1f} argsorts "
              f"(load {os.getloadavg()[0]:.2f})")
        rec.add(f"precision/every_threshold_whole/{method}", t_every, "s", n=n, ratio_argsort=t_every / base,
                thresholds=n_thr, repeats=args.runs)
    if args.every_threshold:
        # The percentile bounds still need each threshold's exact law: far too many calls to time whole at 10^6
        # rows.  Timed on thresholds spread evenly over the ranking (one call), minus the input's own cost,
        # times their number.
        sample = desc[np.unique(np.linspace(0, n - 1, args.every_threshold).astype(int))]
        for method in ("percentile",):
            t_k = median_time(lambda: precision_ci(y, s, thresholds=sample, method=method), 1)
            t_1 = median_time(lambda: precision_ci(y, s, thresholds=sample[:1], method=method), 1)
            per = (t_k - t_1) / (sample.size - 1)
            total = t_1 + per * n_thr
            print(f"every threshold ({n_thr:,}), {method}: {per * 1e3:.1f} ms per threshold -> {total:.0f} s = "
                  f"{total / base:.0f} argsorts (extrapolated from {sample.size} thresholds)")
            rec.add(f"precision/every_threshold/{method}", total, "s", n=n, ratio_argsort=total / base,
                    thresholds=n_thr, sampled=sample.size, per_threshold=per, note="extrapolated")
    if args.explorer:
        explorer(int(args.explorer), rec)
    print(f"load average after: {os.getloadavg()}")
    rec.save(args.json)


def explorer_table(n: int, share: float, k: int = 10_000, seed: int = 0):
    """A ScoreCounts of ``n`` instances on ``k`` distinct scores: binormal (negatives N(0, 1), positives
    N(1.5, 1)) counts drawn by numpy's multinomial, no rows."""
    import rocci
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    grid = np.linspace(-5, 6.5, k)
    edges = np.r_[-np.inf, (grid[1:] + grid[:-1]) / 2, np.inf]
    pp, pn = np.diff(norm.cdf(edges, 1.5)), np.diff(norm.cdf(edges, 0))
    n_pos = int(round(n * share))
    return rocci.ScoreCounts.from_counts(grid, rng.multinomial(n_pos, pp / pp.sum()),
                                         rng.multinomial(n - n_pos, pn / pn.sum()))


def explorer(n: int, rec):
    """The Threshold explorer's metrics (ui/cache/explore.py) at one threshold of a table of ``n`` instances."""
    from rocci.precision import metric_ci

    metrics = ("accuracy", "precision", "recall", "specificity", "npv", "f1", "mcc")
    print(f"Threshold explorer from a ScoreCounts of {n:.0e} instances (10^4 distinct scores), "
          f"load {os.getloadavg()}:")
    for share in (0.01, 0.5):
        counts = explorer_table(n, share)
        v, p, q = counts.table()[:3]
        above = (p + q)[::-1].cumsum()[::-1]
        for place, x in (("middle", 0.5), ("top", 0.001)):
            t = float(v[min(np.searchsorted(-above, -above[0] * x), v.size - 1)])
            times = {}
            for metric in metrics:
                t0 = time.perf_counter()
                metric_ci(counts, metric=metric, thresholds=[t])
                times[metric] = time.perf_counter() - t0
            total = sum(times.values())
            print(f"  {share:.0%} positives, {place}: total {total:.2f} s ("
                  + ", ".join(f"{k} {v:.2f}" for k, v in times.items()) + ")")
            rec.add(f"explorer/{n:.0e}/{share}/{place}", total, "s", n=n, share=share, per_metric=times,
                    note="first call at this threshold (binomial windows computed once, shared by the metrics)")


if __name__ == "__main__":
    main()
