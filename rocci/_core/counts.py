"""The one counting block that feeds every curve.

Every statistic in rocci starts from the numbers of positives and negatives
with ``score >= t``.  They are computed here, once, directly as counts (never
rebuilt from rates), and ties are handled here: tied scores share one
threshold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import InputError
from .inputs import check_labels, check_scores, split_by_class

__all__ = ["ScoreCounts", "PairedCounts", "score_counts", "joint_ge_counts", "paired_cells"]


def _count_column(name: str, values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iuf":
        raise InputError(f"{name} must hold whole numbers of instances; it has values of type {arr.dtype}.")
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            raise InputError(f"{name} must hold whole numbers of instances; row {int(np.argmax(bad))} has "
                              f"{arr[np.argmax(bad)]!r}.")
    arr = arr.astype(np.int64)
    if (arr < 0).any():
        raise InputError(f"{name} has a negative count (row {int(np.argmax(arr < 0))}); counts are >= 0.")
    return arr


def _score_column(name: str, values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind not in "iufb":
        raise InputError(f"{name} must hold numeric scores; it has values of type {arr.dtype}. Convert the "
                          "column to numbers first.")
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise InputError(f"{name} has {int((~np.isfinite(arr)).sum())} missing or infinite score(s); drop "
                          "those rows (and count them) before building the counts.")
    return arr


def _frame_column(df, column, what: str):
    try:
        return df[column]
    except (KeyError, IndexError, TypeError):
        cols = list(getattr(df, "columns", []))
        raise InputError(f"The table has no column {column!r} for {what}; its columns are {cols}.") from None


class ScoreCounts:
    """One model's scores by class: the engine's input, from raw data or from a table of counts.

    Every exact law in rocci depends on a model only through its distinct
    scores and the numbers of positives and negatives at each.  A
    ``ScoreCounts`` made from such a table (:meth:`from_frame`, or
    ``rocci.scan`` where the data live) is accepted by every single-model
    function in place of ``(y_true, y_score)``, and gives the same results.

    Two representations answer the same questions with the same integers:
    each class's sorted scores (``ScoreCounts(pos, neg)``, from raw rows), or
    the table (:meth:`from_counts`), whose counting methods work on the
    distinct scores alone (cumulative sums and binary searches: memory
    O(distinct scores)); its ``pos`` and ``neg`` are expanded on first use.

    Attributes
    ----------
    pos, neg : ndarray of float64
        Scores of the positives and of the negatives, sorted increasingly
        (each distinct score repeated as often as it occurs).
    pos_label : object
        The positive label, when known.
    """

    __slots__ = ("_pos", "_neg", "pos_label", "_table")

    def __init__(self, pos: np.ndarray, neg: np.ndarray, pos_label: Any = None):
        self._pos, self._neg, self.pos_label, self._table = pos, neg, pos_label, None

    @classmethod
    def _from_table(cls, values, n_pos, n_neg, pos_label) -> "ScoreCounts":
        """``values`` distinct increasing; counts int64 with no row empty in both classes."""
        obj = cls.__new__(cls)
        obj._pos = obj._neg = None
        obj.pos_label = pos_label
        below_pos = np.concatenate([[0], np.cumsum(n_pos)])  # positives below values[i]: below_pos[i]
        below_neg = np.concatenate([[0], np.cumsum(n_neg)])
        obj._table = (values, n_pos, n_neg, below_pos, below_neg)
        return obj

    @property
    def pos(self) -> np.ndarray:
        if self._pos is None:
            self._pos = np.repeat(self._table[0], self._table[1])
        return self._pos

    @property
    def neg(self) -> np.ndarray:
        if self._neg is None:
            self._neg = np.repeat(self._table[0], self._table[2])
        return self._neg

    @property
    def n_pos(self) -> int:
        return int(self._table[3][-1]) if self._table is not None else int(self._pos.size)

    @property
    def n_neg(self) -> int:
        return int(self._table[4][-1]) if self._table is not None else int(self._neg.size)

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct scores increasing, with the positives and negatives at each (int64)."""
        if self._table is not None:
            return self._table[0], self._table[1], self._table[2]
        values = np.unique(np.concatenate([self._pos, self._neg]))
        n_pos = np.diff(np.searchsorted(self._pos, values, side="left"), append=self._pos.size)
        n_neg = np.diff(np.searchsorted(self._neg, values, side="left"), append=self._neg.size)
        return values, n_pos.astype(np.int64), n_neg.astype(np.int64)

    def n_pos_ge(self, t) -> np.ndarray:
        """``#{positives with score >= t}`` for each ``t`` (any real or ±inf)."""
        if self._table is not None:
            values, _, _, below, _ = self._table
            return below[-1] - below[np.searchsorted(values, t, side="left")]
        return self._pos.size - np.searchsorted(self._pos, t, side="left")

    def n_neg_ge(self, t) -> np.ndarray:
        """``#{negatives with score >= t}`` for each ``t``."""
        if self._table is not None:
            values, _, _, _, below = self._table
            return below[-1] - below[np.searchsorted(values, t, side="left")]
        return self._neg.size - np.searchsorted(self._neg, t, side="left")

    def distinct_thresholds(self) -> np.ndarray:
        """Distinct scores in decreasing order with ``+inf`` first."""
        if self._table is not None:
            return np.concatenate([[np.inf], self._table[0][::-1]])
        scores = np.unique(np.concatenate([self.pos, self.neg]))[::-1]
        return np.concatenate([[np.inf], scores])

    def score_at_rank(self, rank) -> np.ndarray:
        """The ``rank``-th largest score of all instances (``rank`` from 1 to n, an integer array)."""
        rank = np.asarray(rank, dtype=np.int64)
        if self._table is not None:
            values, _, _, below_pos, below_neg = self._table
            return _at_rank(values, (below_pos[-1] + below_neg[-1]) - (below_pos[:-1] + below_neg[:-1]), rank)
        all_scores = np.sort(np.concatenate([self.pos, self.neg]))
        return all_scores[all_scores.size - rank]

    def neg_at_rank(self, rank) -> np.ndarray:
        """The ``rank``-th largest negative score (``rank`` from 1 to n−): ``neg_desc()[rank − 1]``."""
        rank = np.asarray(rank, dtype=np.int64)
        if self._table is not None:
            values, _, _, _, below_neg = self._table
            return _at_rank(values, below_neg[-1] - below_neg[:-1], rank)
        return self._neg[self._neg.size - rank]

    @classmethod
    def from_counts(cls, score, n_pos, n_neg, *, pos_label: Any = None) -> "ScoreCounts":
        """From distinct (or repeated) scores with the numbers of positives and negatives at each.

        Rows with the same score are added up; rows with no instance are ignored.
        """
        s = _score_column("score", score)
        p = _count_column("n_pos", n_pos)
        q = _count_column("n_neg", n_neg)
        if not (s.size == p.size == q.size):
            raise InputError(f"score, n_pos and n_neg must have one value per row; they have {s.size}, "
                              f"{p.size} and {q.size} values.")
        if int(p.sum()) == 0 or int(q.sum()) == 0:
            which = "positive" if int(p.sum()) == 0 else "negative"
            raise InputError(f"The counts hold no {which} instance; both classes are needed (ROC analysis "
                             "compares positives with negatives).")
        keep = (p + q) > 0
        s, p, q = s[keep], p[keep], q[keep]
        order = np.argsort(s)  # (rows with the same score are added up: their order does not matter)
        s, p, q = s[order], p[order], q[order]
        starts = np.flatnonzero(np.concatenate([[True], s[1:] != s[:-1]]))  # repeated scores added up
        return cls._from_table(s[starts], np.add.reduceat(p, starts), np.add.reduceat(q, starts), pos_label)

    @classmethod
    def from_frame(cls, df, *, score="score", n_pos="n_pos", n_neg="n_neg", pos_label: Any = None) -> "ScoreCounts":
        """From a table with one row per score: ``score``, ``n_pos`` (positives) and ``n_neg`` (negatives).

        Examples
        --------
        >>> import pandas as pd, rocci
        >>> table = pd.DataFrame({"score": [0.9, 0.6, 0.2], "n_pos": [8, 3, 1], "n_neg": [1, 4, 9]})
        >>> counts = rocci.ScoreCounts.from_frame(table)
        >>> round(rocci.roc_auc(counts).auc, 6)
        0.866071
        """
        return cls.from_counts(_frame_column(df, score, "the scores"), _frame_column(df, n_pos, "n_pos"),
                               _frame_column(df, n_neg, "n_neg"), pos_label=pos_label)

    @classmethod
    def from_arrays(cls, y_true, y_score, *, pos_label: Any = None) -> "ScoreCounts":
        """From raw labels and scores, with the same validation as every rocci function."""
        pos, neg, label = check_binary(y_true, y_score, pos_label)
        return cls(np.sort(pos), np.sort(neg), label)

    def to_frame(self):
        """The table of distinct scores (increasing) with ``n_pos`` and ``n_neg``: what :meth:`from_frame` reads."""
        import pandas as pd

        values, n_pos, n_neg = self.table()
        return pd.DataFrame({"score": values, "n_pos": n_pos, "n_neg": n_neg})

    def __repr__(self) -> str:
        distinct = self.table()[0].size
        return (f"ScoreCounts(n_pos={self.n_pos}, n_neg={self.n_neg}, distinct_scores={distinct}"
                + (f", pos_label={self.pos_label!r})" if self.pos_label is not None else ")"))

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
        if self._table is not None:
            values, _, _, below_pos, below_neg = self._table
            thresholds = np.concatenate([[np.inf], values[::-1]])
            tp = np.concatenate([[0], (below_pos[-1] - below_pos[:-1])[::-1]])
            fp = np.concatenate([[0], (below_neg[-1] - below_neg[:-1])[::-1]])
            return thresholds, tp, fp
        n_pos, n = self.pos.size, self.pos.size + self.neg.size
        merged = np.concatenate([self.pos, self.neg])
        order = np.argsort(merged, kind="stable")[::-1]  # decreasing scores
        # Written straight into the outputs (each fresh 8 MB array costs a pass of page faults at 10⁶).
        thresholds = np.empty(n + 1)
        thresholds[0] = np.inf
        values = merged.take(order, out=thresholds[1:])
        del merged
        is_pos = order < n_pos
        del order
        last = np.empty(n, dtype=bool)  # the last row of each run of tied scores (the next one is lower)
        last[-1] = True
        np.not_equal(values[1:], values[:-1], out=last[:-1])
        tp, fp = np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
        np.cumsum(is_pos.view(np.int8), dtype=np.int64, out=tp[1:])  # positives at or above each row
        if last.all():  # no ties: one threshold per row
            np.logical_not(is_pos, out=is_pos)
            np.cumsum(is_pos.view(np.int8), dtype=np.int64, out=fp[1:])
            return thresholds, tp, fp
        at = np.flatnonzero(last)  # each run of tied scores is one threshold, counted at its last row
        keep = np.concatenate([[0], at + 1])
        tp = tp.take(keep)
        fp = keep - tp
        return thresholds.take(keep), tp, fp

    def neg_desc(self) -> np.ndarray:
        """Negative scores in decreasing order ``s_1 >= s_2 >= ... >= s_n-``."""
        return self.neg[::-1]


