"""The dashboard in a real browser: upload, map, see the ROC chart and its numbers, bad files.

Few and robust: each test waits for Streamlit's reruns to finish and asserts
what a person would see.  Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

# 10 negatives (label "A") and 10 positives ("B"); at threshold 0.5:
# 7 positives and 2 negatives have score >= 0.5, so TPR 0.7 and FPR 0.2.
POS = [0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
NEG = [0.75, 0.55, 0.45, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05]


def write_csv(path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "group", "risk_score"])
        for i, s in enumerate(POS):
            w.writerow([i, "B", s])
        for i, s in enumerate(NEG):
            w.writerow([100 + i, "A", s])
    return path


def no_exception(page):
    assert page.get_by_test_id("stException").count() == 0
    assert "Traceback" not in page.inner_text("body")


def choose(page, widget_label: str, option: str, wait):
    """Pick ``option`` in the selectbox labelled ``widget_label``."""
    page.get_by_role("combobox", name=widget_label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()
    wait(page)


def segment(page, option: str, wait):
    """Click ``option`` of a segmented control."""
    page.get_by_test_id("stButtonGroup").get_by_role("radio", name=option, exact=True).click()
    wait(page)


def large_source(page, url, wait, file: str | None = None):
    """Open ``url``, choose the "Large data (server)" source and, if given, the ``file`` of its data directory."""
    page.goto(url)
    wait(page)
    segment(page, "Large data (server)", wait)
    if file is not None:
        choose(page, "File in the data directory", file, wait)


def upload(page, path, wait):
    segment(page, "Upload a file", wait)
    page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
    wait(page)


def test_deep_link_on_a_fresh_server_gets_the_full_frame(page, app_url, wait):
    # First in this file on purpose: the server is fresh, and a shared link to
    # the ROC page must still get the router's frame (navigation, sidebar,
    # wide layout) and the choices in its query string.
    page.goto(app_url + "/roc?view=Top-left+corner&region=Ellipse")
    wait(page)
    nav = page.get_by_test_id("stSidebarNavLink")
    # Exactly the pages app.py registers (the v1 fallback lists app/data/roc instead).
    registered = (ROOT / "app.py").read_text().count("st.Page(")
    expect(nav).to_have_count(registered)
    expect(nav.filter(has_text="ROC curve")).to_be_visible()
    expect(page.get_by_test_id("stSidebar")).to_contain_text("breast_cancer_cv.csv")
    expect(page.get_by_test_id("stPlotlyChart")).to_contain_text("confidence ellipses")
    no_exception(page)


def test_upload_map_and_read_the_roc_page(page, app_url, tmp_path, wait, shot):
    page.goto(app_url)
    wait(page)
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()  # the sample's histograms
    no_exception(page)
    shot(page, "browser_data_sample")

    upload(page, write_csv(tmp_path / "my_scores.csv"), wait)
    # The labels A/B are equally common: one is preselected and the page says to check it.
    expect(page.get_by_test_id("stMain")).to_contain_text("check it")
    choose(page, "Positive label", "B", wait)
    # "case" holds distinct integers: an id, offered but not preselected as a model.
    models = page.get_by_test_id("stMultiSelect")
    expect(models).to_contain_text("risk_score")
    assert models.get_by_role("button", name="Remove case").count() == 0
    metrics = page.get_by_test_id("stMetric")
    expect(metrics.filter(has_text="Positives")).to_contain_text("10")
    expect(metrics.filter(has_text="Negatives")).to_contain_text("10")
    expect(page.get_by_test_id("stSidebar")).to_contain_text("my_scores.csv")
    no_exception(page)
    shot(page, "browser_data_uploaded")

    page.get_by_test_id("stSidebarNavLink").filter(has_text="ROC curve").click()
    wait(page)
    chart = page.get_by_test_id("stPlotlyChart")
    expect(chart).to_be_visible()
    expect(chart).to_contain_text("confidence rectangles")
    assert chart.locator("g.scatterlayer path.js-line").count() >= 2  # chance line + ROC curve

    # Type a threshold; the results table shows its exact counts and rates.
    segment(page, "Thresholds", wait)
    box = page.get_by_test_id("stTextInput").filter(has_text="Thresholds").locator("input")
    box.fill("0.5")
    box.press("Enter")
    wait(page)
    table = page.get_by_test_id("stDataFrame").first
    expect(table).to_be_visible()
    # The grid is drawn on a canvas; its accessible cells (hidden) carry the values.
    first_cell = table.get_by_test_id("glide-cell-0-0")
    expect(first_cell).to_have_text("0.5")  # threshold
    row = [c.text_content() for c in table.locator("[role='gridcell'][id$='-0']").all()]
    assert "0.7" in row and "0.2" in row  # TPR 7/10 and FPR 2/10
    expect(page.get_by_test_id("stMetric").filter(has_text="AUC")).to_be_visible()
    no_exception(page)
    shot(page, "browser_roc_uploaded")

    # The CSV download holds the same numbers.
    with page.expect_download() as dl:
        page.get_by_test_id("stDownloadButton").filter(has_text="threshold averaging").locator("button").click()
    text = open(dl.value.path(), encoding="utf-8").read()
    header, row = text.splitlines()[:2]
    values = dict(zip(header.split(","), row.split(",")))
    assert float(values["tpr"]) == pytest.approx(0.7) and float(values["fpr"]) == pytest.approx(0.2)
    assert values["confidence_level"] == "0.94999999999999996" or float(values["confidence_level"]) == 0.95

    # The choices are in the URL: a reload restores them.
    assert re.search(r"[?&]thr_by=Thresholds", page.url) and re.search(r"[?&]thr=0\.5", page.url)


def test_bad_file_gives_an_error_message_not_a_traceback(page, app_url, tmp_path, wait, shot):
    page.goto(app_url)
    wait(page)
    bad = tmp_path / "bad.csv"
    bad.write_text("label,score\n1,high\n0,low\n1,0.3\n0,0.1\n")
    upload(page, bad, wait)
    alert = page.get_by_test_id("stAlertContentError")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("not a number")
    expect(alert).to_contain_text("'high'")  # the message quotes the file literally
    assert "\\" not in alert.inner_text()  # escaping does not show
    no_exception(page)
    shot(page, "browser_bad_file")


def test_roc_page_reload_restores_choices(page, app_url, wait, shot):
    page.goto(app_url + "/roc?region=Ellipse&level=90%25&vert_show=true")
    wait(page)
    chart = page.get_by_test_id("stPlotlyChart")
    expect(chart).to_contain_text("90% confidence ellipses")
    expect(chart).to_contain_text("vertical averaging")
    no_exception(page)
    shot(page, "browser_roc_ellipses")


def test_simultaneous_band_toggle_draws_the_band_and_says_what_it_promises(page, app_url, wait, shot):
    """ROC page: switching the simultaneous band on (a person clicking the toggle) draws the hatched band with
    its legend entry and the sentence on the whole curve; the choice lands in the URL."""
    page.goto(app_url + "/roc?thr_show=false")
    wait(page)
    page.get_by_text("Simultaneous band", exact=True).click()
    wait(page)
    chart = page.get_by_test_id("stPlotlyChart")
    expect(chart).to_contain_text("95% simultaneous band (exact)")
    expect(page.get_by_text("lies inside it with 95% confidence").first).to_be_visible()
    assert "band_show=true" in page.url
    no_exception(page)
    shot(page, "browser_roc_band")
