"""The threshold explorer: a confusion matrix and its indicators at one threshold,
ways to choose a threshold, and a binomial test of an error rate.  The table of
indicators at every threshold and the reading-rate curve are in
:mod:`rocci.confusion.tables`, the gain chart and the precision–recall curve in
:mod:`rocci.precision` (:func:`rocci.gain_curve`, :func:`rocci.pr_curve`); their
names are importable from here as before 0.3.

Notation (math.md, Conventions).  An instance is predicted positive at
threshold ``t`` when ``score >= t``.  At a threshold the four cells of the
confusion matrix are

* ``TP`` positives with ``score >= t``, ``FN = n+ − TP``;
* ``FP`` negatives with ``score >= t``, ``TN = n− − FP``;

and ``n = n+ + n−``.  Every count comes from :mod:`rocci._core.counts` (sorted
scores and binary searches, O(n log n) once, then O(log n) per threshold).
Every function takes a :class:`~rocci.ScoreCounts` in place of ``(y_true,
y_score)``; a table of counts is never expanded to one row per instance: the
indicators depend on the data only through ``TP`` and ``FP`` at thresholds,
which its cumulative counts give (O(distinct scores), whatever the number of
instances).

Intervals at a threshold held fixed across bootstrap samples
--------------------------------------------------------------
Each indicator's interval is built from a binomial law that the bootstrap
gives it exactly (the infinite-resample limit, in closed form):

* **recall (TPR), specificity, FPR** — proportions of a fixed class.  Under
  the stratified bootstrap (``n+`` draws from the positives, ``n−`` from the
  negatives), ``TP* ~ Bin(n+, TP/n+)``, ``FP* ~ Bin(n−, FP/n−)`` and
  ``TN* = n− − FP*`` (thesis §4.3.1, as :func:`rocci.threshold_ci`).
* **accuracy, error rate, total positive rate** — proportions of all
  instances.  Under the full bootstrap (``n`` draws from the pooled data),
  ``errors* = FP* + FN* ~ Bin(n, (FP + FN)/n)``, and likewise for the correct
  decisions and for the predicted positives.
* **precision** — a ratio of two random counts.  Under the full bootstrap the
  draws fall in the four cells as a multinomial; *given* that ``K* = TP + FP``
  draws are predicted positive (the observed number), ``TP* ~ Bin(TP + FP,
  precision)``.  The interval is that conditional binomial's.
* **F-measure** ``F1 = 2·TP/(2·TP + FP + FN)`` — with ``J = TP/(TP + FP +
  FN)`` (the share of true positives among the instances that are not true
  negatives), ``F1 = 2J/(1 + J)``, an increasing function of ``J``.  Given
  ``TP* + FP* + FN* = TP + FP + FN`` draws outside the true negatives,
  ``TP* ~ Bin(TP + FP + FN, J)`` exactly; the interval for ``J`` is mapped to
  ``F1`` by ``2J/(1 + J)``.

The interval for each binomial proportion is one of
:func:`rocci._core.intervals.proportion_interval`'s methods (Wilson by default;
"percentile" takes the quantiles of the exact binomial law).  Each row of
:meth:`Confusion.to_frame` names its law in the ``bootstrap`` and ``method``
columns.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from .._core.compat import renamed_attribute, renamed_keyword
from .._core.counts import binary_counts
from .._core.inputs import InputError, _check_add, check_choice, check_confidence_level
from .._core.intervals import PROPORTION_METHODS, proportion_interval
from .._core.results import ConfidenceInterval, _FrameResult, column
from ..cost import AGRESTI_ADD, cost_curve, operating_point
from ..precision.curve import precision_recall_curve  # noqa: F401  (rocci 0.2's path, rocci.explore; deprecated)
from ..precision.gain import gain_curve  # noqa: F401  (rocci 0.2's path, rocci.explore)
from ..roc.threshold import thresholds_for_total_positive_rate
from .tables import _table_counts, reading_curve, threshold_table  # noqa: F401  (the last two: here before 0.3)

__all__ = [
    "Confusion",
    "BinomialTest",
    "INDICATORS",
    "ALTERNATIVES",
    "confusion_at",
    "threshold_table",
    "gain_curve",
    "precision_recall_curve",
    "reading_curve",
    "rate_threshold",
    "youden_threshold",
    "cost_threshold",
    "binomial_test",
]

#: Indicators of :func:`confusion_at`, in the order of its table.
INDICATORS = (
    "accuracy",
    "error_rate",
    "precision",
    "recall",
    "specificity",
    "fpr",
    "f1",
    "total_positive_rate",
)

#: Alternatives of :func:`binomial_test`.
ALTERNATIVES = ("two-sided", "less", "greater")

_METHOD_TEXT = {
    "wilson": "Wilson",
    "wald": "Wald",
    "agresti-coull": "Agresti–Coull",
    "percentile": "percentile of the exact law",
}

# indicator -> (bootstrap, law), the binomial each interval rests on.
_LAWS = {
    "accuracy": ("full", "full exact bootstrap: correct* ~ Bin(n, accuracy)"),
    "error_rate": ("full", "full exact bootstrap: errors* ~ Bin(n, error rate)"),
    "precision": ("full, given TP+FP",
                  "full exact bootstrap given the TP + FP predicted positives: TP* ~ Bin(TP + FP, precision)"),
    "recall": ("stratified", "stratified exact bootstrap: TP* ~ Bin(n+, recall)"),
    "specificity": ("stratified", "stratified exact bootstrap: TN* ~ Bin(n−, specificity)"),
    "fpr": ("stratified", "stratified exact bootstrap: FP* ~ Bin(n−, FPR)"),
    "f1": ("full, given TP+FP+FN",
           "interval for J = TP/(TP + FP + FN) mapped by F1 = 2J/(1 + J); full exact bootstrap given the "
           "TP + FP + FN instances that are not true negatives: TP* ~ Bin(TP + FP + FN, J)"),
    "total_positive_rate": ("full", "full exact bootstrap: predicted positives* ~ Bin(n, rate)"),
}


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _check_threshold(threshold: Any) -> float:
    """One threshold: a real number; ``+inf`` (all negative) and ``−inf`` (all positive) allowed."""
    if isinstance(threshold, (str, bytes)) or threshold is None or isinstance(threshold, (bool, np.bool_)):
        raise InputError(f"threshold ({threshold!r}) must be a number, e.g. 0.5.")
    arr = np.asarray(threshold)
    if arr.ndim != 0:
        raise InputError(
            f"threshold must be one number (got {arr.size} values); call confusion_at once per threshold, "
            "or use threshold_table for all of them."
        )
    try:
        value = float(arr)
    except (TypeError, ValueError):
        raise InputError(f"threshold ({threshold!r}) must be a number, e.g. 0.5.") from None
    if np.isnan(value):
        raise InputError("threshold is NaN (not a number); give a real number, e.g. 0.5.")
    return value


def _check_probability(name: str, value: Any, *, closed: bool = True) -> float:
    if isinstance(value, (str, bytes, bool, np.bool_)) or value is None:
        raise InputError(f"{name} ({value!r}) must be a number between 0 and 1.")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} ({value!r}) must be a number between 0 and 1.") from None
    ok = (0.0 <= v <= 1.0) if closed else (0.0 < v < 1.0)
    if not np.isfinite(v) or not ok:
        where = "in [0, 1]" if closed else "strictly between 0 and 1"
        raise InputError(f"{name} ({value!r}) must lie {where}.")
    return v


def _check_count(name: str, value: Any, *, low: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputError(f"{name} ({value!r}) must be a whole number.")
    if not np.isfinite(float(value)) or not float(value).is_integer():
        raise InputError(f"{name} ({value!r}) must be a whole number.")
    if value < low:
        raise InputError(f"{name} ({value!r}) must be at least {low}.")
    return int(value)


def _counts(y_true, y_score, pos_label):
    """One model's :class:`~rocci.ScoreCounts` and positive label: raw arrays sorted by class, or a
    ``ScoreCounts`` as it is (a table of counts is never expanded: every function of this module
    needs only ``TP`` and ``FP`` at thresholds, which the table's cumulative counts give)."""
    return binary_counts(y_true, y_score, pos_label)


# ---------------------------------------------------------------------------
# Intervals from conditional and unconditional binomials
# ---------------------------------------------------------------------------


def _binomial_intervals(successes, trials, alpha: float, method: str, add: float = AGRESTI_ADD):
    """Interval for ``successes/trials`` by ``method`` (``add``: Agresti–Coull pseudo-count per cell);
    NaN where ``trials == 0``."""
    successes = np.asarray(successes, dtype=np.float64)
    trials = np.asarray(trials, dtype=np.float64)
    low = np.full(successes.shape, np.nan)
    high = np.full(successes.shape, np.nan)
    ok = trials > 0
    if ok.any():
        p = successes[ok] / trials[ok]
        lo, hi = proportion_interval(p, trials[ok], alpha, method, add=add)
        low[ok], high[ok] = lo, hi
    return low, high


# ---------------------------------------------------------------------------
# Confusion matrix at one threshold
# ---------------------------------------------------------------------------


@dataclass(repr=False)
class Confusion(_FrameResult):
    """The confusion matrix at one threshold, and its indicators with intervals.

    Attributes
    ----------
    threshold : float
        Instances with ``score >= threshold`` are predicted positive.
    tp, fn, fp, tn : int
        The four cells.
    n_pos, n_neg : int
        Class sizes; ``n = n_pos + n_neg``.
    indicators : tuple of str
        The rows of :meth:`to_frame` (:data:`INDICATORS`).
    value, low, high : ndarray of shape (8,)
        Each indicator's value and interval (NaN for the precision when no
        instance is predicted positive).
    successes, trials : ndarray of int64
        The binomial count each interval rests on, and its number of trials
        (for ``f1``: ``TP`` of ``TP + FP + FN``, the interval being for ``J``
        and mapped to ``F1``).
    bootstrap, law : tuple of str
        Which bootstrap gives each law ("stratified", "full", "full, given
        TP+FP", ...) and the law itself, in words.
    method : str
        Interval method for every binomial proportion.
    confidence_level : float
        Level of each interval (each on its own, not jointly).
    pos_label : object
    add : float
        Agresti–Coull pseudo-count per cell (used by ``method="agresti-coull"``).
    """

    threshold: float
    tp: int
    fn: int
    fp: int
    tn: int
    n_pos: int
    n_neg: int
    indicators: tuple
    value: np.ndarray
    low: np.ndarray
    high: np.ndarray
    successes: np.ndarray
    trials: np.ndarray
    bootstrap: tuple
    law: tuple
    method: str
    confidence_level: float
    pos_label: Any = None
    add: float = AGRESTI_ADD

    _scalar_fields = ("threshold", "tp", "fn", "fp", "tn", "method", "confidence_level")

    @property
    def n(self) -> int:
        return self.n_pos + self.n_neg

    @property
    def errors(self) -> int:
        """``FP + FN``: the misclassified instances."""
        return self.fp + self.fn

    @property
    def n_predicted_positive(self) -> int:
        """``TP + FP``: the instances predicted positive (Tanagra's "#cible"; ``target_size`` before rocci 0.3)."""
        return self.tp + self.fp

    target_size = renamed_attribute("Confusion", "target_size", "n_predicted_positive")

    def _get(self, name: str) -> float:
        return float(self.value[self.indicators.index(name)])

    @property
    def accuracy(self) -> float:
        """``(TP + TN)/n``."""
        return self._get("accuracy")

    @property
    def error_rate(self) -> float:
        """``(FP + FN)/n``."""
        return self._get("error_rate")

    @property
    def precision(self) -> float:
        """``TP/(TP + FP)``; NaN when nothing is predicted positive."""
        return self._get("precision")

    @property
    def recall(self) -> float:
        """``TP/n+`` (sensitivity, true positive rate)."""
        return self._get("recall")

    @property
    def specificity(self) -> float:
        """``TN/n−``."""
        return self._get("specificity")

    @property
    def fpr(self) -> float:
        """``FP/n−``."""
        return self._get("fpr")

    @property
    def f1(self) -> float:
        """``2·TP/(2·TP + FP + FN)``."""
        return self._get("f1")

    @property
    def total_positive_rate(self) -> float:
        """``(TP + FP)/n``."""
        return self._get("total_positive_rate")

    def interval(self, indicator: str) -> ConfidenceInterval:
        """``(low, high)`` of one indicator (one of :data:`INDICATORS`)."""
        check_choice("indicator", indicator, self.indicators)
        i = self.indicators.index(indicator)
        return ConfidenceInterval(float(self.low[i]), float(self.high[i]))

    def matrix(self) -> pd.DataFrame:
        """The 2×2 matrix with row and column totals.

        Rows: actual positive, actual negative, total; columns: predicted
        positive, predicted negative, total.
        """
        return pd.DataFrame(
            [
                [self.tp, self.fn, self.n_pos],
                [self.fp, self.tn, self.n_neg],
                [self.tp + self.fp, self.fn + self.tn, self.n],
            ],
            index=["Actual positive", "Actual negative", "Total"],
            columns=["Predicted positive", "Predicted negative", "Total"],
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per indicator: ``indicator, value, low, high, successes, trials,
        bootstrap, method`` (``method``: the interval method and the law it uses)."""
        # Hand-written: the method column joins the method's name and each row's law.
        name = _METHOD_TEXT[self.method]
        return pd.DataFrame(
            {
                "indicator": list(self.indicators),
                "value": self.value,
                "low": self.low,
                "high": self.high,
                "successes": self.successes,
                "trials": self.trials,
                "bootstrap": list(self.bootstrap),
                "method": [f"{name}; {law}" for law in self.law],
            }
        )


def _indicators(tp: int, fp: int, n_pos: int, n_neg: int, alpha: float, method: str, add: float = AGRESTI_ADD):
    """Values, intervals and binomial counts of :data:`INDICATORS` (vectorised over the rows)."""
    fn, tn = n_pos - tp, n_neg - fp
    n = n_pos + n_neg
    not_tn = tp + fp + fn
    # Rows in INDICATORS order: the binomial (successes, trials) each interval rests on.
    successes = np.array([tp + tn, fp + fn, tp, tp, tn, fp, tp, tp + fp], dtype=np.int64)
    trials = np.array([n, n, tp + fp, n_pos, n_neg, n_neg, not_tn, n], dtype=np.int64)
    low, high = _binomial_intervals(successes, trials, alpha, method, add)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(trials > 0, successes / np.maximum(trials, 1), np.nan).astype(np.float64)
    # F1 = 2J/(1 + J): the value and the interval's ends are mapped from J.
    i = INDICATORS.index("f1")
    f = lambda j: 2.0 * j / (1.0 + j)  # noqa: E731
    value[i] = 2.0 * tp / (2.0 * tp + fp + fn)
    low[i], high[i] = f(low[i]), f(high[i])
    return value, low, high, successes, trials


def confusion_at(
    y_true,
    y_score=None,
    threshold=None,
    *,
    pos_label=None,
    confidence_level=0.95,
    method="wilson",
    add=AGRESTI_ADD,
) -> Confusion:
    """Confusion matrix at one threshold, and seven indicators with intervals.

    With ``TP = #{positives with score >= t}``, ``FP = #{negatives with
    score >= t}``, ``FN = n+ − TP``, ``TN = n− − FP``:

    * accuracy ``(TP + TN)/n``, error rate ``(FP + FN)/n``;
    * precision ``TP/(TP + FP)`` (NaN when nothing is predicted positive);
    * recall (sensitivity, TPR) ``TP/n+``; specificity ``TN/n−``; FPR
      ``FP/n−``;
    * F-measure ``F1 = 2·TP/(2·TP + FP + FN)``;
    * total positive rate ``(TP + FP)/n`` (Tanagra's relative target size).

    Each interval is the interval (``method``) of a binomial proportion that
    the bootstrap, with the threshold held fixed, gives exactly (see the
    module notes): ``Bin(n±, ·)`` under the stratified bootstrap for recall,
    specificity and FPR; ``Bin(n, ·)`` under the full bootstrap for accuracy,
    error rate and total positive rate; for precision, the full bootstrap's
    law of ``TP*`` given ``TP + FP`` predicted positives, ``Bin(TP + FP,
    precision)``; for F1, the interval of ``J = TP/(TP + FP + FN)`` under
    ``Bin(TP + FP + FN, J)`` (given the number of draws that are not true
    negatives), mapped by ``F1 = 2J/(1 + J)``.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    threshold : float
        ``score >= threshold`` is predicted positive; ``+inf`` predicts every
        instance negative, ``−inf`` every instance positive.
    confidence_level : float, default 0.95
        Level of each interval on its own.
    method : {"wilson", "wald", "agresti-coull", "percentile"}
        See :func:`rocci._core.intervals.proportion_interval`; ``"percentile"``
        takes the quantiles of the exact binomial law.
    add : float, default :data:`rocci.cost.AGRESTI_ADD` (2)
        Agresti–Coull pseudo-count per cell (``method="agresti-coull"``
        only): ``p̃ = (x + add)/(m + 2·add)``.  The same name and default as
        :func:`rocci.cost_ci`'s (thesis §5.4, table 5.1; why 2: see
        :data:`rocci.cost.AGRESTI_ADD`).

    Returns
    -------
    Confusion
        ``matrix()`` is the 2×2 table with totals; ``to_frame()`` has one row
        per indicator with ``value, low, high, successes, trials, bootstrap,
        method``.

    Notes
    -----
    Accuracy and error rate get complementary intervals (``low_error = 1 −
    high_accuracy``) for the symmetric methods (Wilson, Wald,
    Agresti–Coull).  A precision or F1 interval is conditional on a count
    that itself varies between bootstrap samples; given that count the law is
    exact.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.confusion_at([0, 0, 0, 1, 1, 1], [.1, .3, .6, .4, .7, .9], 0.5)
    >>> res.tp, res.fn, res.fp, res.tn
    (2, 1, 1, 2)
    >>> round(res.precision, 4), round(res.f1, 4)
    (0.6667, 0.6667)
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PROPORTION_METHODS)
    add = _check_add(add)
    if threshold is None:
        raise InputError("confusion_at needs a threshold: confusion_at(y_true, y_score, threshold=0.5), or "
                         "confusion_at(counts, threshold=0.5) for a ScoreCounts.")
    t = _check_threshold(threshold)
    counts, label = _counts(y_true, y_score, pos_label)
    tp = int(counts.n_pos_ge(t))
    fp = int(counts.n_neg_ge(t))
    n_pos, n_neg = counts.n_pos, counts.n_neg
    value, low, high, successes, trials = _indicators(tp, fp, n_pos, n_neg, 1.0 - level, method, add)
    return Confusion(
        threshold=t, tp=tp, fn=n_pos - tp, fp=fp, tn=n_neg - fp, n_pos=n_pos, n_neg=n_neg,
        indicators=INDICATORS, value=value, low=low, high=high, successes=successes, trials=trials,
        bootstrap=tuple(_LAWS[k][0] for k in INDICATORS), law=tuple(_LAWS[k][1] for k in INDICATORS),
        method=method, confidence_level=level, pos_label=label, add=add,
    )


