"""The Decision curve page in a real browser, as a new user would meet it: a clinic's file with string
labels, two risk models and a points score, at 1400 px and on a phone (390 px)."""

from __future__ import annotations

import pytest
from realistic import clinic_frame

from rocci.plots import COLORS

from .test_decision import go, no_exception, trace_colors, upload

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def _clinic(tmp_path):
    path = tmp_path / "clinic_risk.csv"
    clinic_frame().to_csv(path, index=False)
    return path


def test_decision_curve_at_1400(page, app_url, tmp_path, wait, shot):
    page.set_viewport_size({"width": 1400, "height": 1800})
    upload(page, app_url, _clinic(tmp_path), wait)
    go(page, "Decision curve", wait)
    no_exception(page)
    body = page.inner_text("body")
    assert "gives more net benefit at threshold probabilities" in body
    assert "not probabilities" in body and "points" in body  # the points score is refused, with the way out
    expect(page.get_by_role("link", name="Open the Cost curves page")).to_be_visible()
    # the verdict is above the chart; each model keeps its colour of every page
    verdict = page.get_by_text("gives more net benefit at threshold").first.bounding_box()["y"]
    chart = page.locator("[data-testid='stPlotlyChart']").first.bounding_box()["y"]
    assert verdict < chart
    colours = trace_colors(page, 0)
    assert colours["risk_v2"].lower() == COLORS[0].lower() and colours["risk_v1"].lower() == COLORS[1].lower()
    assert page.locator("[data-testid='stPlotlyChart']").count() == 2  # decision curve and ΔNB
    shot(page, "decision_curve_1400")


def test_decision_curve_on_a_phone(browser, app_url, tmp_path, wait, shot):
    context = browser.new_context(viewport={"width": 390, "height": 1800})
    page = context.new_page()
    try:
        upload(page, app_url, _clinic(tmp_path), wait)
        go(page, "Decision curve", wait)
        no_exception(page)
        controls_y = page.get_by_text("Confidence level").first.bounding_box()["y"]
        chart = page.locator("[data-testid='stPlotlyChart']").first
        assert chart.bounding_box()["y"] < controls_y
        assert page.get_by_text("gives more net benefit at threshold").first.bounding_box()["y"] < controls_y
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 392
        shot(page, "decision_curve_390")
    finally:
        context.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_clinical_panel_in_the_threshold_explorer(browser, app_url, tmp_path, wait, shot, width):
    context = browser.new_context(viewport={"width": width, "height": 3000 if width > 600 else 4200})
    page = context.new_page()
    try:
        upload(page, app_url, _clinic(tmp_path), wait)
        go(page, "Threshold explorer", wait)
        box = page.get_by_role("spinbutton", name="Prevalence for PPV and NPV")
        box.fill("0.02")
        box.press("Enter")
        wait(page)
        no_exception(page)
        page.get_by_text("Clinical accuracy panel", exact=True).scroll_into_view_if_needed()
        body = page.inner_text("body")
        assert "PPV and NPV at a prevalence of 0.0200" in body and "the prevalence you entered" in body
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 2
        page.wait_for_timeout(300)
        shot(page, f"clinical_panel_{width}")
    finally:
        context.close()
