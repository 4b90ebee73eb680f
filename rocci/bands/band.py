"""Simultaneous confidence bands for a ROC curve (issue 15): :func:`roc_band`.

See ``docs/bands.md`` for what each band promises and the coverage study.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, special

from .._core.compat import warn_deprecated
from .._core.results import _FrameResult, column
from .._core.inputs import InputError, check_choice, check_confidence_level, check_m, format_value
from .._core.counts import binary_counts
from .._core.counts import ScoreCounts
from .._core.exact import BinomialMixture
from ..roc.vertical import fpr_levels, vertical_ci
from .recursion import PartialSums
from .region import band_area, band_envelope

__all__ = ["RocBand", "roc_band", "BAND_KINDS", "THRESHOLD_METHODS", "VERTICAL_METHODS"]

BAND_KINDS = ("threshold", "vertical")
THRESHOLD_METHODS = ("exact", "monte-carlo", "sidak", "bonferroni")
VERTICAL_METHODS = ("sidak", "bonferroni", "monte-carlo")
VERTICAL_INTERVALS = ("percentile", "score")

#: Default number of Monte Carlo resamples for ``method="monte-carlo"``.
DEFAULT_N_BOOT = 2000


@dataclass(repr=False)
class RocBand(_FrameResult):
    """A simultaneous confidence band for a ROC curve.

    Attributes
    ----------
    kind : {"threshold", "vertical"}
    method : str
        ``"exact"``, ``"monte-carlo"``, ``"sidak"`` or ``"bonferroni"``.
    thresholds : ndarray of shape (K,)
        Threshold kind: the thresholds, decreasing.  Vertical kind: the
        thresholds giving the observed TPR at each level.
    fpr, tpr : ndarray of shape (K,)
        The observed ROC point at each threshold (vertical kind: ``fpr`` is
        the level ``r/m−``).
    fpr_low, fpr_high, tpr_low, tpr_high : ndarray of shape (K,)
        The band's box at each row: exactly the region whose bootstrap
        probability is ``joint_probability`` (issue 34).  Threshold kind: the
        counts of the calibrated event as rates, ``tpr_low = tp_min/m+``,
        ``tpr_high = tp_max/m+`` (likewise FPR with ``m−``); where an observed
        rate is 0 or 1 at a finite threshold (the bootstrap count cannot move)
        the box reaches the score bound ``c²/(m + c²)`` from the corner, which
        leaves the probability unchanged.  Vertical kind: ``fpr_low = fpr_high
        = fpr``; ``tp_min/m+ … tp_max/m+`` (percentile and Monte Carlo), or the
        score interval of the deprecated ``interval="score"``.
    tp_min, tp_max : ndarray of int64 or None
        The bootstrap counts ``TP*_k`` (out of ``m+``) the box allows: the
        integers ``x`` with ``|x − m+·tpr_k| <= c·sqrt(m+·tpr_k(1 − tpr_k))``
        (``"exact"``, ``"monte-carlo"``), or the equal-tailed percentile
        interval of ``Bin(m+, tpr_k)`` at the adjusted level (``"sidak"``,
        ``"bonferroni"``), widened at the corners as above.  Vertical kind:
        the counts inside ``[m+·tpr_low, m+·tpr_high]``.
    fp_min, fp_max : ndarray of int64 or None
        Likewise for ``FP*_k`` (threshold kind).
    critical_value : float
        ``c``, the common standardised half-width: the smallest value for which
        the bootstrap event has probability ``>= confidence_level`` (exact, or
        a Monte Carlo quantile); for ``"sidak"``/``"bonferroni"`` the normal
        quantile of the adjusted per-interval level.
    pointwise_level : float
        The level of each interval on its own: ``2Φ(c) − 1`` (the calibrated
        per-axis level), or the Šidák/Bonferroni per-interval level.
    joint_probability : float
        Probability under the bootstrap that the whole bootstrap curve is in
        the event: exact (``"exact"``; ``>= confidence_level``), a Monte Carlo
        estimate (``"monte-carlo"``), or, for the vertical ``"sidak"`` and
        ``"bonferroni"`` bands, an exact lower bound ``1 − Σ_k P*(row k outside)``.
        Threshold ``"sidak"``/``"bonferroni"``: the exact probability of the same
        event at their ``c``.
    joint_probability_kind : {"exact", "monte carlo", "lower bound"}
    joint_probability_se : float
        Monte Carlo standard error of ``joint_probability`` (0 otherwise).
    critical_value_below, joint_probability_below : float or None
        ``"exact"`` only: the next smaller breakpoint of ``c`` (the band one
        lattice point narrower somewhere) and its exact probability, which is
        ``< confidence_level``.  ``joint_probability`` is a step function of
        ``c``; these show the calibrated band is the smallest reaching the
        level.
    critical_value_mc_low, critical_value_mc_high : float or None
        ``"monte-carlo"`` only: a 95% Monte Carlo interval for the critical
        value (order statistics of the resampled maxima).
    area : float
        Area of the band region in ROC space (:mod:`rocci.bands.region`).
    confidence_level : float
    n_pos, n_neg, m_pos, m_neg : int
    n_boot : int or None
        Monte Carlo resamples (``"monte-carlo"`` only).
    seed : object
        The seed used by ``"monte-carlo"``.
    evaluations : int
        Runs of the recursion during calibration (one per class and distinct
        set of bounds).
    """

    kind: str
    method: str
    thresholds: np.ndarray = column("threshold")
    fpr: np.ndarray = column()
    tpr: np.ndarray = column()
    fpr_low: np.ndarray = column()
    fpr_high: np.ndarray = column()
    tpr_low: np.ndarray = column()
    tpr_high: np.ndarray = column()
    tp_min: np.ndarray | None = column()
    tp_max: np.ndarray | None = column()
    fp_min: np.ndarray | None = column()
    fp_max: np.ndarray | None = column()
    critical_value: float
    pointwise_level: float
    joint_probability: float
    joint_probability_kind: str
    joint_probability_se: float
    area: float
    confidence_level: float
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    critical_value_below: float | None = None
    joint_probability_below: float | None = None
    critical_value_mc_low: float | None = None
    critical_value_mc_high: float | None = None
    n_boot: int | None = None
    seed: object = None
    evaluations: int = 0
    tp: np.ndarray | None = field(default=None, repr=False)
    fp: np.ndarray | None = field(default=None, repr=False)

    _scalar_fields = ("kind", "method", "confidence_level", "critical_value", "pointwise_level",
                      "joint_probability", "joint_probability_kind", "area")

    def envelope(self):
        """Staircases of the band region for drawing: ``(x, lower, upper)`` (see :func:`band_envelope`)."""
        return band_envelope(self.fpr_low, self.fpr_high, self.tpr_low, self.tpr_high)


# ---------------------------------------------------------------------------
# Standardised bounds and their breakpoints
# ---------------------------------------------------------------------------


class _Axis:
    """One class's counts at the thresholds: ``μ_k = m·p_k``, ``σ_k = sqrt(m·p_k(1 − p_k))``."""

    def __init__(self, counts_ge: np.ndarray, n: int, m: int):
        self.p = counts_ge / n
        self.m = m
        self.mu = m * self.p
        self.sd = np.sqrt(m * self.p * (1 - self.p))
        self.fixed = self.sd <= 0  # p = 0 or 1: the bootstrap count is m·p every time
        self.sd_safe = np.where(self.fixed, 1.0, self.sd)
        self.q = np.diff(counts_ge, prepend=0) / n
        self.sums = None

    def dist(self, x):
        return np.abs(x - self.mu) / self.sd_safe

    def bounds(self, c: float):
        """Integers ``x`` in ``[0, m]`` with ``|x − μ_k| <= c·σ_k`` (``x = μ_k`` where ``σ_k = 0``)."""
        mu, sd = self.mu, self.sd_safe
        lo = np.ceil(mu - c * sd)
        hi = np.floor(mu + c * sd)
        # Decide the lattice points next to the edges with the same test as dist() (rounding at breakpoints).
        lo = np.where((lo - 1 <= mu) & (self.dist(lo - 1) <= c), lo - 1, lo)
        lo = np.where((lo <= mu) & (self.dist(lo) > c), lo + 1, lo)
        hi = np.where((hi + 1 >= mu) & (self.dist(hi + 1) <= c), hi + 1, hi)
        hi = np.where((hi >= mu) & (self.dist(hi) > c), hi - 1, hi)
        lo = np.clip(lo, 0, self.m)
        hi = np.clip(hi, 0, self.m)
        lo = np.where(self.fixed, np.rint(mu), lo)
        hi = np.where(self.fixed, np.rint(mu), hi)
        return lo.astype(np.int64), hi.astype(np.int64)

    def probability(self, c: float) -> float:
        if self.sums is None:
            self.sums = PartialSums(self.q, self.m)
        lo, hi = self.bounds(c)
        return self.sums.probability(lo, hi)

    def breakpoints_between(self, c1: float, c2: float) -> np.ndarray:
        """Values of ``|x − μ_k|/σ_k`` in ``(c1, c2]`` over the lattice points that enter between."""
        lo1, hi1 = self.bounds(c1)
        lo2, hi2 = self.bounds(c2)
        out = []
        for k in np.flatnonzero((lo2 < lo1) | (hi2 > hi1)):
            x = np.concatenate([np.arange(lo2[k], lo1[k]), np.arange(hi1[k] + 1, hi2[k] + 1)])
            out.append(np.abs(x - self.mu[k]) / self.sd_safe[k])
        return np.concatenate(out) if out else np.empty(0)

    def n_between(self, c1: float, c2: float) -> int:
        lo1, hi1 = self.bounds(c1)
        lo2, hi2 = self.bounds(c2)
        return int(np.sum(lo1 - lo2) + np.sum(hi2 - hi1))

    def largest_inside(self, c: float) -> float:
        """Largest breakpoint ``<= c`` (the ``c`` of the band ``bounds(c)`` itself)."""
        lo, hi = self.bounds(c)
        live = ~self.fixed & (lo <= hi)
        if not live.any():
            return 0.0
        mu, sd = self.mu[live], self.sd_safe[live]
        return float(max((np.abs(lo[live] - mu) / sd).max(), (np.abs(hi[live] - mu) / sd).max()))


