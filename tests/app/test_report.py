"""The one-click HTML report: what the page showed (charts, captions, tables), self-contained and escaped."""

from __future__ import annotations

import base64
import html
import io
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from apphelpers import assert_clean, new_app

from ui.report import HEAD_ROWS, MAX_ATTACHED_CELLS, MAX_ROWS, TAIL_ROWS, Report, markdown_text
from ui.text import md_escape


def test_report_of_the_roc_page_holds_its_charts_captions_and_tables():
    at = new_app("app_pages/roc.py")
    assert_clean(at)
    rep = at.session_state["_rocci_report"]
    assert rep.page == "ROC curve"
    kinds = [k for k, _, _ in rep.items]
    assert "figure" in kinds and "caption" in kinds and "table" in kinds
    page = rep.html(dataset="breast_cancer_cv.csv", link="roc_level=95%25")
    # plotly.js inlined exactly once, every figure drawn
    assert page.count("plotly.js v") == 1
    assert page.count("Plotly.newPlot(") == kinds.count("figure")
    # the captions name the method and the level, as on the page
    assert "exact bootstrap" in page and "95%" in page
    # the table of the page, with its numbers
    table = next(p for k, _, p in rep.items if k == "table")
    frame = table() if callable(table) else table
    first = frame.select_dtypes("number").iloc[0, 0]
    assert f"{first:.6g}" in page
    assert "breast_cancer_cv.csv" in page and "roc_level=95%25" in page


def test_each_run_starts_a_new_report():
    at = new_app("app_pages/roc.py")
    n_roc = len(at.session_state["_rocci_report"].items)
    at.switch_page("app_pages/data.py").run()
    rep = at.session_state["_rocci_report"]
    assert rep.page == "Data"
    assert len(rep.items) != n_roc or all(k != "table" for k, _, _ in rep.items)


def _attachments(page: str) -> list[tuple[str, pd.DataFrame]]:
    """The CSV files attached to a report: (file name, table)."""
    out = []
    for m in re.finditer(r'<a class="csv" download="([^"]+)" href="data:text/csv;charset=utf-8;base64,([^"]+)"', page):
        out.append((html.unescape(m.group(1)), pd.read_csv(io.BytesIO(base64.b64decode(m.group(2))))))
    return out


