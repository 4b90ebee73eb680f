"""The "Large data (server)" source in a real browser: a server started with ROCCI_DATA_DIR lists the
directory's files; a person picks one, scans it (progress, then the summary) and opens the ROC and
Compare pages, which work from the counts.  Screenshots at 1400 and 390 px wide."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM_ARGS, running_server  # noqa: E402
from test_dashboard import choose, no_exception, segment  # noqa: E402

import rocci  # noqa: E402


def _frame(n=20_000, seed=3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    base = rng.normal(size=n)
    frame = pd.DataFrame({"account": np.arange(n), "status": np.where(y, "default", "paid")})
    for name, sep in (("gbm", 1.6), ("logit", 1.1)):
        frame[name] = np.round(1 / (1 + np.exp(-(sep * y + 0.6 * base + rng.normal(size=n) - 1.5))), 3)
    frame.loc[::997, "gbm"] = np.nan
    return frame


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    (root / "2026").mkdir()
    _frame().to_parquet(root / "2026" / "loans.parquet", index=False)
    _frame(seed=4).to_csv(root / "applications.csv", index=False)
    (root / "notes.md").write_text("not data")
    with running_server("streamlit-server-large.log", env={"ROCCI_DATA_DIR": str(root)}) as (_, url):
        yield root, url


@pytest.fixture
def large_page(browser, served):
    context = browser.new_context(viewport={"width": 1400, "height": 2200}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    try:
        yield pg
    finally:
        context.close()


def test_pick_a_file_scan_it_and_open_the_roc_and_compare_pages(large_page, served, wait, shot):
    root, url = served
    page = large_page
    page.goto(url)
    wait(page)
    segment(page, "Large data (server)", wait)
    main = page.get_by_test_id("stMain")
    expect(main).to_contain_text(str(root))
    choose(page, "File in the data directory", "2026/loans.parquet", wait)
    # the guesses: status is the label, 'default' the rarer class, gbm and logit the models
    expect(page.get_by_role("combobox", name="Positive label", exact=True)).to_have_value("default")
    models = page.get_by_test_id("stMultiSelect")
    expect(models).to_contain_text("gbm")
    expect(models).to_contain_text("logit")
    no_exception(page)
    page.get_by_role("button", name="Scan").click()
    wait(page)
    res = rocci.scan(root / "2026" / "loans.parquet", label="status", scores=["gbm", "logit"],
                     pos_label="default")
    metrics = page.get_by_test_id("stMetric")
    expect(metrics.filter(has_text="Rows read")).to_contain_text(f"{res.n_rows_in:,}")
    expect(metrics.filter(has_text="Rows dropped")).to_contain_text(f"{res.n_dropped:,}")
    expect(metrics.filter(has_text="Positives")).to_contain_text(f"{res['gbm'].n_pos:,}")
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()  # the histograms, from the counts
    expect(page.get_by_test_id("stSidebar")).to_contain_text("large data on the server")
    no_exception(page)
    shot(page, "browser_large_data_1400")

    page.get_by_test_id("stSidebarNavLink").filter(has_text="ROC curve").click()
    wait(page)
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart).to_contain_text("confidence rectangles")
    auc = rocci.roc_auc(res["gbm"]).auc
    expect(page.get_by_test_id("stMetric").filter(has_text="AUC · gbm")).to_contain_text(f"{auc:.3f}")
    no_exception(page)
    shot(page, "browser_large_roc_1400")

    page.get_by_test_id("stSidebarNavLink").filter(has_text="Compare models").click()
    wait(page)
    expect(page.get_by_test_id("stMain")).to_contain_text("Is gbm better than logit?")
    paired = rocci.scan(root / "2026" / "loans.parquet", label="status", scores=["gbm", "logit"],
                        pos_label="default", paired=True)
    delta = rocci.compare_auc(paired.paired("gbm", "logit")).delta
    expect(page.get_by_test_id("stMetric").filter(has_text="ΔAUC").first).to_contain_text(f"{delta:+.3f}")
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
    no_exception(page)
    shot(page, "browser_large_compare_1400")

    # a phone: the same session, 390 px wide
    page.set_viewport_size({"width": 390, "height": 2400})
    wait(page)
    no_exception(page)
    shot(page, "browser_large_compare_390")
    page.set_viewport_size({"width": 1400, "height": 2200})  # (the phone's sidebar is folded away)
    wait(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Data").click()
    wait(page)
    page.set_viewport_size({"width": 390, "height": 2400})
    wait(page)
    expect(page.get_by_test_id("stMetric").filter(has_text="Rows read")).to_contain_text(f"{res.n_rows_in:,}")
    no_exception(page)
    shot(page, "browser_large_data_390")


def test_a_path_outside_is_an_error_box(large_page, served, wait):
    root, url = served
    page = large_page
    page.goto(url)
    wait(page)
    segment(page, "Large data (server)", wait)
    box = page.get_by_test_id("stTextInput").filter(has_text="Or a path or glob").locator("input")
    box.fill("../../../etc/passwd")
    box.press("Enter")
    wait(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("outside the data directory")
    no_exception(page)
