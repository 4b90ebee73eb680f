"""Result objects of :mod:`rocci.precision`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._core.inputs import InputError
from .._core.results import _FrameResult, column
from ._laws import _interval

__all__ = ["MetricCI", "RecallPrecisionCI", "PrecisionComparison", "LawBuilders"]


class LawBuilders:
    """The per-threshold laws of a result, as a list would hold them (``laws[i]`` a law or a callable that
    builds it, ``laws[i] = law`` keeps it), without one Python object per threshold until one is asked for:
    ``build(i)`` makes the ``i``-th law (:func:`_law_of` calls it once and keeps the result)."""

    def __init__(self, build, size: int):
        self._build, self._size, self._made = build, int(size), {}

    def __len__(self) -> int:
        return self._size

    def _index(self, i) -> int:
        return range(self._size)[i]  # IndexError, negative indices as a list

    def __getitem__(self, i):
        i = self._index(i)
        law = self._made.get(i)
        return law if law is not None else (lambda: self._build(i))

    def __setitem__(self, i, law) -> None:
        self._made[self._index(i)] = law

    def __iter__(self):
        return (self[i] for i in range(self._size))


def _law_of(laws, i):
    law = laws[i]
    if callable(law):
        law = laws[i] = law()
    return law


@dataclass(repr=False)
class MetricCI(_FrameResult):
    """Exact bootstrap law of a confusion-matrix metric at fixed thresholds.

    Attributes
    ----------
    metric : str
        The metric's name (the frame's value column).
    thresholds : ndarray
        Thresholds (``score >= t`` is predicted positive).
    tp, fp : ndarray of int64
        Observed counts at each threshold.
    value : ndarray
        Observed metric (NaN where undefined on the data).
    mean, std : ndarray
        Exact bootstrap mean and standard deviation, given that the metric is defined.
    low, high : ndarray
        The interval of ``method``: by default (``"percentile"``) the ``α/2`` and ``1 − α/2``
        quantiles of the exact law (smallest value whose CDF reaches the level); ``"score"``
        (precision only, :func:`rocci.precision_ci`) or ``"wald"``.
    p_undefined : ndarray
        Exact probability that the bootstrap metric is undefined (left out of the law).
    truncated_mass : ndarray
        Probability of the bootstrap counts outside the computed windows (below ~1e-15).
    """

    metric: str
    thresholds: np.ndarray = column("threshold")
    tp: np.ndarray = column()
    fp: np.ndarray = column()
    value: np.ndarray = column("{metric}")
    mean: np.ndarray = column("{metric}_mean")
    std: np.ndarray = column("{metric}_std")
    low: np.ndarray = column("{metric}_low")
    high: np.ndarray = column("{metric}_high")
    p_undefined: np.ndarray = column()
    truncated_mass: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    bootstrap: str
    method: str
    confidence_level: float
    beta: float = 1.0
    _laws: list = field(default_factory=list, repr=False)
    #: ``(mean, std, level, method) -> (low, high)``: the interval step of the function that made the result,
    #: bound to the counts and laws it keeps (None: it keeps none).
    _relevel: Any = field(default=None, repr=False)

    _scalar_fields = ("metric", ...)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "MetricCI":
        """The same result with the interval at another level, or by another method, from what it keeps.

        Each threshold's exact law follows from its counts (``tp``, ``fp``) and the sizes, kept here: nothing
        is read from the data again, and the bounds equal :func:`rocci.metric_ci`'s (or
        :func:`rocci.precision_ci`'s) at the same thresholds with this ``confidence_level`` and ``method``.
        ``"wald"`` reads the kept exact mean and sd; ``"percentile"`` (and ``"score"``, for the precision)
        rebuild each threshold's law from its counts where the result did not keep it.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"percentile", "wald", "score"}, optional
            Default: this result's ``method``; ``"score"`` for the precision only.
        """
        level, method = self._interval_args(confidence_level, method, ("percentile", "wald", "score"))
        if method == "score" and self.metric != "precision":
            raise InputError(f"method='score' is defined for the precision only; for {self.metric} use "
                             "method='percentile' or 'wald'.")
        if self._relevel is None:
            raise InputError("This MetricCI keeps no laws to recompute its interval from: call rocci.metric_ci(..., "
                             "confidence_level=...) again.")
        low, high = self._relevel(self.mean, self.std, level, method)
        return dataclasses.replace(self, low=low, high=high, method=method, confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law at the ``i``-th threshold given that the metric is defined:
        distinct values (increasing) and their probabilities (summing to 1).

        Built on the first call (the frame's columns never need it) and kept: every cell of the
        ``(window of TP*) × (window of FP*)`` lattice is computed and sorted, O(cells·log cells) time and
        ~56 bytes per cell at the peak (2.4·10^7 cells mid-ranking at 10^6 rows: a few seconds, ~1.3 GB);
        above 6·10^7 cells ``InputError`` (ask for a smaller ``m``)."""
        law = _law_of(self._laws, i)
        return law.values.copy(), law.probs.copy()


