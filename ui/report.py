"""The one-click HTML report of the current analysis.

Each run of the app starts an empty :class:`Report` (:func:`begin`, called by
app.py); while the page runs, its headline numbers (:func:`metric`,
:func:`metric_in`), charts (:func:`plotly_chart`), captions (:func:`caption`)
and downloadable tables (:func:`ui.download.download_csv` records them) are
added in the order the page shows them.  The sidebar then offers the report as
one self-contained HTML file: interactive plotly charts (plotly.js inlined
once, so the file works offline), each headline with its label (model) and
value, the captions that say which method and level each number uses, and the
tables -- a long one summarised by its first and last rows, every one attached
in full as a CSV link inside the file.

Captions are the small subset of Markdown the pages write (bold, italics,
links, backslash escapes, line breaks, colour tags, ``$...$``); they are
rendered to HTML here, so the report shows no raw Markdown or LaTeX.
Everything that comes from the data (column names, labels, model names) is
HTML-escaped; the report holds no script other than plotly's.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd
import plotly.io as pio
import streamlit as st

from . import state

#: A table of at most this many rows is shown whole; a longer one by its first and last rows.
FULL_ROWS = 25
#: Rows shown at the start and at the end of a longer table.
HEAD_ROWS, TAIL_ROWS = 10, 5
#: A summarised table of at most this many rows can also be unfolded in the report.
MAX_ROWS = 1000
#: Largest table (rows × columns) attached to the report as a CSV link; a larger one is
#: left to the page's own download button (the report would grow by tens of megabytes).
MAX_ATTACHED_CELLS = 1_000_000
#: What :meth:`Report.html` is given as ``dataset`` when no data was loaded.
NO_DATA = ("", "no data")

_STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1100px;margin:2em auto;
  padding:0 1em;color:#222;background:#fff;line-height:1.45;overflow-wrap:break-word}
h1{font-size:1.6em;margin-bottom:.3em}h2{font-size:1.25em;margin:1.8em 0 .4em}
h3{font-size:1.05em;margin:1.4em 0 .3em}p.text{margin:.8em 0 .4em}
p.caption{color:#444;font-size:.92em;margin:.4em 0 .8em}
.meta{color:#555;font-size:.92em}.meta code{word-break:break-all}
.notice{border:1px solid #e0b252;background:#fff8e6;padding:.8em 1em;border-radius:6px;margin:1.2em 0}
.metrics{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:.8em;margin:1em 0}
.metric{min-width:0;border:1px solid #ddd;border-radius:6px;padding:.6em .8em}
.metric .label{color:#555;font-size:.88em}
.metric .value{font-size:1.6em;font-weight:600;margin:.1em 0;overflow-wrap:anywhere}
.metric .delta{font-size:.88em;color:#555}
.metric .note{font-size:.85em;color:#444;margin-top:.3em}
.chart{width:100%;overflow-x:auto}
/* a wide table scrolls in its own box: a visible scrollbar, and a shadow on the side with more columns */
.table-wrap{overflow-x:auto;max-width:100%;margin:.5em 0;
  background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/40px 100% no-repeat local,
  linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/40px 100% no-repeat local,
  radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.18),rgba(0,0,0,0)) left/12px 100% no-repeat scroll,
  radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.18),rgba(0,0,0,0)) right/12px 100% no-repeat scroll}
.table-wrap::-webkit-scrollbar{height:9px}.table-wrap::-webkit-scrollbar-thumb{background:#aaa;border-radius:5px}
.table-wrap::-webkit-scrollbar-track{background:#eee}
table{border-collapse:collapse;font-size:.85em}
td,th{border:1px solid #ddd;padding:2px 6px;vertical-align:top;white-space:nowrap}
th{background:#f4f4f4;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.long{white-space:normal;min-width:18em}
tr.gap td{color:#666;font-style:italic;background:#fafafa}
tr.gap span{position:sticky;left:.5em;display:inline-block}
.table-note{color:#555;font-size:.88em;margin:.2em 0 .6em}
details{margin:.3em 0 1em}summary{cursor:pointer;color:#1a5fb4}
a{color:#1a5fb4}
@media (max-width:600px){body{margin:1em auto;padding:0 .6em}h1{font-size:1.3em}
  .metric .value{font-size:1.3em}}
@media print{body{max-width:none;margin:0}.table-wrap{overflow:visible}table{font-size:7pt}
  td,th{white-space:normal}details,.csv{display:none}h2,h3{break-after:avoid}}
"""


