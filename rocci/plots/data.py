"""The Data page's figure: score histograms per class and model."""

from __future__ import annotations

from typing import Mapping

import numpy as np

try:  # pragma: no cover - exercised only when plotly is missing
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots needs plotly: pip install plotly") from exc

from ._style import _text


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
    is_positive = np.asarray(is_positive, dtype=bool)
    panels = {}
    for name in scores:
        s = np.asarray(scores[name], dtype=float)
        panels[name] = ((s[is_positive], None), (s[~is_positive], None))
    return _histogram_panels(panels, positive_name=positive_name, negative_name=negative_name, bins=bins,
                             height_per_model=height_per_model, normalize=normalize)


def count_histograms(
    tables: Mapping[str, tuple],
    *,
    positive_name: str = "positives",
    negative_name: str = "negatives",
    bins: int = 40,
    height_per_model: int = 260,
    normalize: bool = False,
) -> go.Figure:
    """:func:`score_histograms` from tables of counts: each distinct score weighted by its instances.

    Parameters
    ----------
    tables : mapping of model name -> (values, n_pos, n_neg)
        Each model's distinct scores with the numbers of positives and negatives at
        each (``ScoreCounts.table()``); nothing is expanded to one value per instance.
    positive_name, negative_name, bins, height_per_model, normalize
        As in :func:`score_histograms`.

    Returns
    -------
    plotly.graph_objects.Figure
        The same figure as :func:`score_histograms` on the instances the counts stand for.
    """
    panels = {}
    for name, (values, n_pos, n_neg) in tables.items():
        v = np.asarray(values, dtype=float)
        panels[name] = ((v, np.asarray(n_pos, dtype=float)), (v, np.asarray(n_neg, dtype=float)))
    return _histogram_panels(panels, positive_name=positive_name, negative_name=negative_name, bins=bins,
                             height_per_model=height_per_model, normalize=normalize)


def _histogram_panels(panels: Mapping[str, tuple], *, positive_name: str, negative_name: str, bins: int,
                      height_per_model: int, normalize: bool) -> go.Figure:
    """One panel per model; ``panels[name] = ((pos_scores, pos_weights), (neg_scores, neg_weights))``,
    weights None for one instance per score."""
    names = list(panels)
    k = max(len(names), 1)
    fig = make_subplots(
        rows=k, cols=1, subplot_titles=[_text(n) for n in names] or None,
        vertical_spacing=min(0.16, 0.5 / k) if k > 1 else 0.0,
    )
    styles = ((_text(positive_name), "#d62728"), (_text(negative_name), "#1f77b4"))
    for row, name in enumerate(names, start=1):
        both = [x for x, w in panels[name] if x.size and (w is None or w.sum() > 0)]
        lo = float(min(np.min(x) for x in both)) if both else 0.0
        hi = float(max(np.max(x) for x in both)) if both else 1.0
        if hi <= lo:
            hi = lo + 1.0
        edges = np.linspace(lo, hi, int(bins) + 1)
        centers = 0.5 * (edges[:-1] + edges[1:])
        width = edges[1] - edges[0]
        for (x, weights), (cname, color) in zip(panels[name], styles):
            counts, _ = np.histogram(x, bins=edges, weights=weights)
            counts = np.rint(counts).astype(np.int64)
            size = int(x.size if weights is None else round(float(weights.sum())))
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
