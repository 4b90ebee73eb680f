"""Paired threshold averaging: compare_thresholds and dominance_map (thesis Algorithm 4.2, eq. 4.5)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.results import ConfidenceInterval, _FrameResult, column
from .._core.inputs import check_choice, check_confidence_level, check_m
from .._core.counts import paired_cells_by_class
from ._common import GAMMAS, PAIRED_REGIONS, _check_thresholds, _paired_classes, _threshold_pairs
from .laws import _dominance, difference_pmf, difference_sign_probabilities_by_class, paired_score_interval

@dataclass(repr=False)
class ThresholdComparison(_FrameResult):
    """Exact bootstrap comparison of two models at pairs of thresholds (threshold averaging).

    Gadoury (2009), §4.3.2.  Differences are model a − model b.  For the
    positives ``m+·ΔTPR* = A − B`` with ``(A, B, C) ~ Multinomial(m+; p_a, p_b, p_c)``
    over the paired cells (a = only model a says positive); the negatives
    likewise, independently.

    Attributes
    ----------
    thresholds_a, thresholds_b : ndarray of shape (h,)
        The threshold pairs (``score >= t`` is positive).
    total_positive_rate : ndarray or None
        The rates ``q`` the thresholds were chosen by, if any.
    p_a_dominates, p_b_dominates : ndarray
        Eq. 4.5: ``f1 = P(ΔTPR* >= 0)·P(ΔFPR* <= 0) − P(ΔTPR* = 0)·P(ΔFPR* = 0)``
        (a dominates b, strictly: not both equal) and ``f2`` symmetric.
    delta_tpr, delta_fpr : ndarray
        Observed differences ``δ̃ = p_a − p_b`` = exact bootstrap means (eq. 4.6).
    delta_tpr_std, delta_fpr_std : ndarray
        Exact bootstrap standard deviations ``sqrt((γ̃ − δ̃²)/m)`` with
        ``γ̃ = p_a + p_b`` (eq. 4.7 with its sign corrected).
    delta_tpr_low, delta_tpr_high, delta_fpr_low, delta_fpr_high : ndarray
        Score intervals (eq. 4.8) with γ by ``gamma``; each axis at level
        ``axis_confidence_level``.
    p_tpr_gt, p_tpr_eq, p_tpr_lt, p_fpr_gt, p_fpr_eq, p_fpr_lt : ndarray
        ``P(ΔTPR* > 0)``, ``P(ΔTPR* = 0)``, ``P(ΔTPR* < 0)`` and the same for ΔFPR*.
    n_a_pos, n_b_pos, n_both_pos, n_a_neg, n_b_neg, n_both_neg : ndarray of int64
        Paired cell counts: only a positive, only b positive, both positive,
        among the positives (``_pos``) and the negatives (``_neg``).
    tpr_a, tpr_b, fpr_a, fpr_b : ndarray
        Each model's observed rates at its threshold.
    n_pos, n_neg, m_pos, m_neg : int
    confidence_level, axis_confidence_level : float
    region, gamma : str
    """

    # the frame's columns, in its order (the rate first when the thresholds were chosen by it)
    total_positive_rate: np.ndarray | None = column(default=None, kw_only=True)
    thresholds_a: np.ndarray = column("threshold_a")
    thresholds_b: np.ndarray = column("threshold_b")
    p_a_dominates: np.ndarray = column()
    p_b_dominates: np.ndarray = column()
    delta_tpr: np.ndarray = column()
    delta_tpr_low: np.ndarray = column()
    delta_tpr_high: np.ndarray = column()
    delta_fpr: np.ndarray = column()
    delta_fpr_low: np.ndarray = column()
    delta_fpr_high: np.ndarray = column()
    delta_tpr_std: np.ndarray = column()
    delta_fpr_std: np.ndarray = column()
    n_a_pos: np.ndarray = column()
    n_b_pos: np.ndarray = column()
    n_a_neg: np.ndarray = column()
    n_b_neg: np.ndarray = column()
    tpr_a: np.ndarray = column()
    fpr_a: np.ndarray = column()
    tpr_b: np.ndarray = column()
    fpr_b: np.ndarray = column()
    # not in the frame
    n_both_pos: np.ndarray
    n_both_neg: np.ndarray
    p_tpr_gt: np.ndarray
    p_tpr_eq: np.ndarray
    p_tpr_lt: np.ndarray
    p_fpr_gt: np.ndarray
    p_fpr_eq: np.ndarray
    p_fpr_lt: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    confidence_level: float
    axis_confidence_level: float
    region: str
    gamma: str

    _scalar_fields = (..., "region", "gamma")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "ThresholdComparison":
        """The same comparison with the region at another level, from the paired cells kept.

        The score intervals (eq. 4.8) depend on the paired cells ``n_a_pos``, ``n_b_pos``, ``n_a_neg``,
        ``n_b_neg`` and the sizes only: nothing is read from the data again, and the result equals
        :func:`rocci.compare_thresholds`'s with this ``confidence_level`` (same region and γ).  ``method``:
        ``"score"``, the only one; the dominance probabilities do not depend on the level.
        """
        level, _ = self._interval_args(confidence_level, method, ("score",))
        bounds = _score_region(self.n_a_pos, self.n_b_pos, self.n_a_neg, self.n_b_neg, self.n_pos, self.n_neg,
                               self.m_pos, self.m_neg, level, self.region, self.gamma)
        return dataclasses.replace(self, **bounds, confidence_level=level)

    def delta_tpr_ci(self, i: int) -> ConfidenceInterval:
        return ConfidenceInterval(float(self.delta_tpr_low[i]), float(self.delta_tpr_high[i]))

    def delta_fpr_ci(self, i: int) -> ConfidenceInterval:
        return ConfidenceInterval(float(self.delta_fpr_low[i]), float(self.delta_fpr_high[i]))

    def distribution(self, i: int, axis: str = "tpr") -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ΔTPR* (or ΔFPR*) at the ``i``-th threshold pair.

        Returns
        -------
        values : ndarray
            ``d/m`` for consecutive integers ``d`` (``m = m+`` or ``m−``): all
            of ``−m … m`` when ``m <= 1000``, else the window holding all but
            ~1e-17 of the probability.
        probabilities : ndarray
            ``P(A − B = d)``, see :func:`difference_pmf`.
        """
        check_choice("axis", axis, ("tpr", "fpr"))
        if axis == "tpr":
            m, n, na, nb = self.m_pos, self.n_pos, self.n_a_pos[i], self.n_b_pos[i]
        else:
            m, n, na, nb = self.m_neg, self.n_neg, self.n_a_neg[i], self.n_b_neg[i]
        d, pmf = difference_pmf(m, na / n, nb / n)
        return d / m, pmf


