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
from scipy import special

from .._core.exact import QUANTILE_TOL, binomial_pmf

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
    the mass left out is computed exactly, as incomplete beta functions:
    ``P(X < lo) = I_{1−p}(m − lo + 1, lo)`` and ``P(X > hi) = I_p(hi + 1, m − hi)`` (scipy's ``betainc``,
    three times faster than the binomial CDF ufunc and as accurate)."""
    lo, hi, _ = bernstein_bounds(m, p, eps)
    return lo, hi, window_tails(m, p, lo, hi)


def window_tails(m, p, lo, hi) -> np.ndarray:
    """``P(X < lo) + P(X > hi)`` for ``X ~ Bin(m, p)`` (vectorised; 0 where ``p`` is 0 or 1): the mass a
    window ``lo..hi`` leaves out, as ``I_{1−p}(m − lo + 1, lo) + I_p(hi + 1, m − hi)``."""
    m, p = np.asarray(m, dtype=np.float64), np.asarray(p, dtype=np.float64)
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    if m.ndim or p.ndim != 1 or lo.shape != p.shape or hi.shape != p.shape:
        m, p, lo, hi = (np.array(a) for a in np.broadcast_arrays(m, p, lo, hi))
    inner = (p > 0) & (p < 1)
    below = inner & (lo > 0)
    above = inner & (hi < m)
    left = np.zeros(np.shape(p))
    if below.any():
        mb = m if m.ndim == 0 else m[below]
        left[below] = special.betainc(mb - lo[below] + 1, lo[below], 1.0 - p[below])
    if above.any():
        ma = m if m.ndim == 0 else m[above]
        left[above] += special.betainc(hi[above] + 1, ma - hi[above], p[above])
    return left


#: Range of each metric, for clipping Wald intervals (default [0, 1]).
_RANGE = {"mcc": (-1.0, 1.0), "youden": (-1.0, 1.0), "lift": (0.0, np.inf), "delta_lift": (-np.inf, np.inf)}


def _interval(law: Law, metric: str, alpha: float, method: str) -> tuple[float, float]:
    if method == "percentile":
        low, high = law.quantiles([alpha / 2, 1 - alpha / 2])
        return low, high
    lo, hi = _RANGE.get(metric, (0.0, 1.0))
    z = float(special.ndtri(1 - alpha / 2))
    if method == "score":  # precision only (checked by the caller)
        low, high = score_interval(law.mean, law.std**2, law.predicted_harmonic_mean(), z)
        return float(low), float(high)
    return float(np.clip(law.mean - z * law.std, lo, hi)), float(np.clip(law.mean + z * law.std, lo, hi))


def score_interval(mean, var, m, z: float):
    """Score-like interval on an exact bootstrap mean and variance (thesis Algorithm 4.3, as
    :func:`rocci.vertical_ci`'s ``method="score"``), clipped to [0, 1]:

    ``[e + z²/2m ± z·sqrt(v + z²/4m²)] / (1 + z²/m)``,

    the roots in ``π`` of ``(e − π)² = z²·[v + (π(1 − π) − e(1 − e))/m]``: Wilson's interval with the
    binomial variance ``e(1 − e)/m`` at the estimate replaced by the exact variance ``v`` and its change
    with ``π`` kept (so the interval keeps a width of order ``z²/m`` where ``v = 0``).  Vectorised; NaN in,
    NaN out.  ``e`` lies between the roots (at ``π = e`` the left side is 0); rounding of the formula (e.g.
    ``1 − 1e-16`` for the upper root when ``e = 1``, ``v = 0``) is not allowed to leave it outside.
    """
    e, v, m = (np.asarray(a, float) for a in (mean, var, m))
    with np.errstate(divide="ignore", invalid="ignore"):
        zm = z * z / m
        half = z * np.sqrt(np.maximum(v, 0.0) + (z / (2 * m)) ** 2)
        low = np.clip(np.fmin((e + zm / 2 - half) / (1 + zm), e), 0.0, 1.0)
        high = np.clip(np.fmax((e + zm / 2 + half) / (1 + zm), e), 0.0, 1.0)
    return low, high


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
        """Smallest value whose CDF reaches ``q`` (within :data:`rocci._core.exact.QUANTILE_TOL`)."""
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


#: Cells :class:`StaircaseLattice` sorts at the end of a quantile search (narrowing the bracket further costs
#: one O(rows) CDF evaluation per halving, about as much as sorting ~2,000 cells).
STAIRCASE_CELLS = 1 << 11


class StaircaseLattice:
    """A finite law on cells ``(i, j)`` of mass ``pr[i]·pc[j]``, row ``i`` holding the columns ``lo[i]..hi[i]``,
    whose values are non-increasing in ``j`` along every row: its CDF is one sum over the rows,

    ``F(c) = Σ_i pr[i]·(S[J_c(i)] − S[hi[i] + 1])``,  ``S[j] = Σ_{k >= j} pc[k]``,

    with ``J_c(i)`` the first column of row ``i`` whose value is ``<= c`` (the cells ``<= c`` of a row are a
    suffix of it).  ``J_c`` comes from a continuous inverse of the metric (``inverse(c)``: for every row a
    real column ``x`` with ``g(i, j) <= c`` iff ``j >= x`` in exact arithmetic), rounded up and checked
    against the values themselves, computed exactly as a table of cells would hold them (one evaluation at
    ``J`` and one at ``J − 1`` per row; a row whose guess is off by more than two columns is binary-searched):
    a CDF evaluation costs O(rows), not O(cells).

    Parameters
    ----------
    value : callable ``(rows, cols) -> values``
    inverse : callable ``(c) -> ndarray`` or None
        Real columns per row (``±inf`` or NaN allowed: clipped, resp. binary-searched); None: binary search.
    pr, pc : ndarray
        Row and column masses.
    lo, hi : ndarray of int64
        Each row's columns (undefined cells left out; ``hi < lo``: an empty row).
    defined : float
        Total mass of the cells.
    rtol : float
        As :class:`Law`'s ``merge_rtol``.

    :meth:`quantile` returns :meth:`Law.quantile` of the law (the smallest value whose CDF reaches
    ``q − QUANTILE_TOL``): a bracket ``F(c_lo) < target <= F(c_hi)`` is narrowed by interpolation of the CDF
    on the normal scale (``Φ⁻¹(F/defined)`` is nearly linear in ``c``), two points straddling each estimate,
    bisection between the bracket's extreme atoms when that stalls, until at most :data:`STAIRCASE_CELLS`
    cells lie in it (or one value); those cells are then sorted and merged as :class:`Law` does (with
    ``rtol > 0`` from a margin of ``4·rtol·|c_lo|`` below the bracket, as :func:`chunked_quantiles`).
    """

    def __init__(self, value, inverse, pr, pc, lo, hi, defined: float, rtol: float = 0.0):
        self.value, self.inverse, self.rtol = value, inverse, float(rtol)
        self.pr, self.pc = np.asarray(pr, float), np.asarray(pc, float)
        self.lo, self.hi = np.asarray(lo, np.int64), np.asarray(hi, np.int64)
        self.defined = float(defined)
        self.width = self.pc.size
        # S[j] = pc[j] + pc[j + 1] + …, summed from the top (the order of MonotoneLattice's tails)
        self.suffix = np.r_[np.cumsum(self.pc[::-1])[::-1], 0.0]
        self.rows = np.arange(self.pr.size)
        self.hi_end = self.hi + 1
        self.hi_cut = bool((self.hi_end < self.width).any())  # a row ending before the last column
        self.evaluations = 0

    def first_le(self, c: float, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """``J_c`` per row, given ``left <= J_c <= right`` (columns ``< left`` hold values ``> c``; column
        ``right`` holds a value ``<= c`` or is ``hi + 1``)."""
        self.evaluations += 1
        rows = self.rows
        left, right = left.copy(), right.copy()
        if self.inverse is not None:
            with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
                x = np.asarray(self.inverse(c), float)
            lost = np.isnan(x)
            j = np.ceil(np.clip(np.where(lost, 0.0, x), left - 1.0, right + 1.0)).astype(np.int64)
            j = np.minimum(np.maximum(j, left), right)
            todo = ~lost & (right > left)
            for _ in range(3):  # check the guess, move it by one column at most twice
                idx = np.flatnonzero(todo)
                if not idx.size:
                    break
                ji, li, ri = j[idx], left[idx], right[idx]
                above = ji < ri  # the cell at ji exists: is it > c (then J > ji)?
                gt = np.zeros(idx.size, bool)
                if above.any():
                    gt[above] = self.value(rows[idx[above]], ji[above]) > c
                below = ji > li  # the cell at ji − 1 exists: is it <= c (then J < ji)?
                le = np.zeros(idx.size, bool)
                if below.any():
                    le[below] = self.value(rows[idx[below]], ji[below] - 1) <= c
                li = np.where(gt, ji + 1, np.where(below & ~le, ji, li))
                ri = np.where(le, ji - 1, np.where(above & ~gt, ji, ri))
                left[idx], right[idx] = li, ri
                j[idx] = np.minimum(np.maximum(ji + gt - le, li), ri)
                todo[idx] = ri > li
        # binary search where the bracket is still open: the first column in left..right whose value is <= c
        while True:
            open_ = right > left
            if not open_.any():
                return left
            idx = np.flatnonzero(open_)
            mid = (left[idx] + right[idx]) // 2
            ok = self.value(rows[idx], mid) <= c
            right[idx] = np.where(ok, mid, right[idx])
            left[idx] = np.where(ok, left[idx], mid + 1)

    def mass(self, j: np.ndarray) -> float:
        """``Σ_i pr[i]·(S[j_i] − S[hi_i + 1])``: the mass of the cells at or after column ``j_i`` of each row."""
        tail = self.suffix[j]  # (j <= hi + 1 by construction)
        if self.hi_cut:
            tail = tail - self.suffix[self.hi_end]
        return float(np.multiply(self.pr, tail).sum())

    def _extreme(self, left, right):
        """Largest and smallest value among the cells ``left..right − 1`` of the rows (NaN if none)."""
        open_ = right > left
        if not open_.any():
            return np.nan, np.nan
        idx = np.flatnonzero(open_)
        top = float(np.max(self.value(idx, left[idx])))
        bottom = float(np.min(self.value(idx, right[idx] - 1)))
        return top, bottom

    def quantile(self, q: float, mean: float | None = None, sd: float | None = None) -> float:
        """``mean``, ``sd``: of the law, for the first estimate (the result does not depend on them)."""
        empty = self.hi < self.lo
        if self.defined <= 0 or empty.all():
            return np.nan
        target = (q - QUANTILE_TOL) * self.defined
        lo0 = np.where(empty, self.hi + 1, self.lo)
        # bracket: columns >= right hold the cells <= c_lo (F(c_lo) = f_lo < target); >= left: <= c_hi.
        left, right = lo0.copy(), self.hi + 1
        c_lo, c_hi, f_lo, f_hi = -np.inf, np.inf, 0.0, self.defined
        if target <= 0:
            return float(np.min(self.value(self.rows[~empty], self.hi[~empty])))
        zt = float(special.ndtri(min(max(q, 1e-300), 1 - 1e-16)))
        slope = sd if sd is not None and np.isfinite(sd) and sd > 0 else None
        count = int((right - left).sum())
        stalled = 0
        while True:
            top, bottom = self._extreme(left, right)  # the atoms in (c_lo, c_hi]: bottom..top
            if count <= STAIRCASE_CELLS or not bottom < top:
                break
            z_lo = special.ndtri(f_lo / self.defined) if f_lo > 0 else -np.inf
            z_hi = special.ndtri(f_hi / self.defined) if f_hi < self.defined else np.inf
            both = np.isfinite(c_lo) and np.isfinite(c_hi)
            if stalled or (slope is None and not both):
                points = [bottom + (top - bottom) / 2]
            else:
                if both and np.isfinite(z_lo) and np.isfinite(z_hi) and z_hi > z_lo:
                    slope = (c_hi - c_lo) / (z_hi - z_lo)
                    est = c_lo + (zt - z_lo) * slope
                elif np.isfinite(c_lo) and np.isfinite(z_lo):
                    est = c_lo + (zt - z_lo) * slope
                elif np.isfinite(c_hi) and np.isfinite(z_hi):
                    est = c_hi + (zt - z_hi) * slope
                else:
                    est = (mean if mean is not None and np.isfinite(mean) else (top + bottom) / 2) + zt * slope
                delta = (top - bottom) * max(STAIRCASE_CELLS / 4 / count, 1e-3) if both else slope / 8
                points = [est - delta, est + delta]
            before, moved = count, False
            for c in points:
                c = min(max(c, bottom), top)
                if not c_lo < c < c_hi:
                    continue
                moved = True
                j = self.first_le(c, left, right)
                f = self.mass(j)
                if f >= target:
                    c_hi, f_hi, left = c, f, j
                else:
                    c_lo, f_lo, right = c, f, j
            if not moved and stalled:
                break
            count = int((right - left).sum())
            stalled = count * 2 > before
        if self.rtol == 0 and top == bottom and count > 0:
            return float(top)  # one value in (c_lo, c_hi], where the CDF reaches the level
        if self.rtol > 0 and np.isfinite(c_lo):
            cut = c_lo - 4 * self.rtol * abs(c_lo)
            right = self.first_le(cut, right, self.hi + 1)
            f_lo = self.mass(right)
        elif not np.isfinite(c_lo):
            f_lo = 0.0
        return self._enumerate(left, right, f_lo, target)

    def _enumerate(self, left, right, start: float, target: float) -> float:
        n = right - left
        take = n > 0
        if not take.any():
            empty = self.hi < self.lo
            return float(np.max(self.value(self.rows[~empty], self.lo[~empty])))
        rows = np.repeat(self.rows[take], n[take])
        first = np.repeat(left[take] - np.cumsum(np.r_[0, n[take][:-1]]), n[take])
        cols = first + np.arange(rows.size)
        masses = self.pr[rows] * self.pc[cols]
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


#: Probability per tail below which a binomial component of a mixture counts as saturated (its CDF taken as 0
#: or 1) by :class:`SaturatedMixture`.
SATURATION_EPS = 1e-17
#: Lattice steps walked by pmf ratios before :class:`SaturatedMixture` brackets the quantile with CDF evaluations.
WALK = 24


class SaturatedMixture:
    """``X ~ Σ_j c_j·Bin(m, q_j)`` (``q`` increasing, weights as given, not normalised), for quantiles.

    The CDF ``F(l) = Σ_j c_j·B(l; m, q_j)`` takes an incomplete beta function only for the components whose
    window (:func:`bernstein_window` at :data:`SATURATION_EPS` per tail) holds ``l``: for the others
    ``B(l; m, q_j)`` is 0 or 1 within 1e-17 (below the window, resp. at or above it).  Where the mixture
    is much wider than one binomial (the threshold's spread dominates, e.g. at high recall) most components
    are saturated at any ``l``.

    :meth:`quantile` is :func:`rocci._core.exact.mixture_quantile`'s search (the smallest ``l`` with
    ``F(l) >= q − QUANTILE_TOL``; a Cornish–Fisher guess, then pmf ratios one lattice step at a time,
    refreshed every 16 steps) with the walk limited to :data:`WALK` steps; farther quantiles are bracketed by
    CDF evaluations (steps from the normal approximation, doubled) and the bracket bisected down to a walk.
    """

    def __init__(self, weights: np.ndarray, q: np.ndarray, m: int):
        self.w, self.q, self.m = np.asarray(weights, float), np.asarray(q, float), int(m)
        self.lo, self.hi, _ = bernstein_bounds(self.m, self.q, SATURATION_EPS)
        inner = (self.q > 0) & (self.q < 1)
        self.c0 = float(self.w[self.q <= 0].sum())
        self.c1 = float(self.w[self.q >= 1].sum())
        self.inner = inner
        self.total = float(self.w.sum())

    def cdf(self, l: int) -> float:
        """``P(X <= l)`` (unnormalised weights, as :meth:`rocci._core.exact.BinomialMixture.cdf`), with
        ``B(l; m, q) = 1 − I_q(l + 1, m − l)`` for the components not saturated at ``l``."""
        if l < 0:
            return 0.0
        if l >= self.m:
            return self.total
        inner = self.inner
        full = inner & (self.lo <= l)  # not below the window: B = 1 − I_q(...) (I_q <= 1e-17 at or above it)
        act = full & (self.hi > l)
        value = self.c0 + float(self.w[full].sum())
        if act.any():
            value -= float(self.w[act] @ special.betainc(l + 1.0, float(self.m - l), self.q[act]))
        return value

    def _walk(self, l: int, cdf: float, target: float, limit: int):
        """From ``l`` with ``F(l) = cdf``, one lattice step at a time by pmf ratios: ``(answer, l, F(l), pmf(l))``,
        the answer ``None`` if it lies more than ``limit`` steps away (``l`` is then the last point reached)."""
        m = self.m
        act = self.inner & (self.lo <= l + limit + 1) & (self.hi > l - limit - 1)
        wa, qa = self.w[act], self.q[act]
        odds = qa / (1 - qa)

        def point(l, comp):
            value = float(wa @ comp)
            if l == 0:
                value += self.c0
            if l == m:
                value += self.c1
            return value

        comp = binomial_pmf(l, m, qa)
        p = point(l, comp)
        steps = 0
        if cdf >= target:
            while l > 0 and steps < limit:
                below = cdf - p
                if below < target:
                    return l, l, cdf, p
                cdf = below
                comp = comp * (l / (m - l + 1.0)) / odds
                l -= 1
                steps += 1
                if steps % 16 == 0:
                    comp = binomial_pmf(l, m, qa)
                p = point(l, comp)
            return (0 if l == 0 else None), l, cdf, p
        while l < m and steps < limit:
            comp = comp * ((m - l) / (l + 1.0)) * odds
            l += 1
            steps += 1
            if steps % 16 == 0:
                comp = binomial_pmf(l, m, qa)
            p = point(l, comp)
            cdf += p
            if cdf >= target:
                return l, l, cdf, p
        return (m if l >= m else None), l, cdf, p

    def quantile(self, q: float, mean: float, sd: float, skew: float = 0.0) -> int:
        """Smallest ``l`` with ``F(l) >= q − QUANTILE_TOL`` (``mean``, ``sd``, ``skew``: of ``X/m``, for the guess).

        Walks of :data:`WALK` steps from the guess; between walks a Newton step on the CDF
        (``Δl = (target − F(l))/pmf(l)``) kept inside the bracket known so far (bisection if it leaves it),
        with one CDF evaluation at the new point.

        Also sets ``self.margin = min(F(l) − target, target − F(l − 1))`` for the answer ``l``, as computed
        (how far the two decisions fixing the answer are from the level; see :func:`interpolated_mixtures`)."""
        m = self.m
        z = float(special.ndtri(q))
        guess = mean + sd * (z + (z * z - 1) * skew / 6)
        l = int(np.clip(np.floor(m * guess), 0, m))
        target = q - QUANTILE_TOL
        a, b = -1, m  # F(a) < target <= F(b) (F(−1) = 0; F(m) = total, the answer is m at most)
        f_a, f_b = 0.0, self.total
        cdf = self.cdf(l)
        while True:
            found, l, cdf, p = self._walk(l, cdf, target, WALK)
            if found is not None:
                self.margin = min(cdf - target, target - (cdf - p))
                return found
            if cdf >= target:
                if l < b:
                    b, f_b = l, cdf
            elif l > a:
                a, f_a = l, cdf
            if b - a <= 1:
                self.margin = min(f_b - target, target - f_a)
                return b
            step = (target - cdf) / p if p > 0 else np.inf
            nxt = -2
            if abs(step) < b - a:
                nxt = l + (int(np.ceil(step)) if step > 0 else int(np.floor(step)))
            if not a < nxt < b:
                nxt = (a + b) // 2
            if nxt < 0:
                nxt = 0
            l, cdf = nxt, self.cdf(nxt)


#: Width of the pieces of :func:`interpolated_mixtures` in standard deviations of ``Bin(m, q)/m``, and the
#: Chebyshev nodes per piece (interpolation error ~1e-17 of the weights for a normal-like CDF in ``q``).
PIECE_SDS = 4.0
PIECE_NODES = 30
#: Components per block of :func:`interpolated_mixtures`' Chebyshev rows.
_PIECE_BLOCK = 1 << 12
#: Distance from the level below which a quantile searched in :func:`interpolated_mixtures` is recomputed from the
#: components themselves (the interpolation and both CDFs' rounding stay ~1e-15).
INTERPOLATION_MARGIN = 1e-12


def _chebyshev_nodes(nodes: int):
    """Chebyshev points of the first kind on [−1, 1] (increasing), and ``T_k(x_i)·(2 − [k = 0])/nodes``."""
    theta = np.pi * (np.arange(nodes)[::-1] + 0.5) / nodes
    cheb = np.cos(np.outer(np.arange(nodes), theta)) * (2.0 / nodes)
    cheb[0] /= 2
    return np.cos(theta), cheb


def interpolated_mixtures(weights: np.ndarray, q: np.ndarray, offsets: np.ndarray, m: int,
                          sds: float = PIECE_SDS, nodes: int = PIECE_NODES) -> list:
    """For each mixture ``Σ_j c_j·Bin(m, q_j)`` (the slices ``offsets[i]:offsets[i + 1]`` of ``weights`` and
    ``q``, each ``q`` sorted, inside (0, 1) or at 0 and 1), a mixture with fewer components and (nearly) the
    same CDF and pmf, ``Σ_i W_i·Bin(m, ν_i)``: ``(W, ν)`` (``ν`` increasing), or ``None`` if it would not be
    smaller.  All mixtures in one pass of array operations.

    ``q ↦ B(l; m, q) = 1 − I_q(l + 1, m − l)`` is, at every ``l``, the survival function of a
    Beta(l + 1, m − l) law (a normal-like sigmoid, width ``sqrt(q(1 − q)/m)``), and the pmf ``b(l; m, q)``
    its density up to a factor.  The components are cut into pieces of at most ``sds`` such widths
    (equal steps of the variance-stabilising ``2·sqrt(m)·asin(sqrt(q))``); on a piece holding more than
    ``nodes`` components both are replaced by their polynomial interpolant at ``nodes`` Chebyshev points
    ``x_i`` of the piece's span (variable ``t`` in [−1, 1]), which moves the weights onto the nodes:
    ``W_i = Σ_j c_j·L_i(t_j)`` with ``L_i`` the Lagrange basis, taken in Chebyshev form (discrete
    orthogonality at the points of the first kind): ``W_i = Σ_k μ_k·T_k(x_i)·(2 − [k = 0])/nodes`` from the
    piece's Chebyshev moments ``μ_k = Σ_j c_j·T_k(t_j)`` (the three-term recurrence applied to the weighted
    rows ``c_j·T_k(t_j)``, no division).  Then ``Σ_i W_i·B(l; m, ν_i) = Σ_j c_j·P[B(l; m, ·)](q_j)``, within
    the interpolation error of the sigmoid (~1e-17 of the weights for 30 nodes on 4 widths) of the mixture's
    CDF at every ``l``.  Other pieces keep their components.  The ``W_i`` may be negative; their sum is the
    weights' sum (to rounding)."""
    w, q = np.asarray(weights, float), np.asarray(q, float)
    offsets = np.asarray(offsets, np.int64)
    count = offsets.size - 1
    out: list = [None] * count
    level = np.repeat(np.arange(count), np.diff(offsets))
    inner = np.flatnonzero((q > 0) & (q < 1))
    if inner.size <= nodes:
        return out
    qi, li = q[inner], level[inner]
    u = 2.0 * np.sqrt(m) * np.arcsin(np.sqrt(qi))
    new_level = np.concatenate(([True], li[1:] != li[:-1]))
    origin = u[np.flatnonzero(new_level)][np.cumsum(new_level) - 1]  # u of each level's first component
    piece = np.floor((u - origin) / sds)
    starts = np.flatnonzero(new_level | np.concatenate(([True], piece[1:] != piece[:-1])))
    sizes = np.diff(np.append(starts, qi.size))
    dense = (sizes > nodes) & (qi[starts + sizes - 1] > qi[starts])
    if not dense.any():
        return out
    d_starts, d_sizes = starts[dense], sizes[dense]
    first = np.concatenate(([0], np.cumsum(d_sizes[:-1])))
    member = np.repeat(np.arange(d_starts.size), d_sizes)
    pos = np.repeat(d_starts - first, d_sizes) + np.arange(member.size)
    qa, qb = qi[d_starts], qi[d_starts + d_sizes - 1]
    centre, half = (qa + qb) / 2, (qb - qa) / 2
    t = np.clip((qi[pos] - centre[member]) / half[member], -1.0, 1.0)
    t2 = 2.0 * t
    wt = w[inner[pos]]
    mom = np.empty((nodes, d_starts.size))
    # Blocks of whole pieces of about _PIECE_BLOCK components (the rows stay in cache).
    cuts = np.searchsorted(first, np.arange(0, t.size, _PIECE_BLOCK), side="right") - 1
    cuts = np.unique(np.append(cuts, d_starts.size))
    buf = np.empty((nodes, int(np.diff(np.append(first, t.size)[cuts]).max())))
    for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
        lo, hi = int(first[a]), int(first[b]) if b < first.size else t.size
        rows = buf[:, :hi - lo]  # rows[k, j] = c_j·T_k(t_j)
        rows[0] = wt[lo:hi]
        np.multiply(rows[0], t[lo:hi], out=rows[1])
        tb = t2[lo:hi]
        for k in range(2, nodes):
            np.multiply(tb, rows[k - 1], out=rows[k])
            rows[k] -= rows[k - 2]
        mom[:, a:b] = np.add.reduceat(rows, first[a:b] - lo, axis=1)
    x, cheb = _chebyshev_nodes(nodes)
    moved = np.einsum("kp,ki->pi", mom, cheb)  # (pieces, nodes): W_i of each piece
    node_q = centre[:, None] + half[:, None] * x[None, :]
    # Every level's kept components and nodes, ordered by level, then q.
    keep = np.ones(q.size, dtype=bool)
    keep[inner[pos]] = False
    all_level = np.concatenate((level[keep], np.repeat(li[d_starts], nodes)))
    all_q = np.concatenate((q[keep], node_q.ravel()))
    all_w = np.concatenate((w[keep], moved.ravel()))
    order = np.lexsort((all_q, all_level))
    all_q, all_w = all_q[order], all_w[order]
    bounds = np.searchsorted(all_level[order], np.arange(count + 1))
    smaller = np.flatnonzero(np.diff(bounds) < np.diff(offsets)).tolist()
    for i in smaller:
        out[i] = (all_w[bounds[i]:bounds[i + 1]], all_q[bounds[i]:bounds[i + 1]])
    return out