@dataclass(repr=False)
class RecallPrecisionCI(_FrameResult):
    """Exact bootstrap law of the precision at fixed recall levels ``r/m+``.

    Attributes
    ----------
    recall : ndarray
        The levels ``r/m+``.
    r : ndarray of int
    threshold : ndarray
        Observed threshold: the ``⌈recall·n+⌉``-th largest positive score.
    precision : ndarray
        Observed precision ``k/(k + #negatives >= threshold)``, ``k = ⌈recall·n+⌉``.
    precision_mean, precision_std, precision_low, precision_high : ndarray
        Exact bootstrap moments of ``r/(r + FP*)`` and the interval of ``method`` (``"percentile"``:
        quantiles of the exact law; ``"score"``: the score interval; ``"wald"``: mean ± z·sd).
    truncated_mass : ndarray
        Probability left out of the order statistic's and the binomials' windows.
    """

    recall: np.ndarray
    r: np.ndarray
    threshold: np.ndarray
    precision: np.ndarray
    precision_mean: np.ndarray
    precision_std: np.ndarray
    precision_low: np.ndarray
    precision_high: np.ndarray
    truncated_mass: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    method: str
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)
    #: ``(mean, std, level, method) -> (low, high)``: precision_ci's interval step bound to each level's
    #: mixture and exact variance (None: nothing kept).
    _relevel: Any = field(default=None, repr=False)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "RecallPrecisionCI":
        """The same levels with the intervals at another level, or by another method, from the laws kept.

        Each level keeps the mixture law of its false positives (over the bootstrap threshold ``T_r``) and the
        precision's exact moments: nothing is read from the data again, and the bounds equal
        :func:`rocci.precision_ci`'s (``recall=``) with this ``confidence_level`` and ``method``.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"percentile", "score", "wald"}, optional
            Default: this result's ``method``.
        """
        level, method = self._interval_args(confidence_level, method, ("percentile", "score", "wald"))
        if self._relevel is None:
            raise InputError("This RecallPrecisionCI keeps no laws to recompute its intervals from: call "
                             "rocci.precision_ci(..., recall=..., confidence_level=...) again.")
        low, high = self._relevel(self.precision_mean, self.precision_std, level, method)
        return dataclasses.replace(self, precision_low=low, precision_high=high, method=method,
                                   confidence_level=level)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``recall, r, threshold, precision, precision_mean, precision_std,
        precision_low, precision_high, p_undefined, truncated_mass`` (``p_undefined`` is 0:
        ``r >= 1`` instances are predicted positive)."""
        # Hand-written: p_undefined is 0 by construction, not a field.
        return pd.DataFrame({
            "recall": self.recall, "r": self.r, "threshold": self.threshold, "precision": self.precision,
            "precision_mean": self.precision_mean, "precision_std": self.precision_std,
            "precision_low": self.precision_low, "precision_high": self.precision_high,
            "p_undefined": np.zeros(self.r.size), "truncated_mass": self.truncated_mass,
        })

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of the precision at the ``i``-th level: values ``r/(r + f)`` increasing, probabilities
        ``P(FP* = f) = Σ_k P(T_r = s_k)·b(f; m−, q_k)`` (values of probability below ~1e-17 may be left out)."""
        law = _law_of(self._laws, i)
        return law.values.copy(), law.probs.copy()


