"""Plotly figure builders for rocci's result objects.

Every function here takes result objects (:class:`~rocci.RocCurve`,
:class:`~rocci.ThresholdCI`, :class:`~rocci.VerticalCI`, or plain score
arrays for the data summary) and draws them.  Nothing here computes a
statistic: curves, rates, counts and intervals come from the results as they
are.  The only arithmetic is drawing arithmetic -- choosing which vertices of a
long step curve to draw (:func:`compact_indices`), tracing the outline of a
rectangle or an ellipse, and binning scores for a histogram.

Text that comes from the user's data (model names, labels) is HTML-escaped
before it reaches plotly, which otherwise renders a subset of HTML in names,
titles and hover labels.

Importing this module needs plotly; the rest of rocci does not.
"""

from __future__ import annotations

import html
from typing import Any, Mapping

import numpy as np

try:  # pragma: no cover - exercised only when plotly is missing
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots
except ImportError as exc:  # pragma: no cover
    raise ImportError(
        "rocci.plots needs plotly: pip install plotly"
    ) from exc

__all__ = [
    "COLORS",
    "MAX_CURVE_POINTS",
    "plotly_config",
    "compact_indices",
    "roc_figure",
    "add_threshold_ci",
    "add_vertical_ci",
    "score_histograms",
]

#: Colour per model: the Okabe–Ito palette (Okabe & Ito 2008), readable with every common form of
#: colour-blindness and in greyscale print by its dashes; no red/green pair. The dashboard gives each
#: model one index for the whole session (its position among the chosen models), so a model keeps its
#: colour, dash and marker on every page.
COLORS = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#D55E00",  # vermillion
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#8C6D00",  # dark yellow (Okabe–Ito's yellow, darkened for contrast on white)
)
#: Line dash per model (same index as COLORS), so curves differ without colour too.
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid", "dash")
#: Marker symbol per model (same index as COLORS).
MARKERS = ("circle", "square", "diamond", "triangle-up", "x", "star", "cross", "hexagon")

#: Default upper bound on the number of vertices drawn per ROC curve.
MAX_CURVE_POINTS = 4000

_ELLIPSE_VERTICES = 48


def _text(value: Any) -> str:
    """User-supplied text, escaped so plotly shows it as text and never as HTML."""
    return html.escape(str(value), quote=False)


def color_for(index: int) -> str:
    """The colour of the ``index``-th model."""
    return COLORS[index % len(COLORS)]


def dash_for(index: int) -> str:
    """The line dash of the ``index``-th model."""
    return DASHES[index % len(DASHES)]


def marker_for(index: int) -> str:
    """The marker symbol of the ``index``-th model."""
    return MARKERS[index % len(MARKERS)]


def style_index(name: Any, position: int, colors: Mapping[str, int] | None = None) -> int:
    """The style index of model ``name``: ``colors[name]`` when given (the session's fixed
    model → index map), else its ``position`` in the figure."""
    if colors is not None and str(name) in colors:
        return int(colors[str(name)])
    return position


def _rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def _percent(level: float) -> str:
    pct = 100.0 * float(level)
    return f"{pct:.0f}%" if abs(pct - round(pct)) < 1e-9 else f"{pct:.1f}%"


_METHOD_NAMES = {
    "wilson": "Wilson",
    "wald": "Wald",
    "agresti-coull": "Agresti–Coull",
    "percentile": "percentile",
    "score": "score",
    "delong": "DeLong",
    "hanley-mcneil": "Hanley–McNeil",
    "exact-bootstrap": "exact bootstrap",
}


def method_name(method: str) -> str:
    """Display name of an interval method ("agresti-coull" -> "Agresti–Coull")."""
    return _METHOD_NAMES.get(method, str(method))


def plotly_config(*, image_format: str = "png", filename: str = "rocci_chart") -> dict:
    """Plotly ``config`` for ``st.plotly_chart``: toolbar image export, no logo.

    Parameters
    ----------
    image_format : {"png", "svg"}
        Format of the toolbar's "download plot" button.
    filename : str
        File name (without extension) of the exported image.
    """
    fmt = image_format if image_format in ("png", "svg", "jpeg", "webp") else "png"
    return {
        "displaylogo": False,
        "toImageButtonOptions": {
            "format": fmt,
            "filename": filename,
            "height": 800,
            "width": 900,
            "scale": 2 if fmt == "png" else 1,
        },
        "modeBarButtonsToRemove": ["lasso2d", "select2d"],
    }


