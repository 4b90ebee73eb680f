"""The Compare page with six models in a real browser (issue 32): the leaderboard comes first, a pair's
verdict opens in one click, and a phone (390 px) shows it without horizontal scrolling."""

from __future__ import annotations

import pytest

import rocci
from realistic import six_models_frame

from .test_decision import go, no_exception, upload

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails, if required) with a message
    expect = None

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1400, 390])
def test_six_models_leaderboard(browser, app_url, tmp_path, wait, shot, width):
    path = tmp_path / "six_models.csv"
    frame = six_models_frame()
    frame.to_csv(path, index=False)
    y = frame["outcome"].to_numpy() == "fraud"
    ranked = sorted(("gbm", "xgb", "logit", "forest", "rules", "naive"),
                    key=lambda m: -rocci.roc_auc(y, frame[m].to_numpy(float)).auc)
    first = f"Is {ranked[0]} better than {ranked[1]}?"  # the page opens on the leaderboard's first two
    context = browser.new_context(viewport={"width": width, "height": 2000})
    page = context.new_page()
    try:
        upload(page, app_url, path, wait)
        go(page, "Compare models", wait)
        no_exception(page)
        expect(page.get_by_role("heading", name="All 6 models")).to_be_visible()
        body = page.inner_text("body")
        assert f"Highest AUC: {ranked[0]}" in body
        assert "DeLong's test that all 6 AUCs are equal" in body
        # the leaderboard comes before the two-model verdict
        board_y = page.get_by_role("heading", name="All 6 models").bounding_box()["y"]
        verdict_y = page.get_by_role("heading", name=first).bounding_box()["y"]
        assert board_y < verdict_y
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 2
        shot(page, f"compare_six_{width}")
        page.get_by_text("Every pair (15)").click()
        wait(page)
        page.get_by_role("button", name="Open this pair's verdict").click()  # the table's first pair
        wait(page)
        no_exception(page)
        expect(page.get_by_role("heading", name="Is gbm better than xgb?")).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_two_test_sets_unpaired(browser, app_url, tmp_path, wait, shot, width):
    """Two months in one file: split by the month column; the verdict says it is unpaired and why wider."""
    from realistic import two_months_frame

    frame = two_months_frame()
    frame["challenger"] = (frame["churn_model"] ** 1.3).round(4)
    path = tmp_path / "churn_two_months.csv"
    frame.to_csv(path, index=False)
    context = browser.new_context(viewport={"width": width, "height": 1800})
    page = context.new_page()
    try:
        upload(page, app_url, path, wait)
        go(page, "Compare models", wait)
        page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Split the rows by a column").click()
        wait(page)
        no_exception(page)
        body = page.inner_text("body")
        assert "Unpaired comparison" in body and "no row is in both" in body
        expect(page.get_by_role("heading", name="Is churn_model on 2026-09 better than churn_model on 2026-10?")
               ).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 2
        shot(page, f"compare_unpaired_{width}")
    finally:
        context.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_two_files_from_different_months(browser, app_url, tmp_path, wait, shot, width):
    """September's file on the Data page, October's uploaded on the Compare page as the second test set."""
    from realistic import two_months_frame

    frame = two_months_frame()
    frame["challenger"] = (frame["churn_model"] ** 1.3).round(4)
    sep = tmp_path / "churn_2026-09.csv"
    oct_ = tmp_path / "churn_2026-10.csv"
    frame[frame.month == "2026-09"].drop(columns="month").to_csv(sep, index=False)
    frame[frame.month == "2026-10"].drop(columns="month").to_csv(oct_, index=False)
    context = browser.new_context(viewport={"width": width, "height": 1800})
    page = context.new_page()
    try:
        upload(page, app_url, sep, wait)
        go(page, "Compare models", wait)
        page.get_by_test_id("stButtonGroup").get_by_role("radio", name="A second file").click()
        wait(page)
        expect(page.get_by_text("Upload the second test set on the left")).to_be_visible()
        page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(oct_))
        wait(page)
        no_exception(page)
        body = page.inner_text("body")
        assert "Unpaired comparison" in body and "churn_2026-10.csv" in body
        assert "Cost at your operating condition" in body and "A is cheaper in" in body  # the third card
        expect(page.get_by_role(
            "heading", name="Is churn_model on churn_2026-09.csv better than churn_model on churn_2026-10.csv?")
        ).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 2
        shot(page, f"compare_second_file_{width}")
    finally:
        context.close()
