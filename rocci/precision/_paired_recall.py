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

one matrix product per term (stacked over terms: one BLAS call per chunk of terms) instead of one
two-dimensional law per pair of blocks.  Cost O(L·B·W²) for B blocks, a window of W counts and L terms
(``L ≈ 41/|log ρ|``), against O(B²·W³) for the sum of one joint law per pair of blocks.  Pairs whose series
would need more terms than the recurrence gives accurately (``ρ`` near 1: two nearly identical models; or a
share ``α`` near 0 or 1, :func:`rocci.compare.vertical._krawtchouk_stable_degree`) are summed cell by cell
(:func:`rocci.precision.paired.bivariate_counts`).

``Δ* = g(FP*_a) − g(FP*_b)`` with ``g(f) = r/(r + f)`` (precision) or ``2r/(r + f + m+)`` (F1).
"""

from __future__ import annotations

import numpy as np

from .._validation import InputError
from ..counts import PairedCounts, ScoreCounts, _at_rank, joint_ge_counts
from ..exact import binomial_pmf, order_statistic_law
from ._laws import CELL_EPS, Law, bernstein_bounds, window_tails

#: Largest grid of ``(FP*_a, FP*_b)`` cells built for one recall level (≈ 0.5 GB with the work arrays).
MAX_GRID = 16_000_000
#: A pair of blocks' weighted series error allowed (``w·|ρ|^(L+1)·Σ√b·Σ√b``).
_SERIES_EPS = 1e-19
#: Most series terms (pairs needing more are summed cell by cell).
_MAX_TERMS = 600
#: Elements of one stacked chunk of ``Φ_ℓ`` (memory stays near 130 MB).
_CHUNK = 1 << 24
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
    from ..compare.vertical import _joint_cdf_series, _rank_cdf

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
    from ..compare.vertical import _joint_threshold_law, _stable_rank_desc

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
        from ..compare.vertical import _joint_cdf

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
    its stable degree (:func:`rocci.compare.vertical._krawtchouk_stable_degree`) are set to 0."""

    def __init__(self, m: int, share: np.ndarray, lo: np.ndarray, hi: np.ndarray):
        from ..compare.vertical import _krawtchouk_stable_degree

        width = int((hi - lo).max()) + 1 if share.size else 1
        self.inside = np.arange(width)[None, :] <= (hi - lo)[:, None]
        u = (lo[:, None] + np.arange(width)[None, :]).astype(float)
        self.p = p = share[:, None]
        self.base = np.where(self.inside, binomial_pmf(u, m, p), 0.0)
        var = p * (1.0 - p)
        self.live = var > 0
        self.var = np.where(self.live, var, 1.0)
        with np.errstate(invalid="ignore"):  # padding past a window's end may pass m
            self.stable = np.floor(_krawtchouk_stable_degree(p, m + 1, np.minimum(u, m) + 1.0))
        self.m, self.u = m, u
        self.deg = 0
        self.k_prev, self.k_cur = np.zeros_like(u), np.ones_like(u)

    def min_stable(self) -> np.ndarray:
        """Each row's smallest stable degree over its window."""
        return np.where(self.inside, self.stable, np.inf).min(axis=1)

    def next(self) -> np.ndarray:
        """``φ_deg`` for the current degree (0, 1, 2, … on successive calls)."""
        if self.deg > 0:
            d = self.deg - 1
            big_n = float(self.m)
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                nxt = ((self.p * (big_n - d) + d * (1.0 - self.p) - self.u) * self.k_cur
                       - np.sqrt(d * (big_n - d + 1) * self.var) * self.k_prev) / np.sqrt((d + 1) * (big_n - d) * self.var)
            ok = self.live & (self.deg <= self.stable) & (self.deg <= self.m)
            self.k_prev, self.k_cur = self.k_cur, np.where(ok, nxt, 0.0)
        self.deg += 1
        return self.base * self.k_cur


