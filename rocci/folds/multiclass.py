"""Several classes: one-vs-rest ROC curves, and the correct-vs-top-score curve.

A classifier for ``K`` classes gives each instance ``i`` a vector of scores
``S_i(c)``, one per class ``c`` (e.g. class probabilities).  A ROC curve
needs a binary answer and a score; the mlstatpy page on ROC curves (seed 002,
"Classification multi-classe") gives two ways to make them:

1. **one vs rest**, for each class ``c``: ``b_i = 1`` if ``y_i = c`` else 0,
   and ``s_i = S_i(c)`` (:func:`one_vs_rest`);
2. **correct vs top score**: ``b_i = 1`` if ``max_c S_i(c) = S_i(y_i)`` (the
   prediction is correct) else 0, and ``s_i = max_c S_i(c)``, the score of the
   predicted class (:func:`top_score_curve`).  This curve tells how well the
   top score separates right answers from wrong ones: whether a threshold on
   it can be used to accept or reject a prediction.

Each is an ordinary binary problem, so every exact bootstrap interval of
rocci applies to it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._core.inputs import InputError, _as_1d, _preview, check_confidence_level, check_scores
from .._core.results import RocCurve, _FrameResult
from ..data.guess import class_columns, match_score_columns  # noqa: F401  (public here too)
from ..roc.curve import roc_auc, roc_curve
from ..roc.threshold import threshold_ci
from ..roc.vertical import vertical_ci

__all__ = [
    "OneVsRest",
    "TopScoreCurve",
    "one_vs_rest",
    "top_score_curve",
    "match_score_columns",
    "class_columns",
]


def _py(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _check_multiclass(y_true, y_score, classes) -> tuple[np.ndarray, np.ndarray, list]:
    """Labels, the (n, K) score matrix, and the K classes (column order).

    Returns the column index of each instance's true class, the scores, and
    the classes as Python scalars.
    """
    y = _as_1d("y_true", y_true)
    if y.size == 0:
        raise InputError("y_true is empty: there is no data to evaluate.")
    missing = np.asarray(pd.isna(y), dtype=bool)
    if missing.any():
        raise InputError(f"y_true has {int(missing.sum())} missing label(s). Remove those rows first.")
    if isinstance(y_score, pd.DataFrame):
        y_score = y_score.to_numpy()
    if isinstance(y_score, (str, bytes)) or y_score is None:
        raise InputError("y_score must be a table of scores: one row per instance, one column per class.")
    S = np.asarray(y_score)
    if S.ndim != 2:
        raise InputError(
            f"y_score must be two-dimensional (one row per instance, one column per class); got shape {S.shape}."
        )
    n, k = S.shape
    if n != y.size:
        raise InputError(f"y_score has {n} rows but y_true has {y.size} labels: give one row of scores per instance.")
    if k < 2:
        raise InputError(f"y_score has {k} column(s); several classes need one score column per class (at least 2).")
    S = check_scores(S.ravel(), name="y_score").reshape(n, k)
    if classes is None:
        try:
            found = np.unique(y)
        except TypeError:
            raise InputError("y_true mixes labels of different types; pass classes explicitly.") from None
        classes = [_py(c) for c in found]
        if len(classes) != k:
            raise InputError(
                f"y_true holds {len(classes)} classes ({_preview(classes)}) but y_score has {k} columns. "
                "Give one score column per class, in sorted class order, or pass classes (the class of each column)."
            )
    else:
        classes = [_py(c) for c in (classes.tolist() if isinstance(classes, np.ndarray) else list(classes))]
        if len(classes) != k:
            raise InputError(f"classes lists {len(classes)} classes but y_score has {k} columns: give the class of each column.")
        if len(set(classes)) != k:
            raise InputError(f"classes ({_preview(classes)}) lists a class twice; each score column is one class.")
    codes = pd.Index(classes, dtype=object).get_indexer(pd.Series(y, dtype=object))
    unknown = codes < 0
    if unknown.any():
        bad = pd.unique(pd.Series(y[unknown], dtype=object))
        raise InputError(
            f"y_true holds {_preview(bad)}, which {'is' if len(bad) == 1 else 'are'} not among the classes of the "
            f"score columns ({_preview(classes)}). Every label needs its own score column."
        )
    return codes.astype(np.intp), S, classes


# --------------------------------------------------------------------------
# one vs rest
# --------------------------------------------------------------------------


@dataclass(repr=False)
class OneVsRest(_FrameResult):
    """One-vs-rest ROC curves of a several-class classifier, with their intervals.

    Attributes
    ----------
    classes : list
        The classes, in the order of the score columns.
    curves : list of RocCurve
        ``curves[j]``: class ``classes[j]`` positive, every other class negative,
        scored by column ``j``.
    aucs : list of AucResult
        Each curve's AUC with its confidence interval (``auc_method``).
    vertical : list of VerticalCI or None
        Exact bootstrap intervals of each curve's TPR at fixed FPR levels.
    threshold : list of ThresholdCI or None
        Exact bootstrap regions at fixed total positive rates (if asked for).
    confidence_level : float
    """

    classes: list
    curves: list
    aucs: list
    vertical: list | None
    threshold: list | None
    confidence_level: float

    _scalar_fields = ("n_classes", "confidence_level")

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    def to_frame(self) -> pd.DataFrame:
        """One row per class: ``class, n_pos, n_neg, auc, auc_std, auc_low, auc_high, auc_method``."""
        # Hand-written: one row per class, read from each class's RocCurve and AucResult.
        return pd.DataFrame({
            "class": pd.Series(self.classes, dtype=object),
            "n_pos": np.array([c.n_pos for c in self.curves], dtype=np.int64),
            "n_neg": np.array([c.n_neg for c in self.curves], dtype=np.int64),
            "auc": [a.auc for a in self.aucs],
            "auc_std": [a.auc_std for a in self.aucs],
            "auc_low": [a.auc_low for a in self.aucs],
            "auc_high": [a.auc_high for a in self.aucs],
            "auc_method": [a.method for a in self.aucs],
        })

    def curve_frame(self) -> pd.DataFrame:
        """Every class's curve: ``class, threshold, fpr, tpr, tp, fp``."""
        parts = [c.to_frame().assign(**{"class": k}) for k, c in zip(self.classes, self.curves)]
        out = pd.concat(parts, ignore_index=True)
        return out[["class", "threshold", "fpr", "tpr", "tp", "fp"]]

    def vertical_frame(self) -> pd.DataFrame:
        """Every class's vertical intervals: ``class`` + the columns of ``VerticalCI.to_frame()``."""
        if not self.vertical:
            return pd.DataFrame(columns=["class", "fpr", "r", "tpr", "tpr_mean", "tpr_std", "tpr_low", "tpr_high"])
        parts = [v.to_frame().assign(**{"class": k}) for k, v in zip(self.classes, self.vertical)]
        out = pd.concat(parts, ignore_index=True)
        return out[["class"] + [c for c in out.columns if c != "class"]]