def _binomial_percentile(ax: _Axis, a: float):
    """Equal-tailed percentile bounds of ``Bin(m, p_k)`` at level ``1 − a`` and their joint probability.

    ``lo_k`` is the smallest count with ``P(X <= lo_k) >= a/2`` and ``hi_k`` the
    smallest with ``P(X <= hi_k) >= 1 − a/2``, so each tail outside holds at
    most ``a/2`` and each interval at least ``1 − a`` (Bonferroni's bound then
    gives the joint level).
    """
    from scipy import stats

    p = np.clip(ax.p, 0.0, 1.0)
    lo = np.nan_to_num(stats.binom.ppf(a / 2, ax.m, p), nan=0.0)
    hi = np.nan_to_num(stats.binom.ppf(1 - a / 2, ax.m, p), nan=0.0)
    lo = np.where(ax.fixed, np.rint(ax.mu), lo).astype(np.int64)
    hi = np.where(ax.fixed, np.rint(ax.mu), hi).astype(np.int64)
    if ax.sums is None:
        ax.sums = PartialSums(ax.q, ax.m)
    return lo, hi, float(ax.sums.probability(lo, hi))


def _widen_fixed(ax: _Axis, lo: np.ndarray, hi: np.ndarray, thresholds: np.ndarray, c: float):
    """The event's count bounds, widened where the bootstrap cannot move.

    At a finite threshold where the observed rate is 0 (or 1) every bootstrap
    sample has the same count, so the event does not constrain it and the
    bounds ``[0, 0]`` would pin the true curve to the corner.  There the upper
    (lower) bound becomes the score bound at ``z = c``: the counts ``x`` with
    ``x/m <= c²/(m + c²)`` (``>= m/(m + c²)``), the rates a score test at the
    band's own width cannot reject.  The bootstrap count (0 or ``m``) stays
    inside, so the bootstrap probability of the whole event is unchanged.
    At ``±inf`` the rates are 0 or 1 by definition and stay points.
    """
    lo, hi = lo.astype(np.int64).copy(), hi.astype(np.int64).copy()
    if c <= 0:
        return lo, hi
    reach = int(np.floor(c * c * ax.m / (ax.m + c * c) + 1e-9))
    finite = np.isfinite(thresholds)
    zero = ax.fixed & (ax.p <= 0) & finite
    one = ax.fixed & (ax.p >= 1) & finite
    hi[zero] = np.maximum(hi[zero], reach)
    lo[one] = np.minimum(lo[one], ax.m - reach)
    return lo, hi


