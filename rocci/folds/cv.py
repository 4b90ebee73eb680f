"""Several runs: cross-validation folds.

When every instance carries the fold (or run) in which it was scored, each
fold has its own empirical ROC curve.  This module gives

* :func:`fold_roc_curves` -- one :class:`~rocci.RocCurve` per fold;
* :func:`fold_vertical_average` -- the fold-averaged curve by **vertical
  averaging** (Fawcett 2004, §8.1; ROCR's ``avg="vertical"``): the mean TPR
  of the folds at fixed FPR values, with its across-fold spread, each fold's
  TPR read by the package's rule for the TPR at a fixed FPR (the thesis's,
  as in :func:`rocci.vertical_ci`; ``docs/conventions.md``);
* :func:`fold_threshold_average` -- the fold-averaged curve by **threshold
  averaging** (Fawcett 2004, §8.2, Algorithm 4; ROCR's ``avg="threshold"``):
  the mean (FPR, TPR) point of the folds at fixed thresholds, with spreads on
  both axes;
* :func:`compare_folds` -- the paired t-test over folds of two models
  scored in the same folds (per-fold AUC or error-rate differences).

Every function takes rows -- ``(y_true, y_score, folds)`` -- or the folds'
counts alone, as its first argument, with the same results: a
:func:`rocci.scan` result made with ``group="fold"`` (``model=`` names the
model; ``model_a=``, ``model_b=`` for :func:`compare_folds`), or a mapping
``{fold: ScoreCounts}`` (``{fold: PairedCounts}`` for :func:`compare_folds`).
Each fold's curve depends only on its table of distinct scores with their
positives and negatives, so the folds of 10⁹ rows reduced where they live are
analysed exactly::

    result = rocci.scan("cv/*.parquet", label="y", scores=["gbm", "logit"], group="fold")
    rocci.fold_vertical_average(result, model="gbm")
    rocci.compare_folds(result, model_a="gbm", model_b="logit")

The spread across folds measures how much the curve changes from one
training run and test fold to the next.  It is not the sampling variability
of the pooled test set, which the exact bootstrap gives
(:func:`rocci.vertical_ci`, :func:`rocci.threshold_ci` on the pooled data).

References
----------
T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters
27 (2006) 861-874 (HP Labs report HPL-2003-4, 2004), section 8.
E. Alpaydin, *Introduction to Machine Learning*, ch. 19 (the k-fold
cross-validated paired t-test; seed 003 of this project).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._core.counts import PairedCounts, ScoreCounts
from .._core.inputs import (
    InputError,
    _as_1d,
    _preview,
    check_choice,
    check_confidence_level,
    check_labels,
    check_scores,
)
from .._core.results import RocCurve, _FrameResult
from .._core.counts import _auc_from_counts

__all__ = [
    "FoldCurves",
    "FoldVerticalAverage",
    "FoldThresholdAverage",
    "fold_roc_curves",
    "fold_vertical_average",
    "fold_threshold_average",
    "SPREADS",
]

#: Across-fold spreads: t-interval of the mean, ± 1 standard deviation, ± 1 standard error.
SPREADS = ("t", "sd", "se")
MEASURES = ("auc", "error")
ALTERNATIVES = ("two-sided", "less", "greater")

#: FPR values of the vertical average when none are given (Fawcett's 0, 1/100, …, 1).
DEFAULT_FPR = np.linspace(0.0, 1.0, 101)
#: Thresholds of the threshold average when none are given (besides +inf).
DEFAULT_N_THRESHOLDS = 50


def _py(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


# --------------------------------------------------------------------------
# validation and the per-fold counting block
# --------------------------------------------------------------------------


def _check_folds(folds: Any, n: int) -> tuple[list, np.ndarray]:
    """Fold labels (sorted) and each instance's fold index."""
    arr = _as_1d("folds", folds)
    if arr.size != n:
        raise InputError(
            f"folds has {arr.size} values but y_true has {n}: give the fold of every instance."
        )
    missing = np.asarray(pd.isna(arr), dtype=bool)
    if missing.any():
        raise InputError(
            f"folds has {int(missing.sum())} missing value(s). Remove those rows first, "
            "or give every instance the fold it was scored in."
        )
    try:
        labels, codes = np.unique(arr, return_inverse=True)
    except TypeError:  # mixed types: compare as text
        labels, codes = np.unique(np.array([str(v) for v in arr], dtype=object), return_inverse=True)
    labels = [_py(v) for v in labels]
    if len(labels) < 2:
        raise InputError(
            f"There is only one fold ({labels[0]!r}): averaging across folds needs at least two "
            "folds (or runs). Check the fold column."
        )
    return labels, codes.ravel().astype(np.intp)