@dataclass
class Report:
    """What the current page has shown, in order: ``(kind, title, payload)`` items.

    Kinds: ``"metric"`` (title: the label, payload: ``(value, help, delta)``),
    ``"figure"``, ``"caption"``, ``"table"``, ``"heading"`` and ``"text"``.
    """

    page: str = ""
    items: list = field(default_factory=list)

    def add_figure(self, fig, title: str) -> None:
        self.items.append(("figure", title, fig))

    def add_caption(self, text: str) -> None:
        self.items.append(("caption", "", text))

    def add_metric(self, label: str, value: Any, help: str | None = None, delta: Any = None) -> None:
        """A headline number as ``st.metric`` shows it: its label (which names the model) and value."""
        self.items.append(("metric", label, (value, help, delta)))

    def add_table(self, frame: "pd.DataFrame | Callable[[], pd.DataFrame]", title: str) -> None:
        self.items.append(("table", title, frame))

    def add_heading(self, text: str) -> None:
        """A section heading (``st.header``/``st.subheader``)."""
        self.items.append(("heading", "", text))

    def add_text(self, text: str) -> None:
        """Body text (``st.markdown``), e.g. "**forest** · threshold score ≥ 0.5"."""
        self.items.append(("text", "", text))

    @property
    def has_results(self) -> bool:
        """True when the page recorded a headline number, a chart or a table (not just words)."""
        return any(kind in ("metric", "figure", "table") for kind, _, _ in self.items)

    def html(self, *, dataset: str | None = "", details: list[str] | None = None, link: str = "") -> str:
        """The report as a self-contained HTML document.

        ``dataset`` names the data the page used; empty, None or ``"no data"``
        when none was loaded (the report then says so at the top).
        """
        now = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        no_data = dataset is None or str(dataset).strip().lower() in NO_DATA
        page = plain_text(self.page) or "report"
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>rocci report: {html.escape(page)}</title>",
            f"<style>{_STYLE}</style></head><body>",
            f"<h1>rocci: {html.escape(page)}</h1>",
            f'<p class="meta">Data: <b>{"none loaded" if no_data else html.escape(plain_text(dataset))}</b>. '
            f"Made {now} with rocci (exact bootstrap confidence regions for ROC and cost curves).</p>",
        ]
        for line in details or []:
            parts.append(f'<p class="meta">{markdown_text(line)}</p>')
        if link:
            parts.append('<p class="meta">View settings (the page\'s part of the link): <code>'
                         f"{html.escape(plain_text(link))}</code></p>")
        if no_data:
            parts.append('<div class="notice"><b>No data was loaded when this report was made</b>, so it holds '
                         "no results. Load a file (or pick a bundled sample) on the Data page, open this page "
                         "again and download the report from there.</div>")
        elif not self.has_results:
            parts.append('<div class="notice"><b>This page showed no results when the report was made</b> (no '
                         "headline number, chart or table): its data may not be usable as mapped (see the Data "
                         "page), or a computation that starts with a button was not run.</div>")
        parts.extend(self._body())
        parts.append("</body></html>")
        return "\n".join(parts)

    def _body(self) -> list[str]:
        parts: list[str] = []
        plotly_js: Any = True  # inline plotly.js with the first chart only
        items = self.items
        i = 0
        n_tables = 0
        intro = None  # a caption that describes the next table: shown under the table's heading
        last_heading = ""
        while i < len(items):
            kind, title, payload = items[i]
            if kind == "metric":
                # Consecutive headline numbers side by side; a short caption right after one is its note
                # (e.g. "95% DeLong interval [0.90, 0.95]" under "AUC · forest 0.93").
                cards = []
                while i < len(items) and items[i][0] == "metric":
                    _, label, (value, help_, delta) = items[i]
                    note = ""
                    if _is_note(items, i):
                        note = f'<div class="note">{markdown_text(items[i + 1][2])}</div>'
                        i += 1
                    tip = f' title="{html.escape(plain_text(markdown_plain(help_)))}"' if help_ else ""
                    extra = (f'<div class="delta">{html.escape(plain_text(delta))}</div>'
                             if delta is not None and str(delta) != "" else "")
                    cards.append(f'<div class="metric"{tip}><div class="label">{markdown_text(label)}</div>'
                                 f'<div class="value">{html.escape(plain_text(value))}</div>{extra}{note}</div>')
                    i += 1
                parts.append('<div class="metrics">' + "".join(cards) + "</div>")
                continue
            if kind == "figure":
                if title:
                    parts.append(f"<h3>{html.escape(plain_text(title))}</h3>")
                parts.append('<div class="chart">' + pio.to_html(
                    payload, full_html=False, include_plotlyjs=plotly_js,
                    config={"displaylogo": False, "responsive": True}) + "</div>")
                plotly_js = False
            elif kind == "caption":
                # A page writes a table's caption, shows the table, then its download button (which
                # records the table): the caption goes under the table's heading.  One right after a
                # chart or a headline is about that, and stays where it is.
                if (i + 1 < len(items) and items[i + 1][0] == "table"
                        and (i == 0 or items[i - 1][0] not in ("figure", "metric"))):
                    intro = payload
                else:
                    parts.append(f'<p class="caption">{markdown_text(payload)}</p>')
            elif kind == "heading":
                last_heading = markdown_plain(payload).strip().lower()
                parts.append(f"<h2>{markdown_text(payload)}</h2>")
            elif kind == "text":
                parts.append(f'<p class="text">{markdown_text(payload)}</p>')
            else:
                n_tables += 1
                # no second heading when the page's own line ("**Confusion matrix**") or section says it
                named = items[i - 1 - (intro is not None)][0] == "text" if i > int(intro is not None) else False
                if title and not named and plain_text(title).strip().lower() != last_heading:
                    parts.append(f"<h3>{html.escape(plain_text(title))}</h3>")
                if intro is not None:
                    parts.append(f'<p class="caption">{markdown_text(intro)}</p>')
                    intro = None
                try:
                    frame = payload() if callable(payload) else payload
                except Exception as exc:  # noqa: BLE001 -- the report still opens; the page has the button
                    parts.append(f'<p class="table-note">This table could not be built for the report '
                                 f"({html.escape(plain_text(type(exc).__name__))}); use the download button "
                                 "on the page.</p>")
                else:
                    parts.extend(table_html(frame, title=title, file_stem=f"rocci_table_{n_tables}"))
            i += 1
        return parts