# ---------------------------------------------------------------------------
# Choosing a threshold
# ---------------------------------------------------------------------------


def rate_threshold(y_true, y_score=None, total_positive_rate=None, *, pos_label=None, rate=None) -> float:
    """Threshold that predicts a fraction ``total_positive_rate`` of all instances positive.

    The ``⌈q·n⌉``-th largest score, so that at least ``q·n`` instances
    have ``score >= t`` (exactly, when ``q·n`` is whole and no tie
    straddles the cut); ``q = 0`` gives ``+inf`` (everything negative).
    The same rule as ``rocci.threshold_ci(total_positive_rate=...)``,
    ``compare_thresholds`` and ``gain_ci``: all of them, this function too,
    read the threshold with
    :func:`rocci.roc.threshold.thresholds_for_total_positive_rate`, the
    vectorised kernel on counts (no checks; not in ``rocci.__all__``), so
    they agree to the bit.  ``y_true`` may be a :class:`~rocci.ScoreCounts`
    (``y_score`` then None).

    Returns
    -------
    float

    Other Parameters
    ----------------
    rate : float, optional
        rocci 0.2's name of ``total_positive_rate`` (DeprecationWarning; goes in 0.4).
    """
    total_positive_rate = renamed_keyword("rate_threshold", "rate", "total_positive_rate", rate, total_positive_rate)
    if total_positive_rate is None:
        raise InputError("rate_threshold needs the share of instances to predict positive, e.g. "
                         "rate_threshold(y_true, y_score, total_positive_rate=0.1).")
    counts, _ = _counts(y_true, y_score, pos_label)
    q = _check_probability("total_positive_rate", total_positive_rate)
    return float(thresholds_for_total_positive_rate(counts, [q])[0])


