"""ROC upper convex hull and the lower envelope of the cost lines (their duals)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.counts import ScoreCounts
from ._common import TIE_TOL


#: A pruning pass that removes less than this fraction of the candidates hands
#: the rest to the sequential monotone chain (see :func:`_upper_hull`).
_PRUNE_MIN_GAIN = 0.125


def _distinct(sorted_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of a sorted array and how many times each occurs (one pass)."""
    if sorted_scores.size == 0:
        return sorted_scores, np.zeros(0, dtype=np.int64)
    new = np.empty(sorted_scores.size, dtype=bool)
    new[0] = True
    np.not_equal(sorted_scores[1:], sorted_scores[:-1], out=new[1:])
    start = np.flatnonzero(new)
    return sorted_scores[start], np.diff(np.append(start, sorted_scores.size))


def _roc_counts(counts: ScoreCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct thresholds (``+inf``, then the distinct scores decreasing) and the
    counts ``tp``, ``fp`` (int64) of positives and negatives scoring ``>=`` each.

    ``tp_i = #{positives with score >= t_i}``, ``fp_i`` likewise: the same
    numbers as ``counts.distinct_thresholds()`` with ``n_pos_ge`` and
    ``n_neg_ge``, without a sort of all scores and two binary searches of
    every threshold.  A table of counts gives them from its distinct scores'
    cumulative counts (no expansion, O(distinct scores)).  Sorted classes
    with many ties are each reduced to (distinct value, count) in one pass,
    and the two small tables merged and summed; with few ties the two sorted
    classes are merged at once (:meth:`rocci.ScoreCounts.threshold_counts`,
    about twice as fast as reducing them first when nearly every score is
    distinct).
    """
    if counts._table is not None:  # a table of counts: already distinct, no expansion
        return counts.threshold_counts()
    pos, neg = counts.pos, counts.neg
    changes = int(np.count_nonzero(pos[1:] != pos[:-1])) + int(np.count_nonzero(neg[1:] != neg[:-1]))
    if 4 * changes > pos.size + neg.size:  # few ties: one merge of the sorted classes
        return counts.threshold_counts()
    n_pos, n_neg = counts.n_pos, counts.n_neg
    (vn, cn), (vp, cp) = _distinct(neg), _distinct(pos)
    merged = np.concatenate([vn, vp])
    order = np.argsort(merged, kind="stable")
    values = merged[order]
    pos_weight = np.concatenate([np.zeros_like(cn), cp])[order]
    neg_weight = np.concatenate([cn, np.zeros_like(cp)])[order]
    new = np.empty(values.size, dtype=bool)
    new[0] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    start = np.flatnonzero(new)  # first of each run of equal values (at most two), increasing
    pos_below = np.cumsum(pos_weight) - pos_weight  # positives below each entry
    neg_below = np.cumsum(neg_weight) - neg_weight
    h = start.size + 1
    thresholds, tp, fp = np.empty(h), np.empty(h, dtype=np.int64), np.empty(h, dtype=np.int64)
    thresholds[0], tp[0], fp[0] = np.inf, 0, 0
    thresholds[1:] = values[start[::-1]]
    tp[1:] = n_pos - pos_below[start[::-1]]
    fp[1:] = n_neg - neg_below[start[::-1]]
    return thresholds, tp, fp


#: Products of counts at or above this do not fit int64 exactly (with room for a difference of two).
_INT64_SAFE = 2**62


def _not_right_turn(x0, y0, x1, y1, x2, y2, bound: int) -> np.ndarray:
    """``(p1 − p0) × (p2 − p0) >= 0`` exactly, for int64 coordinates of any size.

    ``bound``: at least every ``|Δx|·|Δy|`` of the points.  Below
    :data:`_INT64_SAFE` (on a ROC curve ``n−·n+``, the largest, below 2⁶²)
    the int64 cross product is exact.  Beyond (tables of counts standing for
    billions of instances), ``c = fl(u·v) − fl(w·z)`` in float64 has an error
    of at most ``4·2⁻⁵³·(|u·v| + |w·z|)``: its sign is certain outside that
    margin, and the few points inside it are decided with Python integers.
    """
    dx1, dy1, dx2, dy2 = x1 - x0, y1 - y0, x2 - x0, y2 - y0
    if bound < _INT64_SAFE:
        return dx1 * dy2 - dy1 * dx2 >= 0
    p = dx1.astype(np.float64) * dy2.astype(np.float64)
    q = dy1.astype(np.float64) * dx2.astype(np.float64)
    c = p - q
    out = c >= 0
    unsure = np.flatnonzero(np.abs(c) <= 4 * 2.0**-53 * (np.abs(p) + np.abs(q)))
    for i in unsure.tolist():  # ties and near-ties only: exact in Python integers
        out[i] = int(dx1[i]) * int(dy2[i]) - int(dy1[i]) * int(dx2[i]) >= 0
    return out


def _prune_pass(fp: np.ndarray, tp: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """One pass: drop every candidate on or below the chord of its two neighbours.

    Such a point is not a strict vertex of the upper hull, so removing all of
    them at once is safe; the test is exact (:func:`_not_right_turn`).
    """
    x, y = fp[idx], tp[idx]
    # the points are sorted by fp: every |Δx|·|Δy| is at most the width times the height of their box
    bound = (int(x[-1]) - int(x[0])) * (int(y.max()) - int(y.min()))
    bad = _not_right_turn(x[:-2], y[:-2], x[1:-1], y[1:-1], x[2:], y[2:], bound)
    if not bad.any():
        return idx
    keep = np.ones(idx.size, dtype=bool)
    keep[1:-1] = ~bad
    return idx[keep]


def _monotone_chain(fp: np.ndarray, tp: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Andrew's monotone chain (upper half) over the candidates ``idx``, sorted by
    ``(fp, tp)``: a point is popped while it is on or below the chord from the
    point before it to the new point (Python integers, exact)."""
    xs, ys, ids = fp[idx].tolist(), tp[idx].tolist(), idx.tolist()
    hx, hy, hi = [], [], []
    for x, y, i in zip(xs, ys, ids):
        while len(hi) >= 2 and (hx[-1] - hx[-2]) * (y - hy[-2]) - (hy[-1] - hy[-2]) * (x - hx[-2]) >= 0:
            hx.pop()
            hy.pop()
            hi.pop()
        hx.append(x)
        hy.append(y)
        hi.append(i)
    return np.asarray(hi, dtype=np.intp)


def _upper_hull(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """Indices of the strict vertices of the ROC upper convex hull, from (0, 0) to (n−, n+).

    ``fp``, ``tp``: integer counts at the distinct thresholds in decreasing
    order (``+inf`` first), so the points are distinct and sorted by
    ``(fp, tp)``.  Andrew's monotone chain, in two stages: vectorised passes
    each drop every point on or below the chord of its neighbours (on an
    empirical ROC curve the first pass keeps about one point in four and each
    later one about half: some fifteen passes of O(remaining) work at 10⁶
    points); once a pass gains less than :data:`_PRUNE_MIN_GAIN`, the few
    remaining points go through the sequential chain.  Points on a straight
    edge of the hull are not vertices (they are dropped).  Exact: int64 cross
    products of counts, below ``n−·n+``, and beyond 2⁶² a float64 test whose
    near-ties are settled in Python integers (:func:`_not_right_turn`).
    """
    idx = np.arange(fp.size)
    while idx.size > 2:
        kept = _prune_pass(fp, tp, idx)
        if kept.size == idx.size:  # every turn is strict: the chain is the hull
            return idx
        gain = 1.0 - kept.size / idx.size
        idx = kept
        if gain < _PRUNE_MIN_GAIN:
            return _monotone_chain(fp, tp, idx)
    return idx


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
        thresholds, tp, fp = _roc_counts(counts)
        idx = _upper_hull(fp, tp)
        htp, hfp = tp[idx], fp[idx]
        n_pos, n_neg = counts.n_pos, counts.n_neg
        # ΔFPR·n+·n− and ΔTPR·n+·n−: the products of integers rounded once to float64 (the same
        # numbers as int64 products converted by the division, without their overflow past 2⁶³)
        dfp = np.diff(hfp).astype(np.float64) * float(n_pos)
        dtp = np.diff(htp).astype(np.float64) * float(n_neg)
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


