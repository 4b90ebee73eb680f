"""Shared constants and argument checks of the cost functions."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._core.inputs import InputError, _check_add, _real, check_m, format_value  # noqa: F401  (_check_add: cost's)


BOOTSTRAPS = ("stratified", "full")
COST_METHODS = ("agresti-coull", "wald", "percentile")

# Pseudo-counts of the adjusted Wald ("agresti-coull") intervals.  Gadoury (2009),
# §5.4 (tables 5.1 and 5.2), adopts Agresti's values: for one model, Agresti and
# Coull (1998) add 2 to each of the four confusion cells (TP, FN, FP, TN: 8
# instances); for two models on the same instances, Agresti and Min (2005) add
# ½ to each of the four paired cells of each class (8 cells, 4 instances).  The
# pseudo-counts keep the variance away from 0 where the cost or its difference
# vanishes (w near 0 or 1), where plain Wald intervals break down.  The
# adjustment experiment (§5.5, figs 5.7–5.12: 0.5, 2 and 3 for one model; 1/8,
# ½ and 1 for two) finds these defaults best: too few and Wald's breakdown at
# the ends returns, too many and the added bias breaks coverage on both sides.

#: Pseudo-count per confusion cell for one model (Agresti–Coull; thesis §5.4,
#: table 5.1): the default ``add`` of :func:`cost_ci` and of
#: :func:`rocci.confusion.explorer.confusion_at`.
AGRESTI_ADD = 2.0

#: Pseudo-count per paired cell for two models (Agresti–Min; thesis §5.4,
#: table 5.2): the default ``add`` of :func:`compare_cost`.
AGRESTI_MIN_ADD = 0.5

#: Costs (and lattice values) closer than this count as equal: ties between
#: cost lines at a breakpoint, and equal values of a bootstrap cost law.
TIE_TOL = 1e-12

#: Default grid of operating points.
DEFAULT_W = np.linspace(0.0, 1.0, 101)


def _check_w(w: Any) -> np.ndarray:
    """Operating points as a 1-D float array in [0, 1]; ``None`` gives :data:`DEFAULT_W`."""
    if w is None:
        return DEFAULT_W.copy()
    if isinstance(w, (str, bytes)):
        raise InputError(f"w ({w!r}) must be a number or a list of numbers in [0, 1].")
    try:
        arr = np.atleast_1d(np.asarray(w, dtype=np.float64))
    except (TypeError, ValueError):
        raise InputError(f"w ({w!r}) must be a number or a list of numbers in [0, 1].") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError("w must be one number or a non-empty list of numbers in [0, 1].")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        shown = ", ".join(format_value(v) for v in arr[bad][:5])
        raise InputError(
            f"w values must lie in [0, 1]; got {shown}. w is the operating point of eq. 3.1: "
            "use operating_point(p_pos, cost_fn, cost_fp) to get it from the prior and the costs."
        )
    return arr


def _check_thresholds(name: str, thresholds: Any, n_w: int) -> np.ndarray:
    """One threshold for every w, or one per w (any reals, ±inf allowed)."""
    if isinstance(thresholds, (str, bytes)):
        raise InputError(f"{name} must hold numbers; got {thresholds!r}.")
    try:
        arr = np.atleast_1d(np.asarray(thresholds, dtype=np.float64))
    except (TypeError, ValueError):
        raise InputError(f"{name} must hold numbers; got {thresholds!r}.") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be one number or a non-empty list of numbers.")
    if np.isnan(arr).any():
        raise InputError(f"{name} must not contain missing values (NaN).")
    if arr.size == 1:
        return np.full(n_w, arr[0])
    if arr.size != n_w:
        raise InputError(
            f"{name} has {arr.size} values but there are {n_w} operating points w: "
            "give one threshold for all w, or one per w (and pass w explicitly)."
        )
    return arr


def _check_full_m(m: Any, n: int) -> int:
    """Number of draws of the full bootstrap (one whole number, default ``n``)."""
    if m is None:
        return n
    if isinstance(m, (bool, np.bool_)) or not isinstance(m, numbers.Real) or not float(m).is_integer():
        raise InputError(
            f"m ({m!r}) must be one whole number of draws for the full bootstrap "
            "(it draws from the pooled data; a pair (m_pos, m_neg) is for bootstrap='stratified')."
        )
    if m < 1:
        raise InputError(f"m ({m!r}) must be at least 1 draw.")
    return int(m)


# Bootstrap sizes: (m+, m−) for the stratified bootstrap, m for the full one.


def _bootstrap_sizes(bootstrap, m, n_pos, n_neg):
    if bootstrap == "stratified":
        return check_m(m, n_pos, n_neg)
    return _check_full_m(m, n_pos + n_neg)


def _scales(w, bootstrap, m, n_pos, n_neg):
    """Coefficients ``a = w/M+`` and ``b = (1 − w)/M−`` of the lattice counts."""
    if bootstrap == "stratified":
        m_pos, m_neg = m
    else:
        m_pos, m_neg = m * n_pos / (n_pos + n_neg), m * n_neg / (n_pos + n_neg)
    return w / m_pos, (1 - w) / m_neg


def _stored_sizes(result):
    """The bootstrap sizes of a result, as :func:`_bootstrap_sizes` returns them."""
    if result.bootstrap == "stratified":
        return (int(result.m_pos), int(result.m_neg))
    return int(result.m_total)


def _size_fields(bootstrap, m):
    if bootstrap == "stratified":
        return {"m_pos": m[0], "m_neg": m[1], "m_total": None}
    return {"m_pos": None, "m_neg": None, "m_total": m}