def mixture_grid_refusal(cells: int, what: str):
    """``InputError``: the grid of ``(FP*_a, FP*_b)`` at one recall level is larger than :data:`MAX_GRID`."""
    raise InputError(
        f"The exact paired law of {what} spans {cells:,} cells of (FP*_a, FP*_b), more than the {MAX_GRID:,} "
        "rocci builds for one recall level (the grid's side grows like the square root of the negatives' "
        "bootstrap sample size m−): ask for a smaller m=(m_pos, m_neg), e.g. m_neg = 10^4, or compare the models "
        "at threshold pairs (thresholds_a, thresholds_b), or by ΔTPR at fixed FPR (rocci.compare_vertical).")


def _one_blas_thread():
    """One BLAS thread for a loop of small matrix products, when threadpoolctl is installed (a shared
    machine's OpenBLAS threads cost more to wake than such a product takes); otherwise nothing."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(1, user_api="blas")


def mixture_grid(w, n_a, n_b, c, n: int, m: int, what: str):
    """The law of ``(FP*_a, FP*_b)``: mixture over the pairs of blocks (module docstring).

    Returns ``(u0, v0, grid, extra, truncated)``: ``grid[i, j] = P(u0 + i, v0 + j)`` from the series,
    ``extra`` a list of ``(u, v, p)`` cells of the pairs summed cell by cell, and the mass left out (the
    windows of the binomials, and the bound of the series' cut).
    """
    from .paired import bivariate_counts

    keep_a, keep_b = w.sum(axis=1) > 0, w.sum(axis=0) > 0
    w, c = w[keep_a][:, keep_b], c[keep_a][:, keep_b]
    n_a, n_b = n_a[keep_a], n_b[keep_b]
    alpha, beta = n_a / n, n_b / n
    lo_a, hi_a, tail_a = _windows(m, alpha)
    lo_b, hi_b, tail_b = _windows(m, beta)
    u0, v0 = int(lo_a.min()), int(lo_b.min())
    wu, wv = int(hi_a.max()) - u0 + 1, int(hi_b.max()) - v0 + 1
    if wu * wv > MAX_GRID:
        mixture_grid_refusal(wu * wv, what)
    spread = np.sqrt(np.outer(alpha * (1 - alpha), beta * (1 - beta)))
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(spread > 0, (c / n - np.outer(alpha, beta)) / np.where(spread > 0, spread, 1.0), 0.0)
    rho = np.clip(rho, -1.0, 1.0)
    kraw_a, kraw_b = _Krawtchouk(m, alpha, lo_a, hi_a), _Krawtchouk(m, beta, lo_b, hi_b)
    # Σ_u √b(u) over each window: the series' error bound per pair is w·|ρ|^L·root_a·root_b after L terms.
    root_a = np.sqrt(np.clip(kraw_a.base, 0, None)).sum(axis=1)
    root_b = np.sqrt(np.clip(kraw_b.base, 0, None)).sum(axis=1)
    size = w * np.outer(root_a, root_b)
    r_abs = np.abs(rho)
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.ceil(np.log(_SERIES_EPS / size) / np.log(r_abs))
    need = np.where((size <= _SERIES_EPS) | (r_abs == 0), 1.0, np.where(r_abs >= 1, np.inf, need))
    need = np.maximum(need, 1.0)  # terms ℓ = 0 … need − 1
    # Past its stable degree a point's φ_ℓ is set to 0: the terms left out there change a cell by at most
    # |ρ|^(S(u)+1)·√(b(u) b(v)), so a pair's error is at most w·(|ρ|^L·root_a·root_b + T_a·root_b + root_a·T_b),
    # T_a = Σ_u √b(u)·ρ̄^(S(u)+1) with ρ̄ the largest |ρ| of the row (of the column for T_b).
    with np.errstate(under="ignore"):
        bar_a, bar_b = r_abs.max(axis=1), r_abs.max(axis=0)
        t_a = (np.sqrt(np.clip(kraw_a.base, 0, None)) * bar_a[:, None] ** (np.minimum(kraw_a.stable, m) + 1)).sum(1)
        t_b = (np.sqrt(np.clip(kraw_b.base, 0, None)) * bar_b[:, None] ** (np.minimum(kraw_b.stable, m) + 1)).sum(1)
    unstable = w * (np.outer(t_a, root_b) + np.outer(root_a, t_b))
    need = np.minimum(need, m + 1)  # m + 1 terms: the whole (finite) expansion
    series = (w > 0) & (need <= _MAX_TERMS) & (unstable <= _SERIES_EPS)
    direct = (w > 0) & ~series
    terms = int(need[series].max(initial=1.0))
    trunc = float(w.sum(axis=1) @ tail_a + w.sum(axis=0) @ tail_b)
    exact_all = need >= m + 1
    cut = np.where(exact_all, 0.0, w * r_abs ** need * np.outer(root_a, root_b)) + unstable
    trunc += float(np.where(series, cut, 0.0).sum())
    grid = np.zeros((wu, wv))
    w_s = np.where(series, w, 0.0)
    if series.any():
        # Φ_ℓ as (rows, wu) and Ψ_ℓ as (cols, wv) in chunks of terms: P += Σ_ℓ Φ_ℓᵀ (w ∘ ρ^ℓ) Ψ_ℓ.
        per = max(1, _CHUNK // max(1, alpha.size * (wu + wv)))
        in_a, in_b = kraw_a.inside, kraw_b.inside
        ua = ((lo_a - u0)[:, None] + np.arange(in_a.shape[1])[None, :])[in_a]
        ub = ((lo_b - v0)[:, None] + np.arange(in_b.shape[1])[None, :])[in_b]
        ia = np.broadcast_to(np.arange(alpha.size)[:, None], in_a.shape)[in_a]
        ib = np.broadcast_to(np.arange(beta.size)[:, None], in_b.shape)[in_b]
        power = w_s.copy()
        dense_b = np.zeros((beta.size, wv))
        for start in range(0, terms, per):
            stop = min(terms, start + per)
            left = np.zeros((stop - start, alpha.size, wu))
            right = np.empty((stop - start, alpha.size, wv))
            with _one_blas_thread():  # many small products: threads only add their start-up
                for i in range(stop - start):
                    left[i, ia, ua] = kraw_a.next()[in_a]
                    dense_b[ib, ub] = kraw_b.next()[in_b]
                    right[i] = np.dot(power, dense_b)
                    power *= rho
            grid += left.reshape(-1, wu).T @ right.reshape(-1, wv)
    np.clip(grid, 0.0, None, out=grid)
    extra = []
    for i, j in zip(*np.nonzero(direct)):
        x, y, p, t = bivariate_counts(m, n, int(c[i, j]), int(n_a[i] - c[i, j]), int(n_b[j] - c[i, j]))
        extra.append((x, y, w[i, j] * p))
        trunc += float(w[i, j] * t)
    return u0, v0, grid, extra, trunc, int(direct.sum()), terms


def recall_law(data: PairedClasses, r: int, metric: str, m_pos: int, m_neg: int):
    """The law of ``Δ*`` at level ``r`` by the blocks and the Lancaster series, or None (use the direct route)."""
    what = f"the difference of {metric} at recall {r}/{m_pos}"
    blocks = threshold_blocks(data, r, m_pos)
    if blocks is None:
        return None
    w, n_a, n_b, c = blocks
    trunc = max(0.0, 1.0 - float(w.sum()))
    u0, v0, grid, extra, t, _, _ = mixture_grid(w, n_a, n_b, c, data.n_neg, m_neg, what)
    trunc += t
    fa = np.arange(u0, u0 + grid.shape[0])
    fb = np.arange(v0, v0 + grid.shape[1])
    if metric == "precision":
        def gfun(f):
            return r / (r + f)
    else:
        def gfun(f):
            return 2 * r / (r + f + m_pos)
    values = (gfun(fa)[:, None] - gfun(fb)[None, :]).ravel()
    probs = grid.ravel()
    # Cells below 1e-17 in all are left out of the sort (most of the grid's corners).
    floor = CELL_EPS / probs.size
    keep = probs > floor
    trunc += float(probs[~keep].sum())
    values, probs = [values[keep]], [probs[keep]]
    for x, y, p in extra:
        values.append(gfun(x) - gfun(y))
        probs.append(p)
    return Law(np.concatenate(values), np.concatenate(probs), truncated=trunc, merge_atol=_DELTA_ATOL)
