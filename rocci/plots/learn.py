"""Plotly figure builders for the Learn page (a guided walk through the thesis's worked example).

Like :mod:`rocci.plots` and :mod:`rocci.plots.cost`, nothing here computes a
statistic: ROC points, counts, hulls, envelopes, breakpoints, intervals and
bootstrap resamples come from rocci's result objects (and, for the bootstrap
worlds, from the resampled curves the caller passes in) as they are.  The
only arithmetic is drawing arithmetic:

* a cost line is the straight line from ``(0, FPR)`` to ``(1, 1 − TPR)``
  (eq. 3.12), so drawing it -- or one piece of it between two breakpoints --
  is evaluating a line through two given points;
* an iso-performance line is the line of slope ``(1 − w)/w`` through a ROC
  point;
* a strip plot places each score at a deterministic vertical jitter, and
  thins long score lists to evenly spaced order statistics (from a table of
  counts, read off its cumulative counts: the same dots, never expanded);
* the bootstrap-worlds histogram counts how often each resampled value occurs
  among the K drawn worlds (binning, as for a histogram).

Text that comes from the user's data (model names, labels) is HTML-escaped
with :func:`rocci.plots._text`.  ``height`` arguments are the height of the
plot area in pixels; the legend goes under it, one entry per line, in a margin
sized to fit.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ._style import (
    _base_layout,
    _percent,
    _text,
    _threshold_text,
    COLORS,
    color_for,
    compact_indices,
    method_name,
)
from .roc import add_threshold_ci, add_vertical_ci, roc_figure

try:  # pragma: no cover
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots.learn needs plotly: pip install plotly") from exc

__all__ = [
    "MAX_STRIP_POINTS",
    "MAX_COST_LINES",
    "strip_figure",
    "roc_point_figure",
    "cost_duality_figure",
    "roc_duality_figure",
    "hull_figure",
    "envelope_figure",
    "worlds_figure",
    "worlds_law_figure",
    "averaging_figures",
    "thin_indices",
    "featured_vertices",
]

#: At most this many scores per class are drawn in the strip plot.
MAX_STRIP_POINTS = 1500
#: At most this many cost lines are drawn in the envelope figure (hull vertices' lines first, then a thinned
#: set of the other thresholds): a reader can follow a dozen lines, not hundreds.
MAX_COST_LINES = 12
#: At most this many hull vertices get their own colour, legend entry and full cost line: one colour each from
#: the colour-blind-safe palette (rocci.plots.COLORS), never repeated.  Longer hulls feature the vertices that
#: are cheapest over the widest ranges of w; the others are still on the envelope and in the hover.
MAX_FEATURED = 8
#: Hulls with more vertices than this list them in the hover labels only, not one legend entry each.
MAX_LEGEND_VERTICES = MAX_FEATURED
#: Breakpoints are labelled with their value only when there are at most this many and they are this far apart
#: in w (otherwise the labels would overlap; the hover still gives each).
MAX_LABELLED_BREAKPOINTS = 6
MIN_LABEL_GAP = 0.06

# Colours from the colour-blind-safe palette of rocci.plots (Okabe–Ito): no red/green pair.
NEG_COLOR = color_for(0)  # blue
POINT_COLOR = color_for(1)  # orange
OPT_COLOR = color_for(2)  # bluish green
POS_COLOR = color_for(4)  # vermillion
ROC_COLOR = color_for(0)
#: The bootstrap worlds (section 4): the positives' vermillion, translucent.
WORLD_RGB = "213,94,0"

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")


def _thr(t: float) -> str:
    return str(_threshold_text(np.asarray([float(t)]))[0])


def thin_indices(n: int, max_points: int) -> np.ndarray:
    """``min(n, max_points)`` evenly spaced indices of ``0 … n − 1`` (first and last kept)."""
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, max_points).round().astype(np.int64))


def _legend_below(fig: "go.Figure", *, plot_height: int, top: int = 20, left: int = 60) -> None:
    """One legend entry per line under the plot, in a bottom margin sized to fit them.

    The figure's height is ``plot_height`` plus the margins, so a long legend
    never squeezes the plot or overlaps the x-axis title.
    """
    entries = sum(1 for t in fig.data if t.showlegend is not False and t.name)
    bottom = 70 + 19 * entries
    fig.update_layout(
        height=plot_height + top + bottom,
        margin=dict(l=left, r=10, t=top, b=bottom),
        legend=dict(orientation="v", yref="container", yanchor="bottom", y=0.0, xanchor="left", x=0.0,
                    bgcolor="rgba(255,255,255,0.8)", tracegroupgap=0),  # no gap per legend group: the margin fits
    )


def _roc_axes(fig: "go.Figure") -> None:
    fig.update_xaxes(title_text="False-positive rate (FPR)", range=[-0.01, 1.01], constrain="domain", **_AXIS)
    fig.update_yaxes(title_text="True-positive rate (TPR)", range=[-0.01, 1.01], scaleanchor="x", scaleratio=1,
                     constrain="domain", **_AXIS)


def _cost_axes(fig: "go.Figure", top: float = 0.52) -> None:
    fig.update_xaxes(title_text="Operating point w", range=[-0.01, 1.01], **_AXIS)
    fig.update_yaxes(title_text="Normalised expected cost", range=[-0.005, top], **_AXIS)


def _chance(fig: "go.Figure") -> None:
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(color="#9a9a9a", dash="dot", width=1),
                             name="chance (random scores)", hoverinfo="skip", meta=["chance"], legendrank=1000))


def _roc_line(fig: "go.Figure", roc: Any, *, name: str = "empirical ROC curve", color: str = ROC_COLOR,
              width: float = 2.2) -> None:
    fpr = np.asarray(roc.fpr, float)
    tpr = np.asarray(roc.tpr, float)
    idx = compact_indices(fpr, tpr)
    custom = np.column_stack([_threshold_text(np.asarray(roc.thresholds, float)[idx]),
                              np.asarray(roc.tp)[idx], np.asarray(roc.fp)[idx]]).astype(object)
    fig.add_trace(go.Scatter(
        x=fpr[idx], y=tpr[idx], mode="lines", line_shape="hv", line=dict(color=color, width=width),
        name=_text(name), meta=["roc"], customdata=custom,
        hovertemplate=("threshold: score ≥ %{customdata[0]}<br>FPR %{x:.4f} (FP %{customdata[2]} of "
                       f"{int(roc.n_neg)})<br>TPR %{{y:.4f}} (TP %{{customdata[1]}} of {int(roc.n_pos)})"
                       "<extra></extra>"),
    ))


def _trivial(fig: "go.Figure") -> None:
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[0, 1], mode="lines", name="always negative (cost w)",
        line=dict(color="#777", dash="dash", width=1.1), meta=["trivial", "negative"], hoverinfo="skip",
        legendrank=900,
    ))
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[1, 0], mode="lines", name="always positive (cost 1 − w)",
        line=dict(color="#777", dash="dashdot", width=1.1), meta=["trivial", "positive"], hoverinfo="skip",
        legendrank=901,
    ))


# ---------------------------------------------------------------------------
# Section 1: a ROC point and its confusion matrix
# ---------------------------------------------------------------------------


def strip_figure(
    scores: np.ndarray,
    is_positive: np.ndarray,
    threshold: float,
    *,
    positive_name: str = "positives",
    negative_name: str = "negatives",
    max_points: int = MAX_STRIP_POINTS,
    height: int = 200,
) -> "go.Figure":
    """The scores as dots, one row per class, with the threshold as a vertical line.

    Parameters
    ----------
    scores : ndarray of shape (n,), or a :class:`rocci.ScoreCounts`
        The scores; or a table of counts (``is_positive`` None), drawn from the
        same order statistics without expanding it (a class of 10⁸ instances
        is 1,500 dots, read off its cumulative counts).
    is_positive : ndarray of bool, shape (n,), or None with a table
    threshold : float
        ``score >= threshold`` is predicted positive: dots right of (or on) the
        line are predicted positive.
    positive_name, negative_name : str
        Row names (text from the data is escaped).
    max_points : int
        A class with more scores is drawn from ``max_points`` evenly spaced
        order statistics (its sorted scores thinned), so the shape is kept.

    Returns
    -------
    Figure
        Traces with ``meta = ["strip", class, outcome]`` for class ``"pos"`` /
        ``"neg"`` and outcome ``"TP"``, ``"FN"``, ``"FP"``, ``"TN"``, and a
        threshold line ``meta = ["threshold-line"]``.  Each strip trace's
        ``customdata`` holds the number of instances it stands for.
    """
    t = float(threshold)
    fig = go.Figure()
    if is_positive is None and hasattr(scores, "table"):  # a ScoreCounts: each class's order statistics, never expanded
        values, counts_pos, counts_neg = scores.table()
        classes = ((values, counts_pos), (values, counts_neg))
    else:
        s = np.asarray(scores, dtype=float)
        pos = np.asarray(is_positive, dtype=bool)
        classes = ((np.sort(s[pos]), None), (np.sort(s[~pos]), None))
    rows = ((classes[0], "pos", _text(positive_name), 1.0, ("TP", "FN"), POS_COLOR),
            (classes[1], "neg", _text(negative_name), 0.0, ("FP", "TN"), NEG_COLOR))
    for (vals, weights), cls, label, y0, (hit, miss), color in rows:
        size, shown, n_hit = _thinned_class(vals, weights, t, max_points)
        # Deterministic jitter (golden-ratio sequence) so that tied scores stay visible.
        jitter = ((np.arange(shown.size) * 0.6180339887498949) % 1.0 - 0.5) * 0.5
        above = shown >= t
        for sel, outcome, symbol in ((above, hit, "circle"), (~above, miss, "circle-open")):
            n_all = n_hit if outcome == hit else size - n_hit
            what = "predicted positive" if outcome == hit else "predicted negative"
            fig.add_trace(go.Scatter(
                x=shown[sel], y=y0 + jitter[sel], mode="markers",
                marker=dict(color=color, size=9 if size <= 200 else 5, symbol=symbol,
                            line=dict(color=color, width=1.5)),
                name=f"{label}, {what} ({outcome}: {n_all})", meta=["strip", cls, outcome],
                customdata=[n_all] * int(np.count_nonzero(sel)),
                hovertemplate=f"{label}<br>score %{{x:.6g}}<br>{outcome} ({what})<extra></extra>",
            ))
    fig.add_vline(x=t, line=dict(color="#222", width=2, dash="dash"))
    fig.add_trace(go.Scatter(
        x=[t, t], y=[-0.5, 1.5], mode="lines", line=dict(color="#222", width=2, dash="dash"),
        name=f"threshold: score ≥ {_thr(t)} → positive", meta=["threshold-line"], hoverinfo="skip",
    ))
    fig.update_yaxes(tickvals=[0, 1], ticktext=[_text(negative_name), _text(positive_name)], range=[-0.5, 1.5],
                     showgrid=False, zeroline=False, showline=True, linecolor="#444", mirror=True)
    fig.update_xaxes(title_text="score", showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True,
                     linecolor="#444", mirror=True, ticks="outside")
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height, left=90)
    return fig


def _thinned_class(values: np.ndarray, weights, threshold: float, max_points: int) -> tuple[int, np.ndarray, int]:
    """One class for the strip plot: ``(its size, the scores drawn, how many score >= threshold)``.

    ``values`` are the class's sorted scores (``weights`` None), or distinct increasing scores with the
    class's count at each (``weights``): the ``j``-th smallest score (0-based) is then ``values[i]`` for the
    first ``i`` whose cumulative count exceeds ``j``.  Either way the scores drawn are the same
    :func:`thin_indices` order statistics, and the table is never expanded.
    """
    if weights is None:
        idx = thin_indices(values.size, max_points)
        return int(values.size), values[idx], int(values.size - np.searchsorted(values, threshold, side="left"))
    weights = np.asarray(weights, dtype=np.int64)
    cum = np.cumsum(weights)
    size = int(cum[-1]) if cum.size else 0
    idx = thin_indices(size, max_points)
    shown = values[np.searchsorted(cum, idx, side="right")]
    below = int(weights[values < threshold].sum())
    return size, shown, size - below


def roc_point_figure(roc: Any, confusion: Any, *, height: int = 420) -> "go.Figure":
    """The empirical ROC curve with the point of one threshold highlighted.

    Parameters
    ----------
    roc : RocCurve
    confusion : Confusion
        From :func:`rocci.confusion_at`: the point drawn is
        ``(FP/n−, TP/n+)`` read from its ``fpr`` and ``recall``, with its counts.

    Returns
    -------
    Figure
        ``meta`` kinds: ``"roc"``, ``"roc-point"`` (the point) and
        ``"guide"`` (dotted lines from the point to the axes).
    """
    fig = go.Figure()
    _chance(fig)
    _roc_line(fig, roc)
    x, y = float(confusion.fpr), float(confusion.recall)
    fig.add_trace(go.Scatter(
        x=[x, x, None, 0, x], y=[0, y, None, y, y], mode="lines", line=dict(color=POINT_COLOR, dash="dot", width=1.3),
        hoverinfo="skip", showlegend=False, meta=["guide"],
    ))
    fig.add_trace(go.Scatter(
        x=[x], y=[y], mode="markers", marker=dict(color=POINT_COLOR, size=15, symbol="circle",
                                                  line=dict(color="white", width=2)),
        name=f"threshold {_thr(confusion.threshold)}: (FPR {x:.4f}, TPR {y:.4f})", meta=["roc-point"],
        hovertemplate=(f"threshold: score ≥ {_thr(confusion.threshold)}<br>"
                       f"FPR = FP/n− = {int(confusion.fp)}/{int(confusion.n_neg)} = {x:.4f}<br>"
                       f"TPR = TP/n+ = {int(confusion.tp)}/{int(confusion.n_pos)} = {y:.4f}<extra></extra>"),
    ))
    _roc_axes(fig)
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height)
    return fig


# ---------------------------------------------------------------------------
# Section 2: a cost line and the ROC point it maps to
# ---------------------------------------------------------------------------


def cost_duality_figure(
    envelope: Any,
    line: Any,
    optimum: Any,
    *,
    height: int = 400,
) -> "go.Figure":
    """The chosen threshold's cost line on the cost plot, with the envelope and the current w.

    Parameters
    ----------
    envelope : CostCurve
        The lower envelope (evaluate it at its breakpoints too, so its corners
        are exact).
    line : CostCI
        The chosen threshold's cost at ``w = 0, 1, w0`` (in that order, one
        threshold): the line joins the first two, the third is its cost at the
        current operating point ``w0``.
    optimum : CostCI or CostCurve
        The envelope at ``w0`` alone (``w``, ``cost``, ``threshold`` of length 1).

    Returns
    -------
    Figure
        ``meta`` kinds: ``"trivial"``, ``"envelope"``, ``"cost-line"``,
        ``"line-at-w"`` (the chosen line's cost at ``w0``) and ``"optimum"``
        (the envelope's minimiser at ``w0``).
    """
    fig = go.Figure()
    _trivial(fig)
    fig.add_trace(go.Scatter(
        x=np.asarray(envelope.w, float), y=np.asarray(envelope.cost, float), mode="lines",
        line=dict(color=OPT_COLOR, width=3), name="cost curve (lower envelope of all cost lines)",
        meta=["envelope"], customdata=[_thr(t) for t in envelope.threshold],
        hovertemplate="w %{x:.3f}: lowest cost %{y:.4f}<br>threshold: score ≥ %{customdata}<extra></extra>",
    ))
    w = np.asarray(line.w, float)
    c = np.asarray(line.cost, float)
    t = float(line.threshold[0])
    fig.add_trace(go.Scatter(
        x=w[:2], y=c[:2], mode="lines+markers", line=dict(color=POINT_COLOR, width=2.5),
        marker=dict(size=9, color=POINT_COLOR),
        name=f"cost line of threshold {_thr(t)}: from (0, FPR) to (1, 1 − TPR)", meta=["cost-line"],
        hovertemplate=f"threshold {_thr(t)}<br>w %{{x:.3f}}: cost %{{y:.4f}}<extra></extra>",
    ))
    w0 = float(w[2])
    fig.add_vline(x=w0, line=dict(color="#222", width=1.2, dash="dot"), annotation_text=f"w = {w0:.2f}",
                  annotation_position="top")
    fig.add_trace(go.Scatter(
        x=[w0], y=[float(c[2])], mode="markers", marker=dict(color=POINT_COLOR, size=11, symbol="square"),
        name=f"threshold {_thr(t)} at w = {w0:.2f}: cost {float(c[2]):.4f}", meta=["line-at-w"],
        hovertemplate=f"threshold {_thr(t)} at w = {w0:.3f}: cost %{{y:.4f}}<extra></extra>",
    ))
    ot = float(optimum.threshold[0])
    fig.add_trace(go.Scatter(
        x=[w0], y=[float(optimum.cost[0])], mode="markers",
        marker=dict(color=OPT_COLOR, size=13, symbol="diamond", line=dict(color="white", width=1)),
        name=f"lowest cost at w = {w0:.2f}: threshold {_thr(ot)}, cost {float(optimum.cost[0]):.4f}",
        meta=["optimum"],
        hovertemplate=f"optimal at w = {w0:.3f}: threshold {_thr(ot)}<br>cost %{{y:.4f}}<extra></extra>",
    ))
    top = max(0.52, float(np.max(c[:2])) + 0.02)
    _cost_axes(fig, top=min(1.02, top))
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height, top=30)
    return fig


def _iso_line(x0: float, y0: float, w: float) -> tuple[np.ndarray, np.ndarray]:
    """The line of slope (1 − w)/w through (x0, y0), clipped to a box a bit larger than the unit square."""
    if w <= 0:
        return np.array([x0, x0]), np.array([-1.0, 2.0])
    slope = (1.0 - w) / w
    if slope > 1e6:
        return np.array([x0, x0]), np.array([-1.0, 2.0])
    xs = np.array([-1.0, 2.0])
    return xs, y0 + slope * (xs - x0)


def roc_duality_figure(
    roc: Any,
    curve: Any,
    point: Any,
    *,
    w: float,
    vertex: int,
    height: int = 400,
) -> "go.Figure":
    """The ROC view of section 2: the chosen threshold's point, the hull, and the iso-performance line at w.

    Parameters
    ----------
    roc : RocCurve
    curve : CostCurve
        Its ``hull_fpr``, ``hull_tpr``, ``hull_thresholds`` give the convex hull.
    point : ThresholdCI or Confusion-like
        The chosen threshold's ROC point: ``fpr[0]``, ``tpr[0]``, ``thresholds[0]``
        (a :class:`~rocci.ThresholdCI` at one threshold).
    w : float
        The operating point; the iso-performance line has slope ``(1 − w)/w``.
    vertex : int
        Index of the hull vertex minimising the cost at ``w`` (the envelope's minimiser).

    Returns
    -------
    Figure
        ``meta`` kinds: ``"roc"``, ``"hull"``, ``"iso"``, ``"optimum"``, ``"roc-point"``.
    """
    fig = go.Figure()
    _chance(fig)
    _roc_line(fig, roc, color="#9ab", width=1.4)
    hf = np.asarray(curve.hull_fpr, float)
    ht = np.asarray(curve.hull_tpr, float)
    fig.add_trace(go.Scatter(
        x=hf, y=ht, mode="lines+markers", line=dict(color=OPT_COLOR, width=2), marker=dict(size=6),
        name="convex hull", meta=["hull"], customdata=[_thr(t) for t in curve.hull_thresholds],
        hovertemplate="hull vertex: threshold %{customdata}<br>FPR %{x:.4f}, TPR %{y:.4f}<extra></extra>",
    ))
    x0, y0 = float(hf[vertex]), float(ht[vertex])
    xs, ys = _iso_line(x0, y0, float(w))
    slope_text = "∞" if w <= 0 else f"{(1.0 - w) / w:.3g}"
    fig.add_trace(go.Scatter(
        x=xs, y=ys, mode="lines", line=dict(color=OPT_COLOR, dash="dash", width=1.5),
        name=f"iso-performance line at w = {w:.2f} (slope (1 − w)/w = {slope_text})", meta=["iso"],
        hoverinfo="skip",
    ))
    vt = _thr(curve.hull_thresholds[vertex])
    fig.add_trace(go.Scatter(
        x=[x0], y=[y0], mode="markers",
        marker=dict(color=OPT_COLOR, size=14, symbol="diamond", line=dict(color="white", width=1)),
        name=f"optimal at w = {w:.2f}: threshold {vt}", meta=["optimum"],
        hovertemplate=f"optimal at w = {w:.3f}: threshold {vt}<br>FPR %{{x:.4f}}, TPR %{{y:.4f}}<extra></extra>",
    ))
    px, py = float(point.fpr[0]), float(point.tpr[0])
    pt = _thr(point.thresholds[0])
    fig.add_trace(go.Scatter(
        x=[px], y=[py], mode="markers",
        marker=dict(color=POINT_COLOR, size=12, symbol="square", line=dict(color="white", width=1)),
        name=f"threshold {pt}: (FPR {px:.4f}, TPR {py:.4f})", meta=["roc-point"],
        hovertemplate=f"threshold {pt}<br>FPR %{{x:.4f}}, TPR %{{y:.4f}}<extra></extra>",
    ))
    _roc_axes(fig)
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height, top=30)
    return fig


# ---------------------------------------------------------------------------
# Section 3: the envelope is the convex hull
# ---------------------------------------------------------------------------


def featured_vertices(curve: Any, max_featured: int = MAX_FEATURED) -> np.ndarray:
    """Indices of the hull vertices drawn in their own colour, in hull order (increasing w).

    Every vertex that is the cheapest over a stretch of w (``w_high > w_low``)
    when there are at most ``max_featured`` of them; otherwise the
    ``max_featured`` with the widest stretches of w (the thresholds that are
    cheapest over the widest range of operating conditions).  Never more than
    the palette's colours, so no two featured vertices share a colour.
    """
    edges = np.concatenate([[0.0], np.asarray(curve.breakpoints, float), [1.0]])
    width = edges[1:] - edges[:-1]
    owning = np.flatnonzero(width > 0)
    cap = max(0, min(int(max_featured), len(COLORS)))
    if owning.size > cap:
        order = np.argsort(-width[owning], kind="stable")[:cap]
        owning = owning[order]
    return np.sort(owning)


def _vertex_colors(curve: Any, featured: np.ndarray) -> dict:
    """Hull index -> colour for the featured vertices: palette colours in w order, none repeated."""
    return {int(i): color_for(k) for k, i in enumerate(featured)}


OTHER_VERTEX_COLOR = "#777"


def hull_figure(roc: Any, curve: Any, *, max_featured: int = MAX_FEATURED, height: int = 400) -> "go.Figure":
    """ROC curve with its upper convex hull; the featured hull vertices each in their own colour.

    The featured vertices (:func:`featured_vertices`) have the colours of their
    cost lines in :func:`envelope_figure` and one legend entry each; the other
    vertices (long hulls) are small grey markers, described in the hover.

    Returns
    -------
    Figure
        ``meta`` kinds: ``"roc"``, ``"hull"`` (the hull polygon) and
        ``["hull-vertex", i, featured]`` (one trace per vertex; ``featured`` is
        True for a vertex in its own colour).
    """
    fig = go.Figure()
    _chance(fig)
    _roc_line(fig, roc, color="#9ab", width=1.4)
    hf = np.asarray(curve.hull_fpr, float)
    ht = np.asarray(curve.hull_tpr, float)
    fig.add_trace(go.Scatter(x=hf, y=ht, mode="lines", line=dict(color="#333", width=2),
                             name="upper convex hull", meta=["hull"], hoverinfo="skip"))
    edges = np.concatenate([[0.0], np.asarray(curve.breakpoints, float), [1.0]])
    featured = featured_vertices(curve, max_featured)
    colors = _vertex_colors(curve, featured)
    others_shown = False
    for i, t in enumerate(curve.hull_thresholds):
        where = (f"cheapest for w in [{edges[i]:.4f}, {edges[i + 1]:.4f}]" if edges[i + 1] > edges[i]
                 else f"cheapest only at w = {edges[i]:.4g}")
        star = i in colors
        if star:
            marker = dict(color=colors[i], size=13, line=dict(color="white", width=1))
            name, legend, group = f"threshold {_thr(t)}: {where}", True, None
        else:
            marker = dict(color=OTHER_VERTEX_COLOR, size=6, line=dict(color="white", width=0.5))
            name, legend, group = "other hull vertices (hover for each)", not others_shown, "other-vertices"
            others_shown = True
        fig.add_trace(go.Scatter(
            x=[hf[i]], y=[ht[i]], mode="markers", marker=marker, name=name, showlegend=legend,
            legendgroup=group, meta=["hull-vertex", i, bool(star)],
            hovertemplate=(f"hull vertex, threshold {_thr(t)}<br>FPR %{{x:.4f}}, TPR %{{y:.4f}}<br>"
                           f"{where}<extra></extra>"),
        ))
    _roc_axes(fig)
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height)
    return fig


def envelope_figure(roc: Any, curve: Any, *, max_lines: int = MAX_COST_LINES, max_featured: int = MAX_FEATURED,
                    height: int = 400) -> "go.Figure":
    """A readable set of cost lines and their lower envelope (the cost curve).

    Drawn, whatever the size of the data:

    * the lower envelope, exactly, as a wide grey band (one trace);
    * the cost line of each featured hull vertex (:func:`featured_vertices`),
      from ``(0, FPR)`` to ``(1, 1 − TPR)`` (eq. 3.12), in its own palette
      colour, bold where it is the envelope, with one legend entry;
    * up to ``max_lines`` minus that many lines of other thresholds (never the
      cheapest), evenly spaced by rank among the finite thresholds that are
      not hull vertices, thin and grey in one trace (hover gives each);
    * the trivial classifiers and the breakpoints (marked; labelled with
      their values only when few and far enough apart not to overlap).

    Parameters
    ----------
    roc : RocCurve
    curve : CostCurve
        Hull vertices and breakpoints: vertex ``i`` is the envelope on
        ``[breakpoints[i − 1], breakpoints[i]]`` (with 0 and 1 at the ends).
    max_lines : int
        Cost lines drawn at most (featured vertices' and others' together).

    Returns
    -------
    Figure
        ``meta`` kinds: ``"trivial"``, ``"envelope"`` (the band),
        ``["hull-line", i]`` (featured vertex ``i``'s full line),
        ``["envelope-segment", i]`` (its bold piece of the envelope),
        ``["cost-lines", n]`` (the ``n`` other thresholds' lines, one trace) and
        ``"breakpoints"``.
    """
    fig = go.Figure()
    _trivial(fig)
    thr = np.asarray(roc.thresholds, float)
    fpr = np.asarray(roc.fpr, float)
    tpr = np.asarray(roc.tpr, float)
    edges = np.concatenate([[0.0], np.asarray(curve.breakpoints, float), [1.0]])
    hf = np.asarray(curve.hull_fpr, float)
    ht = np.asarray(curve.hull_tpr, float)
    hthr = np.asarray(curve.hull_thresholds, float)
    featured = featured_vertices(curve, min(max_featured, max_lines))
    colors = _vertex_colors(curve, featured)

    # The envelope, exact: the hull vertices' lines between consecutive breakpoints (a polyline through the
    # envelope's corners, which are the breakpoints).
    ew = edges
    owner = np.minimum(np.arange(edges.size), hf.size - 1)
    ec = ew * (1.0 - ht[owner]) + (1.0 - ew) * hf[owner]
    fig.add_trace(go.Scatter(
        x=ew, y=ec, mode="lines", line=dict(color="rgba(0,0,0,0.16)", width=11),
        name="cost curve (lower envelope: cheapest at each w)", meta=["envelope"],
        hovertemplate="w %{x:.4f}: lowest cost %{y:.4f}<extra>cost curve</extra>",
    ))

    # Other thresholds: a thinned set of lines that are never the cheapest.
    finite = np.flatnonzero(np.isfinite(thr))
    others = finite[~np.isin(thr[finite], hthr)]
    n_other = max(0, int(max_lines) - featured.size)
    idx = others[thin_indices(others.size, n_other)] if n_other else others[:0]
    xs: list = []
    ys: list = []
    text: list = []
    for k in idx:
        xs += [0.0, 1.0, None]
        ys += [fpr[k], 1.0 - tpr[k], None]
        text += [_thr(thr[k])] * 2 + [""]
    if idx.size:
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines", line=dict(color="rgba(110,110,110,0.55)", width=1),
            name="other thresholds (never the cheapest)", meta=["cost-lines", int(idx.size)], customdata=text,
            hovertemplate="threshold %{customdata}<br>w %{x:.3f}: cost %{y:.4f}<extra></extra>",
        ))

    # Featured hull vertices: the whole line thin, its piece of the envelope bold, one legend entry.
    for i in featured:
        i = int(i)
        a, b = float(edges[i]), float(edges[i + 1])
        t = _thr(hthr[i])
        color = colors[i]
        fig.add_trace(go.Scatter(
            x=[0.0, 1.0], y=[hf[i], 1.0 - ht[i]], mode="lines", line=dict(color=color, width=1.2),
            name=f"threshold {t}: cheapest for w in [{a:.4f}, {b:.4f}]", legendgroup=f"v{i}",
            meta=["hull-line", i],
            hovertemplate=f"threshold {t}<br>w %{{x:.3f}}: cost %{{y:.4f}}<extra></extra>",
        ))
        seg_w = np.array([a, b])
        seg_c = seg_w * (1.0 - ht[i]) + (1.0 - seg_w) * hf[i]
        fig.add_trace(go.Scatter(
            x=seg_w, y=seg_c, mode="lines", line=dict(color=color, width=4.5), legendgroup=f"v{i}",
            showlegend=False, name=f"threshold {t} on the envelope", meta=["envelope-segment", i],
            hovertemplate=f"threshold {t} is the cheapest here<br>w %{{x:.4f}}: cost %{{y:.4f}}<extra></extra>",
        ))

    inner = edges[1:-1]
    inner_idx = np.flatnonzero((inner > 0) & (inner < 1))
    if inner_idx.size:
        bw = inner[inner_idx]
        # The envelope at each breakpoint: the line of the vertex on its left, at its right end.
        bc = bw * (1.0 - ht[inner_idx]) + (1.0 - bw) * hf[inner_idx]
        labelled = bw.size <= MAX_LABELLED_BREAKPOINTS and (bw.size < 2 or np.min(np.diff(bw)) >= MIN_LABEL_GAP)
        fig.add_trace(go.Scatter(
            x=bw, y=bc, mode="markers+text" if labelled else "markers",
            marker=dict(color="#111", size=8 if labelled else 5, symbol="x"),
            text=[f"{v:.4f}" for v in bw] if labelled else None, textposition="top center",
            name="breakpoints w* = ΔFPR/(ΔFPR + ΔTPR)", meta=["breakpoints"],
            hovertemplate="breakpoint w* = %{x:.4f}<extra></extra>",
        ))
    _cost_axes(fig, top=0.52)
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height)
    return fig


# ---------------------------------------------------------------------------
# Section 4: bootstrap worlds
# ---------------------------------------------------------------------------


def worlds_figure(
    roc: Any,
    worlds: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    band: Any = None,
    at: Any = None,
    world_points: tuple[np.ndarray, np.ndarray] | None = None,
    height: int = 480,
) -> "go.Figure":
    """The observed ROC curve over K resampled ROC curves, with the exact bootstrap band.

    Parameters
    ----------
    roc : RocCurve
        The observed curve (bold).
    worlds : sequence of (fpr, tpr)
        Vertices of each bootstrap resample's ROC curve (thin lines).
    band : VerticalCI, optional
        Exact bootstrap pointwise band of the TPR at fixed FPR (shaded).
    at : ThresholdCI, optional
        One threshold's observed point and exact confidence rectangle.
    world_points : (fpr, tpr), optional
        The resampled ROC points at that threshold, one per world.

    Returns
    -------
    Figure
        ``meta`` kinds: ``"roc"``, ``"world"`` (one trace for all K curves,
        ``meta[1]`` = K), ``"vertical-band"``, ``"threshold-region"``,
        ``"threshold-points"`` and ``"world-points"``.
    """
    fig = go.Figure()
    _chance(fig)
    if band is not None:
        fpr = np.asarray(band.fpr, float)
        fig.add_trace(go.Scatter(
            x=np.concatenate([fpr, fpr[::-1]]),
            y=np.concatenate([np.asarray(band.tpr_high, float), np.asarray(band.tpr_low, float)[::-1]]),
            fill="toself", fillcolor="rgba(0,114,178,0.13)", line=dict(width=0), mode="lines",
            name=f"exact bootstrap band ({_percent(band.confidence_level)} {method_name(band.method)}, TPR at "
                 "each FPR)",
            meta=["vertical-band"], hoverinfo="skip",
        ))
    xs: list = []
    ys: list = []
    for f, t in worlds:
        f = np.asarray(f, float)
        t = np.asarray(t, float)
        # Step curve drawn as explicit corners (one trace for all worlds).
        sx = np.repeat(f, 2)[1:]
        sy = np.repeat(t, 2)[:-1]
        xs += list(sx) + [None]
        ys += list(sy) + [None]
    k = len(worlds)
    if k:
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines", line=dict(color=f"rgba({WORLD_RGB},0.35)", width=1),
            name=f"{k} bootstrap worlds (resampled ROC curves)", meta=["world", k], hoverinfo="skip",
        ))
    _roc_line(fig, roc, name="observed ROC curve", color=ROC_COLOR, width=2.6)
    if at is not None:
        add_threshold_ci(fig, at, name="", color_index=0)
    if world_points is not None:
        wf, wt = (np.asarray(v, float) for v in world_points)
        fig.add_trace(go.Scatter(
            x=wf, y=wt, mode="markers", marker=dict(color=f"rgba({WORLD_RGB},0.55)", size=7, symbol="circle"),
            name=f"the {wf.size} worlds' points at threshold {_thr(at.thresholds[0]) if at is not None else ''}",
            meta=["world-points"], hovertemplate="a world's point: FPR %{x:.4f}, TPR %{y:.4f}<extra></extra>",
        ))
    _roc_axes(fig)
    _base_layout(fig, title=None, height=height)
    _legend_below(fig, plot_height=height)
    return fig


def worlds_law_figure(values: np.ndarray, exact: tuple[np.ndarray, np.ndarray], *, axis: str = "TPR",
                      height: int = 240) -> "go.Figure":
    """How often each value of TPR* occurred among the K worlds, beside its exact bootstrap law.

    Parameters
    ----------
    values : ndarray of shape (K,)
        The resampled rates, one per world.
    exact : (values, probabilities)
        The exact law, e.g. ``ThresholdCI.distribution(0, "tpr")``.
    axis : str
        Axis name for the labels.

    Returns
    -------
    Figure
        ``meta`` kinds: ``"world-share"`` (bars: share of the K worlds at
        each value) and ``"exact-law"`` (markers: exact probabilities).
    """
    v = np.asarray(values, float)
    uniq, counts = np.unique(v, return_counts=True)
    ev, ep = (np.asarray(a, float) for a in exact)
    keep = ep > 1e-6
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=uniq, y=counts / max(v.size, 1), marker=dict(color=f"rgba({WORLD_RGB},0.55)"),
        name=f"share of the {v.size} worlds", meta=["world-share"], customdata=counts,
        hovertemplate=f"{axis}* = %{{x:.4f}}: %{{customdata}} worlds (%{{y:.3f}})<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=ev[keep], y=ep[keep], mode="markers+lines" if np.count_nonzero(keep) <= 60 else "lines",
        line=dict(color=ROC_COLOR, width=1 if np.count_nonzero(keep) <= 60 else 2),
        marker=dict(color=ROC_COLOR, size=7), name="exact bootstrap probability (infinitely many worlds)",
        meta=["exact-law"], hovertemplate=f"{axis}* = %{{x:.4f}}: probability %{{y:.4f}}<extra></extra>",
    ))
    fig.update_xaxes(title_text=f"{axis} in a bootstrap world", **_AXIS)
    fig.update_yaxes(title_text="share / probability", rangemode="tozero", **_AXIS)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(bargap=0.05)
    _legend_below(fig, plot_height=height)
    return fig


# ---------------------------------------------------------------------------
# Section 5: threshold vs vertical averaging
# ---------------------------------------------------------------------------


def averaging_figures(roc: Any, threshold_ci: Any, vertical_ci: Any, *, height: int = 420):
    """Two ROC figures: rectangles at fixed thresholds, and vertical bars at fixed FPR.

    Returns
    -------
    (Figure, Figure)
        Built with :func:`rocci.plots.roc_figure`, then
        :func:`rocci.plots.add_threshold_ci` (``"threshold-region"``) and
        :func:`rocci.plots.add_vertical_ci` (``"vertical-bars"``).
    """
    left = roc_figure({"ROC": roc}, height=height)
    add_threshold_ci(left, threshold_ci, name="", color_index=0)
    right = roc_figure({"ROC": roc}, height=height)
    add_vertical_ci(right, vertical_ci, style="bars", name="", color_index=0)
    for fig in (left, right):
        _legend_below(fig, plot_height=height)
    return left, right
