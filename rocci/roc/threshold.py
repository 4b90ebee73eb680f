"""Threshold averaging, one model: exact bootstrap regions for ROC points at fixed thresholds."""

from __future__ import annotations

import numpy as np

from .._core.results import ThresholdCI
from .._core.inputs import InputError, _as_float_array, check_choice, check_confidence_level, check_m
from .._core.counts import binary_counts
from .._core.counts import ScoreCounts
from .._core.intervals import PROPORTION_METHODS, REGIONS, threshold_region

__all__ = ["threshold_ci", "thresholds_for_total_positive_rate"]


def thresholds_for_total_positive_rate(counts: ScoreCounts, rates) -> np.ndarray:
    """Threshold giving each total positive rate ``q``.

    The ``⌈q·n⌉``-th largest score, so that at least a fraction ``q`` of all
    instances has ``score >= t`` (exactly ``q`` when ``q·n`` is a whole number
    and the scores there are not tied); ``q = 0`` gives ``+inf``.
    """
    rates = _as_float_array("total_positive_rate", rates)
    if ((rates < 0) | (rates > 1)).any():
        raise InputError(f"total_positive_rate values must lie in [0, 1]; got {rates.tolist()!r}.")
    n = counts.n_pos + counts.n_neg
    rank = np.ceil(np.round(rates * n, 9)).astype(np.int64)  # round guards 0.3*10 = 3.0000000000000004
    out = np.full(rates.shape, np.inf)
    has = rank > 0
    out[has] = counts.score_at_rank(rank[has])
    return out


def threshold_ci(
    y_true,
    y_score=None,
    *,
    thresholds=None,
    total_positive_rate=None,
    pos_label=None,
    confidence_level=0.95,
    method="wilson",
    region="rectangle",
    m=None,
) -> ThresholdCI:
    """Exact bootstrap confidence regions for ROC points at fixed thresholds.

    Threshold averaging (Gadoury 2009, §4.3.1, Algorithm 4.1).  At a threshold
    ``t`` fixed across bootstrap samples, a stratified bootstrap sample's counts
    are independent binomials,

    ``m+·TPR*_t ~ Bin(m+, n_t+/n+)``,  ``m−·FPR*_t ~ Bin(m−, n_t−/n−)``,

    so the exact bootstrap law is known in closed form, in O(n log n + h) for
    ``h`` thresholds.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    thresholds : array_like, optional
        Thresholds (any reals; ``score >= t`` is positive).  Default: every
        distinct score, with ``+inf`` first.
    total_positive_rate : array_like, optional
        Instead of thresholds, the fractions ``q`` of all instances to call
        positive; each becomes the ``⌈q·n⌉``-th largest score.
    confidence_level : float, default 0.95
        Level of the joint region (rectangle, ellipse) or of each interval
        (marginal).
    method : {"wilson", "wald", "agresti-coull", "percentile"}
        Interval for each rate (see :func:`rocci._core.intervals.proportion_interval`);
        ``"percentile"`` takes the quantiles of the exact binomial law.
    region : {"rectangle", "ellipse", "marginal"}
        ``"rectangle"``: each axis at level ``sqrt(1 − α)``, i.e. error rate
        ``α_2D = 1 − sqrt(1 − α)``, so that the two independent axes cover
        jointly at ``1 − α``.  ``"ellipse"``: the normal-theory region
        ``((FPR − f)/σ_f)² + ((TPR − t)/σ_t)² <= χ²₂(1 − α)`` with the exact
        bootstrap standard deviations; ``method`` does not enter it.
        ``"marginal"``: each axis at level ``1 − α``.
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``; default ``m± = n±``.

    Returns
    -------
    ThresholdCI
        ``to_frame()`` has columns ``threshold, total_positive_rate, fpr, tpr,
        fpr_std, tpr_std, fpr_low, fpr_high, tpr_low, tpr_high`` (+ counts);
        ``distribution(i, axis)`` gives the exact binomial law.

    Notes
    -----
    Wilson and percentile intervals stay in [0, 1] by construction; Wald and
    Agresti–Coull are clipped to [0, 1].  At ``p = 0`` or ``1`` Wald and the
    ellipse degenerate to a point; prefer Wilson there.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.threshold_ci([0, 0, 0, 1, 1, 1], [.1, .3, .6, .4, .7, .9], thresholds=[0.5])
    >>> float(res.tpr[0]), float(res.fpr[0])
    (0.6666666666666666, 0.3333333333333333)
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PROPORTION_METHODS)
    check_choice("region", region, REGIONS)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)

    if thresholds is not None and total_positive_rate is not None:
        raise InputError("Give either thresholds or total_positive_rate, not both.")
    if thresholds is None and total_positive_rate is None:
        t, tp, fp = counts.threshold_counts()  # every distinct score: one merge, no binary searches
    else:
        if total_positive_rate is not None:
            t = thresholds_for_total_positive_rate(counts, total_positive_rate)
        else:
            t = _as_float_array("thresholds", thresholds)
        tp = counts.n_pos_ge(t).astype(np.int64)
        fp = counts.n_neg_ge(t).astype(np.int64)
    tpr, fpr = tp / n_pos, fp / n_neg
    bounds = threshold_region(tpr, fpr, tp, fp, n_pos, n_neg, m_pos, m_neg, level, method, region)

    return ThresholdCI(
        thresholds=t,
        total_positive_rate=(tp + fp) / (n_pos + n_neg),
        fpr=fpr,
        tpr=tpr,
        tp=tp,
        fp=fp,
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
        method=method,
        region=region,
        confidence_level=level,
        **bounds,
    )
