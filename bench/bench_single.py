#!/usr/bin/env python
"""Benchmark rocci's exact bootstrap intervals for one model.

For n = 10^3 … 10^6 instances (10^7 with ``--big``) of binormal data
(positives N(1, 1), negatives N(0, 1), half each, seeded) this prints:

1. the median time of ``numpy.argsort`` of the same scores: the unit of time;
2. the time of each rocci call as a multiple of that unit:
   ``threshold_ci`` at every distinct threshold (Wilson), at 99 thresholds
   (total positive rate 0.01 … 0.99, percentile), at every distinct threshold
   with percentile (n <= 10^5 only: one exact binomial quantile per threshold),
   and ``vertical_ci`` at its 99 default FPR levels (percentile, Wald);
3. the peak memory of each call (tracemalloc, measured in a separate pass from
   the timings so that tracing does not slow the timed calls);
4. the speed-up over a vectorised Monte Carlo stratified bootstrap with
   B = 2,000 resamples computing the same intervals (n <= 10^5);
5. R's pROC on the same n = 10^4 data (when Rscript and r-cran-proc are
   installed) and scikit-learn at every n (when installed:
   ``pip install -r bench/requirements.txt``), measured in this run.
   scikit-learn computes curves and the AUC with no intervals: its row says
   what rocci's exact intervals cost beyond the bare curve.

Times are medians over repeats (``time.perf_counter``); calls shorter than
20 ms are looped so that each repeat lasts at least 20 ms.  The tables are
printed as text, then once more as Markdown.  See bench/README.md.

Usage::

    python bench/bench_single.py            # n = 10^3 … 10^6   (a few minutes)
    python bench/bench_single.py --quick    # n = 10^3, 10^4    (smoke run, seconds)
    python bench/bench_single.py --big      # adds n = 10^7     (needs a few GB)
    python bench/bench_single.py --json bench/results/bench_single.json   # also the record
    python bench/bench_single.py --sizes 1000 --repeats 1 --resamples 200  # tiny (tests)

``--json PATH`` writes every printed figure with ``bench/_record.py`` (seconds, ratios
to argsort, bytes, the Monte Carlo, pROC and scikit-learn anchors with whether they
were measured in this run, the repeats and the load average of each n).
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import statistics
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rocci  # noqa: E402
from _record import Record, load_average  # noqa: E402

#: 99 total positive rates / FPR levels: 0.01, 0.02, …, 0.99.
LEVELS_99 = np.round(np.linspace(0.01, 0.99, 99), 2)
CONFIDENCE = 0.95

#: R's pROC at n = 10^4 (binormal, half positive), measured in the same run by
#: :func:`measure_proc` when Rscript and pROC are installed (Debian: r-base-core,
#: r-cran-proc); otherwise the table says "pROC not installed: no comparison".
PROC_CALLS = {
    "thr99": "pROC::ci.thresholds (99 thresholds, 2,000 resamples)",
    "vert": "pROC::ci.se (99 specificities, 2,000 resamples)",
}


def measure_proc(seed: int) -> dict | None:
    """Elapsed seconds of pROC's ci.thresholds and ci.se on this script's n = 10^4 data, or None."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("Rscript") is None:
        return None
    y, s = binormal(10**4, seed)
    from rocci._core.counts import score_counts
    from rocci.roc.threshold import thresholds_for_total_positive_rate

    t = thresholds_for_total_positive_rate(score_counts(s[y == 1], s[y == 0]), LEVELS_99)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "d.csv")
        np.savetxt(path, np.column_stack([y, s]), delimiter=",", fmt="%.17g", header="y,s", comments="")
        script = (
            "suppressMessages(library(pROC)); set.seed(1)\n"
            f"d <- read.csv('{path}'); r <- roc(d$y, d$s, levels=c(0,1), direction='<', quiet=TRUE)\n"
            f"th <- c({','.join(repr(float(v)) for v in t)})\n"
            "a <- system.time(ci.thresholds(r, thresholds=th, boot.n=2000, progress='none'))[['elapsed']]\n"
            f"b <- system.time(ci.se(r, specificities=c({','.join(repr(float(1 - v)) for v in LEVELS_99)}), "
            "boot.n=2000, progress='none'))[['elapsed']]\n"
            "cat(a, b, '\\n')\n"
        )
        out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    a, b = (float(v) for v in out.stdout.split()[-2:])
    return {"thr99": a, "vert": b, "load": os.getloadavg()}