def _visible(page: str) -> str:
    """The report's text without the attached CSVs, the tags and plotly's scripts."""
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    page = re.sub(r'href="data:[^"]*"', "", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_every_headline_names_its_model_and_value():
    """The ROC page's AUC headlines: 'AUC · forest 0.9xx' with its interval, once per model."""
    at = new_app("app_pages/roc.py")
    assert_clean(at)
    rep = at.session_state["_rocci_report"]
    metrics = [(label.replace("\\", ""), payload[0]) for kind, label, payload in rep.items if kind == "metric"]
    page = rep.html(dataset="breast_cancer_cv.csv")
    models = [label.split("·")[-1].strip() for label, _ in metrics if label.startswith("AUC · ")]
    assert len(models) >= 2
    cards = [html.unescape(re.sub("<[^>]+>", " ", c))
             for c in re.findall(r'<div class="metric"[^>]*>(.*?)</div></div>', page)]
    for model, (_, value) in zip(models, metrics):
        card = next(c for c in cards if f"AUC · {model} " in c)
        assert value in card and "interval" in card and "[" in card  # model, AUC and its interval together
    assert "\\" not in _visible(page)  # no Markdown escape left


def test_headline_cards_and_their_notes():
    rep = Report(page="p")
    for model, auc in (("forest", "0.931"), ("<b>lr</b>", "0.902")):
        rep.add_metric(f"AUC · {md_escape(model)}", auc, help="Area *under*")
        rep.add_caption("95% DeLong interval **[0.9, 0.95]**")
    rep.add_metric("ΔAUC", "+0.03")
    rep.add_metric("p-value", "0.01")
    rep.add_caption("A sentence about both numbers.")
    page = rep.html(dataset="d.csv")
    assert page.count('<div class="metrics">') == 1  # one row of cards
    assert page.count('<div class="note">') == 2  # each AUC's interval sits in its card
    assert "AUC · &lt;b&gt;lr&lt;/b&gt;" in page and "<b>lr</b>" not in page
    assert 'title="Area under"' in page
    assert '<p class="caption">A sentence about both numbers.</p>' in page  # about the row: a paragraph


@pytest.mark.parametrize("text,expected", [
    ("**a** *b* \\*c\\* :red[d] <e>", "<b>a</b> <i>b</i> *c* d &lt;e&gt;"),
    # the cost page's interval name, escaped by md_escape: no raw Markdown/LaTeX left
    ("95\\% Agresti–Coull\\, stratified", "95% Agresti–Coull, stratified"),
    (md_escape("95% Agresti–Coull, m = 1,000 (both classes)"), "95% Agresti–Coull, m = 1,000 (both classes)"),
    ("$p \\le 0.05$, $w \\cdot C\\,\\%$", "p ≤ 0.05, w · C\u2009%"),
    ("cost \\$5 to \\$6", "cost $5 to $6"),
    ("__bold__ _it_ naive_bayes ~~old~~", "<b>bold</b> <i>it</i> naive_bayes <s>old</s>"),
    ("line  \nbreak\\\nagain\n\npara", "line<br>break<br>again<br><br>para"),
    ("- one\n- two", "• one<br>• two"),
    ("`a*b*` \\`x\\`", "<code>a*b*</code> `x`"),
    ("[docs](https://example.org/a?b=1&c=2)", '<a href="https://example.org/a?b=1&amp;c=2">docs</a>'),
    ("[x](javascript:alert(1)) [y](data:text/html,hi) [z](vbscript:x)",
     "[x](javascript:alert(1)) y z"),
    (":material/warning: :blue-background[note] ratio:x[2]", " note ratio:x[2]"),
    ("![a chart](http://example.org/x.png) after", "a chart after"),  # nothing loads from the web
    ('"q" & \'s\'', "\"q\" &amp; 's'"),
])
def test_markdown_subset(text, expected):
    assert markdown_text(text) == expected


@pytest.mark.parametrize("text", ["a\x00b", "\x000\x00", "\x00999\x00", "x\x001", "\x00\x00",
                                  "**\x00**", "\\\x00", "\x07bell\x1b[31m\x7f\x85", "a\u202eevil"])
def test_control_characters_do_not_crash_and_are_dropped(text):
    out = markdown_text(text)  # a NUL once crashed this with an IndexError (issue 18 §9)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", out)


def test_control_characters_in_a_whole_report():
    rep = Report(page="ROC\x00")
    rep.add_metric("AUC · m\x00odel", "0.9\x00")
    rep.add_caption("cap\x00tion \x001\x00")
    rep.add_table(pd.DataFrame({"c\x00ol": ["v\x00al\x1b"]}), "T\x00")
    page = rep.html(dataset="d\x00.csv", details=["x\x00"], link="a=\x00")
    assert "\x00" not in page and "\x1b" not in page
    assert "AUC · model" in page and "0.9" in page and "d.csv" in page


HOSTILE = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "\"><svg onload=alert(3)>",
    "[click](javascript:alert(4))", "![img](http://evil.example/x.png)", "**bold**<b>x</b>", "=cmd|'/c calc'!A1",
    "</textarea></style></title><script>alert(5)</script>", "&lt;script&gt;alert(6)&lt;/script&gt;",
]
ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "b", "i", "s", "code",
                "a", "br", "div", "span", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "script"}
ALLOWED_ATTRS = {"lang", "charset", "name", "content", "class", "id", "style", "title", "href", "download",
                 "colspan", "type"}