def bernstein_bounds(m, p, eps):
    """:func:`bernstein_window` without the mass left out: ``(lo, hi, None)``, vectorised."""
    m, p = np.asarray(m, dtype=np.float64), np.asarray(p, dtype=np.float64)
    lam = -np.log(eps)
    h = lam / 3 + np.sqrt(lam * lam / 9 + 2 * lam * m * p * (1 - p))
    mp = m * p
    lo = np.clip(np.floor(mp - h), 0, m)
    hi = np.clip(np.ceil(mp + h), 0, m)
    edge = (p <= 0) | (p >= 1)
    if edge.any():
        lo = np.where(edge, np.where(p >= 1, m, 0), lo)
        hi = np.where(edge, np.where(p >= 1, m, 0), hi)
    return lo.astype(np.int64), hi.astype(np.int64), None


#: Cells between two boost evaluations of the order statistic's density (:func:`order_statistic_weights`).
ANCHOR_CELLS = 32


def order_statistic_weights(r, m: int, n: int):
    """:func:`rocci._core.exact.order_statistic_laws` (the law of the index ``K`` of the r-th largest of ``m`` draws
    from ``n`` sorted values, at many levels ``r``): the same windows, quadrature rules and truncated mass;
    the levels integrated by Gauss–Legendre quadrature take the Beta(r, m − r + 1) density at the nodes from
    a boost pmf every :data:`ANCHOR_CELLS` cells and, between them, the ratio of the density at the same node
    of consecutive cells, ``f(x + 1/n)/f(x) = exp((r − 1)·log1p(1/(n·x)) + (m − r)·log1p(−1/(n·(1 − x))))``
    (each log-ratio to ~2e-16, so the densities to ~1e-14 relative, ten times fewer boost calls).  The
    other levels are :func:`rocci._core.exact.order_statistic_laws`'s.

    Returns ``k, weights, offsets, truncated`` as :func:`rocci._core.exact.order_statistic_laws`.
    """
    from .._core.exact import WINDOW_EPS, _gauss_legendre, _gl_order, _order_statistic_windows, order_statistic_laws

    r = np.asarray(r, dtype=np.int64).ravel()
    levels, inverse = np.unique(r, return_inverse=True)
    inverse = inverse.ravel()
    k_lo, k_hi, quadrature = _order_statistic_windows(levels, m, n, WINDOW_EPS)
    pieces_k: list = [None] * levels.size
    pieces_w: list = [None] * levels.size
    truncated = np.empty(levels.size)
    other = np.flatnonzero(~quadrature)
    if other.size:
        k, w, off, tr = order_statistic_laws(levels[other], m, n)
        for j, i in enumerate(other.tolist()):
            pieces_k[i], pieces_w[i], truncated[i] = k[off[j]:off[j + 1]], w[off[j]:off[j + 1]], tr[j]
    for i in np.flatnonzero(quadrature).tolist():
        rr, lo, hi = int(levels[i]), int(k_lo[i]), int(k_hi[i])
        a, b = float(rr), float(m - rr + 1)
        mode = min(max((a - 1) / (a + b - 2) if a + b > 2 else 0.5, 1.0 / n), 1 - 1.0 / n)
        sigma = np.sqrt(max(mode * (1 - mode), 1.0 / n) / (a + b + 1))
        nodes, gl_w = _gauss_legendre(_gl_order((1.0 / n) / sigma))
        k = np.arange(lo, hi + 1, dtype=np.int64)
        x = ((k - 0.5)[:, None] + 0.5 * nodes[None, :]) / n  # (cells, nodes)
        cells = k.size
        with np.errstate(divide="ignore", invalid="ignore"):
            step = (rr - 1) * np.log1p(1.0 / (n * x[:-1]))
            if m > rr:
                step += (m - rr) * np.log1p(-1.0 / (n * (1.0 - x[:-1])))
        # log f(cell c) − log f(anchor of c), the anchors every ANCHOR_CELLS cells
        logs = np.zeros_like(x)
        blocks = -(-cells // ANCHOR_CELLS)
        pad = np.zeros((blocks * ANCHOR_CELLS, x.shape[1]))
        pad[1:cells] = step
        pad = pad.reshape(blocks, ANCHOR_CELLS, x.shape[1])
        pad[:, 0, :] = 0.0
        logs[:] = np.cumsum(pad, axis=1).reshape(-1, x.shape[1])[:cells]
        anchors = m * binomial_pmf(rr - 1, m - 1, x[::ANCHOR_CELLS])
        dens = np.repeat(anchors, ANCHOR_CELLS, axis=0)[:cells] * np.exp(logs)
        pieces_k[i], pieces_w[i] = k, (0.5 / n) * (dens @ gl_w)
        truncated[i] = float(special.betainc(a, b, (lo - 1) / n) + special.betainc(b, a, (n - hi) / n))
    order = inverse.tolist()
    k = np.concatenate([pieces_k[i] for i in order])
    weights = np.concatenate([pieces_w[i] for i in order])
    sizes = np.array([pieces_k[i].size for i in range(levels.size)], dtype=np.int64)
    offsets = np.zeros(r.size + 1, dtype=np.int64)
    np.cumsum(sizes[inverse], out=offsets[1:])
    return k, weights, offsets, truncated[inverse]
