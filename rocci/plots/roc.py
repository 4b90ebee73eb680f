"""The ROC page's figures: curves, threshold regions (rectangles, ellipses), vertical bars and bands."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

try:  # pragma: no cover - exercised only when plotly is missing
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots needs plotly: pip install plotly") from exc

from ._style import (
    _ELLIPSE_VERTICES,
    MAX_CURVE_POINTS,
    _base_layout,
    _percent,
    _rgba,
    _text,
    _threshold_text,
    color_for,
    compact_indices,
    dash_for,
    method_name,
    style_index,
)


def roc_figure(
    curves: Mapping[str, Any],
    *,
    max_points: int = MAX_CURVE_POINTS,
    title: str | None = None,
    height: int = 700,
    auc_text: Mapping[str, str] | None = None,
    fpr_range: tuple[float, float] = (0.0, 1.0),
    tpr_range: tuple[float, float] = (0.0, 1.0),
    colors: Mapping[str, int] | None = None,
) -> go.Figure:
    """Empirical ROC curves, one step curve per model.

    Parameters
    ----------
    curves : mapping of model name -> RocCurve
        Results of :func:`rocci.roc_curve`; drawn in order, one colour each.
    max_points : int
        Longer curves are drawn from :func:`compact_indices` (the exact curve
        is in ``RocCurve.to_frame()``).
    title : str, optional
    height : int
        Figure height in pixels.
    auc_text : mapping of model name -> str, optional
        Extra text for the legend entry, e.g. ``"AUC 0.93"``.
    fpr_range, tpr_range : (float, float)
        Visible part of each axis, e.g. ``(0, 0.5)`` and ``(0.5, 1)`` for the
        top-left corner.  Give equal spans to keep the plot square.
    colors : mapping of model name -> int, optional
        Each model's style index (colour, dash; see :func:`style_index`), so that a model looks
        the same in every figure.  Default: the order of ``curves``.

    Returns
    -------
    plotly.graph_objects.Figure
        x = false-positive rate, y = true-positive rate, both on [0, 1];
        hovering a vertex shows its threshold, rates and counts.
    """
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1], y=[0, 1], mode="lines", name="chance (random scores)", legendrank=1000,
            line=dict(color="#9a9a9a", dash="dot", width=1), hoverinfo="skip",
        )
    )
    for i, (name, curve) in enumerate(curves.items()):
        fpr = np.asarray(curve.fpr, dtype=float)
        tpr = np.asarray(curve.tpr, dtype=float)
        idx = compact_indices(fpr, tpr, max_points=max_points)
        thr = _threshold_text(np.asarray(curve.thresholds, dtype=float)[idx])
        tp = np.asarray(curve.tp)[idx]
        fp = np.asarray(curve.fp)[idx]
        custom = np.column_stack([thr, tp, fp]).astype(object)
        label = _text(name)
        if auc_text and name in auc_text:
            label = f"{label} — {_text(auc_text[name])}"
        k = style_index(name, i, colors)
        fig.add_trace(
            go.Scatter(
                x=fpr[idx], y=tpr[idx], mode="lines", line_shape="hv",
                line=dict(color=color_for(k), width=2.2, dash=dash_for(k)),
                name=label,
                legendgroup=f"model{k}",
                legendrank=100 + k,
                customdata=custom,
                meta=["roc", str(name)],
                hovertemplate=(
                    "<b>%{fullData.name}</b><br>"
                    "threshold: score ≥ %{customdata[0]}<br>"
                    "FPR %{x:.4f} (false positives " + "%{customdata[2]}" + f" of {int(curve.n_neg)})<br>"
                    "TPR %{y:.4f} (true positives " + "%{customdata[1]}" + f" of {int(curve.n_pos)})"
                    "<extra></extra>"
                ),
            )
        )
    fig.update_xaxes(
        title_text="False-positive rate (1 − specificity)", range=_padded(fpr_range),
        constrain="domain", showgrid=True, gridcolor="#eeeeee", zeroline=False,
        showline=True, linecolor="#444", mirror=True, ticks="outside",
    )
    fig.update_yaxes(
        title_text="True-positive rate (sensitivity)", range=_padded(tpr_range),
        scaleanchor="x", scaleratio=1, constrain="domain",
        showgrid=True, gridcolor="#eeeeee", zeroline=False,
        showline=True, linecolor="#444", mirror=True, ticks="outside",
    )
    _base_layout(fig, title=title, height=height)
    return fig


def _padded(rng: tuple[float, float]) -> list[float]:
    lo, hi = float(rng[0]), float(rng[1])
    pad = 0.01 * (hi - lo)
    return [lo - pad, hi + pad]


def _send_below_curves(fig: go.Figure, n_new: int) -> None:
    """Move the last ``n_new`` traces before the ROC curves.

    Regions are then drawn under the curves, and a threshold point wins the
    hover over the curve vertex at the same place (plotly breaks ties in
    trace order), so hovering a point shows its interval.
    """
    data = list(fig.data)
    new, old = data[len(data) - n_new:], data[: len(data) - n_new]
    first_curve = next(
        (i for i, t in enumerate(old) if isinstance(t.meta, (list, tuple)) and t.meta and t.meta[0] == "roc"),
        len(old),
    )
    fig.data = tuple(old[:first_curve] + new + old[first_curve:])


def _rectangle_path(x0, x1, y0, y1) -> tuple[list, list]:
    xs: list = []
    ys: list = []
    for a, b, c, d in zip(x0, x1, y0, y1):
        xs += [a, b, b, a, a, None]
        ys += [c, c, d, d, c, None]
    return xs, ys


def _ellipse_path(cx, cy, rx, ry) -> tuple[list, list]:
    t = np.linspace(0.0, 2.0 * np.pi, _ELLIPSE_VERTICES + 1)
    ct, st_ = np.cos(t), np.sin(t)
    xs: list = []
    ys: list = []
    for x, y, a, b in zip(cx, cy, rx, ry):
        xs += list(x + a * ct) + [None]
        ys += list(y + b * st_) + [None]
    return xs, ys


def add_threshold_ci(
    fig: go.Figure,
    ci: Any,
    *,
    name: str = "",
    color_index: int = 0,
    show_regions: bool = True,
) -> go.Figure:
    """Add threshold-averaging confidence regions to a ROC figure.

    Parameters
    ----------
    fig : Figure from :func:`roc_figure`
    ci : ThresholdCI
        Result of :func:`rocci.threshold_ci`.  ``region="rectangle"`` and
        ``"marginal"`` are drawn from ``fpr_low/high`` and ``tpr_low/high``
        (the marginal intervals as a cross of error bars, the rectangle as a
        box); ``region="ellipse"`` from ``fpr_radius`` and ``tpr_radius``.
    name : str
        Model name for the legend.
    color_index : int
        Colour of the model (as in :func:`roc_figure`).
    show_regions : bool
        Draw the regions (the points are always drawn).

    Returns
    -------
    The same figure, with one trace of regions (``meta[0] == "threshold-region"``)
    and one of points (``meta[0] == "threshold-points"``).
    """
    n_start = len(fig.data)
    color = color_for(color_index)
    region = str(getattr(ci, "region", "rectangle"))
    level = _percent(ci.confidence_level)
    method = method_name(ci.method)
    fpr = np.asarray(ci.fpr, dtype=float)
    tpr = np.asarray(ci.tpr, dtype=float)
    fl, fh = np.asarray(ci.fpr_low, float), np.asarray(ci.fpr_high, float)
    tl, th = np.asarray(ci.tpr_low, float), np.asarray(ci.tpr_high, float)
    region_label = {
        "rectangle": f"{level} {method} confidence rectangles",
        "ellipse": f"{level} confidence ellipses",
        "marginal": f"{level} {method} intervals (each axis)",
    }.get(region, f"{level} {region} regions")
    label = f"{_text(name)}: {region_label}" if name else region_label
    group = f"thr{color_index}"

    if show_regions and fpr.size and region in ("rectangle", "ellipse"):
        if region == "ellipse":
            xs, ys = _ellipse_path(fpr, tpr, np.asarray(ci.fpr_radius, float), np.asarray(ci.tpr_radius, float))
        else:
            xs, ys = _rectangle_path(fl, fh, tl, th)
        fig.add_trace(
            go.Scatter(
                x=xs, y=ys, mode="lines", fill="toself",
                fillcolor=_rgba(color, 0.16), line=dict(color=_rgba(color, 0.85), width=1),
                name=label, legendgroup=group, hoverinfo="skip", legendrank=200 + color_index,
                meta=["threshold-region", region],
            )
        )

    thresholds = _threshold_text(np.asarray(ci.thresholds, dtype=float))
    tpr_rate = np.asarray(ci.total_positive_rate, dtype=float)
    tp = np.asarray(ci.tp)
    fp = np.asarray(ci.fp)
    custom = np.column_stack(
        [thresholds, tpr_rate, fl, fh, tl, th, tp, fp]
    ).astype(object)
    marker_kw: dict = {}
    if region == "marginal" and show_regions:
        marker_kw = dict(
            error_x=dict(type="data", symmetric=False, array=fh - fpr, arrayminus=fpr - fl,
                         color=color, thickness=1.2, width=3),
            error_y=dict(type="data", symmetric=False, array=th - tpr, arrayminus=tpr - tl,
                         color=color, thickness=1.2, width=3),
        )
    axis_level = getattr(ci, "axis_confidence_level", None)
    if region == "ellipse":
        described = f"{level} confidence ellipse (intervals: its bounding box)"
    elif region == "rectangle":
        each = f", each axis at {_percent(axis_level)}" if axis_level is not None else ""
        described = f"{level} {method} confidence rectangle{each}"
    else:
        described = f"{level} {method} interval on each axis"
    fig.add_trace(
        go.Scatter(
            x=fpr, y=tpr, mode="markers",
            marker=dict(color=color, size=9, symbol="circle", line=dict(color="white", width=1.5)),
            name=f"{_text(name)}: chosen thresholds" if name else "chosen thresholds",
            legendgroup=group,
            showlegend=region == "marginal" or not show_regions,
            hoverinfo="skip", legendrank=200 + color_index,
            meta=["threshold-points", region],
            **marker_kw,
        )
    )
    _hover_halo(
        fig, fpr, tpr, custom, group=group, meta=["threshold-hover", region],
        hovertemplate=(
            "<b>threshold: score ≥ %{customdata[0]}</b><br>"
            "total-positive rate %{customdata[1]:.3f}<br>"
            "FPR %{x:.4f}, interval [%{customdata[2]:.4f}, %{customdata[3]:.4f}]<br>"
            "TPR %{y:.4f}, interval [%{customdata[4]:.4f}, %{customdata[5]:.4f}]<br>"
            "TP %{customdata[6]}, FP %{customdata[7]}<br>"
            f"{described}<br>exact bootstrap, m+ = {int(ci.m_pos)}, m− = {int(ci.m_neg)}"
            "<extra></extra>"
        ),
    )
    _send_below_curves(fig, len(fig.data) - n_start)
    return fig


def _hover_halo(fig: go.Figure, x, y, custom, *, group: str, meta: list, hovertemplate: str) -> None:
    """An invisible small marker at each point that carries its hover label.

    Plotly's "closest" hover scales the distance to a point by its marker's
    radius, and near the centre a small marker beats a large one.  On a dense
    ROC curve the curve's own vertices (which sit exactly on the threshold
    points) would win the hover over a visible 9-px marker; a 5-px invisible
    one wins it (checked in headless Chromium: about 9 hovers in 10 near a
    point, against about 1 in 2).
    """
    fig.add_trace(
        go.Scatter(
            x=x, y=y, mode="markers", marker=dict(size=5, color="rgba(0,0,0,0)", opacity=0),
            showlegend=False, legendgroup=group, customdata=custom, meta=meta,
            hovertemplate=hovertemplate, name="",
            hoverlabel=dict(bgcolor="white"),
        )
    )


def add_vertical_ci(
    fig: go.Figure,
    vci: Any,
    *,
    style: str = "bars",
    name: str = "",
    color_index: int = 0,
) -> go.Figure:
    """Add vertical-averaging intervals (TPR at fixed FPR levels) to a ROC figure.

    Parameters
    ----------
    fig : Figure from :func:`roc_figure`
    vci : VerticalCI
        Result of :func:`rocci.vertical_ci`.
    style : {"bars", "band"}
        ``"bars"``: a marker at each level with its interval as an error bar.
        ``"band"``: a shaded pointwise band joining the intervals of the levels
        (pass many levels).
    name : str
        Model name for the legend.
    color_index : int

    Returns
    -------
    The same figure; the added traces have ``meta[0] == "vertical-bars"`` or
    ``"vertical-band"``.
    """
    color = color_for(color_index)
    level = _percent(vci.confidence_level)
    method = method_name(vci.method)
    fpr = np.asarray(vci.fpr, dtype=float)
    tpr = np.asarray(vci.tpr, dtype=float)
    lo = np.asarray(vci.tpr_low, dtype=float)
    hi = np.asarray(vci.tpr_high, dtype=float)
    r = np.asarray(vci.r)
    mean = np.asarray(vci.tpr_mean, dtype=float)
    sd = np.asarray(vci.tpr_std, dtype=float)
    custom = np.column_stack([r, lo, hi, mean, sd]).astype(object)
    m_neg = int(getattr(vci, "m_neg", 0) or 0)
    m_text = f" of m− = {m_neg}" if m_neg else ""
    hover = (
        "<b>FPR level %{x:.4f}</b> (r = %{customdata[0]}" + m_text + ")<br>"
        "TPR %{y:.4f}<br>"
        + level + " " + method + " interval [%{customdata[1]:.4f}, %{customdata[2]:.4f}]<br>"
        "exact-bootstrap mean %{customdata[3]:.4f}, sd %{customdata[4]:.4f}"
        "<extra></extra>"
    )
    prefix = f"{_text(name)}: " if name else ""
    group = f"vert{color_index}"
    if style == "band":
        fig.add_trace(
            go.Scatter(
                x=fpr, y=lo, mode="lines", line=dict(color=_rgba(color, 0.6), width=1, dash="dash"),
                name=f"{prefix}{level} {method} band (lower)", legendgroup=group, showlegend=False,
                hoverinfo="skip", meta=["vertical-band", "low"],
            )
        )
        fig.add_trace(
            go.Scatter(
                x=fpr, y=hi, mode="lines", fill="tonexty", fillcolor=_rgba(color, 0.14),
                line=dict(color=_rgba(color, 0.6), width=1, dash="dash"),
                name=f"{prefix}{level} pointwise {method} band (vertical averaging)",
                legendgroup=group, hoverinfo="skip", meta=["vertical-band", "high"], legendrank=300 + color_index,
            )
        )
        _hover_halo(fig, fpr, tpr, custom, group=group, meta=["vertical-band", "points"], hovertemplate=hover)
    else:
        fig.add_trace(
            go.Scatter(
                x=fpr, y=tpr, mode="markers",
                marker=dict(color=color, size=9, symbol="diamond", line=dict(color="white", width=1)),
                error_y=dict(type="data", symmetric=False, array=hi - tpr, arrayminus=tpr - lo,
                             color=color, thickness=1.6, width=5),
                name=f"{prefix}{level} {method} intervals at fixed FPR (vertical averaging)",
                legendgroup=group, hoverinfo="skip", legendrank=300 + color_index,
                meta=["vertical-bars", "points"],
            )
        )
        _hover_halo(fig, fpr, tpr, custom, group=group, meta=["vertical-hover", "points"], hovertemplate=hover)
    return fig



def _steps(x: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points of a step function constant on each piece ``(x_i, x_{i+1})``, for ``line_shape="hv"``."""
    return np.asarray(x, float), np.append(values, values[-1])


