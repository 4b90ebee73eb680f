"""The confusion-matrix metrics as functions of bootstrap counts, with their undefined events."""

from __future__ import annotations

import numpy as np

from .._core.inputs import InputError, check_choice, format_value

#: Metrics of :func:`rocci.precision.metric_ci`.
METRICS = ("precision", "recall", "specificity", "npv", "f1", "fbeta", "mcc", "accuracy",
           "balanced_accuracy", "youden", "lift")

#: When each metric is undefined (its denominator is 0); the law is then taken given that it is defined.
UNDEFINED = {
    "precision": "TP + FP = 0 (nothing predicted positive)",
    "recall": "TP + FN = 0 (no positive in the sample)",
    "specificity": "TN + FP = 0 (no negative in the sample)",
    "npv": "TN + FN = 0 (nothing predicted negative)",
    "f1": "TP + FP + FN = 0",
    "fbeta": "TP + FP + FN = 0",
    "mcc": "one of TP + FP, TP + FN, TN + FP, TN + FN is 0",
    "accuracy": "never",
    "balanced_accuracy": "TP + FN = 0 or TN + FP = 0",
    "youden": "TP + FN = 0 or TN + FP = 0",
    "lift": "TP + FP = 0 or TP + FN = 0",
}

#: Metrics whose value is one division of exact integers (equal fractions give equal floats).
_EXACT_DIVISION = {"precision", "recall", "specificity", "npv", "f1", "accuracy", "balanced_accuracy",
                   "youden", "lift"}


def check_metric(metric, beta) -> tuple[str, float]:
    metric = check_choice("metric", metric, METRICS)
    try:
        b = float(beta)
    except (TypeError, ValueError):
        raise InputError(f"beta ({format_value(beta)}) must be a positive number, e.g. beta=2.") from None
    if not np.isfinite(b) or b <= 0:
        raise InputError(f"beta ({format_value(beta)}) must be a positive finite number, e.g. beta=2.")
    return metric, b * b


def merge_rtol(metric: str, beta2: float) -> float:
    from ._laws import MERGE_RTOL

    if metric in _EXACT_DIVISION or (metric == "fbeta" and beta2 == 1.0):
        return 0.0
    return MERGE_RTOL


def metric_value(metric: str, tp, fp, fn, tn, beta2: float = 1.0) -> np.ndarray:
    """The metric at counts ``(TP, FP, FN, TN)`` (arrays of whole numbers); NaN where undefined.

    ``precision = TP/(TP + FP)``, ``recall = TP/(TP + FN)``, ``specificity = TN/(TN + FP)``,
    ``npv = TN/(TN + FN)``, ``F1 = 2TP/(2TP + FP + FN)``,
    ``Fβ = (1 + β²)TP/((1 + β²)TP + β²FN + FP)``,
    ``MCC = (TP·TN − FP·FN)/sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN))``,
    ``accuracy = (TP + TN)/total``, ``balanced accuracy = (TPR + TNR)/2``,
    ``Youden's J = TPR − FPR``, ``lift = precision/(positive share) = TP·total/((TP + FP)(TP + FN))``.
    Each is formed as one division of exact integers where it can be.
    """
    tp, fp, fn, tn = (np.asarray(v, dtype=np.float64) for v in (tp, fp, fn, tn))
    pp, p, n, pn = tp + fp, tp + fn, tn + fp, tn + fn
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric == "precision":
            num, den = tp, pp
        elif metric == "recall":
            num, den = tp, p
        elif metric == "specificity":
            num, den = tn, n
        elif metric == "npv":
            num, den = tn, pn
        elif metric == "f1" or (metric == "fbeta" and beta2 == 1.0):
            num, den = 2 * tp, 2 * tp + fp + fn
        elif metric == "fbeta":
            num, den = (1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp
        elif metric == "mcc":
            num = tp * tn - fp * fn
            prod = pp * p * n * pn
            den = np.where(prod > 0, np.sqrt(pp * p) * np.sqrt(n * pn), 0.0)
        elif metric == "accuracy":
            num, den = tp + tn, p + n
        elif metric == "balanced_accuracy":
            num, den = tp * n + tn * p, 2 * p * n
        elif metric == "youden":
            num, den = tp * n - fp * p, p * n
        elif metric == "lift":
            num, den = tp * (p + n), pp * p
        else:  # pragma: no cover - checked by callers
            raise ValueError(metric)
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def stratified_value(metric: str, tp, fp, m_pos: int, m_neg: int, beta2: float = 1.0) -> np.ndarray:
    """The metric of a stratified sample with ``TP``, ``FP`` (``FN = m+ − TP``, ``TN = m− − FP``)."""
    tp, fp = np.asarray(tp, np.float64), np.asarray(fp, np.float64)
    return metric_value(metric, tp, fp, m_pos - tp, m_neg - fp, beta2)


def defined_stratified_value(metric: str, tp, fp, m_pos: int, m_neg: int, beta2: float = 1.0) -> np.ndarray:
    """:func:`stratified_value` at cells where the metric is defined (every denominator > 0), with the same
    floating-point operations in the same order (so the same floats), without the masks for undefined
    cells: the inner loop of the quantile searches."""
    tp, fp = np.asarray(tp, np.float64), np.asarray(fp, np.float64)
    fn, tn = m_pos - tp, m_neg - fp
    if metric == "precision":
        return tp / (tp + fp)
    if metric == "recall":
        return tp / (tp + fn)
    if metric == "specificity":
        return tn / (tn + fp)
    if metric == "npv":
        return tn / (tn + fn)
    if metric == "f1" or (metric == "fbeta" and beta2 == 1.0):
        return 2 * tp / (2 * tp + fp + fn)
    if metric == "fbeta":
        return (1 + beta2) * tp / ((1 + beta2) * tp + beta2 * fn + fp)
    if metric == "mcc":
        return (tp * tn - fp * fn) / (np.sqrt((tp + fp) * (tp + fn)) * np.sqrt((tn + fp) * (tn + fn)))
    if metric == "accuracy":
        return (tp + tn) / ((tp + fn) + (tn + fp))
    p, n = tp + fn, tn + fp
    if metric == "balanced_accuracy":
        return (tp * n + tn * p) / (2 * p * n)
    if metric == "youden":
        return (tp * n - fp * p) / (p * n)
    if metric == "lift":
        return tp * (p + n) / ((tp + fp) * p)
    raise ValueError(metric)  # pragma: no cover - checked by callers