def compact_indices(fpr: np.ndarray, tpr: np.ndarray, *, max_points: int = MAX_CURVE_POINTS) -> np.ndarray:
    """Indices of the vertices of a ROC step curve worth drawing.

    A curve with at most ``max_points`` vertices is kept whole.  A longer one
    is reduced on a grid of ``k = max_points // 4`` cells per axis: in each
    run of consecutive vertices that fall into the same grid cell only the
    first and the last vertex are kept.  The curve is monotone, so it crosses
    at most ``2k + 1`` cells and at most ``4k + 2`` vertices are kept; the
    first and last vertex -- (0, 0) and (1, 1) -- and every vertex next to a
    jump between cells (every corner visible at the grid's resolution) are
    kept, and the drawn step curve is within ``1/k`` of the exact one on each
    axis.

    Parameters
    ----------
    fpr, tpr : ndarray of shape (n,)
        Vertices of the curve, non-decreasing.
    max_points : int
        Target upper bound on the number of vertices returned.

    Returns
    -------
    ndarray of int, increasing
    """
    fpr = np.asarray(fpr, dtype=float)
    tpr = np.asarray(tpr, dtype=float)
    n = fpr.size
    if n <= max(int(max_points), 2):
        return np.arange(n)
    k = max(int(max_points) // 4, 2)
    cx = np.minimum(np.floor(fpr * k), k).astype(np.int64)
    cy = np.minimum(np.floor(tpr * k), k).astype(np.int64)
    cell = cx * (k + 1) + cy
    change = cell[1:] != cell[:-1]
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    keep[1:] |= change
    keep[:-1] |= change
    return np.flatnonzero(keep)


def _threshold_text(thresholds: np.ndarray) -> np.ndarray:
    out = np.empty(thresholds.shape, dtype=object)
    for i, t in enumerate(thresholds):
        if np.isposinf(t):
            out[i] = "+∞ (no instance predicted positive)"
        elif np.isneginf(t):
            out[i] = "−∞ (every instance predicted positive)"
        else:
            out[i] = f"{t:.6g}"
    return out


def _base_layout(fig: go.Figure, *, title: str | None, height: int) -> None:
    fig.update_layout(
        title=dict(text=title, x=0.0, xanchor="left") if title else None,
        height=height,
        margin=dict(l=60, r=20, t=50 if title else 20, b=60),
        hovermode="closest",
        legend=dict(
            orientation="h", yanchor="top", y=-0.14, xanchor="left", x=0.0,
            bgcolor="rgba(255,255,255,0.8)",
        ),
        plot_bgcolor="white",
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


def score_histograms(
    scores: Mapping[str, np.ndarray],
    is_positive: np.ndarray,
    *,
    positive_name: str = "positives",
    negative_name: str = "negatives",
    bins: int = 40,
    height_per_model: int = 260,
    normalize: bool = False,
) -> go.Figure:
    """Overlaid score histograms of positives and negatives, one panel per model.

    Parameters
    ----------
    scores : mapping of model name -> ndarray of shape (n,)
        The scores, aligned with ``is_positive``.
    is_positive : ndarray of bool, shape (n,)
    positive_name, negative_name : str
        Legend text of the two classes (e.g. ``"positives (label = M)"``).
    bins : int
        Number of equal-width bins per model (shared by both classes).
    height_per_model : int
        Height of each model's panel, in pixels.
    normalize : bool, default False
        ``True``: each class's bars are the percentage of *that class's*
        instances in the bin (each class adds up to 100%), so a class of 16%
        is as visible as the other; ``False``: counts of instances.

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace per class and model (``meta = ["histogram", model]``).
        Hovering shows the bin, the count and the share of the class either
        way.  Binning is done here so the browser receives ``bins`` numbers
        per class rather than every score.
    """
    names = list(scores)
    k = max(len(names), 1)
    is_positive = np.asarray(is_positive, dtype=bool)
    fig = make_subplots(
        rows=k, cols=1, subplot_titles=[_text(n) for n in names] or None,
        vertical_spacing=min(0.16, 0.5 / k) if k > 1 else 0.0,
    )
    classes = (
        (is_positive, _text(positive_name), "#d62728"),
        (~is_positive, _text(negative_name), "#1f77b4"),
    )
    for row, name in enumerate(names, start=1):
        s = np.asarray(scores[name], dtype=float)
        lo, hi = float(np.min(s)), float(np.max(s))
        if hi <= lo:
            hi = lo + 1.0
        edges = np.linspace(lo, hi, int(bins) + 1)
        centers = 0.5 * (edges[:-1] + edges[1:])
        width = edges[1] - edges[0]
        for mask, cname, color in classes:
            counts, _ = np.histogram(s[mask], bins=edges)
            size = int(np.count_nonzero(mask))
            share = 100.0 * counts / size if size else np.zeros(counts.size)
            fig.add_trace(
                go.Bar(
                    x=centers, y=share if normalize else counts, width=width, name=cname,
                    legendgroup=cname, showlegend=row == 1,
                    marker=dict(color=color, line=dict(width=0)), opacity=0.55,
                    customdata=np.column_stack([edges[:-1], edges[1:], counts, share]),
                    hovertemplate=(
                        "%{fullData.name}<br>score in [%{customdata[0]:.4g}, %{customdata[1]:.4g}]"
                        "<br>%{customdata[2]:,} instances (%{customdata[3]:.1f}% of the class)"
                        "<extra></extra>"
                    ),
                    meta=["histogram", str(name)],
                ),
                row=row, col=1,
            )
        fig.update_xaxes(title_text="score" if row == k else None, row=row, col=1, showgrid=True,
                         gridcolor="#eeeeee")
        fig.update_yaxes(title_text="share of the class" if normalize else "instances", row=row, col=1,
                         showgrid=True, gridcolor="#eeeeee", ticksuffix="%" if normalize else None)
    # The legend sits above the first panel's title, with room for two rows on a
    # phone (390 px), where it wraps: 30 px clear of the title, 90 px of top margin.
    height = 120 + height_per_model * k + 50
    top, bottom = 90, 40
    fig.update_layout(
        barmode="overlay", bargap=0.0,
        height=height,
        margin=dict(l=60, r=20, t=top, b=bottom),
        legend=dict(orientation="h", yanchor="bottom", y=1.0 + 30 / (height - top - bottom),
                    xanchor="right", x=1.0),
        plot_bgcolor="white",
    )
    return fig
