"""Coverage of intervals for the precision at fixed recall (issue 14): truth, Monte Carlo baseline, simulation.

**Truth.**  For a population with positives' scores ``S+ ~ G+``, negatives' ``S− ~ G−`` and a share ``π`` of
positives, the threshold of recall ``r`` is ``t_r`` with ``P(S+ >= t_r) = r`` (``t_r = G+⁻¹(1 − r)``), its
false positive rate ``FPR(r) = P(S− >= t_r)`` and the precision

``precision(r) = π·r / (π·r + (1 − π)·FPR(r))``.

**Statistic.**  rocci's precision at recall level ``r/m+`` (:func:`rocci.precision_ci` with ``recall=``,
:mod:`rocci.precision.recall`): the threshold is ``T_r``, the r-th largest positive score of the (re)sample, and
the precision ``r/(r + FP)`` with ``FP`` the negatives scoring ``>= T_r`` (ties count as positive predictions);
the recall values are mapped to levels ``r`` by :func:`rocci.precision.recall.recall_levels`.
:func:`resample_precision` computes exactly that statistic on given resamples, so that on the data themselves
(the identity "resample") it is rocci's point estimate, and :func:`bootstrap_precision_interval` is the Monte Carlo
percentile bootstrap a user would run (stratified resamples, numpy's default type-7 quantiles, as the pROC-style
baseline of vertical averaging).

**Simulation.**  :func:`simulate_precision_coverage` draws stratified test sets (``n+`` positives, ``n−``
negatives), computes the exact percentile interval and the exact moments with one call of
:func:`rocci.precision_ci` per test set (the Wald interval ``mean ± z·sd`` and the score interval
``[e + z²/2M ± z·sqrt(v + z²/4M²)]/(1 + z²/M)``, ``M = r/e``, are :func:`rocci.precision_ci`'s
``method="wald"`` and ``method="score"``, rebuilt from those moments), the Monte Carlo interval from ``n_boot``
resamples, and counts how often each interval holds the true precision at the level ``r/n+``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import special

from .._core.inputs import InputError, check_choice, check_confidence_level
from ..precision import precision_ci
from ..precision import score_interval
from ..precision.recall import recall_levels
from .simulate import Progress, _check_n, _check_reps, _summary, _tell

__all__ = [
    "PR_METHODS",
    "true_precision_at_recall",
    "resample_precision",
    "bootstrap_precision_values",
    "bootstrap_precision_interval",
    "wald_precision_interval",
    "score_precision_interval",
    "simulate_precision_coverage",
]

#: Interval methods of the study and their display names.
PR_METHODS = {
    "percentile": "Exact bootstrap, percentile",
    "score": "Exact bootstrap, score",
    "wald": "Wald, exact bootstrap sd",
    "bootstrap": "Monte Carlo bootstrap, percentile",
}

#: Resamples handled at once by the Monte Carlo bootstrap (bounds memory to ~_BLOCK·n+ integers).
_BLOCK = 512


def true_precision_at_recall(population, recall, *, prior=None) -> np.ndarray:
    """Population precision at recall ``r``: ``π·r / (π·r + (1 − π)·FPR(t_r))`` with ``P(S+ >= t_r) = r``.

    Parameters
    ----------
    population : rocci.coverage.populations.Population
    recall : array_like
        Recall values in (0, 1].
    prior : float, optional
        Share of positives ``π``; default ``population.prior``.
    """
    r = np.atleast_1d(np.asarray(recall, dtype=float))
    if np.isnan(r).any() or ((r <= 0) | (r > 1)).any():
        raise InputError(f"recall values must lie in (0, 1]; got {r.tolist()!r}.")
    pi = float(population.prior if prior is None else prior)
    if not 0.0 < pi < 1.0:
        raise InputError(f"prior ({prior!r}) must be a share of positives strictly between 0 and 1.")
    t = population.pos.isf(r)
    fpr = population.fpr(t)
    return pi * r / (pi * r + (1.0 - pi) * fpr)


def _prepare(pos, neg):
    """Descending ranks of each instance in its class and ``#{negatives >= s_k}`` for the k-th largest positive."""
    pos, neg = np.asarray(pos, dtype=float), np.asarray(neg, dtype=float)
    order_p = np.argsort(-pos, kind="stable")
    order_n = np.argsort(-neg, kind="stable")
    rank_p = np.empty(pos.size, dtype=np.int64)
    rank_p[order_p] = np.arange(pos.size)
    rank_n = np.empty(neg.size, dtype=np.int64)
    rank_n[order_n] = np.arange(neg.size)
    # Negatives >= the positive of descending rank k: the first c[k] negatives in descending order (ties included).
    c = neg.size - np.searchsorted(np.sort(neg), pos[order_p], side="left")
    return rank_p, rank_n, c


