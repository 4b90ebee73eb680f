"""Exact coverage of interval methods that depend on finitely many binomial counts.

At a fixed true threshold the observed counts of a test set with ``n+``
positives and ``n−`` negatives are binomial, ``n_t+ ~ Bin(n+, TPR)`` and
``n_t− ~ Bin(n−, FPR)``, independent; an interval computed from those counts
covers the true value with probability equal to a finite sum (math.md §7; the
thesis estimates it by simulation in §4.5):

``coverage = Σ_k b(k; n, p) · 1[low(k) <= p <= high(k)]``.

A threshold-averaging region covers when both axes do; the axes are
independent, so the region's coverage is the product.  The same holds for

* cost intervals at a fixed threshold (:func:`cost_coverage`): the interval is
  a function of ``(FN, FP)``, two independent binomials, so the coverage is a
  double sum over a window holding all but < 1e-14 of the mass;
* paired threshold intervals (:func:`paired_threshold_coverage`): per class
  the two discordant cells ``(A, B)`` of a paired test set are trinomial,
  ``P(A = a, B = b) = b(a; n, p_a)·b(b; n − a, p_b/(1 − p_a))``, and each
  axis's score interval depends on ``(A, B)`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from .._core.inputs import InputError, check_choice, check_confidence_level
from ..compare import paired_score_interval
from .._core.exact import binomial_pmf
from .._core.results import _FrameResult, column
from .._core.intervals import PROPORTION_METHODS, axis_alpha, proportion_interval

__all__ = [
    "CoverageResult",
    "threshold_coverage",
    "axis_coverage",
    "threshold_coverage_curve",
    "paired_threshold_coverage",
    "cost_coverage",
    "paired_cost_coverage",
    "cost_interval",
    "paired_cost_interval",
    "COST_FORMULAS",
    "COST_INTERVALS",
]

COST_FORMULAS = ("stratified", "full")
COST_INTERVALS = ("agresti-coull", "wald")


@dataclass(frozen=True, repr=False)
class CoverageResult(_FrameResult):
    """Exact coverage probabilities of a threshold-averaging region.

    Attributes
    ----------
    tpr, fpr : float
        Probability that the TPR (FPR) interval covers the true rate.
    region : float
        Probability that the region covers the true ROC point (``tpr·fpr``).
    p_pos, p_neg : float
        The true TPR and FPR.
    n_pos, n_neg : int
        The test set's class sizes.
    confidence_level : float
    method : str
        The interval of each axis.
    region_kind : str
        ``"rectangle"`` or ``"marginal"`` (``threshold_coverage``'s ``region``).
    """

    tpr: float = column()
    fpr: float = column()
    region: float = column()
    p_pos: float = column(default=float("nan"))
    p_neg: float = column(default=float("nan"))
    n_pos: int = column(default=0)
    n_neg: int = column(default=0)
    confidence_level: float = column(default=float("nan"))
    method: str = column(default="")
    region_kind: str = column(default="")

    _scalar_fields = ("region", "confidence_level", "method", "region_kind")


def _check_n(name, value) -> int:
    if isinstance(value, bool) or int(value) != value or value < 1:
        raise InputError(f"{name} ({value!r}) must be a positive whole number.")
    return int(value)


def _check_rate(name, value) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(value, dtype=float))
    if np.isnan(arr).any() or ((arr < 0) | (arr > 1)).any():
        raise InputError(f"{name} must be rates between 0 and 1; got {arr.tolist()!r}.")
    return arr


def axis_coverage(p, n: int, alpha: float, method: str, *, add: float = 2.0) -> np.ndarray:
    """Exact coverage of a proportion interval for each true rate ``p``.

    ``Σ_k b(k; n, p)·1[low(k/n) <= p <= high(k/n)]``: the interval depends
    only on the count ``k``, so its ends are computed once for ``k = 0..n``.

    Parameters
    ----------
    p : array_like
        True rates.
    n : int
        Number of trials (class size of the test set; bootstrap size ``m = n``).
    alpha : float
        Error rate of this one interval.
    method : {"wilson", "wald", "agresti-coull", "percentile"}
    add : float
        Agresti–Coull pseudo-count per cell.
    """
    p = np.atleast_1d(np.asarray(p, dtype=float))
    k = np.arange(n + 1)
    low, high = proportion_interval(k / n, n, alpha, method, add=add)
    out = np.empty(p.shape)
    for i, pi in enumerate(p):
        lo, hi = _window(n, pi)
        kk = k[lo:hi + 1]
        covers = (low[lo:hi + 1] <= pi) & (pi <= high[lo:hi + 1])
        out[i] = float(binomial_pmf(kk, n, pi) @ covers)
    return out


def _window(n: int, p: float) -> tuple[int, int]:
    """Counts ``[lo, hi]`` holding all but ``2·TAIL`` of ``Bin(n, p)``."""
    if p <= 0:
        return 0, 0
    if p >= 1:
        return n, n
    # mean ± (10 sd + 15) leaves out far less than 1e-15 on each side (Chernoff).
    mean, sd = n * p, np.sqrt(n * p * (1 - p))
    return int(max(np.floor(mean - 10 * sd - 15), 0)), int(min(np.ceil(mean + 10 * sd + 15), n))


def threshold_coverage(p_pos, p_neg, n_pos, n_neg, *, confidence_level=0.95, method="wilson",
                       region="rectangle", add=2.0) -> CoverageResult:
    """Exact coverage of threshold-averaging intervals at a true ROC point.

    Parameters
    ----------
    p_pos, p_neg : float
        True TPR and FPR at the threshold.
    n_pos, n_neg : int
        Numbers of positives and negatives in a test set.
    confidence_level : float, default 0.95
        Nominal level of the region (or of each interval, for ``"marginal"``).
    method : {"wilson", "wald", "agresti-coull", "percentile"}
    region : {"rectangle", "marginal"}
        Per-axis level as in :func:`rocci.threshold_ci` (bootstrap size ``m = n``).
    add : float, default 2
        Agresti–Coull pseudo-count per cell.

    Returns
    -------
    CoverageResult

    Examples
    --------
    >>> from rocci.coverage import threshold_coverage
    >>> round(threshold_coverage(0.3, 0.05, 50, 80, confidence_level=0.9).region, 4)
    0.8963
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PROPORTION_METHODS)
    check_choice("region", region, ("rectangle", "marginal"))
    for name, value in (("p_pos", p_pos), ("p_neg", p_neg)):
        if not 0.0 <= float(value) <= 1.0:
            raise InputError(f"{name} ({value!r}) must be a rate between 0 and 1.")
    n_pos, n_neg = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg)
    a = axis_alpha(level, region)
    cov_tpr = float(axis_coverage(float(p_pos), n_pos, a, method, add=add)[0])
    cov_fpr = float(axis_coverage(float(p_neg), n_neg, a, method, add=add)[0])
    return CoverageResult(tpr=cov_tpr, fpr=cov_fpr, region=cov_tpr * cov_fpr, p_pos=float(p_pos),
                          p_neg=float(p_neg), n_pos=n_pos, n_neg=n_neg, confidence_level=level, method=method,
                          region_kind=region)


