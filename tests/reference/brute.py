"""Brute-force oracles for the stratified bootstrap of ROC statistics.

Nothing here imports :mod:`rocci`: every oracle is an independent
implementation written from the *definition* of the bootstrap, so that the
closed-form results of the package can be checked against it.

Definitions (math.md, Conventions, sections 1, 3 and 6)
--------------------------------------------------------
* A score ``s`` is predicted positive at threshold ``t`` when ``s >= t``.
* Stratified bootstrap: ``m_pos`` draws with replacement from the positives
  and, independently, ``m_neg`` draws from the negatives (each draw uniform
  over the instances of its class).
* Threshold averaging at a fixed threshold ``t``: ``TP* = #(positive draws
  with score >= t)``, ``FP* = #(negative draws with score >= t)``,
  ``TPR* = TP*/m_pos``, ``FPR* = FP*/m_neg``.
* Vertical averaging at FPR level ``r/m_neg`` (``1 <= r <= m_neg - 1``):
  ``T_r`` = the r-th largest negative score in the bootstrap sample (ties
  counted with multiplicity), ``TPR* = #(positive draws with score >= T_r) /
  m_pos``.
* AUC of a bootstrap sample: Mann-Whitney statistic over all
  ``m_pos * m_neg`` (positive draw, negative draw) pairs, a pair scoring 1
  when the positive draw's score is larger, 1/2 when tied, 0 otherwise.

Two oracles
-----------
:func:`enumerate_bootstrap`
    Exact: visits every stratified bootstrap sample. A sample of one class is
    a multiset of ``m`` draws from ``n`` instances, i.e. a count vector
    ``c`` (``c_i`` = how often instance ``i`` was drawn, ``sum c = m``),
    whose probability is the multinomial ``m!/prod(c_i!) * n**-m``. Samples
    of the two classes are independent, so the joint probability is the
    product. Every statistic is an integer (a count, or twice the
    Mann-Whitney pair count), and the probabilities are accumulated as exact
    integers over the common denominator ``n_pos**m_pos * n_neg**m_neg``:
    the laws returned are exact :class:`fractions.Fraction` values.
:func:`monte_carlo_bootstrap`
    Random: a seeded, vectorised resampling of indices (numpy ``Generator``),
    computing the same statistics from the drawn *scores* (sorting the drawn
    negative scores for ``T_r``, midranks for the AUC), i.e. by a different
    route than the enumeration.

Laws are ``dict`` mapping a value (a ``Fraction``, e.g. ``k/m_pos``) to its
probability (a ``Fraction``); :func:`law_mean`, :func:`law_var` and
:func:`law_quantile` work on them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Dict, Iterable, Sequence

import numpy as np

__all__ = [
    "ExactLaws",
    "MonteCarloSample",
    "class_samples",
    "enumerate_bootstrap",
    "enumerate_ordered_draws",
    "monte_carlo_bootstrap",
    "law_mean",
    "law_var",
    "law_cdf",
    "law_quantile",
    "empirical_quantile",
    "mann_whitney_auc",
    "delong_variance_direct",
    "hanley_mcneil_variance",
]

Law = Dict[Fraction, Fraction]


# ---------------------------------------------------------------------------
# Small helpers on laws
# ---------------------------------------------------------------------------
def law_mean(law: Law) -> Fraction:
    """Exact mean ``sum v * p`` of a law ``{value: probability}``."""
    return sum((v * p for v, p in law.items()), Fraction(0))


def law_var(law: Law) -> Fraction:
    """Exact variance ``sum (v - mean)**2 * p`` of a law."""
    mu = law_mean(law)
    return sum(((v - mu) ** 2 * p for v, p in law.items()), Fraction(0))


def law_cdf(law: Law, x) -> Fraction:
    """``P(X <= x)`` for a law ``{value: probability}``."""
    return sum((p for v, p in law.items() if v <= x), Fraction(0))


def law_quantile(law: Law, level) -> Fraction:
    """Smallest value ``v`` of the law's support with ``P(X <= v) >= level``.

    This is the definition used for the percentile interval (api brief):
    ``low = law_quantile(law, a/2)``, ``high = law_quantile(law, 1 - a/2)``.
    ``level`` may be a float or a Fraction; the comparison is exact against
    the Fraction CDF.
    """
    level = Fraction(level)
    acc = Fraction(0)
    for v in sorted(law):
        acc += law[v]
        if acc >= level:
            return v
    return max(law)


def empirical_quantile(samples: np.ndarray, level: float) -> float:
    """Smallest observed value ``v`` with empirical ``P(X <= v) >= level``."""
    x = np.sort(np.asarray(samples))
    k = int(math.ceil(level * x.size - 1e-12))  # need at least k observations
    k = min(max(k, 1), x.size)
    return float(x[k - 1])


# ---------------------------------------------------------------------------
# Exact enumeration
# ---------------------------------------------------------------------------
def class_samples(n: int, m: int):
    """Every bootstrap sample of one class, as count vectors and weights.

    Enumerates all multisets of ``m`` draws from ``n`` instances (there are
    ``C(n + m - 1, m)`` of them) via
    ``itertools.combinations_with_replacement``.

    Returns
    -------
    counts : ndarray of int64, shape (N, n)
        ``counts[s, i]`` = how often instance ``i`` is drawn in sample ``s``.
    weights : ndarray of object (Python int), shape (N,)
        The multinomial coefficient ``m! / prod_i counts[s, i]!``: the number
        of ordered draw sequences giving that multiset. The probability of
        the sample is ``weights[s] / n**m``; ``weights.sum() == n**m``.
    """
    rows = []
    weights = []
    fact_m = math.factorial(m)
    for combo in itertools.combinations_with_replacement(range(n), m):
        c = np.bincount(np.asarray(combo, dtype=np.int64), minlength=n)
        rows.append(c)
        w = fact_m
        for ci in c:
            w //= math.factorial(int(ci))
        weights.append(w)
    counts = np.array(rows, dtype=np.int64).reshape(len(rows), n)
    w = np.empty(len(weights), dtype=object)
    w[:] = weights
    assert sum(weights) == n**m
    return counts, w


def _accumulate(keys: np.ndarray, weights: np.ndarray, scale: Fraction) -> Dict[int, Fraction]:
    """Exact ``{key: scale * sum(weights[keys == key])}`` with Python ints."""
    out: Dict[int, int] = {}
    for k, w in zip(keys.tolist(), weights.tolist()):
        out[k] = out.get(k, 0) + w
    return {k: scale * w for k, w in out.items()}


@dataclass
class ExactLaws:
    """Exact bootstrap laws found by :func:`enumerate_bootstrap`.

    Attributes
    ----------
    m_pos, m_neg : int
        Bootstrap sample sizes.
    thresholds : list of float
        The thresholds ``t`` at which ``tpr`` and ``fpr`` were computed.
    tpr, fpr : list of dict
        ``tpr[j]`` is the law ``{k/m_pos: P(TP* = k)}`` at ``thresholds[j]``;
        ``fpr[j]`` likewise ``{k/m_neg: P(FP* = k)}``.
    levels : list of int
        The levels ``r`` of the vertical averaging.
    vertical : list of dict
        ``vertical[j]`` is the law ``{l/m_pos: P(TPR* = l/m_pos)}`` at FPR
        level ``levels[j]/m_neg``.
    threshold_law : list of dict
        ``threshold_law[j]`` is the law ``{score: P(T_r = score)}`` of the
        r-th largest negative draw, ``r = levels[j]`` (keys are floats).
    auc : dict
        Law ``{A: P(AUC* = A)}`` of the bootstrap AUC (keys are Fractions
        ``pairs / (2 m_pos m_neg)``, pairs counted twice so ties are whole).
    n_samples : int
        Number of (positive multiset, negative multiset) samples visited.
    """

    m_pos: int
    m_neg: int
    thresholds: list = field(default_factory=list)
    tpr: list = field(default_factory=list)
    fpr: list = field(default_factory=list)
    levels: list = field(default_factory=list)
    vertical: list = field(default_factory=list)
    threshold_law: list = field(default_factory=list)
    auc: dict = field(default_factory=dict)
    n_samples: int = 0


def enumerate_bootstrap(
    pos: Sequence[float],
    neg: Sequence[float],
    m_pos: int | None = None,
    m_neg: int | None = None,
    *,
    thresholds: Iterable[float] | None = None,
    levels: Iterable[int] | None = None,
    auc: bool = True,
) -> ExactLaws:
    """Exact stratified-bootstrap laws by visiting every bootstrap sample.

    Every pair (multiset of ``m_pos`` draws from the ``n_pos`` positives,
    multiset of ``m_neg`` draws from the ``n_neg`` negatives) is visited, with
    probability ``w_pos * w_neg / (n_pos**m_pos * n_neg**m_neg)`` where
    ``w`` are the multinomial coefficients of :func:`class_samples`. For each
    sample:

    * ``TP*`` and ``FP*`` at every threshold ``t`` in ``thresholds``
      (``score >= t`` is positive; ``+inf`` gives 0);
    * for every ``r`` in ``levels``: ``T_r``, the r-th largest negative draw
      (drawn negatives sorted in decreasing order with multiplicity), and
      ``TP* = #(positive draws >= T_r)``;
    * twice the Mann-Whitney pair count ``sum_{i,j} c_i d_j psi2(x_i, y_j)``
      with ``psi2 = 2, 1, 0`` for ``x > y``, ``x == y``, ``x < y``.

    The probabilities of equal values are summed exactly (Python integers),
    then divided by the common denominator.

    Parameters
    ----------
    pos, neg : sequences of float
        Scores of the positives and negatives (tiny: the number of samples is
        ``C(n_pos+m_pos-1, m_pos) * C(n_neg+m_neg-1, m_neg)``).
    m_pos, m_neg : int, optional
        Bootstrap sample sizes; default ``n_pos`` and ``n_neg``.
    thresholds : iterable of float, optional
        Default: ``+inf`` then every distinct score in decreasing order.
    levels : iterable of int, optional
        Default: ``1 .. m_neg - 1``.
    auc : bool
        Whether to compute the AUC law.

    Returns
    -------
    ExactLaws
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    n_pos, n_neg = pos.size, neg.size
    m_pos = n_pos if m_pos is None else int(m_pos)
    m_neg = n_neg if m_neg is None else int(m_neg)
    if thresholds is None:
        thresholds = [math.inf] + sorted(set(np.r_[pos, neg].tolist()), reverse=True)
    thresholds = [float(t) for t in thresholds]
    levels = list(range(1, m_neg)) if levels is None else [int(r) for r in levels]
    for r in levels:
        if not 1 <= r <= m_neg:
            raise ValueError(f"level r={r} outside 1..m_neg={m_neg}")

    C, wc = class_samples(n_pos, m_pos)  # (Np, n_pos)
    D, wd = class_samples(n_neg, m_neg)  # (Nn, n_neg)
    p_scale = Fraction(1, n_pos**m_pos)
    n_scale = Fraction(1, n_neg**m_neg)
    total = Fraction(1, n_pos**m_pos * n_neg**m_neg)

    out = ExactLaws(m_pos=m_pos, m_neg=m_neg, thresholds=thresholds, levels=levels)
    out.n_samples = C.shape[0] * D.shape[0]

    # --- threshold averaging: TP* and FP* -----------------------------------
    # The joint sample's TP* depends on its positive part only; summing the
    # joint weights over the negative part multiplies by sum(wd) = n_neg**m_neg,
    # which cancels exactly. We still go through the joint weights to stay
    # with the definition (every sample visited).
    wd_sum = sum(wd.tolist())
    wc_sum = sum(wc.tolist())
    for t in thresholds:
        tp = C @ (pos >= t).astype(np.int64)  # (Np,)
        fp = D @ (neg >= t).astype(np.int64)  # (Nn,)
        tp_law = _accumulate(tp, wc * wd_sum, total)
        fp_law = _accumulate(fp, wd * wc_sum, total)
        out.tpr.append({Fraction(k, m_pos): p for k, p in sorted(tp_law.items())})
        out.fpr.append({Fraction(k, m_neg): p for k, p in sorted(fp_law.items())})

    # --- vertical averaging ----------------------------------------------------
    order = np.argsort(-neg, kind="stable")
    neg_sorted = neg[order]
    D_sorted = D[:, order]
    cum = np.cumsum(D_sorted, axis=1)  # (Nn, n_neg): draws among the top k+1
    joint_w = np.outer(wc, wd)  # object array of Python ints, (Np, Nn)
    for r in levels:
        # index (into neg_sorted) of the r-th largest negative draw
        k_r = np.argmax(cum >= r, axis=1)
        t_r = neg_sorted[k_r]  # (Nn,)
        # threshold law
        tl: Dict[float, int] = {}
        for tv, w in zip(t_r.tolist(), wd.tolist()):
            tl[tv] = tl.get(tv, 0) + w
        out.threshold_law.append(
            {tv: n_scale * w for tv, w in sorted(tl.items(), reverse=True)}
        )
        # positive count above T_r, for every (pos sample, neg sample) pair
        above = (pos[:, None] >= t_r[None, :]).astype(np.int64)  # (n_pos, Nn)
        tp = C @ above  # (Np, Nn)
        law = _accumulate(tp.ravel(), joint_w.ravel(), total)
        out.vertical.append({Fraction(k, m_pos): p for k, p in sorted(law.items())})

    # --- AUC ------------------------------------------------------------------
    if auc:
        psi2 = 2 * (pos[:, None] > neg[None, :]).astype(np.int64) + (
            pos[:, None] == neg[None, :]
        ).astype(np.int64)
        pairs2 = C @ psi2 @ D.T  # (Np, Nn), twice the Mann-Whitney count
        law = _accumulate(pairs2.ravel(), joint_w.ravel(), total)
        out.auc = {Fraction(k, 2 * m_pos * m_neg): p for k, p in sorted(law.items())}
    return out


