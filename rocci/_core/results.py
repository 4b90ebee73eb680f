"""Result objects: dataclasses with documented fields, a readable repr and ``to_frame()``.

Result objects hold numbers only; figure builders (:mod:`rocci.plots`) take them
and never compute statistics.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .compat import renamed_attribute
from .errors import InputError
from .frames import _FrameResult, _fmt, column  # noqa: F401  (the base every result module imports from here)
from .intervals import PROPORTION_METHODS, VERTICAL_METHODS, normal_interval, threshold_region, vertical_bounds

__all__ = [
    "ConfidenceInterval",
    "RocCurve",
    "AucResult",
    "ThresholdCI",
    "VerticalCI",
]


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``; unpacks like a tuple."""

    low: float
    high: float


@dataclass(repr=False)
class RocCurve(_FrameResult):
    """Empirical ROC curve: one point per distinct threshold.

    Attributes
    ----------
    thresholds : ndarray of shape (h,)
        Distinct scores in decreasing order, ``+inf`` first (the point (0, 0)).
        An instance is predicted positive when ``score >= threshold``.
    fpr, tpr : ndarray of shape (h,)
        False and true positive rates, ``fp / n_neg`` and ``tp / n_pos``.
    tp, fp : ndarray of int64, shape (h,)
        Counts of positives and negatives with ``score >= threshold``.
    n_pos, n_neg : int
        Class sizes.
    auc : float
        Area under the curve (Mann–Whitney; ties count 1/2).
    pos_label : object
        The label taken as positive.
    """

    thresholds: np.ndarray = column("threshold")
    fpr: np.ndarray = column()
    tpr: np.ndarray = column()
    tp: np.ndarray = column()
    fp: np.ndarray = column()
    n_pos: int
    n_neg: int
    auc: float
    pos_label: Any = None

    _scalar_fields = (..., "auc")


@dataclass(repr=False)
class AucResult(_FrameResult):
    """AUC with its standard error and confidence interval.

    Attributes
    ----------
    auc : float
        Mann–Whitney AUC (ties 1/2).
    auc_std : float
        Standard error by ``method`` (``std`` before rocci 0.3: the old name still reads it, with a warning).
    auc_low, auc_high : float
        ``auc ± z·auc_std`` clipped to [0, 1], ``z = Φ⁻¹((1 + confidence_level)/2)`` (``low``, ``high``
        before 0.3).
    method : str
        ``"delong"``, ``"hanley-mcneil"`` or ``"exact-bootstrap"``.
    confidence_level : float
    n_pos, n_neg : int
    m_pos, m_neg : int
        Bootstrap sample sizes (used by ``"exact-bootstrap"`` only).
    """

    auc: float = column()
    auc_std: float = column()
    auc_low: float = column()
    auc_high: float = column()
    method: str = column()
    confidence_level: float = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int

    _scalar_fields = ("auc", "auc_std", "auc_low", "auc_high", "method", "confidence_level")
    std = renamed_attribute("AucResult", "std", "auc_std")
    low = renamed_attribute("AucResult", "low", "auc_low")
    high = renamed_attribute("AucResult", "high", "auc_high")

    @property
    def ci(self) -> ConfidenceInterval:
        return ConfidenceInterval(self.auc_low, self.auc_high)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "AucResult":
        """The same AUC and standard error with the interval at another level.

        ``low, high = auc ∓ z·std`` clipped to [0, 1] with ``z = Φ⁻¹((1 + confidence_level)/2)``: the standard
        error does not depend on the level, so nothing is recomputed from the data (equal to
        :func:`rocci.roc_auc` called with this ``confidence_level``).  ``method`` can only be the result's own
        (another method's standard error needs the data).
        """
        level, _ = self._interval_args(confidence_level, method, (self.method,))
        low, high = normal_interval(self.auc, self.auc_std, level, 0.0, 1.0)
        return dataclasses.replace(self, auc_low=low, auc_high=high, confidence_level=level)

    def at_level(self, confidence_level: float) -> "AucResult":
        """Deprecated: :meth:`confidence_interval` (the name every result with kept laws uses; rocci 0.3)."""
        from .compat import warn_deprecated

        warn_deprecated("AucResult.at_level(confidence_level) is AucResult.confidence_interval(confidence_level) "
                        "since rocci 0.3 (one name on every result).")
        return self.confidence_interval(confidence_level)

    def __repr__(self) -> str:
        return (
            f"AucResult(auc={self.auc:.6g}, auc_std={self.auc_std:.6g}, "
            f"{self.confidence_level:.0%} CI [{self.auc_low:.6g}, {self.auc_high:.6g}], method={self.method!r})"
        )


