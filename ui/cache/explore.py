"""Cached calls into rocci's threshold-explorer API, for the Threshold explorer page.

Same conventions as :mod:`ui.cache`: a text ``key`` (:func:`ui.state.data_key`,
the digest of the bytes plus the column mapping), the model name and the
options as plain hashable values; the arrays are passed in underscore
arguments, which Streamlit does not hash.  Errors (``rocci.InputError``) are
not cached.
"""

from __future__ import annotations

import streamlit as st

import rocci


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the indicators at every threshold…")
def threshold_table(key: str, model: str, _y, _s):
    """``rocci.threshold_table``: one row per distinct score."""
    return rocci.threshold_table(_y, _s)


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the gain chart…")
def gain_curve(key: str, model: str, _y, _s):
    return rocci.gain_curve(_y, _s)


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the precision–recall curve…")
def precision_recall_curve(key: str, model: str, _y, _s):
    return rocci.precision_recall_curve(_y, _s)


@st.cache_data(max_entries=4, scope="session", show_spinner="Computing the reading-rate curve…")
def reading_curve(key: str, model: str, _y, _s):
    return rocci.reading_curve(_y, _s)


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
