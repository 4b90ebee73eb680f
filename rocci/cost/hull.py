"""ROC upper convex hull and the lower envelope of the cost lines (their duals)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from ..counts import ScoreCounts
from ._common import TIE_TOL


def _cross(x0, y0, x1, y1, x2, y2):
    """``(p1 − p0) × (p2 − p0)``: negative when p0 → p1 → p2 turns clockwise."""
    return (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)


def _prune(fp: np.ndarray, tp: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Drop, pass after pass, every candidate on or below the segment of its neighbours.

    Such a point cannot be a vertex of the upper hull, so removing all of them
    at once is safe; integer arithmetic makes the test exact.
    """
    while idx.size > 2:
        x, y = fp[idx], tp[idx]
        bad = _cross(x[:-2], y[:-2], x[1:-1], y[1:-1], x[2:], y[2:]) >= 0
        if not bad.any():
            break
        keep = np.ones(idx.size, dtype=bool)
        keep[1:-1] = ~bad
        idx = idx[keep]
    return idx


def _above(fp: np.ndarray, tp: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Mask of the points strictly above the chain ``idx``."""
    hx, hy = fp[idx], tp[idx]
    s = np.clip(np.searchsorted(hx, fp, side="right") - 1, 0, idx.size - 2)
    return _cross(hx[s], hy[s], hx[s + 1], hy[s + 1], fp, tp) > 0


def _upper_hull(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """Indices of the vertices of the ROC upper convex hull, from (0, 0) to (n−, n+).

    ``fp``, ``tp``: integer counts at the thresholds in decreasing order
    (``+inf`` first), so the points are sorted by ``(fp, tp)``.  Qhull finds
    the hull in O(h log h) (a point ``(n−, −1)`` below all ROC points keeps it
    two-dimensional); the result is then checked and repaired in exact
    integer arithmetic: points strictly above the chain are added back and
    points on or below a chord are removed, which leaves exactly the strict
    vertices.
    """
    n = fp.size
    cand = None
    if n > 2:
        pts = np.vstack([np.column_stack([fp, tp]).astype(np.float64), [[float(fp[-1]), -1.0]]])
        try:
            v = ConvexHull(pts).vertices
            cand = np.sort(v[v < n])
        except QhullError:  # pragma: no cover - the extra point keeps the hull 2-D
            cand = None
    if cand is None:
        cand = np.arange(n)
    cand = _prune(fp, tp, np.union1d(cand, [0, n - 1]))
    missed = _above(fp, tp, cand)
    if missed.any():  # pragma: no cover - Qhull is exact on integer grids of this size
        cand = _prune(fp, tp, np.union1d(cand, np.flatnonzero(missed)))
    return cand


@dataclass(frozen=True)
class _Envelope:
    """The ROC upper hull of one model and the lower envelope of its cost lines.

    The "full" hull starts at (0, 0) (threshold ``+inf``) and ends at (1, 1).
    ``breakpoints[i] = ΔFPR/(ΔFPR + ΔTPR)`` between vertices ``i`` and ``i + 1``
    (non-decreasing; 0 for a vertical first edge, 1 for a horizontal last edge);
    vertex ``i`` minimises the cost on ``[breakpoints[i − 1], breakpoints[i]]``.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: int
    n_neg: int
    breakpoints: np.ndarray

    @classmethod
    def from_counts(cls, counts: ScoreCounts) -> "_Envelope":
        thresholds = counts.distinct_thresholds()
        tp = counts.n_pos_ge(thresholds).astype(np.int64)
        fp = counts.n_neg_ge(thresholds).astype(np.int64)
        idx = _upper_hull(fp, tp)
        htp, hfp = tp[idx], fp[idx]
        n_pos, n_neg = counts.n_pos, counts.n_neg
        dfp = np.diff(hfp) * n_pos  # ΔFPR·n+·n−, exact integers
        dtp = np.diff(htp) * n_neg
        return cls(thresholds[idx], htp, hfp, n_pos, n_neg, dfp / (dfp + dtp))

    @property
    def tpr(self) -> np.ndarray:
        return self.tp / self.n_pos

    @property
    def fpr(self) -> np.ndarray:
        return self.fp / self.n_neg

    def _cost(self, i: np.ndarray, w: np.ndarray) -> np.ndarray:
        return w * (self.n_pos - self.tp[i]) / self.n_pos + (1 - w) * self.fp[i] / self.n_neg

    def minimiser(self, w: np.ndarray) -> np.ndarray:
        """Index of the hull vertex minimising ``NEC(w)``; ties → the highest threshold.

        Costs within :data:`TIE_TOL` of the minimum count as tied; among tied
        vertices the one with the lowest index (highest threshold) is taken.
        Along the hull the costs at a fixed ``w`` fall then rise, so a
        vectorised binary search finds it in O(log h) steps.
        """
        k = self.tp.size
        idx = np.searchsorted(self.breakpoints, w, side="left")
        cand = np.stack([np.clip(idx - 1, 0, k - 1), idx, np.clip(idx + 1, 0, k - 1)])
        costs = self._cost(cand, w[None, :])
        pick = np.argmin(costs, axis=0)
        best = cand[pick, np.arange(w.size)]
        limit = costs[pick, np.arange(w.size)] + TIE_TOL
        lo, hi = np.zeros_like(best), best
        while (lo < hi).any():
            mid = (lo + hi) // 2
            ok = self._cost(mid, w) <= limit
            hi = np.where(ok, mid, hi)
            lo = np.where(ok, lo, mid + 1)
        return hi

    def visible(self) -> slice:
        """The hull vertices reported to users: the full hull without (0, 0) when
        a threshold reaches FPR = 0 with TPR > 0 (the ROC curve, as a function of
        FPR, starts at that point)."""
        return slice(1, None) if self.fp[1] == 0 else slice(0, None)

    def operating_range(self) -> tuple[float, float] | None:
        """``(w_low, w_high)``: where the envelope lies strictly below both trivial
        cost lines ``w`` (all negative) and ``1 − w`` (all positive)."""
        low, high = float(self.breakpoints[0]), float(self.breakpoints[-1])
        return (low, high) if low < high else None


