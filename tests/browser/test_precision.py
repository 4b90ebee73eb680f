"""Precision–recall page in a real browser: it opens from the sidebar, draws its chart with rocci's numbers,
shows the two-model verdict on an imbalanced three-model upload, draws the gain and lift charts with their
intervals (Curves tab, CSV with rocci's numbers), and fits a 1400 px and a 390 px screen (screenshots in
test-artifacts/precision_*.png)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rocci
import rocci.precision as rp
from rocci.roc.threshold import thresholds_for_total_positive_rate
from ui.text import signed_interval

from .test_dashboard import no_exception, segment, upload

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser

WIDE = """() => [...document.querySelectorAll('[data-testid=stMain] *')]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
            && !e.closest('[data-testid=stDataFrame]') && !e.closest('[data-testid=stTable]')
            && !e.closest('[data-testid=stPlotlyChart]')  // plotly's own clip paths; the chart box is checked
            && !(e.tagName === 'INPUT' && e.type === 'range'))
    .map(e => e.tagName + '.' + e.className).slice(0, 5)"""


def fraud_file(path):
    """800 instances, 2.5% fraud, three models, string labels (as tests/app/test_precision_page.py)."""
    rng = np.random.default_rng(4)
    n, n_pos = 800, 20
    y = np.zeros(n, bool)
    y[rng.choice(n, n_pos, replace=False)] = True
    base = rng.normal(size=n)
    frame = pd.DataFrame({
        "label": np.where(y, "fraud", "legit"),
        "gbm": np.round(1 / (1 + np.exp(-(base + 2.6 * y - 3))), 4),
        "logit": np.round(1 / (1 + np.exp(-(0.6 * base + 0.8 * rng.normal(size=n) + 1.8 * y - 3))), 4),
        "rules_v2": np.round(1 / (1 + np.exp(-(0.5 * base + rng.normal(size=n) + 1.6 * y - 2.5))), 1),
    })
    frame.to_csv(path, index=False)
    return frame


def _metric(page, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue").first.inner_text().strip()


def _fits(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
    wide = page.evaluate(WIDE)
    assert not wide, wide
    rights = page.evaluate("() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]"
                           ".map(e => e.getBoundingClientRect().right)")
    assert rights and all(r <= width + 1 for r in rights), rights


def test_precision_page_from_the_sidebar_on_an_imbalanced_upload(page, app_url, tmp_path, wait, shot):
    path = tmp_path / "fraud.csv"
    frame = fraud_file(path)
    page.goto(app_url)
    wait(page)
    upload(page, path, wait)
    no_exception(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Precision–recall").click()
    wait(page)
    expect(page.get_by_role("heading", name="Precision–recall").first).to_be_visible()
    assert "/precision" in page.url
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    assert chart.locator("g.trace.scatter").count() >= 5  # baseline, three curves, bars, current point
    no_exception(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0
    # numbers are rocci's: the two-model verdict at 80% recall
    y = (frame["label"] == "fraud").to_numpy()
    cmp = rp.compare_precision(y, frame["gbm"].to_numpy(float), frame["logit"].to_numpy(float), recall=[0.8])
    delta = signed_interval(cmp.delta[0], cmp.delta_low[0], cmp.delta_high[0], 1, scale=100.0)[0]
    assert _metric(page, "Δprecision, gbm − logit") == f"{delta} pts"
    assert "At 80% recall" in page.inner_text("body")

    page.set_viewport_size({"width": 1400, "height": 2600})
    page.wait_for_timeout(800)
    _fits(page, 1400)
    shot(page, "precision_1400")

    page.set_viewport_size({"width": 390, "height": 3400})
    page.wait_for_timeout(1500)
    _fits(page, 390)
    # phones: the results (the chart) come before the controls
    chart_top = chart.bounding_box()["y"]
    control_top = page.get_by_text("Curves and intervals", exact=True).bounding_box()["y"]
    assert chart_top < control_top
    shot(page, "precision_390")
    no_exception(page)


def test_verdict_by_false_positive_rates_on_a_larger_upload(page, app_url, tmp_path, wait, shot):
    """12,000 transactions with 5% fraud: the exact law of Δprecision at 80% recall is past the page's grid, so
    the verdict is read on the false positive rates (the same P(A better)); it fits 1400 and 390 px."""
    path = tmp_path / "transactions_12k.csv"
    frame = ok_fraud_file(path, n=12_000, share=0.05, seed=23)
    y = (frame["label"] == "fraud").to_numpy()
    a, b = frame["xgboost"].to_numpy(float), frame["logreg"].to_numpy(float)
    assert rp.recall_grid_cells(y, a, b, recall=[0.8])[0] > 4_000_000
    page.goto(app_url)
    wait(page)
    upload(page, path, wait)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Precision–recall").click()
    wait(page)
    no_exception(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0
    ref = rp.compare_fpr_at_recall(y, a, b, recall=[0.8])
    delta = signed_interval(ref.delta_fpr[0], ref.delta_fpr_low[0], ref.delta_fpr_high[0], 1, scale=100.0)[0]
    assert _metric(page, "ΔFPR, xgboost − logreg") == f"{delta} pts"
    body = page.inner_text("body")
    assert "flags fewer negatives" in body and "false positive rates" in body
    head = page.get_by_text("Which has the higher precision", exact=False).first
    page.set_viewport_size({"width": 1400, "height": 1100})
    page.wait_for_timeout(800)
    head.scroll_into_view_if_needed()
    _fits(page, 1400)
    shot(page, "precision_verdict_fpr_1400")
    page.set_viewport_size({"width": 390, "height": 1600})
    page.wait_for_timeout(1500)
    head.scroll_into_view_if_needed()
    _fits(page, 390)
    shot(page, "precision_verdict_fpr_390")
    no_exception(page)


def test_precision_page_keeps_its_link(page, app_url, wait):
    page.goto(app_url + "/precision?pr_level=90%25&pr_method=Wald")
    wait(page)
    no_exception(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0
    assert "pr_level=90%25" in page.url and "pr_method=Wald" in page.url
    assert page.get_by_test_id("stPlotlyChart").count() >= 1


def ok_fraud_file(path, n=3000, share=0.05, seed=21):
    """3,000 transactions, 5% fraud, labels 'fraud'/'ok', three models (one with coarse, tied scores)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    base = rng.normal(size=n)
    frame = pd.DataFrame({"txn_id": np.arange(n) + 500_000, "label": np.where(y, "fraud", "ok")})
    for name, sep, digits in (("xgboost", 2.0, 4), ("logreg", 1.4, 4), ("rules", 1.0, 1)):
        z = sep * y + 0.6 * base + rng.normal(size=n)
        frame[name] = np.round(1 / (1 + np.exp(-(z - 2.5))), digits)
    frame.to_csv(path, index=False)
    return frame


