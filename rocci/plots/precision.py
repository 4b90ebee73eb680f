"""The Precision–recall page's figures: PR curves, the baseline, intervals at recall levels and regions at
thresholds; gain and lift charts with their intervals.

Nothing here computes a statistic: the curves are :func:`rocci.pr_curve`'s results (or frames) as they
are (Davis and Goadrich's interpolation included), the intervals come from
:func:`rocci.precision.precision_ci` (``recall=...``: a :class:`~rocci.precision.RecallPrecisionCI`) and
the regions from two :class:`~rocci.precision.MetricCI` (precision and recall at the same thresholds); the
gain and lift curves are :func:`rocci.gain_curve`'s results (or frames) and their intervals a
:class:`~rocci.precision.GainCI`.  The only arithmetic is drawing arithmetic: which vertices of a long
curve to draw, rectangle outlines and error-bar lengths.  Text from the user's data (model names) is HTML-escaped before it reaches plotly.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

try:  # pragma: no cover - exercised only when plotly is missing
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots needs plotly: pip install plotly") from exc

from ._style import MAX_CURVE_POINTS, _base_layout, _frame, _percent, _rgba, _text, color_for, dash_for, style_index
from .explore import curve_indices

__all__ = ["pr_figure", "add_recall_intervals", "add_threshold_regions", "add_current_point", "gain_figure",
           "lift_figure", "add_gain_intervals"]

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")
_CURRENT = "#111111"
_METHODS = {"percentile": "percentile", "wald": "Wald"}


def _thr(t: float) -> str:
    return "+∞" if np.isposinf(t) else f"{t:.6g}"


def pr_figure(curves: Mapping[str, Any], *, baseline: float, colors: Mapping[str, int] | None = None,
              max_points: int = MAX_CURVE_POINTS, height: int = 520) -> go.Figure:
    """Precision–recall curves, one per model, with the baseline.

    Parameters
    ----------
    curves : mapping of model name -> PrecisionRecallCurve or DataFrame
        Results of :func:`rocci.pr_curve` or their ``to_frame()`` (columns ``threshold, recall, precision, tp, fp,
        interpolated, threshold_above, threshold_below``), drawn in curve order as lines: between two ROC
        points they follow the interpolated points, so the drawn curve is the achievable one.
    baseline : float
        The positive share ``n+/n`` (``frame.attrs["baseline"]``): the precision of scores that carry no
        information, drawn as a dashed horizontal line.
    colors : mapping of model name -> int, optional
        The session's style index of each model (:func:`rocci.plots.style_index`).
    max_points : int
        Longer curves are drawn from :func:`rocci.plots.explore.curve_indices`.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces with ``meta[0]`` "baseline" and "pr" (``meta[1]`` the model name).
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[baseline, baseline], mode="lines", line=dict(color="#777777", dash="dash", width=1.2),
        name=f"baseline: positive share {baseline:.3g} (random scores)", meta=["baseline"], legendrank=1000,
        hovertemplate=f"baseline: precision of random scores = positive share n+/n = {baseline:.4g}<extra></extra>",
    ))
    for pos, (name, frame) in enumerate(curves.items()):
        idx_style = style_index(name, pos, colors)
        frame = _frame(frame)
        x = np.asarray(frame["recall"], dtype=float)
        y = np.asarray(frame["precision"], dtype=float)
        idx = curve_indices(x, y, max_points=max_points)
        interp = np.asarray(frame["interpolated"], dtype=bool)[idx]
        above = np.asarray(frame["threshold_above"], dtype=float)[idx]
        below = np.asarray(frame["threshold_below"], dtype=float)[idx]
        where = np.array([f"between thresholds {_thr(a)} and {_thr(b)} (interpolated)" if i
                          else f"threshold: score ≥ {_thr(b)}" for i, a, b in zip(interp, above, below)],
                         dtype=object)
        custom = np.column_stack([where, np.asarray(frame["tp"], float)[idx],
                                  np.asarray(frame["fp"], float)[idx]]).astype(object)
        drawn = "" if idx.size == x.size else f" ({idx.size:,} of {x.size:,} points drawn)"
        fig.add_trace(go.Scatter(
            x=x[idx], y=y[idx], mode="lines",
            line=dict(color=color_for(idx_style), dash=dash_for(idx_style), width=2.2),
            name=_text(name) + drawn, meta=["pr", str(name)], legendrank=100 + pos, customdata=custom,
            hovertemplate=(f"<b>{_text(name)}</b><br>%{{customdata[0]}}<br>recall %{{x:.4f}}, "
                           "precision %{y:.4f}<br>TP %{customdata[1]:.6g}, FP %{customdata[2]:.6g}<extra></extra>"),
        ))
    fig.update_xaxes(title_text="Recall (share of positives found)", range=[-0.01, 1.01], **_AXIS)
    fig.update_yaxes(title_text="Precision (positives among flagged)", range=[-0.01, 1.02], **_AXIS)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(margin=dict(l=60, r=16, t=16, b=130),
                      legend=dict(orientation="h", yanchor="top", y=-0.16, xanchor="left", x=0.0))
    return fig


