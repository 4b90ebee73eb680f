"""Two models' precision (or F1) at a recall level: the paired law by blocks of ranks and the Lancaster
series of the negatives' counts (issue 14, part 3; issue 16: tables of counts are never expanded).

At level ``r/m+`` both thresholds come from one bootstrap sample of positives: ``T^a = s^a_(K)`` and
``T^b = s^b_(J)``, each model's r-th largest positive drawn.  Given ``(K, J)``, the negatives drawn above
the thresholds ``(FP*_a, FP*_b)`` are a bivariate binomial: ``m−`` independent draws, each above A's
threshold with probability ``α = n_a/n−``, above B's with ``β = n_b/n−`` and above both with ``c/n−``
(``n_a, n_b, c`` counts of negatives).  Its Lancaster (Krawtchouk) expansion is

``P(FP*_a = u, FP*_b = v) = Σ_(ℓ=0..m−) ρ^ℓ φ_ℓ(u; α) φ_ℓ(v; β)``,
``φ_ℓ(u; α) = b(u; m−, α)·k̂_ℓ(u; α)``,  ``ρ = (c/n− − αβ)/√(α(1 − α)β(1 − β))``,

``k̂_ℓ`` the orthonormal Krawtchouk polynomials of ``Bin(m−, α)`` (three-term recurrence).  By
Cauchy–Schwarz and ``Σ_ℓ k̂_ℓ(u)² = 1/b(u)`` the terms after ``L`` change a cell by at most
``|ρ|^(L+1)·√(b(u; α) b(v; β))``.  The law of ``(FP*_a, FP*_b)`` is the mixture over the joint law
``w[K, J]`` of the two thresholds' blocks of ranks (ranks that leave ``n_a`` resp. ``n_b`` unchanged:
:func:`rocci.compare.compare_vertical`'s series route with the classes' roles swapped), so

``P(u, v) = Σ_ℓ Σ_K φ_ℓ(u; α_K) Σ_J (w[K, J] ρ_KJ^ℓ) φ_ℓ(v; β_J) = Σ_ℓ (Φ_ℓᵀ M_ℓ Ψ_ℓ)[u, v]``,

one matrix product per term instead of one two-dimensional law per pair of blocks.  Cost O(L·B·W²) for B
blocks, a window of W counts and L terms (``L ≈ 41/|log ρ|``), against O(B²·W³) for the sum of one joint law
per pair of blocks.  The products run by groups of neighbouring blocks of A (:func:`_series_grid`): each
spans only its blocks' windows of ``u`` and the windows of ``v`` of the blocks of B it pairs with, for the
terms its own pairs need (issue 14).  Each pair's terms come from the smaller of two
bounds of the mass the cut leaves out: ``w·|ρ|^L·Σ√b(u)·Σ√b(v)`` (cell by cell) and ``w·|ρ|^L/(1 − |ρ|)``
(``Σ_u |φ_ℓ(u)| <= 1``).  The windows are the binomials' own 1e-17 tails (:func:`_tight_windows`).

Past a point's stable degree the forward recurrence amplifies round-off (a share ``α`` near 0 or 1:
:func:`rocci.compare.vertical._krawtchouk_stable_degree`); there the values come from the dual recurrence
(the polynomials' self-duality, :meth:`_Krawtchouk.extend`), so small shares — the thresholds at low recall,
or a model with few negatives above its threshold — stay on the series.  Pairs whose series would still need
more terms than :data:`_MAX_TERMS` (``ρ`` near 1: two nearly identical models) are summed cell by cell, all
such pairs at once (:func:`_direct_grid`: the cells of :func:`rocci.precision.paired.bivariate_counts`).

``Δ* = g(FP*_a) − g(FP*_b)`` with ``g(f) = r/(r + f)`` (precision) or ``2r/(r + f + m+)`` (F1).
"""

from __future__ import annotations

import numpy as np

from .._core.inputs import InputError
from .._core.counts import PairedCounts, ScoreCounts, _at_rank, joint_ge_counts
from .._core.exact import binomial_pmf, order_statistic_law
from ._laws import CELL_EPS, Law, bernstein_bounds, window_tails

#: Largest grid of ``(FP*_a, FP*_b)`` cells built for one recall level (≈ 0.5 GB with the work arrays).
MAX_GRID = 16_000_000
#: A pair of blocks' weighted series error allowed (``w·|ρ|^(L+1)·Σ√b·Σ√b``).
_SERIES_EPS = 1e-19
#: Most series terms (pairs needing more are summed cell by cell).
_MAX_TERMS = 600
#: Elements of one stacked chunk of ``Φ_ℓ`` (memory stays near 130 MB).
_CHUNK = 1 << 24
#: Elements of one chunk of rows of the dual recurrence's values (:meth:`_Krawtchouk.extend`, ~40 MB).
_DUAL_CHUNK = 1 << 22
#: Differences closer than this are one value (as paired.py).
_DELTA_ATOL = 1e-14


class PairedClasses:
    """Both models' scores by class as tables of distinct pairs with counts (raw data: one table made by
    ``numpy.unique``; a :class:`~rocci.PairedCounts`: its rows, never expanded)."""

    def __init__(self, pos, neg):
        self.pos, self.neg = pos, neg  # (a, b, counts) each
        self.n_pos, self.n_neg = int(pos[2].sum()), int(neg[2].sum())
        self._margin = {}

    @classmethod
    def from_arrays(cls, pos_a, pos_b, neg_a, neg_b) -> "PairedClasses":
        return cls(_distinct_pairs(pos_a, pos_b), _distinct_pairs(neg_a, neg_b))

    @classmethod
    def from_table(cls, table: PairedCounts) -> "PairedClasses":
        p, q = table.n_pos > 0, table.n_neg > 0
        return cls((table.score_a[p], table.score_b[p], table.n_pos[p]),
                   (table.score_a[q], table.score_b[q], table.n_neg[q]))

    def margin(self, cls: str, which: int) -> ScoreCounts:
        """One class's scores of one model as a table of counts (``n_pos`` = that class's counts)."""
        key = (cls, which)
        if key not in self._margin:
            a, b, w = self.pos if cls == "pos" else self.neg
            s = a if which == 0 else b
            values, inv = np.unique(s, return_inverse=True)
            counts = np.bincount(inv.ravel(), weights=w.astype(np.float64), minlength=values.size)
            self._margin[key] = ScoreCounts._from_table(values, counts.astype(np.int64),
                                                        np.zeros(values.size, np.int64), None)
        return self._margin[key]

    def at_rank(self, which: int, rank) -> np.ndarray:
        """Model ``which``'s ``rank``-th largest positive score (a binary search in the table)."""
        values, _, _, below, _ = self.margin("pos", which)._table
        return _at_rank(values, below[-1] - below[:-1], np.asarray(rank, np.int64))

    def pos_ge(self, which: int, t) -> np.ndarray:
        return self.margin("pos", which).n_pos_ge(t)

    def neg_ge(self, which: int, t) -> np.ndarray:
        return self.margin("neg", which).n_pos_ge(t)


