"""Cached calls into rocci's paired-comparison API, for the Compare models page.

Same conventions as :mod:`ui.cache`: a text ``key`` (:func:`ui.state.data_key`,
the digest of the bytes plus the column mapping), the model names and the
options as plain hashable values; the arrays are passed in underscore
arguments, which Streamlit does not hash.  Results that hold closures go
through :func:`ui.cache._picklable` so they can be cached.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import rocci
from rocci.roc.vertical import fpr_levels

from . import ResultStore, _picklable

#: Number of quantiles of each model's scores on the dominance map's axes.
GRID_SIZE = 40


def quantile_grid(scores, size: int = GRID_SIZE) -> tuple:
    """The distinct values among ``size`` evenly spaced quantiles of ``scores`` (the map's axis).

    ``scores``: the scores, or a :class:`rocci.ScoreCounts` (the same quantiles, ``inverted_cdf``, read
    off its cumulative counts without expanding it)."""
    if isinstance(scores, rocci.ScoreCounts):
        n = scores.n_pos + scores.n_neg
        position = np.maximum(np.ceil(np.linspace(0.0, 1.0, size) * n).astype(np.int64), 1)  # 1-based, increasing
        return tuple(float(v) for v in np.unique(scores.score_at_rank(n - position + 1)))
    s = np.asarray(scores, dtype=float)
    s = s[np.isfinite(s)]
    if s.size == 0:
        return ()
    return tuple(float(v) for v in np.unique(np.quantile(s, np.linspace(0.0, 1.0, size), method="inverted_cdf")))


@st.cache_data(max_entries=64, ttl="1h", show_spinner="Comparing the two models at the chosen thresholds (exact bootstrap)…")
def compare_thresholds(key: str, model_a: str, model_b: str, thresholds_a: tuple | None, thresholds_b: tuple | None,
                       total_positive_rate: tuple | None, confidence_level: float, region: str, m, _y, _a, _b):
    """``rocci.compare_thresholds`` (differences a − b) at threshold pairs or equal total-positive rates."""
    result = rocci.compare_thresholds(
        _y, _a, _b,
        thresholds_a=None if thresholds_a is None else list(thresholds_a),
        thresholds_b=None if thresholds_b is None else list(thresholds_b),
        total_positive_rate=None if total_positive_rate is None else list(total_positive_rate),
        confidence_level=confidence_level, region=region, m=None if m is None else list(m),
    )
    return _picklable(result)


@st.cache_data(max_entries=16, ttl="1h", show_spinner="Computing the dominance map (exact bootstrap)…")
def dominance_map(key: str, model_a: str, model_b: str, size: int, m, _y, _a, _b):
    """``rocci.dominance_map`` over the quantile grids of both models' scores."""
    axes = (_y.model(0), _y.model(1)) if isinstance(_y, rocci.PairedCounts) else (_a, _b)
    result = rocci.dominance_map(
        _y, _a, _b,
        thresholds_a=list(quantile_grid(axes[0], size)), thresholds_b=list(quantile_grid(axes[1], size)),
        m=None if m is None else list(m),
    )
    return _picklable(result)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Comparing the AUCs (DeLong)…")
def compare_auc(key: str, model_a: str, model_b: str, confidence_level: float, _y, _a, _b):
    return _picklable(rocci.compare_auc(_y, _a, _b, confidence_level=confidence_level))


@st.cache_data(max_entries=32, ttl="1h", show_spinner="McNemar's test…")
def mcnemar(key: str, model_a: str, model_b: str, threshold_a: float, threshold_b: float, correction: bool,
            _y, _a, _b):
    return _picklable(rocci.mcnemar(_y, _a, _b, thresholds_a=threshold_a, thresholds_b=threshold_b,
                                    correction=correction))


#: One paired vertical level per entry (progress bars cannot run inside st.cache_data).
VERTICAL_LEVELS = ResultStore()


def vertical_level_key(key: str, model_a: str, model_b: str, r: int, confidence_level: float, m) -> tuple:
    """The store key of one paired vertical level ``r / m−``."""
    return (key, model_a, model_b, int(r), float(confidence_level), None if m is None else tuple(m))


def compare_vertical_levels(key: str, model_a: str, model_b: str, fpr: tuple, confidence_level: float, m,
                            _y, _a, _b, *, progress=None) -> list:
    """``rocci.compare_vertical`` one level at a time, each kept in :data:`VERTICAL_LEVELS`.

    Returns one single-level :class:`rocci.VerticalComparison` per distinct
    level ``r / m−`` (in increasing order of r).  ``progress(fraction, message)``
    is called as the work advances, over all the levels still to compute.
    """
    n_neg = int(_y.n_neg.sum()) if isinstance(_y, rocci.PairedCounts) else int(np.sum(~np.asarray(_y, dtype=bool)))
    m_neg = n_neg if m is None else int(m[1])
    levels = sorted(set(int(r) for r in fpr_levels(list(fpr), m_neg)))
    todo = [r for r in levels
            if VERTICAL_LEVELS.get(vertical_level_key(key, model_a, model_b, r, confidence_level, m)) is None]
    for i, r in enumerate(todo):
        def tick(fraction, message, i=i):
            if progress is not None:
                progress((i + float(fraction)) / len(todo), f"Level {i + 1} of {len(todo)} (FPR {r}/{m_neg}): {message}")
        result = rocci.compare_vertical(_y, _a, _b, fpr=[r / m_neg], confidence_level=confidence_level,
                                        m=None if m is None else list(m), progress=tick)
        VERTICAL_LEVELS.put(vertical_level_key(key, model_a, model_b, r, confidence_level, m), result)
    if progress is not None and todo:
        progress(1.0, "Done")
    return [VERTICAL_LEVELS.get(vertical_level_key(key, model_a, model_b, r, confidence_level, m)) for r in levels]


#: Resamples behind the leaderboard's P(best TPR) (standard error at most 0.016, shown beside it).
LEADERBOARD_BOOT = 1000


@st.cache_data(max_entries=8, ttl="1h", show_spinner="Comparing every model (DeLong; P(best TPR) by 1,000 "
               "seeded resamples)…")
def compare_many(key: str, models: tuple, confidence_level: float, adjust: str, fpr: float, _y, _scores: dict):
    """``rocci.compare_many`` of the models (on the same instances), its seeded draws included; at ``fpr``
    each model's TPR and P(best TPR), without the k(k − 1)/2 exact paired laws (the verdict has its pair's)."""
    return rocci.compare_many(_y, {m: _scores[m] for m in models}, confidence_level=confidence_level, adjust=adjust,
                              fpr=fpr, fpr_pairs=False, n_boot=LEADERBOARD_BOOT)


@st.cache_data(max_entries=16, ttl="1h", show_spinner="Comparing the two test sets (DeLong, unpaired)…")
def compare_auc_unpaired(key: str, split: tuple, confidence_level: float, _ya, _sa, _yb, _sb):
    """``rocci.compare_auc_unpaired``; ``split`` = (column, set A, set B, model A, model B) names the data."""
    return rocci.compare_auc_unpaired(_ya, _sa, _yb, _sb, confidence_level=confidence_level)


@st.cache_data(max_entries=16, ttl="1h", show_spinner="Comparing the costs (exact, unpaired)…")
def compare_cost_unpaired(key: str, split: tuple, w: float, confidence_level: float, _ya, _sa, _yb, _sb):
    """``rocci.compare_cost_unpaired`` at one operating point, each model at its cheapest threshold on its own
    test set (Agresti–Caffo interval, the exact law's P(A cheaper))."""
    return rocci.compare_cost_unpaired(_ya, _sa, _yb, _sb, w=[w], confidence_level=confidence_level)


@st.cache_data(max_entries=16, ttl="1h", show_spinner="Comparing the two test sets (exact bootstrap, unpaired)…")
def compare_vertical_unpaired(key: str, split: tuple, fpr: float, confidence_level: float, _ya, _sa, _yb, _sb):
    """``rocci.compare_vertical_unpaired`` at one FPR: the convolution of the two sets' exact TPR laws."""
    return _picklable(rocci.compare_vertical_unpaired(_ya, _sa, _yb, _sb, fpr=[fpr],
                                                      confidence_level=confidence_level))
