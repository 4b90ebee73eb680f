"""Plotly figure builders for the threshold explorer (:mod:`rocci.confusion.explorer` results).

Like :mod:`rocci.plots`, nothing here computes a statistic: the curves come
from :func:`rocci.gain_curve`, :func:`rocci.pr_curve` (``interpolate=False``) and
:func:`rocci.reading_curve` as they are (the results or their ``to_frame()``), and the current threshold's point
and intervals from a :class:`rocci.Confusion`.  The only arithmetic is
drawing arithmetic: choosing which vertices of a long curve to draw
(:func:`curve_indices`), the reference lines (chance, an ideal model, the
share of positives), and the substitution rate's interval drawn as one minus
the precision's.

Text that comes from the user's data (model names) is HTML-escaped before it
reaches plotly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._style import (MAX_CURVE_POINTS, _base_layout, _frame, _percent, _text, _threshold_text, color_for,
                     compact_indices)

try:  # pragma: no cover
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover
    raise ImportError("rocci.plots.explore needs plotly: pip install plotly") from exc

__all__ = ["curve_indices", "gain_figure", "pr_figure", "reading_figure"]

_AXIS = dict(showgrid=True, gridcolor="#eeeeee", zeroline=False, showline=True, linecolor="#444",
             mirror=True, ticks="outside")
_CURRENT = "#111111"


def curve_indices(x, y, *, max_points: int = MAX_CURVE_POINTS) -> np.ndarray:
    """Indices of the vertices of a long curve worth drawing.

    :func:`rocci.plots.compact_indices` keeps the first and last vertex of
    each run of vertices in one cell of a grid (every corner visible at the
    grid's resolution).  A curve that is not monotone (precision–recall,
    reading rate) can cross many cells; if more than ``max_points`` vertices
    remain, every ``s``-th of them is kept (with the first and the last).

    Returns
    -------
    ndarray of int, increasing
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    idx = compact_indices(np.nan_to_num(x), np.nan_to_num(y), max_points=max_points)
    if idx.size > max_points:
        step = int(np.ceil(idx.size / max_points))
        keep = idx[::step]
        idx = np.union1d(keep, [idx[0], idx[-1]])
    return idx


def _drawn(idx: np.ndarray, total: int) -> str:
    return "" if idx.size == total else f" ({idx.size} of {total} points drawn)"


def _interval(current: Any, intervals: Any, name: str) -> tuple[float, float]:
    """``(low, high)`` of one indicator: from ``intervals`` (a mapping indicator -> (low, high), e.g. the exact
    bootstrap intervals of :func:`rocci.precision.metric_ci`) when it has it, else ``current.interval(name)``."""
    if intervals is not None and name in intervals:
        low, high = intervals[name]
        return float(low), float(high)
    ci = current.interval(name)
    return float(ci.low), float(ci.high)


def _interval_text(current: Any) -> str:
    return f"{_percent(current.confidence_level)} intervals"


def _current_trace(x, y, *, x_int, y_int, name: str, text: str, hover: str) -> "go.Scatter":
    """The current threshold's point with its intervals as error bars."""
    x_lo, x_hi = x_int
    y_lo, y_hi = y_int
    kw: dict = {}
    if np.isfinite([x, x_lo, x_hi]).all():
        kw["error_x"] = dict(type="data", symmetric=False, array=[x_hi - x], arrayminus=[x - x_lo],
                             color=_CURRENT, thickness=1.4, width=4)
    if np.isfinite([y, y_lo, y_hi]).all():
        kw["error_y"] = dict(type="data", symmetric=False, array=[y_hi - y], arrayminus=[y - y_lo],
                             color=_CURRENT, thickness=1.4, width=4)
    return go.Scatter(
        x=[x], y=[y], mode="markers",
        marker=dict(color=_CURRENT, size=12, symbol="diamond", line=dict(color="white", width=1.5)),
        name=f"current threshold ({text})", meta=["current", name], legendrank=50,
        hovertemplate=hover + "<extra></extra>", hoverlabel=dict(bgcolor="white"), **kw,
    )


