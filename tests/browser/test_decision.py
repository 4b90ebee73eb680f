"""Decision-ready in a real browser (issue 12): an imbalanced three-model upload with string labels.

- the Compare page opens with the verdict (ΔAUC, ΔTPR at 10% FPR, cost difference) and it is rocci's;
- each model keeps one colour on every page (ROC, Compare, Cost), from a colour-blind-safe palette;
- on a phone (390 px) the results come before the controls;
- the operating condition set on the Cost page is the Explorer's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci.plots import COLORS
from ui.text import signed_interval

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def fraud_csv(path, n=3000, share=0.16, seed=7):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    base = rng.normal(size=n)
    frame = pd.DataFrame({"outcome": np.where(y, "fraud", "ok")})
    for name, sep in (("gbm", 1.6), ("logit", 1.2), ("rules", 0.8)):
        z = sep * y + 0.6 * base + rng.normal(size=n)
        frame[name] = np.round(1 / (1 + np.exp(-(z - 1.5))), 4)
    frame.to_csv(path, index=False)
    return frame


def upload(page, app_url, path, wait):
    page.goto(app_url)
    wait(page)
    page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Upload a file", exact=True).click()
    wait(page)
    page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
    wait(page)


def go(page, title, wait):
    page.get_by_test_id("stSidebarNavLink").filter(has_text=title).first.evaluate("e => e.click()")
    wait(page)
    expect(page.get_by_role("heading", name=title).first).to_be_visible()


def trace_colors(page, chart_index: int) -> dict:
    """{trace name: line colour} of the n-th Plotly chart on the page."""
    return page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot").nth(chart_index).evaluate(
        "el => Object.fromEntries(el.data.filter(t => t.line && t.line.color).map(t => [t.name, t.line.color]))")


def no_exception(page):
    assert page.get_by_test_id("stException").count() == 0
    assert "Traceback" not in page.inner_text("body")


def test_verdict_colours_and_shared_condition(page, app_url, tmp_path, wait, shot):
    path = tmp_path / "fraud_scores.csv"
    frame = fraud_csv(path)
    y = frame["outcome"].to_numpy() == "fraud"
    upload(page, app_url, path, wait)

    go(page, "ROC curve", wait)
    roc = trace_colors(page, 0)
    colour = {m: next(c for name, c in roc.items() if name.startswith(m + " —")) for m in ("gbm", "logit", "rules")}
    assert [colour[m].lower() for m in ("gbm", "logit", "rules")] == [c.lower() for c in COLORS[:3]]

    go(page, "Compare models", wait)
    body = page.inner_text("body")
    assert "Is gbm better than logit?" in body
    auc = rocci.compare_auc(y, frame["gbm"], frame["logit"])
    vc = rocci.compare_vertical(y, frame["gbm"], frame["logit"], fpr=[0.1])
    d, lo, hi = signed_interval(auc.delta_auc, auc.delta_auc_low, auc.delta_auc_high, 3)
    assert d in body and f"[{lo}, {hi}]" in body
    tpr = signed_interval(vc.delta_tpr_mean[0], vc.delta_tpr_low[0], vc.delta_tpr_high[0], 1, scale=100.0)[0]
    assert f"{tpr} pts" in body
    assert "At the 95% level:" in body
    # the verdict is above the chart
    verdict_y = page.get_by_text("Is gbm better than logit?").bounding_box()["y"]
    chart_y = page.locator("[data-testid='stPlotlyChart']").first.bounding_box()["y"]
    assert verdict_y < chart_y
    # logit is orange here too, although it is model B (index 1 among the chosen models either way)
    cmp = trace_colors(page, 0)
    assert next(c for n, c in cmp.items() if n.startswith("logit —")).lower() == colour["logit"].lower()
    no_exception(page)
    shot(page, "decision_compare_1400")

    # Choose rules as model A: its colour stays green, not the first colour.
    page.get_by_role("combobox", name="Model A", exact=True).click()
    page.get_by_role("option", name="rules", exact=True).click()
    wait(page)
    cmp = trace_colors(page, 0)
    assert next(c for n, c in cmp.items() if n.startswith("rules —")).lower() == colour["rules"].lower()

    # The operating condition set on the Cost page is the Explorer's.
    go(page, "Cost curves", wait)
    body = page.inner_text("body")
    share = y.mean()
    assert f"Prior from your data: {100 * share:.1f}%" in body
    box = page.get_by_role("spinbutton", name="C(−|+), missed positive")
    box.fill("10")
    box.press("Enter")
    wait(page)
    w = rocci.operating_point(share, 10.0, 1.0)
    assert f"{w:.4f}" in page.inner_text("body")
    go(page, "Threshold explorer", wait)
    page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Lowest cost", exact=True).click()
    wait(page)
    body = page.inner_text("body")
    assert f"{w:.4f}" in body and "per 1,000 instances" in body
    t = rocci.cost_threshold(y, frame["gbm"], w=w)
    assert f"score ≥ {t:g}" in body
    no_exception(page)


def test_phone_shows_results_before_controls(browser, app_url, tmp_path, wait, shot):
    context = browser.new_context(viewport={"width": 390, "height": 1600})
    page = context.new_page()
    try:
        path = tmp_path / "fraud_scores.csv"
        fraud_csv(path)
        upload(page, app_url, path, wait)
        for title, first_result in (("Compare models", "Is gbm better than logit?"), ("ROC curve", None),
                                    ("Cost curves", None), ("Threshold explorer", None)):
            go(page, title, wait)
            controls_y = page.get_by_text("Confidence level").first.bounding_box()["y"]
            if first_result:
                assert page.get_by_text(first_result).bounding_box()["y"] < controls_y, title
            chart = page.locator("[data-testid='stPlotlyChart']").first
            assert chart.bounding_box()["y"] < controls_y, title
            # nothing wider than the screen
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 392, title
            no_exception(page)
            shot(page, "decision_phone_" + title.split()[0].lower())
    finally:
        context.close()
