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

    def prob(self, mask: np.ndarray) -> float:
        return float(min(1.0, self.probs[mask].sum()))
