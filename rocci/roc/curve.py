"""The empirical ROC curve and the AUC with its standard error."""

from __future__ import annotations

import numpy as np

from .._core.results import AucResult, RocCurve
from .._core.inputs import InputError, check_choice, check_confidence_level, check_m
from .._core.intervals import normal_interval
from .._core.counts import _auc_from_counts, binary_counts
from .._core.counts import ScoreCounts

__all__ = ["roc_curve", "roc_auc", "AUC_METHODS"]

AUC_METHODS = ("delong", "hanley-mcneil", "exact-bootstrap")


def _curve(counts: ScoreCounts):
    return counts.threshold_counts()


def roc_curve(y_true, y_score=None, *, pos_label=None) -> RocCurve:
    """Empirical ROC curve.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Two label values; 0/1, -1/1 and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Real scores, higher meaning more positive.  An instance is predicted
        positive at threshold ``t`` when ``score >= t``.
    pos_label : object, optional
        The positive label.

    Returns
    -------
    RocCurve
        One point per distinct score, thresholds decreasing with ``+inf``
        first, ``tpr = tp/n+`` and ``fpr = fp/n−`` from counts.  No direction
        flipping: a worse-than-random score gets an AUC below 0.5.

    Examples
    --------
    >>> import rocci
    >>> curve = rocci.roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> curve.tpr.tolist(), curve.fpr.tolist(), curve.auc
    ([0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5, 1.0], 0.75)
    """
    counts, pos_label = binary_counts(y_true, y_score, pos_label)
    thresholds, tp, fp = _curve(counts)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    return RocCurve(
        thresholds=thresholds,
        fpr=fp / n_neg,
        tpr=tp / n_pos,
        tp=tp,
        fp=fp,
        n_pos=n_pos,
        n_neg=n_neg,
        auc=_auc_from_counts(tp, fp, n_pos, n_neg),
        pos_label=pos_label,
    )


def _placements(counts: ScoreCounts):
    """DeLong's placement values, O(n log n) by binary search.

    ``V10_i = (#{neg < x_i} + ½·#{neg = x_i}) / n−`` for each positive ``x_i``;
    ``V01_j = (#{pos > y_j} + ½·#{pos = y_j}) / n+`` for each negative ``y_j``.
    Also returns the number of strictly ordered pairs and of tied pairs.
    """
    pos, neg = counts.pos, counts.neg
    less = np.searchsorted(neg, pos, side="left")
    leq = np.searchsorted(neg, pos, side="right")
    v10 = (less + leq) / (2.0 * neg.size)
    below = np.searchsorted(pos, neg, side="left")
    upto = np.searchsorted(pos, neg, side="right")
    v01 = (2 * pos.size - below - upto) / (2.0 * pos.size)
    n_greater = int(less.sum(dtype=np.int64))
    n_ties = int((leq - less).sum(dtype=np.int64))
    return v10, v01, n_greater, n_ties


def _placement_moments(counts: ScoreCounts):
    """``(n_greater, n_ties, var10, var01)``: the pair counts and the population variances of DeLong's
    placements (:func:`_placements`), from each instance or, for a table of counts, from the distinct
    scores weighted by their counts (the same values up to the order of the floating-point sums)."""
    if counts._table is None:
        v10, v01, n_greater, n_ties = _placements(counts)
        return n_greater, n_ties, v10, v01
    values, npos, nneg, below_pos, below_neg = counts._table
    n_pos, n_neg = int(below_pos[-1]), int(below_neg[-1])
    v10 = (2 * below_neg[:-1] + nneg) / (2.0 * n_neg)  # each positive at values[i]
    v01 = (2 * n_pos - 2 * below_pos[:-1] - npos) / (2.0 * n_pos)  # each negative at values[i]
    n_greater = int(np.dot(npos, below_neg[:-1]))
    n_ties = int(np.dot(npos, nneg))
    return n_greater, n_ties, _Weighted(v10, npos), _Weighted(v01, nneg)


class _Weighted:
    """Values with integer weights, with the ``var(ddof)`` of the expanded array."""

    def __init__(self, x, w):
        self.x, self.w = x, w

    def var(self, ddof: int = 0) -> float:
        total = float(self.w.sum())
        mean = float(np.dot(self.w, self.x)) / total
        return float(np.dot(self.w, (self.x - mean) ** 2)) / (total - ddof)


def roc_auc(y_true, y_score=None, *, pos_label=None, confidence_level=0.95, method="delong", m=None) -> AucResult:
    """AUC with a standard error and a confidence interval.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`roc_curve`.
    confidence_level : float, default 0.95
    method : {"delong", "hanley-mcneil", "exact-bootstrap"}
        ``"delong"``: ``Var = s²(V10)/n+ + s²(V01)/n−`` with the placement
        values' sample variances (DeLong, DeLong & Clarke-Pearson 1988),
        computed in O(n log n).
        ``"hanley-mcneil"``: ``Var = [A(1−A) + (n+−1)(Q1−A²) + (n−−1)(Q2−A²)]/(n+n−)``,
        ``Q1 = A/(2−A)``, ``Q2 = 2A²/(1+A)`` (Hanley & McNeil 1982).
        ``"exact-bootstrap"``: the variance of the AUC over all stratified
        bootstrap samples, in closed form,
        ``Var = [(m−−1)·ξ10 + (m+−1)·ξ01 + ξ11]/(m+·m−)`` with ``ξ10``, ``ξ01``
        the population (1/n) variances of the placement values and ``ξ11`` the
        variance of the pair kernel ``ψ`` (1, ½ or 0) over all ``n+·n−`` pairs.
    m : None, int or (int, int)
        Bootstrap sample sizes for ``"exact-bootstrap"`` (default ``m± = n±``).

    Returns
    -------
    AucResult
        ``low, high = auc ∓ z·std`` clipped to [0, 1] (as pROC does).

    Notes
    -----
    DeLong needs at least two instances of each class.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, AUC_METHODS)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    n_greater, n_ties, v10, v01 = _placement_moments(counts)
    auc = (n_greater + 0.5 * n_ties) / (n_pos * n_neg)
    if method == "delong":
        if n_pos < 2 or n_neg < 2:
            raise InputError(
                f"DeLong's variance needs at least 2 positives and 2 negatives "
                f"(got {n_pos} and {n_neg}). Use method='exact-bootstrap' or more data."
            )
        var = v10.var(ddof=1) / n_pos + v01.var(ddof=1) / n_neg
    elif method == "hanley-mcneil":
        q1, q2 = auc / (2 - auc), 2 * auc * auc / (1 + auc)
        var = (auc * (1 - auc) + (n_pos - 1) * (q1 - auc**2) + (n_neg - 1) * (q2 - auc**2)) / (n_pos * n_neg)
    else:
        xi10, xi01 = v10.var(), v01.var()
        xi11 = (n_greater + 0.25 * n_ties) / (n_pos * n_neg) - auc**2
        var = ((m_neg - 1) * xi10 + (m_pos - 1) * xi01 + xi11) / (m_pos * m_neg)
    std = float(np.sqrt(max(var, 0.0)))
    low, high = normal_interval(auc, std, level, 0.0, 1.0)
    return AucResult(
        auc=float(auc),
        auc_std=std,
        auc_low=low,
        auc_high=high,
        method=method,
        confidence_level=level,
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
    )
