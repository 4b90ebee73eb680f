"""Plotly figure builders for cost curves (:mod:`rocci.cost` results).

Like :mod:`rocci.plots`, nothing here computes a statistic: envelopes, cost
lines, intervals and comparisons come from :class:`~rocci.CostCurve`,
:class:`~rocci.CostCI` and :class:`~rocci.CostComparison` as they are.  The
only arithmetic is drawing arithmetic: joining a cost line's two end points,
drawing an iso-performance line of slope ``(1 − w)/w`` through a ROC point,
and finding the runs of drawn operating points where an interval lies on one
side of 0 (:func:`sign_runs`).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ._style import _base_layout, _percent, _rgba, _text, color_for, compact_indices, dash_for, method_name, style_index

try:  # pragma: no cover
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots.cost needs plotly: pip install plotly") from exc

__all__ = ["cost_figure", "roc_hull_figure", "delta_cost_figure", "sign_runs", "interval_text"]

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")


def interval_text(level: float, method: str, bootstrap: str) -> str:
    """'95% Agresti–Coull, stratified exact bootstrap'."""
    return f"{_percent(level)} {method_name(method)}, {bootstrap} exact bootstrap"


def _thr(t: float) -> str:
    t = float(t)
    if np.isinf(t):
        return "+∞ (all negative)" if t > 0 else "−∞ (all positive)"
    return f"{t:.6g}"


def cost_figure(
    envelopes: Mapping[str, Any],
    *,
    bands: Mapping[str, Any] | None = None,
    lines: Mapping[str, Any] | None = None,
    current: Mapping[str, Any] | None = None,
    operating_range: tuple[str, Any] | list | None = None,
    height: int = 560,
    title: str | None = None,
    colors: Mapping[str, int] | None = None,
) -> "go.Figure":
    """The cost-curve chart: x = operating point w, y = normalised expected cost.

    Parameters
    ----------
    envelopes : mapping name -> CostCurve
        Drawn bold (the lower envelope), one colour per model; evaluate it at
        its breakpoints as well as a grid so the corners are exact.
    bands : mapping name -> CostCI, optional
        Pointwise interval band of the envelope (the optimal threshold at each w).
    lines : mapping name -> CostCI, optional
        Cost lines of chosen thresholds: a CostCI at w = 0, 1, 0, 1, … with each
        threshold repeated twice (the line joins its two end points).
    current : mapping name -> CostCI, optional
        The interval at the current operating point (one w); drawn as a vertical
        line, a marker and an error bar.
    operating_range : list of (name, (w_low, w_high) or None), optional
        Where each model beats both trivial classifiers: a bar in the model's
        colour under the zero line (one model's range is also shaded); one
        pair alone is accepted too.
    colors : mapping name -> int, optional
        Each model's style index (:func:`rocci.plots.style_index`), so a model keeps its colour and
        dash on every chart; default: the order of ``envelopes``.
    """
    fig = go.Figure()
    # Trivial classifiers: "always negative" costs w, "always positive" costs 1 − w.
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[0, 1], mode="lines", name="trivial: always negative (cost w)",
        line=dict(color="#777", dash="dash", width=1.2), meta=["trivial", "negative"],
        hovertemplate="always negative<br>w %{x:.2f}: cost %{y:.3f}<extra></extra>", legendrank=900,
    ))
    fig.add_trace(go.Scatter(
        x=[0, 1], y=[1, 0], mode="lines", name="trivial: always positive (cost 1 − w)",
        line=dict(color="#777", dash="dashdot", width=1.2), meta=["trivial", "positive"],
        hovertemplate="always positive<br>w %{x:.2f}: cost %{y:.3f}<extra></extra>", legendrank=901,
    ))
    names = list(envelopes)
    # Zoom on the curves (the trivial triangle peaks at 0.5; good models cost far less).
    tops = [np.max(np.asarray(e.cost, float)) for e in envelopes.values()]
    tops += [np.max(np.asarray(b.cost_high, float)) for b in (bands or {}).values()]
    top = min(0.52, max(0.1, 1.25 * max(tops, default=0.5)))
    bottom = -0.005
    if operating_range is not None:
        pairs = [operating_range] if isinstance(operating_range, tuple) else list(operating_range)
        pairs = [(name, rng) for name, rng in pairs if rng is not None]
        for k, (name, rng) in enumerate(pairs):
            color = color_for(style_index(name, names.index(name), colors)) if name in names else "#555555"
            if len(pairs) == 1:  # one model: shade its range (two would tint everything)
                fig.add_vrect(x0=float(rng[0]), x1=float(rng[1]), fillcolor=_rgba(color, 0.07), line_width=0,
                              layer="below")
            level = -(0.03 + 0.035 * k) * top  # a bar per model under the w axis's zero line
            bottom = min(bottom, level - 0.025 * top)
            label = f"operating range of {_text(name)}: w {float(rng[0]):.3f}–{float(rng[1]):.3f}"
            fig.add_trace(go.Scatter(
                x=[float(rng[0]), float(rng[1])], y=[level, level], mode="lines+markers",
                line=dict(color=color, width=4), marker=dict(symbol="line-ns-open", size=10, color=color),
                name=label, meta=["operating-range", str(name)],
                hovertemplate=f"{label} (beats both trivial classifiers)<extra></extra>",
            ))
    for i, name in enumerate(names):
        color = color_for(style_index(name, i, colors))
        band = (bands or {}).get(name)
        if band is not None:
            w = np.asarray(band.w, dtype=float)
            label = f"{_text(name)}: {interval_text(band.confidence_level, band.method, band.bootstrap)} band"
            fig.add_trace(go.Scatter(
                x=np.concatenate([w, w[::-1]]),
                y=np.concatenate([np.asarray(band.cost_high, float), np.asarray(band.cost_low, float)[::-1]]),
                fill="toself", fillcolor=_rgba(color, 0.15), line=dict(width=0), mode="lines",
                name=label, legendgroup=f"m{i}", hoverinfo="skip", meta=["cost-band", str(name)],
            ))
            fig.add_trace(go.Scatter(
                x=w, y=np.asarray(band.cost, float), mode="markers", marker=dict(size=6, color="rgba(0,0,0,0)"),
                showlegend=False, legendgroup=f"m{i}", meta=["cost-band-hover", str(name)],
                customdata=np.column_stack([
                    [_thr(t) for t in band.threshold], np.asarray(band.cost_low, float),
                    np.asarray(band.cost_high, float), *_roc_points(envelopes[name], band.threshold)]).astype(object),
                hovertemplate=(f"<b>{_text(name)}</b><br>w %{{x:.2f}}: cost %{{y:.4f}}<br>"
                               f"{_percent(band.confidence_level)} interval [%{{customdata[1]:.4f}}, "
                               "%{customdata[2]:.4f}]<br>threshold: score ≥ %{customdata[0]}<br>"
                               "its ROC point: FPR %{customdata[3]:.4f}, TPR %{customdata[4]:.4f}<br>"
                               "(click to show it in the ROC view)<extra></extra>"),
            ))
        sel = (lines or {}).get(name)
        if sel is not None:
            w = np.asarray(sel.w, dtype=float)
            c = np.asarray(sel.cost, dtype=float)
            xs, ys, thr = [], [], []
            for k in range(0, len(w) - 1, 2):
                xs += [w[k], w[k + 1], None]
                ys += [c[k], c[k + 1], None]
                thr += [_thr(sel.threshold[k])] * 2 + [""]
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines", line=dict(color=color, width=0.9), opacity=0.55,
                name=f"{_text(name)}: cost lines of {len(w) // 2} thresholds", legendgroup=f"m{i}",
                meta=["cost-lines", str(name)], customdata=thr,
                hovertemplate="threshold: score ≥ %{customdata}<br>w %{x:.2f}: cost %{y:.4f}<extra></extra>",
            ))
        env = envelopes[name]
        roc_x, roc_y = _roc_points(env, env.threshold)
        template = (f"<b>{_text(name)}</b><br>w %{{x:.3f}}: cost %{{y:.4f}}<br>"
                    "optimal threshold: score ≥ %{customdata[0]}<br>its ROC point: FPR %{customdata[1]:.4f}, "
                    "TPR %{customdata[2]:.4f}<extra></extra>")
        fig.add_trace(go.Scatter(
            x=np.asarray(env.w, float), y=np.asarray(env.cost, float), mode="lines",
            line=dict(color=color, width=3, dash=dash_for(style_index(name, i, colors))),
            name=f"{_text(name)}: cost curve (lower envelope)",
            legendgroup=f"m{i}", meta=["envelope", str(name)],
            customdata=np.column_stack([[_thr(t) for t in env.threshold], roc_x, roc_y]).astype(object),
            # With a band, its markers (same w, same cost) carry the hover and the click.
            hovertemplate=None if band is not None else template,
            hoverinfo="skip" if band is not None else None,
        ))
    if current:
        first = next(iter(current.values()))
        w0 = float(first.w[0])
        fig.add_vline(x=w0, line=dict(color="#222", width=1.2, dash="dot"),
                      annotation_text=f"w = {w0:.3f}", annotation_position="top")
        for i, name in enumerate(names):
            cur = current.get(name)
            if cur is None:
                continue
            cost = float(cur.cost[0])
            fig.add_trace(go.Scatter(
                x=[w0], y=[cost], mode="markers",
                marker=dict(color=color_for(style_index(name, i, colors)), size=11, symbol="diamond",
                            line=dict(color="white", width=1)),
                error_y=dict(type="data", symmetric=False, array=[float(cur.cost_high[0]) - cost],
                             arrayminus=[cost - float(cur.cost_low[0])], color=color_for(style_index(name, i, colors)),
                             thickness=2, width=6),
                name=f"{_text(name)} at w = {w0:.3f}: threshold {_thr(cur.threshold[0])}, cost {cost:.4f}",
                legendgroup=f"m{i}", meta=["current", str(name)],
                hovertemplate=(f"<b>{_text(name)}</b> at w = {w0:.3f}<br>threshold: score ≥ {_thr(cur.threshold[0])}"
                               f"<br>cost {cost:.4f}, {interval_text(cur.confidence_level, cur.method, cur.bootstrap)}"
                               f" [{float(cur.cost_low[0]):.4f}, {float(cur.cost_high[0]):.4f}]<extra></extra>"),
            ))
    fig.update_xaxes(title_text="Operating point w", range=[-0.01, 1.01], **_AXIS)
    fig.update_yaxes(title_text="Normalised expected cost", range=[bottom, top], **_AXIS)
    _base_layout(fig, title=title, height=height)
    fig.update_layout(legend=dict(y=-0.26), margin=dict(b=70))
    return fig


def _roc_points(curve: Any, thresholds) -> tuple[np.ndarray, np.ndarray]:
    """The ROC points (hull vertices of a CostCurve) of optimal thresholds: a look-up
    in ``hull_thresholds``; ``+inf`` (everything negative) is (0, 0)."""
    hull_t = np.asarray(curve.hull_thresholds, float)
    hull_x, hull_y = np.asarray(curve.hull_fpr, float), np.asarray(curve.hull_tpr, float)
    thresholds = np.asarray(thresholds, float)
    x, y = np.full(thresholds.size, np.nan), np.full(thresholds.size, np.nan)
    for k, t in enumerate(thresholds):
        hit = np.flatnonzero(hull_t == t)
        if hit.size:
            x[k], y[k] = hull_x[hit[0]], hull_y[hit[0]]
        elif t == np.inf:
            x[k], y[k] = 0.0, 0.0
    return x, y


def roc_hull_figure(roc: Any, curve: Any, *, w: float, vertex: int, name: str = "", height: int = 420,
                    color_index: int = 0) -> "go.Figure":
    """Small ROC view linked to the cost chart.

    Parameters
    ----------
    roc : RocCurve
        The empirical curve (thin step line).
    curve : CostCurve
        Its ``hull_fpr``, ``hull_tpr`` give the ROC convex hull.
    w : float
        The current operating point: the iso-performance line has slope ``(1 − w)/w``.
    vertex : int
        Index of the hull vertex that is optimal at ``w``.
    color_index : int
        The model's style index (its colour on every chart).
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(color="#9a9a9a", dash="dot", width=1),
                             name="chance", hoverinfo="skip", meta=["chance"]))
    fpr = np.asarray(roc.fpr, float)
    tpr = np.asarray(roc.tpr, float)
    idx = compact_indices(fpr, tpr)
    fig.add_trace(go.Scatter(x=fpr[idx], y=tpr[idx], mode="lines", line_shape="hv",
                             line=dict(color="#9ab", width=1.2), name=f"ROC {_text(name)}".strip(),
                             hoverinfo="skip", meta=["roc", str(name)]))
    hf = np.asarray(curve.hull_fpr, float)
    ht = np.asarray(curve.hull_tpr, float)
    fig.add_trace(go.Scatter(
        x=hf, y=ht, mode="lines+markers", line=dict(color=color_for(color_index), width=2.2), marker=dict(size=5),
        name="convex hull", meta=["hull", str(name)], customdata=[_thr(t) for t in curve.hull_thresholds],
        hovertemplate="threshold: score ≥ %{customdata}<br>FPR %{x:.4f}, TPR %{y:.4f}<extra></extra>",
    ))
    x0, y0 = float(hf[vertex]), float(ht[vertex])
    if w > 0:
        slope = (1.0 - w) / w
        xs = np.array([-1.0, 2.0])
        ys = y0 + slope * (xs - x0)
        if slope > 1e6:
            xs, ys = np.array([x0, x0]), np.array([-1.0, 2.0])
    else:
        xs, ys = np.array([x0, x0]), np.array([-1.0, 2.0])
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="#222222", dash="dash", width=1.5),
                             name="iso-performance line, slope (1 − w)/w", hoverinfo="skip",
                             meta=["iso"]))
    fig.add_trace(go.Scatter(
        x=[x0], y=[y0], mode="markers", marker=dict(color="#222222", size=12, symbol="diamond"),
        name=f"optimal at w = {w:.3f}: threshold {_thr(curve.hull_thresholds[vertex])}", meta=["selected"],
        hovertemplate=f"threshold: score ≥ {_thr(curve.hull_thresholds[vertex])}<br>FPR %{{x:.4f}}, TPR %{{y:.4f}}"
                      "<extra></extra>",
    ))
    fig.update_xaxes(title_text="False-positive rate", range=[-0.01, 1.01], constrain="domain", **_AXIS)
    fig.update_yaxes(title_text="True-positive rate", range=[-0.01, 1.01], scaleanchor="x", scaleratio=1,
                     constrain="domain", **_AXIS)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(legend=dict(y=-0.2), margin=dict(l=50, r=10, t=10, b=50))
    return fig


