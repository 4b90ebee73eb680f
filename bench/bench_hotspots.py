"""Hot spots of issues 13/17, each beside its anchor measured in the same run.

For each call: the median wall time over ``--repeats`` runs, the median ratio
to one ``numpy.argsort`` of the same scores (timed right before each run), the
anchor (the old rocci path, pROC or scikit-learn when installed) timed the same
way, and the load average at the time.  Run: ``python bench/bench_hotspots.py``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

import numpy as np

import rocci
import rocci.intervals as intervals
from rocci.exact import binomial_quantile


def _load() -> str:
    return "load %.1f/%.1f/%.1f" % os.getloadavg()


def measure(fn, scores, repeats):
    """Median seconds and median ratio to one argsort of ``scores``, interleaved."""
    times, ratios = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        np.argsort(scores)
        base = time.perf_counter() - t
        t = time.perf_counter()
        fn()
        el = time.perf_counter() - t
        times.append(el)
        ratios.append(el / base)
    return float(np.median(times)), float(np.median(ratios))


def report(name, fn, scores, repeats, anchor_name=None, anchor=None, anchor_repeats=None):
    t, r = measure(fn, scores, repeats)
    line = f"{name:<44} {t:8.3f} s  {r:7.1f} x argsort"
    if anchor is not None:
        ta, ra = measure(anchor, scores, anchor_repeats or repeats)
        line += f" | {anchor_name}: {ta:8.3f} s {ra:7.1f} x argsort ({ta / t:.1f}x rocci's time)"
    print(line + f"  [{_load()}]", flush=True)


def _old_binomial_quantiles(qs, m, p):
    p = np.asarray(p, dtype=float)
    return [binomial_quantile(q, m, p).reshape(p.shape) for q in qs]


class _OldQuantiles:
    """The percentile path as it was (one exact CDF walk per proportion)."""

    def __enter__(self):
        self.saved = intervals._binomial_quantiles
        intervals._binomial_quantiles = _old_binomial_quantiles

    def __exit__(self, *exc):
        intervals._binomial_quantiles = self.saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--skip-old", action="store_true", help="do not time the old rocci paths (slow)")
    args = ap.parse_args()
    n = args.n
    rng = np.random.default_rng(2009)
    y = rng.random(n) < 0.5
    s = rng.normal(size=n) + y
    print(f"# bench_hotspots  {datetime.datetime.now():%Y-%m-%d %H:%M}  n={n:,}  "
          f"{platform.machine()} {os.cpu_count()} cpus  numpy {np.__version__}  [{_load()}]")

    def old_percentile():
        with _OldQuantiles():
            rocci.threshold_ci(y, s, method="percentile")

    report("threshold_ci wilson, every threshold", lambda: rocci.threshold_ci(y, s), s, args.repeats)
    report("threshold_ci percentile, every threshold", lambda: rocci.threshold_ci(y, s, method="percentile"),
           s, args.repeats, *(() if args.skip_old else ("old rocci percentile", old_percentile, 1)))


if __name__ == "__main__":
    main()
