"""One model's ROC curve: the curve and its AUC (``curve``), threshold averaging (``threshold``) and
vertical averaging (``vertical``) with their exact bootstrap laws.  The simultaneous band is
:mod:`rocci.bands`."""

from .curve import AUC_METHODS, roc_auc, roc_curve
from .threshold import threshold_ci, thresholds_for_total_positive_rate
from .vertical import VERTICAL_METHODS, fpr_levels, vertical_ci

__all__ = ["roc_curve", "roc_auc", "threshold_ci", "vertical_ci", "fpr_levels", "thresholds_for_total_positive_rate",
           "AUC_METHODS", "VERTICAL_METHODS"]
