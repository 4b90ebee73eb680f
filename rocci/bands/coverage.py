"""Simultaneous coverage of ROC bands, by seeded simulation (for the Coverage lab).

A band *covers* when the true ROC curve lies entirely inside its region
(:func:`rocci.bands.region.curve_inside`: between the staircases its boxes
define, at every FPR in [0, 1]), the same rule for every method.  Each
replicate draws ``n`` positives and ``n`` negatives from the population,
builds every band on that one data set, and records whether it covers and
its area.  ``coverage`` is the fraction of replicates that covered and
``se = sqrt(c(1 − c)/R)`` its Monte Carlo standard error; ``area_se`` is the
standard error of the mean area.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
import pandas as pd

from .._core.inputs import InputError, check_confidence_level
from ..coverage import populations as P
from .band import roc_band
from .baselines import band_boxes, campbell_ks_band, pointwise_band, working_hotelling_band
from .region import band_area, curve_inside

__all__ = ["BAND_METHODS", "simulate_band_coverage", "band_for"]

#: Methods compared, in table order, with a plain label.
BAND_METHODS = {
    "exact": "Exact bootstrap sup-t (threshold)",
    "monte-carlo": "Monte Carlo bootstrap sup-t (threshold)",
    "sidak": "Šidák over exact binomial percentile intervals (threshold)",
    "vertical-sidak": "Šidák over exact vertical laws (percentile, corners widened)",
    "campbell-ks": "Campbell KS",
    "working-hotelling": "Working–Hotelling, binormal fit",
    "pointwise": "Pointwise Wilson rectangles (no adjustment)",
}

Progress = Callable[[float, str], None] | None


def band_for(method: str, pos, neg, *, confidence_level=0.95, n_boot=500, seed=None):
    """Boxes of one band on one data set (``method`` a key of :data:`BAND_METHODS`)."""
    y = np.r_[np.ones(np.size(pos)), np.zeros(np.size(neg))]
    s = np.r_[pos, neg]
    if method in ("exact", "sidak"):
        return band_boxes(roc_band(y, s, method=method, confidence_level=confidence_level))
    if method == "monte-carlo":
        return band_boxes(roc_band(y, s, method="monte-carlo", n_boot=n_boot, seed=seed,
                                   confidence_level=confidence_level))
    if method == "vertical-sidak":
        return band_boxes(roc_band(y, s, kind="vertical", method="sidak", confidence_level=confidence_level))
    if method == "campbell-ks":
        return campbell_ks_band(pos, neg, confidence_level=confidence_level)
    if method == "working-hotelling":
        return working_hotelling_band(pos, neg, confidence_level=confidence_level)
    if method == "pointwise":
        return pointwise_band(pos, neg, confidence_level=confidence_level)
    raise InputError(f"method ({method!r}) must be one of {', '.join(BAND_METHODS)}.")


def simulate_band_coverage(populations=None, ns=(50, 200, 1000), *, methods=tuple(BAND_METHODS),
                           confidence_level=0.95, replicates=1000, seed=0, n_boot=500,
                           progress: Progress = None) -> pd.DataFrame:
    """Simultaneous coverage and area of each band, by seeded simulation.

    Parameters
    ----------
    populations : dict of name -> Population, optional
        Default: the dispersion setup's binormal populations
        (:func:`rocci.coverage.populations.binormal`, ``G+ = N(θ, 3.75)``,
        ``G− = N(−θ, 3)``) at ``θ = 0.75`` and ``θ = 3``.
    ns : sequence of int
        Instances per class (``n+ = n− = n``).
    methods : sequence of str
        Keys of :data:`BAND_METHODS`.
    replicates : int
        Simulated data sets per (population, n).
    seed : int
        Seeds the data and the Monte Carlo bands (reproducible).
    n_boot : int
        Resamples of the Monte Carlo band.

    Returns
    -------
    pandas.DataFrame
        ``population, n, method, label, coverage, se, area, area_se, replicates, seconds``
        (``seconds``: mean time per band).
    """
    level = check_confidence_level(confidence_level)
    if populations is None:
        populations = {"binormal θ=0.75": P.binormal(0.75), "binormal θ=3": P.binormal(3.0)}
    for name in methods:
        if name not in BAND_METHODS:
            raise InputError(f"method ({name!r}) must be one of {', '.join(BAND_METHODS)}.")
    if isinstance(replicates, bool) or int(replicates) != replicates or replicates < 2:
        raise InputError(f"replicates ({replicates!r}) must be a whole number of at least 2.")
    R = int(replicates)
    rng = np.random.default_rng(seed)
    rows = []
    total = len(populations) * len(ns) * R
    done = 0
    for pname, pop in populations.items():
        for n in ns:
            covers = {m: np.zeros(R, bool) for m in methods}
            areas = {m: np.zeros(R) for m in methods}
            secs = {m: 0.0 for m in methods}
            for r in range(R):
                pos, neg = pop.sample(int(n), int(n), rng)
                mc_seed = int(rng.integers(2**63))
                for m in methods:
                    t0 = time.perf_counter()
                    boxes = band_for(m, pos, neg, confidence_level=level, n_boot=n_boot, seed=mc_seed)
                    secs[m] += time.perf_counter() - t0
                    covers[m][r] = curve_inside(pop.roc, *boxes)
                    areas[m][r] = band_area(*boxes)
                done += 1
                if progress is not None and done % 10 == 0:
                    progress(done / total, f"{pname}, n = {n}: {r + 1} of {R}")
            for m in methods:
                c = float(covers[m].mean())
                rows.append({"population": pname, "n": int(n), "method": m, "label": BAND_METHODS[m],
                             "coverage": c, "se": float(np.sqrt(c * (1 - c) / R)),
                             "area": float(areas[m].mean()), "area_se": float(areas[m].std(ddof=1) / np.sqrt(R)),
                             "replicates": R, "seconds": secs[m] / R})
    return pd.DataFrame(rows)
