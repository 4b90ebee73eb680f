"""Cost curves and their exact bootstrap intervals (Gadoury 2009, chapters 3 and 5).

Notation (math.md §5).  An instance is predicted positive at threshold ``t``
when ``score >= t``.  The operating point ``w`` (eq. 3.1) sums up the class
priors and the misclassification costs; the normalised expected cost of a
threshold is the straight *cost line*

    ``NEC_t(w) = w·(1 − TPR_t) + (1 − w)·FPR_t``,

from ``(0, FPR_t)`` to ``(1, 1 − TPR_t)``.  The cost curve is the lower
envelope of all cost lines; by duality it is made of the cost lines of the
vertices of the ROC upper convex hull.

Exact bootstrap (the infinite-resample limit, in closed form), with the
threshold held fixed across bootstrap samples:

* stratified: ``FN* ~ Bin(m+, n_FN/n+)`` and ``FP* ~ Bin(m−, n_FP/n−)``,
  independent, and ``C* = w·FN*/m+ + (1 − w)·FP*/m−``;
* full: ``m`` draws from the pooled data, ``(FN*, FP*, ·)`` multinomial, and
  ``C* = w·FN*/(m·π+) + (1 − w)·FP*/(m·π−)`` with ``π± = n±/n`` (the same
  scale as the stratified cost; with ``m = n`` the denominators are ``n±``).

Every law here lives on a two-dimensional lattice ``a·X + b·Y`` (``X``, ``Y``
integer counts or count differences); :class:`_Lattice` evaluates its CDF
exactly, row by row, from binomial CDFs or exact CDF tables.  The paired laws
(count differences) are sums of ±1 lattice steps, computed by an inverse FFT
of their characteristic function (:func:`_steps_law`); for the full
bootstrap, ``P(ΔC* < 0)`` comes from the transform directly
(:meth:`_Spectrum.below`).
"""

from __future__ import annotations

import dataclasses
import functools
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd
from scipy import fft as sfft
from scipy import special, stats
from scipy.spatial import ConvexHull, QhullError

from ._results import _FrameResult
from ._validation import (
    InputError,
    check_binary,
    check_choice,
    check_confidence_level,
    check_labels,
    check_m,
    check_scores,
    format_value,
)
from .counts import ScoreCounts, paired_cells, score_counts
from .exact import QUANTILE_TOL

__all__ = [
    "operating_point",
    "cost_curve",
    "cost_ci",
    "compare_cost",
    "CostCurve",
    "CostCI",
    "CostComparison",
    "BOOTSTRAPS",
    "COST_METHODS",
    "AGRESTI_ADD",
    "AGRESTI_MIN_ADD",
]

BOOTSTRAPS = ("stratified", "full")
COST_METHODS = ("agresti-coull", "wald", "percentile")

# Pseudo-counts of the adjusted Wald ("agresti-coull") intervals.  Gadoury (2009),
# §5.4 (tables 5.1 and 5.2), adopts Agresti's values: for one model, Agresti and
# Coull (1998) add 2 to each of the four confusion cells (TP, FN, FP, TN: 8
# instances); for two models on the same instances, Agresti and Min (2005) add
# ½ to each of the four paired cells of each class (8 cells, 4 instances).  The
# pseudo-counts keep the variance away from 0 where the cost or its difference
# vanishes (w near 0 or 1), where plain Wald intervals break down.  The
# adjustment experiment (§5.5, figs 5.7–5.12: 0.5, 2 and 3 for one model; 1/8,
# ½ and 1 for two) finds these defaults best: too few and Wald's breakdown at
# the ends returns, too many and the added bias breaks coverage on both sides.

#: Pseudo-count per confusion cell for one model (Agresti–Coull; thesis §5.4,
#: table 5.1): the default ``add`` of :func:`cost_ci` and of
#: :func:`rocci.explore.confusion_at`.
AGRESTI_ADD = 2.0

#: Pseudo-count per paired cell for two models (Agresti–Min; thesis §5.4,
#: table 5.2): the default ``add`` of :func:`compare_cost`.
AGRESTI_MIN_ADD = 0.5

#: Costs (and lattice values) closer than this count as equal: ties between
#: cost lines at a breakpoint, and equal values of a bootstrap cost law.
TIE_TOL = 1e-12

#: Default grid of operating points.
DEFAULT_W = np.linspace(0.0, 1.0, 101)


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _real(name: str, value: Any) -> np.ndarray:
    if isinstance(value, (str, bytes)) or value is None:
        raise InputError(f"{name} ({value!r}) must be a number.")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name} ({value!r}) must be a number.") from None
    if not np.isfinite(arr).all():
        raise InputError(f"{name} ({value!r}) must be a finite number.")
    return arr


def _check_w(w: Any) -> np.ndarray:
    """Operating points as a 1-D float array in [0, 1]; ``None`` gives :data:`DEFAULT_W`."""
    if w is None:
        return DEFAULT_W.copy()
    if isinstance(w, (str, bytes)):
        raise InputError(f"w ({w!r}) must be a number or a list of numbers in [0, 1].")
    try:
        arr = np.atleast_1d(np.asarray(w, dtype=np.float64))
    except (TypeError, ValueError):
        raise InputError(f"w ({w!r}) must be a number or a list of numbers in [0, 1].") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError("w must be one number or a non-empty list of numbers in [0, 1].")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        shown = ", ".join(format_value(v) for v in arr[bad][:5])
        raise InputError(
            f"w values must lie in [0, 1]; got {shown}. w is the operating point of eq. 3.1: "
            "use operating_point(p_pos, cost_fn, cost_fp) to get it from the prior and the costs."
        )
    return arr


def _check_thresholds(name: str, thresholds: Any, n_w: int) -> np.ndarray:
    """One threshold for every w, or one per w (any reals, ±inf allowed)."""
    if isinstance(thresholds, (str, bytes)):
        raise InputError(f"{name} must hold numbers; got {thresholds!r}.")
    try:
        arr = np.atleast_1d(np.asarray(thresholds, dtype=np.float64))
    except (TypeError, ValueError):
        raise InputError(f"{name} must hold numbers; got {thresholds!r}.") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be one number or a non-empty list of numbers.")
    if np.isnan(arr).any():
        raise InputError(f"{name} must not contain missing values (NaN).")
    if arr.size == 1:
        return np.full(n_w, arr[0])
    if arr.size != n_w:
        raise InputError(
            f"{name} has {arr.size} values but there are {n_w} operating points w: "
            "give one threshold for all w, or one per w (and pass w explicitly)."
        )
    return arr


def _check_add(add: Any) -> float:
    value = _real("add", add)
    if value.ndim != 0 or value < 0:
        raise InputError(f"add ({add!r}) must be a non-negative number of pseudo-counts, e.g. 2 or 0.5.")
    return float(value)


def _check_full_m(m: Any, n: int) -> int:
    """Number of draws of the full bootstrap (one whole number, default ``n``)."""
    if m is None:
        return n
    if isinstance(m, (bool, np.bool_)) or not isinstance(m, numbers.Real) or not float(m).is_integer():
        raise InputError(
            f"m ({m!r}) must be one whole number of draws for the full bootstrap "
            "(it draws from the pooled data; a pair (m_pos, m_neg) is for bootstrap='stratified')."
        )
    if m < 1:
        raise InputError(f"m ({m!r}) must be at least 1 draw.")
    return int(m)


# ---------------------------------------------------------------------------
# Operating point
# ---------------------------------------------------------------------------


def operating_point(p_pos, cost_fn, cost_fp):
    """Operating point ``w`` of a prior and a pair of misclassification costs (eq. 3.1).

    ``w = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−))``, ``p(−) = 1 − p(+)``.

    Parameters
    ----------
    p_pos : float
        Prior probability of the positive class, strictly between 0 and 1.
    cost_fn : float
        ``C(−|+)``, the cost of a false negative (a positive called negative); >= 0.
    cost_fp : float
        ``C(+|−)``, the cost of a false positive; >= 0.  Not both costs zero.

    Returns
    -------
    float
        ``w`` in [0, 1] (an array if any argument is an array).

    Notes
    -----
    Only ``w`` matters for choosing a threshold: every prior and cost pair
    with the same ``w`` ranks thresholds identically.  The normalised cost
    ``NEC = w·FNR + (1 − w)·FPR`` equals the expected cost per instance
    divided by ``p(+)·C(−|+) + p(−)·C(+|−)``.

    Examples
    --------
    >>> from rocci.cost import operating_point
    >>> operating_point(1/3, 5.0, 1.0)
    0.7142857142857143
    """
    p = _real("p_pos", p_pos)
    c_fn = _real("cost_fn", cost_fn)
    c_fp = _real("cost_fp", cost_fp)
    if ((p <= 0) | (p >= 1)).any():
        raise InputError(f"p_pos ({p_pos!r}) must be a probability strictly between 0 and 1.")
    if (c_fn < 0).any() or (c_fp < 0).any():
        raise InputError(
            f"Costs must be non-negative (got cost_fn={cost_fn!r}, cost_fp={cost_fp!r}); "
            "the cost of a correct decision is 0."
        )
    den = p * c_fn + (1 - p) * c_fp
    if (den <= 0).any():
        raise InputError("cost_fn and cost_fp cannot both be 0: w is then undefined.")
    w = p * c_fn / den
    return float(w) if np.ndim(w) == 0 else w


# ---------------------------------------------------------------------------
# ROC convex hull and the lower envelope of the cost lines
# ---------------------------------------------------------------------------


def _cross(x0, y0, x1, y1, x2, y2):
    """``(p1 − p0) × (p2 − p0)``: negative when p0 → p1 → p2 turns clockwise."""
    return (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)