def sign_runs(w, low, high) -> list[tuple[float, float, str]]:
    """Runs of consecutive drawn operating points where ``high < 0`` ("a") or ``low > 0`` ("b").

    Returns ``[(w_first, w_last, side), …]``: ``side`` names the cheaper model,
    "a" when the whole interval of ``ΔC = C_a − C_b`` (:func:`rocci.compare_cost`,
    A − B) is below 0, "b" when above.
    """
    w = np.asarray(w, float)
    side = np.where(np.asarray(high, float) < 0, "a", np.where(np.asarray(low, float) > 0, "b", ""))
    runs: list[tuple[float, float, str]] = []
    start = None
    for k in range(len(w) + 1):
        cur = side[k] if k < len(w) else ""
        if start is not None and (k == len(w) or cur != side[start]):
            runs.append((float(w[start]), float(w[k - 1]), str(side[start])))
            start = None
        if k < len(w) and cur and start is None:
            start = k
    return runs


def delta_cost_figure(cmp: Any, *, name_a: str, name_b: str, current_w: float | None = None,
                      height: int = 420) -> "go.Figure":
    """ΔC = cost of a − cost of b across w (A − B: below 0 where a is cheaper), its interval band,
    where the band excludes 0, and the exact ``P(a cheaper)`` in the hover."""
    fig = go.Figure()
    w = np.asarray(cmp.w, float)
    lo = np.asarray(cmp.delta_cost_low, float)
    hi = np.asarray(cmp.delta_cost_high, float)
    d = np.asarray(cmp.delta_cost, float)
    level = interval_text(cmp.confidence_level, cmp.method, cmp.bootstrap)
    for w0, w1, side in sign_runs(w, lo, hi):
        cheaper = name_b if side == "b" else name_a
        fig.add_vrect(x0=w0, x1=w1 if w1 > w0 else w0 + 0.004,
                      fillcolor="rgba(214,39,40,0.10)" if side == "b" else "rgba(31,119,180,0.10)",
                      line_width=0, layer="below")
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", hoverinfo="skip",
                                 marker=dict(symbol="square", size=12,
                                             color="rgba(214,39,40,0.3)" if side == "b" else "rgba(31,119,180,0.3)"),
                                 name=f"w {w0:.2f}–{w1:.2f}: {_text(cheaper)} cheaper", meta=["excludes-zero", side]))
    fig.add_trace(go.Scatter(
        x=np.concatenate([w, w[::-1]]), y=np.concatenate([hi, lo[::-1]]), fill="toself",
        fillcolor="rgba(120,120,120,0.22)", line=dict(width=0), mode="lines", hoverinfo="skip",
        name=f"{level} band", meta=["delta-band"],
    ))
    fig.add_trace(go.Scatter(
        x=w, y=d, mode="lines", line=dict(color="#333", width=2.2),
        name=f"ΔC = cost of {_text(name_a)} − cost of {_text(name_b)}", meta=["delta"],
        customdata=np.column_stack([lo, hi, np.asarray(cmp.p_a_cheaper, float)]),
        hovertemplate=("w %{x:.2f}: ΔC %{y:.4f}<br>interval [%{customdata[0]:.4f}, %{customdata[1]:.4f}]<br>"
                       f"P({_text(name_a)} cheaper) %{{customdata[2]:.3f}}<extra></extra>"),
    ))
    fig.add_hline(y=0, line=dict(color="#444", width=1))
    if current_w is not None:
        fig.add_vline(x=float(current_w), line=dict(color="#222", width=1.2, dash="dot"))
    fig.update_xaxes(title_text="Operating point w", range=[-0.01, 1.01], **_AXIS)
    fig.update_yaxes(title_text=f"ΔC = {_text(name_a)} − {_text(name_b)} (below 0: {_text(name_a)} cheaper)",
                     **_AXIS)
    _base_layout(fig, title=None, height=height)
    fig.update_layout(legend=dict(y=-0.2))
    return fig
