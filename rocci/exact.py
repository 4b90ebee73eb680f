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
    "mixture_moments",
    "mixture_quantile",
    "mixture_skewness",
    "mixture_pmf",
    "BinomialMixture",
]

#: Per-tail probability left out of an order statistic's computation window.
WINDOW_EPS = 1e-16

#: Tolerance used when comparing a CDF with a quantile level: a CDF within
#: this of the level counts as reaching it (exact rational ties are otherwise
#: decided by rounding).
QUANTILE_TOL = 1e-12


try:  # Boost's binomial pmf/cdf, the kernels behind scipy.stats.binom, without its
    # per-call argument checking (~25x faster on small arrays).  SciPy is pinned.
    from scipy.special._ufuncs import _binom_cdf as _boost_binom_cdf
    from scipy.special._ufuncs import _binom_pmf as _boost_binom_pmf
except ImportError:  # pragma: no cover - other SciPy versions
    _boost_binom_pmf = stats.binom.pmf
    _boost_binom_cdf = stats.binom.cdf


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
    # Walk up while B(k) < q, then down while B(k - 1) >= q.
    up = cdf < q - QUANTILE_TOL
    while up.any():
        k[up] += 1
        cdf[up] = binomial_cdf(k[up], m[up], p[up])
        up &= cdf < q - QUANTILE_TOL
    prev = binomial_cdf(k - 1, m, p)
    down = (k > 0) & (prev >= q - QUANTILE_TOL)
    while down.any():
        k[down] -= 1
        prev[down] = binomial_cdf(k[down] - 1, m[down], p[down])
        down &= (k > 0) & (prev >= q - QUANTILE_TOL)
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
    truncated = float(special.betainc(a, b, (k_lo - 1) / n) + special.betaincc(a, b, k_hi / n))
    return k, weights, truncated


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