def _score_region(na_p, nb_p, na_n, nb_n, n_pos, n_neg, m_pos, m_neg, level: float, region: str, gamma: str) -> dict:
    """The score intervals of ΔTPR and ΔFPR (eq. 4.8, γ by ``gamma``) from the paired cells, each axis at the
    level of ``region`` (a rectangle: ``sqrt(level)`` per axis), and that axis level."""
    alpha = 1.0 - level
    axis_alpha = 1.0 - np.sqrt(1.0 - alpha) if region == "rectangle" else alpha
    t_low, t_high = paired_score_interval(na_p, nb_p, n_pos, m_pos, axis_alpha, gamma=gamma)
    f_low, f_high = paired_score_interval(na_n, nb_n, n_neg, m_neg, axis_alpha, gamma=gamma)
    return dict(delta_tpr_low=t_low, delta_tpr_high=t_high, delta_fpr_low=f_low, delta_fpr_high=f_high,
                axis_confidence_level=1.0 - axis_alpha)


def compare_thresholds(
    y_true,
    score_a=None,
    score_b=None,
    *,
    thresholds_a=None,
    thresholds_b=None,
    total_positive_rate=None,
    pos_label=None,
    confidence_level=0.95,
    region="rectangle",
    gamma="smoothed",
    m=None,
) -> ThresholdComparison:
    """Exact bootstrap comparison of two models at fixed pairs of thresholds.

    Threshold averaging, paired design (Gadoury 2009, §4.3.2).  Both models
    score the same instances.  At a threshold pair ``(t_a, t_b)`` each
    instance falls in a paired cell: **a** (``s_a >= t_a`` and ``s_b < t_b``),
    **b** (the reverse) or **c** (they agree).  Over stratified bootstrap
    samples, ``m+·ΔTPR* = A − B`` with
    ``(A, B, C) ~ Multinomial(m+; n_a/n+, n_b/n+, n_c/n+)`` over the
    positives, and ``m−·ΔFPR*`` likewise over the negatives, independently.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Labels (two values; 0/1, -1/1 and booleans need no ``pos_label``).
    score_a, score_b : array_like of shape (n,)
        The two models' scores of the same instances.
    thresholds_a : array_like, optional
        Model a's thresholds.  With ``thresholds_b=None`` the same
        thresholds are used for model b (calibrated scores, ``t_a = t_b``).
    thresholds_b : array_like, optional
        Model b's thresholds, paired element by element with ``thresholds_a``
        (a single value is repeated).
    total_positive_rate : array_like, optional
        Instead of thresholds: pair the models at equal total positive rate
        ``q``, each model's threshold being its ``⌈q·n⌉``-th largest score.
    pos_label : object, optional
    confidence_level : float, default 0.95
        Level of the rectangle ΔFPR × ΔTPR (``region="rectangle"``: each
        axis at ``sqrt(confidence_level)``, i.e. ``α_2D = 1 − sqrt(1 − α)``;
        the axes are independent) or of each interval (``"marginal"``).
    region : {"rectangle", "marginal"}
    gamma : {"smoothed", "plugin"}
        Estimate of the nuisance ``γ = p_a + p_b`` in the score interval:
        ``(n_a + n_b + 2)/(n + 4)`` (eq. 4.9, default) or ``(n_a + n_b)/n``.
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``; default ``m± = n±``.

    Returns
    -------
    ThresholdComparison
        ``to_frame()``: ``threshold_a, threshold_b, p_a_dominates,
        p_b_dominates, delta_tpr, delta_tpr_low, delta_tpr_high, delta_fpr,
        delta_fpr_low, delta_fpr_high`` (+ std, cell counts, rates);
        ``distribution(i, axis)``: the exact law of ΔTPR* or ΔFPR*.

    Notes
    -----
    * Dominance (eq. 4.5): ``f1 = P(ΔTPR* >= 0)·P(ΔFPR* <= 0) − P(ΔTPR* = 0)·P(ΔFPR* = 0)``.
    * Moments (eqs. 4.6–4.7): ``E = δ̃ = p_a − p_b``,
      ``Var = (γ̃ − δ̃²)/m`` with ``γ̃ = p_a + p_b``.  **The thesis prints
      ``+δ̃²`` in eq. 4.7: a sign error.**
    * Intervals (eq. 4.8): ``δ = [δ̃ ± z·sqrt((γ(1 + z²/m) − δ̃²)/m)]/(1 + z²/m)``,
      the roots of ``(δ̃ − δ)² = z²(γ − δ²)/m``; clipped to [−1, 1].
    * Probabilities are exact sums of binomial terms (boost), accurate for
      m up to 10⁶ and beyond; the thesis's Algorithm 4.2 (line 4 misprinted,
      ``v = n_b/((1 − u)·n+)``) underflows for m ≈ 1000 and divides by zero
      when ``p_c = 0``, and is not used.  Absolute error below ~1e-16;
      probabilities below 1e-20 may be returned as 0.
    * Cost: O(n log n) for the cell counts, then per distinct cell-count pair
      O(sqrt(m)) binomial evaluations (m > 1000) or, for m <= 1000, O(m)
      recurrence terms between three exact anchors (about 50 µs a pair at m = 500).

    Examples
    --------
    >>> import rocci.compare as rc
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> a = [.9, .8, .6, .3, .7, .4, .2, .1]
    >>> b = [.9, .5, .7, .6, .3, .6, .2, .1]
    >>> res = rc.compare_thresholds(y, a, b, thresholds_a=[0.55])
    >>> res.n_a_pos.tolist(), res.n_b_pos.tolist(), res.delta_tpr.tolist()
    ([1], [1], [0.0])
    """
    level = check_confidence_level(confidence_level)
    check_choice("region", region, PAIRED_REGIONS)
    check_choice("gamma", gamma, GAMMAS)
    data = _paired_classes(y_true, score_a, score_b, pos_label)  # a PairedCounts stays a table
    n_pos, n_neg = data.n_pos, data.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    ta, tb, q = _threshold_pairs(data, thresholds_a, thresholds_b, total_positive_rate)

    (na_p, nb_p, both_p), (na_n, nb_n, both_n) = paired_cells_by_class([data.pos, data.neg], ta, tb)
    sign_pos, sign_neg = difference_sign_probabilities_by_class([(na_p, nb_p, n_pos, m_pos),
                                                                 (na_n, nb_n, n_neg, m_neg)])
    f1, f2 = _dominance(sign_pos, sign_neg)

    dt, df = (na_p - nb_p) / n_pos, (na_n - nb_n) / n_neg
    gt_, gf_ = (na_p + nb_p) / n_pos, (na_n + nb_n) / n_neg
    bounds = _score_region(na_p, nb_p, na_n, nb_n, n_pos, n_neg, m_pos, m_neg, level, region, gamma)

    return ThresholdComparison(
        thresholds_a=ta,
        thresholds_b=tb,
        p_a_dominates=f1,
        p_b_dominates=f2,
        delta_tpr=dt,
        delta_tpr_std=np.sqrt(np.maximum(gt_ - dt**2, 0.0) / m_pos),
        delta_fpr=df,
        delta_fpr_std=np.sqrt(np.maximum(gf_ - df**2, 0.0) / m_neg),
        p_tpr_gt=sign_pos[0],
        p_tpr_eq=sign_pos[1],
        p_tpr_lt=sign_pos[2],
        p_fpr_gt=sign_neg[0],
        p_fpr_eq=sign_neg[1],
        p_fpr_lt=sign_neg[2],
        n_a_pos=na_p,
        n_b_pos=nb_p,
        n_both_pos=both_p,
        n_a_neg=na_n,
        n_b_neg=nb_n,
        n_both_neg=both_n,
        tpr_a=(na_p + both_p) / n_pos,
        tpr_b=(nb_p + both_p) / n_pos,
        fpr_a=(na_n + both_n) / n_neg,
        fpr_b=(nb_n + both_n) / n_neg,
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
        confidence_level=level,
        region=region,
        gamma=gamma,
        total_positive_rate=q,
        **bounds,
    )


