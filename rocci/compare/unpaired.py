"""Two models on different test sets (unpaired): DeLong's unpaired test and exact laws of differences.

When model a is scored on one sample and model b on another, independent one, the bootstrap resamples
the two samples independently (each stratified by class), so:

* ``Var(AUC_a − AUC_b) = V_a + V_b``, each DeLong's variance of one AUC (DeLong et al. 1988;
  pROC's ``roc.test(roc1, roc2, paired = FALSE, method = "delong")``): :func:`compare_auc_unpaired`;
* the exact bootstrap law of ``Δ* = X*_a − X*_b`` is the convolution of the two exact one-model laws,
  ``P(Δ* = d) = Σ_{x_a − x_b = d} P(X*_a = x_a)·P(X*_b = x_b)``, with ``X*`` the TPR at an FPR level
  (the mixture of eq. 4.12, :func:`rocci.vertical_ci`): :func:`compare_vertical_unpaired`; or the TPR and
  the FPR at fixed thresholds (binomial, thesis §4.3.1): :func:`compare_thresholds_unpaired`.

The two laws live on different lattices (``l/m_a`` and ``l/m_b``), so the differences are kept as
integers on the common lattice ``1/lcm(m_a, m_b)``: equal differences are equal there, which the
floating-point ``l_a/m_a − l_b/m_b`` does not guarantee.  The CDF of ``Δ*`` at any point of that lattice
is one sum over the support of ``X*_b`` (``F(d) = Σ_b P(X*_b = x_b)·F_a(d + x_b)``), so the percentile
bounds are found by bisection on the lattice and ``P(Δ* > 0)``, ``P(Δ* = 0)`` by one such sum each:
O((k_a + k_b)·log) for laws with ``k`` support points, whatever the sizes.  The whole law (the
``k_a·k_b`` sums, sorted and merged) is built only when asked for (``distribution(i)``).
"""

from __future__ import annotations

import math
import dataclasses
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .._core.errors import length_mismatch
from .._core.exact import QUANTILE_TOL, binomial_pmf, binomial_quantile
from .._core.inputs import InputError, check_confidence_level, check_labels, check_m, check_scores
from .._core.intervals import normal_interval
from .._core.compat import renamed_attribute
from .._core.results import _FrameResult, column
from ..roc.vertical import vertical_ci
from ._common import _paired_thresholds
from .auc import _enough, _sorted_placements

__all__ = [
    "compare_auc_unpaired",
    "compare_vertical_unpaired",
    "compare_thresholds_unpaired",
    "UnpairedAucComparison",
    "UnpairedVerticalComparison",
    "UnpairedThresholdComparison",
]

#: Laws with more pairs of support points than this are trimmed to the points of probability above
#: :data:`_TRIM` before the whole law of the difference is built (``distribution``).
_FULL_PAIRS = 20_000_000
_TRIM = 1e-15

#: Tail probability left out of a binomial law's window (:func:`_binomial_law`).
_BINOMIAL_TAIL = 1e-17


# ---------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------


def _sample(y, score, pos_label, which: str):
    """One sample's positive mask and scores (``which`` is ``"a"`` or ``"b"``)."""
    mask, _ = check_labels(y, pos_label)
    s = check_scores(score, name=f"score_{which}")
    if s.size != mask.size:
        raise length_mismatch(f"score_{which}", s.size, f"y_{which}", mask.size,
                              f"give one score of model {which} per label of its own test set")
    return mask, s


# ---------------------------------------------------------------------------
# The difference of two independent lattice laws
# ---------------------------------------------------------------------------


