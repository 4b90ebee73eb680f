"""rocci dashboard: router and frame.

Run with ``streamlit run app.py``.  This file only sets up the page, the
navigation and the shared sidebar; each page lives in app_pages/ and the
statistics in the rocci package.

The page folder is deliberately not called ``pages/``: Streamlit treats a
``pages/`` folder next to the entry script as a legacy multipage app until
``st.navigation`` first runs, so the first visitor of a fresh server who
opens a deep link (``/roc?...``) would get the bare page without this frame.
"""

from __future__ import annotations

import streamlit as st

st.set_page_config(
    page_title="rocci — exact bootstrap ROC",
    page_icon=str(__import__("pathlib").Path(__file__).parent / "ui/static/favicon.png"),  # shipped: no font host
    layout="wide",
    menu_items={
        "About": "rocci: ROC curves with exact bootstrap confidence regions "
        "(the closed-form limit of infinitely many bootstrap resamples).",
    },
)

from ui import controls, report, sidebar  # noqa: E402  (after set_page_config)

PAGES = [
    st.Page("app_pages/data.py", title="Data", icon=":material/table:", url_path="data", default=True),
    st.Page("app_pages/roc.py", title="ROC curve", icon=":material/show_chart:", url_path="roc"),
    st.Page("app_pages/precision.py", title="Precision–recall", icon=":material/troubleshoot:", url_path="precision"),
    st.Page("app_pages/cost.py", title="Cost curves", icon=":material/payments:", url_path="cost"),
    st.Page("app_pages/decision.py", title="Decision curve", icon=":material/medical_services:",
            url_path="decision"),
    st.Page("app_pages/compare.py", title="Compare models", icon=":material/compare_arrows:", url_path="compare"),
    st.Page("app_pages/explorer.py", title="Threshold explorer", icon=":material/tune:", url_path="explorer"),
    st.Page("app_pages/folds.py", title="Folds & classes", icon=":material/stacks:", url_path="folds"),
    st.Page("app_pages/coverage_lab.py", title="Coverage lab", icon=":material/science:", url_path="coverage"),
    st.Page("app_pages/learn.py", title="Learn", icon=":material/school:", url_path="learn"),
]

page = st.navigation(PAGES)
controls.narrow_screen_css()  # phones: results before controls (ui.controls.page_columns)
side = st.sidebar.container()
report.begin(page.title)  # the page's charts, captions and tables, for the sidebar's HTML report
page.run()
# Filled after the page ran, so it shows the data the page just loaded.
# (Pages never call st.stop(), so this always runs.)
sidebar.render(side)
