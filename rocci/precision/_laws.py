"""Finite laws on lattices of counts: windows of binomials, and the reduction of a
weighted set of cells ``(value, probability)`` to a law, its moments and quantiles.

Every exact law of :mod:`rocci.precision` is a finite sum over the cells of a
lattice of bootstrap counts (two independent binomials, a binomial mixed over
another, a mixture over an order statistic).  Each binomial is cut to the
window of counts holding all but :data:`CELL_EPS` of its mass in each tail;
the mass left out is reported as ``truncated_mass``.
"""

from __future__ import annotations

import numpy as np

from ..exact import QUANTILE_TOL, binomial_cdf

#: Probability per tail of a binomial left out of its window.
CELL_EPS = 1e-17

#: Relative tolerance under which two metric values computed with rounding
#: (MCC's square root, Fβ with a non-integer β²) count as the same value.
#: Ratio metrics computed as one division of exact integers need none: IEEE
#: division is correctly rounded, so equal fractions give equal floats.
MERGE_RTOL = 1e-13


def binomial_window(m, p, eps: float = CELL_EPS):
    """``(lo, hi, left_out)``: a window ``lo..hi`` of ``Bin(m, p)`` leaving out at most ``eps`` per tail
    (vectorised), and the exact mass left out.  :func:`bernstein_window` (``binomial_quantile`` compares
    its CDF with the level within 1e-12, too coarse for a level of 1e-17)."""
    return bernstein_window(m, p, eps)


def bernstein_window(m, p, eps: float = CELL_EPS):
    """Like :func:`binomial_window` but from Bernstein's bound (no quantile search, a little wider):
    ``P(|X − mp| >= h) <= 2·exp(−h²/(2(v + h/3)))``, ``v = mp(1 − p)``, with ``h`` set for ``eps`` per tail;
    the mass left out is computed exactly."""
    m, p = np.broadcast_arrays(np.asarray(m, float), np.asarray(p, float))
    lam = -np.log(eps)
    h = lam / 3 + np.sqrt(lam * lam / 9 + 2 * lam * m * p * (1 - p))
    lo = np.clip(np.floor(m * p - h), 0, m)
    hi = np.clip(np.ceil(m * p + h), 0, m)
    inner = (p > 0) & (p < 1)
    q = np.where(inner, p, 0.5)
    left = np.where(inner, binomial_cdf(lo - 1, m, q) + binomial_cdf(m - hi - 1, m, 1.0 - q), 0.0)
    lo = np.where(inner, lo, np.where(p >= 1, m, 0))
    hi = np.where(inner, hi, np.where(p >= 1, m, 0))
    return lo.astype(np.int64), hi.astype(np.int64), left


class Law:
    """A finite law: sorted distinct ``values`` and their ``probs`` (conditional on
    the metric being defined), with the probability of the undefined event and
    of the cells left out of the windows.

    Parameters
    ----------
    values, probs : ndarray
        Cells (any order, repeats allowed).  ``values`` NaN marks an undefined cell.
    truncated : float
        Probability of the cells outside the computed windows.
    merge_rtol, merge_atol : float
        Values closer than ``max(merge_rtol·|v|, merge_atol)`` are one value (default: only equal floats).
    """

    def __init__(self, values: np.ndarray, probs: np.ndarray, truncated: float = 0.0, merge_rtol: float = 0.0,
                 merge_atol: float = 0.0):
        values, probs = np.broadcast_arrays(np.asarray(values, float), np.asarray(probs, float))
        values, probs = values.ravel(), probs.ravel()
        undefined = np.isnan(values)
        self.p_undefined = float(probs[undefined].sum())
        self.truncated = float(truncated)
        values, probs = values[~undefined], probs[~undefined]
        order = np.argsort(values, kind="stable")
        values, probs = values[order], probs[order]
        if values.size:
            gap = np.diff(values)
            new = gap > np.maximum(merge_rtol * np.abs(values[1:]), merge_atol)
            starts = np.flatnonzero(np.r_[True, new])
            values, probs = values[starts], np.add.reduceat(probs, starts)
        self.defined = float(probs.sum())
        self.values = values
        self.probs = probs / self.defined if self.defined > 0 else probs
        self._cdf = np.cumsum(self.probs)

    @property
    def mean(self) -> float:
        return float(self.probs @ self.values) if self.values.size else np.nan

    @property
    def std(self) -> float:
        if not self.values.size:
            return np.nan
        mu = self.mean
        return float(np.sqrt(max(float(self.probs @ (self.values - mu) ** 2), 0.0)))

    def quantile(self, q: float) -> float:
        """Smallest value whose CDF reaches ``q`` (within :data:`rocci.exact.QUANTILE_TOL`)."""
        if not self.values.size:
            return np.nan
        i = int(np.argmax(self._cdf >= q - QUANTILE_TOL))
        if self._cdf[i] < q - QUANTILE_TOL:
            i = self.values.size - 1
        return float(self.values[i])

    def quantiles(self, qs) -> list[float]:
        return [self.quantile(q) for q in qs]

    def prob(self, mask: np.ndarray) -> float:
        return float(min(1.0, self.probs[mask].sum()))