@dataclass(repr=False)
class ThresholdCI(_FrameResult):
    """Exact bootstrap confidence regions for ROC points at fixed thresholds.

    Threshold averaging (Gadoury 2009, §4.3.1): at a fixed threshold ``t`` the
    bootstrap counts are independent binomials, ``m+·TPR* ~ Bin(m+, tp/n+)`` and
    ``m−·FPR* ~ Bin(m−, fp/n−)``.

    Attributes
    ----------
    thresholds, total_positive_rate, fpr, tpr : ndarray of shape (h,)
        The thresholds and the observed rates there (``total_positive_rate`` is
        the fraction of all instances with ``score >= threshold``).
    fpr_std, tpr_std : ndarray
        Exact bootstrap standard deviations ``sqrt(p(1 − p)/m)``.
    fpr_low, fpr_high, tpr_low, tpr_high : ndarray
        Interval bounds on each axis (for ``region="ellipse"``, the ellipse's
        bounding box clipped to [0, 1]).
    fpr_radius, tpr_radius : ndarray or None
        Semi-axes of the ellipse (``region="ellipse"`` only).
    tp, fp : ndarray of int64
        Observed counts at each threshold.
    n_pos, n_neg, m_pos, m_neg : int
        Class sizes and bootstrap sample sizes.
    method, region : str
    confidence_level : float
        Level of the joint region (``"rectangle"``, ``"ellipse"``) or of each
        interval (``"marginal"``).
    axis_confidence_level : float
        Level of each axis's interval: ``sqrt(confidence_level)`` for a
        rectangle, ``confidence_level`` for marginal intervals; for an ellipse
        the level of its projection on one axis.
    """

    thresholds: np.ndarray = column("threshold")
    total_positive_rate: np.ndarray = column()
    fpr: np.ndarray = column()
    tpr: np.ndarray = column()
    fpr_std: np.ndarray = column()
    tpr_std: np.ndarray = column()
    fpr_low: np.ndarray = column()
    fpr_high: np.ndarray = column()
    tpr_low: np.ndarray = column()
    tpr_high: np.ndarray = column()
    tp: np.ndarray = column()
    fp: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    method: str
    region: str
    confidence_level: float
    axis_confidence_level: float
    fpr_radius: np.ndarray | None = None
    tpr_radius: np.ndarray | None = None

    _scalar_fields = (..., "region")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "ThresholdCI":
        """The same points with the region at another level, or by another method, from the counts kept.

        At a fixed threshold the exact laws are the binomials ``Bin(m+, tp/n+)`` and ``Bin(m−, fp/n−)``,
        which the counts ``tp``, ``fp`` and the sizes give: nothing is read from the data again, and the
        result equals :func:`rocci.threshold_ci`'s at the same thresholds with this ``confidence_level`` and
        ``method`` (the region kind is kept).

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"wilson", "wald", "agresti-coull", "percentile"}, optional
            Default: this result's ``method``.
        """
        level, method = self._interval_args(confidence_level, method, PROPORTION_METHODS)
        bounds = threshold_region(self.tpr, self.fpr, self.tp, self.fp, self.n_pos, self.n_neg, self.m_pos,
                                  self.m_neg, level, method, self.region)
        return dataclasses.replace(self, **bounds, method=method, confidence_level=level)

    def bootstrap_probability(self) -> np.ndarray:
        """Exact probability, under the bootstrap, that the resampled point lies in each row's region.

        Rectangle and marginal rows (independent axes):
        ``P(tpr_low <= TPR* <= tpr_high)·P(fpr_low <= FPR* <= fpr_high)``, each
        a difference of binomial CDFs at the counts inside the interval.
        Ellipse: ``Σ_x P(TP* = x)·P(FP* in the ellipse's slice at x)``, summed
        over the counts ``x`` inside its TPR range.  A direct bootstrap of rows
        counting resampled points inside the frame's boxes estimates the same
        numbers (``tests/test_outside_pointwise.py``).  ``method="percentile"``
        holds ``axis_confidence_level`` per axis by construction; Wilson, Wald
        and Agresti–Coull intervals are intervals for the true rate built on
        the exact bootstrap variance, and their bootstrap probability can be
        below the level where a count is near 0 or ``n`` (the interval then
        leaves out a bootstrap value with real probability, e.g. ``TP* = 0``).

        Returns
        -------
        ndarray of shape (h,)
        """
        from scipy import stats

        def axis_prob(k_obs, n, m, low, high):
            p = k_obs / n
            lo = np.ceil(np.round(np.asarray(low) * m, 9)).astype(np.int64)
            hi = np.floor(np.round(np.asarray(high) * m, 9)).astype(np.int64)
            return np.where(hi >= lo, stats.binom.cdf(hi, m, p) - stats.binom.cdf(lo - 1, m, p), 0.0)

        if self.region != "ellipse":
            return (axis_prob(self.tp, self.n_pos, self.m_pos, self.tpr_low, self.tpr_high)
                    * axis_prob(self.fp, self.n_neg, self.m_neg, self.fpr_low, self.fpr_high))
        out = np.empty(self.tp.size)
        for i in range(self.tp.size):
            p, q = self.tp[i] / self.n_pos, self.fp[i] / self.n_neg
            x = np.arange(int(np.ceil(self.tpr_low[i] * self.m_pos - 1e-9)),
                          int(np.floor(self.tpr_high[i] * self.m_pos + 1e-9)) + 1)
            rt, rf = self.tpr_radius[i], self.fpr_radius[i]
            if rt <= 0 or rf <= 0:  # a degenerate axis: the ellipse is a segment on the other
                d2 = np.zeros(x.size) if rt <= 0 else ((x / self.m_pos - self.tpr[i]) / rt) ** 2
            else:
                d2 = ((x / self.m_pos - self.tpr[i]) / rt) ** 2
            half = rf * np.sqrt(np.clip(1 - d2, 0, None))
            lo = np.ceil(np.round((self.fpr[i] - half) * self.m_neg, 9)).astype(np.int64)
            hi = np.floor(np.round((self.fpr[i] + half) * self.m_neg, 9)).astype(np.int64)
            inner = np.where(hi >= lo, stats.binom.cdf(hi, self.m_neg, q) - stats.binom.cdf(lo - 1, self.m_neg, q), 0)
            out[i] = float(np.sum(stats.binom.pmf(x, self.m_pos, p) * inner))
        return out

    def distribution(self, i: int, axis: str = "tpr") -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of TPR* (or FPR*) at the ``i``-th threshold.

        Returns
        -------
        values : ndarray
            ``k / m`` for ``k = 0, …, m``.
        probabilities : ndarray
            ``P(m·TPR* = k) = C(m, k) p^k (1 − p)^(m − k)``, ``p = tp/n+``
            (likewise for FPR*).
        """
        from .exact import binomial_pmf
        from .inputs import check_choice

        check_choice("axis", axis, ("tpr", "fpr"))
        if axis == "tpr":
            m, p = self.m_pos, self.tp[i] / self.n_pos
        else:
            m, p = self.m_neg, self.fp[i] / self.n_neg
        k = np.arange(m + 1)
        return k / m, binomial_pmf(k, m, p)


@dataclass(repr=False)
class VerticalCI(_FrameResult):
    """Exact bootstrap intervals for the TPR at fixed FPR levels (vertical averaging).

    Gadoury (2009), §4.4.1: at level ``r/m−`` the bootstrap threshold ``T_r`` is
    the r-th largest negative score of the bootstrap sample and the TPR is a
    mixture of binomials over the law of ``T_r`` (eq. 4.12).

    Attributes
    ----------
    fpr : ndarray
        The levels ``r/m−``.
    r : ndarray of int
    tpr : ndarray
        Observed TPR at that level (threshold = the ``⌈fpr·n−⌉``-th largest
        negative score; with positive–negative ties this is the top of the
        diagonal segment).
    tpr_mean, tpr_std : ndarray
        Exact bootstrap mean and standard deviation of TPR* (eqs. 4.13–4.14).
    tpr_low, tpr_high : ndarray
        Interval bounds.
    truncated_mass : ndarray
        Probability mass of ``T_r`` left out of the computation window (≤ 1e-14).
    """

    fpr: np.ndarray = column()
    r: np.ndarray = column()
    tpr: np.ndarray = column()
    tpr_mean: np.ndarray = column()
    tpr_std: np.ndarray = column()
    tpr_low: np.ndarray = column()
    tpr_high: np.ndarray = column()
    truncated_mass: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    method: str
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)  # per level: (weights, p) of the mixture
    _threshold_laws: list = field(default_factory=list, repr=False)  # per level: (scores, probabilities)
    _mixture: tuple | None = field(default=None, repr=False)  # (weights, n+·p, offsets): every level's mixture

    def confidence_interval(self, confidence_level=0.95, method=None) -> "VerticalCI":
        """The same levels with the intervals at another level, or by another method, from the laws kept.

        The result keeps each level's exact mixture law (eq. 4.12: the weights of ``T_r`` and the TPR given
        it), from which every method's bounds follow: nothing is read from the data again, and the result
        equals :func:`rocci.vertical_ci`'s with this ``confidence_level`` and ``method``.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"percentile", "score", "wald"}, optional
            Default: this result's ``method``.
        """
        level, method = self._interval_args(confidence_level, method, VERTICAL_METHODS)
        if self._mixture is None:
            raise InputError("This VerticalCI keeps no laws to recompute its intervals from: call "
                             "rocci.vertical_ci(..., confidence_level=...) again.")
        cw, cv, offsets = self._mixture
        low, high = vertical_bounds(method, level, cw, cv, offsets, self.n_pos, self.m_pos)
        return dataclasses.replace(self, tpr_low=low, tpr_high=high, method=method, confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of TPR* at the ``i``-th level (eq. 4.12).

        Returns
        -------
        values : ndarray
            ``l / m+`` over the support where the probability is not negligible
            (values with probability below about 1e-17 may be left out).
        probabilities : ndarray
            ``P(TPR* = l/m+) = Σ_k P(T_r = s_k) · C(m+, l) p_k^l (1 − p_k)^(m+ − l)``.
        """
        from .exact import mixture_pmf

        weights, p = self._laws[i]
        l, probs = mixture_pmf(weights, p, self.m_pos)
        return l / self.m_pos, probs

    def threshold_distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of the bootstrap threshold ``T_r`` at the ``i``-th level (eq. 4.11).

        Returns
        -------
        scores : ndarray
            Distinct negative scores, decreasing, within the computation window.
        probabilities : ndarray
            ``P(T_r = s)``.
        """
        return self._threshold_laws[i]