def _distinct_pairs(a, b):
    pairs, counts = np.unique(np.stack([a, b], axis=1), axis=0, return_counts=True)
    return pairs[:, 0].copy(), pairs[:, 1].copy(), counts.astype(np.int64)


def threshold_blocks(data: PairedClasses, r: int, m_pos: int):
    """The joint law of the two thresholds' blocks of ranks at level ``r`` and the negatives' cells.

    As :class:`rocci.compare.vertical._TablePairedData` (classes swapped): ranks of the positives in the
    window of ``K`` are grouped in blocks with the same number of negatives at or above the threshold; each
    block's top set is a set of scores (whole runs of ties), so its overlap with the other model's is a
    count of the table, ``F`` comes from the Lancaster series at the blocks' corners
    (:func:`rocci.compare.vertical._joint_cdf_series`) and ``P(K in block, J in block')`` is a double
    difference.

    Returns ``(w, n_a, n_b, c)``: ``w[i, j]`` the probability of the pair of blocks, ``n_a[i]``, ``n_b[j]``
    the negatives at or above each block's threshold and ``c[i, j]`` those above both; or None where the
    series does not apply (no known case).
    """
    from .._core.paired_order import _joint_cdf_series, _rank_cdf

    n_pos = data.n_pos
    k_win, _, _ = order_statistic_law(r, m_pos, n_pos)
    t_a, t_b = data.at_rank(0, k_win), data.at_rank(1, k_win)
    ge_a, ge_b = data.neg_ge(0, t_a), data.neg_ge(1, t_b)
    ends_a = np.flatnonzero(np.r_[ge_a[1:] != ge_a[:-1], True])
    ends_b = np.flatnonzero(np.r_[ge_b[1:] != ge_b[:-1], True])
    top_a = np.r_[np.nextafter(t_a[0], np.inf), t_a[ends_a]]
    top_b = np.r_[np.nextafter(t_b[0], np.inf), t_b[ends_b]]
    corners_a = data.pos_ge(0, top_a).astype(np.int64)
    corners_b = data.pos_ge(1, top_b).astype(np.int64)
    overlap = joint_ge_counts(*data.pos[:2], top_a, top_b, data.pos[2])
    g = _joint_cdf_series(corners_a.astype(float), corners_b.astype(float), overlap.astype(float), n_pos, m_pos, r)
    if g is None:  # (no known case with untied scores) the quadrature over the ranks, on the positives expanded
        return _rank_blocks(data, r, m_pos, k_win, t_a, t_b, ge_a, ge_b)
    block = []
    for corners in (corners_a, corners_b):
        cdf, surv = _rank_cdf(corners, r, m_pos, n_pos)
        block.append(np.where(cdf[:-1] < 0.5, np.diff(cdf), -np.diff(surv)))
    w = np.outer(block[0], block[1]) + (g[1:, 1:] - g[:-1, 1:] - g[1:, :-1] + g[:-1, :-1])
    for inside in (overlap == corners_a[:, None], overlap == corners_b[None, :]):
        w[inside[1:, 1:] & inside[:-1, 1:] & inside[1:, :-1] & inside[:-1, :-1]] = 0.0
    w = np.clip(w, 0.0, None)
    c = joint_ge_counts(*data.neg[:2], t_a[ends_a], t_b[ends_b], data.neg[2])
    return w, ge_a[ends_a].astype(np.int64), ge_b[ends_b].astype(np.int64), c.astype(np.int64)


#: Most positives expanded for the quadrature route (when the series does not reach its precision).
MAX_EXPANDED = 5_000_000