#: Cells enumerated at once when a quantile search has narrowed to a few values (and rows per chunk of
#: the two-dimensional routes).
ENUM_CELLS = 1 << 14


def _merged_first(values: np.ndarray, masses: np.ndarray, start: float, target: float, rtol: float):
    """Sort ``values`` (masses ``masses``), merge as :class:`Law` does, and return the first merged value
    whose cumulative mass ``start + …`` reaches ``target`` (the last one if none does)."""
    order = np.argsort(values, kind="stable")
    values, masses = values[order], masses[order]
    new = np.diff(values) > rtol * np.abs(values[1:])
    starts = np.flatnonzero(np.r_[True, new])
    cum = start + np.cumsum(np.add.reduceat(masses, starts))
    hit = np.flatnonzero(cum >= target)
    return float(values[starts[hit[0]] if hit.size else starts[-1]])


class MonotoneLattice:
    """A finite law on cells ``(i, j)``, ``lo[i] <= j <= hi[i]``, whose values are non-decreasing in ``j``
    along each row: its CDF is a sum over the rows of one partial sum each (no two-dimensional table).

    Parameters
    ----------
    value : callable ``(rows, j) -> values``
        The cells' values (floats, computed exactly as the two-dimensional route computes them).
    below : callable ``(rows, j) -> masses``
        Mass of the cells ``lo[row]..j`` of each row (0 for ``j < lo``).
    cell : callable ``(rows, j) -> masses``, optional
        Mass of the cell ``(row, j)`` (default: a difference of ``below``).
    lo, hi : ndarray of int64
        The rows' column ranges (undefined cells already left out).
    defined : float
        Total mass of the cells.
    rtol : float
        As :class:`Law`'s ``merge_rtol``: values within ``rtol·|v|`` are one value.

    The percentile bound (:meth:`quantile`) is the smallest value ``v`` whose CDF ``P(g <= v)/defined``
    reaches ``q − QUANTILE_TOL``, as :meth:`Law.quantile`: a bisection on ``v`` (one vectorised binary
    search per row for the last cell ``<= v``) until at most :data:`ENUM_CELLS` cells lie in the bracket,
    which are then sorted and accumulated.
    """

    def __init__(self, value, below, lo, hi, defined: float, rtol: float = 0.0, cell=None):
        self.cell = cell or (lambda rows, j: below(rows, j) - below(rows, j - 1))
        keep = hi >= lo
        self.rows = np.flatnonzero(keep)
        self.lo, self.hi = lo[keep].astype(np.int64), hi[keep].astype(np.int64)
        self.value, self.below, self.defined, self.rtol = value, below, float(defined), float(rtol)

    def last_le(self, v: float, left=None, right=None) -> np.ndarray:
        """For each row, the last column whose value is ``<= v`` (``lo − 1`` if none); ``left``, ``right``:
        columns known to be ``<= v`` and ``> v`` (default ``lo − 1``, ``hi + 1``)."""
        v = v + self.rtol * abs(v)
        # value(left) <= v < value(right), with the values outside lo..hi taken as −inf and +inf.
        left = self.lo - 1 if left is None else left.copy()
        right = self.hi + 1 if right is None else right.copy()
        while True:
            open_ = right - left > 1
            if not open_.any():
                return left
            mid = (left + right) // 2
            idx = np.flatnonzero(open_)
            ok = self.value(self.rows[idx], mid[idx]) <= v
            left[idx] = np.where(ok, mid[idx], left[idx])
            right[idx] = np.where(ok, right[idx], mid[idx])

    def _mass(self, j: np.ndarray) -> float:
        return float(self.below(self.rows, j).sum())

    def quantile(self, q: float, guess: float | None = None, step: float = 0.0) -> float:
        """``guess``, ``step``: the first two bisection points are ``guess ∓ step`` (e.g. the normal quantile
        and a quarter of the sd), which narrows the bracket sooner; the result does not depend on them."""
        if not self.rows.size or self.defined <= 0:
            return np.nan
        first = [] if guess is None or not step > 0 or not np.isfinite(guess + step) else [guess - step,
                                                                                           guess + step]
        target = (q - QUANTILE_TOL) * self.defined
        vmin = float(self.value(self.rows, self.lo).min())
        hi_v = float(self.value(self.rows, self.hi).max())
        j_lo, m_lo, lo_v = self.lo - 1, 0.0, None
        j_hi = self.hi
        while True:
            count = int((j_hi - j_lo).sum())
            anchor = vmin if lo_v is None else lo_v
            mid = anchor + (hi_v - anchor) / 2
            while first:
                point = first.pop(0)
                if anchor < point < hi_v:
                    mid = point
                    break
            if count <= ENUM_CELLS or not anchor < mid < hi_v:
                return self._enumerate(j_lo, j_hi, m_lo, target)
            j_mid = self.last_le(mid, j_lo, j_hi + 1)
            m_mid = self._mass(j_mid)
            if m_mid >= target:
                hi_v, j_hi = mid, j_mid
            else:
                lo_v, j_lo, m_lo = mid, j_mid, m_mid

    def _enumerate(self, j_lo, j_hi, start: float, target: float) -> float:
        n = j_hi - j_lo
        take = n > 0
        rows = np.repeat(self.rows[take], n[take])
        first = np.repeat(j_lo[take] + 1 - np.cumsum(np.r_[0, n[take][:-1]]), n[take])
        cols = first + np.arange(rows.size)
        masses = self.cell(rows, cols)
        if not rows.size:
            return float(self.value(self.rows, self.hi).max())
        return _merged_first(self.value(rows, cols), masses, start, target, self.rtol)


