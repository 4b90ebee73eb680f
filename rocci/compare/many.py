"""compare_many: k >= 2 models scored on the same instances (DeLong, DeLong & Clarke-Pearson 1988).

Every model's DeLong placements (:func:`rocci.compare.auc._sorted_placements`) give the AUCs
``θ = (θ_1, …, θ_k)`` and their covariance matrix

``S = S10/n+ + S01/n−``,

``S10`` (``S01``) the k × k sample covariance matrix (ddof = 1) of the models' placements
``V10`` of the positives (``V01`` of the negatives).  From them:

* the test that all AUCs are equal (DeLong et al. 1988, eq. 6): with ``L`` the (k − 1) × k matrix of
  consecutive differences, ``χ² = (Lθ)ᵀ (L S Lᵀ)⁺ (Lθ)`` on ``df = rank(L S Lᵀ)`` degrees of freedom;
* every pair's DeLong test, exactly as :func:`rocci.compare_auc` computes it, with p-values adjusted for
  the ``k(k − 1)/2`` comparisons (Holm 1979, or Bonferroni) and simultaneous intervals from the quantile
  of ``max |Z_ab|`` over the pairs, ``Z ~ N(0, R)`` the standardised pairwise differences;
* each model's probability of having the highest AUC under ``N(θ, S)``;
* at one FPR level (``fpr=``), each model's TPR (:func:`rocci.vertical_ci`) and each pair's exact paired
  law of ΔTPR (:func:`rocci.compare_vertical`).

The last two are seeded Monte Carlo integrals of the joint normal (its error is reported); everything
else is closed form.  See ``docs/compare-many.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from .._core.inputs import InputError, check_choice, check_confidence_level, check_labels, check_scores
from .._core.results import _FrameResult, column
from ..cost.interval import cost_ci
from ..cost.paired import compare_cost
from ..roc.vertical import fpr_levels, vertical_ci
from .auc import _aligned_placements, _difference_variance, _enough, _sorted_placements
from .vertical import VerticalComparison, compare_vertical

__all__ = ["compare_many", "ManyComparison", "ADJUSTMENTS"]

#: Multiple-comparison adjustments of the pairwise p-values.
ADJUSTMENTS = ("holm", "bonferroni", "none")

#: Default number of draws of the joint normal ``N(θ, S)``.
N_DRAWS = 1_000_000
#: Bootstrap resamples of the rows behind ``p_best_tpr`` (its standard error is at most 0.5/sqrt(N_BOOT) = 0.011).
N_BOOT = 2000

# Draws per block of the Monte Carlo, and at most this many (draw, pair) cells per block.
_BLOCK = 50_000
_BLOCK_CELLS = 2_000_000
# best_tpr: at least this many resamples per block, and more while a block's counts of a class stay under
# _BOOT_CELLS; one bincount counts the draws of at most _COUNT_BINS rows (resamples × rows).
_BOOT_BLOCK = 8
_BOOT_CELLS = 200_000
_COUNT_BINS = 32_768

# A contrast of the AUCs along a direction where L S Lᵀ vanishes is taken as 0 below this.
_NULL_CONTRAST = 1e-9


@dataclass(repr=False)
class ManyComparison(_FrameResult):
    """AUCs of k models scored on the same instances, compared all at once and pair by pair.

    Attributes
    ----------
    models : tuple of str
        The models, in the order given.
    auc, auc_std, auc_low, auc_high : ndarray of shape (k,)
        Each model's Mann–Whitney AUC, its DeLong standard error ``sqrt(S_ii)`` and the interval
        ``auc ∓ z·std`` clipped to [0, 1] (as :func:`rocci.roc_auc`, ``method="delong"``).
    covariance : ndarray of shape (k, k)
        DeLong's ``S = S10/n+ + S01/n−``.
    chi2, df, pvalue : float, int, float
        The test that all AUCs are equal: ``χ² = (Lθ)ᵀ (L S Lᵀ)⁺ (Lθ)``, ``df = rank(L S Lᵀ)``,
        ``pvalue = P(χ²_df >= chi2)``.
    model_a, model_b : ndarray of str, shape (p,)
        The pairs, ``p = k(k − 1)/2``: every model against each later one, in the order given.
    delta_auc, delta_auc_std, delta_auc_low, delta_auc_high, pair_statistic, pair_pvalue : ndarray (p,)
        ``auc_a − auc_b`` and DeLong's paired test of it, as :func:`rocci.compare_auc` (``to_frame()``
        calls the last two ``statistic`` and ``pvalue``).
    pvalue_adjusted : ndarray (p,)
        ``pair_pvalue`` adjusted by ``adjust``.
    delta_auc_low_simultaneous, delta_auc_high_simultaneous : ndarray (p,)
        ``delta ∓ c·std`` (clipped to [−1, 1]), ``c = critical_value``: all ``p`` intervals hold together
        at ``confidence_level`` under the joint normal.
    critical_value, critical_value_se : float
        ``c``, the ``confidence_level`` quantile of ``max_ab |Z_ab|``, and its Monte Carlo standard error.
    p_best_auc, p_best_auc_se : ndarray (k,)
        ``P(model has the highest AUC)`` under ``N(θ, S)``, and its Monte Carlo standard error.
    fpr : float or None
        The FPR level asked for (``fpr=``); then ``tpr``, ``tpr_low``, ``tpr_high`` (k,) from
        :func:`rocci.vertical_ci` and, per pair, ``delta_tpr`` (observed ``tpr_a − tpr_b``),
        ``delta_tpr_std``, ``delta_tpr_low``, ``delta_tpr_high``, ``p_a_better``, ``p_tie`` from
        :func:`rocci.compare_vertical` (``vertical[i]`` is the ``i``-th pair's whole result).
    w : float or None
        The operating point asked for (``cost=``); then ``cost``, ``cost_low``, ``cost_high`` (k,): each
        model's normalised expected cost at its cheapest threshold there (:func:`rocci.cost_ci`, its
        defaults) and, per pair, ``delta_cost = C_a − C_b``, ``delta_cost_low``, ``delta_cost_high``,
        ``p_a_cheaper`` (:func:`rocci.compare_cost`, its defaults).
    adjust : str
    confidence_level : float
    n_pos, n_neg : int
    n_draws, seed : int
        The Monte Carlo's draws and seed.
    """

    models: tuple
    auc: np.ndarray
    auc_std: np.ndarray
    auc_low: np.ndarray
    auc_high: np.ndarray
    covariance: np.ndarray
    chi2: float
    df: int
    pvalue: float
    model_a: np.ndarray = column()
    model_b: np.ndarray = column()
    delta_auc: np.ndarray = column()
    delta_auc_low: np.ndarray = column()
    delta_auc_high: np.ndarray = column()
    delta_auc_std: np.ndarray = column()
    pair_statistic: np.ndarray = column("statistic")
    pair_pvalue: np.ndarray = column("pvalue")
    pvalue_adjusted: np.ndarray = column()
    delta_auc_low_simultaneous: np.ndarray = column()
    delta_auc_high_simultaneous: np.ndarray = column()
    critical_value: float
    critical_value_se: float
    p_best_auc: np.ndarray
    p_best_auc_se: np.ndarray
    adjust: str
    confidence_level: float
    n_pos: int
    n_neg: int
    n_draws: int
    seed: int
    fpr: float | None = None
    tpr: np.ndarray | None = None
    tpr_low: np.ndarray | None = None
    tpr_high: np.ndarray | None = None
    delta_tpr: np.ndarray | None = column(default=None)
    delta_tpr_std: np.ndarray | None = column(default=None)
    delta_tpr_low: np.ndarray | None = column(default=None)
    delta_tpr_high: np.ndarray | None = column(default=None)
    p_a_better: np.ndarray | None = column(default=None)
    p_tie: np.ndarray | None = column(default=None)
    delta_cost: np.ndarray | None = column(default=None)
    delta_cost_low: np.ndarray | None = column(default=None)
    delta_cost_high: np.ndarray | None = column(default=None)
    p_a_cheaper: np.ndarray | None = column(default=None)
    p_best_tpr: np.ndarray | None = None
    p_best_tpr_se: np.ndarray | None = None
    n_boot: int | None = None
    w: float | None = None
    cost: np.ndarray | None = None
    cost_low: np.ndarray | None = None
    cost_high: np.ndarray | None = None
    vertical: list = field(default_factory=list, repr=False)

    _scalar_fields = ("models", "chi2", "df", "pvalue", "adjust", "confidence_level", "fpr")

    def leaderboard(self) -> pd.DataFrame:
        """One row per model, highest AUC first: ``model, auc, auc_low, auc_high, auc_std, p_best_auc,
        p_best_auc_se`` (+ ``tpr, tpr_low, tpr_high, p_best_tpr, p_best_tpr_se`` at ``fpr`` when it was
        given).  Equal AUCs keep the
        order the models were given in."""
        cols = {
            "model": list(self.models),
            "auc": self.auc,
            "auc_low": self.auc_low,
            "auc_high": self.auc_high,
            "auc_std": self.auc_std,
            "p_best_auc": self.p_best_auc,
            "p_best_auc_se": self.p_best_auc_se,
        }
        if self.fpr is not None:
            cols.update(tpr=self.tpr, tpr_low=self.tpr_low, tpr_high=self.tpr_high)
            if self.p_best_tpr is not None:
                cols.update(p_best_tpr=self.p_best_tpr, p_best_tpr_se=self.p_best_tpr_se)
        if self.w is not None:
            cols.update(cost=self.cost, cost_low=self.cost_low, cost_high=self.cost_high)
        frame = pd.DataFrame(cols)
        return frame.sort_values("auc", ascending=False, kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------


def _check_many(y_true, scores, pos_label):
    """``(names, positive mask, score arrays)``: one InputError per kind of bad input."""
    if isinstance(scores, pd.DataFrame):
        names = [str(c) for c in scores.columns]
        columns = [scores.iloc[:, i] for i in range(scores.shape[1])]
    elif isinstance(scores, Mapping):
        names = [str(c) for c in scores]
        columns = list(scores.values())
    else:
        raise InputError(
            "scores must be a dict {model name: scores} or a DataFrame with one column of scores per model; "
            f"got {type(scores).__name__}."
        )
    if len(names) < 2:
        raise InputError(f"compare_many needs at least 2 models to compare; got {len(names)} ({names!r}).")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise InputError(f"Each model needs its own name; {repeated!r} appear(s) more than once.")
    arrays = [check_scores(col, name=f"scores[{name!r}]") for name, col in zip(names, columns)]
    sizes = {name: a.size for name, a in zip(names, arrays)}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{name}: {size}" for name, size in sizes.items())
        raise InputError(
            f"The models' scores have different lengths ({listed}): every model must score the same "
            "instances, one score per instance."
        )
    mask, _ = check_labels(y_true, pos_label)
    if mask.size != arrays[0].size:
        raise InputError(
            f"The models score {arrays[0].size} instances each but y_true has {mask.size} labels: "
            "give one label per instance."
        )
    return tuple(names), mask, arrays


def _check_one_fpr(fpr) -> float | None:
    if fpr is None:
        return None
    if np.ndim(fpr) != 0:
        raise InputError(f"fpr must be one false positive rate (a number in [0, 1]); got {fpr!r}.")
    try:
        value = float(fpr)
    except (TypeError, ValueError):
        raise InputError(f"fpr must be a number in [0, 1]; got {fpr!r}.") from None
    if not 0.0 <= value <= 1.0:
        raise InputError(f"fpr must be a number in [0, 1]; got {fpr!r}.")
    return value


def _check_draws(n_draws, seed) -> tuple[int, int]:
    if isinstance(n_draws, bool) or not isinstance(n_draws, (int, np.integer)) or n_draws < 1000:
        raise InputError(f"n_draws must be a whole number of at least 1000; got {n_draws!r}.")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be a non-negative whole number; got {seed!r}.")
    return int(n_draws), int(seed)


# ---------------------------------------------------------------------------
# Pieces
# ---------------------------------------------------------------------------


def _instance_placements(placed, mask):
    """The k models' placements as ``(k, n+)`` and ``(k, n−)`` matrices, instances in the data's order."""
    pos, neg = np.flatnonzero(mask), np.flatnonzero(~mask)
    v10, v01 = np.empty((len(placed), pos.size)), np.empty((len(placed), neg.size))
    by_instance = np.empty(mask.size)
    for i, (ids_pos, p10, ids_neg, p01, _) in enumerate(placed):
        by_instance[ids_pos] = p10
        by_instance[ids_neg] = p01
        by_instance.take(pos, out=v10[i])
        by_instance.take(neg, out=v01[i])
    return v10, v01


def _sample_cov(x: np.ndarray) -> np.ndarray:
    """Sample covariance matrix (ddof = 1) of the rows of ``x``."""
    c = x - x.mean(axis=1, keepdims=True)
    out = (c @ c.T) / (x.shape[1] - 1.0)
    return (out + out.T) / 2.0


def _representatives(v10: np.ndarray, v01: np.ndarray) -> np.ndarray:
    """``rep[i]``: the first model whose placements equal model ``i``'s exactly (``i`` itself if none).

    Models with the same placements (the same ranking of every positive–negative pair, e.g. a model and a
    monotone transform of it) are one point of the joint normal: they share one AUC, one draw, and split
    what that draw wins."""
    k = v10.shape[0]
    rep = np.arange(k)
    for i in range(1, k):
        for j in range(i):
            if rep[j] == j and np.array_equal(v10[i], v10[j]) and np.array_equal(v01[i], v01[j]):
                rep[i] = j
                break
    return rep


def _equal_auc_test(auc, v10, v01, n_pos: int, n_neg: int, reps: np.ndarray) -> tuple[float, int, float]:
    """``(χ², df, p)`` for ``H0: θ_1 = … = θ_k`` (module docstring).

    ``L S Lᵀ`` is the DeLong covariance of the consecutive differences ``θ_{i+1} − θ_i``, computed from the
    differences of the placements themselves (no cancellation between close models), over the distinct
    models only (identical models add null directions and nothing else: the same χ² and rank as the
    pseudo-inverse of the full matrix).  Eigenvalues below ``λ_max·dim·ε`` count as 0 (numpy's
    ``matrix_rank`` rule); a contrast along such a direction that is not 0 (a perfect model against a
    constant one: every placement differs by the same amount) gives ``χ² = ∞``, ``p = 0``.
    """
    distinct = np.unique(reps)
    if distinct.size < 2:
        return 0.0, 0, 1.0
    d10, d01 = np.diff(v10[distinct], axis=0), np.diff(v01[distinct], axis=0)
    contrast = np.diff(auc[distinct])
    m = _sample_cov(d10) / n_pos + _sample_cov(d01) / n_neg
    lam, u = np.linalg.eigh(m)
    tol = max(float(lam.max()), 0.0) * lam.size * np.finfo(float).eps
    keep = lam > tol
    proj = u.T @ contrast
    if np.any(np.abs(proj[~keep]) > _NULL_CONTRAST):
        return math.inf, int(keep.sum()), 0.0
    df = int(keep.sum())
    if df == 0:
        return 0.0, 0, 1.0
    chi2 = float(np.sum(proj[keep] ** 2 / lam[keep]))
    return chi2, df, float(stats.chi2.sf(chi2, df))


def _pairwise(placed, n: int, n_pos: int, n_neg: int, pairs, z: float) -> dict:
    """Each pair's DeLong test, by the same steps as :func:`rocci.compare_auc` (bit for bit).

    A pair whose DeLong variance is 0 (the same placements, or a perfect model against a constant one)
    gets ``z = 0, p = 1`` when its AUCs are equal and ``z = ±∞, p = 0`` otherwise (the limits as the
    variance goes to 0; :func:`rocci.compare_auc` refuses such a pair)."""
    out = {key: np.empty(len(pairs)) for key in ("delta", "std", "low", "high", "z", "p")}
    for i, (a, b) in enumerate(pairs):
        var = _difference_variance(*_aligned_placements(placed[a], placed[b], n), n_pos, n_neg)
        delta = placed[a][4] - placed[b][4]
        std = float(np.sqrt(var)) if var > 0 else 0.0
        if std > 0:
            stat = delta / std
        else:
            stat = 0.0 if delta == 0 else math.copysign(math.inf, delta)
        out["delta"][i], out["std"][i], out["z"][i] = delta, std, stat
        out["low"][i], out["high"][i] = max(-1.0, delta - z * std), min(1.0, delta + z * std)
        out["p"][i] = 2.0 * special.ndtr(-abs(stat))
    return out


def _adjusted(p: np.ndarray, adjust: str) -> np.ndarray:
    """Bonferroni ``min(1, m·p)``; Holm (1979): with ``p_(1) <= … <= p_(m)``,
    ``p̃_(i) = min(1, max_{j <= i} (m − j + 1)·p_(j))``; or ``p`` itself."""
    m = p.size
    if adjust == "none":
        return p.copy()
    if adjust == "bonferroni":
        return np.minimum(1.0, m * p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = stepped
    return out


def _joint_normal(auc_rep, cov_rep, rep_a, rep_b, pair_std, level: float, n_draws: int, seed: int) -> dict:
    """Seeded Monte Carlo of ``X ~ N(0, S)`` over the distinct models (``n_draws`` draws).

    * ``P(model is best) = P(argmax(θ + X) = model)``, standard error ``sqrt(p(1 − p)/N)``;
    * ``c``: the ``level`` quantile of ``max_ab |X_a − X_b|/std_ab`` over the pairs with a positive
      variance (the smallest draw whose empirical CDF reaches ``level``), with standard error half the
      distance between the empirical quantiles at ``level ∓ sqrt(level(1 − level)/N)``.  The true ``c`` is
      at least the pointwise ``z``; with one such pair it is ``z`` exactly (and is set so), else the larger
      of the two is kept.
    """
    rng = np.random.default_rng(seed)
    lam, u = np.linalg.eigh(cov_rep)
    root = (u * np.sqrt(np.clip(lam, 0.0, None))).T  # X = ξ @ root has covariance cov_rep
    live = pair_std > 0
    # distinct pairs of distinct models (a model and its identical copy against a third are one pair)
    _, first = np.unique(np.c_[np.minimum(rep_a, rep_b), np.maximum(rep_a, rep_b)][live], axis=0,
                         return_index=True)
    ra, rb, sd = rep_a[live][first], rep_b[live][first], pair_std[live][first]
    wins = np.zeros(auc_rep.size, dtype=np.int64)
    maxima = np.empty(n_draws) if ra.size > 1 else None
    block = max(1_000, min(_BLOCK, _BLOCK_CELLS // max(ra.size, 1)))  # bounded memory with many pairs
    for start in range(0, n_draws, block):
        # (einsum, not BLAS: a (block × g)·(g × g) product with g a handful of models is memory-bound, and
        # waking OpenBLAS's threads on a shared machine costs more than it)
        x = np.einsum("bj,jk->bk", rng.standard_normal((min(block, n_draws - start), auc_rep.size)), root)
        wins += np.bincount(np.argmax(x + auc_rep, axis=1), minlength=auc_rep.size)
        if maxima is not None:
            maxima[start:start + x.shape[0]] = (np.abs(x[:, ra] - x[:, rb]) / sd).max(axis=1)
    z = float(special.ndtri(0.5 + level / 2))
    crit, crit_se = z, 0.0
    if maxima is not None:
        maxima.sort()

        def quantile(q):  # smallest draw whose empirical CDF reaches q
            return float(maxima[min(n_draws, max(1, math.ceil(q * n_draws - 1e-9))) - 1])

        s = math.sqrt(level * (1 - level) / n_draws)
        crit = max(z, quantile(level))
        crit_se = (quantile(min(1.0, level + s)) - quantile(max(0.0, level - s))) / 2.0
    p_rep = wins / n_draws
    return {"p_best": p_rep, "p_best_se": np.sqrt(p_rep * (1 - p_rep) / n_draws), "crit": crit, "crit_se": crit_se}


def _vertical_columns(mask, arrays, pairs, fpr: float, level: float) -> dict:
    """Each model's TPR at ``fpr`` (:func:`rocci.vertical_ci`, its default method) and each pair's exact
    paired law of ΔTPR there (:func:`rocci.compare_vertical`, its default method)."""
    single = [vertical_ci(mask, s, fpr=[fpr], confidence_level=level) for s in arrays]
    tpr = np.array([float(v.tpr[0]) for v in single])
    comps: list[VerticalComparison] = [
        compare_vertical(mask, arrays[a], arrays[b], fpr=[fpr], confidence_level=level) for a, b in pairs
    ]
    ia, ib = np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])
    return {
        "tpr": tpr,
        "tpr_low": np.array([float(v.tpr_low[0]) for v in single]),
        "tpr_high": np.array([float(v.tpr_high[0]) for v in single]),
        "delta_tpr": tpr[ia] - tpr[ib] if pairs else None,
        "delta_tpr_std": np.array([float(c.delta_tpr_std[0]) for c in comps]),
        "delta_tpr_low": np.array([float(c.delta_tpr_low[0]) for c in comps]),
        "delta_tpr_high": np.array([float(c.delta_tpr_high[0]) for c in comps]),
        "p_a_better": np.array([float(c.p_a_better[0]) for c in comps]),
        "p_tie": np.array([float(c.p_tie[0]) for c in comps]),
        "vertical": comps,
    }


def _window(r: int, n_neg: int) -> int:
    """``L = r + 12√r + 50`` (at most ``n_neg``): the ``r``-th resampled negative lies among a model's first ``L``
    negatives by score except with probability below 1e-30."""
    return min(n_neg, int(r + 12 * math.sqrt(r) + 50))


def _subset_counts(rng, totals, m: int, dtype=np.int64) -> np.ndarray:
    """Counts over ``m`` rows of ``totals[i]`` draws uniform over them, one resample per ``i``: shape
    ``(len(totals), m)``, of ``dtype`` (``uint8`` keeps a resample's row of counts in cache for the models'
    gathers; ``int64`` instead if a count exceeds 255)."""
    totals = np.asarray(totals, dtype=np.int64)
    out = np.empty((totals.size, m), dtype=dtype)
    step = max(1, _COUNT_BINS // max(m, 1))  # resamples counted by one bincount
    for start in range(0, totals.size, step):
        t = totals[start:start + step]
        draws = rng.integers(0, m, size=int(t.sum()))
        if t.size > 1:
            draws += np.repeat(np.arange(t.size) * m, t)
        count = np.bincount(draws, minlength=t.size * m)
        if out.dtype == np.uint8 and t.max() > 255 and count.max() > 255:
            out = out.astype(np.int64)
        out[start:start + step] = count.reshape(t.size, m)
    return out


def _resample_counts(rng, n: int, b: int) -> np.ndarray:
    """``b`` bootstrap resamples of ``n`` rows as counts per row, shape ``(b, n)`` (each row sums to ``n``)."""
    return _subset_counts(rng, np.full(b, n), n)


def _draw_subset(rng, n: int, m: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """The counts of ``m`` of ``n`` rows in ``b`` bootstrap resamples of the ``n``: ``(totals, counts)``.

    A resample is Multinomial(n; 1/n each); the counts of a subset ``S`` of its rows, ``|S| = m``, are
    exactly ``T ~ Binomial(n, m/n)`` draws uniform over ``S``; given ``T`` (and whatever the counts within
    ``S``), the other rows' counts are ``n − T`` draws uniform over them (:func:`_complete`).
    """
    totals = rng.binomial(n, m / n, size=b) if m < n else np.full(b, n)
    return totals, _subset_counts(rng, totals, m, np.uint8)


def _complete(rng, counts_in, total: int, inside: np.ndarray) -> np.ndarray:
    """One resample's counts on all rows ``(1, n)``, from those of the rows ``inside`` (a mask) that summed to
    ``total``: the others get ``n − total`` draws uniform over them."""
    full = np.empty((1, inside.size), dtype=np.int64)
    full[0, inside] = counts_in
    full[0, ~inside] = _subset_counts(rng, [inside.size - total], int(inside.size - inside.sum()))[0]
    return full


def _tpr_at_level(count_neg, count_pos, neg_desc, order_neg, pos_desc, order_pos, r: int, n_pos: int):
    """Each resample's TPR at its ``r``-th largest resampled negative score, for one model.

    Only the top of the model's ranking is read: the ``r``-th resampled negative lies among the first
    ``L = r + 12√r + 50`` negatives by score except with probability below 1e-30 (a resample that does not
    reach ``r`` there is redone on all the negatives), and the positives counted are those above the
    lowest of the resamples' cut-offs.
    """
    n_neg = neg_desc.size
    length = _window(r, n_neg)
    cum = np.cumsum(count_neg[:, order_neg[:length]], axis=1)
    short = cum[:, -1] < r
    if short.any():  # redo those on every negative (never expected)
        full = np.cumsum(count_neg[short][:, order_neg], axis=1)
        where = np.empty(cum.shape[0], dtype=np.int64)
        where[short] = np.argmax(full >= r, axis=1)
        where[~short] = np.argmax(cum[~short] >= r, axis=1)
    else:
        where = np.argmax(cum >= r, axis=1)
    cut = neg_desc[where]  # the r-th largest resampled negative score
    # positives with score >= cut: a prefix of the positives in decreasing score
    above = np.searchsorted(-pos_desc, -cut, side="right")
    top = int(above.max())
    if top == 0:
        return np.zeros(cut.size)
    cum_pos = np.cumsum(count_pos[:, order_pos[:top]], axis=1)
    tp = np.where(above > 0, cum_pos[np.arange(cut.size), np.maximum(above - 1, 0)], 0)
    return tp / n_pos


@dataclass
class _Window:
    """What one model reads of the rows any model can read (the union): positions in the union's counts.

    ``neg``: its first ``L`` negatives by score (``neg_key``: minus their scores, increasing); ``pos``: its
    positives at or above its ``L``-th negative score, the lowest cut-off a resample can reach within the
    window (``pos_key``: minus their scores)."""

    neg: np.ndarray
    neg_key: np.ndarray
    pos: np.ndarray
    pos_key: np.ndarray


def _windows(neg_desc, order_neg, pos_desc, order_pos, length: int):
    """``(in_neg, in_pos, windows)``: masks of the negatives and positives that some model reads (the union
    of every model's first ``length`` negatives, and of its positives at or above its ``length``-th negative
    score) and each model's :class:`_Window` in that union."""
    n_neg, n_pos = order_neg[0].size, order_pos[0].size
    reach = [int(np.searchsorted(-p, -d[length - 1], side="right")) for p, d in zip(pos_desc, neg_desc)]
    in_neg, in_pos = np.zeros(n_neg, dtype=bool), np.zeros(n_pos, dtype=bool)
    for o, o_pos, a in zip(order_neg, order_pos, reach):
        in_neg[o[:length]] = True
        in_pos[o_pos[:a]] = True
    slot_neg, slot_pos = np.cumsum(in_neg) - 1, np.cumsum(in_pos) - 1
    windows = [_Window(slot_neg[o[:length]], -d[:length], slot_pos[o_pos[:a]], -p[:a])
               for d, o, p, o_pos, a in zip(neg_desc, order_neg, pos_desc, order_pos, reach)]
    return in_neg, in_pos, windows


