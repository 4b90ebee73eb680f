"""Cached calls into :mod:`rocci.precision`, for the Precision–recall page.

Same conventions as :mod:`ui.cache`: a text ``key`` (:func:`ui.state.data_key`, the digest of the bytes
plus the column mapping), the model names and the options as plain hashable values; the arrays are
passed in underscore arguments, which Streamlit does not hash.  Errors (``rocci.InputError``) are not
cached.  Every entry is kept per session (``scope="session"``) and bounded by ``max_entries``.

The results are cached without their exact laws (``_laws``, and what ``confidence_interval()`` would rebuild
them from: ``_relevel``, ``_vertical``), which the page neither draws nor moves to another level;
``to_frame()`` and every interval are kept.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

import rocci
import rocci.precision as rprec
from rocci.precision.curve import pr_curve as _pr_curve


def _lean(result):
    """``result`` without its stored laws (``distribution()`` and ``confidence_interval()`` are not offered on
    the page)."""
    if not dataclasses.is_dataclass(result):
        return result
    kept = {f.name for f in dataclasses.fields(result)} & {"_laws", "_relevel", "_vertical"}
    return dataclasses.replace(result, **{name: [] if name == "_laws" else None for name in kept}) if kept else result


#: Rows of a precision–recall curve from a table of counts: Davis and Goadrich's interpolation adds a point
#: per positive (10⁸ rows for 10⁸ positives), so from counts every ROC point is kept and the interpolated
#: points are thinned, evenly in TP, to this many rows in all (``pr_curve(max_points=...)``).
CURVE_MAX_POINTS = 200_000


@st.cache_data(max_entries=8, scope="session", show_spinner="Computing the precision–recall curve…")
def pr_curve(key: str, model: str, _y, _s):
    """:func:`rocci.precision.curve.pr_curve` (Davis and Goadrich's interpolation); ``attrs["baseline"]``
    is the positive share.  From a :class:`rocci.ScoreCounts`, at most :data:`CURVE_MAX_POINTS` rows."""
    if isinstance(_y, rocci.ScoreCounts):
        return _pr_curve(_y, _s, max_points=CURVE_MAX_POINTS).to_frame()
    return _pr_curve(_y, _s).to_frame()


@st.cache_data(max_entries=8, scope="session", show_spinner=False)
def threshold_for_recall(key: str, model: str, recall: float, _y, _s) -> float:
    """The highest threshold whose recall on the data reaches ``recall`` (the first row of
    :func:`rocci.pr_curve` with ``recall >= recall``): fewest instances flagged for it."""
    curve = rocci.pr_curve(_y, _s, interpolate=False).to_frame()
    reached = np.flatnonzero(np.asarray(curve["recall"], float) >= recall - 1e-12)
    return float(curve["threshold"].iloc[int(reached[0])]) if reached.size else float(curve["threshold"].iloc[-1])


@st.cache_data(max_entries=16, scope="session", show_spinner="Computing exact intervals at the recall levels…")
def precision_at_recall(key: str, model: str, recall: tuple, confidence_level: float, method: str, _y, _s):
    """:func:`rocci.precision.precision_ci` at recall levels (stratified exact bootstrap)."""
    return _lean(rprec.precision_ci(_y, _s, recall=list(recall), confidence_level=confidence_level,
                                    method=method))


@st.cache_data(max_entries=64, scope="session", show_spinner=False)
def metric_at(key: str, model: str, metric: str, thresholds: tuple, confidence_level: float, method: str,
              _y, _s):
    """:func:`rocci.precision.metric_ci` of one metric at the given thresholds (stratified exact bootstrap)."""
    return _lean(rprec.metric_ci(_y, _s, metric=metric, thresholds=list(thresholds),
                                 confidence_level=confidence_level, method=method))


@st.cache_data(max_entries=16, scope="session", show_spinner=False)
def compare_at_recall(key: str, model_a: str, model_b: str, recall: float, confidence_level: float, method: str,
                      _y, _sa, _sb):
    """:func:`rocci.precision.compare_precision` at one recall level: precision of A − precision of B, both
    thresholds taken from the same bootstrap sample of positives."""
    return _lean(rprec.compare_precision(_y, _sa, _sb, recall=[recall], metric="precision",
                                         confidence_level=confidence_level, method=method))


@st.cache_data(max_entries=32, scope="session", show_spinner=False)
def recall_cells(key: str, model_a: str, model_b: str, recall: float, _y, _sa, _sb) -> int:
    """:func:`rocci.precision.recall_grid_cells` at one recall level: what the exact law of Δprecision costs."""
    return int(rprec.recall_grid_cells(_y, _sa, _sb, recall=[recall])[0])


@st.cache_data(max_entries=16, scope="session", show_spinner=False)
def compare_fpr_at_recall(key: str, model_a: str, model_b: str, recall: float, confidence_level: float,
                          method: str, _y, _sa, _sb):
    """:func:`rocci.precision.compare_fpr_at_recall` at one recall level: FPR of A − FPR of B, both thresholds
    from the same bootstrap sample of positives (P(A better) is the precision's, at any size)."""
    return _lean(rprec.compare_fpr_at_recall(_y, _sa, _sb, recall=[recall], confidence_level=confidence_level,
                                             method=method))


@st.cache_data(max_entries=16, scope="session", show_spinner="Drawing bootstrap resamples for the average precision "
                                                              "(Monte Carlo)…")
def average_precision(key: str, model: str, confidence_level: float, n_boot: int, seed: int, _y, _s):
    """:func:`rocci.average_precision`: a seeded Monte Carlo bootstrap (its exact law is not derived)."""
    return rocci.average_precision(_y, _s, confidence_level=confidence_level, n_boot=n_boot, seed=seed)


@st.cache_data(max_entries=8, scope="session", show_spinner="Computing the gain curve…")
def gain_curve(key: str, model: str, _y, _s):
    """:func:`rocci.gain_curve`: depth (share targeted), gain (recall) and lift at every threshold."""
    return rocci.gain_curve(_y, _s).to_frame()


@st.cache_data(max_entries=16, scope="session", show_spinner="Computing exact intervals for the gain and the lift…")
def gain_intervals(key: str, model: str, depths: tuple, at: str, confidence_level: float, method: str, _y, _s):
    """:func:`rocci.gain_ci` at the given depths: ``at="depth"`` holds the depth fixed (the top share of each
    resample); ``at="threshold"`` holds fixed the threshold reaching each depth on the data (the
    ``⌈depth·n⌉``-th largest score, duplicates merged)."""
    if at == "depth":
        return _lean(rprec.gain_ci(_y, _s, total_positive_rate=list(depths), confidence_level=confidence_level,
                                   method=method))
    from rocci.roc.threshold import thresholds_for_total_positive_rate

    counts = _y if isinstance(_y, rocci.ScoreCounts) else rocci.ScoreCounts.from_arrays(_y, _s)
    t = np.unique(thresholds_for_total_positive_rate(counts, np.asarray(depths, float)))[::-1]
    return _lean(rprec.gain_ci(counts, thresholds=t, confidence_level=confidence_level, method=method))
