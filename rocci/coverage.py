"""Exact coverage of threshold-averaging regions, without simulation.

At a fixed true threshold the observed counts are binomial,
``n_t+ ~ Bin(n+, TPR)`` and ``n_t− ~ Bin(n−, FPR)``, and each interval depends
only on its own count, so the probability that an interval covers the true
rate is a finite sum (math.md §7; the thesis estimates it by simulation in
§4.5):

``coverage = Σ_k b(k; n, p) · 1[low(k/n) <= p <= high(k/n)]``.

The region covers when both axes do; the axes are independent, so the region's
coverage is the product.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import InputError, check_choice, check_confidence_level
from .exact import binomial_pmf
from .intervals import PROPORTION_METHODS, axis_alpha, proportion_interval

__all__ = ["CoverageResult", "threshold_coverage"]


@dataclass(frozen=True)
class CoverageResult:
    """Exact coverage probabilities of a threshold-averaging region.

    Attributes
    ----------
    tpr, fpr : float
        Probability that the TPR (FPR) interval covers the true rate.
    region : float
        Probability that the region covers the true ROC point (``tpr·fpr``).
    """

    tpr: float
    fpr: float
    region: float


def _axis_coverage(p: float, n: int, alpha: float, method: str) -> float:
    k = np.arange(n + 1)
    low, high = proportion_interval(k / n, n, alpha, method)
    covers = (low <= p) & (p <= high)
    return float(binomial_pmf(k, n, p) @ covers)


def threshold_coverage(p_pos, p_neg, n_pos, n_neg, *, confidence_level=0.95, method="wilson",
                       region="rectangle") -> CoverageResult:
    """Exact coverage of threshold-averaging intervals at a true ROC point.

    Parameters
    ----------
    p_pos, p_neg : float
        True TPR and FPR at the threshold.
    n_pos, n_neg : int
        Numbers of positives and negatives in a test set.
    confidence_level : float, default 0.95
        Nominal level of the region (or of each interval, for ``"marginal"``).
    method : {"wilson", "wald", "agresti-coull", "percentile"}
    region : {"rectangle", "marginal"}
        Per-axis level as in :func:`rocci.threshold_ci` (bootstrap size ``m = n``).

    Returns
    -------
    CoverageResult

    Examples
    --------
    >>> from rocci.coverage import threshold_coverage
    >>> round(threshold_coverage(0.3, 0.05, 50, 80, confidence_level=0.9).region, 4)
    0.8963
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PROPORTION_METHODS)
    check_choice("region", region, ("rectangle", "marginal"))
    for name, value in (("p_pos", p_pos), ("p_neg", p_neg)):
        if not 0.0 <= float(value) <= 1.0:
            raise InputError(f"{name} ({value!r}) must be a rate between 0 and 1.")
    for name, value in (("n_pos", n_pos), ("n_neg", n_neg)):
        if int(value) != value or value < 1:
            raise InputError(f"{name} ({value!r}) must be a positive whole number.")
    a = axis_alpha(level, region)
    cov_tpr = _axis_coverage(float(p_pos), int(n_pos), a, method)
    cov_fpr = _axis_coverage(float(p_neg), int(n_neg), a, method)
    return CoverageResult(tpr=cov_tpr, fpr=cov_fpr, region=cov_tpr * cov_fpr)
