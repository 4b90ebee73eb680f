"""The sidebar's HTML report, downloaded from a real browser and opened offline in it."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci import data as rdata

from .conftest import ARTIFACTS, ROOT

pytestmark = pytest.mark.browser


def test_html_report_of_the_compare_page_opens_offline_with_its_charts(page, app_url, wait, shot):
    page.goto(app_url + "/compare?cmp_rates=0.2%2C+0.4")
    wait(page)
    button = page.get_by_test_id("stSidebar").get_by_role("button", name="Download HTML report")
    with page.expect_download() as dl:
        button.click()
    assert dl.value.suggested_filename == "rocci_report_compare_models.html"
    path = ARTIFACTS / "rocci_report_compare.html"
    dl.value.save_as(str(path))
    text = path.read_text(encoding="utf-8")
    assert "<h1>rocci: Compare models</h1>" in text and "breast_cancer_cv.csv" in text
    assert "cmp_rates=0.2%2C+0.4" in text  # the view's settings, to reproduce it
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    y = np.asarray(prep.is_positive, bool)
    ref = rocci.compare_thresholds(y, np.asarray(prep.scores["logistic"], float),
                                   np.asarray(prep.scores["naive_bayes"], float), total_positive_rate=[0.2, 0.4])
    assert f"<td>{ref.p_a_dominates[1]:.6g}</td>" in text
    # opened from disk, with the network closed: the charts are drawn by the inlined plotly.js
    offline = page.context.new_page()
    offline.goto(path.as_uri())
    offline.wait_for_selector(".main-svg")
    assert offline.locator(".js-plotly-plot").count() >= 2  # the overlay and the dominance map
    offline.screenshot(path=str(ARTIFACTS / "report_compare.png"))
    offline.close()