def _rank_blocks(data: PairedClasses, r: int, m_pos: int, k_win, t_a, t_b, ge_a, ge_b):
    """:func:`threshold_blocks` by :func:`rocci.compare.vertical._joint_threshold_law` (the quadrature over
    model A's order statistic), rank by rank, the ranks with the same negatives above merged."""
    from .._core.paired_order import _joint_threshold_law, _stable_rank_desc

    if data.n_pos > MAX_EXPANDED:
        raise InputError(
            f"At recall level {r}/{m_pos} the joint law of the two thresholds needs the quadrature route, which "
            f"ranks the {data.n_pos:,} positives one by one (at most {MAX_EXPANDED:,}): ask for a smaller "
            "bootstrap sample size of the positives, m=(m_pos, m_neg), or another recall level.")
    a, b, cnt = data.pos
    pa, pb = np.repeat(a, cnt), np.repeat(b, cnt)
    rank_a, rank_b = _stable_rank_desc(pa), _stable_rank_desc(pb)
    rank_b_by_a = rank_b[np.argsort(rank_a)]
    with np.errstate(all="ignore"):
        w = _joint_threshold_law(rank_b_by_a, data.n_pos, m_pos, r, k_win)
    if not np.isfinite(w).all():  # (e.g. reversed rankings) the multinomial formula, pair of ranks by pair
        from .._core.paired_order import _joint_cdf

        if (k_win.size + 1) ** 2 * (m_pos + 1) ** 2 > 2 * 10**9:
            raise InputError(
                f"At recall level {r}/{m_pos} neither the series nor the quadrature reaches the joint law of the two "
                "thresholds (rankings far from each other, e.g. reversed), and the direct formula would take "
                f"{(k_win.size + 1) ** 2 * (m_pos + 1) ** 2:.1e} operations: ask for a smaller m_pos.")
        grid = np.arange(k_win[0] - 1, k_win[-1] + 1)
        overlap = joint_ge_counts(-rank_a[rank_a > 0].astype(float), -rank_b.astype(float), -grid.astype(float),
                                  -grid.astype(float))
        kk, jj = np.meshgrid(grid, grid, indexing="ij")
        big_f = _joint_cdf(kk.ravel(), jj.ravel(), overlap.ravel(), data.n_pos, m_pos, r).reshape(kk.shape)
        w = np.clip(big_f[1:, 1:] - big_f[:-1, 1:] - big_f[1:, :-1] + big_f[:-1, :-1], 0.0, None)
    keys_a, inv_a = np.unique(ge_a, return_inverse=True)
    keys_b, inv_b = np.unique(ge_b, return_inverse=True)
    merged = np.zeros((keys_a.size, keys_b.size))
    np.add.at(merged, (inv_a.ravel()[:, None], inv_b.ravel()[None, :]), w)
    first_a = np.searchsorted(ge_a[np.argsort(ge_a, kind="stable")], keys_a)
    rep_a = np.argsort(ge_a, kind="stable")[first_a]
    rep_b = np.argsort(ge_b, kind="stable")[np.searchsorted(ge_b[np.argsort(ge_b, kind="stable")], keys_b)]
    c = joint_ge_counts(*data.neg[:2], t_a[rep_a], t_b[rep_b], data.neg[2])
    return merged, keys_a.astype(np.int64), keys_b.astype(np.int64), c.astype(np.int64)


def _windows(m: int, share: np.ndarray):
    lo, hi, _ = bernstein_bounds(m, share, CELL_EPS)
    return lo, hi, window_tails(m, share, lo, hi)


def _tight_windows(m: int, share: np.ndarray):
    """The windows of :func:`_windows` (Bernstein's bound) narrowed to the binomial's own tails: ``lo`` the
    largest count with ``P(X < lo) <= 1e-17`` and ``hi`` the smallest with ``P(X > hi) <= 1e-17`` (sums of the
    pmf from the Bernstein window's ends, to which its tails outside are added), and the exact mass left out
    (:func:`rocci.precision._laws.window_tails`).  About 10% narrower on each side, 20% fewer cells."""
    lo, hi, tail = _windows(m, share)
    if not share.size:
        return lo, hi, tail
    width = int((hi - lo).max()) + 1
    pmf = _binomial_rows(np.full(share.size, float(m)), share, lo, hi, width)
    outside = np.where((share > 0) & (share < 1), tail, 0.0)
    # P(X < lo + t) and P(X > lo + t) from the window's cells (the tails outside are at most 2e-17).
    below = np.cumsum(pmf, axis=1) - pmf
    above = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1] - pmf
    t = np.arange(width)[None, :]
    inside = t <= (hi - lo)[:, None]
    lo_new = lo + np.where(inside & (below + outside[:, None] <= CELL_EPS), t, 0).max(axis=1)
    hi_new = lo + np.where(inside & (above + outside[:, None] <= CELL_EPS), t, width).min(axis=1)
    hi_new = np.minimum(np.maximum(hi_new, lo_new), hi)
    return lo_new, hi_new, window_tails(m, share, lo_new, hi_new)


def grid_size(data: PairedClasses, r: int, m_pos: int, m_neg: int) -> int:
    """Cells of the ``(FP*_a, FP*_b)`` grid at level ``r`` (checked before any law is built)."""
    k_win, _, _ = order_statistic_law(r, m_pos, data.n_pos)
    sizes = []
    for which in (0, 1):
        ge = data.neg_ge(which, data.at_rank(which, k_win[[0, -1]]))
        lo, hi, _ = _windows(m_neg, ge / data.n_neg)
        sizes.append(int(hi.max() - lo.min()) + 1)
    return sizes[0] * sizes[1]