def add_recall_intervals(fig: go.Figure, rci: Any, *, name: str = "", color_index: int = 0) -> go.Figure:
    """Intervals for the precision at fixed recall levels, as vertical bars.

    Parameters
    ----------
    fig : Figure from :func:`pr_figure`
    rci : RecallPrecisionCI
        :func:`rocci.precision.precision_ci` with ``recall=...``: at each level ``r/m+`` the observed
        precision (marker) and the interval of its exact bootstrap law (bar).
    name : str
        Model name for the legend.
    color_index : int

    Returns
    -------
    The same figure, with a trace whose ``meta[0]`` is "recall-intervals".
    """
    x = np.asarray(rci.recall, dtype=float)
    y = np.asarray(rci.precision, dtype=float)
    lo = np.asarray(rci.precision_low, dtype=float)
    hi = np.asarray(rci.precision_high, dtype=float)
    custom = np.column_stack([np.asarray(rci.r), np.asarray(rci.threshold, dtype=float), lo, hi,
                              np.asarray(rci.precision_mean, dtype=float),
                              np.asarray(rci.precision_std, dtype=float)]).astype(object)
    level = _percent(rci.confidence_level)
    method = _METHODS.get(rci.method, rci.method)
    color = color_for(color_index)
    fig.add_trace(go.Scatter(
        x=x, y=y, mode="markers", marker=dict(color=color, size=8, symbol="circle",
                                               line=dict(color="white", width=1)),
        error_y=dict(type="data", symmetric=False, array=hi - y, arrayminus=y - lo, color=color,
                     thickness=1.6, width=5),
        name=(f"{_text(name)}: " if name else "") + f"{level} intervals at recall levels",
        meta=["recall-intervals", str(name)], legendrank=200, customdata=custom,
        hovertemplate=("<b>recall level %{x:.4f}</b> (r = %{customdata[0]} of m+ = " + f"{rci.m_pos})<br>"
                       "threshold on the data: score ≥ %{customdata[1]:.6g}<br>precision %{y:.4f}<br>"
                       f"{level} {method} interval " + "[%{customdata[2]:.4f}, %{customdata[3]:.4f}]<br>"
                       "exact-bootstrap mean %{customdata[4]:.4f}, sd %{customdata[5]:.4f}<extra></extra>"),
    ))
    return fig


