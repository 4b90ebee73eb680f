"""Folds & classes page in a real browser: charts drawn, rocci's numbers shown, no exception."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci import data as rdata

from .conftest import ROOT

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def test_folds_page_draws_folds_pooled_band_and_ttest(page, app_url, wait, shot):
    page.goto(app_url + "/folds")
    wait(page)
    expect(page.get_by_role("heading", name="Folds & classes")).to_be_visible()
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts).to_have_count(3)  # fold by fold, pooled, the paired t-test
    expect(charts.first.locator(".main-svg").first).to_be_visible()
    # Five fold curves, the band and the mean, the chance line.
    assert charts.first.locator("g.trace.scatter").count() >= 8
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"], fold=g["fold"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    y = np.asarray(prep.is_positive)
    curves = rocci.fold_roc_curves(y, prep.scores["logistic"], prep.fold)
    cmp = rocci.compare_folds(y, prep.scores["logistic"], prep.scores["naive_bayes"], prep.fold)
    body = page.inner_text("body")
    assert f"{curves.auc.mean():.4f}" in body
    assert f"{cmp.pvalue:.4f}" in body
    assert "Two kinds of uncertainty" in body
    assert page.get_by_test_id("stException").count() == 0
    assert "Traceback" not in body
    shot(page, "folds_page")
    # The choice goes into the URL, and the URL restores it.
    page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Threshold", exact=True).click()
    wait(page)
    assert "fc_avg=Threshold" in page.url
    page.goto(page.url + "&fc_corner=true")
    wait(page)
    expect(page.get_by_text("each square is the mean (FPR, TPR)", exact=False)).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "folds_page_threshold")


def test_classes_page_with_the_wine_sample(page, app_url, wait, shot):
    page.goto(app_url + "/folds")
    wait(page)
    page.get_by_role("link", name="Data").first.click()
    wait(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Sample").first.click()
    page.get_by_role("option", name="wine_cv.csv", exact=False).click()
    wait(page)
    page.get_by_role("link", name="Folds & classes").first.click()
    wait(page)
    expect(page.get_by_text("One class against the rest")).to_be_visible()
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts).to_have_count(2)
    expect(charts.nth(1).locator(".main-svg").first).to_be_visible()
    df = rocci.load_table(ROOT / "data" / "wine_cv.csv")
    top = rocci.top_score_curve(df["class"], df[["cultivar_1", "cultivar_2", "cultivar_3"]].to_numpy())
    body = page.inner_text("body")
    assert f"{top.auc:.4f}" in body and f"{top.accuracy:.1%}" in body
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "folds_classes_page")
