"""The paired order-statistic kernel: the joint law of two models' thresholds drawn from one bootstrap
sample of negatives (thesis §4.4.2), shared by :mod:`rocci.compare.vertical` (ΔTPR at fixed FPR) and
:mod:`rocci.precision` (precision at fixed recall, paired).

``T1_r`` is the r-th largest model-1 score among the drawn negatives and ``T2_r`` the r-th largest
model-2 score; with each model's negatives ranked decreasingly, ``T1_r = s1_(K)``, ``T2_r = s2_(J)`` and
``F(k, j) = P(K <= k, J <= j) = P(N1_k >= r, N2_j >= r)``.  Three routes compute ``F``: the Lancaster
(Krawtchouk) series of the bivariate binomial (:func:`_joint_cdf_series`), the sum over the few draws in
the two top sets' difference (:func:`_joint_cdf_disagreement`), and the quadrature over the model-1 order
statistic (:func:`_joint_threshold_law`); the thesis's direct formula is :func:`_joint_cdf`.  The module
docstring of :mod:`rocci.compare.vertical` derives them.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .exact import _boost_binom_pmf, binomial_cdf, binomial_pmf


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


def _stable_rank_desc(x: np.ndarray) -> np.ndarray:
    order = np.argsort(-x, kind="stable")
    rank = np.empty(x.size, dtype=np.int64)
    rank[order] = np.arange(1, x.size + 1)
    return rank


#: Probability per tail left out of a binomial window or of a tail test.
_TAIL_EPS = 1e-16


_LAMBDA = float(-np.log(_TAIL_EPS))


#: Elements per work array (memory stays near 100 MB).
_BLOCK = 1 << 21


#: Columns between exact (boost) anchors of a binomial pmf row.
_SEGMENT = 32


def _bernstein(var, lam: float = _LAMBDA):
    """Half-width ``t`` with ``exp(−t²/(2(V + t/3))) = e^(−λ)`` (Bernstein's bound; λ for :data:`_TAIL_EPS`)."""
    return lam / 3.0 + np.sqrt(lam**2 / 9.0 + 2.0 * lam * np.asarray(var, float))


def _kl_bound(n, p, upper: bool, lam: float = _LAMBDA):
    """Distance ``t`` from the mean with ``P(S − n·p >= t) <= e^(−λ)`` (``upper``) or
    ``P(n·p − S >= t) <= e^(−λ)``, for ``S`` a sum of ``n`` independent
    Bernoulli variables of mean probability ``p`` (``λ`` for :data:`_TAIL_EPS` by default).

    Chernoff's bound ``P(S >= n(p + x)) <= exp(−n·KL(p + x ‖ p))`` holds for
    any such sum (the moment generating function of a Poisson-binomial is at
    most that of the binomial with the same mean).  ``n·KL(p + x ‖ p) = λ`` is
    solved by Newton's method started from Bernstein's (larger) half-width;
    on this convex increasing function the iterates decrease to the root and
    never cross it, so every iterate is a valid bound.  Where the bound
    cannot reach ``λ`` the whole range is returned.
    """
    n = np.asarray(n, float)
    p = np.clip(np.asarray(p, float), 0.0, 1.0)
    if not upper:  # the lower tail of S is the upper tail of n − S
        p = 1.0 - p
    room = n * (1.0 - p)  # largest possible excess over the mean
    x = np.minimum(_bernstein(n * p * (1 - p), lam), room) / np.where(n > 0, n, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        reachable = -n * np.log(p) > lam  # n·KL(1 ‖ p) > λ
        for _ in range(2):  # one or two steps reach the root to within a unit
            a = np.clip(p + x, p, 1.0)
            kl = special.xlogy(a, a / p) + special.xlogy(1 - a, (1 - a) / (1 - p))
            slope = np.log(a / p) - np.log((1 - a) / (1 - p))
            step = (n * kl - lam) / (n * slope)
            x = np.where(reachable & np.isfinite(step) & (step > 0), x - step, x)
    return np.where(reachable, np.ceil(n * x), room)


def _binomial_rows(n: int, q: np.ndarray, start: np.ndarray, length: int) -> np.ndarray:
    """``out[p, i] = b(start[p] + i; n, q[p])`` (0 above ``n``), shape ``(P, length)``; ``start >= 0``.

    Exact boost pmf anchors every :data:`_SEGMENT` columns and the ratio
    ``b(x + 1)/b(x) = (n − x)/(x + 1) · q/(1 − q)`` in between: relative error
    below ~1e-14, and no recursion long enough to underflow.
    """
    n_seg = -(-length // _SEGMENT)
    cols = n_seg * _SEGMENT
    base = np.zeros(n + cols + 2)  # (n − x)/(x + 1), 0 from x = n on
    xs = np.arange(n + 1, dtype=float)
    base[: n + 1] = (n - xs) / (xs + 1.0)
    q = np.clip(q, 0.0, 1.0)
    sure = q >= 1.0
    odds = q / np.where(sure, 1.0, 1.0 - q)
    # Row p of the ratios is base[start[p] : start[p] + cols]: copy whole rows, not elements.
    ratio = np.lib.stride_tricks.sliding_window_view(base, cols)[start]
    ratio *= odds[:, None]
    ratio = ratio.reshape(-1, n_seg, _SEGMENT)
    xa = start[:, None] + _SEGMENT * np.arange(n_seg)[None, :]
    anchors = np.where(xa <= n, _boost_binom_pmf(np.minimum(xa, n).astype(float), float(n), q[:, None]), 0.0)
    vals = np.empty_like(ratio)
    vals[:, :, 0] = anchors
    np.cumprod(ratio[:, :, :-1], axis=2, out=vals[:, :, 1:])
    vals[:, :, 1:] *= anchors[:, :, None]
    vals = vals.reshape(q.size, cols)
    if sure.any():  # q = 1: all the mass at n (the ratio is 0·∞ there)
        vals[sure] = (start[sure][:, None] + np.arange(cols)[None, :] == n).astype(float)
    return vals[:, :length]


def _sum_tail(q_lo: np.ndarray, q_hi: np.ndarray, s: np.ndarray, n1: int, n2: int, tick=None) -> np.ndarray:
    """``P(X + Y >= s)`` for independent ``X ~ Bin(n1, q_lo)``, ``Y ~ Bin(n2, q_hi)`` (arrays).

    ``Σ_x b(x; n1, q_lo) · P(Y >= s − x)`` over the window of ``X`` (Chernoff
    bounds, :func:`_kl_bound`, ``_TAIL_EPS`` per tail), with ``P(Y >= y)`` the
    reversed cumulative sum of ``Y``'s pmf over its own window.  Points whose
    answer is 0 or 1 to within ``2·_TAIL_EPS`` (``s`` outside the sum of the
    windows) are not summed.
    """
    out = np.zeros(q_lo.shape)
    # Windows of X and Y; outside x0 + y0 <= X + Y <= x1 + y1 lies at most 2·_TAIL_EPS.
    x0 = np.clip(np.floor(n1 * q_lo - _kl_bound(n1, q_lo, upper=False)), 0, n1).astype(np.int64)
    x1 = np.clip(np.ceil(n1 * q_lo + _kl_bound(n1, q_lo, upper=True)), 0, n1).astype(np.int64)
    y0 = np.clip(np.floor(n2 * q_hi - _kl_bound(n2, q_hi, upper=False)), 0, n2).astype(np.int64)
    y1 = np.clip(np.ceil(n2 * q_hi + _kl_bound(n2, q_hi, upper=True)), 0, n2).astype(np.int64)
    out[s <= x0 + y0] = 1.0
    todo = np.flatnonzero((s > x0 + y0) & (s <= x1 + y1))
    if todo.size == 0:
        return out
    ql, qh, ss = q_lo[todo], q_hi[todo], s[todo].astype(np.int64)
    x0, x1, y0, y1 = x0[todo], x1[todo], y0[todo], y1[todo]
    # Points come in (k, node, j) order: within a block, many share q_lo (same overlap
    # count below u) or q_hi, so each distinct binomial row is computed once.
    a = 0
    while a < todo.size:
        look = slice(a, a + 1024)
        width = int((x1[look] - x0[look]).max() + (y1[look] - y0[look]).max()) + 2
        b = slice(a, a + max(1, _BLOCK // (2 * width + 2 * _SEGMENT)))
        lx = int((x1[b] - x0[b]).max()) + 1
        ly = int((y1[b] - y0[b]).max()) + 1
        ux, first_x, ix = np.unique(ql[b], return_index=True, return_inverse=True)
        uy, first_y, iy = np.unique(qh[b], return_index=True, return_inverse=True)
        px = _binomial_rows(n1, ux, x0[b][first_x], lx)
        py = _binomial_rows(n2, uy, y0[b][first_y], ly)
        # g[:, lx + k] = P(Y >= y0 + k): the reversed cumulative sum for 0 <= k < ly,
        # P(Y >= y0) (= 1 within _TAIL_EPS) for k < 0, and 0 for k >= ly.
        g = np.zeros((uy.size, 2 * lx + ly))
        g[:, lx:lx + ly] = np.cumsum(py[:, ::-1], axis=1)[:, ::-1]
        g[:, :lx] = g[:, lx:lx + 1]
        # Term i pairs x = x0 + i with y − y0 = off − i, off = s − x0 − y0: column lx + off − i.
        # Clipping off to [−1, lx + ly − 1] changes no term (all ones / all zeros beyond).
        off = np.clip(ss[b] - x0[b] - y0[b], -1, lx + ly - 1)
        windows = np.lib.stride_tricks.sliding_window_view(g, lx, axis=1)  # [u, c, t] = g[u, c + t]
        take = windows[iy.ravel(), off + 1]  # t = lx − 1 − i
        out[todo[b]] = np.einsum("pt,pt->p", px[:, ::-1][ix.ravel()], take)
        a = b.stop
        if tick is not None:
            tick(min(a, todo.size) / todo.size)
    return out


def _gl_nodes(r: int, m: int, n: int) -> int:
    """Gauss–Legendre nodes per cell ``((k − 1)/n, k/n]`` for ``β(u)·P(N2 >= r | u)``.

    The integrand is a polynomial of degree ``m − 1`` in ``u`` (each binomial
    term times ``u^(r−1)(1 − u)^(m−r)`` is), so ``⌈m/2⌉`` nodes are exact.
    For larger ``m`` the cells are narrow compared with the spread ``σ`` of
    ``U_(r)`` and a few nodes reach ~1e-15: the orders below, by the cell
    width ``ρ = (1/n)/σ``, were chosen by comparing with 16 nodes for
    ``n`` from 100 to 3000 and levels from 5% to 50% (errors <= 1e-14).
    """
    exact = max(1, -(-m // 2))
    a, b = float(r), float(m - r + 1)
    mode = min(max((a - 1) / (a + b - 2) if a + b > 2 else 0.5, 1.0 / n), 1 - 1.0 / n)
    sigma = np.sqrt(max(mode * (1 - mode), 1.0 / n) / (a + b + 1))
    rho = (1.0 / n) / sigma
    for limit, order in ((0.015, 2), (0.04, 3), (0.15, 4), (0.3, 5), (0.6, 7), (1.2, 12)):
        if rho <= limit:
            return min(exact, order)
    return min(exact, 32)


def _conditional_shares(mu, u, share_j, at_zero=0.0):
    """``(q₁, q₂)`` of :func:`_joint_threshold_law`, clipped to [0, 1]: the chance that one of the draws below
    ``u`` (``q₁ = μ/u``; ``at_zero`` at ``u = 0``) and one of those above it (``q₂ = (j/n − μ)/(1 − u)``; 0 at
    ``u = 1``) falls in model 2's top ``j``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q1 = np.where(u > 0, mu / u, at_zero)
        q2 = np.where(u < 1, (share_j - mu) / (1.0 - u), 0.0)
    return np.clip(q1, 0.0, 1.0), np.clip(q2, 0.0, 1.0)


def _conditional_moments(q1, q2, r: int, m: int):
    """Mean and variance of ``Bin(r − 1, q₁) + Bin(m − r, q₂)`` (independent)."""
    return (r - 1) * q1 + (m - r) * q2, (r - 1) * q1 * (1.0 - q1) + (m - r) * q2 * (1.0 - q2)


#: Gauss–Legendre nodes per cell and the largest shift ``Δz`` of a standard normal CDF across the cell
#: that they integrate to 1e-14 of the cell's mass (measured against the antiderivative of ``Φ``).
_SHIFT_NODES = ((0.003, 2), (0.045, 3), (0.18, 4), (0.44, 5), (0.78, 6), (1.2, 7), (1.6, 8), (2.6, 10),
                (3.3, 12), (5.0, 16), (8.0, 24))


def _conditional_nodes(c: np.ndarray, in_s: np.ndarray, k: np.ndarray, j_grid: np.ndarray, n: int, m: int,
                       r: int, p_k: np.ndarray) -> int:
    """Gauss–Legendre nodes per cell for the factor ``P(N2_j >= r | u)`` of :func:`_joint_threshold_law`.

    Across cell ``k`` the mean of ``N2_j | u`` moves by ``δ`` (about ``m/n`` times the share of the
    top sets' overlap); its spread is ``s = √((r − 1)q₁(1 − q₁) + (m − r)q₂(1 − q₂))``.  For two
    near-copies of a model ``s`` is a few draws next to the diagonal, and the tail moves like
    ``Φ`` over ``Δz = δ/max(s, 1)``: two or three nodes, enough for the order statistic's density
    (:func:`_gl_nodes`), leave ~1e-10 there.  The nodes are those of :data:`_SHIFT_NODES` for the
    largest ``Δz`` among the pairs whose tail is not 0 or 1 (within ``10·s`` of ``r``) in rows
    holding more than 1e-14 of ``K``'s mass.
    """
    e = in_s.astype(float)
    worst = 0.0
    step = max(1, (1 << 21) // max(j_grid.size, 1))  # rows at a time: a few arrays of ~2·10^6
    for a in range(0, k.size, step):
        rows = slice(a, a + step)
        if not np.any(p_k[rows] > 1e-14):
            continue
        ends = []
        for frac in (0.0, 1.0):
            u = ((k[rows] - 1 + frac) / n)[:, None]
            mu = (c[rows] + e[rows] * frac) / n
            mean, var = _conditional_moments(*_conditional_shares(mu, u, j_grid[None, :] / n, e[rows]), r, m)
            ends.append((mean + e[rows], var))
        delta = np.abs(ends[1][0] - ends[0][0])
        spread = np.sqrt(np.maximum(np.maximum(ends[0][1], ends[1][1]), 1.0))
        middle = (ends[0][0] + ends[1][0]) / 2.0
        live = (np.abs(middle - r) <= 10.0 * spread + delta) & (p_k[rows] > 1e-14)[:, None]
        if live.any():
            worst = max(worst, float((delta / spread)[live].max()))
    for limit, order in _SHIFT_NODES:
        if worst <= limit:
            return order
    return 32


def _joint_threshold_law(rank2_by_rank1: np.ndarray, n: int, m: int, r: int, k_win: np.ndarray,
                         tick=None) -> np.ndarray:
    """``f[k, j] = P(K = k, J = j)`` on the window ``k, j ∈ k_win`` (fast route).

    ``K = ⌈n·U_(r)⌉`` with ``U_(r) ~ Beta(r, m − r + 1)`` the r-th smallest of
    ``m`` uniforms, each uniform drawing the negative of model-1 rank
    ``⌈n·U⌉``.  Given ``U_(r) = u`` in cell ``k``, the other draws are ``r − 1``
    uniforms on ``[0, u)`` and ``m − r`` on ``(u, 1]``, so the number of draws
    among model 2's top ``j`` negatives ``S_j`` is

    ``N2_j | u = Bin(r − 1, μ/u) + e + Bin(m − r, (j/n − μ)/(1 − u))``,

    ``e = 1[rank2(k) <= j]``, ``μ = (c(k − 1, j) + e·(n·u − k + 1))/n`` the
    measure of ``S_j`` in ``[0, u)``, ``c(k − 1, j)`` the overlap of model 1's
    top ``k − 1`` with ``S_j``.  Then

    ``P(K = k, J <= j) = ∫_{(k−1)/n}^{k/n} β(u) · P(N2_j >= r | u) du``

    by Gauss–Legendre quadrature on the cell (the nodes of :func:`_gl_nodes` for ``β``, more where
    ``P(N2_j >= r | u)`` moves within a cell: :func:`_conditional_nodes`), and ``f``
    by differencing in ``j``.  Cost O(W²·nodes·sqrt(m)) for a window of width W.
    """
    k = k_win
    j_grid = np.arange(k[0] - 1, k[-1] + 1)  # one extra column for the differences
    # c[a, b] = #{i <= k[a] − 1 : rank2(i) <= j_grid[b]}
    prefix = np.sort(rank2_by_rank1[: k[0] - 1])
    c0 = np.searchsorted(prefix, j_grid, side="right")
    in_s = rank2_by_rank1[k - 1][:, None] <= j_grid[None, :]  # e[a, b] = 1[rank2(k[a]) <= j]
    c = c0[None, :] + np.vstack([np.zeros((1, j_grid.size), np.int64), np.cumsum(in_s[:-1], axis=0)])
    p_k = special.betainc(r, m - r + 1, k / n) - special.betainc(r, m - r + 1, (k - 1) / n)  # P(K = k)
    g = min(max(1, -(-m // 2)), max(_gl_nodes(r, m, n), _conditional_nodes(c, in_s, k, j_grid, n, m, r, p_k)))
    xi, wts = np.polynomial.legendre.leggauss(g)
    frac = (1.0 + xi) / 2.0  # node position inside the cell
    u = (k[:, None] - 1 + frac[None, :]) / n  # (W, G)
    dens = m * _boost_binom_pmf(float(r - 1), float(m - 1), u) * (wts / (2.0 * n))[None, :]  # β(u)·weight
    big_f = np.empty((k.size, j_grid.size))  # P(K = k, J <= j)
    step = max(1, _BLOCK // (g * j_grid.size))  # rows of cells at a time: arrays of ~2·10^6 points
    for a in range(0, k.size, step):
        rows = slice(a, a + step)
        e = in_s[rows][:, None, :].astype(float)  # (w, 1, J)
        mu = (c[rows][:, None, :] + e * frac[None, :, None]) / n  # (w, G, J)
        uu = u[rows][:, :, None]
        q_lo, q_hi = _conditional_shares(mu, uu, j_grid[None, None, :] / n)  # nodes inside the cell: 0 < u < 1
        s = np.broadcast_to(r - e, q_lo.shape)
        # P(X + Y >= s) is 0 or 1 to within e^(−λ) where Bernstein's bound on X + Y − E puts s out of reach:
        # most pairs of a near-copy (the band around the diagonal is narrow), none summed.
        mean, var = _conditional_moments(q_lo, q_hi, r, m)
        half = _bernstein(var)
        tail = (mean - half >= s).astype(float)
        todo = (mean - half < s) & (mean + half >= s)
        if todo.any():
            tail[todo] = _sum_tail(q_lo[todo], q_hi[todo], s[todo].astype(float), r - 1, m - r)
        big_f[rows] = np.einsum("kg,kgj->kj", dens[rows], tail)
        if tick is not None:
            tick(min(a + step, k.size) / k.size)
    return np.clip(np.diff(big_f, axis=1), 0.0, None)


#: Largest error allowed on each value of ``F(k, j)`` by cutting the series.
_SERIES_EPS = 1e-20


#: Most terms the series may use (beyond, the quadrature route is cheaper).  Up to 51217cc: 4000,
#: with :data:`_DISAGREE_MAX` 160; near-copies of one model (pairs of top sets with 1 − ρ ≈ 0.01,
#: a few hundred draws in their difference) then fell to the quadrature: ~11 s instead of ~1 s a
#: level at 10⁵ rows (``bench/bench_near_copy.py``), 258 s instead of 15 s at 10⁶ (a separate run).
_SERIES_MAX_TERMS = 10000


def _krawtchouk_stable_degree(x: np.ndarray, m: int, r: int) -> np.ndarray:
    """Largest degree ``n`` up to which the forward recurrence of :func:`_rank_tail_coefficients` is stable.

    ``k̂_n(X)`` is the orthonormal Krawtchouk polynomial of ``Bin(N, x)``,
    ``N = m − 1``, at the mass point ``X = r − 1``.  Its zeros fill, for large
    ``N``, the interval ``[(√(n(1−x)) − √((N−n)x))², (√(n(1−x)) + √((N−n)x))²]``;
    once that interval has moved past ``X`` the values at ``X`` decay with ``n``
    (a saturated region of the discrete measure) and a forward recurrence
    amplifies round-off.  The left edge passes ``X`` at
    ``n = N − v²``, ``v = √(Xx + N(1−x) − X) − √(Xx)`` (the right edge by the
    mirror ``X → N − X``, ``x → 1 − x``).  Checked against 80-digit
    arithmetic: the first error above 1e-15 appears 10–40 degrees later.
    """
    big_n, big_x = m - 1.0, r - 1.0

    def left(point, p):
        inner = point * p + big_n * (1.0 - p) - point
        v = np.sqrt(np.maximum(inner, 0.0)) - np.sqrt(point * p)
        return np.where(inner >= 0, big_n - v * v, np.inf)

    return np.minimum(left(big_x, x), left(big_n - big_x, 1.0 - x))


def _series_cut(x: np.ndarray, m: int, r: int):
    """``P(N >= r)`` and ``P(N < r)`` for ``N ~ Bin(m, x)``, and the most terms of the series the
    recurrence of :func:`_rank_tail_coefficients` gives accurately (:func:`_krawtchouk_stable_degree`)."""
    x = np.asarray(x, dtype=float)
    a_, b_ = float(r), float(m - r + 1)
    p, q = special.betainc(a_, b_, x), special.betaincc(a_, b_, x)
    stable = np.floor(_krawtchouk_stable_degree(x, m, r)) + 1.0  # term ℓ uses degree ℓ − 1
    return p, q, np.minimum(stable, float(m)).astype(np.int64)


def _rank_tail_coefficients(x: np.ndarray, m: int, r: int, terms: np.ndarray) -> np.ndarray:
    """Coefficients of the series for ``P(N1 >= r, N2 >= r)`` at ``P(one draw in the set) = x``.

    With ``N ~ Bin(m, x)``, ``P = P(N >= r) = I_x(r, m − r + 1)`` and, for
    ``ℓ >= 1``,

    ``a_ℓ(x) = (−1)^(ℓ−1) √(m/ℓ) · √(x(1−x)) · b(r−1; m−1, x) · k̂_(ℓ−1)(r − 1)``,

    ``k̂_n`` the orthonormal Krawtchouk polynomials of ``Bin(m − 1, x)``
    (three-term recurrence ``√((n+1)(N−n)x(1−x)) k̂_(n+1) =
    (x(N−n) + n(1−x) − X) k̂_n − √(n(N−n+1)x(1−x)) k̂_(n−1)``).  They are the
    normalised Taylor coefficients of ``t ↦ I_(x + t√(x(1−x)))(r, m − r + 1)``
    and Bessel's inequality bounds them: ``Σ_ℓ a_ℓ² <= P(1 − P)``.

    Returns ``a`` of shape ``(len(x), max(terms))``: ``a[i, ℓ − 1] = a_ℓ(x_i)``
    for ``ℓ <= terms[i]``, 0 beyond (:func:`_series_cut`); a transposed view of a
    ``(max(terms), len(x))`` array, so that ``a.T[ℓ − 1]`` (one degree, every ``x``) is contiguous.
    """
    x = np.asarray(x, dtype=float)
    width = int(terms.max()) if terms.size else 0
    out_t = np.zeros((max(width, 1), x.size))
    out = out_t.T
    if width == 0:
        return out
    big_n, big_x = m - 1.0, r - 1.0
    var = x * (1.0 - x)
    live = var > 0
    safe = np.where(live, var, 1.0)
    base = np.sqrt(var) * np.sqrt(m) * _boost_binom_pmf(big_x, big_n, x)
    out[:, 0] = np.where(terms >= 1, base, 0.0)
    k_prev, k_cur = np.zeros(x.size), np.ones(x.size)
    for deg in range(width - 1):  # k̂_(deg+1) from k̂_deg and k̂_(deg−1)
        with np.errstate(over="ignore", invalid="ignore"):  # rows past their cut are discarded
            nxt = ((x * (big_n - deg) + deg * (1.0 - x) - big_x) * k_cur
                   - np.sqrt(deg * (big_n - deg + 1) * safe) * k_prev) / np.sqrt((deg + 1) * (big_n - deg) * safe)
        k_prev, k_cur = k_cur, np.where(live & (deg + 2 <= terms), nxt, 0.0)
        ell = deg + 2
        out_t[ell - 1] = (-1.0) ** (ell - 1) * np.sqrt(1.0 / ell) * base * k_cur
    return out


#: Largest window of the count of draws in the disagreement of two top sets summed over.
_DISAGREE_MAX = 400


def _disagreement_window(k, j, overlap, n: int, m: int) -> np.ndarray:
    """Upper end of the window of ``T``, the draws in the symmetric difference of the two top
    sets, ``T ~ Bin(m, (k + j − 2c)/n)``: ``P(T > window) <= _SERIES_EPS`` (Chernoff)."""
    share = (k + j - 2.0 * overlap) / n
    return np.minimum(np.ceil(m * share + _kl_bound(m, share, upper=True, lam=-np.log(_SERIES_EPS))), m)


def _joint_cdf_disagreement(k, j, overlap, n: int, m: int, r: int, width: int) -> np.ndarray:
    """``F(k, j) = P(N1_k >= r, N2_j >= r)`` for pairs whose two top sets nearly coincide.

    Split the negatives into ``A`` (model 1's top ``k`` only, ``k − c`` of them),
    ``B`` (model 2's top ``j`` only, ``j − c``) and ``C`` (both, ``c``).  Of the
    ``m`` draws, ``T ~ Bin(m, (k + j − 2c)/n)`` fall in ``A ∪ B``; given ``T = t``,
    ``A' ~ Bin(t, (k − c)/(k + j − 2c))`` of them fall in ``A`` and, independently,
    ``C' ~ Bin(m − t, c/(n − k − j + 2c))`` in ``C``.  ``N1 = C' + A'`` and
    ``N2 = C' + t − A'``, so

    ``F = Σ_t P(T = t) Σ_u P(min(A', t − A') = u | t) · P(C' >= r − u | t)``,

    summed for ``t <= width`` (the rest, at most :data:`_SERIES_EPS`, is left
    out; :func:`_disagreement_window`).  For each ``t`` the tails of ``C'`` come
    from one incomplete beta and the running sum of its pmf (by ratios), and
    the shares of ``min(A', t − A')`` from Pascal's rule: O(width²) per pair,
    where the Lancaster series would need O(1/(1 − ρ)) terms.
    """
    k, j, c = (np.asarray(v, dtype=float) for v in (k, j, overlap))
    apart = k + j - 2.0 * c
    share = apart / n
    side = np.where(apart > 0, (k - c) / np.where(apart > 0, apart, 1.0), 0.5)
    g = c / (n - apart)
    g_out = (n - apart - c) / (n - apart)  # 1 − g, exactly (callers keep it positive)
    span = width // 2  # min(A', t − A') <= t/2
    p_t = _boost_binom_pmf(np.arange(width + 1.0)[None, :], float(m), share[:, None])  # P(T = t)
    # C' tails P(Bin(M, g) >= r − u) and pmf b(r − u − 1; M, g), u = 0 … span, for M = m − t.
    a = r - np.arange(span + 1)  # thresholds r − u
    pmf = _boost_binom_pmf(np.maximum(a - 1.0, 0.0)[None, :], float(m), g[:, None]) * (a - 1 >= 0)[None, :]
    tail = np.empty((k.size, span + 1))
    split = np.zeros((k.size, width + 1))  # P(A' = i | t), Pascal's rule in t
    split[:, 0] = 1.0
    out = np.zeros(k.size)
    for t in range(width + 1):
        if t:
            split[:, 1:t + 1] = split[:, 1:t + 1] * (1.0 - side)[:, None] + split[:, :t] * side[:, None]
            split[:, 0] *= 1.0 - side
            if t % _SEGMENT:
                big = m - t + 1  # M → M − 1: b(a − 1; M − 1) = b(a − 1; M)·(M − a + 1)/(M(1 − g))
                pmf = pmf * np.maximum(big - a + 1.0, 0.0)[None, :] / (big * g_out)[:, None]
            else:  # anew every _SEGMENT steps: the ratios' round-off would grow with t
                x = np.clip(a - 1.0, 0.0, m - t)  # b(x; M, g) = 0 outside 0 … M (boost gives NaN above M)
                pmf = _boost_binom_pmf(x[None, :], float(m - t), g[:, None])
                pmf *= ((a - 1 >= 0) & (a - 1 <= m - t))[None, :]
        # P(Bin(m − t, g) >= r) anew (no error carried over t), then P(>= a − 1) = P(>= a) + b(a − 1).
        tail[:, 0] = special.betainc(float(r), float(m - t - r + 1), g) if m - t >= r else 0.0
        tail[:, 1:] = tail[:, :1] + np.cumsum(pmf[:, :-1], axis=1)
        tail = np.where((a <= 0)[None, :], 1.0, np.minimum(tail, 1.0))
        u = np.arange(t // 2 + 1)
        low = split[:, u] + np.where(u < t - u, split[:, t - u], 0.0)  # P(min(A', t − A') = u)
        out += p_t[:, t] * np.einsum("pu,pu->p", low, tail[:, : u.size])
    return out


def _joint_cdf_series(k: np.ndarray, j: np.ndarray, overlap: np.ndarray, n: int, m: int, r: int):
    """``G[a, b] = F(k[a], j[b]) − P(N1_k >= r) P(N2_j >= r)`` on a grid, by the Lancaster series.

    Each draw falls in model 1's top ``k`` with probability ``α = k/n``, in
    model 2's top ``j`` with ``β = j/n`` and in both with ``c/n``; the counts
    ``(N1_k, N2_j)`` are a sum of ``m`` independent pairs of Bernoulli
    variables with correlation ``ρ = (c/n − αβ)/√(α(1−α)β(1−β))``.  The
    Lancaster expansion of that bivariate binomial (Krawtchouk polynomials)
    gives

    ``F(k, j) = P(N1_k >= r, N2_j >= r) = Σ_(ℓ>=0) ρ^ℓ a_ℓ(α) a_ℓ(β)``,

    ``a_0 = P(Bin(m, ·) >= r)`` and ``a_ℓ`` from :func:`_rank_tail_coefficients`
    (the discrete analogue of the tetrachoric series of the bivariate
    normal).  By Bessel's inequality the terms after ``L`` add at most
    ``|ρ|^(L+1) √(P_α Q_α P_β Q_β)``: each pair gets the ``L`` that brings this
    below :data:`_SERIES_EPS`, within the stable range of the recurrence
    (:func:`_series_cut`).  Cost O(|k|·|j|·L), ``L ≈ 46/|log ρ|``.

    Pairs with ``ρ`` near 1 (two top sets that nearly coincide) would need
    thousands of terms; they are summed over the few draws in the two sets'
    difference instead (:func:`_joint_cdf_disagreement`, O(w²) for a window of
    ``w`` such draws), and when one set lies inside the other ``F`` is the
    smaller set's ``P(N >= r)``.  The split between the two sums is the
    cheaper of a few.

    Returns
    -------
    G : ndarray of shape (len(k), len(j)), or None
        None when some pair has neither a short enough series nor a small
        enough difference (:data:`_SERIES_MAX_TERMS`, :data:`_DISAGREE_MAX`).
    """
    alpha, beta = k / n, j / n
    spread = np.sqrt(np.outer(alpha * (1 - alpha), beta * (1 - beta)))
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = (overlap / n - np.outer(alpha, beta)) / spread
    rho = np.where(spread > 0, rho, 0.0)
    xs, inverse = np.unique(np.r_[alpha, beta], return_inverse=True)
    p, q, stable = _series_cut(xs, m, r)
    ia, ib = inverse[: k.size], inverse[k.size:]
    # Terms each pair needs: |ρ|^(L+1) √(P Q P' Q') <= eps.
    size = np.sqrt(np.outer(p[ia] * q[ia], p[ib] * q[ib]))
    rho_abs = np.abs(rho)
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.ceil(np.log(_SERIES_EPS / size) / np.log(rho_abs)) - 1.0
    need = np.where((size <= _SERIES_EPS) | (rho_abs == 0), 0.0, np.where(rho_abs >= 1, np.inf, need))
    need = np.maximum(need, 0.0)
    limit = np.minimum(stable[ia][:, None], stable[ib][None, :])
    kk, jj = np.broadcast_arrays(k[:, None], j[None, :])
    apart = kk + jj - 2.0 * overlap
    # One top set inside the other: F is the tail of the smaller set's count, P of that set.
    nested = (overlap == kk) | (overlap == jj)
    need = np.where(nested, 0.0, need)
    window = np.where(n - apart - overlap > 0, _disagreement_window(kk, jj, overlap, n, m), np.inf)
    # Each pair: its own number of series terms, or the sum over the sets' difference when that is
    # cheaper (about 1.5·(w + 1)² series terms' time) or the series is out of its stable range.
    can_series = nested | (need <= np.minimum(limit, _SERIES_MAX_TERMS))
    can_diff = window <= _DISAGREE_MAX
    if not np.all(can_series | can_diff):
        return None
    use_diff = ~nested & can_diff & (~can_series | (1.5 * (window + 1.0) ** 2 < need))
    series_need = np.where(use_diff | nested, 0.0, need)
    # Horner on the whole grid up to L0 terms (outer products), then the few pairs that need more
    # (next to the diagonal when ρ is high) on their own: L0 minimises the estimated time.
    top = float(series_need.max(initial=0.0))
    best_l0, best_cost = top, np.inf
    for l0 in np.unique(np.quantile(series_need, [0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 1.0])):
        cost = 4.5 * series_need.size * l0 + 12.0 * np.count_nonzero(series_need > l0) * (top - l0)
        if cost < best_cost:
            best_l0, best_cost = float(l0), cost
    # Terms per coefficient row: the most any series pair through it needs.
    terms = np.zeros(xs.size)
    np.maximum.at(terms, ia, series_need.max(axis=1, initial=0.0))
    np.maximum.at(terms, ib, series_need.max(axis=0, initial=0.0))
    # One degree's coefficients at every x at a time (rows of coef.T), not copies of the table per k and j.
    coef_t = _rank_tail_coefficients(xs, m, r, terms.astype(np.int64)).T
    acc = np.zeros((k.size, j.size))
    l0 = int(min(best_l0, coef_t.shape[0]))
    for ell in range(l0, 0, -1):  # Horner in ρ
        acc += np.outer(coef_t[ell - 1, ia], coef_t[ell - 1, ib])
        acc *= rho
    long = np.nonzero(series_need > l0)
    if long[0].size:
        # Σ_(ℓ > L0) ρ^ℓ a_ℓ a'_ℓ = ρ^L0 Σ_(i >= 1) ρ^i a_(L0+i) a'_(L0+i), by Horner over i.
        ra, rb, rho_long = ia[long[0]], ib[long[1]], rho[long]
        rest = np.zeros(ra.size)
        for ell in range(int(series_need[long].max()), l0, -1):
            rest += coef_t[ell - 1, ra] * coef_t[ell - 1, rb]
            rest *= rho_long
        acc[long] += rest * rho_long**l0
    easy = ~use_diff
    inside = np.nonzero(nested)
    if inside[0].size:
        pa, pb = p[ia][inside[0]], p[ib][inside[1]]
        acc[inside] = np.where(overlap[inside] == kk[inside], pa, pb) - pa * pb
    hard = np.nonzero(~easy)
    if hard[0].size:
        # By window, so that a few wide pairs do not widen the sums of all the others.
        order = np.argsort(window[hard], kind="stable")
        rows, cols = hard[0][order], hard[1][order]
        widths = window[rows, cols].astype(np.int64)
        for part in np.split(np.arange(rows.size), np.flatnonzero(np.diff(np.minimum(widths, 8) + widths // 16)) + 1):
            a_, b_ = rows[part], cols[part]
            f = _joint_cdf_disagreement(kk[a_, b_], jj[a_, b_], overlap[a_, b_], n, m, r, int(widths[part].max()))
            acc[a_, b_] = f - p[ia][a_] * p[ib][b_]
    return acc


def _rank_cdf(k, r: int, m: int, n: int):
    """``P(K <= k) = P(Bin(m, k/n) >= r) = I_{k/n}(r, m − r + 1)`` and ``P(K > k)`` (each from the tail that
    keeps full relative precision), for the rank ``K`` of the r-th largest of ``m`` draws among ``n``."""
    x = np.asarray(k, dtype=float) / n
    cdf = special.betainc(float(r), float(m - r + 1), x)
    surv = 1.0 - cdf
    upper = cdf > 0.5
    surv[upper] = special.betaincc(float(r), float(m - r + 1), x[upper])
    cdf[upper] = 1.0 - surv[upper]
    return cdf, surv
