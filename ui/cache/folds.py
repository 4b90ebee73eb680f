"""Cached calls into rocci's folds and several-class API, for the Folds & classes page.

Same conventions as :mod:`ui.cache`: a text ``key`` identifies the data
(:func:`ui.state.data_key` for the binary mapping, :func:`multiclass_key`
for the class column and score columns) and the options are plain hashable
values; the arrays are passed in underscore arguments, which Streamlit does
not hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci

from .. import cache


@st.cache_data(max_entries=8, scope="session", show_spinner="Computing one ROC curve per fold…")
def fold_roc_curves(key: str, model: str, _y, _s, _f):
    return rocci.fold_roc_curves(_y, _s, _f)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Averaging the folds' curves vertically…")
def fold_vertical_average(key: str, model: str, fpr: tuple | None, confidence_level: float, spread: str, _y, _s, _f):
    return rocci.fold_vertical_average(_y, _s, _f, fpr=None if fpr is None else list(fpr),
                                       confidence_level=confidence_level, spread=spread)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Averaging the folds' curves at fixed thresholds…")
def fold_threshold_average(key: str, model: str, n_thresholds: int, confidence_level: float, spread: str, _y, _s, _f):
    return rocci.fold_threshold_average(_y, _s, _f, n_thresholds=n_thresholds,
                                        confidence_level=confidence_level, spread=spread)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Running the paired t-test over folds…")
def compare_folds(key: str, model_a: str, model_b: str, measure: str, threshold_a: float | None,
                  threshold_b: float | None, confidence_level: float, _y, _a, _b, _f):
    return rocci.compare_folds(_y, _a, _b, _f, measure=measure, thresholds_a=threshold_a, thresholds_b=threshold_b,
                               confidence_level=confidence_level)


# --- the folds' counts of the Large-data source -------------------------------


@st.cache_data(max_entries=8, scope="session", show_spinner="Computing one ROC curve per fold from the counts…")
def fold_roc_curves_counts(key: str, model: str, _scan):
    """:func:`rocci.fold_roc_curves` on a scan's groups (``key``: the scan's analysis key)."""
    return rocci.fold_roc_curves(_scan, model=model)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Averaging the folds' curves vertically…")
def fold_vertical_average_counts(key: str, model: str, fpr: tuple | None, confidence_level: float, spread: str,
                                 _scan):
    return rocci.fold_vertical_average(_scan, model=model, fpr=None if fpr is None else list(fpr),
                                       confidence_level=confidence_level, spread=spread)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Averaging the folds' curves at fixed thresholds…")
def fold_threshold_average_counts(key: str, model: str, n_thresholds: int, confidence_level: float, spread: str,
                                  _scan):
    return rocci.fold_threshold_average(_scan, model=model, n_thresholds=n_thresholds,
                                        confidence_level=confidence_level, spread=spread)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Running the paired t-test over folds…")
def compare_folds_counts(key: str, model_a: str, model_b: str, measure: str, threshold_a: float | None,
                         threshold_b: float | None, confidence_level: float, _scan):
    return rocci.compare_folds(_scan, model_a=model_a, model_b=model_b, measure=measure, thresholds_a=threshold_a,
                               thresholds_b=threshold_b, confidence_level=confidence_level)


#: Folds listed by name in :func:`fold_sizes_text` (the rest are counted).
LISTED_FOLDS = 20


def fold_sizes_text(prepared) -> str:
    """Markdown: the fold column of a Large-data scan, its folds with their sizes, and the rows dropped for a
    missing fold (``prepared``: a :class:`ui.cache.large.CountsPrepared` with a ``fold_column``)."""
    from ..text import label_text, md_escape

    sizes = prepared.group_sizes
    order = sorted(sizes, key=lambda g: (not isinstance(g, (int, float)), g if isinstance(g, (int, float)) else str(g)))
    parts = []
    for g in order[:LISTED_FOLDS]:
        n_pos, n_neg = sizes[g]
        note = " — one class only" if n_pos == 0 or n_neg == 0 else ""
        parts.append(f"{md_escape(label_text(g))}: {n_pos + n_neg:,} rows ({n_pos:,} positive{note})")
    more = f" · and {len(order) - LISTED_FOLDS} more" if len(order) > LISTED_FOLDS else ""
    text = (f"Fold column **{md_escape(prepared.fold_column)}**: {len(order)} fold{'s' if len(order) != 1 else ''}"
            + (" — " + " · ".join(parts) + more if parts else "") + ".")
    dropped = prepared.n_dropped_group
    if dropped:
        text += (f" **{dropped:,} row{'s' if dropped != 1 else ''} with no fold value dropped** (counted in "
                 "*Rows dropped*).")
    return text


# --- several classes ---------------------------------------------------------


@dataclass(frozen=True)
class Multiclass:
    """A class column with its score columns, read from the loaded table."""

    key: str
    label: str
    classes: tuple
    columns: tuple  # the score column of each class, same order
    y: np.ndarray
    scores: np.ndarray  # (n, K)
    n_rows_in: int
    n_dropped: int


def multiclass_key(digest: str, label, classes: tuple, columns: tuple) -> str:
    text = repr((digest, label, classes, columns))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@st.cache_data(max_entries=2, scope="session", show_spinner="Reading the class and score columns…")
def multiclass_data(key: str, digest: str, filename: str, label, classes: tuple, columns: tuple, _raw: bytes) -> Multiclass:
    """Rows with a class and every score column present; scores as floats.

    Raises ``rocci.InputError`` when a score column holds text that is not a number.
    """
    df = cache._load_table(digest, filename, _raw)
    used = [label, *columns]
    keep = ~df[used].isna().any(axis=1).to_numpy()
    rows = df.loc[keep]
    mats = []
    for c in columns:
        values = pd.to_numeric(rows[c], errors="coerce")
        bad = rows[c][values.isna()]
        if len(bad):
            raise rocci.InputError(
                f"Score column {c!r} holds text that is not a number ({', '.join(repr(v) for v in pd.unique(bad)[:5])}). "
                "Choose the column of scores of that class."
            )
        mats.append(values.to_numpy(dtype=float))
    return Multiclass(
        key=key, label=label, classes=tuple(classes), columns=tuple(columns), y=rows[label].to_numpy(),
        scores=np.column_stack(mats) if mats else np.zeros((len(rows), 0)), n_rows_in=len(df),
        n_dropped=int((~keep).sum()),
    )


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the one-vs-rest curves and their exact bootstrap intervals…")
def one_vs_rest(key: str, confidence_level: float, auc_method: str, fpr: tuple, _y, _S, classes: tuple):
    res = rocci.one_vs_rest(_y, _S, classes=list(classes), confidence_level=confidence_level, auc_method=auc_method,
                            fpr=list(fpr), vertical_method="percentile")  # the page's bands are percentile bands
    if res.vertical:
        res.vertical = [cache._picklable(v) for v in res.vertical]
    return res


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the correct-vs-top-score curve…")
def top_score_curve(key: str, _y, _S, classes: tuple):
    return rocci.top_score_curve(_y, _S, classes=list(classes))

