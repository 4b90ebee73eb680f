"""Cached calls into rocci's threshold-explorer API, for the Threshold explorer page.

Same conventions as :mod:`ui.cache`: a text ``key`` (:func:`ui.state.data_key`,
the digest of the bytes plus the column mapping), the model name and the
options as plain hashable values; the arrays are passed in underscore
arguments, which Streamlit does not hash.  Errors (``rocci.InputError``) are
not cached.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import rocci
import rocci.precision as rprec


def score_summary(_y, _s, quantile: float) -> tuple[float, float, float]:
    """``(lowest score, highest score, the score's quantile at ``quantile``)`` of one model.

    The quantile is NumPy's default (``method="linear"``): between the order statistics ``s_(⌊h⌋)`` and
    ``s_(⌈h⌉)`` (0-based, increasing) at ``h = (n − 1)·quantile``.  From a :class:`rocci.ScoreCounts`
    (``_s`` None) the same numbers come from its table of distinct scores, never expanded: the ``k``-th
    smallest score is the ``(n − k)``-th largest, :meth:`rocci.ScoreCounts.score_at_rank`.
    """
    if isinstance(_y, rocci.ScoreCounts):
        values = _y.table()[0]
        n = _y.n_pos + _y.n_neg
        h = (n - 1) * float(quantile)
        k = np.array([np.floor(h), np.ceil(h)], dtype=np.int64)
        below, above = (float(v) for v in _y.score_at_rank(n - k))
        q = below + (h - k[0]) * (above - below)
        return float(values[0]), float(values[-1]), float(q)
    s = np.asarray(_s, dtype=float)
    return float(s.min()), float(s.max()), float(np.quantile(s, quantile))


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the indicators at every threshold…")
def threshold_table(key: str, model: str, _y, _s):
    """``rocci.threshold_table``: one row per distinct score."""
    return rocci.threshold_table(_y, _s).to_frame()


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the gain chart…")
def gain_curve(key: str, model: str, _y, _s):
    return rocci.gain_curve(_y, _s).to_frame()


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the precision–recall curve…")
def precision_recall_curve(key: str, model: str, _y, _s):
    return rocci.pr_curve(_y, _s, interpolate=False).to_frame()


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the reading-rate curve…")
def reading_curve(key: str, model: str, _y, _s):
    return rocci.reading_curve(_y, _s).to_frame()


@st.cache_data(max_entries=64, ttl="1h", show_spinner=False)
def confusion_at(key: str, model: str, threshold: float, confidence_level: float, method: str, _y, _s):
    """``rocci.confusion_at`` at one threshold."""
    return rocci.confusion_at(_y, _s, threshold, confidence_level=confidence_level, method=method)


@st.cache_data(max_entries=64, ttl="1h", show_spinner=False)
def chosen_threshold(key: str, model: str, by: str, value: float | None, _y, _s) -> float:
    """The threshold chosen by total positive rate ("rate": ``value`` is the rate), Youden's index
    ("youden") or lowest normalised cost ("cost": ``value`` is the operating point w)."""
    if by == "rate":
        return rocci.rate_threshold(_y, _s, value)
    if by == "youden":
        return rocci.youden_threshold(_y, _s)
    if by == "cost":
        return rocci.cost_threshold(_y, _s, w=value)
    raise ValueError(f"unknown choice {by!r}")


#: Indicators of the explorer's table, in order: (row name, metric of rocci.precision.metric_ci, complement).
#: A complement row is one minus its metric (error rate = 1 − accuracy, FPR = 1 − specificity): its exact
#: law is the mirror image, so its interval is [1 − high, 1 − low].
EXACT_INDICATORS = (
    ("accuracy", "accuracy", False),
    ("error_rate", "accuracy", True),
    ("precision", "precision", False),
    ("recall", "recall", False),
    ("specificity", "specificity", False),
    ("fpr", "specificity", True),
    ("npv", "npv", False),
    ("f1", "f1", False),
    ("mcc", "mcc", False),
)


@st.cache_data(max_entries=64, scope="session", show_spinner=False)
def exact_indicators(key: str, model: str, threshold: float, confidence_level: float, method: str, _y, _s):
    """The indicators at one threshold with intervals from their exact stratified bootstrap laws
    (:func:`rocci.precision.metric_ci`, ``method`` "percentile" or "wald").

    Returns a DataFrame with one row per :data:`EXACT_INDICATORS` entry: ``indicator, value, low, high,
    mean, std, p_undefined, law`` (``p_undefined``: the exact probability that a resample leaves the
    indicator undefined; the interval is given that it is defined).
    """
    rows = []
    results = {}
    for name, metric, complement in EXACT_INDICATORS:
        if metric not in results:
            results[metric] = rprec.metric_ci(_y, _s, metric=metric, thresholds=[threshold],
                                              confidence_level=confidence_level, method=method)
        r = results[metric]
        v, lo, hi, mean = float(r.value[0]), float(r.low[0]), float(r.high[0]), float(r.mean[0])
        if complement:
            v, lo, hi, mean = 1 - v, 1 - hi, 1 - lo, 1 - mean
        law = ("stratified exact bootstrap: TP* ~ Bin(n+, TP/n+), FP* ~ Bin(n−, FP/n−) independent"
               + (f"; 1 − {metric}" if complement else ""))
        rows.append({"indicator": name, "value": v, "low": lo, "high": hi, "mean": mean, "std": float(r.std[0]),
                     "p_undefined": float(r.p_undefined[0]), "law": law})
    # The share predicted positive: its count's full-bootstrap law Bin(n, rate) (exact; rocci.confusion_at).
    conf = rocci.confusion_at(_y, _s, threshold, confidence_level=confidence_level, method=method)
    i = conf.indicators.index("total_positive_rate")
    rate = float(conf.value[i])
    rows.append({"indicator": "total_positive_rate", "value": rate, "low": float(conf.low[i]),
                 "high": float(conf.high[i]), "mean": rate, "std": float(np.sqrt(rate * (1 - rate) / conf.n)),
                 "p_undefined": 0.0,
                 "law": "full exact bootstrap: predicted positives* ~ Bin(n, (TP + FP)/n)"})
    return pd.DataFrame(rows)
