"""compare_auc: DeLong's test for two correlated ROC curves (DeLong, DeLong & Clarke-Pearson 1988)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._core.compat import renamed_attribute
from .._core.results import ConfidenceInterval, _FrameResult, column
from .._core.inputs import InputError, check_choice, check_confidence_level
from .._core.intervals import normal_interval
from .._core.sorting import argsort_scores
from .._core.counts import PairedCounts
from ._common import COMPARE_AUC_METHODS, _check_paired, _paired_classes

@dataclass(repr=False)
class AucComparison(_FrameResult):
    """Difference of the AUCs of two models scored on the same instances.

    Attributes
    ----------
    auc_a, auc_b : float
        Mann–Whitney AUCs (ties 1/2).
    delta_auc : float
        ``auc_a − auc_b`` (pROC's ``roc.test(roc1, roc2)`` reports
        ``roc1 − roc2`` the same way: pass roc1's scores as ``score_a``).
    delta_auc_std : float
        Standard error of ``delta_auc`` (DeLong et al. 1988, paired).
    delta_auc_low, delta_auc_high : float
        ``delta_auc ∓ z·delta_auc_std`` (clipped to [−1, 1]).
    statistic : float
        ``z = delta_auc/delta_auc_std``.

    Before rocci 0.3 ``delta_auc``, ``delta_auc_std``, ``delta_auc_low``, ``delta_auc_high`` were ``delta``,
    ``std``, ``low``, ``high`` (the old names still read them, with a DeprecationWarning).
    pvalue : float
        Two-sided, ``2·Φ(−|z|)``.
    correlation : float
        DeLong estimate of the correlation of the two AUCs.
    method : str
    confidence_level : float
    n_pos, n_neg : int
    """

    auc_a: float = column()
    auc_b: float = column()
    delta_auc: float = column()
    delta_auc_std: float = column()
    delta_auc_low: float = column()
    delta_auc_high: float = column()
    statistic: float = column()
    pvalue: float = column()
    correlation: float
    method: str = column()
    confidence_level: float = column()
    n_pos: int
    n_neg: int

    _scalar_fields = ("delta_auc", "delta_auc_std", "delta_auc_low", "delta_auc_high", "statistic", "pvalue")
    delta = renamed_attribute("AucComparison", "delta", "delta_auc")
    std = renamed_attribute("AucComparison", "std", "delta_auc_std")
    low = renamed_attribute("AucComparison", "low", "delta_auc_low")
    high = renamed_attribute("AucComparison", "high", "delta_auc_high")

    @property
    def ci(self) -> ConfidenceInterval:
        return ConfidenceInterval(self.delta_auc_low, self.delta_auc_high)

    def confidence_interval(self, confidence_level=0.95, method=None) -> "AucComparison":
        """The same comparison with the interval at another level: ``delta ∓ z·std`` clipped to [−1, 1].

        DeLong's standard error does not depend on the level, so nothing is recomputed from the data (equal
        to :func:`rocci.compare_auc` called with this ``confidence_level``); the test (``statistic``,
        ``pvalue``) does not change.  ``method`` can only be the result's own.
        """
        level, _ = self._interval_args(confidence_level, method, (self.method,))
        low, high = normal_interval(self.delta_auc, self.delta_auc_std, level, -1.0, 1.0)
        return dataclasses.replace(self, delta_auc_low=low, delta_auc_high=high, confidence_level=level)

    def __repr__(self) -> str:
        return (
            f"AucComparison(auc_a={self.auc_a:.6g}, auc_b={self.auc_b:.6g}, delta_auc={self.delta_auc:.6g}, "
            f"delta_auc_std={self.delta_auc_std:.6g}, "
            f"{self.confidence_level:.0%} CI [{self.delta_auc_low:.6g}, {self.delta_auc_high:.6g}], "
            f"z={self.statistic:.4g}, pvalue={self.pvalue:.4g}, method={self.method!r})"
        )


def _sorted_placements(scores, mask, n_pos: int, n_neg: int):
    """DeLong placement values of each positive and each negative, in the order of the model's scores.

    One sort of all ``n`` scores (:func:`rocci._core.sorting.argsort_scores`): in each run of tied scores, the negatives
    below the run and in it give each positive's
    ``V10 = (2·#{neg < x} + #{neg = x})/(2n−)``, and the positives above and in
    it each negative's ``V01 = (2·#{pos > y} + #{pos = y})/(2n+)`` (the same
    integers and divisions as :func:`rocci.roc.curve._placements`).  The AUC is
    ``(#{pairs ordered} + ½·#{tied pairs})/(n+·n−)`` from integer counts.

    Returns ``(ids_pos, v10, ids_neg, v01, auc)``: the instances (indices
    into ``scores``) of the positives and negatives in increasing score, and
    their placements in that order.  Without ties the r-th positive in that
    order has ``position − r`` negatives below it and the s-th negative
    ``position − s`` positives below it, so nothing is scattered.
    """
    n = scores.size
    order, tied = argsort_scores(scores, ties=True)  # tied: sorted positions equal to the next one
    is_pos = mask.take(order)
    at_pos = np.flatnonzero(is_pos)
    at_neg = np.flatnonzero(np.logical_not(is_pos, out=is_pos))
    if not tied.size:  # no ties
        below_neg = at_pos - np.arange(n_pos)  # negatives below the r-th positive
        n_greater = int(below_neg.sum(dtype=np.int64))
        above_pos = np.arange(n_pos, n_pos + n_neg, dtype=np.int64)  # n+ + s
        above_pos -= at_neg  # n+ − (position − s): positives above the s-th negative
        return (order.take(at_pos), below_neg / float(n_neg), order.take(at_neg), above_pos / float(n_pos),
                n_greater / (n_pos * n_neg))
    np.logical_not(is_pos, out=is_pos)
    first = np.ones(n, dtype=bool)  # starts of runs of tied scores
    first[tied + 1] = False
    idx = np.arange(n)
    start = np.maximum.accumulate(np.where(first, idx, 0))
    last = np.empty(n, dtype=bool)
    last[-1] = True
    last[:-1] = first[1:]
    stop = np.minimum.accumulate(np.where(last, idx + 1, n)[::-1])[::-1]  # one past each run
    pos_before = np.concatenate([[0], np.cumsum(is_pos)])  # positives among the first i sorted scores
    below_pos = pos_before[start]
    tied_pos = pos_before[stop] - below_pos
    below_neg, tied_neg = start - below_pos, (stop - start) - tied_pos
    v10 = (2 * below_neg[at_pos] + tied_neg[at_pos]) / (2.0 * n_neg)
    v01 = (2 * (n_pos - below_pos[at_neg]) - tied_pos[at_neg]) / (2.0 * n_pos)
    n_greater = int(below_neg[at_pos].sum(dtype=np.int64))
    n_ties = int(tied_neg[at_pos].sum(dtype=np.int64))
    return order.take(at_pos), v10, order.take(at_neg), v01, (n_greater + 0.5 * n_ties) / (n_pos * n_neg)


def _enough(n_pos: int, n_neg: int) -> None:
    if n_pos < 2 or n_neg < 2:
        raise InputError(
            f"DeLong's test needs at least 2 positives and 2 negatives (got {n_pos} and {n_neg})."
        )


def _table_placements(data, which: int):
    """DeLong placements of one model for each row of a table of distinct pairs, and its AUC.

    The placement of an instance depends only on its own score: per distinct
    score ``v`` of the model, ``V10(v) = (2·#{neg < v} + #{neg = v})/(2n−)`` and
    ``V01(v) = (2·#{pos > v} + #{pos = v})/(2n+)`` from the model's cumulative
    counts; each row of the table takes its score's values (its count is its weight).
    """
    counts = data.model(which)
    values, npos, nneg, below_pos, below_neg = counts._table
    n_pos, n_neg = data.n_pos, data.n_neg
    v10_at = (2 * below_neg[:-1] + nneg) / (2.0 * n_neg)
    v01_at = (2 * n_pos - 2 * below_pos[:-1] - npos) / (2.0 * n_pos)
    pairs = (float(np.dot(npos.astype(np.float64), below_neg[:-1].astype(np.float64)))
             + 0.5 * float(np.dot(npos.astype(np.float64), nneg.astype(np.float64))))
    pos_scores, neg_scores = data.pos[which], data.neg[which]
    return (v10_at[np.searchsorted(values, pos_scores)], v01_at[np.searchsorted(values, neg_scores)],
            pairs / (float(n_pos) * float(n_neg)))


def _moments(x, y, w=None) -> tuple[float, float, float, float]:
    """``(s²(x), s²(y), s(x, y), s²(x − y))`` of paired placements (ddof = 1), each entry counting ``w`` instances when given.

    Centred sums by BLAS dot products: ``Σw(x−x̄)²``, ``Σw(y−ȳ)²``, ``Σw(x−x̄)(y−ȳ)``
    and ``Σw((x−x̄) − (y−ȳ))²`` over ``Σw − 1``.  The variance of the difference
    comes from the differences themselves (no cancellation when the two models
    are close).
    """
    if w is None:
        total = float(x.size)
        cx, cy = x - x.mean(), y - y.mean()
        wx, wy = cx, cy
    else:
        wf = w.astype(np.float64)
        total = float(wf.sum())
        cx, cy = x - np.dot(wf, x) / total, y - np.dot(wf, y) / total
        wx, wy = wf * cx, wf * cy
    sxx, syy, sxy = float(np.dot(wx, cx)), float(np.dot(wy, cy)), float(np.dot(wx, cy))
    cx -= cy  # the centred differences
    sdd = float(np.dot(cx, cx)) if w is None else float(np.dot(wf, cx * cx))
    return sxx / (total - 1.0), syy / (total - 1.0), sxy / (total - 1.0), sdd / (total - 1.0)


def _aligned_placements(placed_a, placed_b, n: int):
    """``(v10_a, v10_b, v01_a, v01_b)``: two models' placements of the same instances, both in model a's order.

    ``placed_a``, ``placed_b`` are :func:`_sorted_placements` of the two models' scores of the same ``n``
    instances; model b's placements are scattered to the instances and gathered in model a's order (one
    scatter and one gather a class).
    """
    pos_a, v10a, neg_a, v01a, _ = placed_a
    pos_b, v10b, neg_b, v01b, _ = placed_b
    by_instance = np.empty(n)
    by_instance[pos_b] = v10b
    v10b = by_instance.take(pos_a)
    by_instance[neg_b] = v01b
    v01b = by_instance.take(neg_a)
    return v10a, v10b, v01a, v01b


def _pair_variances(v10a, v10b, v01a, v01b, n_pos: int, n_neg: int, w10=None, w01=None):
    """DeLong's ``(Var AUC_a, Var AUC_b, Cov(AUC_a, AUC_b), Var(AUC_a − AUC_b))`` from aligned placements.

    ``Var(AUC_a − AUC_b) = s²(V10_a − V10_b)/n+ + s²(V01_a − V01_b)/n−`` (sample variances, ddof = 1,
    from the differences themselves: :func:`_moments`), and likewise each AUC's variance and the covariance.
    """
    va10, vb10, cab10, vd10 = _moments(v10a, v10b, w10)
    va01, vb01, cab01, vd01 = _moments(v01a, v01b, w01)
    return (va10 / n_pos + va01 / n_neg, vb10 / n_pos + vb01 / n_neg, cab10 / n_pos + cab01 / n_neg,
            vd10 / n_pos + vd01 / n_neg)


def _difference_variance(v10a, v10b, v01a, v01b, n_pos: int, n_neg: int) -> float:
    """``Var(AUC_a − AUC_b)`` of :func:`_pair_variances` alone (unweighted placements), by the same steps as
    :func:`_moments` takes for it (so the same bits), one dot product a class instead of four."""
    out = 0.0
    for x, y, n in ((v10a, v10b, n_pos), (v01a, v01b, n_neg)):
        cx = x - x.mean()
        cx -= y - y.mean()
        out += float(np.dot(cx, cx)) / (float(x.size) - 1.0) / n
    return out


def compare_auc(y_true, score_a=None, score_b=None, *, pos_label=None, confidence_level=0.95, method="delong") -> AucComparison:
    """DeLong's test for the difference of two correlated AUCs.

    DeLong, DeLong & Clarke-Pearson (1988).  With each model's placement
    values ``V10_i = (#{neg < x_i} + ½#{neg = x_i})/n−`` (positives) and
    ``V01_j = (#{pos > y_j} + ½#{pos = y_j})/n+`` (negatives), the AUC is
    their mean and

    ``Var(AUC_a − AUC_b) = s²(V10_a − V10_b)/n+ + s²(V01_a − V01_b)/n−``

    (sample variances, ddof = 1; this equals
    ``[S10_aa + S10_bb − 2·S10_ab]/n+ + [S01_aa + S01_bb − 2·S01_ab]/n−`` in
    DeLong's notation).  O(n log n): one sort per model.

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`compare_thresholds`.
    confidence_level : float, default 0.95
    method : {"delong"}

    Returns
    -------
    AucComparison
        ``delta = auc_a − auc_b``, ``std``, ``low``, ``high``
        (``delta ∓ z·std``), ``statistic = delta/std`` and the two-sided
        ``pvalue``.

    Notes
    -----
    Sign convention: ``delta`` is a − b, the same as pROC's
    ``roc.test(roc1, roc2)`` (``roc1 − roc2``).  On pROC's aSAH data,
    ``compare_auc(outcome, s100b, wfns, pos_label="Poor")`` gives
    ``z = −2.209``, ``p = 0.0272``, 95% CI ``[−0.1742, −0.0104]``, as
    ``roc.test(roc(outcome, s100b), roc(outcome, wfns))``.  No direction
    flipping (pROC flips a curve whose AUC is below 0.5 unless told not to).
    Raises :class:`InputError` when the variance is 0 (e.g. identical
    scores), where the statistic is undefined.
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, COMPARE_AUC_METHODS)
    if isinstance(y_true, PairedCounts):  # a table of distinct pairs: weighted, never expanded
        data = _paired_classes(y_true, score_a, score_b, pos_label)
        n_pos, n_neg = data.n_pos, data.n_neg
        _enough(n_pos, n_neg)
        (v10a, v01a, auc_a), (v10b, v01b, auc_b) = _table_placements(data, 0), _table_placements(data, 1)
        w10, w01 = data.pos[2], data.neg[2]
    else:
        mask, a, b, _ = _check_paired(y_true, score_a, score_b, pos_label)
        n_pos, n_neg = int(mask.sum()), int((~mask).sum())
        _enough(n_pos, n_neg)
        placed_a = _sorted_placements(a, mask, n_pos, n_neg)
        placed_b = _sorted_placements(b, mask, n_pos, n_neg)
        auc_a, auc_b = placed_a[4], placed_b[4]
        v10a, v10b, v01a, v01b = _aligned_placements(placed_a, placed_b, a.size)
        del placed_a, placed_b
        w10 = w01 = None
    var_a, var_b, cov_ab, var = _pair_variances(v10a, v10b, v01a, v01b, n_pos, n_neg, w10, w01)
    delta = auc_a - auc_b
    if not var > 0:
        raise InputError(
            "The DeLong variance of the AUC difference is 0 (for example, the two models rank "
            "every instance the same way, or both have constant scores): the test is undefined. "
            f"The AUCs are {auc_a:.6g} (model a) and {auc_b:.6g} (model b)."
        )
    std = float(np.sqrt(var))
    z = delta / std
    low, high = normal_interval(delta, std, level, -1.0, 1.0)
    corr = cov_ab / np.sqrt(var_a * var_b) if var_a > 0 and var_b > 0 else float("nan")
    return AucComparison(
        auc_a=float(auc_a),
        auc_b=float(auc_b),
        delta_auc=float(delta),
        delta_auc_std=std,
        delta_auc_low=low,
        delta_auc_high=high,
        statistic=float(z),
        pvalue=float(2.0 * special.ndtr(-abs(z))),
        correlation=float(corr),
        method=method,
        confidence_level=level,
        n_pos=n_pos,
        n_neg=n_neg,
    )


