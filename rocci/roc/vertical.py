"""Vertical averaging, one model: exact bootstrap law of the TPR at fixed FPR levels."""

from __future__ import annotations

import numpy as np

from .._core.results import VerticalCI
from .._core.inputs import InputError, check_choice, check_confidence_level, check_m
from .._core.counts import binary_counts
from .._core.exact import order_statistic_laws, order_statistic_runs
from .._core.intervals import VERTICAL_METHODS, mixture_moments, vertical_bounds

__all__ = ["vertical_ci", "fpr_levels", "VERTICAL_METHODS"]

#: FPR levels used when none are given.
DEFAULT_FPR = np.round(np.linspace(0.01, 0.99, 99), 2)


def fpr_levels(fpr, m_neg: int) -> np.ndarray:
    """Map FPR values to levels ``r`` of ``r/m−`` (nearest ``r``, clipped to 1..m−−1)."""
    if m_neg < 2:
        raise InputError(
            f"Vertical averaging needs at least 2 negatives in the bootstrap sample "
            f"(FPR levels r/m− with 1 <= r <= m− − 1); m− is {m_neg}."
        )
    if fpr is None:  # (sorted: the distinct levels are where r changes, as np.unique would give them)
        r = np.clip(np.rint(DEFAULT_FPR * m_neg), 1, m_neg - 1).astype(np.int64)
        keep = np.ones(r.size, dtype=bool)
        np.not_equal(r[1:], r[:-1], out=keep[1:])
        return r[keep]
    values = np.atleast_1d(np.asarray(fpr))
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"fpr must hold numbers between 0 and 1; got {fpr!r}.") from None
    if values.ndim != 1 or values.size == 0:
        raise InputError("fpr must be a non-empty list of false positive rates.")
    if (~np.isfinite(values)).any() or ((values < 0) | (values > 1)).any():
        raise InputError(f"fpr values must lie in [0, 1]; got {values.tolist()!r}.")
    return np.clip(np.rint(values * m_neg), 1, m_neg - 1).astype(np.int64)


def _segments(weights: np.ndarray, values: np.ndarray, level_start: np.ndarray, offsets: np.ndarray):
    """:func:`compress_mixture` of every level at once: within each level (``level_start``
    marks its first element), runs of equal ``values`` merged, weights summed in the same
    order.  Returns the merged weights and values and the levels' offsets into them."""
    change = level_start.copy()
    change[1:] |= values[1:] != values[:-1]
    starts = np.flatnonzero(change)
    return np.add.reduceat(weights, starts), values[starts], np.searchsorted(starts, offsets)


class _Runs:
    """Each level's compressed mixture ``(weights, p)``, sliced from flat arrays on demand (a sequence)."""

    def __init__(self, weights: np.ndarray, values: np.ndarray, offsets: np.ndarray):
        self._w, self._v, self._off = weights, values, offsets

    def __len__(self) -> int:
        return self._off.size - 1

    def __getitem__(self, i: int):
        i = range(len(self))[i]  # (negative indices; IndexError past the end)
        a, b = int(self._off[i]), int(self._off[i + 1])
        return self._w[a:b], self._v[a:b]


class _ThresholdLaws:
    """The law of ``T_r`` over distinct negative scores at each level, built on first use (a sequence).

    The intervals need each level's cells merged over equal ``p_k`` only (far fewer edges), so the
    per-cell law behind the threshold's distribution is computed when it is asked for."""

    def __init__(self, counts, r_levels: np.ndarray, m_neg: int, n_neg: int):
        self._args = (counts, r_levels, m_neg, n_neg)
        self._laws = None

    def __len__(self) -> int:
        return self._args[1].size

    def __getitem__(self, i: int):
        if self._laws is None:
            counts, r_levels, m_neg, n_neg = self._args
            k, w, offsets, _ = order_statistic_laws(r_levels, m_neg, n_neg)
            level_start = np.zeros(k.size, dtype=bool)
            level_start[offsets[:-1]] = True
            tw, ts, t_off = _segments(w, counts.neg_at_rank(k), level_start, offsets)
            self._laws = _Runs(tw, ts, t_off)
        w, s = self._laws[i]
        return s, w


