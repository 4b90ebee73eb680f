"""The sidebar's HTML report, downloaded from a real browser and opened offline in it."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci import data as rdata

from .conftest import ARTIFACTS, ROOT

pytestmark = pytest.mark.browser


def test_html_report_of_the_compare_page_opens_offline_with_its_charts(page, app_url, wait, shot):
    page.goto(app_url + "/compare?cmp_rates=0.2%2C+0.4")
    wait(page)
    button = page.get_by_test_id("stSidebar").get_by_role("button", name="Download HTML report")
    with page.expect_download() as dl:
        button.click()
    assert dl.value.suggested_filename == "rocci_report_compare_models.html"
    path = ARTIFACTS / "rocci_report_compare.html"
    dl.value.save_as(str(path))
    text = path.read_text(encoding="utf-8")
    assert "<h1>rocci: Compare models</h1>" in text and "breast_cancer_cv.csv" in text
    assert "cmp_rates=0.2%2C+0.4" in text  # the view's settings, to reproduce it
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    y = np.asarray(prep.is_positive, bool)
    ref = rocci.compare_thresholds(y, np.asarray(prep.scores["logistic"], float),
                                   np.asarray(prep.scores["naive_bayes"], float), total_positive_rate=[0.2, 0.4])
    assert f'<td class="num">{ref.p_a_dominates[1]:.6g}</td>' in text
    # opened from disk, with the network closed: the charts are drawn by the inlined plotly.js
    offline = page.context.new_page()
    offline.goto(path.as_uri())
    offline.wait_for_selector(".main-svg")
    assert offline.locator(".js-plotly-plot").count() >= 2  # the overlay and the dominance map
    offline.screenshot(path=str(ARTIFACTS / "report_compare.png"))
    offline.close()


# --- reports of several pages on an upload that is not in the repository ---------------------------------

MODELS = ("gradient_boosting", "logistic_regression", "random_forest")
REPORT_PAGES = {  # sidebar title -> the report's file name
    "Data": "rocci_report_data.html",
    "ROC curve": "rocci_report_roc_curve.html",
    "Cost curves": "rocci_report_cost_curves.html",
    "Compare models": "rocci_report_compare_models.html",
    "Threshold explorer": "rocci_report_threshold_explorer.html",
}


def write_churn(path, *, n: int = 1500, share: float = 0.12, models=MODELS, seed: int = 12):
    """A three-model, imbalanced file with string labels ('churn' is rare) and a text id column."""
    rng = np.random.default_rng(seed)
    churn = rng.random(n) < share
    cols = {"customer": [f"C{i:05d}" for i in range(n)], "outcome": np.where(churn, "churn", "stay")}
    for k, name in enumerate(models):
        z = rng.normal(size=n) + (0.9 + 0.35 * k) * churn
        cols[name] = np.round(1 / (1 + np.exp(-z)), 3)  # rounded: ties, as real scores have
    pd.DataFrame(cols).to_csv(path, index=False)
    return path


def upload_and_map(page, path, wait):
    page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Upload a file", exact=True).click()
    wait(page)
    page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
    wait(page)
    sidebar = page.get_by_test_id("stSidebar")
    if "positive = churn" not in sidebar.inner_text():  # preselected or not: 'churn' is the positive class
        page.get_by_role("combobox", name="Positive label", exact=True).click()
        page.get_by_role("option", name="churn", exact=True).click()
        wait(page)
    assert "positive = churn" in sidebar.inner_text()
    assert path.name in sidebar.inner_text()


def download_report(page, name: str) -> str:
    with page.expect_download() as dl:
        page.get_by_test_id("stSidebar").get_by_role("button", name="Download HTML report").click()
    assert dl.value.suggested_filename == name
    path = ARTIFACTS / name
    dl.value.save_as(str(path))
    return path


def visible_text(page) -> str:
    return page.locator("body").inner_text()


def test_reports_of_several_pages_on_an_imbalanced_three_model_upload(page, app_url, tmp_path, wait, browser):
    """Data, ROC, Cost, Compare and Explorer reports of a 'churn'/'stay' file: each opens offline, at desktop
    and phone widths, with every headline naming its model and value, no raw Markdown or LaTeX, long tables
    summarised with their CSV attached, nothing wider than the screen."""
    page.goto(app_url)
    wait(page)
    upload_and_map(page, write_churn(tmp_path / "churn_scores.csv"), wait)
    reports = {}
    shown_auc = {}
    for title, name in REPORT_PAGES.items():
        page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
        wait(page)
        assert page.get_by_test_id("stException").count() == 0, title
        if title == "ROC curve":
            for m in MODELS:
                metric = page.get_by_test_id("stMetric").filter(has_text=f"AUC · {m}")
                shown_auc[m] = metric.get_by_test_id("stMetricValue").inner_text().strip()
        reports[title] = download_report(page, name)

    for title, path in reports.items():
        text = path.read_text(encoding="utf-8")
        assert "churn_scores.csv" in text, title
        for size, width in (("desktop", 1400), ("phone", 390)):
            context = browser.new_context(viewport={"width": width, "height": 900}, offline=True,
                                          accept_downloads=True)
            view = context.new_page()
            dialogs = []
            view.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            view.goto(path.as_uri())
            if "Plotly.newPlot" in text:
                view.wait_for_selector(".main-svg")
            view.wait_for_timeout(500)
            body = visible_text(view)
            slug = path.stem.replace("rocci_report_", "")
            view.screenshot(path=str(ARTIFACTS / f"report_{slug}_{size}.png"), full_page=True)
            # no raw Markdown or LaTeX escapes, no script ran
            for raw in ("\\%", "\\,", "\\_", "**", "\\(", ":red[", "$"):
                assert raw not in body, (title, raw)
            assert not dialogs
            # nothing wider than the screen: wide tables scroll inside their own box
            assert view.evaluate("document.documentElement.scrollWidth") <= width + 1, (title, size)
            if size == "desktop":
                check_tables(view, title)
            context.close()

    # The ROC report: one headline card per model, with its AUC as on the page and its interval.
    roc = reports["ROC curve"].read_text(encoding="utf-8")
    offline = browser.new_context(offline=True).new_page()
    offline.goto(reports["ROC curve"].as_uri())
    cards = offline.locator(".metric")
    for m in MODELS:
        card = cards.filter(has_text=f"AUC · {m}")
        assert card.count() == 1, m
        card_text = card.inner_text()
        assert shown_auc[m] in card_text and "interval" in card_text and "[" in card_text, card_text
    offline.context.close()
    assert roc.count("plotly.js v") == 1
    # The Data report has the class counts as headlines.
    data = reports["Data"].read_text(encoding="utf-8")
    assert 'class="label">Positives</div>' in data and 'class="label">Negatives</div>' in data


def check_tables(view, title: str) -> None:
    """Long tables show a few rows and a note; each table's CSV link downloads the full table."""
    notes = view.locator(".table-note")
    for i in range(notes.count()):
        note = notes.nth(i)
        link = note.locator("a.csv")
        if link.count() == 0:
            continue
        m = re.search(r"\(CSV, ([\d,]+) rows?\)", link.inner_text())
        n_rows = int(m.group(1).replace(",", ""))
        table = note.locator("xpath=preceding-sibling::div[contains(@class,'table-wrap')][1]")
        shown = table.locator("tbody tr").count()
        assert shown <= 1 + 15 + 10, (title, shown)  # at most the first and last rows (and a gap row)
        if n_rows > 25:
            assert "more rows" in table.inner_text(), title
        if i == 0:  # the attached CSV is the full table, readable by pandas
            with view.expect_download() as dl:
                link.click()
            back = pd.read_csv(dl.value.path())
            assert len(back) == n_rows, title