@dataclass(frozen=True)
class _Folded:
    labels: list
    counts: list  # ScoreCounts per fold
    pos_label: Any

    @property
    def n_pos(self) -> np.ndarray:
        return np.array([c.n_pos for c in self.counts], dtype=np.int64)

    @property
    def n_neg(self) -> np.ndarray:
        return np.array([c.n_neg for c in self.counts], dtype=np.int64)


def _split(mask: np.ndarray, scores: np.ndarray, labels: list, codes: np.ndarray, pos_label) -> _Folded:
    """Sort once by (fold, score) and cut each fold's sorted positive and negative scores."""
    k = len(labels)
    n_all = np.bincount(codes, minlength=k)
    n_pos = np.bincount(codes, weights=mask, minlength=k).astype(np.int64)
    _check_classes(labels, n_pos, n_all - n_pos)
    order = np.lexsort((scores, codes))
    bounds = np.concatenate([[0], np.cumsum(n_all)])
    s_sorted, m_sorted = scores[order], mask[order]
    counts = []
    for j in range(k):  # one slice per fold; no loop over instances
        s, m = s_sorted[bounds[j]:bounds[j + 1]], m_sorted[bounds[j]:bounds[j + 1]]
        counts.append(ScoreCounts(s[m], s[~m]))
    return _Folded(labels=labels, counts=counts, pos_label=pos_label)


def _prepare(y_true, y_score, folds, pos_label, *, name: str = "y_score") -> tuple[np.ndarray, np.ndarray, list, np.ndarray, Any]:
    if folds is None:
        raise InputError("folds is missing: give the fold (or run) of every instance, or give the folds' counts "
                         "alone (a rocci.scan(..., group=\"fold\") result, or {fold: ScoreCounts}).")
    mask, pos_label = check_labels(y_true, pos_label)
    scores = check_scores(y_score, name=name, n=mask.size)
    labels, codes = _check_folds(folds, mask.size)
    return mask, scores, labels, codes, pos_label


# --------------------------------------------------------------------------
# the folds' counts given directly: a scan with group=, or {fold: counts}
# --------------------------------------------------------------------------


def _is_counts(y_true) -> bool:
    """Whether ``y_true`` is the folds' counts (a :class:`rocci.ScanResult` or a mapping) rather than labels."""
    from ..data.scan import ScanResult

    return isinstance(y_true, (ScanResult, Mapping))


def _check_classes(labels: list, n_pos: np.ndarray, n_neg: np.ndarray) -> None:
    """Every fold has both classes (the same message for rows and for counts)."""
    n_all = n_pos + n_neg
    bad = np.flatnonzero((n_pos == 0) | (n_neg == 0))
    if bad.size:
        i = int(bad[0])
        which, other = ("positive", "negative") if n_pos[i] == 0 else ("negative", "positive")
        more = f" ({bad.size} folds are in this case: {_preview([labels[j] for j in bad])}.)" if bad.size > 1 else ""
        raise InputError(
            f"Fold {labels[i]!r} has no {which} instances (its {int(n_all[i])} rows are all {other}). "
            "Each fold needs both classes to have its own ROC curve: use stratified folds, or merge "
            f"the small folds.{more}"
        )


def _scan_model(scan, model, what: str = "model") -> str:
    """The model of a :class:`rocci.ScanResult` that ``model`` names (its only model when omitted)."""
    if model is None:
        if len(scan.models) == 1:
            return scan.models[0]
        raise InputError(f"This scan holds {len(scan.models)} models ({_preview(scan.models)}): say which one with "
                         f"{what}=, e.g. {what}={scan.models[0]!r}.")
    if model not in scan.counts:
        raise InputError(f"No model {model!r} in this scan; the models are {scan.models}.")
    return model


