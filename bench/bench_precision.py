"""Speed of rocci.precision at 10^6 rows, as seconds and multiples of one numpy.argsort of the same scores.

* one call of ``precision_ci`` (stratified, percentile) at ONE threshold, at thresholds near the top, in the
  middle and near the bottom of the ranking (what the dashboard asks for), and ``metric_ci`` with F1 and MCC
  and the full bootstrap in the middle;
* the marginal time per threshold (a call with all nine thresholds, minus the input's own cost, / 9);
* precision intervals at the 99 recall levels 0.01 ... 0.99.

Medians of several runs; the load average is printed before and after, the argsort measured in the same run.
Usage (from the checkout): PYTHONPATH=. python bench/bench_precision.py [--rows N] [--runs R] [--skip-recall]
Running it with PYTHONPATH pointing at an older checkout times that one (calls it refuses are reported).

First run of the old implementation (tables of cells; load 6-8 on 2 shared cores, argsort 71 ms): 1.1 s per
mid-ranking threshold, 8 of 20 sampled thresholds over its 12M-cell limit (InputError), 56 ms near the top;
99 recall levels 223 s.  Figures of the current one: bench/README.md, section "bench_precision.py".
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


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
    args = parser.parse_args()

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

    def show(label, t):
        if isinstance(t, str):
            print(f"  {label}: {t}")
        else:
            print(f"  {label}: {t:.3f} s = {t / base:.1f} argsorts")

    print("one call at ONE threshold (median per threshold of the three):")
    for place, ts in places.items():
        times = [one(lambda t=t: precision_ci(y, s, thresholds=[t])) for t in ts]
        num = [t for t in times if not isinstance(t, str)]
        refused = len(times) - len(num)
        show(f"precision, {place}", float(np.median(num)) if num else times[0])
        if refused:
            print(f"    {refused} of 3 refused")
    mid = places["middle (30%, 50%, 70% predicted positive)"][1:2]
    show("F1, middle (50%)", one(lambda: metric_ci(y, s, metric="f1", thresholds=mid)))
    show("MCC, middle (50%)", one(lambda: metric_ci(y, s, metric="mcc", thresholds=mid)))
    show("precision, full bootstrap, middle (50%)", one(lambda: precision_ci(y, s, thresholds=mid,
                                                                            bootstrap="full")))
    every = np.concatenate([places[k] for k in places])
    try:
        t_all = median_time(lambda: precision_ci(y, s, thresholds=every), args.runs)
        t_in = median_time(lambda: precision_ci(y, s, thresholds=every[:1]), args.runs)
        show("marginal time per threshold (9 thresholds in one call)", (t_all - t_in) / (every.size - 1))
    except InputError:
        print("  marginal time per threshold: refused (some threshold over the cell limit)")

    if not args.skip_recall:
        levels = np.round(np.linspace(0.01, 0.99, 99), 2)
        rec = median_time(lambda: precision_ci(y, s, recall=levels), 1 if n >= 500_000 else args.runs)
        print(f"99 recall levels: {rec:.2f} s = {rec / base:.1f} argsorts ({rec / 99 * 1e3:.1f} ms per level)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