def table_html(frame: pd.DataFrame, *, title: str = "", file_stem: str = "rocci_table") -> list[str]:
    """A table as report HTML: whole if short, else first and last rows; with its full CSV attached.

    Every cell, column name and index label is escaped.  Numbers are right
    aligned, floats shown to 6 significant digits (the CSV link has them as
    computed).
    """
    n = len(frame)
    show_index = not isinstance(frame.index, pd.RangeIndex)
    parts = []
    if n <= FULL_ROWS:
        parts.append(_table(frame, show_index))
    else:
        parts.append(_table(frame, show_index, gap=(HEAD_ROWS, n - TAIL_ROWS)))
    csv_link = _csv_link(frame, show_index, title, file_stem)
    if n > FULL_ROWS:
        parts.append(f'<p class="table-note">The first {HEAD_ROWS} and last {TAIL_ROWS} of {n:,} rows. '
                     f"{csv_link}</p>")
        if n <= MAX_ROWS:
            parts.append(f"<details><summary>Show all {n:,} rows</summary>{_table(frame, show_index)}</details>")
    elif csv_link:
        parts.append(f'<p class="table-note">{csv_link}</p>')
    return parts


def _csv_link(frame: pd.DataFrame, index: bool, title: str, file_stem: str) -> str:
    from .csv import csv_bytes  # the same neutralised CSV as the page's download button

    n_cells = len(frame) * max(1, frame.shape[1] + int(index))
    rows = f"{len(frame):,} row" + ("" if len(frame) == 1 else "s")
    if n_cells > MAX_ATTACHED_CELLS:
        return (f"The full table ({rows}) is too large to attach to this file: use its download button on "
                "the page.")
    stem = re.sub(r"[^a-z0-9]+", "_", plain_text(title).lower()).strip("_")[:60] or file_stem
    data = base64.b64encode(csv_bytes(frame, index=index)).decode("ascii")
    return (f'<a class="csv" download="{html.escape(stem)}.csv" href="data:text/csv;charset=utf-8;base64,{data}">'
            f"Download the full table (CSV, {rows})</a>")