def _ordered(sizes: dict, counts: dict, pos_label) -> _Folded:
    """Folds sorted as the rows' folds are (:func:`_check_folds`), checked for both classes."""
    keys = list(sizes)
    if not keys:
        raise InputError("There are no folds in these counts: averaging across folds needs at least two folds.")
    missing = [k for k in keys if k is None or (isinstance(k, float) and np.isnan(k))]
    if missing:
        raise InputError("A fold is labelled None or NaN: give every fold a label (rows with a missing fold are "
                         "dropped, and counted, by rocci.scan).")
    labels, codes = _check_folds(keys, len(keys))
    if len(labels) < len(keys):
        raise InputError(f"Two folds have the same label once compared ({_preview(keys)}): give each fold its own "
                         "label.")
    order = np.empty(len(keys), dtype=np.intp)
    order[codes] = np.arange(len(keys))  # order[j]: the key whose label is labels[j]
    n_pos = np.array([sizes[keys[i]][0] for i in order], dtype=np.int64)
    n_neg = np.array([sizes[keys[i]][1] for i in order], dtype=np.int64)
    _check_classes(labels, n_pos, n_neg)
    return _Folded(labels=labels, counts=[counts[keys[i]] for i in order], pos_label=pos_label)


def _from_scan(scan, model, what: str = "model") -> _Folded:
    if not scan.groups and not scan.group_sizes:
        raise InputError("This scan has no folds: scan again with group= naming the fold (or group) column, e.g. "
                         "rocci.scan(source, label=..., scores=..., group=\"fold\").")
    name = _scan_model(scan, model, what)
    sizes = scan.group_sizes or {g: (r[name].n_pos, r[name].n_neg) for g, r in scan.groups.items()}
    counts = {g: r[name] for g, r in scan.groups.items()}
    return _ordered(sizes, counts, scan.pos_label)


def _folded_counts(y_true, model, pos_label) -> _Folded:
    """One model's folds from a :class:`rocci.ScanResult` (``model=``) or a mapping ``{fold: ScoreCounts}``."""
    from ..data.scan import ScanResult

    if isinstance(y_true, ScanResult):
        return _from_scan(y_true, model)
    if model is not None:
        raise InputError("model= names a model of a rocci.scan result; a mapping {fold: ScoreCounts} holds one "
                         "model already: leave model= out.")
    for k, c in y_true.items():
        if not isinstance(c, ScoreCounts):
            hint = " (one model's counts: paired.model('a'))" if isinstance(c, PairedCounts) else ""
            raise InputError(f"Fold {k!r} holds a {type(c).__name__}: give each fold's counts as a "
                             f"rocci.ScoreCounts{hint}.")
    return _from_mapping(dict(y_true), pos_label)


def _from_mapping(counts: dict, pos_label) -> _Folded:
    labels = {c.pos_label for c in counts.values() if c.pos_label is not None}
    if len(labels) > 1:
        raise InputError(f"The folds' counts have different positive labels ({_preview(sorted(labels, key=str))}): "
                         "count every fold with the same positive class.")
    label = next(iter(labels)) if labels else pos_label
    return _ordered({k: (c.n_pos, c.n_neg) for k, c in counts.items()}, counts, label)


def _folded(y_true, y_score, folds, pos_label, model) -> _Folded:
    """The folds of one model: from the counts (``y_true`` alone) or from rows."""
    if _is_counts(y_true):
        if y_score is not None or folds is not None:
            raise InputError("Pass either the folds' counts alone (a rocci.scan(..., group=) result or "
                             "{fold: ScoreCounts}) or y_true with y_score and folds, not both.")
        return _folded_counts(y_true, model, pos_label)
    _refuse_pooled(y_true)
    if model is not None:
        raise InputError("model= names a model of a rocci.scan result given as the first argument; with arrays, "
                         "give the model's scores as y_score.")
    mask, scores, labels, codes, pos_label = _prepare(y_true, y_score, folds, pos_label)
    return _split(mask, scores, labels, codes, pos_label)


def _refuse_pooled(y_true) -> None:
    if isinstance(y_true, (ScoreCounts, PairedCounts)):
        raise InputError("These are the pooled counts of all folds: the fold functions need each fold's own "
                         "counts, a rocci.scan(..., group=\"fold\") result or a mapping {fold: ScoreCounts}.")