def _add_curve(fig: "go.Figure", frame: Any, x_col: str, y_col: str, extra: tuple, *, kind: str, name: str,
               label: str, color_index: int, max_points: int, markers: bool, hover: str) -> None:
    """One model's curve from ``frame``'s columns; ``customdata`` = threshold text, then ``extra`` columns."""
    frame = _frame(frame)
    x = np.asarray(frame[x_col], dtype=float)
    y = np.asarray(frame[y_col], dtype=float)
    idx = curve_indices(x, y, max_points=max_points)
    custom = np.column_stack(
        [_threshold_text(np.asarray(frame["threshold"], dtype=float)[idx])]
        + [np.asarray(frame[c])[idx] for c in extra]
    ).astype(object)
    fig.add_trace(go.Scatter(
        x=x[idx], y=y[idx], mode="lines+markers" if markers and idx.size <= 200 else "lines",
        line=dict(color=color_for(color_index), width=2.2), marker=dict(size=5),
        name=(_text(name) or label) + _drawn(idx, x.size), meta=[kind, str(name)], legendrank=100,
        customdata=custom,
        hovertemplate="<b>threshold: score ≥ %{customdata[0]}</b><br>" + hover + "<extra></extra>",
    ))


def _layout(fig: "go.Figure", height: int) -> None:
    _base_layout(fig, title=None, height=height)
    fig.update_layout(margin=dict(l=60, r=20, t=20, b=120),
                      legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0.0))


def _thr(t: float) -> str:
    return str(_threshold_text(np.asarray([t], dtype=float))[0])


