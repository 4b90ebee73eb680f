"""Exact bootstrap laws: binomials, order statistics and their mixtures.

Kernels shared by the threshold- and vertical-averaging estimators.  All work
on arrays, never loop over instances, and stay accurate for bootstrap sizes up
to 10⁶ and beyond (boost's incomplete beta through SciPy; no recursions that
underflow).

Notation (Gadoury 2009, ch. 4): ``B(k; m, p)`` is the binomial CDF and
``b(k; m, p)`` its pmf.  The r-th largest of ``m`` draws from the ``n`` sorted
negatives is ``s_K`` with ``P(K <= k) = 1 − B(r − 1; m, k/n) = I_{k/n}(r, m − r + 1)``
(eq. 4.10), i.e. ``K = ⌈n·U⌉`` with ``U ~ Beta(r, m − r + 1)``.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

__all__ = [
    "binomial_pmf",
    "binomial_cdf",
    "binomial_quantile",
    "order_statistic_law",
    "order_statistic_laws",
    "order_statistic_runs",
    "mixture_moments",
    "mixture_quantile",
    "mixture_skewness",
    "mixture_pmf",
    "mixture_quantiles_by_table",
    "BinomialMixture",
]

#: Per-tail probability left out of an order statistic's computation window.
WINDOW_EPS = 1e-16

#: ``mixture_quantiles_by_table`` keeps ``B(l; m, p)`` only where it is between 1e-20 and 1 − 1e-20
#: (``log(1e20)``, the exponent of the Bernstein and Hoeffding bounds that set the band); outside, 0 or 1.
_BAND_LOG = 46.0
#: Row sums of that table's pmf products (from the band's start) at or above which a row is redone by
#: products outwards from its mode (a safeguard: the bands are too narrow for it; tests lower it).
_TABLE_WIDE = 1e300
#: Columns of 0 before and of 1 after each row's band in that table (>= 4: the guess's four probes).
_PAD = 4
#: Points evaluated per unsettled quantile and round in that table's search.
_SPLIT = 8
#: Points of that search's first round, as distances from the side of the bracket next to the guess
#: (the answer is mostly within 4 of the guess: one round settles it).
_AWAY = np.array([0, 1, 2, 3, 5, 9, 17, 33, 65, 129])

#: Tolerance used when comparing a CDF with a quantile level: a CDF within
#: this of the level counts as reaching it (exact rational ties are otherwise
#: decided by rounding).
QUANTILE_TOL = 1e-12


try:  # Boost's binomial pmf/cdf, the kernels behind scipy.stats.binom, without its
    # per-call argument checking (~25x faster on small arrays).  SciPy is pinned.
    from scipy.special._ufuncs import _binom_cdf as _boost_binom_cdf
    from scipy.special._ufuncs import _binom_pmf as _boost_binom_pmf
    from scipy.special._ufuncs import _binom_sf as _boost_binom_sf
except ImportError:  # pragma: no cover - other SciPy versions
    _boost_binom_pmf = stats.binom.pmf
    _boost_binom_cdf = stats.binom.cdf
    _boost_binom_sf = stats.binom.sf


def binomial_pmf(k, m, p) -> np.ndarray:
    """``b(k; m, p) = C(m, k) p^k (1 − p)^(m − k)``, accurate for large ``m``; 0 outside 0..m."""
    k, m, p = np.asarray(k, dtype=float), np.asarray(m, dtype=float), np.asarray(p, dtype=float)
    inside = (k >= 0) & (k <= m)
    return np.where(inside, _boost_binom_pmf(np.clip(k, 0, m), m, p), 0.0)


def binomial_cdf(k, m, p) -> np.ndarray:
    """``B(k; m, p) = P(X <= k)`` for ``X ~ Bin(m, p)``: 0 for ``k < 0``, 1 for ``k >= m``."""
    k, m, p = np.floor(np.asarray(k, dtype=float)), np.asarray(m, dtype=float), np.asarray(p, dtype=float)
    value = _boost_binom_cdf(np.clip(k, 0, m), m, p)
    return np.where(k < 0, 0.0, np.where(k >= m, 1.0, value))


def binomial_quantile(q, m, p) -> np.ndarray:
    """Smallest ``k`` with ``B(k; m, p) >= q`` (vectorised over ``p`` and ``q``).

    Starts from the Cornish–Fisher approximation and corrects it with exact
    CDF evaluations, so the result is exact (up to :data:`QUANTILE_TOL`).
    """
    q, m, p = np.broadcast_arrays(np.asarray(q, float), np.asarray(m, float), np.asarray(p, float))
    q, m, p = q.ravel(), m.ravel(), p.ravel()
    z = special.ndtri(np.clip(q, 1e-300, 1 - 1e-16))
    sd = np.sqrt(m * p * (1 - p))
    skew_term = np.where(sd > 0, (z * z - 1) * (1 - 2 * p) / 6, 0.0)
    k = np.clip(np.floor(m * p + z * sd + skew_term), 0, m)
    cdf = binomial_cdf(k, m, p)
    # A CDF within QUANTILE_TOL of q reaches it; for a tiny q (a window's tail, 1e-17) the tolerance is
    # q/2 instead, or every k would "reach" it and the walk would run down to 0.
    reach = q - np.minimum(QUANTILE_TOL, q / 2)
    # Walk up while B(k) < q, then down while B(k - 1) >= q.
    up = cdf < reach
    while up.any():
        k[up] += 1
        cdf[up] = binomial_cdf(k[up], m[up], p[up])
        up &= cdf < reach
    prev = binomial_cdf(k - 1, m, p)
    down = (k > 0) & (prev >= reach)
    while down.any():
        k[down] -= 1
        prev[down] = binomial_cdf(k[down] - 1, m[down], p[down])
        down &= (k > 0) & (prev >= reach)
    return k.astype(np.int64)


# ---------------------------------------------------------------------------
# Order statistics of a bootstrap sample (vertical averaging)
# ---------------------------------------------------------------------------

_GL_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _gauss_legendre(q: int) -> tuple[np.ndarray, np.ndarray]:
    if q not in _GL_CACHE:
        _GL_CACHE[q] = np.polynomial.legendre.leggauss(q)
    return _GL_CACHE[q]


def _gl_order(rho: float) -> int | None:
    """Gauss–Legendre nodes per cell for cells ``rho`` standard deviations wide.

    The q-point rule's relative error on a cell of a Gaussian-like density is
    about ``(q!)^4 / ((2q+1)((2q)!)^3) · (2q)!/(q!·2^q) · rho^(2q)``; the
    choices keep it below 1e-16.  ``None``: cells too wide, use exact
    incomplete beta functions instead.
    """
    if rho <= 0.003:
        return 2
    if rho <= 0.02:
        return 3
    if rho <= 0.06:
        return 4
    return None


def order_statistic_law(r: int, m: int, n: int, *, eps: float = WINDOW_EPS):
    """Law of the index ``K`` of the r-th largest of ``m`` draws from ``n`` sorted values.

    ``P(K = k) = B(r − 1; m, (k − 1)/n) − B(r − 1; m, k/n)`` (thesis eq. 4.11),
    for ``k = 1, …, n``.  Only the window of ``k`` where ``P(K = k)`` is not
    negligible is returned: with ``U ~ Beta(r, m − r + 1)`` and ``K = ⌈n·U⌉``,
    the window spans the ``eps`` and ``1 − eps`` quantiles of ``n·U``, a width of
    O(sqrt(r)·n/m).

    Each cell probability is ``∫_{(k−1)/n}^{k/n} f_U(u) du``.  When the window
    is narrow it is taken as a difference of incomplete beta functions (from
    whichever tail keeps full relative precision); when it is wide the cells
    are narrow compared with the spread of ``U`` and Gauss–Legendre
    quadrature of the beta density over each cell is exact to ~1e-16.

    Returns
    -------
    k : ndarray of int64
        Window indices (1-based ranks among the values sorted decreasingly).
    weights : ndarray
        ``P(K = k)`` for those indices.
    truncated : float
        ``P(K outside the window)``.
    """
    a, b = float(r), float(m - r + 1)
    u_lo = special.betaincinv(a, b, eps)
    u_hi = special.betainccinv(a, b, eps)
    k_lo = int(max(1, np.floor(n * u_lo)))
    k_hi = int(min(n, np.ceil(n * u_hi)))
    k = np.arange(k_lo, k_hi + 1, dtype=np.int64)
    x_lo, x_hi = (k - 1) / n, k / n
    mode = min(max((a - 1) / (a + b - 2) if a + b > 2 else 0.5, 1.0 / n), 1 - 1.0 / n)
    sigma = np.sqrt(max(mode * (1 - mode), 1.0 / n) / (a + b + 1))
    rho = (1.0 / n) / sigma  # cell width relative to the spread of U
    order = _gl_order(rho) if k.size > 64 else None
    if order is None:
        # One incomplete beta per cell boundary, from the tail that keeps full
        # relative precision: the CDF below the median, the survival above.
        # Edges above the median are taken from the survival function (boost's
        # betainc can be off by ~1e-13 there, e.g. I_x(2, 4999) near 0.59), and
        # cells are differenced on the side that avoids cancellation.  The
        # weights then telescope exactly to 1 − (mass left out).
        edges = np.arange(k_lo - 1, k_hi + 1) / n
        cdf = special.betainc(a, b, edges)
        upper = cdf > 0.5
        surv = 1.0 - cdf
        surv[upper] = special.betaincc(a, b, edges[upper])
        cdf[upper] = 1.0 - surv[upper]
        weights = np.where(cdf[:-1] < 0.5, np.diff(cdf), -np.diff(surv))
    else:
        nodes, gl_w = _gauss_legendre(order)
        mid, half = (x_lo + x_hi) / 2, 0.5 / n
        x = mid[:, None] + half * nodes[None, :]
        # Beta(r, m − r + 1) density = m · b(r − 1; m − 1, x).
        dens = m * binomial_pmf(r - 1, m - 1, x)
        weights = half * dens @ gl_w
    truncated = float(special.betainc(a, b, (k_lo - 1) / n) + _upper_tail(a, b, k_hi, n))
    return k, weights, truncated


def _upper_tail(a, b, k, n):
    """``1 − I_x(a, b)`` at ``x = k/n``, as ``I_{1−x}(b, a)`` with ``1 − x = (n − k)/n`` from the integers:
    as accurate as boost's complement ``betaincc`` (both within ~1e-13 relative of 80-digit values, from
    the argument's rounding) and ~10× faster on order statistics' window ends."""
    return special.betainc(b, a, (n - np.asarray(k, dtype=np.float64)) / n)


def _order_statistic_windows(r: np.ndarray, m: int, n: int, eps: float):
    """``order_statistic_law``'s windows ``[k_lo, k_hi]`` and whether each uses quadrature, vectorised."""
    a, b = r.astype(np.float64), (m - r + 1).astype(np.float64)
    u_lo = special.betaincinv(a, b, eps)
    u_hi = special.betainccinv(a, b, eps)
    k_lo = np.maximum(1.0, np.floor(n * u_lo)).astype(np.int64)
    k_hi = np.minimum(float(n), np.ceil(n * u_hi)).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mode = np.where(a + b > 2, (a - 1) / (a + b - 2), 0.5)
    mode = np.minimum(np.maximum(mode, 1.0 / n), 1 - 1.0 / n)
    sigma = np.sqrt(np.maximum(mode * (1 - mode), 1.0 / n) / (a + b + 1))
    quadrature = (k_hi - k_lo + 1 > 64) & ((1.0 / n) / sigma <= 0.06)  # _gl_order(rho) is not None
    return k_lo, k_hi, quadrature