def add_band(
    fig: go.Figure,
    band: Any,
    *,
    name: str = "",
    color_index: int = 0,
) -> go.Figure:
    """Add a simultaneous confidence band (:func:`rocci.bands.roc_band`) to a ROC figure.

    The band region is drawn as given by ``band.envelope()``: between the
    staircases ``L(x)`` and ``U(x)`` (:mod:`rocci.bands.region`), hatched so
    that it reads differently from the pointwise regions (filled boxes and
    bands).  Nothing is computed here.

    Returns
    -------
    The same figure; the added traces have ``meta[0] == "band"`` and
    ``meta[1]`` ``"lower"`` or ``"upper"``.
    """
    color = color_for(color_index)
    x, lower, upper = band.envelope()
    xs, lo = _steps(x, np.asarray(lower, float))
    _, hi = _steps(x, np.asarray(upper, float))
    level = _percent(band.confidence_level)
    what = {"exact": "exact", "monte-carlo": "Monte Carlo", "sidak": "Šidák",
            "bonferroni": "Bonferroni"}.get(band.method, band.method)
    prefix = f"{_text(name)}: " if name else ""
    group = f"band{color_index}"
    line = dict(color=_rgba(color, 0.9), width=1.4, shape="hv")
    fig.add_trace(go.Scatter(
        x=xs, y=lo, mode="lines", line=line, name=f"{prefix}{level} simultaneous band (lower)",
        legendgroup=group, showlegend=False, hoverinfo="skip", meta=["band", "lower"],
    ))
    fig.add_trace(go.Scatter(
        x=xs, y=hi, mode="lines", line=line, fill="tonexty", fillcolor=_rgba(color, 0.05),
        fillpattern=dict(shape="/", fgcolor=_rgba(color, 0.45), size=9, solidity=0.15),
        name=f"{prefix}{level} simultaneous band ({what})", legendgroup=group,
        hoverinfo="skip", meta=["band", "upper"], legendrank=250 + color_index,
    ))
    _send_below_curves(fig, 2)
    return fig
