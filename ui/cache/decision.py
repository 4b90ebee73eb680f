"""Cached calls into rocci's decision-curve API, for the Decision curve page.

Same conventions as :mod:`ui.cache`: a text ``key`` (the digest of the data and its column mapping), the
options as plain hashable values, the arrays (or counts) in underscore arguments Streamlit does not hash.
The results hold numbers only (their exact laws are rebuilt on demand from the stored counts).
"""

from __future__ import annotations

import streamlit as st

import rocci


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Computing net benefit (exact bootstrap)…")
def net_benefit(key: str, model: str, thresholds: tuple, bootstrap: str, confidence_level: float, method: str,
                _y, _s):
    """``rocci.net_benefit`` of one model at the threshold probabilities ``thresholds``."""
    return rocci.net_benefit(_y, _s, thresholds=list(thresholds), bootstrap=bootstrap,
                             confidence_level=confidence_level, method=method)


@st.cache_data(max_entries=16, ttl="1h", show_spinner="Comparing the two models' net benefit (exact bootstrap)…")
def compare_net_benefit(key: str, model_a: str, model_b: str, thresholds: tuple, bootstrap: str,
                        confidence_level: float, _y, _a, _b):
    """``rocci.compare_net_benefit``: ΔNB = NB of ``model_a`` − NB of ``model_b``, its exact paired law."""
    return rocci.compare_net_benefit(_y, _a, _b, thresholds=list(thresholds), bootstrap=bootstrap,
                                     confidence_level=confidence_level)


@st.cache_data(max_entries=32, ttl="1h", show_spinner="Computing the clinical panel (exact bootstrap)…")
def clinical_panel(key: str, model: str, threshold: float, prevalence: float | None, pretest: float | None,
                   confidence_level: float, _y, _s):
    """``rocci.clinical_panel`` at one threshold (``prevalence`` None: the data's share of positives)."""
    return rocci.clinical_panel(_y, _s, thresholds=[threshold], prevalence=prevalence, pretest=pretest,
                                confidence_level=confidence_level)


#: Bootstrap worlds behind the explorer's "how stable is this threshold?" (Monte Carlo, seeded).
STABILITY_BOOT = 1000


@st.cache_data(max_entries=16, ttl="1h", show_spinner="Re-choosing the threshold in 1,000 bootstrap worlds…")
def threshold_stability(key: str, model: str, criterion: str, w: float | None, confidence_level: float, _y, _s):
    """``rocci.threshold_stability`` (seeded): the re-chosen threshold's law across bootstrap worlds."""
    return rocci.threshold_stability(_y, _s, criterion=criterion, w=w, n_boot=STABILITY_BOOT, seed=0,
                                     confidence_level=confidence_level)