def youden_threshold(y_true, y_score=None, *, pos_label=None) -> float:
    """Threshold maximising Youden's index ``J = TPR − FPR`` (sensitivity + specificity − 1).

    The candidates are the distinct scores; ties go to the highest threshold.
    ``J`` is compared exactly as the integer ``TP·n− − FP·n+``.  The
    threshold ``+inf`` (everything negative) is not a candidate: its ``J =
    0`` equals that of the lowest score (everything positive), which is.

    Returns
    -------
    float

    Notes
    -----
    Maximising ``J`` is minimising the normalised expected cost at ``w =
    1/2`` (equal priors times costs): ``NEC = (1 − J)/2``; so this threshold
    is ``cost_threshold(..., w=0.5)`` whenever that one is finite.
    """
    counts, _ = _counts(y_true, y_score, pos_label)
    t, _, tp, fp = _table_counts(counts)
    if counts.n_pos * counts.n_neg < 2**62:
        score = tp * np.int64(counts.n_neg) - fp * np.int64(counts.n_pos)
    else:  # counts standing for billions of instances: the products leave int64, Python integers are exact
        score = tp.astype(object) * counts.n_neg - fp.astype(object) * counts.n_pos
    return float(t[int(np.argmax(score))])  # first maximum = highest threshold


def cost_threshold(y_true, y_score=None, *, w=None, p_pos=None, cost_fn=1.0, cost_fp=1.0, pos_label=None) -> float:
    """Threshold of lowest normalised expected cost for a prior and costs (or ``w``).

    ``w = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−))`` (eq. 3.1,
    :func:`rocci.operating_point`), then the minimiser of ``NEC_t(w) = w·(1 −
    TPR_t) + (1 − w)·FPR_t`` over the thresholds, as the cost curve finds it
    (:func:`rocci.cost_curve`; ties → the highest threshold).

    Parameters
    ----------
    w : float, optional
        The operating point directly; then ``p_pos`` and the costs are not used.
    p_pos : float, optional
        Prior of the positive class; default: the share of positives in the
        data, ``n+/n``.
    cost_fn, cost_fp : float, default 1
        ``C(−|+)`` (a missed positive) and ``C(+|−)`` (a false alarm).

    Returns
    -------
    float
        ``+inf`` when calling everything negative is cheapest.
    """
    counts, label = _counts(y_true, y_score, pos_label)
    if w is None:
        p = counts.n_pos / (counts.n_pos + counts.n_neg) if p_pos is None else p_pos
        w = operating_point(p, cost_fn, cost_fp)
    else:
        w = _check_probability("w", w)
    curve = cost_curve(counts, w=[w])  # the counts themselves: a table is not expanded
    return float(curve.threshold[0])


