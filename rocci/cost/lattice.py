"""Exact laws on the lattice a·X + b·Y: one model's bootstrap cost, evaluated row by row."""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._core.exact import QUANTILE_TOL
from ._common import TIE_TOL


#: Half-width of a binomial computation window in standard deviations (plus a
#: margin of 20): the mass outside is far below 1e-20 in every regime.
_WINDOW_SD = 10.0
_WINDOW_PAD = 20
#: Rows of a lattice law lighter than this are dropped.
_ROW_EPS = 1e-22
#: Points per step of the quantile search (:meth:`_Lattice.quantiles`): each step
#: shrinks the bracket 17-fold, about ten steps from [0, 1] to the tie tolerance.
_SEARCH_POINTS = 16
#: Largest table (rows × columns) built for conditional binomial laws.
_TABLE_MAX = 4_000_000


def _window(n, p: float):
    """Integer window ``[lo, hi]`` of ``Bin(n, p)`` (vectorised over ``n``)."""
    n = np.asarray(n, dtype=np.int64)
    if p <= 0:
        return np.zeros_like(n), np.zeros_like(n)
    if p >= 1:
        return n.copy(), n.copy()
    mu = n * p
    half = _WINDOW_SD * np.sqrt(n * p * (1 - p)) + _WINDOW_PAD
    lo = np.maximum(0, np.floor(mu - half)).astype(np.int64)
    hi = np.minimum(n, np.ceil(mu + half)).astype(np.int64)
    return lo, hi


def _binom_rows(n, p: float, start, width: int) -> np.ndarray:
    """``P[r, j] = b(start_r + j; n_r, p)`` for rows of binomials on shifted windows.

    One SciPy pmf per row, at the point of the window closest to the row's
    mode; the rest by the ratios ``b(y + 1)/b(y) = (n − y)/(y + 1)·p/(1 − p)``
    multiplied outwards.  Moving away from the mode every ratio is <= 1, so
    nothing overflows, small values underflow gracefully to 0, and the
    relative error stays below ``width`` ulps (SciPy's pmf on a whole 2-D grid
    is about 30 times slower).
    """
    n = np.asarray(n, dtype=np.int64).reshape(-1)
    start = np.broadcast_to(np.asarray(start, dtype=np.int64).reshape(-1), n.shape)
    y = start[:, None] + np.arange(width)[None, :]
    if p <= 0 or p >= 1:
        return (y == (0 if p <= 0 else n[:, None])).astype(np.float64)
    mode = np.clip(np.floor((n + 1) * p).astype(np.int64), 0, n)
    anchor = np.clip(mode, start, start + width - 1)
    col = anchor - start
    out = np.zeros(y.shape)
    rows = np.arange(n.size)
    out[rows, col] = stats.binom.pmf(anchor, n, p)
    odds = p / (1 - p)
    yf, nf = y.astype(np.float64), n[:, None].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        up = np.maximum(nf - yf + 1, 0.0) / np.maximum(yf, 1.0) * odds  # b(y)/b(y − 1)
        down = (yf + 1) / np.maximum(nf - yf, 0.0) / odds  # b(y)/b(y + 1)
    down = np.where(np.isfinite(down), down, 0.0)
    j = np.arange(width)[None, :]
    up = np.where(j > col[:, None], up, 1.0)
    down = np.where(j < col[:, None], down, 1.0)
    peak = out[rows, col][:, None]
    right = peak * np.cumprod(up, axis=1)
    left = peak * np.cumprod(down[:, ::-1], axis=1)[:, ::-1]
    out = np.where(j > col[:, None], right, np.where(j < col[:, None], left, peak))
    return np.where((y >= 0) & (y <= n[:, None]), out, 0.0)


