"""Several ROC curves of one model: cross-validation folds (``cv``: per-fold curves, vertical and
threshold averaging across folds, paired comparison over folds) and several classes (``multiclass``:
one-vs-rest curves, the top-score curve)."""

from .cv import (
    FoldCurves,
    FoldVerticalAverage,
    FoldThresholdAverage,
    fold_roc_curves,
    fold_vertical_average,
    fold_threshold_average,
    SPREADS,
)
from .compare import FoldComparison, compare_folds
from .multiclass import (
    OneVsRest,
    TopScoreCurve,
    one_vs_rest,
    top_score_curve,
    match_score_columns,
    class_columns,
)

__all__ = [
    "FoldComparison",
    "compare_folds",
    "FoldCurves",
    "FoldVerticalAverage",
    "FoldThresholdAverage",
    "FoldComparison",
    "fold_roc_curves",
    "fold_vertical_average",
    "fold_threshold_average",
    "compare_folds",
    "SPREADS",
    "OneVsRest",
    "TopScoreCurve",
    "one_vs_rest",
    "top_score_curve",
    "match_score_columns",
    "class_columns",
]
