"""Every page from the Large-data source's counts, in a real browser, above the expansion limit (issue 16).

A server started with ROCCI_DATA_DIR (a generated Parquet file of 20,000 rows, two models) and
ROCCI_MAX_INSTANCES=1000: the counts stand for twenty times more instances than the dashboard would
expand, so the threshold explorer, the precision–recall page, the Compare page's dominance map and
McNemar tab, and the Learn page must all run from the counts: no refusal, no error box, no traceback.
Full-page screenshots at 1400 and 390 px wide go to test-artifacts/ (large_<page>_<width>.png).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

import rocci

from .conftest import ARTIFACTS, running_server
from .test_dashboard import large_source, no_exception, segment

REFUSAL = "needs one row per instance"


def _frame(n=20_000, seed=7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.15
    base = rng.normal(size=n)
    frame = pd.DataFrame({"status": np.where(y, "fraud", "ok")})
    for name, sep in (("gbm", 1.7), ("logit", 1.1)):
        frame[name] = np.round(1 / (1 + np.exp(-(sep * y + 0.6 * base + rng.normal(size=n) - 2.0))), 3)
    return frame


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("served_pages")
    _frame().to_parquet(root / "scores.parquet", index=False)
    env = {"ROCCI_DATA_DIR": str(root), "ROCCI_MAX_INSTANCES": "1000"}
    with running_server("streamlit-server-large-pages.log", env=env) as (_, url):
        yield root, url


def clean(page):
    no_exception(page)
    main = page.get_by_test_id("stMain")
    assert page.get_by_test_id("stAlertContentError").count() == 0, main.inner_text()
    assert REFUSAL not in main.inner_text()


def shots(page, name: str, wait) -> None:
    """Full-page screenshots at 1400 and 390 px wide, then back to 1400 (the sidebar's links)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1400, 7000), (390, 12000)):  # tall: Streamlit scrolls inside the page, not the window
        page.set_viewport_size({"width": width, "height": height})
        wait(page, settle_ms=800)
        clean(page)
        page.screenshot(path=str(ARTIFACTS / f"large_{name}_{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 2200})
    wait(page)


def open_page(page, title: str, wait) -> None:
    page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
    wait(page)
    clean(page)


def test_every_page_works_from_the_counts_above_the_limit(large_page, served, wait):
    root, url = served
    page = large_page
    large_source(page, url, wait, "scores.parquet")
    page.get_by_role("button", name="Scan").click()
    wait(page)
    no_exception(page)
    res = rocci.scan(root / "scores.parquet", label="status", scores=["gbm", "logit"], pos_label="fraud",
                     paired=True)
    assert res["gbm"].n_pos + res["gbm"].n_neg == 20_000
    main = page.get_by_test_id("stMain")

    open_page(page, "Threshold explorer", wait)
    expect(main).to_contain_text("Confusion matrix")
    expect(main).to_contain_text("Indicators with intervals")
    expect(page.get_by_test_id("stMetric").filter(has_text="Predicted positive")).to_contain_text("of 20,000")
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
    shots(page, "explorer", wait)

    open_page(page, "Precision–recall", wait)
    expect(main).to_contain_text("At a threshold")
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
    run = page.get_by_role("button", name="Compute the verdict")
    if run.count():
        run.click()
        wait(page)
        no_exception(page)
        assert page.get_by_test_id("stAlertContentError").count() == 0
    shots(page, "precision", wait)

    open_page(page, "Compare models", wait)
    page.get_by_role("tab", name="Dominance map").click()
    wait(page)
    clean(page)
    expect(main).to_contain_text("dominates) at every pair of thresholds")
    shots(page, "compare_map", wait)
    page.get_by_role("tab", name="McNemar").click()
    wait(page)
    clean(page)
    expect(page.get_by_test_id("stMetric").filter(has_text="χ² (McNemar")).to_be_visible()
    shots(page, "compare_mcnemar", wait)

    open_page(page, "Learn", wait)
    segment(page, "Loaded data", wait)
    clean(page)
    n_pos, n_neg = res["gbm"].n_pos, res["gbm"].n_neg
    expect(main).to_contain_text(f"{n_pos:,} positives, {n_neg:,} negatives")
    expect(main).not_to_contain_text("Showing the worked example")
    shots(page, "learn", wait)