@dataclass(repr=False)
class DominanceMap(_FrameResult):
    """Dominance probabilities (eq. 4.5) over a grid of threshold pairs.

    Attributes
    ----------
    thresholds_a : ndarray of shape (P,)
    thresholds_b : ndarray of shape (Q,)
    p_a_dominates, p_b_dominates : ndarray of shape (P, Q)
        ``[i, j]``: f1 and f2 at ``(thresholds_a[i], thresholds_b[j])``.
    delta_tpr, delta_fpr : ndarray of shape (P, Q)
        Observed differences a − b.
    n_pos, n_neg, m_pos, m_neg : int
    """

    thresholds_a: np.ndarray
    thresholds_b: np.ndarray
    p_a_dominates: np.ndarray
    p_b_dominates: np.ndarray
    delta_tpr: np.ndarray
    delta_fpr: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int

    def to_frame(self) -> pd.DataFrame:
        """Long format, one row per pair (``thresholds_a`` slowest): columns
        ``threshold_a, threshold_b, p_a_dominates, p_b_dominates, delta_tpr, delta_fpr``."""
        # Hand-written: the long format of the 2-D grids (one row per pair), not a projection of fields.
        ia, ib = np.meshgrid(np.arange(self.thresholds_a.size), np.arange(self.thresholds_b.size), indexing="ij")
        return pd.DataFrame(
            {
                "threshold_a": self.thresholds_a[ia.ravel()],
                "threshold_b": self.thresholds_b[ib.ravel()],
                "p_a_dominates": self.p_a_dominates.ravel(),
                "p_b_dominates": self.p_b_dominates.ravel(),
                "delta_tpr": self.delta_tpr.ravel(),
                "delta_fpr": self.delta_fpr.ravel(),
            }
        )