def _spread(values: np.ndarray, level: float, spread: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean, sd (ddof = 1) and the band of each column of ``values`` (folds × points)."""
    k = values.shape[0]
    mean = values.mean(axis=0)
    sd = values.std(axis=0, ddof=1)
    if spread == "t":
        half = float(stats.t.ppf(0.5 + level / 2, k - 1)) * sd / np.sqrt(k)
    elif spread == "se":
        half = sd / np.sqrt(k)
    else:
        half = sd
    return mean, sd, np.clip(mean - half, 0.0, 1.0), np.clip(mean + half, 0.0, 1.0)


def _as_grid(name: str, values, *, lo: float = -np.inf, hi: float = np.inf) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(values))
    try:
        arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name} must hold numbers; got {values!r}.") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be a non-empty list of numbers.")
    if np.isnan(arr).any() or (arr < lo).any() or (arr > hi).any():
        raise InputError(f"{name} values must be numbers in [{lo:g}, {hi:g}]; got {arr.tolist()!r}.")
    return arr


# --------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------


@dataclass(repr=False)
class FoldCurves(_FrameResult):
    """One empirical ROC curve per fold.

    Attributes
    ----------
    folds : list
        Fold labels, sorted.
    curves : list of RocCurve
        ``curves[k]`` is the ROC curve of the instances of ``folds[k]``.
    pos_label : object
    """

    folds: list
    curves: list
    pos_label: Any = None

    _scalar_fields = ("n_folds",)

    @property
    def n_folds(self) -> int:
        return len(self.folds)

    @property
    def auc(self) -> np.ndarray:
        """Per-fold AUC (Mann–Whitney, ties 1/2)."""
        return np.array([c.auc for c in self.curves], dtype=float)

    def curve(self, fold) -> RocCurve:
        """The ROC curve of one fold (by label)."""
        for f, c in zip(self.folds, self.curves):
            if f == fold or str(f) == str(fold):
                return c
        raise InputError(f"Fold {fold!r} is not among the folds ({_preview(self.folds)}).")

    def to_frame(self) -> pd.DataFrame:
        """One row per fold: ``fold, n_pos, n_neg, auc``."""
        # Hand-written: one row per fold, read from each fold's RocCurve.
        return pd.DataFrame({
            "fold": pd.Series(self.folds, dtype=object),
            "n_pos": np.array([c.n_pos for c in self.curves], dtype=np.int64),
            "n_neg": np.array([c.n_neg for c in self.curves], dtype=np.int64),
            "auc": self.auc,
        })

    def points_frame(self) -> pd.DataFrame:
        """Every fold's curve: ``fold, threshold, fpr, tpr, tp, fp``."""
        parts = [c.to_frame().assign(fold=f) for f, c in zip(self.folds, self.curves)]
        out = pd.concat(parts, ignore_index=True)
        return out[["fold", "threshold", "fpr", "tpr", "tp", "fp"]]


class _FoldAverage(_FrameResult):
    """Shared by the two fold averages: the number of folds, and the repr's scalars."""

    folds: list
    _scalar_fields = ("n_folds", "spread", "confidence_level")

    @property
    def n_folds(self) -> int:
        return len(self.folds)


@dataclass(repr=False)
class FoldVerticalAverage(_FoldAverage):
    """Vertical averaging over folds: the mean TPR at fixed FPR values.

    Attributes
    ----------
    fpr : ndarray of shape (h,)
        The FPR values.
    fold_tpr : ndarray of shape (K, h)
        Each fold's TPR there: the TPR at the highest threshold whose FPR is
        at least that FPR (the bottom of a vertical segment, the upper end of
        a diagonal one; see :func:`fold_vertical_average`).
    tpr_mean, tpr_std : ndarray of shape (h,)
        Mean and standard deviation (``ddof = 1``) over the K folds.
    tpr_low, tpr_high : ndarray of shape (h,)
        The band given by ``spread``, clipped to [0, 1].
    folds : list
    spread : str
        ``"t"``, ``"sd"`` or ``"se"`` (see :func:`fold_vertical_average`).
    confidence_level : float
        Level of the t-interval (``spread="t"`` only).
    """

    fpr: np.ndarray
    fold_tpr: np.ndarray
    tpr_mean: np.ndarray
    tpr_std: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray
    folds: list
    spread: str
    confidence_level: float

    def to_frame(self) -> pd.DataFrame:
        """Columns ``fpr, tpr_mean, tpr_std, tpr_low, tpr_high, n_folds``."""
        # Hand-written: n_folds (a property) repeated on every row.
        return pd.DataFrame({
            "fpr": self.fpr, "tpr_mean": self.tpr_mean, "tpr_std": self.tpr_std,
            "tpr_low": self.tpr_low, "tpr_high": self.tpr_high,
            "n_folds": np.full(self.fpr.size, self.n_folds, dtype=np.int64),
        })

    def folds_frame(self) -> pd.DataFrame:
        """Each fold's sampled TPR: ``fold, fpr, tpr``."""
        k, h = self.fold_tpr.shape
        return pd.DataFrame({
            "fold": pd.Series(np.repeat(np.array(self.folds, dtype=object), h), dtype=object),
            "fpr": np.tile(self.fpr, k),
            "tpr": self.fold_tpr.ravel(),
        })


@dataclass(repr=False)
class FoldThresholdAverage(_FoldAverage):
    """Threshold averaging over folds: the mean (FPR, TPR) at fixed thresholds.

    Attributes
    ----------
    thresholds : ndarray of shape (h,)
        Decreasing; ``score >= threshold`` is predicted positive.
    fold_fpr, fold_tpr : ndarray of shape (K, h)
        Each fold's rates at each threshold.
    fold_tp, fold_fp : ndarray of int64, shape (K, h)
        Each fold's counts at each threshold.
    fpr_mean, fpr_std, fpr_low, fpr_high, tpr_mean, tpr_std, tpr_low, tpr_high : ndarray of shape (h,)
        Mean, standard deviation (``ddof = 1``) and band (``spread``, clipped
        to [0, 1]) on each axis.
    folds : list
    spread : str
    confidence_level : float
    """

    thresholds: np.ndarray
    fold_fpr: np.ndarray
    fold_tpr: np.ndarray
    fold_tp: np.ndarray
    fold_fp: np.ndarray
    fpr_mean: np.ndarray
    fpr_std: np.ndarray
    fpr_low: np.ndarray
    fpr_high: np.ndarray
    tpr_mean: np.ndarray
    tpr_std: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray
    folds: list
    spread: str
    confidence_level: float

    def to_frame(self) -> pd.DataFrame:
        """Columns ``threshold, fpr_mean, fpr_std, fpr_low, fpr_high, tpr_mean,
        tpr_std, tpr_low, tpr_high, n_folds``."""
        # Hand-written: n_folds (a property) repeated on every row.
        return pd.DataFrame({
            "threshold": self.thresholds,
            "fpr_mean": self.fpr_mean, "fpr_std": self.fpr_std, "fpr_low": self.fpr_low, "fpr_high": self.fpr_high,
            "tpr_mean": self.tpr_mean, "tpr_std": self.tpr_std, "tpr_low": self.tpr_low, "tpr_high": self.tpr_high,
            "n_folds": np.full(self.thresholds.size, self.n_folds, dtype=np.int64),
        })

    def folds_frame(self) -> pd.DataFrame:
        """Each fold's point at each threshold: ``fold, threshold, fpr, tpr, tp, fp``."""
        k, h = self.fold_tpr.shape
        return pd.DataFrame({
            "fold": pd.Series(np.repeat(np.array(self.folds, dtype=object), h), dtype=object),
            "threshold": np.tile(self.thresholds, k),
            "fpr": self.fold_fpr.ravel(), "tpr": self.fold_tpr.ravel(),
            "tp": self.fold_tp.ravel(), "fp": self.fold_fp.ravel(),
        })


# --------------------------------------------------------------------------
# public functions
# --------------------------------------------------------------------------


def fold_roc_curves(y_true, y_score=None, folds=None, *, model=None, pos_label=None) -> FoldCurves:
    """One empirical ROC curve per fold.

    Parameters
    ----------
    y_true : array_like of shape (n,), ScanResult or mapping
        The labels (as in :func:`rocci.roc_curve`), or the folds' counts
        alone (``y_score`` and ``folds`` left out): a :func:`rocci.scan`
        result made with ``group=`` (each group is a fold), or a mapping
        ``{fold: ScoreCounts}``.  The counts give the same results as the
        rows they were made from.
    y_score : array_like of shape (n,)
        The scores (rows only).
    folds : array_like of shape (n,)
        The fold (or run) of each instance: any labels (numbers or text)
        (rows only).
    model : str, optional
        The model of a scan holding several (a scan of one model needs none).
    pos_label
        As in :func:`rocci.roc_curve` (counts carry their own).

    Returns
    -------
    FoldCurves
        ``curves[k]`` equals ``roc_curve(y_true[f == k], y_score[f == k])``:
        for each of the fold's distinct thresholds ``t`` (``+inf`` first),
        ``TPR_k(t) = #{positives of fold k with score >= t}/n_k+`` and
        likewise for the FPR.  ``to_frame()`` has one row per fold with its
        class sizes and AUC.

    Raises
    ------
    rocci.InputError
        Fewer than two folds, a missing fold value, or a fold without
        positives or without negatives (from counts: the same message; a
        scan's group with one class is in ``result.group_sizes``); a scan
        without groups, or of several models without ``model=``.

    Notes
    -----
    The instances are sorted once by (fold, score), so all curves cost
    O(n log n).

    Examples
    --------
    >>> import rocci
    >>> res = rocci.fold_roc_curves([0, 1, 0, 1, 0, 1], [.2, .7, .4, .3, .1, .9], [1, 1, 2, 2, 3, 3])
    >>> res.auc.tolist()
    [1.0, 0.0, 1.0]

    From the folds' counts (here made in memory; ``rocci.scan(path, ...,
    group="fold")`` makes them where the rows live):

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"y": [0, 1, 0, 1, 0, 1], "s": [.2, .7, .4, .3, .1, .9], "fold": [1, 1, 2, 2, 3, 3]})
    >>> rocci.fold_roc_curves(rocci.scan(rows, label="y", scores="s", group="fold")).auc.tolist()
    [1.0, 0.0, 1.0]
    """
    folded = _folded(y_true, y_score, folds, pos_label, model)
    labels, pos_label = folded.labels, folded.pos_label
    curves = []
    for c in folded.counts:
        thresholds, tp, fp = c.threshold_counts()
        curves.append(RocCurve(
            thresholds=thresholds, fpr=fp / c.n_neg, tpr=tp / c.n_pos, tp=tp, fp=fp,
            n_pos=c.n_pos, n_neg=c.n_neg, auc=_auc_from_counts(tp, fp, c.n_pos, c.n_neg), pos_label=pos_label,
        ))
    return FoldCurves(folds=labels, curves=curves, pos_label=pos_label)


def _tpr_at_fpr(counts: ScoreCounts, x: np.ndarray) -> np.ndarray:
    """The TPR at FPR ``x`` on one fold's curve, by the package's rule, in counts.

    With the vertices ``(fp_i, tp_i)`` in order of decreasing threshold
    (``+inf`` first) and ``u = x·n−``: ``i`` = the first vertex with
    ``fp_i >= u``, and the TPR is ``tp_i/n+``.  For ``x > 0`` that vertex is
    the threshold ``s_r``, the ``r = ⌈x·n−⌉``-th largest negative score, as
    in :func:`rocci.vertical_ci` (thesis §4.4.1); ``x = 0`` gives the vertex
    ``+inf``, TPR 0.
    """
    _, tp, fp = counts.threshold_counts()
    u = x * counts.n_neg
    r = np.round(u)
    u = np.where(np.abs(u - r) <= 1e-9 * max(1, counts.n_neg), r, u)  # 0.3·10 is 3, not 3.0000000000000004
    i = np.clip(np.searchsorted(fp, u, side="left"), 0, fp.size - 1)
    return tp[i] / counts.n_pos


def fold_vertical_average(
    y_true, y_score=None, folds=None, *, model=None, fpr=None, pos_label=None, confidence_level=0.95, spread="t"
) -> FoldVerticalAverage:
    """Fold-averaged ROC curve by vertical averaging (Fawcett 2004, §8.1).

    At each false positive rate ``x`` the TPR of every fold's curve is read
    off by the package's rule for the TPR at a fixed FPR (``docs/conventions.md``;
    thesis §4.4.1, the rule of :func:`rocci.vertical_ci`) -- ``TPR_k(x)`` =
    the fraction of the fold's positives scoring ``>=`` its ``⌈x·n−⌉``-th
    largest negative score (0 at ``x = 0``), i.e. the TPR at the highest
    threshold whose FPR is at least ``x``: the **bottom** of the fold's
    vertical segment at ``x``, the upper end of a diagonal (tied) segment
    through ``x``, no interpolation -- and averaged over the ``K`` folds:

    ``TPR̄(x) = (1/K) Σ_k TPR_k(x)``,
    ``s(x)² = Σ_k (TPR_k(x) − TPR̄(x))² / (K − 1)``.

    Parameters
    ----------
    y_true, y_score, folds, model, pos_label
        Rows, or the folds' counts alone (a :func:`rocci.scan` result made
        with ``group=``, with ``model=``; or ``{fold: ScoreCounts}``), as in
        :func:`fold_roc_curves`.
    fpr : array_like, optional
        FPR values in [0, 1]; default ``0, 0.01, …, 1`` (Fawcett's grid with
        100 samples).
    confidence_level : float, default 0.95
        Level of the t-interval (``spread="t"``).
    spread : {"t", "sd", "se"}
        The band: ``"t"`` -- the t-interval of the mean,
        ``TPR̄ ± t_{K−1, (1+level)/2}·s/√K`` (the folds taken as independent
        replicates); ``"sd"`` -- ``TPR̄ ± s`` (ROCR's
        ``spread.estimate="stddev"``); ``"se"`` -- ``TPR̄ ± s/√K`` (ROCR's
        ``"stderror"``).  Clipped to [0, 1].

    Returns
    -------
    FoldVerticalAverage
        ``to_frame()``: ``fpr, tpr_mean, tpr_std, tpr_low, tpr_high, n_folds``;
        ``folds_frame()`` has each fold's TPR at each FPR.

    Notes
    -----
    Each fold's ``fold_tpr`` equals ``vertical_ci(...).tpr`` on that fold's
    data at the levels ``r/n−``, with ties or without: the fold average and
    the exact bootstrap of the pooled data read a curve the same way.
    Changed in 0.2.0 (see CHANGELOG.md).  Other tools read it differently:
    Fawcett's ``TPR_FOR_FPR`` (and rocci before 0.2.0) and
    pROC's ``coords`` take the top of a vertical segment and interpolate
    along diagonal ones; ROCR interpolates with ``approxfun(ties=mean)``, the
    middle of a vertical segment.  Where a fold's curve is vertical at ``x``
    the top can be higher by up to the segment's height; elsewhere, without
    ties, all these rules agree.  At ``x = 1`` the rule reads the bottom of
    the last vertical segment: a fold whose lowest score is a positive has a
    TPR below 1 there (fold 2 below), and the average ends below 1.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.fold_vertical_average([0, 1, 0, 1], [.2, .7, .4, .3], [1, 1, 2, 2], fpr=[0, 0.5, 1])
    >>> res.fold_tpr.tolist(), res.tpr_mean.tolist()
    ([[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]], [0.0, 0.5, 0.5])
    """
    level = check_confidence_level(confidence_level)
    check_choice("spread", spread, SPREADS)
    x = DEFAULT_FPR.copy() if fpr is None else _as_grid("fpr", fpr, lo=0.0, hi=1.0)
    folded = _folded(y_true, y_score, folds, pos_label, model)
    labels = folded.labels
    values = np.vstack([_tpr_at_fpr(c, x) for c in folded.counts])
    mean, sd, low, high = _spread(values, level, spread)
    return FoldVerticalAverage(
        fpr=x, fold_tpr=values, tpr_mean=mean, tpr_std=sd, tpr_low=low, tpr_high=high,
        folds=labels, spread=spread, confidence_level=level,
    )


def default_fold_thresholds(scores: np.ndarray, n_thresholds: int = DEFAULT_N_THRESHOLDS) -> np.ndarray:
    """``+inf`` and up to ``n_thresholds`` pooled scores evenly spaced by rank.

    Fawcett's Algorithm 4 samples the sorted scores of all folds at a fixed
    step of rank; here the distinct pooled scores, decreasing, at ranks
    ``round(j·(h − 1)/(n_thresholds − 1))`` (all of them when there are at
    most ``n_thresholds``), so the highest and the lowest score are included
    and the average runs from (0, 0) to (1, 1).
    """
    distinct = np.unique(scores)[::-1]
    h = distinct.size
    if h > n_thresholds:
        idx = np.unique(np.round(np.linspace(0, h - 1, n_thresholds)).astype(np.int64))
        distinct = distinct[idx]
    return np.concatenate([[np.inf], distinct])


def fold_threshold_average(
    y_true,
    y_score=None,
    folds=None,
    *,
    model=None,
    thresholds=None,
    n_thresholds=DEFAULT_N_THRESHOLDS,
    pos_label=None,
    confidence_level=0.95,
    spread="t",
) -> FoldThresholdAverage:
    """Fold-averaged ROC curve by threshold averaging (Fawcett 2004, Algorithm 4).

    At each threshold ``t`` every fold's classifier ``score >= t`` gives a
    point ``(FPR_k(t), TPR_k(t)) = (fp_k(t)/n_k−, tp_k(t)/n_k+)``; the average
    point and the spreads are, on each axis,

    ``FPR̄(t) = (1/K) Σ_k FPR_k(t)``,  ``TPR̄(t) = (1/K) Σ_k TPR_k(t)``,

    with standard deviations over folds (``ddof = 1``) and the band chosen by
    ``spread`` (as in :func:`fold_vertical_average`).  Unlike vertical
    averaging, every averaged point is the mean of classifiers that really
    exist (one threshold), so the spread is two-dimensional.

    Parameters
    ----------
    y_true, y_score, folds, model, pos_label, confidence_level, spread
        As in :func:`fold_vertical_average` (rows, or the folds' counts).
    thresholds : array_like, optional
        Thresholds (any reals, ``±inf`` allowed), sorted decreasingly in the
        result.  Default: :func:`default_fold_thresholds` -- ``+inf`` and
        ``n_thresholds`` pooled scores evenly spaced by rank (from counts,
        the union of the folds' distinct scores: the same thresholds).
    n_thresholds : int, default 50
        Number of sampled thresholds when ``thresholds`` is not given.

    Returns
    -------
    FoldThresholdAverage
        ``to_frame()``: ``threshold, fpr_mean, fpr_std, fpr_low, fpr_high,
        tpr_mean, tpr_std, tpr_low, tpr_high, n_folds``; ``folds_frame()``
        has each fold's point and counts.

    Notes
    -----
    ROCR's ``avg="threshold"`` linearly interpolates each fold's rates
    between its cutoffs; here each fold's rates are its counts at ``t``
    exactly (``score >= t``), as in Fawcett's ``ROC_POINT_AT_THRESHOLD``.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.fold_threshold_average([0, 1, 0, 1], [.2, .7, .4, .3], [1, 1, 2, 2], thresholds=[0.5])
    >>> res.fold_tpr.ravel().tolist(), res.fold_fpr.ravel().tolist()
    ([1.0, 0.0], [0.0, 0.0])
    """
    level = check_confidence_level(confidence_level)
    check_choice("spread", spread, SPREADS)
    if thresholds is None:
        if isinstance(n_thresholds, (bool, np.bool_)) or not isinstance(n_thresholds, (int, np.integer)) or n_thresholds < 2:
            raise InputError(f"n_thresholds ({n_thresholds!r}) must be a whole number of at least 2.")
    else:
        t = np.sort(_as_grid("thresholds", thresholds))[::-1]
    folded = _folded(y_true, y_score, folds, pos_label, model)
    labels = folded.labels
    if thresholds is None:  # the pooled distinct scores: every fold's distinct scores together
        t = default_fold_thresholds(np.concatenate([c.table()[0] for c in folded.counts]), int(n_thresholds))
    tp = np.vstack([c.n_pos_ge(t) for c in folded.counts]).astype(np.int64)
    fp = np.vstack([c.n_neg_ge(t) for c in folded.counts]).astype(np.int64)
    tpr = tp / folded.n_pos[:, None]
    fpr = fp / folded.n_neg[:, None]
    f_mean, f_sd, f_low, f_high = _spread(fpr, level, spread)
    t_mean, t_sd, t_low, t_high = _spread(tpr, level, spread)
    return FoldThresholdAverage(
        thresholds=t, fold_fpr=fpr, fold_tpr=tpr, fold_tp=tp, fold_fp=fp,
        fpr_mean=f_mean, fpr_std=f_sd, fpr_low=f_low, fpr_high=f_high,
        tpr_mean=t_mean, tpr_std=t_sd, tpr_low=t_low, tpr_high=t_high,
        folds=labels, spread=spread, confidence_level=level,
    )


def _threshold_value(name: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} ({value!r}) must be a number (score >= {name} is positive).") from None
    if np.isnan(v):
        raise InputError(f"{name} must be a number, not NaN.")
    return v