def enumerate_ordered_draws(pos, neg, m_pos, m_neg, t: float, r: int):
    """Laws of TP*, FP*, vertical TPR* and AUC* over every ORDERED draw sequence.

    The most literal oracle, for the tiniest data only: iterates over all
    ``n_pos**m_pos * n_neg**m_neg`` equally likely ordered sequences of
    indices (``itertools.product``), each with probability
    ``1/(n_pos**m_pos * n_neg**m_neg)``. Used to check the multiset weights of
    :func:`enumerate_bootstrap`.

    Returns
    -------
    dict
        ``{"tpr": law, "fpr": law, "vertical": law, "auc": law}`` with the
        same value conventions as :class:`ExactLaws`.
    """
    pos = [float(x) for x in pos]
    neg = [float(y) for y in neg]
    pos_seqs = list(itertools.product(range(len(pos)), repeat=m_pos))
    neg_seqs = list(itertools.product(range(len(neg)), repeat=m_neg))
    p = Fraction(1, len(pos_seqs) * len(neg_seqs))
    laws = {"tpr": {}, "fpr": {}, "vertical": {}, "auc": {}}

    def add(name, value):
        laws[name][value] = laws[name].get(value, Fraction(0)) + p

    for ps in pos_seqs:
        xs = [pos[i] for i in ps]
        for ns in neg_seqs:
            ys = [neg[j] for j in ns]
            add("tpr", Fraction(sum(x >= t for x in xs), m_pos))
            add("fpr", Fraction(sum(y >= t for y in ys), m_neg))
            t_r = sorted(ys, reverse=True)[r - 1]
            add("vertical", Fraction(sum(x >= t_r for x in xs), m_pos))
            s2 = sum(2 if x > y else (1 if x == y else 0) for x in xs for y in ys)
            add("auc", Fraction(s2, 2 * m_pos * m_neg))
    return {k: dict(sorted(v.items())) for k, v in laws.items()}


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------
@dataclass
class MonteCarloSample:
    """Per-resample statistics from :func:`monte_carlo_bootstrap`.

    Attributes
    ----------
    tp : ndarray of int, shape (B, len(thresholds))
        ``TP*`` at each threshold (``TPR* = tp / m_pos``).
    fp : ndarray of int, shape (B, len(thresholds))
        ``FP*`` at each threshold.
    vertical_tp : ndarray of int, shape (B, len(levels))
        ``#(positive draws >= T_r)`` at each level (``TPR* = / m_pos``).
    t_r : ndarray of float, shape (B, len(levels))
        ``T_r`` itself.
    auc : ndarray of float, shape (B,)
        Mann-Whitney AUC (ties 1/2) of each resample, or empty.
    """

    m_pos: int
    m_neg: int
    thresholds: np.ndarray
    levels: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    vertical_tp: np.ndarray
    t_r: np.ndarray
    auc: np.ndarray


