"""Random bootstrap "worlds" for teaching: what the exact bootstrap is the limit of.

The Learn page draws K ordinary, seeded stratified bootstrap resamples of a
dataset and shows their ROC curves over the exact bootstrap band, and the
K-world mean and standard deviation of the rates at a threshold beside the
exact ones.  This is the only Monte Carlo that rocci offers to users; the
statistics of every other page are exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .plots import compact_indices
from .roc import roc_curve
from .threshold import threshold_ci

__all__ = ["Worlds", "draw_worlds", "WORLD_POINTS"]

#: Vertices kept per resampled ROC curve (the drawing stays light for large data).
WORLD_POINTS = 600


@dataclass(frozen=True)
class Worlds:
    """K seeded stratified bootstrap resamples ("worlds") of one dataset.

    Attributes
    ----------
    k, seed : int
    curves : list of (fpr, tpr)
        Each world's ROC curve (rocci.roc_curve on the resample), vertices
        thinned by :func:`rocci.plots.compact_indices` for drawing.
    threshold : float
        The threshold held fixed across the worlds.
    fpr, tpr : ndarray of shape (k,)
        Each world's rates at ``threshold`` (rocci.threshold_ci on the resample).
    tpr_mean, tpr_sd, fpr_mean, fpr_sd : float
        Sample mean and standard deviation (ddof = 1) of those K values.
    """

    k: int
    seed: int
    curves: list
    threshold: float
    fpr: np.ndarray
    tpr: np.ndarray
    tpr_mean: float
    tpr_sd: float
    fpr_mean: float
    fpr_sd: float


def draw_worlds(y: np.ndarray, s: np.ndarray, k: int, seed: int, threshold: float,
                max_points: int = WORLD_POINTS, progress=None) -> Worlds:
    """Draw ``k`` stratified bootstrap resamples with ``numpy.random.default_rng(seed)``.

    Each world draws ``n+`` positives and ``n−`` negatives with replacement (the
    stratified bootstrap that :func:`rocci.threshold_ci` and
    :func:`rocci.vertical_ci` work out exactly, with ``m± = n±``).
    ``progress(fraction, message)``, if given, is called after each world.
    """
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    pos, neg = s[y], s[~y]
    rng = np.random.default_rng(int(seed))
    labels = np.concatenate([np.ones(pos.size, bool), np.zeros(neg.size, bool)])
    curves, fprs, tprs = [], [], []
    for i in range(int(k)):
        draw = np.concatenate([rng.choice(pos, size=pos.size, replace=True),
                               rng.choice(neg, size=neg.size, replace=True)])
        curve = roc_curve(labels, draw)
        idx = compact_indices(curve.fpr, curve.tpr, max_points=max_points)
        curves.append((np.asarray(curve.fpr)[idx], np.asarray(curve.tpr)[idx]))
        at = threshold_ci(labels, draw, thresholds=[float(threshold)])
        fprs.append(float(at.fpr[0]))
        tprs.append(float(at.tpr[0]))
        if progress is not None:
            progress((i + 1) / int(k), f"World {i + 1} of {int(k)}")
    fpr = np.asarray(fprs)
    tpr = np.asarray(tprs)
    ddof = 1 if k > 1 else 0
    return Worlds(k=int(k), seed=int(seed), curves=curves, threshold=float(threshold), fpr=fpr, tpr=tpr,
                  tpr_mean=float(tpr.mean()), tpr_sd=float(tpr.std(ddof=ddof)),
                  fpr_mean=float(fpr.mean()), fpr_sd=float(fpr.std(ddof=ddof)))