def chunked_quantiles(chunks, qs, defined: float, rtol: float = 0.0, span=None, bins: int = 1 << 14):
    """Quantiles (as :meth:`Law.quantile`) of a law given as a re-iterable source of ``(values, masses)``
    chunks (NaN values are undefined and skipped), in two passes of O(chunk) memory: a histogram of the
    values on ``span`` (default: their range, one more pass), then the cells of the bins where the levels
    are reached, sorted and merged.  A level reached outside ``span`` repeats the search on the whole range."""
    if span is None:
        lo_v, hi_v = np.inf, -np.inf
        for values, _ in chunks():
            ok = ~np.isnan(values)
            if ok.any():
                lo_v, hi_v = min(lo_v, float(values[ok].min())), max(hi_v, float(values[ok].max()))
        if not np.isfinite(lo_v) or defined <= 0:
            return [np.nan for _ in qs]
        if hi_v == lo_v:
            return [lo_v for _ in qs]
        whole = True
    else:
        (lo_v, hi_v), whole = span, False
    scale = bins / (hi_v - lo_v)

    def bin_of(v):  # 0: below the span, 1..bins inside, bins + 1: above
        return np.clip(np.floor((v - lo_v) * scale), -1, bins).astype(np.int64) + 1

    hist = np.zeros(bins + 2)
    for values, masses in chunks():
        ok = ~np.isnan(values)
        hist += np.bincount(bin_of(values[ok]), weights=masses[ok], minlength=bins + 2)
    cum = np.cumsum(hist)
    targets = [(q - QUANTILE_TOL) * defined for q in qs]
    ks = [min(int(np.searchsorted(cum, t)), bins + 1) for t in targets]
    if not whole and any(k in (0, bins + 1) for k in ks):
        return chunked_quantiles(chunks, qs, defined, rtol, None, bins)
    # Each bin, with a margin below it for values merged across its lower edge.
    cuts = [lo_v + (k - 1) / scale - 4 * rtol * max(abs(lo_v), abs(hi_v)) for k in ks]
    starts = [0.0 for _ in ks]
    vals, mass = [[] for _ in ks], [[] for _ in ks]
    for values, masses in chunks():
        ok = ~np.isnan(values)
        v, p = values[ok], masses[ok]
        b = bin_of(v)
        for i, k in enumerate(ks):
            low = (b < k) & ((v <= cuts[i]) | (k == 0))
            starts[i] += float(p[low].sum())
            inside = (b <= k) & ~low
            vals[i].append(v[inside])
            mass[i].append(p[inside])
    return [_merged_first(np.concatenate(vals[i]), np.concatenate(mass[i]), starts[i], targets[i], rtol)
            for i in range(len(ks))]