def _tpr_in_window(count_neg, count_pos, win: _Window, r: int, n_pos: int):
    """``(tpr, short)``: :func:`_tpr_at_level` from the counts of the union's rows only, ``(b, m−)`` and
    ``(b, m+)``; ``short`` marks the resamples that do not reach ``r`` within the window (their ``tpr`` is
    meaningless: redo them on all the rows)."""
    cum = np.cumsum(count_neg.take(win.neg, axis=1), axis=1, dtype=np.int64)
    short = cum[:, -1] < r
    where = np.argmax(cum >= r, axis=1)
    cut = win.neg_key[where]  # minus the r-th largest resampled negative score
    # positives with score >= the cut: a prefix of the window's positives (the cut is at or above the
    # window's L-th negative score, so none below it counts)
    above = np.searchsorted(win.pos_key, cut, side="right")
    top = int(above.max())
    if top == 0:
        return np.zeros(cut.size), short
    cum_pos = np.cumsum(count_pos.take(win.pos[:top], axis=1), axis=1, dtype=np.int64)
    tp = np.where(above > 0, cum_pos[np.arange(cut.size), np.maximum(above - 1, 0)], 0)
    return tp / n_pos, short


def _resampled_tprs(mask, arrays, fpr: float, n_boot: int, seed: int):
    """The TPRs at ``fpr`` of the k models in ``n_boot`` resamples (:func:`best_tpr`), in blocks ``(b, k)``."""
    pos = [s[mask] for s in arrays]
    neg = [s[~mask] for s in arrays]
    n_pos, n_neg, k = pos[0].size, neg[0].size, len(arrays)
    r = int(fpr_levels([fpr], n_neg)[0])
    order_neg = [np.argsort(-v, kind="stable") for v in neg]
    order_pos = [np.argsort(-v, kind="stable") for v in pos]
    neg_desc = [v[o] for v, o in zip(neg, order_neg)]
    pos_desc = [v[o] for v, o in zip(pos, order_pos)]
    in_neg, in_pos, windows = _windows(neg_desc, order_neg, pos_desc, order_pos, _window(r, n_neg))
    m_neg, m_pos = int(in_neg.sum()), int(in_pos.sum())
    block = max(_BOOT_BLOCK, _BOOT_CELLS // max(m_neg, m_pos))
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_boot:
        b = min(block, n_boot - done)
        t_neg, count_neg = _draw_subset(rng, n_neg, m_neg, b)
        t_pos, count_pos = _draw_subset(rng, n_pos, m_pos, b)
        tpr = np.empty((b, k))
        short = np.zeros(b, dtype=bool)
        for j, win in enumerate(windows):
            tpr[:, j], short_j = _tpr_in_window(count_neg, count_pos, win, r, n_pos)
            short |= short_j
        for i in np.flatnonzero(short):  # never expected: the whole resample on all the rows, as drawn so far
            full_neg = _complete(rng, count_neg[i], int(t_neg[i]), in_neg)
            full_pos = _complete(rng, count_pos[i], int(t_pos[i]), in_pos)
            tpr[i] = [_tpr_at_level(full_neg, full_pos, neg_desc[j], order_neg[j], pos_desc[j], order_pos[j], r,
                                    n_pos)[0] for j in range(k)]
        yield tpr
        done += b


def best_tpr(mask, arrays, fpr: float, n_boot: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``P(model j has the highest TPR at fpr)`` under the paired stratified bootstrap, and its standard error.

    No closed form is computed for the joint law of k models' TPRs at one FPR, so this is a seeded Monte
    Carlo: ``n_boot`` resamples of the rows (positives and negatives apart, each row's scores kept
    together, as counts per row); in each, every model's TPR at the ``r``-th largest resampled negative
    score, ``r`` = :func:`rocci.roc.vertical.fpr_levels` of ``fpr`` (the convention of
    :func:`rocci.vertical_ci`); a resample's win is shared equally among tied models. The standard error is
    that of a mean of ``n_boot`` independent shares.

    Only the rows some model can read are drawn: the union ``U`` of every model's first
    ``L = r + 12√r + 50`` negatives by score and the positives at or above some model's ``L``-th negative
    score (the lowest cut-off within its window).  A resample's counts of those rows are exactly
    ``T ~ Binomial(n, |U|/n)`` draws uniform over ``U`` (:func:`_draw_subset`): O(|U|) per resample, not
    O(n).  A resample in which some model does not reach ``r`` within its window (probability below 1e-30)
    gets the other rows' counts, ``n − T`` draws uniform over them, and is redone on all the rows.
    """
    k = len(arrays)
    wins, wins2 = np.zeros(k), np.zeros(k)
    for tpr in _resampled_tprs(mask, arrays, fpr, n_boot, seed):
        top = tpr == tpr.max(axis=1, keepdims=True)
        share = top / top.sum(axis=1, keepdims=True)
        wins += share.sum(axis=0)
        wins2 += (share**2).sum(axis=0)
    p = wins / n_boot
    se = np.sqrt(np.clip(wins2 / n_boot - p**2, 0.0, None) / n_boot)
    return p, se


def _check_w(cost) -> float | None:
    if cost is None:
        return None
    try:
        w = float(cost)
    except (TypeError, ValueError):
        raise InputError(f"cost must be an operating point w in [0, 1] (rocci.operating_point(prior, c_fn, c_fp)); "
                         f"got {cost!r}.") from None
    if np.ndim(cost) != 0 or not 0 <= w <= 1:
        raise InputError(f"cost must be one operating point w in [0, 1] (rocci.operating_point(prior, c_fn, c_fp)); "
                         f"got {cost!r}.")
    return w


def _cost_columns(mask, arrays, pairs, w: float | None, level: float) -> dict:
    """At the operating point ``w``: each model's cost (:func:`rocci.cost_ci`) and each pair's cost difference
    (:func:`rocci.compare_cost`), both with their functions' defaults."""
    if w is None:
        return {}
    single = [cost_ci(mask, s, w=[w], confidence_level=level) for s in arrays]
    comps = [compare_cost(mask, arrays[a], arrays[b], w=[w], confidence_level=level) for a, b in pairs]
    return {
        "w": w,
        "cost": np.array([float(c.cost[0]) for c in single]),
        "cost_low": np.array([float(c.cost_low[0]) for c in single]),
        "cost_high": np.array([float(c.cost_high[0]) for c in single]),
        "delta_cost": np.array([float(c.delta_cost[0]) for c in comps]),
        "delta_cost_low": np.array([float(c.delta_cost_low[0]) for c in comps]),
        "delta_cost_high": np.array([float(c.delta_cost_high[0]) for c in comps]),
        "p_a_cheaper": np.array([float(c.p_a_cheaper[0]) for c in comps]),
    }


# ---------------------------------------------------------------------------
# Public function
# ---------------------------------------------------------------------------


def compare_many(y_true, scores, *, pos_label=None, confidence_level=0.95, adjust="holm", fpr=None, cost=None,
                 n_draws=N_DRAWS, seed=0, fpr_pairs=True, n_boot=N_BOOT) -> ManyComparison:
    """Compare the AUCs of k >= 2 models scored on the same instances: overall, pair by pair, and ranked.

    DeLong, DeLong & Clarke-Pearson (1988).  With each model's placement values
    ``V10_i = (#{neg < x_i} + ½#{neg = x_i})/n−`` (positives) and ``V01_j = (#{pos > y_j} + ½#{pos = y_j})/n+``
    (negatives), the AUCs ``θ`` are their means and their covariance is

    ``S = S10/n+ + S01/n−``,   ``S10 = cov(V10)``, ``S01 = cov(V01)`` (k × k, ddof = 1).

    * All equal: ``χ² = (Lθ)ᵀ (L S Lᵀ)⁺ (Lθ)`` with ``L`` the (k − 1) × k consecutive differences,
      ``df = rank(L S Lᵀ)`` (less than k − 1 when some models rank the instances identically),
      ``pvalue = P(χ²_df >= χ²)``.
    * Pair ``(a, b)``: ``Δ = θ_a − θ_b``, ``Var Δ = s²(V10_a − V10_b)/n+ + s²(V01_a − V01_b)/n−``,
      ``z = Δ/std``, ``p = 2Φ(−|z|)``, interval ``Δ ∓ z_{1−α/2}·std``: the numbers of
      :func:`rocci.compare_auc` for that pair.  ``pvalue_adjusted``: Holm (1979),
      ``p̃_(i) = min(1, max_{j <= i} (m − j + 1) p_(j))`` over the ``m = k(k − 1)/2`` sorted p-values, or
      Bonferroni ``min(1, m·p)``.  Simultaneous intervals ``Δ ∓ c·std`` with ``c`` the ``confidence_level``
      quantile of ``max_ab |Z_ab|``, ``Z_ab = (X_a − X_b)/std_ab``, ``X ~ N(0, S)``: all hold together
      (asymptotically).
    * Ranking: ``p_best_auc = P(argmax_i (θ + X)_i = model)``, ``X ~ N(0, S)``; models with identical
      placements share one draw and split its wins evenly.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Labels.
    scores : dict {name: array_like of shape (n,)} or DataFrame
        Two or more models' scores of the same instances (a DataFrame: one column per model).  Names are
        taken as text and must be distinct.
    pos_label : object, optional
        As in :func:`rocci.roc_curve`.
    confidence_level : float, default 0.95
        Of each pointwise interval, of the simultaneous intervals together, and of the TPR intervals.
    adjust : {"holm", "bonferroni", "none"}
        Adjustment of the pairwise p-values.
    fpr : float, optional
        One false positive rate: adds each model's TPR there (:func:`rocci.vertical_ci`, default method,
        to :meth:`ManyComparison.leaderboard`) and each pair's exact paired law of ΔTPR
        (:func:`rocci.compare_vertical`, default method, to ``to_frame()``).
    cost : float, optional
        An operating point ``w`` in [0, 1] (thesis eq. 3.1; :func:`rocci.operating_point` makes it from a
        prior and two misclassification costs): adds each model's cost there (:func:`rocci.cost_ci`, to the
        leaderboard) and each pair's cost difference with its exact paired law (:func:`rocci.compare_cost`:
        ``delta_cost``, ``delta_cost_low``, ``delta_cost_high``, ``p_a_cheaper``, to ``to_frame()``).
    n_draws : int, default 1,000,000
        Draws of the joint normal for ``critical_value`` and ``p_best_auc``.
    seed : int, default 0
        Seed of those draws and of the resamples below (the result is reproducible).
    fpr_pairs : bool, default True
        With ``fpr``: also each pair's exact paired law of ΔTPR (:func:`rocci.compare_vertical`); False
        gives each model's TPR and ``p_best_tpr`` only (the dashboard's leaderboard: k(k − 1)/2 exact laws
        are the slow part at 10⁵ rows).
    n_boot : int, default 2000
        With ``fpr``: resamples of the rows behind ``p_best_tpr``, the probability that each model has the
        highest TPR at ``fpr`` (a seeded Monte Carlo of the paired stratified bootstrap: the joint law of k
        models' TPRs at one FPR is not computed in closed form), with its standard error ``p_best_tpr_se``.

    Returns
    -------
    ManyComparison
        ``to_frame()``: one row per pair; ``leaderboard()``: one row per model, best AUC first.

    Notes
    -----
    Monte Carlo, not closed form: ``critical_value`` (the quantile of a maximum of a degenerate
    ``k(k − 1)/2``-variate normal of rank ``k − 1``, which ``scipy.stats.multivariate_normal.cdf`` does not
    integrate) and ``p_best_auc``.  With the default 10⁶ draws the standard error of ``p_best_auc`` is at
    most 5e-4 (``p_best_auc_se``) and that of ``critical_value`` about 0.002 at 95%
    (``critical_value_se``): the simultaneous coverage is ``confidence_level`` ± 0.0004.  The draws are
    seeded (``seed``), so the same data give the same numbers.

    A pair with zero DeLong variance gets ``statistic = 0``, ``pvalue = 1`` if its AUCs are equal
    (identical rankings) and ``±∞``, ``0`` otherwise; :func:`rocci.compare_auc` raises for it.
    O(k·n log n + k²·n) for the DeLong part, no loop over instances, and O(k²) per draw: about 0.35 s for
    6 models × 10⁵ rows on two shared cores, most of it the 10⁶ draws (``bench/bench_many.py``).

    Examples
    --------
    >>> import numpy as np, rocci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.4
    >>> scores = {"a": y + rng.normal(size=400), "b": y + 2 * rng.normal(size=400), "c": rng.normal(size=400)}
    >>> res = rocci.compare_many(y, scores, n_draws=20_000)
    >>> res.df, bool(res.pvalue < 1e-6)
    (2, True)
    >>> list(res.leaderboard()["model"])
    ['a', 'b', 'c']
    """
    level = check_confidence_level(confidence_level)
    check_choice("adjust", adjust, ADJUSTMENTS)
    names, mask, arrays = _check_many(y_true, scores, pos_label)
    fpr_value = _check_one_fpr(fpr)
    n_draws, seed = _check_draws(n_draws, seed)
    n_pos, n_neg = int(mask.sum()), int(mask.size - mask.sum())
    _enough(n_pos, n_neg)
    z = float(special.ndtri(0.5 + level / 2))

    placed = [_sorted_placements(s, mask, n_pos, n_neg) for s in arrays]
    auc = np.array([p[4] for p in placed])
    v10, v01 = _instance_placements(placed, mask)
    cov = _sample_cov(v10) / n_pos + _sample_cov(v01) / n_neg
    reps = _representatives(v10, v01)
    chi2, df, pvalue = _equal_auc_test(auc, v10, v01, n_pos, n_neg, reps)
    del v10, v01

    pairs = list(itertools.combinations(range(len(names)), 2))
    pw = _pairwise(placed, mask.size, n_pos, n_neg, pairs, z)
    del placed
    distinct, slot = np.unique(reps, return_inverse=True)
    ia, ib = np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])
    mc = _joint_normal(auc[distinct], cov[np.ix_(distinct, distinct)], slot[ia], slot[ib], pw["std"], level,
                       n_draws, seed)
    share = np.bincount(slot)[slot]  # models in each model's group of identical ones
    crit = mc["crit"]
    auc_std = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    extra = {}
    if fpr_value is not None:
        extra = _vertical_columns(mask, arrays, pairs if fpr_pairs else [], fpr_value, level)
        if not fpr_pairs:
            for key in ("delta_tpr", "delta_tpr_std", "delta_tpr_low", "delta_tpr_high", "p_a_better", "p_tie"):
                extra[key] = None
        n_boot = int(n_boot)
        if n_boot < 1:
            raise InputError(f"n_boot ({n_boot}) must be a whole number of resamples, at least 1 (e.g. 2000).")
        extra["p_best_tpr"], extra["p_best_tpr_se"] = best_tpr(mask, arrays, fpr_value, n_boot, seed)
        extra["n_boot"] = n_boot
    extra.update(_cost_columns(mask, arrays, pairs, _check_w(cost), level))
    return ManyComparison(
        models=names,
        auc=auc,
        auc_std=auc_std,
        auc_low=np.clip(auc - z * auc_std, 0.0, 1.0),
        auc_high=np.clip(auc + z * auc_std, 0.0, 1.0),
        covariance=cov,
        chi2=chi2,
        df=df,
        pvalue=pvalue,
        model_a=np.array([names[a] for a in ia], dtype=object),
        model_b=np.array([names[b] for b in ib], dtype=object),
        delta_auc=pw["delta"],
        delta_auc_std=pw["std"],
        delta_auc_low=pw["low"],
        delta_auc_high=pw["high"],
        pair_statistic=pw["z"],
        pair_pvalue=pw["p"],
        pvalue_adjusted=_adjusted(pw["p"], adjust),
        delta_auc_low_simultaneous=np.maximum(-1.0, pw["delta"] - crit * pw["std"]),
        delta_auc_high_simultaneous=np.minimum(1.0, pw["delta"] + crit * pw["std"]),
        critical_value=crit,
        critical_value_se=mc["crit_se"],
        p_best_auc=mc["p_best"][slot] / share,
        p_best_auc_se=mc["p_best_se"][slot] / share,
        adjust=adjust,
        confidence_level=level,
        n_pos=n_pos,
        n_neg=n_neg,
        n_draws=n_draws,
        seed=seed,
        fpr=fpr_value,
        **extra,
    )
