"""Plotly figures for the coverage lab (thesis figures 4.2–4.10, 5.1–5.12).

Nothing here computes a statistic: coverage values and their Monte Carlo
standard errors come from :func:`rocci.coverage.run_experiment` as they are;
the only arithmetic is drawing arithmetic (error-bar half-widths ``1.96·se``,
the grid of panels).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np

from ._style import _percent, _text, color_for

try:  # pragma: no cover
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots.coverage needs plotly: pip install plotly") from exc

__all__ = ["coverage_figure", "SERIES_NAMES"]

#: Display names of the series produced by the experiments.
SERIES_NAMES = {
    "wilson": "Wilson (score)",
    "wald": "Wald",
    "agresti-coull": "Agresti–Coull",
    "percentile": "Exact bootstrap, percentile",
    "score": "Exact bootstrap, score interval",
    "kernel": "Kernel smoothing",
    "bootstrap": "MC percentile bootstrap (pROC)",
    "stratified": "Stratified",
    "full": "Full",
}

#: Title lines are wrapped at this many characters, so the title fits a phone-wide chart (plotly never wraps).
TITLE_WIDTH = 40

#: Panel titles of a grid of two or more columns are wrapped at this many characters (at 13 px, about 110 px a
#: line): on a 390 px phone a panel is about 125 px wide, and "10% positives (200 of 2,000)" on one line ran
#: into its neighbour.
PANEL_TITLE_WIDTH = 16
PANEL_TITLE_SIZE = 13

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")


def _series_name(series: str) -> str:
    return SERIES_NAMES.get(series, series)


def _panel_lines(panel: str, cols: int) -> list[str]:
    """A panel's title as lines: whole when the grid has one column, else wrapped at word boundaries."""
    if cols < 2 or len(panel) <= PANEL_TITLE_WIDTH:
        return [panel]
    lines = []
    for part in panel.replace(" (", "\n(").split("\n"):  # a parenthesis starts a line: "(200 of 2,000)" whole
        lines += textwrap.wrap(part, PANEL_TITLE_WIDTH, break_long_words=False, break_on_hyphens=False)
    return lines or [panel]


def coverage_figure(study, *, columns: int = 2, height_per_row: int = 260, y_range=None) -> go.Figure:
    """Coverage curves, one panel per configuration, with the target level dashed.

    Parameters
    ----------
    study : rocci.coverage.CoverageStudy
    columns : int
        Panels per row.
    y_range : (float, float), optional
        Coverage axis range; default from the data (at least target ± 0.1).

    Notes
    -----
    Simulated points carry error bars of ±1.96 Monte Carlo standard errors;
    exact values have none.  Traces carry ``meta=[kind]`` ("exact",
    "simulation" or "target").  The title is the experiment's plain name with
    the thesis figure on a second line; the legend sits under the panels, one
    entry per line, in a bottom margin sized to fit it (so it never covers the
    title or a panel, however narrow the chart).  With panels side by side, a
    panel title longer than ``PANEL_TITLE_WIDTH`` characters is wrapped at word
    boundaries (plotly never wraps, and two one-line titles such as "10%
    positives (200 of 2,000)" overlapped on a 390 px phone); the top margin
    grows by a line for it.
    """
    df = study.frame
    exp = study.experiment
    panels = list(dict.fromkeys(df["panel"]))
    series = list(dict.fromkeys(df["series"]))
    cols = max(1, min(columns, len(panels)))
    rows = max(1, math.ceil(len(panels) / cols))
    titles = [_panel_lines(p, cols) for p in panels]
    extra = 18 * (max(len(t) for t in titles) - 1)  # room above the first row for wrapped panel titles
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=["<br>".join(_text(x) for x in t) for t in titles],
                        shared_xaxes=True, shared_yaxes=True, horizontal_spacing=0.08,
                        vertical_spacing=0.12 if rows > 1 else 0.0)
    # panel titles clear of the framed axes, and small enough for two panels side by side on a phone
    fig.update_annotations(yshift=6, font=dict(size=PANEL_TITLE_SIZE))
    target = study.target
    lo = min(float(df["coverage"].min()), target - 0.1)
    hi = max(float(df["coverage"].max()), target + 0.05)
    if y_range is None:
        y_range = (max(0.0, lo - 0.02), min(1.0, hi) + 0.02)
    x_min, x_max = float(df["x"].min()), float(df["x"].max())
    for i, panel in enumerate(panels):
        r, c = i // cols + 1, i % cols + 1
        sub = df[df["panel"] == panel]
        fig.add_trace(go.Scatter(
            x=[x_min, x_max], y=[target, target], mode="lines", line=dict(color="#444", dash="dash", width=1),
            name=f"Target {_percent(target)}", legendgroup="target", showlegend=i == 0, meta=["target"],
            hoverinfo="skip"), row=r, col=c)
        for j, s in enumerate(series):
            part = sub[sub["series"] == s].sort_values("x")
            if part.empty:
                continue
            kind = str(part["kind"].iloc[0])
            simulated = kind == "simulation"
            err = dict(type="data", array=1.96 * part["se"].to_numpy(), visible=True, thickness=1, width=0,
                       color=color_for(j)) if simulated else None
            reps = part["replicates"].to_numpy()
            custom = np.column_stack([part["se"].to_numpy(), reps])
            how = ("simulated: %{customdata[1]:,} test sets, MC se %{customdata[0]:.4f}" if simulated
                   else "exact (finite sum)")
            fig.add_trace(go.Scatter(
                x=part["x"], y=part["coverage"], mode="lines+markers" if simulated else "lines",
                marker=dict(size=4), line=dict(color=color_for(j), width=1.6), error_y=err,
                name=_text(_series_name(s)), legendgroup=_text(s), showlegend=i == 0, meta=[kind],
                customdata=custom,
                hovertemplate=(f"<b>{_text(_series_name(s))}</b><br>{_text(exp.x_label)} %{{x:.3g}}"
                               f"<br>coverage %{{y:.4f}}<br>{how}<extra>{_text(panel)}</extra>"),
            ), row=r, col=c)
    fig.update_xaxes(**_AXIS)
    fig.update_yaxes(**_AXIS, range=list(y_range))
    for c in range(1, cols + 1):
        fig.update_xaxes(title_text=_text(exp.x_label), row=rows, col=c)
    if exp.x == "n":  # sample sizes: 50, 200, 1,000 read best on a log axis
        fig.update_xaxes(type="log")
    for r in range(1, rows + 1):
        fig.update_yaxes(title_text="Coverage", row=r, col=1)
    entries = sum(1 for t in fig.data if t.showlegend is not False and t.name)
    lines = textwrap.wrap(exp.title, TITLE_WIDTH) or [exp.name]
    # The title starts under the toolbar's band (about 35 px, where plotly's mode bar appears on hover or tap).
    top, bottom = 88 + 20 * len(lines) + extra, 70 + 20 * entries
    height = top + bottom + max(rows * height_per_row, 240)
    fig.update_layout(
        height=height, plot_bgcolor="white", hovermode="closest",
        margin=dict(l=60, r=20, t=top, b=bottom),
        title=dict(text="<br>".join(_text(t) for t in lines)
                   + (f"<br><sup>thesis fig. {_text(exp.figure)}</sup>" if exp.figure else ""),
                   x=0.0, xanchor="left", y=1.0 - 44 / height, yref="container", yanchor="top",
                   font=dict(size=14)),
        legend=dict(orientation="v", x=0.0, xanchor="left", y=0.0, yanchor="bottom", yref="container",
                    bgcolor="rgba(255,255,255,0.8)"),
    )
    return fig