def add_threshold_regions(fig: go.Figure, precision: Any, recall: Any, *, name: str = "",
                          color_index: int = 0) -> go.Figure:
    """Regions at thresholds: the recall interval × the precision interval, as rectangles.

    Parameters
    ----------
    fig : Figure from :func:`pr_figure`
    precision, recall : MetricCI
        :func:`rocci.precision.metric_ci` with ``metric="precision"`` and ``metric="recall"`` at the same
        thresholds.  Each box is the product of the two intervals, each at the stated level (not a joint
        region).  Thresholds where the precision is undefined on the data are left out.

    Returns
    -------
    The same figure, with traces whose ``meta[0]`` are "threshold-region" (outlines) and
    "threshold-points".
    """
    color = color_for(color_index)
    level = _percent(precision.confidence_level)
    px_, py_ = [], []
    x = np.asarray(recall.value, dtype=float)
    y = np.asarray(precision.value, dtype=float)
    xl, xh = np.asarray(recall.low, float), np.asarray(recall.high, float)
    yl, yh = np.asarray(precision.low, float), np.asarray(precision.high, float)
    ok = np.isfinite(y) & np.isfinite(yl) & np.isfinite(yh)
    for i in np.flatnonzero(ok):
        px_ += [xl[i], xh[i], xh[i], xl[i], xl[i], None]
        py_ += [yl[i], yl[i], yh[i], yh[i], yl[i], None]
    prefix = f"{_text(name)}: " if name else ""
    fig.add_trace(go.Scatter(
        x=px_, y=py_, mode="lines", fill="toself", fillcolor=_rgba(color, 0.12), line=dict(color=color, width=1),
        name=f"{prefix}{level} regions at thresholds (recall × precision intervals)",
        meta=["threshold-region", str(name)], hoverinfo="skip", legendrank=300,
    ))
    custom = np.column_stack([np.asarray(precision.thresholds, float), xl, xh, yl, yh,
                              np.asarray(precision.tp), np.asarray(precision.fp),
                              np.asarray(precision.p_undefined, float)])[ok].astype(object)
    fig.add_trace(go.Scatter(
        x=x[ok], y=y[ok], mode="markers", marker=dict(color=color, size=7, symbol="square"),
        meta=["threshold-points", str(name)], showlegend=False, customdata=custom,
        hovertemplate=("<b>threshold: score ≥ %{customdata[0]:.6g}</b><br>"
                       "recall %{x:.4f} [%{customdata[1]:.4f}, %{customdata[2]:.4f}]<br>"
                       "precision %{y:.4f} [%{customdata[3]:.4f}, %{customdata[4]:.4f}]<br>"
                       "TP %{customdata[5]}, FP %{customdata[6]}<br>"
                       f"{level} intervals, each axis on its own<extra></extra>"),
    ))
    return fig


def add_current_point(fig: go.Figure, precision: Any, recall: Any, *, i: int = 0, name: str = "") -> go.Figure:
    """The "At a threshold" panel's threshold: a diamond with its recall and precision intervals.

    Parameters
    ----------
    precision, recall : MetricCI
        At the chosen threshold (row ``i``).  Nothing is drawn where the precision is undefined on the
        data (no instance predicted positive).

    Returns
    -------
    The same figure, with a trace whose ``meta[0]`` is "current".
    """
    x, y = float(recall.value[i]), float(precision.value[i])
    if not np.isfinite(y):
        return fig
    xl, xh = float(recall.low[i]), float(recall.high[i])
    yl, yh = float(precision.low[i]), float(precision.high[i])
    t = float(precision.thresholds[i])
    level = _percent(precision.confidence_level)
    kw = {}
    if np.isfinite([xl, xh]).all():
        kw["error_x"] = dict(type="data", symmetric=False, array=[xh - x], arrayminus=[x - xl], color=_CURRENT,
                             thickness=1.4, width=4)
    if np.isfinite([yl, yh]).all():
        kw["error_y"] = dict(type="data", symmetric=False, array=[yh - y], arrayminus=[y - yl], color=_CURRENT,
                             thickness=1.4, width=4)
    fig.add_trace(go.Scatter(
        x=[x], y=[y], mode="markers",
        marker=dict(color=_CURRENT, size=13, symbol="diamond", line=dict(color="white", width=1.5)),
        name=f"chosen threshold (score ≥ {_thr(t)})", meta=["current", str(name)], legendrank=50,
        hovertemplate=(f"<b>{_text(name)}: score ≥ {_thr(t)}</b><br>recall {x:.4f} [{xl:.4f}, {xh:.4f}]<br>"
                       f"precision {y:.4f} [{yl:.4f}, {yh:.4f}]<br>TP {int(precision.tp[i])}, "
                       f"FP {int(precision.fp[i])}<br>{level} intervals<extra></extra>"),
        **kw,
    ))
    return fig


# --------------------------------------------------------------------------------------------------------
# Gain and lift
# --------------------------------------------------------------------------------------------------------
def _gain_layout(fig: go.Figure, height: int, y_title: str) -> None:
    fig.update_xaxes(title_text="Depth: share of the population targeted", range=[-0.01, 1.01], **_AXIS)
    fig.update_yaxes(title_text=y_title, **_AXIS)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(margin=dict(l=60, r=16, t=16, b=130),
                      legend=dict(orientation="h", yanchor="top", y=-0.23, xanchor="left", x=0.0))


