"""The one counting block that feeds every curve.

Every statistic in rocci starts from the numbers of positives and negatives
with ``score >= t``.  They are computed here, once, directly as counts (never
rebuilt from rates), and ties are handled here: tied scores share one
threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ScoreCounts", "score_counts"]


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

    def neg_desc(self) -> np.ndarray:
        """Negative scores in decreasing order ``s_1 >= s_2 >= ... >= s_n-``."""
        return self.neg[::-1]


def score_counts(pos: np.ndarray, neg: np.ndarray) -> ScoreCounts:
    """Sort each class's scores once; O(n log n) time, O(n) memory."""
    return ScoreCounts(np.sort(pos), np.sort(neg))
