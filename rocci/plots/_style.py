"""Shared style of every figure: one colour, dash and marker per model, layout, hover text."""

from __future__ import annotations

import html
from typing import Any, Mapping

import numpy as np

try:  # pragma: no cover - exercised only when plotly is missing
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots needs plotly: pip install plotly") from exc

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


def _frame(curve: Any) -> Any:
    """A curve's table: a result's ``to_frame()`` (``rocci.gain_curve``, ``rocci.pr_curve``, …), or the frame
    itself (what those functions returned before rocci 0.3, and what the dashboard caches)."""
    return curve.to_frame() if hasattr(curve, "to_frame") else curve


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