# ---------------------------------------------------------------------------
# Binomial test of an error rate
# ---------------------------------------------------------------------------


@dataclass(repr=False)
class BinomialTest(_FrameResult):
    """Binomial test of an error rate against a reference ``p0``, and its Clopper–Pearson interval.

    Attributes
    ----------
    errors, n : int
        Misclassified instances out of ``n``.
    p0 : float
        The reference error rate of the null hypothesis.
    alternative : str
        "greater" (H1: p > p0), "less" (H1: p < p0) or "two-sided".
    error_rate : float
        ``errors/n``.
    pvalue : float
    error_rate_low, error_rate_high : float
        Clopper–Pearson interval for the error rate (two-sided, or one-sided
        following ``alternative``), at ``confidence_level``.
    confidence_level : float
    """

    errors: int = column()
    n: int = column()
    error_rate: float = column()
    p0: float = column()
    alternative: str = column()
    pvalue: float = column()
    error_rate_low: float = column()
    error_rate_high: float = column()
    confidence_level: float = column()

    _scalar_fields = ("errors", "n", "p0", "alternative", "error_rate", "pvalue", "error_rate_low", "error_rate_high")
    low = renamed_attribute("BinomialTest", "low", "error_rate_low")
    high = renamed_attribute("BinomialTest", "high", "error_rate_high")

    @property
    def ci(self) -> ConfidenceInterval:
        return ConfidenceInterval(self.error_rate_low, self.error_rate_high)


