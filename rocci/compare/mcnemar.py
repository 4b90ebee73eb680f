"""McNemar's test of two models' errors at fixed threshold pairs, with and without correction, and exact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._core.compat import renamed_attribute, renamed_keyword
from .._core.results import _FrameResult, column
from .._core.inputs import InputError
from ._common import _paired_classes, _threshold_pairs


def _right_counts(a, b, w, ta: float, tb: float, positive: bool) -> tuple[int, int, int]:
    """One class's ``(a only right, b only right, both right)``: entries ``(a, b)`` with counts ``w``
    (None: one instance each).  A model is right on a positive when ``score >= t``, on a negative when
    ``score < t``."""
    right_a = (a >= ta) if positive else (a < ta)
    right_b = (b >= tb) if positive else (b < tb)
    cells = (right_a & ~right_b, right_b & ~right_a, right_a & right_b)
    if w is None:
        return tuple(int(np.count_nonzero(c)) for c in cells)
    return tuple(int(w[c].sum()) for c in cells)  # int64 sums: exact

@dataclass(repr=False)
class McNemarResult(_FrameResult):
    """McNemar's test of equal error rates of two classifiers on the same instances, at each threshold pair.

    The numbers come back in the shape the thresholds came in: one number each for one pair of scalar
    thresholds (``thresholds_a=0.5``), arrays of shape ``(h,)`` for lists of ``h`` pairs, as NumPy's
    functions answer a scalar with a scalar and a list with an array.  ``to_frame()`` has one row per pair
    either way.

    Attributes
    ----------
    thresholds_a, thresholds_b : float or ndarray
        The threshold pairs (``score >= t`` is positive).
    n_a_only_correct : int or ndarray of int
        Instances model a classifies correctly and model b does not
        (the course notes' ``e10``: "misclassified by 2 but not by 1").
    n_b_only_correct : int or ndarray of int
        The reverse (``e01``).
    n_both_correct, n_both_wrong : int or ndarray of int
    statistic : float or ndarray
        The statistic chosen by ``correction``.
    pvalue : float or ndarray
        Its chi-square (1 degree of freedom) p-value.
    statistic_corrected, statistic_uncorrected : float or ndarray
        ``(|e01 − e10| − 1)²/(e01 + e10)`` (continuity corrected; 0 when
        ``e01 = e10``, as R's mcnemar.test) and ``(e01 − e10)²/(e01 + e10)``.
    pvalue_corrected, pvalue_uncorrected : float or ndarray
    exact_pvalue : float or ndarray
        Two-sided exact binomial p-value: ``min(1, 2·B(min(e01, e10); e01 + e10, ½))``.
    correction : bool
    accuracy_a, accuracy_b : float or ndarray
    threshold_a, threshold_b
        rocci 0.2's names of ``thresholds_a`` and ``thresholds_b`` (DeprecationWarning).
    """

    thresholds_a: Any = column("threshold_a")
    thresholds_b: Any = column("threshold_b")
    n_a_only_correct: Any = column()
    n_b_only_correct: Any = column()
    n_both_correct: Any = column()
    n_both_wrong: Any = column()
    statistic: Any = column()
    pvalue: Any = column()
    statistic_corrected: Any = column()
    statistic_uncorrected: Any = column()
    pvalue_corrected: Any
    pvalue_uncorrected: Any
    exact_pvalue: Any = column()
    correction: bool
    accuracy_a: Any
    accuracy_b: Any

    _scalar_fields = ("correction",)
    threshold_a = renamed_attribute("McNemarResult", "threshold_a", "thresholds_a")
    threshold_b = renamed_attribute("McNemarResult", "threshold_b", "thresholds_b")

    def table(self, i: int = 0) -> pd.DataFrame:
        """The 2 × 2 table of the ``i``-th threshold pair: rows model a correct/wrong, columns model b
        correct/wrong."""
        cell = {k: int(np.atleast_1d(getattr(self, k))[i])
                for k in ("n_both_correct", "n_a_only_correct", "n_b_only_correct", "n_both_wrong")}
        return pd.DataFrame(
            [[cell["n_both_correct"], cell["n_a_only_correct"]], [cell["n_b_only_correct"], cell["n_both_wrong"]]],
            index=pd.Index(["a correct", "a wrong"]),
            columns=pd.Index(["b correct", "b wrong"]),
        )

    def __repr__(self) -> str:
        if np.ndim(self.statistic) == 0:
            return (
                f"McNemarResult(a only correct={self.n_a_only_correct}, b only correct={self.n_b_only_correct}, "
                f"statistic={self.statistic:.6g}, pvalue={self.pvalue:.4g}, exact_pvalue={self.exact_pvalue:.4g}, "
                f"correction={self.correction})"
            )
        return super().__repr__()


def _one_pair(data, ta: float, tb: float, pair: str) -> dict:
    """McNemar's counts, statistics and p-values at one threshold pair (``pair`` names it in an error)."""
    n = data.n_pos + data.n_neg
    pos = _right_counts(*data.pos, ta, tb, positive=True)
    neg = _right_counts(*data.neg, ta, tb, positive=False)
    a_only, b_only, both_right = (p + q for p, q in zip(pos, neg))
    both_wrong = int(n - a_only - b_only - both_right)
    k = a_only + b_only
    if k == 0:
        raise InputError(
            f"The two models are right and wrong on exactly the same instances at {pair} "
            "(no discordant instances): McNemar's test is undefined. Their error rates are equal "
            f"({both_wrong}/{n})."
        )
    diff = abs(a_only - b_only)
    chi_u = diff**2 / k
    chi_c = max(diff - 1, 0) ** 2 / k if diff > 0 else 0.0
    return dict(
        n_a_only_correct=a_only, n_b_only_correct=b_only, n_both_correct=both_right, n_both_wrong=both_wrong,
        statistic_corrected=float(chi_c), statistic_uncorrected=float(chi_u),
        pvalue_corrected=float(stats.chi2.sf(chi_c, 1)), pvalue_uncorrected=float(stats.chi2.sf(chi_u, 1)),
        exact_pvalue=float(min(1.0, 2.0 * stats.binom.cdf(min(a_only, b_only), k, 0.5))),
        accuracy_a=(a_only + both_right) / n, accuracy_b=(b_only + both_right) / n,
    )


def mcnemar(
    y_true, score_a=None, score_b=None, *, thresholds_a=None, thresholds_b=None, pos_label=None, correction=True,
    threshold_a=None, threshold_b=None,
) -> McNemarResult:
    """McNemar's test: do two classifiers, each at its threshold, have the same error rate?

    Every instance (positives and negatives together) is classified by each
    model (``score >= threshold`` is positive) and counted in the 2 × 2 table
    of right/wrong.  Only the discordant instances matter: ``e01`` = wrong
    by model a but not b, ``e10`` = wrong by b but not a.  Under the null
    hypothesis of equal error rates ``e01 | e01 + e10 ~ Bin(e01 + e10, ½)``.

    ``χ² = (|e01 − e10| − 1)²/(e01 + e10)`` with the continuity correction
    (the course notes' form; 0 when ``e01 = e10``), ``(e01 − e10)²/(e01 + e10)``
    without; p-value from χ²₁ (reject at 5% when χ² > 3.84).  The exact
    p-value is the two-sided binomial test ``min(1, 2·P(Bin(e01 + e10, ½) <= min(e01, e10)))``.
    Each threshold pair is tested on its own (no correction for testing several pairs).

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`compare_thresholds`; ``y_true`` may be a
        :class:`~rocci.PairedCounts` (scores left out): the 2 × 2 table is
        summed from its rows' counts, never expanded, and the result is the same.
    thresholds_a : float or array_like
        Model a's thresholds: one number, or a list (one test per pair).
    thresholds_b : float or array_like, optional
        Model b's thresholds, paired element by element with ``thresholds_a``
        (a single value is used for every pair); default ``thresholds_a``.
    correction : bool, default True
        Whether ``statistic`` and ``pvalue`` use the continuity correction
        (both versions are always reported).

    Returns
    -------
    McNemarResult
        Numbers for scalar thresholds, arrays for lists; ``to_frame()`` one row per pair.

    Other Parameters
    ----------------
    threshold_a, threshold_b : float, optional
        rocci 0.2's names of ``thresholds_a`` and ``thresholds_b`` (DeprecationWarning; goes in 0.4).

    Notes
    -----
    This is a classical test on the observed predictions, not an exact
    bootstrap quantity.  Raises :class:`InputError` when the models never
    disagree at a pair (``e01 + e10 = 0``): the statistic is 0/0.

    Examples
    --------
    >>> import rocci
    >>> y, a, b = [1, 1, 1, 0, 0, 0], [0.9, 0.8, 0.3, 0.6, 0.2, 0.1], [0.9, 0.4, 0.7, 0.1, 0.7, 0.8]
    >>> res = rocci.mcnemar(y, a, b, thresholds_a=[0.5, 0.25], thresholds_b=0.5)
    >>> res.to_frame()[["threshold_a", "threshold_b", "n_a_only_correct", "n_b_only_correct"]].values.tolist()
    [[0.5, 0.5, 3.0, 2.0], [0.25, 0.5, 3.0, 1.0]]
    >>> rocci.mcnemar(y, a, b, thresholds_a=0.5).n_a_only_correct  # scalar thresholds: one number each
    3
    """
    thresholds_a = renamed_keyword("mcnemar", "threshold_a", "thresholds_a", threshold_a, thresholds_a)
    thresholds_b = renamed_keyword("mcnemar", "threshold_b", "thresholds_b", threshold_b, thresholds_b)
    data = _paired_classes(y_true, score_a, score_b, pos_label)  # a PairedCounts stays a table
    if thresholds_a is None:
        raise InputError("mcnemar needs the thresholds to test at: thresholds_a (and optionally thresholds_b), "
                         "one number each or lists of pairs, e.g. thresholds_a=0.5.")
    if not isinstance(correction, (bool, np.bool_)):
        raise InputError(f"correction ({correction!r}) must be True or False.")
    scalar = np.ndim(thresholds_a) == 0 and (thresholds_b is None or np.ndim(thresholds_b) == 0)
    ta, tb, _ = _threshold_pairs(data, thresholds_a, thresholds_b, None)
    rows = [_one_pair(data, float(a), float(b), f"thresholds {a:g} (a) and {b:g} (b)" if ta.size > 1
                      else "these thresholds") for a, b in zip(ta, tb)]
    out = {k: (rows[0][k] if scalar else np.array([r[k] for r in rows])) for k in rows[0]}
    chosen = "corrected" if correction else "uncorrected"
    return McNemarResult(
        **out, statistic=out[f"statistic_{chosen}"], pvalue=out[f"pvalue_{chosen}"],
        thresholds_a=float(ta[0]) if scalar else ta, thresholds_b=float(tb[0]) if scalar else tb,
        correction=bool(correction),
    )
