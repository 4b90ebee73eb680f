"""Figures for comparing two models (the dashboard's Compare models page).

Like :mod:`rocci.plots`, these builders take results already computed by
rocci (:func:`rocci.compare_thresholds`, :func:`rocci.dominance_map`,
:func:`rocci.compare_vertical`) and compute no statistics.  Every trace
carries ``meta = [kind, ...]`` so tests can find it.  Text that comes from
the data (model names) is HTML-escaped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from ._style import _base_layout, _percent, _text, color_for

__all__ = ["add_pair_links", "dominance_heatmap", "delta_distribution_figure"]

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")


def add_pair_links(fig: go.Figure, cmp: Any, *, name_a: str, name_b: str) -> go.Figure:
    """Join model a's and model b's point at each threshold pair with a dotted segment.

    The pair's number is written next to model a's point; hovering the segment's
    middle shows both probabilities of dominance.  ``cmp`` is a
    :class:`rocci.compare.ThresholdComparison`.
    """
    fa, ta = np.asarray(cmp.fpr_a, float), np.asarray(cmp.tpr_a, float)
    fb, tb = np.asarray(cmp.fpr_b, float), np.asarray(cmp.tpr_b, float)
    xs: list = []
    ys: list = []
    for i in range(fa.size):
        xs += [fa[i], fb[i], None]
        ys += [ta[i], tb[i], None]
    fig.add_trace(go.Scatter(
        x=xs, y=ys, mode="lines", line=dict(color="#555", width=1, dash="dot"),
        name="threshold pairs (A ↔ B)", hoverinfo="skip", legendrank=300, meta=["pair-link"],
    ))
    labels = [str(i + 1) for i in range(fa.size)]
    custom = np.column_stack([np.asarray(cmp.p_a_dominates, float), np.asarray(cmp.p_b_dominates, float)])
    fig.add_trace(go.Scatter(
        x=(fa + fb) / 2, y=(ta + tb) / 2, mode="markers+text", text=labels, textposition="top left",
        textfont=dict(size=13, color="#222"),
        marker=dict(size=6, color="#555", symbol="diamond"), showlegend=False, customdata=custom,
        meta=["pair-label"],
        hovertemplate=(
            "<b>pair %{text}</b><br>"
            f"P({_text(name_a)} dominates) = " + "%{customdata[0]:.3f}<br>"
            f"P({_text(name_b)} dominates) = " + "%{customdata[1]:.3f}<extra></extra>"
        ),
    ))
    return fig


def dominance_heatmap(dmap: Any, *, name_a: str, name_b: str, height: int = 520) -> go.Figure:
    """Heatmap of ``p_a_dominates − p_b_dominates`` over the grid of threshold pairs.

    Rows (y) are model a's thresholds, columns (x) model b's; axes are the
    grid's positions (quantiles of each model's scores), labelled with the
    thresholds, so tied scores do not squash the map.  Blue: a dominates;
    red: b dominates; white: neither.
    """
    ta = np.asarray(dmap.thresholds_a, float)
    tb = np.asarray(dmap.thresholds_b, float)
    fa = np.asarray(dmap.p_a_dominates, float)
    fb = np.asarray(dmap.p_b_dominates, float)
    z = fa - fb
    custom = np.stack([fa, fb, np.broadcast_to(ta[:, None], fa.shape), np.broadcast_to(tb[None, :], fa.shape)],
                      axis=-1)
    a, b = _text(name_a), _text(name_b)
    fig = go.Figure(go.Heatmap(
        z=z, x=np.arange(tb.size), y=np.arange(ta.size), customdata=custom,
        colorscale="RdBu", zmin=-1.0, zmax=1.0, zmid=0.0,
        colorbar=dict(title=dict(text=f"P({a} dom.) −<br>P({b} dom.)", side="right"), tickvals=[-1, -0.5, 0, 0.5, 1]),
        meta=["dominance-map"],
        hovertemplate=(
            f"{a} threshold ≥ " + "%{customdata[2]:.4g}<br>"
            f"{b} threshold ≥ " + "%{customdata[3]:.4g}<br>"
            f"P({a} dominates) = " + "%{customdata[0]:.3f}<br>"
            f"P({b} dominates) = " + "%{customdata[1]:.3f}<extra></extra>"
        ),
    ))

    def ticks(t: np.ndarray) -> dict:
        idx = np.unique(np.linspace(0, t.size - 1, min(t.size, 8)).round().astype(int)) if t.size else []
        return dict(tickmode="array", tickvals=list(idx), ticktext=[f"{t[i]:.3g}" for i in idx])

    fig.update_xaxes(title_text=f"Threshold of {b} (quantiles of its scores)", **ticks(tb), **_AXIS)
    fig.update_yaxes(title_text=f"Threshold of {a} (quantiles of its scores)", **ticks(ta), **_AXIS)
    _base_layout(fig, title=None, height=height)
    return fig


def delta_distribution_figure(values, probabilities, *, low: float | None = None, high: float | None = None,
                              level: float | None = None, title: str | None = None, height: int = 300) -> go.Figure:
    """Bar chart of an exact bootstrap law of a difference (e.g. ΔTPR*), with its interval shaded.

    ``values`` and ``probabilities`` come from ``distribution(i)`` of a
    comparison result; only values with probability above 1e-6 are drawn.
    """
    v = np.asarray(values, float)
    p = np.asarray(probabilities, float)
    keep = p > 1e-6
    if keep.any():
        lo_i, hi_i = np.flatnonzero(keep)[[0, -1]]
        v, p = v[lo_i:hi_i + 1], p[lo_i:hi_i + 1]
    fig = go.Figure(go.Bar(x=v, y=p, marker_color=color_for(0), meta=["delta-law"], name="P(Δ = value)",
                           hovertemplate="Δ = %{x:.4f}<br>P = %{y:.4g}<extra></extra>"))
    if low is not None and high is not None:
        label = f"{_percent(level)} interval" if level is not None else "interval"
        fig.add_vrect(x0=low, x1=high, fillcolor="rgba(120,120,120,0.15)", line_width=0,
                      annotation_text=label, annotation_position="top left")
    fig.add_vline(x=0, line=dict(color="#444", width=1, dash="dash"))
    fig.update_xaxes(title_text="Difference (model A − model B)", **_AXIS)
    fig.update_yaxes(title_text="Probability", **_AXIS)
    _base_layout(fig, title=title, height=height)
    fig.update_layout(showlegend=False, bargap=0.05)
    return fig
