"""Comparing two models over cross-validation folds: the paired t-test of the per-fold differences."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .._core.compat import renamed_attribute, renamed_keyword
from .._core.counts import PairedCounts
from .._core.inputs import InputError, check_choice, check_confidence_level, check_scores
from .._core.results import _FrameResult
from .._core.counts import _auc_from_counts
from .cv import (
    ALTERNATIVES,
    MEASURES,
    _Folded,
    _from_mapping,
    _from_scan,
    _is_counts,
    _prepare,
    _refuse_pooled,
    _split,
    _threshold_value,
)


@dataclass(repr=False)
class FoldComparison(_FrameResult):
    """Paired t-test over folds of two models scored in the same folds.

    With ``measure="error"`` and lists of thresholds there is one test per threshold pair: the per-fold
    arrays gain a first axis of length ``h`` (the pairs) and the test's numbers are arrays of shape ``(h,)``;
    with scalar thresholds (or the AUC) they are as below, one test.

    Attributes
    ----------
    measure : str
        ``"auc"`` (higher is better) or ``"error"`` (error rate at fixed
        thresholds; lower is better).
    folds : list
    n_pos, n_neg : ndarray of int64, shape (K,)
    value_a, value_b : ndarray of shape (K,) or (h, K)
        The measure of each model in each fold.
    delta_value : ndarray of shape (K,) or (h, K)
        ``d_k = value_a − value_b`` (``difference`` before rocci 0.3).
    mean, std, se : float or ndarray of shape (h,)
        ``d̄``, ``S`` (``ddof = 1``) and ``S/√K``.
    statistic : float or ndarray
        ``t = √K·d̄/S`` (``±inf`` when ``S = 0 ≠ d̄``; NaN when every ``d_k`` is 0).
    df : int
        ``K − 1``.
    pvalue : float or ndarray
        Under ``H0: E[d] = 0``, from Student's t with ``K − 1`` degrees of freedom.
    low, high : float or ndarray
        Confidence interval for ``E[d]`` at ``confidence_level`` (one-sided
        intervals are open on one side: ``-inf`` or ``inf``).
    confidence_level : float
    alternative : str
    thresholds_a, thresholds_b : float, ndarray of shape (h,) or None
        The thresholds of the error rates (``measure="error"`` only).
    threshold_a, threshold_b
        rocci 0.2's names of ``thresholds_a`` and ``thresholds_b`` (DeprecationWarning).
    """

    measure: str
    folds: list
    n_pos: np.ndarray
    n_neg: np.ndarray
    value_a: np.ndarray
    value_b: np.ndarray
    delta_value: np.ndarray
    mean: float
    std: float
    se: float
    statistic: float
    df: int
    pvalue: float
    low: float
    high: float
    confidence_level: float
    alternative: str
    thresholds_a: float | np.ndarray | None = None
    thresholds_b: float | np.ndarray | None = None

    _scalar_fields = ("measure", "mean", "std", "statistic", "df", "pvalue", "low", "high", "alternative")
    threshold_a = renamed_attribute("FoldComparison", "threshold_a", "thresholds_a")
    difference = renamed_attribute("FoldComparison", "difference", "delta_value")
    threshold_b = renamed_attribute("FoldComparison", "threshold_b", "thresholds_b")

    def to_frame(self) -> pd.DataFrame:
        """One row per fold: ``fold, n_pos, n_neg, value_a, value_b, delta_value``; for lists of thresholds
        one row per threshold pair and fold, ``threshold_a, threshold_b`` first."""
        # Hand-written: one row per fold, or per (threshold pair, fold) with lists of thresholds.
        if np.ndim(self.value_a) == 1:
            return pd.DataFrame({
                "fold": pd.Series(self.folds, dtype=object), "n_pos": self.n_pos, "n_neg": self.n_neg,
                "value_a": self.value_a, "value_b": self.value_b, "delta_value": self.delta_value,
            })
        h, k = np.shape(self.value_a)
        return pd.DataFrame({
            "threshold_a": np.repeat(self.thresholds_a, k), "threshold_b": np.repeat(self.thresholds_b, k),
            "fold": pd.Series(list(self.folds) * h, dtype=object), "n_pos": np.tile(self.n_pos, h),
            "n_neg": np.tile(self.n_neg, h), "value_a": np.ravel(self.value_a), "value_b": np.ravel(self.value_b),
            "delta_value": np.ravel(self.delta_value),
        })

    def summary_frame(self) -> pd.DataFrame:
        """One row: ``measure, n_folds, mean, std, se, statistic, df, pvalue, low, high,
        confidence_level, alternative``; for lists of thresholds one row per pair, ``threshold_a,
        threshold_b`` first."""
        test = {"measure": self.measure, "n_folds": len(self.folds), "mean": self.mean, "std": self.std,
                "se": self.se, "statistic": self.statistic, "df": self.df, "pvalue": self.pvalue,
                "low": self.low, "high": self.high, "confidence_level": self.confidence_level,
                "alternative": self.alternative}
        if np.ndim(self.mean) == 0:
            return pd.DataFrame([test])
        return pd.DataFrame({"threshold_a": self.thresholds_a, "threshold_b": self.thresholds_b, **test})

    def __repr__(self) -> str:
        if np.ndim(self.mean) == 0:
            return super().__repr__()
        cols = ["threshold_a", "threshold_b", "mean", "low", "high", "statistic", "pvalue"]
        body = self.summary_frame()[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}")
        return (f"FoldComparison(measure={self.measure!r}, folds={len(self.folds)}, df={self.df}, "
                f"alternative={self.alternative!r}; one test per threshold pair)\n{body}")


def _two_folded(y_true, score_a, score_b, folds, pos_label, model_a, model_b) -> tuple[_Folded, _Folded]:
    """Both models' folds: from a scan (``model_a``, ``model_b``), a mapping ``{fold: PairedCounts}``, or rows."""
    from ..data.scan import ScanResult

    if _is_counts(y_true):
        if score_a is not None or score_b is not None or folds is not None:
            hint = (" (name the scan's models with model_a= and model_b=)"
                    if isinstance(score_a, str) or isinstance(score_b, str) else "")
            raise InputError("Pass either the folds' counts alone (a rocci.scan(..., group=) result or "
                             f"{{fold: PairedCounts}}) or y_true with score_a, score_b and folds, not both{hint}.")
        if isinstance(y_true, ScanResult):
            if model_a is None or model_b is None:
                raise InputError(f"Say which two models of the scan to compare: model_a= and model_b= (the models "
                                 f"are {y_true.models}).")
            if model_a == model_b:
                raise InputError(f"model_a and model_b are both {model_a!r}: choose two different models.")
            return _from_scan(y_true, model_a, "model_a"), _from_scan(y_true, model_b, "model_b")
        if model_a is not None or model_b is not None:
            raise InputError("model_a= and model_b= name models of a rocci.scan result; a mapping "
                             "{fold: PairedCounts} holds the two models already: leave them out.")
        for k, p in y_true.items():
            if not isinstance(p, PairedCounts):
                raise InputError(f"Fold {k!r} holds a {type(p).__name__}: comparing two models fold by fold needs "
                                 "each fold's rocci.PairedCounts (the two models on the same instances), e.g. "
                                 "{g: r.paired('a', 'b') for g, r in scan.groups.items()}.")
        fa = _from_mapping({k: p.model(0) for k, p in y_true.items()}, pos_label)
        fb = _from_mapping({k: p.model(1) for k, p in y_true.items()}, pos_label)
        return fa, fb
    _refuse_pooled(y_true)
    if model_a is not None or model_b is not None:
        raise InputError("model_a= and model_b= name models of a rocci.scan result given as the first argument; "
                         "with arrays, give the scores as score_a and score_b.")
    mask, a, labels, codes, pos_label = _prepare(y_true, score_a, folds, pos_label, name="score_a")
    b = check_scores(score_b, name="score_b", n=mask.size)
    return _split(mask, a, labels, codes, pos_label), _split(mask, b, labels, codes, pos_label)


