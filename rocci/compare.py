"""Two models scored on the same instances: exact bootstrap comparisons and classical tests.

Threshold averaging, paired design (Gadoury 2009, §4.3.2, Algorithm 4.2)
-----------------------------------------------------------------------
At a pair of thresholds ``(t_a, t_b)`` held fixed across bootstrap samples,
each positive falls in one of three paired cells (math.md, Conventions):
**a** = model a says positive and model b negative (``s_a >= t_a``,
``s_b < t_b``), **b** = the reverse, **c** = they agree.  In a stratified
bootstrap sample of ``m+`` positives the cell counts are trinomial,

``(A, B, C) ~ Multinomial(m+; p_a, p_b, p_c)``,  ``p_x = n_x / n+``,

and ``m+·ΔTPR* = TP*_a − TP*_b = A − B``; likewise for the negatives and
``ΔFPR*``, independently.  Everything here follows from the exact law of
``D = A − B``.  Write ``S = A + B ~ Bin(m, γ)`` with ``γ = p_a + p_b`` and
``A | S ~ Bin(S, π)`` with ``π = p_a/γ``; then

``P(D = d) = Σ_{s ≡ d (mod 2)} b(s; m, γ) · b((s + d)/2; s, π)``.

The binomial pmfs and CDFs come from boost (through SciPy), which is accurate
for ``m`` up to 10⁶ and beyond, and the sum only runs over the window of
``s`` where ``b(s; m, γ)`` is not negligible (O(sqrt(m)) wide).

Errors in the thesis that this module does *not* reproduce (math.md §2):

* eq. 4.7 prints ``Var = (γ̃ + δ̃²)/m+``; the bootstrap variance is
  ``(γ̃ − δ̃²)/m+``;
* Algorithm 4.2 line 4 prints ``v ← (1 − u)·n_b/n+``; it must be
  ``v = n_b/((1 − u)·n+)`` (the conditional probability of cell b given not
  cell a);
* the recursion of Algorithm 4.2 starts from ``(1 − u)^m`` and ``(1 − v)^m``,
  which underflow for ``m`` of a few hundred: with ``p_a = .5``,
  ``p_b = .4``, ``m = 1000`` it returns ``P(ΔTPR >= 0) = 0.487`` where the
  truth is ``0.99961``; its line 12 also divides by zero when ``p_c = 0``
  (``v = 1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from ._results import ConfidenceInterval, _FrameResult
from ._validation import (
    InputError,
    check_choice,
    check_confidence_level,
    check_labels,
    check_m,
    check_scores,
)
from .counts import joint_ge_counts, paired_cells, score_counts
from .threshold import _as_float_array, thresholds_for_total_positive_rate

__all__ = [
    "compare_thresholds",
    "dominance_map",
    "compare_auc",
    "mcnemar",
    "difference_pmf",
    "difference_sign_probabilities",
    "paired_score_interval",
    "ThresholdComparison",
    "DominanceMap",
    "AucComparison",
    "McNemarResult",
]

#: Probability per tail of ``S = A + B`` (and of ``A | S``) left out of the
#: computation windows.  Results are exact to about this absolute error.
WINDOW_EPS = 1e-18

#: Probabilities that a Chernoff bound puts below this are returned as 0
#: (the bound ``P(A − B <= 0) <= (1 − (√p_a − √p_b)²)^m`` for ``p_a > p_b``).
SATURATION = 1e-20

GAMMAS = ("smoothed", "plugin")
PAIRED_REGIONS = ("rectangle", "marginal")
COMPARE_AUC_METHODS = ("delong",)

# Rows x columns of one block of the difference-pmf computation.
_BLOCK = 1_000_000
# Length of the ratio-recurrence segments between exact pmf anchors.
_SEGMENT = 32


# ---------------------------------------------------------------------------
# Input validation (one place for every public function here)
# ---------------------------------------------------------------------------
def _check_paired(y_true, score_a, score_b, pos_label):
    """Labels and the two models' scores of the same instances.

    Returns ``(positive mask, scores a, scores b, pos_label)``.
    """
    mask, pos_label = check_labels(y_true, pos_label)
    a = check_scores(score_a, name="score_a (model a)")
    b = check_scores(score_b, name="score_b (model b)")
    if a.size != b.size:
        raise InputError(
            f"score_a (model a) has {a.size} values but score_b (model b) has {b.size}: "
            "both models must score the same instances, one score per instance and model."
        )
    if a.size != mask.size:
        raise InputError(
            f"score_a and score_b have {a.size} values each but y_true has {mask.size}: "
            "give one label per instance."
        )
    return mask, a, b, pos_label


def _check_thresholds(name, values):
    return _as_float_array(name, values)


def _threshold_pairs(pos_a, neg_a, pos_b, neg_b, thresholds_a, thresholds_b, total_positive_rate):
    """The threshold pairs ``(t_a, t_b)`` to compare, and the rates ``q`` (or None)."""
    if total_positive_rate is not None:
        if thresholds_a is not None or thresholds_b is not None:
            raise InputError("Give either thresholds (thresholds_a, thresholds_b) or total_positive_rate, not both.")
        q = _as_float_array("total_positive_rate", total_positive_rate)
        ta = thresholds_for_total_positive_rate(score_counts(pos_a, neg_a), q)
        tb = thresholds_for_total_positive_rate(score_counts(pos_b, neg_b), q)
        return ta, tb, q
    if thresholds_a is None:
        if thresholds_b is not None:
            raise InputError(
                "thresholds_b was given without thresholds_a: give thresholds_a as well "
                "(or thresholds_a alone to use the same thresholds for both models)."
            )
        raise InputError(
            "Say where to compare the models: thresholds_a (and optionally thresholds_b), "
            "or total_positive_rate."
        )
    ta = _check_thresholds("thresholds_a", thresholds_a)
    if thresholds_b is None:
        return ta, ta.copy(), None
    tb = _check_thresholds("thresholds_b", thresholds_b)
    if ta.size != tb.size:
        if ta.size == 1:
            ta = np.repeat(ta, tb.size)
        elif tb.size == 1:
            tb = np.repeat(tb, ta.size)
        else:
            raise InputError(
                f"thresholds_a has {ta.size} values but thresholds_b has {tb.size}: "
                "they are compared in pairs, so give as many of each (or a single value for one model)."
            )
    return ta, tb, None


# ---------------------------------------------------------------------------
# The law of D = A − B, (A, B, C) ~ Multinomial(m; p_a, p_b, p_c)
# ---------------------------------------------------------------------------
def _s_window(m: int, n_ab, n_c, n: int, eps: float):
    """``[s_lo, s_hi]``: the ``eps`` and ``1 − eps`` quantiles of ``S ~ Bin(m, γ)``.

    ``γ = n_ab/n`` and ``1 − γ = n_c/n`` are passed as counts so that both are
    exact.  (SciPy's ``binom.isf`` is unreliable at tiny levels; the upper
    quantile is taken as ``m`` minus the lower quantile of ``m − S``.)
    """
    n_ab, n_c = np.asarray(n_ab, float), np.asarray(n_c, float)
    if eps <= 0:
        zero = np.zeros(np.broadcast(n_ab, n_c).shape, np.int64)
        return zero, zero + m
    s_lo = stats.binom.ppf(eps, m, n_ab / n)
    s_hi = m - stats.binom.ppf(eps, m, n_c / n)
    return s_lo.astype(np.int64), s_hi.astype(np.int64)


def difference_pmf(m: int, p_a: float, p_b: float, *, eps: float | None = None):
    """Exact law of ``D = A − B`` for ``(A, B, C) ~ Multinomial(m; p_a, p_b, 1 − p_a − p_b)``.

    ``P(D = d) = Σ_{s ≡ d (mod 2)} b(s; m, γ) · b((s + d)/2; s, π)`` with
    ``γ = p_a + p_b`` and ``π = p_a/γ`` (condition on ``S = A + B``).  Every
    cell may be empty (``p_c = 0``, ``p_a = 0``, ``p_b = 0``, or all mass in
    one cell): no division by zero, no underflowing recursion.

    Parameters
    ----------
    m : int
        Number of draws (the bootstrap sample size ``m+`` or ``m−``).
    p_a, p_b : float
        Probabilities of cells a and b (``p_a + p_b <= 1``).
    eps : float, optional
        Probability per tail of ``S`` and of each ``A | S`` left out.  Default
        0 (the whole support) for ``m <= 1000`` and :data:`WINDOW_EPS`
        (1e-18) above, where the windows are O(sqrt(m)) wide.

    Returns
    -------
    d : ndarray of int64
        Consecutive values of ``D`` (increasing), covering every value whose
        probability is not negligible (all of ``−m … m`` when ``eps = 0``).
    pmf : ndarray of float64
        ``P(D = d)``; sums to 1 within ~1e-15.

    Notes
    -----
    Each row ``s`` of the (s, a) plane is evaluated on the window of ``A | S``
    with exact binomial pmf anchors (boost) every 32 columns and the ratio
    ``b(a + 1; s, π)/b(a; s, π) = (s − a)/(a + 1) · π/(1 − π)`` in between, so
    the cost is O(number of non-negligible cells) = O(m) vectorised
    operations (O(m²) for the full support at small m) and the relative
    error of each term stays below ~1e-14.  This replaces the thesis's
    Algorithm 4.2, whose recursion underflows (see the module notes).
    """
    m = int(m)
    p_a, p_b = float(p_a), float(p_b)
    if eps is None:
        eps = 0.0 if m <= 1000 else WINDOW_EPS
    g = p_a + p_b
    if m == 0 or g <= 0:
        return np.array([0], np.int64), np.array([1.0])
    q_c = max(0.0, 1.0 - g)
    if p_a <= 0 or p_b <= 0:
        # All disagreements go one way: D = ±S with S ~ Bin(m, γ).
        s_lo, s_hi = (0, m) if eps <= 0 else _s_window(m, g, q_c, 1.0, eps)
        s = np.arange(int(s_lo), int(s_hi) + 1)
        pmf = stats.binom.pmf(s, m, g)
        if p_a <= 0:
            return -s[::-1], pmf[::-1].copy()
        return s, pmf
    pi = p_a / g
    odds = p_a / p_b
    s_lo, s_hi = (0, m) if eps <= 0 else _s_window(m, g, q_c, 1.0, eps)
    rows = np.arange(int(s_lo), int(s_hi) + 1, dtype=np.int64)
    w = stats.binom.pmf(rows, m, g)
    if eps <= 0:
        a_lo, a_hi = np.zeros_like(rows), rows.copy()
    else:
        a_lo = stats.binom.ppf(eps, rows, pi).astype(np.int64)
        a_hi = rows - stats.binom.ppf(eps, rows, p_b / g).astype(np.int64)
    d_lo = int((2 * a_lo - rows).min())
    d_hi = int((2 * a_hi - rows).max())
    out = np.zeros(d_hi - d_lo + 1)
    width = int((a_hi - a_lo).max()) + 1
    n_seg = -(-width // _SEGMENT)
    cols = n_seg * _SEGMENT
    chunk = max(1, _BLOCK // cols)
    offs = np.arange(cols, dtype=np.float64)
    for start in range(0, rows.size, chunk):  # blocks of rows, not instances
        blk = slice(start, start + chunk)
        s = rows[blk, None].astype(np.float64)
        lo, hi = a_lo[blk, None], a_hi[blk, None]
        a = lo + offs[None, :]
        # ratio[j] = b(a_j + 1)/b(a_j) = (s − a_j)/(a_j + 1) · π/(1 − π)
        ratio = s - a
        ratio /= a + 1.0
        ratio *= odds
        ratio = ratio.reshape(-1, n_seg, _SEGMENT)
        anchors = stats.binom.pmf(a[:, ::_SEGMENT], s, pi) * w[blk, None]
        vals = np.empty_like(ratio)
        vals[:, :, 0] = 1.0
        np.cumprod(ratio[:, :, :-1], axis=2, out=vals[:, :, 1:])
        vals *= anchors[:, :, None]
        vals = vals.reshape(a.shape)
        vals[a > hi] = 0.0
        idx = (2.0 * lo - s - d_lo) + 2.0 * offs[None, :]
        np.minimum(idx, out.size - 1, out=idx)
        out += np.bincount(idx.astype(np.intp).ravel(), weights=vals.ravel(), minlength=out.size)
    return np.arange(d_lo, d_hi + 1, dtype=np.int64), out


def _sign_unique(n_a: np.ndarray, n_b: np.ndarray, n: int, m: int, eps: float):
    """``P(D > 0), P(D = 0), P(D < 0)`` for distinct cell-count pairs (see the public wrapper)."""
    k = n_a.size
    gt, eq, lt = np.zeros(k), np.zeros(k), np.zeros(k)
    # Orient every pair so that p_a >= p_b (π >= 1/2); swap the answers back at the end.
    swap = n_a < n_b
    hi_n, lo_n = np.where(swap, n_b, n_a), np.where(swap, n_a, n_b)
    n_ab, n_c = hi_n + lo_n, n - hi_n - lo_n

    none = n_ab == 0  # no disagreement: D = 0
    eq[none] = 1.0
    one_way = (lo_n == 0) & ~none  # D = S >= 0 with S ~ Bin(m, γ)
    if one_way.any():
        g = n_ab[one_way] / n
        eq[one_way] = stats.binom.pmf(0, m, g)
        gt[one_way] = stats.binom.sf(0, m, g)
    rest = ~none & ~one_way
    if rest.any():
        pa, pb = hi_n / n, lo_n / n
        # Chernoff: P(D <= 0) <= min_λ E e^{−λD} = (1 − (√p_a − √p_b)²)^m.
        with np.errstate(divide="ignore"):
            log_bound = m * np.log1p(-((np.sqrt(pa) - np.sqrt(pb)) ** 2))
        saturated = rest & (log_bound < np.log(SATURATION))
        gt[saturated] = 1.0
        rest &= ~saturated
    if rest.any():
        idx = np.flatnonzero(rest)
        s_lo, s_hi = _s_window(m, n_ab[idx], n_c[idx], n, eps)
        widths = s_hi - s_lo + 1
        # Process groups of pairs so that the flat arrays stay small.
        bounds = np.searchsorted(np.cumsum(widths), np.arange(1, 1 + widths.sum() // _BLOCK) * _BLOCK)
        for grp in np.split(np.arange(idx.size), np.unique(bounds)):
            if grp.size == 0:
                continue
            wid = widths[grp]
            owner = np.repeat(np.arange(grp.size), wid)
            start = np.cumsum(wid) - wid
            s = s_lo[grp][owner] + (np.arange(wid.sum()) - start[owner])
            j = idx[grp][owner]
            g = n_ab[j] / n
            pi = hi_n[j] / n_ab[j]
            w = stats.binom.pmf(s, m, g)
            # P(A < S/2 | S) is the small tail (π >= 1/2); P(A > S/2 | S) by complement.
            lt_s = stats.binom.cdf((s + 1) // 2 - 1, s, pi)
            even = s % 2 == 0
            eq_s = np.zeros(s.size)
            eq_s[even] = stats.binom.pmf(s[even] // 2, s[even], pi[even])
            gt_s = 1.0 - lt_s - eq_s
            lt[idx[grp]] = np.bincount(owner, weights=w * lt_s, minlength=grp.size)
            eq[idx[grp]] = np.bincount(owner, weights=w * eq_s, minlength=grp.size)
            gt[idx[grp]] = np.bincount(owner, weights=w * gt_s, minlength=grp.size)
    return np.where(swap, lt, gt), eq, np.where(swap, gt, lt)


def difference_sign_probabilities(n_a, n_b, n: int, m: int, *, eps: float | None = None):
    """``P(D > 0)``, ``P(D = 0)``, ``P(D < 0)`` for ``D = A − B``, vectorised over cell counts.

    ``(A, B, C) ~ Multinomial(m; n_a/n, n_b/n, 1 − (n_a + n_b)/n)``.  With
    ``S = A + B ~ Bin(m, γ)`` and ``A | S ~ Bin(S, π)``:

    ``P(D < 0) = Σ_s b(s; m, γ) · B(⌈s/2⌉ − 1; s, π)``,
    ``P(D = 0) = Σ_{s even} b(s; m, γ) · b(s/2; s, π)``,
    ``P(D > 0) = Σ_s b(s; m, γ) · [1 − B(⌈s/2⌉ − 1; s, π) − b(s/2; s, π)]``

    (the small tail is always evaluated directly and the large one by
    complement, after swapping a and b so that ``π >= 1/2``).  The sums run
    over the window of ``s`` holding all but ``2·eps`` of ``Bin(m, γ)``:
    O(sqrt(m)) binomial CDF evaluations per distinct ``(n_a, n_b)``, all
    pairs in one vectorised pass.  Pairs whose Chernoff bound puts the
    smaller side below :data:`SATURATION` (1e-20) are returned as exactly
    0/1 without summing.

    Parameters
    ----------
    n_a, n_b : array_like of int
        Counts of cells a and b among the ``n`` instances of one class.
    n : int
        Class size.
    m : int
        Bootstrap sample size of that class.
    eps : float, optional
        Tail mass of ``S`` left out per side; default 0 (no window) for
        ``m <= 1000``, else :data:`WINDOW_EPS`.

    Returns
    -------
    p_gt, p_eq, p_lt : ndarray
        Arrays shaped like the broadcast of ``n_a`` and ``n_b``; absolute
        error below ~1e-16 (plus ``2·eps``).
    """
    n_a, n_b = np.broadcast_arrays(np.asarray(n_a, np.int64), np.asarray(n_b, np.int64))
    shape = n_a.shape
    if eps is None:
        eps = 0.0 if m <= 1000 else WINDOW_EPS
    keys = n_a.ravel() * (n + 1) + n_b.ravel()
    uniq, inv = np.unique(keys, return_inverse=True)
    gt, eq, lt = _sign_unique(uniq // (n + 1), uniq % (n + 1), int(n), int(m), eps)
    inv = inv.ravel()
    return gt[inv].reshape(shape), eq[inv].reshape(shape), lt[inv].reshape(shape)


def paired_score_interval(n_a, n_b, n: int, m: int, alpha: float, *, gamma: str = "smoothed"):
    """Score interval for ``δ = p_a − p_b`` (thesis eq. 4.8), vectorised.

    The bounds solve ``(δ̃ − δ)² = z²(γ − δ²)/m``:

    ``δ = [δ̃ ± z·sqrt((γ(1 + z²/m) − δ̃²)/m)] / (1 + z²/m)``,

    with ``δ̃ = (n_a − n_b)/n``, ``z = Φ⁻¹(1 − alpha/2)`` and the nuisance
    ``γ = p_a + p_b`` estimated by the smoothed ``(n_a + n_b + 2)/(n + 4)``
    (eq. 4.9, the thesis's choice for coverage) or the plug-in
    ``(n_a + n_b)/n``.

    Returns
    -------
    low, high : ndarray
        Clipped to [−1, 1]; a negative discriminant (possible with the
        smoothed γ when ``m`` is much larger than ``n`` or ``z < √2``) is
        taken as 0.
    """
    n_a, n_b = np.asarray(n_a, float), np.asarray(n_b, float)
    z = float(special.ndtri(1.0 - alpha / 2.0))
    delta = (n_a - n_b) / n
    g = (n_a + n_b + 2.0) / (n + 4.0) if gamma == "smoothed" else (n_a + n_b) / n
    k = z * z / m
    half = z * np.sqrt(np.maximum(g * (1.0 + k) - delta**2, 0.0) / m)
    low = np.clip((delta - half) / (1.0 + k), -1.0, 1.0)
    high = np.clip((delta + half) / (1.0 + k), -1.0, 1.0)
    return low, high


def _dominance(pos_sign, neg_sign):
    """Eq. 4.5 from the sign probabilities of ΔTPR and ΔFPR, without cancellation.

    ``f1 = P(ΔTPR >= 0)·P(ΔFPR <= 0) − P(ΔTPR = 0)·P(ΔFPR = 0)
         = P(ΔTPR > 0)·P(ΔFPR <= 0) + P(ΔTPR = 0)·P(ΔFPR < 0)``; f2 symmetric.
    """
    tgt, teq, tlt = pos_sign
    fgt, feq, flt = neg_sign
    f1 = tgt * (flt + feq) + teq * flt
    f2 = tlt * (fgt + feq) + teq * fgt
    return f1, f2


# ---------------------------------------------------------------------------
# compare_thresholds
# ---------------------------------------------------------------------------
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

    thresholds_a: np.ndarray
    thresholds_b: np.ndarray
    p_a_dominates: np.ndarray
    p_b_dominates: np.ndarray
    delta_tpr: np.ndarray
    delta_tpr_std: np.ndarray
    delta_tpr_low: np.ndarray
    delta_tpr_high: np.ndarray
    delta_fpr: np.ndarray
    delta_fpr_std: np.ndarray
    delta_fpr_low: np.ndarray
    delta_fpr_high: np.ndarray
    p_tpr_gt: np.ndarray
    p_tpr_eq: np.ndarray
    p_tpr_lt: np.ndarray
    p_fpr_gt: np.ndarray
    p_fpr_eq: np.ndarray
    p_fpr_lt: np.ndarray
    n_a_pos: np.ndarray
    n_b_pos: np.ndarray
    n_both_pos: np.ndarray
    n_a_neg: np.ndarray
    n_b_neg: np.ndarray
    n_both_neg: np.ndarray
    tpr_a: np.ndarray
    tpr_b: np.ndarray
    fpr_a: np.ndarray
    fpr_b: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    confidence_level: float
    axis_confidence_level: float
    region: str
    gamma: str
    total_positive_rate: np.ndarray | None = None

    _scalar_fields = ("n_pos", "n_neg", "m_pos", "m_neg", "confidence_level", "region", "gamma")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``threshold_a, threshold_b, p_a_dominates, p_b_dominates,
        delta_tpr, delta_tpr_low, delta_tpr_high, delta_fpr, delta_fpr_low,
        delta_fpr_high``, then ``delta_tpr_std, delta_fpr_std``, the cell
        counts ``n_a_pos, n_b_pos, n_a_neg, n_b_neg``, each model's
        ``tpr_a, fpr_a, tpr_b, fpr_b`` (and ``total_positive_rate`` if the
        thresholds were chosen by it)."""
        cols: dict[str, Any] = {
            "threshold_a": self.thresholds_a,
            "threshold_b": self.thresholds_b,
            "p_a_dominates": self.p_a_dominates,
            "p_b_dominates": self.p_b_dominates,
            "delta_tpr": self.delta_tpr,
            "delta_tpr_low": self.delta_tpr_low,
            "delta_tpr_high": self.delta_tpr_high,
            "delta_fpr": self.delta_fpr,
            "delta_fpr_low": self.delta_fpr_low,
            "delta_fpr_high": self.delta_fpr_high,
            "delta_tpr_std": self.delta_tpr_std,
            "delta_fpr_std": self.delta_fpr_std,
            "n_a_pos": self.n_a_pos,
            "n_b_pos": self.n_b_pos,
            "n_a_neg": self.n_a_neg,
            "n_b_neg": self.n_b_neg,
            "tpr_a": self.tpr_a,
            "fpr_a": self.fpr_a,
            "tpr_b": self.tpr_b,
            "fpr_b": self.fpr_b,
        }
        if self.total_positive_rate is not None:
            cols = {"total_positive_rate": self.total_positive_rate, **cols}
        return pd.DataFrame(cols)

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


def compare_thresholds(
    y_true,
    score_a,
    score_b,
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
    * Cost: O(n log n) for the cell counts, then O(sqrt(m)) binomial
      evaluations per distinct cell-count pair.

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
    mask, a, b, _ = _check_paired(y_true, score_a, score_b, pos_label)
    pos_a, neg_a, pos_b, neg_b = a[mask], a[~mask], b[mask], b[~mask]
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    ta, tb, q = _threshold_pairs(pos_a, neg_a, pos_b, neg_b, thresholds_a, thresholds_b, total_positive_rate)

    na_p, nb_p, both_p = paired_cells(pos_a, pos_b, ta, tb)
    na_n, nb_n, both_n = paired_cells(neg_a, neg_b, ta, tb)
    sign_pos = difference_sign_probabilities(na_p, nb_p, n_pos, m_pos)
    sign_neg = difference_sign_probabilities(na_n, nb_n, n_neg, m_neg)
    f1, f2 = _dominance(sign_pos, sign_neg)

    alpha = 1.0 - level
    axis_alpha = 1.0 - np.sqrt(1.0 - alpha) if region == "rectangle" else alpha
    dt, df = (na_p - nb_p) / n_pos, (na_n - nb_n) / n_neg
    gt_, gf_ = (na_p + nb_p) / n_pos, (na_n + nb_n) / n_neg
    t_low, t_high = paired_score_interval(na_p, nb_p, n_pos, m_pos, axis_alpha, gamma=gamma)
    f_low, f_high = paired_score_interval(na_n, nb_n, n_neg, m_neg, axis_alpha, gamma=gamma)

    return ThresholdComparison(
        thresholds_a=ta,
        thresholds_b=tb,
        p_a_dominates=f1,
        p_b_dominates=f2,
        delta_tpr=dt,
        delta_tpr_std=np.sqrt(np.maximum(gt_ - dt**2, 0.0) / m_pos),
        delta_tpr_low=t_low,
        delta_tpr_high=t_high,
        delta_fpr=df,
        delta_fpr_std=np.sqrt(np.maximum(gf_ - df**2, 0.0) / m_neg),
        delta_fpr_low=f_low,
        delta_fpr_high=f_high,
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
        axis_confidence_level=1.0 - axis_alpha,
        region=region,
        gamma=gamma,
        total_positive_rate=q,
    )


# ---------------------------------------------------------------------------
# dominance_map
# ---------------------------------------------------------------------------
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

    _scalar_fields = ("n_pos", "n_neg", "m_pos", "m_neg")

    def to_frame(self) -> pd.DataFrame:
        """Long format, one row per pair (``thresholds_a`` slowest): columns
        ``threshold_a, threshold_b, p_a_dominates, p_b_dominates, delta_tpr, delta_fpr``."""
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


def _grid_cells(a, b, ta, tb):
    """``(n_a, n_b)`` of shape (P, Q) for every pair of the grid ``ta × tb``."""
    both = joint_ge_counts(a, b, ta, tb)
    ge_a = a.size - np.searchsorted(np.sort(a), ta, side="left")
    ge_b = b.size - np.searchsorted(np.sort(b), tb, side="left")
    return ge_a[:, None] - both, ge_b[None, :] - both


def dominance_map(y_true, score_a, score_b, *, thresholds_a, thresholds_b, pos_label=None, m=None) -> DominanceMap:
    """Exact bootstrap dominance probabilities over the grid ``thresholds_a × thresholds_b``.

    For every pair ``(t_a, t_b)`` of the grid, ``f1`` = P(model a dominates
    b strictly) and ``f2`` the reverse (eq. 4.5, see
    :func:`compare_thresholds`).  All cell counts come from one 2-D
    cumulative histogram per class (:func:`rocci.counts.joint_ge_counts`,
    O(n log n + P·Q)); the probabilities are computed once per distinct
    ``(n_a, n_b)`` in one vectorised pass, and pairs that a Chernoff bound
    decides to within 1e-20 cost nothing.  A 50 × 50 grid at n = 10⁵ takes
    a fraction of a second.

    Parameters
    ----------
    y_true, score_a, score_b, pos_label, m
        As in :func:`compare_thresholds`.
    thresholds_a, thresholds_b : array_like
        The grid's axes (any lengths P and Q).

    Returns
    -------
    DominanceMap
        2-D arrays indexed ``[i, j]`` = ``(thresholds_a[i], thresholds_b[j])``;
        ``to_frame()`` in long format.
    """
    mask, a, b, _ = _check_paired(y_true, score_a, score_b, pos_label)
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    ta = _check_thresholds("thresholds_a", thresholds_a)
    tb = _check_thresholds("thresholds_b", thresholds_b)
    na_p, nb_p = _grid_cells(a[mask], b[mask], ta, tb)
    na_n, nb_n = _grid_cells(a[~mask], b[~mask], ta, tb)
    f1, f2 = _dominance(
        difference_sign_probabilities(na_p, nb_p, n_pos, m_pos),
        difference_sign_probabilities(na_n, nb_n, n_neg, m_neg),
    )
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


# ---------------------------------------------------------------------------
# compare_auc: DeLong's test for two correlated ROC curves
# ---------------------------------------------------------------------------
@dataclass(repr=False)
class AucComparison(_FrameResult):
    """Difference of the AUCs of two models scored on the same instances.

    Attributes
    ----------
    auc_a, auc_b : float
        Mann–Whitney AUCs (ties 1/2).
    delta : float
        ``auc_a − auc_b`` (pROC's ``roc.test(roc1, roc2)`` reports
        ``roc1 − roc2`` the same way: pass roc1's scores as ``score_a``).
    std : float
        Standard error of ``delta`` (DeLong et al. 1988, paired).
    low, high : float
        ``delta ∓ z·std`` (clipped to [−1, 1]).
    statistic : float
        ``z = delta/std``.
    pvalue : float
        Two-sided, ``2·Φ(−|z|)``.
    correlation : float
        DeLong estimate of the correlation of the two AUCs.
    method : str
    confidence_level : float
    n_pos, n_neg : int
    """

    auc_a: float
    auc_b: float
    delta: float
    std: float
    low: float
    high: float
    statistic: float
    pvalue: float
    correlation: float
    method: str
    confidence_level: float
    n_pos: int
    n_neg: int

    _scalar_fields = ("delta", "std", "low", "high", "statistic", "pvalue")

    @property
    def ci(self) -> ConfidenceInterval:
        return ConfidenceInterval(self.low, self.high)

    def to_frame(self) -> pd.DataFrame:
        """One row: ``auc_a, auc_b, delta, std, low, high, statistic, pvalue, method, confidence_level``."""
        keys = ("auc_a", "auc_b", "delta", "std", "low", "high", "statistic", "pvalue", "method", "confidence_level")
        return pd.DataFrame([{k: getattr(self, k) for k in keys}])

    def __repr__(self) -> str:
        return (
            f"AucComparison(auc_a={self.auc_a:.6g}, auc_b={self.auc_b:.6g}, delta={self.delta:.6g}, "
            f"std={self.std:.6g}, {self.confidence_level:.0%} CI [{self.low:.6g}, {self.high:.6g}], "
            f"z={self.statistic:.4g}, pvalue={self.pvalue:.4g}, method={self.method!r})"
        )


def _placements_in_order(scores, mask, n_pos: int, n_neg: int):
    """DeLong placement values of each positive and each negative, in the input order.

    One sort of all ``n`` scores: in each run of tied scores, the negatives
    below the run and in it give each positive's
    ``V10 = (2·#{neg < x} + #{neg = x})/(2n−)``, and the positives above and in
    it each negative's ``V01 = (2·#{pos > y} + #{pos = y})/(2n+)`` (the same
    integers and divisions as :func:`rocci.roc._placements`).  The AUC is
    ``(#{pairs ordered} + ½·#{tied pairs})/(n+·n−)`` from integer counts.
    """
    n = scores.size
    order = np.argsort(scores)
    ss = scores[order]
    is_pos = mask[order]
    first = np.empty(n, dtype=bool)  # starts of runs of tied scores
    first[0] = True
    np.not_equal(ss[1:], ss[:-1], out=first[1:])
    pos_before = np.cumsum(is_pos)
    if first.all():  # no ties: i sorted scores below, pos_before[i − 1] of them positive
        below_pos = pos_before - is_pos
        below_neg = np.arange(n) - below_pos
        placement = np.where(is_pos, below_neg / float(n_neg), (n_pos - pos_before) / float(n_pos))
        values = np.empty(n)
        values[order] = placement
        n_greater = int(below_neg[is_pos].sum(dtype=np.int64))
        return values[mask], values[~mask], (n_greater + 0.5 * 0) / (n_pos * n_neg)
    idx = np.arange(n)
    start = np.maximum.accumulate(np.where(first, idx, 0))
    last = np.empty(n, dtype=bool)
    last[-1] = True
    last[:-1] = first[1:]
    stop = np.minimum.accumulate(np.where(last, idx + 1, n)[::-1])[::-1]  # one past each run
    pos_before = np.concatenate([[0], pos_before])  # positives among the first i sorted scores
    below_pos, below_all = pos_before[start], start
    tied_pos = pos_before[stop] - below_pos
    below_neg, tied_neg = below_all - below_pos, (stop - start) - tied_pos
    placement = np.where(
        is_pos,
        (2 * below_neg + tied_neg) / (2.0 * n_neg),
        (2 * (n_pos - below_pos) - tied_pos) / (2.0 * n_pos),
    )
    values = np.empty(n)
    values[order] = placement
    n_greater = int(below_neg[is_pos].sum(dtype=np.int64))
    n_ties = int(tied_neg[is_pos].sum(dtype=np.int64))
    return values[mask], values[~mask], (n_greater + 0.5 * n_ties) / (n_pos * n_neg)


def compare_auc(y_true, score_a, score_b, *, pos_label=None, confidence_level=0.95, method="delong") -> AucComparison:
    """DeLong's test for the difference of two correlated AUCs.

    DeLong, DeLong & Clarke-Pearson (1988).  With each model's placement
    values ``V10_i = (#{neg < x_i} + ½#{neg = x_i})/n−`` (positives) and
    ``V01_j = (#{pos > y_j} + ½#{pos = y_j})/n+`` (negatives), the AUC is
    their mean and

    ``Var(AUC_a − AUC_b) = s²(V10_a − V10_b)/n+ + s²(V01_a − V01_b)/n−``

    (sample variances, ddof = 1; this equals
    ``[S10_aa + S10_bb − 2·S10_ab]/n+ + [S01_aa + S01_bb − 2·S01_ab]/n−`` in
    DeLong's notation).  O(n log n) by binary search.

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`compare_thresholds`.
    confidence_level : float, default 0.95
    method : {"delong"}

    Returns
    -------
    AucComparison
        ``delta = auc_a − auc_b``, ``std``, ``low``, ``high``
        (``delta ∓ z·std``), ``statistic = delta/std`` and the two-sided
        ``pvalue``.

    Notes
    -----
    Sign convention: ``delta`` is a − b, the same as pROC's
    ``roc.test(roc1, roc2)`` (``roc1 − roc2``).  On pROC's aSAH data,
    ``compare_auc(outcome, s100b, wfns, pos_label="Poor")`` gives
    ``z = −2.209``, ``p = 0.0272``, 95% CI ``[−0.1742, −0.0104]``, as
    ``roc.test(roc(outcome, s100b), roc(outcome, wfns))``.  No direction
    flipping (pROC flips a curve whose AUC is below 0.5 unless told not to).
    Raises :class:`InputError` when the variance is 0 (e.g. identical
    scores), where the statistic is undefined.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, COMPARE_AUC_METHODS)
    mask, a, b, _ = _check_paired(y_true, score_a, score_b, pos_label)
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    if n_pos < 2 or n_neg < 2:
        raise InputError(
            f"DeLong's test needs at least 2 positives and 2 negatives (got {n_pos} and {n_neg})."
        )
    v10a, v01a, auc_a = _placements_in_order(a, mask, n_pos, n_neg)
    v10b, v01b, auc_b = _placements_in_order(b, mask, n_pos, n_neg)
    s10 = np.cov(v10a, v10b, ddof=1)
    s01 = np.cov(v01a, v01b, ddof=1)
    var_a = s10[0, 0] / n_pos + s01[0, 0] / n_neg
    var_b = s10[1, 1] / n_pos + s01[1, 1] / n_neg
    cov_ab = s10[0, 1] / n_pos + s01[0, 1] / n_neg
    # The variance of the difference from the differences themselves (no cancellation).
    var = np.var(v10a - v10b, ddof=1) / n_pos + np.var(v01a - v01b, ddof=1) / n_neg
    delta = auc_a - auc_b
    if not var > 0:
        raise InputError(
            "The DeLong variance of the AUC difference is 0 (for example, the two models rank "
            "every instance the same way, or both have constant scores): the test is undefined. "
            f"The AUCs are {auc_a:.6g} (model a) and {auc_b:.6g} (model b)."
        )
    std = float(np.sqrt(var))
    z = delta / std
    zc = float(special.ndtri(0.5 + level / 2))
    corr = cov_ab / np.sqrt(var_a * var_b) if var_a > 0 and var_b > 0 else float("nan")
    return AucComparison(
        auc_a=float(auc_a),
        auc_b=float(auc_b),
        delta=float(delta),
        std=std,
        low=float(max(-1.0, delta - zc * std)),
        high=float(min(1.0, delta + zc * std)),
        statistic=float(z),
        pvalue=float(2.0 * special.ndtr(-abs(z))),
        correlation=float(corr),
        method=method,
        confidence_level=level,
        n_pos=n_pos,
        n_neg=n_neg,
    )


# ---------------------------------------------------------------------------
# McNemar's test
# ---------------------------------------------------------------------------
@dataclass(repr=False)
class McNemarResult(_FrameResult):
    """McNemar's test of equal error rates of two classifiers on the same instances.

    Attributes
    ----------
    n_a_only_correct : int
        Instances model a classifies correctly and model b does not
        (the course notes' ``e10``: "misclassified by 2 but not by 1").
    n_b_only_correct : int
        The reverse (``e01``).
    n_both_correct, n_both_wrong : int
    statistic : float
        The statistic chosen by ``correction``.
    pvalue : float
        Its chi-square (1 degree of freedom) p-value.
    statistic_corrected, statistic_uncorrected : float
        ``(|e01 − e10| − 1)²/(e01 + e10)`` (continuity corrected; 0 when
        ``e01 = e10``, as R's mcnemar.test) and ``(e01 − e10)²/(e01 + e10)``.
    pvalue_corrected, pvalue_uncorrected : float
    exact_pvalue : float
        Two-sided exact binomial p-value: ``min(1, 2·B(min(e01, e10); e01 + e10, ½))``.
    threshold_a, threshold_b : float
    correction : bool
    accuracy_a, accuracy_b : float
    """

    n_a_only_correct: int
    n_b_only_correct: int
    n_both_correct: int
    n_both_wrong: int
    statistic: float
    pvalue: float
    statistic_corrected: float
    statistic_uncorrected: float
    pvalue_corrected: float
    pvalue_uncorrected: float
    exact_pvalue: float
    threshold_a: float
    threshold_b: float
    correction: bool
    accuracy_a: float
    accuracy_b: float

    _scalar_fields = ("statistic", "pvalue", "exact_pvalue", "correction")

    def to_frame(self) -> pd.DataFrame:
        """One row: ``n_a_only_correct, n_b_only_correct, n_both_correct, n_both_wrong,
        statistic, pvalue, statistic_corrected, statistic_uncorrected, exact_pvalue``."""
        keys = (
            "n_a_only_correct", "n_b_only_correct", "n_both_correct", "n_both_wrong",
            "statistic", "pvalue", "statistic_corrected", "statistic_uncorrected", "exact_pvalue",
        )
        return pd.DataFrame([{k: getattr(self, k) for k in keys}])

    def table(self) -> pd.DataFrame:
        """The 2 × 2 table: rows model a correct/wrong, columns model b correct/wrong."""
        return pd.DataFrame(
            [[self.n_both_correct, self.n_a_only_correct], [self.n_b_only_correct, self.n_both_wrong]],
            index=pd.Index(["a correct", "a wrong"]),
            columns=pd.Index(["b correct", "b wrong"]),
        )

    def __repr__(self) -> str:
        return (
            f"McNemarResult(a only correct={self.n_a_only_correct}, b only correct={self.n_b_only_correct}, "
            f"statistic={self.statistic:.6g}, pvalue={self.pvalue:.4g}, exact_pvalue={self.exact_pvalue:.4g}, "
            f"correction={self.correction})"
        )


def mcnemar(
    y_true, score_a, score_b, *, threshold_a, threshold_b=None, pos_label=None, correction=True
) -> McNemarResult:
    """McNemar's test: do two classifiers, each at its threshold, have the same error rate?

    Every instance (positives and negatives together) is classified by each
    model (``score >= threshold`` is positive) and counted in the 2 × 2 table
    of right/wrong.  Only the discordant instances matter: ``e01`` = wrong
    by model a but not b, ``e10`` = wrong by b but not a.  Under the null
    hypothesis of equal error rates ``e01 | e01 + e10 ~ Bin(e01 + e10, ½)``.

    ``χ² = (|e01 − e10| − 1)²/(e01 + e10)`` with the continuity correction
    (the course notes' form; 0 when ``e01 = e10``), ``(e01 − e10)²/(e01 + e10)``
    without; p-value from χ²₁ (reject at 5% when χ² > 3.84).  The exact
    p-value is the two-sided binomial test ``min(1, 2·P(Bin(e01 + e10, ½) <= min(e01, e10)))``.

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`compare_thresholds`.
    threshold_a : float
        Model a's threshold.
    threshold_b : float, optional
        Model b's threshold; default ``threshold_a``.
    correction : bool, default True
        Whether ``statistic`` and ``pvalue`` use the continuity correction
        (both versions are always reported).

    Returns
    -------
    McNemarResult

    Notes
    -----
    This is a classical test on the observed predictions, not an exact
    bootstrap quantity.  Raises :class:`InputError` when the models never
    disagree (``e01 + e10 = 0``): the statistic is 0/0.
    """
    mask, a, b, _ = _check_paired(y_true, score_a, score_b, pos_label)
    ta = _scalar_threshold("threshold_a", threshold_a)
    tb = ta if threshold_b is None else _scalar_threshold("threshold_b", threshold_b)
    if not isinstance(correction, (bool, np.bool_)):
        raise InputError(f"correction ({correction!r}) must be True or False.")
    right_a = (a >= ta) == mask
    right_b = (b >= tb) == mask
    a_only = int(np.count_nonzero(right_a & ~right_b))
    b_only = int(np.count_nonzero(right_b & ~right_a))
    both_right = int(np.count_nonzero(right_a & right_b))
    both_wrong = int(mask.size - a_only - b_only - both_right)
    k = a_only + b_only
    if k == 0:
        raise InputError(
            "The two models are right and wrong on exactly the same instances at these thresholds "
            "(no discordant instances): McNemar's test is undefined. Their error rates are equal "
            f"({both_wrong}/{mask.size})."
        )
    diff = abs(a_only - b_only)
    chi_u = diff**2 / k
    chi_c = max(diff - 1, 0) ** 2 / k if diff > 0 else 0.0
    p_u, p_c = float(stats.chi2.sf(chi_u, 1)), float(stats.chi2.sf(chi_c, 1))
    exact = float(min(1.0, 2.0 * stats.binom.cdf(min(a_only, b_only), k, 0.5)))
    return McNemarResult(
        n_a_only_correct=a_only,
        n_b_only_correct=b_only,
        n_both_correct=both_right,
        n_both_wrong=both_wrong,
        statistic=float(chi_c if correction else chi_u),
        pvalue=p_c if correction else p_u,
        statistic_corrected=float(chi_c),
        statistic_uncorrected=float(chi_u),
        pvalue_corrected=p_c,
        pvalue_uncorrected=p_u,
        exact_pvalue=exact,
        threshold_a=ta,
        threshold_b=tb,
        correction=bool(correction),
        accuracy_a=(a_only + both_right) / mask.size,
        accuracy_b=(b_only + both_right) / mask.size,
    )


def _scalar_threshold(name, value) -> float:
    arr = _as_float_array(name, value)
    if arr.size != 1:
        raise InputError(f"{name} must be a single number (one threshold); got {arr.size} values.")
    return float(arr[0])