class _Found(Exception):
    """Raised inside the root finder once the bracket holds few breakpoints."""


def _calibrate(axes: list[_Axis], level: float, few: int = 48):
    """Smallest breakpoint ``c`` with ``Π_axes P_axis(c) >= level``.

    ``P(c)`` is a non-decreasing, right-continuous step function with a step at
    every ``c = |x − μ_k|/σ_k``.  Brent's method on ``Φ⁻¹(P(c)) − Φ⁻¹(level)``
    (nearly linear in ``c``) narrows a bracket ``P(c_lo) < level <= P(c_hi)``
    until it holds at most ``few`` breakpoints; a bisection over those
    breakpoints then finds the smallest one reaching the level.  Each axis's
    probability is cached by its bounds, so a step that moves one axis's
    bounds recomputes only that axis.

    Returns ``(c, P(c), c_below, P(c_below), evaluations)``.
    """
    caches: list[dict] = [{} for _ in axes]
    count = [0]

    def prob(c):
        value = 1.0
        for ax, cache in zip(axes, caches):
            lo, hi = ax.bounds(c)
            key = lo.tobytes() + hi.tobytes()
            if key not in cache:
                if ax.sums is None:
                    ax.sums = PartialSums(ax.q, ax.m)
                cache[key] = ax.sums.probability(lo, hi)
                count[0] += 1
            value *= cache[key]
        return value

    if all(ax.fixed.all() for ax in axes):
        return 0.0, 1.0, None, None, 0
    # Bracket: P(c_lo) < level <= P(c_hi).
    n_int = sum(int((~ax.fixed).sum()) for ax in axes)
    c_hi = float(special.ndtri(1 - (1 - level) / (4 * max(n_int, 1)))) + 0.25
    p_hi = prob(c_hi)
    while p_hi < level:
        c_hi *= 1.5
        p_hi = prob(c_hi)
    c_lo = float(special.ndtri(0.5 + np.sqrt(level) / 2))
    p_lo = prob(c_lo)
    while p_lo >= level and c_lo > 1e-9:
        c_lo /= 2
        p_lo = prob(c_lo)
    if p_lo >= level:  # every band reaches the level
        return 0.0, prob(0.0), None, None, count[0]
    state = {"lo": (c_lo, p_lo), "hi": (c_hi, p_hi)}

    def few_left():
        return sum(ax.n_between(state["lo"][0], state["hi"][0]) for ax in axes) <= few

    def h(c):
        p = prob(c)
        if p >= level:
            if c < state["hi"][0]:
                state["hi"] = (c, p)
        elif c > state["lo"][0]:
            state["lo"] = (c, p)
        if few_left():
            raise _Found
        return float(special.ndtri(min(max(p, 1e-300), 1 - 1e-16)) - special.ndtri(level))

    if not few_left():
        try:
            optimize.brentq(h, c_lo, c_hi, xtol=1e-13, rtol=1e-15, maxiter=500)
        except _Found:
            pass
    (c_lo, p_lo), (c_hi, p_hi) = state["lo"], state["hi"]
    cands = np.unique(np.concatenate([ax.breakpoints_between(c_lo, c_hi) for ax in axes]))
    cands = cands[(cands > c_lo) & (cands <= c_hi)]
    # Bisect over the breakpoints: P(cands[-1]) = P(c_hi) >= level, P(below cands[0]) = P(c_lo) < level.
    i, j = 0, cands.size - 1
    probs = {j: p_hi}
    while i < j:
        mid = (i + j) // 2
        probs[mid] = prob(float(cands[mid]))
        if probs[mid] >= level:
            j = mid
        else:
            i = mid + 1
    c_star = float(cands[i])
    p_star = probs[i] if i in probs else prob(c_star)
    if i > 0:
        below = float(cands[i - 1])
        p_below = probs[i - 1] if (i - 1) in probs else prob(below)
    else:
        below = max(ax.largest_inside(c_lo) for ax in axes)
        p_below = p_lo
    return c_star, p_star, below, p_below, count[0]


