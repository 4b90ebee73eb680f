"""compare_cost_unpaired: two models' costs on two independent test sets (the exact law of C*_a − C*_b).

When model a is scored on one test set and model b on another, independent one, the bootstrap resamples
the two sets independently, so the cost difference ``D* = C*_a − C*_b`` is the difference of two
independent one-model cost laws (:func:`rocci.cost_ci`'s, each on its own lattice ``a·FN* + b·FP*``):

``P(D* <= d) = Σ_j P(C*_b = v_j)·P(C*_a <= d + v_j)``,

one sum over the support of ``C*_b`` with the CDF of ``C*_a`` read by binary search in its sorted support.
The two lattices share no grid (their steps are ``w/m+_a``, ``w/m+_b``, …), so the percentile bounds are
found by bisection on the value axis with this exact CDF until the bracket holds at most
:data:`_ENUMERATE` atoms of ``D*``, which are then listed, sorted and summed: the bound is an atom of the
law, as everywhere in rocci.  Values closer than :data:`rocci.cost.TIE_TOL` count as equal.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._core.counts import binary_counts
from .._core.exact import QUANTILE_TOL
from .._core.inputs import InputError, check_choice, check_confidence_level
from .._core.results import _FrameResult, column
from ._bounds import _adjusted, _moments, _normal_interval, _single_cells
from ._common import (
    BOOTSTRAPS,
    COST_METHODS,
    TIE_TOL,
    _bootstrap_sizes,
    _check_add,
    _check_thresholds,
    _check_w,
    _scales,
)
from .fourier import _decided_below_zero
from .hull import _Envelope
from .lattice import _single_law

__all__ = ["compare_cost_unpaired", "UnpairedCostComparison", "AGRESTI_CAFFO_ADD"]

#: Pseudo-count per confusion cell of each test set for the unpaired difference (Agresti & Caffo 2000: one
#: success and one failure added to each sample is what holds the level of a difference of two independent
#: proportions; the cost difference is one such difference per class): the default ``add`` of
#: :func:`compare_cost_unpaired`.
AGRESTI_CAFFO_ADD = 1.0

#: Each one-model law drops its lightest points up to this total mass (out of windows of ±(10 sd + 20)).
_TRIM_MASS = 1e-16
#: At most this many atoms of the difference are listed at the end of a quantile search.
_ENUMERATE = 2_000_000
#: Beyond this many pairs of support points the whole law (``distribution``) is refused.
_FULL_PAIRS = 20_000_000


class _CostDifferenceLaw:
    """The law of ``A − B`` for independent laws given by sorted support values and probabilities."""

    def __init__(self, va, pa, vb, pb):
        self.va, self.pa, self.vb, self.pb = va, pa, vb, pb
        self._cum_a = np.concatenate([[0.0], np.cumsum(pa)])  # _cum_a[i] = P(A among the first i values)
        self._tail_a = np.concatenate([np.cumsum(pa[::-1])[::-1], [0.0]])  # _tail_a[i] = P(A at index >= i)

    @classmethod
    def from_supports(cls, law_a, law_b) -> "_CostDifferenceLaw":
        return cls(*_trimmed(*law_a), *_trimmed(*law_b))

    def _index(self, d: float) -> np.ndarray:
        """Per support point ``v_j`` of B: how many values of A are ``<= d + v_j`` (ties within TIE_TOL)."""
        return np.searchsorted(self.va, d + self.vb + TIE_TOL, side="right")

    def cdf(self, d: float) -> float:
        """``P(D <= d)``, values within :data:`TIE_TOL` of ``d`` included."""
        return float(np.dot(self.pb, self._cum_a[self._index(d)]))

    def p_below_zero(self) -> float:
        """``P(D < 0)`` (ties within TIE_TOL excluded), summed from the lower tail of A."""
        idx = np.searchsorted(self.va, self.vb - TIE_TOL, side="left")
        return min(1.0, float(np.dot(self.pb, self._cum_a[idx])))

    def p_above_zero(self) -> float:
        """``P(D > 0)`` (ties excluded), summed from the upper tail of A."""
        return min(1.0, float(np.dot(self.pb, self._tail_a[self._index(0.0)])))

    def p_zero(self) -> float:
        """``P(|D| <= TIE_TOL)``."""
        lo = np.searchsorted(self.va, self.vb - TIE_TOL, side="left")
        return min(1.0, float(np.dot(self.pb, self._cum_a[self._index(0.0)] - self._cum_a[lo])))

    def mean_var(self) -> tuple[float, float]:
        ma, mb = float(self.pa @ self.va), float(self.pb @ self.vb)
        return ma - mb, float(self.pa @ (self.va - ma) ** 2 + self.pb @ (self.vb - mb) ** 2)

    def quantile(self, q: float) -> float:
        """Smallest atom ``x`` of ``D`` with ``P(D <= x) >= q`` (within :data:`QUANTILE_TOL`).

        Bisection keeps ``cdf(lo) < q <= cdf(hi)`` until ``(lo, hi]`` holds at most :data:`_ENUMERATE` atoms;
        those are listed, sorted and summed onto ``cdf(lo)``.
        """
        target = q - QUANTILE_TOL
        lo, hi, idx_lo, idx_hi = self._bracket(q, target)
        for _ in range(200):
            if int((idx_hi - idx_lo).sum()) <= _ENUMERATE or hi - lo <= TIE_TOL / 2:
                break
            mid = 0.5 * (lo + hi)
            idx = self._index(mid)
            if float(np.dot(self.pb, self._cum_a[idx])) >= target:
                hi, idx_hi = mid, idx
            else:
                lo, idx_lo = mid, idx
        return self._atom_reaching(lo, hi, target)

    def _bracket(self, q: float, target: float):
        """``lo < hi`` with ``cdf(lo) < target <= cdf(hi)`` (and their indices): half a standard deviation
        either side of the normal guess ``E + z_q·sd``, each end pushed out by doubling steps until it holds
        (at worst to the ends of the support, where the CDF is 0 and 1)."""
        floor, top = float(self.va[0] - self.vb[-1]) - 1.0, float(self.va[-1] - self.vb[0])
        seen = {}

        def reaches(v):
            seen[v] = self._index(v)
            return float(np.dot(self.pb, self._cum_a[seen[v]])) >= target

        mean, var = self.mean_var()
        sd = math.sqrt(max(var, 0.0))
        if sd > 0:
            guess = mean + sd * float(special.ndtri(min(max(q, 1e-12), 1 - 1e-12)))
            lo, hi, step = guess - 0.5 * sd, guess + 0.5 * sd, 0.5 * sd
            while lo > floor and reaches(lo):
                hi, step = lo, 2 * step
                lo -= step
            step = 0.5 * sd
            while hi < top and not reaches(hi):
                lo, step = hi, 2 * step
                hi += step
        else:
            lo, hi = floor, top
        lo, hi = max(lo, floor), min(hi, top)
        for v in (lo, hi):
            if v not in seen:
                seen[v] = self._index(v)
        return lo, hi, seen[lo], seen[hi]

    def _atom_reaching(self, lo: float, hi: float, target: float) -> float:
        """The smallest atom ``x`` in ``(lo, hi + TIE_TOL]`` with ``cdf(x) >= target``, given ``cdf(lo) < target``.

        ``cdf(x) = cdf(lo) + P(lo + TIE_TOL < D <= x + TIE_TOL)``; for ``x <= hi`` every atom of that sum is
        among those listed, and any atom in ``(hi, hi + TIE_TOL]`` reaches the target since ``cdf(hi)`` does.
        """
        first = np.searchsorted(self.va, lo + self.vb, side="right")
        last = np.searchsorted(self.va, hi + TIE_TOL + self.vb, side="right")
        sizes = last - first
        j = np.repeat(np.arange(self.vb.size), sizes)
        i = np.repeat(first - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        values = self.va[i] - self.vb[j]
        order = np.argsort(values, kind="stable")
        values, cum = values[order], np.concatenate([[0.0], np.cumsum((self.pa[i] * self.pb[j])[order])])
        base = self.cdf(lo) - cum[np.searchsorted(values, lo + TIE_TOL, side="right")]
        reach = base + cum[np.searchsorted(values, values + TIE_TOL, side="right")]
        ok = np.flatnonzero((values > lo) & ((reach >= target) | (values > hi)))
        return float(values[ok[0]]) if ok.size else hi

    def law(self) -> tuple[np.ndarray, np.ndarray]:
        """Every value of ``D`` with its probability (values within TIE_TOL merged)."""
        if self.va.size * self.vb.size > _FULL_PAIRS:
            raise InputError(f"The whole law of this difference has {self.va.size:,} × {self.vb.size:,} pairs of "
                             f"support points (over {_FULL_PAIRS:,}): read its bounds and probabilities instead, "
                             "or give smaller bootstrap sizes m_a, m_b.")
        values = (self.va[:, None] - self.vb[None, :]).ravel()
        probs = np.outer(self.pa, self.pb).ravel()
        order = np.argsort(values, kind="stable")
        values, probs = values[order], probs[order]
        start = np.flatnonzero(np.concatenate([[True], np.diff(values) > TIE_TOL]))
        return values[start], np.add.reduceat(probs, start)


def _trimmed(values: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop the points of a law lighter than :data:`_TRIM_MASS` / (number of points): at most
    :data:`_TRIM_MASS` in total (values stay sorted)."""
    keep = probs > _TRIM_MASS / max(probs.size, 1)
    return values[keep], probs[keep]


