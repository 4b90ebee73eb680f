"""Brute-force oracles for cost curves and their bootstrap (no rocci import).

Written from the definitions in math.md §5, independently of ``rocci.cost``:

* cost line of a threshold ``t``: ``NEC_t(w) = w·(1 − TPR_t) + (1 − w)·FPR_t``
  (``score >= t`` is positive); the cost curve is ``min_t NEC_t(w)`` over
  ``t = +inf`` and every distinct score, ties → the highest threshold;
* stratified bootstrap: ``m_pos`` draws from the positives and ``m_neg`` from
  the negatives, ``C* = w·FN*/m_pos + (1 − w)·FP*/m_neg``;
* full bootstrap: ``m`` draws from the pooled data,
  ``C* = w·FN*/(m·π+) + (1 − w)·FP*/(m·π−)`` with ``π± = n±/n`` (the scale of
  the stratified cost, math.md §5);
* paired (two models on the same instances, thresholds ``ta``, ``tb``):
  ``ΔC* = C_a* − C_b* = w(B+* − A+*)/M+ + (1 − w)(A−* − B−*)/M−`` where ``A``
  counts the draws model a calls positive and b negative, ``B`` the reverse
  (A − B, rocci's direction since 0.2.0; the thesis's ``C2 − C1`` is its
  negative).

:func:`enumerate_cost` and :func:`enumerate_delta_cost` visit every bootstrap
sample (every multiset of draws, weighted by its multinomial coefficient, as in
:func:`tests.reference.brute.class_samples`) and return exact laws
``{Fraction value: Fraction probability}``; ``w`` is taken as the exact
rational value of the float.  :func:`monte_carlo_cost` and
:func:`monte_carlo_delta_cost` resample indices with a seeded numpy Generator
and compute the statistic from the drawn scores.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Dict

import numpy as np

from .brute import class_samples

__all__ = [
    "roc_points",
    "brute_envelope",
    "envelope_kinks",
    "enumerate_cost",
    "enumerate_delta_cost",
    "monte_carlo_cost",
    "monte_carlo_delta_cost",
    "law_lt",
]

Law = Dict[Fraction, Fraction]


# ---------------------------------------------------------------------------
# Cost lines and their lower envelope
# ---------------------------------------------------------------------------
def roc_points(pos, neg):
    """Thresholds (``+inf``, then distinct scores decreasing) and exact rates.

    Returns ``(thresholds, fpr, tpr)`` with ``fpr``, ``tpr`` lists of Fractions.
    """
    pos = [float(x) for x in pos]
    neg = [float(x) for x in neg]
    thresholds = [math.inf] + sorted(set(pos + neg), reverse=True)
    fpr = [Fraction(sum(y >= t for y in neg), len(neg)) for t in thresholds]
    tpr = [Fraction(sum(x >= t for x in pos), len(pos)) for t in thresholds]
    return thresholds, fpr, tpr


def brute_envelope(pos, neg, w, tol: float = 1e-12):
    """Minimum over every threshold of ``NEC_t(w)`` and the highest minimiser.

    Costs within ``tol`` of the minimum count as tied (float arithmetic, an
    O(h·k) table of every cost line at every ``w``).

    Returns
    -------
    cost, threshold : ndarray of shape (len(w),)
    """
    thresholds, fpr, tpr = roc_points(pos, neg)
    t = np.asarray(thresholds)
    f = np.asarray([float(v) for v in fpr])[:, None]
    s = np.asarray([float(v) for v in tpr])[:, None]
    w = np.asarray(w, dtype=float)[None, :]
    nec = w * (1 - s) + (1 - w) * f  # (h, k), thresholds decreasing down the rows
    best = nec.min(axis=0)
    first = np.argmax(nec <= best + tol, axis=0)  # highest threshold among the tied
    return best, t[first]


def envelope_kinks(pos, neg):
    """Exact ``w`` in (0, 1) where the lower envelope of the cost lines bends.

    Two cost lines with different slopes that are both minimal at their
    crossing point make a kink there.  Every pair of lines is tried, in
    Fractions.
    """
    _, fpr, tpr = roc_points(pos, neg)
    lines = sorted({(f, 1 - s - f) for f, s in zip(fpr, tpr)})  # (intercept, slope)
    kinks = set()
    for i, (f1, s1) in enumerate(lines):
        for f2, s2 in lines[i + 1:]:
            if s1 == s2:
                continue
            w = (f2 - f1) / (s1 - s2)
            if not 0 < w < 1:
                continue
            env = min(f + s * w for f, s in lines)
            if f1 + s1 * w == env:
                kinks.add(w)
    return sorted(kinks)


# ---------------------------------------------------------------------------
# Exact enumeration
# ---------------------------------------------------------------------------
def _pair_law(keys_pos, w_pos, keys_neg, w_neg, value, denominator) -> Law:
    """Law of ``value(kp, kn)`` over every (positive sample, negative sample) pair."""
    acc: Dict[Fraction, int] = {}
    for kp, wp in zip(keys_pos, w_pos):
        for kn, wn in zip(keys_neg, w_neg):
            v = value(kp, kn)
            acc[v] = acc.get(v, 0) + wp * wn
    return {v: Fraction(c, denominator) for v, c in sorted(acc.items())}


def _single_law(keys, weights, value, denominator) -> Law:
    acc: Dict[Fraction, int] = {}
    for k, wt in zip(keys, weights):
        v = value(k)
        acc[v] = acc.get(v, 0) + wt
    return {v: Fraction(c, denominator) for v, c in sorted(acc.items())}


def enumerate_cost(pos, neg, t: float, w: float, *, bootstrap: str = "stratified", m=None) -> Law:
    """Exact law of the bootstrap cost ``C*`` at threshold ``t`` by visiting every sample.

    ``m``: ``(m_pos, m_neg)`` for the stratified bootstrap (default the class
    sizes), the number of pooled draws for the full bootstrap (default ``n``).
    """
    pos = np.asarray(pos, dtype=float)
    neg = np.asarray(neg, dtype=float)
    W = Fraction(float(w))
    n_pos, n_neg = pos.size, neg.size
    if bootstrap == "stratified":
        m_pos, m_neg = (n_pos, n_neg) if m is None else m
        C, wc = class_samples(n_pos, m_pos)
        D, wd = class_samples(n_neg, m_neg)
        fn = (C @ (pos < t).astype(np.int64)).tolist()
        fp = (D @ (neg >= t).astype(np.int64)).tolist()
        return _pair_law(
            fn, wc.tolist(), fp, wd.tolist(),
            lambda a, b: W * Fraction(a, m_pos) + (1 - W) * Fraction(b, m_neg),
            n_pos**m_pos * n_neg**m_neg,
        )
    n = n_pos + n_neg
    m = n if m is None else int(m)
    is_fn = np.r_[pos < t, np.zeros(n_neg, bool)].astype(np.int64)
    is_fp = np.r_[np.zeros(n_pos, bool), neg >= t].astype(np.int64)
    E, we = class_samples(n, m)
    keys = list(zip((E @ is_fn).tolist(), (E @ is_fp).tolist()))
    scale_pos, scale_neg = Fraction(m * n_pos, n), Fraction(m * n_neg, n)
    return _single_law(
        keys, we.tolist(),
        lambda k: W * k[0] / scale_pos + (1 - W) * k[1] / scale_neg,
        n**m,
    )


def _cells(sa, sb, ta, tb):
    sa, sb = np.asarray(sa, float), np.asarray(sb, float)
    a = ((sa >= ta) & (sb < tb)).astype(np.int64)
    b = ((sa < ta) & (sb >= tb)).astype(np.int64)
    return a, b


def enumerate_delta_cost(pos_a, pos_b, neg_a, neg_b, ta: float, tb: float, w: float, *,
                         bootstrap: str = "stratified", m=None) -> Law:
    """Exact law of ``ΔC* = C_a* − C_b*`` by visiting every bootstrap sample."""
    W = Fraction(float(w))
    a_pos, b_pos = _cells(pos_a, pos_b, ta, tb)
    a_neg, b_neg = _cells(neg_a, neg_b, ta, tb)
    n_pos, n_neg = a_pos.size, a_neg.size
    if bootstrap == "stratified":
        m_pos, m_neg = (n_pos, n_neg) if m is None else m
        C, wc = class_samples(n_pos, m_pos)
        D, wd = class_samples(n_neg, m_neg)
        u = (C @ b_pos - C @ a_pos).tolist()
        v = (D @ a_neg - D @ b_neg).tolist()
        return _pair_law(
            u, wc.tolist(), v, wd.tolist(),
            lambda x, y: W * Fraction(x, m_pos) + (1 - W) * Fraction(y, m_neg),
            n_pos**m_pos * n_neg**m_neg,
        )
    n = n_pos + n_neg
    m = n if m is None else int(m)
    zp, zn = np.zeros(n_pos, np.int64), np.zeros(n_neg, np.int64)
    E, we = class_samples(n, m)
    u = (E @ np.r_[b_pos, zn] - E @ np.r_[a_pos, zn]).tolist()
    v = (E @ np.r_[zp, a_neg] - E @ np.r_[zp, b_neg]).tolist()
    scale_pos, scale_neg = Fraction(m * n_pos, n), Fraction(m * n_neg, n)
    return _single_law(
        list(zip(u, v)), we.tolist(),
        lambda k: W * k[0] / scale_pos + (1 - W) * k[1] / scale_neg,
        n**m,
    )


def law_lt(law: Law, x) -> Fraction:
    """``P(X < x)``."""
    return sum((p for v, p in law.items() if v < x), Fraction(0))


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------
def _resample(n_pos, n_neg, bootstrap, m, n_resamples, seed, chunk):
    """Yield per-chunk index arrays ``(pos_idx, neg_idx)`` or ``(pooled_idx,)``."""
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_resamples:
        b = min(chunk, n_resamples - done)
        if bootstrap == "stratified":
            m_pos, m_neg = m
            yield rng.integers(0, n_pos, size=(b, m_pos)), rng.integers(0, n_neg, size=(b, m_neg))
        else:
            yield (rng.integers(0, n_pos + n_neg, size=(b, m)),)
        done += b


def monte_carlo_cost(pos, neg, t: float, w: float, *, bootstrap: str = "stratified", m=None,
                     n_resamples: int = 100_000, seed: int = 0, chunk: int = 20_000) -> np.ndarray:
    """``C*`` of ``n_resamples`` seeded bootstrap resamples, from the drawn scores."""
    pos = np.asarray(pos, dtype=float)
    neg = np.asarray(neg, dtype=float)
    n_pos, n_neg = pos.size, neg.size
    if bootstrap == "stratified":
        m = (n_pos, n_neg) if m is None else m
    else:
        m = n_pos + n_neg if m is None else int(m)
    out = []
    for idx in _resample(n_pos, n_neg, bootstrap, m, n_resamples, seed, chunk):
        if bootstrap == "stratified":
            fn = (pos[idx[0]] < t).sum(axis=1)
            fp = (neg[idx[1]] >= t).sum(axis=1)
            out.append(w * fn / m[0] + (1 - w) * fp / m[1])
        else:
            scores = np.r_[pos, neg][idx[0]]
            label = (idx[0] < n_pos)
            fn = (label & (scores < t)).sum(axis=1)
            fp = (~label & (scores >= t)).sum(axis=1)
            n = n_pos + n_neg
            out.append(w * fn / (m * n_pos / n) + (1 - w) * fp / (m * n_neg / n))
    return np.concatenate(out)


def monte_carlo_delta_cost(pos_a, pos_b, neg_a, neg_b, ta: float, tb: float, w: float, *,
                           bootstrap: str = "stratified", m=None, n_resamples: int = 100_000,
                           seed: int = 0, chunk: int = 20_000) -> np.ndarray:
    """``ΔC* = C_a* − C_b*`` of seeded resamples, from the drawn score pairs."""
    pa, pb = np.asarray(pos_a, float), np.asarray(pos_b, float)
    na, nb = np.asarray(neg_a, float), np.asarray(neg_b, float)
    n_pos, n_neg = pa.size, na.size
    n = n_pos + n_neg
    if bootstrap == "stratified":
        m = (n_pos, n_neg) if m is None else m
    else:
        m = n if m is None else int(m)
    out = []
    for idx in _resample(n_pos, n_neg, bootstrap, m, n_resamples, seed, chunk):
        if bootstrap == "stratified":
            xa, xb = pa[idx[0]], pb[idx[0]]
            ya, yb = na[idx[1]], nb[idx[1]]
            # Costs of each model on the resample, then their difference.
            ca = w * (xa < ta).sum(1) / m[0] + (1 - w) * (ya >= ta).sum(1) / m[1]
            cb = w * (xb < tb).sum(1) / m[0] + (1 - w) * (yb >= tb).sum(1) / m[1]
        else:
            sa, sb = np.r_[pa, na][idx[0]], np.r_[pb, nb][idx[0]]
            label = idx[0] < n_pos
            mp, mn = m * n_pos / n, m * n_neg / n
            ca = w * (label & (sa < ta)).sum(1) / mp + (1 - w) * (~label & (sa >= ta)).sum(1) / mn
            cb = w * (label & (sb < tb)).sum(1) / mp + (1 - w) * (~label & (sb >= tb)).sum(1) / mn
        out.append(ca - cb)
    return np.concatenate(out)
