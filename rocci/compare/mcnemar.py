"""McNemar's test of two models' errors at fixed thresholds, with and without correction, and exact."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .._core.results import _FrameResult
from .._core.inputs import InputError
from ._common import _paired_classes, _scalar_threshold


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
    """McNemar's test of equal error rates of two classifiers on the same instances.

    Attributes
    ----------
    n_a_only_correct : int
        Instances model a classifies correctly and model b does not
        (the course notes' ``e10``: "misclassified by 2 but not by 1").
    n_b_only_correct : int
        The reverse (``e01``).
    n_both_correct, n_both_wrong : int
    statistic : float
        The statistic chosen by ``correction``.
    pvalue : float
        Its chi-square (1 degree of freedom) p-value.
    statistic_corrected, statistic_uncorrected : float
        ``(|e01 − e10| − 1)²/(e01 + e10)`` (continuity corrected; 0 when
        ``e01 = e10``, as R's mcnemar.test) and ``(e01 − e10)²/(e01 + e10)``.
    pvalue_corrected, pvalue_uncorrected : float
    exact_pvalue : float
        Two-sided exact binomial p-value: ``min(1, 2·B(min(e01, e10); e01 + e10, ½))``.
    threshold_a, threshold_b : float
    correction : bool
    accuracy_a, accuracy_b : float
    """

    n_a_only_correct: int
    n_b_only_correct: int
    n_both_correct: int
    n_both_wrong: int
    statistic: float
    pvalue: float
    statistic_corrected: float
    statistic_uncorrected: float
    pvalue_corrected: float
    pvalue_uncorrected: float
    exact_pvalue: float
    threshold_a: float
    threshold_b: float
    correction: bool
    accuracy_a: float
    accuracy_b: float

    _scalar_fields = ("statistic", "pvalue", "exact_pvalue", "correction")

    def to_frame(self) -> pd.DataFrame:
        """One row: ``n_a_only_correct, n_b_only_correct, n_both_correct, n_both_wrong,
        statistic, pvalue, statistic_corrected, statistic_uncorrected, exact_pvalue``."""
        keys = (
            "n_a_only_correct", "n_b_only_correct", "n_both_correct", "n_both_wrong",
            "statistic", "pvalue", "statistic_corrected", "statistic_uncorrected", "exact_pvalue",
        )
        return pd.DataFrame([{k: getattr(self, k) for k in keys}])

    def table(self) -> pd.DataFrame:
        """The 2 × 2 table: rows model a correct/wrong, columns model b correct/wrong."""
        return pd.DataFrame(
            [[self.n_both_correct, self.n_a_only_correct], [self.n_b_only_correct, self.n_both_wrong]],
            index=pd.Index(["a correct", "a wrong"]),
            columns=pd.Index(["b correct", "b wrong"]),
        )

    def __repr__(self) -> str:
        return (
            f"McNemarResult(a only correct={self.n_a_only_correct}, b only correct={self.n_b_only_correct}, "
            f"statistic={self.statistic:.6g}, pvalue={self.pvalue:.4g}, exact_pvalue={self.exact_pvalue:.4g}, "
            f"correction={self.correction})"
        )


def mcnemar(
    y_true, score_a=None, score_b=None, *, threshold_a, threshold_b=None, pos_label=None, correction=True
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

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`compare_thresholds`; ``y_true`` may be a
        :class:`~rocci.PairedCounts` (scores left out): the 2 × 2 table is
        summed from its rows' counts, never expanded, and the result is the same.
    threshold_a : float
        Model a's threshold.
    threshold_b : float, optional
        Model b's threshold; default ``threshold_a``.
    correction : bool, default True
        Whether ``statistic`` and ``pvalue`` use the continuity correction
        (both versions are always reported).

    Returns
    -------
    McNemarResult

    Notes
    -----
    This is a classical test on the observed predictions, not an exact
    bootstrap quantity.  Raises :class:`InputError` when the models never
    disagree (``e01 + e10 = 0``): the statistic is 0/0.
    """
    data = _paired_classes(y_true, score_a, score_b, pos_label)  # a PairedCounts stays a table
    ta = _scalar_threshold("threshold_a", threshold_a)
    tb = ta if threshold_b is None else _scalar_threshold("threshold_b", threshold_b)
    if not isinstance(correction, (bool, np.bool_)):
        raise InputError(f"correction ({correction!r}) must be True or False.")
    n = data.n_pos + data.n_neg
    pos = _right_counts(*data.pos, ta, tb, positive=True)
    neg = _right_counts(*data.neg, ta, tb, positive=False)
    a_only, b_only, both_right = (p + q for p, q in zip(pos, neg))
    both_wrong = int(n - a_only - b_only - both_right)
    k = a_only + b_only
    if k == 0:
        raise InputError(
            "The two models are right and wrong on exactly the same instances at these thresholds "
            "(no discordant instances): McNemar's test is undefined. Their error rates are equal "
            f"({both_wrong}/{n})."
        )
    diff = abs(a_only - b_only)
    chi_u = diff**2 / k
    chi_c = max(diff - 1, 0) ** 2 / k if diff > 0 else 0.0
    p_u, p_c = float(stats.chi2.sf(chi_u, 1)), float(stats.chi2.sf(chi_c, 1))
    exact = float(min(1.0, 2.0 * stats.binom.cdf(min(a_only, b_only), k, 0.5)))
    return McNemarResult(
        n_a_only_correct=a_only,
        n_b_only_correct=b_only,
        n_both_correct=both_right,
        n_both_wrong=both_wrong,
        statistic=float(chi_c if correction else chi_u),
        pvalue=p_c if correction else p_u,
        statistic_corrected=float(chi_c),
        statistic_uncorrected=float(chi_u),
        pvalue_corrected=p_c,
        pvalue_uncorrected=p_u,
        exact_pvalue=exact,
        threshold_a=ta,
        threshold_b=tb,
        correction=bool(correction),
        accuracy_a=(a_only + both_right) / n,
        accuracy_b=(b_only + both_right) / n,
    )


