"""Baseline simultaneous bands to compare with the exact-bootstrap band.

Each function takes one data set's scores, ``pos`` and ``neg``, and returns
:class:`Boxes`: the band as boxes in ROC space, judged by the one rule of
:mod:`rocci.bands.region` (the region between the staircases the boxes
define).

* :func:`campbell_ks_band` — Campbell (1994): Kolmogorov–Smirnov bands on
  each class's survival function, combined into rectangles at every
  threshold.  Distribution-free and conservative for continuous scores.
* :func:`working_hotelling_band` — the binormal fit with a Working–Hotelling
  (Scheffé) band on its probit line (Ma & Hall 1993; Macskassy & Provost
  2004): simultaneous asymptotically, if the binormal model holds.
* The Bonferroni/Šidák and Monte Carlo bootstrap bands are
  :func:`rocci.bands.roc_band` with ``method="sidak"``, ``"bonferroni"`` or
  ``"monte-carlo"`` (:func:`band_boxes` turns a :class:`RocBand` into boxes).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special, stats

from .._core.inputs import check_confidence_level

__all__ = ["Boxes", "campbell_ks_band", "working_hotelling_band", "band_boxes", "pointwise_band"]


class Boxes(NamedTuple):
    """A band as boxes ``[fpr_low, fpr_high] × [tpr_low, tpr_high]`` (arrays of one length)."""

    fpr_low: np.ndarray
    fpr_high: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray


def band_boxes(band) -> Boxes:
    """The boxes of a :class:`rocci.bands.RocBand`."""
    return Boxes(band.fpr_low, band.fpr_high, band.tpr_low, band.tpr_high)


def _rates(pos, neg):
    pos, neg = np.sort(np.asarray(pos, float)), np.sort(np.asarray(neg, float))
    t = np.concatenate([[np.inf], np.unique(np.concatenate([pos, neg]))[::-1]])
    tpr = (pos.size - np.searchsorted(pos, t, side="left")) / pos.size
    fpr = (neg.size - np.searchsorted(neg, t, side="left")) / neg.size
    return tpr, fpr


def campbell_ks_band(pos, neg, *, confidence_level=0.95) -> Boxes:
    """Campbell's Kolmogorov–Smirnov band.

    With ``d± = K⁻¹_{n±}(sqrt(1 − α))`` the exact two-sided one-sample
    Kolmogorov–Smirnov quantile (``scipy.stats.kstwo``), each class's
    empirical survival function is within ``d±`` of the true one at every
    threshold with probability ``sqrt(1 − α)`` (continuous scores), jointly
    ``1 − α`` (independent classes).  At every threshold ``t`` the box is
    ``[FPR̂(t) ± d−] × [TPR̂(t) ± d+]`` clipped to [0, 1]; the true curve is then
    inside the region with probability at least ``1 − α``.
    """
    level = check_confidence_level(confidence_level)
    tpr, fpr = _rates(pos, neg)
    d_pos = float(stats.kstwo.ppf(np.sqrt(level), np.size(pos)))
    d_neg = float(stats.kstwo.ppf(np.sqrt(level), np.size(neg)))
    return Boxes(np.clip(fpr - d_neg, 0, 1), np.clip(fpr + d_neg, 0, 1),
                 np.clip(tpr - d_pos, 0, 1), np.clip(tpr + d_pos, 0, 1))


#: FPR grid of the Working–Hotelling band: 401 points evenly spaced in probit units over ±5.
WH_GRID = special.ndtr(np.linspace(-5, 5, 401))


def working_hotelling_band(pos, neg, *, confidence_level=0.95, fpr=None) -> Boxes:
    """Working–Hotelling band on the binormal fit.

    Fit: normal scores in each class, ``μ̂±``, ``σ̂±`` (maximum likelihood), so
    that ``Φ⁻¹(TPR) = a + b·Φ⁻¹(FPR)`` with ``a = (μ+ − μ−)/σ+``,
    ``b = σ−/σ+``.  Delta method (``Var μ̂± = σ±²/n±``, ``Var σ̂± = σ±²/2n±``):

    ``Var â = 1/n+ + b²/n− + a²/2n+``,  ``Var b̂ = b²/2n+ + b²/2n−``,
    ``Cov(â, b̂) = a·b/2n+``.

    At ``z = Φ⁻¹(x)`` the line has variance ``V(z) = Var â + 2z·Cov + z²·Var b̂``
    and the band is ``Φ(â + b̂z ± W·sqrt(V(z)))`` with ``W² = χ²₂(1 − α)``
    (Scheffé: simultaneous over every ``z`` for the two-parameter line).
    Returned as vertical intervals at ``fpr`` (default :data:`WH_GRID`).
    """
    level = check_confidence_level(confidence_level)
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    n_pos, n_neg = pos.size, neg.size
    mp, sp = pos.mean(), pos.std()
    mn, sn = neg.mean(), neg.std()
    a, b = (mp - mn) / sp, sn / sp
    var_a = 1 / n_pos + b * b / n_neg + a * a / (2 * n_pos)
    var_b = b * b / (2 * n_pos) + b * b / (2 * n_neg)
    cov = a * b / (2 * n_pos)
    x = WH_GRID if fpr is None else np.asarray(fpr, float)
    z = special.ndtri(x)
    half = np.sqrt(stats.chi2.ppf(level, 2)) * np.sqrt(var_a + 2 * z * cov + z * z * var_b)
    line = a + b * z
    return Boxes(x.copy(), x.copy(), special.ndtr(line - half), special.ndtr(line + half))


def pointwise_band(pos, neg, *, confidence_level=0.95) -> Boxes:
    """No adjustment: the Wilson rectangle of :func:`rocci.threshold_ci` at every threshold.

    Each axis at level ``sqrt(1 − α)`` (the rectangle's per-axis level); each
    box holds its point at ``1 − α``, not the whole curve.  Shown to measure
    how far pointwise regions fall short of simultaneous coverage.
    """
    level = check_confidence_level(confidence_level)
    tpr, fpr = _rates(pos, neg)
    z = float(special.ndtri(0.5 + np.sqrt(level) / 2))
    from .._core.intervals import _wilson

    tl, th = _wilson(tpr, np.size(pos), z)
    fl, fh = _wilson(fpr, np.size(neg), z)
    return Boxes(fl, fh, tl, th)