@dataclass(repr=False)
class PrecisionComparison(_FrameResult):
    """Exact paired bootstrap law of ``Δ = metric_a − metric_b`` (model A − model B).

    At threshold pairs (``thresholds_a``, ``thresholds_b`` set) or at recall levels
    ``r/m+`` (``recall`` set, ``r``).

    Attributes
    ----------
    metric : str
    delta : ndarray
        Observed difference.
    delta_mean, delta_std, delta_low, delta_high : ndarray
        Exact moments and percentile interval of Δ* given that both metrics are defined.
    p_a_better, p_tie : ndarray
        ``P(Δ* > 0)`` and ``P(Δ* = 0)`` given that both are defined (a larger value is better).
    p_undefined : ndarray
        Probability that either model's metric is undefined.
    truncated_mass : ndarray
    """

    metric: str
    thresholds_a: np.ndarray | None = column("threshold_a")
    thresholds_b: np.ndarray | None = column("threshold_b")
    recall: np.ndarray | None = column()
    r: np.ndarray | None = column()
    delta: np.ndarray = column("delta_{metric}")
    delta_mean: np.ndarray = column("delta_{metric}_mean")
    delta_std: np.ndarray = column("delta_{metric}_std")
    delta_low: np.ndarray = column("delta_{metric}_low")
    delta_high: np.ndarray = column("delta_{metric}_high")
    p_a_better: np.ndarray = column()
    p_tie: np.ndarray = column()
    p_undefined: np.ndarray = column()
    truncated_mass: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    method: str
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)

    _scalar_fields = ("metric", ...)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "PrecisionComparison":
        """The same comparison with the interval at another level, or by another method, from the laws kept.

        Each row keeps its exact law of Δ*: nothing is read from the data again, and the bounds equal
        :func:`rocci.compare_precision`'s with this ``confidence_level`` and ``method`` (``"percentile"``
        or ``"wald"``; default: this result's).
        """
        level, method = self._interval_args(confidence_level, method, ("percentile", "wald"))
        if len(self._laws) != np.size(self.delta):
            raise InputError("This PrecisionComparison keeps no laws to recompute its interval from: call "
                             "rocci.compare_precision(..., confidence_level=...) again.")
        span = "delta_lift" if self.metric == "lift" else "youden"  # Δ lies in [−1, 1] but for the lift
        low, high = np.empty(len(self._laws)), np.empty(len(self._laws))
        for i in range(len(self._laws)):
            low[i], high[i] = _interval(_law_of(self._laws, i), span, 1.0 - level, method)
        return dataclasses.replace(self, delta_low=low, delta_high=high, method=method, confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of Δ* at the ``i``-th row given that both metrics are defined."""
        law = _law_of(self._laws, i)
        return law.values.copy(), law.probs.copy()


@dataclass(repr=False)
class FPRAtRecallComparison(_FrameResult):
    """Exact paired bootstrap law of ``ΔFPR = FPR_a − FPR_b`` at fixed recall levels ``r/m+``.

    Attributes
    ----------
    recall, r : ndarray
        Levels ``r/m+``: each model's threshold is its r-th largest positive score drawn.
    fpr_a, fpr_b, delta_fpr : ndarray
        On the data (threshold: each model's ``⌈recall·n+⌉``-th largest positive score).
    delta_fpr_mean, delta_fpr_std, delta_fpr_low, delta_fpr_high : ndarray
        Exact moments and interval (``method``) of ``ΔFPR*``.
    p_a_better, p_tie : ndarray
        ``P(ΔFPR* < 0)`` (A flags fewer negatives at the same recall, so its precision is higher: the same
        event as :func:`compare_precision`'s ``p_a_better`` at that level) and ``P(ΔFPR* = 0)``.
    truncated_mass : ndarray
    """

    recall: np.ndarray = column()
    r: np.ndarray = column()
    fpr_a: np.ndarray = column()
    fpr_b: np.ndarray = column()
    delta_fpr: np.ndarray = column()
    delta_fpr_mean: np.ndarray = column()
    delta_fpr_std: np.ndarray = column()
    delta_fpr_low: np.ndarray = column()
    delta_fpr_high: np.ndarray = column()
    p_a_better: np.ndarray = column()
    p_tie: np.ndarray = column()
    truncated_mass: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    method: str
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)
    _vertical: Any = field(default=None, repr=False)  # the VerticalComparison it is (classes swapped), joints left out

    def confidence_interval(self, confidence_level=0.95, method=None) -> "FPRAtRecallComparison":
        """The same comparison with the intervals at another level, or by another method, from the laws kept.

        The result is :func:`rocci.compare_vertical` with the classes swapped and keeps it (its laws and
        moments, :meth:`rocci.VerticalComparison.confidence_interval`): nothing is read from the data again,
        and the bounds equal :func:`rocci.compare_fpr_at_recall`'s with this ``confidence_level`` and
        ``method`` (``"percentile"`` or ``"score"``; default: this result's).
        """
        level, method = self._interval_args(confidence_level, method, ("percentile", "score"))
        if self._vertical is None:
            raise InputError("This FPRAtRecallComparison keeps no laws to recompute its intervals from: call "
                             "rocci.compare_fpr_at_recall(..., confidence_level=...) again.")
        vert = self._vertical.confidence_interval(level, method)
        return dataclasses.replace(self, delta_fpr_low=vert.delta_tpr_low, delta_fpr_high=vert.delta_tpr_high,
                                   method=method, confidence_level=level, _vertical=vert)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ``ΔFPR*`` at the ``i``-th level: values ``d/m−`` (increasing) and probabilities."""
        d, probs = self._laws[i]
        return d / self.m_neg, probs.copy()
