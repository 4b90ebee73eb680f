"""Average precision, with a seeded Monte Carlo bootstrap labelled as such.

Average precision is the step-wise area under the precision–recall points
(scikit-learn's ``average_precision_score``):

.. math::

    AP = \\sum_k (R_k - R_{k-1})\\, P_k = \\frac{1}{n_+} \\sum_k \\Delta TP_k\\,\\frac{TP_k}{TP_k + FP_k},

over the distinct thresholds ``t_1 > t_2 > …`` (``score >= t_k`` predicted
positive; tied scores form one threshold).  Unlike every other rocci interval,
its bootstrap law is **not** exact: ``AP*`` is a sum of ratios of the
resampled counts at every threshold, whose mean and variance have no closed
form that was derived here.  :func:`average_precision` therefore draws a
seeded stratified (or full) bootstrap, says so in its result, and reports the
Monte Carlo error of what it estimates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from .._core.compat import renamed_attribute
from .._core.results import _FrameResult
from .._core.inputs import InputError, check_choice, check_confidence_level
from .._core.counts import binary_counts

__all__ = ["average_precision", "AveragePrecision"]

#: Resampled counts held at once (replicates × distinct scores), to bound the memory.
_CHUNK_CELLS = 4_000_000


def _ap_from_counts(pos: np.ndarray, neg: np.ndarray, n_pos) -> np.ndarray:
    """AP of each row: ``pos``/``neg`` are counts per distinct score, scores decreasing along axis −1."""
    tp = np.cumsum(pos, axis=-1)
    fp = np.cumsum(neg, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(pos > 0, tp / (tp + fp), 0.0)  # a threshold with no new positive adds nothing
    return np.sum(pos * precision, axis=-1) / n_pos


@dataclass(repr=False)
class AveragePrecision(_FrameResult):
    """Average precision and its Monte Carlo bootstrap interval.

    Attributes
    ----------
    average_precision : float
        On the data (scikit-learn's definition; ties grouped).
    average_precision_mean, average_precision_std : float
        Bootstrap mean and standard deviation of ``AP*``, estimated from ``n_boot`` resamples.
    average_precision_low, average_precision_high : float
        Percentile interval: the ``α/2`` and ``1 − α/2`` empirical quantiles of the resamples.
    average_precision_mean_se, average_precision_std_se : float
        Monte Carlo standard errors of the mean (``std/√B``) and of the sd (delta method,
        ``√((μ₄ − s⁴)/B)/(2s)`` with the resamples' fourth central moment).
    low_range, high_range : tuple of float
        Where each bound lies with ~95% Monte Carlo confidence (order statistics of the
        resamples at ``B·q ± 1.96·√(B·q(1 − q))``): the bounds' own Monte Carlo error.
    baseline : float
        ``n+/n``: the AP of scores that carry no information.
    method : str
        ``"monte-carlo"``: not an exact law.
    bootstrap : {"stratified", "full"}
    n_boot, seed : int
    replicates : ndarray
        The ``B`` resampled values.

    Before rocci 0.3 the first six were ``mean``, ``std``, ``low``, ``high``, ``mc_se_mean``, ``mc_se_std``
    (attributes and columns; the old attribute names still read them, with a DeprecationWarning).
    """

    average_precision: float
    average_precision_mean: float
    average_precision_std: float
    average_precision_low: float
    average_precision_high: float
    average_precision_mean_se: float
    average_precision_std_se: float
    low_range: tuple
    high_range: tuple
    baseline: float
    confidence_level: float
    n_boot: int
    seed: int
    bootstrap: str
    n_pos: int
    n_neg: int
    replicates: np.ndarray
    method: str = "monte-carlo"

    _scalar_fields = ("average_precision", "average_precision_low", "average_precision_high", "method", "n_boot", "seed")
    mc_se_mean = renamed_attribute("AveragePrecision", "mc_se_mean", "average_precision_mean_se")
    mc_se_std = renamed_attribute("AveragePrecision", "mc_se_std", "average_precision_std_se")
    mean = renamed_attribute("AveragePrecision", "mean", "average_precision_mean")
    std = renamed_attribute("AveragePrecision", "std", "average_precision_std")
    low = renamed_attribute("AveragePrecision", "low", "average_precision_low")
    high = renamed_attribute("AveragePrecision", "high", "average_precision_high")


    def to_frame(self) -> pd.DataFrame:
        # Hand-written: the Monte Carlo ranges (tuples) split into two columns each.
        return pd.DataFrame([{
            "average_precision": self.average_precision, "average_precision_mean": self.average_precision_mean, "average_precision_std": self.average_precision_std,
            "average_precision_low": self.average_precision_low, "average_precision_high": self.average_precision_high, "average_precision_mean_se": self.average_precision_mean_se, "average_precision_std_se": self.average_precision_std_se,
            "low_mc_from": self.low_range[0], "low_mc_to": self.low_range[1],
            "high_mc_from": self.high_range[0], "high_mc_to": self.high_range[1],
            "baseline": self.baseline, "method": self.method, "bootstrap": self.bootstrap,
            "n_boot": self.n_boot, "seed": self.seed, "confidence_level": self.confidence_level,
        }])


def average_precision(y_true, y_score=None, *, pos_label=None, confidence_level=0.95, n_boot: int = 2000,
                      seed: int = 0, bootstrap: str = "stratified") -> AveragePrecision:
    """Average precision with a seeded Monte Carlo bootstrap interval (not an exact law).

    ``AP = (1/n+)·Σ_k ΔTP_k·TP_k/(TP_k + FP_k)`` over the distinct thresholds, decreasing
    (scikit-learn's ``average_precision_score``; tied scores are one threshold).

    Each resample draws the counts of every distinct score at once: stratified,
    ``(P*_v) ~ Multinomial(n+, P_v/n+)`` and ``(N*_v) ~ Multinomial(n−, N_v/n−)``
    independently; full, ``(P*_v, N*_v) ~ Multinomial(n, ·/n)`` over both classes, where a
    resample with no positive has no AP and is left out (``replicates`` holds NaN for it).
    Cost O(B·d) for ``d`` distinct scores, in chunks of bounded memory.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve` (or a :class:`rocci.ScoreCounts` table).
    confidence_level : float, default 0.95
    n_boot : int, default 2000
        Number of resamples B.  The Monte Carlo errors shrink as ``1/√B``.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``: the same call gives the same numbers.
    bootstrap : {"stratified", "full"}

    Returns
    -------
    AveragePrecision
        ``method == "monte-carlo"``; ``average_precision_mean_se``, ``average_precision_std_se`` and the bounds'
        ranges give the Monte Carlo error.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.average_precision([0, 1, 1, 0, 1], [0.1, 0.8, 0.4, 0.35, 0.9], n_boot=200)
    >>> round(res.average_precision, 4), res.method
    (1.0, 'monte-carlo')
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, ("stratified", "full"))
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 10:
        raise InputError(f"n_boot must be a whole number of resamples, at least 10; got {n_boot!r}.")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InputError(f"seed must be a whole number; got {seed!r}.")
    counts, _ = binary_counts(y_true, y_score, pos_label)
    values, npos, nneg = counts.table()
    npos, nneg = npos[::-1].astype(np.int64), nneg[::-1].astype(np.int64)  # scores decreasing
    n_pos, n_neg = int(counts.n_pos), int(counts.n_neg)
    ap = float(_ap_from_counts(npos, nneg, n_pos))
    rng = np.random.default_rng(int(seed))
    d = npos.size
    chunk = max(1, _CHUNK_CELLS // max(d, 1))
    reps = np.empty(int(n_boot))
    for start in range(0, int(n_boot), chunk):
        b = min(chunk, int(n_boot) - start)
        if bootstrap == "stratified":
            p = rng.multinomial(n_pos, npos / n_pos, size=b)
            q = rng.multinomial(n_neg, nneg / n_neg, size=b)
        else:
            both = rng.multinomial(n_pos + n_neg, np.concatenate([npos, nneg]) / (n_pos + n_neg), size=b)
            p, q = both[:, :d], both[:, d:]
        m_pos = p.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            reps[start:start + b] = np.where(m_pos > 0, _ap_from_counts(p, q, np.maximum(m_pos, 1)), np.nan)
    kept = reps[np.isfinite(reps)]
    if kept.size < 10:
        raise InputError("Fewer than 10 resamples held a positive instance: average precision is not defined "
                         "in most resamples of so few positives. Use bootstrap='stratified'.")
    alpha = 1.0 - level
    big_b = kept.size
    sorted_reps = np.sort(kept)

    def bound_range(qv):
        z = float(special.ndtri(0.975))
        half = z * np.sqrt(big_b * qv * (1 - qv))
        lo = int(np.clip(np.floor(big_b * qv - half), 0, big_b - 1))
        hi = int(np.clip(np.ceil(big_b * qv + half), 0, big_b - 1))
        return float(sorted_reps[lo]), float(sorted_reps[hi])

    sd = float(np.std(kept, ddof=1))
    # s.e. of the sd by the delta method on s²: Var(s²) ≈ (μ₄ − σ⁴)/B, se(s) ≈ se(s²)/(2s) (any kurtosis)
    centred = kept - kept.mean()
    mu4 = float(np.mean(centred ** 4))
    se_sd = float(np.sqrt(max(mu4 - sd ** 4, 0.0) / big_b) / (2 * sd)) if sd > 0 else 0.0
    return AveragePrecision(
        average_precision=ap,
        average_precision_mean=float(np.mean(kept)),
        average_precision_std=sd,
        average_precision_low=float(np.quantile(kept, alpha / 2)),
        average_precision_high=float(np.quantile(kept, 1 - alpha / 2)),
        average_precision_mean_se=sd / np.sqrt(big_b),
        average_precision_std_se=se_sd,
        low_range=bound_range(alpha / 2),
        high_range=bound_range(1 - alpha / 2),
        baseline=n_pos / (n_pos + n_neg),
        confidence_level=level,
        n_boot=int(n_boot),
        seed=int(seed),
        bootstrap=bootstrap,
        n_pos=n_pos,
        n_neg=n_neg,
        replicates=reps,
    )