def _table(frame: pd.DataFrame, show_index: bool, gap: tuple[int, int] | None = None) -> str:
    """Rows ``[0, gap[0])`` and ``[gap[1], n)`` with a "⋯ k more rows ⋯" row between them (or all rows)."""
    n = len(frame)
    columns = [(_header(c), frame.iloc[:, j]) for j, c in enumerate(frame.columns)]
    if show_index:
        name = frame.index.name if frame.index.name is not None else ""
        columns.insert(0, (_header(name), pd.Series(frame.index, index=frame.index)))
    cells = []
    for _, s in columns:
        numeric = pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)
        cells.append((numeric, s))
    head = "".join(f"<th>{h}</th>" for h, _ in columns)
    row_ids = range(n) if gap is None else list(range(gap[0])) + [-1] + list(range(gap[1], n))
    body = []
    for r in row_ids:
        if r < 0:
            body.append(f'<tr class="gap"><td colspan="{len(columns)}"><span>⋯ {gap[1] - gap[0]:,} more rows ⋯</span>'
                        "</td></tr>")
            continue
        tds = []
        for numeric, s in cells:
            v = s.iloc[r]
            text = html.escape(_cell(v))
            if numeric or _is_number(v):
                tds.append(f'<td class="num">{text}</td>')
            else:
                tds.append(f'<td class="long">{text}</td>' if len(text) > 40 else f"<td>{text}</td>")
        body.append("<tr>" + "".join(tds) + "</tr>")
    return (f'<div class="table-wrap"><table><thead><tr>{head}</tr></thead><tbody>' + "".join(body)
            + "</tbody></table></div>")


def _header(name: Any) -> str:
    if isinstance(name, tuple):
        name = " / ".join(str(x) for x in name)
    return html.escape(plain_text(name))


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _cell(v: Any) -> str:
    """A cell as text: floats to 6 significant digits, integers whole, missing values empty."""
    if v is None or v is pd.NA or v is pd.NaT:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if np.isnan(f):
            return ""
        if np.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f"{f:.6g}"
    return plain_text(v)


def _is_note(items: list, i: int) -> bool:
    """Whether the caption after the headline number ``items[i]`` is that number's note.

    It is when it is short and belongs to that number alone: the pattern
    number, caption, number, caption... (one interval under each model's AUC),
    or a lone number with its caption.  A caption after a row of numbers
    speaks of them all and stays a paragraph below the row.
    """
    if i + 1 >= len(items) or items[i + 1][0] != "caption" or len(str(items[i + 1][2])) > 600:
        return False
    after = items[i + 2][0] if i + 2 < len(items) else None
    before = items[i - 1][0] if i > 0 else None
    return after == "metric" or before != "metric"


# --- the Markdown subset the pages write, as safe HTML -------------------------------------------

#: Control characters (C0 but tab and newline, DEL, C1) and the bidirectional overrides that could
#: disguise text; a NUL in a label must not reach the renderer's placeholders.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_ASCII_PUNCT = r"""!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~"""
_ESCAPED = re.compile(r"\\([" + _ASCII_PUNCT + "])")
_HARD_BREAK = re.compile(r"(?: {2,}|\\)\n")
_CODE = re.compile(r"(?<!\\)(`+)(.+?)\1", re.S)
_MATH = re.compile(r"(?<!\\)\$(?!\s)([^$\n]+?)(?<![\s\\])\$")
_IMAGE = re.compile(r"!\[([^\[\]\n]*)\]\([^()\n]*\)")
_LINK = re.compile(r"\[([^\[\]\n]+)\]\(\s*<?([^()\s<>]*)>?\s*\)")
_TAG = re.compile(r":(?:(?:red|orange|yellow|green|blue|violet|gray|grey|rainbow|primary)(?:-background)?|small)"
                  r"\[([^\[\]]*)\]")  # :red[...], :blue-background[...], :small[...]
_ICON = re.compile(r":material/[a-z0-9_]+:")
_BOLD = re.compile(r"\*\*(?!\s)(.+?)(?<!\s)\*\*|(?<![\w_])__(?!\s)(.+?)(?<!\s)__(?![\w_])")
_ITALIC = re.compile(r"(?<![*\w])\*(?![\s*])(.+?)(?<![\s*])\*(?!\*)|(?<![\w_])_(?![\s_])(.+?)(?<![\s_])_(?![\w_])")
_STRIKE = re.compile(r"~~(?!\s)(.+?)(?<!\s)~~")
_SAFE_URL = re.compile(r"(?i)^(?:https?://|mailto:|#|/(?!/)|\./|[a-z0-9_\-]+(?:/|$|\?|#))")

