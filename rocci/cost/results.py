"""Result objects of the cost functions: CostCurve, CostCI, CostComparison."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._core.compat import renamed_attribute
from .._core.results import _FrameResult, column
from .._core.inputs import InputError
from ._common import COST_METHODS, _check_w, _scales, _stored_sizes
from ._bounds import paired_bounds, single_bounds
from .fourier import _paired_law
from .lattice import _single_law


@dataclass(repr=False)
class CostCurve(_FrameResult):
    """The cost curve: lower envelope of the cost lines of every threshold.

    Attributes
    ----------
    w : ndarray of shape (k,)
        Operating points.
    cost : ndarray
        ``min_t NEC_t(w)``, the normalised expected cost of ``threshold``.
    threshold : ndarray
        A threshold reaching the minimum (ties → the highest threshold; ``+inf``
        at ``w = 0``).
    breakpoints : ndarray of shape (h − 1,)
        ``w* = ΔFPR/(ΔFPR + ΔTPR)`` between consecutive hull vertices: hull
        vertex ``i`` minimises the cost on ``[breakpoints[i−1], breakpoints[i]]``.
    hull_fpr, hull_tpr, hull_thresholds : ndarray of shape (h,)
        Vertices of the ROC upper convex hull in increasing FPR, from the
        point with FPR = 0 and the largest TPR to (1, 1).  The point (0, 0)
        (threshold ``+inf``) is listed only when no threshold has FPR = 0 and
        TPR > 0.  Each vertex's cost line is one piece of the envelope.
    hull_tp, hull_fp : ndarray of int64
        The vertices' counts.
    operating_range : (float, float) or None
        The open interval of ``w`` where the model beats both trivial
        classifiers (envelope ``< min(w, 1 − w)``); None if it never does.
    n_pos, n_neg : int
    pos_label : object
    """

    w: np.ndarray = column()
    cost: np.ndarray = column()
    threshold: np.ndarray = column()
    breakpoints: np.ndarray
    hull_fpr: np.ndarray
    hull_tpr: np.ndarray
    hull_thresholds: np.ndarray
    hull_tp: np.ndarray
    hull_fp: np.ndarray
    operating_range: tuple[float, float] | None
    n_pos: int
    n_neg: int
    pos_label: Any = None
    _envelope: Any = field(default=None, repr=False, compare=False)

    _scalar_fields = (..., "operating_range")

    def at(self, w) -> "CostCurve":
        """The same cost curve evaluated at other operating points ``w``.

        ``cost(w) = min_i [w·(1 − TPR_i) + (1 − w)·FPR_i]`` over the ROC hull's
        vertices (ties → the highest threshold), exactly as :func:`cost_curve`
        computes it, from the stored hull: nothing is recomputed from the data.
        """
        if self._envelope is None:
            raise InputError("This cost curve keeps no hull to evaluate: call rocci.cost_curve(..., w=...) again.")
        w = _check_w(w)
        env = self._envelope
        i = env.minimiser(w)
        return dataclasses.replace(self, w=w, cost=env._cost(i, w), threshold=env.thresholds[i])

    def hull_frame(self) -> pd.DataFrame:
        """One row per hull vertex: ``threshold, fpr, tpr, w_low, w_high`` (the
        range of ``w`` where that vertex's cost line is the envelope)."""
        edges = np.concatenate([[0.0], self.breakpoints, [1.0]])
        return pd.DataFrame(
            {
                "threshold": self.hull_thresholds,
                "fpr": self.hull_fpr,
                "tpr": self.hull_tpr,
                "w_low": edges[:-1],
                "w_high": edges[1:],
            }
        )


@dataclass(repr=False)
class CostCI(_FrameResult):
    """Exact bootstrap intervals for the normalised expected cost at fixed thresholds.

    Attributes
    ----------
    w, threshold : ndarray of shape (k,)
        Operating points and the threshold used at each (held fixed across
        bootstrap samples).
    cost : ndarray
        Observed cost ``w·FN/n+ + (1 − w)·FP/n−`` (also the exact bootstrap mean).
    cost_std : ndarray
        Exact bootstrap standard deviation of ``C*`` (unadjusted, whatever the method).
    cost_low, cost_high : ndarray
        Interval bounds.
    tp, fp : ndarray of int64
        Observed counts at each threshold.
    n_pos, n_neg : int
    m_pos, m_neg : int or None
        Stratified bootstrap sizes (None for the full bootstrap).
    m_total : int or None
        Number of pooled draws of the full bootstrap (None for stratified).
    bootstrap, method : str
    confidence_level, add : float
    """

    w: np.ndarray = column()
    threshold: np.ndarray = column()
    cost: np.ndarray = column()
    cost_std: np.ndarray = column()
    cost_low: np.ndarray = column()
    cost_high: np.ndarray = column()
    tp: np.ndarray = column()
    fp: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int | None
    m_neg: int | None
    m_total: int | None
    bootstrap: str
    method: str
    confidence_level: float
    add: float

    def confidence_interval(self, confidence_level=0.95, method=None) -> "CostCI":
        """The same result with the interval at another level, or by another method, from the counts it keeps.

        Each operating point's exact law of ``C*`` depends on its counts (``tp``, ``fp``) and the class and
        bootstrap sizes only, all kept here: nothing is read from the data again, and the bounds equal
        :func:`rocci.cost_ci`'s at the same thresholds with this ``confidence_level`` and ``method``.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"agresti-coull", "wald", "percentile"}, optional
            Default: this result's ``method``.

        Returns
        -------
        CostCI
            ``cost_low``, ``cost_high``, ``method`` and ``confidence_level`` replaced; the rest shared.
        """
        level, method = self._interval_args(confidence_level, method, COST_METHODS)
        low, high = single_bounds(method, level, self.w, self.n_pos - self.tp, self.fp, self.n_pos, self.n_neg,
                                  self.bootstrap, _stored_sizes(self), self.add, self.cost, self.cost_std)
        return dataclasses.replace(self, cost_low=low, cost_high=high, method=method, confidence_level=level)

    def take(self, index) -> "CostCI":
        """The rows ``index`` (an int or a sequence) of this result, nothing recomputed.

        Each operating point's interval depends only on its own threshold's
        counts, so a row equals :func:`cost_ci` called at that ``w`` alone.
        """
        idx = np.atleast_1d(np.asarray(index, dtype=np.intp))
        return dataclasses.replace(self, **{f.name: getattr(self, f.name)[idx] for f in dataclasses.fields(self)
                                            if isinstance(getattr(self, f.name), np.ndarray)})

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ``C*`` at the ``i``-th operating point.

        Returns
        -------
        values : ndarray
            Distinct values of ``C*`` in increasing order (values closer than
            1e-12 merged; support points of probability below ~1e-20 left out).
        probabilities : ndarray

        Notes
        -----
        Recomputed from the stored counts (``tp``, ``fp``, the class and
        bootstrap sizes): the result holds numbers only, so it pickles.
        """
        sizes = _stored_sizes(self)
        law = _single_law(int(self.n_pos - self.tp[i]), int(self.fp[i]), self.n_pos, self.n_neg,
                          self.bootstrap, sizes)
        return law.support(*_scales(float(self.w[i]), self.bootstrap, sizes, self.n_pos, self.n_neg))


@dataclass(repr=False)
class CostComparison(_FrameResult):
    """Exact bootstrap comparison of two models' costs, ``ΔC = C_a − C_b``.

    A − B, like every paired result of rocci; the thesis's ``ΔC = C2 − C1``
    (eq. 5.6, model 1 = a) is its negative.

    Attributes
    ----------
    w, threshold_a, threshold_b : ndarray of shape (k,)
    delta_cost : ndarray
        Observed ``C_a − C_b`` (also the exact bootstrap mean); below 0 where
        model a is cheaper.
    delta_cost_std : ndarray
        Exact bootstrap standard deviation of ``ΔC*``.
    delta_cost_low, delta_cost_high : ndarray
        Interval bounds.
    p_a_cheaper : ndarray
        ``P(ΔC* < 0)``: the exact bootstrap probability that model a costs
        strictly less (ties, ``ΔC* = 0``, excluded).
    n_a_pos, n_b_pos, n_a_neg, n_b_neg : ndarray of int64
        Paired cells: ``a`` = model a says positive and model b negative,
        ``b`` = the reverse, among the positives and among the negatives
        (:class:`~rocci.ThresholdComparison`'s names; ``na_pos``… before rocci 0.3).
    n_pos, n_neg : int
    m_pos, m_neg, m_total : int or None
    bootstrap, method : str
    confidence_level, add : float
    """

    w: np.ndarray = column()
    threshold_a: np.ndarray = column()
    threshold_b: np.ndarray = column()
    delta_cost: np.ndarray = column()
    delta_cost_std: np.ndarray = column()
    delta_cost_low: np.ndarray = column()
    delta_cost_high: np.ndarray = column()
    p_a_cheaper: np.ndarray = column()
    n_a_pos: np.ndarray = column()
    n_b_pos: np.ndarray = column()
    n_a_neg: np.ndarray = column()
    n_b_neg: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int | None
    m_neg: int | None
    m_total: int | None
    bootstrap: str
    method: str
    confidence_level: float
    add: float

    na_pos = renamed_attribute("CostComparison", "na_pos", "n_a_pos")
    nb_pos = renamed_attribute("CostComparison", "nb_pos", "n_b_pos")
    na_neg = renamed_attribute("CostComparison", "na_neg", "n_a_neg")
    nb_neg = renamed_attribute("CostComparison", "nb_neg", "n_b_neg")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "CostComparison":
        """The same comparison with the interval at another level, or by another method, from the cells it keeps.

        Each operating point's exact law of ``ΔC*`` depends on its paired cells (``n_a_pos``, ``n_b_pos``,
        ``n_a_neg``, ``n_b_neg``) and the sizes only, all kept here: nothing is read from the data again, and
        the bounds equal :func:`rocci.compare_cost`'s at the same thresholds with this ``confidence_level``
        and ``method`` (``p_a_cheaper`` does not depend on them).

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"agresti-coull", "wald", "percentile"}, optional
            Default: this result's ``method``.

        Returns
        -------
        CostComparison
            ``delta_cost_low``, ``delta_cost_high``, ``method`` and ``confidence_level`` replaced.
        """
        level, method = self._interval_args(confidence_level, method, COST_METHODS)
        low, high = paired_bounds(method, level, self.w, self.n_a_pos, self.n_b_pos, self.n_a_neg, self.n_b_neg,
                                  self.n_pos, self.n_neg, self.bootstrap, _stored_sizes(self), self.add,
                                  self.delta_cost, self.delta_cost_std)
        return dataclasses.replace(self, delta_cost_low=low, delta_cost_high=high, method=method,
                                   confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ``ΔC*`` at the ``i``-th operating point
        (values increasing, closer than 1e-12 merged; recomputed from the
        stored paired cells, so the result pickles)."""
        sizes = _stored_sizes(self)
        law = _paired_law((self.n_a_pos[i], self.n_b_pos[i]), (self.n_a_neg[i], self.n_b_neg[i]),
                          self.n_pos, self.n_neg, self.bootstrap, sizes)
        return law.support(*_scales(float(self.w[i]), self.bootstrap, sizes, self.n_pos, self.n_neg))


