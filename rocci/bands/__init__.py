"""Simultaneous confidence bands for the whole ROC curve (issue 15).

* :func:`roc_band` / :class:`RocBand` — the exact-bootstrap sup-t band over
  thresholds (exact joint probability by a multinomial partial-sum
  recursion), and Šidák/Bonferroni or Monte Carlo bands.
* :mod:`rocci.bands.recursion` — ``P(a_k <= S_k <= b_k for all k)`` for the
  partial sums of a multinomial (:func:`partial_sum_probability`).
* :mod:`rocci.bands.region` — the band region in ROC space, its area, and
  whether a curve lies inside it (one definition for every band).
* :mod:`rocci.bands.baselines` — Campbell's Kolmogorov–Smirnov band and the
  Working–Hotelling band on the binormal fit.
* :mod:`rocci.bands.coverage` — simultaneous coverage of every band on
  binormal populations, by seeded simulation.

See ``docs/bands.md``.
"""

from .band import BAND_KINDS, THRESHOLD_METHODS, VERTICAL_METHODS, RocBand, roc_band
from .recursion import PartialSums, partial_sum_probability, poisson_pmf
from .region import band_area, band_envelope, curve_inside

__all__ = [
    "roc_band",
    "RocBand",
    "BAND_KINDS",
    "THRESHOLD_METHODS",
    "VERTICAL_METHODS",
    "partial_sum_probability",
    "PartialSums",
    "poisson_pmf",
    "band_area",
    "band_envelope",
    "curve_inside",
]
