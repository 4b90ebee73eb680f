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

from .._core.counts import ScoreCounts
from ..plots import compact_indices
from ..roc.curve import roc_curve
from ..roc.threshold import threshold_ci

__all__ = ["Worlds", "draw_worlds", "worlds_in_bands", "WORLD_POINTS"]

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
    ``y`` may be a :class:`~rocci.ScoreCounts` (``s`` None): each world is then a
    table drawn by :func:`_table_resamples`, never expanded to instances.
    """
    curves, fprs, tprs = [], [], []
    for i, (labels, draw) in enumerate(_resamples(y, s, k, seed)):
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




def _table_resamples(counts: ScoreCounts, k: int, seed: int):
    """The ``k`` seeded stratified resamples of a table of counts, each as a table: ``(ScoreCounts, None)``.

    Drawing ``n+`` positives with replacement from a class with ``c_i`` positives at distinct score ``v_i``
    gives ``(C*_i) ~ Multinomial(n+; c_i / n+)``, and likewise for the negatives, independently: the same
    law as drawing the instances one by one, in O(distinct scores) time and memory per world (the
    random stream differs from the one of the rows, so a seed gives other worlds than on the rows)."""
    values, n_pos, n_neg = counts.table()
    rng = np.random.default_rng(int(seed))
    p_pos, p_neg = n_pos / n_pos.sum(), n_neg / n_neg.sum()
    for _ in range(int(k)):
        pos = rng.multinomial(int(n_pos.sum()), p_pos)
        neg = rng.multinomial(int(n_neg.sum()), p_neg)
        yield ScoreCounts.from_counts(values, pos, neg, pos_label=counts.pos_label), None


def _resamples(y, s, k: int, seed: int):
    """The ``k`` seeded stratified resamples of :func:`draw_worlds`: ``(labels, scores)`` each
    (from a :class:`~rocci.ScoreCounts`, ``(ScoreCounts, None)``: :func:`_table_resamples`)."""
    if isinstance(y, ScoreCounts):
        yield from _table_resamples(y, k, seed)
        return
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    pos, neg = s[y], s[~y]
    rng = np.random.default_rng(int(seed))
    labels = np.concatenate([np.ones(pos.size, bool), np.zeros(neg.size, bool)])
    for _ in range(int(k)):
        yield labels, np.concatenate([rng.choice(pos, size=pos.size, replace=True),
                                      rng.choice(neg, size=neg.size, replace=True)])


def worlds_in_bands(y: np.ndarray, s: np.ndarray, k: int, seed: int, *, thresholds=None, tp_range=None,
                    fp_range=None, levels=None, tpr_range=None) -> dict:
    """Which of :func:`draw_worlds`'s ``k`` worlds stay inside a simultaneous and a pointwise band.

    * Threshold boxes (``thresholds`` with ``tp_range = (tp_min, tp_max)`` and
      ``fp_range``, counts out of ``n+``, ``n−``: a simultaneous band's
      bootstrap event, :attr:`rocci.RocBand.tp_min` …): a world is inside
      when, at every threshold, its counts ``TP*``, ``FP*`` (scores ``>=``
      the threshold) lie in the ranges.
    * FPR levels (``levels`` = r/n−, with ``tpr_range = (low, high)``, e.g.
      :func:`rocci.vertical_ci`'s percentile intervals): a world is inside
      when, at every level, its TPR at the r-th largest negative score it
      drew lies in the interval.

    The same seed draws the same worlds as :func:`draw_worlds`.

    Returns
    -------
    dict
        ``"boxes"`` and/or ``"levels"`` -> ndarray of bool, shape (k,).
    """
    out = {}
    if thresholds is not None:
        out["boxes"] = np.empty(int(k), dtype=bool)
        t_asc = -np.sort(-np.asarray(thresholds, float))[::-1]  # increasing, for searchsorted
        order = np.argsort(-np.asarray(thresholds, float), kind="stable")[::-1]
        tp_lo, tp_hi = (np.asarray(v)[order] for v in tp_range)
        fp_lo, fp_hi = (np.asarray(v)[order] for v in fp_range)
    if levels is not None:
        out["levels"] = np.empty(int(k), dtype=bool)
        low, high = (np.asarray(v, float) for v in tpr_range)
    for i, (labels, draw) in enumerate(_resamples(y, s, k, seed)):
        if isinstance(labels, ScoreCounts):  # a world of a table: its counts, never expanded
            world = labels
        else:
            world = ScoreCounts(np.sort(draw[labels]), np.sort(draw[~labels]))
        n_pos, n_neg = world.n_pos, world.n_neg
        if thresholds is not None:
            tp, fp = world.n_pos_ge(t_asc), world.n_neg_ge(t_asc)
            out["boxes"][i] = bool(np.all((tp >= tp_lo) & (tp <= tp_hi) & (fp >= fp_lo) & (fp <= fp_hi)))
        if levels is not None:
            r = np.clip(np.ceil(np.round(np.asarray(levels) * n_neg, 9)).astype(np.int64), 1, n_neg)
            t_r = world.neg_at_rank(r)  # the r-th largest negative score drawn
            tpr = world.n_pos_ge(t_r) / n_pos
            out["levels"][i] = bool(np.all((tpr >= low - 1e-12) & (tpr <= high + 1e-12)))
    return out
