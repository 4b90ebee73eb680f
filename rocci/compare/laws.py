"""The exact law of D = A − B for (A, B, C) ~ Multinomial(m; p_a, p_b, p_c): paired threshold laws (thesis §4.3.2)."""

from __future__ import annotations

import numpy as np
from scipy import special, stats


from .._core.exact import _boost_binom_cdf, _boost_binom_pmf, _boost_binom_sf
from ._common import SATURATION, WINDOW_EPS, _BLOCK, _SEGMENT

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


#: Mass of ``S`` that the full-support route may leave out below its window (Bernstein's
#: inequality): far below anything a double can hold beside the sums.  (Below the mean of ``S`` the
#: conditional ``P(D < 0 | S = s)`` grows as ``s`` falls, up to ``1 − π`` at ``s = 1``, so a small
#: ``P(D < 0)`` can come from there.)
FULL_SUPPORT_EPS = 1e-40
#: The same above the window.  With ``π >= 1/2``, ``P(D < 0 | S = s)`` and ``P(D = 0 | S = s)`` fall
#: as ``s`` grows (up to the factor between consecutive parities), so what is left out above changes
#: each of the three probabilities by less than about this much *relative* to itself.
FULL_SUPPORT_EPS_ABOVE = 1e-20


def _outward_products(up: np.ndarray, up_prev: np.ndarray, anchor_col: np.ndarray) -> np.ndarray:
    """Row-wise ``v[t]/v[a]`` from the ratios ``up[:, t] = v[t + 1]/v[t]`` (``up_prev[:, t] = up[:, t − 1]``),
    ``a = anchor_col``.

    Right of the anchor ``Π_{a <= u < t} up[u]``, left of it ``Π_{t <= u < a} 1/up[u]``:
    every factor moves away from the anchor, so with the anchor at the mode of a
    unimodal ``v`` no product exceeds 1 (no overflow; far tails underflow to 0).
    """
    cols = np.arange(up.shape[1])[None, :]
    a = anchor_col[:, None]
    np.copyto(up_prev, 1.0, where=cols <= a)
    np.cumprod(up_prev, axis=1, out=up_prev)
    with np.errstate(divide="ignore"):
        np.divide(1.0, up, out=up)
    np.copyto(up, 1.0, where=cols >= a)
    left = np.cumprod(up[:, ::-1], axis=1)[:, ::-1]
    up_prev *= left
    return up_prev


