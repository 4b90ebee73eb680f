"""Plotly figure builders for rocci's result objects, one module per dashboard page.

Every function here takes result objects (:class:`~rocci.RocCurve`,
:class:`~rocci.ThresholdCI`, :class:`~rocci.VerticalCI`, the comparison and cost
results, or plain score arrays for the data summary) and draws them.  Nothing
here computes a statistic: curves, rates, counts and intervals come from the
results as they are.  The only arithmetic is drawing arithmetic -- choosing
which vertices of a long step curve to draw (:func:`compact_indices`), tracing
the outline of a rectangle or an ellipse, and binning scores for a histogram.
(scikit-learn's ``metrics/_plot`` is the model.)

=====================  ==========================================================
module                 figures
=====================  ==========================================================
``plots._style``       colour, dash and marker per model; layout; hover text
``plots.roc``          ROC curves, threshold regions, vertical bars, simultaneous bands
``plots.data``         score histograms per class
``plots.precision``    precision–recall curves, precision intervals, the PR verdict
``plots.compare``      two models: dominance map, paired laws
``plots.cost``         cost curves, envelopes and their bands, the ROC hull view
``plots.decision``     decision curves (net benefit with bands, treat all/none), ΔNB and P(A better)
``plots.explore``      threshold explorer: confusion matrix, gain and PR curves
``plots.folds``        folds, pooled curves, one class against the rest
``plots.learn``        the Learn page's teaching figures
``plots.coverage``     the Coverage lab's figures
``plots.report``       the self-contained HTML report (figures, headlines, captions,
                       tables with their CSV) of the dashboard and ``rocci report``
=====================  ==========================================================

Text that comes from the user's data (model names, labels) is HTML-escaped
before it reaches plotly, which otherwise renders a subset of HTML in names,
titles and hover labels.

Importing this package needs plotly; the rest of rocci does not.
"""

from ._style import (
    COLORS,
    DASHES,
    MARKERS,
    MAX_CURVE_POINTS,
    color_for,
    compact_indices,
    dash_for,
    marker_for,
    method_name,
    plotly_config,
    style_index,
)
from .data import count_histograms, score_histograms
from .roc import add_band, add_threshold_ci, add_vertical_ci, roc_figure

__all__ = [
    "COLORS",
    "DASHES",
    "MARKERS",
    "MAX_CURVE_POINTS",
    "color_for",
    "dash_for",
    "marker_for",
    "style_index",
    "method_name",
    "plotly_config",
    "compact_indices",
    "roc_figure",
    "add_threshold_ci",
    "add_vertical_ci",
    "add_band",
    "score_histograms",
    "count_histograms",
]
