"""Cost curves page in a real browser: the chart and the results table are drawn, with rocci's numbers."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci import data as rdata

from .conftest import ARTIFACTS, ROOT

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


def test_cost_page_shows_chart_and_table(page, app_url, wait, shot):
    page.goto(app_url + "/cost")
    wait(page)
    expect(page.get_by_role("heading", name="Cost curves")).to_be_visible()
    # Three charts: the cost curve, the linked ROC view and the cost difference (two models in the sample).
    charts = page.locator("[data-testid='stPlotlyChart']")
    expect(charts).to_have_count(3)
    expect(charts.first.locator(".main-svg").first).to_be_visible()
    assert charts.first.locator("g.trace.scatter").count() >= 6
    # The shown cost at w = 0.5 is rocci's.
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    # The default operating condition: the data's share of positives, unit costs (said so on the page).
    y = np.asarray(prep.is_positive)
    w = rocci.operating_point(float(y.mean()), 1.0, 1.0)
    ci = rocci.cost_ci(y, np.asarray(prep.scores["logistic"], float), w=[w])
    body = page.inner_text("body")
    assert "Operating point w" in body and f"{w:.4f}" in body
    assert f"Prior from your data: {100 * y.mean():.1f}%" in body
    assert f"{ci.cost[0]:.4f}" in body
    assert f"[{ci.cost_low[0]:.4f}, {ci.cost_high[0]:.4f}]" in body
    assert "cheaper at the 95% level" in body
    assert "Cost difference · logistic − naive_bayes" in body  # A − B (0.2.0)
    # The results table (a canvas data grid) and its download.
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    expect(page.get_by_role("tab", name="Cost intervals")).to_be_visible()
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download cost intervals (CSV)").click()
    path = ARTIFACTS / "rocci_cost_ci.csv"
    dl.value.save_as(str(path))
    text = path.read_text()
    assert text.splitlines()[0].startswith("model,w,threshold,cost,cost_std,cost_low,cost_high")
    assert len(text.splitlines()) == 1 + 202
    assert page.get_by_test_id("stException").count() == 0
    assert "Traceback" not in body
    shot(page, "cost_page")


def test_click_on_cost_chart_moves_the_roc_point(page, app_url, wait, shot):
    """Clicking the cost curve at w = 0.3 shows, in the linked ROC view, the hull vertex optimal at 0.3
    and its iso-performance line; the sizes m+ and m− are stated."""
    page.goto(app_url + "/cost")
    wait(page)
    body = page.inner_text("body")
    assert "optimal at the current w = " in body
    assert "m+ = " in body and "m− = " in body
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    y, s = np.asarray(prep.is_positive), np.asarray(prep.scores["logistic"], float)
    curve = rocci.cost_curve(y, s, w=[0.3])
    chart = page.locator("[data-testid='stPlotlyChart']").first.locator(".js-plotly-plot")
    box = chart.bounding_box()
    px, py = chart.evaluate(
        "(el, p) => [el._fullLayout.xaxis._offset + el._fullLayout.xaxis.l2p(p[0]),"
        " el._fullLayout.yaxis._offset + el._fullLayout.yaxis.l2p(p[1])]",
        [0.3, float(curve.cost[0])],
    )
    page.mouse.move(box["x"] + px, box["y"] + py)
    page.wait_for_timeout(300)
    page.mouse.click(box["x"] + px, box["y"] + py)
    wait(page)
    body = page.inner_text("body")
    assert "w = 0.300, the point clicked on the cost chart" in body
    roc = page.locator("[data-testid='stPlotlyChart']").nth(1)
    thr = curve.threshold[0]
    assert f"optimal at w = 0.300: threshold {thr:.6g}" in roc.inner_text()
    assert page.get_by_test_id("stException").count() == 0
    shot(page, "cost_click_linked_roc")


def test_hover_on_cost_chart_outlines_the_roc_point(page, app_url, wait, shot):
    """Hovering w = 0.3 on the cost chart outlines, in the ROC view, the hull vertex optimal at 0.3 and
    its iso-performance line of slope (1 − w)/w, at the right pixels; leaving the chart removes it."""
    page.goto(app_url + "/cost")
    wait(page)
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    y, s = np.asarray(prep.is_positive), np.asarray(prep.scores["logistic"], float)
    curve = rocci.cost_curve(y, s, w=[0.3])
    hull = rocci.cost_curve(y, s)
    k = int(np.flatnonzero(hull.hull_thresholds == curve.threshold[0])[0])
    fpr, tpr = float(hull.hull_fpr[k]), float(hull.hull_tpr[k])
    charts = page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot")
    cost, roc = charts.nth(0), charts.nth(1)
    box = cost.bounding_box()
    px, py = cost.evaluate(
        "(el, p) => [el._fullLayout.xaxis._offset + el._fullLayout.xaxis.l2p(p[0]),"
        " el._fullLayout.yaxis._offset + el._fullLayout.yaxis.l2p(p[1])]",
        [0.3, float(curve.cost[0])],
    )
    page.wait_for_timeout(600)  # the link attaches within 0.4 s of the charts being drawn
    page.mouse.move(box["x"] + px, box["y"] + py)
    link = roc.locator("svg.rocci-hover-link")
    expect(link).to_have_count(1)
    assert float(link.get_attribute("data-w")) == pytest.approx(0.3)
    assert float(link.get_attribute("data-fpr")) == pytest.approx(fpr, abs=1e-12)
    assert float(link.get_attribute("data-tpr")) == pytest.approx(tpr, abs=1e-12)
    cx, cy = (float(link.locator("circle").get_attribute(a)) for a in ("cx", "cy"))
    ex, ey = roc.evaluate(
        "(el, p) => [el._fullLayout.xaxis._offset + el._fullLayout.xaxis.l2p(p[0]),"
        " el._fullLayout.yaxis._offset + el._fullLayout.yaxis.l2p(p[1])]", [fpr, tpr])
    assert (cx, cy) == (pytest.approx(ex), pytest.approx(ey))
    # The line's slope in data units is (1 − w)/w (Plotly's l2p rounds pixels to 0.01, so over the
    # line's span of several hundred pixels the slope read back is exact to a few 1e-5).
    x1, y1, x2, y2 = (float(link.locator("line").get_attribute(a)) for a in ("x1", "y1", "x2", "y2"))
    d = roc.evaluate("(el, q) => q.map((v, i) => i % 2 ? el._fullLayout.yaxis.p2l(v - el._fullLayout.yaxis._offset)"
                     " : el._fullLayout.xaxis.p2l(v - el._fullLayout.xaxis._offset))", [x1, y1, x2, y2])
    assert (d[3] - d[1]) / (d[2] - d[0]) == pytest.approx(0.7 / 0.3, rel=1e-4)
    shot(page, "cost_hover_linked_roc")
    page.mouse.move(5, 5)
    expect(link).to_have_count(0)