def _sliding(a: np.ndarray, width: int) -> np.ndarray:
    """Read-only view ``view[i] = a[i : i + width]`` of a contiguous 1-D array: what
    ``numpy.lib.stride_tricks.sliding_window_view(a, width)`` returns, without its ~35 µs of argument
    handling (a fixed cost that matters at n = 10^3)."""
    view = np.ndarray((a.size - width + 1, width), a.dtype, a, 0, (a.itemsize, a.itemsize))
    view.flags.writeable = False
    return view


def _binomial_tails_by_column(x_num: np.ndarray, n: int, m: int, j_levels: np.ndarray,
                              first: np.ndarray, last: np.ndarray):
    """``B(j; m, x)`` and ``1 − B(j; m, x)`` for ``x = x_num/n`` and ``j = j_levels[first … last]`` of each column.

    One row per column ``x`` (``0 < x < 1``), ``j`` along the row from ``j_lo =
    j_levels[first]`` to ``j_hi = j_levels[last]`` (``j_levels`` increasing).  Each row
    costs two boost evaluations: the pmf at the row's point nearest the mode of
    ``Bin(m, x)`` and the survival function at ``j_hi`` (as the incomplete beta function
    that :func:`order_statistic_law` takes); the CDF at ``j_lo`` is ``I_{1−x}(m − j_lo, j_lo + 1)``
    below the mode of ``Bin(m, x)`` (boost, in its small tail: relative precision; :func:`_upper_tail`)
    and ``1 −`` the survival function at or above it; the pmf elsewhere
    on the row follows by the ratio ``b(j + 1)/b(j) = (m − j)/(j + 1) · x/(1 − x)``, and the
    two tails are sums of positive pmf terms from their anchors (pmf summed between
    consecutive levels, then accumulated over the levels), so each keeps its relative
    precision (a few ulp per step from the anchor).  Returns ``(cdf, sf)`` of shape
    ``(columns, max(last − first) + 1)``: column ``c`` of a row is level ``first + c``;
    entries past ``last`` are meaningless.
    """
    x = x_num / n
    j_lo, j_hi = j_levels[first], j_levels[last]
    span = j_hi - j_lo
    width = int(span.max()) + 2  # (a column past every row's end, where its last level's segment starts)
    rows = np.arange(x.size)
    # b(j + 1)/b(j) = (m − j)/(j + 1) · x/(1 − x), 0 past m
    ratio_j = np.zeros(m + width + 1)
    jj = np.arange(m, dtype=np.float64)
    ratio_j[:m] = (m - jj) / (jj + 1.0)
    up = _sliding(ratio_j, width)[j_lo]  # rows copied whole, not cell by cell
    up *= (x_num / (n - x_num))[:, None]
    # pmf[t]/pmf[0] by one forward product; pmf = anchor · (that)/(that at the anchor).  Past a row's
    # j_hi the products are left as they come (even inf or nan): they only reach the row's last segment,
    # which is replaced by P(X > j_hi) below.
    pmf = np.empty_like(up)
    pmf[:, 0] = 1.0
    with np.errstate(over="ignore", invalid="ignore"):  # rows that overflow are redone below
        np.cumprod(up[:, :-1], axis=1, out=pmf[:, 1:])
    anchor = np.clip(np.floor((m + 1.0) * x), j_lo, j_hi)  # the row's largest pmf
    a = (anchor - j_lo).astype(np.int64)
    at_anchor = pmf[rows, a]
    wide = ~(at_anchor < 1e300)  # more than 300 decades on the row: products outward from the anchor
    if wide.any():
        with np.errstate(over="ignore", invalid="ignore"):  # (past j_hi too, unused)
            pmf[wide] = _outward_ratio_products(up[wide], a[wide])
        at_anchor[wide] = 1.0
    # (boost's b(0; m, x) is (1 − x)^m with 1 − x rounded, 1e-13 off at m = 1000: exp(m·log1p(−x)) there)
    at_mode = np.where(anchor == 0, np.exp(m * np.log1p(-x)), _boost_binom_pmf(anchor, float(m), x))
    # seg[row, c] = Σ pmf over (j of level first + c, j of level first + c + 1]: the products summed, then
    # scaled (at_mode/at_anchor) on these few sums rather than on every cell
    count = last - first + 1
    depth = int(count.max())
    level = np.arange(depth)[None, :]
    present = level < count[:, None]
    t = np.where(present, j_levels[np.minimum(first[:, None] + level, j_levels.size - 1)] - j_lo[:, None], 0)
    starts = (rows[:, None] * width + t + 1)[present]
    seg = np.zeros((x.size, depth))
    with np.errstate(over="ignore", invalid="ignore"):
        seg[present] = np.add.reduceat(pmf.ravel(), starts)
        seg *= (at_mode / at_anchor)[:, None]
    # sf[c] = P(X > j_hi) + Σ_{l >= c} seg[l] (below the last level);  cdf[c] = P(X <= j_lo) + Σ_{l < c} seg[l]
    sf_hi = special.betainc(j_hi + 1.0, (m - j_hi).astype(np.float64), x)  # P(X > j) = I_x(j + 1, m − j)
    seg[rows, count - 1] = sf_hi
    sf = np.cumsum(seg[:, ::-1], axis=1)[:, ::-1]
    cdf = np.empty_like(seg)
    # B(j_lo; m, x): below the mode I_{1−x}(m − j_lo, j_lo + 1) (boost, in its small tail: relative
    # precision); at or above the mode 1 − P(X > j_lo) (then >= ~0.2)
    cdf[:, 0] = 1.0 - sf[:, 0]
    below = j_lo < np.floor((m + 1.0) * x)  # (the mode of Bin(m, x))
    if below.any():
        cdf[below, 0] = _upper_tail(j_lo[below] + 1.0, (m - j_lo[below]).astype(np.float64), x_num[below], n)
    cdf[:, 1:] = seg[:, :-1]
    np.cumsum(cdf, axis=1, out=cdf)
    return cdf, sf


