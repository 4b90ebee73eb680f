"""Shared constants and argument checks of the paired (two-model) functions."""

from __future__ import annotations

import numpy as np

from dataclasses import dataclass

from .._core.inputs import InputError, check_labels, check_scores, split_by_class
from .._core.counts import paired_input
from .._core.counts import PairedCounts, ScoreCounts, score_counts
from ..roc.threshold import thresholds_for_total_positive_rate
from .._core.inputs import _as_float_array


#: Probability per tail of ``S = A + B`` (and of ``A | S``) left out of the
#: computation windows.  Results are exact to about this absolute error.
WINDOW_EPS = 1e-18

#: Probabilities that a Chernoff bound puts below this are returned as 0
#: (the bound ``P(A − B <= 0) <= (1 − (√p_a − √p_b)²)^m`` for ``p_a > p_b``).
SATURATION = 1e-20

GAMMAS = ("smoothed", "plugin")
PAIRED_REGIONS = ("rectangle", "marginal")
COMPARE_AUC_METHODS = ("delong",)

# Rows x columns of one block of the difference-pmf computation.
_BLOCK = 1_000_000
# Length of the ratio-recurrence segments between exact pmf anchors.
_SEGMENT = 32


def _check_paired(y_true, score_a, score_b, pos_label):
    """Labels and the two models' scores of the same instances.

    Returns ``(positive mask, scores a, scores b, pos_label)``.
    """
    y_true, score_a, score_b, pos_label = paired_input(y_true, score_a, score_b, pos_label)
    mask, pos_label = check_labels(y_true, pos_label)
    a = check_scores(score_a, name="score_a (model a)")
    b = check_scores(score_b, name="score_b (model b)")
    if a.size != b.size:
        raise InputError(
            f"score_a (model a) has {a.size} values but score_b (model b) has {b.size}: "
            "both models must score the same instances, one score per instance and model."
        )
    if a.size != mask.size:
        raise InputError(
            f"score_a and score_b have {a.size} values each but y_true has {mask.size}: "
            "give one label per instance."
        )
    return mask, a, b, pos_label


@dataclass(frozen=True)
class _PairedClasses:
    """Two models' scores split by class, as arrays with optional counts.

    ``pos = (a, b, w)``: model a's and model b's scores of the positives, one
    entry per instance (``w`` None) or per distinct pair of a
    :class:`~rocci.PairedCounts` table (``w`` its counts); ``neg`` the same.
    A table is never expanded to one row per instance.
    """

    pos: tuple
    neg: tuple
    n_pos: int
    n_neg: int
    table: PairedCounts | None = None

    def model(self, which: int) -> ScoreCounts:
        """Model a's (0) or model b's (1) own :class:`~rocci.ScoreCounts`."""
        if self.table is not None:
            return self.table.model(which)
        return score_counts(self.pos[which], self.neg[which])

    def ranked(self, which: int):
        """What :func:`~rocci.roc.threshold.thresholds_for_total_positive_rate` reads of one model (``n_pos``,
        ``n_neg``, ``score_at_rank``): the model's counts, or for raw scores one sort of both classes'."""
        return self.model(which) if self.table is not None else _Pooled(self.pos[which], self.neg[which])


class _Pooled:
    """One model's scores of both classes, sorted once (``score_at_rank`` of :class:`~rocci.ScoreCounts`)."""

    def __init__(self, pos: np.ndarray, neg: np.ndarray):
        self.n_pos, self.n_neg = pos.size, neg.size
        self._sorted = np.sort(np.concatenate([pos, neg]))

    def score_at_rank(self, rank) -> np.ndarray:
        return self._sorted[self._sorted.size - np.asarray(rank, dtype=np.int64)]


def _paired_classes(y_true, score_a, score_b, pos_label) -> _PairedClasses:
    """:func:`_check_paired`, split by class; a ``PairedCounts`` stays a table (its rows and counts)."""
    if isinstance(y_true, PairedCounts):
        if score_a is not None or score_b is not None:
            paired_input(y_true, score_a, score_b, pos_label)  # its message
        t = y_true
        p, q = t.n_pos > 0, t.n_neg > 0
        return _PairedClasses((t.score_a[p], t.score_b[p], t.n_pos[p]), (t.score_a[q], t.score_b[q], t.n_neg[q]),
                              int(t.n_pos.sum()), int(t.n_neg.sum()), t)
    mask, a, b, _ = _check_paired(y_true, score_a, score_b, pos_label)
    (pa, na), (pb, nb) = split_by_class(mask, a, b)
    return _PairedClasses((pa, pb, None), (na, nb, None), pa.size, na.size)


def _check_thresholds(name, values):
    return _as_float_array(name, values)


def _threshold_pairs(data: _PairedClasses, thresholds_a, thresholds_b, total_positive_rate):
    """The threshold pairs ``(t_a, t_b)`` to compare, and the rates ``q`` (or None)."""
    if total_positive_rate is not None:
        if thresholds_a is not None or thresholds_b is not None:
            raise InputError("Give either thresholds (thresholds_a, thresholds_b) or total_positive_rate, not both.")
        q = _as_float_array("total_positive_rate", total_positive_rate)
        ta = thresholds_for_total_positive_rate(data.ranked(0), q)
        tb = thresholds_for_total_positive_rate(data.ranked(1), q)
        return ta, tb, q
    if thresholds_a is None:
        if thresholds_b is not None:
            raise InputError(
                "thresholds_b was given without thresholds_a: give thresholds_a as well "
                "(or thresholds_a alone to use the same thresholds for both models)."
            )
        raise InputError(
            "Say where to compare the models: thresholds_a (and optionally thresholds_b), "
            "or total_positive_rate."
        )
    if thresholds_b is None:
        ta = _check_thresholds("thresholds_a", thresholds_a)
        return ta, ta.copy(), None
    return (*_paired_thresholds(thresholds_a, thresholds_b), None)


def _paired_thresholds(thresholds_a, thresholds_b):
    """``(ta, tb)`` checked and of one length: a single value on one side is repeated for every value of the
    other; otherwise the two must have as many values (they are compared in pairs)."""
    ta = _check_thresholds("thresholds_a", thresholds_a)
    tb = _check_thresholds("thresholds_b", thresholds_b)
    if ta.size != tb.size:
        if ta.size == 1:
            ta = np.repeat(ta, tb.size)
        elif tb.size == 1:
            tb = np.repeat(tb, ta.size)
        else:
            raise InputError(
                f"thresholds_a has {ta.size} values but thresholds_b has {tb.size}: "
                "they are compared in pairs, so give as many of each (or a single value for one model)."
            )
    return ta, tb