def _per_class(cls, fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except InputError as exc:
        raise InputError(f"Class {cls!r} against the rest: {exc}") from None


def one_vs_rest(
    y_true,
    y_score,
    *,
    classes=None,
    confidence_level=0.95,
    auc_method="delong",
    intervals=True,
    fpr=None,
    vertical_method="score",
    total_positive_rate=None,
    threshold_method="wilson",
    region="rectangle",
) -> OneVsRest:
    """One-vs-rest ROC curves, one per class, each with its intervals.

    For class ``c`` (column ``j`` of ``y_score``) the binary problem is

    ``b_i = 1 if y_i = c else 0``,  ``s_i = S_i(c)``   (seed 002, case 1),

    and the curve is ``roc_curve(b, s)``: ``TPR_c(t) = #{i: y_i = c, S_i(c) >= t}/n_c``,
    ``FPR_c(t) = #{i: y_i ≠ c, S_i(c) >= t}/(n − n_c)``.  Its AUC interval is
    :func:`rocci.roc_auc`, its exact bootstrap intervals
    :func:`rocci.vertical_ci` (and :func:`rocci.threshold_ci`), all on ``(b, s)``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        The true class of each instance.
    y_score : array_like of shape (n, K)
        One column of scores per class (higher = more likely that class).
    classes : sequence of length K, optional
        The class of each column.  Default: the sorted distinct labels of
        ``y_true`` (there must be ``K``).
    confidence_level : float, default 0.95
    auc_method : {"delong", "hanley-mcneil", "exact-bootstrap"}
        See :func:`rocci.roc_auc`.
    intervals : bool, default True
        Compute the exact bootstrap vertical intervals (``vertical``).
    fpr, vertical_method
        Passed to :func:`rocci.vertical_ci` (``fpr`` levels and ``method``); ``vertical_method``
        defaults to ``"score"``, :func:`rocci.vertical_ci`'s default (rocci 0.3; it was ``"percentile"``,
        whose interval collapses to [1, 1] where the TPR is near 1, as the coverage lab showed).
    total_positive_rate : array_like, optional
        If given, :func:`rocci.threshold_ci` at these rates, with
        ``threshold_method`` and ``region``.

    Returns
    -------
    OneVsRest
        ``to_frame()`` has one row per class with its AUC interval;
        ``curve_frame()`` and ``vertical_frame()`` the curves and intervals.

    Raises
    ------
    rocci.InputError
        Bad shapes, a label without a score column, non-finite scores, or a
        class too small for its intervals (the message names the class).

    Examples
    --------
    >>> import rocci
    >>> res = rocci.one_vs_rest(["a", "b", "c", "a", "b", "c"],
    ...                         [[.8, .1, .1], [.2, .7, .1], [.3, .3, .4], [.5, .4, .1], [.3, .4, .3], [.1, .2, .7]],
    ...                         auc_method="hanley-mcneil", intervals=False)
    >>> [round(c.auc, 3) for c in res.curves]
    [1.0, 0.938, 1.0]
    """
    level = check_confidence_level(confidence_level)
    codes, S, classes = _check_multiclass(y_true, y_score, classes)
    curves, aucs, verticals, thresholds = [], [], [], []
    for j, cls in enumerate(classes):
        b = codes == j
        if not b.any():
            raise InputError(
                f"Class {cls!r} has no instances in y_true, so its one-vs-rest curve has no positives. "
                "Leave out its score column, or check the labels."
            )
        s = S[:, j]
        curves.append(_per_class(cls, roc_curve, b, s))
        aucs.append(_per_class(cls, roc_auc, b, s, confidence_level=level, method=auc_method))
        if intervals:
            verticals.append(_per_class(cls, vertical_ci, b, s, fpr=fpr, confidence_level=level, method=vertical_method))
        if total_positive_rate is not None:
            thresholds.append(_per_class(
                cls, threshold_ci, b, s, total_positive_rate=total_positive_rate, confidence_level=level,
                method=threshold_method, region=region,
            ))
    return OneVsRest(
        classes=classes, curves=curves, aucs=aucs,
        vertical=verticals if intervals else None,
        threshold=thresholds if total_positive_rate is not None else None,
        confidence_level=level,
    )


# --------------------------------------------------------------------------
# correct vs top score
# --------------------------------------------------------------------------


@dataclass(repr=False)
class TopScoreCurve(_FrameResult):
    """ROC curve of "the prediction is correct" against the top score.

    Attributes
    ----------
    classes : list
    predicted : ndarray of shape (n,)
        The predicted class: the true class when it has the top score (also
        when tied with another class), else the first class with the top score.
    top_score : ndarray of shape (n,)
        ``max_c S_i(c)``.
    correct : ndarray of bool, shape (n,)
        ``S_i(y_i) = max_c S_i(c)``.
    curve : RocCurve
        ``roc_curve(correct, top_score)``: TPR = share of the correct
        predictions with top score ``>= t``, FPR = share of the wrong ones.
    accuracy : float
        ``mean(correct)``.
    """

    classes: list
    predicted: np.ndarray
    top_score: np.ndarray
    correct: np.ndarray
    curve: RocCurve
    accuracy: float

    _scalar_fields = ("n_correct", "n_wrong", "accuracy")

    @property
    def n_correct(self) -> int:
        return int(np.count_nonzero(self.correct))

    @property
    def n_wrong(self) -> int:
        return int(self.correct.size - np.count_nonzero(self.correct))

    @property
    def auc(self) -> float:
        return self.curve.auc

    def to_frame(self) -> pd.DataFrame:
        """The curve: ``threshold, fpr, tpr, tp, fp`` (tp: correct, fp: wrong predictions kept)."""
        # Hand-written: the frame of its RocCurve.
        return self.curve.to_frame()

    def predictions_frame(self) -> pd.DataFrame:
        """One row per instance: ``predicted, top_score, correct``."""
        return pd.DataFrame({
            "predicted": pd.Series(self.predicted, dtype=object), "top_score": self.top_score, "correct": self.correct,
        })


def top_score_curve(y_true, y_score, *, classes=None) -> TopScoreCurve:
    """ROC curve of "the prediction is correct" against the top score (seed 002, case 2).

    For instance ``i`` with scores ``S_i(c)`` and true class ``y_i``:

    ``b_i = 1 if max_c S_i(c) = S_i(y_i) else 0``,  ``s_i = max_c S_i(c)``,

    and the curve is ``roc_curve(b, s)``.  A point at threshold ``t`` says:
    accept the predictions whose top score is ``>= t``; then a fraction TPR of
    the correct predictions and a fraction FPR of the wrong ones are accepted.
    The exact bootstrap intervals of rocci apply to ``(correct, top_score)``
    as to any binary problem.

    Parameters
    ----------
    y_true, y_score, classes
        As in :func:`one_vs_rest`.

    Returns
    -------
    TopScoreCurve

    Raises
    ------
    rocci.InputError
        Bad input (as :func:`one_vs_rest`), or every prediction correct, or
        every prediction wrong (the curve needs both).

    Notes
    -----
    Ties: the definition compares scores, so an instance whose true class
    shares the top score with another class counts as correct.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.top_score_curve(["a", "b", "c", "a"], [[.8, .1, .1], [.6, .3, .1], [.2, .3, .5], [.4, .5, .1]])
    >>> res.correct.tolist(), res.top_score.tolist(), res.curve.auc
    ([True, False, True, False], [0.8, 0.6, 0.5, 0.5], 0.625)
    """
    codes, S, classes = _check_multiclass(y_true, y_score, classes)
    n = codes.size
    top = S.max(axis=1)
    correct = S[np.arange(n), codes] == top
    first = np.argmax(S, axis=1)
    pred_idx = np.where(correct, codes, first)
    predicted = np.array(classes, dtype=object)[pred_idx]
    n_ok = int(correct.sum())
    if n_ok == 0 or n_ok == n:
        which = "correct" if n_ok == n else "wrong"
        other = "wrong" if n_ok == n else "correct"
        raise InputError(
            f"Every one of the {n} predictions is {which} (the true class {'always' if n_ok == n else 'never'} has "
            f"the top score), so the correct-vs-top-score curve cannot be drawn: it needs at least one {other} "
            "prediction."
        )
    curve = roc_curve(correct, top)
    return TopScoreCurve(
        classes=classes, predicted=predicted, top_score=top, correct=correct, curve=curve, accuracy=n_ok / n,
    )


# --------------------------------------------------------------------------
# helpers for tables: which column is the class, which columns score which class
# --------------------------------------------------------------------------



