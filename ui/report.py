"""The one-click HTML report of the current analysis (the Streamlit side).

Each run of the app starts an empty :class:`Report` (:func:`begin`, called by
app.py); while the page runs, its headline numbers (:func:`metric`,
:func:`metric_in`), charts (:func:`plotly_chart`), captions (:func:`caption`)
and downloadable tables (:func:`ui.download.download_csv` records them) are
added in the order the page shows them.  The sidebar then offers the report as
one self-contained HTML file.

The report itself -- its items, the HTML (plotly.js inlined once, headlines,
captions rendered from the pages' Markdown subset, tables summarised with
their full CSV attached, everything from the data escaped) -- is
:mod:`rocci.plots.report`, which ``rocci report`` on the command line uses
too; this module only records what a page shows, beside the Streamlit call
that shows it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from rocci.plots.report import (  # noqa: F401  (re-exported: the sidebar, the pages and the tests use them)
    FULL_ROWS,
    HEAD_ROWS,
    MAX_ATTACHED_CELLS,
    MAX_ROWS,
    NO_DATA,
    TAIL_ROWS,
    Report,
    latex_text,
    markdown_plain,
    markdown_text,
    plain_text,
    table_html,
)

from . import state


def begin(page: str) -> Report:
    """Start this run's report (app.py calls it before running the page)."""
    report = Report(page=page)
    state.put(state.REPORT, report)
    return report


def current() -> Report:
    """This run's report (a fresh one if :func:`begin` was not called, e.g. a page run on its own)."""
    report = state.value(state.REPORT)
    if not isinstance(report, Report):
        report = begin("")
    return report


def plotly_chart(fig, *, title: str = "", **kwargs):
    """``st.plotly_chart`` that also puts the figure into the report."""
    current().add_figure(fig, title)
    return st.plotly_chart(fig, **kwargs)


def caption(text: str, **kwargs):
    """``st.caption`` that also puts the text into the report."""
    current().add_caption(text)
    return st.caption(text, **kwargs)


def metric(label: str, value: Any, delta: Any = None, *, help: str | None = None, **kwargs):
    """``st.metric`` that also puts the headline (its label, which names the model, and value) into the report."""
    current().add_metric(label, value, help, delta)
    return st.metric(label, value, delta, help=help, **kwargs)


def metric_in(container, label: str, value: Any, delta: Any = None, *, help: str | None = None, **kwargs):
    """``container.metric(...)`` (a column's metric) that also puts the headline into the report."""
    current().add_metric(label, value, help, delta)
    return container.metric(label, value, delta, help=help, **kwargs)


def header(text: str, **kwargs):
    """``st.header`` that also puts the heading into the report."""
    current().add_heading(text)
    return st.header(text, **kwargs)


def subheader(text: str, **kwargs):
    """``st.subheader`` that also puts the heading into the report."""
    current().add_heading(text)
    return st.subheader(text, **kwargs)


def markdown(text: str, **kwargs):
    """``st.markdown`` that also puts the text into the report (e.g. the line naming the model shown)."""
    current().add_text(text)
    return st.markdown(text, **kwargs)


def table(data: "pd.DataFrame", *, title: str = "", **kwargs):
    """``st.table`` (a small static table, e.g. a confusion matrix) that also puts it into the report."""
    current().add_table(data, title)
    return st.table(data, **kwargs)
