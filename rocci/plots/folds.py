"""Plotly figure builders for cross-validation folds and several classes.

Like :mod:`rocci.plots`, nothing here computes a statistic: per-fold curves,
fold averages and their spreads, t-tests, one-vs-rest curves and intervals
come from :mod:`rocci.folds.cv` and :mod:`rocci.folds.multiclass` results as they are.
The only arithmetic is drawing arithmetic (error-bar lengths from interval
ends, the vertices of long curves to draw).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._style import (
    _base_layout,
    _percent,
    _rgba,
    _text,
    _threshold_text,
    color_for,
    compact_indices,
    method_name,
)
from .roc import add_vertical_ci, roc_figure

try:  # pragma: no cover
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots.folds needs plotly: pip install plotly") from exc

__all__ = [
    "spread_text",
    "folds_figure",
    "pooled_figure",
    "fold_values_figure",
    "one_vs_rest_figure",
    "top_score_figure",
]

#: Muted colours of the individual folds (the averages use the model colour).
FOLD_COLORS = ("#7f7f7f", "#bcbd22", "#17becf", "#e377c2", "#8c564b", "#9467bd", "#ff7f0e", "#2ca02c")

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")


def spread_text(spread: str, level: float, n_folds: int) -> str:
    """Plain words for a fold spread: '95% t-interval of the mean over 5 folds'."""
    if spread == "t":
        return f"{_percent(level)} t-interval of the mean over {n_folds} folds"
    if spread == "se":
        return f"± 1 standard error over {n_folds} folds"
    return f"± 1 standard deviation over {n_folds} folds"


#: Visible ranges (FPR, TPR) of the whole square and of its top-left corner.
CORNER = ((0.0, 0.5), (0.5, 1.0))
WHOLE = ((0.0, 1.0), (0.0, 1.0))


def _pad(rng) -> list:
    lo, hi = rng
    return [lo - 0.01 * (hi - lo), hi + 0.01 * (hi - lo)]


def _square_axes(fig: "go.Figure", corner: bool = False) -> None:
    fx, fy = CORNER if corner else WHOLE
    fig.update_xaxes(title_text="False-positive rate (1 − specificity)", range=_pad(fx), constrain="domain", **_AXIS)
    fig.update_yaxes(title_text="True-positive rate (sensitivity)", range=_pad(fy), scaleanchor="x",
                     scaleratio=1, constrain="domain", **_AXIS)


def folds_figure(
    folds: Any,
    *,
    vertical: Any = None,
    threshold: Any = None,
    name: str = "",
    color_index: int = 0,
    show_folds: bool = True,
    corner: bool = False,
    height: int = 560,
) -> "go.Figure":
    """Per-fold ROC curves with the fold-averaged curve and its across-fold band.

    Parameters
    ----------
    folds : FoldCurves
        Result of :func:`rocci.fold_roc_curves`; one thin step curve per fold.
    vertical : FoldVerticalAverage, optional
        Drawn as a bold line (the mean TPR) and a shaded band (its spread).
    threshold : FoldThresholdAverage, optional
        Drawn as points (the mean FPR, TPR at each threshold) with error bars
        on both axes (the spreads).
    name : str
        Model name (legend text).
    color_index : int
        Colour of the model, as in :func:`rocci.plots.roc_figure`.
    show_folds : bool
        Draw the folds' curves (one legend entry for all of them; hovering
        a curve names its fold and AUC).
    corner : bool
        Show only the top-left corner (FPR 0–0.5, TPR 0.5–1).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces carry ``meta``: ``["fold", label]``, ``["vertical-average", "band"|"mean"]``,
        ``["threshold-average", "points"]``.
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="chance (random scores)", legendrank=1000,
                             line=dict(color="#9a9a9a", dash="dot", width=1), hoverinfo="skip"))
    color = color_for(color_index)
    prefix = f"{_text(name)}: " if name else ""
    if show_folds:
        for k, (label, curve) in enumerate(zip(folds.folds, folds.curves)):
            fpr, tpr = np.asarray(curve.fpr, float), np.asarray(curve.tpr, float)
            idx = compact_indices(fpr, tpr, max_points=1500)
            thr = _threshold_text(np.asarray(curve.thresholds, float)[idx])
            fig.add_trace(go.Scatter(
                x=fpr[idx], y=tpr[idx], mode="lines", line_shape="hv",
                line=dict(color=_rgba(FOLD_COLORS[k % len(FOLD_COLORS)], 0.75), width=1.2),
                name=f"each fold's curve ({folds.n_folds} thin lines; hover for the fold and its AUC)",
                showlegend=k == 0, legendgroup="folds", legendrank=500,
                customdata=thr, meta=["fold", str(label)],
                hovertemplate=(f"<b>fold {_text(label)}</b> (AUC {curve.auc:.4f})<br>threshold: score ≥ %{{customdata}}<br>"
                               "FPR %{x:.4f}, TPR %{y:.4f}<extra></extra>"),
            ))
    if vertical is not None:
        what = spread_text(vertical.spread, vertical.confidence_level, vertical.n_folds)
        x = np.asarray(vertical.fpr, float)
        fig.add_trace(go.Scatter(x=x, y=np.asarray(vertical.tpr_low, float), mode="lines", line=dict(width=0),
                                 showlegend=False, hoverinfo="skip", legendgroup="vavg",
                                 meta=["vertical-average", "low"]))
        fig.add_trace(go.Scatter(
            x=x, y=np.asarray(vertical.tpr_high, float), mode="lines", line=dict(width=0), fill="tonexty",
            fillcolor=_rgba(color, 0.2), name=f"{prefix}band: {what}", legendgroup="vavg", hoverinfo="skip",
            legendrank=110, meta=["vertical-average", "band"],
        ))
        custom = np.column_stack([vertical.tpr_low, vertical.tpr_high, vertical.tpr_std])
        fig.add_trace(go.Scatter(
            x=x, y=np.asarray(vertical.tpr_mean, float), mode="lines", line=dict(color=color, width=3),
            name=f"{prefix}vertical average (mean TPR at each FPR)", legendgroup="vavg", legendrank=100,
            customdata=custom, meta=["vertical-average", "mean"],
            hovertemplate=("<b>vertical average</b><br>FPR %{x:.3f}: mean TPR %{y:.4f}<br>"
                           f"band ({what}) [%{{customdata[0]:.4f}}, %{{customdata[1]:.4f}}]<br>"
                           "sd over folds %{customdata[2]:.4f}<extra></extra>"),
        ))
    if threshold is not None:
        what = spread_text(threshold.spread, threshold.confidence_level, threshold.n_folds)
        _points_with_bars(
            fig, threshold.thresholds, threshold.fpr_mean, threshold.fpr_low, threshold.fpr_high,
            threshold.tpr_mean, threshold.tpr_low, threshold.tpr_high, color=color_for(color_index + 1),
            name=f"{prefix}threshold average (bars: {what})",
            meta=["threshold-average", "points"], word="mean ", joined=True,
        )
    _square_axes(fig, corner)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(legend=dict(y=-0.2))
    return fig