@dataclass(frozen=True, repr=False)
class PairedCounts:
    """Two models scored on the same instances, as counts of distinct (score_a, score_b) pairs by class.

    Every paired law in rocci depends on the two models only through this
    table, so every two-model function accepts it in place of
    ``(y_true, score_a, score_b)`` (pass it as ``y_true`` and leave the scores
    out) and gives the same results.

    Attributes
    ----------
    score_a, score_b : ndarray of float64
        The distinct pairs.
    n_pos, n_neg : ndarray of int64
        Positives and negatives with each pair.
    names : tuple of str
        The two models' names.
    pos_label : object
        The positive label, when known.
    """

    score_a: np.ndarray
    score_b: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    names: tuple = ("a", "b")
    pos_label: Any = field(default=None, compare=False)
    _margins: dict = field(default_factory=dict, compare=False, repr=False)  # model() computed once

    @classmethod
    def from_frame(cls, df, *, score_a="score_a", score_b="score_b", n_pos="n_pos", n_neg="n_neg",
                   names: tuple | None = None, pos_label: Any = None) -> "PairedCounts":
        """From a table with one row per (score_a, score_b) pair and its numbers of positives and negatives."""
        a = _score_column(str(score_a), _frame_column(df, score_a, "model A's scores"))
        b = _score_column(str(score_b), _frame_column(df, score_b, "model B's scores"))
        p = _count_column(str(n_pos), _frame_column(df, n_pos, "n_pos"))
        q = _count_column(str(n_neg), _frame_column(df, n_neg, "n_neg"))
        if int(p.sum()) == 0 or int(q.sum()) == 0:
            which = "positive" if int(p.sum()) == 0 else "negative"
            raise InputError(f"The counts hold no {which} instance; both classes are needed.")
        keep = (p + q) > 0
        return cls(a[keep], b[keep], p[keep], q[keep], tuple(names or (str(score_a), str(score_b))), pos_label)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(is_positive, score_a, score_b)``, one row per instance (positives first)."""
        y = np.concatenate([np.ones(int(self.n_pos.sum()), bool), np.zeros(int(self.n_neg.sum()), bool)])
        a = np.concatenate([np.repeat(self.score_a, self.n_pos), np.repeat(self.score_a, self.n_neg)])
        b = np.concatenate([np.repeat(self.score_b, self.n_pos), np.repeat(self.score_b, self.n_neg)])
        return y, a, b

    def model(self, which: str | int) -> ScoreCounts:
        """One model's :class:`ScoreCounts` (its margin): ``"a"``/``0``, ``"b"``/``1`` or its name."""
        idx = {"a": 0, 0: 0, "b": 1, 1: 1, self.names[0]: 0, self.names[1]: 1}.get(which)
        if idx is None:
            raise InputError(f"No model {which!r} here; the models are {list(self.names)}.")
        if idx not in self._margins:
            s = self.score_a if idx == 0 else self.score_b
            self._margins[idx] = ScoreCounts.from_counts(s, self.n_pos, self.n_neg, pos_label=self.pos_label)
        return self._margins[idx]

    def __repr__(self) -> str:
        return (f"PairedCounts({self.names[0]!r} vs {self.names[1]!r}: n_pos={int(self.n_pos.sum())}, "
                f"n_neg={int(self.n_neg.sum())}, distinct_pairs={self.score_a.size})")


