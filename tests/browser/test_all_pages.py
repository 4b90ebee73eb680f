"""Every page, in a real browser: it loads from the bundled sample and from an uploaded file without an
exception element or error box, a link with the page's choices restores them, and a screenshot of each
page is saved (test-artifacts/page_*.png) to look at."""

from __future__ import annotations

import numpy as np
import pytest

from .test_dashboard import no_exception, upload

pytestmark = pytest.mark.browser

# url path -> (title in the navigation, a query string setting one of its choices, the parameter that
# must still be in the URL once the page has run (a widget that rejected the value would drop it))
PAGES = {
    "data": ("Data", "", None),
    "roc": ("ROC curve", "level=90%25", "level=90%25"),
    "precision": ("Precision–recall", "pr_level=90%25", "pr_level=90%25"),
    "cost": ("Cost curves", "cost_level=90%25", "cost_level=90%25"),
    "decision": ("Decision curve", "dc_level=90%25", "dc_level=90%25"),
    "compare": ("Compare models", "cmp_level=90%25&cmp_tab=AUC+%28DeLong%29", "cmp_level=90%25"),
    "explorer": ("Threshold explorer", "ex_by=Youden", "ex_by=Youden"),
    "folds": ("Folds & classes", "fc_avg=Threshold", "fc_avg=Threshold"),
    "coverage": ("Coverage lab", "cov_seed=7", "cov_seed=7"),
    "learn": ("Learn", "ln_seed=7", "ln_seed=7"),
}


@pytest.mark.parametrize("path", list(PAGES))
def test_each_page_loads_from_the_sample_and_keeps_its_link(page, app_url, wait, shot, path):
    title, query, kept = PAGES[path]
    page.goto(f"{app_url}/{path}" + (f"?{query}" if query else ""))
    wait(page)
    heading = page.get_by_test_id("stMainBlockContainer").get_by_role("heading").first
    assert heading.is_visible()
    no_exception(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0, page.get_by_test_id(
        "stAlertContentError").first.inner_text()
    assert page.get_by_test_id("stPlotlyChart").count() >= 1
    if kept:
        assert kept in page.url, (kept, page.url)
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.wait_for_timeout(500)
    shot(page, f"page_{path}")


def test_every_page_works_on_an_uploaded_two_model_file(page, app_url, tmp_path, wait, shot):
    rng = np.random.default_rng(11)
    n = 400
    y = rng.random(n) < 0.35
    a = rng.normal(size=n) + 1.2 * y
    b = 0.6 * a + 0.8 * rng.normal(size=n) + 0.6 * y
    path = tmp_path / "two_models.csv"
    with open(path, "w") as f:
        f.write("outcome,model_a,model_b\n")
        for yi, ai, bi in zip(y, a, b):
            f.write(f"{int(yi)},{ai:.4f},{bi:.4f}\n")
    page.goto(app_url)
    wait(page)
    upload(page, path, wait)
    no_exception(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0
    for url_path, (title, _, _) in PAGES.items():
        if url_path == "data":
            continue
        page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
        wait(page)
        no_exception(page)
        assert page.get_by_test_id("stAlertContentError").count() == 0, (title, page.get_by_test_id(
            "stAlertContentError").first.inner_text())
        if url_path not in ("coverage", "learn"):  # these two do not need the data
            assert "two_models.csv" in page.get_by_test_id("stSidebar").inner_text()
        shot(page, f"upload_{url_path}")