def gain_figure(gain: Any, *, current: Any = None, intervals: Any = None, name: str = "", color_index: int = 0,
                max_points: int = MAX_CURVE_POINTS, height: int = 460) -> "go.Figure":
    """Gain chart: recall (y) against the share of instances predicted positive (x).

    Parameters
    ----------
    gain : :func:`rocci.gain_curve`'s result or its ``to_frame()``
    current : Confusion, optional
        The current threshold, drawn as a diamond with its total positive
        rate and recall intervals; also gives the ideal model's line (recall
        1 once ``n+/n`` of the instances are targeted).
    intervals : mapping of indicator -> (low, high), optional
        The current point's intervals ("total_positive_rate", "recall"); default ``current.interval``.
    name : str
        Model name.
    max_points : int
        Longer curves are drawn from :func:`curve_indices`.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces with ``meta[0]`` "chance", "ideal", "gain", "current".
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="chance (random targeting)",
                             line=dict(color="#9a9a9a", dash="dot", width=1), hoverinfo="skip",
                             meta=["chance"], legendrank=1000))
    if current is not None:
        share = current.n_pos / current.n
        fig.add_trace(go.Scatter(x=[0, share, 1], y=[0, 1, 1], mode="lines", name="ideal model",
                                 line=dict(color="#2ca02c", dash="dash", width=1), hoverinfo="skip",
                                 meta=["ideal"], legendrank=999))
    _add_curve(fig, gain, "total_positive_rate", "recall", ("n_predicted_positive", "tp", "lift"), kind="gain", name=name,
               label="gain", color_index=color_index, max_points=max_points, markers=False,
               hover=("target: %{customdata[1]} instances (%{x:.3f} of all)<br>"
                      "recall %{y:.4f} (%{customdata[2]} positives)<br>lift %{customdata[3]:.3f}"))
    if current is not None:
        ci_x = _interval(current, intervals, "total_positive_rate")
        ci_y = _interval(current, intervals, "recall")
        fig.add_trace(_current_trace(
            current.total_positive_rate, current.recall, x_int=ci_x, y_int=ci_y, name=str(name),
            text=f"score ≥ {_thr(current.threshold)}",
            hover=(f"<b>current threshold: score ≥ {_thr(current.threshold)}</b><br>"
                   f"target {current.n_predicted_positive} of {current.n} = {current.total_positive_rate:.4f} "
                   f"[{ci_x[0]:.4f}, {ci_x[1]:.4f}]<br>"
                   f"recall {current.recall:.4f} [{ci_y[0]:.4f}, {ci_y[1]:.4f}]<br>"
                   f"{_interval_text(current)}"),
        ))
    fig.update_xaxes(title_text="Share predicted positive (target size / n)", range=[-0.01, 1.01],
                     **_AXIS)
    fig.update_yaxes(title_text="Recall (share of positives found)", range=[-0.01, 1.01], **_AXIS)
    _layout(fig, height)
    return fig


def pr_figure(pr: Any, *, current: Any = None, intervals: Any = None, name: str = "", color_index: int = 0,
              max_points: int = MAX_CURVE_POINTS, height: int = 460) -> "go.Figure":
    """Precision–recall curve: precision (y) against recall (x), one point per threshold.

    Parameters
    ----------
    pr : :func:`rocci.pr_curve`'s result (``interpolate=False``) or its ``to_frame()``
    current : Confusion, optional
        The current threshold, with its recall and precision intervals; also
        gives the precision of random scores, ``n+/n`` (a horizontal line).
    intervals : mapping of indicator -> (low, high), optional
        The current point's intervals ("recall", "precision"); default ``current.interval``.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces with ``meta[0]`` "baseline", "pr", "current".  The points are
        joined by straight segments for the eye only: between two thresholds
        no classifier reaches the segment's precision.
    """
    fig = go.Figure()
    if current is not None:
        share = current.n_pos / current.n
        fig.add_trace(go.Scatter(x=[0, 1], y=[share, share], mode="lines",
                                 name=f"random scores (precision {share:.3f})",
                                 line=dict(color="#9a9a9a", dash="dot", width=1), hoverinfo="skip",
                                 meta=["baseline"], legendrank=1000))
    _add_curve(fig, pr, "recall", "precision", ("tp", "fp"), kind="pr", name=name, label="precision–recall",
               color_index=color_index, max_points=max_points, markers=True,
               hover="recall %{x:.4f}, precision %{y:.4f}<br>TP %{customdata[1]}, FP %{customdata[2]}")
    if current is not None:
        ci_x, ci_y = _interval(current, intervals, "recall"), _interval(current, intervals, "precision")
        fig.add_trace(_current_trace(
            current.recall, current.precision, x_int=ci_x, y_int=ci_y, name=str(name),
            text=f"score ≥ {_thr(current.threshold)}",
            hover=(f"<b>current threshold: score ≥ {_thr(current.threshold)}</b><br>"
                   f"recall {current.recall:.4f} [{ci_x[0]:.4f}, {ci_x[1]:.4f}]<br>"
                   f"precision {current.precision:.4f} [{ci_y[0]:.4f}, {ci_y[1]:.4f}]<br>"
                   f"TP {current.tp}, FP {current.fp}<br>{_interval_text(current)}"),
        ))
    fig.update_xaxes(title_text="Recall (sensitivity)", range=[-0.01, 1.01], **_AXIS)
    fig.update_yaxes(title_text="Precision (positives among predicted positives)",
                     range=[-0.01, 1.01], **_AXIS)
    _layout(fig, height)
    return fig


def reading_figure(reading: Any, *, current: Any = None, intervals: Any = None, name: str = "", color_index: int = 0,
                   max_points: int = MAX_CURVE_POINTS, height: int = 460) -> "go.Figure":
    """Reading rate (y) against substitution rate (x), in threshold order.

    Parameters
    ----------
    reading : :func:`rocci.reading_curve`'s result or its ``to_frame()``
    current : Confusion, optional
        The current threshold: reading rate = total positive rate, and
        substitution rate = 1 − precision (its interval is one minus the
        precision's).
    intervals : mapping of indicator -> (low, high), optional
        The current point's intervals ("precision", "total_positive_rate"); default ``current.interval``.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces with ``meta[0]`` "reading", "current".  The path is drawn in
        threshold order; it turns back on itself (not monotone).
    """
    fig = go.Figure()
    _add_curve(fig, reading, "substitution_rate", "total_positive_rate", ("n_predicted_positive", "errors"), kind="reading",
               name=name, label="reading rate", color_index=color_index, max_points=max_points, markers=True,
               hover=("reading rate %{y:.4f} (%{customdata[1]} accepted)<br>"
                      "substitution rate %{x:.4f} (%{customdata[2]} of them wrong)"))
    if current is not None and current.n_predicted_positive > 0:
        p_low, p_high = _interval(current, intervals, "precision")
        sub = 1.0 - current.precision
        ci_y = _interval(current, intervals, "total_positive_rate")
        fig.add_trace(_current_trace(
            sub, current.total_positive_rate, x_int=(1.0 - p_high, 1.0 - p_low), y_int=ci_y, name=str(name),
            text=f"score ≥ {_thr(current.threshold)}",
            hover=(f"<b>current threshold: score ≥ {_thr(current.threshold)}</b><br>"
                   f"reading rate {current.total_positive_rate:.4f} [{ci_y[0]:.4f}, {ci_y[1]:.4f}]<br>"
                   f"substitution rate {sub:.4f} [{1.0 - p_high:.4f}, {1.0 - p_low:.4f}]<br>"
                   f"{_interval_text(current)}"),
        ))
    fig.update_xaxes(title_text="Substitution rate (wrong among accepted)", rangemode="tozero",
                     **_AXIS)
    fig.update_yaxes(title_text="Reading rate (share accepted)", range=[-0.01, 1.01], **_AXIS)
    _layout(fig, height)
    return fig
