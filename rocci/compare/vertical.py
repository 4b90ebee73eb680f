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

Computing ``F`` from the formula above for every pair of the window is the
thesis's O(n⁴) route; it is kept as the reference (``route="direct"``).

The default route (``"series"``) uses two facts.

1. ``(N1_k, N2_j)`` is a sum of ``m−`` independent pairs of Bernoulli variables
   (each draw falls in model 1's top ``k``, in model 2's top ``j``), i.e. a
   bivariate binomial with margins ``α = k/n−``, ``β = j/n−`` and correlation
   ``ρ = (c/n− − αβ)/√(α(1−α)β(1−β))``.  Its Lancaster (Krawtchouk) expansion,
   the discrete analogue of the tetrachoric series, gives

   ``F(k, j) = Σ_(ℓ>=0) ρ^ℓ a_ℓ(α) a_ℓ(β)``,

   ``a_0(x) = P(Bin(m−, x) >= r)`` and ``a_ℓ`` the normalised Taylor
   coefficients of ``t ↦ a_0(x + t√(x(1−x)))``, given by the three-term
   recurrence of the Krawtchouk polynomials at ``r − 1``
   (:func:`_rank_tail_coefficients`).  Bessel's inequality bounds the terms
   left out by ``|ρ|^(L+1) √(a_0(1−a_0)(α) a_0(1−a_0)(β))``, checked for every
   pair (:func:`_joint_cdf_series`).
2. The law of ΔTPR* given ``(K, J)`` depends only on the cells of positives at
   the two thresholds, which change only where a positive's score lies
   between consecutive negatives' scores.  Ranks are grouped in blocks with
   the same count of positives above the threshold, and ``F`` is needed only
   at the blocks' corners: ``P(K ∈ block, J ∈ block')`` is a double difference.

