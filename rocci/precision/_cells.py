"""Lattices of bootstrap counts at a fixed threshold, as ``(value, probability)`` cells.

Stratified bootstrap: ``TP* ~ Bin(m+, tp/n+)`` and ``FP* ~ Bin(m−, fp/n−)``,
independent; a cell is a pair ``(TP*, FP*)`` with probability
``b(TP*; m+, tp/n+)·b(FP*; m−, fp/n−)``.

Full bootstrap (``m`` draws from the pooled data): the four cells are
``Multinomial(m; tp, fp, fn, tn)/n``.  Conditioning on ``P* = TP* + FN*``,
``P* ~ Bin(m, n+/n)`` and, given ``P*``, ``TP* ~ Bin(P*, tp/n+)`` and
``FP* ~ Bin(m − P*, fp/n−)`` independently: a cell is ``(P*, TP*, FP*)``.
Precision depends on fewer counts: ``PP* = TP* + FP* ~ Bin(m, (tp + fp)/n)``
and ``TP* | PP* ~ Bin(PP*, tp/(tp + fp))``, a two-dimensional lattice.
"""

from __future__ import annotations

import numpy as np

from ..exact import binomial_pmf
from ._laws import binomial_window
from ._metrics import metric_value, stratified_value

#: Largest number of cells built at once (memory stays near 200 MB).
MAX_CELLS = 12_000_000


def _check_size(cells: int, what: str) -> None:
    if cells > MAX_CELLS:
        from .._validation import InputError

        raise InputError(
            f"The exact law of {what} here has {cells:,} cells of bootstrap counts, more than the "
            f"{MAX_CELLS:,} rocci builds at once: ask for a smaller bootstrap sample size m "
            "(the law's width scales like 1/sqrt(m)), or for thresholds nearer the ends of the ranking."
        )


def stratified_cells(metric: str, tp: int, fp: int, n_pos: int, n_neg: int, m_pos: int, m_neg: int,
                     beta2: float = 1.0):
    """``(values, probabilities, truncated)`` of the stratified lattice at one threshold."""
    t0, t1, lt = binomial_window(m_pos, tp / n_pos)
    f0, f1, lf = binomial_window(m_neg, fp / n_neg)
    t = np.arange(int(t0), int(t1) + 1)
    f = np.arange(int(f0), int(f1) + 1)
    _check_size(t.size * f.size, metric)
    pt = binomial_pmf(t, m_pos, tp / n_pos)
    pf = binomial_pmf(f, m_neg, fp / n_neg)
    values = stratified_value(metric, t[:, None], f[None, :], m_pos, m_neg, beta2)
    return values, np.outer(pt, pf), float(lt + lf)


def full_cells(metric: str, tp: int, fp: int, n_pos: int, n_neg: int, m: int, beta2: float = 1.0):
    """``(values, probabilities, truncated)`` of the full-bootstrap lattice at one threshold."""
    n = n_pos + n_neg
    if metric == "precision":
        s0, s1, ls = binomial_window(m, (tp + fp) / n)
        s = np.arange(int(s0), int(s1) + 1)
        ps = binomial_pmf(s, m, (tp + fp) / n)
        share = tp / (tp + fp) if tp + fp > 0 else 0.0
        a0, a1, la = binomial_window(s, share)
        width = int((a1 - a0).max()) + 1
        _check_size(s.size * width, metric)
        a = a0[:, None] + np.arange(width)[None, :]
        inside = a <= a1[:, None]
        probs = np.where(inside, ps[:, None] * binomial_pmf(a, s[:, None], share), 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where(s[:, None] > 0, a / np.where(s > 0, s, 1)[:, None], np.nan)
        return values[inside], probs[inside], float(ls + ps @ la)
    # Generic: P* = TP* + FN* first, then TP* and FP* given P*.
    s0, s1, ls = binomial_window(m, n_pos / n)
    s = np.arange(int(s0), int(s1) + 1)
    ps = binomial_pmf(s, m, n_pos / n)
    t0, t1, lt = binomial_window(s, tp / n_pos)
    f0, f1, lf = binomial_window(m - s, fp / n_neg)
    _check_size(int(((t1 - t0 + 1) * (f1 - f0 + 1)).sum()), metric)
    values, probs = [], []
    for i, si in enumerate(s):  # one P* value per pass: O(sqrt(m)) passes, never one per instance
        t = np.arange(t0[i], t1[i] + 1)
        f = np.arange(f0[i], f1[i] + 1)
        pt = binomial_pmf(t, si, tp / n_pos)
        pf = binomial_pmf(f, m - si, fp / n_neg)
        tt, ff = t[:, None].astype(float), f[None, :].astype(float)
        value = metric_value(metric, tt, ff, si - tt, (m - si) - ff, beta2)
        values.append(np.broadcast_to(value, (t.size, f.size)).ravel())
        probs.append((ps[i] * np.outer(pt, pf)).ravel())
    trunc = float(ls + ps @ (lt + lf))
    return np.concatenate(values), np.concatenate(probs), trunc