def _at_rank(values: np.ndarray, at_or_above: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """``values[i]`` for the largest ``i`` with ``at_or_above[i] >= rank`` (``at_or_above`` non-increasing):
    the ``rank``-th largest instance.  That ``values[i]`` holds an instance, since ``at_or_above[i + 1] <
    rank <= at_or_above[i]``."""
    return values[np.searchsorted(-at_or_above, -rank, side="right") - 1]


def score_counts(pos: np.ndarray, neg: np.ndarray) -> ScoreCounts:
    """Sort each class's scores once; O(n log n) time, O(n) memory."""
    return ScoreCounts(np.sort(pos), np.sort(neg))


def joint_ge_counts(a: np.ndarray, b: np.ndarray, ta, tb, weights=None) -> np.ndarray:
    """``C[i, j] = #{k : a_k >= ta[i] and b_k >= tb[j]}`` for every pair of thresholds.

    Two models' scores ``a`` and ``b`` of the same instances.  Each instance
    falls in one cell of the grid of distinct thresholds; a 2-D histogram and
    a reversed 2-D cumulative sum give all counts in O(n log n + P·Q) time and
    O(n + P·Q) memory, for ``P`` and ``Q`` distinct thresholds.  With
    ``weights`` (integer counts of a table of distinct pairs) each entry
    counts ``weights[k]`` instances; the sums are exact below 2⁵³.

    Returns
    -------
    ndarray of int64, shape (len(ta), len(tb))
    """
    ta, tb = np.asarray(ta, dtype=float), np.asarray(tb, dtype=float)
    ua, inv_a = np.unique(ta, return_inverse=True)
    ub, inv_b = np.unique(tb, return_inverse=True)
    cum = _ge_grid(a, b, ua, ub, weights)
    return cum[1:, 1:][np.ix_(inv_a.ravel(), inv_b.ravel())].astype(np.int64)


def _ge_grid(a: np.ndarray, b: np.ndarray, ua: np.ndarray, ub: np.ndarray, weights=None) -> np.ndarray:
    """``cum[x, y] = #{k : a_k >= ua[x − 1] and b_k >= ub[y − 1]}`` (row/column 0: no condition) for
    distinct sorted thresholds ``ua``, ``ub``: one histogram of the grid's cells, summed from the top."""
    # Number of distinct thresholds at or below each score: a_k >= ua[i] iff i < alpha_k.
    alpha = np.searchsorted(ua, a, side="right")
    beta = np.searchsorted(ub, b, side="right")
    width = ub.size + 1
    cells = alpha * width + beta
    size = (ua.size + 1) * width
    if weights is None:
        hist = np.bincount(cells, minlength=size)
    else:
        hist = np.bincount(cells, weights=np.asarray(weights, dtype=np.float64), minlength=size).astype(np.int64)
    return hist.reshape(ua.size + 1, width)[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]


def paired_cells(a: np.ndarray, b: np.ndarray, ta, tb, weights=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Paired confusion cells at threshold pairs ``(ta[p], tb[p])``.

    Cell **a**: model a says positive, model b negative (``a >= ta``, ``b < tb``);
    cell **b**: the reverse; the rest agree (math.md, Conventions).  ``weights``:
    None (one instance per entry) or the counts of a table of distinct pairs.

    Returns
    -------
    n_a, n_b, n_both : ndarray of int64, shape (P,)
        Counts of cell a, cell b, and of instances both models call positive.
    """
    return paired_cells_by_class([(a, b, weights)], ta, tb)[0]


def paired_cells_by_class(classes, ta, tb) -> list:
    """:func:`paired_cells` for several classes ``[(a, b, weights), …]`` at the same threshold pairs: the
    distinct thresholds found once and one histogram for all classes, read at the pairs only (and at
    "no condition" for the margins): ``cum[c, x, y] = #{k in class c : a_k >= ua[x − 1], b_k >= ub[y − 1]}``
    as in :func:`_ge_grid`."""
    ta, tb = np.atleast_1d(np.asarray(ta, dtype=float)), np.atleast_1d(np.asarray(tb, dtype=float))
    ua, ia = np.unique(ta, return_inverse=True)
    ub, ib = np.unique(tb, return_inverse=True)
    width, size = ub.size + 1, (ua.size + 1) * (ub.size + 1)
    cells = [np.searchsorted(ua, a, side="right") * width + np.searchsorted(ub, b, side="right") + c * size
             for c, (a, b, _) in enumerate(classes)]
    if all(w is None for _, _, w in classes):
        hist = np.bincount(np.concatenate(cells), minlength=len(classes) * size)
    else:
        weights = [np.ones(a.size) if w is None else np.asarray(w, dtype=np.float64) for a, _, w in classes]
        hist = np.bincount(np.concatenate(cells), weights=np.concatenate(weights),
                           minlength=len(classes) * size).astype(np.int64)
    cum = hist.reshape(len(classes), ua.size + 1, width)[:, ::-1, ::-1].cumsum(axis=1).cumsum(axis=2)[:, ::-1, ::-1]
    x, y = ia.ravel() + 1, ib.ravel() + 1
    out = []
    for c in range(len(classes)):
        both, ge_a, ge_b = cum[c, x, y], cum[c, x, 0], cum[c, 0, y]
        out.append(((ge_a - both).astype(np.int64), (ge_b - both).astype(np.int64), both.astype(np.int64)))
    return out


def check_binary(y_true: Any, y_score: Any, pos_label: Any = None, *, name: str = "y_score"):
    """Validate one model's data.

    Returns
    -------
    pos : ndarray of float64
        Scores of the positive instances.
    neg : ndarray of float64
        Scores of the negative instances.
    pos_label : object
        The positive label used.
    """
    if isinstance(y_true, ScoreCounts):
        if y_score is not None:
            raise InputError(f"Pass either a ScoreCounts alone or y_true with {name}, not both: the counts "
                             "already hold the scores.")
        return y_true.pos, y_true.neg, y_true.pos_label if y_true.pos_label is not None else pos_label
    if isinstance(y_true, PairedCounts):
        raise InputError("This function analyses one model; give it one model's counts, e.g. "
                         "paired.model('a'), or rocci.scan(...)[name].")
    mask, pos_label = check_labels(y_true, pos_label)
    scores = check_scores(y_score, name=name, n=mask.size)
    (pos, neg), = split_by_class(mask, scores)
    return pos, neg, pos_label


def binary_counts(y_true: Any, y_score: Any, pos_label: Any = None, *, name: str = "y_score"):
    """One model's :class:`rocci._core.counts.ScoreCounts` and positive label, from raw arrays or given as ``y_true``.

    A ``ScoreCounts`` passes through unchanged (a table of counts keeps its
    O(distinct scores) representation); raw arrays are validated by
    :func:`check_binary` and sorted by class.
    """
    if isinstance(y_true, ScoreCounts) and y_score is None:
        return y_true, y_true.pos_label if y_true.pos_label is not None else pos_label
    pos, neg, label = check_binary(y_true, y_score, pos_label, name=name)
    pos.sort()  # (check_binary's own copies: sorted in place, no second pair of arrays)
    neg.sort()
    return ScoreCounts(pos, neg), label


def paired_input(y_true: Any, score_a: Any, score_b: Any, pos_label: Any = None):
    """``(y_true, score_a, score_b, pos_label)``, from raw arrays or from a ``PairedCounts`` given as ``y_true``.

    A ``PairedCounts`` is expanded to one row per instance (``y_true`` boolean,
    positives first), which every paired function then validates as usual:
    the results are those of the raw data the counts were made from.
    """
    if isinstance(y_true, PairedCounts):
        if score_a is not None or score_b is not None:
            raise InputError("Pass either a PairedCounts alone or y_true with score_a and score_b, not both: "
                             "the counts already hold both models' scores.")
        return (*y_true.arrays(), None)  # boolean labels: True is positive
    if isinstance(y_true, ScoreCounts):
        raise InputError("Comparing two models needs their scores on the same instances: a PairedCounts "
                         "(rocci.scan(...).paired(a, b), or PairedCounts.from_frame), not one model's ScoreCounts.")
    return y_true, score_a, score_b, pos_label


def _auc_from_counts(tp: np.ndarray, fp: np.ndarray, n_pos: int, n_neg: int) -> float:
    """Trapezoidal area of the ROC polygon, in integer arithmetic.

    ``AUC = Σ_i (fp_i − fp_{i−1})(tp_i + tp_{i−1}) / (2·n+·n−)``, which equals
    the Mann–Whitney statistic with ties counted 1/2.
    """
    dfp = np.diff(fp)
    doubled = int(np.sum(dfp * (tp[1:] + tp[:-1]), dtype=np.int64))
    return doubled / (2.0 * n_pos * n_neg)