class _Krawtchouk:
    """``φ_ℓ(lo_i + t; share_i) = b(·; m, share_i)·k̂_ℓ`` on each row's window (0 outside it), degree by degree
    (three-term recurrence of the orthonormal Krawtchouk polynomials of ``Bin(m, share_i)``:
    ``√((ℓ+1)(m−ℓ)pq) k̂_(ℓ+1) = (p(m−ℓ) + ℓq − u) k̂_ℓ − √(ℓ(m−ℓ+1)pq) k̂_(ℓ−1)``); each point's values past
    its stable degree (:func:`rocci.compare.vertical._krawtchouk_stable_degree`) are set to 0.  The
    recurrence's coefficients are row constants, so each degree costs two multiply-adds per point."""

    def __init__(self, m: int, share: np.ndarray, lo: np.ndarray, hi: np.ndarray, frame=None):
        """Columns ``t`` are the points ``lo_i + t`` of each row's window, or with ``frame = (u0, width)`` the
        points ``u0 + t`` of a common grid (0 outside each row's window)."""
        from .._core.paired_order import _krawtchouk_stable_degree

        if frame is None:
            width = int((hi - lo).max()) + 1 if share.size else 1
            self.inside = np.arange(width)[None, :] <= (hi - lo)[:, None]
            u = (lo[:, None] + np.arange(width)[None, :]).astype(float)
        else:
            u0, width = frame
            u = np.broadcast_to(np.arange(u0, u0 + width, dtype=float)[None, :], (share.size, width))
            self.inside = (u >= lo[:, None]) & (u <= hi[:, None])
        self.p = p = share[:, None]
        self.base = np.zeros(u.shape)
        self.base[self.inside] = binomial_pmf(u[self.inside], m, np.broadcast_to(p, u.shape)[self.inside])
        var = p * (1.0 - p)
        self.live = var > 0
        self.var = np.where(self.live, var, 1.0)
        with np.errstate(invalid="ignore"):  # padding past a window's end may pass m
            self.stable = np.floor(_krawtchouk_stable_degree(p, m + 1, np.minimum(u, m) + 1.0))
        # Degrees past a point's stable degree, past m, in a row of variance 0 or in the padding are 0.
        self.last = np.where(self.inside & self.live, np.minimum(self.stable, m), 0.0)
        self.m, self.u = m, u
        self.deg = 0
        # φ_(deg−1) and φ_deg of the forward recurrence (k̂_0 = 1: φ_0 = b).
        self.k_prev, self.k_cur = np.zeros_like(u), self.base.copy()
        self._dual = []  # (rows, values (rows, degrees, width)) from the dual recurrence (extend)

    def extend(self, terms: np.ndarray):
        """Values past the stable degree by the dual recurrence, so that row ``i`` is exact up to degree
        ``terms_i − 1`` wherever either recurrence is stable; ``stable`` becomes each point's last degree so
        covered (every degree up to it by one recurrence or the other).

        Self-duality of the Krawtchouk polynomials: ``√b(u)·k̂_ℓ(u) = √b(ℓ)·k̂_u(ℓ)`` (the matrix
        ``√b(u) k̂_ℓ(u)`` is orthogonal and symmetric), so ``φ_ℓ(u) = √b(u)·V_u(ℓ)`` with ``V_d(ℓ) = √b(ℓ) k̂_d(ℓ)``
        from the same three-term recurrence run over the degree ``d = 0 … u`` at the point ``ℓ``, which is stable
        while ``d`` is at most the stable degree at ``ℓ`` (:func:`rocci.compare.vertical._krawtchouk_stable_degree`).
        Past its stable degree the forward recurrence of a point ``u`` in the lower tail fails when ``m·p`` is
        small, where the dual one runs over few degrees; a share above 1/2 is mirrored
        (``φ_ℓ(u; p) = (−1)^ℓ φ_ℓ(m − u; 1 − p)``).  Points ``ℓ`` where ``b(ℓ)`` is below 1e-290 are not covered.
        """
        big_n = self.m
        terms = np.minimum(np.asarray(terms, np.int64), big_n + 1)
        fwd = np.where(self.inside & self.live, np.minimum(self.stable, big_n), np.inf)
        rows = np.flatnonzero(self.live[:, 0] & ((fwd < (terms - 1)[:, None]).any(axis=1)))
        if not rows.size:
            return
        stable = self.stable.copy()
        width = self.u.shape[1]
        per = max(1, _DUAL_CHUNK // max(1, int(terms[rows].max()) * width))
        for start in range(0, rows.size, per):
            part = rows[start:start + per]
            dual, last = self._dual_part(part, int(terms[part].max()), fwd[part])
            stable[part] = np.where(self.inside[part], np.maximum(stable[part], last), stable[part])
            self._dual.append((part, dual))
        self.stable = stable

    def _dual_part(self, rows, top: int, fwd):
        """:meth:`extend` for the rows ``rows``, degrees ``0 … top − 1``: the dual values where the forward
        recurrence stops (0 elsewhere) and each point's last degree covered by one of the two."""
        from .._core.paired_order import _krawtchouk_stable_degree

        big_n = self.m
        share = self.p[rows, 0]
        flip = share > 0.5
        q = np.where(flip, 1.0 - share, share)[:, None]  # (rows, 1)
        u = self.u[rows]
        d_pt = np.where(flip[:, None], big_n - u, u)  # the points in the mirrored frame: degrees of the dual
        d_pt = np.where(self.inside[rows], d_pt, -1.0).astype(np.int64)
        ell = np.arange(top, dtype=float)[None, :]
        v0 = np.sqrt(binomial_pmf(ell, big_n, q))  # V_0(ℓ) = √b(ℓ)
        with np.errstate(invalid="ignore"):
            s_dual = np.floor(_krawtchouk_stable_degree(q, big_n + 1, ell + 1.0))
        s_dual = np.where(v0 * v0 > 1e-290, s_dual, -1.0)  # (rows, top)
        var = q * (1.0 - q)
        dual = np.zeros((rows.size, top, u.shape[1]))
        v_prev, v_cur = np.zeros_like(v0), v0.copy()
        # The points (row, t) in the order of their dual degree d(u).
        flat = d_pt.ravel()
        order = np.argsort(flat, kind="stable")
        bounds = np.searchsorted(flat[order], np.arange(flat.max() + 2))
        # Run the degree d over 0 … max d at the points ℓ; store V_d(ℓ) at the points u with d(u) = d.
        for d in range(int(flat.max()) + 1):
            if d > 0:
                k = d - 1
                with np.errstate(over="ignore", invalid="ignore"):
                    nxt = ((q * (big_n - k) + k * (1.0 - q) - ell) * v_cur
                           - np.sqrt(k * (big_n - k + 1) * var) * v_prev) / np.sqrt((k + 1) * (big_n - k) * var)
                nxt[d > s_dual] = 0.0
                v_prev, v_cur = v_cur, nxt
            hit = order[bounds[d]:bounds[d + 1]]
            if hit.size:
                hit_r, hit_t = np.divmod(hit, d_pt.shape[1])
                dual[hit_r, :, hit_t] = v_cur[hit_r]
        # φ_ℓ(u) = ±√b(u)·V where the dual is stable and the forward recurrence is not.
        covered = (d_pt[:, None, :] <= s_dual[:, :, None]) & (d_pt[:, None, :] >= 0)
        ell_i = np.arange(top)[None, :, None]
        forward = ell_i <= fwd[:, None, :]
        sign = np.where(flip[:, None] & (np.arange(top)[None, :] % 2 == 1), -1.0, 1.0)
        dual *= sign[:, :, None] * np.sqrt(self.base[rows])[:, None, :]
        dual[~covered | forward] = 0.0
        ok = forward | covered
        # The last degree up to which every degree is covered (top − 1 if all of them are).
        last = np.where((~ok).any(axis=1), np.argmin(ok, axis=1), top) - 1
        return dual, last

    def min_stable(self) -> np.ndarray:
        """Each row's smallest stable degree over its window."""
        return np.where(self.inside, self.stable, np.inf).min(axis=1)

    def next(self, out=None) -> np.ndarray:
        """``φ_deg`` for the current degree (0, 1, 2, … on successive calls), into ``out`` if given.  The
        recurrence runs on ``φ = b·k̂`` itself (``b(u)`` does not depend on the degree)."""
        if self.deg > 0:
            d = self.deg - 1
            big_n = float(self.m)
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                lead = self.p * (big_n - d) + d * (1.0 - self.p)  # row constants, (rows, 1)
                back = np.sqrt(d * (big_n - d + 1) * self.var)
                scale = np.sqrt((d + 1) * (big_n - d) * self.var)
                nxt = lead - self.u
                nxt *= self.k_cur
                nxt -= back * self.k_prev
                nxt /= scale
            nxt[self.last < self.deg] = 0.0
            self.k_prev, self.k_cur = self.k_cur, nxt
        if out is None:
            out = self.k_cur.copy()
        else:
            np.copyto(out, self.k_cur)
        for rows, dual in self._dual:
            if self.deg < dual.shape[1]:
                out[rows] += dual[:, self.deg, :]
        self.deg += 1
        return out


def mixture_grid_refusal(cells: int, what: str):
    """``InputError``: the grid of ``(FP*_a, FP*_b)`` at one recall level is larger than :data:`MAX_GRID`."""
    raise InputError(
        f"The exact paired law of {what} spans {cells:,} cells of (FP*_a, FP*_b), more than the {MAX_GRID:,} "
        "rocci builds for one recall level (the cells grow like the negatives' bootstrap sample size m−). "
        "rocci.precision.compare_fpr_at_recall(...) with the same arguments answers which model has the higher "
        "precision at this recall at any size (the same P(A better) and P(tie), exact; its interval is on the "
        "difference of false positive rates); or ask for a smaller m=(m_pos, m_neg).")


_CONTROLLER = []


def _one_blas_thread():
    """One BLAS thread for a loop of small matrix products, when threadpoolctl is installed (a shared
    machine's OpenBLAS threads cost more to wake than such a product takes); otherwise nothing.  The
    libraries are looked up once (a ``threadpool_limits`` call scans them each time, ~15 ms)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - optional
        from contextlib import nullcontext

        return nullcontext()
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


#: Cells between two boost evaluations of a row's pmf (:func:`_binomial_rows`).
_ANCHOR = 16


def _binomial_rows(n, p, lo, hi, width: int) -> np.ndarray:
    """``b(lo_i + t; n_i, p_i)`` for ``t = 0 … width − 1`` (0 outside ``lo_i..hi_i``), one row per ``i``: a boost
    pmf every :data:`_ANCHOR` cells and, between them, the ratios ``b(k + 1)/b(k) = (n − k)p/((k + 1)(1 − p))``
    multiplied from it (at most 15 roundings of a few ulps: each cell to ~1e-14 relative, 16 times fewer boost
    calls)."""
    n, p = np.asarray(n, float), np.asarray(p, float)
    lo, hi = np.asarray(lo, np.int64), np.asarray(hi, np.int64)
    blocks = -(-width // _ANCHOR)
    t = np.arange(blocks * _ANCHOR)
    k = (lo[:, None] + t[None, :]).astype(float)
    out = np.zeros(k.shape)
    inner = (p > 0) & (p < 1)
    if inner.any():
        ki, ni, pi = k[inner], n[inner, None], p[inner, None]
        anchor = binomial_pmf(ki[:, ::_ANCHOR], ni, pi)  # (rows, blocks)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            up = np.where(ki < ni, (ni - ki) / (ki + 1.0) * (pi / (1.0 - pi)), 0.0)  # b(k + 1)/b(k)
            up = up.reshape(ki.shape[0], blocks, _ANCHOR)
            steps = np.ones_like(up)
            steps[:, :, 1:] = np.cumprod(up[:, :, :-1], axis=2)
            vals = (steps * anchor[:, :, None]).reshape(ki.shape)
        out[inner] = np.where(np.isfinite(vals), vals, 0.0)
    edge = ~inner
    if edge.any():  # p = 0 or 1: all the mass on 0 or n
        out[edge] = (k[edge] == np.where(p[edge] >= 1, n[edge], 0.0)[:, None]).astype(float)
    out = out[:, :width]
    return np.where(np.arange(width)[None, :] <= (hi - lo)[:, None], out, 0.0)


#: Elements of one batch of rows ``(pair, x)`` of the cell-by-cell route (memory near 60 MB).
_DIRECT_CHUNK = 1 << 20


def _direct_grid(w, m: int, n: int, both, only_a, only_b):
    """``Σ_pairs w·P(FP*_a = u, FP*_b = v)`` for pairs summed cell by cell, all pairs at once: the same cells
    and windows as :func:`rocci.precision.paired.bivariate_counts` (``X_a ~ Bin(m, (both + only_a)/n)``; given
    ``X_a = x``, ``X_b = C + B``, ``C ~ Bin(x, both/(both + only_a))``, ``B ~ Bin(m − x, only_b/(n − both −
    only_a))``, each cut to its Bernstein window), conditioned on the model whose count has the narrower window
    (the same law).  The convolution ``C + B`` runs over the shorter window, vectorised over all rows ``(pair, x)``.

    Returns ``(u0, v0, grid, truncated)``: ``grid[i, j] = P(u0 + i, v0 + j)`` (the cells are not dropped).
    """
    w = np.asarray(w, float)
    both, only_a, only_b = (np.asarray(a, np.int64) for a in (both, only_a, only_b))
    share_a, share_b = (both + only_a) / n, (both + only_b) / n
    lo_a, hi_a, _ = bernstein_bounds(m, share_a, CELL_EPS)
    lo_b, hi_b, _ = bernstein_bounds(m, share_b, CELL_EPS)
    swap = (hi_b - lo_b) < (hi_a - lo_a)  # condition on B's count
    first = np.where(swap, share_b, share_a)
    x_lo, x_hi = np.where(swap, lo_b, lo_a), np.where(swap, hi_b, hi_a)
    in_x = np.where(swap, both + only_b, both + only_a)
    other = np.where(swap, only_a, only_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        share_c = np.where(in_x > 0, both / np.where(in_x > 0, in_x, 1), 0.0)
        share_o = np.where(n > in_x, other / np.where(n > in_x, n - in_x, 1), 0.0)
    trunc = float(w @ window_tails(m, first, x_lo, x_hi))
    # Rows (pair, x): every x of each pair's window.
    wx = x_hi - x_lo + 1
    pair = np.repeat(np.arange(w.size), wx)
    x = (x_lo[pair] + np.arange(pair.size) - np.repeat(np.cumsum(wx) - wx, wx)).astype(np.int64)
    px = binomial_pmf(x.astype(float), m, first[pair]) * w[pair]
    c0, c1, _ = bernstein_bounds(x, share_c[pair], CELL_EPS)
    b0, b1, _ = bernstein_bounds(m - x, share_o[pair], CELL_EPS)
    trunc += float(px @ (window_tails(x, share_c[pair], c0, c1) + window_tails(m - x, share_o[pair], b0, b1)))
    y_lo, y_hi = c0 + b0, c1 + b1
    # Rows of one model's count (x) and of the other's (y) in the grid's coordinates.
    u_of = np.where(swap[pair], 0, 1)  # 1: x is FP*_a
    ua = np.where(u_of == 1, x, y_lo)
    ub = np.where(u_of == 1, x, y_hi)
    va = np.where(u_of == 1, y_lo, x)
    vb = np.where(u_of == 1, y_hi, x)
    u0, v0 = int(ua.min()), int(va.min())
    wu, wv = int(ub.max()) - u0 + 1, int(vb.max()) - v0 + 1
    grid = np.zeros(wu * wv)
    live = px > 0
    rows = np.flatnonzero(live)
    # Short window first: the convolution loops over the shorter of C's and B's windows of each batch.
    wc, wb = c1 - c0 + 1, b1 - b0 + 1
    order = rows[np.argsort(np.maximum(wc[rows], wb[rows]), kind="stable")]
    start = 0
    widest = np.maximum(wc, wb)[order]  # ascending
    while start < order.size:
        stop = start + max(1, _DIRECT_CHUNK // (2 * int(widest[start]) + 1))
        last = lambda stop: int(widest[min(stop, order.size) - 1])  # noqa: E731
        while stop - start > 1 and (stop - start) * (2 * last(stop) + 1) > 2 * _DIRECT_CHUNK:
            stop = start + (stop - start) // 2  # (rows sorted by width: the last one is the widest)
        sel = order[start:stop]
        start = stop
        kc, kb = int(wc[sel].max()), int(wb[sel].max())
        pc = _binomial_rows(x[sel], share_c[pair[sel]], c0[sel], c1[sel], kc) * px[sel, None]
        pb = _binomial_rows(m - x[sel], share_o[pair[sel]], b0[sel], b1[sel], kb)
        if kc > kb:
            pc, pb, kc, kb = pb, pc, kb, kc
        conv = np.zeros((sel.size, kc + kb - 1))
        for i in range(kc):
            conv[:, i:i + kb] += pc[:, i:i + 1] * pb
        y = y_lo[sel, None] + np.arange(kc + kb - 1)[None, :]
        ok = y <= y_hi[sel, None]
        xs = np.broadcast_to(x[sel, None], y.shape)
        is_u = (u_of[sel] == 1)[:, None]
        key = (np.where(is_u, xs, y) - u0) * wv + (np.where(is_u, y, xs) - v0)
        grid += np.bincount(key[ok], weights=conv[ok], minlength=wu * wv)
    return u0, v0, grid.reshape(wu, wv), trunc


#: Largest contiguous group of rows (blocks of model A's threshold) of one product of the series.
_GROUP_ROWS = 24


def _row_groups(lo, hi, rows):
    """Contiguous groups of the rows ``rows`` (sorted) whose windows ``lo..hi`` overlap enough that one product
    over the union of the windows wastes little (at most 1.5 times the widest row's window, 24 rows)."""
    groups, cur = [], []
    for i in rows:
        if cur:
            u_lo, u_hi = min(lo[cur[0]], lo[i]), max(hi[cur[-1]], hi[i])
            widest = max(int(hi[j] - lo[j]) for j in (*cur, i)) + 1
            if len(cur) >= _GROUP_ROWS or u_hi - u_lo + 1 > 1.5 * widest or i != cur[-1] + 1:
                groups.append(cur)
                cur = []
        cur.append(int(i))
    if cur:
        groups.append(cur)
    return groups


def mixture_grid(w, n_a, n_b, c, n: int, m: int, what: str):
    """The law of ``(FP*_a, FP*_b)``: mixture over the pairs of blocks (module docstring).

    Returns ``(grids, truncated, direct, terms)``: ``grids`` a list of ``(u0, v0, grid)`` with ``grid[i, j]``
    the probability of ``(u0 + i, v0 + j)`` (one from the series, one from the pairs summed cell by cell), the
    mass left out (the windows of the binomials, the bound of the series' cut and the lightest pairs of blocks,
    at most 1e-17 in all), the count of pairs summed cell by cell and the most series terms.
    """
    w = np.array(w, float)
    # The lightest pairs of blocks, at most 1e-17 in all, are left out (as paired._recall_law).
    flat = w.ravel()
    order = np.argsort(flat, kind="stable")
    drop = order[np.cumsum(flat[order]) <= CELL_EPS]
    if drop.size == flat.size:  # (all of it: keep the heaviest)
        drop = drop[:-1]
    trunc = float(flat[drop].sum())
    flat[drop] = 0.0
    keep_a, keep_b = w.sum(axis=1) > 0, w.sum(axis=0) > 0
    w, c = w[keep_a][:, keep_b], c[keep_a][:, keep_b]
    n_a, n_b = n_a[keep_a], n_b[keep_b]
    alpha, beta = n_a / n, n_b / n
    lo_a, hi_a, tail_a = _tight_windows(m, alpha)
    lo_b, hi_b, tail_b = _tight_windows(m, beta)
    u0, v0 = int(lo_a.min()), int(lo_b.min())
    wu, wv = int(hi_a.max()) - u0 + 1, int(hi_b.max()) - v0 + 1
    if wu * wv > MAX_GRID:
        mixture_grid_refusal(wu * wv, what)
    spread = np.sqrt(np.outer(alpha * (1 - alpha), beta * (1 - beta)))
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(spread > 0, (c / n - np.outer(alpha, beta)) / np.where(spread > 0, spread, 1.0), 0.0)
    rho = np.clip(rho, -1.0, 1.0)
    # Φ_ℓ and Ψ_ℓ on the grid's columns (each row 0 outside its window): no scatter per term.
    kraw_a = _Krawtchouk(m, alpha, lo_a, hi_a, frame=(u0, wu))
    kraw_b = _Krawtchouk(m, beta, lo_b, hi_b, frame=(v0, wv))
    # Σ_u √b(u) over each window: the series' error bound per pair is w·|ρ|^L·root_a·root_b after L terms.
    sqrt_a, sqrt_b = np.sqrt(np.clip(kraw_a.base, 0, None)), np.sqrt(np.clip(kraw_b.base, 0, None))
    root_a, root_b = sqrt_a.sum(axis=1), sqrt_b.sum(axis=1)
    # Or, summed over all cells, w·Σ_(ℓ>=L) |ρ|^ℓ ‖φ_ℓ‖₁‖ψ_ℓ‖₁ <= w·|ρ|^L/(1 − |ρ|) (‖φ_ℓ‖₁ = Σ b|k̂_ℓ| <= 1 by
    # Cauchy–Schwarz): the smaller of the two.
    r_abs = np.abs(rho)
    with np.errstate(divide="ignore"):
        reach = np.minimum(np.outer(root_a, root_b), 1.0 / (1.0 - r_abs))
    size = w * reach
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.ceil(np.log(_SERIES_EPS / size) / np.log(r_abs))
    need = np.where((size <= _SERIES_EPS) | (r_abs == 0), 1.0, np.where(r_abs >= 1, np.inf, need))
    need = np.maximum(need, 1.0)  # terms ℓ = 0 … need − 1
    # Past its stable degree a point's φ_ℓ is set to 0: the terms left out there change a cell by at most
    # |ρ|^(S(u)+1)·√(b(u) b(v)), so a pair's error is at most w·(|ρ|^L·root_a·root_b + T_a·root_b + root_a·T_b),
    # T_a = Σ_u √b(u)·ρ̄^(S(u)+1) with ρ̄ the largest |ρ| of the row (of the column for T_b); where that bound
    # is too large, with the pair's own |ρ| (and 0 where ρ = 0: the law is then the product of its margins).
    # Where the forward recurrence stops before the terms a row (column) needs, the dual one takes over.
    wanted = np.where((w > 0) & (need <= _MAX_TERMS), np.minimum(need, m + 1), 0)
    kraw_a.extend(wanted.max(axis=1))
    kraw_b.extend(wanted.max(axis=0))
    expo_a, expo_b = np.minimum(kraw_a.stable, m) + 1, np.minimum(kraw_b.stable, m) + 1
    with np.errstate(under="ignore"):
        bar_a, bar_b = r_abs.max(axis=1), r_abs.max(axis=0)
        t_a = (sqrt_a * bar_a[:, None] ** expo_a).sum(1)
        t_b = (sqrt_b * bar_b[:, None] ** expo_b).sum(1)
    unstable = np.where(r_abs == 0, 0.0, w * (np.outer(t_a, root_b) + np.outer(root_a, t_b)))
    redo = np.flatnonzero(((unstable > _SERIES_EPS) & (w > 0) & (need <= _MAX_TERMS)).ravel())
    for part in np.array_split(redo, max(1, redo.size * (sqrt_a.shape[1] + sqrt_b.shape[1]) // _CHUNK + 1)):
        if part.size:
            i, j = np.unravel_index(part, w.shape)
            with np.errstate(under="ignore"):
                own_a = (sqrt_a[i] * r_abs[i, j][:, None] ** expo_a[i]).sum(1)
                own_b = (sqrt_b[j] * r_abs[i, j][:, None] ** expo_b[j]).sum(1)
            unstable[i, j] = w[i, j] * (own_a * root_b[j] + root_a[i] * own_b)
    need = np.minimum(need, m + 1)  # m + 1 terms: the whole (finite) expansion
    series = (w > 0) & (need <= _MAX_TERMS) & (unstable <= _SERIES_EPS)
    direct = (w > 0) & ~series
    terms = int(need[series].max(initial=1.0))
    trunc += float(w.sum(axis=1) @ tail_a + w.sum(axis=0) @ tail_b)
    exact_all = need >= m + 1
    with np.errstate(under="ignore"):
        cut = np.where(exact_all, 0.0, w * r_abs ** need * reach) + unstable
    trunc += float(np.where(series, cut, 0.0).sum())
    grids = []
    if series.any():
        grids.append((u0, v0, _series_grid(w, rho, series, need, kraw_a, kraw_b, lo_a, hi_a, lo_b, hi_b, u0, v0,
                                           wu, wv)))
    if direct.any():
        i, j = np.nonzero(direct)
        cc = c[i, j]
        du, dv, grid, t = _direct_grid(w[i, j], m, n, cc, n_a[i] - cc, n_b[j] - cc)
        grids.append((du, dv, grid))
        trunc += t
    return grids, trunc, int(direct.sum()), terms


def _series_grid(w, rho, series, need, kraw_a, kraw_b, lo_a, hi_a, lo_b, hi_b, u0, v0, wu, wv):
    """``Σ_ℓ Φ_ℓᵀ (w ∘ ρ^ℓ) Ψ_ℓ`` over the pairs ``series`` (module docstring), by groups of neighbouring rows:
    each group's product spans only the union of its rows' windows of ``u`` and of the windows of ``v`` of the
    columns it pairs with, and its rows' terms (the most any of its pairs needs)."""
    w_s = np.where(series, w, 0.0)
    rows_terms = np.where(series, need, 0).max(axis=1).astype(np.int64)
    rows = np.flatnonzero(rows_terms > 0)
    groups = []
    for g in _row_groups(lo_a, hi_a, rows):
        cols = np.flatnonzero(series[g].any(axis=0))
        j0, j1 = int(cols[0]), int(cols[-1]) + 1
        groups.append((g[0], g[-1] + 1, j0, j1, int(lo_a[g].min()), int(hi_a[g].max()) + 1,
                       int(lo_b[j0:j1].min()), int(hi_b[j0:j1].max()) + 1, int(rows_terms[g].max())))
    terms = int(rows_terms.max())
    n_a_rows, n_b_rows = w.shape
    width_a, width_b = kraw_a.base.shape[1], kraw_b.base.shape[1]
    per = max(1, _CHUNK // max(1, n_a_rows * width_a + n_b_rows * width_b + n_a_rows * n_b_rows))
    grid = np.zeros((wu, wv))
    power = w_s.copy()
    for start in range(0, terms, per):
        stop = min(terms, start + per)
        nt_all = stop - start
        if start == 0:  # one set of buffers for all chunks (first touches of fresh pages cost)
            phi = np.empty((nt_all, n_a_rows, width_a))
            psi = np.empty((nt_all, n_b_rows, width_b))
            pw = np.empty((nt_all, n_a_rows, n_b_rows))
        for t in range(nt_all):
            kraw_a.next(out=phi[t])
            kraw_b.next(out=psi[t])
            pw[t] = power
            power *= rho
        for i0, i1, j0, j1, ua, ub, va, vb, g_terms in groups:
            nt = min(stop, g_terms) - start
            if nt <= 0:
                continue
            with _one_blas_thread():  # one small product per term: threads only add their start-up
                right = np.matmul(pw[:nt, i0:i1, j0:j1], psi[:nt, j0:j1, va - v0:vb - v0])
            left = phi[:nt, i0:i1, ua - u0:ub - u0].reshape(-1, ub - ua)
            grid[ua - u0:ub - u0, va - v0:vb - v0] += left.T @ right.reshape(-1, vb - va)  # BLAS's threads
    np.clip(grid, 0.0, None, out=grid)
    return grid


def recall_delta(metric: str, r: int, m_pos: int, fa, fb) -> np.ndarray:
    """``Δ = g(FP_a) − g(FP_b)``, ``g(f) = r/(r + f)`` (precision) or ``2r/(r + f + m+)`` (F1), as one division
    of exact integers, ``r(f_b − f_a)/((r + f_a)(r + f_b))``: IEEE division is correctly rounded, so cells with
    the same difference (the same fraction) give the same float, whichever cells a route keeps (two divisions
    and a subtraction may differ by an ulp).  Beyond 2^53 the two divisions."""
    fa, fb = np.asarray(fa, np.float64), np.asarray(fb, np.float64)
    shift = float(r) if metric == "precision" else float(r + m_pos)
    scale = float(r) if metric == "precision" else 2.0 * r
    top = shift + max(float(np.max(fa, initial=0.0)), float(np.max(fb, initial=0.0)))
    if top * top < 2.0**53 and scale * top < 2.0**53:
        return scale * (fb - fa) / ((shift + fa) * (shift + fb))
    return scale / (shift + fa) - scale / (shift + fb)


def _light_cells(grids) -> float:
    """The smallest probability kept: the cells below it (most of the grids' corners) hold at most 1e-17 in
    all and are left out of the sort.  The cut is a power of 2, the largest whose cells below sum to at most
    :data:`CELL_EPS` (one histogram of the cells' binary exponents, no sort)."""
    probs = np.concatenate([g.ravel() for g in grids]) if grids else np.zeros(0)
    probs = probs[probs > 0]
    if not probs.size:
        return np.inf
    _, expo = np.frexp(probs)  # p in [2^(e−1), 2^e)
    low = int(expo.min())
    mass = np.bincount(expo - low, weights=probs)
    below = np.cumsum(mass)  # below[k]: the cells with exponent <= low + k
    k = int(np.searchsorted(below, CELL_EPS, side="right"))  # cells with exponent < low + k hold <= 1e-17
    return float(np.ldexp(0.5, low + k))


def recall_law(data: PairedClasses, r: int, metric: str, m_pos: int, m_neg: int):
    """The law of ``Δ*`` at level ``r`` by the blocks and the Lancaster series, or None (use the direct route)."""
    what = f"the difference of {metric} at recall {r}/{m_pos}"
    blocks = threshold_blocks(data, r, m_pos)
    if blocks is None:
        return None
    w, n_a, n_b, c = blocks
    trunc = max(0.0, 1.0 - float(w.sum()))
    grids, t, _, _ = mixture_grid(w, n_a, n_b, c, data.n_neg, m_neg, what)
    trunc += t
    values, probs = [], []
    floor = _light_cells([grid for _, _, grid in grids])
    for u0, v0, grid in grids:
        fa = np.arange(u0, u0 + grid.shape[0])
        fb = np.arange(v0, v0 + grid.shape[1])
        p = grid.ravel()
        keep = p >= floor
        trunc += float(p[~keep].sum())
        values.append(recall_delta(metric, r, m_pos, fa[:, None], fb[None, :]).ravel()[keep])
        probs.append(p[keep])
    return Law(np.concatenate(values), np.concatenate(probs), truncated=trunc, merge_atol=_DELTA_ATOL)
