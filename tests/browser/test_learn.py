"""Learn page in a real browser: the page loads at /learn, charts are drawn, the threshold slider moves
the confusion matrix to rocci's values, choices go to the URL."""

from __future__ import annotations

import pandas as pd
import pytest

import rocci

from .conftest import ROOT

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def _example():
    df = pd.read_csv(ROOT / "data" / "thesis_example.csv")
    return df["label"].to_numpy() == 1, df["score"].to_numpy(dtype=float)


def _metric(page, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue").first.inner_text().strip()


def _slider(page, label: str):
    return page.get_by_test_id("stSlider").filter(has=page.get_by_text(label, exact=True)).get_by_role("slider")


def test_learn_page_loads_draws_and_follows_the_slider(page, app_url, wait, shot):
    page.goto(app_url + "/learn")
    wait(page)
    expect(page.get_by_role("heading", name="Learn", exact=True)).to_be_visible()
    for title in ("1 · A ROC point and its confusion matrix", "2 · A cost line and the ROC point it maps to",
                  "3 · The cost curve is the ROC convex hull", "4 · Why one ROC curve is not enough",
                  "5 · Threshold averaging or vertical averaging?"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts).to_have_count(10)
    for i in range(10):
        charts.nth(i).scroll_into_view_if_needed()
        expect(charts.nth(i).locator(".main-svg").first).to_be_visible()
    assert charts.first.locator("g.trace.scatter").count() >= 3
    y, s = _example()
    conf = rocci.confusion_at(y, s, 0.32)
    assert _metric(page, "TPR") == f"{conf.recall:.4f}"
    assert _metric(page, "FPR") == f"{conf.fpr:.4f}"
    body = page.inner_text("body")
    assert "0.1304" in body and "0.5385" in body and "0.6667" in body
    shot(page, "learn_page")

    # One step right on the threshold slider: the next distinct score, 0.33.
    thumb = _slider(page, "Threshold")
    thumb.focus()
    thumb.press("ArrowRight")
    wait(page)
    expect(page.get_by_text("Confusion matrix at score ≥ 0.33")).to_be_visible()
    conf = rocci.confusion_at(y, s, 0.33)
    assert _metric(page, "TPR") == f"{conf.recall:.4f}"
    assert _metric(page, "FPR") == f"{conf.fpr:.4f}"
    table = page.get_by_test_id("stTable").first.inner_text()
    assert f"TP = {conf.tp}" in table and f"FP = {conf.fp}" in table and f"TN = {conf.tn}" in table
    assert "ln_t=0.33" in page.url
    assert page.get_by_test_id("stException").count() == 0
    assert "Traceback" not in page.inner_text("body")
    shot(page, "learn_page_slider")


def test_learn_link_restores_w_and_new_worlds(page, app_url, wait, shot):
    page.goto(app_url + "/learn?ln_w=0.6")
    wait(page)
    body = page.inner_text("body")
    w = rocci.cost_curve(*_example(), w=[0.6])
    assert w.threshold[0] == 0.25
    assert f"The cheapest threshold there is 0.25 with cost {w.cost[0]:.4f}" in body
    page.get_by_role("button", name="Draw 20 new worlds").click()
    wait(page)
    assert "ln_seed=2" in page.url
    assert "seed 2" in page.inner_text("body")
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "learn_page_worlds")