_LATEX = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "times": "×", "cdot": "·",
    "pm": "±", "mp": "∓", "approx": "≈", "sim": "∼", "infty": "∞", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "in": "∈", "sum": "Σ", "prod": "Π", "int": "∫", "partial": "∂", "sqrt": "√",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε", "varepsilon": "ε",
    "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "Sigma": "Σ", "tau": "τ",
    "phi": "φ", "Phi": "Φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Omega": "Ω", "ldots": "…", "dots": "…",
    "cdots": "⋯", "%": "%", "$": "$", "&": "&", "#": "#", "_": "_", "{": "{", "}": "}",
    ",": "\u2009", ";": " ", ":": " ", "!": "", "quad": " ", "qquad": "  ", " ": " ",
}


def plain_text(value: Any) -> str:
    """``value`` as text with control characters removed (not escaped: :func:`html.escape` it)."""
    text = str(value).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    return _CONTROL.sub("", text)


def latex_text(tex: str) -> str:
    """Simple inline LaTeX (``\\le``, ``\\%``, ``\\,``, ``\\frac{a}{b}``, ``x^{2}``) as plain Unicode text."""
    t = re.sub(r"\\(?:mathrm|text|textbf|mathbf|mathit|operatorname|mbox|left|right)\s*", "", tex)
    t = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", lambda m: f"{_group(m.group(1))}/{_group(m.group(2))}", t)
    t = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"√(\1)", t)
    t = re.sub(r"\\([A-Za-z]+|.)", lambda m: _LATEX.get(m.group(1), m.group(1)), t)
    t = re.sub(r"([\^_])\{([^{}]*)\}", r"\1\2", t)
    return t.replace("{", "").replace("}", "")


def _group(term: str) -> str:
    """``a`` stays ``a``; ``a + b`` becomes ``(a + b)`` (a fraction's numerator or denominator)."""
    return term if re.fullmatch(r"[\w.\\]*", term) else f"({term})"


def markdown_plain(text: Any) -> str:
    """Markdown as plain text (for a tooltip): the rendered HTML without its tags, unescaped."""
    if text is None:
        return ""
    return html.unescape(re.sub(r"<[^>]+>", "", markdown_text(text).replace("<br>", " ")))


def markdown_text(text: Any) -> str:
    """The small subset of Markdown that the pages write, as safe inline HTML.

    Bold, italics, strikethrough, inline code, ``[links](https://...)``,
    backslash escapes of any ASCII punctuation (``95\\%`` is ``95%``), hard
    and soft line breaks, ``- `` list lines, colour tags (``:red[...]``, the
    text kept) and ``$...$`` maths (as Unicode text).  Everything else is
    escaped, so no tag, attribute or script can come through; control
    characters (a NUL in a label) are dropped.
    """
    text = plain_text("" if text is None else text)
    protected: list[str] = []

    def keep(fragment: str) -> str:
        protected.append(fragment)
        return f"\x00{len(protected) - 1}\x00"

    text = _HARD_BREAK.sub(lambda m: keep("<br>"), text)
    text = _CODE.sub(lambda m: keep(f"<code>{html.escape(m.group(2).strip())}</code>"), text)
    text = _MATH.sub(lambda m: keep(html.escape(latex_text(m.group(1)))), text)
    text = _ESCAPED.sub(lambda m: keep(html.escape(m.group(1))), text)
    text = _ICON.sub("", text)
    for _ in range(3):  # nested tags, e.g. :red[**:blue[x]**]
        text = _TAG.sub(r"\1", text)
    text = re.sub(r"(?m)^[ ]{0,3}[-*+][ ]+", lambda m: keep("• "), text)

    def link(m: re.Match) -> str:
        url = m.group(2)
        if "\x00" in url or not _SAFE_URL.match(url):
            return m.group(1)  # the text only: no javascript:, data: or other scheme
        return keep(f'<a href="{html.escape(url, quote=True)}">') + m.group(1) + keep("</a>")

    text = _IMAGE.sub(r"\1", text)  # an image: its alt text only (the report loads nothing from the web)
    text = _LINK.sub(link, text)
    out = html.escape(text, quote=False)
    out = _BOLD.sub(lambda m: f"<b>{m.group(1) or m.group(2)}</b>", out)
    out = _ITALIC.sub(lambda m: f"<i>{m.group(1) or m.group(2)}</i>", out)
    out = _STRIKE.sub(r"<s>\1</s>", out)
    out = re.sub(r"\n{2,}", "<br><br>", out.strip("\n")).replace("\n", "<br>")
    for _ in range(3):  # a placeholder may hold another one (a link's text)
        out = _PLACEHOLDER.sub(lambda m: protected[int(m.group(1))], out)
    return out


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