def _midranks(x: np.ndarray) -> np.ndarray:
    """Row-wise midranks (1-based, ties get their average rank) of a 2-D array."""
    b, n = x.shape
    order = np.argsort(x, axis=1, kind="stable")
    xs = np.take_along_axis(x, order, axis=1)
    # group boundaries of equal values, per row
    new = np.ones((b, n), dtype=bool)
    new[:, 1:] = xs[:, 1:] != xs[:, :-1]
    grp = np.cumsum(new, axis=1) - 1  # group id within the row
    flat = grp + (np.arange(b) * n)[:, None]
    pos1 = np.broadcast_to(np.arange(1, n + 1, dtype=np.float64), (b, n))
    sums = np.bincount(flat.ravel(), weights=pos1.ravel(), minlength=b * n)
    cnts = np.bincount(flat.ravel(), minlength=b * n)
    mid_sorted = (sums / np.maximum(cnts, 1))[flat]
    ranks = np.empty_like(mid_sorted)
    np.put_along_axis(ranks, order, mid_sorted, axis=1)
    return ranks


def monte_carlo_bootstrap(
    pos: Sequence[float],
    neg: Sequence[float],
    m_pos: int | None = None,
    m_neg: int | None = None,
    *,
    thresholds: Iterable[float] = (),
    levels: Iterable[int] = (),
    auc: bool = True,
    n_resamples: int = 200_000,
    seed: int = 0,
    chunk: int = 20_000,
) -> MonteCarloSample:
    """Seeded Monte Carlo stratified bootstrap of the same statistics.

    For each of ``n_resamples`` resamples: ``m_pos`` indices drawn uniformly
    with replacement from the positives and ``m_neg`` from the negatives
    (``numpy.random.default_rng(seed).integers``, in chunks of ``chunk``
    resamples). From the drawn *scores*:

    * ``TP*``/``FP*`` = number of drawn scores ``>= t``;
    * ``T_r`` = the ``r``-th entry of the drawn negative scores sorted in
      decreasing order, and the number of drawn positive scores ``>= T_r``;
    * the AUC from midranks of the pooled drawn scores:
      ``(sum of the positives' midranks - m_pos (m_pos + 1) / 2) / (m_pos m_neg)``.

    Returns
    -------
    MonteCarloSample
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    m_pos = pos.size if m_pos is None else int(m_pos)
    m_neg = neg.size if m_neg is None else int(m_neg)
    thr = np.asarray(list(thresholds), dtype=np.float64)
    lev = np.asarray(list(levels), dtype=np.int64)
    rng = np.random.default_rng(seed)
    tp_all, fp_all, vt_all, tr_all, auc_all = [], [], [], [], []
    done = 0
    while done < n_resamples:
        b = min(chunk, n_resamples - done)
        xs = pos[rng.integers(0, pos.size, size=(b, m_pos))]
        ys = neg[rng.integers(0, neg.size, size=(b, m_neg))]
        if thr.size:
            # count of drawn scores >= t: via sorted rows and searchsorted-free
            # comparison, chunked over thresholds to bound memory
            tp = np.empty((b, thr.size), dtype=np.int64)
            fp = np.empty((b, thr.size), dtype=np.int64)
            for j, t in enumerate(thr):
                tp[:, j] = (xs >= t).sum(axis=1)
                fp[:, j] = (ys >= t).sum(axis=1)
            tp_all.append(tp)
            fp_all.append(fp)
        if lev.size:
            ys_desc = -np.sort(-ys, axis=1)
            t_r = ys_desc[:, lev - 1]  # (b, L)
            vt = (xs[:, :, None] >= t_r[:, None, :]).sum(axis=1)
            vt_all.append(vt)
            tr_all.append(t_r)
        if auc:
            ranks = _midranks(np.concatenate([xs, ys], axis=1))
            rsum = ranks[:, :m_pos].sum(axis=1)
            auc_all.append((rsum - m_pos * (m_pos + 1) / 2.0) / (m_pos * m_neg))
        done += b

    def cat(parts, shape1):
        if parts:
            return np.concatenate(parts, axis=0)
        return np.empty((n_resamples, shape1)) if shape1 else np.empty(0)

    return MonteCarloSample(
        m_pos=m_pos,
        m_neg=m_neg,
        thresholds=thr,
        levels=lev,
        tp=cat(tp_all, thr.size),
        fp=cat(fp_all, thr.size),
        vertical_tp=cat(vt_all, lev.size),
        t_r=cat(tr_all, lev.size),
        auc=np.concatenate(auc_all) if auc_all else np.empty(0),
    )


# ---------------------------------------------------------------------------
# Direct (quadratic) AUC statistics
# ---------------------------------------------------------------------------
def _psi(pos, neg) -> np.ndarray:
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    return (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])


def mann_whitney_auc(pos, neg) -> Fraction:
    """AUC by counting every (positive, negative) pair: 1 if the positive is
    higher, 1/2 if tied. Returned as an exact Fraction."""
    s2 = 0
    for x in pos:
        for y in neg:
            s2 += 2 if x > y else (1 if x == y else 0)
    return Fraction(s2, 2 * len(pos) * len(neg))


def delong_variance_direct(pos, neg) -> float:
    """DeLong's variance by its O(n_pos n_neg) definition.

    Placement values ``V10_i = mean_j psi(x_i, y_j)`` and
    ``V01_j = mean_i psi(x_i, y_j)``;
    ``var = var(V10, ddof=1)/n_pos + var(V01, ddof=1)/n_neg``.
    """
    psi = _psi(pos, neg)
    v10 = psi.mean(axis=1)
    v01 = psi.mean(axis=0)
    return float(v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size)


def hanley_mcneil_variance(auc: float, n_pos: int, n_neg: int) -> float:
    """Hanley & McNeil (1982): ``(A(1-A) + (n_pos-1)(Q1-A^2) + (n_neg-1)(Q2-A^2)) /
    (n_pos n_neg)`` with ``Q1 = A/(2-A)``, ``Q2 = 2A^2/(1+A)``."""
    a = float(auc)
    q1 = a / (2 - a)
    q2 = 2 * a * a / (1 + a)
    return (a * (1 - a) + (n_pos - 1) * (q1 - a * a) + (n_neg - 1) * (q2 - a * a)) / (
        n_pos * n_neg
    )