def resample_precision(pos, neg, r, ip, ineg) -> np.ndarray:
    """Precision at levels ``r`` in given stratified resamples: ``r/(r + FP*)``.

    ``T_r`` is the r-th largest resampled positive score and ``FP*`` the number of resampled negatives scoring
    ``>= T_r`` (ties count as positive predictions), rocci's definition (:func:`rocci.precision_ci`).

    Parameters
    ----------
    pos, neg : array_like
        One data set's positives' (n+,) and negatives' (n−,) scores.
    r : array_like of int
        Levels, ``1 <= r <= m+``.
    ip, ineg : ndarray of int, shapes (B, m+) and (B, m−)
        Indices of the resampled positives and negatives (``np.arange(n)[None]`` gives the data themselves).

    Returns
    -------
    ndarray of shape (B, len(r))
    """
    r = np.asarray(r, dtype=np.int64)
    ip, ineg = np.atleast_2d(ip), np.atleast_2d(ineg)
    n_neg = np.asarray(neg).size
    if r.size and (r.min() < 1 or r.max() > ip.shape[1]):
        raise InputError(f"levels r must lie in 1..{ip.shape[1]}; got {r.tolist()!r}.")
    rank_p, rank_n, c = _prepare(pos, neg)
    B = ip.shape[0]
    k = np.sort(rank_p[ip], axis=1)[:, r - 1]  # (B, L): descending rank of T_r among the original positives
    cnt = c[k]  # original negatives scoring >= T_r: those of descending rank < cnt
    # Per resample, how many draws hit each negative (bincount), cumulated in descending order of score.
    hits = np.bincount((rank_n[ineg] + (np.arange(B) * n_neg)[:, None]).ravel(), minlength=B * n_neg)
    cum = np.zeros((B, n_neg + 1), dtype=np.int64)
    np.cumsum(hits.reshape(B, n_neg), axis=1, out=cum[:, 1:])
    fp = np.take_along_axis(cum, cnt, axis=1)
    return r / (r + fp)


def bootstrap_precision_values(pos, neg, r, *, n_boot=1000, rng=None) -> np.ndarray:
    """Precision at levels ``r`` in ``n_boot`` stratified Monte Carlo resamples (``m± = n±``), shape (B, L).

    The same statistic as :func:`resample_precision`, drawn faster.  Positives are resampled as they are
    (``m+`` uniform draws among the ``n+`` positives, sorted to find ``T_r``).  For the negatives the statistic
    depends on the resample only through ``FP*_l``, the draws scoring ``>= T_r`` at each level: given the
    positives' resample the cut points ``c_1 <= … <= c_L`` (negatives ``>= T_r``, in decreasing order of score)
    split the ``n−`` negatives into ``L + 1`` bands, and the numbers of the ``m−`` uniform draws that fall in each
    band are multinomial with probabilities ``(band size)/n−`` — exactly the law of resampling the negatives one
    by one, drawn in one multinomial per resample instead of ``m−`` draws (tests check both against each other and
    against the exact law).
    """
    rng = np.random.default_rng(rng)
    pos, neg = np.asarray(pos, dtype=float), np.asarray(neg, dtype=float)
    n_boot = _check_n("n_boot", n_boot)
    r = np.asarray(r, dtype=np.int64)
    n_pos, n_neg = pos.size, neg.size
    if r.size and (r.min() < 1 or r.max() > n_pos):
        raise InputError(f"levels r must lie in 1..{n_pos}; got {r.tolist()!r}.")
    _, _, c = _prepare(pos, neg)
    out = np.empty((n_boot, r.size))
    for a in range(0, n_boot, _BLOCK):
        b = min(a + _BLOCK, n_boot)
        # A uniform draw among the positives is a uniform draw of its descending rank.
        k = np.sort(rng.integers(0, n_pos, (b - a, n_pos)), axis=1)[:, r - 1]
        cnt = c[k]  # (b, L): the negatives of descending rank < cnt score >= T_r
        order = np.argsort(cnt, axis=1, kind="stable")
        cuts = np.take_along_axis(cnt, order, axis=1)
        bands = np.diff(cuts, axis=1, prepend=0, append=n_neg)  # (b, L + 1) band sizes, summing to n−
        draws = rng.multinomial(n_neg, bands / n_neg)
        fp_sorted = np.cumsum(draws[:, :-1], axis=1)
        fp = np.empty_like(fp_sorted)
        np.put_along_axis(fp, order, fp_sorted, axis=1)
        out[a:b] = r / (r + fp)
    return out


def bootstrap_precision_interval(pos, neg, r, *, confidence_level=0.95, n_boot=1000, rng=None):
    """Monte Carlo percentile bootstrap interval for the precision at levels ``r/n+`` (stratified resamples).

    The ``α/2`` and ``1 − α/2`` sample quantiles (numpy's default, type 7) of
    :func:`bootstrap_precision_values`.

    Returns
    -------
    low, high : ndarray of shape (len(r),)
    """
    level = check_confidence_level(confidence_level)
    values = bootstrap_precision_values(pos, neg, r, n_boot=n_boot, rng=rng)
    alpha = 1.0 - level
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


