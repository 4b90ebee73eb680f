"""The threshold explorer's functions: the confusion matrix and its indicators at one threshold, the
table of every threshold, thresholds chosen by rate, Youden's J or cost, and the exact binomial test."""

from .clinical import ClinicalPanel, clinical_panel
from .stability import ThresholdStability, threshold_stability
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
    "gain_curve",
    "precision_recall_curve",
    "reading_curve",
    "rate_threshold",
    "youden_threshold",
    "cost_threshold",
    "binomial_test",
]
