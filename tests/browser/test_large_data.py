"""The "Large data (server)" source in a real browser: a server started with ROCCI_DATA_DIR lists the
directory's files; a person picks one, scans it (progress, then the summary) and opens the ROC and
Compare pages, which work from the counts; with a fold column, the Folds & classes page works from each
fold's counts.  Screenshots at 1400 and 390 px wide."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

import rocci

from .conftest import running_server
from .test_dashboard import choose, large_source, no_exception


def _frame(n=20_000, seed=3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    base = rng.normal(size=n)
    frame = pd.DataFrame({"account": np.arange(n), "status": np.where(y, "default", "paid")})
    for name, sep in (("gbm", 1.6), ("logit", 1.1)):
        frame[name] = np.round(1 / (1 + np.exp(-(sep * y + 0.6 * base + rng.normal(size=n) - 1.5))), 3)
    frame.loc[::997, "gbm"] = np.nan
    return frame


def _cv_frame(n=6000, seed=5) -> pd.DataFrame:
    """Cross-validation output: five folds of unequal sizes, 12 rows without a fold, two tied models."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    fold = rng.choice(np.arange(1, 6), n, p=[0.1, 0.15, 0.2, 0.25, 0.3]).astype(float)
    fold[rng.choice(n, 12, replace=False)] = np.nan
    frame = pd.DataFrame({"cv_fold": pd.array(fold, dtype="Int64"), "target": y.astype(int)})
    for name, sep in (("forest", 1.4), ("ridge", 1.0)):
        frame[name] = np.round(1 / (1 + np.exp(-(sep * y + rng.normal(size=n) - 0.8))), 2)
    return frame


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    (root / "2026").mkdir()
    _frame().to_parquet(root / "2026" / "loans.parquet", index=False)
    _frame(seed=4).to_csv(root / "applications.csv", index=False)
    (root / "notes.md").write_text("not data")
    (root / "cv").mkdir()
    _cv_frame().to_parquet(root / "cv" / "folds.parquet", index=False)
    with running_server("streamlit-server-large.log", env={"ROCCI_DATA_DIR": str(root)}) as (_, url):
        yield root, url


def test_pick_a_file_scan_it_and_open_the_roc_and_compare_pages(large_page, served, wait, shot):
    root, url = served
    page = large_page
    large_source(page, url, wait)
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
    delta = rocci.compare_auc(paired.paired("gbm", "logit")).delta_auc
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
    large_source(page, url, wait)
    box = page.get_by_test_id("stTextInput").filter(has_text="Or a path or glob").locator("input")
    box.fill("../../../etc/passwd")
    box.press("Enter")
    wait(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("outside the data directory")
    no_exception(page)


def test_choose_the_fold_column_scan_and_open_the_folds_page(browser, served, wait, shot):
    root, url = served
    context = browser.new_context(viewport={"width": 1400, "height": 2600})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        large_source(page, url, wait, "cv/folds.parquet")
        expect(page.get_by_role("combobox", name="Fold / group column (optional)", exact=True)).to_be_visible()
        models = page.get_by_test_id("stMultiSelect")
        for name in ("forest", "ridge"):  # (the guesses were made for the first file)
            if name not in models.inner_text():
                models.click()
                page.get_by_role("option", name=name, exact=True).click()
                wait(page)
        page.keyboard.press("Escape")
        choose(page, "Fold / group column (optional)", "cv_fold", wait)
        no_exception(page)
        shot(page, "browser_large_folds_form_1400")
        page.get_by_role("button", name="Scan").click()
        wait(page)
        frame = _cv_frame()
        rows = frame.dropna(subset=["cv_fold"])
        y, f = rows["target"].to_numpy(), rows["cv_fold"].to_numpy(dtype=np.int64)
        main = page.get_by_test_id("stMain")
        expect(main).to_contain_text("Fold column cv_fold: 5 folds")
        expect(main).to_contain_text("12 rows with no fold value dropped")
        n1 = int((f == 1).sum())
        expect(main).to_contain_text(f"1: {n1:,} rows ({int(y[f == 1].sum()):,} positive)")
        expect(page.get_by_test_id("stMetric").filter(has_text="Rows dropped")).to_contain_text("12")
        no_exception(page)
        shot(page, "browser_large_folds_data_1400")

        page.get_by_test_id("stSidebarNavLink").filter(has_text="Folds").click()
        wait(page)
        curves = rocci.fold_roc_curves(y, rows["forest"].to_numpy(), f)
        cmp = rocci.compare_folds(y, rows["forest"].to_numpy(), rows["ridge"].to_numpy(), f)
        metrics = page.get_by_test_id("stMetric")
        expect(metrics.filter(has_text="Folds")).to_contain_text("5")
        expect(metrics.filter(has_text="Mean of the fold AUCs")).to_contain_text(f"{curves.auc.mean():.4f}")
        expect(metrics.filter(has_text="p-value")).to_contain_text(f"{cmp.pvalue:.4f}")
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts).to_have_count(3)  # fold by fold, pooled, the paired t-test
        assert charts.first.locator("g.trace.scatter").count() >= 8  # five folds, the mean, its band, chance
        expect(main).to_contain_text("12 rows with no fold value dropped")
        no_exception(page)
        page.set_viewport_size({"width": 1400, "height": 4200})
        wait(page)
        shot(page, "browser_large_folds_page_1400")
        page.set_viewport_size({"width": 390, "height": 7000})
        wait(page)
        no_exception(page)
        shot(page, "browser_large_folds_page_390")
        page.set_viewport_size({"width": 1400, "height": 2600})
        wait(page)
        page.get_by_test_id("stSidebarNavLink").filter(has_text="Data").click()
        wait(page)
        page.set_viewport_size({"width": 390, "height": 3600})
        wait(page)
        expect(main).to_contain_text("Fold column cv_fold: 5 folds")
        no_exception(page)
        shot(page, "browser_large_folds_data_390")
    finally:
        context.close()


def test_another_file_gets_its_own_columns(large_page, served, wait, shot):
    """Switching files guesses the new file's label and models (the first file's choices do not stay)."""
    root, url = served
    page = large_page
    large_source(page, url, wait, "2026/loans.parquet")
    models = page.get_by_test_id("stMultiSelect")
    expect(models).to_contain_text("gbm")
    choose(page, "File in the data directory", "cv/folds.parquet", wait)
    expect(models).to_contain_text("forest")
    expect(models).to_contain_text("ridge")
    expect(models).not_to_contain_text("gbm")
    expect(page.get_by_role("combobox", name="Label column", exact=True)).to_have_value("target")
    no_exception(page)
    shot(page, "browser_large_switch_file_1400")
    page.set_viewport_size({"width": 390, "height": 2600})
    wait(page)
    expect(models).to_contain_text("forest")
    no_exception(page)
    shot(page, "browser_large_switch_file_390")