def _sign_full_support(hi_n: np.ndarray, lo_n: np.ndarray, n_c: np.ndarray, m):
    """``P(D > 0), P(D = 0), P(D < 0)`` summed over the support of ``S``, for pairs with
    ``hi_n >= lo_n >= 1`` (``π = hi/(hi + lo) >= 1/2``): the route for ``m <= 1000``.  ``m`` is
    one size or one per pair (both classes' pairs in one pass).

    The same sums as the windowed route, ``Σ_s b(s; m, γ)·[conditional sign
    probability given S = s]``, over all ``s`` but the ≤ :data:`FULL_SUPPORT_EPS` below and
    :data:`FULL_SUPPORT_EPS_ABOVE` above that Bernstein's inequality rules out (what is left out above is
    relative to each result, see there), with every term by a recurrence
    from at most one exact (boost) anchor per pair and law instead of three binomial
    functions per term:

    * ``w_s = b(s; m, γ)``: products of the pmf ratio (from the exact odds ``n_ab/n_c``) from the
      window's start, normalised to sum to 1 (no rounded ``γ^s (1 − γ)^(m − s)`` anchor); the
      rounding before the mode is common to the terms that matter and cancels in the normalisation.
      Where the window starts so far below the mode that the products would overflow (``s = 0``
      with a tiny ``1 − γ``), products outwards from the mode;
    * ``Q_h = b(h; 2h, π)`` (``P(D = 0 | S = 2h)``): ratio ``2(2h + 1)/(h + 1)·π(1 − π) <= 1``,
      products from the window's start divided by the product at the anchor ``h`` at half the mode
      of ``S`` (``Q_0 = 1`` if that anchor is below 1e-250), times the boost value there;
    * ``E_h = B(h − 1; 2h, π)`` (``P(D < 0 | S = 2h)``) and ``O_h = E_h + (1 − π)Q_h``
      (``P(D < 0 | S = 2h + 1)``), from ``E_{h+1} = E_h − (1 − π)Q_h(π(2h + 1)/(h + 1) − 1)``
      summed *downwards* from two exact anchors, at half the mode of ``S`` and just past the
      mass of ``S`` (10 sd): the small tail is a sum of positive terms wherever it is small,
      so it keeps its relative precision.

    Each term stays within a few ulp per step from its anchor of the boost value; against
    40-digit sums the results are within ~5e-16 (the per-term route: ~1e-15).
    """
    hi_n, lo_n, n_c = (np.asarray(v, np.float64) for v in (hi_n, lo_n, n_c))
    sizes = np.unique(np.asarray(m, np.int64))  # (one or two sizes)
    m = np.broadcast_to(np.asarray(m, np.float64), hi_n.shape)
    m_max = int(sizes[-1])
    n_ab = hi_n + lo_n
    g = n_ab / (n_ab + n_c)
    pi = hi_n / n_ab
    q = lo_n / n_ab  # 1 − π, exact
    # The window of S: Bernstein, P(|S − mγ| >= t) <= exp(−t²/(2(mγ(1 − γ) + t/3))) per side.
    var_s = m * g * (1.0 - g)
    t_lo, t_hi = ((big_l / 3.0 + np.sqrt(big_l**2 / 9.0 + 2.0 * big_l * var_s))
                  for big_l in (-np.log(FULL_SUPPORT_EPS), -np.log(FULL_SUPPORT_EPS_ABOVE)))
    s_lo = np.maximum(np.floor(m * g - t_lo), 0).astype(np.int64) // 2 * 2  # even: columns 2j, 2j + 1 are 2h, 2h + 1
    s_hi = np.minimum(np.ceil(m * g + t_hi), m).astype(np.int64)
    width = int((s_hi - s_lo).max()) // 2 * 2 + 2
    # w_s = b(s; m, γ) on s = s_lo … s_lo + width − 1 (zero past m): products of the pmf ratio from the
    # window's start (>= 1e-40 of the mode, so no overflow), normalised.  A product's rounding errors
    # before the mode are shared by every term past it, so after the normalisation each w_s is as
    # accurate as products outwards from the mode.  γ = 1 (no cell c): S = m.
    s_all = np.arange(0, m_max + width + 1, dtype=np.float64)

    # b(s + 1)/b(s) without the odds, one segment of s = 0 … m_max + width per size (rows read their own)
    c_all = (np.maximum(sizes[:, None] - s_all[None, :], 0.0) / (s_all + 1.0)[None, :]).ravel()
    seg = np.searchsorted(sizes, m).astype(np.int64) * s_all.size if sizes.size > 1 else 0

    def ratios(rows, cols):  # for s = s_lo … s_lo + cols − 1 of these rows
        return np.lib.stride_tricks.sliding_window_view(c_all, cols)[(s_lo + seg)[rows]]

    sure = n_c == 0
    with np.errstate(divide="ignore"):
        odds = np.where(sure, 1.0, n_ab / np.where(sure, 1.0, n_c))
    rows = np.arange(n_ab.size)
    w = np.empty((n_ab.size, width))
    w[:, 0] = 1.0
    np.multiply(ratios(rows, width - 1), odds[:, None], out=w[:, 1:])
    with np.errstate(over="ignore", invalid="ignore"):
        np.cumprod(w, axis=1, out=w)
    s_star = np.minimum(np.floor((m + 1.0) * g), m)
    over = ~(w[rows, (s_star - s_lo).astype(np.int64)] < 1e300) & ~sure  # (a window starting at s = 0
    if over.any():  # far below the mode, e.g. tiny 1 − γ): products outwards from the mode there
        up = ratios(rows[over], width) * odds[over, None]
        up_prev = np.ones_like(up)
        up_prev[:, 1:] = up[:, :-1]
        w[over] = _outward_products(up, up_prev, (s_star - s_lo)[over].astype(np.int64))
    if sure.any():
        w[sure] = 0.0
        w[sure, (m[sure] - s_lo[sure]).astype(np.int64)] = 1.0
    w /= w.sum(axis=1)[:, None]
    # Q_h = b(h; 2h, π) on h = s_lo/2 … s_lo/2 + width/2 − 1
    half = width // 2
    h_lo = s_lo // 2
    h_all = np.arange(-1, m_max // 2 + half + 2, dtype=np.float64)
    with np.errstate(divide="ignore"):
        d_all = (2.0 * h_all + 1.0) / (h_all + 1.0)  # (h = −1 never used)
    c_q = 2.0 * d_all
    big_h = m // 2
    h_star = np.minimum(np.floor(s_star / 2.0), big_h)
    q_star = _boost_binom_pmf(h_star, 2.0 * h_star, pi)
    low = q_star < 1e-250  # Q_h decreases from Q_0 = 1: anchor there, where left products could overflow
    h_star[low], q_star[low] = 0.0, 1.0
    h_star = np.maximum(h_star, h_lo)  # (Q_0 is inside the window whenever it is the anchor)
    # Q_h decreases (ratio <= 4π(1 − π) <= 1): products from the window's start lie in (0, 1], and
    # divided by the product at the anchor they carry only the rounding between the anchor and h.
    qh = np.empty((n_ab.size, half))
    qh[:, 0] = 1.0
    np.multiply(np.lib.stride_tricks.sliding_window_view(c_q, half - 1)[h_lo + 1], (pi * q)[:, None],
                out=qh[:, 1:])
    np.cumprod(qh, axis=1, out=qh)
    qh *= (q_star / qh[rows, h_star.astype(np.int64) - h_lo])[:, None]
    # E_h = B(h − 1; 2h, π): E_h = E_{h+1} + step_h with step_h = (1 − π)·Q_h·(π(2h + 1)/(h + 1) − 1),
    # summed downwards from exact anchors at h1 (for h <= h1) and at h2, past the mass of S
    # (for h1 < h <= h2); above h2 (where w is below ~1e-20) upwards from h2.
    step = np.multiply(np.lib.stride_tricks.sliding_window_view(d_all, half)[h_lo + 1], pi[:, None])
    step -= 1.0
    step *= qh
    step *= q[:, None]
    sd = np.sqrt(m * g * (1.0 - g))
    h1 = np.clip(np.floor(s_star / 2.0), h_lo, big_h)
    h2 = np.clip(np.ceil((m * g + 10.0 * sd + 20.0) / 2.0), h1, np.minimum(big_h, h_lo + half - 1))
    e1 = np.where(h1 > 0, _boost_binom_cdf(np.maximum(h1 - 1.0, 0.0), 2.0 * h1, pi), 0.0)
    e2 = np.where(h2 > 0, _boost_binom_cdf(np.maximum(h2 - 1.0, 0.0), 2.0 * h2, pi), 0.0)
    cols = np.arange(half)[None, :]
    a1, a2 = (h1 - h_lo).astype(np.int64), (h2 - h_lo).astype(np.int64)
    # R_h = Σ_{t >= h} step_t over the window; then h <= h1: E_h = e1 + R_h − R_h1 = e1 + Σ_{h <= t < h1};
    # h > h1: E_h = e2 + R_h − R_h2 (a sum below h2, minus one above it).  R_h − R_h1 = E_h − E_h1 is
    # rounded relative to R_h = E_h − E_end <= E_h (π > 1/2: E falls), so E_h keeps its relative
    # precision up to h2; above h2 (w below ~1e-20 there) it is e2 minus the steps from h2.
    e = np.cumsum(step[:, ::-1], axis=1)[:, ::-1]
    e += np.where(cols <= a1[:, None], (e1 - e[rows, a1])[:, None], (e2 - e[rows, a2])[:, None])
    e[h_lo == 0, 0] = 0.0  # B(−1; 0, π)
    # P(D < 0) = Σ_h w_2h E_h + w_2h+1 (E_h + (1 − π)Q_h), P(D = 0) = Σ_h w_2h Q_h, and P(D > 0) the rest:
    # 1 − P(D < 0) − P(D = 0) where that is at least 1/2 (Σ w = 1; an absolute error of ~1e-16 is then
    # relative), else the sum of its own positive terms (a small P(D > 0) keeps its relative precision).
    w_even, w_odd = w[:, 0::2], w[:, 1::2]
    lt = np.einsum("ij,ij->i", w_even + w_odd, e) + q * np.einsum("ij,ij->i", w_odd, qh)
    eq = np.einsum("ij,ij->i", w_even, qh)
    gt = (1.0 - lt) - eq
    small = gt < 0.5
    if small.any():
        e_s, qh_s = e[small], qh[small]
        gt[small] = (np.einsum("ij,ij->i", w_even[small], 1.0 - e_s - qh_s)
                     + np.einsum("ij,ij->i", w_odd[small], 1.0 - e_s - q[small, None] * qh_s))
    return gt, eq, lt


def _sign_unique(n_a: np.ndarray, n_b: np.ndarray, n, m, eps: float):
    """``P(D > 0), P(D = 0), P(D < 0)`` for distinct cell-count pairs (see the public wrapper); ``n`` and
    ``m`` one class's sizes, or (``eps = 0`` only) one pair of sizes per pair."""
    k = n_a.size
    n = np.broadcast_to(np.asarray(n, np.int64), (k,))
    m_row = np.broadcast_to(np.asarray(m, np.int64), (k,))
    m_max = int(m_row.max()) if k else 0
    gt, eq, lt = np.zeros(k), np.zeros(k), np.zeros(k)
    # Orient every pair so that p_a >= p_b (π >= 1/2); swap the answers back at the end.
    swap = n_a < n_b
    hi_n, lo_n = np.where(swap, n_b, n_a), np.where(swap, n_a, n_b)
    n_ab, n_c = hi_n + lo_n, n - hi_n - lo_n

    none = n_ab == 0  # no disagreement: D = 0
    eq[none] = 1.0
    one_way = (lo_n == 0) & ~none  # D = S >= 0 with S ~ Bin(m, γ)
    if one_way.any():
        g = n_ab[one_way] / n[one_way]
        mm = m_row[one_way].astype(np.float64)
        eq[one_way] = _boost_binom_pmf(0.0, mm, g)  # = stats.binom.pmf/sf, without their argument checks
        gt[one_way] = _boost_binom_sf(0.0, mm, g)
    rest = ~none & ~one_way
    if rest.any():
        pa, pb = hi_n / n, lo_n / n
        # Chernoff: P(D <= 0) <= min_λ E e^{−λD} = (1 − (√p_a − √p_b)²)^m.
        with np.errstate(divide="ignore"):
            log_bound = m_row * np.log1p(-((np.sqrt(pa) - np.sqrt(pb)) ** 2))
        saturated = rest & (log_bound < np.log(SATURATION))
        gt[saturated] = 1.0
        rest &= ~saturated
    if rest.any() and eps <= 0:
        idx = np.flatnonzero(rest)
        chunk = max(1, _BLOCK // (m_max + 1))
        for start in range(0, idx.size, chunk):
            j = idx[start:start + chunk]
            gt[j], eq[j], lt[j] = _sign_full_support(hi_n[j], lo_n[j], n_c[j], m_row[j])
    elif rest.any():
        if np.any(m_row != m_max) or np.any(n != n[0]):
            raise ValueError("the windowed route takes one class's sizes")
        n, m = int(n[0]), m_max
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
    pairs in one vectorised pass.  With ``eps = 0`` (the default for
    ``m <= 1000``) they run over the whole support but the ≤ 1e-40 below and the
    ≤ 1e-20 above (relative to each result) that Bernstein's inequality rules out, each term by a
    recurrence from one
    to three exact anchors per pair (``_sign_full_support``; ~50 µs per pair at
    m = 500 instead of ~1 ms).  Pairs whose Chernoff bound puts the
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
    return difference_sign_probabilities_by_class([(n_a, n_b, n, m)], eps=eps)[0]


def _distinct_pairs(n_a, n_b, n: int):
    """The distinct ``(n_a, n_b)`` in lexicographic order, and the index of each input pair among them."""
    if n < 3_000_000_000:  # n_a·(n + 1) + n_b fits in int64: one key per pair
        keys = n_a.ravel() * (n + 1) + n_b.ravel()
        uniq, inv = np.unique(keys, return_inverse=True)
        return uniq // (n + 1), uniq % (n + 1), inv.ravel()
    # the same distinct pairs, in the same order, without the key's overflow
    uniq, inv = np.unique(np.stack([n_a.ravel(), n_b.ravel()], axis=1), axis=0, return_inverse=True)
    return uniq[:, 0], uniq[:, 1], inv.ravel()


def difference_sign_probabilities_by_class(classes, *, eps: float | None = None):
    """:func:`difference_sign_probabilities` for several classes ``[(n_a, n_b, n, m), …]`` at once.

    The same values; classes whose sums run over the whole support (``m <= 1000``) share one vectorised
    pass (the fixed cost of two passes is most of a small comparison's time)."""
    prepared = []
    for n_a, n_b, n, m in classes:
        n_a, n_b = np.broadcast_arrays(np.asarray(n_a, np.int64), np.asarray(n_b, np.int64))
        e = (0.0 if m <= 1000 else WINDOW_EPS) if eps is None else eps
        prepared.append((n_a.shape, *_distinct_pairs(n_a, n_b, int(n)), int(n), int(m), e))
    results = [None] * len(prepared)
    full = [i for i, p in enumerate(prepared) if p[-1] <= 0]
    if len(full) > 1:
        parts = [prepared[i] for i in full]
        sizes = [p[1].size for p in parts]
        gt, eq, lt = _sign_unique(np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]),
                                  np.repeat([p[4] for p in parts], sizes), np.repeat([p[5] for p in parts], sizes),
                                  0.0)
        cut = np.cumsum(sizes)[:-1]
        for i, g_, e_, l_ in zip(full, np.split(gt, cut), np.split(eq, cut), np.split(lt, cut)):
            results[i] = (g_, e_, l_)
    for i, (shape, ua, ub, inv, n, m, e) in enumerate(prepared):
        gt, eq, lt = results[i] if results[i] is not None else _sign_unique(ua, ub, n, m, e)
        results[i] = (gt[inv].reshape(shape), eq[inv].reshape(shape), lt[inv].reshape(shape))
    return results


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


