"""Brute-force oracles for two models scored on the same instances (paired designs).

Nothing here imports :mod:`rocci`.  Each oracle is written from a definition,
independently of the closed forms in ``rocci/compare.py``.

Definitions (math.md, Conventions and section 2)
------------------------------------------------
* ``s >= t`` is predicted positive.  At a threshold pair ``(t_a, t_b)``:
  ``TP*_a`` = number of positive draws with ``s_a >= t_a``, ``TP*_b`` with
  ``s_b >= t_b`` (the same draws: a draw is an *instance*, carrying both
  scores); ``ΔTP* = TP*_a − TP*_b``; likewise ``ΔFP*`` over the negative
  draws.  ``ΔTPR* = ΔTP*/m_pos``, ``ΔFPR* = ΔFP*/m_neg``.
* Model a dominates strictly (eq. 4.5) when ``ΔTP* >= 0`` and ``ΔFP* <= 0``
  and not both are 0; model b dominates when ``ΔTP* <= 0``, ``ΔFP* >= 0``,
  not both 0.
* Stratified bootstrap: ``m_pos`` draws with replacement from the positives,
  independently ``m_neg`` from the negatives.

Oracles
-------
:func:`enumerate_paired_bootstrap`
    Visits every stratified bootstrap sample (a multiset of positive draws and
    one of negative draws, with their multinomial weights from
    :func:`brute.class_samples`), evaluates ``ΔTP*``, ``ΔFP*`` and the
    dominance events *on each joint sample*, and sums the probabilities as
    exact integers over the common denominator ``n_pos**m_pos * n_neg**m_neg``.
:func:`monte_carlo_paired`
    Seeded, vectorised resampling of instance indices.
:func:`trinomial_difference_law`
    The law of ``A − B`` for ``(A, B, C) ~ Multinomial(m; p_a, p_b, p_c)`` by
    summing every trinomial term (exact Fractions for rational inputs).
:func:`sign_probabilities_logspace`
    The same sums for large ``m`` in floating point, every term
    ``exp(log multinomial)`` (log-gamma), i.e. the "work in log space" remedy.
:func:`thesis_algorithm_4_2`
    The thesis's Algorithm 4.2 as printed except line 4, corrected to
    ``v = n_b/((1 − u)·n)``; kept to demonstrate its underflow.
:func:`delong_paired_direct`
    DeLong's paired variance from the O(n_pos·n_neg) kernel matrices and the
    2 × 2 covariance matrices of the paper.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Dict, Sequence

import numpy as np
from scipy import special

try:  # as a package (tests/reference) or with tests/reference on sys.path
    from .brute import class_samples
except ImportError:  # pragma: no cover
    from brute import class_samples

__all__ = [
    "PairedLaws",
    "enumerate_paired_bootstrap",
    "monte_carlo_paired",
    "trinomial_difference_law",
    "sign_probabilities_logspace",
    "thesis_algorithm_4_2",
    "delong_paired_direct",
]


class PairedLaws:
    """Exact laws found by :func:`enumerate_paired_bootstrap` (one entry per threshold pair).

    Attributes
    ----------
    d_tp, d_fp : list of dict
        ``{k: P(ΔTP* = k)}`` and ``{k: P(ΔFP* = k)}`` (integer keys, Fraction values).
    f1, f2 : list of Fraction
        P(a dominates strictly), P(b dominates strictly), from the joint samples.
    n_samples : int
        Joint samples visited per pair.
    """

    def __init__(self):
        self.d_tp: list = []
        self.d_fp: list = []
        self.f1: list = []
        self.f2: list = []
        self.n_samples = 0


def _law(values: np.ndarray, weights: np.ndarray, denom: int) -> Dict[int, Fraction]:
    out: Dict[int, int] = {}
    for v, w in zip(values.tolist(), weights.tolist()):
        out[v] = out.get(v, 0) + int(w)
    return {v: Fraction(w, denom) for v, w in sorted(out.items())}


def enumerate_paired_bootstrap(pos_a, pos_b, neg_a, neg_b, pairs, m_pos=None, m_neg=None) -> PairedLaws:
    """Exact paired stratified-bootstrap laws by visiting every bootstrap sample.

    Parameters
    ----------
    pos_a, pos_b : sequences of float
        Model a's and model b's scores of the same positives (same order).
    neg_a, neg_b : sequences of float
        Likewise for the negatives.
    pairs : sequence of (t_a, t_b)
        Threshold pairs.
    m_pos, m_neg : int, optional
        Bootstrap sizes (default the class sizes).

    Returns
    -------
    PairedLaws
    """
    pos_a, pos_b = np.asarray(pos_a, float), np.asarray(pos_b, float)
    neg_a, neg_b = np.asarray(neg_a, float), np.asarray(neg_b, float)
    n_pos, n_neg = pos_a.size, neg_a.size
    m_pos = n_pos if m_pos is None else int(m_pos)
    m_neg = n_neg if m_neg is None else int(m_neg)
    C, wc = class_samples(n_pos, m_pos)  # counts (Np, n_pos), weights
    D, wd = class_samples(n_neg, m_neg)
    denom_pos, denom_neg = n_pos**m_pos, n_neg**m_neg
    denom = denom_pos * denom_neg
    # Exact integer arithmetic in int64 is safe while the denominator fits.
    assert denom < 2**62, "data too large for exact int64 accumulation"
    wc64, wd64 = wc.astype(np.int64), wd.astype(np.int64)
    out = PairedLaws()
    out.n_samples = C.shape[0] * D.shape[0]
    for ta, tb in pairs:
        # A draw of instance i adds 1 to TP*_a if s_a(i) >= t_a, to TP*_b if s_b(i) >= t_b.
        d_tp = C @ ((pos_a >= ta).astype(np.int64) - (pos_b >= tb).astype(np.int64))  # (Np,)
        d_fp = D @ ((neg_a >= ta).astype(np.int64) - (neg_b >= tb).astype(np.int64))  # (Nn,)
        out.d_tp.append(_law(d_tp, wc64 * denom_neg, denom))
        out.d_fp.append(_law(d_fp, wd64 * denom_pos, denom))
        # Dominance events on every joint sample (rows: positive samples, columns: negative samples).
        tp, fp = d_tp[:, None], d_fp[None, :]
        tie = (tp == 0) & (fp == 0)
        a_dom = (tp >= 0) & (fp <= 0) & ~tie
        b_dom = (tp <= 0) & (fp >= 0) & ~tie
        out.f1.append(Fraction(int(wc64 @ a_dom.astype(np.int64) @ wd64), denom))
        out.f2.append(Fraction(int(wc64 @ b_dom.astype(np.int64) @ wd64), denom))
    return out


def monte_carlo_paired(pos_a, pos_b, neg_a, neg_b, pairs, m_pos=None, m_neg=None, *,
                       n_resamples=100_000, seed=0, chunk=20_000):
    """Seeded Monte Carlo paired stratified bootstrap.

    For each resample, ``m_pos`` positive instances and ``m_neg`` negative
    instances are drawn with replacement (``numpy.random.default_rng(seed)``);
    at each threshold pair the drawn instances' *scores* are compared with the
    thresholds.

    Returns
    -------
    d_tp, d_fp : ndarray of int, shape (n_resamples, len(pairs))
        ``ΔTP*`` and ``ΔFP*`` of each resample.
    """
    pos_a, pos_b = np.asarray(pos_a, float), np.asarray(pos_b, float)
    neg_a, neg_b = np.asarray(neg_a, float), np.asarray(neg_b, float)
    m_pos = pos_a.size if m_pos is None else int(m_pos)
    m_neg = neg_a.size if m_neg is None else int(m_neg)
    rng = np.random.default_rng(seed)
    d_tp = np.empty((n_resamples, len(pairs)), np.int64)
    d_fp = np.empty((n_resamples, len(pairs)), np.int64)
    done = 0
    while done < n_resamples:
        b = min(chunk, n_resamples - done)
        ip = rng.integers(0, pos_a.size, size=(b, m_pos))
        ineg = rng.integers(0, neg_a.size, size=(b, m_neg))
        xa, xb, ya, yb = pos_a[ip], pos_b[ip], neg_a[ineg], neg_b[ineg]
        for j, (ta, tb) in enumerate(pairs):
            d_tp[done:done + b, j] = (xa >= ta).sum(1) - (xb >= tb).sum(1)
            d_fp[done:done + b, j] = (ya >= ta).sum(1) - (yb >= tb).sum(1)
        done += b
    return d_tp, d_fp


def trinomial_difference_law(m: int, p_a, p_b) -> Dict[int, object]:
    """``{d: P(A − B = d)}`` by summing every term ``m!/(a! b! c!) p_a^a p_b^b p_c^c``.

    With Fraction inputs the result is exact; ``0**0 = 1`` covers empty cells.
    O(m²) terms: for small ``m`` only.
    """
    p_c = 1 - p_a - p_b
    law: Dict[int, object] = {}
    for a in range(m + 1):
        for b in range(m - a + 1):
            c = m - a - b
            term = math.factorial(m) // (math.factorial(a) * math.factorial(b) * math.factorial(c))
            term = term * (p_a**a) * (p_b**b) * (p_c**c)
            law[a - b] = law.get(a - b, 0) + term
    return dict(sorted(law.items()))


def sign_probabilities_logspace(m: int, p_a: float, p_b: float):
    """``P(A − B > 0), P(A − B = 0), P(A − B < 0)`` summing every trinomial term in log space.

    ``log term = lgamma(m+1) − lgamma(a+1) − lgamma(b+1) − lgamma(c+1) + a log p_a + b log p_b + c log p_c``,
    all ``(a, b)`` on a grid (O(m²) memory: m up to a few thousand), summed
    with ``logsumexp``; relative error ~1e-12 from the log-gamma values.
    Requires ``p_a, p_b, p_c > 0``.
    """
    a = np.arange(m + 1)[:, None]
    b = np.arange(m + 1)[None, :]
    c = m - a - b
    ok = c >= 0
    cc = np.where(ok, c, 0)
    logt = (special.gammaln(m + 1) - special.gammaln(a + 1) - special.gammaln(b + 1) - special.gammaln(cc + 1)
            + a * np.log(p_a) + b * np.log(p_b) + cc * np.log1p(-(p_a + p_b)))
    logt = np.where(ok, logt, -np.inf)
    d = a - b + np.zeros_like(b)
    return tuple(float(np.exp(special.logsumexp(logt[sel]))) for sel in (d > 0, d == 0, d < 0))


def thesis_algorithm_4_2(n_a: int, n_b: int, n: int, m: int):
    """Algorithm 4.2 (Annex B) for one class, line 4 corrected.

    ``u = n_a/n`` and ``v = n_b/((1 − u)·n)`` (printed: ``(1 − u)·n_b/n``);
    ``b_u = b(i; m, u)`` is the law of ``A``, ``b_v = b(i; m − i, v)`` that of
    ``B`` given ``A = i``, ``c = P(B >= i | A = i)``; starting values
    ``(1 − u)^m`` and ``(1 − v)^m`` underflow for large ``m``, and ``v = 1``
    (``p_c = 0``) divides by zero in line 12.

    Returns
    -------
    p_ge, p_eq : float
        ``P(A − B >= 0)`` and ``P(A − B = 0)`` as the recursion computes them.
    """
    u = n_a / n
    v = n_b / ((1 - u) * n)
    bu, bv, c = (1 - u) ** m, (1 - v) ** m, 1.0
    p_ge, p_eq = 1.0, 0.0
    for i in range(m // 2 + 1):
        p_ge -= bu * c
        p_eq += bu * bv
        bu = bu * u / (1 - u) * (m - i) / (i + 1)
        c = c - bv * (1 + (m - 2 * i) / (m - i) * v / (1 - v))
        bv = bv * v / (1 - v) ** 2 * (m - 2 * i) * (m - 2 * i - 1) / ((i + 1) * (m - i))
    return p_ge + p_eq, p_eq


def delong_paired_direct(pos_a: Sequence[float], neg_a: Sequence[float],
                         pos_b: Sequence[float], neg_b: Sequence[float]):
    """DeLong et al. (1988), paired, by the O(n_pos·n_neg) definitions.

    Kernel ``ψ(x, y) = 1, ½, 0`` for ``x > y``, ``x = y``, ``x < y``; for each
    model the components ``V10_i = mean_j ψ(x_i, y_j)`` and
    ``V01_j = mean_i ψ(x_i, y_j)``; ``S10``, ``S01`` the 2 × 2 sample
    covariance matrices (ddof 1) of the two models' components;
    ``Var(AUC_a − AUC_b) = L (S10/n_pos + S01/n_neg) Lᵀ`` with ``L = (1, −1)``.

    Returns
    -------
    auc_a, auc_b, var_diff, z : float
    """
    def psi(p, q):
        p, q = np.asarray(p, float), np.asarray(q, float)
        return (p[:, None] > q[None, :]) + 0.5 * (p[:, None] == q[None, :])

    ka, kb = psi(pos_a, neg_a), psi(pos_b, neg_b)
    n_pos, n_neg = ka.shape
    v10 = np.vstack([ka.mean(1), kb.mean(1)])
    v01 = np.vstack([ka.mean(0), kb.mean(0)])
    s = np.cov(v10) / n_pos + np.cov(v01) / n_neg
    el = np.array([1.0, -1.0])
    var = float(el @ s @ el)
    auc_a, auc_b = float(ka.mean()), float(kb.mean())
    return auc_a, auc_b, var, (auc_a - auc_b) / math.sqrt(var)