def _diff_law(m: int, p1: float, p2: float) -> tuple[int, np.ndarray]:
    """pmf of ``U = A − B`` for ``(A, B, ·) ~ Multinomial(m; p1, p2, 1 − p1 − p2)``.

    ``S = A + B ~ Bin(m, p1 + p2)`` and ``A | S ~ Bin(S, p1/(p1 + p2))``, so
    ``P(U = u) = Σ_s b(s; m, p1 + p2)·b((s + u)/2; s, p1/(p1 + p2))``: a sum of
    positive terms (no cancellation, no recursion over ``m``) over windows of
    width O(sqrt(m)) in ``s`` and in ``A``, i.e. O(m) work.

    Returns
    -------
    u0 : int
        The value of the first entry.
    pmf : ndarray
        ``P(U = u0 + i)``.
    """
    tot = min(p1 + p2, 1.0)
    if m == 0 or tot <= 0:
        return 0, np.ones(1)
    r = min(max(p1 / (p1 + p2), 0.0), 1.0)
    s_lo, s_hi = (int(v) for v in _window(m, tot))
    s = np.arange(s_lo, s_hi + 1)
    ws = _binom_rows(np.array([m]), tot, s_lo, s.size)[0]
    if 0 < r < 1:
        half = int(np.ceil(_WINDOW_SD * np.sqrt(s_hi * r * (1 - r)) + _WINDOW_PAD))
    else:
        half = 0
    width = 2 * half + 1
    start = np.floor(s * r).astype(np.int64) - half
    u_min = int(np.min(2 * np.maximum(start, 0) - s))
    u_max = int(np.max(2 * np.minimum(start + width - 1, s) - s))
    out = np.zeros(u_max - u_min + 1)
    chunk = max(1, 4_000_000 // width)
    for lo in range(0, s.size, chunk):
        sl = slice(lo, lo + chunk)
        prob = ws[sl, None] * _binom_rows(s[sl], r, start[sl], width)
        u = 2 * (start[sl, None] + np.arange(width)[None, :]) - s[sl, None] - u_min
        valid = prob > 0
        out += np.bincount(u[valid], weights=prob[valid], minlength=out.size)
    return u_min, out


def _diff_laws(k_lo: int, k_hi: int, p1: float, p2: float) -> tuple[int, np.ndarray]:
    """pmfs of ``U_k = A − B`` for every ``k`` in ``[k_lo, k_hi]`` on one window.

    ``U_{k+1} = U_k + ξ`` with ``ξ = +1, −1, 0`` w.p. ``p1, p2, 1 − p1 − p2``:
    each step is a convex combination of shifted pmfs (relative error grows by
    a few ulps per step).  Returns ``(u0, P)`` with ``P[i, j] = P(U_{k_lo+i} = u0 + j)``.
    """
    d, v = p1 - p2, max(p1 + p2 - (p1 - p2) ** 2, 0.0)
    ends = []
    for k in (k_lo, k_hi):
        half = _WINDOW_SD * np.sqrt(k * v) + _WINDOW_PAD
        ends += [max(-k, int(np.floor(k * d - half))), min(k, int(np.ceil(k * d + half)))]
    u0, u1 = min(ends), max(ends)
    width = u1 - u0 + 1
    out = np.zeros((k_hi - k_lo + 1, width))
    s0, pmf = _diff_law(k_lo, p1, p2)
    lo, hi = max(s0, u0), min(s0 + pmf.size - 1, u1)
    out[0, lo - u0:hi - u0 + 1] = pmf[lo - s0:hi - s0 + 1]
    pc = max(1.0 - p1 - p2, 0.0)
    for i in range(1, out.shape[0]):
        prev = out[i - 1]
        row = pc * prev
        row[1:] += p1 * prev[:-1]
        row[:-1] += p2 * prev[1:]
        out[i] = row
    return u0, out


def _row_lookup(table: np.ndarray, rows: np.ndarray, y0: int, cdf: np.ndarray):
    """CDF and pmf lookups of the laws in rows ``rows`` of ``table`` (values ``y0 + j``), and their support.

    ``ycdf(j)[i, r] = cdf[rows[r], j[i] − y0]`` (0 below the support, the last
    column above it); ``ypmf(y)[i, r] = table[rows[r], y[i] − y0]`` (0 outside).
    """
    width = cdf.shape[1]

    def ycdf(j):
        jj = np.clip(j, y0 - 1, y0 + width - 1) - y0
        val = cdf[rows[None, :], np.maximum(jj, 0)]
        return np.where(jj < 0, 0.0, val)

    def ypmf(y):
        jj = y - y0
        inside = (jj >= 0) & (jj < width)
        return np.where(inside[None, :], table[rows][:, np.clip(jj, 0, width - 1)], 0.0)

    return ycdf, ypmf, (y0, y0 + width - 1)


class _Lattice:
    """Exact law of ``V = a·X + b·Y`` given as rows.

    Row ``r`` has probability ``c_r``, a fixed integer ``X = x_r`` and a
    conditional law of the integer ``Y`` given by ``ycdf`` (``P(Y <= j | r)``).
    Then ``P(V <= v) = Σ_r c_r·P(Y <= ⌊(v − a·x_r)/b⌋ | r)`` (for ``b > 0``).
    Values closer than :data:`TIE_TOL` count as equal.

    Parameters
    ----------
    c, x : ndarray of shape (R,)
    ycdf : callable
        ``ycdf(j)`` with ``j`` an integer array of shape (Q, R) → CDF values.
    y_range : (int, int)
        Bounds of the support of ``Y`` over all rows (within the windows).
    ypmf : callable
        ``ypmf(y)`` with ``y`` a 1-D integer grid → array (R, len(y)) of pmf values.
    """

    def __init__(self, c, x, ycdf, y_range, ypmf):
        self.c, self.x = c, x
        self.ycdf, self.y_range, self.ypmf = ycdf, y_range, ypmf

    # -- construction -------------------------------------------------------
    @staticmethod
    def from_tables(c, x, rows, y0, pmf_table):
        """Rows whose ``Y`` law is row ``rows[r]`` of ``pmf_table`` (values ``y0 + j``)."""
        keep = c > _ROW_EPS
        c, x, rows = c[keep], x[keep], rows[keep]
        ycdf, ypmf, support = _row_lookup(pmf_table, rows, y0, np.minimum(np.cumsum(pmf_table, axis=1), 1.0))
        return _Lattice(c, x, ycdf, support, ypmf)

    @staticmethod
    def from_joint(x, y0, joint):
        """Rows ``X = x[r]`` with the joint probabilities ``P(X = x[r], Y = y0 + j) = joint[r, j]``
        (stored unnormalised: weights 1 and the joint row CDFs)."""
        ycdf, ypmf, support = _row_lookup(joint, np.arange(x.size), y0, np.cumsum(joint, axis=1))
        return _Lattice(np.ones(x.size), x, ycdf, support, ypmf)

    @staticmethod
    def from_binomials(c, x, trials, p):
        """Rows whose ``Y`` is ``Bin(trials[r], p)``."""
        keep = c > _ROW_EPS
        c, x, trials = c[keep], x[keep], trials[keep]
        lo, hi = _window(trials, p)
        y0, y1 = int(lo.min()), int(hi.max())
        if trials.size * (y1 - y0 + 1) <= _TABLE_MAX:
            table = _binom_rows(trials, p, y0, y1 - y0 + 1)
            return _Lattice.from_tables(c, x, np.arange(c.size), y0, table)

        def ycdf(j):
            return stats.binom.cdf(j, trials[None, :], p)

        def ypmf(y):
            return stats.binom.pmf(y[None, :], trials[:, None], p)

        return _Lattice(c, x, ycdf, (y0, y1), ypmf)

    # -- evaluation ---------------------------------------------------------
    def _j(self, v, a, b, strict):
        """Largest ``y`` with ``a·x_r + b·y <= v`` (``< v`` if strict), per row."""
        t = v[:, None] - a * self.x[None, :]
        big = np.int64(self.y_range[1] + 1)
        small = np.int64(self.y_range[0] - 1)
        if b <= 0:
            hit = (t > TIE_TOL) if strict else (t >= -TIE_TOL)
            return np.where(hit, big, small)
        if strict:
            j = np.ceil((t - TIE_TOL) / b) - 1
        else:
            j = np.floor((t + TIE_TOL) / b)
        return np.clip(j, small, big).astype(np.int64)

    def cdf(self, v, a: float, b: float, *, strict: bool = False) -> np.ndarray:
        """``P(V <= v)`` (``P(V < v)`` if strict), ties within :data:`TIE_TOL`."""
        v = np.atleast_1d(np.asarray(v, dtype=np.float64))
        return self.ycdf(self._j(v, a, b, strict)) @ self.c

    def _bounds(self, a, b):
        y0, y1 = self.y_range
        return (a * self.x.min() + b * y0, a * self.x.max() + b * y1)

    def quantiles(self, qs, a: float, b: float) -> np.ndarray:
        """Smallest support value ``v`` with ``P(V <= v) >= q`` for each ``q``.

        Search on the value axis with exact CDF evaluations (each step splits
        the bracket at :data:`_SEARCH_POINTS` points at once, one vectorised
        evaluation), down to an interval shorter than the tie tolerance; the value returned is the
        lattice point (a row's ``a·x + b·y`` of positive probability) where the
        CDF crosses ``q``.  The CDF counts as reaching ``q`` within
        :data:`rocci._core.exact.QUANTILE_TOL`, as everywhere in rocci.
        """
        qs = np.atleast_1d(np.asarray(qs, dtype=np.float64))
        target = qs - QUANTILE_TOL
        vmin, vmax = self._bounds(a, b)
        lo = np.full(qs.size, vmin - 1.0)
        hi = np.full(qs.size, vmax + 1.0)
        frac = np.arange(1, _SEARCH_POINTS + 1) / (_SEARCH_POINTS + 1)
        rows = np.arange(qs.size)
        for _ in range(200):
            if (hi - lo <= TIE_TOL / 2).all():
                break
            # cdf(lo) < target <= cdf(hi): keep the sub-bracket where the CDF crosses.
            grid = lo[:, None] + (hi - lo)[:, None] * frac[None, :]
            ok = (self.cdf(grid.ravel(), a, b) >= np.repeat(target, frac.size)).reshape(grid.shape)
            first = np.argmax(ok, axis=1)
            crossed = ok.any(axis=1)
            new_hi = np.where(crossed, grid[rows, first], hi)
            new_lo = np.where(crossed, np.where(first > 0, grid[rows, np.maximum(first - 1, 0)], lo), grid[:, -1])
            lo, hi = new_lo, new_hi
        # Snap to the lattice point in (lo, hi]: a row whose CDF jumps there.
        j_hi, j_lo = self._j(hi, a, b, False), self._j(lo, a, b, False)
        mass = self.ycdf(j_hi) - self.ycdf(np.maximum(j_hi - 1, self.y_range[0] - 1))
        if b > 0:
            jumped = (j_hi > j_lo) & (mass > 0)
            values = a * self.x[None, :] + b * j_hi
        else:  # V = a·X: the rows whose value lies in (lo, hi]
            jumped = j_hi > j_lo
            values = np.broadcast_to(a * self.x[None, :], j_hi.shape)
        out = hi.copy()
        for qi in range(qs.size):
            cand = values[qi][jumped[qi]]
            if cand.size:
                out[qi] = cand[np.argmin(np.abs(cand - hi[qi]))]
        return out

    def support(self, a: float, b: float) -> tuple[np.ndarray, np.ndarray]:
        """The whole law: distinct values (merged within the tie tolerance) and probabilities."""
        grid = np.arange(self.y_range[0], self.y_range[1] + 1)
        probs = self.c[:, None] * self.ypmf(grid)
        values = a * self.x[:, None] + b * grid[None, :]
        keep = probs > 0
        values, probs = values[keep], probs[keep]
        order = np.argsort(values, kind="stable")
        values, probs = values[order], probs[order]
        if values.size == 0:
            return values, probs
        start = np.flatnonzero(np.concatenate([[True], np.diff(values) > TIE_TOL]))
        return values[start], np.add.reduceat(probs, start)


def _single_law(fn: int, fp: int, n_pos: int, n_neg: int, bootstrap: str, m) -> _Lattice:
    """Law of ``(X, Y) = (FN*, FP*)`` for one model at one threshold."""
    if bootstrap == "stratified":
        m_pos, m_neg = m
        q_fn, q_fp = fn / n_pos, fp / n_neg
        x0, x1 = (int(v) for v in _window(m_pos, q_fn))
        x = np.arange(x0, x1 + 1)
        c = stats.binom.pmf(x, m_pos, q_fn)
        y0, y1 = (int(v) for v in _window(m_neg, q_fp))
        table = stats.binom.pmf(np.arange(y0, y1 + 1), m_neg, q_fp)[None, :]
        return _Lattice.from_tables(c, x, np.zeros(x.size, dtype=np.int64), y0, table)
    # Full: FN* ~ Bin(m, n_FN/n) and FP* | FN* = x ~ Bin(m − x, n_FP/(n − n_FN)).
    n = n_pos + n_neg
    r_fn = fn / n
    x0, x1 = (int(v) for v in _window(m, r_fn))
    x = np.arange(x0, x1 + 1)
    c = stats.binom.pmf(x, m, r_fn)
    p_fp = fp / (n - fn) if n > fn else 0.0
    return _Lattice.from_binomials(c, x, m - x, p_fp)


#: Largest window (cells) of a Fourier law: about 300 MB per array of floats.
_JOINT_MAX = 40_000_000

#: Fourier terms whose modulus is below this bound are left out: each
#: probability of a Fourier law then moves by less than this amount.
_FOURIER_EPS = 1e-30


