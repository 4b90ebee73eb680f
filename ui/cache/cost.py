"""Cached calls into rocci's cost-curve API, for the Cost curves page.

Same conventions as :mod:`ui.cache`: a text ``key`` (:func:`ui.state.data_key`,
the digest of the bytes plus the column mapping) and the options as plain
hashable values; the arrays are passed in underscore arguments, which
Streamlit does not hash.  rocci's cost results hold numbers only (their
exact laws are recomputed on demand from the stored counts), so they are
cached as they are.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import rocci

#: Operating points of the interval band and the comparison (101 values).
W_GRID = tuple(round(float(v), 10) for v in np.linspace(0.0, 1.0, 101))  # 0.3, not 0.30000000000000004


@st.cache_data(max_entries=12, scope="session", show_spinner="Computing the cost curve…")
def _cost_curve(key: str, model: str, _y, _s):
    return rocci.cost_curve(_y, _s)


def cost_curve(key: str, model: str, w: tuple | None, _y, _s):
    """``rocci.cost_curve`` at the operating points ``w`` (None: rocci's default grid).

    The hull is computed once per model (cached); other ``w`` are evaluated on
    it with ``CostCurve.at`` (no new pass over the data).
    """
    curve = _cost_curve(key, model, _y, _s)
    return curve if w is None else curve.at(list(w))


@st.cache_data(max_entries=64, ttl="1h", show_spinner="Computing exact bootstrap intervals for the cost…")
def cost_ci(key: str, model: str, w: tuple | None, thresholds: tuple | None, bootstrap: str,
            confidence_level: float, method: str, m: int | tuple | None, _y, _s):
    """``rocci.cost_ci``; ``thresholds`` None = the envelope's optimal threshold at each w;
    ``m`` the bootstrap size (None = n; stratified a pair (m+, m−), full one whole number)."""
    return rocci.cost_ci(
        _y, _s,
        w=None if w is None else list(w),
        thresholds=None if thresholds is None else list(thresholds),
        bootstrap=bootstrap, confidence_level=confidence_level, method=method, m=m,
    )


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Comparing the two models' costs (exact bootstrap)…")
def compare_cost(key: str, model_a: str, model_b: str, w: tuple | None, bootstrap: str,
                 confidence_level: float, method: str, m: int | tuple | None, _y, _a, _b):
    """``rocci.compare_cost`` (ΔC = cost of a − cost of b), each model at its optimal threshold."""
    return rocci.compare_cost(
        _y, _a, _b,
        w=None if w is None else list(w),
        bootstrap=bootstrap, confidence_level=confidence_level, method=method, m=m,
    )


def cost_ci_at(key: str, model: str, w: float, band, bootstrap: str, confidence_level: float, method: str,
               m, _y, _s):
    """``cost_ci`` at one operating point: the band's row when ``w`` is on its grid (no recomputation)."""
    if float(w) in W_GRID and band is not None:
        return band.take(W_GRID.index(float(w)))
    return cost_ci(key, model, (float(w),), None, bootstrap, confidence_level, method, m, _y, _s)