def compare_folds(
    y_true,
    score_a=None,
    score_b=None,
    folds=None,
    *,
    model_a=None,
    model_b=None,
    measure="auc",
    thresholds_a=None,
    thresholds_b=None,
    pos_label=None,
    confidence_level=0.95,
    alternative="two-sided",
    threshold_a=None,
    threshold_b=None,
) -> FoldComparison:
    """Paired t-test over folds (k-fold cross-validated paired t-test).

    Both models are scored on the same instances in the same folds.  In fold
    ``k`` each model gets a value (its AUC, or its error rate at a fixed
    threshold) and ``d_k = value_a,k − value_b,k``.  With

    ``d̄ = (1/K) Σ_k d_k``,  ``S² = Σ_k (d_k − d̄)² / (K − 1)``,

    the statistic ``t = √K·d̄/S`` follows Student's t with ``K − 1`` degrees
    of freedom under ``H0: E[d] = 0`` (Alpaydin; seed 003 §7.2), and the
    confidence interval for ``E[d]`` is ``d̄ ± t_{K−1, (1+level)/2}·S/√K``.
    The same numbers as ``scipy.stats.ttest_rel(value_a, value_b)``.

    Parameters
    ----------
    y_true : array_like of shape (n,), ScanResult or mapping
        The labels (as in :func:`rocci.roc_curve`), or the folds' counts
        alone (``score_a``, ``score_b`` and ``folds`` left out): a
        :func:`rocci.scan` result made with ``group=`` (with ``model_a=``
        and ``model_b=``; the models' own tables per group suffice, no
        ``paired=`` needed), or a mapping ``{fold: PairedCounts}``.
    score_a, score_b : array_like of shape (n,)
        The two models' scores of the same instances (rows only).
    folds : array_like of shape (n,)
        The fold of each instance, the same for both models (rows only).
    model_a, model_b : str, optional
        The two models of a scan (counts only).
    pos_label
        As in :func:`rocci.roc_curve`.
    measure : {"auc", "error"}
        ``"auc"``: each fold's AUC (Mann–Whitney, ties 1/2).  ``"error"``:
        each fold's error rate ``(FN + FP)/n_k`` with ``score >= threshold``
        predicted positive.
    thresholds_a, thresholds_b : float or array_like
        Thresholds of the error rates (``measure="error"``; ``thresholds_b``
        defaults to ``thresholds_a``, and a single value pairs with every
        value of the other): one number, or lists paired element by element,
        one test per pair.
    confidence_level : float, default 0.95
    alternative : {"two-sided", "less", "greater"}
        ``H1: E[d] ≠ 0``, ``E[d] < 0`` or ``E[d] > 0``.

    Returns
    -------
    FoldComparison
        ``to_frame()``: ``fold, n_pos, n_neg, value_a, value_b, delta_value``;
        ``summary_frame()``: the test in one row.  With lists of thresholds,
        one row per threshold pair (and fold), ``threshold_a, threshold_b`` first.

    Other Parameters
    ----------------
    threshold_a, threshold_b : float, optional
        rocci 0.2's names of ``thresholds_a`` and ``thresholds_b`` (DeprecationWarning; goes in 0.4).

    Notes
    -----
    Each fold's AUC and error rate depend on one model's counts only, so a
    scan's per-group tables of each model give the same values as the rows.
    The folds' training sets overlap, so the ``d_k`` are not independent and
    this test is known to be liberal (too many false rejections; Dietterich
    1998, "Approximate statistical tests for comparing supervised
    classification learning algorithms").  Read its p-value as a rough guide.
    With ``S = 0`` the statistic is ``±inf`` (``d̄ ≠ 0``) or NaN (every
    ``d_k = 0``), as in SciPy.

    Examples
    --------
    >>> import rocci
    >>> y, f = [0, 1, 0, 1, 0, 1, 0, 1], [1, 1, 1, 1, 2, 2, 2, 2]
    >>> res = rocci.compare_folds(y, [.1, .9, .2, .8, .3, .7, .6, .4], [.5, .6, .4, .3, .5, .6, .4, .3], f)
    >>> res.value_a.tolist(), res.value_b.tolist(), res.df
    ([1.0, 0.75], [0.5, 0.5], 1)
    """
    thresholds_a = renamed_keyword("compare_folds", "threshold_a", "thresholds_a", threshold_a, thresholds_a)
    thresholds_b = renamed_keyword("compare_folds", "threshold_b", "thresholds_b", threshold_b, thresholds_b)
    level = check_confidence_level(confidence_level)
    check_choice("measure", measure, MEASURES)
    check_choice("alternative", alternative, ALTERNATIVES)
    fa, fb = _two_folded(y_true, score_a, score_b, folds, pos_label, model_a, model_b)
    labels = fa.labels
    if measure != "error":
        va, vb = _values(fa, None), _values(fb, None)
        return FoldComparison(measure=measure, folds=labels, n_pos=fa.n_pos, n_neg=fa.n_neg, value_a=va, value_b=vb,
                              delta_value=va - vb, **_paired_t(va - vb, level, alternative),
                              confidence_level=level, alternative=alternative)
    ta, tb, scalar = _error_thresholds(thresholds_a, thresholds_b)
    va = np.array([_values(fa, float(t)) for t in ta])
    vb = np.array([_values(fb, float(t)) for t in tb])
    tests = [_paired_t(a - b, level, alternative) for a, b in zip(va, vb)]
    if scalar:
        return FoldComparison(measure=measure, folds=labels, n_pos=fa.n_pos, n_neg=fa.n_neg, value_a=va[0],
                              value_b=vb[0], delta_value=va[0] - vb[0], **tests[0], confidence_level=level,
                              alternative=alternative, thresholds_a=float(ta[0]), thresholds_b=float(tb[0]))
    test = {k: (np.array([t[k] for t in tests]) if k != "df" else tests[0][k]) for k in tests[0]}
    return FoldComparison(measure=measure, folds=labels, n_pos=fa.n_pos, n_neg=fa.n_neg, value_a=va, value_b=vb,
                          delta_value=va - vb, **test, confidence_level=level, alternative=alternative,
                          thresholds_a=ta, thresholds_b=tb)


