"""Cached coverage studies for the Coverage lab page.

Exact experiments are instant and go through ``st.cache_data`` (key: the
experiment name and its parameters as a sorted tuple of plain values).
Simulations report their progress to a bar created by the page, which
``st.cache_data`` cannot replay, so their results are kept in a small
process-wide LRU store instead, keyed the same way (a simulation is
deterministic given its parameters, seed included, so sharing is safe).
"""

from __future__ import annotations

import streamlit as st

from rocci.coverage import EXPERIMENTS, run_experiment

from . import ResultStore


def params_key(name: str, params: dict, small: bool) -> tuple:
    """Hashable key of a run: name, reduced-size flag and the sorted parameters."""
    return (name, bool(small), tuple(sorted((k, v if not isinstance(v, list) else tuple(v))
                                            for k, v in params.items())))


@st.cache_data(max_entries=64, show_spinner="Computing exact coverage…")
def exact_study(name: str, small: bool, items: tuple):
    """``run_experiment`` for an experiment that needs no simulation."""
    return run_experiment(name, small=small, **dict(items))


#: Finished simulation studies (a bounded LRU store, see ui.cache.ResultStore).
SIMULATIONS = ResultStore(max_entries=32)


def is_exact(name: str, params: dict) -> bool:
    """Whether this run is computed without simulation (instant)."""
    exp = EXPERIMENTS[name]
    if exp.kind != "exact":
        return False
    return params.get("threshold", "true") == "true" and params.get("design", "stratified") == "stratified"


def stored_study(name: str, small: bool, params: dict):
    """A finished study for these parameters, or None (simulations not run yet)."""
    key = params_key(name, params, small)
    if is_exact(name, params):
        return exact_study(*key)
    return SIMULATIONS.get(key)


def simulate_study(name: str, small: bool, params: dict, *, progress=None):
    """Run a simulation study (progress to the page's bar) and keep it."""
    key = params_key(name, params, small)
    found = SIMULATIONS.get(key)
    if found is not None:
        return found
    study = run_experiment(name, small=small, progress=progress, **params)
    SIMULATIONS.put(key, study)
    return study
