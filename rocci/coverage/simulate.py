"""Coverage by seeded simulation, with Monte Carlo standard errors.

Used where the exact sum is out of reach: thresholds chosen from the data,
vertical averaging (one and two models), paired cost intervals (four counts),
and test sets whose class counts are themselves random (the "full" design).
Every function takes ``replicates``, ``seed`` and an optional
``progress(fraction, message)`` callback, and returns a tidy DataFrame whose
``coverage`` column is the fraction of replicates whose interval covered the
true value and ``se = sqrt(c(1 − c)/R)`` its Monte Carlo standard error.

Designs of the simulated test set: ``"stratified"`` draws exactly ``n+``
positives and ``n−`` negatives; ``"full"`` draws ``n = n+ + n−`` instances
from the population with a fraction ``π = n+/n`` of positives, so the class
counts vary (``N+ ~ Bin(n, π)``), as under the thesis's full bootstrap (§4.6,
§5.3).  Where the threshold is fixed, only the counts matter and they are
drawn directly from their exact binomial / multinomial laws (no score
sampling needed); where the threshold comes from the data, scores are drawn.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd
from scipy import special

from .._core.inputs import InputError, check_choice, check_confidence_level
from ..compare import compare_vertical, paired_score_interval
from ..cost import cost_ci
from .._core.exact import QUANTILE_TOL
from .._core.intervals import PROPORTION_METHODS, axis_alpha, proportion_interval
from ..roc.vertical import fpr_levels, vertical_ci
from .baselines import bootstrap_vertical_interval, kernel_vertical_interval
from .exact import COST_FORMULAS, COST_INTERVALS, cost_interval, paired_cost_interval

__all__ = [
    "DESIGNS",
    "VERTICAL_BASELINES",
    "simulate_threshold_coverage",
    "simulate_paired_threshold_coverage",
    "simulate_cost_coverage",
    "simulate_paired_cost_coverage",
    "simulate_vertical_coverage",
    "vertical_score_interval",
    "simulate_paired_vertical_coverage",
]

DESIGNS = ("stratified", "full")
VERTICAL_BASELINES = ("score", "percentile", "kernel", "bootstrap")
Progress = Callable[[float, str], None] | None


def _tell(progress: Progress, fraction: float, message: str) -> None:
    if progress is not None:
        progress(float(min(max(fraction, 0.0), 1.0)), message)


def _check_reps(replicates) -> int:
    if isinstance(replicates, bool) or int(replicates) != replicates or replicates < 2:
        raise InputError(f"replicates ({replicates!r}) must be a whole number of at least 2.")
    return int(replicates)


def _check_n(name, value) -> int:
    if isinstance(value, bool) or int(value) != value or value < 1:
        raise InputError(f"{name} ({value!r}) must be a positive whole number.")
    return int(value)


def _summary(covers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean coverage over axis 0 and its Monte Carlo standard error."""
    c = covers.mean(axis=0)
    return c, np.sqrt(c * (1 - c) / covers.shape[0])


def _class_sizes(design, n_pos, n_neg, size, rng):
    """Class counts of ``size`` simulated test sets: fixed, or ``N+ ~ Bin(n, π)``."""
    if design == "stratified":
        return np.full(size, n_pos), np.full(size, n_neg)
    n = n_pos + n_neg
    k = rng.binomial(n, n_pos / n, size)
    k = np.clip(k, 1, n - 1)  # a test set needs both classes (P(clip) < 2^-n·2)
    return k, n - k


