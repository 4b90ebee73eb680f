"""The interval step of the cost results: from the observed cells (and their exact law) to the bounds at a
level.  Shared by :func:`rocci.cost_ci` and :func:`rocci.compare_cost` and by their results'
``confidence_interval()``, which recomputes the bounds at another level from the counts the result keeps
(nothing is read from the data again)."""

from __future__ import annotations

from typing import Callable

import numpy as np
from scipy import special

from ._common import _scales
from .fourier import _paired_law
from .lattice import _Lattice, _single_law


def _moments(coef_pos, q_pos, coef_neg, q_neg, bootstrap, m, pi_pos=None):
    """Mean and variance of ``S = Σ_c coef_c·N*_c / M_class(c)``.

    ``coef_*``, ``q_*``: arrays (k, cells) of coefficients and within-class cell
    probabilities.  Stratified (``m = (m+, m−)``, ``M± = m±``):
    ``E = Σ coef·q``, ``Var = Σ_class [Σ coef²·q − (Σ coef·q)²]/m_class``.
    Full (``m`` pooled draws, ``M± = m·π±``, cells pooled with ``r = π·q``):
    ``Var = [Σ_class (Σ coef²·q)/π_class − E²]/m``.
    """
    mp = (coef_pos * q_pos).sum(axis=1)
    mn = (coef_neg * q_neg).sum(axis=1)
    sp = (coef_pos**2 * q_pos).sum(axis=1)
    sn = (coef_neg**2 * q_neg).sum(axis=1)
    mean = mp + mn
    if bootstrap == "stratified":
        m_pos, m_neg = m
        var = (sp - mp**2) / m_pos + (sn - mn**2) / m_neg
    else:
        var = (sp / pi_pos + sn / (1 - pi_pos) - mean**2) / m
    return mean, np.maximum(var, 0.0)


def _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, m, add):
    """Cell probabilities and sizes after adding ``add`` to every cell (Agresti).

    ``counts_*``: arrays (k, cells) of observed cell counts (cells summing to
    the class size).  The pseudo-counts are added on the scale of the bootstrap
    sample: a cell's count ``m_class·q + add``, the class ``m_class + cells·add``
    (with ``m = n``, simply ``n_cell + add``).  Full bootstrap: all cells of
    both classes are pooled, ``m̃ = m + (all cells)·add``.
    """
    k = counts_pos.shape[1]
    q_pos, q_neg = counts_pos / n_pos, counts_neg / n_neg
    if bootstrap == "stratified":
        m_pos, m_neg = m
        qp = (m_pos * q_pos + add) / (m_pos + k * add)
        qn = (m_neg * q_neg + add) / (m_neg + k * add)
        return qp, qn, (m_pos + k * add, m_neg + k * add), None
    pi = n_pos / (n_pos + n_neg)
    mp, mn = m * pi, m * (1 - pi)
    qp = (mp * q_pos + add) / (mp + k * add)
    qn = (mn * q_neg + add) / (mn + k * add)
    m_adj = m + 2 * k * add
    return qp, qn, m_adj, (mp + k * add) / m_adj


def _normal_interval(center, sd, level, lower, upper):
    z = float(special.ndtri(0.5 + level / 2))
    return np.clip(center - z * sd, lower, upper), np.clip(center + z * sd, lower, upper)


class _LastLaw:
    """The law at operating point ``i``, keeping only the latest one.

    Consecutive operating points often share a threshold (pair), hence a law;
    keeping every law would hold O(W²) numbers per threshold pair (gigabytes
    for a full-bootstrap comparison at n = 10⁵).
    """

    def __init__(self, key_of: Callable, build: Callable):
        self.key_of, self.build = key_of, build
        self.key, self.law = None, None

    def __call__(self, i: int) -> "_Lattice":
        key = self.key_of(i)
        if key != self.key:
            self.key, self.law = key, self.build(key)
        return self.law


