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
    expect(charts).to_have_count(12)
    for i in range(12):
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
    page.goto(app_url + "/learn?op_by=w+directly&op_w=0.6")  # the shared operating condition, set directly
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


def _fraud_file(path, n=5000, seed=2024):
    """Three models, 16% positives, string labels 'fraud'/'ok' (not in the repository)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.16
    z1 = rng.normal(np.where(y, 1.4, 0.0), 1.0)
    z2 = rng.normal(np.where(y, 1.0, 0.0), 1.0) * 0.7 + 0.3 * z1
    z3 = rng.normal(np.where(y, 0.6, 0.0), 1.0)
    sig = lambda z: 1 / (1 + np.exp(-(z - 2)))  # noqa: E731
    pd.DataFrame({"transaction_id": np.arange(n) + 10001, "is_fraud": np.where(y, "fraud", "ok"),
                  "gradient_boosting": np.round(sig(1.5 * z1), 4), "logistic": np.round(sig(1.3 * z2), 4),
                  "rules_score": np.round(np.clip(50 + 15 * z3, 0, 100)).astype(int)}).to_csv(path, index=False)
    return path


#: The figure data of each chart, read from the page (plotly keeps it on the graph's div).
_FIGURES = "() => [...document.querySelectorAll('.js-plotly-plot')].map(d => d.data.map(t => ({meta: t.meta, " \
           "color: t.line && t.line.color, name: t.name})))"


def test_learn_on_a_5000_row_upload_at_two_widths(page, app_url, wait, shot, tmp_path):
    """Section 3 on real-sized data draws at most 12 cost lines, hull lines first, no colour twice; every
    section says which data it uses; at 390 px nothing is wider than the screen and no control is cut."""
    from .test_dashboard import no_exception, upload

    page.goto(app_url)
    wait(page)
    upload(page, _fraud_file(tmp_path / "fraud_5000.csv"), wait)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Learn").click()
    wait(page)
    # The sidebar shows the upload; the page says it uses the worked example until asked.
    expect(page.get_by_text("Every section below uses the thesis's worked example")).to_be_visible()
    expect(page.get_by_text("not fraud_5000.csv, the file loaded on the Data page")).to_be_visible()
    page.get_by_test_id("stButtonGroup").get_by_role("radio").filter(has_text="Loaded data").click()
    wait(page)
    expect(page.get_by_text("Every section below uses fraud_5000.csv, model gradient_boosting, positive class "
                            "fraud")).to_be_visible()
    notes = page.get_by_text("Data: fraud_5000.csv, model gradient_boosting")
    expect(notes).to_have_count(6)
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts).to_have_count(12)
    for i in range(12):
        charts.nth(i).scroll_into_view_if_needed()
        expect(charts.nth(i).locator(".main-svg").first).to_be_visible()
    figures = page.evaluate(_FIGURES)
    envelope = [f for f in figures if any(t["meta"] and t["meta"][0] == "hull-line" for t in f)]
    assert len(envelope) == 1  # section 3's cost lines
    hull_lines = [t for t in envelope[0] if t["meta"] and t["meta"][0] == "hull-line"]
    others = [t for t in envelope[0] if t["meta"] and t["meta"][0] == "cost-lines"]
    assert hull_lines and len(hull_lines) + sum(t["meta"][1] for t in others) <= 12
    colors = [t["color"] for t in hull_lines]
    assert len(set(colors)) == len(colors)
    no_exception(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0
    page.get_by_role("heading", name="3 · The cost curve is the ROC convex hull").scroll_into_view_if_needed()
    shot(page, "learn_5000_rows_1400")

    page.set_viewport_size({"width": 390, "height": 2400})
    page.wait_for_timeout(1500)
    wide = page.evaluate("""() => [...document.querySelectorAll('[data-testid=stMain] *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                && !e.closest('[data-testid=stDataFrame]') && !e.closest('[data-testid=stTable]')
                && !e.closest('[data-testid=stPlotlyChart]')  // plotly's own clip paths; the chart box is below
                && !(e.tagName === 'INPUT' && e.type === 'range'))  // a slider's invisible native input
        .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
    assert not wide, wide
    assert all(r <= 390 for r in page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')].map(e => e.getBoundingClientRect().right)"))
    for option in ("Worked example", "Loaded data"):
        radio = page.get_by_test_id("stButtonGroup").get_by_role("radio").filter(has_text=option)
        assert radio.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), option
    # Legends inside their chart (sized to fit: no legend scroll bar).
    assert page.locator(".legend .scrollbar").count() == 0 or all(
        not b.is_visible() for b in page.locator(".legend .scrollbar").all())
    page.get_by_role("heading", name="3 · The cost curve is the ROC convex hull").scroll_into_view_if_needed()
    shot(page, "learn_5000_rows_390")
    no_exception(page)


@pytest.mark.parametrize("width", [1400, 390])
def test_decision_section_at_two_widths(browser, app_url, wait, shot, width):
    """Section 6: the decision curve and the cost line side by side (stacked on a phone), the p slider moves
    w(p) to the formula's value, nothing wider than the screen."""
    context = browser.new_context(viewport={"width": width, "height": 1400})
    page = context.new_page()
    try:
        page.goto(app_url + "/learn?ln_p=0.3")
        wait(page)
        heading = page.get_by_role("heading", name="6 · A decision curve is a cost curve read another way")
        heading.scroll_into_view_if_needed()
        expect(heading).to_be_visible()
        y, _ = _example()
        share = y.mean()
        assert _metric(page, "w(p)") == f"{share * 0.7 / (share * 0.7 + (1 - share) * 0.3):.4f}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 2
        page.wait_for_timeout(300)
        shot(page, f"learn_decision_{width}")
    finally:
        context.close()