class _Elements(HTMLParser):
    """Every start tag of a page with its attributes, and the scripts' text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def assert_no_live_markup(page: str) -> None:
    """Only the report's own tags and attributes; links only to an attached CSV or the web; plotly's scripts."""
    parser = _Elements()
    parser.feed(page)
    for tag, attrs in parser.tags:
        assert tag in ALLOWED_TAGS, tag
        assert set(attrs) <= ALLOWED_ATTRS, (tag, attrs)
        if "href" in attrs:
            assert attrs["href"].startswith(("data:text/csv;", "https://", "http://", "#")), attrs["href"]
    assert [t for t, _ in parser.tags].count("script") == 3
    assert "PlotlyConfig" in parser.scripts[0] and "plotly.js v" in parser.scripts[1]
    assert "window.PLOTLYENV" in parser.scripts[2]


@pytest.mark.parametrize("evil", HOSTILE)
def test_user_strings_stay_text_everywhere(evil):
    """A label, column or model name can hold anything: it never becomes markup in the report."""
    rep = Report(page=evil)
    rep.add_heading(f"Is {md_escape(evil)} better?")
    rep.add_text(f"**{md_escape(evil)}** · threshold")
    rep.add_metric(f"AUC · {md_escape(evil)}", evil, help=evil, delta=evil)
    rep.add_caption(f"Model {md_escape(evil)}, escaped as the pages do")
    rep.add_figure(go.Figure(go.Scatter(x=[0, 1], y=[0, 1], name=evil)), evil)
    rep.add_table(pd.DataFrame({evil: [evil] * 40, "v": np.arange(40.0)}, index=[evil] * 40), evil)
    page = rep.html(dataset=evil, details=[f"label {md_escape(evil)}"], link=evil)
    assert_no_live_markup(page)
    # what a reader sees is the string itself (heading, text, card, caption, table cells...)
    assert _visible(page).count(evil) >= 5
    # the attached CSV holds the text with formulas neutralised
    (_, table), = _attachments(page)
    col = table.columns[1]
    assert table[col].iloc[0] == ("'" + evil if evil.startswith("=") else evil)


@pytest.mark.parametrize("evil", HOSTILE)
def test_unescaped_markdown_in_a_caption_cannot_script_or_load(evil):
    """Even a caption that forgot md_escape yields no script, no image and no javascript: link."""
    rep = Report(page="p")
    rep.add_caption(f"raw {evil}")
    rep.add_figure(go.Figure(), "")
    assert_no_live_markup(rep.html(dataset="d.csv"))


def test_text_from_the_data_is_escaped():
    rep = Report(page="<img src=x onerror=alert(1)>")
    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], name="<script>alert(2)</script>"))
    rep.add_figure(fig, "<b>model</b>")
    rep.add_caption("**bold** model <script>alert(3)</script> and naive\\_bayes")
    rep.add_table(pd.DataFrame({"<i>col</i>": ["<script>alert(4)</script>"], "x": [0.123456789]}), "T")
    page = rep.html(dataset="<svg onload=alert(5)>", details=["label **=cmd|x**"])
    assert "<script>alert(" not in page and "<img src=x" not in page and "<svg onload" not in page
    assert "&lt;b&gt;model&lt;/b&gt;" in page
    assert "<b>bold</b>" in page and "naive_bayes" in page
    assert "0.123457" in page
    assert_no_live_markup(page)
    assert "\\u003cscript\\u003ealert(2)" in page


def test_short_tables_are_shown_whole_with_their_csv():
    frame = pd.DataFrame({"model": ["a", "b"], "auc": [0.1 + 0.2, 0.9], "tp": [3, 4]})
    rep = Report(page="p")
    rep.add_table(frame, "The AUC table")
    page = rep.html(dataset="d.csv")
    assert "<td>a</td>" in page and '<td class="num">0.3</td>' in page and '<td class="num">3</td>' in page
    assert "more rows" not in page and "<details>" not in page
    (name, back), = _attachments(page)
    assert name == "the_auc_table.csv"
    assert back["auc"].tolist() == [0.1 + 0.2, 0.9] and back["tp"].tolist() == [3, 4]  # as computed


def test_long_tables_are_summarised_with_the_full_csv_attached():
    n = 500
    frame = pd.DataFrame({"threshold": np.linspace(1, 0, n), "tp": np.arange(n), "name": ["=x"] * n})
    rep = Report(page="p")
    rep.add_table(lambda: frame, "Big")
    page = rep.html(dataset="d.csv")
    main = page.split("<details>")[0]
    assert main.count("<tr>") == 1 + HEAD_ROWS + TAIL_ROWS  # header, first and last rows
    assert f"<span>⋯ {n - HEAD_ROWS - TAIL_ROWS:,} more rows ⋯</span>" in main
    assert f'<td class="num">{HEAD_ROWS - 1}</td>' in main and f'<td class="num">{n - 1}</td>' in main
    assert f'<td class="num">{HEAD_ROWS}</td>' not in main
    assert f"The first {HEAD_ROWS} and last {TAIL_ROWS} of {n:,} rows" in page
    assert f"Show all {n:,} rows" in page  # unfolds in the report
    (name, back), = _attachments(page)
    assert name == "big.csv" and len(back) == n
    assert back["tp"].tolist() == list(range(n)) and back["threshold"].tolist() == frame["threshold"].tolist()
    assert set(back["name"]) == {"'=x"}  # formulas neutralised, as on the page


def test_very_long_tables_are_not_unfolded_and_huge_ones_not_attached():
    rep = Report(page="p")
    rep.add_table(pd.DataFrame({"v": np.arange(MAX_ROWS + 1)}), "Long")
    rep.add_table(lambda: pd.DataFrame({"v": np.zeros(MAX_ATTACHED_CELLS + 1)}), "Huge")
    page = rep.html(dataset="d.csv")
    assert "<details>" not in page
    assert len(_attachments(page)) == 1
    assert f"The full table ({MAX_ATTACHED_CELLS + 1:,} rows) is too large to attach" in page
    assert len(page) < 2_000_000


def test_wide_tables_scroll_inside_the_page():
    frame = pd.DataFrame({f"a_rather_long_column_name_{i}": [0.123456789] for i in range(40)})
    rep = Report(page="p")
    rep.add_table(frame, "Wide")
    page = rep.html(dataset="d.csv")
    assert '<div class="table-wrap"><table>' in page
    assert re.search(r"\.table-wrap\{overflow-x:auto", page)
    assert 'name="viewport"' in page


def test_a_table_that_fails_to_build_leaves_a_note():
    def broken():
        raise MemoryError("too big")

    rep = Report(page="p")
    rep.add_table(broken, "Curve")
    page = rep.html(dataset="d.csv")
    assert "could not be built" in page and "MemoryError" in page


@pytest.mark.parametrize("dataset", ["no data", "", None])
def test_a_report_without_data_says_so(dataset):
    rep = Report(page="ROC curve")
    rep.add_caption("Exact bootstrap: the limit of infinitely many resamples.")
    page = rep.html(dataset=dataset)
    assert "No data was loaded when this report was made" in page
    assert "Data: <b>none loaded</b>" in page


def test_a_report_with_data_but_no_results_says_so():
    rep = Report(page="Coverage lab")
    rep.add_caption("Press Run to start.")
    page = rep.html(dataset="d.csv")
    assert "This page showed no results" in page
    rep.add_metric("AUC · m", "0.9")
    assert "showed no results" not in rep.html(dataset="d.csv")


def test_a_tables_caption_sits_under_its_heading_and_a_charts_under_the_chart():
    rep = Report(page="p")
    rep.add_figure(go.Figure(), "")
    rep.add_caption("About the chart.")
    rep.add_caption("About the table.")
    rep.add_table(pd.DataFrame({"v": [1]}), "The table")
    rep.add_heading("Summary")
    rep.add_table(pd.DataFrame({"v": [2]}), "Summary")  # the download's title repeats the section's
    page = rep.html(dataset="d.csv")
    order = [page.index(s) for s in ("About the chart.", "<h3>The table</h3>", "About the table.", "<table>")]
    assert order == sorted(order)
    assert page.count(">Summary<") == 1


def test_cells_short_text_stays_on_one_line_long_text_wraps():
    frame = pd.DataFrame({"method": ["wilson", "Wilson; full exact bootstrap: correct* ~ Bin(n, accuracy)"]},
                         index=pd.Index(["a", "b"], name="indicator"))
    rep = Report(page="p")
    rep.add_table(frame, "T")
    page = rep.html(dataset="d.csv")
    assert "<td>wilson</td>" in page and '<td class="long">Wilson; full' in page
    assert "<th>indicator</th>" in page and "<td>a</td>" in page  # a named index is a column


def test_a_table_right_after_the_pages_own_heading_line_gets_no_second_heading():
    rep = Report(page="p")
    rep.add_text("**Indicators with intervals**")
    rep.add_caption("95% Wilson intervals.")
    rep.add_table(pd.DataFrame({"v": [1]}), "The indicators")
    page = rep.html(dataset="d.csv")
    assert "<h3>" not in page and "Indicators with intervals" in page and "95% Wilson intervals." in page
