"""Confidence intervals for a proportion, and the 2-D regions built from them.

Each method is a small private kernel with explicit boundary behaviour; all
are vectorised.  ``p`` is the observed proportion (the exact bootstrap law of
the resampled count is ``Bin(m, p)``) and ``m`` the bootstrap sample size.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .exact import QUANTILE_TOL, _boost_binom_pmf, binomial_cdf, binomial_quantile

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
#: Largest ``|log-slope| + |log-curvature|`` of the integrand over one column
#: gap for the 4-point Lobatto rule (relative error below ~1e-12 there).
_CHAIN_MAX_BEND = 0.1
#: A chained CDF this close to the level is decided again by the exact walk;
#: the chain's own error is below ~1e-11 (tests/test_quantiles.py measures it).
_CHAIN_MARGIN = 1e-9
#: Below this many distinct proportions the exact walk is as fast.
_CHAIN_MIN_SIZE = 512
# 4-point Gauss–Lobatto rule on [0, 1] (exact for quintics); u = 0 and u = 1
# are the two columns themselves.
_LOBATTO_U = ((1 - 5**-0.5) / 2, (1 + 5**-0.5) / 2, 1.0)
_LOBATTO_W = (5 / 12, 5 / 12, 1 / 12)


def _log1p(v: np.ndarray) -> np.ndarray:
    """``log(1 + v)`` to a few ulps for ``|v| > 2^-52`` (Goldberg's trick; cheaper than ``np.log1p``).

    NaN where ``1 + v`` rounds to 1, which the chain treats as a step to anchor.
    """
    u = 1.0 + v
    return np.log(u) * (v / (u - 1.0))


def _chained_quantiles(qs, m: int, p: np.ndarray, *, lattice: bool = False) -> list:
    """``binomial_quantile(q, m, p)`` for each ``q`` in ``qs``; ``p`` sorted, distinct, in [0, 1].

    The same answer as :func:`rocci.exact.binomial_quantile` (smallest ``k``
    with ``B(k; m, p) >= q − QUANTILE_TOL``), for a few exponentials per
    proportion instead of several incomplete beta functions.

    Along the sorted column the Cornish–Fisher guess ``g`` is non-decreasing,
    and the pmf ``b(g; m, p)`` and the CDF ``B(g; m, p)`` move from one column
    to the next by

    * a step in ``p`` at a fixed row ``j``: the pmf by the ratio
      ``(t/p)^j ((1 − t)/(1 − p))^(m − j)``, the CDF by
      ``−∫_p^t m·b(j; m − 1, u) du`` (the beta-density identity of
      :mod:`rocci.exact`), by the 4-point Lobatto rule on a gap narrow against
      the density's spread;
    * steps in ``j`` at a fixed ``p``: the pmf by ``b(j + 1)/b(j) = (m − j)/(j + 1) · p/(1 − p)``,
      the CDF by ``+ b(j; m, p)`` each.

    Both are accumulated from exact values (boost's pmf and incomplete beta)
    every :data:`_CHAIN_BLOCK` columns and wherever a step is too wide or too
    long, so the chained CDF is within ~1e-11 of the exact one.  The quantile
    is read off the lattice next to ``g``; every column whose CDF lands within
    :data:`_CHAIN_MARGIN` of the level, or whose quantile is not next to
    ``g``, is decided again by the exact walk.  The result is therefore the
    exact walk's (tested on dense grids against it and ``scipy.stats.binom.ppf``).
    """
    mf = float(m)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        sd = np.sqrt(mf * p * (1 - p))
        odds = p / (1 - p)
        p0, h = p[:-1], np.diff(p)
        x, y = h / p0, h / (1 - p0)
        # Shared by every level: per node, log(t/p0), log((1 − t)/(1 − p0)) and 1/(1 − t).
        nodes = [(_log1p(u * x), _log1p(-u * y), 1.0 / (1 - p0 - u * h)) for u in _LOBATTO_U]
        base = 1.0 / (1 - p0)
        edge = (p0 > 0) & (p[1:] < 1)
        x2, y2 = x * x, y * y
        skew = (1 - 2 * p) / 6
        shared = (sd, odds, h, x, y, x2, y2, skew, nodes, base, edge)
        if lattice:
            return [_chain_lattice(float(q), mf, p, *shared) for q in qs]
        return [_chain_one(float(q), mf, p, *shared) for q in qs]


def _chain_one(q, mf, p, *shared):
    g, pmf, cdf = _chain_lattice(q, mf, p, *shared)
    target = q - QUANTILE_TOL
    # The quantile is g (B(g) >= level > B(g − 1)) or g + 1 (B(g) < level <= B(g + 1)).
    odds = shared[1]
    below = cdf - pmf  # B(g − 1)
    above = cdf + pmf * (mf - g) / (g + 1) * odds  # B(g + 1)
    at_g = (cdf >= target) & ((g == 0) | (below < target))
    at_next = (cdf < target) & (g < mf) & (above >= target)
    k = np.where(at_g, g, g + 1)
    near = np.abs(cdf - target) < _CHAIN_MARGIN
    near |= at_g & (g > 0) & (np.abs(below - target) < _CHAIN_MARGIN)
    near |= at_next & (np.abs(above - target) < _CHAIN_MARGIN)
    redo = ~(at_g | at_next) | near | ~np.isfinite(cdf) | ~np.isfinite(pmf)
    if redo.any():
        k[redo] = binomial_quantile(q, mf, p[redo])
    return k.astype(np.int64)


def _chain_lattice(q, mf, p, sd, odds, h, x, y, x2, y2, skew, nodes, base, edge):
    """Cornish–Fisher rows ``g`` and the chained ``b(g; m, p)``, ``B(g; m, p)`` (see :func:`_chained_quantiles`)."""
    size = p.size
    z = float(special.ndtri(q))
    guess = mf * p + z * sd + (z * z - 1) * skew
    guess[sd == 0] = mf * p[sd == 0]
    g = np.maximum.accumulate(np.clip(np.floor(guess), 0, mf))
    j, gi = g[:-1], g[1:]
    d = gi - j
    rest = mf - j

    # Step in p at row j = g_{i−1}: pmf ratio E(u) at the nodes, CDF integral Σ w·E(u)·(m − j)/(1 − t).
    integral = base.copy() * (1 / 12)
    ratio_p = None
    for (log_up, log_down, inv_1mt), w in zip(nodes, _LOBATTO_W):
        e = np.exp(j * log_up + rest * log_down)
        integral += w * e * inv_1mt
        ratio_p = e
    integral *= rest * h
    # Steps in j at column i, from g_{i−1} to g_i (d = 0, 1 or 2): pmf ratio and the pmfs added.
    up1 = rest / (j + 1) * odds[1:]
    one, two = d >= 1, d >= 2
    ratio_j = np.where(two, up1 * ((rest - 1) / (j + 2) * odds[1:]), np.where(one, up1, 1.0))
    added = one + two * (gi / (mf - gi + 1) / odds[1:])  # in units of b(g_i; p_i); b(g_i − 1)/b(g_i)
    # |log-slope| + |log-curvature| of b(j; m − 1, t) over the gap, in units of the gap.
    bend = np.abs(j * x - (rest - 1) * y) + (j * x2 + (rest - 1) * y2)
    ratio = ratio_p * ratio_j
    ok = edge & (d <= 2) & (bend <= _CHAIN_MAX_BEND) & np.isfinite(ratio) & (ratio > 0) & np.isfinite(integral)
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
    pmf[(running < 1e-290) | (running > 1e290)] = np.nan  # precision lost: decided exactly
    # CDF chain: B(g_i; p_i) = B(g_{i−1}; p_{i−1}) − b(g_{i−1}; p_{i−1})·integral + b(g_i; p_i)·added.
    steps = np.concatenate([[0.0], pmf[1:] * added - pmf[:-1] * integral])
    steps[anchor] = 0.0
    running = np.cumsum(steps)
    cdf = (binomial_cdf(g[at], mf, p[at]) - running[at])[segment] + running
    return g, pmf, cdf


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


def _percentile(p, m, alpha):
    low, high = _binomial_quantiles((alpha / 2, 1 - alpha / 2), m, p)
    return low / m, high / m


def proportion_interval(p, m, alpha: float, method: str, *, add: float = 2.0):
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

    Returns
    -------
    low, high : ndarray
    """
    p = np.asarray(p, dtype=float)
    if method == "percentile":
        return _percentile(p, m, alpha)
    z = _z(alpha)
    if method == "wilson":
        return _wilson(p, m, z)
    if method == "wald":
        return _wald(p, m, z)
    return _agresti_coull(p, m, z, add)