# ---------------------------------------------------------------------------
# Threshold kind
# ---------------------------------------------------------------------------


def _check_thresholds(counts: ScoreCounts, thresholds) -> np.ndarray:
    if thresholds is None:
        return counts.distinct_thresholds()
    arr = np.atleast_1d(np.asarray(thresholds))
    if arr.ndim != 1 or arr.size == 0:
        raise InputError("thresholds must be a non-empty list of numbers, e.g. thresholds=[0.9, 0.5, 0.1].")
    try:
        arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"thresholds must hold numbers; got {format_value(thresholds)}.") from None
    if np.isnan(arr).any():
        raise InputError("thresholds must not contain missing values (NaN): remove them.")
    return np.unique(arr)[::-1]  # decreasing, duplicates merged


def _mc_threshold_max(axes: list[_Axis], n_boot: int, rng) -> np.ndarray:
    """Resampled ``max_k |X*_k − μ_k|/σ_k`` over both classes (multinomial draws, partial sums)."""
    out = np.zeros(n_boot)
    chunk = max(1, 4_000_000 // max(1, axes[0].q.size))
    for ax in axes:
        pvals = np.concatenate([ax.q, [max(0.0, 1.0 - ax.q.sum())]])
        pvals = pvals / pvals.sum()
        live = ~ax.fixed
        for s in range(0, n_boot, chunk):
            b = min(chunk, n_boot - s)
            sums = np.cumsum(rng.multinomial(ax.m, pvals, size=b)[:, :-1], axis=1)
            if live.any():
                dev = np.abs(sums[:, live] - ax.mu[live]) / ax.sd[live]
                out[s:s + b] = np.maximum(out[s:s + b], dev.max(axis=1))
    return out


def _mc_quantile(stat: np.ndarray, level: float):
    """``c`` = the ⌈level·(B + 1)⌉-th order statistic; 95% MC interval from binomial ranks; hit rate and its se."""
    s = np.sort(stat)
    B = s.size
    j = int(min(B, max(1, np.ceil(level * (B + 1)))))
    c = float(s[j - 1])
    half = 1.96 * np.sqrt(B * level * (1 - level))
    lo = float(s[int(max(0, np.floor(B * level - half) - 1))])
    hi = float(s[int(min(B - 1, np.ceil(B * level + half)))])
    hit = float(np.mean(stat <= c))
    return c, lo, hi, hit, float(np.sqrt(hit * (1 - hit) / B))


def _threshold_band(counts, thresholds, level, method, m_pos, m_neg, n_boot, seed):
    n_pos, n_neg = counts.n_pos, counts.n_neg
    t = _check_thresholds(counts, thresholds)
    tp = counts.n_pos_ge(t).astype(np.int64)
    fp = counts.n_neg_ge(t).astype(np.int64)
    tpr, fpr = tp / n_pos, fp / n_neg
    axes = [_Axis(tp, n_pos, m_pos), _Axis(fp, n_neg, m_neg)]
    extra: dict = {}
    alpha = 1.0 - level
    if method == "exact":
        c, p, c_below, p_below, evals = _calibrate(axes, level)
        extra.update(critical_value_below=c_below, joint_probability_below=p_below, evaluations=evals)
        kind, se = "exact", 0.0
    elif method == "monte-carlo":
        rng = np.random.default_rng(seed)
        stat = _mc_threshold_max(axes, n_boot, rng)
        c, c_lo, c_hi, p, se = _mc_quantile(stat, level)
        extra.update(critical_value_mc_low=c_lo, critical_value_mc_high=c_hi, n_boot=n_boot, seed=seed)
        kind = "monte carlo"
    else:  # sidak / bonferroni over the 2K intervals
        n_int = 2 * t.size
        a_each = alpha / n_int if method == "bonferroni" else 1.0 - level ** (1.0 / n_int)
        c = float(special.ndtri(1 - a_each / 2))
        # Each interval: the equal-tailed percentile interval of the exact law Bin(m, p_k) at level 1 − a_each;
        # the joint probability of all of them is exact (one recursion per class).
        per_axis = [_binomial_percentile(ax, a_each) for ax in axes]
        p = float(np.prod([prob for _, _, prob in per_axis]))
        kind, se = "exact", 0.0
    if method in ("exact", "monte-carlo"):
        bounds = [ax.bounds(c) for ax in axes]
    else:
        bounds = [(lo, hi) for lo, hi, _ in per_axis]
    (tp_min, tp_max), (fp_min, fp_max) = (_widen_fixed(ax, lo, hi, t, c) for ax, (lo, hi) in zip(axes, bounds))
    tpr_low, tpr_high = tp_min / m_pos, tp_max / m_pos
    fpr_low, fpr_high = fp_min / m_neg, fp_max / m_neg
    return RocBand(
        kind="threshold", method=method, thresholds=t, fpr=fpr, tpr=tpr,
        fpr_low=fpr_low, fpr_high=fpr_high, tpr_low=tpr_low, tpr_high=tpr_high,
        tp_min=tp_min, tp_max=tp_max, fp_min=fp_min, fp_max=fp_max,
        critical_value=float(c), pointwise_level=float(2 * special.ndtr(c) - 1),
        joint_probability=float(p), joint_probability_kind=kind, joint_probability_se=se,
        area=band_area(fpr_low, fpr_high, tpr_low, tpr_high), confidence_level=level,
        n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, tp=tp, fp=fp, **extra,
    )


# ---------------------------------------------------------------------------
# Vertical kind
# ---------------------------------------------------------------------------


def _mc_vertical_tpr(counts: ScoreCounts, r, m_pos, m_neg, n_boot, rng) -> np.ndarray:
    """Resampled TPR* at levels ``r/m−`` (``T_r`` = r-th largest resampled negative; ``score >= T_r``).

    A resample is a count per distinct score ``v_1 > v_2 > … > v_D``:
    ``(N*_1, …, N*_D) ~ Multinomial(m−; n−_1/n−, …, n−_D/n−)`` for the
    negatives and, independently, ``(P*_1, …, P*_D) ~ Multinomial(m+;
    n+_1/n+, …)`` for the positives.  With ``C_k = N*_1 + … + N*_k``,
    ``T_r = v_K`` for the first ``K`` with ``C_K >= r``, and
    ``TPR* = (P*_1 + … + P*_K)/m+``: the same law as drawing instances one by
    one, in O(n_boot·D) time and memory per block of resamples (``D`` the
    distinct scores; a table of counts is never expanded).
    """
    values, n_pos_v, n_neg_v = counts.table()
    q_neg = n_neg_v[::-1] / counts.n_neg  # decreasing scores
    q_pos = n_pos_v[::-1] / counts.n_pos
    d = values.size
    out = np.empty((n_boot, r.size))
    chunk = max(1, 4_000_000 // max(1, d))
    for s in range(0, n_boot, chunk):
        b = min(chunk, n_boot - s)
        cum_neg = np.cumsum(rng.multinomial(m_neg, q_neg, size=b), axis=1)  # C_k, rows increasing to m−
        cum_pos = np.cumsum(rng.multinomial(m_pos, q_pos, size=b), axis=1)
        # K per (resample, level): one search of the rows laid end to end (row i offset by i·(m− + 1)).
        offset = (np.arange(b) * (m_neg + 1))[:, None]
        k = np.searchsorted((cum_neg + offset).ravel(), (r[None, :] + offset).ravel(), side="left")
        k = k.reshape(b, r.size) - np.arange(b)[:, None] * d
        out[s:s + b] = np.take_along_axis(cum_pos, k, axis=1) / m_pos
    return out


def _vertical_band(counts, fpr, level, method, interval, m_pos, m_neg, n_boot, seed):
    n_pos, n_neg = counts.n_pos, counts.n_neg
    r = fpr_levels(fpr, m_neg)
    r = np.unique(r)
    L = r.size
    levels = r / m_neg
    alpha = 1.0 - level
    k_obs = np.clip(np.ceil(np.round(levels * n_neg, 9)).astype(np.int64), 1, n_neg)
    thresholds = counts.neg_at_rank(k_obs)  # the k-th largest negative score
    extra: dict = {}
    if method in ("sidak", "bonferroni"):
        per = 1.0 - alpha / L if method == "bonferroni" else level ** (1.0 / L)
        res = vertical_ci(counts, fpr=levels, confidence_level=per, method=interval, m=(m_pos, m_neg))
        c = float(special.ndtri(0.5 + per / 2))
        # The box holds the counts TP* = m+·TPR* inside the interval; a percentile interval that is a single
        # point at 0 or 1 (the bootstrap (nearly) cannot move there) reaches the score bound at z = c, so the
        # band does not pin the true curve to the corner.  The bound below is computed for these boxes.
        tp_min = np.ceil(np.round(res.tpr_low * m_pos, 9)).astype(np.int64)
        tp_max = np.floor(np.round(res.tpr_high * m_pos, 9)).astype(np.int64)
        if interval == "percentile" and c > 0:
            reach = int(np.floor(c * c * m_pos / (m_pos + c * c) + 1e-9))
            point = tp_min == tp_max
            tp_max = np.where(point & (tp_max == 0), np.maximum(tp_max, reach), tp_max)
            tp_min = np.where(point & (tp_min == m_pos), np.minimum(tp_min, m_pos - reach), tp_min)
        if interval == "percentile":
            low, high = tp_min / m_pos, tp_max / m_pos
        else:
            low, high = res.tpr_low, res.tpr_high
        # Exact bootstrap probability of each box from the exact mixture law; Bonferroni bound.
        miss = 0.0
        for i in range(L):
            w, p = res._laws[i]
            law = BinomialMixture(w, p, m_pos)
            inside = law.cdf(int(tp_max[i])) - law.cdf(int(tp_min[i]) - 1)
            miss += 1.0 - inside / float(w.sum())
        prob, kind, se, pointwise = max(0.0, 1.0 - miss), "lower bound", 0.0, per
        tpr_obs = res.tpr
    else:
        res = vertical_ci(counts, fpr=levels, confidence_level=level, method="score", m=(m_pos, m_neg))
        mean, sd = res.tpr_mean, res.tpr_std
        rng = np.random.default_rng(seed)
        tpr_star = _mc_vertical_tpr(counts, r, m_pos, m_neg, n_boot, rng)
        live = sd > 0
        stat = np.zeros(n_boot)
        if live.any():
            stat = (np.abs(tpr_star[:, live] - mean[live]) / sd[live]).max(axis=1)
        c, c_lo, c_hi, prob, se = _mc_quantile(stat, level)
        # The calibrated event |TPR*_i − E*_i| <= c·sd*_i, as counts TP* = m+·TPR*; where sd*_i = 0 the
        # bootstrap cannot move and the box reaches the score bound at z = c (see _widen_fixed).
        tp_min = np.clip(np.ceil(np.round((mean - c * sd) * m_pos, 9)), 0, m_pos).astype(np.int64)
        tp_max = np.clip(np.floor(np.round((mean + c * sd) * m_pos, 9)), 0, m_pos).astype(np.int64)
        if c > 0:
            reach = int(np.floor(c * c * m_pos / (m_pos + c * c) + 1e-9))
            tp_max = np.where(~live & (mean <= 0), np.maximum(tp_max, reach), tp_max)
            tp_min = np.where(~live & (mean >= 1), np.minimum(tp_min, m_pos - reach), tp_min)
        low, high = tp_min / m_pos, tp_max / m_pos
        kind, pointwise = "monte carlo", float(2 * special.ndtr(c) - 1)
        extra.update(critical_value_mc_low=c_lo, critical_value_mc_high=c_hi, n_boot=n_boot, seed=seed)
        tpr_obs = res.tpr
    return RocBand(
        kind="vertical", method=method, thresholds=thresholds, fpr=levels, tpr=tpr_obs,
        fpr_low=levels.copy(), fpr_high=levels.copy(), tpr_low=low, tpr_high=high,
        tp_min=tp_min, tp_max=tp_max, fp_min=None, fp_max=None,
        critical_value=float(c), pointwise_level=float(pointwise), joint_probability=float(prob),
        joint_probability_kind=kind, joint_probability_se=float(se),
        area=band_area(levels, levels, low, high), confidence_level=level,
        n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, **extra,
    )


def _check_n_boot(n_boot) -> int:
    if n_boot is None:
        return DEFAULT_N_BOOT
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 20:
        raise InputError(f"n_boot ({format_value(n_boot)}) must be a whole number of resamples, at least 20, "
                         f"e.g. n_boot=2000.")
    return int(n_boot)


def roc_band(y_true, y_score=None, *, thresholds=None, fpr=None, kind="threshold", confidence_level=0.95,
             method="exact", m=None, pos_label=None, seed=None, n_boot=None, interval="percentile") -> RocBand:
    """Simultaneous confidence band for the whole ROC curve.

    **Threshold kind, exact** (``kind="threshold"``, ``method="exact"``, the
    default).  At thresholds ``t_1 > … > t_K`` (default: every distinct
    score, ``+inf`` first) the stratified bootstrap counts ``TP*_k`` are the
    partial sums of one ``Multinomial(m+; q_1, …, q_K, q_rest)`` over the
    positives' score cells (``q_k`` = fraction of positives in
    ``[t_k, t_{k−1})``), and ``FP*_k`` likewise and independently.  With
    ``μ_k = m+·p_k``, ``σ_k = sqrt(m+·p_k(1 − p_k))`` (``p_k = tp_k/n+``), the
    band is calibrated on the sup-t statistic

    ``M* = max_k max(|TP*_k − μ_k|/σ_k, |FP*_k − μ'_k|/σ'_k)``:

    ``critical_value`` ``c`` is the smallest value with
    ``P*(M* <= c) >= confidence_level``, found exactly.  ``P*(M* <= c)`` is the
    product of two probabilities that the partial sums of a multinomial stay
    within integer bounds, each computed by the Poissonised Steck/Noé
    recursion of :mod:`rocci.bands.recursion`:

    ``g_k(s) = 1{a_k <= s <= b_k} Σ_d g_{k−1}(s − d)·π(d; m·q_k)``,
    ``P = Σ_s g_K(s)·π(m − s; m·q_rest) / π(m; m)``

    (``π`` the Poisson pmf), in O(K·w·L) for windows of ``w`` and kernels of
    ``L`` counts.  The search is a safeguarded regula falsi on ``c`` that ends
    with a bisection over the breakpoints ``|x − μ_k|/σ_k`` themselves, so
    ``c`` is exactly the smallest breakpoint reaching the level
    (``joint_probability >= confidence_level``, and the next smaller
    breakpoint, ``critical_value_below``, gives ``joint_probability_below <
    confidence_level``).

    The table is that event: at each threshold the box holds the counts
    ``a_k <= TP*_k <= b_k`` as rates ``a_k/m+ … b_k/m+`` (and likewise FPR),
    so a direct bootstrap of rows, counting resampled scores ``>=`` each
    threshold of ``to_frame()``, finds every resampled point inside its box
    with probability ``joint_probability`` (``tests/bands/test_band_outside.py``).
    Where an observed rate is 0 or 1 the bootstrap cannot move; the box there
    reaches the score bound ``c²/(m + c²)`` from the corner, so that the band
    does not pin the true curve to the corner, at no cost in probability.
    (Before 0.3.0 the boxes were Wilson intervals at ``z = c``, a different
    region whose bootstrap probability could be far lower: see the CHANGELOG.)

    Why a common standardised half-width rather than a common tail level:
    the studentised maximum is the statistic whose law the bootstrap
    estimates (as for sup-t bands), and ``c`` maps to a per-axis level
    ``2Φ(c) − 1`` in the normal approximation (``pointwise_level``).

    **Vertical kind** (``kind="vertical"``): TPR at FPR levels ``r/m−``
    (:func:`rocci.vertical_ci`'s rule).  The joint law of the ``TPR*`` at
    several levels mixes the joint law of several order statistics of the
    bootstrap negatives; an exact recursion exists (``docs/bands.md``) but
    is not implemented.  Offered: ``method="sidak"`` or ``"bonferroni"``:
    :func:`rocci.vertical_ci` intervals (``interval``) at per-level
    confidence ``(1 − α)^{1/L}`` or ``1 − α/L``; ``joint_probability`` is the
    exact Bonferroni lower bound ``1 − Σ_i P*(TPR*_i outside)`` from each
    level's exact mixture law.  A percentile interval that is a single point
    at 0 or 1 (the law is (nearly) a point mass there) reaches the score
    bound ``c²/(m+ + c²)`` from it, ``c`` the normal quantile of the
    per-level confidence; the bound is computed for the widened boxes.  ``method="monte-carlo"``: sup-t calibration of
    ``max_i |TPR*_i − E*_i|/sd*_i`` (exact moments, eqs. 4.13–4.14) over
    ``n_boot`` seeded resamples; the band is that event,
    ``|TPR* − E*| <= c·sd*`` at each level; labelled Monte Carlo, with
    ``joint_probability_se`` and a 95% Monte Carlo interval for ``c``.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`; or a :class:`~rocci.ScoreCounts` alone.
        A table of counts is never expanded to one row per instance: the
        threshold band depends on the data only through ``TP`` and ``FP`` at
        the thresholds (the cells ``q_k`` of the two multinomials), the
        vertical band through :func:`rocci.vertical_ci` (native on a table)
        and, for its Monte Carlo calibration, multinomial draws over the
        distinct scores.  Time and memory follow the distinct scores and the
        windows of the laws (``O(sqrt(m))`` counts wide), not the instances.
    thresholds : array_like, optional
        Threshold kind: thresholds (sorted decreasingly, duplicates merged).
        Default every distinct score, ``+inf`` first.
    fpr : array_like, optional
        Vertical kind: FPR levels (default 0.01 … 0.99), mapped as in
        :func:`rocci.vertical_ci`.
    kind : {"threshold", "vertical"}
    confidence_level : float, default 0.95
    method : str
        Threshold kind: ``"exact"`` (default), ``"monte-carlo"``, ``"sidak"``,
        ``"bonferroni"`` (percentile intervals of the exact binomial laws at
        the adjusted level over the ``2K`` intervals; their joint probability
        is computed exactly).  Vertical kind: ``"sidak"``, ``"bonferroni"``,
        ``"monte-carlo"`` (``"exact"`` is refused with an explanation).
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``; default ``m± = n±``.
    seed : None, int or numpy Generator
        Monte Carlo only.
    n_boot : int, optional
        Monte Carlo resamples (default 2,000).
    interval : {"percentile", "score"}
        Vertical ``"sidak"``/``"bonferroni"``: the per-level interval of
        :func:`rocci.vertical_ci`.  ``"score"`` is deprecated (FutureWarning):
        score intervals are not quantiles of the bootstrap law, and together
        they can hold the bootstrap curve far less often than the level.

    Returns
    -------
    RocBand

    Examples
    --------
    >>> import rocci.bands as rb
    >>> band = rb.roc_band([0, 0, 0, 1, 1, 1, 0, 1], [.1, .3, .6, .4, .7, .9, .5, .8])
    >>> band.joint_probability >= 0.95 > band.joint_probability_below
    True
    """
    level = check_confidence_level(confidence_level)
    check_choice("kind", kind, BAND_KINDS)
    if method == "montecarlo":  # rocci 0.2's spelling
        warn_deprecated("roc_band(method='montecarlo') is roc_band(method='monte-carlo') since rocci 0.3 (one "
                        "spelling across rocci, as in average_precision).")
        method = "monte-carlo"
    if kind == "vertical" and method == "exact":
        raise InputError(
            "method='exact' is not available for kind='vertical': the joint law of the TPR at several FPR "
            "levels is not computed exactly. Use method='sidak' (exact pointwise laws, conservative) or "
            "method='monte-carlo', or kind='threshold' for an exact band."
        )
    check_choice("method", method, THRESHOLD_METHODS if kind == "threshold" else VERTICAL_METHODS)
    check_choice("interval", interval, VERTICAL_INTERVALS)
    if kind == "vertical" and method in ("sidak", "bonferroni") and interval == "score":
        warnings.warn(
            "roc_band(kind='vertical', interval='score') is deprecated: score intervals are not quantiles of the "
            "bootstrap law, so all of them together can hold the bootstrap curve far less often than the level "
            "(joint_probability reports the exact lower bound of their probability). interval='percentile', the "
            "default, holds the level and keeps a width at the corners where the bootstrap cannot vary.",
            FutureWarning, stacklevel=2)
    if kind == "threshold" and fpr is not None:
        raise InputError("fpr is for kind='vertical'; with kind='threshold' give thresholds instead (or neither).")
    if kind == "vertical" and thresholds is not None:
        raise InputError("thresholds is for kind='threshold'; with kind='vertical' give fpr levels instead.")
    if method != "monte-carlo" and (n_boot is not None or seed is not None):
        raise InputError(f"n_boot and seed are for method='monte-carlo'; method={method!r} uses no random "
                         "resampling. Remove them.")
    n_boot = _check_n_boot(n_boot) if method == "monte-carlo" else None
    counts, _ = binary_counts(y_true, y_score, pos_label)
    m_pos, m_neg = check_m(m, counts.n_pos, counts.n_neg)
    if kind == "threshold":
        return _threshold_band(counts, thresholds, level, method, m_pos, m_neg, n_boot, seed)
    return _vertical_band(counts, fpr, level, method, interval, m_pos, m_neg, n_boot, seed)
