"""The one-click HTML report of the current analysis.

Each run of the app starts an empty :class:`Report` (:func:`begin`, called by
app.py); while the page runs, its charts (:func:`plotly_chart`), captions
(:func:`caption`) and downloadable tables (:func:`ui.download.download_csv`
records them) are added in the order the page shows them.  The sidebar then
offers the report as one self-contained HTML file: interactive plotly charts
(plotly.js inlined once, so the file works offline), the captions that say
which method and level each number uses, and the tables.

Everything that comes from the data (column names, labels, model names) is
HTML-escaped; the report holds no script other than plotly's.
"""

from __future__ import annotations

import datetime as _dt
import html
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import pandas as pd
import plotly.io as pio
import streamlit as st

_KEY = "_rocci_report"
#: Rows of a table written into the report (the CSV download has them all).
MAX_ROWS = 500


@dataclass
class Report:
    """What the current page has shown, in order: ``(kind, title, payload)`` items."""

    page: str = ""
    items: list = field(default_factory=list)

    def add_figure(self, fig, title: str) -> None:
        self.items.append(("figure", title, fig))

    def add_caption(self, text: str) -> None:
        self.items.append(("caption", "", text))

    def add_table(self, frame: "pd.DataFrame | Callable[[], pd.DataFrame]", title: str) -> None:
        self.items.append(("table", title, frame))

    def html(self, *, dataset: str = "", details: list[str] | None = None, link: str = "") -> str:
        """The report as a self-contained HTML document."""
        now = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>rocci report: {html.escape(self.page)}</title>",
            "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
            "color:#222}h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em}p.caption{color:#555;"
            "font-size:.92em}table{border-collapse:collapse;font-size:.85em;margin:.5em 0}"
            "td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}th{background:#f4f4f4}"
            ".meta{color:#555}</style></head><body>",
            f"<h1>rocci: {html.escape(self.page)}</h1>",
            f'<p class="meta">Data: <b>{html.escape(dataset)}</b>. Made {now} with rocci (exact bootstrap '
            "confidence regions for ROC and cost curves).</p>",
        ]
        for line in details or []:
            parts.append(f'<p class="meta">{markdown_text(line)}</p>')
        if link:
            parts.append(f'<p class="meta">View settings (the page\'s part of the link): <code>'
                         f"{html.escape(link)}</code></p>")
        plotly_js: Any = True  # inline plotly.js with the first chart only
        for kind, title, payload in self.items:
            if kind == "figure":
                if title:
                    parts.append(f"<h2>{html.escape(title)}</h2>")
                parts.append(pio.to_html(payload, full_html=False, include_plotlyjs=plotly_js,
                                         config={"displaylogo": False}))
                plotly_js = False
            elif kind == "caption":
                parts.append(f'<p class="caption">{markdown_text(payload)}</p>')
            else:
                frame = payload() if callable(payload) else payload
                parts.append(f"<h2>{html.escape(title)}</h2>")
                shown = frame.head(MAX_ROWS)
                parts.append('<div style="overflow-x:auto">')
                parts.append(shown.to_html(index=not isinstance(frame.index, pd.RangeIndex), escape=True,
                                           border=0, na_rep="", float_format=lambda v: f"{v:.6g}"))
                parts.append("</div>")
                if len(frame) > MAX_ROWS:
                    parts.append(f'<p class="caption">First {MAX_ROWS:,} of {len(frame):,} rows; the CSV download '
                                 "on the page has them all.</p>")
        if not self.items:
            parts.append("<p>This page shows no chart or table yet.</p>")
        parts.append("</body></html>")
        return "\n".join(parts)


_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>$:])")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?!\*)")


def markdown_text(text: str) -> str:
    """The small subset of Markdown the captions use (bold, italics, escapes, colour tags) as safe HTML."""
    text = re.sub(r":\w+\[(.*?)\]", r"\1", str(text))  # :red[...] → ...
    protected = []

    def keep(m):
        protected.append(m.group(1))
        return f"\x00{len(protected) - 1}\x00"

    text = _ESCAPED.sub(keep, text)
    out = html.escape(text)
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _ITALIC.sub(r"<i>\1</i>", out)
    return re.sub("\x00(\\d+)\x00", lambda m: html.escape(protected[int(m.group(1))]), out).replace("\n", "<br>")


def begin(page: str) -> Report:
    """Start this run's report (app.py calls it before running the page)."""
    report = Report(page=page)
    st.session_state[_KEY] = report
    return report


def current() -> Report:
    """This run's report (a fresh one if :func:`begin` was not called, e.g. a page run on its own)."""
    report = st.session_state.get(_KEY)
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
