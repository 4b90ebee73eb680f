"""The one counting block that feeds every curve.

Every statistic in rocci starts from the numbers of positives and negatives
with ``score >= t``.  They are computed here, once, directly as counts (never
rebuilt from rates), and ties are handled here: tied scores share one
threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ScoreCounts", "score_counts", "joint_ge_counts", "paired_cells"]


@dataclass(frozen=True, repr=False)
class ScoreCounts:
    """Sorted scores of each class, with counting helpers.

    Attributes
    ----------
    pos, neg : ndarray of float64
        Scores of the positives and of the negatives, sorted increasingly.
    """

    pos: np.ndarray
    neg: np.ndarray

    @property
    def n_pos(self) -> int:
        return int(self.pos.size)

    @property
    def n_neg(self) -> int:
        return int(self.neg.size)

    def n_pos_ge(self, t) -> np.ndarray:
        """``#{positives with score >= t}`` for each ``t`` (any real or ±inf)."""
        return self.pos.size - np.searchsorted(self.pos, t, side="left")

    def n_neg_ge(self, t) -> np.ndarray:
        """``#{negatives with score >= t}`` for each ``t``."""
        return self.neg.size - np.searchsorted(self.neg, t, side="left")

    def distinct_thresholds(self) -> np.ndarray:
        """Distinct scores in decreasing order with ``+inf`` first."""
        scores = np.unique(np.concatenate([self.pos, self.neg]))[::-1]
        return np.concatenate([[np.inf], scores])

    def threshold_counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`distinct_thresholds` with ``n_pos_ge`` and ``n_neg_ge`` at each, from one merge.

        The two sorted classes are merged by a stable sort (two runs: linear
        time); each run of tied scores is one threshold, and the counts
        at or above it are the class sizes minus the counts below its first
        element.  The same integers as the binary searches, without them.

        Returns
        -------
        thresholds : ndarray of float64
            Distinct scores decreasing, ``+inf`` first.
        n_pos_ge, n_neg_ge : ndarray of int64
        """
        n_pos, n = self.pos.size, self.pos.size + self.neg.size
        merged = np.concatenate([self.pos, self.neg])
        order = np.argsort(merged, kind="stable")
        values = merged[order]
        first = np.empty(n, dtype=bool)  # starts of runs of tied scores
        first[:1] = True
        np.not_equal(values[1:], values[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        pos_below = np.concatenate([[0], np.cumsum(order < n_pos)])[starts]
        thresholds = np.concatenate([[np.inf], values[starts][::-1]])
        tp = np.concatenate([[0], (n_pos - pos_below)[::-1]])
        fp = np.concatenate([[0], (n - n_pos - (starts - pos_below))[::-1]])
        return thresholds, tp, fp

    def neg_desc(self) -> np.ndarray:
        """Negative scores in decreasing order ``s_1 >= s_2 >= ... >= s_n-``."""
        return self.neg[::-1]


def score_counts(pos: np.ndarray, neg: np.ndarray) -> ScoreCounts:
    """Sort each class's scores once; O(n log n) time, O(n) memory."""
    return ScoreCounts(np.sort(pos), np.sort(neg))


def joint_ge_counts(a: np.ndarray, b: np.ndarray, ta, tb) -> np.ndarray:
    """``C[i, j] = #{k : a_k >= ta[i] and b_k >= tb[j]}`` for every pair of thresholds.

    Two models' scores ``a`` and ``b`` of the same instances.  Each instance
    falls in one cell of the grid of distinct thresholds; a 2-D histogram and
    a reversed 2-D cumulative sum give all counts in O(n log n + P·Q) time and
    O(n + P·Q) memory, for ``P`` and ``Q`` distinct thresholds.

    Returns
    -------
    ndarray of int64, shape (len(ta), len(tb))
    """
    ta, tb = np.asarray(ta, dtype=float), np.asarray(tb, dtype=float)
    ua, inv_a = np.unique(ta, return_inverse=True)
    ub, inv_b = np.unique(tb, return_inverse=True)
    # Number of distinct thresholds at or below each score: a_k >= ua[i] iff i < alpha_k.
    alpha = np.searchsorted(ua, a, side="right")
    beta = np.searchsorted(ub, b, side="right")
    width = ub.size + 1
    hist = np.bincount(alpha * width + beta, minlength=(ua.size + 1) * width).reshape(ua.size + 1, width)
    cum = hist[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]
    # cum[x, y] = #{alpha >= x, beta >= y}; a_k >= ua[i] iff alpha_k >= i + 1.
    return cum[1:, 1:][np.ix_(inv_a.ravel(), inv_b.ravel())].astype(np.int64)


def paired_cells(a: np.ndarray, b: np.ndarray, ta, tb) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Paired confusion cells at threshold pairs ``(ta[p], tb[p])``.

    Cell **a**: model a says positive, model b negative (``a >= ta``, ``b < tb``);
    cell **b**: the reverse; the rest agree (math.md, Conventions).

    Returns
    -------
    n_a, n_b, n_both : ndarray of int64, shape (P,)
        Counts of cell a, cell b, and of instances both models call positive.
    """
    ta, tb = np.atleast_1d(np.asarray(ta, dtype=float)), np.atleast_1d(np.asarray(tb, dtype=float))
    ua, ia = np.unique(ta, return_inverse=True)
    ub, ib = np.unique(tb, return_inverse=True)
    both = joint_ge_counts(a, b, ua, ub)[ia.ravel(), ib.ravel()]
    sa, sb = np.sort(a), np.sort(b)
    ge_a = a.size - np.searchsorted(sa, ta, side="left")
    ge_b = b.size - np.searchsorted(sb, tb, side="left")
    return (ge_a - both).astype(np.int64), (ge_b - both).astype(np.int64), both.astype(np.int64)
