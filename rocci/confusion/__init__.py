"""The threshold explorer's functions: the confusion matrix and its indicators at one threshold, the
table of every threshold (``tables``), thresholds chosen by rate, Youden's J or cost, and the exact binomial
test.  The gain chart and the precision–recall curve moved to :mod:`rocci.precision` in 0.3 (still importable
from here)."""

from .clinical import ClinicalPanel, clinical_panel
from .stability import ThresholdStability, threshold_stability
from .tables import ReadingCurve, ThresholdTable
from .explorer import (
    Confusion,
    BinomialTest,
    INDICATORS,
    ALTERNATIVES,
    confusion_at,
    threshold_table,
    gain_curve,
    precision_recall_curve,
    reading_curve,
    rate_threshold,
    youden_threshold,
    cost_threshold,
    binomial_test,
)

__all__ = [
    "threshold_stability",
    "ThresholdStability",
    "clinical_panel",
    "ClinicalPanel",
    "Confusion",
    "BinomialTest",
    "INDICATORS",
    "ALTERNATIVES",
    "confusion_at",
    "threshold_table",
    "ThresholdTable",
    "ReadingCurve",
    "gain_curve",
    "precision_recall_curve",
    "reading_curve",
    "rate_threshold",
    "youden_threshold",
    "cost_threshold",
    "binomial_test",
]