def _outward_ratio_products(up: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Row-wise ``v[t]/v[a]`` from ``up[:, t] = v[t + 1]/v[t]``, multiplying outwards from column ``a``."""
    cols = np.arange(up.shape[1])[None, :]
    right = np.ones_like(up)
    right[:, 1:] = up[:, :-1]
    np.copyto(right, 1.0, where=cols <= a[:, None])
    np.cumprod(right, axis=1, out=right)
    with np.errstate(divide="ignore"):
        left = 1.0 / up
    np.copyto(left, 1.0, where=cols >= a[:, None])
    left = np.cumprod(left[:, ::-1], axis=1)[:, ::-1]
    return right * left


def order_statistic_laws(r, m: int, n: int, *, eps: float = WINDOW_EPS):
    """:func:`order_statistic_law` for many levels ``r`` at once (vertical averaging at many FPRs).

    Same windows, same truncated mass and the same cell probabilities to ~1e-15:
    levels that :func:`order_statistic_law` integrates by Gauss–Legendre quadrature
    are passed to it; for the others (cells wide compared with the spread of ``U``,
    e.g. every level at n ≈ 10³), where it takes two incomplete beta functions per
    cell edge, the edges are grouped by column ``x = e/n``: with the levels sorted,
    the levels whose windows hold an edge form a run, and the binomial CDFs
    ``B(r − 1; m, e/n)`` of that run come from one row of pmf ratios between three
    boost anchors (:func:`_binomial_tails_by_column`).  Edges are then differenced on
    the side that avoids cancellation, as in :func:`order_statistic_law`.

    Returns
    -------
    k, weights : ndarray
        The windows of all levels, concatenated in the order of ``r``.
    offsets : ndarray of int64, shape (len(r) + 1,)
        Level ``i`` is ``k[offsets[i]:offsets[i + 1]]``.
    truncated : ndarray
        ``P(K outside the window)`` per level.
    """
    r = np.asarray(r, dtype=np.int64).ravel()
    levels, inverse = np.unique(r, return_inverse=True)
    inverse = inverse.ravel()
    k_lo, k_hi, quadrature = _order_statistic_windows(levels, m, n, eps)
    a, b = levels.astype(np.float64), (m - levels + 1).astype(np.float64)
    truncated = special.betainc(a, b, (k_lo - 1) / n) + _upper_tail(a, b, k_hi, n)
    sizes = k_hi - k_lo + 1
    pieces_k: list = [None] * levels.size
    pieces_w: list = [None] * levels.size
    beta = np.flatnonzero(~quadrature)
    lo, hi = k_lo[beta], k_hi[beta]
    by_column = beta.size > 1 and bool(np.all(np.diff(lo) >= 0) and np.all(np.diff(hi) >= 0))
    if by_column:
        # Edge e of level i: I_{e/n}(r_i, m − r_i + 1) = P(Bin(m, e/n) >= r_i), e = k_lo − 1 … k_hi.
        e_min, e_max = int(lo[0]) - 1, int(hi[-1])
        edges = np.arange(e_min, e_max + 1)
        first = np.searchsorted(hi, edges, side="left")  # first level whose last edge is >= e
        last = np.searchsorted(lo - 1, edges, side="right") - 1  # last level whose first edge is <= e
        j_run = levels[beta] - 1
        inner = (edges > 0) & (edges < n) & (first <= last)  # (edges between windows: no level)
        cols = edges[inner]
        first, last = first[inner], last[inner]
        cdf, sf = _binomial_tails_by_column(cols.astype(np.float64), n, m, j_run, first, last)
        row_of = np.full(edges.size, -1)
        row_of[inner] = np.arange(cols.size)
        e_counts = sizes[beta] + 1
        owner = np.repeat(np.arange(beta.size), e_counts)
        e_pos = np.arange(e_counts.sum()) - np.repeat(np.cumsum(e_counts) - e_counts, e_counts)
        e_all = lo[owner] - 1 + e_pos
        rows = row_of[e_all - e_min]
        ok = rows >= 0
        col = np.where(ok, owner - first[np.maximum(rows, 0)], 0)
        surv = np.where(ok, cdf[np.maximum(rows, 0), col], 0.0)  # B(r − 1; m, x) = P(U > x)
        upper_tail = np.where(ok, sf[np.maximum(rows, 0), col], 0.0)  # I_x(r, m − r + 1) = P(U <= x)
        surv[~ok & (e_all == 0)], upper_tail[~ok & (e_all == 0)] = 1.0, 0.0
        surv[~ok & (e_all == n)], upper_tail[~ok & (e_all == n)] = 0.0, 1.0
        # as order_statistic_law: the CDF of U below the median, the survival above, each
        # from the tail that keeps full relative precision
        upper = upper_tail > 0.5
        cdf_u = np.where(upper, 1.0 - surv, upper_tail)
        surv_u = np.where(upper, surv, 1.0 - upper_tail)
        last_edge = np.r_[np.cumsum(e_counts) - 1]
        keep = np.ones(e_all.size, bool)
        keep[last_edge] = False  # cell k uses edges k − 1 (here) and k (next)
        w = np.where(cdf_u[:-1] < 0.5, cdf_u[1:] - cdf_u[:-1], surv_u[:-1] - surv_u[1:])[keep[:-1]]
        k_flat = e_all[:-1][keep[:-1]] + 1
        bounds = np.r_[0, np.cumsum(sizes[beta])].tolist()
        for i, b0, b1 in zip(beta.tolist(), bounds[:-1], bounds[1:]):
            pieces_k[i], pieces_w[i] = k_flat[b0:b1], w[b0:b1]
    for i in range(levels.size):
        if pieces_k[i] is None:
            pieces_k[i], pieces_w[i], _ = order_statistic_law(int(levels[i]), m, n, eps=eps)
    order = inverse.tolist()
    k = np.concatenate([pieces_k[i] for i in order])
    weights = np.concatenate([pieces_w[i] for i in order])
    offsets = np.zeros(r.size + 1, dtype=np.int64)
    np.cumsum(sizes[inverse], out=offsets[1:])
    return k, weights, offsets, truncated[inverse]


def order_statistic_runs(r, m: int, n: int, value_of, *, eps: float = WINDOW_EPS):
    r""":func:`order_statistic_laws` with each level's cells merged over runs of equal ``value_of(k)``.

    What a mixture over the cells needs (``vertical_ci``: ``p_k``, the share of positives scoring at
    least the k-th largest negative, constant between two negatives with no positive between them).
    With ``S(e) = P(K > e) = B(r − 1; m, e/n)``, the run of cells ``k1 … k2`` (the cells of a window
    between two changes of the value) has probability

    .. math::

        P(k_1 \le K \le k_2) = S(k_1 − 1) − S(k_2) = C(k_2) − C(k_1 − 1), \qquad C = 1 − S,

    differenced on the side that avoids cancellation, as :func:`order_statistic_laws` does cell by
    cell.  Only the edges where the value changes (and the window's ends, whose ``C(k_lo − 1)`` and
    ``S(k_hi)`` are the two halves of the truncated mass, incomplete beta functions) are computed, so
    the binomial table of :func:`_binomial_tails_by_column` has one row per change instead of one per
    cell (a tenth of the rows with 10% positives).  Levels that :func:`order_statistic_law` integrates
    by quadrature, and windows that do not move monotonically with ``r``, go through
    :func:`order_statistic_laws` and are merged afterwards (the same runs, weights summed cell by cell).

    Parameters
    ----------
    r : array_like of int
        Levels (1 <= r <= m).
    m, n : int
        Draws and values, as in :func:`order_statistic_law`.
    value_of : callable
        ``value_of(k)`` for an int64 array of cells ``k`` (1-based ranks), an array of equal length;
        it must be vectorised (it is called once on every cell of the windows' union).

    Returns
    -------
    start : ndarray of int64
        First cell of each run, levels concatenated in the order of ``r``.
    values : ndarray
        ``value_of`` on each run.
    weights : ndarray
        ``P(K in the run)``.
    offsets : ndarray of int64, shape (len(r) + 1,)
        Level ``i`` is ``[offsets[i], offsets[i + 1])``.
    truncated : ndarray
        ``P(K outside the window)`` per level.
    """
    r = np.asarray(r, dtype=np.int64).ravel()
    if r.size > 1 and bool(np.all(r[1:] > r[:-1])):
        levels, inverse = r, None
    else:
        levels, inverse = np.unique(r, return_inverse=True)
        inverse = inverse.ravel()
    k_lo, k_hi, quadrature = _order_statistic_windows(levels, m, n, eps)
    by_column = (levels.size > 1 and not quadrature.any() and bool(np.all(k_lo[1:] >= k_lo[:-1]))
                 and bool(np.all(k_hi[1:] >= k_hi[:-1])))
    if not by_column or inverse is not None:
        k, w, offsets, truncated = order_statistic_laws(r, m, n, eps=eps)
        values = np.asarray(value_of(k))
        level_start = np.zeros(k.size, dtype=bool)
        level_start[offsets[:-1]] = True
        change = level_start.copy()
        change[1:] |= values[1:] != values[:-1]
        starts = np.flatnonzero(change)
        return k[starts], values[starts], np.add.reduceat(w, starts), np.searchsorted(starts, offsets), truncated
    a, b = levels.astype(np.float64), (m - levels + 1).astype(np.float64)
    c_lo = special.betainc(a, b, (k_lo - 1) / n)  # C(k_lo − 1) = P(K < k_lo)
    s_hi = _upper_tail(a, b, k_hi, n)  # S(k_hi) = P(K > k_hi)
    e_min, e_max = int(k_lo[0]) - 1, int(k_hi[-1])
    values = np.asarray(value_of(np.arange(e_min + 1, e_max + 1, dtype=np.int64)))  # cells e_min + 1 … e_max
    # Edges e (between cells e and e + 1) where the value changes, e_min < e < e_max.
    cand = np.flatnonzero(values[1:] != values[:-1]) + (e_min + 1)
    # A level's inner edges: the changes with both cells in its window, k_lo <= e <= k_hi − 1, i.e. the
    # candidates s_i … t_i − 1 (s_i and t_i are nondecreasing, as the windows are).
    s_i = np.searchsorted(cand, k_lo, side="left")
    t_i = np.searchsorted(cand, k_hi - 1, side="right")
    count = np.maximum(t_i - s_i, 0)
    # Candidate c is inside some window iff c < t_i of the last level with s_i <= c (t_i nondecreasing).
    idx = np.arange(cand.size)
    last_s = np.searchsorted(s_i, idx, side="right") - 1
    inside = (last_s >= 0) & (idx < t_i[np.maximum(last_s, 0)])
    cols = cand[inside]
    row_of = np.cumsum(inside) - 1  # row in the table of each candidate edge (where inside)
    h = levels.size
    if cols.size:
        first = np.searchsorted(k_hi - 1, cols, side="left")  # first level with e <= k_hi − 1
        last = np.searchsorted(k_lo, cols, side="right") - 1  # last level with k_lo <= e
        surv_t, cdf_t = _binomial_tails_by_column(cols.astype(np.float64), n, m, levels - 1, first, last)
    # Each level's edge sequence: k_lo − 1, its inner edges, k_hi; level i's starts at head[i] (the inner
    # edges of the levels before it, plus two ends each).
    n_in = int(count.sum())
    cum = np.zeros(h + 1, dtype=np.int64)
    np.cumsum(count, out=cum[1:])
    head = cum[:-1] + 2 * np.arange(h)
    tail = head + count + 1
    total = n_in + 2 * h
    surv = np.empty(total)
    cdf = np.empty(total)
    edge = np.empty(total, dtype=np.int64)
    cdf[head], surv[head] = c_lo, 1.0 - c_lo
    surv[tail], cdf[tail] = s_hi, 1.0 - s_hi
    edge[head], edge[tail] = k_lo - 1, k_hi
    if n_in:
        lev = np.repeat(np.arange(h), count)
        j = np.arange(n_in)
        cand_idx = j + (s_i - cum[:-1])[lev]
        at = j + 2 * lev + 1
        rows = row_of[cand_idx]
        cell = rows * surv_t.shape[1] + (lev - first[rows])
        # B(r − 1; m, x) = S, I_x(r, m − r + 1) = C
        b_val, u_val = np.take(surv_t, cell), np.take(cdf_t, cell)
        upper = u_val > 0.5  # each from the tail that keeps full relative precision
        cdf[at] = np.where(upper, 1.0 - b_val, u_val)
        surv[at] = np.where(upper, b_val, 1.0 - u_val)
        edge[at] = cand[cand_idx]
    # A run is (edge p, edge p + 1) for p = head … tail − 1 within a level: run i of level l is at p = i + l.
    w = np.where(cdf[:-1] < 0.5, cdf[1:] - cdf[:-1], surv[:-1] - surv[1:])
    left = np.arange(n_in + h) + np.repeat(np.arange(h), count + 1)
    w = w[left]
    start = edge[left] + 1
    offsets = np.zeros(h + 1, dtype=np.int64)
    np.cumsum(count + 1, out=offsets[1:])
    return start, values[start - (e_min + 1)], w, offsets, c_lo + s_hi


# ---------------------------------------------------------------------------
# Mixtures of binomials  Σ_j c_j · Bin(m, p_j)
# ---------------------------------------------------------------------------


def compress_mixture(weights: np.ndarray, p: np.ndarray):
    """Merge components with equal ``p`` (``p`` must be sorted)."""
    if p.size == 0:
        return weights, p
    starts = np.flatnonzero(np.concatenate([[True], np.diff(p) != 0]))
    return np.add.reduceat(weights, starts), p[starts]


def mixture_moments(weights: np.ndarray, p: np.ndarray, m: int) -> tuple[float, float]:
    """Mean and variance of ``X/m`` for ``X ~ Σ_j c_j Bin(m, p_j)`` (eqs. 4.13–4.14).

    ``E = Σ c_j p_j``, ``Var = Σ c_j [(p_j − E)² + p_j(1 − p_j)/m]`` (the
    numerically stable form of ``E(X²/m²) − E²``).
    """
    total = weights.sum()
    mean = float(weights @ p / total)
    var = float(weights @ ((p - mean) ** 2 + p * (1 - p) / m) / total)
    return mean, var


class BinomialMixture:
    """``X ~ Σ_j c_j · Bin(m, p_j)`` with ``p_1 < … < p_J`` (compressed).

    The CDF at ``l`` uses the order-statistic identity
    ``B(l; m, p) = P(V > p)`` with ``V ~ Beta(l + 1, m − l)``: one incomplete
    beta function at an anchor, plus the integrals of V's smooth density over
    the cells ``[p_j, p_{j+1}]`` by Gauss–Legendre quadrature (density
    evaluations cost a tenth of an incomplete beta at large ``m``).  Narrow
    mixtures or wide cells use incomplete beta functions throughout.
    """

    def __init__(self, weights: np.ndarray, p: np.ndarray, m: int):
        self.c, self.p, self.m = weights, p, int(m)
        inner = (p > 0) & (p < 1)
        self._ci, self._pi = weights[inner], p[inner]
        self._c0 = float(weights[p <= 0].sum())
        self._c1 = float(weights[p >= 1].sum())
        self._odds = self._pi / (1 - self._pi)

    def cdf(self, l: int) -> float:
        """``P(X <= l)``."""
        m = self.m
        if l < 0:
            return 0.0
        if l >= m:
            return float(self.c.sum())
        total = self._c0
        ci, pi = self._ci, self._pi
        if pi.size == 0:
            return total
        order = None
        if pi.size > 64 and m > 2000:
            v = (l + 1.0) / (m + 1.0)
            sigma = np.sqrt(max(v * (1 - v), 1.0 / m) / (m + 2.0))
            gaps = np.diff(pi)
            order = _gl_order(float(gaps.max()) / sigma)
        if order is None:
            return total + float(ci @ binomial_cdf(l, m, pi))
        nodes, gl_w = _gauss_legendre(order)
        mid, half = (pi[1:] + pi[:-1]) / 2, (pi[1:] - pi[:-1]) / 2
        x = mid[:, None] + half[:, None] * nodes[None, :]
        # Beta(l + 1, m − l) density = m · b(l; m − 1, x).
        cells = half * ((m * binomial_pmf(l, m - 1, x)) @ gl_w)
        anchor = float(binomial_cdf(l, m, pi[-1]))  # P(V > p_J)
        surv = anchor + np.concatenate([np.cumsum(cells[::-1])[::-1], [0.0]])
        return total + float(ci @ surv)

    def pmf(self, l: int) -> tuple[float, np.ndarray]:
        """``P(X = l)`` and the inner components' pmf vector (for stepping)."""
        comp = binomial_pmf(l, self.m, self._pi)
        return self._point(l, comp), comp

    def _point(self, l: int, comp: np.ndarray) -> float:
        value = float(self._ci @ comp)
        if l == 0:
            value += self._c0
        if l == self.m:
            value += self._c1
        return value

    def step(self, l: int, comp: np.ndarray, direction: int) -> tuple[int, float, np.ndarray]:
        """pmf at ``l ± 1`` from the components' pmf at ``l`` by the ratio
        ``b(l+1)/b(l) = (m − l)/(l + 1) · p/(1 − p)``."""
        m = self.m
        if direction > 0:
            comp = comp * ((m - l) / (l + 1.0)) * self._odds
            l += 1
        else:
            comp = comp * (l / (m - l + 1.0)) / self._odds
            l -= 1
        return l, self._point(l, comp), comp


def _cdf_band_table(used: np.ndarray, n: int, m: int):
    """Rows ``B(l; m, v/n)`` for the sorted distinct integers ``v = used`` (in ``[0, n]``), each on its band.

    Returns ``(table, band_lo, width)``: row ``i`` holds ``B(band_lo[i] + c; m, used[i]/n)`` at column
    ``_PAD + c`` for ``c = 0 … width − 1``, with ``_PAD`` columns of 0 before and of 1 after (below and
    above the band, where ``B`` is within 1e-20 of 0 or 1).
    """
    # Each row's band of l: B(l; m, p) is below 1e-20 under it and above 1 − 1e-20 over it, by the
    # narrower of two bounds on each tail, P(X − mp >= t) and P(X − mp <= −t): Bernstein's
    # exp(−t²/(2(σ² + t/3))) (narrow for p near 0 or 1) and Hoeffding's exp(−2t²/m) (for p near 1/2:
    # at p = 1/2 it is 13% narrower), each exp(−_BAND_LOG) at its half-width t; one common width W (a
    # band may run past m, where B = 1).  Each row is padded with _PAD columns of 0 before its band and
    # _PAD of 1 after, which stand for "below the band" and "above" (so l − lo is clipped to
    # [−_PAD, W + _PAD − 1]).
    x = used / n
    mean = m * x
    bern = _BAND_LOG / 3.0 + np.sqrt((_BAND_LOG / 3.0) ** 2 + 2.0 * _BAND_LOG * mean * (1.0 - x))
    half = np.minimum(bern, np.sqrt(0.5 * _BAND_LOG * m))
    band_lo = np.maximum(np.floor(mean - half), 0.0).astype(np.int64)
    width = int((np.minimum(np.ceil(mean + half), float(m)) - band_lo).max()) + 1
    stride = width + 2 * _PAD
    table = np.empty((used.size, stride))
    table[:, :_PAD], table[:, _PAD + width:] = 0.0, 1.0
    # Rows with 0 < v < n are contiguous (used is sorted): v = 0 first, v = n last, if present.
    r0, r1 = int(used[0] == 0), used.size - int(used[-1] == n)
    if r1 > r0:
        # pmf rows up to a factor: products of the ratio b(l + 1)/b(l) from 1 at the band's start (past
        # l = m the ratio is 0), summed from the start and divided by the row's sum.  The band holds all
        # but 2e-20 of the law, so that sum is the factor to a few ulp per term, as the products are (no
        # boost anchor needed).  Within a band the pmf spans far fewer than 300 decades, so the sums stay
        # finite; a row whose sum reaches _TABLE_WIDE would be redone outwards from its mode.
        xi, lo_i = x[r0:r1], band_lo[r0:r1]
        jj = np.arange(m + width, dtype=np.float64)
        ratio = np.maximum(m - jj, 0.0) / (jj + 1.0)  # b(l + 1)/b(l) = (m − l)/(l + 1) · p/(1 − p)
        pmf = table[r0:r1, _PAD:_PAD + width]
        pmf[:, 0] = 1.0
        np.multiply(_sliding(ratio, width - 1)[lo_i], (xi / (1.0 - xi))[:, None], out=pmf[:, 1:])
        with np.errstate(over="ignore", invalid="ignore"):
            np.cumprod(pmf[:, 1:], axis=1, out=pmf[:, 1:])
            np.cumsum(pmf, axis=1, out=pmf)
        total = pmf[:, -1].copy()
        wide = ~(total < _TABLE_WIDE)  # (not expected: a safeguard) products outwards from the mode
        if wide.any():
            mode = np.clip(np.floor((m + 1.0) * xi[wide]), lo_i[wide], lo_i[wide] + width - 1).astype(np.int64)
            up = _sliding(ratio, width)[lo_i[wide]] * (xi / (1.0 - xi))[wide, None]
            pmf[wide] = np.cumsum(_outward_ratio_products(up, mode - lo_i[wide]), axis=1)
            total[wide] = pmf[wide, -1]
        pmf /= total[:, None]
    if r0:
        table[0, _PAD:] = 1.0  # B(l; m, 0) = 1
    if r1 < used.size:  # B(l; m, 1) = 0 below l = m
        table[-1, _PAD:_PAD + width] = 0.0
        table[-1, _PAD + m - band_lo[-1]:] = 1.0
    return table, band_lo, width


def mixture_quantiles_by_table(qs, weights: np.ndarray, v: np.ndarray, level: np.ndarray, levels: int,
                               n: int, m: int, guess: np.ndarray | None = None,
                               offsets: np.ndarray | None = None) -> np.ndarray:
    """Smallest ``l`` with ``P(X_i <= l) >= q`` for many mixtures ``X_i ~ Σ_j c_j Bin(m, v_j/n)`` at once.

    Component ``j`` (weight ``weights[j]``, ``p = v[j]/n`` with integer ``v``) belongs to
    mixture ``level[j]`` (components sorted by level).  All binomial CDFs ``B(l; m, v/n)``
    of the ``v`` in use come from one table (each row on its band, pmf ratios multiplied
    from the band's start, summed and divided by their sum: a few ulp per term), then
    every level's quantile by one bisection over ``l``, all levels and levels ``q``
    together, each step a gather and a segmented sum (no
    BLAS: a threaded matrix product is 20× slower on a loaded machine).  Same answer as
    :func:`mixture_quantile` (the same comparison with ``q −`` :data:`QUANTILE_TOL`);
    O(n·m) memory, for small ``n`` and ``m``.  Returns an int64 array ``(len(qs), levels)``.

    ``guess`` (optional, shape ``(len(qs), levels)``, e.g. a Cornish–Fisher approximation from the
    exact moments): one evaluation at ``guess − 2 … guess + 1`` settles the pairs whose answer is
    within one of the guess; the others are evaluated at points 0, 1, 2, 3, 5, 9, … past those
    probes (one round settles an answer up to four from the guess), then bisected (only those
    pairs are evaluated again).
    The answer is the same, only fewer evaluations are made.

    ``offsets`` (optional, ``levels + 1`` integers): mixture ``i`` is components
    ``offsets[i] … offsets[i + 1] − 1``, as ``level`` says (saves finding them again).
    """
    present = np.zeros(n + 1, dtype=bool)  # (np.unique without a sort: v are integers in [0, n])
    present[v] = True
    used = np.flatnonzero(present)
    row = (np.cumsum(present) - 1)[v]
    table, band_lo, width = _cdf_band_table(used, n, m)
    stride = width + 2 * _PAD
    flat = table.ravel()
    # Per component: B(l; m, p_j) at flat[base[j] + clip(l − lo_j[j], −_PAD, width + _PAD − 1)].
    base = row * stride + _PAD
    lo_j = band_lo[row]
    starts = np.searchsorted(level, np.arange(levels)) if offsets is None else np.asarray(offsets[:levels])
    qs = np.asarray(qs, dtype=np.float64)
    target = (qs - QUANTILE_TOL)[:, None]
    lo = np.zeros((qs.size, levels), dtype=np.int64)
    hi = np.full((qs.size, levels), m, dtype=np.int64)
    if guess is not None:
        g = np.array(guess, dtype=np.int64)  # (a copy: clipped in place)
        g.clip(0, m, out=g)
        # probes g − 2 … g + 1, four consecutive columns of each component's row (clipped; a probe below
        # 0 never holds): the answer is the first that holds.  Arrays are (probe, q, component): every
        # step runs along the long axis (a short last axis costs numpy ~5x more here).
        # (np.take: 10x faster than [:, level] here; in place, no temporaries)
        first_col = np.take(g - 2, level, axis=1)
        first_col -= lo_j
        first_col.clip(-_PAD, width + _PAD - 4, out=first_col)
        first_col += base
        cdf = flat[first_col + np.arange(4)[:, None, None]]
        cdf *= weights
        hits = np.add.reduceat(cdf, starts, axis=2) >= target  # (probe, q, level)
        hits[0] &= g >= 2
        hits[1] &= g >= 1
        first = np.where(hits.any(axis=0), hits.argmax(axis=0), 4)  # 0: answer <= g − 2; 4: answer >= g + 2
        found = (first >= 1) & (first <= 3)
        lo = np.where(found, g + first - 2, np.where(first == 4, np.minimum(g + 2, m), lo))
        hi = np.where(found, g + first - 2, np.where(first == 0, g - 2, hi))
    # Pairs (q, level) not yet settled, invariant: the answer lies in [lo, hi]; ``answer <= x`` is what
    # an evaluation at x says.  Each round evaluates every unsettled pair at a few points of
    # [lo, hi − 1]: in the first round those the guess missed take the points _AWAY from the side next to
    # the guess (the answer is mostly just past it), then _SPLIT points spread evenly, so a bracket
    # shrinks _SPLIT + 1 times a round; the component lists of these pairs are gathered once.  Arrays
    # are (point, pair) and (point, component).
    lo, hi = lo.ravel(), hi.ravel()
    todo = np.flatnonzero(lo < hi)
    if todo.size:
        ends = np.append(starts, weights.size)
        lev = todo % levels
        lens = ends[lev + 1] - ends[lev]
        first = np.zeros(todo.size, dtype=np.int64)
        np.cumsum(lens[:-1], out=first[1:])
        comp = np.arange(int(lens.sum())) + np.repeat(ends[lev] - first, lens)
        c_base, c_lo, c_w = base[comp], lo_j[comp], weights[comp]
        tgt = np.repeat(target[:, 0], levels)[todo]
        lo_t, hi_t = lo[todo], hi[todo]
        rows = np.arange(todo.size)
        even = (np.arange(1, _SPLIT + 1) / (_SPLIT + 1.0))[:, None]
        off = None
        if guess is not None:  # (increasing offsets in [0, hi − lo − 1]; after the probes, lo > g or hi < g)
            top = np.maximum(hi_t - lo_t - 1, 0)
            near = np.minimum(_AWAY[:, None], top)
            off = np.where(lo_t > g.ravel()[todo], near, top - near[::-1])
        while True:
            span = hi_t - lo_t
            live = span > 0
            if not live.any():
                break
            if off is None:
                off = np.floor(span * even).astype(np.int64)  # in [0, span − 1], increasing
            x = lo_t + off
            points = x.shape[0]
            cols = np.repeat(x, lens, axis=1)
            cols -= c_lo
            cols.clip(-1, width, out=cols)
            cols += c_base
            hit = np.add.reduceat(flat[cols] * c_w, first, axis=1) >= tgt
            k = np.where(hit.any(axis=0), hit.argmax(axis=0), points)  # the first point that holds
            hi_t = np.where(live & (k < points), x[np.minimum(k, points - 1), rows], hi_t)
            lo_t = np.where(live & (k > 0), x[np.maximum(k - 1, 0), rows] + 1, lo_t)
            off = None
        lo[todo] = lo_t
    return lo.reshape(qs.size, levels)


def mixture_quantile(q: float, weights: np.ndarray, p: np.ndarray, m: int,
                     mean: float, sd: float, *, skew: float = 0.0, max_walk: int = 64) -> int:
    """Smallest ``l`` with ``P(X <= l) >= q`` for ``X ~ Σ_j c_j Bin(m, p_j)``.

    The mixture CDF is evaluated exactly at a Cornish–Fisher guess and then
    moved one lattice step at a time with the mixture pmf; a bisection with
    exact CDF evaluations takes over if the guess was far off.
    """
    law = BinomialMixture(weights, p, m)
    z = float(special.ndtri(q))
    guess = mean + sd * (z + (z * z - 1) * skew / 6)
    l = int(np.clip(np.floor(m * guess), 0, m))
    target = q - QUANTILE_TOL
    cdf = law.cdf(l)
    point, comp = law.pmf(l)
    steps = 0
    if cdf >= target:
        while l > 0 and steps < max_walk:
            below = cdf - point
            if below < target:
                return l
            cdf = below
            l, point, comp = law.step(l, comp, -1)
            steps += 1
            if steps % 16 == 0:  # refresh: the ratio recurrence cannot revive underflowed terms
                point, comp = law.pmf(l)
        if l == 0:
            return 0
        lo, hi = 0, l
    else:
        while l < m and steps < max_walk:
            l, point, comp = law.step(l, comp, +1)
            if (steps + 1) % 16 == 0:
                point, comp = law.pmf(l)
            cdf += point
            steps += 1
            if cdf >= target:
                return l
        if l >= m:
            return m
        lo, hi = l + 1, m
    while lo < hi:  # invariant: the answer lies in [lo, hi]
        mid = (lo + hi) // 2
        if law.cdf(mid) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def mixture_skewness(weights: np.ndarray, p: np.ndarray, m: int, mean: float, sd: float) -> float:
    """Skewness of ``X/m`` for the mixture (for the Cornish–Fisher guess)."""
    if sd <= 0:
        return 0.0
    d = p - mean
    var_j = p * (1 - p) / m
    k3_j = var_j * (1 - 2 * p) / m
    mu3 = float(weights @ (k3_j + 3 * var_j * d + d**3) / weights.sum())
    return mu3 / sd**3


def mixture_pmf(weights: np.ndarray, p: np.ndarray, m: int, *, tail: float = 1e-17):
    """``P(X = l)`` for ``X ~ Σ_j c_j Bin(m, p_j)`` over the support that matters.

    Returns ``(l, probabilities)``; values of ``l`` below the ``tail`` quantile
    of the smallest component and above the ``1 − tail`` quantile of the
    largest are left out (their total probability is below ``2·tail``).
    """
    if m <= 4000:
        l = np.arange(m + 1)
    else:
        l_lo = int(binomial_quantile(tail, m, p.min())[0])
        l_hi = int(m - binomial_quantile(tail, m, 1 - p.max())[0])
        l = np.arange(l_lo, l_hi + 1)
    probs = np.zeros(l.size)
    chunk = max(1, 2_000_000 // max(l.size, 1))
    for start in range(0, p.size, chunk):
        sl = slice(start, start + chunk)
        probs += weights[sl] @ binomial_pmf(l[None, :], m, p[sl, None])
    return l, probs
