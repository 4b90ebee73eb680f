"""Threshold explorer in a real browser: charts drawn, rocci's numbers shown, choices kept in the URL."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci import data as rdata
from ui.text import pvalue_text

from .conftest import ARTIFACTS, ROOT

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def _arrays(model):
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    return np.asarray(prep.is_positive, bool), np.asarray(prep.scores[model], float)


def _metric(page, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue").first.inner_text().strip()


def test_explorer_page_draws_charts_with_rocci_numbers(page, app_url, wait, shot):
    page.goto(app_url + "/explorer")
    wait(page)
    expect(page.get_by_role("heading", name="Threshold explorer")).to_be_visible()
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts.first.locator(".main-svg").first).to_be_visible()
    assert charts.count() >= 2
    assert charts.first.locator("g.trace.scatter").count() >= 3  # chance, ideal, gain, current
    y, s = _arrays("logistic")
    conf = rocci.confusion_at(y, s, 0.5)
    assert _metric(page, "Accuracy") == f"{conf.accuracy:.4f}"
    assert _metric(page, "Precision") == f"{conf.precision:.4f}"
    assert _metric(page, "Recall") == f"{conf.recall:.4f}"
    assert _metric(page, f"Predicted positive (of {conf.n:,})") == f"{conf.n_predicted_positive:,}"
    test = rocci.binomial_test(conf.errors, conf.n, min(conf.n_pos, conf.n_neg) / conf.n, alternative="less")
    assert _metric(page, "P-value") == pvalue_text(test.pvalue) == "< 0.0001"  # 2.752e-94, written as people read it
    body = page.inner_text("body")
    assert "Confusion matrix" in body and "Clopper–Pearson" in body
    assert page.get_by_test_id("stException").count() == 0
    assert "Traceback" not in body
    shot(page, "explorer_page")
    # the full threshold table downloads with every distinct score
    page.get_by_role("tab", name="All thresholds").click()
    button = page.get_by_test_id("stDownloadButton").filter(has_text="Download the full table")
    expect(button).to_be_visible()
    with page.expect_download() as dl:
        button.locator("button").click()
    path = ARTIFACTS / "rocci_thresholds.csv"
    dl.value.save_as(str(path))
    lines = path.read_text().splitlines()
    assert lines[0].startswith("threshold,n_at_threshold,tp,fn,fp,tn,n_predicted_positive,total_positive_rate,recall,precision")
    assert len(lines) == 1 + len(rocci.threshold_table(y, s))


def test_explorer_choices_go_to_the_url_and_bad_p0_is_an_error_box(page, app_url, wait, shot):
    page.goto(app_url + "/explorer")
    wait(page)
    page.get_by_test_id("stButtonGroup").get_by_text("Youden", exact=True).click()
    wait(page)
    assert "ex_by=Youden" in page.url
    y, s = _arrays("logistic")
    conf = rocci.confusion_at(y, s, rocci.youden_threshold(y, s))
    assert _metric(page, "Accuracy") == f"{conf.accuracy:.4f}"
    # the link restores the state in a fresh page
    other = page.context.new_page()
    other.goto(page.url)
    wait(other)
    assert _metric(other, "Accuracy") == f"{conf.accuracy:.4f}"
    assert _metric(other, "Recall") == f"{conf.recall:.4f}"
    other.close()
    # a reference error rate outside (0, 1): an error box, not a traceback
    box = page.get_by_role("textbox", name="Reference error rate p0")
    box.fill("1.5")
    box.press("Enter")
    wait(page)
    alert = page.get_by_test_id("stAlert").filter(has_text="p0")
    expect(alert.first).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
    assert _metric(page, "Accuracy") == f"{conf.accuracy:.4f}"  # the rest of the page still works
    shot(page, "explorer_bad_p0")