class _DifferenceLaw:
    """The law of ``l_a/m_a − l_b/m_b`` for independent integer laws ``(l_a, p_a)``, ``(l_b, p_b)``.

    Differences are integers ``d = l_a·s_a − l_b·s_b`` on the lattice ``1/L``, ``L = lcm(m_a, m_b)``,
    ``s = L/m``.  Support points of zero probability are dropped.
    """

    def __init__(self, l_a, p_a, m_a: int, l_b, p_b, m_b: int):
        keep_a, keep_b = p_a > 0, p_b > 0
        self.l_a, self.p_a = np.asarray(l_a, np.int64)[keep_a], np.asarray(p_a, float)[keep_a]
        self.l_b, self.p_b = np.asarray(l_b, np.int64)[keep_b], np.asarray(p_b, float)[keep_b]
        self.lcm = math.lcm(int(m_a), int(m_b))
        self.s_a, self.s_b = self.lcm // int(m_a), self.lcm // int(m_b)
        self._cum_a = np.cumsum(self.p_a)
        self._tail_a = np.cumsum(self.p_a[::-1])[::-1]  # P(l_a >= l_a[i]), summed from the top (no cancellation)

    def cdf(self, d: int) -> float:
        """``P(Δ·L <= d) = Σ_b p_b·P(l_a <= ⌊(d + l_b·s_b)/s_a⌋)``."""
        idx = np.searchsorted(self.l_a, (d + self.l_b * self.s_b) // self.s_a, side="right")
        return float(np.dot(self.p_b, np.where(idx > 0, self._cum_a[idx - 1], 0.0)))

    def p_above_zero(self) -> float:
        """``P(Δ > 0) = Σ_b p_b·P(l_a·s_a > l_b·s_b)``, from the upper tail of ``l_a`` (accurate when small)."""
        idx = np.searchsorted(self.l_a, (self.l_b * self.s_b) // self.s_a, side="right")
        tail = np.where(idx < self.l_a.size, self._tail_a[np.minimum(idx, self.l_a.size - 1)], 0.0)
        return min(1.0, float(np.dot(self.p_b, tail)))

    def p_below_zero(self) -> float:
        """``P(Δ < 0) = Σ_b p_b·P(l_a·s_a < l_b·s_b)``, from the lower tail of ``l_a`` (accurate when small)."""
        idx = np.searchsorted(self.l_a, -((-self.l_b * self.s_b) // self.s_a), side="left")  # l_a < ⌈l_b·s_b/s_a⌉
        return min(1.0, float(np.dot(self.p_b, np.where(idx > 0, self._cum_a[idx - 1], 0.0))))

    def p_zero(self) -> float:
        """``P(Δ = 0) = Σ_b p_b·P(l_a·s_a = l_b·s_b)``."""
        target = self.l_b * self.s_b
        whole = target % self.s_a == 0
        idx = np.searchsorted(self.l_a, target // self.s_a)
        inside = whole & (idx < self.l_a.size)
        hit = inside & (self.l_a[np.minimum(idx, self.l_a.size - 1)] == target // self.s_a)
        return min(1.0, float(np.dot(self.p_b[hit], self.p_a[idx[hit]])))

    def quantile(self, q: float) -> float:
        """Smallest difference whose CDF reaches ``q`` (up to :data:`QUANTILE_TOL`, as
        :func:`rocci.compare_vertical` reads its percentile bounds), by bisection on the lattice."""
        target = q - QUANTILE_TOL
        lo = int(self.l_a[0]) * self.s_a - int(self.l_b[-1]) * self.s_b  # the smallest difference
        hi = int(self.l_a[-1]) * self.s_a - int(self.l_b[0]) * self.s_b  # the largest
        if self.cdf(lo) >= target:
            return lo / self.lcm
        while hi - lo > 1:  # invariant: cdf(lo) < target <= cdf(hi) (or hi the largest difference)
            mid = (lo + hi) // 2
            if self.cdf(mid) >= target:
                hi = mid
            else:
                lo = mid
        return hi / self.lcm

    def law(self) -> tuple[np.ndarray, np.ndarray]:
        """Every difference with its probability: the ``k_a·k_b`` sums sorted and merged (O(k_a·k_b) memory;
        beyond :data:`_FULL_PAIRS` pairs, the points of each law with probability at most :data:`_TRIM` are
        left out first)."""
        la, pa, lb, pb = self.l_a, self.p_a, self.l_b, self.p_b
        if la.size * lb.size > _FULL_PAIRS:
            ka, kb = pa > _TRIM, pb > _TRIM
            la, pa, lb, pb = la[ka], pa[ka], lb[kb], pb[kb]
        keys = (la[:, None] * self.s_a - lb[None, :] * self.s_b).ravel()
        uniq, inverse = np.unique(keys, return_inverse=True)
        return uniq / self.lcm, np.bincount(inverse, weights=np.outer(pa, pb).ravel(), minlength=uniq.size)


def _summaries(laws, alpha: float) -> dict:
    """Percentile bounds, ``P(Δ* > 0)`` and ``P(Δ* = 0)`` of each law."""
    low, high = _bounds(laws, alpha)
    better, tie = np.empty(len(laws)), np.empty(len(laws))
    for i, law in enumerate(laws):
        better[i], tie[i] = law.p_above_zero(), law.p_zero()
    return {"low": low, "high": high, "better": better, "tie": tie}


def _bounds(laws, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The percentile bounds of each law: its ``α/2`` and ``1 − α/2`` quantiles."""
    low, high = np.empty(len(laws)), np.empty(len(laws))
    for i, law in enumerate(laws):
        low[i], high[i] = law.quantile(alpha / 2), law.quantile(1 - alpha / 2)
    return low, high


def _check_kept(result, rows: int, function: str) -> None:
    """Refuse to recompute the intervals of a result that does not keep a law per row (a cached copy)."""
    if len(result._laws) != rows:
        raise InputError(f"This {type(result).__name__} keeps no laws to recompute its intervals from: call "
                         f"rocci.{function}(..., confidence_level=...) again.")


def _binomial_law(m: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """``(l, b(l; m, p))`` over the window holding all but ``2·1e-17`` of ``Bin(m, p)``."""
    if m <= 4000:
        l = np.arange(m + 1)
    else:
        lo = int(binomial_quantile(_BINOMIAL_TAIL, m, p)[0])
        hi = int(m - binomial_quantile(_BINOMIAL_TAIL, m, 1 - p)[0])
        l = np.arange(lo, hi + 1)
    return l, binomial_pmf(l, m, p)


# ---------------------------------------------------------------------------
# AUC
# ---------------------------------------------------------------------------


@dataclass(repr=False)
class UnpairedAucComparison(_FrameResult):
    """Difference of the AUCs of two models on different (independent) test sets.

    Attributes
    ----------
    auc_a, auc_b : float
        Mann–Whitney AUCs (ties 1/2), each on its own sample.
    delta_auc : float
        ``auc_a − auc_b``.
    auc_std_a, auc_std_b, delta_auc_std : float
        DeLong standard errors of each AUC and ``delta_auc_std = sqrt(auc_std_a² + auc_std_b²)``.
    delta_auc_low, delta_auc_high : float
        ``delta_auc ∓ z·delta_auc_std`` (clipped to [−1, 1]).
    statistic : float
        ``z = delta_auc/delta_auc_std`` (pROC's ``D``).

    Before rocci 0.3: ``delta``, ``std_a``, ``std_b``, ``std``, ``low``, ``high`` (still read, with a
    DeprecationWarning).
    pvalue : float
        Two-sided normal p-value ``2·Φ(−|z|)``.
    df, pvalue_t : float
        Welch–Satterthwaite degrees of freedom and the Student-t p-value ``2·T_df(−|z|)`` that pROC's
        ``roc.test(..., paired = FALSE)`` reports.
    method : str
    confidence_level : float
    n_pos_a, n_neg_a, n_pos_b, n_neg_b : int
    """

    auc_a: float = column()
    auc_b: float = column()
    delta_auc: float = column()
    auc_std_a: float
    auc_std_b: float
    delta_auc_std: float = column()
    delta_auc_low: float = column()
    delta_auc_high: float = column()
    statistic: float = column()
    pvalue: float = column()
    df: float = column()
    pvalue_t: float = column()
    method: str = column()
    confidence_level: float = column()
    n_pos_a: int
    n_neg_a: int
    n_pos_b: int
    n_neg_b: int

    _scalar_fields = ("delta_auc", "delta_auc_std", "delta_auc_low", "delta_auc_high", "statistic", "pvalue")
    delta = renamed_attribute("UnpairedAucComparison", "delta", "delta_auc")
    std = renamed_attribute("UnpairedAucComparison", "std", "delta_auc_std")
    low = renamed_attribute("UnpairedAucComparison", "low", "delta_auc_low")
    high = renamed_attribute("UnpairedAucComparison", "high", "delta_auc_high")
    std_a = renamed_attribute("UnpairedAucComparison", "std_a", "auc_std_a")
    std_b = renamed_attribute("UnpairedAucComparison", "std_b", "auc_std_b")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "UnpairedAucComparison":
        """The same comparison with the interval at another level: ``delta ∓ z·std`` clipped to [−1, 1], from
        the kept standard error (equal to :func:`rocci.compare_auc_unpaired` at this ``confidence_level``)."""
        level, _ = self._interval_args(confidence_level, method, (self.method,))
        low, high = normal_interval(self.delta_auc, self.delta_auc_std, level, -1.0, 1.0)
        return dataclasses.replace(self, delta_auc_low=low, delta_auc_high=high, confidence_level=level)

    def __repr__(self) -> str:
        return (
            f"UnpairedAucComparison(auc_a={self.auc_a:.6g}, auc_b={self.auc_b:.6g}, delta_auc={self.delta_auc:.6g}, "
            f"delta_auc_std={self.delta_auc_std:.6g}, "
            f"{self.confidence_level:.0%} CI [{self.delta_auc_low:.6g}, {self.delta_auc_high:.6g}], "
            f"z={self.statistic:.4g}, pvalue={self.pvalue:.4g})"
        )


def _delong_one(mask, scores) -> tuple[float, float, int, int]:
    """``(AUC, DeLong variance, n+, n−)`` of one sample: ``s²(V10)/n+ + s²(V01)/n−`` (ddof = 1)."""
    n_pos = int(mask.sum())
    n_neg = mask.size - n_pos
    _enough(n_pos, n_neg)
    _, v10, _, v01, auc = _sorted_placements(scores, mask, n_pos, n_neg)
    return float(auc), float(v10.var(ddof=1) / n_pos + v01.var(ddof=1) / n_neg), n_pos, n_neg


def compare_auc_unpaired(y_a, score_a, y_b, score_b, *, pos_label=None,
                         confidence_level=0.95) -> UnpairedAucComparison:
    """DeLong's test for the difference of two AUCs measured on independent test sets.

    DeLong, DeLong & Clarke-Pearson (1988).  Each sample's AUC has the DeLong variance

    ``V = s²(V10)/n+ + s²(V01)/n−``

    (its placement values' sample variances, ddof = 1, as :func:`rocci.roc_auc` with ``method="delong"``),
    and the two are independent, so ``Var(AUC_a − AUC_b) = V_a + V_b``,

    ``z = (AUC_a − AUC_b)/sqrt(V_a + V_b)``,  ``p = 2Φ(−|z|)``,  interval ``Δ ∓ z_{1−α/2}·sqrt(V_a + V_b)``.

    Parameters
    ----------
    y_a, score_a : array_like of shape (n_a,)
        Model a's test set: labels and scores.
    y_b, score_b : array_like of shape (n_b,)
        Model b's test set (other instances).
    pos_label : object, optional
        The positive label of both test sets (as in :func:`rocci.roc_curve`).
    confidence_level : float, default 0.95

    Returns
    -------
    UnpairedAucComparison
        ``delta = auc_a − auc_b``, ``std``, ``low``, ``high``, ``statistic``, ``pvalue``; also ``df`` and
        ``pvalue_t`` (below).

    Notes
    -----
    pROC's ``roc.test(roc1, roc2, paired = FALSE, method = "delong")`` computes the same statistic
    (its ``D``, with the same ddof = 1 variances) but reads its p-value from a Student t with the
    Welch–Satterthwaite degrees of freedom
    ``df = (V_a + V_b)²/(V_a²/(n_a − 1) + V_b²/(n_b − 1))`` (``n`` the size of each test set): rocci reports
    that as ``df`` and ``pvalue_t``, and the normal ``pvalue`` of DeLong's large-sample test as ``pvalue``.
    No direction flipping (pROC flips a curve whose AUC is below 0.5 unless ``direction`` is given).
    Raises :class:`InputError` when ``V_a + V_b = 0`` (two perfect or constant models).
    """
    level = check_confidence_level(confidence_level)
    mask_a, sa = _sample(y_a, score_a, pos_label, "a")
    mask_b, sb = _sample(y_b, score_b, pos_label, "b")
    auc_a, var_a, npa, nna = _delong_one(mask_a, sa)
    auc_b, var_b, npb, nnb = _delong_one(mask_b, sb)
    var = var_a + var_b
    delta = auc_a - auc_b
    if not var > 0:
        raise InputError(
            "The DeLong variances of both AUCs are 0 (each model separates its test set perfectly or scores "
            f"every instance the same): the test is undefined. The AUCs are {auc_a:.6g} (a) and {auc_b:.6g} (b)."
        )
    std = math.sqrt(var)
    stat = delta / std
    low, high = normal_interval(delta, std, level, -1.0, 1.0)
    df = var**2 / (var_a**2 / (npa + nna - 1) + var_b**2 / (npb + nnb - 1))
    return UnpairedAucComparison(
        auc_a=auc_a, auc_b=auc_b, delta_auc=delta, auc_std_a=math.sqrt(var_a), auc_std_b=math.sqrt(var_b),
        delta_auc_std=std, delta_auc_low=low, delta_auc_high=high, statistic=stat,
        pvalue=float(2.0 * special.ndtr(-abs(stat))), df=float(df), pvalue_t=float(2.0 * special.stdtr(df, -abs(stat))),
        method="delong", confidence_level=level, n_pos_a=npa, n_neg_a=nna, n_pos_b=npb, n_neg_b=nnb,
    )


# ---------------------------------------------------------------------------
# TPR at fixed FPR levels
# ---------------------------------------------------------------------------


@dataclass(repr=False)
class UnpairedVerticalComparison(_FrameResult):
    """Exact bootstrap law of ΔTPR = TPR_a − TPR_b at fixed FPR levels, two independent test sets.

    Attributes
    ----------
    fpr : ndarray
        The false positive rates asked for.
    r_a, r_b, fpr_a, fpr_b : ndarray
        Each sample's level ``r/m−`` (nearest to ``fpr``; the two can differ when ``m−`` differ).
    tpr_a, tpr_b, delta_tpr : ndarray
        Observed TPRs at those levels (:func:`rocci.vertical_ci`'s ``tpr``) and their difference.
    delta_tpr_mean, delta_tpr_std : ndarray
        Exact mean and standard deviation of ``Δ* = TPR*_a − TPR*_b`` (``sd² = sd_a² + sd_b²``).
    delta_tpr_low, delta_tpr_high : ndarray
        Percentile interval of the exact law of ``Δ*``.
    p_a_better, p_tie : ndarray
        ``P(Δ* > 0)`` and ``P(Δ* = 0)``.
    truncated_mass : ndarray
        Probability of the two bootstrap thresholds ``T_r`` left out of their windows (the sum of the two
        :func:`rocci.vertical_ci` ``truncated_mass``; each TPR law's own window leaves out less than 2e-17 more
        when ``m+ > 4000``).
    n_pos_a, n_neg_a, n_pos_b, n_neg_b, m_pos_a, m_neg_a, m_pos_b, m_neg_b : int
    confidence_level : float
    """

    fpr: np.ndarray = column()
    r_a: np.ndarray
    r_b: np.ndarray
    fpr_a: np.ndarray = column()
    fpr_b: np.ndarray = column()
    tpr_a: np.ndarray = column()
    tpr_b: np.ndarray = column()
    delta_tpr: np.ndarray = column()
    delta_tpr_mean: np.ndarray = column()
    delta_tpr_std: np.ndarray = column()
    delta_tpr_low: np.ndarray = column()
    delta_tpr_high: np.ndarray = column()
    p_a_better: np.ndarray = column()
    p_tie: np.ndarray = column()
    truncated_mass: np.ndarray = column()
    n_pos_a: int
    n_neg_a: int
    n_pos_b: int
    n_neg_b: int
    m_pos_a: int
    m_neg_a: int
    m_pos_b: int
    m_neg_b: int
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)

    _scalar_fields = ("n_pos_a", "n_neg_a", "n_pos_b", "n_neg_b", "confidence_level")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "UnpairedVerticalComparison":
        """The same comparison with the percentile intervals at another level, from the exact laws kept
        (equal to :func:`rocci.compare_vertical_unpaired` at this ``confidence_level``; ``method``:
        ``"percentile"``, the only one)."""
        level, _ = self._interval_args(confidence_level, method, ("percentile",))
        _check_kept(self, self.fpr.size, "compare_vertical_unpaired")
        low, high = _bounds(self._laws, 1.0 - level)
        return dataclasses.replace(self, delta_tpr_low=low, delta_tpr_high=high, confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ``Δ*`` at the ``i``-th level: every value ``l_a/m+_a − l_b/m+_b`` with its probability
        (the convolution of the two one-model laws; see :class:`_DifferenceLaw`)."""
        return self._laws[i].law()


def compare_vertical_unpaired(y_a, score_a, y_b, score_b, *, fpr, pos_label=None, confidence_level=0.95,
                              m_a=None, m_b=None) -> UnpairedVerticalComparison:
    """Exact bootstrap law of the TPR difference at fixed FPR levels, two models on independent test sets.

    Each test set is resampled on its own (stratified), so ``TPR*_a`` and ``TPR*_b`` are independent, each
    with the exact law of :func:`rocci.vertical_ci` (thesis eq. 4.12, the binomial mixture over the law of
    the bootstrap threshold ``T_r``), and the law of ``Δ* = TPR*_a − TPR*_b`` is their convolution

    ``P(Δ* = d) = Σ_{l_a/m+_a − l_b/m+_b = d} P(TPR*_a = l_a/m+_a)·P(TPR*_b = l_b/m+_b)``.

    Parameters
    ----------
    y_a, score_a : array_like of shape (n_a,)
        Model a's test set.
    y_b, score_b : array_like of shape (n_b,)
        Model b's test set.
    fpr : array_like
        False positive rates; each sample maps each to its own nearest level ``r/m−`` (as
        :func:`rocci.vertical_ci`), reported as ``fpr_a``, ``fpr_b``.
    pos_label : object, optional
    confidence_level : float, default 0.95
    m_a, m_b : None, int or (int, int)
        Each sample's bootstrap sizes ``(m+, m−)`` (default its own ``(n+, n−)``).

    Returns
    -------
    UnpairedVerticalComparison
        ``delta_tpr_low``, ``delta_tpr_high``: percentile interval of the exact law (the smallest value whose
        CDF reaches ``α/2``, and ``1 − α/2``, as :func:`rocci.compare_vertical` with
        ``method="percentile"``); ``p_a_better = P(Δ* > 0)``, ``p_tie = P(Δ* = 0)``.

    Notes
    -----
    Each law is :meth:`rocci.VerticalCI.distribution`: its whole support for ``m+ <= 4000``, else the
    window holding all but 2e-17 of it.  The values ``l_a/m+_a − l_b/m+_b`` are kept as integers on the
    lattice ``1/lcm(m+_a, m+_b)``; the CDF there is one sum over model b's support, so the bounds come by
    bisection and the sign probabilities by one sum each, without forming the ``k_a·k_b`` sums
    (``distribution(i)`` forms them, trimming points of probability at most 1e-15 beyond 2·10⁷ pairs).
    Like every percentile interval of these laws, it collapses where both TPRs are at 1 in every
    bootstrap world (``vertical_ci``'s Notes).
    """
    level = check_confidence_level(confidence_level)
    if fpr is None:
        raise InputError("Say at which false positive rates to compare the models: fpr=[...].")
    mask_a, sa = _sample(y_a, score_a, pos_label, "a")
    mask_b, sb = _sample(y_b, score_b, pos_label, "b")
    res_a = vertical_ci(mask_a, sa, fpr=fpr, m=m_a, confidence_level=level)
    res_b = vertical_ci(mask_b, sb, fpr=fpr, m=m_b, confidence_level=level)
    laws = []
    for i in range(res_a.r.size):
        (va, pa), (vb, pb) = res_a.distribution(i), res_b.distribution(i)
        laws.append(_DifferenceLaw(np.rint(va * res_a.m_pos), pa, res_a.m_pos,
                                   np.rint(vb * res_b.m_pos), pb, res_b.m_pos))
    out = _summaries(laws, 1.0 - level)
    return UnpairedVerticalComparison(
        fpr=np.atleast_1d(np.asarray(fpr, dtype=float)),
        r_a=res_a.r, r_b=res_b.r, fpr_a=res_a.fpr, fpr_b=res_b.fpr,
        tpr_a=res_a.tpr, tpr_b=res_b.tpr, delta_tpr=res_a.tpr - res_b.tpr,
        delta_tpr_mean=res_a.tpr_mean - res_b.tpr_mean,
        delta_tpr_std=np.sqrt(res_a.tpr_std**2 + res_b.tpr_std**2),
        delta_tpr_low=out["low"], delta_tpr_high=out["high"], p_a_better=out["better"], p_tie=out["tie"],
        truncated_mass=res_a.truncated_mass + res_b.truncated_mass,
        n_pos_a=res_a.n_pos, n_neg_a=res_a.n_neg, n_pos_b=res_b.n_pos, n_neg_b=res_b.n_neg,
        m_pos_a=res_a.m_pos, m_neg_a=res_a.m_neg, m_pos_b=res_b.m_pos, m_neg_b=res_b.m_neg,
        confidence_level=level, _laws=laws,
    )


# ---------------------------------------------------------------------------
# TPR and FPR at fixed thresholds
# ---------------------------------------------------------------------------


@dataclass(repr=False)
class UnpairedThresholdComparison(_FrameResult):
    """Exact bootstrap laws of ΔTPR and ΔFPR at fixed thresholds, two independent test sets.

    Attributes
    ----------
    thresholds_a, thresholds_b : ndarray
        The pairs of thresholds (model a's on its test set, model b's on its own).
    tpr_a, fpr_a, tpr_b, fpr_b : ndarray
        Observed rates.
    delta_tpr, delta_tpr_std, delta_tpr_low, delta_tpr_high : ndarray
        ``tpr_a − tpr_b`` (also the exact bootstrap mean), its exact standard deviation
        ``sqrt(p_a(1 − p_a)/m+_a + p_b(1 − p_b)/m+_b)`` and the percentile interval of its exact law.
    delta_fpr, delta_fpr_std, delta_fpr_low, delta_fpr_high : ndarray
        The same for the false positive rates.
    p_tpr_a_higher, p_tpr_tie, p_fpr_a_lower, p_fpr_tie : ndarray
        ``P(ΔTPR* > 0)``, ``P(ΔTPR* = 0)``, ``P(ΔFPR* < 0)``, ``P(ΔFPR* = 0)``.
    p_a_dominates, p_b_dominates : ndarray
        Thesis eq. 4.5 with independent axes: ``P(ΔTPR* >= 0)·P(ΔFPR* <= 0) − P(ΔTPR* = 0)·P(ΔFPR* = 0)``
        (a's bootstrap point is at least as good on both axes and better on one), and the reverse.
    n_pos_a, n_neg_a, n_pos_b, n_neg_b, m_pos_a, m_neg_a, m_pos_b, m_neg_b : int
    confidence_level : float
    """

    thresholds_a: np.ndarray = column("threshold_a")
    thresholds_b: np.ndarray = column("threshold_b")
    tpr_a: np.ndarray = column()
    tpr_b: np.ndarray = column()
    delta_tpr: np.ndarray = column()
    delta_tpr_std: np.ndarray = column()
    delta_tpr_low: np.ndarray = column()
    delta_tpr_high: np.ndarray = column()
    fpr_a: np.ndarray = column()
    fpr_b: np.ndarray = column()
    delta_fpr: np.ndarray = column()
    delta_fpr_std: np.ndarray = column()
    delta_fpr_low: np.ndarray = column()
    delta_fpr_high: np.ndarray = column()
    p_tpr_a_higher: np.ndarray = column()
    p_tpr_tie: np.ndarray = column()
    p_fpr_a_lower: np.ndarray = column()
    p_fpr_tie: np.ndarray = column()
    p_a_dominates: np.ndarray = column()
    p_b_dominates: np.ndarray = column()
    n_pos_a: int
    n_neg_a: int
    n_pos_b: int
    n_neg_b: int
    m_pos_a: int
    m_neg_a: int
    m_pos_b: int
    m_neg_b: int
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)

    _scalar_fields = ("n_pos_a", "n_neg_a", "n_pos_b", "n_neg_b", "confidence_level")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "UnpairedThresholdComparison":
        """The same comparison with the percentile intervals of ΔTPR and ΔFPR at another level, from the
        exact laws kept (equal to :func:`rocci.compare_thresholds_unpaired` at this ``confidence_level``;
        ``method``: ``"percentile"``, the only one)."""
        level, _ = self._interval_args(confidence_level, method, ("percentile",))
        _check_kept(self, self.thresholds_a.size, "compare_thresholds_unpaired")
        t_low, t_high = _bounds([law[0] for law in self._laws], 1.0 - level)
        f_low, f_high = _bounds([law[1] for law in self._laws], 1.0 - level)
        return dataclasses.replace(self, delta_tpr_low=t_low, delta_tpr_high=t_high, delta_fpr_low=f_low,
                                   delta_fpr_high=f_high, confidence_level=level)

    def distribution(self, i: int, axis: str = "tpr") -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ``ΔTPR*`` (``axis="tpr"``) or ``ΔFPR*`` at the ``i``-th pair of thresholds."""
        if axis not in ("tpr", "fpr"):
            raise InputError(f"axis ({axis!r}) must be one of 'tpr', 'fpr'.")
        return self._laws[i][0 if axis == "tpr" else 1].law()


def compare_thresholds_unpaired(y_a, score_a, y_b, score_b, *, thresholds_a, thresholds_b, pos_label=None,
                                confidence_level=0.95, m_a=None, m_b=None) -> UnpairedThresholdComparison:
    """Exact bootstrap laws of the TPR and FPR differences at fixed thresholds, two independent test sets.

    At a threshold ``t`` held fixed, each sample's stratified bootstrap counts are binomial (thesis §4.3.1,
    eqs. 4.3–4.4): ``TP*_a ~ Bin(m+_a, tp_a/n+_a)``, ``FP*_a ~ Bin(m−_a, fp_a/n−_a)``, and likewise for b, all
    four independent.  So ``ΔTPR* = TP*_a/m+_a − TP*_b/m+_b`` has the law

    ``P(ΔTPR* = d) = Σ_{l_a/m+_a − l_b/m+_b = d} b(l_a; m+_a, p_a)·b(l_b; m+_b, p_b)``,

    with mean ``p_a − p_b`` and variance ``p_a(1 − p_a)/m+_a + p_b(1 − p_b)/m+_b``; ``ΔFPR*`` likewise.

    Parameters
    ----------
    y_a, score_a, y_b, score_b, pos_label
        As in :func:`compare_auc_unpaired`.
    thresholds_a, thresholds_b : array_like
        Thresholds of model a (on its test set) and model b, compared in pairs (a single value is repeated).
        A score is predicted positive when ``score >= threshold``.
    confidence_level : float, default 0.95
    m_a, m_b : None, int or (int, int)
        Each sample's bootstrap sizes ``(m+, m−)``.

    Returns
    -------
    UnpairedThresholdComparison
        Percentile intervals of the exact laws (smallest value whose CDF reaches ``α/2``, and ``1 − α/2``),
        sign probabilities and the dominance probabilities of eq. 4.5.

    Notes
    -----
    Each binomial is taken on its whole support for ``m <= 4000``, else on the window holding all but
    2e-17 of it; the convolution is handled as in :func:`compare_vertical_unpaired`.
    """
    level = check_confidence_level(confidence_level)
    mask_a, sa = _sample(y_a, score_a, pos_label, "a")
    mask_b, sb = _sample(y_b, score_b, pos_label, "b")
    ta, tb = _paired_thresholds(thresholds_a, thresholds_b)
    sizes, rates, laws = [], [], []
    for mask, s, m, t in ((mask_a, sa, m_a, ta), (mask_b, sb, m_b, tb)):
        pos, neg = np.sort(s[mask]), np.sort(s[~mask])
        if pos.size == 0 or neg.size == 0:
            raise InputError("Each test set needs positives and negatives to give a TPR and an FPR.")
        m_pos, m_neg = check_m(m, pos.size, neg.size)
        tp = pos.size - np.searchsorted(pos, t, side="left")
        fp = neg.size - np.searchsorted(neg, t, side="left")
        sizes.append((pos.size, neg.size, m_pos, m_neg))
        rates.append((tp / pos.size, fp / neg.size))
    (npa, nna, mpa, mna), (npb, nnb, mpb, mnb) = sizes
    (tpr_a, fpr_a), (tpr_b, fpr_b) = rates
    for i in range(ta.size):
        laws.append(tuple(_DifferenceLaw(*_binomial_law(ma, float(pa)), ma, *_binomial_law(mb, float(pb)), mb)
                          for pa, pb, ma, mb in ((tpr_a[i], tpr_b[i], mpa, mpb), (fpr_a[i], fpr_b[i], mna, mnb))))
    alpha = 1.0 - level
    tpr_out = _summaries([law[0] for law in laws], alpha)
    fpr_out = _summaries([law[1] for law in laws], alpha)
    tpr_lower = np.array([law[0].p_below_zero() for law in laws])
    fpr_lower = np.array([law[1].p_below_zero() for law in laws])
    t_ge, f_le = tpr_out["better"] + tpr_out["tie"], fpr_lower + fpr_out["tie"]
    t_le, f_ge = tpr_lower + tpr_out["tie"], fpr_out["better"] + fpr_out["tie"]
    both_tie = tpr_out["tie"] * fpr_out["tie"]
    return UnpairedThresholdComparison(
        thresholds_a=ta, thresholds_b=tb, tpr_a=tpr_a, fpr_a=fpr_a, tpr_b=tpr_b, fpr_b=fpr_b,
        delta_tpr=tpr_a - tpr_b, delta_tpr_std=np.sqrt(tpr_a * (1 - tpr_a) / mpa + tpr_b * (1 - tpr_b) / mpb),
        delta_tpr_low=tpr_out["low"], delta_tpr_high=tpr_out["high"],
        delta_fpr=fpr_a - fpr_b, delta_fpr_std=np.sqrt(fpr_a * (1 - fpr_a) / mna + fpr_b * (1 - fpr_b) / mnb),
        delta_fpr_low=fpr_out["low"], delta_fpr_high=fpr_out["high"],
        p_tpr_a_higher=tpr_out["better"], p_tpr_tie=tpr_out["tie"], p_fpr_a_lower=fpr_lower, p_fpr_tie=fpr_out["tie"],
        p_a_dominates=np.clip(t_ge * f_le - both_tie, 0.0, 1.0), p_b_dominates=np.clip(t_le * f_ge - both_tie, 0.0, 1.0),
        n_pos_a=npa, n_neg_a=nna, n_pos_b=npb, n_neg_b=nnb, m_pos_a=mpa, m_neg_a=mna, m_pos_b=mpb, m_neg_b=mnb,
        confidence_level=level, _laws=laws,
    )