def simulate_threshold_coverage(population, n_pos, n_neg, rates, *, confidence_level=0.95, method="wilson",
                                region="rectangle", add=2.0, threshold="data", design="stratified",
                                replicates=1000, seed=0, progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of threshold-averaging regions along the total positive rate.

    ``threshold="true"``: the population's threshold for each rate, counts
    ``TP ~ Bin(N+, TPR)``, ``FP ~ Bin(N−, FPR)`` (checks the exact sums).
    ``threshold="data"``: each simulated test set's own ``⌈q·n⌉``-th largest
    score ``t̂`` (as :func:`rocci.threshold_ci` with ``total_positive_rate``);
    the region must cover the true point ``(FPR(t̂), TPR(t̂))`` of that
    threshold.  Intervals as :func:`rocci.threshold_ci` with ``m = n``.

    Returns
    -------
    pandas.DataFrame
        ``total_positive_rate, coverage, se, coverage_tpr, coverage_fpr, replicates``.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PROPORTION_METHODS)
    check_choice("region", region, ("rectangle", "marginal"))
    check_choice("threshold", threshold, ("true", "data"))
    check_choice("design", design, DESIGNS)
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    q = np.atleast_1d(np.asarray(rates, dtype=float))
    rng = np.random.default_rng(seed)
    a = axis_alpha(level, region)
    n = n_pos + n_neg
    per_set = q.size * 8 if threshold == "true" else n + q.size * 8  # array cells per simulated test set
    chunk = max(1, min(R, 8_000_000 // per_set))
    if threshold == "true":
        t_true = population.threshold_for_rate(q)
        ptp_true, pfp_true = population.tpr(t_true), population.fpr(t_true)
    ct, cf, cr = [], [], []
    done = 0
    while done < R:
        r = min(chunk, R - done)
        npos, nneg = _class_sizes(design, n_pos, n_neg, r, rng)
        if threshold == "true":
            tp = rng.binomial(npos[:, None], ptp_true[None, :])
            fp = rng.binomial(nneg[:, None], pfp_true[None, :])
            ptp, pfp = np.broadcast_to(ptp_true, tp.shape), np.broadcast_to(pfp_true, fp.shape)
        else:
            labels = np.arange(n)[None, :] < npos[:, None] if design == "stratified" else None
            if labels is None:
                labels = np.zeros((r, n), dtype=bool)
                labels[np.arange(n)[None, :] < npos[:, None]] = True
            scores = np.where(labels, population.pos.rvs((r, n), rng), population.neg.rvs((r, n), rng))
            order = np.argsort(-scores, axis=1, kind="stable")
            s_sorted = np.take_along_axis(scores, order, axis=1)
            cum = np.cumsum(np.take_along_axis(labels, order, axis=1), axis=1)
            k = np.ceil(np.round(q * n, 9)).astype(np.int64)
            k = np.clip(k, 1, n)
            t = s_sorted[:, k - 1]
            tp = cum[:, k - 1]
            fp = k[None, :] - tp
            ptp, pfp = population.tpr(t), population.fpr(t)
        lt, ht = proportion_interval(tp / npos[:, None], npos[:, None], a, method, add=add)
        lf, hf = proportion_interval(fp / nneg[:, None], nneg[:, None], a, method, add=add)
        cov_t = (lt <= ptp) & (ptp <= ht)
        cov_f = (lf <= pfp) & (pfp <= hf)
        ct.append(cov_t)
        cf.append(cov_f)
        cr.append(cov_t & cov_f)
        done += r
        _tell(progress, done / R, f"{done} of {R} simulated test sets")
    c, se = _summary(np.concatenate(cr))
    return pd.DataFrame({"total_positive_rate": q, "coverage": c, "se": se,
                         "coverage_tpr": np.concatenate(ct).mean(0), "coverage_fpr": np.concatenate(cf).mean(0),
                         "replicates": R})


def _multinomial(rng, n, p_a, p_b, shape):
    """Counts (A, B) of a trinomial with probabilities ``p_a, p_b`` (the rest agree)."""
    a = rng.binomial(n, np.broadcast_to(p_a, shape))
    rest_p = np.where(p_a < 1, p_b / np.maximum(1 - p_a, 1e-300), 0.0)
    b = rng.binomial(n - a, np.clip(np.broadcast_to(rest_p, shape), 0, 1))
    return a, b


def simulate_paired_threshold_coverage(pair, n_pos, n_neg, rates, *, confidence_level=0.9, region="rectangle",
                                       gamma="smoothed", replicates=2000, seed=0,
                                       progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of the paired threshold region at the true thresholds (checks the exact sums)."""
    level = check_confidence_level(confidence_level)
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    q = np.atleast_1d(np.asarray(rates, dtype=float))
    rng = np.random.default_rng(seed)
    alpha = axis_alpha(level, region)
    ta, tb = pair.a.threshold_for_rate(q), pair.b.threshold_for_rate(q)
    covers = []
    for cls, n in (("pos", n_pos), ("neg", n_neg)):
        pa, pb, _ = pair.cells(ta, tb, cls)
        a, b = _multinomial(rng, n, pa, pb, (R, q.size))
        low, high = paired_score_interval(a, b, n, n, alpha, gamma=gamma)
        d = pa - pb
        covers.append((low <= d + 1e-15) & (d - 1e-15 <= high))
    _tell(progress, 1.0, f"{R} simulated test sets")
    c, se = _summary(covers[0] & covers[1])
    return pd.DataFrame({"total_positive_rate": q, "coverage": c, "se": se,
                         "coverage_tpr": covers[0].mean(0), "coverage_fpr": covers[1].mean(0), "replicates": R})


def simulate_cost_coverage(population, n_pos, n_neg, w, *, confidence_level=0.9, method="agresti-coull", add=2.0,
                           formulas="stratified", design="stratified", threshold="true", replicates=2000, seed=0,
                           progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of one model's cost intervals along ``w``.

    ``threshold="true"``: the true cost minimiser at each ``w``; the counts
    ``FN ~ Bin(N+, 1 − TPR)``, ``FP ~ Bin(N−, FPR)`` are drawn directly
    (vectorised over replicates and ``w``).  ``threshold="data"``: scores are
    drawn and :func:`rocci.cost_ci` picks each test set's own envelope
    minimiser ``t̂`` (a loop over test sets); the target is the true cost of
    ``t̂``, ``w(1 − TPR(t̂)) + (1 − w)FPR(t̂)``.  ``formulas`` chooses the
    stratified or full bootstrap interval (§5.1, §5.2) whatever the design.

    Returns
    -------
    pandas.DataFrame
        ``w, coverage, se, replicates``.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, COST_INTERVALS)
    check_choice("formulas", formulas, COST_FORMULAS)
    check_choice("design", design, DESIGNS)
    check_choice("threshold", threshold, ("true", "data"))
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    w = np.atleast_1d(np.asarray(w, dtype=float))
    rng = np.random.default_rng(seed)
    if threshold == "true":
        t = population.optimal_threshold(w)
        tpr, fpr = population.tpr(t), population.fpr(t)
        target = population.cost(t, w)
        npos, nneg = _class_sizes(design, n_pos, n_neg, R, rng)
        fn = rng.binomial(npos[:, None], (1 - tpr)[None, :])
        fp = rng.binomial(nneg[:, None], fpr[None, :])
        low, high = cost_interval(fn, fp, npos[:, None], nneg[:, None], w[None, :], confidence_level=level,
                                  method=method, add=add, formulas=formulas)
        covers = (low <= target + 1e-12) & (target - 1e-12 <= high)
        _tell(progress, 1.0, f"{R} simulated test sets")
    else:
        covers = np.empty((R, w.size), dtype=bool)
        n = n_pos + n_neg
        for i in range(R):
            npos, _ = _class_sizes(design, n_pos, n_neg, 1, rng)
            k = int(npos[0])
            y = np.r_[np.ones(k, dtype=bool), np.zeros(n - k, dtype=bool)]
            s = np.r_[population.pos.rvs(k, rng), population.neg.rvs(n - k, rng)]
            res = cost_ci(y, s, w=w, bootstrap=formulas, confidence_level=level, method=method, add=add)
            target = population.cost(res.threshold, w)
            covers[i] = (res.cost_low <= target + 1e-12) & (target - 1e-12 <= res.cost_high)
            if i % 10 == 9 or i == R - 1:
                _tell(progress, (i + 1) / R, f"{i + 1} of {R} simulated test sets")
    c, se = _summary(covers)
    return pd.DataFrame({"w": w, "coverage": c, "se": se, "replicates": R})


def simulate_paired_cost_coverage(pair, n_pos, n_neg, w, *, confidence_level=0.9, method="agresti-coull",
                                  add=0.5, formulas="stratified", design="stratified", replicates=2000, seed=0,
                                  progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of the paired cost-difference interval along ``w`` (figs 5.3, 5.6, 5.10–5.12).

    Each model sits at its own true cost minimiser; per class the discordant
    cells ``(A, B)`` are trinomial with the copula's cell probabilities
    (:meth:`rocci.coverage.populations.CorrelatedPair.cells`), drawn directly; the
    target is ``ΔC = C_a − C_b = w(TPR_b − TPR_a) + (1 − w)(FPR_a − FPR_b)``.
    Four counts per test set make the exact sum a 4-fold one, hence simulation.

    Returns
    -------
    pandas.DataFrame
        ``w, coverage, se, replicates``.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, COST_INTERVALS)
    check_choice("formulas", formulas, COST_FORMULAS)
    check_choice("design", design, DESIGNS)
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    w = np.atleast_1d(np.asarray(w, dtype=float))
    rng = np.random.default_rng(seed)
    ta, tb = pair.a.optimal_threshold(w), pair.b.optimal_threshold(w)
    pap, pbp, _ = pair.cells(ta, tb, "pos")
    pan, pbn, _ = pair.cells(ta, tb, "neg")
    target = w * (pbp - pap) + (1 - w) * (pan - pbn)
    npos, nneg = _class_sizes(design, n_pos, n_neg, R, rng)
    shape = (R, w.size)
    ap, bp = _multinomial(rng, np.broadcast_to(npos[:, None], shape), pap, pbp, shape)
    an, bn = _multinomial(rng, np.broadcast_to(nneg[:, None], shape), pan, pbn, shape)
    low, high = paired_cost_interval(ap, bp, an, bn, npos[:, None], nneg[:, None], w[None, :],
                                     confidence_level=level, method=method, add=add, formulas=formulas)
    covers = (low <= target + 1e-12) & (target - 1e-12 <= high)
    _tell(progress, 1.0, f"{R} simulated test sets")
    c, se = _summary(covers)
    return pd.DataFrame({"w": w, "coverage": c, "se": se, "replicates": R})


def vertical_score_interval(mean, std, m_pos: int, confidence_level: float):
    """Algorithm 4.3's interval from the exact bootstrap mean and sd of the TPR.

    ``[e + z²/2m+ ± z·sqrt(v + (z/2m+)²)]/(1 + z²/m+)`` clipped to [0, 1] — the
    same formula as :func:`rocci.vertical_ci` with ``method="score"`` (a test
    checks they agree), applied to a percentile run's moments so that one
    exact computation serves both methods.
    """
    z = float(special.ndtri(1 - (1 - confidence_level) / 2))
    mean, var = np.asarray(mean, dtype=float), np.asarray(std, dtype=float) ** 2
    zm = z * z / m_pos
    half = z * np.sqrt(var + (z / (2 * m_pos)) ** 2)
    return np.clip((mean + zm / 2 - half) / (1 + zm), 0, 1), np.clip((mean + zm / 2 + half) / (1 + zm), 0, 1)


def simulate_vertical_coverage(population, n_pos, n_neg, fpr, *, confidence_level=0.95,
                               methods=VERTICAL_BASELINES, n_boot=500, replicates=200, seed=0,
                               progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of intervals for the TPR at fixed FPR levels (thesis §4.5.3).

    Each FPR maps to the level ``r/n−`` of :func:`rocci.vertical_ci`; the
    target is the true ROC there, ``TPR = 1 − G+(G−⁻¹(1 − r/n−))``.  Methods:
    ``"score"`` — :func:`rocci.vertical_ci` with ``method="score"`` (the exact
    bootstrap mean and variance in Algorithm 4.3's score-like interval, as in
    the thesis); ``"percentile"`` — :func:`rocci.vertical_ci`'s percentile
    interval of the exact mixture law; ``"kernel"`` —
    :func:`rocci.coverage.baselines.kernel_vertical_interval`;
    ``"bootstrap"`` — :func:`rocci.coverage.baselines.bootstrap_vertical_interval`
    with ``n_boot`` resamples.  Test sets are drawn in one batch; the kernel
    interval is vectorised over all of them, the others loop over test sets
    (each call vectorised over levels or resamples).

    Returns
    -------
    pandas.DataFrame
        ``fpr, method, coverage, se, replicates`` (long format).
    """
    level = check_confidence_level(confidence_level)
    for m in methods:
        check_choice("methods", m, VERTICAL_BASELINES)
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    rng = np.random.default_rng(seed)
    r = fpr_levels(fpr, n_neg)
    f = r / n_neg
    target = population.roc(f)
    pos, neg = population.sample(n_pos, n_neg, rng, size=R)
    covers = {m: np.empty((R, f.size), dtype=bool) for m in methods}
    if "kernel" in methods:
        _, lo, hi = kernel_vertical_interval(pos, neg, f, confidence_level=level)
        covers["kernel"] = (lo <= target) & (target <= hi)
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    loop = [m for m in methods if m != "kernel"]
    for i in range(R if loop else 0):
        if "score" in loop or "percentile" in loop:
            # One exact computation gives both: the percentile ends, and the exact mean and
            # variance that Algorithm 4.3's score interval uses (vertical_score_interval).
            res = vertical_ci(y, np.r_[pos[i], neg[i]], fpr=f, confidence_level=level, method="percentile")
            if "percentile" in loop:
                covers["percentile"][i] = (res.tpr_low <= target) & (target <= res.tpr_high)
            if "score" in loop:
                lo, hi = vertical_score_interval(res.tpr_mean, res.tpr_std, n_pos, level)
                covers["score"][i] = (lo <= target) & (target <= hi)
        if "bootstrap" in loop:
            lo, hi = bootstrap_vertical_interval(pos[i], neg[i], r, confidence_level=level, n_boot=n_boot, rng=rng)
            covers["bootstrap"][i] = (lo <= target) & (target <= hi)
        if i % 5 == 4 or i == R - 1:
            _tell(progress, (i + 1) / R, f"{i + 1} of {R} simulated test sets")
    if not loop:
        _tell(progress, 1.0, f"{R} simulated test sets")
    rows = []
    for m in methods:
        c, se = _summary(covers[m])
        rows.append(pd.DataFrame({"fpr": f, "method": m, "coverage": c, "se": se, "replicates": R}))
    return pd.concat(rows, ignore_index=True)


def simulate_paired_vertical_coverage(pair, n_pos, n_neg, fpr, *, confidence_level=0.9, replicates=50, seed=0,
                                      methods=("score", "percentile"), progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of :func:`rocci.compare_vertical` intervals for ΔTPR at fixed FPR (fig. 4.9).

    The target is ``ROC_a(f) − ROC_b(f)`` at the levels ``f = r/n−``.  One call
    of the exact paired computation per test set (the costly part) gives both
    intervals: the score interval (``method="score"``, the default) directly,
    and the percentile interval from the same exact law, by the rule
    :func:`rocci.compare_vertical` uses (smallest value whose CDF reaches
    ``α/2``, resp. ``1 − α/2``).

    Returns
    -------
    pandas.DataFrame
        ``fpr, method, coverage, se, replicates``.
    """
    level = check_confidence_level(confidence_level)
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    methods = tuple(methods)
    for m in methods:
        check_choice("methods", m, ("score", "percentile"))
    alpha = 1.0 - level
    rng = np.random.default_rng(seed)
    r = fpr_levels(fpr, n_neg)
    f = r / n_neg
    target = pair.a.roc(f) - pair.b.roc(f)
    pa, pb, na, nb = pair.sample(n_pos, n_neg, rng, size=R)
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    covers = {m: np.empty((R, f.size), dtype=bool) for m in methods}
    for i in range(R):
        res = compare_vertical(y, np.r_[pa[i], na[i]], np.r_[pb[i], nb[i]], fpr=f, confidence_level=level,
                               method="score")
        if "score" in covers:
            covers["score"][i] = (res.delta_tpr_low <= target + 1e-12) & (target - 1e-12 <= res.delta_tpr_high)
        if "percentile" in covers:
            lo, hi = paired_percentile_bounds(res, alpha)
            covers["percentile"][i] = (lo <= target + 1e-12) & (target - 1e-12 <= hi)
        _tell(progress, (i + 1) / R, f"{i + 1} of {R} simulated test sets")
    rows = []
    for m in methods:
        c, se = _summary(covers[m])
        rows.append(pd.DataFrame({"fpr": f, "method": m, "coverage": c, "se": se, "replicates": R}))
    return pd.concat(rows, ignore_index=True)


def paired_percentile_bounds(res, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bounds of a :class:`rocci.VerticalComparison`'s exact laws, whatever its ``method``.

    The rule of :func:`rocci.compare_vertical` with ``method="percentile"``: the
    smallest value whose CDF reaches ``α/2`` (resp. ``1 − α/2``), up to
    :data:`rocci._core.exact.QUANTILE_TOL`.
    """
    lo, hi = np.empty(len(res.r)), np.empty(len(res.r))
    for j in range(len(res.r)):
        values, probs = res.distribution(j)
        cdf = np.cumsum(probs)
        lo[j] = values[np.argmax(cdf >= alpha / 2 - QUANTILE_TOL)]
        hi[j] = values[np.argmax(cdf >= 1 - alpha / 2 - QUANTILE_TOL)]
    return lo, hi