def _two_sided_pvalue(k: int, n: int, p0: float) -> float:
    """Sum of the probabilities of the outcomes no likelier than ``k`` (relative tolerance 1e-7).

    The outcomes on ``k``'s side of the mode are all no likelier than ``k``;
    on the other side the pmf is monotone, so they form a tail ``[j, n]`` (or
    ``[0, j]``), found by counting.  ``p = P(X <= k) + P(X >= j)`` (or the
    mirror image), as ``scipy.stats.binomtest`` computes it.
    """
    d = stats.binom.pmf(k, n, p0) * (1 + 1e-7)
    if k == p0 * n:
        return 1.0
    if k < p0 * n:
        other = np.arange(int(np.ceil(p0 * n)), n + 1)
        y = int(np.count_nonzero(stats.binom.pmf(other, n, p0) <= d))
        pval = stats.binom.cdf(k, n, p0) + (stats.binom.sf(n - y, n, p0) if y > 0 else 0.0)
    else:
        other = np.arange(0, int(np.floor(p0 * n)) + 1)
        y = int(np.count_nonzero(stats.binom.pmf(other, n, p0) <= d))
        pval = (stats.binom.cdf(y - 1, n, p0) if y > 0 else 0.0) + stats.binom.sf(k - 1, n, p0)
    return float(min(1.0, pval))


