"""The one-click HTML report: what the page showed (charts, captions, tables), self-contained and escaped."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from apphelpers import assert_clean, new_app

from ui.report import MAX_ROWS, Report, markdown_text


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
    # the only scripts are plotly's: its config, the library, one newPlot call (the trace name is JSON-escaped)
    scripts = [page[m.end():m.end() + 120] for m in re.finditer(r"<script[^>]*>", page)]
    assert len(scripts) == 3
    assert "PlotlyConfig" in scripts[0] and "plotly.js v" in scripts[1] and "PLOTLYENV" in scripts[2]
    assert "\\u003cscript\\u003ealert(2)" in page


def test_long_tables_are_cut_with_a_note():
    rep = Report(page="p")
    rep.add_table(lambda: pd.DataFrame({"v": np.arange(MAX_ROWS + 7)}), "Big")
    page = rep.html()
    assert f"First {MAX_ROWS:,} of {MAX_ROWS + 7:,} rows" in page
    assert f"<td>{MAX_ROWS - 1}</td>" in page and f"<td>{MAX_ROWS}</td>" not in page


def test_markdown_subset():
    assert markdown_text("**a** *b* \\*c\\* :red[d] <e>") == "<b>a</b> <i>b</i> *c* d &lt;e&gt;"
