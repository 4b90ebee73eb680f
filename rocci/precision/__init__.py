"""Precision, recall and every confusion-matrix metric with exact bootstrap laws (issue 14).

* :func:`metric_ci`: any metric of the confusion matrix at fixed thresholds
  (stratified or full bootstrap).
* :func:`precision_ci`: the precision at fixed thresholds, or at fixed recall
  levels (the PR analogue of vertical averaging; ``precision_at_recall``, its
  rocci 0.2 name at recall levels, is a deprecated alias).
* :func:`compare_precision`: two models on the same instances, the paired law of
  ``metric_a − metric_b`` at threshold pairs or at recall levels.
* :func:`compare_fpr_at_recall`: two models at recall levels by their false positive rates
  (:func:`rocci.compare_vertical` with the classes swapped): the same ``P(A better)`` as the precision,
  at any size; :func:`recall_grid_cells` says what :func:`compare_precision`'s law at a level costs.
* :func:`gain_curve`: the gain chart at every threshold (recall against the share targeted, the total
  positive rate, and the lift); :func:`gain_ci`: their exact laws at fixed thresholds or at fixed total
  positive rates (depths).
* :func:`pr_curve`: rocci's precision–recall curve, with Davis and Goadrich's
  interpolation between ROC points (precision is not linear in recall), or the ROC points alone.

* :func:`average_precision`: scikit-learn's step-wise average precision, with a
  seeded **Monte Carlo** bootstrap interval and its Monte Carlo error (its exact
  bootstrap law has not been derived: it is a sum of ratios at every threshold).
"""

from ._laws import score_interval  # noqa: F401  (the score interval on exact moments: rocci.coverage.pr)
from ._metrics import METRICS, UNDEFINED
from ._results import FPRAtRecallComparison, MetricCI, PrecisionComparison, RecallPrecisionCI
from .average import AveragePrecision, average_precision
from .curve import PrecisionRecallCurve, pr_curve, precision_recall_curve
from .gain import GainCI, GainCurve, gain_ci, gain_curve
from .metrics import metric_ci, precision_ci
from .recall import precision_at_recall
from .paired import compare_fpr_at_recall, compare_precision, recall_grid_cells

__all__ = [
    "metric_ci",
    "precision_ci",
    "precision_at_recall",
    "pr_curve",
    "PrecisionRecallCurve",
    "precision_recall_curve",
    "gain_curve",
    "GainCurve",
    "gain_ci",
    "GainCI",
    "average_precision",
    "AveragePrecision",
    "compare_precision",
    "compare_fpr_at_recall",
    "recall_grid_cells",
    "FPRAtRecallComparison",
    "MetricCI",
    "RecallPrecisionCI",
    "PrecisionComparison",
    "METRICS",
    "UNDEFINED",
]
