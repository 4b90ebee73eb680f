"""The threshold explorer's tables at every threshold: the indicators (Tanagra's table) and the reading curve.

One row per distinct score ``t`` (tied scores share a row), taken as the threshold ``score >= t``; the counts
``TP`` and ``FP`` at each come from :meth:`rocci.ScoreCounts.threshold_counts` (a table of counts is never
expanded).  The gain chart is :func:`rocci.gain_curve` and the precision–recall curve :func:`rocci.pr_curve`
(``rocci.precision``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.compat import renamed_attribute
from .._core.counts import ScoreCounts, binary_counts
from .._core.frames import _FrameLike, column, column_fields

__all__ = ["threshold_table", "ThresholdTable", "reading_curve", "ReadingCurve"]

def _table_counts(counts: ScoreCounts):
    """Distinct scores ``t_1 > t_2 > …`` (decreasing), the instances at each, and ``TP``, ``FP`` at each as threshold.

    ``TP_i = #{positives with score >= t_i}`` and ``FP_i`` likewise, from
    :meth:`rocci.ScoreCounts.threshold_counts` (a table's cumulative counts, or
    one merge of the sorted classes); the instances scoring exactly ``t_i`` are
    ``(TP_i + FP_i) − (TP_{i−1} + FP_{i−1})`` (``TP_0 = FP_0 = 0`` at ``+inf``).
    O(distinct scores) for a table, O(n) for sorted classes.
    """
    thresholds, tp, fp = counts.threshold_counts()
    at = np.diff(tp + fp)
    return thresholds[1:], at.astype(np.int64), tp[1:].astype(np.int64), fp[1:].astype(np.int64)


@dataclass(repr=False)
class ThresholdTable(_FrameLike):
    """Indicators at every threshold, by decreasing score (the Tanagra tutorial's table).

    Attributes
    ----------
    thresholds : ndarray of shape (h,)
        The distinct scores, decreasing (column ``threshold``).
    n_at_threshold, tp, fn, fp, tn, n_predicted_positive : ndarray of int64
        Instances scoring exactly the threshold, the confusion matrix, and ``TP + FP``.
    total_positive_rate, recall, precision, fpr, specificity, accuracy, error_rate, f1, lift : ndarray
        As in :func:`threshold_table`; ``total_positive_rate`` is the total positive rate ``(TP + FP)/n``.
    n_pos, n_neg : int
    """

    thresholds: np.ndarray = column("threshold")
    n_at_threshold: np.ndarray = column()
    tp: np.ndarray = column()
    fn: np.ndarray = column()
    fp: np.ndarray = column()
    tn: np.ndarray = column()
    n_predicted_positive: np.ndarray = column()
    total_positive_rate: np.ndarray = column()
    recall: np.ndarray = column()
    precision: np.ndarray = column()
    fpr: np.ndarray = column()
    specificity: np.ndarray = column()
    accuracy: np.ndarray = column()
    error_rate: np.ndarray = column()
    f1: np.ndarray = column()
    lift: np.ndarray = column()
    n_pos: int
    n_neg: int

    _returned_by = "rocci.threshold_table"
    target_size = renamed_attribute("ThresholdTable", "target_size", "n_predicted_positive")
    target_rate = renamed_attribute("ThresholdTable", "target_rate", "total_positive_rate")


#: The columns of :class:`ThresholdTable`, in order (each also an attribute, ``threshold`` as ``thresholds``).
TABLE_COLUMNS = tuple(name for _, name in column_fields(ThresholdTable))


def threshold_table(y_true, y_score=None, *, pos_label=None) -> ThresholdTable:
    """Indicators at every threshold, by decreasing score (the Tanagra tutorial's table).

    One row per distinct score ``t`` (tied scores share one row, so a row can
    add several instances to the target), taken as the threshold ``score >=
    t``:

    * ``tp, fn, fp, tn`` — Tanagra's ``a, b, c, d``;
    * ``n_predicted_positive = TP + FP`` (#cible) and ``total_positive_rate = (TP + FP)/n``
      (TRC, the total positive rate);
    * ``recall = TP/n+``, ``precision = TP/(TP + FP)``, ``fpr = FP/n−``,
      ``specificity = TN/n−``;
    * ``accuracy = (TP + TN)/n``, ``error_rate = (FP + FN)/n``,
      ``f1 = 2·TP/(2·TP + FP + FN)``;
    * ``lift = precision / (n+/n) = recall / total_positive_rate``.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`; or a :class:`rocci.ScoreCounts` as ``y_true`` alone.

    Returns
    -------
    ThresholdTable
        ``to_frame()``: columns ``threshold, n_at_threshold, tp, fn, fp, tn,
        n_predicted_positive, total_positive_rate, recall, precision, fpr, specificity,
        accuracy, error_rate, f1, lift``; ``n_at_threshold`` is the number of
        instances scoring exactly ``t``.  O(n log n).  Until rocci 0.3 the
        function returned this frame itself.

    Examples
    --------
    >>> import rocci
    >>> table = rocci.threshold_table([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]).to_frame()
    >>> table[["threshold", "n_at_threshold", "tp", "fp"]].values.tolist()
    [[0.9, 1.0, 1.0, 0.0], [0.8, 2.0, 2.0, 1.0], [0.1, 1.0, 2.0, 2.0]]
    """
    counts, _ = binary_counts(y_true, y_score, pos_label)
    t, at, tp, fp = _table_counts(counts)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    n = n_pos + n_neg
    fn, tn = n_pos - tp, n_neg - fp
    target = tp + fp  # >= 1 on every row: each row's score is held by some instance
    recall = tp / n_pos
    return ThresholdTable(
        thresholds=t, n_at_threshold=at, tp=tp, fn=fn, fp=fp, tn=tn, n_predicted_positive=target, total_positive_rate=target / n,
        recall=recall, precision=tp / target, fpr=fp / n_neg, specificity=tn / n_neg, accuracy=(tp + tn) / n,
        error_rate=(fp + fn) / n, f1=2 * tp / (2 * tp + fp + fn), lift=recall / (target / n), n_pos=n_pos,
        n_neg=n_neg,
    )


@dataclass(repr=False)
class ReadingCurve(_FrameLike):
    """Reading rate and substitution rate at every threshold (mlstatpy's "taux de lecture").

    Attributes
    ----------
    thresholds : ndarray of shape (h,)
        The distinct scores, decreasing (column ``threshold``; ``+inf``, where nothing is read, left out).
    total_positive_rate, substitution_rate : ndarray
        ``(TP + FP)/n`` (the reading rate) and ``FP/(TP + FP)``.
    n_predicted_positive, errors : ndarray of int64
        ``TP + FP`` and ``FP``.
    n_pos, n_neg : int
    """

    thresholds: np.ndarray = column("threshold")
    total_positive_rate: np.ndarray = column()
    substitution_rate: np.ndarray = column()
    n_predicted_positive: np.ndarray = column()
    errors: np.ndarray = column()
    n_pos: int
    n_neg: int

    _returned_by = "rocci.reading_curve"
    reading_rate = renamed_attribute("ReadingCurve", "reading_rate", "total_positive_rate")
    accepted = renamed_attribute("ReadingCurve", "accepted", "n_predicted_positive")


def reading_curve(y_true, y_score=None, *, pos_label=None) -> ReadingCurve:
    """Reading rate and substitution rate at every threshold (mlstatpy's "taux de lecture").

    In this setting the classifier gives an answer with a confidence score,
    and the label says whether the answer is right (the positive class) or
    wrong.  Answers scoring ``>= s`` are accepted ("read"):

    * reading rate ``R'(s) = (1/n)·Σ 1{X_i >= s} = (TP + FP)/n``;
    * substitution rate ``E'(s) = Σ (1 − θ_i)·1{X_i >= s} / (n·R'(s)) =
      FP/(TP + FP)``, the error rate among the accepted answers
      (``1 − precision``).

    ``R'`` decreases with ``s`` but ``E'`` does not move monotonically:
    lowering the threshold past a right answer lowers ``E'``, past a wrong
    one raises it, so one substitution rate can have several reading rates.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`; or a :class:`rocci.ScoreCounts` as ``y_true`` alone.

    Returns
    -------
    ReadingCurve
        ``to_frame()``: columns ``threshold, total_positive_rate, substitution_rate,
        n_predicted_positive, errors`` (the reading rate is the total positive rate;
        ``n_predicted_positive = TP + FP``, ``errors = FP``; ``reading_rate`` and
        ``accepted`` before rocci 0.3),
        thresholds decreasing (``+inf``, where nothing is read, is left out).
        Until rocci 0.3 the function returned this frame itself.
    """
    counts, _ = binary_counts(y_true, y_score, pos_label)
    t, _, tp, fp = _table_counts(counts)
    predicted = tp + fp
    n = counts.n_pos + counts.n_neg
    return ReadingCurve(thresholds=t, total_positive_rate=predicted / n, substitution_rate=fp / predicted,
                        n_predicted_positive=predicted, errors=fp, n_pos=counts.n_pos, n_neg=counts.n_neg)
