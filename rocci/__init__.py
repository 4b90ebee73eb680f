"""rocci: exact bootstrap confidence regions for ROC and cost curves.

The exact bootstrap is the limit of infinitely many bootstrap resamples,
computed in closed form (Gadoury, 2009): no random resampling, no Monte Carlo
noise.
"""

from ._core import compat as _compat
from ._core.inputs import InputError
from ._core.results import ConfidenceInterval, RocCurve, AucResult, ThresholdCI, VerticalCI
from ._core.counts import PairedCounts, ScoreCounts
from .roc.curve import roc_curve, roc_auc
from .roc.threshold import threshold_ci
from .roc.vertical import vertical_ci
from .data.io import load_table
from .data.scan import ScanResult, scan
from . import coverage  # noqa: F401  (rocci.coverage: the coverage lab)
from .coverage import populations  # noqa: F401  (rocci.populations, as before 0.3; now rocci.coverage.populations)
from .coverage import CoverageResult, threshold_coverage
from .compare import (
    AucComparison,
    DominanceMap,
    ManyComparison,
    McNemarResult,
    ThresholdComparison,
    UnpairedAucComparison,
    UnpairedThresholdComparison,
    UnpairedVerticalComparison,
    VerticalComparison,
    compare_auc,
    compare_auc_unpaired,
    compare_many,
    compare_thresholds,
    compare_thresholds_unpaired,
    compare_vertical,
    compare_vertical_unpaired,
    dominance_map,
    mcnemar,
)
from .cost import (
    CostCI,
    CostComparison,
    CostCurve,
    UnpairedCostComparison,
    compare_cost,
    compare_cost_unpaired,
    cost_ci,
    cost_curve,
    operating_point,
)
from .confusion import ClinicalPanel, ThresholdStability, clinical_panel, threshold_stability
from .confusion import (
    BinomialTest,
    Confusion,
    ReadingCurve,
    ThresholdTable,
    binomial_test,
    confusion_at,
    cost_threshold,
    rate_threshold,
    reading_curve,
    threshold_table,
    youden_threshold,
)
from . import data  # noqa: F401  (rocci.data: reading and preparing tables)
from .folds import (
    FoldComparison,
    FoldCurves,
    FoldThresholdAverage,
    FoldVerticalAverage,
    compare_folds,
    fold_roc_curves,
    fold_threshold_average,
    fold_vertical_average,
)
from .folds import OneVsRest, TopScoreCurve, one_vs_rest, top_score_curve
from .bands import RocBand, roc_band
from .cost import NetBenefit, NetBenefitComparison, compare_net_benefit, net_benefit
from .precision import (
    AveragePrecision,
    FPRAtRecallComparison,
    GainCI,
    GainCurve,
    MetricCI,
    PrecisionComparison,
    PrecisionRecallCurve,
    RecallPrecisionCI,
    average_precision,
    compare_fpr_at_recall,
    compare_precision,
    gain_ci,
    gain_curve,
    metric_ci,
    pr_curve,
    precision_at_recall,
    precision_ci,
    precision_recall_curve,
)

__version__ = "0.3.0.dev0"

__all__ = [
    "InputError",
    "ScoreCounts",
    "PairedCounts",
    "ConfidenceInterval",
    "RocCurve",
    "AucResult",
    "ThresholdCI",
    "VerticalCI",
    "roc_curve",
    "roc_auc",
    "threshold_ci",
    "vertical_ci",
    "load_table",
    "scan",
    "ScanResult",
    "threshold_coverage",
    "CoverageResult",
    "compare_thresholds",
    "dominance_map",
    "compare_vertical",
    "compare_auc",
    "compare_many",
    "compare_auc_unpaired",
    "compare_vertical_unpaired",
    "compare_thresholds_unpaired",
    "compare_cost_unpaired",
    "mcnemar",
    "ThresholdComparison",
    "DominanceMap",
    "VerticalComparison",
    "AucComparison",
    "ManyComparison",
    "UnpairedAucComparison",
    "UnpairedVerticalComparison",
    "UnpairedThresholdComparison",
    "UnpairedCostComparison",
    "McNemarResult",
    "operating_point",
    "cost_curve",
    "cost_ci",
    "compare_cost",
    "CostCurve",
    "CostCI",
    "CostComparison",
    "confusion_at",
    "threshold_table",
    "reading_curve",
    "rate_threshold",
    "youden_threshold",
    "cost_threshold",
    "binomial_test",
    "Confusion",
    "BinomialTest",
    "ThresholdTable",
    "ReadingCurve",
    "fold_roc_curves",
    "fold_vertical_average",
    "fold_threshold_average",
    "compare_folds",
    "FoldCurves",
    "FoldVerticalAverage",
    "FoldThresholdAverage",
    "FoldComparison",
    "one_vs_rest",
    "top_score_curve",
    "OneVsRest",
    "TopScoreCurve",
    "roc_band",
    "net_benefit",
    "clinical_panel",
    "threshold_stability",
    "ThresholdStability",
    "ClinicalPanel",
    "NetBenefit",
    "compare_net_benefit",
    "NetBenefitComparison",
    "RocBand",
    "precision_ci",
    "metric_ci",
    "precision_at_recall",
    "compare_precision",
    "compare_fpr_at_recall",
    "pr_curve",
    "precision_recall_curve",
    "average_precision",
    "AveragePrecision",
    "gain_curve",
    "gain_ci",
    "GainCI",
    "GainCurve",
    "PrecisionRecallCurve",
    "MetricCI",
    "RecallPrecisionCI",
    "PrecisionComparison",
    "FPRAtRecallComparison",
]

_compat.install()  # rocci 0.2's module paths (rocci.counts, rocci.exact, ...), deprecated