def _curve_traces(fig: go.Figure, curves: Mapping[str, Any], colors, max_points: int, *, lift: bool) -> None:
    for pos, (name, frame) in enumerate(curves.items()):
        idx_style = style_index(name, pos, colors)
        frame = _frame(frame)
        x = np.asarray(frame["total_positive_rate"], dtype=float)
        g = np.asarray(frame["recall"], dtype=float)
        idx = curve_indices(x, g, max_points=max_points)  # thinned on the gain chart: every corner kept
        total = x.size
        if lift:  # no lift before the first instance is targeted
            targeted = np.asarray(frame["n_predicted_positive"]) > 0
            idx, total = idx[targeted[idx]], int(targeted.sum())
        y = np.asarray(frame["lift" if lift else "recall"], dtype=float)
        thr = np.asarray(frame["threshold"], dtype=float)[idx]
        custom = np.column_stack([[_thr(t) for t in thr], np.asarray(frame["n_predicted_positive"])[idx],
                                  np.asarray(frame["tp"])[idx], g[idx],
                                  np.asarray(frame["lift"], dtype=float)[idx]]).astype(object)
        drawn = "" if idx.size == total else f" ({idx.size:,} of {total:,} points drawn)"
        fig.add_trace(go.Scatter(
            x=x[idx], y=y[idx], mode="lines",
            line=dict(color=color_for(idx_style), dash=dash_for(idx_style), width=2.2),
            name=_text(name) + drawn, meta=["lift" if lift else "gain", str(name)], legendrank=100 + pos,
            customdata=custom,
            hovertemplate=(f"<b>{_text(name)}</b><br>threshold: score ≥ %{{customdata[0]}}<br>"
                           "depth %{x:.4f} (%{customdata[1]} targeted)<br>gain %{customdata[3]:.4f} "
                           "(%{customdata[2]} positives)<br>lift %{customdata[4]:.3f}<extra></extra>"),
        ))


def gain_figure(curves: Mapping[str, Any], *, positive_share: float | None = None,
                colors: Mapping[str, int] | None = None, max_points: int = MAX_CURVE_POINTS,
                height: int = 480) -> go.Figure:
    """Gain charts (cumulative lift curves), one per model: the share of the positives captured (gain,
    the recall) against the share of the population targeted (depth), with the diagonal of random targeting.

    Parameters
    ----------
    curves : mapping of model name -> GainCurve or DataFrame
        Results of :func:`rocci.gain_curve` or their ``to_frame()`` (columns ``threshold, n_predicted_positive,
        total_positive_rate, recall, tp, lift``), drawn as lines from (0, 0) to (1, 1), straight between thresholds
        (the gain of a random order of tied scores).
    positive_share : float, optional
        ``n+/n``: draws the perfect model (gain 1 once that share is targeted) as a thin dotted line.
    colors : mapping of model name -> int, optional
        The session's style index of each model (:func:`rocci.plots.style_index`): Okabe–Ito colour and dash.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces with ``meta[0]`` "baseline" (the diagonal), "ideal" and "gain" (``meta[1]`` the model).
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[0, 1], mode="lines", line=dict(color="#777777", dash="dash", width=1.2),
        name="random targeting (gain = depth)", meta=["baseline"], legendrank=1000,
        hovertemplate="random targeting: a share d of the population holds a share d of the positives"
                      "<extra></extra>"))
    if positive_share is not None:
        fig.add_trace(go.Scatter(
            x=[0, positive_share, 1], y=[0, 1, 1], mode="lines", line=dict(color="#aaaaaa", dash="dot", width=1),
            name="perfect model", meta=["ideal"], legendrank=999, hoverinfo="skip"))
    _curve_traces(fig, curves, colors, max_points, lift=False)
    _gain_layout(fig, height, "Gain: share of the positives captured")
    fig.update_yaxes(range=[-0.01, 1.02])
    return fig


def lift_figure(curves: Mapping[str, Any], *, colors: Mapping[str, int] | None = None,
                max_points: int = MAX_CURVE_POINTS, height: int = 480, y_max: float | None = None) -> go.Figure:
    """Lift curves, one per model: ``gain/depth`` (precision relative to the positive share) against the depth,
    with the line lift = 1 of random targeting.

    Parameters
    ----------
    curves, colors, max_points
        As :func:`gain_figure` (the thresholds with nothing targeted, where the lift is undefined, are left out).
    y_max : float, optional
        Top of the lift axis (the lift of the first few instances can reach ``n/n+``; a caller showing
        intervals at larger depths may cut the axis lower).  Default: plotly's autorange.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces with ``meta[0]`` "baseline" (lift 1) and "lift".  The thresholds' points are joined by straight
        segments for the eye: between two thresholds the lift of a random order of the tied scores is the
        straight gain segment divided by the depth, a curve, not a segment.
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[1, 1], mode="lines", line=dict(color="#777777", dash="dash", width=1.2),
        name="random targeting (lift = 1)", meta=["baseline"], legendrank=1000,
        hovertemplate="random targeting: lift 1 at every depth<extra></extra>"))
    _curve_traces(fig, curves, colors, max_points, lift=True)
    _gain_layout(fig, height, "Lift: gain ÷ depth")
    if y_max is not None:
        fig.update_yaxes(range=[0, y_max])
    else:
        fig.update_yaxes(rangemode="tozero")
    return fig