def single_bounds(method, level, w, fn, fp, n_pos, n_neg, bootstrap, sizes, add, cost, std):
    """``(low, high)`` of :func:`rocci.cost_ci` at ``level`` by ``method``, from the false negatives ``fn``
    and false positives ``fp`` at each operating point ``w`` (arrays), the observed cost and its exact sd."""
    if method == "wald":
        return _normal_interval(cost, std, level, 0.0, 1.0)
    if method == "agresti-coull":
        coef_pos, coef_neg, counts_pos, counts_neg = _single_cells(w, fn, fp, n_pos, n_neg)
        qp, qn, sizes_adj, pi_adj = _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, sizes, add)
        mean_adj, var_adj = _moments(coef_pos, qp, coef_neg, qn, bootstrap, sizes_adj, pi_adj)
        return _normal_interval(mean_adj, np.sqrt(var_adj), level, 0.0, 1.0)
    law = _LastLaw(lambda i: (int(fn[i]), int(fp[i])),
                   lambda key: _single_law(key[0], key[1], n_pos, n_neg, bootstrap, sizes))
    alpha = 1.0 - level
    low, high = np.empty_like(w), np.empty_like(w)
    for i in range(w.size):
        a, b = _scales(w[i], bootstrap, sizes, n_pos, n_neg)
        low[i], high[i] = law(i).quantiles([alpha / 2, 1 - alpha / 2], a, b)
    return low, high


def _single_cells(w, fn, fp, n_pos, n_neg):
    """One model's cost as ``Σ coef·cell``: coefficients and counts of the cells FN, TP and FP, TN."""
    zero = np.zeros_like(w)
    coef_pos = np.column_stack([w, zero])  # cells FN, TP
    coef_neg = np.column_stack([1 - w, zero])  # cells FP, TN
    counts_pos = np.column_stack([fn, n_pos - fn]).astype(np.float64)
    counts_neg = np.column_stack([fp, n_neg - fp]).astype(np.float64)
    return coef_pos, coef_neg, counts_pos, counts_neg


def paired_cells(w, na_p, nb_p, na_n, nb_n, n_pos, n_neg, both_p=None, both_n=None):
    """``ΔC = C_a − C_b`` as ``Σ coef·cell`` over the paired cells a, b, both, neither of each class.

    A positive that only model a calls positive (cell a+) is a false negative of b, so it lowers
    ``C_a − C_b`` by ``w/m+``; a negative that only a calls positive (a−) is a false positive of a:
    ``+ (1 − w)/m−``.  The cells both and neither weigh 0: without their counts (a result keeps a and b
    only) they are taken as 0 and the rest, which gives the same moments.
    """
    both_p = np.zeros_like(na_p) if both_p is None else both_p
    both_n = np.zeros_like(na_n) if both_n is None else both_n
    coef_pos = np.column_stack([-w, w, 0 * w, 0 * w])  # cells a+, b+, both+, neither+
    coef_neg = np.column_stack([1 - w, -(1 - w), 0 * w, 0 * w])  # cells a−, b−, both−, neither−
    counts_pos = np.column_stack([na_p, nb_p, both_p, n_pos - na_p - nb_p - both_p]).astype(np.float64)
    counts_neg = np.column_stack([na_n, nb_n, both_n, n_neg - na_n - nb_n - both_n]).astype(np.float64)
    return coef_pos, coef_neg, counts_pos, counts_neg


def paired_bounds(method, level, w, na_p, nb_p, na_n, nb_n, n_pos, n_neg, bootstrap, sizes, add, delta, std):
    """``(low, high)`` of :func:`rocci.compare_cost` at ``level`` by ``method``, from the paired cells at each
    operating point ``w`` (arrays), the observed difference and its exact sd.  Percentile: one exact law per
    distinct set of cells, read at all its ``w``."""
    if method == "wald":
        return _normal_interval(delta, std, level, -1.0, 1.0)
    if method == "agresti-coull":
        coef_pos, coef_neg, counts_pos, counts_neg = paired_cells(w, na_p, nb_p, na_n, nb_n, n_pos, n_neg)
        qp, qn, sizes_adj, pi_adj = _adjusted(counts_pos, counts_neg, n_pos, n_neg, bootstrap, sizes, add)
        mean_adj, var_adj = _moments(coef_pos, qp, coef_neg, qn, bootstrap, sizes_adj, pi_adj)
        return _normal_interval(mean_adj, np.sqrt(var_adj), level, -1.0, 1.0)
    a_all, b_all = _scales(w, bootstrap, sizes, n_pos, n_neg)
    a_all, b_all = np.broadcast_to(a_all, w.shape), np.broadcast_to(b_all, w.shape)
    alpha = 1.0 - level
    low, high = np.empty_like(w), np.empty_like(w)
    keys, pair = np.unique(np.column_stack([na_p, nb_p, na_n, nb_n]), axis=0, return_inverse=True)
    pair = pair.ravel()
    for g, key in enumerate(keys):
        law = _paired_law(key[:2], key[2:], n_pos, n_neg, bootstrap, sizes)
        for i in np.flatnonzero(pair == g):
            low[i], high[i] = law.quantiles([alpha / 2, 1 - alpha / 2], a_all[i], b_all[i])
    return low, high