def _error_thresholds(thresholds_a, thresholds_b) -> tuple[np.ndarray, np.ndarray, bool]:
    """The threshold pairs of ``measure="error"`` as two arrays of one length, and whether both were scalars."""
    if thresholds_a is None:
        raise InputError(
            "measure='error' needs thresholds_a (and optionally thresholds_b): the score at or above "
            "which an instance is predicted positive, e.g. 0.5 for probabilities (or a list of them)."
        )
    scalar = np.ndim(thresholds_a) == 0 and (thresholds_b is None or np.ndim(thresholds_b) == 0)

    def values(name, given):
        out = np.array([_threshold_value(name, v) for v in np.ravel(np.asarray(given, dtype=object))])
        if out.size == 0:
            raise InputError(f"{name} is empty: give at least one threshold.")
        return out

    ta = values("thresholds_a", thresholds_a)
    tb = ta.copy() if thresholds_b is None else values("thresholds_b", thresholds_b)
    if ta.size != tb.size:
        if min(ta.size, tb.size) != 1:
            raise InputError(f"thresholds_a has {ta.size} values but thresholds_b has {tb.size}: they are compared "
                             "in pairs, so give as many of each (or a single value for one model).")
        ta, tb = np.broadcast_arrays(ta, tb)
    return np.array(ta, dtype=float), np.array(tb, dtype=float), scalar


