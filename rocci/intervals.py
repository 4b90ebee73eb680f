"""Confidence intervals for a proportion, and the 2-D regions built from them.

Each method is a small private kernel with explicit boundary behaviour; all
are vectorised.  ``p`` is the observed proportion (the exact bootstrap law of
the resampled count is ``Bin(m, p)``) and ``m`` the bootstrap sample size.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .exact import binomial_quantile

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


def _percentile(p, m, alpha):
    low = binomial_quantile(alpha / 2, m, p) / m
    high = binomial_quantile(1 - alpha / 2, m, p) / m
    return low.reshape(np.shape(p)), high.reshape(np.shape(p))


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