def _prune(fp: np.ndarray, tp: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Drop, pass after pass, every candidate on or below the segment of its neighbours.

    Such a point cannot be a vertex of the upper hull, so removing all of them
    at once is safe; integer arithmetic makes the test exact.
    """
    while idx.size > 2:
        x, y = fp[idx], tp[idx]
        bad = _cross(x[:-2], y[:-2], x[1:-1], y[1:-1], x[2:], y[2:]) >= 0
        if not bad.any():
            break
        keep = np.ones(idx.size, dtype=bool)
        keep[1:-1] = ~bad
        idx = idx[keep]
    return idx


def _above(fp: np.ndarray, tp: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Mask of the points strictly above the chain ``idx``."""
    hx, hy = fp[idx], tp[idx]
    s = np.clip(np.searchsorted(hx, fp, side="right") - 1, 0, idx.size - 2)
    return _cross(hx[s], hy[s], hx[s + 1], hy[s + 1], fp, tp) > 0


def _upper_hull(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """Indices of the vertices of the ROC upper convex hull, from (0, 0) to (n−, n+).

    ``fp``, ``tp``: integer counts at the thresholds in decreasing order
    (``+inf`` first), so the points are sorted by ``(fp, tp)``.  Qhull finds
    the hull in O(h log h) (a point ``(n−, −1)`` below all ROC points keeps it
    two-dimensional); the result is then checked and repaired in exact
    integer arithmetic: points strictly above the chain are added back and
    points on or below a chord are removed, which leaves exactly the strict
    vertices.
    """
    n = fp.size
    cand = None
    if n > 2:
        pts = np.vstack([np.column_stack([fp, tp]).astype(np.float64), [[float(fp[-1]), -1.0]]])
        try:
            v = ConvexHull(pts).vertices
            cand = np.sort(v[v < n])
        except QhullError:  # pragma: no cover - the extra point keeps the hull 2-D
            cand = None
    if cand is None:
        cand = np.arange(n)
    cand = _prune(fp, tp, np.union1d(cand, [0, n - 1]))
    missed = _above(fp, tp, cand)
    if missed.any():  # pragma: no cover - Qhull is exact on integer grids of this size
        cand = _prune(fp, tp, np.union1d(cand, np.flatnonzero(missed)))
    return cand


@dataclass(frozen=True)
class _Envelope:
    """The ROC upper hull of one model and the lower envelope of its cost lines.

    The "full" hull starts at (0, 0) (threshold ``+inf``) and ends at (1, 1).
    ``breakpoints[i] = ΔFPR/(ΔFPR + ΔTPR)`` between vertices ``i`` and ``i + 1``
    (non-decreasing; 0 for a vertical first edge, 1 for a horizontal last edge);
    vertex ``i`` minimises the cost on ``[breakpoints[i − 1], breakpoints[i]]``.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: int
    n_neg: int
    breakpoints: np.ndarray

    @classmethod
    def from_counts(cls, counts: ScoreCounts) -> "_Envelope":
        thresholds = counts.distinct_thresholds()
        tp = counts.n_pos_ge(thresholds).astype(np.int64)
        fp = counts.n_neg_ge(thresholds).astype(np.int64)
        idx = _upper_hull(fp, tp)
        htp, hfp = tp[idx], fp[idx]
        n_pos, n_neg = counts.n_pos, counts.n_neg
        dfp = np.diff(hfp) * n_pos  # ΔFPR·n+·n−, exact integers
        dtp = np.diff(htp) * n_neg
        return cls(thresholds[idx], htp, hfp, n_pos, n_neg, dfp / (dfp + dtp))

    @property
    def tpr(self) -> np.ndarray:
        return self.tp / self.n_pos

    @property
    def fpr(self) -> np.ndarray:
        return self.fp / self.n_neg

    def _cost(self, i: np.ndarray, w: np.ndarray) -> np.ndarray:
        return w * (self.n_pos - self.tp[i]) / self.n_pos + (1 - w) * self.fp[i] / self.n_neg

    def minimiser(self, w: np.ndarray) -> np.ndarray:
        """Index of the hull vertex minimising ``NEC(w)``; ties → the highest threshold.

        Costs within :data:`TIE_TOL` of the minimum count as tied; among tied
        vertices the one with the lowest index (highest threshold) is taken.
        Along the hull the costs at a fixed ``w`` fall then rise, so a
        vectorised binary search finds it in O(log h) steps.
        """
        k = self.tp.size
        idx = np.searchsorted(self.breakpoints, w, side="left")
        cand = np.stack([np.clip(idx - 1, 0, k - 1), idx, np.clip(idx + 1, 0, k - 1)])
        costs = self._cost(cand, w[None, :])
        pick = np.argmin(costs, axis=0)
        best = cand[pick, np.arange(w.size)]
        limit = costs[pick, np.arange(w.size)] + TIE_TOL
        lo, hi = np.zeros_like(best), best
        while (lo < hi).any():
            mid = (lo + hi) // 2
            ok = self._cost(mid, w) <= limit
            hi = np.where(ok, mid, hi)
            lo = np.where(ok, lo, mid + 1)
        return hi

    def visible(self) -> slice:
        """The hull vertices reported to users: the full hull without (0, 0) when
        a threshold reaches FPR = 0 with TPR > 0 (the ROC curve, as a function of
        FPR, starts at that point)."""
        return slice(1, None) if self.fp[1] == 0 else slice(0, None)

    def operating_range(self) -> tuple[float, float] | None:
        """``(w_low, w_high)``: where the envelope lies strictly below both trivial
        cost lines ``w`` (all negative) and ``1 − w`` (all positive)."""
        low, high = float(self.breakpoints[0]), float(self.breakpoints[-1])
        return (low, high) if low < high else None


# ---------------------------------------------------------------------------
# Result objects
# ---------------------------------------------------------------------------


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

    w: np.ndarray
    cost: np.ndarray
    threshold: np.ndarray
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

    _scalar_fields = ("n_pos", "n_neg", "operating_range")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``w, cost, threshold``."""
        return pd.DataFrame({"w": self.w, "cost": self.cost, "threshold": self.threshold})

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

    w: np.ndarray
    threshold: np.ndarray
    cost: np.ndarray
    cost_std: np.ndarray
    cost_low: np.ndarray
    cost_high: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int | None
    m_neg: int | None
    m_total: int | None
    bootstrap: str
    method: str
    confidence_level: float
    add: float

    _scalar_fields = ("n_pos", "n_neg", "bootstrap", "method", "confidence_level")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``w, threshold, cost, cost_std, cost_low, cost_high, tp, fp``."""
        return pd.DataFrame(
            {
                "w": self.w,
                "threshold": self.threshold,
                "cost": self.cost,
                "cost_std": self.cost_std,
                "cost_low": self.cost_low,
                "cost_high": self.cost_high,
                "tp": self.tp,
                "fp": self.fp,
            }
        )

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
    na_pos, nb_pos, na_neg, nb_neg : ndarray of int64
        Paired cells: ``a`` = model a says positive and model b negative,
        ``b`` = the reverse, among the positives and among the negatives.
    n_pos, n_neg : int
    m_pos, m_neg, m_total : int or None
    bootstrap, method : str
    confidence_level, add : float
    """

    w: np.ndarray
    threshold_a: np.ndarray
    threshold_b: np.ndarray
    delta_cost: np.ndarray
    delta_cost_std: np.ndarray
    delta_cost_low: np.ndarray
    delta_cost_high: np.ndarray
    p_a_cheaper: np.ndarray
    na_pos: np.ndarray
    nb_pos: np.ndarray
    na_neg: np.ndarray
    nb_neg: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int | None
    m_neg: int | None
    m_total: int | None
    bootstrap: str
    method: str
    confidence_level: float
    add: float

    _scalar_fields = ("n_pos", "n_neg", "bootstrap", "method", "confidence_level")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``w, threshold_a, threshold_b, delta_cost, delta_cost_std,
        delta_cost_low, delta_cost_high, p_a_cheaper`` (+ the paired cells)."""
        return pd.DataFrame(
            {
                "w": self.w,
                "threshold_a": self.threshold_a,
                "threshold_b": self.threshold_b,
                "delta_cost": self.delta_cost,
                "delta_cost_std": self.delta_cost_std,
                "delta_cost_low": self.delta_cost_low,
                "delta_cost_high": self.delta_cost_high,
                "p_a_cheaper": self.p_a_cheaper,
                "na_pos": self.na_pos,
                "nb_pos": self.nb_pos,
                "na_neg": self.na_neg,
                "nb_neg": self.nb_neg,
            }
        )

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ``ΔC*`` at the ``i``-th operating point
        (values increasing, closer than 1e-12 merged; recomputed from the
        stored paired cells, so the result pickles)."""
        sizes = _stored_sizes(self)
        law = _paired_law((self.na_pos[i], self.nb_pos[i]), (self.na_neg[i], self.nb_neg[i]),
                          self.n_pos, self.n_neg, self.bootstrap, sizes)
        return law.support(*_scales(float(self.w[i]), self.bootstrap, sizes, self.n_pos, self.n_neg))


# ---------------------------------------------------------------------------
# cost_curve
# ---------------------------------------------------------------------------


def cost_curve(y_true, y_score, *, w=None, pos_label=None) -> CostCurve:
    """Cost curve: the lower envelope of the cost lines of all thresholds.

    Each threshold ``t`` gives the cost line ``NEC_t(w) = w·(1 − TPR_t) +
    (1 − w)·FPR_t`` (eq. 3.5; its intercept is ``FPR_t`` and its slope
    ``1 − TPR_t − FPR_t``, so ``TPR = 1 − slope − FPR``, eq. 3.6).  The
    envelope ``min_t NEC_t(w)`` is made of the lines of the vertices of the ROC
    upper convex hull (§3.2.2); consecutive vertices cross at
    ``w* = ΔFPR/(ΔFPR + ΔTPR)`` (eq. 3.7 with ``S = ΔTPR/ΔFPR``).

    O(n log n): one sort, the hull of the h ≤ n + 1 ROC points, then a binary
    search per operating point.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    w : float or array_like, optional
        Operating points in [0, 1] (eq. 3.1; see :func:`operating_point`).
        Default: 101 points ``0, 0.01, …, 1``.

    Returns
    -------
    CostCurve
        ``to_frame()`` has columns ``w, cost, threshold``; ``breakpoints``,
        ``hull_fpr``, ``hull_tpr``, ``hull_thresholds`` describe the envelope
        exactly; ``operating_range`` is where the model beats both trivial
        classifiers.

    Notes
    -----
    Ties: where several thresholds reach the minimum (at a breakpoint, or at
    ``w = 0`` where every threshold with FPR = 0 costs 0), the highest is
    taken; ``w = 0`` therefore gives ``+inf``.  Costs within 1e-12 count as
    equal, so that a breakpoint typed as a decimal (1/3 as 0.3333333333333333)
    still counts as a tie.

    Examples
    --------
    >>> from rocci.cost import cost_curve
    >>> curve = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], w=[0.25, 0.5, 0.75])
    >>> curve.threshold.tolist(), curve.cost.tolist()
    ([0.8, 0.8, 0.35], [0.125, 0.25, 0.125])
    >>> curve.breakpoints.tolist()
    [0.5, 1.0]
    """
    pos, neg, pos_label = check_binary(y_true, y_score, pos_label)
    w = _check_w(w)
    env = _Envelope.from_counts(score_counts(pos, neg))
    i = env.minimiser(w)
    vis = env.visible()
    return CostCurve(
        w=w,
        cost=env._cost(i, w),
        threshold=env.thresholds[i],
        breakpoints=env.breakpoints[vis],
        hull_fpr=env.fpr[vis],
        hull_tpr=env.tpr[vis],
        hull_thresholds=env.thresholds[vis],
        hull_tp=env.tp[vis],
        hull_fp=env.fp[vis],
        operating_range=env.operating_range(),
        n_pos=env.n_pos,
        n_neg=env.n_neg,
        pos_label=pos_label,
        _envelope=env,
    )


# ---------------------------------------------------------------------------
# Exact laws on the lattice a·X + b·Y
# ---------------------------------------------------------------------------

#: Half-width of a binomial computation window in standard deviations (plus a
#: margin of 20): the mass outside is far below 1e-20 in every regime.
_WINDOW_SD = 10.0
_WINDOW_PAD = 20
#: Rows of a lattice law lighter than this are dropped.
_ROW_EPS = 1e-22
#: Largest table (rows × columns) built for conditional binomial laws.
_TABLE_MAX = 4_000_000


def _window(n, p: float):
    """Integer window ``[lo, hi]`` of ``Bin(n, p)`` (vectorised over ``n``)."""
    n = np.asarray(n, dtype=np.int64)
    if p <= 0:
        return np.zeros_like(n), np.zeros_like(n)
    if p >= 1:
        return n.copy(), n.copy()
    mu = n * p
    half = _WINDOW_SD * np.sqrt(n * p * (1 - p)) + _WINDOW_PAD
    lo = np.maximum(0, np.floor(mu - half)).astype(np.int64)
    hi = np.minimum(n, np.ceil(mu + half)).astype(np.int64)
    return lo, hi


def _binom_rows(n, p: float, start, width: int) -> np.ndarray:
    """``P[r, j] = b(start_r + j; n_r, p)`` for rows of binomials on shifted windows.

    One SciPy pmf per row, at the point of the window closest to the row's
    mode; the rest by the ratios ``b(y + 1)/b(y) = (n − y)/(y + 1)·p/(1 − p)``
    multiplied outwards.  Moving away from the mode every ratio is <= 1, so
    nothing overflows, small values underflow gracefully to 0, and the
    relative error stays below ``width`` ulps (SciPy's pmf on a whole 2-D grid
    is about 30 times slower).
    """
    n = np.asarray(n, dtype=np.int64).reshape(-1)
    start = np.broadcast_to(np.asarray(start, dtype=np.int64).reshape(-1), n.shape)
    y = start[:, None] + np.arange(width)[None, :]
    if p <= 0 or p >= 1:
        return (y == (0 if p <= 0 else n[:, None])).astype(np.float64)
    mode = np.clip(np.floor((n + 1) * p).astype(np.int64), 0, n)
    anchor = np.clip(mode, start, start + width - 1)
    col = anchor - start
    out = np.zeros(y.shape)
    rows = np.arange(n.size)
    out[rows, col] = stats.binom.pmf(anchor, n, p)
    odds = p / (1 - p)
    yf, nf = y.astype(np.float64), n[:, None].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        up = np.maximum(nf - yf + 1, 0.0) / np.maximum(yf, 1.0) * odds  # b(y)/b(y − 1)
        down = (yf + 1) / np.maximum(nf - yf, 0.0) / odds  # b(y)/b(y + 1)
    down = np.where(np.isfinite(down), down, 0.0)
    j = np.arange(width)[None, :]
    up = np.where(j > col[:, None], up, 1.0)
    down = np.where(j < col[:, None], down, 1.0)
    peak = out[rows, col][:, None]
    right = peak * np.cumprod(up, axis=1)
    left = peak * np.cumprod(down[:, ::-1], axis=1)[:, ::-1]
    out = np.where(j > col[:, None], right, np.where(j < col[:, None], left, peak))
    return np.where((y >= 0) & (y <= n[:, None]), out, 0.0)


def _diff_law(m: int, p1: float, p2: float) -> tuple[int, np.ndarray]:
    """pmf of ``U = A − B`` for ``(A, B, ·) ~ Multinomial(m; p1, p2, 1 − p1 − p2)``.

    ``S = A + B ~ Bin(m, p1 + p2)`` and ``A | S ~ Bin(S, p1/(p1 + p2))``, so
    ``P(U = u) = Σ_s b(s; m, p1 + p2)·b((s + u)/2; s, p1/(p1 + p2))``: a sum of
    positive terms (no cancellation, no recursion over ``m``) over windows of
    width O(sqrt(m)) in ``s`` and in ``A``, i.e. O(m) work.

    Returns
    -------
    u0 : int
        The value of the first entry.
    pmf : ndarray
        ``P(U = u0 + i)``.
    """
    tot = min(p1 + p2, 1.0)
    if m == 0 or tot <= 0:
        return 0, np.ones(1)
    r = min(max(p1 / (p1 + p2), 0.0), 1.0)
    s_lo, s_hi = (int(v) for v in _window(m, tot))
    s = np.arange(s_lo, s_hi + 1)
    ws = _binom_rows(np.array([m]), tot, s_lo, s.size)[0]
    if 0 < r < 1:
        half = int(np.ceil(_WINDOW_SD * np.sqrt(s_hi * r * (1 - r)) + _WINDOW_PAD))
    else:
        half = 0
    width = 2 * half + 1
    start = np.floor(s * r).astype(np.int64) - half
    u_min = int(np.min(2 * np.maximum(start, 0) - s))
    u_max = int(np.max(2 * np.minimum(start + width - 1, s) - s))
    out = np.zeros(u_max - u_min + 1)
    chunk = max(1, 4_000_000 // width)
    for lo in range(0, s.size, chunk):
        sl = slice(lo, lo + chunk)
        prob = ws[sl, None] * _binom_rows(s[sl], r, start[sl], width)
        u = 2 * (start[sl, None] + np.arange(width)[None, :]) - s[sl, None] - u_min
        valid = prob > 0
        out += np.bincount(u[valid], weights=prob[valid], minlength=out.size)
    return u_min, out


def _diff_laws(k_lo: int, k_hi: int, p1: float, p2: float) -> tuple[int, np.ndarray]:
    """pmfs of ``U_k = A − B`` for every ``k`` in ``[k_lo, k_hi]`` on one window.

    ``U_{k+1} = U_k + ξ`` with ``ξ = +1, −1, 0`` w.p. ``p1, p2, 1 − p1 − p2``:
    each step is a convex combination of shifted pmfs (relative error grows by
    a few ulps per step).  Returns ``(u0, P)`` with ``P[i, j] = P(U_{k_lo+i} = u0 + j)``.
    """
    d, v = p1 - p2, max(p1 + p2 - (p1 - p2) ** 2, 0.0)
    ends = []
    for k in (k_lo, k_hi):
        half = _WINDOW_SD * np.sqrt(k * v) + _WINDOW_PAD
        ends += [max(-k, int(np.floor(k * d - half))), min(k, int(np.ceil(k * d + half)))]
    u0, u1 = min(ends), max(ends)
    width = u1 - u0 + 1
    out = np.zeros((k_hi - k_lo + 1, width))
    s0, pmf = _diff_law(k_lo, p1, p2)
    lo, hi = max(s0, u0), min(s0 + pmf.size - 1, u1)
    out[0, lo - u0:hi - u0 + 1] = pmf[lo - s0:hi - s0 + 1]
    pc = max(1.0 - p1 - p2, 0.0)
    for i in range(1, out.shape[0]):
        prev = out[i - 1]
        row = pc * prev
        row[1:] += p1 * prev[:-1]
        row[:-1] += p2 * prev[1:]
        out[i] = row
    return u0, out


def _row_lookup(table: np.ndarray, rows: np.ndarray, y0: int, cdf: np.ndarray):
    """CDF and pmf lookups of the laws in rows ``rows`` of ``table`` (values ``y0 + j``), and their support.

    ``ycdf(j)[i, r] = cdf[rows[r], j[i] − y0]`` (0 below the support, the last
    column above it); ``ypmf(y)[i, r] = table[rows[r], y[i] − y0]`` (0 outside).
    """
    width = cdf.shape[1]

    def ycdf(j):
        jj = np.clip(j, y0 - 1, y0 + width - 1) - y0
        val = cdf[rows[None, :], np.maximum(jj, 0)]
        return np.where(jj < 0, 0.0, val)

    def ypmf(y):
        jj = y - y0
        inside = (jj >= 0) & (jj < width)
        return np.where(inside[None, :], table[rows][:, np.clip(jj, 0, width - 1)], 0.0)

    return ycdf, ypmf, (y0, y0 + width - 1)


class _Lattice:
    """Exact law of ``V = a·X + b·Y`` given as rows.

    Row ``r`` has probability ``c_r``, a fixed integer ``X = x_r`` and a
    conditional law of the integer ``Y`` given by ``ycdf`` (``P(Y <= j | r)``).
    Then ``P(V <= v) = Σ_r c_r·P(Y <= ⌊(v − a·x_r)/b⌋ | r)`` (for ``b > 0``).
    Values closer than :data:`TIE_TOL` count as equal.

    Parameters
    ----------
    c, x : ndarray of shape (R,)
    ycdf : callable
        ``ycdf(j)`` with ``j`` an integer array of shape (Q, R) → CDF values.
    y_range : (int, int)
        Bounds of the support of ``Y`` over all rows (within the windows).
    ypmf : callable
        ``ypmf(y)`` with ``y`` a 1-D integer grid → array (R, len(y)) of pmf values.
    """

    def __init__(self, c, x, ycdf, y_range, ypmf):
        self.c, self.x = c, x
        self.ycdf, self.y_range, self.ypmf = ycdf, y_range, ypmf

    # -- construction -------------------------------------------------------
    @staticmethod
    def from_tables(c, x, rows, y0, pmf_table):
        """Rows whose ``Y`` law is row ``rows[r]`` of ``pmf_table`` (values ``y0 + j``)."""
        keep = c > _ROW_EPS
        c, x, rows = c[keep], x[keep], rows[keep]
        ycdf, ypmf, support = _row_lookup(pmf_table, rows, y0, np.minimum(np.cumsum(pmf_table, axis=1), 1.0))
        return _Lattice(c, x, ycdf, support, ypmf)

    @staticmethod
    def from_joint(x, y0, joint):
        """Rows ``X = x[r]`` with the joint probabilities ``P(X = x[r], Y = y0 + j) = joint[r, j]``
        (stored unnormalised: weights 1 and the joint row CDFs)."""
        ycdf, ypmf, support = _row_lookup(joint, np.arange(x.size), y0, np.cumsum(joint, axis=1))
        return _Lattice(np.ones(x.size), x, ycdf, support, ypmf)

    @staticmethod
    def from_binomials(c, x, trials, p):
        """Rows whose ``Y`` is ``Bin(trials[r], p)``."""
        keep = c > _ROW_EPS
        c, x, trials = c[keep], x[keep], trials[keep]
        lo, hi = _window(trials, p)
        y0, y1 = int(lo.min()), int(hi.max())
        if trials.size * (y1 - y0 + 1) <= _TABLE_MAX:
            table = _binom_rows(trials, p, y0, y1 - y0 + 1)
            return _Lattice.from_tables(c, x, np.arange(c.size), y0, table)

        def ycdf(j):
            return stats.binom.cdf(j, trials[None, :], p)

        def ypmf(y):
            return stats.binom.pmf(y[None, :], trials[:, None], p)

        return _Lattice(c, x, ycdf, (y0, y1), ypmf)

    # -- evaluation ---------------------------------------------------------
    def _j(self, v, a, b, strict):
        """Largest ``y`` with ``a·x_r + b·y <= v`` (``< v`` if strict), per row."""
        t = v[:, None] - a * self.x[None, :]
        big = np.int64(self.y_range[1] + 1)
        small = np.int64(self.y_range[0] - 1)
        if b <= 0:
            hit = (t > TIE_TOL) if strict else (t >= -TIE_TOL)
            return np.where(hit, big, small)
        if strict:
            j = np.ceil((t - TIE_TOL) / b) - 1
        else:
            j = np.floor((t + TIE_TOL) / b)
        return np.clip(j, small, big).astype(np.int64)

    def cdf(self, v, a: float, b: float, *, strict: bool = False) -> np.ndarray:
        """``P(V <= v)`` (``P(V < v)`` if strict), ties within :data:`TIE_TOL`."""
        v = np.atleast_1d(np.asarray(v, dtype=np.float64))
        return self.ycdf(self._j(v, a, b, strict)) @ self.c

    def _bounds(self, a, b):
        y0, y1 = self.y_range
        return (a * self.x.min() + b * y0, a * self.x.max() + b * y1)

    def quantiles(self, qs, a: float, b: float) -> np.ndarray:
        """Smallest support value ``v`` with ``P(V <= v) >= q`` for each ``q``.

        Bisection on the value axis with exact CDF evaluations, down to an
        interval shorter than the tie tolerance; the value returned is the
        lattice point (a row's ``a·x + b·y`` of positive probability) where the
        CDF crosses ``q``.  The CDF counts as reaching ``q`` within
        :data:`rocci.exact.QUANTILE_TOL`, as everywhere in rocci.
        """
        qs = np.atleast_1d(np.asarray(qs, dtype=np.float64))
        target = qs - QUANTILE_TOL
        vmin, vmax = self._bounds(a, b)
        lo = np.full(qs.size, vmin - 1.0)
        hi = np.full(qs.size, vmax + 1.0)
        for _ in range(200):
            if (hi - lo <= TIE_TOL / 2).all():
                break
            mid = 0.5 * (lo + hi)
            ok = self.cdf(mid, a, b) >= target
            hi = np.where(ok, mid, hi)
            lo = np.where(ok, lo, mid)
        # Snap to the lattice point in (lo, hi]: a row whose CDF jumps there.
        j_hi, j_lo = self._j(hi, a, b, False), self._j(lo, a, b, False)
        mass = self.ycdf(j_hi) - self.ycdf(np.maximum(j_hi - 1, self.y_range[0] - 1))
        if b > 0:
            jumped = (j_hi > j_lo) & (mass > 0)
            values = a * self.x[None, :] + b * j_hi
        else:  # V = a·X: the rows whose value lies in (lo, hi]
            jumped = j_hi > j_lo
            values = np.broadcast_to(a * self.x[None, :], j_hi.shape)
        out = hi.copy()
        for qi in range(qs.size):
            cand = values[qi][jumped[qi]]
            if cand.size:
                out[qi] = cand[np.argmin(np.abs(cand - hi[qi]))]
        return out

    def support(self, a: float, b: float) -> tuple[np.ndarray, np.ndarray]:
        """The whole law: distinct values (merged within the tie tolerance) and probabilities."""
        grid = np.arange(self.y_range[0], self.y_range[1] + 1)
        probs = self.c[:, None] * self.ypmf(grid)
        values = a * self.x[:, None] + b * grid[None, :]
        keep = probs > 0
        values, probs = values[keep], probs[keep]
        order = np.argsort(values, kind="stable")
        values, probs = values[order], probs[order]
        if values.size == 0:
            return values, probs
        start = np.flatnonzero(np.concatenate([[True], np.diff(values) > TIE_TOL]))
        return values[start], np.add.reduceat(probs, start)


def _single_law(fn: int, fp: int, n_pos: int, n_neg: int, bootstrap: str, m) -> _Lattice:
    """Law of ``(X, Y) = (FN*, FP*)`` for one model at one threshold."""
    if bootstrap == "stratified":
        m_pos, m_neg = m
        q_fn, q_fp = fn / n_pos, fp / n_neg
        x0, x1 = (int(v) for v in _window(m_pos, q_fn))
        x = np.arange(x0, x1 + 1)
        c = stats.binom.pmf(x, m_pos, q_fn)
        y0, y1 = (int(v) for v in _window(m_neg, q_fp))
        table = stats.binom.pmf(np.arange(y0, y1 + 1), m_neg, q_fp)[None, :]
        return _Lattice.from_tables(c, x, np.zeros(x.size, dtype=np.int64), y0, table)
    # Full: FN* ~ Bin(m, n_FN/n) and FP* | FN* = x ~ Bin(m − x, n_FP/(n − n_FN)).
    n = n_pos + n_neg
    r_fn = fn / n
    x0, x1 = (int(v) for v in _window(m, r_fn))
    x = np.arange(x0, x1 + 1)
    c = stats.binom.pmf(x, m, r_fn)
    p_fp = fp / (n - fn) if n > fn else 0.0
    return _Lattice.from_binomials(c, x, m - x, p_fp)


#: Largest window (cells) of a Fourier law: about 300 MB per array of floats.
_JOINT_MAX = 40_000_000

#: Fourier terms whose modulus is below this bound are left out: each
#: probability of a Fourier law then moves by less than this amount.
_FOURIER_EPS = 1e-30


def _steps_law(m: int, plus, minus, rest: float, rest_is_zero: bool, *, spectrum_only: bool = False):
    """Exact joint pmf of ``m`` i.i.d. lattice steps, by a Fourier transform.

    Each draw moves one coordinate ``k`` by ``+1`` (probability ``plus[k]``) or
    ``−1`` (``minus[k]``), or nothing (``rest``).  The sum ``S`` has the
    characteristic function ``φ(θ) = (rest + Σ_k plus_k·e^{iθ_k} +
    minus_k·e^{−iθ_k})^m``, so on a window ``lo_k … lo_k + L_k − 1`` per axis

        ``P(S = lo + i) = (1/ΠL)·Σ_j φ(−θ_j)·e^{iθ_j·lo}·e^{2πi·j·i/L}``,
        ``θ_j = 2πj/L``,

    an inverse FFT, exact up to the mass outside the window (aliased back in,
    below 1e-20: each window is the mean ± (10 sd + 20), as :func:`_window`)
    and round-off (absolute errors ~1e-17).  Only the frequencies where the
    bound ``|φ| <= (rest + |plus_k e^{iθ_k} + minus_k e^{−iθ_k}| + Σ_{l≠k}(plus_l +
    minus_l))^m`` exceeds :data:`_FOURIER_EPS` are evaluated (a block of a few
    dozen per axis); the power is taken after centring each step at its mean
    so its phase stays small.  Points outside the exact support (a sign that
    no step can give, more moves than draws, the parity when every draw
    moves) are set to 0, and round-off below 0 is clipped.

    Parameters
    ----------
    m : int
        Number of draws.
    plus, minus : sequence of float
        Per axis (one or two axes).
    rest : float
        Probability that a draw moves nothing.
    rest_is_zero : bool
        Whether ``rest`` is exactly zero (decided from integer counts).

    Returns
    -------
    lo : tuple of int
        The value of the first entry on each axis.
    pmf : ndarray
        ``P(S = lo + i)`` (shape: the window widths).
    """
    plus = [float(v) for v in plus]
    minus = [float(v) for v in minus]
    k = len(plus)
    los, widths, sizes, thetas, means = [], [], [], [], []
    moving = sum(plus) + sum(minus)
    for ax in range(k):
        pp, pm = plus[ax], minus[ax]
        d = pp - pm
        var = max(pp + pm - d * d, 0.0)
        half = _WINDOW_SD * np.sqrt(m * var) + _WINDOW_PAD
        lo = max(-m if pm > 0 else 0, int(np.floor(m * d - half)))
        hi = min(m if pp > 0 else 0, int(np.ceil(m * d + half)))
        last = ax == k - 1
        size = sfft.next_fast_len(hi - lo + 1, real=last)
        freq = sfft.rfftfreq(size) if last else sfft.fftfreq(size)
        theta = 2 * np.pi * freq
        # Bound on |φ| along this axis, the other axes at their largest.
        g = np.sqrt(np.maximum(pp * pp + pm * pm + 2 * pp * pm * np.cos(2 * theta), 0.0))
        other = moving - pp - pm
        with np.errstate(divide="ignore"):
            logb = m * np.log(np.minimum(rest + other + g, 1.0))
        idx = np.flatnonzero(logb > np.log(_FOURIER_EPS))
        los.append(lo)
        widths.append(hi - lo + 1)
        sizes.append(size)
        thetas.append((idx, theta[idx]))
        means.append(d)
    # Transform about an integer origin next to the mean, so that the phase of
    # the m-th power stays small; the shift from that origin to the window's
    # start is an exact multiple of 2π/size, reduced in integers.
    origins = [int(np.rint(m * d)) for d in means]
    grids = np.ix_(*[t for _, t in thetas])
    # The centred step's transform as 1 + dz, with dz accurate near θ = 0 (a
    # plain sum would be 1 ± 1e-16 at θ = 0, and its m-th power 1 ± m·1e-16).
    shape = tuple(t.size for _, t in thetas)
    dz = np.zeros(shape, dtype=np.complex128)
    phase = np.zeros(shape)
    shift = np.zeros(shape)
    for ax in range(k):
        th = grids[ax]
        j = np.ix_(*[i for i, _ in thetas])[ax]
        jj = np.where(j > sizes[ax] // 2, j - sizes[ax], j) if ax < k - 1 else j
        cm1 = -2.0 * np.sin(th / 2) ** 2  # cos θ − 1
        dz = dz + plus[ax] * (cm1 - 1j * np.sin(th)) + minus[ax] * (cm1 + 1j * np.sin(th))
        phase = phase + th * means[ax]
        exact = (jj * (los[ax] - origins[ax])) % sizes[ax]  # θ·(lo − origin) = 2π·exact/size
        shift = shift + th * (origins[ax] - m * means[ax]) + 2 * np.pi * exact / sizes[ax]
    rot_m1 = -2.0 * np.sin(phase / 2) ** 2 + 1j * np.sin(phase)  # e^{i·phase} − 1
    wz = dz * (1 + rot_m1) + rot_m1  # (1 + dz)·e^{i·phase} − 1
    with np.errstate(divide="ignore", invalid="ignore"):
        log_abs = 0.5 * np.log1p(2 * wz.real + np.abs(wz) ** 2)
        arg = np.arctan2(wz.imag, 1 + wz.real)
        psi = np.exp(m * log_abs) * np.exp(1j * (m * arg + shift))
    psi = np.where(np.isfinite(psi), psi, 0.0)
    if spectrum_only:
        return _Spectrum(tuple(los), tuple(widths), tuple(sizes), tuple(i for i, _ in thetas), psi)
    if np.prod([float(v) for v in sizes]) > _JOINT_MAX:
        raise InputError(
            f"The exact full-bootstrap law of this threshold pair needs a table of "
            f"{' x '.join(str(v) for v in sizes)} probabilities (more than {_JOINT_MAX:,}): "
            "use bootstrap='stratified', or a smaller bootstrap size m."
        )
    spec_shape = tuple(sizes[:-1]) + (sizes[-1] // 2 + 1,)
    spec = np.zeros(spec_shape, dtype=np.complex128)
    spec[np.ix_(*[i for i, _ in thetas])] = psi
    out = sfft.irfftn(spec, s=sizes)  # entry i: S = lo + i
    pmf = np.maximum(out[tuple(slice(0, wd) for wd in widths)], 0.0)
    # Exact support: |S|_1 <= m, and the parity when every draw moves (the
    # signs no step can give are outside the windows already).
    reach = sum(max(abs(lo), abs(lo + wd - 1)) for lo, wd in zip(los, widths))
    if reach > m or rest_is_zero:
        coords = np.ix_(*[lo + np.arange(wd) for lo, wd in zip(los, widths)])
        spare = m - sum(np.abs(c) for c in coords)
        ok = spare >= 0
        if rest_is_zero:
            pairs = any(plus[ax] > 0 and minus[ax] > 0 for ax in range(k))
            ok = ok & (spare % 2 == 0) & ((spare == 0) | pairs)
        pmf[~np.broadcast_to(ok, pmf.shape)] = 0.0
    return tuple(los), pmf


@dataclass(frozen=True)
class _Spectrum:
    """The significant block of a two-dimensional step law's transform (see :func:`_steps_law`)."""

    los: tuple
    widths: tuple
    sizes: tuple
    freqs: tuple  # frequency indices per axis (the last axis: 0 … size//2)
    psi: np.ndarray

    def below(self, v: float, a: float, b: float, *, strict: bool) -> float:
        """``P(a·X + b·Y <= v)`` (``< v`` if strict), ties within :data:`TIE_TOL`, without the table.

        Parseval on the window: ``Σ_{x,y} h(x, y)·P(x, y) = (1/N)·Re Σ_j c_j·ψ_j·H_j``
        with ``h`` the indicator of the half-plane, ``c_j`` = 1 on the zero
        (and Nyquist) column of the half spectrum and 2 elsewhere, and
        ``H_j = Σ_x e^{2πi·j₀x/L₀}·Σ_{y <= J(x)} e^{2πi·j₁y/L₁}`` (a geometric
        sum in ``y``): one inverse FFT of the R × C significant frequencies (a
        few dozen each) per law, then O(W·C) per evaluation, instead of the
        O(W² log W) table.  The result equals the
        table's up to round-off (~1e-16) and the aliased mass (< 1e-20).
        """
        (x0, y0), (w0, w1), (l0, l1), (_, f1) = self.los, self.widths, self.sizes, self.freqs
        x = x0 + np.arange(w0)
        t = v - a * x
        if b <= 0:
            hit = (t > TIE_TOL) if strict else (t >= -TIE_TOL)
            top = np.where(hit, w1 - 1, -1)
        else:
            j = np.ceil((t - TIE_TOL) / b) - 1 if strict else np.floor((t + TIE_TOL) / b)
            top = np.clip(j - y0, -1, w1 - 1).astype(np.int64)
        # Geometric sums G[x, j1] = Σ_{i=0}^{top(x)} e^{2πi·j1·i/L1}, angles reduced in integers.
        f1 = np.asarray(f1, dtype=np.int64)
        count = top + 1
        ang = 2 * np.pi * ((count[:, None] * f1[None, :]) % l1) / l1
        step = 2 * np.pi * f1 / l1
        num = -2.0 * np.sin(ang / 2) ** 2 + 1j * np.sin(ang)  # e^{i·ang} − 1
        den = -2.0 * np.sin(step / 2) ** 2 + 1j * np.sin(step)
        with np.errstate(divide="ignore", invalid="ignore"):
            geo = np.where(f1[None, :] == 0, count[:, None].astype(np.float64), num / den[None, :])
        total = np.sum(geo * self._rows)
        return float(total.real) / (l0 * l1)

    @functools.cached_property
    def _rows(self) -> np.ndarray:
        """``Q[x, j1] = c_{j1}·Σ_{j0} ψ[j0, j1]·e^{2πi·j0·x/L0}`` on the window's rows: one
        inverse FFT along the first axis (the part of ``H_j`` that does not depend on the
        half-plane), so each evaluation is O(W·C)."""
        (w0, _), (l0, l1), (f0, f1) = self.widths, self.sizes, self.freqs
        f1 = np.asarray(f1, dtype=np.int64)
        weight = np.where((f1 == 0) | (2 * f1 == l1), 1.0, 2.0)
        full = np.zeros((l0, f1.size), dtype=np.complex128)
        full[np.asarray(f0, dtype=np.int64)] = self.psi * weight[None, :]
        return l0 * sfft.ifft(full, axis=0)[:w0]


def _paired_p_below(cells_pos, cells_neg, n_pos: int, n_neg: int, m: int):
    """Full bootstrap: the transform block of ``(B+* − A+*, A−* − B−*)``, for
    :meth:`_Spectrum.below` (the law itself is :func:`_paired_law`)."""
    na_p, nb_p = (int(v) for v in cells_pos)
    na_n, nb_n = (int(v) for v in cells_neg)
    n = n_pos + n_neg
    rest = n - na_p - nb_p - na_n - nb_n
    return _steps_law(m, [nb_p / n, na_n / n], [na_p / n, nb_n / n], rest / n, rest == 0, spectrum_only=True)


def _paired_law(cells_pos, cells_neg, n_pos: int, n_neg: int, bootstrap: str, m) -> _Lattice:
    """Law of ``(X, Y) = (B+* − A+*, A−* − B−*)`` for two models at a threshold pair.

    ``ΔC* = C_a* − C_b* = a·X + b·Y`` (:func:`compare_cost`, A − B).

    Every draw moves ``X`` by ±1 (a paired cell of the positives), ``Y`` by ±1
    (a paired cell of the negatives) or nothing, so the laws are those of sums
    of lattice steps (:func:`_steps_law`): stratified, two independent
    one-dimensional laws of ``m+`` and ``m−`` draws; full, one two-dimensional
    law of ``m`` draws over the six cells, O(W² log W) for windows of width W
    (instead of the O(W³) mixture over the number of positives drawn, kept in
    :func:`_paired_law_direct`).
    """
    na_p, nb_p = (int(v) for v in cells_pos)
    na_n, nb_n = (int(v) for v in cells_neg)
    if bootstrap == "stratified":
        m_pos, m_neg = m
        rest_p, rest_n = n_pos - na_p - nb_p, n_neg - na_n - nb_n
        (x0,), cx = _steps_law(m_pos, [nb_p / n_pos], [na_p / n_pos], rest_p / n_pos, rest_p == 0)
        (y0,), py = _steps_law(m_neg, [na_n / n_neg], [nb_n / n_neg], rest_n / n_neg, rest_n == 0)
        keep = cx > _ROW_EPS
        x = x0 + np.flatnonzero(keep)
        return _Lattice.from_tables(cx[keep], x, np.zeros(x.size, dtype=np.int64), y0, py[None, :])
    n = n_pos + n_neg
    rest = n - na_p - nb_p - na_n - nb_n
    (x0, y0), joint = _steps_law(m, [nb_p / n, na_n / n], [na_p / n, nb_n / n], rest / n, rest == 0)
    heavy = np.flatnonzero(joint.sum(axis=1) > _ROW_EPS)
    rows = slice(heavy[0], heavy[-1] + 1)  # a contiguous range: no copy
    return _Lattice.from_joint(x0 + np.arange(joint.shape[0])[rows], y0, joint[rows])


def _paired_law_direct(cells_pos, cells_neg, n_pos: int, n_neg: int, bootstrap: str, m) -> _Lattice:
    """Law of ``(X, Y) = (B+* − A+*, A−* − B−*)`` by direct summation (the earlier route).

    Kept as the reference of :func:`_paired_law` (tests compare the two to
    1e-12): binomial sums per class, and for the full bootstrap a mixture over
    the number of positives drawn, one matrix product of O(window³) work.
    """
    na_p, nb_p = cells_pos
    na_n, nb_n = cells_neg
    qa_p, qb_p = na_p / n_pos, nb_p / n_pos
    qa_n, qb_n = na_n / n_neg, nb_n / n_neg
    if bootstrap == "stratified":
        m_pos, m_neg = m
        x0, cx = _diff_law(m_pos, qb_p, qa_p)
        y0, py = _diff_law(m_neg, qa_n, qb_n)
        x = x0 + np.arange(cx.size)
        return _Lattice.from_tables(cx, x, np.zeros(x.size, dtype=np.int64), y0, py[None, :])
    # Full: the number N+* of positives drawn is Bin(m, π+); given N+* = k the
    # two classes are independent stratified samples of sizes k and m − k.
    pi_pos = n_pos / (n_pos + n_neg)
    k0, k1 = (int(v) for v in _window(m, pi_pos))
    ks = np.arange(k0, k1 + 1)
    ck = stats.binom.pmf(ks, m, pi_pos)
    x0, px = _diff_laws(k0, k1, qb_p, qa_p)  # rows: k = k0 … k1
    y0, py = _diff_laws(m - k1, m - k0, qa_n, qb_n)  # rows: m − k = m − k1 … m − k0
    py = py[::-1]  # row i now belongs to k = k0 + i
    # Joint pmf P(U = u, V = v) = Σ_k P(N+* = k)·P(U_k = u)·P(V_{m−k} = v): one
    # matrix product, after which the law is a table like the stratified one.
    joint = (px * ck[:, None]).T @ py
    cu = joint.sum(axis=1)
    keep = cu > _ROW_EPS
    x = x0 + np.flatnonzero(keep)
    table = joint[keep] / cu[keep, None]
    return _Lattice.from_tables(cu[keep], x, np.arange(x.size), y0, table)


# ---------------------------------------------------------------------------
# Moments
# ---------------------------------------------------------------------------


def _moments(coef_pos, q_pos, coef_neg, q_neg, bootstrap, m, pi_pos=None):
    """Mean and variance of ``S = Σ_c coef_c·N*_c / M_class(c)``.

    ``coef_*``, ``q_*``: arrays (k, cells) of coefficients and within-class cell
    probabilities.  Stratified (``m = (m+, m−)``, ``M± = m±``):
    ``E = Σ coef·q``, ``Var = Σ_class [Σ coef²·q − (Σ coef·q)²]/m_class``.
    Full (``m`` pooled draws, ``M± = m·π±``, cells pooled with ``r = π·q``):
    ``Var = [Σ_class (Σ coef²·q)/π_class − E²]/m``.
    """
    mp = (coef_pos * q_pos).sum(axis=1)
    mn = (coef_neg * q_neg).sum(axis=1)
    sp = (coef_pos**2 * q_pos).sum(axis=1)
    sn = (coef_neg**2 * q_neg).sum(axis=1)
    mean = mp + mn
    if bootstrap == "stratified":
        m_pos, m_neg = m
        var = (sp - mp**2) / m_pos + (sn - mn**2) / m_neg
    else:
        var = (sp / pi_pos + sn / (1 - pi_pos) - mean**2) / m
    return mean, np.maximum(var, 0.0)


def _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, m, add):
    """Cell probabilities and sizes after adding ``add`` to every cell (Agresti).

    ``counts_*``: arrays (k, cells) of observed cell counts (cells summing to
    the class size).  The pseudo-counts are added on the scale of the bootstrap
    sample: a cell's count ``m_class·q + add``, the class ``m_class + cells·add``
    (with ``m = n``, simply ``n_cell + add``).  Full bootstrap: all cells of
    both classes are pooled, ``m̃ = m + (all cells)·add``.
    """
    k = counts_pos.shape[1]
    q_pos, q_neg = counts_pos / n_pos, counts_neg / n_neg
    if bootstrap == "stratified":
        m_pos, m_neg = m
        qp = (m_pos * q_pos + add) / (m_pos + k * add)
        qn = (m_neg * q_neg + add) / (m_neg + k * add)
        return qp, qn, (m_pos + k * add, m_neg + k * add), None
    pi = n_pos / (n_pos + n_neg)
    mp, mn = m * pi, m * (1 - pi)
    qp = (mp * q_pos + add) / (mp + k * add)
    qn = (mn * q_neg + add) / (mn + k * add)
    m_adj = m + 2 * k * add
    return qp, qn, m_adj, (mp + k * add) / m_adj


def _normal_interval(center, sd, level, lower, upper):
    z = float(special.ndtri(0.5 + level / 2))
    return np.clip(center - z * sd, lower, upper), np.clip(center + z * sd, lower, upper)


def _bootstrap_sizes(bootstrap, m, n_pos, n_neg):
    if bootstrap == "stratified":
        return check_m(m, n_pos, n_neg)
    return _check_full_m(m, n_pos + n_neg)


def _scales(w, bootstrap, m, n_pos, n_neg):
    """Coefficients ``a = w/M+`` and ``b = (1 − w)/M−`` of the lattice counts."""
    if bootstrap == "stratified":
        m_pos, m_neg = m
    else:
        m_pos, m_neg = m * n_pos / (n_pos + n_neg), m * n_neg / (n_pos + n_neg)
    return w / m_pos, (1 - w) / m_neg


def _stored_sizes(result):
    """The bootstrap sizes of a result, as :func:`_bootstrap_sizes` returns them."""
    if result.bootstrap == "stratified":
        return (int(result.m_pos), int(result.m_neg))
    return int(result.m_total)


def _size_fields(bootstrap, m):
    if bootstrap == "stratified":
        return {"m_pos": m[0], "m_neg": m[1], "m_total": None}
    return {"m_pos": None, "m_neg": None, "m_total": m}


class _LastLaw:
    """The law at operating point ``i``, keeping only the latest one.

    Consecutive operating points often share a threshold (pair), hence a law;
    keeping every law would hold O(W²) numbers per threshold pair (gigabytes
    for a full-bootstrap comparison at n = 10⁵).
    """

    def __init__(self, key_of: Callable, build: Callable):
        self.key_of, self.build = key_of, build
        self.key, self.law = None, None

    def __call__(self, i: int) -> "_Lattice":
        key = self.key_of(i)
        if key != self.key:
            self.key, self.law = key, self.build(key)
        return self.law


# ---------------------------------------------------------------------------
# cost_ci
# ---------------------------------------------------------------------------


def cost_ci(
    y_true,
    y_score,
    *,
    w=None,
    thresholds=None,
    pos_label=None,
    bootstrap="stratified",
    confidence_level=0.95,
    method="agresti-coull",
    m=None,
    add=AGRESTI_ADD,
) -> CostCI:
    """Exact bootstrap confidence intervals for the normalised expected cost.

    At each operating point ``w`` the threshold ``t`` is held fixed across
    bootstrap samples (by default the observed envelope's minimiser, see
    :func:`cost_curve`).  With ``n_FN`` positives below ``t`` and ``n_FP``
    negatives at or above it, ``p+ = TPR_t``, ``p− = FPR_t``:

    * ``bootstrap="stratified"`` (eqs. 5.3–5.5): ``FN* ~ Bin(m+, 1 − p+)``,
      ``FP* ~ Bin(m−, p−)`` independent, ``C* = w·FN*/m+ + (1 − w)·FP*/m−``,

      ``E = w(1 − p+) + (1 − w)p−``,
      ``Var = w²p+(1 − p+)/m+ + (1 − w)²p−(1 − p−)/m−``.

      **Eq. 5.5 as printed omits the 1/m± factors** (off by a factor of 33
      at w = .3 on the thesis's example).
    * ``bootstrap="full"`` (eqs. 5.9–5.11, rescaled): ``m`` draws from the
      pooled data, ``(FN*, FP*, ·) ~ Multinomial(m; n_FN/n, n_FP/n, ·)`` and
      ``C* = w·FN*/(m·π+) + (1 − w)·FP*/(m·π−)``, ``π± = n±/n``: the same mean
      as the stratified cost and ``Var = [w²(1 − p+)/π+ + (1 − w)²p−/π− − E²]/m``.
      The thesis divides ``C(−|+)·FN* + C(+|−)·FP*`` by ``n·max(C(−|+), C(+|−))``
      instead (eq. 5.9): its cost is ours times the constant
      ``(π+·C(−|+) + π−·C(+|−))/max(C(−|+), C(+|−))`` when
      ``w = operating_point(π+, C(−|+), C(+|−))``.  Samples drawing a single
      class are kept (the scale does not depend on the sample).

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    w : float or array_like, optional
        Operating points in [0, 1]; default 101 points ``0, 0.01, …, 1``.
    thresholds : float or array_like, optional
        One threshold for all ``w`` or one per ``w``.  Default: the envelope's
        minimiser at each ``w`` (ties → the highest threshold).
    bootstrap : {"stratified", "full"}
    confidence_level : float, default 0.95
    method : {"agresti-coull", "wald", "percentile"}
        ``"agresti-coull"`` (the thesis's choice, table 5.1): ``add``
        pseudo-counts in each of the four confusion cells (TP, FN, FP, TN),
        i.e. ``p̃ = (m·p + add)/(m + 2·add)`` per class, then Wald with the
        mean and variance above at ``p̃`` and ``m + 2·add`` (full bootstrap: all
        four cells pooled, ``m + 4·add`` draws).  ``"wald"``: ``E ± z·sd`` with
        the exact moments.  Both are clipped to [0, 1].  ``"percentile"``: the
        ``α/2`` and ``1 − α/2`` quantiles of the exact lattice law of ``C*``.
    m : None, int or (int, int)
        Stratified: ``(m+, m−)`` (an int sets both; default ``n±``).  Full: the
        number of pooled draws (default ``n``).
    add : float, default :data:`AGRESTI_ADD` (2)
        Agresti–Coull pseudo-count per cell (why 2: see :data:`AGRESTI_ADD`).

    Returns
    -------
    CostCI
        ``to_frame()``: ``w, threshold, cost, cost_std, cost_low, cost_high``
        (+ ``tp, fp``); ``distribution(i)`` gives the exact law of ``C*``.

    Notes
    -----
    The exact law of ``C*`` lives on the lattice ``a·FN* + b·FP*``
    (``a = w/m+``, ``b = (1 − w)/m−``; full: ``a = w/(m·π+)``, ``b = (1 − w)/(m·π−)``).
    Its CDF is ``Σ_x P(FN* = x)·P(FP* <= ⌊(c − a·x)/b⌋ | FN* = x)``, with
    ``FP* | FN* = x`` binomial (``Bin(m−, p−)`` stratified,
    ``Bin(m − x, n_FP/(n − n_FN))`` full): one exact binomial CDF per value of
    ``FN*`` in a window of width O(sqrt(m)) (the mass left out is below
    1e-20).  The percentile bounds are found by bisection with exact CDF
    evaluations, then snapped to the lattice point where the CDF crosses the
    level; values closer than 1e-12 count as equal.  At ``w = 0`` and
    ``w = 1`` the cost and its variance can be 0 (Wald gives a point); the
    Agresti–Coull interval then stays non-degenerate (§5.5).

    Examples
    --------
    >>> from rocci.cost import cost_ci
    >>> y = [0, 0, 0, 1, 1, 1]; s = [.1, .3, .6, .4, .7, .9]
    >>> res = cost_ci(y, s, w=0.5, thresholds=0.5, method="wald")
    >>> round(float(res.cost[0]), 4), round(float(res.cost_std[0]), 4)
    (0.3333, 0.1925)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    check_choice("method", method, COST_METHODS)
    add = _check_add(add)
    pos, neg, _ = check_binary(y_true, y_score, pos_label)
    w = _check_w(w)
    counts = score_counts(pos, neg)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    sizes = _bootstrap_sizes(bootstrap, m, n_pos, n_neg)
    if thresholds is None:
        env = _Envelope.from_counts(counts)
        t = env.thresholds[env.minimiser(w)]
    else:
        t = _check_thresholds("thresholds", thresholds, w.size)
    tp = counts.n_pos_ge(t).astype(np.int64)
    fp = counts.n_neg_ge(t).astype(np.int64)
    fn = n_pos - tp

    zero = np.zeros_like(w)
    coef_pos = np.column_stack([w, zero])  # cells FN, TP
    coef_neg = np.column_stack([1 - w, zero])  # cells FP, TN
    counts_pos = np.column_stack([fn, tp]).astype(np.float64)
    counts_neg = np.column_stack([fp, n_neg - fp]).astype(np.float64)
    pi_pos = n_pos / (n_pos + n_neg)
    cost, var = _moments(coef_pos, counts_pos / n_pos, coef_neg, counts_neg / n_neg,
                         bootstrap, sizes, pi_pos)
    std = np.sqrt(var)

    law = _LastLaw(lambda i: (int(fn[i]), int(fp[i])),
                   lambda key: _single_law(key[0], key[1], n_pos, n_neg, bootstrap, sizes))

    alpha = 1.0 - level
    if method == "wald":
        low, high = _normal_interval(cost, std, level, 0.0, 1.0)
    elif method == "agresti-coull":
        qp, qn, sizes_adj, pi_adj = _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, sizes, add)
        mean_adj, var_adj = _moments(coef_pos, qp, coef_neg, qn, bootstrap, sizes_adj, pi_adj)
        low, high = _normal_interval(mean_adj, np.sqrt(var_adj), level, 0.0, 1.0)
    else:
        low, high = np.empty_like(w), np.empty_like(w)
        for i in range(w.size):
            a, b = _scales(w[i], bootstrap, sizes, n_pos, n_neg)
            low[i], high[i] = law(i).quantiles([alpha / 2, 1 - alpha / 2], a, b)

    return CostCI(
        w=w,
        threshold=t,
        cost=cost,
        cost_std=std,
        cost_low=low,
        cost_high=high,
        tp=tp,
        fp=fp,
        n_pos=n_pos,
        n_neg=n_neg,
        bootstrap=bootstrap,
        method=method,
        confidence_level=level,
        add=add,
        **_size_fields(bootstrap, sizes),
    )


# ---------------------------------------------------------------------------
# compare_cost
# ---------------------------------------------------------------------------


def _check_paired(y_true, score_a, score_b, pos_label):
    mask, pos_label = check_labels(y_true, pos_label)
    a = check_scores(score_a, name="score_a", n=mask.size)
    b = check_scores(score_b, name="score_b", n=mask.size)
    return mask, a, b


def compare_cost(
    y_true,
    score_a,
    score_b,
    *,
    w=None,
    thresholds_a=None,
    thresholds_b=None,
    pos_label=None,
    bootstrap="stratified",
    confidence_level=0.95,
    method="agresti-coull",
    m=None,
    add=AGRESTI_MIN_ADD,
) -> CostComparison:
    """Exact bootstrap comparison of two models' costs on the same instances.

    ``ΔC = C_a − C_b = w(TPR_b − TPR_a) + (1 − w)(FPR_a − FPR_b)``, each model
    at its own threshold, held fixed across bootstrap samples: A − B, like
    every paired result of rocci, so ``ΔC < 0`` where model a is cheaper.  The
    thesis's ``ΔC = C2 − C1`` (eq. 5.6, model 1 = a, model 2 = b) is its
    negative: its law is the mirror image of this one.  Paired cells per class: ``a`` = model a says
    positive and b negative, ``b`` = the reverse (the rest agree).  With
    ``p_a±``, ``p_b±`` their within-class proportions:

    * stratified (eqs. 5.7–5.8): ``(A+*, B+*, ·) ~ Multinomial(m+; p_a+, p_b+, ·)``
      and likewise among the negatives, independent;
      ``ΔC* = w(B+* − A+*)/m+ + (1 − w)(A−* − B−*)/m−``,

      ``E = w(p_b+ − p_a+) + (1 − w)(p_a− − p_b−)``,
      ``Var = w²[p_a+ + p_b+ − (p_a+ − p_b+)²]/m+ + (1 − w)²[p_a− + p_b− − (p_a− − p_b−)²]/m−``
      (eqs. 5.7–5.8 with the sign flipped; the variance does not change).

      The thesis defines the negative counts "identically" to the positive
      ones, which flips the sign of the negative term of the mean; the form
      above is the one the bootstrap confirms (math.md §5).
    * full (eqs. 5.12–5.14, rescaled as in :func:`cost_ci`): one multinomial of
      ``m`` draws over the six paired cells of both classes,
      ``ΔC* = w(B+* − A+*)/(m·π+) + (1 − w)(A−* − B−*)/(m·π−)``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
    score_a, score_b : array_like of shape (n,)
        The two models' scores of the same instances.
    w : float or array_like, optional
        Operating points in [0, 1]; default 101 points ``0, 0.01, …, 1``.
    thresholds_a, thresholds_b : float or array_like, optional
        One threshold for all ``w`` or one per ``w``.  A model without
        thresholds uses its own envelope minimiser at each ``w``.
    pos_label : object, optional
    bootstrap : {"stratified", "full"}
    confidence_level : float, default 0.95
    method : {"agresti-coull", "wald", "percentile"}
        ``"agresti-coull"`` (Agresti & Min 2005; table 5.2): ``add`` in each of
        the four paired cells of each class (a, b, both positive, both
        negative), i.e. ``p̃ = (m·p + add)/(m + 4·add)``, then Wald with the
        moments above at ``p̃`` and ``m + 4·add`` (full: all eight cells pooled,
        ``m + 8·add``).  ``"wald"``: exact moments.  Both clipped to [−1, 1].
        ``"percentile"``: quantiles of the exact lattice law of ``ΔC*``.
    m : None, int or (int, int)
        As in :func:`cost_ci`.
    add : float, default :data:`AGRESTI_MIN_ADD` (½)
        Agresti–Min pseudo-count per paired cell (why ½: see :data:`AGRESTI_MIN_ADD`).

    Returns
    -------
    CostComparison
        ``to_frame()``: ``w, threshold_a, threshold_b, delta_cost,
        delta_cost_std, delta_cost_low, delta_cost_high, p_a_cheaper``
        (+ the paired cells).  ``p_a_cheaper = P(ΔC* < 0)``, the probability
        that model a costs strictly less, is exact for every method.

        Changed in 0.2.0: ``delta_cost`` was ``C_b − C_a`` and the last column
        ``p_b_cheaper``; negate the old values (and swap the interval's ends)
        to compare.

    Notes
    -----
    Every draw moves ``U = B+* − A+*`` by ±1, ``V = A−* − B−*`` by ±1, or
    nothing, so ``(U, V)`` is a sum of i.i.d. lattice steps whose
    characteristic function is a power: ``E[e^{iθU}] = (1 − p_a − p_b +
    p_b e^{iθ} + p_a e^{−iθ})^{m+}`` for a class (stratified: ``U`` and ``V``
    independent) and ``(r_0 + r_{b+}e^{iθ₁} + r_{a+}e^{−iθ₁} + r_{a−}e^{iθ₂} +
    r_{b−}e^{−iθ₂})^m`` over the six pooled cells (full bootstrap).  Its
    inverse FFT on windows of ±(10 sd + 20) around the mean gives the exact
    law (mass outside the windows < 1e-20, round-off ~1e-17; impossible
    points, e.g. the wrong parity when every instance disagrees, are set to
    0): O(W log W) per class, O(W² log W) for the full bootstrap's joint law
    (W ~ 20·sqrt(m·(p_a + p_b))).  The laws are combined on the lattice
    ``a·U + b·V`` through ``Σ_u P(U = u, V <= ⌊(c − a·u)/b⌋)``; the
    percentile bounds by bisection.  ``P(ΔC* < 0)`` takes one evaluation;
    for the full bootstrap it comes straight from the few dozen × few dozen
    significant Fourier terms by Parseval (O(W) per term, no W × W table:
    about 20 ms per operating point at n = 10⁵), so the table is built only
    for percentile bounds, and refused (InputError) beyond 4·10⁷ cells.  Only
    the law of the current threshold pair is kept in memory.

    Examples
    --------
    >>> from rocci.cost import compare_cost
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> res = compare_cost(y, [.1, .3, .6, .4, .7, .9], [.2, .5, .1, .3, .8, .6],
    ...                    w=0.5, thresholds_a=0.5, thresholds_b=0.5, method="wald")
    >>> round(float(res.delta_cost[0]), 4), round(float(res.p_a_cheaper[0]), 4)
    (0.0, 0.3704)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    check_choice("method", method, COST_METHODS)
    add = _check_add(add)
    mask, sa, sb = _check_paired(y_true, score_a, score_b, pos_label)
    w = _check_w(w)
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    sizes = _bootstrap_sizes(bootstrap, m, n_pos, n_neg)

    def thresholds_for(scores, given, name):
        if given is not None:
            return _check_thresholds(name, given, w.size)
        env = _Envelope.from_counts(score_counts(scores[mask], scores[~mask]))
        return env.thresholds[env.minimiser(w)]

    ta = thresholds_for(sa, thresholds_a, "thresholds_a")
    tb = thresholds_for(sb, thresholds_b, "thresholds_b")
    na_p, nb_p, both_p = paired_cells(sa[mask], sb[mask], ta, tb)
    na_n, nb_n, both_n = paired_cells(sa[~mask], sb[~mask], ta, tb)

    # ΔC = C_a − C_b: a positive that only model a calls positive (cell a+) is
    # a false negative of b, so it lowers C_a − C_b by w/m+; a negative that
    # only a calls positive (a−) is a false positive of a: + (1 − w)/m−.
    coef_pos = np.column_stack([-w, w, 0 * w, 0 * w])  # cells a+, b+, both+, neither+
    coef_neg = np.column_stack([1 - w, -(1 - w), 0 * w, 0 * w])  # cells a−, b−, both−, neither−
    counts_pos = np.column_stack([na_p, nb_p, both_p, n_pos - na_p - nb_p - both_p]).astype(np.float64)
    counts_neg = np.column_stack([na_n, nb_n, both_n, n_neg - na_n - nb_n - both_n]).astype(np.float64)
    pi_pos = n_pos / (n_pos + n_neg)
    delta, var = _moments(coef_pos, counts_pos / n_pos, coef_neg, counts_neg / n_neg,
                          bootstrap, sizes, pi_pos)
    std = np.sqrt(var)

    law = _LastLaw(lambda i: (int(na_p[i]), int(nb_p[i]), int(na_n[i]), int(nb_n[i])),
                   lambda key: _paired_law(key[:2], key[2:], n_pos, n_neg, bootstrap, sizes))

    # Full bootstrap: P(ΔC* < 0) straight from the transform (whatever the
    # method, so it is the same number for every method); the table of the
    # joint law is built only for percentile bounds.
    spectral = bootstrap == "full"
    spectrum = _LastLaw(lambda i: (int(na_p[i]), int(nb_p[i]), int(na_n[i]), int(nb_n[i])),
                        lambda key: _paired_p_below(key[:2], key[2:], n_pos, n_neg, sizes))
    alpha = 1.0 - level
    low, high = np.empty_like(w), np.empty_like(w)
    p_cheaper = np.empty_like(w)
    for i in range(w.size):
        a, b = _scales(w[i], bootstrap, sizes, n_pos, n_neg)
        if spectral:
            p_cheaper[i] = min(max(spectrum(i).below(0.0, a, b, strict=True), 0.0), 1.0)
        else:
            p_cheaper[i] = min(max(float(law(i).cdf(0.0, a, b, strict=True)[0]), 0.0), 1.0)
        if method == "percentile":
            low[i], high[i] = law(i).quantiles([alpha / 2, 1 - alpha / 2], a, b)
    if method == "wald":
        low, high = _normal_interval(delta, std, level, -1.0, 1.0)
    elif method == "agresti-coull":
        qp, qn, sizes_adj, pi_adj = _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, sizes, add)
        mean_adj, var_adj = _moments(coef_pos, qp, coef_neg, qn, bootstrap, sizes_adj, pi_adj)
        low, high = _normal_interval(mean_adj, np.sqrt(var_adj), level, -1.0, 1.0)

    return CostComparison(
        w=w,
        threshold_a=ta,
        threshold_b=tb,
        delta_cost=delta,
        delta_cost_std=std,
        delta_cost_low=low,
        delta_cost_high=high,
        p_a_cheaper=p_cheaper,
        na_pos=na_p,
        nb_pos=nb_p,
        na_neg=na_n,
        nb_neg=nb_n,
        n_pos=n_pos,
        n_neg=n_neg,
        bootstrap=bootstrap,
        method=method,
        confidence_level=level,
        add=add,
        **_size_fields(bootstrap, sizes),
    )
