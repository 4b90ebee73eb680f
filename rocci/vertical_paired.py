"""Vertical averaging, two models scored on the same instances (thesis §4.4.2).

Both models' thresholds come from the **same** bootstrap sample of negatives:
``T1_r`` is the r-th largest model-1 score among the drawn negatives and
``T2_r`` the r-th largest model-2 score.  With each model's negatives ranked
decreasingly (ties broken by position, a stable sort), ``T1_r = s1_(K)`` and
``T2_r = s2_(J)`` where

``F(k, j) = P(K <= k, J <= j) = P(N1_k >= r, N2_j >= r)``,

``N1_k`` (``N2_j``) counting the draws among model 1's top ``k`` (model 2's top
``j``) negatives.  The draws fall in the overlap of the two sets (``c`` of the
negatives), in one set only, or in neither, so ``(X_both, X_1only, X_2only)`` is
multinomial with probabilities ``(c, k − c, j − c)/n−`` and

``F(k, j) = Σ_x b(x; m−, c/n−) · Σ_T b(T; m− − x, (k + j − 2c)/(n− − c))
           · P(a <= X_1 <= T − a | T)``,  ``a = max(r − x, 0)``,

with ``X_1 | T ~ Bin(T, (k − c)/(k + j − 2c))``.  The joint law
``f(k, j) = P(K = k, J = j)`` follows by inclusion–exclusion.  Given
``(K, J) = (k, j)``, ``m+·ΔTPR* = A − B`` with ``(A, B)`` the counts of the
positives' paired cells (math.md §2) at thresholds ``(s1_(k), s2_(j))``, and
the law of ΔTPR* is the mixture over ``(k, j)``.

Only the window of ``(k, j)`` where the marginal laws of ``K`` and ``J`` are not
negligible is computed (each is the law of one model's order statistic, the
same for both models); the probability left out is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._results import _FrameResult
from ._validation import check_choice, check_confidence_level, check_labels, check_m, check_scores
from .compare import difference_pmf
from .counts import joint_ge_counts
from .exact import QUANTILE_TOL, binomial_cdf, binomial_pmf, order_statistic_law
from .vertical import fpr_levels

__all__ = ["compare_vertical", "VerticalComparison"]


@dataclass(repr=False)
class VerticalComparison(_FrameResult):
    """Exact bootstrap law of ΔTPR = TPR_a − TPR_b at fixed FPR levels (paired).

    Attributes
    ----------
    fpr, r : ndarray
        Levels ``r/m−``.
    delta_tpr_mean, delta_tpr_std : ndarray
        Exact mean and standard deviation of ΔTPR*.
    delta_tpr_low, delta_tpr_high : ndarray
        Percentile interval of the exact law at ``confidence_level``.
    p_a_better, p_tie : ndarray
        ``P(ΔTPR* > 0)`` and ``P(ΔTPR* = 0)``.
    truncated_mass : ndarray
        Probability of ``(K, J)`` outside the computed window.
    """

    fpr: np.ndarray
    r: np.ndarray
    delta_tpr_mean: np.ndarray
    delta_tpr_std: np.ndarray
    delta_tpr_low: np.ndarray
    delta_tpr_high: np.ndarray
    p_a_better: np.ndarray
    p_tie: np.ndarray
    truncated_mass: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    confidence_level: float
    _laws: list = field(default_factory=list, repr=False)
    _joint: list = field(default_factory=list, repr=False)

    _scalar_fields = ("n_pos", "n_neg", "m_pos", "m_neg", "confidence_level")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``fpr, r, delta_tpr_mean, delta_tpr_std, delta_tpr_low,
        delta_tpr_high, p_a_better, p_tie, truncated_mass``."""
        return pd.DataFrame(
            {
                "fpr": self.fpr,
                "r": self.r,
                "delta_tpr_mean": self.delta_tpr_mean,
                "delta_tpr_std": self.delta_tpr_std,
                "delta_tpr_low": self.delta_tpr_low,
                "delta_tpr_high": self.delta_tpr_high,
                "p_a_better": self.p_a_better,
                "p_tie": self.p_tie,
                "truncated_mass": self.truncated_mass,
            }
        )

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ΔTPR* at the ``i``-th level: values ``d/m+``, ``d = −m+…m+``."""
        d, probs = self._laws[i]
        return d / self.m_pos, probs

    def joint_threshold_law(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(k, j, f)``: ranks of the window and ``f[k, j] = P(K = k, J = j)``."""
        return self._joint[i]