# ---------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------


@dataclass(repr=False)
class UnpairedCostComparison(_FrameResult):
    """Exact bootstrap comparison of two models' costs on two independent test sets, ``ΔC = C_a − C_b``.

    Attributes
    ----------
    w, threshold_a, threshold_b : ndarray of shape (k,)
        Operating points and each model's threshold (on its own test set).
    cost_a, cost_b : ndarray
        Each model's normalised expected cost ``w·FNR + (1 − w)·FPR`` on its own test set.
    delta_cost, delta_cost_std : ndarray
        ``cost_a − cost_b`` (also the exact bootstrap mean) and the exact sd of ``ΔC*``,
        ``sqrt(Var C*_a + Var C*_b)`` (each :func:`rocci.cost_ci`'s variance).
    delta_cost_low, delta_cost_high : ndarray
        Interval bounds by ``method``.
    p_a_cheaper, p_tie : ndarray
        ``P(ΔC* < 0)`` (model a strictly cheaper) and ``P(ΔC* = 0)``, exact for every method.
    tp_a, fp_a, tp_b, fp_b : ndarray of int64
        Each model's true and false positives at its threshold: the laws depend on the data only through
        them (and the sizes), so :meth:`confidence_interval` and :meth:`distribution` never read the data.
    n_pos_a, n_neg_a, n_pos_b, n_neg_b : int
    m_a, m_b : tuple of int or int
        Each test set's bootstrap sizes: ``(m+, m−)`` stratified, the number of pooled draws full.
    bootstrap, method : str
    confidence_level, add : float
    """

    w: np.ndarray = column()
    threshold_a: np.ndarray = column()
    threshold_b: np.ndarray = column()
    cost_a: np.ndarray = column()
    cost_b: np.ndarray = column()
    delta_cost: np.ndarray = column()
    delta_cost_std: np.ndarray = column()
    delta_cost_low: np.ndarray = column()
    delta_cost_high: np.ndarray = column()
    p_a_cheaper: np.ndarray = column()
    p_tie: np.ndarray = column()
    tp_a: np.ndarray = column()
    fp_a: np.ndarray = column()
    tp_b: np.ndarray = column()
    fp_b: np.ndarray = column()
    n_pos_a: int
    n_neg_a: int
    n_pos_b: int
    n_neg_b: int
    m_a: tuple | int
    m_b: tuple | int
    bootstrap: str
    method: str
    confidence_level: float
    add: float

    _scalar_fields = ("n_pos_a", "n_neg_a", "n_pos_b", "n_neg_b", "method", "confidence_level")

    def _sets(self):
        return ((self.tp_a, self.n_pos_a, self.n_neg_a, self.m_a), (self.tp_b, self.n_pos_b, self.n_neg_b, self.m_b))

    def _law(self, i: int) -> _CostDifferenceLaw:
        """The exact law of ``ΔC*`` at the ``i``-th operating point, rebuilt from the kept counts."""
        supports = []
        for (tp, n_pos, n_neg, m), fp in zip(self._sets(), (self.fp_a, self.fp_b)):
            lattice = _single_law(int(n_pos - tp[i]), int(fp[i]), n_pos, n_neg, self.bootstrap, m)
            supports.append(lattice.support(*_scales(float(self.w[i]), self.bootstrap, m, n_pos, n_neg)))
        return _CostDifferenceLaw.from_supports(*supports)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "UnpairedCostComparison":
        """The same comparison with the interval at another level or by another method, from the counts kept
        (equal to :func:`rocci.compare_cost_unpaired`'s at the same thresholds; ``p_a_cheaper`` and ``p_tie``
        do not depend on either).

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {"agresti-coull", "wald", "percentile"}, optional
            Default: this result's ``method``.
        """
        level, method = self._interval_args(confidence_level, method, COST_METHODS)
        low, high = _interval(self, method, level)
        return dataclasses.replace(self, delta_cost_low=low, delta_cost_high=high, method=method,
                                   confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ``ΔC*`` at the ``i``-th operating point (values increasing, closer than
        1e-12 merged); refused beyond 2·10⁷ pairs of support points."""
        return self._law(i).law()

    def __repr__(self) -> str:
        rows = ", ".join(f"w={w:.3g}: {d:+.4g} [{lo:+.4g}, {hi:+.4g}] P(a cheaper)={p:.3g}" for w, d, lo, hi, p in
                         zip(self.w[:3], self.delta_cost, self.delta_cost_low, self.delta_cost_high, self.p_a_cheaper))
        more = f", … ({self.w.size} operating points)" if self.w.size > 3 else ""
        return (f"UnpairedCostComparison({rows}{more}; {self.confidence_level:.0%} {self.method}, "
                f"{self.bootstrap} bootstrap of each test set)")


# ---------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------


def _one_set(y, score, pos_label, which: str, w, thresholds, bootstrap: str, m):
    """One test set's counts at its thresholds: ``(tp, fp, n_pos, n_neg, sizes, thresholds)``."""
    counts, _ = binary_counts(y, score, pos_label, name=f"score_{which}")
    n_pos, n_neg = counts.n_pos, counts.n_neg
    sizes = _bootstrap_sizes(bootstrap, m, n_pos, n_neg)
    if thresholds is None:
        env = _Envelope.from_counts(counts)
        t = np.asarray(env.thresholds[env.minimiser(w)], dtype=float)
    else:
        t = _check_thresholds(f"thresholds_{which}", thresholds, w.size)
    return counts.n_pos_ge(t).astype(np.int64), counts.n_neg_ge(t).astype(np.int64), n_pos, n_neg, sizes, t


def _set_moments(w, tp, fp, n_pos, n_neg, bootstrap, sizes, add=None):
    """One test set's cost mean and variance at each ``w`` (exact, or Agresti-adjusted with ``add``)."""
    coef_pos, coef_neg, counts_pos, counts_neg = _single_cells(w, n_pos - tp, fp, n_pos, n_neg)
    pi_pos = n_pos / (n_pos + n_neg)
    if add is None:
        return _moments(coef_pos, counts_pos / n_pos, coef_neg, counts_neg / n_neg, bootstrap, sizes, pi_pos)
    qp, qn, sizes_adj, pi_adj = _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, sizes, add)
    return _moments(coef_pos, qp, coef_neg, qn, bootstrap, sizes_adj, pi_adj)


