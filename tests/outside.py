"""The outside check: a direct bootstrap of rows, read against a table's own columns.

Nothing here calls rocci's laws.  Each function resamples the rows of each class
with replacement (the stratified bootstrap: ``m+`` positives from the ``n+``
positives, ``m−`` negatives from the ``n−`` negatives) and counts, in every
draw, what a reader of the table would count: resampled scores ``>=`` a
threshold, the ``r``-th largest resampled negative, the resampled ROC curve.
The counting is vectorised (each instance's score cell is looked up once, each
draw's cell counts are one ``bincount``), but it is the same as sorting each
resample and counting by hand.
"""

from __future__ import annotations

import numpy as np


def issue_sample(seed: int = 34):
    """Issue 34's kind of sample: 70 positives ~ N(0.9, 1), 95 negatives ~ N(0, 1.1), rounded to 0.1 (ties)."""
    rng = np.random.default_rng(seed)
    s = np.round(np.r_[rng.normal(0.9, 1, 70), rng.normal(0, 1.1, 95)], 1)
    return np.r_[np.ones(70, bool), np.zeros(95, bool)], s


def _draw_cell_counts(cells: np.ndarray, n_cells: int, size: int, draws: int, rng) -> np.ndarray:
    """``draws`` resamples of ``size`` instances: the count of drawn instances in each cell, shape (draws, n_cells)."""
    idx = rng.integers(0, cells.size, size=(draws, size))
    drawn = cells[idx] + (np.arange(draws) * n_cells)[:, None]
    return np.bincount(drawn.ravel(), minlength=draws * n_cells).reshape(draws, n_cells)


def counts_at_thresholds(scores, thresholds, size: int, draws: int, rng) -> np.ndarray:
    """Resampled counts of scores ``>= t`` at each threshold: shape (draws, len(thresholds)).

    ``thresholds`` in any order; the columns follow it.
    """
    scores = np.asarray(scores, float)
    t = np.asarray(thresholds, float)
    order = np.argsort(-t, kind="stable")
    t_desc = t[order]
    # cell k (k = 0..K−1) holds scores in [t_k, t_{k−1}); cell K the scores below every threshold.
    cells = np.searchsorted(-t_desc, -scores, side="left")  # thresholds strictly above the score
    per_cell = _draw_cell_counts(cells, t.size + 1, size, draws, rng)
    ge = np.cumsum(per_cell[:, :-1], axis=1)  # scores >= t_k
    out = np.empty_like(ge)
    out[:, order] = ge
    return out


def tpr_at_fpr_levels(pos, neg, r, m_pos: int, m_neg: int, draws: int, rng) -> np.ndarray:
    """Resampled TPR at the ``r``-th largest resampled negative (positives scoring ``>=`` it): (draws, len(r))."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    values = np.unique(np.concatenate([pos, neg]))[::-1]  # distinct scores, decreasing
    d = values.size
    pos_cells = np.searchsorted(-values, -pos)  # rank of each score among the distinct values
    neg_cells = np.searchsorted(-values, -neg)
    neg_ge = np.cumsum(_draw_cell_counts(neg_cells, d, m_neg, draws, rng), axis=1)  # negatives >= values[k]
    pos_ge = np.cumsum(_draw_cell_counts(pos_cells, d, m_pos, draws, rng), axis=1)
    r = np.asarray(r, np.int64)
    # the r-th largest negative is values[k] for the first k with neg_ge[k] >= r
    k = np.stack([np.argmax(neg_ge >= ri, axis=1) for ri in r], axis=1)
    return np.take_along_axis(pos_ge, k, axis=1) / m_pos


def resampled_curves(pos, neg, m_pos: int, m_neg: int, draws: int, rng):
    """Resampled ROC curves as paths: ``(F, T)``, each (draws, D + 1), from (0, 0) to (1, 1).

    Vertex ``j`` is the rates at the ``j``-th largest distinct score of the data
    (scores ``>=`` it), after ``(0, 0)``; scores a draw does not contain repeat a vertex.
    """
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    values = np.unique(np.concatenate([pos, neg]))[::-1]
    d = values.size
    tp = np.cumsum(_draw_cell_counts(np.searchsorted(-values, -pos), d, m_pos, draws, rng), axis=1)
    fp = np.cumsum(_draw_cell_counts(np.searchsorted(-values, -neg), d, m_neg, draws, rng), axis=1)
    zeros = np.zeros((draws, 1))
    return np.hstack([zeros, fp / m_neg]), np.hstack([zeros, tp / m_pos])


def curves_inside_envelope(F, T, x, lower, upper, tol: float = 1e-12) -> np.ndarray:
    """Whether each path ``(F[i], T[i])`` lies in the drawn region: on each open piece ``(x_j, x_{j+1})``
    between ``lower[j]`` and ``upper[j]``.

    A monotone path's highest point left of ``b`` is its value arriving at ``b`` (linear between
    vertices), its lowest point right of ``h`` its value leaving ``h``; so the path is inside iff,
    for every piece, the arriving value at ``x_{j+1}`` is ``<= upper[j]`` and the leaving value at
    ``x_j`` is ``>= lower[j]``.
    """
    F, T = np.asarray(F, float), np.asarray(T, float)
    x, lower, upper = (np.asarray(v, float) for v in (x, lower, upper))
    draws, n = F.shape
    flat = (F + 2.0 * np.arange(draws)[:, None]).ravel()  # rows laid end to end, still increasing
    Tf = T.ravel()

    def value(points, side):
        q = (points[None, :] + 2.0 * np.arange(draws)[:, None]).ravel()
        j = np.searchsorted(flat, q, side=side)  # flat index of the vertex after the point
        row = np.repeat(np.arange(draws), points.size)
        jj = np.clip(j, row * n + 1, row * n + n - 1)  # a segment inside the row
        f0, f1, t0, t1 = flat[jj - 1], flat[jj], Tf[jj - 1], Tf[jj]
        w = np.where(f1 > f0, (q - f0) / np.where(f1 > f0, f1 - f0, 1.0), 1.0)
        return (t0 + np.clip(w, 0, 1) * (t1 - t0)).reshape(draws, points.size)

    arriving = value(x[1:], "left")  # first vertex with F >= b: segment from the vertex before it
    leaving = value(x[:-1], "right")  # first vertex with F > h
    ok_up = arriving <= upper[None, :] + tol
    ok_low = leaving >= lower[None, :] - tol
    return np.all(ok_up & ok_low, axis=1)


def share(inside: np.ndarray) -> tuple[float, float]:
    """The share of draws inside and its Monte Carlo standard error."""
    p = float(np.mean(inside))
    return p, float(np.sqrt(max(p * (1 - p), 1e-12) / inside.size))