def _joint_cdf(k: np.ndarray, j: np.ndarray, c: np.ndarray, n: int, m: int, r: int) -> np.ndarray:
    """``F(k, j) = P(N1_k >= r, N2_j >= r)`` for arrays of (k, j, c) (see module docstring).

    Works through the pairs in chunks so that memory stays near 40 MB
    whatever the window.
    """
    chunk = max(1, 5_000_000 // ((m + 1) ** 2))
    if k.size > chunk:
        return np.concatenate([
            _joint_cdf(k[i:i + chunk], j[i:i + chunk], c[i:i + chunk], n, m, r)
            for i in range(0, k.size, chunk)
        ])
    out = np.zeros(k.shape, dtype=float)
    live = (k > 0) & (j > 0)
    if not live.any():
        return out
    kk, jj, cc = k[live].astype(float), j[live].astype(float), c[live].astype(float)
    x = np.arange(m + 1)
    t = np.arange(m + 1)
    b_x = binomial_pmf(x[None, :], m, (cc / n)[:, None])  # (P, x)
    rest = n - cc
    with np.errstate(invalid="ignore", divide="ignore"):
        pi_t = np.where(rest > 0, (kk + jj - 2 * cc) / np.where(rest > 0, rest, 1.0), 0.0)
        share = np.where(kk + jj - 2 * cc > 0, (kk - cc) / np.where(kk + jj - 2 * cc > 0, kk + jj - 2 * cc, 1.0), 0.5)
    big_m = m - x  # draws outside the overlap, per x
    a = np.maximum(r - x, 0)  # each model still needs a draws from its own part
    # b(T; m − x, pi_t): (P, x, T)
    b_t = binomial_pmf(t[None, None, :], big_m[None, :, None], pi_t[:, None, None])
    tt = t[None, None, :]
    aa = a[None, :, None]
    inner = binomial_cdf(tt - aa, tt, share[:, None, None]) - binomial_cdf(aa - 1, tt, share[:, None, None])
    inner = np.where((tt >= 2 * aa) & (tt <= big_m[None, :, None]), inner, 0.0)
    out[live] = np.einsum("px,pxt,pxt->p", b_x, b_t, inner)
    return out


def _mixture_difference_pmf(weights, p_a, p_b, m: int) -> np.ndarray:
    """``Σ_c w_c · P(A − B = d | p_a[c], p_b[c])`` over ``d = −m, …, m``
    (each component by :func:`rocci.compare.difference_pmf`)."""
    out = np.zeros(2 * m + 1)
    for w, pa, pb in zip(weights, p_a, p_b):
        d, pmf = difference_pmf(m, float(pa), float(pb))
        out[d + m] += w * pmf
    return out


def _stable_rank_desc(x: np.ndarray) -> np.ndarray:
    order = np.argsort(-x, kind="stable")
    rank = np.empty(x.size, dtype=np.int64)
    rank[order] = np.arange(1, x.size + 1)
    return rank


class _PairedData:
    """Sorted and ranked scores of both models, shared by every FPR level."""

    def __init__(self, pos_a, pos_b, neg_a, neg_b, m_pos: int, m_neg: int):
        self.pos_a, self.pos_b = pos_a, pos_b
        self.n_pos, self.n_neg = pos_a.size, neg_a.size
        self.m_pos, self.m_neg = m_pos, m_neg
        self.rank_a, self.rank_b = _stable_rank_desc(neg_a), _stable_rank_desc(neg_b)
        self.s_a_desc, self.s_b_desc = np.sort(neg_a)[::-1], np.sort(neg_b)[::-1]
        self.sorted_pos_a, self.sorted_pos_b = np.sort(pos_a), np.sort(pos_b)

    def level(self, r: int) -> dict:
        """Exact law of ``m+·ΔTPR*`` at level ``r`` (any ``1 <= r <= m−``)."""
        n_pos, n_neg, m_pos, m_neg = self.n_pos, self.n_neg, self.m_pos, self.m_neg
        k_win, _, _ = order_statistic_law(r, m_neg, n_neg)
        grid = np.arange(k_win[0] - 1, k_win[-1] + 1)  # one extra row/column below the window
        overlap = joint_ge_counts(-self.rank_a, -self.rank_b, -grid.astype(float), -grid.astype(float))
        kk, jj = np.meshgrid(grid, grid, indexing="ij")
        big_f = _joint_cdf(kk.ravel(), jj.ravel(), overlap.ravel(), n_neg, m_neg, r).reshape(kk.shape)
        f = big_f[1:, 1:] - big_f[:-1, 1:] - big_f[1:, :-1] + big_f[:-1, :-1]
        f = np.clip(f, 0.0, None)  # rounding can leave -1e-17 where the mass is zero

        t_a, t_b = self.s_a_desc[k_win - 1], self.s_b_desc[k_win - 1]
        both = joint_ge_counts(self.pos_a, self.pos_b, t_a, t_b)
        ge_a = n_pos - np.searchsorted(self.sorted_pos_a, t_a, side="left")
        ge_b = n_pos - np.searchsorted(self.sorted_pos_b, t_b, side="left")
        n_a = ge_a[:, None] - both
        n_b = ge_b[None, :] - both
        keep = f > 0
        pairs = np.stack([n_a[keep], n_b[keep]], axis=1)
        uniq, inverse = np.unique(pairs, axis=0, return_inverse=True)
        weights = np.bincount(inverse.ravel(), weights=f[keep], minlength=uniq.shape[0])
        p_a, p_b = uniq[:, 0] / n_pos, uniq[:, 1] / n_pos
        total = weights.sum()
        delta = p_a - p_b
        mean = float(weights @ delta / total)
        var = float(weights @ ((delta - mean) ** 2 + (p_a + p_b - delta**2) / m_pos) / total)
        return {
            "d": np.arange(-m_pos, m_pos + 1),
            "pmf": _mixture_difference_pmf(weights, p_a, p_b, m_pos),
            "mean": mean,
            "std": float(np.sqrt(max(var, 0.0))),
            "trunc": max(0.0, 1.0 - float(f.sum())),
            "joint": (k_win, k_win, f),
        }


def compare_vertical(y_true, score_a, score_b, *, fpr, pos_label=None, confidence_level=0.95,
                     m=None, method="percentile", progress=None) -> VerticalComparison:
    """Exact bootstrap law of the TPR difference at fixed FPR levels (paired design).

    Parameters
    ----------
    y_true : array_like of shape (n,)
    score_a, score_b : array_like of shape (n,)
        Two models' scores of the same instances.
    fpr : array_like
        False positive rates, mapped to levels ``r/m−`` as in :func:`rocci.vertical_ci`.
    pos_label : object, optional
    confidence_level : float, default 0.95
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``.
    method : {"percentile"}
        Interval from the quantiles of the exact law.
    progress : callable, optional
        ``progress(fraction, message)`` is called as the work advances
        (``fraction`` in [0, 1]), e.g. to drive a progress bar.

    Returns
    -------
    VerticalComparison
        ``delta = a − b``; ``p_a_better = P(ΔTPR* > 0)``, ``p_tie = P(ΔTPR* = 0)``.

    Notes
    -----
    The direct computation of ``F(k, j)`` costs O(m−²) per pair of ranks in
    the window, which is practical up to a few hundred negatives.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, ("percentile",))
    mask, _ = check_labels(y_true, pos_label)
    sa = check_scores(score_a, name="score_a", n=mask.size)
    sb = check_scores(score_b, name="score_b", n=mask.size)
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    r_levels = fpr_levels(fpr, m_neg)
    alpha = 1.0 - level

    ctx = _PairedData(sa[mask], sb[mask], sa[~mask], sb[~mask], m_pos, m_neg)
    keys = ("mean", "std", "low", "high", "better", "tie", "trunc")
    out = {key: np.empty(r_levels.size) for key in keys}
    laws, joints = [], []
    for i, r in enumerate(r_levels):
        if progress is not None:
            progress(i / r_levels.size, f"FPR level {i + 1} of {r_levels.size}")
        lv = ctx.level(int(r))
        out["trunc"][i], out["mean"][i], out["std"][i] = lv["trunc"], lv["mean"], lv["std"]
        d, pmf = lv["d"], lv["pmf"]
        cdf = np.cumsum(pmf)
        out["low"][i] = d[np.argmax(cdf >= alpha / 2 - QUANTILE_TOL)] / m_pos
        out["high"][i] = d[np.argmax(cdf >= 1 - alpha / 2 - QUANTILE_TOL)] / m_pos
        out["better"][i] = float(pmf[d > 0].sum())
        out["tie"][i] = float(pmf[d == 0].sum())
        laws.append((d, pmf))
        joints.append(lv["joint"])

    if progress is not None:
        progress(1.0, "done")
    return VerticalComparison(
        fpr=r_levels / m_neg,
        r=r_levels,
        delta_tpr_mean=out["mean"],
        delta_tpr_std=out["std"],
        delta_tpr_low=out["low"],
        delta_tpr_high=out["high"],
        p_a_better=out["better"],
        p_tie=out["tie"],
        truncated_mass=out["trunc"],
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
        confidence_level=level,
        _laws=laws,
        _joint=joints,
    )