def test_report_keeps_hostile_names_as_text_in_the_browser(page, app_url, tmp_path, wait, browser):
    """Model and label names that look like markup stay text in the report opened in Chromium: no dialog,
    no image, no link to anything but the attached CSVs."""
    evil_model = "<img src=x onerror=alert(1)>"
    evil_label = "churn"
    path = write_churn(tmp_path / "evil.csv", n=300, models=(evil_model, "**bold** [x](javascript:alert(2))"))
    page.goto(app_url)
    wait(page)
    upload_and_map(page, path, wait)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="ROC curve").click()
    wait(page)
    report = download_report(page, "rocci_report_roc_curve.html")
    view = browser.new_context(offline=True).new_page()
    dialogs = []
    view.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    view.goto(report.as_uri())
    view.wait_for_selector(".main-svg")
    view.wait_for_timeout(500)
    assert not dialogs
    assert view.locator("body img").count() == 0
    hrefs = view.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert all(h.startswith("data:text/csv;") for h in hrefs), hrefs
    body = view.locator("body").inner_text()
    assert f"AUC · {evil_model}" in body  # shown as the text it is
    assert "AUC · **bold** [x](javascript:alert(2))" in body
    assert evil_label in body
    view.screenshot(path=str(ARTIFACTS / "report_hostile_names.png"), full_page=True)
    view.context.close()