def _step_groups(res: UnpairedCostComparison) -> list:
    """``ΔC*`` as independent groups of i.i.d. steps ``(m, values, probabilities)`` at every ``w``, for the
    Chernoff bounds of :func:`rocci.cost.fourier._decided_below_zero`: stratified, the four binomial counts
    FN*, FP* of each set (steps ``±w/m+``, ``±(1 − w)/m−``); full, each set's ``m`` pooled draws (a false
    negative steps by ``w/(m·π+)``, a false positive by ``(1 − w)/(m·π−)``)."""
    groups = []
    for sign, (tp, n_pos, n_neg, m), fp in zip((1.0, -1.0), res._sets(), (res.fp_a, res.fp_b)):
        a, b = (np.broadcast_to(v, res.w.shape) for v in _scales(res.w, res.bootstrap, m, n_pos, n_neg))
        if res.bootstrap == "stratified":
            groups.append((m[0], sign * a[:, None], ((n_pos - tp) / n_pos)[:, None]))
            groups.append((m[1], sign * b[:, None], (fp / n_neg)[:, None]))
        else:
            n = n_pos + n_neg
            groups.append((m, sign * np.column_stack([a, b]), np.column_stack([n_pos - tp, fp]) / n))
    return groups


def _interval(res: UnpairedCostComparison, method: str, level: float) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` by ``method`` at ``level``: Wald on the exact moments, Agresti–Caffo's adjusted Wald
    (``add`` pseudo-counts per cell of each set, adjusted means subtracted, variances added), or the
    percentile bounds of the exact law."""
    if method == "wald":
        return _normal_interval(res.delta_cost, res.delta_cost_std, level, -1.0, 1.0)
    if method == "agresti-coull":
        (ma, va), (mb, vb) = (_set_moments(res.w, tp, fp, n_pos, n_neg, res.bootstrap, m, res.add)
                              for (tp, n_pos, n_neg, m), fp in zip(res._sets(), (res.fp_a, res.fp_b)))
        return _normal_interval(ma - mb, np.sqrt(va + vb), level, -1.0, 1.0)
    alpha = 1.0 - level
    low, high = np.empty(res.w.size), np.empty(res.w.size)
    for i in range(res.w.size):
        law = res._law(i)
        low[i], high[i] = law.quantile(alpha / 2), law.quantile(1 - alpha / 2)
    return low, high


def compare_cost_unpaired(y_a, score_a=None, y_b=None, score_b=None, *, w=None, thresholds_a=None,
                          thresholds_b=None, pos_label=None, bootstrap="stratified", confidence_level=0.95,
                          method="agresti-coull", m_a=None, m_b=None,
                          add=AGRESTI_CAFFO_ADD) -> UnpairedCostComparison:
    """Exact bootstrap comparison of two models' costs, each on its own (independent) test set.

    Each test set is resampled on its own (thesis §5.1 for one model), so ``C*_a`` and ``C*_b`` are
    independent, each with :func:`rocci.cost_ci`'s exact law at its fixed threshold (stratified:
    ``C* = w·FN*/m+ + (1 − w)·FP*/m−``, ``FN* ~ Bin(m+, fn/n+)``, ``FP* ~ Bin(m−, fp/n−)``), and

    ``P(ΔC* <= d) = Σ_v P(C*_b = v)·P(C*_a <= d + v)``,

    ``E[ΔC*] = C_a − C_b``, ``Var ΔC* = Var C*_a + Var C*_b``.  ``ΔC < 0`` where model a is cheaper.
    The normalised cost does not depend on the test sets' prevalences, so two sets with different shares
    of positives compare at the same ``w``.

    Parameters
    ----------
    y_a, score_a : array_like, or a ScoreCounts as ``y_a`` (``score_a`` left out)
        Labels and model a's scores on its test set.
    y_b, score_b : array_like, or a ScoreCounts as ``y_b``
        Labels and model b's scores on its own test set.
    w : float or array_like, optional
        Operating points in [0, 1]; default 101 points ``0, 0.01, …, 1``.
    thresholds_a, thresholds_b : float or array_like, optional
        One threshold for all ``w`` or one per ``w``.  Default: each model's own lowest-cost threshold on
        its own test set (:func:`rocci.cost_curve`'s envelope minimiser).
    pos_label : object, optional
    bootstrap : {"stratified", "full"}
        How each test set is resampled (as in :func:`rocci.cost_ci`).
    confidence_level : float, default 0.95
    method : {"agresti-coull", "wald", "percentile"}
        ``"agresti-coull"``: Agresti and Caffo's (2000) adjusted Wald interval for a difference of
        independent proportions, ``add`` pseudo-counts in each confusion cell of each test set (one success
        and one failure per class and set), the difference of the adjusted costs ``± z·sqrt(Ṽ_a + Ṽ_b)``.
        ``"wald"``: ``ΔC ± z·sd`` with the exact moments.  Both clipped to [−1, 1].  ``"percentile"``: the
        ``α/2`` and ``1 − α/2`` quantiles of the exact law of ``ΔC*``.  Which holds its level where
        (``scripts/cost_unpaired_coverage.py``; binormal models on test sets of 150 and 200 rows, and of
        1,000 and 800, at their population-optimal thresholds): Agresti–Caffo covered at least 95% at every
        ``w`` from 0.02 to 0.98 (94–96% at 0.5, within simulation error; near 100% and wider at the ends).
        Where a test set expects well under one error of the heavily weighted kind (``w`` near 0 or 1),
        Wald and the percentile interval often shrink to a point and covered 15–40% (small sets) and
        63–88% (large sets); 83–91% at ``w`` = 0.1 and 0.9 on the small sets.  Use them only where both
        test sets hold many errors of both kinds.
    m_a, m_b : None, int or (int, int)
        Each set's bootstrap sizes, as ``m`` in :func:`rocci.cost_ci`.
    add : float, default :data:`AGRESTI_CAFFO_ADD` (1)

    Returns
    -------
    UnpairedCostComparison
        ``to_frame()``: ``w, threshold_a, threshold_b, cost_a, cost_b, delta_cost, delta_cost_std,
        delta_cost_low, delta_cost_high, p_a_cheaper, p_tie`` (+ the counts).

    Notes
    -----
    Each one-model law is :func:`rocci.cost_ci`'s lattice law listed point by point (its windows of
    ±(10 sd + 20) per count, then its lightest points up to a total of 1e-16 left out), sorted.  One CDF
    evaluation of ``ΔC*`` is one binary search per support point of ``C*_b``: O(k_b log k_a).  The
    percentile bounds bisect the value axis until at most 2·10⁶ atoms of ``ΔC*`` remain between the ends,
    then list them: the bound is an atom of the exact law.  Values closer than 1e-12 count as equal
    (``p_tie``).  Where a Chernoff bound (the exact moment generating function of ``ΔC*``) puts
    ``P(ΔC* < 0)`` within 1e-20 of 0 or 1, that value is reported, ``p_tie`` is 0 and, unless the method is
    ``"percentile"``, no law is built.  At 10⁵ instances per set and a threshold in the middle of the scores
    the one-model laws hold ~2·10⁶ points each: ``P(ΔC* < 0)`` takes ~2 s and the percentile bounds ~5 s
    (``bench/bench_many.py``).

    Examples
    --------
    >>> from rocci import compare_cost_unpaired
    >>> res = compare_cost_unpaired([0, 0, 1, 1], [.1, .6, .4, .9], [0, 0, 0, 1, 1], [.2, .3, .7, .6, .8],
    ...                             w=0.5, thresholds_a=0.5, thresholds_b=0.5, method="percentile")
    >>> round(float(res.delta_cost[0]), 4), round(float(res.p_a_cheaper[0]), 4)
    (0.3333, 0.1088)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    check_choice("method", method, COST_METHODS)
    add = _check_add(add)
    if y_b is None:
        raise InputError("compare_cost_unpaired needs two test sets: y_a, score_a for model a and y_b, score_b "
                         "for model b (for two models on the same instances use rocci.compare_cost).")
    w = _check_w(w)
    sets = [_one_set(y, s, pos_label, which, w, t, bootstrap, m) for y, s, which, t, m in
            ((y_a, score_a, "a", thresholds_a, m_a), (y_b, score_b, "b", thresholds_b, m_b))]
    (tpa, fpa, npa, nna, ma, ta), (tpb, fpb, npb, nnb, mb, tb) = sets
    (cost_a, var_a), (cost_b, var_b) = (_set_moments(w, tp, fp, n_pos, n_neg, bootstrap, m)
                                        for tp, fp, n_pos, n_neg, m, _ in sets)
    res = UnpairedCostComparison(
        w=w, threshold_a=ta, threshold_b=tb, cost_a=cost_a, cost_b=cost_b, delta_cost=cost_a - cost_b,
        delta_cost_std=np.sqrt(var_a + var_b), delta_cost_low=np.full(w.size, np.nan),
        delta_cost_high=np.full(w.size, np.nan), p_a_cheaper=np.empty(w.size), p_tie=np.empty(w.size),
        tp_a=tpa, fp_a=fpa, tp_b=tpb, fp_b=fpb, n_pos_a=npa, n_neg_a=nna, n_pos_b=npb, n_neg_b=nnb,
        m_a=ma, m_b=mb, bootstrap=bootstrap, method=method, confidence_level=level, add=add,
    )
    res.p_a_cheaper[:] = _decided_below_zero(_step_groups(res))  # NaN where a Chernoff bound does not settle it
    res.p_tie[:] = np.where(np.isnan(res.p_a_cheaper), np.nan, 0.0)
    alpha = 1.0 - level
    for i in range(w.size):
        if method != "percentile" and not np.isnan(res.p_a_cheaper[i]):
            continue
        law = res._law(i)
        if np.isnan(res.p_a_cheaper[i]):
            res.p_a_cheaper[i], res.p_tie[i] = law.p_below_zero(), law.p_zero()
        if method == "percentile":
            res.delta_cost_low[i], res.delta_cost_high[i] = law.quantile(alpha / 2), law.quantile(1 - alpha / 2)
    if method != "percentile":
        res.delta_cost_low, res.delta_cost_high = _interval(res, method, level)
    return res