So a level costs O(B_a·B_b·L) for ``B`` blocks (at most the window's
O(√r·n−/m−) ranks) and ``L ≈ 46/|log ρ|`` terms, plus the mixture of the ΔTPR
laws, summed through their characteristic functions at the few frequencies
where each matters (:func:`_difference_mixture_pmf`).  Pairs with ``ρ`` near 1
(two top sets that nearly coincide: strongly correlated or near-identical
models, where the series would need thousands of terms, or small ``r``, where
its recurrence is stable for few) are summed over the few draws in the two
sets' difference instead (:func:`_joint_cdf_disagreement`); when one set lies
inside the other ``F`` is the smaller set's ``P(N >= r)``.  Only if a pair has
neither (no such case is known) does the quadrature route take over: an
integral over the model-1 order statistic (:func:`_joint_threshold_law`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .._core.counts import PairedCounts, joint_ge_counts, paired_input
from .._core.exact import QUANTILE_TOL, order_statistic_law
from .._core.inputs import InputError, check_choice, check_confidence_level, check_m
from .._core.paired_order import (
    _SERIES_EPS,
    _joint_cdf,
    _joint_cdf_series,
    _joint_threshold_law,
    _rank_cdf,
    _stable_rank_desc,
)
from .._core.results import _FrameResult, column
from ..roc.vertical import fpr_levels
from ._common import _check_paired
from ._mixtures import _difference_mixture_pmf, _mixture_difference_pmf

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
        Interval at ``confidence_level``: percentile interval of the exact law,
        or the score interval (``method``).
    p_a_better, p_tie : ndarray
        ``P(ΔTPR* > 0)`` and ``P(ΔTPR* = 0)``.
    truncated_mass : ndarray
        Probability of ``(K, J)`` outside the computed window.
    method : str
        ``"percentile"`` or ``"score"``.
    """

    fpr: np.ndarray = column()
    r: np.ndarray = column()
    delta_tpr_mean: np.ndarray = column()
    delta_tpr_std: np.ndarray = column()
    delta_tpr_low: np.ndarray = column()
    delta_tpr_high: np.ndarray = column()
    p_a_better: np.ndarray = column()
    p_tie: np.ndarray = column()
    truncated_mass: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    confidence_level: float
    method: str = "percentile"
    _laws: list = field(default_factory=list, repr=False)
    _joint: list = field(default_factory=list, repr=False)
    _moments: list = field(default_factory=list, repr=False)  # per level: (mean, between, discordant)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "VerticalComparison":
        """The same comparison with the intervals at another level, or by another method, from the laws kept.

        Each level keeps its exact law of ΔTPR* and the paired moments the score interval is built on:
        nothing is read from the data again, and the result equals :func:`rocci.compare_vertical`'s with
        this ``confidence_level`` and ``method`` (``"score"`` or ``"percentile"``; default: this result's).
        """
        level, method = self._interval_args(confidence_level, method, ("score", "percentile"))
        if not len(self._moments) == len(self._laws) == self.r.size:
            raise InputError("This VerticalComparison keeps no moments to recompute its intervals from: call "
                             "rocci.compare_vertical(..., confidence_level=...) again.")
        low, high = np.empty(len(self._laws)), np.empty(len(self._laws))
        for i, ((d, pmf), moments) in enumerate(zip(self._laws, self._moments)):
            low[i], high[i] = _level_bounds(method, 1.0 - level, d, pmf, moments, self.n_pos, self.m_pos)
        return dataclasses.replace(self, delta_tpr_low=low, delta_tpr_high=high, method=method,
                                   confidence_level=level)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ΔTPR* at the ``i``-th level: values ``d/m+``, ``d = −m+…m+`` (from a
        :class:`~rocci.PairedCounts` with ``m+`` above 10⁶: the window of ``d`` that holds the law)."""
        d, probs = self._laws[i]
        return d / self.m_pos, probs

    def joint_threshold_law(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(k, j, f)``: ranks of the window and ``f[k, j] = P(K = k, J = j)``.

        Computed on first use (:func:`compare_vertical` itself needs it only
        block by block), then kept.  Per rank, so from a
        :class:`~rocci.PairedCounts` it is computed on the table's instances
        (the table expanded, positives first).
        """
        if isinstance(self._joint[i], _LazyJoint):
            self._joint[i] = self._joint[i]()
        return self._joint[i]


class _LazyJoint:
    """The cell-by-cell joint law of one level, computed when asked for."""

    def __init__(self, ctx: "_PairedData", r: int):
        self.ctx, self.r = ctx, r

    def __call__(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.ctx.level(self.r, joint=True)["joint"]


# ---------------------------------------------------------------------------
# Fast route: order-statistic embedding and Gauss–Legendre quadrature
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Series route: the Lancaster (Krawtchouk) expansion of the bivariate binomial
# ---------------------------------------------------------------------------


class _PairedData:
    """Sorted and ranked scores of both models, shared by every FPR level."""

    def __init__(self, pos_a, pos_b, neg_a, neg_b, m_pos: int, m_neg: int):
        self.pos_a, self.pos_b = pos_a, pos_b
        self.n_pos, self.n_neg = pos_a.size, neg_a.size
        self.m_pos, self.m_neg = m_pos, m_neg
        self.rank_a, self.rank_b = _stable_rank_desc(neg_a), _stable_rank_desc(neg_b)
        self.s_a_desc, self.s_b_desc = np.sort(neg_a)[::-1], np.sort(neg_b)[::-1]
        self.sorted_pos_a, self.sorted_pos_b = np.sort(pos_a), np.sort(pos_b)
        # rank_b_by_rank_a[i − 1]: model-2 rank of the negative with model-1 rank i.
        self.rank_b_by_rank_a = self.rank_b[np.argsort(self.rank_a)]

    def _series_blocks(self, r: int, k_win: np.ndarray, p_k: np.ndarray, ends_a: np.ndarray, ends_b: np.ndarray):
        """``P(K ∈ block a, J ∈ block b)`` by the series route, or None where it does not apply.

        Blocks are runs of the window ``k_win`` ending at the indices
        ``ends_a`` (rows) and ``ends_b`` (columns).  ``F`` is needed only at the
        blocks' corners: ``P(K ∈ (k₀, k₁], J ∈ (j₀, j₁]) = P(K ∈ (k₀, k₁]) P(J ∈ (j₀, j₁]) + ΔΔG``
        with ``G = F − P(K <= k) P(J <= j)`` from :func:`_joint_cdf_series`
        (the product term from the exact marginal law of ``K``, no cancellation).
        """
        corners_a = np.r_[k_win[0] - 1, k_win[ends_a]].astype(float)
        corners_b = np.r_[k_win[0] - 1, k_win[ends_b]].astype(float)
        overlap = joint_ge_counts(-self.rank_a, -self.rank_b, -corners_a, -corners_b)
        g = _joint_cdf_series(corners_a, corners_b, overlap.astype(float), self.n_neg, self.m_neg, r)
        if g is None:
            return None
        block_a = np.add.reduceat(p_k, np.r_[0, ends_a[:-1] + 1])
        block_b = np.add.reduceat(p_k, np.r_[0, ends_b[:-1] + 1])
        w = np.outer(block_a, block_b) + (g[1:, 1:] - g[:-1, 1:] - g[1:, :-1] + g[:-1, :-1])
        # Where one top set lies inside the other at all four corners of a block, F there is one
        # model's P(N >= r) at both of its ranks and the block's mass is exactly 0 (rounding would
        # leave 1e-16, which shows in the sd when ΔTPR* is otherwise 0, e.g. identical rankings).
        for inside in (overlap == corners_a[:, None], overlap == corners_b[None, :]):
            w[inside[1:, 1:] & inside[:-1, 1:] & inside[1:, :-1] & inside[:-1, :-1]] = 0.0
        return np.clip(w, 0.0, None)  # rounding can leave -1e-17 where the mass is zero

    def level(self, r: int, *, route: str = "auto", joint: bool = True, tick=None) -> dict:
        """Exact law of ``m+·ΔTPR*`` at level ``r`` (any ``1 <= r <= m−``).

        Routes for the joint law of the two thresholds' ranks ``(K, J)``:

        * ``"series"``: the Lancaster series (:func:`_joint_cdf_series`, with
          the sum over the sets' difference where ``ρ`` is near 1), only at
          the corners of the blocks of ranks that give the same pair of cells
          of positives (and the same ΔTPR law), O(blocks²·terms);
        * ``"quadrature"``: the integral over the model-1 order statistic
          (:func:`_joint_threshold_law`), every cell, O(n−^1.5) per row;
        * ``"direct"``: the multinomial formula of the module docstring
          (O(m−²) per pair of ranks), the reference;
        * ``"auto"`` (default): the series, else the quadrature.

        The mixture of ΔTPR laws is summed by :func:`_difference_mixture_pmf`
        (``"direct"``: one exact difference law per component).  The routes
        agree to ~1e-14 (tests).  ``joint=False`` skips the cell-by-cell joint
        law when the series route runs (``"joint"`` is then None).
        """
        check_choice("route", route, ("auto", "series", "quadrature", "direct"))
        n_pos, n_neg, m_pos, m_neg = self.n_pos, self.n_neg, self.m_pos, self.m_neg
        k_win, p_k, _ = order_statistic_law(r, m_neg, n_neg)
        t_a, t_b = self.s_a_desc[k_win - 1], self.s_b_desc[k_win - 1]
        ge_a = n_pos - np.searchsorted(self.sorted_pos_a, t_a, side="left")
        ge_b = n_pos - np.searchsorted(self.sorted_pos_b, t_b, side="left")
        cells = np.arange(k_win.size)
        w = None
        if route in ("auto", "series"):
            # Ranks with the same count of positives above the threshold give the same
            # cells of positives: only the corners of those runs are needed.
            ends_a = cells if joint else np.flatnonzero(np.r_[ge_a[1:] != ge_a[:-1], True])
            ends_b = cells if joint else np.flatnonzero(np.r_[ge_b[1:] != ge_b[:-1], True])
            w = self._series_blocks(r, k_win, p_k, ends_a, ends_b)
            if w is None and route == "series":
                raise ValueError(f"the series route does not reach {_SERIES_EPS:g} at r = {r}")
            if tick is not None:
                tick(0.5)
        if w is None:
            ends_a = ends_b = cells
            if route == "direct":
                grid = np.arange(k_win[0] - 1, k_win[-1] + 1)  # one extra row/column below the window
                overlap = joint_ge_counts(-self.rank_a, -self.rank_b, -grid.astype(float), -grid.astype(float))
                kk, jj = np.meshgrid(grid, grid, indexing="ij")
                big_f = _joint_cdf(kk.ravel(), jj.ravel(), overlap.ravel(), n_neg, m_neg, r).reshape(kk.shape)
                w = big_f[1:, 1:] - big_f[:-1, 1:] - big_f[1:, :-1] + big_f[:-1, :-1]
                w = np.clip(w, 0.0, None)  # rounding can leave -1e-17 where the mass is zero
            else:
                w = _joint_threshold_law(self.rank_b_by_rank_a, n_neg, m_neg, r, k_win, tick=tick)

        both = joint_ge_counts(self.pos_a, self.pos_b, t_a[ends_a], t_b[ends_b])
        full = ends_a.size == k_win.size and ends_b.size == k_win.size
        out = _mixture_of_cells(w, ge_a[ends_a][:, None] - both, ge_b[ends_b][None, :] - both, n_pos, m_pos,
                                direct=route == "direct")
        out["joint"] = (k_win, k_win, w) if full else None
        return out


#: Largest ``m+`` whose law :func:`compare_vertical` keeps on its whole support ``−m+ … m+``; beyond
#: (a table of counts standing for more instances), on the window that holds it.
_FULL_SUPPORT = 10**6


def _mixture_of_cells(w, n_a, n_b, n_pos: int, m_pos: int, *, direct: bool = False, window: bool = False) -> dict:
    """The law of ``m+·ΔTPR*`` from the joint law ``w`` of the blocks of the two thresholds' ranks and the
    positives' paired cells ``n_a``, ``n_b`` of each pair of blocks (arrays of the same shape).

    ``(A, B) ~ Multinomial(m+; n_a/n+, n_b/n+)`` given the blocks: the mixture over them (each distinct
    pair of cells once, its weight summed) by :func:`_difference_mixture_pmf` (``direct``: one
    :func:`rocci.compare.difference_pmf` per component), and the exact moments
    ``E = Σ w·δ``, ``Var = Σ w·[(δ − E)² + (γ − δ²)/m+]`` (``δ = p_a − p_b``, ``γ = p_a + p_b``).
    The law is returned on ``−m+ … m+``, or (``window``) on the window that holds it.
    """
    keep = w > 0
    keys, inverse = np.unique(n_a[keep] * (n_pos + 1) + n_b[keep], return_inverse=True)
    weights = np.bincount(inverse.ravel(), weights=w[keep], minlength=keys.size)
    uniq = np.stack([keys // (n_pos + 1), keys % (n_pos + 1)], axis=1)
    p_a, p_b = uniq[:, 0] / n_pos, uniq[:, 1] / n_pos
    total = weights.sum()
    delta = p_a - p_b
    mean = float(weights @ delta / total)
    between = float(weights @ (delta - mean) ** 2 / total)  # variance of p_a − p_b over (K, J)
    discordant = float(weights @ (p_a + p_b) / total)  # mean of p_a + p_b over (K, J)
    var = float(weights @ ((delta - mean) ** 2 + (p_a + p_b - delta**2) / m_pos) / total)
    if direct:
        d, pmf = np.arange(-m_pos, m_pos + 1), _mixture_difference_pmf(weights, p_a, p_b, m_pos)
    else:
        d_win, pmf_win = _difference_mixture_pmf(weights, uniq[:, 0].astype(float), uniq[:, 1].astype(float),
                                                 n_pos, m_pos)
        pmf_win = np.maximum(pmf_win, 0.0)  # FFT round-off leaves ±1e-17 where the law is 0
        if window:
            d, pmf = d_win, pmf_win
        else:
            d = np.arange(-m_pos, m_pos + 1)
            pmf = np.zeros(d.size)
            pmf[d_win + m_pos] = pmf_win
    return {
        "d": d,
        "pmf": pmf,
        "mean": mean,
        "std": float(np.sqrt(max(var, 0.0))),
        "between": between,
        "discordant": discordant,
        "trunc": max(0.0, 1.0 - float(w.sum())),
    }


class _TablePairedData:
    """:class:`_PairedData` for a :class:`~rocci.PairedCounts` table, which is never expanded.

    The law of ``ΔTPR*`` depends on the data through three things, all
    available from the table: the negatives' scores at the ranks of each
    model (its margin's cumulative counts, :meth:`rocci.ScoreCounts.neg_at_rank`),
    the number of negatives in the overlap of two top sets, and the
    positives' paired cells at two thresholds (weighted 2-D histograms of
    the pair rows, :func:`rocci._core.counts.joint_ge_counts`).  Ranks are taken in
    blocks that leave the positives' cells unchanged, as the series route of
    :class:`_PairedData` does; every block boundary inside the window of
    ``K`` is the end of a run of tied negative scores, and the two boundaries
    at the window's ends are moved out to the ends of their runs.  The top
    sets are then sets of scores (``a >= v``), so their overlaps are counts of
    the table, the same whichever order tied negatives would be ranked in;
    the blocks' marginal masses are ``P(K <= k)`` at their ends (incomplete
    beta functions).  The results equal the raw data's up to round-off and
    the mass outside the window (the window here holds at least the raw
    data's: whole runs).  O(rows + window) per level, whatever the number of
    instances.
    """

    def __init__(self, table, m_pos: int, m_neg: int):
        self.table = table
        self.margin_a, self.margin_b = table.model(0), table.model(1)
        p, q = table.n_pos > 0, table.n_neg > 0
        self.pos = (table.score_a[p], table.score_b[p], table.n_pos[p])
        self.neg = (table.score_a[q], table.score_b[q], table.n_neg[q])
        self.n_pos, self.n_neg = self.margin_a.n_pos, self.margin_a.n_neg
        self.m_pos, self.m_neg = m_pos, m_neg
        self._raw = None

    def _expanded(self) -> "_PairedData":
        """The raw route on the table's instances (expanded: only for what has no table route)."""
        if self._raw is None:
            y, a, b = self.table.arrays()
            self._raw = _PairedData(a[y], b[y], a[~y], b[~y], self.m_pos, self.m_neg)
        return self._raw

    def level(self, r: int, *, route: str = "auto", joint: bool = True, tick=None) -> dict:
        """:meth:`_PairedData.level` on the table: the series route by blocks of ranks (``joint=False``,
        ``route="auto"``); the cell-by-cell joint law and the other routes need the instances (the table is
        expanded to them)."""
        if joint or route != "auto":
            return self._expanded().level(r, route=route, joint=joint, tick=tick)
        n_pos, n_neg, m_pos, m_neg = self.n_pos, self.n_neg, self.m_pos, self.m_neg
        k_win, _, _ = order_statistic_law(r, m_neg, n_neg)
        t_a, t_b = self.margin_a.neg_at_rank(k_win), self.margin_b.neg_at_rank(k_win)
        ge_a, ge_b = self.margin_a.n_pos_ge(t_a), self.margin_b.n_pos_ge(t_b)
        # Blocks of ranks with the same positives above the threshold: they end where that count changes
        # (a change of the negatives' score, so at the end of a run of ties) and at the window's end.
        ends_a = np.flatnonzero(np.r_[ge_a[1:] != ge_a[:-1], True])
        ends_b = np.flatnonzero(np.r_[ge_b[1:] != ge_b[:-1], True])
        # Each block's top set is {negatives with score >= v}: v the threshold of its last rank, and below
        # the first block the negatives scoring strictly above the window's first threshold.
        top_a = np.r_[np.nextafter(t_a[0], np.inf), t_a[ends_a]]
        top_b = np.r_[np.nextafter(t_b[0], np.inf), t_b[ends_b]]
        corners_a = self.margin_a.n_neg_ge(top_a).astype(np.int64)
        corners_b = self.margin_b.n_neg_ge(top_b).astype(np.int64)
        overlap = joint_ge_counts(*self.neg[:2], top_a, top_b, self.neg[2])
        g = _joint_cdf_series(corners_a.astype(float), corners_b.astype(float), overlap.astype(float),
                              n_neg, m_neg, r)
        if g is None:  # no known case: the quadrature route, on the instances
            return self._expanded().level(r, route="auto", joint=False, tick=tick)
        if tick is not None:
            tick(0.5)
        block = []
        for corners in (corners_a, corners_b):
            cdf, surv = _rank_cdf(corners, r, m_neg, n_neg)
            block.append(np.where(cdf[:-1] < 0.5, np.diff(cdf), -np.diff(surv)))
        w = np.outer(block[0], block[1]) + (g[1:, 1:] - g[:-1, 1:] - g[1:, :-1] + g[:-1, :-1])
        # One top set inside the other at the four corners of a block: its mass is exactly 0 (as in
        # _PairedData._series_blocks).
        for inside in (overlap == corners_a[:, None], overlap == corners_b[None, :]):
            w[inside[1:, 1:] & inside[:-1, 1:] & inside[1:, :-1] & inside[:-1, :-1]] = 0.0
        w = np.clip(w, 0.0, None)
        both = joint_ge_counts(*self.pos[:2], t_a[ends_a], t_b[ends_b], self.pos[2])
        out = _mixture_of_cells(w, ge_a[ends_a][:, None] - both, ge_b[ends_b][None, :] - both, n_pos, m_pos,
                                window=m_pos > _FULL_SUPPORT)
        out["joint"] = None
        return out


def _score_bounds(mean: float, between: float, discordant: float, n_pos: int, m_pos: int, alpha: float):
    """Score interval for ΔTPR from the exact paired moments (:func:`compare_vertical`, Notes)."""
    z = float(special.ndtri(1.0 - alpha / 2.0))
    k = z * z / m_pos
    gamma = (n_pos * discordant + 2.0) / (n_pos + 4.0)
    spread = between * (1.0 - 1.0 / m_pos) + gamma / m_pos
    half = z * np.sqrt(max(spread * (1.0 + k) - mean * mean / m_pos, 0.0))
    return float(np.clip((mean - half) / (1.0 + k), -1.0, 1.0)), float(np.clip((mean + half) / (1.0 + k), -1.0, 1.0))


def _level_bounds(method: str, alpha: float, d, pmf, moments, n_pos: int, m_pos: int) -> tuple[float, float]:
    """One level's bounds: percentile of the exact law ``(d, pmf)`` (values ``d/m+``), or the score interval
    of its moments ``(mean, between, discordant)``."""
    if method == "percentile":
        cdf = np.cumsum(pmf)
        return (d[np.argmax(cdf >= alpha / 2 - QUANTILE_TOL)] / m_pos,
                d[np.argmax(cdf >= 1 - alpha / 2 - QUANTILE_TOL)] / m_pos)
    return _score_bounds(*moments, n_pos, m_pos, alpha)


def _level_ticker(progress, i: int, levels: int, message: str):
    """``tick(done)`` reporting progress within the ``i``-th of ``levels`` levels."""
    def tick(done: float) -> None:
        progress((i + 0.95 * done) / levels, message)
    return tick


def compare_vertical(y_true, score_a=None, score_b=None, *, fpr, pos_label=None, confidence_level=0.95,
                     m=None, method="score", progress=None) -> VerticalComparison:
    """Exact bootstrap law of the TPR difference at fixed FPR levels (paired design).

    Parameters
    ----------
    y_true : array_like of shape (n,), or PairedCounts
        Labels; or a :class:`~rocci.PairedCounts` (leave the scores out),
        which is never expanded: the law depends on the data only through
        each model's negative scores at given ranks (the margins' cumulative
        counts), the overlaps of the two models' top sets of negatives and the
        positives' paired cells at two thresholds (weighted 2-D histograms of
        the pair rows); the ranks are taken in blocks of whole runs of tied
        scores, so the top sets are sets of scores and no order of tied
        instances is needed (:class:`_TablePairedData`).  The results equal
        the raw data's to round-off (~1e-16), in O(pair rows + window) time
        and memory per level, whatever the number of instances.
    score_a, score_b : array_like of shape (n,)
        Two models' scores of the same instances.
    fpr : array_like
        False positive rates, mapped to levels ``r/m−`` as in :func:`rocci.vertical_ci`.
    pos_label : object, optional
    confidence_level : float, default 0.95
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``.
    method : {"score", "percentile"}
        ``"score"`` (default since 0.2.0, as for :func:`rocci.vertical_ci`): a
        score interval on the exact paired moments (see Notes).
        ``"percentile"``: the quantiles of the exact law.  Where both
        models find (almost) every positive at the level, the law is a point
        mass at 0 and the interval ``[0, 0]`` has zero width and under-covers
        (Coverage lab, thesis figure 4.9; ``docs/coverage.md``); the dashboard
        flags it.  The score interval keeps a positive width there.  In the Coverage
        lab's two-model setting (thesis fig. 4.9: n = 100 per class, 90%
        target, θ ∈ {1, 3, 5}, ρ ∈ {.3, .9}, shifts {0, 2}, 200 test sets each)
        the score interval covered 0.93–1.00 at every FPR from 0.1 to 0.9;
        the percentile interval fell to 0.04–0.55 where both TPRs are near 1
        and the models differ (θ = 5, FPR >= 0.5; θ = 3, FPR 0.9) and
        matched the score interval elsewhere.  Near TPR = 1 the score
        interval is conservative (coverage 1, width about 0.05 at n = 100).
    progress : callable, optional
        ``progress(fraction, message)`` is called as the work advances
        (``fraction`` in [0, 1]), e.g. to drive a progress bar.

    Returns
    -------
    VerticalComparison
        ``delta = a − b``; ``p_a_better = P(ΔTPR* > 0)``, ``p_tie = P(ΔTPR* = 0)``.

    Notes
    -----
    The score interval extends the paired score interval at fixed thresholds
    (thesis eq. 4.8–4.9, :func:`rocci.compare.paired_score_interval`) to
    thresholds drawn with the negatives.  With ``δ_kj = p_a − p_b`` and
    ``γ_kj = p_a + p_b`` the positives' cell shares at the thresholds of ranks
    ``(k, j)``, the exact law gives ``δ̄ = E[δ_KJ]`` (the mean of ΔTPR*), the
    between-threshold variance ``V_b = Var(δ_KJ)`` and ``Var ΔTPR* =
    V_b(1 − 1/m+) + (E[γ_KJ] − δ̄²)/m+``.  The bounds solve

    ``(δ̄ − δ)² = z² [V_b(1 − 1/m+) + (γ̃ − δ²)/m+]``,
    ``δ = [δ̄ ± z √(S(1 + z²/m+) − δ̄²/m+)] / (1 + z²/m+)``,
    ``S = V_b(1 − 1/m+) + γ̃/m+``,

    with ``γ̃ = (n+·E[γ_KJ] + 2)/(n+ + 4)`` smoothed as in eq. 4.9 (so the
    width stays positive where no positive falls in a discordant cell), and
    clipped to [−1, 1].  With ``V_b = 0`` it is eq. 4.8.

    The thesis's direct formula costs O(m−²) for each of the O(m−) pairs of
    ranks ``(k, j)`` of the two thresholds in the window, O(n⁴) in all when
    ``m− = n−``.  Here (module docstring) the joint law of the ranks comes
    from the Lancaster series of the bivariate binomial
    ``(N1_k, N2_j)`` (``N1_k``, ``N2_j``: draws among each model's top ``k``,
    ``j`` negatives; correlation ``ρ`` from their overlap)

    ``P(K <= k, J <= j) = P(N1_k >= r, N2_j >= r) = Σ_ℓ ρ^ℓ a_ℓ(k/n−) a_ℓ(j/n−)``,

    with ``a_ℓ`` from the Krawtchouk recurrence, cut where Bessel's
    inequality bounds the rest by 1e-20.  Pairs with ``ρ`` near 1 (top sets
    that nearly coincide) are summed instead over the few draws in the two
    sets' difference, nested sets in closed form.  ``F`` is evaluated only at
    the corners of the blocks of ranks that leave the positives' paired cells
    unchanged, and the mixture of ΔTPR laws is summed through their
    characteristic functions, each at the few frequencies where it exceeds
    1e-20.  The former default, a quadrature over the model-1 order statistic,
    remains as a fallback.  All routes equal the direct formula to ~1e-13
    (tests), with the probability left outside the windows reported in
    ``truncated_mass`` (below 1e-13).  At n = 10⁴ a level takes 0.02–0.5 s on
    two shared cores, about 50 to 2,000 times one ``numpy.argsort`` of the
    scores
    (``bench/bench_vertical_paired.py``).
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, ("percentile", "score"))
    if isinstance(y_true, PairedCounts):  # a table stays a table (_TablePairedData)
        if score_a is not None or score_b is not None:
            paired_input(y_true, score_a, score_b, pos_label)  # its message
        n_pos, n_neg = int(y_true.n_pos.sum()), int(y_true.n_neg.sum())
        m_pos, m_neg = check_m(m, n_pos, n_neg)
        ctx = _TablePairedData(y_true, m_pos, m_neg)
    else:
        mask, sa, sb, _ = _check_paired(y_true, score_a, score_b, pos_label)
        n_pos, n_neg = int(mask.sum()), int((~mask).sum())
        m_pos, m_neg = check_m(m, n_pos, n_neg)
        ctx = _PairedData(sa[mask], sb[mask], sa[~mask], sb[~mask], m_pos, m_neg)
    r_levels = fpr_levels(fpr, m_neg)
    alpha = 1.0 - level

    keys = ("mean", "std", "low", "high", "better", "tie", "trunc")
    out = {key: np.empty(r_levels.size) for key in keys}
    laws, joints, moments = [], [], []
    for i, r in enumerate(r_levels):
        tick = None
        if progress is not None:
            message = f"FPR level {i + 1} of {r_levels.size} (r = {int(r)})"
            progress(i / r_levels.size, message)
            tick = _level_ticker(progress, i, r_levels.size, message)
        lv = ctx.level(int(r), joint=False, tick=tick)
        out["trunc"][i], out["mean"][i], out["std"][i] = lv["trunc"], lv["mean"], lv["std"]
        d, pmf = lv["d"], lv["pmf"]
        moments.append((lv["mean"], lv["between"], lv["discordant"]))
        out["low"][i], out["high"][i] = _level_bounds(method, alpha, d, pmf, moments[-1], n_pos, m_pos)
        out["better"][i] = min(1.0, float(pmf[d > 0].sum()))  # round-off can pass 1 by 1e-14
        out["tie"][i] = min(1.0, float(pmf[d == 0].sum()))
        laws.append((d, pmf))
        joints.append(lv["joint"] if lv["joint"] is not None else _LazyJoint(ctx, int(r)))

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
        method=method,
        _laws=laws,
        _joint=joints,
        _moments=moments,
    )
