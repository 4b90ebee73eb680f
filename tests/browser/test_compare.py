"""Compare models in a real browser: the overlay and the pair table carry rocci's numbers, the tabs run on
demand and are kept in the URL, the exact law of ΔTPR is drawn, downloads work."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci import data as rdata
from ui.text import pvalue_text
from ui.text import signed_interval

from .conftest import ARTIFACTS, ROOT

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def _arrays():
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    return (np.asarray(prep.is_positive, bool), np.asarray(prep.scores["logistic"], float),
            np.asarray(prep.scores["naive_bayes"], float))


def _metric(page, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue").first.inner_text().strip()


def test_compare_page_shows_rocci_numbers_and_tabs_round_trip(page, app_url, wait, shot):
    page.goto(app_url + "/compare")
    wait(page)
    expect(page.get_by_role("heading", name="Compare models")).to_be_visible()
    chart = page.locator("[data-testid='stPlotlyChart']").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    y, a, b = _arrays()
    ref = rocci.compare_thresholds(y, a, b, total_positive_rate=[0.1, 0.2, 0.3, 0.5])
    body = page.inner_text("body")
    assert f"in {round(100 * ref.p_a_dominates[2])}% of bootstrap worlds model logistic" in body
    assert f"ΔTPR (A − B) = {ref.delta_tpr[2]:+.3f}" in body
    assert page.get_by_test_id("stException").count() == 0 and "Traceback" not in body
    shot(page, "compare_page")

    # the pair table downloads with the exact probabilities
    button = page.get_by_test_id("stDownloadButton").filter(has_text="threshold-pair comparison")
    with page.expect_download() as dl:
        button.locator("button").click()
    path = ARTIFACTS / "rocci_compare_pairs.csv"
    dl.value.save_as(str(path))
    import pandas as pd
    got = pd.read_csv(path)
    np.testing.assert_allclose(got["p_a_dominates"], ref.p_a_dominates, rtol=1e-12)
    np.testing.assert_allclose(got["delta_tpr_low"], ref.delta_tpr_low, rtol=1e-12)

    # the AUC tab runs when opened, and the open tab is in the URL
    page.get_by_role("tab", name="AUC (DeLong)").click()
    wait(page)
    auc = rocci.compare_auc(y, a, b)
    assert _metric(page, "ΔAUC (A − B)") == signed_interval(auc.delta_auc, auc.delta_auc_low, auc.delta_auc_high, 4)[0]
    assert "cmp_tab=" in page.url
    other = page.context.new_page()
    other.goto(page.url)
    wait(other)
    assert _metric(other, "p-value (DeLong, two-sided)") == pvalue_text(auc.pvalue)
    other.close()


def test_exact_law_of_delta_tpr_is_drawn(page, app_url, wait, shot):
    page.goto(app_url + "/compare?cmp_tab=TPR+at+fixed+FPR&cmp_vfpr=0.1")
    wait(page)
    y, a, b = _arrays()
    ref = rocci.compare_vertical(y, a, b, fpr=[0.1])
    body = page.inner_text("body")
    assert f"P(A better) = {ref.p_a_better[0]:.3f}" in body
    page.get_by_text("Show the exact distribution").click()
    wait(page)
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts.last.locator("g.trace.bars").first).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "compare_delta_tpr_law")