def _points_with_bars(fig, thresholds, x, x_low, x_high, y, y_low, y_high, *, color: str, name: str, meta: list,
                      word: str, joined: bool) -> None:
    """One point per threshold with asymmetric error bars on both axes (interval ends as given)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    custom = np.column_stack([_threshold_text(np.asarray(thresholds, float)), x_low, x_high, y_low, y_high]).astype(object)
    bars = dict(type="data", symmetric=False, color=_rgba(color, 0.6), thickness=1, width=2)
    fig.add_trace(go.Scatter(
        x=x, y=y, mode="lines+markers" if joined else "markers", line=dict(color=color, width=1.5, dash="dash"),
        marker=dict(color=color, size=6, symbol="square"),
        error_x=dict(bars, array=np.asarray(x_high, float) - x, arrayminus=x - np.asarray(x_low, float)),
        error_y=dict(bars, array=np.asarray(y_high, float) - y, arrayminus=y - np.asarray(y_low, float)),
        name=name, legendrank=120, customdata=custom, meta=meta,
        hovertemplate=("<b>threshold: score ≥ %{customdata[0]}</b><br>"
                       f"{word}FPR %{{x:.4f}} [%{{customdata[1]:.4f}}, %{{customdata[2]:.4f}}]<br>"
                       f"{word}TPR %{{y:.4f}} [%{{customdata[3]:.4f}}, %{{customdata[4]:.4f}}]<extra></extra>"),
    ))


def pooled_figure(
    curve: Any,
    *,
    vertical: Any = None,
    threshold: Any = None,
    name: str = "",
    color_index: int = 0,
    corner: bool = False,
    height: int = 560,
) -> "go.Figure":
    """The pooled ROC curve (all folds together) with its exact bootstrap intervals.

    ``vertical`` (:class:`~rocci.VerticalCI`) is drawn as a band,
    ``threshold`` (:class:`~rocci.ThresholdCI`) as points with error bars on
    both axes; both come from the pooled data.  ``corner`` shows only the
    top-left corner, as :func:`folds_figure`.
    """
    fx, fy = CORNER if corner else WHOLE
    fig = roc_figure({name or "pooled": curve}, height=height, fpr_range=fx, tpr_range=fy)
    fig.update_layout(legend=dict(y=-0.2))
    fig.data[1].line.color = color_for(color_index)
    if vertical is not None:
        add_vertical_ci(fig, vertical, style="band", name="", color_index=color_index)
        _short_band_name(fig, f"{_percent(vertical.confidence_level)} exact bootstrap band (pooled data)")
    if threshold is not None:
        _points_with_bars(
            fig, threshold.thresholds, threshold.fpr, threshold.fpr_low, threshold.fpr_high,
            threshold.tpr, threshold.tpr_low, threshold.tpr_high, color=color_for(color_index + 1),
            name=(f"same thresholds, pooled: {_percent(threshold.confidence_level)} exact bootstrap "
                  f"{method_name(threshold.method)} intervals"),
            meta=["pooled-threshold", "points"], word="", joined=False,
        )
    return fig


def fold_values_figure(cmp: Any, *, name_a: str, name_b: str, height: int = 360) -> "go.Figure":
    """Each fold's value for the two models of a :class:`~rocci.FoldComparison`, joined per fold."""
    fig = go.Figure()
    folds = [str(f) for f in cmp.folds]
    label = "AUC" if cmp.measure == "auc" else "error rate"
    for i, (vals, nm) in enumerate(((cmp.value_a, name_a), (cmp.value_b, name_b))):
        fig.add_trace(go.Scatter(
            x=folds, y=np.asarray(vals, float), mode="markers+lines", name=f"{_text(nm)}",
            marker=dict(color=color_for(i), size=10), line=dict(color=_rgba(color_for(i), 0.5), width=1.5),
            meta=["fold-values", str(nm)],
            hovertemplate=f"<b>{_text(nm)}</b><br>fold %{{x}}: {label} %{{y:.4f}}<extra></extra>",
        ))
    fig.update_xaxes(title_text="fold", type="category", **_AXIS)
    fig.update_yaxes(title_text=label, **_AXIS)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(legend=dict(y=-0.3))
    return fig