def _values(folded: _Folded, t) -> np.ndarray:
    """Each fold's AUC (``t`` None) or error rate at the threshold ``t``."""
    out = np.empty(len(folded.counts))
    for k, c in enumerate(folded.counts):
        if t is None:
            _, tp, fp = c.threshold_counts()
            out[k] = _auc_from_counts(tp, fp, c.n_pos, c.n_neg)
        else:
            fn = c.n_pos - int(c.n_pos_ge(t))
            out[k] = (fn + int(c.n_neg_ge(t))) / (c.n_pos + c.n_neg)
    return out


def _paired_t(d: np.ndarray, level: float, alternative: str) -> dict:
    """The paired t-test of the per-fold differences ``d``: ``mean, std, se, statistic, df, pvalue, low, high``."""
    k = d.size
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    se = sd / np.sqrt(k)
    df = k - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        t = float(np.divide(mean, se)) if se > 0 else (np.nan if mean == 0 else float(np.copysign(np.inf, mean)))
    if np.isnan(t):
        p = np.nan
    elif alternative == "two-sided":
        p = float(2 * stats.t.sf(abs(t), df))
    elif alternative == "less":
        p = float(stats.t.cdf(t, df))
    else:
        p = float(stats.t.sf(t, df))
    if alternative == "two-sided":
        q = float(stats.t.ppf(0.5 + level / 2, df))
        low, high = mean - q * se, mean + q * se
    else:
        q = float(stats.t.ppf(level, df))
        low, high = (-np.inf, mean + q * se) if alternative == "less" else (mean - q * se, np.inf)
    return dict(mean=mean, std=sd, se=float(se), statistic=t, df=int(df), pvalue=p, low=float(low), high=float(high))
