"""Decision curves: net benefit against the threshold probability, with each model's exact band, the
treat-all and treat-none references (:func:`rocci.net_benefit` results), and the two-model difference
(:func:`rocci.compare_net_benefit`)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import plotly.graph_objects as go

from ._style import _base_layout, _percent, _rgba, _text, color_for, dash_for, style_index

__all__ = ["decision_curve_figure", "delta_net_benefit_figure"]

_REFERENCE = "#7f7f7f"
#: The legend sits below the x axis's title (the base layout's -0.14 touches it on a phone).
_LEGEND_Y = -0.2


def _axes(fig: go.Figure, y_title: str, x_range) -> None:
    fig.update_xaxes(title_text="Threshold probability", tickformat=".0%", range=list(x_range), gridcolor="#eee",
                     zeroline=False)
    fig.update_yaxes(title_text=y_title, gridcolor="#eee", zeroline=True, zerolinecolor="#bbb")


def decision_curve_figure(results: Mapping[str, Any], *, colors: Mapping[str, int] | None = None,
                          x_range=(0.0, 1.0), y_floor: float | None = None, height: int = 460,
                          title: str | None = None, current: float | None = None) -> go.Figure:
    """Net benefit of each model with its exact bootstrap band, and the two references.

    Parameters
    ----------
    results : mapping of model name -> :class:`rocci.NetBenefit`
        On the same thresholds; the treat-all line is drawn from the first (the data's prevalence).
    colors : mapping of model name -> style index, optional
        The session's fixed colours per model.
    x_range : (float, float)
        Threshold probabilities shown.
    y_floor : float, optional
        Lowest net benefit shown (treat-all falls steeply at high thresholds); default a little below
        the lowest model band, and never above ``-0.05·max``.
    current : float, optional
        A threshold probability to mark with a vertical line (``meta[0]`` ``"current"``).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces' ``meta[0]``: ``"net-benefit"`` (a model's curve, ``meta[1]`` its name), ``"net-benefit-band"``,
        ``"treat-all"``, ``"treat-none"``.
    """
    fig = go.Figure()
    items = list(results.items())
    if not items:
        raise ValueError("decision_curve_figure needs at least one NetBenefit result")
    first = items[0][1]
    level = _percent(first.confidence_level)
    x = np.asarray(first.thresholds, float)
    fig.add_trace(go.Scatter(x=x, y=np.zeros_like(x), mode="lines", name="Treat none",
                             line=dict(color=_REFERENCE, width=1.2, dash="dot"), meta=["treat-none"],
                             hovertemplate="Treat none: 0<extra></extra>"))
    fig.add_trace(go.Scatter(x=x, y=first.treat_all, mode="lines", name="Treat all",
                             line=dict(color=_REFERENCE, width=1.6, dash="dash"), meta=["treat-all"],
                             hovertemplate="Treat all at %{x:.0%}: %{y:.4f}<extra></extra>"))
    lows = [0.0]
    highs = [float(np.nanmax(first.treat_all))]
    for position, (name, res) in enumerate(items):
        idx = style_index(name, position, colors)
        color = color_for(idx)
        label = _text(name)
        tx = np.asarray(res.thresholds, float)
        fig.add_trace(go.Scatter(x=tx, y=res.net_benefit_low, mode="lines", line=dict(width=0, color=color),
                                 showlegend=False, hoverinfo="skip", meta=["net-benefit-band", str(name), "low"]))
        fig.add_trace(go.Scatter(x=tx, y=res.net_benefit_high, mode="lines", line=dict(width=0, color=color),
                                 fill="tonexty", fillcolor=_rgba(color, 0.15),
                                 name=f"{label}: {level} exact bootstrap band", legendgroup=label,
                                 hoverinfo="skip", meta=["net-benefit-band", str(name), "high"]))
        fig.add_trace(go.Scatter(
            x=tx, y=res.net_benefit, mode="lines", name=label, legendgroup=label,
            line=dict(color=color, width=2.2, dash=dash_for(idx)), meta=["net-benefit", str(name)],
            customdata=np.column_stack([res.net_benefit_low, res.net_benefit_high, res.interventions_avoided]),
            hovertemplate=(f"{label} at %{{x:.0%}}: net benefit %{{y:.4f}} "
                           f"[%{{customdata[0]:.4f}}, %{{customdata[1]:.4f}}]<br>"
                           "%{customdata[2]:.1f} fewer interventions per 100 than treating all<extra></extra>"),
        ))
        lows.append(float(np.nanmin(res.net_benefit_low)))
        highs.append(float(np.nanmax(res.net_benefit_high)))
    top = max(highs)
    floor = min(min(lows), -0.05 * top) if y_floor is None else y_floor
    pad = 0.05 * (top - floor if top > floor else 1.0)
    _base_layout(fig, title=title, height=height)
    _axes(fig, "Net benefit", x_range)
    fig.update_yaxes(range=[floor - pad, top + pad])
    if current is not None:
        fig.add_trace(go.Scatter(x=[current, current], y=[floor - pad, top + pad], mode="lines",
                                 name=f"p = {current:.0%}", line=dict(color="#000000", width=1.2, dash="dot"),
                                 meta=["current"], hoverinfo="skip"))
    fig.update_layout(legend_y=_LEGEND_Y)
    return fig


def delta_net_benefit_figure(cmp: Any, *, name_a: str, name_b: str, x_range=(0.0, 1.0), height: int = 360,
                             title: str | None = None) -> go.Figure:
    """ΔNB = NB_a − NB_b with its exact band, and ``P(A better)`` on a second axis.

    Traces' ``meta[0]``: ``"delta-net-benefit"``, ``"delta-net-benefit-band"``, ``"p-a-better"``.
    """
    fig = go.Figure()
    x = np.asarray(cmp.thresholds, float)
    level = _percent(cmp.confidence_level)
    a, b = _text(name_a), _text(name_b)
    fig.add_trace(go.Scatter(x=x, y=cmp.delta_net_benefit_low, mode="lines", line=dict(width=0, color="#444"),
                             showlegend=False, hoverinfo="skip", meta=["delta-net-benefit-band", "low"]))
    fig.add_trace(go.Scatter(x=x, y=cmp.delta_net_benefit_high, mode="lines", line=dict(width=0, color="#444"),
                             fill="tonexty", fillcolor="rgba(68,68,68,0.15)", name=f"{level} exact bootstrap band",
                             hoverinfo="skip", meta=["delta-net-benefit-band", "high"]))
    fig.add_trace(go.Scatter(x=x, y=cmp.delta_net_benefit, mode="lines", name=f"{a} − {b}",
                             line=dict(color="#222", width=2), meta=["delta-net-benefit"],
                             customdata=np.column_stack([cmp.p_a_better, cmp.p_tie]),
                             hovertemplate=(f"%{{x:.0%}}: {a} − {b} = %{{y:.4f}}<br>P({a} better) "
                                            "%{customdata[0]:.3f}, P(tie) %{customdata[1]:.3f}<extra></extra>")))
    fig.add_trace(go.Scatter(x=x, y=cmp.p_a_better, mode="lines", name=f"P({a} better)", yaxis="y2",
                             line=dict(color="#9467bd", width=1.4, dash="dot"), meta=["p-a-better"],
                             hovertemplate=f"P({a} better) at %{{x:.0%}}: %{{y:.3f}}<extra></extra>"))
    _base_layout(fig, title=title, height=height)
    _axes(fig, f"Net benefit, {a} − {b}", x_range)
    fig.update_layout(yaxis2=dict(title="P(A better)", overlaying="y", side="right", range=[0, 1],
                                  showgrid=False, tickformat=".0%", tickvals=[0, 0.25, 0.5, 0.75, 1]),
                      legend_y=_LEGEND_Y)
    return fig
