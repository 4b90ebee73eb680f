"""Paired cell counts over a grid of threshold pairs, from rows or from a table of counts (dominance_map)."""

from __future__ import annotations

import numpy as np

from .._core.counts import _ge_grid


def grid_cells(a: np.ndarray, b: np.ndarray, ta, tb, weights=None) -> tuple[np.ndarray, np.ndarray]:
    """``(n_a, n_b)`` of shape (P, Q): the paired cells **a** and **b** at every pair of ``ta × tb``.

    ``n_a[i, j] = #{k : a_k >= ta[i]} − C[i, j]`` (model a positive, model b
    negative) and ``n_b[i, j] = #{k : b_k >= tb[j]} − C[i, j]``, with
    ``C[i, j] = #{k : a_k >= ta[i] and b_k >= tb[j]}`` from one 2-D cumulative
    histogram (:func:`rocci._core.counts.joint_ge_counts`; its row and column 0 give the margins).  ``a`` and ``b`` are one
    class's scores, one entry per instance (``weights`` None), or the rows of a
    :class:`~rocci.PairedCounts` table with ``weights`` their counts in this
    class: each row then counts ``weights[k]`` instances, and the table is never
    expanded.  Time O(rows·log(P + Q) + P·Q), memory O(rows + P·Q); the counts
    are exact integers below 2⁵³.

    Returns
    -------
    n_a, n_b : ndarray of int64, shape (len(ta), len(tb))
    """
    ua, inv_a = np.unique(np.asarray(ta, dtype=float), return_inverse=True)
    ub, inv_b = np.unique(np.asarray(tb, dtype=float), return_inverse=True)
    inv_a, inv_b = inv_a.ravel(), inv_b.ravel()
    cum = _ge_grid(a, b, ua, ub, weights).astype(np.int64)  # row/column 0: one model's margin
    both = cum[1:, 1:][np.ix_(inv_a, inv_b)]
    return cum[1:, 0][inv_a][:, None] - both, cum[0, 1:][inv_b][None, :] - both