# (key, column label, maximum n or None)
CALLS = [
    ("thr_all_wilson", "threshold_ci all t, wilson", None),
    ("thr99_pct", "threshold_ci 99 t, percentile", None),
    ("thr_all_pct", "threshold_ci all t, percentile", 10**5),
    ("vert_pct", "vertical_ci 99, percentile", None),
    ("vert_wald", "vertical_ci 99, wald", None),
]

MIN_REPEAT_TIME = 0.02  # seconds: shorter calls are looped within one repeat
MC_CHUNK_ELEMENTS = 1 << 22  # draws per chunk and class (≈ 32 MB per int64 array)


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------
def binormal(n: int, seed: int):
    """``n`` labels (half positive, first half of the draws) and scores, shuffled."""
    rng = np.random.default_rng(seed)
    n_pos = n // 2
    y = np.zeros(n, dtype=np.int8)
    y[:n_pos] = 1
    s = np.concatenate([rng.normal(1.0, 1.0, n_pos), rng.normal(0.0, 1.0, n - n_pos)])
    perm = rng.permutation(n)
    return y[perm], s[perm]


# ---------------------------------------------------------------------------
# Monte Carlo stratified bootstrap (the baseline)
# ---------------------------------------------------------------------------
def _rows_per_chunk(size: int) -> int:
    return max(1, MC_CHUNK_ELEMENTS // max(size, 1))


def _index_dtype(size: int):
    return np.int32 if size < 2**31 else np.int64


def mc_threshold_ci(y, s, rates, n_resamples, seed, confidence=CONFIDENCE):
    """Percentile rectangles at the thresholds of total positive rates ``rates``.

    The same thresholds (the ⌈q·n⌉-th largest score) and the same per-axis
    level (rectangle: ``1 − α_2D = sqrt(1 − α)``) as ``rocci.threshold_ci``.
    Each instance is first mapped to its bin among the sorted thresholds; per
    resample, the drawn indices are gathered into bins, counted with one
    ``bincount`` per chunk of resamples, and the counts of draws ``>= t`` are
    the reverse cumulative sums.  O(B·n) work, memory bounded by the chunks.

    Returns ``thresholds, fpr_low, fpr_high, tpr_low, tpr_high``.
    """
    rng = np.random.default_rng(seed)
    n = s.size
    all_sorted = np.sort(s)
    rank = np.ceil(np.round(np.asarray(rates) * n, 9)).astype(np.int64)
    t = all_sorted[n - rank]
    order = np.argsort(t, kind="stable")
    t_asc = t[order]
    h = t.size
    a = 1.0 - math.sqrt(confidence)  # rectangle: per-axis error rate 1 − sqrt(1 − α)
    bounds = {}
    for axis, x in (("tpr", s[y == 1]), ("fpr", s[y == 0])):
        m = x.size
        # bin of each instance = number of thresholds <= its score; score >= t_asc[j] <=> bin > j
        bins = np.searchsorted(t_asc, x, side="right").astype(np.intp)
        counts = np.empty((n_resamples, h), dtype=np.int64)
        rows = _rows_per_chunk(m)
        for start in range(0, n_resamples, rows):
            c = min(rows, n_resamples - start)
            idx = rng.integers(0, m, size=(c, m), dtype=_index_dtype(m))
            drawn = bins[idx]
            drawn += (np.arange(c, dtype=np.intp) * (h + 1))[:, None]
            hist = np.bincount(drawn.ravel(), minlength=c * (h + 1)).reshape(c, h + 1)
            ge = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # ge[:, k] = #draws with bin >= k
            counts[start : start + c] = ge[:, 1:]
        rate = counts / m
        low = np.quantile(rate, a / 2, axis=0, method="inverted_cdf")
        high = np.quantile(rate, 1 - a / 2, axis=0, method="inverted_cdf")
        inv = np.empty_like(order)
        inv[order] = np.arange(h)
        bounds[axis] = (low[inv], high[inv])
    return t, bounds["fpr"][0], bounds["fpr"][1], bounds["tpr"][0], bounds["tpr"][1]


def mc_vertical_ci(y, s, fpr, n_resamples, seed, confidence=CONFIDENCE):
    """Pointwise percentile intervals of the TPR at FPR levels ``r/m−``.

    The same levels as ``rocci.vertical_ci`` (``r = rint(fpr·m−)`` clipped to
    1 … m− − 1, duplicates merged).  Per resample: the r-th largest negative
    drawn (``np.partition`` of the drawn indices into the sorted negatives, one
    call for all 99 levels), then the number of positive draws scoring at least
    that: positive draws are indices into the sorted positives, counted per
    resample with one ``bincount`` per chunk, cumulated, and read at
    ``searchsorted(positives, T_r)``.  O(B·n) work, memory bounded by chunks.

    Returns ``r, tpr_low, tpr_high``.
    """
    rng = np.random.default_rng(seed)
    pos, neg = np.sort(s[y == 1]), np.sort(s[y == 0])
    mp, mn = pos.size, neg.size
    r = np.unique(np.clip(np.rint(np.asarray(fpr) * mn), 1, mn - 1).astype(np.int64))
    kth = mn - r  # ascending position of the r-th largest of mn draws
    kth_sorted = np.sort(kth)
    tp = np.empty((n_resamples, r.size), dtype=np.int64)
    rows = _rows_per_chunk(max(mp, mn))
    for start in range(0, n_resamples, rows):
        c = min(rows, n_resamples - start)
        neg_idx = rng.integers(0, mn, size=(c, mn), dtype=_index_dtype(mn))
        neg_idx.partition(kth_sorted, axis=1)  # sorted negatives: index order = score order
        t_r = neg[neg_idx[:, kth]]  # (c, h): r-th largest negative score drawn
        del neg_idx
        pos_idx = rng.integers(0, mp, size=(c, mp)).astype(np.intp, copy=False)
        pos_idx += (np.arange(c, dtype=np.intp) * mp)[:, None]
        hist = np.bincount(pos_idx.ravel(), minlength=c * mp).reshape(c, mp)
        del pos_idx
        below = np.zeros((c, mp + 1), dtype=np.int64)  # below[:, k] = #draws with index < k
        np.cumsum(hist, axis=1, out=below[:, 1:])
        first = np.searchsorted(pos, t_r, side="left")  # first positive index scoring >= T_r
        tp[start : start + c] = mp - np.take_along_axis(below, first, axis=1)
    alpha = 1.0 - confidence
    rate = tp / mp
    low = np.quantile(rate, alpha / 2, axis=0, method="inverted_cdf")
    high = np.quantile(rate, 1 - alpha / 2, axis=0, method="inverted_cdf")
    return r, low, high


def _max_sd_gap(mc_bounds, exact_bounds, exact_sd):
    """Largest |MC bound − exact bound| in exact bootstrap standard deviations."""
    worst = 0.0
    for mc, ex, sd in zip(mc_bounds, exact_bounds, exact_sd):
        ok = sd > 0
        gap = np.abs(np.asarray(mc) - np.asarray(ex))
        if (~ok & (gap > 1e-12)).any():
            return math.inf
        if ok.any():
            worst = max(worst, float((gap[ok] / sd[ok]).max()))
    return worst


# ---------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------
def median_time(fn, repeats: int) -> float:
    """Median seconds per call over ``repeats`` (after one warm-up call)."""
    return statistics.median(repeat_times(fn, repeats))


def repeat_times(fn, repeats: int) -> list[float]:
    """Seconds per call in each of ``repeats`` repeats (after one warm-up call).

    Calls shorter than MIN_REPEAT_TIME are looped within a repeat; a first call
    longer than a second counts as a repeat (no separate warm-up).
    """
    gc.collect()
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    times = []
    if first >= 1.0:
        times.append(first)
    number = 1 if first >= MIN_REPEAT_TIME else int(math.ceil(MIN_REPEAT_TIME / max(first, 1e-7)))
    while len(times) < repeats:
        gc.collect()
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return times


def peak_bytes(fn) -> int:
    """Peak bytes allocated by one call beyond what was allocated before it."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return max(0, peak - base)


def mem_available_bytes() -> int | None:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run_size(n: int, args) -> dict:
    y, s = binormal(n, args.seed)
    repeats = args.repeats if args.repeats else (5 if n <= 10**4 else 3)
    fns = {
        "argsort": lambda: np.argsort(s),
        "thr_all_wilson": lambda: rocci.threshold_ci(y, s, method="wilson"),
        "thr99_pct": lambda: rocci.threshold_ci(
            y, s, total_positive_rate=LEVELS_99, method="percentile"),
        "thr_all_pct": lambda: rocci.threshold_ci(y, s, method="percentile"),
        "vert_pct": lambda: rocci.vertical_ci(y, s, method="percentile"),
        "vert_wald": lambda: rocci.vertical_ci(y, s, method="wald"),
    }
    try:
        from sklearn import metrics as skm
    except ImportError:
        skm = None
    if skm is not None:
        fns.update({
            "skl_roc_curve": lambda: skm.roc_curve(y, s),
            "skl_auc": lambda: skm.roc_auc_score(y, s),
            "roc_curve": lambda: rocci.roc_curve(y, s),
            "roc_auc": lambda: rocci.roc_auc(y, s),
        })
    limits = {key: lim for key, _, lim in CALLS}
    active = [k for k in fns if limits.get(k) is None or n <= limits[k]]
    res = {"n": n, "repeats": repeats, "time": {}, "mem": {}, "mc": {}}

    # Pass 1: timings (no tracing).  argsort, the unit, is timed both before and
    # after the rocci calls and the median taken over both, to damp drift in the
    # load of a shared machine.
    argsort_times = repeat_times(fns["argsort"], repeats)
    for key in (k for k in active if k != "argsort"):
        log(f"  n={n:>10,}  time {key} ...")
        res["time"][key] = median_time(fns[key], repeats)
    argsort_times += repeat_times(fns["argsort"], repeats)
    res["time"]["argsort"] = statistics.median(argsort_times)
    res["load"] = load_average()

    # Pass 2: peak memory (tracemalloc on), one call each.
    for key in active:
        log(f"  n={n:>10,}  memory {key} ...")
        res["mem"][key] = peak_bytes(fns[key])

    # Pass 3: Monte Carlo baseline, and a check that it computes the same intervals.
    if n <= args.mc_max_n:
        mc_repeats = min(repeats, 3)
        B = args.resamples
        log(f"  n={n:>10,}  Monte Carlo threshold (B={B}) ...")
        res["mc"]["thr99"] = median_time(
            lambda: mc_threshold_ci(y, s, LEVELS_99, B, args.seed + 1), mc_repeats)
        log(f"  n={n:>10,}  Monte Carlo vertical (B={B}) ...")
        res["mc"]["vert"] = median_time(
            lambda: mc_vertical_ci(y, s, LEVELS_99, B, args.seed + 2), mc_repeats)
        ex = rocci.threshold_ci(y, s, total_positive_rate=LEVELS_99, method="percentile")
        t, flo, fhi, tlo, thi = mc_threshold_ci(y, s, LEVELS_99, B, args.seed + 1)
        assert np.array_equal(t, ex.thresholds), "Monte Carlo and rocci thresholds differ"
        res["mc"]["thr99_gap"] = _max_sd_gap(
            (flo, fhi, tlo, thi), (ex.fpr_low, ex.fpr_high, ex.tpr_low, ex.tpr_high),
            (ex.fpr_std, ex.fpr_std, ex.tpr_std, ex.tpr_std))
        ev = rocci.vertical_ci(y, s, method="percentile")
        r, vlo, vhi = mc_vertical_ci(y, s, LEVELS_99, B, args.seed + 2)
        assert np.array_equal(r, ev.r), "Monte Carlo and rocci FPR levels differ"
        res["mc"]["vert_gap"] = _max_sd_gap(
            (vlo, vhi), (ev.tpr_low, ev.tpr_high), (ev.tpr_std, ev.tpr_std))
        res["mc"]["repeats"] = mc_repeats
        res["mc"]["load"] = load_average()
    return res


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------
DASH = "—"


def fmt_n(n: int) -> str:
    e = round(math.log10(n))
    return f"10^{e}" if 10**e == n else f"{n:,}"


def fmt_secs(t: float) -> str:
    if t < 1e-3:
        return f"{t * 1e6:.0f} µs"
    if t < 1.0:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def fmt_ratio(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}×"
    if x >= 10:
        return f"{x:.1f}×"
    return f"{x:.2f}×"


def fmt_mem(b: int, n: int) -> str:
    return f"{b / 2**20:.1f} MB ({b / n:.0f} B/inst)"


def build_tables(results: list[dict], args) -> list[tuple[str, list[str], list[list[str]], list[str]]]:
    """(title, header, rows, notes) for each table."""
    tables = []

    header = ["n", "argsort"] + [label + " ×" for _, label, _ in CALLS]
    rows = []
    for res in results:
        base = res["time"]["argsort"]
        row = [fmt_n(res["n"]), fmt_secs(base)]
        for key, _, _ in CALLS:
            t = res["time"].get(key)
            row.append(DASH if t is None else fmt_ratio(t / base))
        rows.append(row)
    tables.append((
        "Time: numpy.argsort of the scores (median), and each call as a multiple of it",
        header, rows,
        ["threshold_ci all t, percentile: only up to n = 10^5 (one exact binomial "
         "quantile per threshold; the slow path)."],
    ))

    header = ["n"] + [label + " s" for _, label, _ in CALLS]
    rows = []
    for res in results:
        row = [fmt_n(res["n"])]
        for key, _, _ in CALLS:
            t = res["time"].get(key)
            row.append(DASH if t is None else fmt_secs(t))
        rows.append(row)
    tables.append(("Time: absolute (median seconds per call; noisy on a shared machine)",
                   header, rows, []))

    header = ["n", "argsort"] + [label for _, label, _ in CALLS]
    rows = []
    for res in results:
        n = res["n"]
        row = [fmt_n(n), fmt_mem(res["mem"]["argsort"], n)]
        for key, _, _ in CALLS:
            b = res["mem"].get(key)
            row.append(DASH if b is None else fmt_mem(b, n))
        rows.append(row)
    tables.append((
        "Peak memory of one call (tracemalloc, beyond the input arrays; separate pass from timing)",
        header, rows,
        ["argsort's own result is n int64 = 8 B/instance; inputs (float64 scores, int8 "
         "labels) are not counted."],
    ))

    B = args.resamples
    header = ["n", f"MC threshold B={B}", "exact threshold", "speed-up",
              "max gap (sd)", f"MC vertical B={B}", "exact vertical", "speed-up",
              "max gap (sd)"]
    rows = []
    for res in results:
        mc = res["mc"]
        if not mc:
            rows.append([fmt_n(res["n"])] + [DASH] * (len(header) - 1))
            continue
        et, ev = res["time"]["thr99_pct"], res["time"]["vert_pct"]
        rows.append([
            fmt_n(res["n"]), fmt_secs(mc["thr99"]), fmt_secs(et), fmt_ratio(mc["thr99"] / et),
            f"{mc['thr99_gap']:.2f}", fmt_secs(mc["vert"]), fmt_secs(ev),
            fmt_ratio(mc["vert"] / ev), f"{mc['vert_gap']:.2f}",
        ])
    tables.append((
        "Speed-up over a vectorised Monte Carlo stratified bootstrap computing the same intervals",
        header, rows,
        ["threshold: 99 thresholds (total positive rate 0.01…0.99), percentile rectangles; "
         "vertical: 99 FPR levels, percentile. Speed-up = MC time / exact time.",
         f"Monte Carlo is run only up to n = {fmt_n(args.mc_max_n)}: at 10^6 it would take "
         f"minutes per call (B·n = {B:,}·10^6 draws per class), so those rows show {DASH}.",
         "max gap (sd): largest |MC bound − exact bound| over all bounds, in "
         "exact bootstrap standard deviations; with B = 2,000, Monte Carlo noise alone puts "
         "it around 0.2–0.5 when both compute the same interval (more with fewer resamples)."],
    ))

    ref = next((r for r in results if r["n"] == 10**4), None)
    if ref is not None:
        proc = args.proc
        header = ["task at n = 10^4", "R pROC (this run)", "rocci exact", "vs pROC",
                  f"Monte Carlo here (B={B})"]
        rows = []
        for key, exact_key in (("thr99", "thr99_pct"), ("vert", "vert_pct")):
            ours = ref["time"][exact_key]
            mc = ref["mc"].get(key)
            if proc is None:
                rows.append([PROC_CALLS[key], "pROC not installed: no comparison", fmt_secs(ours), DASH,
                             DASH if mc is None else fmt_secs(mc)])
            else:
                rows.append([PROC_CALLS[key], fmt_secs(proc[key]), fmt_secs(ours),
                             fmt_ratio(proc[key] / ours) + " faster", DASH if mc is None else fmt_secs(mc)])
        note = ("pROC not installed (Rscript with r-cran-proc): no comparison." if proc is None else
                "pROC measured once in this run by Rscript on the same n = 10^4 data "
                f"(load {proc['load'][0]:.1f}/{proc['load'][1]:.1f}/{proc['load'][2]:.1f}); rocci's are this run's medians.")
        tables.append(("Context: R's pROC at n = 10^4", header, rows, [note]))

    if all("skl_auc" in r["time"] for r in results):
        import sklearn

        header = ["n", "sklearn roc_curve", "rocci roc_curve", "sklearn roc_auc_score",
                  "rocci roc_auc (+ DeLong CI)", "rocci threshold_ci all t, wilson"]
        rows = []
        for res in results:
            tm = res["time"]
            rows.append([fmt_n(res["n"]), fmt_secs(tm["skl_roc_curve"]), fmt_secs(tm["roc_curve"]),
                         fmt_secs(tm["skl_auc"]), fmt_secs(tm["roc_auc"]), fmt_secs(tm["thr_all_wilson"])])
        tables.append((
            f"Context: scikit-learn {sklearn.__version__} in this run (curves and AUC, no intervals)",
            header, rows,
            ["scikit-learn gives the curve and the AUC only; rocci's roc_auc adds DeLong's interval and "
             "threshold_ci an interval at every threshold. Same data, same run, medians."],
        ))

    header = ["call"] + [f"{fmt_n(a['n'])}→{fmt_n(b['n'])}" for a, b in zip(results, results[1:])]
    rows = []
    for key, label in [("argsort", "argsort")] + [(k, lab) for k, lab, _ in CALLS]:
        row = [label]
        for a, b in zip(results, results[1:]):
            ta, tb = a["time"].get(key), b["time"].get(key)
            row.append(DASH if ta is None or tb is None else f"{tb / ta:.1f}×")
        rows.append(row)
    if len(results) > 1:
        tables.append((
            "Growth of each call's time per tenfold n (n log n: ≈ 12–13×; ≈ 1× = a fixed per-level "
            "cost dominates; compare with argsort's own row)",
            header, rows, [],
        ))
    return tables


#: record keys of the timed calls (CALLS' keys → "<function>/<method>/<thresholds>")
RECORD_KEYS = {
    "argsort": "argsort",
    "thr_all_wilson": "threshold_ci/wilson/every",
    "thr99_pct": "threshold_ci/percentile/99",
    "thr_all_pct": "threshold_ci/percentile/every",
    "vert_pct": "vertical_ci/percentile/99",
    "vert_wald": "vertical_ci/wald/99",
    "roc_curve": "roc_curve",
    "roc_auc": "roc_auc",
}
MC_KEYS = {"thr99": ("thr99_pct", "thr99_gap"), "vert": ("vert_pct", "vert_gap")}


def record(rec, results: list[dict], args, elapsed: float) -> None:
    """Every figure of the printed tables into ``rec`` (``bench/_record.py``)."""
    limits = {key: lim for key, _, lim in CALLS}
    B = args.resamples
    for res in results:
        n, tm, load = res["n"], res["time"], res["load"]
        base = tm["argsort"]
        rec.add("argsort", base, "s", n=n, repeats=2 * res["repeats"], load=load,
                note="timed before and after the rocci calls, median over both")
        for key, name in RECORD_KEYS.items():
            if key == "argsort":
                continue
            ctx = dict(n=n, repeats=res["repeats"], load=load)
            if key in ("thr99_pct", "vert_pct"):
                mc_key = "thr99" if key == "thr99_pct" else "vert"
                if mc_key in res["mc"]:
                    ctx.update(anchor=f"Monte Carlo stratified bootstrap, B={B}", anchor_value=res["mc"][mc_key],
                               anchor_measured=True)
            if key in tm:
                rec.add(name, tm[key], "s", ratio_argsort=tm[key] / base, **ctx)
            elif limits.get(key) is not None and n > limits[key]:
                rec.add(name, None, "s", note=f"not run above n = {fmt_n(limits[key])}", **ctx)
            elif key in ("roc_curve", "roc_auc"):
                rec.add(name, None, "s", note="scikit-learn not installed: not timed", **ctx)
        for key, name in RECORD_KEYS.items():
            if key in res["mem"]:
                rec.add(f"peak_memory/{name}", res["mem"][key], "bytes", n=n, per_instance=res["mem"][key] / n)
            elif limits.get(key) is not None and n > limits[key]:
                rec.add(f"peak_memory/{name}", None, "bytes", n=n, note=f"not run above n = {fmt_n(limits[key])}")
        for skl_key, name in (("skl_roc_curve", "sklearn/roc_curve"), ("skl_auc", "sklearn/roc_auc_score")):
            if skl_key in tm:
                import sklearn

                rec.add(name, tm[skl_key], "s", n=n, ratio_argsort=tm[skl_key] / base, repeats=res["repeats"],
                        load=load, anchor_measured=True, version=sklearn.__version__)
            else:
                rec.add(name, None, "s", n=n, anchor_measured=False, note="scikit-learn not installed", load=load)
        mc = res["mc"]
        for mc_key, (exact_key, gap_key) in MC_KEYS.items():
            name = f"montecarlo/{RECORD_KEYS[exact_key]}"
            if mc_key in mc:
                rec.add(name, mc[mc_key], "s", n=n, resamples=B, repeats=mc["repeats"], load=mc["load"],
                        anchor_measured=True, compared_with=RECORD_KEYS[exact_key],
                        speedup=mc[mc_key] / tm[exact_key], max_gap_sd=mc[gap_key])
            else:
                rec.add(name, None, "s", n=n, resamples=B, anchor_measured=False,
                        note=f"Monte Carlo is run only up to n = {fmt_n(args.mc_max_n)}")
    ref = next((r for r in results if r["n"] == 10**4), None)
    proc = getattr(args, "proc", None)
    for key, exact_key, call in (("thr99", "thr99_pct", "pROC/ci.thresholds"), ("vert", "vert_pct", "pROC/ci.se")):
        if ref is None:
            rec.add(call, None, "s", n=10**4, anchor_measured=False, call=PROC_CALLS[key],
                    note="n = 10^4 not in this run: pROC not run")
        elif proc is None:
            rec.add(call, None, "s", n=10**4, anchor_measured=False, call=PROC_CALLS[key],
                    note="pROC not installed (Rscript with r-cran-proc): not measured")
        else:
            ours = ref["time"][exact_key]
            rec.add(call, proc[key], "s", n=10**4, anchor_measured=True, call=PROC_CALLS[key], repeats=1,
                    load=[round(x, 2) for x in proc["load"]], compared_with=RECORD_KEYS[exact_key],
                    compared_value=ours, speedup=proc[key] / ours)
    rec.add("run/elapsed", elapsed, "s", sizes=[r["n"] for r in results], seed=args.seed, confidence=CONFIDENCE)


def text_table(header, rows) -> str:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    line = lambda cells: "  ".join(str(c).rjust(w) if i else str(c).ljust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    out = [line(header), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


def markdown_table(header, rows) -> str:
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def environment() -> str:
    import scipy
    return (f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
            f"rocci {rocci.__version__}; {os.cpu_count()} CPUs ({cpu_name()})")


# ---------------------------------------------------------------------------
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="n = 10^3 and 10^4 only (smoke run)")
    p.add_argument("--big", action="store_true", help="also n = 10^7, if memory allows")
    p.add_argument("--repeats", type=int, default=0,
                   help="timing repeats per call (default: 5 for n <= 10^4, 3 above)")
    p.add_argument("--resamples", type=int, default=2000, help="Monte Carlo resamples B (default 2000)")
    p.add_argument("--mc-max-n", type=int, default=10**5,
                   help="largest n for the Monte Carlo baseline (default 10^5)")
    p.add_argument("--seed", type=int, default=20260101, help="data and Monte Carlo seed")
    p.add_argument("--sizes", type=int, nargs="+", default=None,
                   help="the n to run (overrides --quick/--big; pROC runs only when 10^4 is among them)")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = p.parse_args(argv)
    if args.repeats < 0:
        p.error("--repeats must be positive")
    rec = Record("bench_single", argv=sys.argv[1:] if argv is None else argv)

    sizes = [10**3, 10**4] if args.quick else [10**3, 10**4, 10**5, 10**6]
    if args.big and not args.quick:
        sizes.append(10**7)
    if args.sizes:
        sizes = sorted(set(args.sizes))

    log(environment())
    started = time.perf_counter()
    results = []
    for n in sizes:
        if n > 10**6 and results:
            # Estimate from the largest call measured so far, scaled linearly, with 50% margin.
            prev = results[-1]
            need = max(prev["mem"].values()) * (n / prev["n"]) * 1.5 + 16 * n
            avail = mem_available_bytes()
            if avail is not None and need > avail:
                log(f"skipping n={n:,}: needs about {need / 2**30:.1f} GB, "
                    f"{avail / 2**30:.1f} GB available")
                continue
        log(f"n = {n:,}")
        results.append(run_size(n, args))
    elapsed = time.perf_counter() - started  # the rocci, argsort and Monte Carlo timings (not pROC)
    args.proc = None
    if any(r["n"] == 10**4 for r in results):
        log("pROC (Rscript) at n = 10^4 ...")
        args.proc = measure_proc(args.seed)

    tables = build_tables(results, args)
    record(rec, results, args, elapsed)
    rec.save(args.json)
    data_note = ("Binormal data: positives N(1,1), negatives N(0,1), half each, "
                 f"seed {args.seed}; confidence level {CONFIDENCE}, m± = n±.")
    print(f"rocci single-model benchmark — {environment()}")
    print(data_note)
    print(f"Median over {'/'.join(sorted({str(r['repeats']) for r in results}))} repeats; "
          f"whole run {elapsed:.0f} s.\n")
    for title, header, rows, notes in tables:
        print(title)
        print(text_table(header, rows))
        for note in notes:
            print("  * " + note)
        print()

    print("=" * 20 + " Markdown " + "=" * 20 + "\n")
    print(f"_{environment()}. {data_note} Whole run {elapsed:.0f} s._\n")
    for title, header, rows, notes in tables:
        print(f"**{title}**\n")
        print(markdown_table(header, rows))
        for note in notes:
            print(f"\n- {note}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