def add_gain_intervals(fig: go.Figure, res: Any, *, quantity: str = "gain", name: str = "",
                       color_index: int = 0) -> go.Figure:
    """Intervals of a :class:`~rocci.precision.GainCI` on a gain (``quantity="gain"``) or lift chart.

    Each row is a marker at its observed (depth, gain or lift) with the interval of the quantity as a
    vertical bar; at fixed thresholds (``res.at == "threshold"``) the depth varies between resamples too and
    its interval is a horizontal bar (each bar at the stated level on its own, not a joint region).  Rows
    where the value is undefined on the data (nothing targeted: no lift) are left out.

    Returns
    -------
    The same figure, with a trace whose ``meta[0]`` is "gain-intervals" or "lift-intervals".
    """
    x = np.asarray(res.total_positive_rate, dtype=float)
    y = np.asarray(getattr(res, quantity), dtype=float)
    lo = np.asarray(getattr(res, f"{quantity}_low"), dtype=float)
    hi = np.asarray(getattr(res, f"{quantity}_high"), dtype=float)
    xl, xh = np.asarray(res.total_positive_rate_low, float), np.asarray(res.total_positive_rate_high, float)
    ok = np.isfinite(y) & np.isfinite(lo) & np.isfinite(hi)
    level = _percent(res.confidence_level)
    method = _METHODS.get(res.method, res.method)
    color = color_for(color_index)
    by_threshold = res.at == "threshold"
    kw = {}
    if by_threshold:
        kw["error_x"] = dict(type="data", symmetric=False, array=(xh - x)[ok], arrayminus=(x - xl)[ok],
                             color=color, thickness=1.2, width=4)
    thr = np.asarray(res.thresholds, dtype=float)[ok]
    custom = np.column_stack([[_thr(t) for t in thr], xl[ok], xh[ok], lo[ok], hi[ok],
                              np.asarray(getattr(res, f"{quantity}_mean"), float)[ok],
                              np.asarray(getattr(res, f"{quantity}_std"), float)[ok],
                              np.asarray(res.tp, float)[ok], np.asarray(res.p_undefined, float)[ok]]).astype(object)
    word = "gain" if quantity == "gain" else "lift"
    if by_threshold:
        where = ("<b>threshold: score ≥ %{customdata[0]}</b><br>depth %{x:.4f} "
                 "[%{customdata[1]:.4f}, %{customdata[2]:.4f}]<br>")
        what = f"{level} intervals at fixed thresholds"
    else:
        where = ("<b>depth %{x:.4f}</b> (the top of each resample; on the data score ≥ %{customdata[0]})<br>")
        what = f"{level} intervals at fixed depths"
    fig.add_trace(go.Scatter(
        x=x[ok], y=y[ok], mode="markers",
        marker=dict(color=color, size=8, symbol="circle", line=dict(color="white", width=1)),
        error_y=dict(type="data", symmetric=False, array=(hi - y)[ok], arrayminus=(y - lo)[ok], color=color,
                     thickness=1.6, width=5),
        name=(f"{_text(name)}: " if name else "") + what,
        meta=[f"{word}-intervals", str(name)], legendrank=200, customdata=custom,
        hovertemplate=(where + f"{word} %{{y:.4f}} [%{{customdata[3]:.4f}}, %{{customdata[4]:.4f}}]<br>"
                       "positives targeted on the data %{customdata[7]:.6g}<br>"
                       f"{level} {method} intervals, each on its own<br>"
                       "exact-bootstrap mean %{customdata[5]:.4f}, sd %{customdata[6]:.4f}<extra></extra>"),
        **kw,
    ))
    return fig
