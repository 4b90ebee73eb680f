"""Confidence intervals for a proportion, and the 2-D regions built from them.

Each method is a small private kernel with explicit boundary behaviour; all
are vectorised.  ``p`` is the observed proportion (the exact bootstrap law of
the resampled count is ``Bin(m, p)``) and ``m`` the bootstrap sample size.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .exact import (
    QUANTILE_TOL,
    _boost_binom_pmf,
    binomial_cdf,
    binomial_quantile,
    mixture_quantile,
    mixture_quantiles_by_table,
    mixture_skewness,
)

__all__ = ["PROPORTION_METHODS", "REGIONS", "proportion_interval", "axis_alpha"]

PROPORTION_METHODS = ("wilson", "wald", "agresti-coull", "percentile")
REGIONS = ("rectangle", "ellipse", "marginal")


def axis_alpha(confidence_level: float, region: str) -> float:
    """Per-axis error rate of a 2-D region at level ``1 − α``.

    Rectangle: ``α_2D = 1 − sqrt(1 − α)`` per axis, so that the product of two
    independent axes covers ``1 − α`` (thesis §4.3.1).  Marginal: ``α``.
    Ellipse: the error rate of the ellipse's projection on one axis,
    ``2·(1 − Φ(sqrt(χ²₂(1 − α))))``.
    """
    alpha = 1.0 - confidence_level
    if region == "rectangle":
        return 1.0 - np.sqrt(1.0 - alpha)
    if region == "marginal":
        return alpha
    radius = np.sqrt(stats.chi2.ppf(confidence_level, 2))
    return 2.0 * special.ndtr(-radius)


def _z(alpha: float) -> float:
    return float(special.ndtri(1.0 - alpha / 2.0))


def _wilson(p, m, z):
    # [p + z²/2m ± z·sqrt(p(1 − p)/m + z²/4m²)] / (1 + z²/m)   (thesis eq. 4.2, corrected)
    z2m = z * z / m
    centre = p + z2m / 2
    half = z * np.sqrt(p * (1 - p) / m + z2m / (4 * m))
    low = (centre - half) / (1 + z2m)
    high = (centre + half) / (1 + z2m)
    # Exact boundary values (p = 0 gives 0, p = 1 gives 1), free of rounding.
    return np.where(p <= 0, 0.0, low), np.where(p >= 1, 1.0, high)


def _wald(p, m, z):
    half = z * np.sqrt(p * (1 - p) / m)
    return np.clip(p - half, 0.0, 1.0), np.clip(p + half, 0.0, 1.0)


def _agresti_coull(p, m, z, add=2.0):
    # Add `add` to each confusion cell: p̃ = (m·p + add)/(m + 2·add), then Wald with m + 2·add.
    mt = m + 2 * add
    pt = (m * p + add) / mt
    half = z * np.sqrt(pt * (1 - pt) / mt)
    return np.clip(pt - half, 0.0, 1.0), np.clip(pt + half, 0.0, 1.0)


# ---------------------------------------------------------------------------
# Binomial quantiles along a sorted column of proportions (percentile interval)
# ---------------------------------------------------------------------------

#: Columns between two exact (incomplete-beta) anchors of the CDF chain.
_CHAIN_BLOCK = 512
#: Largest ``|ψ'|`` at either end of a column gap (ψ the log of the integrand below) ...
_CHAIN_MAX_SLOPE = 0.1
#: ... largest curvature bound ``j·x² + (m − j − 1)·y₁²`` ...
_CHAIN_MAX_CURVE = 0.003
#: ... and largest relative step ``x, y₁`` for the Euler–Maclaurin rule (relative error below ~3e-13).
_CHAIN_MAX_STEP = 1 / 64
#: A chained CDF this close to the level is decided again by the exact walk;
#: the chain's own error is below ~1e-11 (tests/test_quantiles.py measures it).
_CHAIN_MARGIN = 1e-9
#: Below this many distinct proportions the exact walk is as fast.
_CHAIN_MIN_SIZE = 512
#: Columns per block of the chain (a multiple of :data:`_CHAIN_BLOCK`): temporaries stay in cache.
_CHAIN_CHUNK = 16 * 1024


def _log1p(v: np.ndarray) -> np.ndarray:
    """``log(1 + v)`` to a few ulps for ``|v| > 2^-52`` (Goldberg's trick; cheaper than ``np.log1p``).

    NaN where ``1 + v`` rounds to 1, which the chain treats as a step to anchor.
    """
    u = 1.0 + v
    return np.log(u) * (v / (u - 1.0))


def _chained_quantiles(qs, m: int, p: np.ndarray, *, lattice: bool = False, symmetric: bool = False) -> list:
    """``binomial_quantile(q, m, p)`` for each ``q`` in ``qs``; ``p`` sorted, distinct, in [0, 1].

    The same answer as :func:`rocci._core.exact.binomial_quantile` (smallest ``k``
    with ``B(k; m, p) >= q − QUANTILE_TOL``), for one exponential and two
    logarithms per proportion instead of several incomplete beta functions.

    Along the sorted column the Cornish–Fisher guess ``g`` is non-decreasing,
    and the pmf ``b(g; m, p)`` and the CDF ``B(g; m, p)`` move from one column
    to the next by

    * a step in ``p`` at a fixed row ``j``: the pmf by the ratio
      ``(t/p)^j ((1 − t)/(1 − p))^(m − j)``, the CDF by
      ``−∫_p^t m·b(j; m − 1, u) du`` (the beta-density identity of
      :mod:`rocci._core.exact`).  With ``u = p + s·(t − p)`` the integrand is
      proportional to ``exp(ψ(s))``, ``ψ(s) = j·log(1 + s·x) + (m − j − 1)·log(1 − s·y)``
      (``x = (t − p)/p``, ``y = (t − p)/(1 − p)``), whose derivatives at
      both ends are rational in ``x`` and ``y``: the Euler–Maclaurin formula
      to the fifth derivative integrates it from its two end values (the far
      one is the pmf ratio), on gaps where ``ψ`` is nearly flat (relative
      error below ~3e-13 under the limits :data:`_CHAIN_MAX_SLOPE`,
      :data:`_CHAIN_MAX_CURVE`, :data:`_CHAIN_MAX_STEP`);
    * steps in ``j`` at a fixed ``p``: the pmf by ``b(j + 1)/b(j) = (m − j)/(j + 1) · p/(1 − p)``,
      the CDF by ``+ b(j; m, p)`` each.

    Both are accumulated from exact values (boost's pmf and incomplete beta)
    every :data:`_CHAIN_BLOCK` columns and wherever a step is too wide or too
    long, so the chained CDF is within ~1e-11 of the exact one.  The quantile
    is read off the lattice next to ``g``; every column whose CDF lands within
    :data:`_CHAIN_MARGIN` of the level, or whose quantile is not next to
    ``g``, is decided again by the exact walk.  The result is therefore the
    exact walk's (tested on dense grids against it and ``scipy.stats.binom.ppf``).

    Two levels ``q`` and ``1 − q`` on proportions symmetric about 1/2 (a ROC
    column ``k/n``, k = 0…n) take one chain: with ``X ~ Bin(m, p)`` and
    ``Y = m − X ~ Bin(m, 1 − p)``, the ``1 − q`` quantile of ``X`` is ``m``
    minus the ``q`` quantile of ``Y``, unless a CDF lies within the margin of
    the level (then the exact walk decides); the margin is widened by
    ``m·|Δp|`` for the rounding of ``1 − p`` (``|∂B/∂p| <= m``).

    ``symmetric=True`` says that ``p`` is ``(0, 1, …, n)/n``, each an IEEE
    quotient: then ``|(1 − p[n − i]) − p[i]| <= 2⁻⁵² + 2⁻⁵³`` is known and not
    measured.

    The columns are processed in blocks of :data:`_CHAIN_CHUNK` (each starts
    at an anchor), so that the temporaries stay in cache.
    """
    mf = float(m)
    qs = [float(q) for q in qs]
    size = p.size
    mirror = None
    if not lattice and len(qs) == 2 and abs(qs[1] - (1.0 - qs[0])) <= 1e-15:
        # 1 − (n − i)/n has error <= 2⁻⁵³ (the quotient's) + 2⁻⁵³ (the subtraction's, < 1) and i/n <= 2⁻⁵³.
        dev = 3 * 2.0 ** -53 if symmetric else float(np.max(np.abs((1.0 - p[::-1]) - p)))
        if dev <= 1e-12:
            mirror = _CHAIN_MARGIN + mf * (dev + 2.3e-16) + 1e-15
    levels = qs[:1] if mirror is not None else qs
    zs = [float(special.ndtri(q)) for q in levels]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        if lattice:
            out = [(np.empty(size), np.empty(size), np.empty(size)) for _ in levels]
        else:
            out = [(np.empty(size, np.int64), np.empty(size, bool)) for _ in levels]
        carry = [0.0] * len(levels)  # the guesses' running maximum so far
        for start in range(0, size, _CHAIN_CHUNK):
            blk = slice(start, start + _CHAIN_CHUNK)
            pb = p[blk]
            columns = _chain_columns(mf, pb)
            # Cornish–Fisher guesses, made non-decreasing along the column.
            mean = mf * pb
            sd = np.sqrt(mean * (1 - pb))
            skew = (1 - 2 * pb) / 6
            for i, (q, z, res) in enumerate(zip(levels, zs, out)):
                guess = mean + z * sd + (z * z - 1) * skew
                if pb[0] <= 0 or pb[-1] >= 1:  # sd = 0 only at p = 0 or 1, the ends of the sorted column
                    zero = sd == 0
                    guess[zero] = mean[zero]
                g = np.clip(np.floor(guess), 0, mf)
                g[0] = max(g[0], carry[i])
                g = np.maximum.accumulate(g)
                carry[i] = g[-1]
                pmf, cdf = _chain_block(mf, pb, g, columns)
                if lattice:
                    res[0][blk], res[1][blk], res[2][blk] = g, pmf, cdf
                else:
                    margin = _CHAIN_MARGIN if mirror is None else mirror
                    res[0][blk], res[1][blk] = _chain_decide(q, mf, g, pmf, cdf, columns[0], margin)
    if lattice:
        return out
    if mirror is not None:
        k, redo = out[0]
        out = [(k, redo), (m - k[::-1], redo[::-1])]  # before any k is decided again
    for q, (k, redo) in zip(qs, out):
        if redo.any():
            k[redo] = binomial_quantile(q, mf, p[redo])
    return [k for k, _ in out]


def _chain_columns(mf, p):
    """Per-column quantities of one block, shared by every level (see :func:`_chained_quantiles`)."""
    odds = p / (1 - p)
    p0, h = p[:-1], np.diff(p)
    x, y = h / p0, h / (1 - p0)
    x1, y1 = x / (1 + x), y / (1 - y)  # the same at the far end s = 1
    logs = _log1p(x), _log1p(-y)
    powers = [(x, y, x1, y1)]
    for _ in range(2):  # to the third power; the fourth and fifth only where they matter (_chain_block)
        last = powers[-1]
        powers.append((last[0] * x, last[1] * y, last[2] * x1, last[3] * y1))
    with np.errstate(invalid="ignore"):
        steps = (float(np.max(x)) if x.size else 0.0, float(np.max(y1)) if y1.size else 0.0)
    return odds, y, y1, logs, powers, steps


#: Relative size below which the Euler–Maclaurin term in F⁽⁵⁾ is left out of a whole block: under
#: the rule's own truncation error after that term (~3e-13 at the limits above).
_CHAIN_FIFTH_TOL = 1e-13


def _bell(d1, j, r, xk, yk, fifth: bool):
    """``F‴/F`` (and ``F⁽⁵⁾/F`` when ``fifth``) for ``F = exp(ψ)`` at one end, ``d1 = ψ'`` given.

    ``ψ⁽ᵏ⁾ = (k − 1)!·((−1)^(k−1)·j·xᵏ − r·yᵏ)``.
    """
    d2 = -(j * xk[1] + r * yk[1])
    d3 = 2 * (j * xk[2] - r * yk[2])
    d1s = d1 * d1
    g3 = d3 + d1 * (3 * d2 + d1s)
    if not fifth:
        return g3, None
    d4 = -6 * (j * xk[3] + r * yk[3])
    d5 = 24 * (j * xk[4] - r * yk[4])
    g5 = d5 + 5 * d1 * d4 + 10 * d3 * (d2 + d1s) + d1 * (15 * d2 * d2 + d1s * (10 * d2 + d1s))
    return g3, g5


def _fifth_bound(d1_max, j_max, r_max, x_max, y_max):
    """An upper bound of ``|F⁽⁵⁾/F|`` over a block from bounds of ``|ψ'|``, ``j``, ``r`` and the steps.

    ``|ψ⁽ᵏ⁾| <= (k − 1)!·(j·xᵏ + r·yᵏ)`` for k >= 2, then term by term in
    ``F⁽⁵⁾/F = ψ⁽⁵⁾ + 5ψ'ψ⁗ + 10ψ‴(ψ'' + ψ'²) + ψ'(15ψ''² + ψ'²(10ψ'' + ψ'²))``.
    """
    d1 = d1_max
    d2, d3, d4, d5 = (factorial * (j_max * x_max ** k + r_max * y_max ** k)
                      for k, factorial in ((2, 1), (3, 2), (4, 6), (5, 24)))
    return d5 + 5 * d1 * d4 + 10 * d3 * (d2 + d1 * d1) + d1 * (15 * d2 * d2 + d1 * d1 * (10 * d2 + d1 * d1))


def _chain_block(mf, p, g, columns):
    """The chained ``b(g; m, p)`` and ``B(g; m, p)`` on one block (its first column is an anchor)."""
    odds, y, y1, (log_x, log_y), powers, (x_max, y_max) = columns
    size = p.size
    j, gi = g[:-1], g[1:]
    d = gi - j
    rest = mf - j
    r = rest - 1

    # Step in p at row j = g_{i−1}: pmf ratio E = exp(ψ(1))·(1 − y); CDF integral rest·y·∫_0^1 exp(ψ(s)) ds
    # by Euler–Maclaurin: (F(0) + F(1))/2 − ΔF'/12 + ΔF'''/720 − ΔF⁽⁵⁾/30240, with F(0) = 1.
    ratio_p = np.exp(j * log_x + rest * log_y)
    far = ratio_p * (1 + y1)  # F(1) = exp(ψ(1))
    x_, y_, x1, y1_ = powers[0]
    a1 = j * x_ - r * y_
    b1 = j * x1 - r * y1_
    # The F⁽⁵⁾ term matters only near the ends of a column (|ψ'| and the steps are small elsewhere):
    # it is left out of a block where its bound is below _CHAIN_FIFTH_TOL of the integral (>= 1/2 there).
    with np.errstate(invalid="ignore", over="ignore"):
        if a1.size:
            d1_max = max(float(np.max(np.abs(a1))), float(np.max(np.abs(b1))))
            j_max, r_max = float(np.max(j)), float(np.max(r))
            bound = (1.0 + float(np.max(far))) * _fifth_bound(d1_max, j_max, r_max, x_max, y_max) / 30240
        else:
            bound = d1_max = j_max = r_max = 0.0
    fifth = not bound <= 0.5 * _CHAIN_FIFTH_TOL
    if fifth:
        last = powers[-1]
        fourth = (last[0] * x_, last[1] * y_, last[2] * x1, last[3] * y1_)
        powers = powers + [fourth, (fourth[0] * x_, fourth[1] * y_, fourth[2] * x1, fourth[3] * y1_)]
    a3, a5 = _bell(a1, j, r, [w[0] for w in powers], [w[1] for w in powers], fifth)
    b3, b5 = _bell(b1, j, r, [w[2] for w in powers], [w[3] for w in powers], fifth)
    integral = 0.5 * (1 + far) - (far * b1 - a1) / 12 + (far * b3 - a3) / 720
    if fifth:
        integral -= (far * b5 - a5) / 30240
    integral *= rest * y
    # Steps in j at column i, from g_{i−1} to g_i (d = 0, 1 or 2): pmf ratio and the pmfs added.
    up1 = rest / (j + 1) * odds[1:]
    one, two = d >= 1, d >= 2
    ratio_j = np.where(two, up1 * ((rest - 1) / (j + 2) * odds[1:]), np.where(one, up1, 1.0))
    added = one + two * (gi / (mf - gi + 1) / odds[1:])  # in units of b(g_i; p_i); b(g_i − 1)/b(g_i)
    ratio = ratio_p * ratio_j
    # Where a column may be chained: a step that is short (edge), nearly flat, at most two rows, with finite
    # positive factors.  Decided for the whole block from its extremes when they allow it (p is sorted,
    # so x is largest and y₁ too at the block's ends), else column by column.
    with np.errstate(invalid="ignore"):
        smooth = (size > 1 and p[0] > 0 and p[-1] < 1 and x_max <= _CHAIN_MAX_STEP and y_max <= _CHAIN_MAX_STEP
                  and d1_max <= _CHAIN_MAX_SLOPE and j_max * x_max * x_max + r_max * y_max * y_max <= _CHAIN_MAX_CURVE
                  and float(np.max(d)) <= 2 and float(np.min(ratio)) > 0 and np.isfinite(float(np.max(ratio)))
                  and np.isfinite(float(np.min(integral))) and np.isfinite(float(np.max(integral))))
    if smooth:
        at = np.arange(0, size, _CHAIN_BLOCK)
        segment = _chain_segments(size)
        anchor = slice(None, None, _CHAIN_BLOCK)
    else:
        edge = (p[:-1] > 0) & (p[1:] < 1) & (x_ <= _CHAIN_MAX_STEP) & (y1_ <= _CHAIN_MAX_STEP)
        flat = (np.abs(a1) <= _CHAIN_MAX_SLOPE) & (np.abs(b1) <= _CHAIN_MAX_SLOPE) \
            & (j * powers[1][0] + r * powers[1][3] <= _CHAIN_MAX_CURVE)
        ok = edge & (d <= 2) & flat & np.isfinite(ratio) & (ratio > 0) & np.isfinite(integral)
        anchor = np.ones(size, dtype=bool)
        anchor[1:] = ~ok
        anchor[::_CHAIN_BLOCK] = True
        at = np.flatnonzero(anchor)
        segment = np.cumsum(anchor) - 1

    # pmf chain: a running product whose quotients carry only the rounding made since the anchor.
    steps = np.concatenate([[1.0], ratio])
    steps[anchor] = 1.0
    running = np.cumprod(steps)
    pmf = (_boost_binom_pmf(g[at], mf, p[at]) / running[at])[segment] * running
    if not (float(np.min(running)) >= 1e-290 and float(np.max(running)) <= 1e290):
        pmf[(running < 1e-290) | (running > 1e290)] = np.nan  # precision lost: decided exactly
    # CDF chain: B(g_i; p_i) = B(g_{i−1}; p_{i−1}) − b(g_{i−1}; p_{i−1})·integral + b(g_i; p_i)·added.
    steps = np.concatenate([[0.0], pmf[1:] * added - pmf[:-1] * integral])
    steps[anchor] = 0.0
    running = np.cumsum(steps)
    cdf = (binomial_cdf(g[at], mf, p[at]) - running[at])[segment] + running
    return pmf, cdf


_SEGMENTS: dict[int, np.ndarray] = {}


def _chain_segments(size: int) -> np.ndarray:
    """``i // _CHAIN_BLOCK`` for i < size: each column's anchor when anchors are only the block starts."""
    seg = _SEGMENTS.get(size)
    if seg is None:
        seg = _SEGMENTS[size] = np.arange(size) // _CHAIN_BLOCK
        seg.flags.writeable = False
    return seg


def _chain_decide(q, mf, g, pmf, cdf, odds, margin):
    """The quantile read off the chain next to ``g``, and the columns to decide again exactly.

    The quantile is ``g`` when ``B(g − 1) < level <= B(g)``, ``g + 1`` when ``B(g) < level <= B(g + 1)``;
    a column is kept only when the chained CDFs bracket the level by at least ``margin`` on both
    sides (so the chain's own error cannot change the answer); NaN, ``g = m`` with ``B(g) <`` level, or a
    level below the margin fail the bracket and go to the exact walk.
    """
    target = q - QUANTILE_TOL
    up = cdf >= target
    below = cdf - pmf  # B(g − 1)
    above = cdf + pmf * (mf - g) / (g + 1) * odds  # B(g + 1)
    ok = (np.where(up, below, cdf) < target - margin) & (np.where(up, cdf, above) >= target + margin)
    return g + ~up, ~ok


def _sorted_distinct(flat: np.ndarray):
    """Distinct values increasing and the index of each input among them."""
    steps = np.diff(flat)
    if (steps <= 0).all():  # a ROC column: rates fall as the threshold rises
        rev = flat[::-1]
        new = np.concatenate([[True], rev[1:] != rev[:-1]])
        return rev[new], (np.cumsum(new) - 1)[::-1]
    if (steps >= 0).all():
        new = np.concatenate([[True], flat[1:] != flat[:-1]])
        return flat[new], np.cumsum(new) - 1
    return np.unique(flat, return_inverse=True)


def _binomial_quantiles(qs, m, p) -> list[np.ndarray]:
    """``[binomial_quantile(q, m, p) for q in qs]``, by the CDF chain where it pays."""
    p = np.asarray(p, dtype=float)
    flat = p.ravel()
    if np.ndim(m) == 0 and flat.size >= _CHAIN_MIN_SIZE and float(m) == int(m) and m > 0 \
            and np.isfinite(flat).all() and (flat >= 0).all() and (flat <= 1).all() \
            and all(0 < q < 1 for q in qs):
        distinct, index = _sorted_distinct(flat)
        if distinct.size >= _CHAIN_MIN_SIZE:
            return [k[index].reshape(p.shape) for k in _chained_quantiles(qs, int(m), distinct)]
    return [binomial_quantile(q, m, p).reshape(p.shape) for q in qs]


def _distinct_counts(k: np.ndarray, n: int):
    """Distinct values of integer counts ``k`` in 0..n, increasing, and each count's index among them.

    O(n) by a presence table (no sort): continuous scores give every count
    0..n along a ROC column, and then the index is ``k`` itself.  When ``n``
    is far above the number of counts (a table of a few distinct scores
    standing for billions of instances) the counts are sorted instead.
    """
    if n + 1 > 4 * k.size:
        return _sorted_distinct(k)
    present = np.zeros(n + 1, dtype=bool)
    present[k] = True
    if present.all():
        return np.arange(n + 1), k
    distinct = np.flatnonzero(present)
    position = np.cumsum(present) - 1
    return distinct, position[k]


def _percentile(p, m, alpha, counts=None):
    qs = (alpha / 2, 1 - alpha / 2)
    if counts is not None and np.ndim(m) == 0 and float(m) == int(m) and m > 0:
        k, n = counts
        k = np.asarray(k)
        if k.size >= _CHAIN_MIN_SIZE and k.ndim == 1 and n > 0:
            distinct, index = _distinct_counts(k, int(n))
            if distinct.size >= _CHAIN_MIN_SIZE:
                # the same proportions as k/n, computed the same way (one IEEE division each)
                dense = distinct.size == n + 1  # every count 0..n: p = (0, 1, …, n)/n
                low, high = _chained_quantiles(qs, int(m), distinct / n, symmetric=dense)
                return (low / m).take(index), (high / m).take(index)  # divide the distinct values, then gather
    low, high = _binomial_quantiles(qs, m, p)
    return low / m, high / m


def proportion_interval(p, m, alpha: float, method: str, *, add: float = 2.0, counts=None):
    """Two-sided interval at level ``1 − alpha`` for a proportion.

    Parameters
    ----------
    p : array_like
        Observed proportions in [0, 1].
    m : int
        Bootstrap sample size (number of trials).
    alpha : float
        Two-sided error rate of this one interval.
    method : {"wilson", "wald", "agresti-coull", "percentile"}
        ``wilson``: score interval ``[p + z²/2m ± z·sqrt(p(1−p)/m + z²/4m²)]/(1 + z²/m)``
        (the thesis's eq. 4.2 squares ``z²/2m`` under the root: a misprint).
        ``wald``: ``p ± z·sqrt(p(1 − p)/m)``, clipped to [0, 1].
        ``agresti-coull``: ``add`` pseudo-counts in each of the two cells,
        ``p̃ = (m·p + add)/(m + 2·add)``, then Wald with ``m + 2·add``; clipped.
        ``percentile``: the ``alpha/2`` and ``1 − alpha/2`` quantiles of the
        exact bootstrap law ``Bin(m, p)/m``.

    counts : (k, n), optional
        Integer counts with ``p = k / n`` (a ROC column): the percentile
        interval then finds the distinct proportions without sorting.
        The result is the same.

    Returns
    -------
    low, high : ndarray
    """
    p = np.asarray(p, dtype=float)
    if method == "percentile":
        return _percentile(p, m, alpha, counts)
    z = _z(alpha)
    if method == "wilson":
        return _wilson(p, m, z)
    if method == "wald":
        return _wald(p, m, z)
    return _agresti_coull(p, m, z, add)


# ---------------------------------------------------------------------------------------------------------
# The interval steps of the one-model results, shared by their functions and their confidence_interval()
# ---------------------------------------------------------------------------------------------------------

#: Interval methods of :func:`rocci.vertical_ci`.
VERTICAL_METHODS = ("percentile", "score", "wald")

#: Largest ``(n+ + 1)·(m+ + 1)`` for which the percentile intervals come from one table of binomial
#: CDFs (:func:`rocci._core.exact.mixture_quantiles_by_table`) rather than a quantile search per level.
TABLE_CELLS = 1_100_000


def normal_interval(center: float, std: float, level: float, lower: float, upper: float) -> tuple[float, float]:
    """``center ∓ z·std`` clipped to ``[lower, upper]``, ``z = Φ⁻¹((1 + level)/2)``: the intervals of the AUC
    results (:func:`rocci.roc_auc`, :func:`rocci.compare_auc`, :func:`rocci.compare_auc_unpaired`)."""
    z = float(special.ndtri(0.5 + level / 2))
    return float(max(lower, center - z * std)), float(min(upper, center + z * std))


def threshold_region(tpr, fpr, tp, fp, n_pos: int, n_neg: int, m_pos: int, m_neg: int, level: float, method: str,
                     region: str) -> dict:
    """The exact bootstrap standard deviations and the region of :func:`rocci.threshold_ci` at ``level``:
    ``fpr_std, tpr_std, fpr_low, fpr_high, tpr_low, tpr_high, fpr_radius, tpr_radius`` (the radii None but
    for the ellipse) and ``axis_confidence_level``, from the observed rates and counts (the binomial laws'
    parameters)."""
    tpr_std = np.sqrt(tpr * (1 - tpr) / m_pos)
    fpr_std = np.sqrt(fpr * (1 - fpr) / m_neg)
    a = axis_alpha(level, region)
    fpr_radius = tpr_radius = None
    if region == "ellipse":
        radius = float(np.sqrt(stats.chi2.ppf(level, 2)))
        fpr_radius, tpr_radius = radius * fpr_std, radius * tpr_std
        fpr_low, fpr_high = np.clip(fpr - fpr_radius, 0, 1), np.clip(fpr + fpr_radius, 0, 1)
        tpr_low, tpr_high = np.clip(tpr - tpr_radius, 0, 1), np.clip(tpr + tpr_radius, 0, 1)
    else:
        tpr_low, tpr_high = proportion_interval(tpr, m_pos, a, method, counts=(tp, n_pos))
        fpr_low, fpr_high = proportion_interval(fpr, m_neg, a, method, counts=(fp, n_neg))
    return dict(fpr_std=fpr_std, tpr_std=tpr_std, fpr_low=fpr_low, fpr_high=fpr_high, tpr_low=tpr_low,
                tpr_high=tpr_high, fpr_radius=fpr_radius, tpr_radius=tpr_radius, axis_confidence_level=1.0 - a)


def mixture_moments(cw: np.ndarray, cv: np.ndarray, offsets: np.ndarray, n_pos: int, m_pos: int) -> dict:
    """Exact mean and variance of ``TPR*`` at each level of :func:`rocci.vertical_ci` (eqs. 4.13–4.14), from
    each level's mixture: weights ``cw`` of the runs of equal ``p = cv/n+`` (``cv`` integers), levels
    delimited by ``offsets``.  Returns ``p, level_of, total, mean, d, pq, var, sd``."""
    h = offsets.size - 1
    cp = cv / n_pos
    level_of = np.repeat(np.arange(h), np.diff(offsets))
    total = np.add.reduceat(cw, offsets[:-1])
    mean = np.add.reduceat(cw * cp, offsets[:-1]) / total
    d = cp - mean[level_of]
    pq = cp * (1 - cp)
    var = np.add.reduceat(cw * (d * d + pq / m_pos), offsets[:-1]) / total
    return dict(p=cp, level_of=level_of, total=total, mean=mean, d=d, pq=pq, var=var,
                sd=np.sqrt(np.maximum(var, 0.0)))


def vertical_bounds(method: str, level: float, cw, cv, offsets, n_pos: int, m_pos: int,
                    moments: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(tpr_low, tpr_high)`` of :func:`rocci.vertical_ci` by ``method`` at ``level``, from each level's
    mixture (see :func:`mixture_moments`, whose result ``moments`` saves recomputing it)."""
    mom = mixture_moments(cw, cv, offsets, n_pos, m_pos) if moments is None else moments
    cp, level_of, total, mean, d, pq, var, sd = (mom[k] for k in ("p", "level_of", "total", "mean", "d", "pq",
                                                                   "var", "sd"))
    h = offsets.size - 1
    alpha = 1.0 - level
    z = float(special.ndtri(1 - alpha / 2))
    if method == "percentile" and (n_pos + 1) * (m_pos + 1) <= TABLE_CELLS:
        # Every level's quantiles from one table of B(l; m+, v/n+) for the v = n+·p in use (cv).
        # (first evaluated at a Cornish–Fisher guess from the exact mean, sd and skewness of m+·TPR*:
        # κ3 = Σ w_j[(μ_j − μ)³ + 3(μ_j − μ)σ_j² + m p_j(1 − p_j)(1 − 2p_j)], μ_j = m p_j,
        # σ_j² = m p_j(1 − p_j) = s2)
        dm = m_pos * d
        s2 = m_pos * pq
        k3 = np.add.reduceat(cw * (dm * (dm * dm + 3.0 * s2) + s2 * (1 - 2 * cp)), offsets[:-1]) / total
        sd_count = m_pos * sd
        with np.errstate(divide="ignore", invalid="ignore"):
            skew = np.where(sd_count > 0, k3 / sd_count**3, 0.0)
        zq = np.array([[-z], [z]])
        guess = np.ceil(m_pos * mean[None, :] + sd_count[None, :] * (zq + (zq**2 - 1) * skew[None, :] / 6) - 0.5)
        ql = mixture_quantiles_by_table([alpha / 2, 1 - alpha / 2], cw, cv.astype(np.int64, copy=False), level_of,
                                        h, n_pos, m_pos, guess=guess, offsets=offsets)
        return ql[0] / m_pos, ql[1] / m_pos
    if method == "percentile":
        low, high = np.empty(h), np.empty(h)
        for i in range(h):
            a, b = int(offsets[i]), int(offsets[i + 1])
            lw, lp = cw[a:b], cp[a:b]
            mi, si = float(mean[i]), float(sd[i])
            skew = mixture_skewness(lw, lp, m_pos, mi, si)
            low[i] = mixture_quantile(alpha / 2, lw, lp, m_pos, mi, si, skew=skew) / m_pos
            high[i] = mixture_quantile(1 - alpha / 2, lw, lp, m_pos, mi, si, skew=skew) / m_pos
        return low, high
    if method == "score":
        zm = z * z / m_pos
        half = z * np.sqrt(var + (z / (2 * m_pos)) ** 2)
        return np.clip((mean + zm / 2 - half) / (1 + zm), 0, 1), np.clip((mean + zm / 2 + half) / (1 + zm), 0, 1)
    return np.clip(mean - z * sd, 0, 1), np.clip(mean + z * sd, 0, 1)