def vertical_ci(
    y_true,
    y_score=None,
    *,
    fpr=None,
    pos_label=None,
    confidence_level=0.95,
    method="score",
    m=None,
) -> VerticalCI:
    """Exact bootstrap intervals for the TPR at fixed FPR levels (vertical averaging).

    Gadoury (2009), §4.4.1, Algorithm 4.3.  In a stratified bootstrap sample the
    threshold giving FPR ``r/m−`` is ``T_r``, the r-th largest negative score
    drawn.  With the negatives sorted decreasingly ``s_1 >= … >= s_n−``,

    ``P(T_r = s_k) = B(r − 1; m−, (k − 1)/n−) − B(r − 1; m−, k/n−)``   (eq. 4.11)

    and, given ``T_r = s_k``, ``m+·TPR* ~ Bin(m+, p_k)`` with ``p_k`` the
    fraction of positives scoring ``>= s_k``, so the exact law is the mixture

    ``P(TPR* = l/m+) = Σ_k P(T_r = s_k) · b(l; m+, p_k)``   (eq. 4.12)

    with mean ``Σ_k P(T_r = s_k) p_k`` (4.13) and second moment
    ``Σ_k P(T_r = s_k)[p_k² + p_k(1 − p_k)/m+]`` (4.14, where the thesis's
    ``m_k+`` means ``m+``).  The weights vanish outside a window of width
    O(sqrt(r)·n−/m−) around ``k ≈ r·n−/m−``; only that window is computed (the
    probability left out is reported as ``truncated_mass``, ≤ 2e-16), so each
    level costs far less than O(n).

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    fpr : array_like, optional
        False positive rates; each maps to the nearest level ``r/m−`` with
        ``1 <= r <= m− − 1``.  Default: 0.01, 0.02, …, 0.99 (duplicates merged).
    confidence_level : float, default 0.95
        Level of each pointwise interval.
    method : {"score", "percentile", "wald"}
        ``"score"`` (default since 0.2.0): Algorithm 4.3,
        ``[e + z²/2m+ ± z·sqrt(v + (z/2m+)²)]/(1 + z²/m+)`` with the exact mean
        ``e`` and variance ``v``; it can leave [0, 1] and is clipped.
        ``"percentile"`` (the default before 0.2.0): the ``α/2`` and
        ``1 − α/2`` quantiles of the exact mixture law (smallest ``l/m+`` whose
        CDF reaches the level); it collapses to [1, 1] near TPR = 1 (Notes).
        ``"wald"``: ``e ± z·sqrt(v)``, clipped to [0, 1].
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``; default ``m± = n±``.

    Returns
    -------
    VerticalCI
        ``to_frame()``: ``fpr, r, tpr, tpr_mean, tpr_std, tpr_low, tpr_high``
        (+ ``truncated_mass``); ``distribution(i)`` gives the exact law.

    Notes
    -----
    Coverage (the Coverage lab, ``docs/coverage.md``, thesis figures 4.6–4.8):
    away from the corners the percentile and score intervals agree and hold
    their level.  Where the true TPR is within about ``1/n+`` of 1 (high FPR,
    well-separated classes, small ``n+``) every bootstrap sample can have all
    its positives above the threshold: the exact law is then a point mass at
    1 and the percentile interval ``[1, 1]`` has zero width and misses the
    truth (coverage 0.29 at FPR .95 for θ = 5, n = 10,000; any Monte Carlo
    percentile bootstrap, as pROC's, fails the same way).  The score interval
    keeps a width of order ``z²/m+`` there and holds its level: it is the
    default (and the dashboard's).

    The TPR at a fixed FPR (``tpr``, and ``T_r`` in every bootstrap sample)
    follows the package's one rule (``docs/conventions.md``), shared with
    :func:`rocci.fold_vertical_average`: the TPR at the highest threshold
    whose FPR reaches the level, i.e. at the ``⌈fpr·n−⌉``-th largest negative
    score.  Where the ROC curve is vertical at that FPR this is the **bottom**
    of the vertical segment.  A positive tied with ``T_r`` counts as a true
    positive (``score >= T_r``), so with positive–negative ties it is the
    **top** (upper end) of the diagonal ROC segment.  Ties among negatives
    are harmless.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.vertical_ci([0, 0, 0, 0, 1, 1, 1], [.1, .2, .3, .5, .4, .6, .9], fpr=[0.25])
    >>> int(res.r[0]), round(float(res.tpr_mean[0]), 4)
    (1, 0.7721)
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, VERTICAL_METHODS)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    r_levels = fpr_levels(fpr, m_neg)
    levels = r_levels / m_neg
    k_obs = np.clip(np.ceil(np.round(levels * n_neg, 9)).astype(np.int64), 1, n_neg)
    tpr = counts.n_pos_ge(counts.neg_at_rank(k_obs)) / n_pos

    # The laws of T_r at every level in one pass, each level's cells merged over runs of equal
    # p_k = #{positives >= k-th largest negative}/n+ (order_statistic_runs: only the edges where p_k
    # changes are computed).
    def v_of(k):  # n+·p_k (neg_at_rank: the k-th largest negative, neg_desc()[k − 1], without expanding a table)
        return counts.n_pos_ge(counts.neg_at_rank(k))

    _, cv, cw, c_off, trunc = order_statistic_runs(r_levels, m_neg, n_neg, v_of)
    moments = mixture_moments(cw, cv, c_off, n_pos, m_pos)
    mean, sd = moments["mean"], moments["sd"]
    laws = _Runs(cw, moments["p"], c_off)
    low, high = vertical_bounds(method, level, cw, cv, c_off, n_pos, m_pos, moments)
    # Law of T_r over distinct scores (tied negatives share one threshold), on first use.
    t_laws = _ThresholdLaws(counts, r_levels, m_neg, n_neg)

    return VerticalCI(
        fpr=levels,
        r=r_levels,
        tpr=tpr,
        tpr_mean=mean,
        tpr_std=sd,
        tpr_low=low,
        tpr_high=high,
        truncated_mass=trunc,
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
        method=method,
        confidence_level=level,
        _laws=laws,
        _threshold_laws=t_laws,
        _mixture=(cw, cv, c_off),
    )