def threshold_coverage_curve(population, n_pos, n_neg, rates, *, confidence_level=0.95, method="wilson",
                             region="rectangle", add=2.0) -> pd.DataFrame:
    """Exact coverage of threshold-averaging regions along the total positive rate.

    For each rate ``q`` the true threshold solves ``π·TPR(t) + (1 − π)·FPR(t) = q``
    (:meth:`rocci.coverage.populations.Population.threshold_for_rate`); the region's
    coverage is ``cov_TPR·cov_FPR`` (see :func:`axis_coverage`).

    Returns
    -------
    pandas.DataFrame
        ``total_positive_rate, threshold, tpr, fpr, coverage_tpr, coverage_fpr, coverage``.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PROPORTION_METHODS)
    check_choice("region", region, ("rectangle", "marginal"))
    n_pos, n_neg = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg)
    q = _check_rate("rates", rates)
    t = population.threshold_for_rate(q)
    tpr, fpr = population.tpr(t), population.fpr(t)
    a = axis_alpha(level, region)
    ct = axis_coverage(tpr, n_pos, a, method, add=add)
    cf = axis_coverage(fpr, n_neg, a, method, add=add)
    return pd.DataFrame({"total_positive_rate": q, "threshold": t, "tpr": tpr, "fpr": fpr,
                         "coverage_tpr": ct, "coverage_fpr": cf, "coverage": ct * cf})


_GRID_MAX = 2001  # full (a, b) interval tables up to this many counts per axis


def _paired_table(n: int, alpha: float, gamma: str):
    """Score-interval ends for every ``(a, b)`` with ``a + b <= n`` (they do not depend on the truth)."""
    a = np.arange(n + 1)
    A, B = np.meshgrid(a, a, indexing="ij")
    return paired_score_interval(A, B, n, n, alpha, gamma=gamma)


def _trinomial_coverage(n: int, p_a: float, p_b: float, alpha: float, gamma: str, table=None) -> float:
    """``Σ_{a,b} P(A = a, B = b)·1[low(a, b) <= p_a − p_b <= high(a, b)]`` for one class."""
    delta = p_a - p_b
    lo_a, hi_a = _window(n, p_a)
    a = np.arange(lo_a, hi_a + 1)
    pa = binomial_pmf(a, n, p_a)
    q = 0.0 if p_a >= 1 else min(max(p_b / (1.0 - p_a), 0.0), 1.0)
    lo_b, hi_b = _window(n, q)
    lo_b = max(lo_b - (hi_a - lo_a), 0)  # the trials left, n − a, vary with a: widen (cheap, exact anyway)
    b = np.arange(lo_b, min(hi_b, n) + 1)
    A, B = np.meshgrid(a, b, indexing="ij")
    R = n - A
    valid = B <= R
    pb = np.where(valid, binomial_pmf(B, np.maximum(R, 0), q), 0.0)
    if table is not None:
        low, high = table[0][lo_a:hi_a + 1, b[0]:b[-1] + 1], table[1][lo_a:hi_a + 1, b[0]:b[-1] + 1]
    else:
        low, high = paired_score_interval(A, B, n, n, alpha, gamma=gamma)
    covers = (low <= delta + 1e-15) & (delta - 1e-15 <= high) & valid
    return float((pa[:, None] * pb * covers).sum())


def paired_threshold_coverage(pair, n_pos, n_neg, rates, *, confidence_level=0.9, region="rectangle",
                              gamma="smoothed") -> pd.DataFrame:
    """Exact coverage of paired threshold-averaging regions (thesis §4.5.2).

    Both models are set at the same total positive rate ``q`` (each its own
    true threshold).  In each class the paired test-set cells are trinomial;
    the score interval for ``Δ = p_a − p_b`` (eq. 4.8, γ smoothed as in 4.9,
    :func:`rocci.compare.paired_score_interval`) depends on ``(A, B)`` only,
    so each axis's coverage is a finite double sum and the rectangle's is
    their product (the classes are independent).

    Returns
    -------
    pandas.DataFrame
        ``total_positive_rate, threshold_a, threshold_b, delta_tpr, delta_fpr,
        coverage_tpr, coverage_fpr, coverage``.
    """
    level = check_confidence_level(confidence_level)
    check_choice("region", region, ("rectangle", "marginal"))
    n_pos, n_neg = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg)
    q = _check_rate("rates", rates)
    alpha = axis_alpha(level, region)
    ta, tb = pair.a.threshold_for_rate(q), pair.b.threshold_for_rate(q)
    ap, bp, _ = pair.cells(ta, tb, "pos")
    an, bn, _ = pair.cells(ta, tb, "neg")
    tp = _paired_table(n_pos, alpha, gamma) if n_pos < _GRID_MAX else None
    tn = tp if n_neg == n_pos else (_paired_table(n_neg, alpha, gamma) if n_neg < _GRID_MAX else None)
    ct = np.array([_trinomial_coverage(n_pos, ap[i], bp[i], alpha, gamma, tp) for i in range(q.size)])
    cf = np.array([_trinomial_coverage(n_neg, an[i], bn[i], alpha, gamma, tn) for i in range(q.size)])
    return pd.DataFrame({"total_positive_rate": q, "threshold_a": ta, "threshold_b": tb,
                         "delta_tpr": ap - bp, "delta_fpr": an - bn,
                         "coverage_tpr": ct, "coverage_fpr": cf, "coverage": ct * cf})


# ---------------------------------------------------------------------------
# Cost intervals as functions of the counts
# ---------------------------------------------------------------------------


def _z(level: float) -> float:
    return float(special.ndtri(0.5 + level / 2))


def cost_interval(fn, fp, n_pos, n_neg, w, *, confidence_level=0.9, method="agresti-coull", add=2.0,
                  formulas="stratified"):
    """The cost interval of :func:`rocci.cost_ci` at a fixed threshold, from counts.

    Vectorised over arrays of counts ``fn`` (false negatives), ``fp`` (false
    positives) and class sizes.  With ``q+ = FN/n+``, ``q− = FP/n−``:

    * stratified (eqs. 5.4–5.5 with the ``1/n±`` factors):
      ``E = w·q+ + (1 − w)·q−``, ``Var = w²q+(1 − q+)/n+ + (1 − w)²q−(1 − q−)/n−``;
    * full (§5.2, on the stratified scale, ``π = n+/n``):
      ``Var = [w²q+/π + (1 − w)²q−/(1 − π) − E²]/n``;
    * Agresti–Coull: ``add`` in each of the four cells first, i.e.
      ``q̃± = (count + add)/(n± + 2·add)`` and sizes ``n± + 2·add``
      (full: ``n + 4·add`` draws, ``π̃ = (n+ + 2·add)/(n + 4·add)``).

    The interval is ``E ± z·sqrt(Var)`` clipped to [0, 1].
    """
    check_choice("method", method, COST_INTERVALS)
    check_choice("formulas", formulas, COST_FORMULAS)
    fn, fp, n_pos, n_neg = (np.asarray(v, dtype=float) for v in (fn, fp, n_pos, n_neg))
    w = np.asarray(w, dtype=float)
    k = 2
    a = float(add) if method == "agresti-coull" else 0.0
    qp = (fn + a) / (n_pos + k * a)
    qn = (fp + a) / (n_neg + k * a)
    mean = w * qp + (1 - w) * qn
    if formulas == "stratified":
        var = w**2 * qp * (1 - qp) / (n_pos + k * a) + (1 - w) ** 2 * qn * (1 - qn) / (n_neg + k * a)
    else:
        m = n_pos + n_neg + 2 * k * a
        pi = (n_pos + k * a) / m
        var = (w**2 * qp / pi + (1 - w) ** 2 * qn / (1 - pi) - mean**2) / m
    sd = np.sqrt(np.maximum(var, 0.0))
    z = _z(check_confidence_level(confidence_level))
    return np.clip(mean - z * sd, 0.0, 1.0), np.clip(mean + z * sd, 0.0, 1.0)


def paired_cost_interval(a_pos, b_pos, a_neg, b_neg, n_pos, n_neg, w, *, confidence_level=0.9,
                         method="agresti-coull", add=0.5, formulas="stratified"):
    """The interval of :func:`rocci.compare_cost` at fixed thresholds, from the paired cells.

    ``ΔC = C_a − C_b = w(q_b+ − q_a+) + (1 − w)(q_a− − q_b−)`` (A − B, as
    :func:`rocci.compare_cost` since 0.2.0) with ``q`` the discordant
    cells' within-class proportions; stratified
    ``Var = w²[q_a+ + q_b+ − (q_a+ − q_b+)²]/n+ + (1 − w)²[q_a− + q_b− − (q_a− − q_b−)²]/n−``
    (eq. 5.8 with the sign of math.md §5; the thesis's ``C2 − C1`` is ``−ΔC``); full
    ``Var = [w²(q_a+ + q_b+)/π + (1 − w)²(q_a− + q_b−)/(1 − π) − E²]/n``.
    Agresti–Min: ``add`` in each of the four paired cells of each class
    (sizes ``n± + 4·add``; full ``n + 8·add``).  Clipped to [−1, 1].
    """
    check_choice("method", method, COST_INTERVALS)
    check_choice("formulas", formulas, COST_FORMULAS)
    a_pos, b_pos, a_neg, b_neg, n_pos, n_neg = (
        np.asarray(v, dtype=float) for v in (a_pos, b_pos, a_neg, b_neg, n_pos, n_neg))
    w = np.asarray(w, dtype=float)
    k = 4
    ad = float(add) if method == "agresti-coull" else 0.0
    qap, qbp = (a_pos + ad) / (n_pos + k * ad), (b_pos + ad) / (n_pos + k * ad)
    qan, qbn = (a_neg + ad) / (n_neg + k * ad), (b_neg + ad) / (n_neg + k * ad)
    mean = w * (qbp - qap) + (1 - w) * (qan - qbn)
    if formulas == "stratified":
        var = (w**2 * (qap + qbp - (qap - qbp) ** 2) / (n_pos + k * ad)
               + (1 - w) ** 2 * (qan + qbn - (qan - qbn) ** 2) / (n_neg + k * ad))
    else:
        m = n_pos + n_neg + 2 * k * ad
        pi = (n_pos + k * ad) / m
        var = (w**2 * (qap + qbp) / pi + (1 - w) ** 2 * (qan + qbn) / (1 - pi) - mean**2) / m
    sd = np.sqrt(np.maximum(var, 0.0))
    z = _z(check_confidence_level(confidence_level))
    return np.clip(mean - z * sd, -1.0, 1.0), np.clip(mean + z * sd, -1.0, 1.0)


def cost_coverage(population, n_pos, n_neg, w, *, confidence_level=0.9, method="agresti-coull", add=2.0,
                  formulas="stratified", thresholds=None) -> pd.DataFrame:
    """Exact coverage of cost intervals at fixed thresholds (thesis §5.3, figs 5.1, 5.2, 5.7–5.9).

    At each operating point ``w`` the threshold is the true cost minimiser
    (:meth:`rocci.coverage.populations.Population.optimal_threshold`) unless
    ``thresholds`` are given; the test set has ``n+`` positives and ``n−``
    negatives, so ``FN ~ Bin(n+, 1 − TPR)`` and ``FP ~ Bin(n−, FPR)``
    independently, and

    ``coverage = Σ_x Σ_y b(x; n+, 1 − TPR)·b(y; n−, FPR)·1[low(x, y) <= C <= high(x, y)]``

    with ``C = w(1 − TPR) + (1 − w)FPR`` the true cost and the interval of
    :func:`cost_interval`.

    Returns
    -------
    pandas.DataFrame
        ``w, threshold, tpr, fpr, cost, coverage``.
    """
    level = check_confidence_level(confidence_level)
    n_pos, n_neg = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg)
    w = _check_rate("w", w)
    t = population.optimal_threshold(w) if thresholds is None else np.broadcast_to(
        np.asarray(thresholds, dtype=float), w.shape).copy()
    tpr, fpr = population.tpr(t), population.fpr(t)
    cost = population.cost(t, w)
    cov = np.empty_like(w)
    for i in range(w.size):
        pfn, pfp = 1.0 - tpr[i], fpr[i]
        lx, hx = _window(n_pos, pfn)
        ly, hy = _window(n_neg, pfp)
        x = np.arange(lx, hx + 1)
        y = np.arange(ly, hy + 1)
        low, high = cost_interval(x[:, None], y[None, :], n_pos, n_neg, w[i], confidence_level=level,
                                  method=method, add=add, formulas=formulas)
        tol = 1e-12
        covers = (low <= cost[i] + tol) & (cost[i] - tol <= high)
        cov[i] = float(binomial_pmf(x, n_pos, pfn) @ covers @ binomial_pmf(y, n_neg, pfp))
    return pd.DataFrame({"w": w, "threshold": t, "tpr": tpr, "fpr": fpr, "cost": cost, "coverage": cov})


#: Largest number of (positive pair) × (negative pair) terms per operating point for the exact paired cost sum.
PAIRED_COST_BUDGET = 4_000_000


def _trinomial_support(n: int, p_a: float, p_b: float, tail: float = 1e-17):
    """Counts ``(a, b)`` of a trinomial holding all but ``< tail`` per term of the mass, and their probabilities."""
    lo_a, hi_a = _window(n, p_a)
    a = np.arange(lo_a, hi_a + 1)
    q = 0.0 if p_a >= 1 else min(max(p_b / (1.0 - p_a), 0.0), 1.0)
    lo_b, hi_b = _window(n, q)
    lo_b = max(lo_b - (hi_a - lo_a), 0)
    b = np.arange(lo_b, min(hi_b, n) + 1)
    A, B = np.meshgrid(a, b, indexing="ij")
    valid = B <= n - A
    prob = np.where(valid, binomial_pmf(A, n, p_a) * binomial_pmf(B, np.maximum(n - A, 0), q), 0.0)
    keep = prob > tail
    return A[keep], B[keep], prob[keep]


def paired_cost_coverage(pair, n_pos, n_neg, w, *, confidence_level=0.9, method="agresti-coull", add=0.5,
                         formulas="stratified") -> pd.DataFrame:
    """Exact coverage of the paired cost-difference interval at the true optimal thresholds (small n).

    Each model sits at its true cost minimiser at ``w``; per class the
    discordant cells are trinomial, independent between classes, and the
    interval of :func:`paired_cost_interval` depends on all four counts, so

    ``coverage = Σ_{a+,b+} Σ_{a−,b−} P+(a+, b+)·P−(a−, b−)·1[low <= ΔC <= high]``,

    ``ΔC = C_a − C_b = w(TPR_b − TPR_a) + (1 − w)(FPR_a − FPR_b)``.  Terms below 1e-17 are
    dropped (the mass left out is reported in ``truncated_mass``).  The sum
    has (pairs of positives) × (pairs of negatives) terms per ``w``; beyond
    :data:`PAIRED_COST_BUDGET` it raises :class:`rocci.InputError` (use
    :func:`rocci.coverage.simulate_paired_cost_coverage`).

    Returns
    -------
    pandas.DataFrame
        ``w, delta_cost, coverage, truncated_mass``.
    """
    level = check_confidence_level(confidence_level)
    n_pos, n_neg = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg)
    w = _check_rate("w", w)
    ta, tb = pair.a.optimal_threshold(w), pair.b.optimal_threshold(w)
    pap, pbp, _ = pair.cells(ta, tb, "pos")
    pan, pbn, _ = pair.cells(ta, tb, "neg")
    target = w * (pbp - pap) + (1 - w) * (pan - pbn)
    cov, lost = np.empty_like(w), np.empty_like(w)
    for i in range(w.size):
        ap, bp, prp = _trinomial_support(n_pos, pap[i], pbp[i])
        an, bn, prn = _trinomial_support(n_neg, pan[i], pbn[i])
        if ap.size * an.size > PAIRED_COST_BUDGET:
            raise InputError(
                f"The exact paired cost sum needs {ap.size * an.size:,} terms at w = {w[i]:g} "
                f"(limit {PAIRED_COST_BUDGET:,}); use simulate_paired_cost_coverage for n = {n_pos:,}.")
        low, high = paired_cost_interval(ap[:, None], bp[:, None], an[None, :], bn[None, :], n_pos, n_neg, w[i],
                                         confidence_level=level, method=method, add=add, formulas=formulas)
        covers = (low <= target[i] + 1e-12) & (target[i] - 1e-12 <= high)
        cov[i] = float(prp @ covers @ prn)
        lost[i] = max(1.0 - prp.sum() * prn.sum(), 0.0)
    return pd.DataFrame({"w": w, "delta_cost": target, "coverage": cov, "truncated_mass": lost})