def _clopper_pearson(k: int, n: int, level: float, alternative: str) -> tuple[float, float]:
    """Clopper–Pearson bounds from beta quantiles: ``low = B⁻¹(a; k, n − k + 1)``, ``high = B⁻¹(1 − a; k + 1, n − k)``.

    ``a = (1 − level)/2`` for a two-sided interval, ``1 − level`` for the one
    bound of a one-sided one; ``k = 0`` gives ``low = 0``, ``k = n`` gives
    ``high = 1``.
    """
    a = (1.0 - level) / 2.0 if alternative == "two-sided" else 1.0 - level
    low = 0.0 if k == 0 or alternative == "less" else float(special.betaincinv(k, n - k + 1, a))
    high = 1.0 if k == n or alternative == "greater" else float(special.betaincinv(k + 1, n - k, 1.0 - a))
    return low, high


def binomial_test(errors, n, p0, *, alternative="two-sided", confidence_level=0.95) -> BinomialTest:
    """Binomial test of an error rate against a reference value ``p0``.

    With ``X ~ Bin(n, p0)`` the number of errors under the null hypothesis
    (each of the ``n`` test instances misclassified independently with
    probability ``p0``) and ``e`` the observed errors:

    * ``"greater"`` (H1: ``p > p0``, the course notes' test):
      ``P(X >= e) = Σ_{x=e}^{n} C(n, x)·p0^x·(1 − p0)^(n − x)``;
    * ``"less"`` (H1: ``p < p0``): ``P(X <= e)``;
    * ``"two-sided"``: the sum of ``P(X = x)`` over the outcomes ``x`` with
      ``P(X = x) <= P(X = e)`` (as ``scipy.stats.binomtest``).

    The interval is Clopper–Pearson's (it inverts the binomial test: the
    ``p`` that the test at level ``1 − confidence_level`` does not reject),
    one-sided when the alternative is.

    Parameters
    ----------
    errors : int
        Misclassified instances, ``0 <= errors <= n``.
    n : int
        Instances tested (at least 1).
    p0 : float
        Reference error rate, strictly between 0 and 1.
    alternative : {"two-sided", "less", "greater"}
    confidence_level : float, default 0.95

    Returns
    -------
    BinomialTest

    Examples
    --------
    >>> import rocci
    >>> res = rocci.binomial_test(7, 20, 0.5, alternative="less")
    >>> round(res.pvalue, 4)
    0.1316
    """
    n = _check_count("n", n, low=1)
    e = _check_count("errors", errors, low=0)
    if e > n:
        raise InputError(f"errors ({e}) cannot exceed the number of instances n ({n}).")
    p0 = _check_probability("p0", p0, closed=False)
    check_choice("alternative", alternative, ALTERNATIVES)
    level = check_confidence_level(confidence_level)
    if alternative == "greater":
        pvalue = float(stats.binom.sf(e - 1, n, p0))
    elif alternative == "less":
        pvalue = float(stats.binom.cdf(e, n, p0))
    else:
        pvalue = _two_sided_pvalue(e, n, p0)
    low, high = _clopper_pearson(e, n, level, alternative)
    return BinomialTest(errors=e, n=n, p0=p0, alternative=alternative, error_rate=e / n, pvalue=pvalue,
                        error_rate_low=low, error_rate_high=high, confidence_level=level)
