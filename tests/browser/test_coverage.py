"""Coverage lab in a real browser: an exact preset draws at once, a small simulation runs with its
progress bar and draws error bars, the choices live in the URL; every preset opens at its own defaults
without a warning; on a phone the chart comes first and no method or shape name is cut."""

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
    # The preset of figure 4.3 (class separation; the 0.796 dip at θ = 5), chosen by its plain name.
    page.get_by_role("combobox", name="Preset").click()
    page.get_by_role("option", name="Threshold averaging, class separation (fig. 4.3)").click()
    wait(page)
    expect(page.get_by_role("heading", name="Threshold averaging: coverage vs positive rate, class separation "
                                             "(thesis fig. 4.3)")).to_be_visible()
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
    expect(page.get_by_role("heading", name="Vertical averaging: coverage vs FPR, score shapes (thesis fig. 4.6)")
           ).to_be_visible()
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


def test_every_preset_opens_without_a_warning(page, app_url, wait):
    """fig4.6–4.8 used to open with 'At most 12 FPR levels at once (got 19)' and no chart."""
    from rocci.coverage import EXPERIMENTS

    for name, exp in EXPERIMENTS.items():
        page.goto(f"{app_url}/coverage?cov_exp={name}")
        wait(page)
        expect(page.get_by_role("heading", name=exp.label)).to_be_visible()
        assert page.get_by_test_id("stAlertContentWarning").count() == 0, name
        assert page.get_by_test_id("stAlertContentError").count() == 0, name
        assert page.get_by_test_id("stException").count() == 0, name
        if exp.kind == "exact":
            expect(page.get_by_test_id("stPlotlyChart").first.locator(".main-svg").first).to_be_visible()
        else:
            expect(page.get_by_role("button", name="Run simulation")).to_be_visible()


def test_phone_chart_first_and_no_cut_names(page, app_url, wait, shot):
    page.set_viewport_size({"width": 390, "height": 2400})
    page.goto(app_url + "/coverage?cov_exp=fig4.6&fig4.6_small=true")
    wait(page)
    run = page.get_by_role("button", name="Run simulation")
    if run.count():  # not yet run on this server (finished simulations are kept for every session)
        run.click()
        wait(page)
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=120_000)
    # Results first: the chart is above the parameters.
    controls = page.get_by_text("Quick reduced size")
    assert chart.bounding_box()["y"] < controls.bounding_box()["y"]
    # Every method and shape is shown whole (multiselect tags used to be cut: "Exact bootstrap, sc…").
    for name in ("Exact bootstrap, score interval", "Exact bootstrap, percentile", "Kernel smoothing",
                 "MC percentile bootstrap (pROC)", "β(1.2,2) / β(1.2,3)"):
        pill = page.get_by_role("button", name=name, exact=True)
        expect(pill).to_be_visible()
        assert pill.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name
        assert pill.bounding_box()["x"] + pill.bounding_box()["width"] <= 390
    # Nothing wider than the screen but the table (which scrolls in its own box); the chart's title and
    # legend inside the chart.
    wide = page.evaluate("""() => [...document.querySelectorAll('[data-testid=stMain] *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                && !e.closest('[data-testid=stDataFrame]') && !e.closest('[data-testid=stPlotlyChart]'))
        .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
    assert not wide, wide
    box = chart.bounding_box()
    title = chart.locator(".gtitle").first.bounding_box()
    legend = chart.locator(".legend").first.bounding_box()
    assert title["x"] + title["width"] <= box["x"] + box["width"] + 1
    assert legend["y"] > title["y"] + title["height"]  # the legend is under the panels, never over the title
    chart.hover()
    bar = chart.locator(".modebar").first
    expect(bar).to_be_visible()
    assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= title["y"] + 1  # the toolbar clear of the title
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "coverage_phone")


PANEL_TITLES = """(chart) => [...chart.querySelectorAll('.annotation')]
    .map(a => { const r = a.getBoundingClientRect(); return {text: a.textContent, left: r.left, right: r.right,
                                                             top: r.top, bottom: r.bottom}; })"""


@pytest.mark.parametrize("width", [390, 1400])
def test_pr_recall_panel_titles_do_not_overlap(page, app_url, wait, shot, width):
    """"10% positives (40 of 400)" and "50% positives (200 of 400)" ran into each other on a phone."""
    page.set_viewport_size({"width": width, "height": 2400})
    page.goto(app_url + "/coverage?cov_exp=pr_recall&pr_recall_small=true")
    wait(page)
    run = page.get_by_role("button", name="Run simulation")
    if run.count():  # not yet run on this server (finished simulations are kept for every session)
        run.click()
        wait(page)
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=120_000)
    expect(chart.locator(".annotation").first).to_be_attached()
    titles = chart.evaluate(PANEL_TITLES)
    assert len(titles) == 2 and all("positives" in t["text"] for t in titles), titles
    box = chart.bounding_box()
    for t in titles:  # inside the chart
        assert box["x"] - 1 <= t["left"] and t["right"] <= box["x"] + box["width"] + 1, t
    a, b = sorted(titles, key=lambda t: t["left"])
    assert a["right"] <= b["left"], titles  # side by side, apart
    assert page.get_by_test_id("stException").count() == 0
    shot(page, f"coverage_pr_recall_{width}")
