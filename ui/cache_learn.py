"""Cached calls for the Learn page: the worked example, and K random bootstrap worlds.

Same conventions as :mod:`ui.cache`: a text ``key`` identifies the data
(here ``"example:" + digest`` for the bundled worked example, or
:func:`ui.state.data_key` for the loaded data) and the options are plain
hashable values; the arrays go in underscore arguments, which Streamlit does
not hash.

:func:`bootstrap_worlds` is the one piece of Monte Carlo in the dashboard: it
draws K ordinary (random, seeded) stratified bootstrap resamples so that the
Learn page can show what the exact bootstrap is the limit of.  Each resample's
ROC curve and its rates at a threshold come from rocci (``roc_curve``,
``threshold_ci``); only the resampling itself and the K-world sample mean and
standard deviation are done here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import rocci
from rocci import data as rdata
from rocci.plots import compact_indices

from . import state

#: The bundled worked example of the thesis (20 positives, 40 negatives).
EXAMPLE = "thesis_example.csv"
EXAMPLE_MODEL = "score"
#: Vertices kept per resampled ROC curve (the drawing stays light for large data).
WORLD_POINTS = 600


@st.cache_data(max_entries=2, show_spinner=False)
def _example(digest: str, _raw: bytes):
    df = rocci.load_table(_raw, filename=EXAMPLE)
    prep = rdata.prepare_binary(df, label="label", scores=[EXAMPLE_MODEL], pos_label=1)
    return np.asarray(prep.is_positive, dtype=bool), np.asarray(prep.scores[EXAMPLE_MODEL], dtype=float)


def example() -> tuple[str, np.ndarray, np.ndarray]:
    """``(key, is_positive, scores)`` of the bundled worked example (data/thesis_example.csv)."""
    raw = (state.DATA_DIR / EXAMPLE).read_bytes()
    digest = state.digest_bytes(raw)
    y, s = _example(digest, raw)
    return "example:" + digest, y, s


@st.cache_data(max_entries=32, show_spinner=False)
def confusion_at(key: str, model: str, threshold: float, _y, _s):
    """``rocci.confusion_at`` at one threshold (Wilson, 95%: the Learn page shows counts and rates only)."""
    return rocci.confusion_at(_y, _s, threshold)


@st.cache_data(max_entries=32, show_spinner=False)
def cost_at(key: str, model: str, w: tuple, thresholds: tuple | None, _y, _s):
    """``rocci.cost_ci`` at the operating points ``w`` (its ``cost`` is the observed cost; Wald, no law kept).

    ``thresholds`` None: the envelope's minimiser at each w.
    """
    from .cache import _picklable

    result = rocci.cost_ci(_y, _s, w=list(w), thresholds=None if thresholds is None else list(thresholds),
                           method="wald")
    return _picklable(result)


@dataclass(frozen=True)
class Worlds:
    """K seeded stratified bootstrap resamples ("worlds") of one dataset.

    Attributes
    ----------
    k, seed : int
    curves : list of (fpr, tpr)
        Each world's ROC curve (rocci.roc_curve on the resample), vertices
        thinned by :func:`rocci.plots.compact_indices` for drawing.
    threshold : float
        The threshold held fixed across the worlds.
    fpr, tpr : ndarray of shape (k,)
        Each world's rates at ``threshold`` (rocci.threshold_ci on the resample).
    tpr_mean, tpr_sd, fpr_mean, fpr_sd : float
        Sample mean and standard deviation (ddof = 1) of those K values.
    """

    k: int
    seed: int
    curves: list
    threshold: float
    fpr: np.ndarray
    tpr: np.ndarray
    tpr_mean: float
    tpr_sd: float
    fpr_mean: float
    fpr_sd: float


def draw_worlds(y: np.ndarray, s: np.ndarray, k: int, seed: int, threshold: float,
                max_points: int = WORLD_POINTS) -> Worlds:
    """Draw ``k`` stratified bootstrap resamples with ``numpy.random.default_rng(seed)``.

    Each world draws ``n+`` positives and ``n−`` negatives with replacement (the
    stratified bootstrap that :func:`rocci.threshold_ci` and
    :func:`rocci.vertical_ci` work out exactly, with ``m± = n±``).
    """
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    pos, neg = s[y], s[~y]
    rng = np.random.default_rng(int(seed))
    labels = np.concatenate([np.ones(pos.size, bool), np.zeros(neg.size, bool)])
    curves, fprs, tprs = [], [], []
    for _ in range(int(k)):
        draw = np.concatenate([rng.choice(pos, size=pos.size, replace=True),
                               rng.choice(neg, size=neg.size, replace=True)])
        curve = rocci.roc_curve(labels, draw)
        idx = compact_indices(curve.fpr, curve.tpr, max_points=max_points)
        curves.append((np.asarray(curve.fpr)[idx], np.asarray(curve.tpr)[idx]))
        at = rocci.threshold_ci(labels, draw, thresholds=[float(threshold)])
        fprs.append(float(at.fpr[0]))
        tprs.append(float(at.tpr[0]))
    fpr = np.asarray(fprs)
    tpr = np.asarray(tprs)
    ddof = 1 if k > 1 else 0
    return Worlds(k=int(k), seed=int(seed), curves=curves, threshold=float(threshold), fpr=fpr, tpr=tpr,
                  tpr_mean=float(tpr.mean()), tpr_sd=float(tpr.std(ddof=ddof)),
                  fpr_mean=float(fpr.mean()), fpr_sd=float(fpr.std(ddof=ddof)))


@st.cache_data(max_entries=16, show_spinner="Drawing bootstrap worlds…")
def bootstrap_worlds(key: str, model: str, k: int, seed: int, threshold: float, _y, _s) -> Worlds:
    """:func:`draw_worlds`, cached on the data key and the options."""
    return draw_worlds(_y, _s, k, seed, threshold)
