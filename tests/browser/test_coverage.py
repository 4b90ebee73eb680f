"""Coverage lab in a real browser: an exact preset draws at once, a small simulation runs with its
progress bar and draws error bars, the choices live in the URL."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def test_exact_preset_draws_and_lands_in_url(page, app_url, wait, shot):
    page.goto(app_url + "/coverage")
    wait(page)
    expect(page.get_by_role("heading", name="Coverage lab")).to_be_visible()
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    # Preset button for figure 4.3 (dispersion; the 0.796 dip at θ = 5).
    page.get_by_test_id("stButtonGroup").get_by_text("fig4.3", exact=True).click()
    wait(page)
    expect(page.get_by_text("fig4.3 — Dispersion: threshold averaging")).to_be_visible()
    assert "cov_exp=fig4.3" in page.url
    # fig4.3's own defaults are shown (n = 10,000 per class, 90 %), not fig4.2's.
    expect(page.get_by_role("spinbutton", name="Instances per class (n)")).to_have_value("10000")
    expect(page.get_by_test_id("stPlotlyChart").first.locator("g.trace.scatter").first).to_be_attached()
    assert page.get_by_test_id("stPlotlyChart").first.locator("g.trace.scatter").count() >= 8  # 4 panels
    body = page.inner_text("body")
    assert "Exact coverage" in body and "Traceback" not in body
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "coverage_fig43")


def test_small_simulation_preset_runs_with_progress(page, app_url, wait, shot):
    page.goto(app_url + "/coverage?cov_exp=fig4.6&fig4.6_small=true")
    wait(page)
    expect(page.get_by_text("fig4.6 — Shape: vertical averaging")).to_be_visible()
    page.get_by_role("button", name="Run simulation").click()
    wait(page)
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=120_000)
    assert chart.locator("g.trace.scatter").count() >= 4  # target + four methods
    body = page.inner_text("body")
    assert "Simulated coverage over" in body and "Monte Carlo" in body
    # The summary table and the CSV download are there.
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download coverage (CSV)").click()
    path = ARTIFACTS / "rocci_coverage_fig4.6.csv"
    dl.value.save_as(str(path))
    header = path.read_text().splitlines()[0]
    assert header.startswith("experiment,panel,series,x,coverage,se,target,kind,replicates")
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "coverage_fig46_small")