def one_vs_rest_figure(ovr: Any, *, show_bands: bool = True, height: int = 600) -> "go.Figure":
    """One-vs-rest ROC curves (one per class), with their exact bootstrap bands.

    The legend gives each class's AUC and its interval (``ovr.aucs``).
    """
    curves = {f"{c} vs rest": curve for c, curve in zip(ovr.classes, ovr.curves)}
    auc_text = {
        f"{c} vs rest": f"AUC {a.auc:.3f} [{a.auc_low:.3f}, {a.auc_high:.3f}]" for c, a in zip(ovr.classes, ovr.aucs)
    }
    fig = roc_figure(curves, auc_text=auc_text, height=height)
    if show_bands and ovr.vertical:
        for i, (c, v) in enumerate(zip(ovr.classes, ovr.vertical)):
            add_vertical_ci(fig, v, style="band", name=f"{c} vs rest", color_index=i)
            _short_band_name(fig, f"{_text(c)}: {_percent(v.confidence_level)} exact bootstrap band")
    fig.update_layout(legend=dict(y=-0.2))
    return fig


def _short_band_name(fig: "go.Figure", name: str) -> None:
    """Shorter legend text for the band just added by :func:`rocci.plots.add_vertical_ci`."""
    for trace in reversed(fig.data):
        if isinstance(trace.meta, (list, tuple)) and list(trace.meta) == ["vertical-band", "high"]:
            trace.name = name
            return


def top_score_figure(top: Any, *, vertical: Any = None, height: int = 600) -> "go.Figure":
    """The correct-vs-top-score ROC curve, with an optional exact bootstrap band."""
    name = f"correct vs top score ({top.n_correct} correct, {top.n_wrong} wrong)"
    fig = roc_figure({name: top.curve}, auc_text={name: f"AUC {top.auc:.3f}"}, height=height)
    fig.update_layout(legend=dict(y=-0.2))
    fig.update_xaxes(title_text="Share of wrong predictions accepted")
    fig.update_yaxes(title_text="Share of correct predictions accepted")
    if vertical is not None:
        add_vertical_ci(fig, vertical, style="band", name="", color_index=0)
        _short_band_name(fig, f"{_percent(vertical.confidence_level)} exact bootstrap band")
    return fig

