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
standard deviation are in :mod:`rocci.coverage.worlds`.
"""

from __future__ import annotations


import numpy as np
import streamlit as st

import rocci
from rocci import data as rdata
from rocci.coverage.worlds import Worlds, draw_worlds  # noqa: F401  (re-exported for the page)
from rocci.coverage.worlds import worlds_in_bands as _worlds_in_bands

from .. import cache, state

#: The bundled worked example of the thesis (20 positives, 40 negatives).
EXAMPLE = "thesis_example.csv"
EXAMPLE_MODEL = "score"


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


@st.cache_data(max_entries=32, ttl="1h", show_spinner=False)
def confusion_at(key: str, model: str, threshold: float, _y, _s):
    """``rocci.confusion_at`` at one threshold (Wilson, 95%: the Learn page shows counts and rates only)."""
    return rocci.confusion_at(_y, _s, threshold)


@st.cache_data(max_entries=32, ttl="1h", show_spinner=False)
def cost_at(key: str, model: str, w: tuple, thresholds: tuple | None, _y, _s):
    """``rocci.cost_ci`` at the operating points ``w`` (its ``cost`` is the observed cost; Wald, no law kept).

    ``thresholds`` None: the envelope's minimiser at each w.
    """
    result = rocci.cost_ci(_y, _s, w=list(w), thresholds=None if thresholds is None else list(thresholds),
                           method="wald")
    return result


#: Drawn worlds, one entry per (data, model, K, seed, threshold).
WORLDS = cache.ResultStore(max_entries=16)


def bootstrap_worlds(key: str, model: str, k: int, seed: int, threshold: float, _y, _s, *, progress=None) -> Worlds:
    """:func:`rocci.coverage.worlds.draw_worlds`, kept in :data:`WORLDS`; ``progress`` drives a progress bar."""
    store_key = (key, model, int(k), int(seed), float(threshold))
    worlds = WORLDS.get(store_key)
    if worlds is None:
        worlds = draw_worlds(_y, _s, k, seed, threshold, progress=progress)
        WORLDS.put(store_key, worlds)
    return worlds


@st.cache_data(max_entries=8, scope="session", show_spinner="Checking each world against the two bands…")
def worlds_in_bands(key: str, model: str, k: int, seed: int, level: float, _band, _vci, _y, _s) -> dict:
    """:func:`rocci.coverage.worlds.worlds_in_bands` for the page's simultaneous band and pointwise vertical band."""
    return _worlds_in_bands(_y, _s, k, seed, thresholds=_band.thresholds, tp_range=(_band.tp_min, _band.tp_max),
                            fp_range=(_band.fp_min, _band.fp_max), levels=_vci.fpr,
                            tpr_range=(_vci.tpr_low, _vci.tpr_high))
