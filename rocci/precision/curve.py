"""The precision–recall curve drawn correctly: Davis and Goadrich's interpolation between ROC points.

Between two consecutive points of the ROC curve the precision is **not** linear in the recall, so the
straight segment that joins two PR points is not achievable by any classifier.  Davis and Goadrich
(2006, §4) interpolate in the counts instead: a classifier that mixes the two thresholds at random
moves along the ROC segment, where the false positives grow in proportion to the true positives.

:func:`pr_curve` is rocci's one precision–recall curve: ``interpolate=False`` gives the ROC points alone
(what ``rocci.precision_recall_curve``, deprecated, returned).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.compat import warn_deprecated
from .._core.counts import binary_counts
from .._core.frames import _FrameLike, column

__all__ = ["pr_curve", "PrecisionRecallCurve", "precision_recall_curve"]


@dataclass(repr=False)
class PrecisionRecallCurve(_FrameLike):
    """Precision against recall at every threshold, with Davis and Goadrich's interpolated points between.

    Attributes
    ----------
    thresholds : ndarray of shape (h,)
        The ROC point's threshold (``score >= threshold`` is predicted positive); NaN on interpolated rows.
    recall, precision : ndarray of shape (h,)
        ``tp/n+`` and ``tp/(tp + fp)``.
    tp, fp : ndarray of shape (h,)
        The counts: float64, ``fp`` fractional on interpolated rows; int64 with ``interpolate=False``.
    interpolated : ndarray of bool
        True for the points between two ROC points.
    threshold_above, threshold_below : ndarray of shape (h,)
        The thresholds of the ROC points ``A`` and ``B`` of the segment each row lies on (both the row's
        own threshold on a ROC row; ``+inf`` above the first segment).
    n_pos, n_neg : int
    baseline : float
        ``n+/n``, the precision of scores that carry no information (the PR plot's horizontal baseline).
    """

    thresholds: np.ndarray = column("threshold")
    recall: np.ndarray = column()
    precision: np.ndarray = column()
    tp: np.ndarray = column()
    fp: np.ndarray = column()
    interpolated: np.ndarray = column()
    threshold_above: np.ndarray = column()
    threshold_below: np.ndarray = column()
    n_pos: int
    n_neg: int

    _scalar_fields = (..., "baseline")
    _returned_by = "rocci.pr_curve"

    @property
    def baseline(self) -> float:
        return self.n_pos / (self.n_pos + self.n_neg)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``threshold, recall, precision, tp, fp, interpolated, threshold_above, threshold_below``, in
        curve order; ``attrs`` holds ``n_pos``, ``n_neg`` and ``baseline``."""
        frame = super().to_frame()  # the column fields, plus the attrs rocci 0.2's frame had
        frame.attrs.update(n_pos=self.n_pos, n_neg=self.n_neg, baseline=self.baseline)
        return frame


def pr_curve(y_true, y_score=None, *, pos_label=None, max_points: int | None = None,
             interpolate: bool = True) -> PrecisionRecallCurve:
    r"""Precision–recall curve with Davis and Goadrich's (2006) interpolation between ROC points.

    The ROC points are the thresholds ``t`` (the distinct scores, decreasing; ``score >= t`` is
    predicted positive) with their counts ``TP(t)``, ``FP(t)``, starting from ``(0, 0)`` at
    ``t = +inf``.  Between two consecutive points ``A → B`` with ``ΔTP = TP_B − TP_A > 0`` and
    ``ΔFP = FP_B − FP_A``, the curve passes through

    .. math::

        TP_x = TP_A + x, \qquad FP_x = FP_A + x\,\frac{\Delta FP}{\Delta TP}, \qquad x = 1, \dots, \Delta TP,

    so that ``recall_x = TP_x / n+`` and ``precision_x = TP_x / (TP_x + FP_x)``; ``x = ΔTP`` is ``B``
    itself.  These are the points reached by mixing the thresholds of ``A`` and ``B`` at random, on the
    straight ROC segment ``A → B``: the precision between them is not linear in the recall.  A
    segment with ``ΔTP = 0`` (only negatives between two thresholds) adds ``B`` alone: the recall
    stays, the precision drops.  The point ``(0, 0)`` itself (no predicted positive, precision
    undefined) is left out, so the curve starts at the first threshold, or at recall ``1/n+`` on the
    segment from ``(0, 0)`` (where the precision is ``ΔTP/(ΔTP + ΔFP)``, constant along it).

    With ``interpolate=False`` the rows are the ROC points alone, one per distinct score (thresholds
    decreasing; ``+inf``, where the precision is undefined, left out), their ``tp`` and ``fp`` as
    integers; otherwise at most ``n+`` interpolated rows are added between them (``ΔTP − 1`` per
    segment), in O(n log n) for the sort and O(n) after it, with no loop over instances.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    max_points : int, optional
        Bound the rows (default: none, every interpolated point).  A table of counts standing for 10⁹
        positives would otherwise give 10⁹ rows.  Every ROC point is kept; a segment keeps at most
        ``k = max(0, ⌊(max_points − segments)/segments⌋)`` interpolated points, at
        ``x = ⌊i·ΔTP/(k + 1)⌋``, ``i = 1 … k`` (points of the same curve, evenly spaced in TP).
    interpolate : bool, default True
        False: the ROC points only (no interpolated row; ``tp``, ``fp`` int64).

    Returns
    -------
    PrecisionRecallCurve
        ``to_frame()``: in curve order (recall non-decreasing), one row per point, columns:

        * ``threshold``: the ROC point's threshold; NaN on interpolated rows;
        * ``recall``, ``precision``;
        * ``tp``, ``fp`` (float64): the counts, ``fp`` fractional on interpolated rows (int64 with
          ``interpolate=False``);
        * ``interpolated`` (bool): True for the points between two ROC points;
        * ``threshold_above``, ``threshold_below``: the thresholds of the ROC points ``A`` and ``B``
          of the segment the row lies on (both equal to ``threshold`` on a ROC row; ``+inf`` above the
          first segment).

        The frame's ``attrs`` (and the result's attributes) hold ``n_pos``, ``n_neg`` and
        ``baseline = n+/n``: the **baseline** of the PR plot, the precision of scores that carry no
        information (every threshold of random scores has expected precision ``n+/n``), a horizontal
        line at the positive share.  Until rocci 0.3 the function returned this frame itself.

    References
    ----------
    J. Davis and M. Goadrich (2006), "The relationship between precision–recall and ROC curves",
    Proceedings of the 23rd International Conference on Machine Learning, 233–240 (§4, interpolation).

    Examples
    --------
    >>> import rocci
    >>> f = rocci.pr_curve([1, 1, 0, 1], [0.9, 0.8, 0.8, 0.1]).to_frame()
    >>> f[["recall", "precision", "interpolated"]].round(4).values.tolist()
    [[0.3333, 1.0, False], [0.6667, 0.6667, False], [1.0, 0.75, False]]
    """
    counts, _ = binary_counts(y_true, y_score, pos_label)  # a ScoreCounts table stays a table
    n_pos, n_neg = counts.n_pos, counts.n_neg
    t, tp, fp = counts.threshold_counts()  # +inf first, with (0, 0)
    tp = np.asarray(tp, np.int64)
    fp = np.asarray(fp, np.int64)
    dtp = np.diff(tp)  # segment j goes from point j to point j + 1
    dfp = np.diff(fp)
    extra = np.maximum(dtp - 1, 0) if interpolate else np.zeros_like(dtp)  # points strictly inside each segment
    if max_points is not None and dtp.size and int(extra.sum()) + dtp.size > int(max_points):
        extra = np.minimum(extra, max(0, (int(max_points) - dtp.size) // dtp.size))
    size = extra + 1  # each segment's block: its interpolated points, then its end point
    ends = np.cumsum(size) - 1  # row of each segment's end point (the ROC point j + 1)
    total = int(ends[-1]) + 1 if ends.size else 0

    seg = np.repeat(np.arange(dtp.size), size)  # the segment of every row
    i = np.arange(total) - np.repeat(ends - size + 1, size) + 1  # i = 1 .. size within the segment
    # x = i when every interpolated point is kept (size = ΔTP); else ⌊i·ΔTP/size⌋, evenly spaced, < ΔTP
    x = i
    thinned = (dtp > size)[seg]  # segments that keep fewer points than ΔTP − 1 (max_points)
    if thinned.any():
        x = i.copy()
        x[thinned] = (i[thinned] * dtp[seg][thinned]) // size[seg][thinned]
    on_point = np.zeros(total, bool)
    on_point[ends] = True
    tp_a, fp_a = tp[:-1][seg], fp[:-1][seg]
    d_tp, d_fp = dtp[seg], dfp[seg]
    # On a ROC row the counts are the point's own (exact integers, whatever ΔTP is).
    rows_tp = np.where(on_point, tp[1:][seg], tp_a + x).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rows_fp = np.where(on_point, fp[1:][seg], fp_a + x * (d_fp / np.where(d_tp > 0, d_tp, 1)))
    rows_fp = rows_fp.astype(np.float64)
    if not interpolate:  # every row a ROC point: the counts are whole
        rows_tp, rows_fp = rows_tp.astype(np.int64), rows_fp.astype(np.int64)
    threshold = np.where(on_point, t[1:][seg], np.nan)
    return PrecisionRecallCurve(
        thresholds=threshold, recall=rows_tp / n_pos, precision=rows_tp / (rows_tp + rows_fp), tp=rows_tp,
        fp=rows_fp, interpolated=~on_point, threshold_above=np.where(on_point, t[1:][seg], t[:-1][seg]),
        threshold_below=t[1:][seg], n_pos=n_pos, n_neg=n_neg,
    )


def precision_recall_curve(y_true, y_score=None, *, pos_label=None) -> PrecisionRecallCurve:
    """Deprecated: ``rocci.pr_curve(y_true, y_score, interpolate=False)``, rocci's one precision–recall curve.

    The same rows and the same ``threshold, recall, precision, tp, fp`` columns as rocci 0.2's
    ``precision_recall_curve`` (precision against recall at every distinct score, ``+inf`` left out),
    plus ``pr_curve``'s ``interpolated``, ``threshold_above`` and ``threshold_below``.  DeprecationWarning;
    goes in rocci 0.4.

    Returns
    -------
    PrecisionRecallCurve
    """
    warn_deprecated("rocci.precision_recall_curve(y_true, y_score) is rocci.pr_curve(y_true, y_score, "
                    "interpolate=False) since rocci 0.3 (one precision–recall curve).")
    return pr_curve(y_true, y_score, pos_label=pos_label, interpolate=False)