def wald_precision_interval(mean, std, confidence_level=0.95):
    """``mean ± z·sd`` clipped to [0, 1]: :func:`rocci.precision_ci`'s ``method="wald"`` at fixed recall (centred
    on the exact bootstrap mean, with the exact bootstrap sd)."""
    z = float(special.ndtri(1 - (1 - check_confidence_level(confidence_level)) / 2))
    mean, std = np.asarray(mean, dtype=float), np.asarray(std, dtype=float)
    return np.clip(mean - z * std, 0, 1), np.clip(mean + z * std, 0, 1)


def score_precision_interval(mean, std, r, confidence_level=0.95):
    """:func:`rocci.precision_ci`'s ``method="score"`` at fixed recall, from its exact moments: the roots of
    ``(e − π)² = z²·[v + (π(1 − π) − e(1 − e))/M]``, ``M = r/e`` (the harmonic mean of the predicted
    positives ``r + FP*``), i.e. ``[e + z²/2M ± z·sqrt(v + z²/4M²)]/(1 + z²/M)`` clipped to [0, 1], with ``e = mean``,
    ``v = std²``."""
    z = float(special.ndtri(1 - (1 - check_confidence_level(confidence_level)) / 2))
    mean, std = np.asarray(mean, dtype=float), np.asarray(std, dtype=float)
    return score_interval(mean, std * std, np.asarray(r, dtype=float) / mean, z)


def simulate_precision_coverage(population, n_pos, n_neg, recall, *, confidence_level=0.95,
                                methods=tuple(PR_METHODS), n_boot=1000, replicates=200, seed=0,
                                progress: Progress = None) -> pd.DataFrame:
    """Simulated coverage of intervals for the precision at fixed recall levels.

    Each test set has exactly ``n_pos`` positives and ``n_neg`` negatives drawn from ``population`` (fixed class
    counts, as the stratified bootstrap assumes).  Each recall value maps to the level ``r/n+`` rocci uses
    (:func:`rocci.precision.recall.recall_levels`); the target is the population precision there with the test
    set's share of positives ``π = n+/(n+ + n−)`` (``population.prior`` is not used), see
    :func:`true_precision_at_recall`.  Methods: ``"percentile"`` — :func:`rocci.precision_ci`'s exact percentile
    interval; ``"score"`` — its ``method="score"`` (:func:`score_precision_interval`), from the same call;
    ``"wald"`` — its ``method="wald"`` (exact bootstrap mean ± z·sd, clipped), from the same call;
    ``"bootstrap"`` — :func:`bootstrap_precision_interval` with ``n_boot`` resamples.

    Returns
    -------
    pandas.DataFrame
        ``recall, level, method, coverage, se, replicates, truth`` (long format; ``recall`` as asked,
        ``level = r/n+``).
    """
    level = check_confidence_level(confidence_level)
    methods = tuple(methods)
    if not methods:
        raise InputError("methods needs at least one interval method.")
    for m in methods:
        check_choice("methods", m, tuple(PR_METHODS))
    n_pos, n_neg, R = _check_n("n_pos", n_pos), _check_n("n_neg", n_neg), _check_reps(replicates)
    recall = np.atleast_1d(np.asarray(recall, dtype=float))
    r = recall_levels(recall, n_pos)
    levels = r / n_pos
    target = true_precision_at_recall(population, levels, prior=n_pos / (n_pos + n_neg))
    rng = np.random.default_rng(seed)
    pos, neg = population.sample(n_pos, n_neg, rng, size=R)
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    covers = {m: np.empty((R, r.size), dtype=bool) for m in methods}
    exact = [m for m in methods if m in ("percentile", "score", "wald")]
    for i in range(R):
        if exact:
            res = precision_ci(y, np.r_[pos[i], neg[i]], recall=recall, confidence_level=level,
                               method="percentile")
            if "percentile" in exact:
                covers["percentile"][i] = (res.precision_low <= target) & (target <= res.precision_high)
            if "score" in exact:
                lo, hi = score_precision_interval(res.precision_mean, res.precision_std, res.r, level)
                covers["score"][i] = (lo <= target) & (target <= hi)
            if "wald" in exact:
                lo, hi = wald_precision_interval(res.precision_mean, res.precision_std, level)
                covers["wald"][i] = (lo <= target) & (target <= hi)
        if "bootstrap" in methods:
            lo, hi = bootstrap_precision_interval(pos[i], neg[i], r, confidence_level=level, n_boot=n_boot, rng=rng)
            covers["bootstrap"][i] = (lo <= target) & (target <= hi)
        if i % 5 == 4 or i == R - 1:
            _tell(progress, (i + 1) / R, f"{i + 1} of {R} simulated test sets")
    rows = []
    for m in methods:
        c, se = _summary(covers[m])
        rows.append(pd.DataFrame({"recall": recall, "level": levels, "method": m, "coverage": c, "se": se,
                                  "replicates": R, "truth": target}))
    return pd.concat(rows, ignore_index=True)