def _grid_cells(a, b, ta, tb, weights=None):
    """``(n_a, n_b)`` of shape (P, Q) for every pair of the grid ``ta × tb`` (``weights``: the counts of a
    table of distinct pairs, or None); see :func:`rocci.compare._grid.grid_cells`."""
    from ._grid import grid_cells

    return grid_cells(a, b, ta, tb, weights)


def dominance_map(y_true, score_a=None, score_b=None, *, thresholds_a, thresholds_b, pos_label=None, m=None) -> DominanceMap:
    """Exact bootstrap dominance probabilities over the grid ``thresholds_a × thresholds_b``.

    For every pair ``(t_a, t_b)`` of the grid, ``f1`` = P(model a dominates
    b strictly) and ``f2`` the reverse (eq. 4.5, see
    :func:`compare_thresholds`).  All cell counts come from one 2-D
    cumulative histogram per class (:func:`rocci._core.counts.joint_ge_counts`,
    O(n log n + P·Q)); the probabilities are computed once per distinct
    ``(n_a, n_b)`` in one vectorised pass, and pairs that a Chernoff bound
    decides to within 1e-20 cost nothing.  A 50 × 50 grid at n = 10⁵ takes
    a fraction of a second.

    Parameters
    ----------
    y_true, score_a, score_b, pos_label, m
        As in :func:`compare_thresholds`; ``y_true`` may be a
        :class:`~rocci.PairedCounts` (scores left out): its rows are counted with
        their weights, never expanded, and the result is the same.
    thresholds_a, thresholds_b : array_like
        The grid's axes (any lengths P and Q).

    Returns
    -------
    DominanceMap
        2-D arrays indexed ``[i, j]`` = ``(thresholds_a[i], thresholds_b[j])``;
        ``to_frame()`` in long format.
    """
    data = _paired_classes(y_true, score_a, score_b, pos_label)  # a PairedCounts stays a table
    n_pos, n_neg = data.n_pos, data.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    ta = _check_thresholds("thresholds_a", thresholds_a)
    tb = _check_thresholds("thresholds_b", thresholds_b)
    (pa, pb, pw), (qa, qb, qw) = data.pos, data.neg
    na_p, nb_p = _grid_cells(pa, pb, ta, tb, pw)
    na_n, nb_n = _grid_cells(qa, qb, ta, tb, qw)
    f1, f2 = _dominance(*difference_sign_probabilities_by_class([(na_p, nb_p, n_pos, m_pos),
                                                                  (na_n, nb_n, n_neg, m_neg)]))
    return DominanceMap(
        thresholds_a=ta,
        thresholds_b=tb,
        p_a_dominates=f1,
        p_b_dominates=f2,
        delta_tpr=(na_p - nb_p) / n_pos,
        delta_fpr=(na_n - nb_n) / n_neg,
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
    )