def _gain_charts(page):
    gain = page.get_by_test_id("stPlotlyChart").filter(has_text="random targeting (gain = depth)")
    lift = page.get_by_test_id("stPlotlyChart").filter(has_text="random targeting (lift = 1)")
    return gain.first, lift.first


def test_gain_and_lift_in_the_curves_tab(page, app_url, tmp_path, wait, shot):
    path = tmp_path / "transactions.csv"
    frame = ok_fraud_file(path)
    page.goto(app_url)
    wait(page)
    upload(page, path, wait)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Precision–recall").click()
    wait(page)
    page.get_by_role("tab", name="Curves").click()
    wait(page)
    no_exception(page)
    gain, lift = _gain_charts(page)
    expect(gain.locator(".main-svg").first).to_be_visible()
    expect(lift.locator(".main-svg").first).to_be_visible()
    # diagonal, perfect model, three curves, the intervals; lift 1, three curves, the intervals
    assert gain.locator("g.trace.scatter").count() >= 6 and lift.locator("g.trace.scatter").count() >= 5
    assert "at fixed thresholds" in gain.inner_text()
    body = page.inner_text("body")
    assert "Lift = gain ÷ depth" in body and "not a band for the whole curve" in body
    # the CSV holds rocci's numbers: thresholds reaching 5%, 10%, 20%, 30%, 50% of the population
    y = (frame["label"] == "fraud").to_numpy()
    s = frame["xgboost"].to_numpy(float)
    counts = rocci.ScoreCounts.from_arrays(y, s)
    t = np.unique(thresholds_for_total_positive_rate(counts, np.array([0.05, 0.1, 0.2, 0.3, 0.5])))[::-1]
    ref = rp.gain_ci(y, s, thresholds=t)
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download gain and lift intervals (CSV)").click()
    got = pd.read_csv(dl.value.path())
    assert set(got["model"]) == {"xgboost"} and set(got["at"]) == {"threshold"}
    np.testing.assert_allclose(got["gain_low"], ref.gain_low, atol=1e-9)
    np.testing.assert_allclose(got["lift_high"], ref.lift_high, atol=1e-9)
    np.testing.assert_allclose(got["total_positive_rate_high"], ref.total_positive_rate_high, atol=1e-9)

    page.set_viewport_size({"width": 1400, "height": 1300})
    page.wait_for_timeout(800)
    gain.scroll_into_view_if_needed()
    _fits(page, 1400)
    shot(page, "precision_gain_1400")

    # the depth held fixed: vertical bars only, the table says k
    segment(page, "The depth", wait)
    if not gain.is_visible():
        page.get_by_role("tab", name="Curves").click()
        wait(page)
    no_exception(page)
    gain, lift = _gain_charts(page)
    expect(gain).to_contain_text("at fixed depths")
    with page.expect_download() as dl:  # rocci's fixed-depth laws (tied draws in random order)
        page.get_by_role("button", name="Download gain and lift intervals (CSV)").click()
    got = pd.read_csv(dl.value.path())
    assert set(got["at"]) == {"total_positive_rate"}
    ref = rp.gain_ci(y, s, total_positive_rate=got["total_positive_rate"].to_numpy())
    assert (got["k"].to_numpy() == ref.k).all()
    np.testing.assert_allclose(got["gain_low"], ref.gain_low, atol=1e-9)
    np.testing.assert_allclose(got["gain_high"], ref.gain_high, atol=1e-9)
    page.wait_for_timeout(500)
    gain.scroll_into_view_if_needed()
    _fits(page, 1400)
    shot(page, "precision_gain_depth_1400")
    page.set_viewport_size({"width": 390, "height": 5200})
    page.wait_for_timeout(1500)
    _fits(page, 390)
    # on a phone the two charts are stacked, each as wide as the screen allows
    g, l_ = gain.bounding_box(), lift.bounding_box()
    assert l_["y"] >= g["y"] + g["height"] - 1
    assert g["width"] > 300
    gain.scroll_into_view_if_needed()
    shot(page, "precision_gain_390")
    no_exception(page)
